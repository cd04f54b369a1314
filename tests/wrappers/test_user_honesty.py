"""The scripted user knows only what an LLM user is told (issue 13's honesty tests).

For every task of every domain and data source: each fact, wish and reaction of the scripted
user's brief (its conduct off the path included) comes with the excerpt of the scenario text it
was read from, and that excerpt is part of the text an LLM user receives; and changing a task's
evaluation criteria leaves the scripted user's behaviour byte-identical, on the path (oracle)
and off it (a prober, the off-path agents).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tau_env
from tau_env.actions import SendMessage
from tau_env.baselines.off_path import OFF_PATH_LINES, LineAgent
from tau_env.baselines.oracle import OracleAgent
from tau_env.baselines.paraphrasing_oracle import ParaphrasingOracleAgent
from tau_env.episode_runner import run_episode
from tau_env.tasks.model import EvaluationCriteria
from tau_env.tasks.scenario_text import first_person
from tau_env.wrappers.users import ScriptedUser, read_brief
from tau_env.wrappers.users.comprehension import load_corpus, step_wordings
from tau_env.wrappers.users.register import REGISTERS
from tau_env.wrappers.users.voice_measures import Prober
from tests.conftest import domain_sources, each_source, source_id
from tests.families import task_of

SOURCES = each_source()
REPO = Path(__file__).resolve().parents[2]
HIDDEN = re.compile(
    r"evaluation_criteria|gold_actions|communicate_info|nl_assertions|expects_transfer"
)


def squashed(text):
    """`text` with every run of whitespace as one space (sections are indented in the text)."""
    return " ".join(text.split())


def elements(script):
    """Every fact, wish and reaction of a brief, as evidence keys."""
    keys = ["opening"]
    keys += [f"fact:{key}" for key in script.facts]
    keys += [f"done:{word}" for word in script.done_phrases]
    keys += [f"accept:{word}" for word in script.accepts]
    keys += [f"decline:{word}" for word in script.declines]
    keys += [f"goal:{check.tool}" for check in script.goal_checks]
    keys += [f"question:{index}" for index in range(len(script.questions))]
    if script.after_refusal != "stop":
        keys.append("after_refusal")
    conduct = script.conduct
    flags = ("no_transfer", "persistence", "on_refusal", "no_alternative", "budget", "healthy")
    keys += [f"conduct:{flag}" for flag in flags if getattr(conduct, flag)]
    keys += [f"confirm:{index}" for index in range(len(conduct.confirmations))]
    keys += [f"answer:{index}" for index in range(len(conduct.answers))]
    keys += [f"unknown:{label}" for label in conduct.unknown]
    keys += [f"withheld:{label}" for label in conduct.withheld]
    return keys


@SOURCES
def test_brief__every_element_is_read_from_the_scenario_text(domain_name, data_dir):
    domain = tau_env.load_domain(domain_name, data_dir)
    for task in domain.tasks:
        text = str(task.user_scenario)
        words = squashed(text)
        brief = read_brief(task, domain)
        script = brief.script
        for key in elements(script):
            assert key in brief.evidence, (task.id, key)
            assert squashed(brief.evidence[key]) in words, (task.id, key, brief.evidence[key])
        for key, value in script.facts.items():
            # A list ("reservation_ids": "A, B") is several values the text names one by one.
            named = value in text or all(part in text for part in value.split(", "))
            assert named, (task.id, key, value)
        # The opening is the excerpt in the user's voice, or the user's own quoted line as is.
        opening = brief.evidence["opening"]
        assert script.opening in {squashed(first_person(opening)), squashed(opening)}, task.id


def _other_criteria(task, tasks):
    """Criteria of another task (or none), to graft onto `task`: its gold plan, hidden labels,
    values to communicate and assertions all differ."""
    others = [t for t in tasks if t.evaluation_criteria != task.evaluation_criteria]
    return others[0].evaluation_criteria if others else EvaluationCriteria()


def _off_path(task):
    """Every off-path agent's lines in one episode: the user's conduct off the path.

    Off-script questions, confirmations, an alternative, a push, then a transfer offer and
    refusals (which end most calls).
    """
    order = ("off_script", "confirm_twice", "alternative", "push_back", "offer_transfer", "refuse")
    return LineAgent(task, lines=[line for name in order for line in OFF_PATH_LINES[name]])


# telecom-workflow plays the same tasks and users as telecom: not repeated.
BEHAVIOUR_SOURCES = [s for s in domain_sources() if s[0] != "telecom-workflow"]


@pytest.mark.parametrize(
    ("domain_name", "data_dir"), BEHAVIOUR_SOURCES, ids=[source_id(s) for s in BEHAVIOUR_SOURCES]
)
@pytest.mark.parametrize(
    ("agent", "every"),
    [(Prober, 1), (OracleAgent, 3), (_off_path, 2)],
    ids=["prober", "oracle", "off_path"],
)
def test_user__behaves_byte_identically_whatever_the_evaluation_criteria(
    domain_name, data_dir, agent, every
):
    env = tau_env.make_env(domain_name, data_dir=data_dir)
    domain = env.unwrapped.domain
    tasks = list(env.unwrapped.tasks)
    for task in tasks[::every]:
        swapped = task.model_copy(update={"evaluation_criteria": _other_criteria(task, tasks)})
        runs = []
        for variant in (task, swapped):
            # The agent and the world follow the real task; only the user's copy differs.
            result = run_episode(
                env,
                agent,
                lambda t, v=variant: ScriptedUser(v, domain),
                task_id=task.id,
                seed=0,
            )
            runs.append([m.model_dump() for m in result.trajectory if m.role == "user"])
        assert runs[0] == runs[1], task.id


HELDOUT = REPO / "tests" / "wrappers" / "users" / "data" / "paraphrases_heldout.toml"


@pytest.mark.parametrize("source", [None, "official"])
def test_user__reads_paraphrased_requests_the_same_whatever_the_evaluation_criteria(
    source, request
):
    """The concept reader and the not-understood replies (issue 54) read the agent's words
    and the scenario only: a paraphrasing oracle gets the same user with grafted criteria."""
    data_dir = request.getfixturevalue("data_dir") if source else None
    env = tau_env.make_env("telecom", data_dir=data_dir, split="test")
    domain = env.unwrapped.domain
    tasks = list(env.unwrapped.tasks)
    wordings = step_wordings(load_corpus(HELDOUT), "telecom")
    for index, task in enumerate(tasks[::4]):
        swapped = task.model_copy(update={"evaluation_criteria": _other_criteria(task, tasks)})
        agent = ParaphrasingOracleAgent.factory(wordings, index)
        runs = []
        for variant in (task, swapped):
            result = run_episode(
                env, agent, lambda t, v=variant: ScriptedUser(v, domain), task_id=task.id, seed=0
            )
            runs.append([m.model_dump() for m in result.trajectory if m.role == "user"])
        assert runs[0] == runs[1], task.id


def test_sources__of_users_and_rl_views_never_name_hidden_grading_data():
    for folder in ("wrappers/users", "wrappers/rl"):
        for path in sorted((REPO / folder).glob("*.py")):
            found = HIDDEN.findall(path.read_text(encoding="utf-8"))
            assert not found, (path.name, found)


def test_cancel_question__is_answered_not_taken_for_a_completion():
    # The example: a confirmation question naming the refund ended the call before.
    env = tau_env.make_env("retail")
    task = task_of("retail", "cancel")
    (refund,) = task.evaluation_criteria.communicate_info
    line = f"I can cancel this order now. You will get a refund of ${refund}. Do you confirm?"

    def agent(task):
        class Once:
            def act(self, view, context):
                return SendMessage(content=line)

        return Once()

    result = run_episode(env, agent, ScriptedUser.factory(env.unwrapped.domain), task_id=task.id)
    replies = [m.content for m in result.trajectory if m.role == "user"]
    assert replies[1] in REGISTERS["everyday"].yes  # a persona-less customer agrees
