"""Off-path compliance: the checks judge replies as a person would; a sample of the benchmark."""

import tomllib
from pathlib import Path

import pytest

import tau_env
from tau_env.wrappers.users import ScriptedUser
from tau_env.wrappers.users.conduct_measures import CHECKS, judge, probes, replies_to

LABELS = Path(__file__).resolve().parents[3] / "benchmarks" / "off_path_labels.toml"


def check(name, reply, **parameters):
    return CHECKS[name][1](reply, parameters)


def test_checks__fire_on_the_issue_examples_and_pass_what_a_customer_should_say():
    # Told not to be transferred, the user asked for a human: the issue's airline example.
    assert not check("declines", "Can you put me through to a human agent, then?")
    assert not check("no_human", "Can you put me through to a human agent, then?")
    assert check("declines", "No, please don't transfer me. I'd like you to sort this out.")
    # Told to exchange only the lamp, the user confirmed both: the issue's retail example.
    scope = {"keep": "desk lamp", "drop": "water bottle"}
    assert not check("keeps_scope", "Yes, go ahead.", **scope)
    assert not check("keeps_scope", "Yes, the lamp and the water bottle.", **scope)
    only = "Please only exchange the desk lamp, not the water bottle."
    assert check("keeps_scope", only, **scope)
    # Off-script questions: neither "I don't know" nor a hang-up.
    assert not check("answers_why", "Sorry, I don't know that.")
    assert not check("answers_why", "Thanks, bye. ###STOP###")
    assert check("answers_why", "Because my plans changed.")
    assert not check("says_unknown", "My email is a@b.com.")
    assert check("says_unknown", "Sorry, I don't remember my email address.")
    assert check("says", "It was ordered by accident.", words=["mistake|accident"])


def test_probes__one_per_kind_with_a_check_for_each_reply():
    label = {
        "no_transfer": True,
        "persist": True,
        "decline": ["add insurance"],
        "confirm_only": {"action": "return", "keep": "mug", "drop": "plate"},
        "unknown": ["email address"],
        "budget": 100.0,
    }
    found = probes(label)
    kinds = [p.kind for p in found]
    assert kinds == [
        "no_transfer",
        "refusal",
        "decline",
        "confirm_only",
        "unknown",
        "budget",
        "off_script",
    ]
    assert all(len(p.lines) == len(p.checks) for p in found)
    assert probes({}) == []  # an unconstrained task is not probed


def test_replies_to__each_line_and_none_after_the_call_ended():
    from tau_env.messages import AssistantMessage, UserMessage

    trajectory = [
        AssistantMessage(content="Hi"),
        UserMessage(content="Hello"),
        AssistantMessage(content="A?"),
        UserMessage(content="No. ###STOP###"),
    ]
    assert replies_to(trajectory, ["A?", "B?"]) == ["No. ###STOP###", None]


SAMPLE = {"airline": ["5", "8", "13", "27", "43"], "retail": ["5", "6", "24", "29", "88"]}


@pytest.mark.parametrize("domain", sorted(SAMPLE))
def test_sample__the_scripted_user_holds_to_its_labelled_instructions(data_dir, domain):
    labels = tomllib.loads(LABELS.read_text(encoding="utf-8"))[domain]
    env = tau_env.make_env(domain, data_dir=data_dir)
    user = ScriptedUser.factory(env.unwrapped.domain)
    outcomes = judge(env, user, {i: labels[i] for i in SAMPLE[domain]}, seeds=(0, 1))
    kinds = {o.kind for o in outcomes}
    assert len(kinds) >= 5
    failed = [(o.task_id, o.seed, o.check, o.reply) for o in outcomes if not o.passed]
    assert len(failed) <= 0.05 * len(outcomes), failed
