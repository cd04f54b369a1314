"""The scripted user understands how agents word requests (issue 54 item 1).

The paraphrase corpus (data/paraphrases_{tuning,heldout}.toml): the vocabulary is fitted to
the tuning half only, the held-out half measures it. The held-out half (v2) was written fresh,
before any tuning against it, with at least 10 wordings per user tool and per identification
and confirmation question of its own; the first held-out half (v1), read while the reader was
extended, is now part of the tuning half. These tests assert the corpus's shape and the
bounds: each half understood at >= 95%, and an oracle that asks for each telecom plan step in
the held-out wordings passes >= 95% of built-in and official telecom ``test``
(benchmarks/user_understanding.py prints the figures; benchmarks/README.md records them).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import tau_env
from tau_env.actions import SendMessage
from tau_env.baselines.paraphrasing_oracle import ParaphrasingOracleAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import ScriptedUser
from tau_env.wrappers.users.comprehension import (
    KINDS,
    Wording,
    comprehension,
    load_corpus,
    not_understood_phrases,
    play_wording,
    step_wordings,
)

DATA = Path(__file__).parent / "data"
TUNING = load_corpus(DATA / "paraphrases_tuning.toml")
HELDOUT = load_corpus(DATA / "paraphrases_heldout.toml")
USER_TOOL_DOMAINS = ("telecom", "banking_knowledge", "mock")
IDENTIFYING_DOMAINS = ("airline", "retail", "banking_knowledge")

UNDERSTOOD = 0.95
"""Issue 54's bound: the share of each half understood."""
PLANS_FLOOR = {None: 0.95, "official": 0.95}
"""The paraphrasing oracle's pass rate on telecom ``test`` with the held-out wordings: issue
54's bound (measured on held-out v2: 1.000 built-in, 1.000 official; 1.000 and 0.967 before the
reader was tuned on the tuning half)."""


def _tools_asked(wordings: list[Wording]) -> Counter[str]:
    return Counter(
        tool for w in wordings if w.kind == "request" for t, _ in w.calls for tool in t.split("|")
    )


@pytest.mark.parametrize("domain", USER_TOOL_DOMAINS)
def test_corpus__has_ten_wordings_per_user_tool(domain):
    tools = tau_env.load_domain(domain).toolbox.tools("user").openai_schemas()
    names = {tool["function"]["name"] for tool in tools}
    asked = _tools_asked(TUNING.wordings + HELDOUT.wordings)
    assert {name: asked[name] for name in names if asked[name] < 10} == {}


@pytest.mark.parametrize("domain", USER_TOOL_DOMAINS)
def test_heldout__alone_has_ten_wordings_per_user_tool(domain):
    tools = tau_env.load_domain(domain).toolbox.tools("user").openai_schemas()
    names = {tool["function"]["name"] for tool in tools}
    asked = _tools_asked(HELDOUT.wordings)
    assert {name: asked[name] for name in names if asked[name] < 10} == {}


@pytest.mark.parametrize("domain", IDENTIFYING_DOMAINS)
def test_heldout__alone_has_ten_wordings_per_identification_and_confirmation_question(domain):
    wordings = [w for w in HELDOUT.wordings if w.domain == domain]
    questions = Counter(frozenset(w.facts) for w in wordings if w.kind == "fact")
    assert questions and min(questions.values()) >= 10, questions
    assert sum(w.kind == "confirm" for w in wordings) >= 10


@pytest.mark.parametrize("domain", IDENTIFYING_DOMAINS)
def test_corpus__has_ten_wordings_per_identification_and_confirmation_question(domain):
    wordings = [w for w in TUNING.wordings + HELDOUT.wordings if w.domain == domain]
    questions = Counter(frozenset(w.facts) for w in wordings if w.kind == "fact")
    assert questions and min(questions.values()) >= 10, questions
    assert sum(w.kind == "confirm" for w in wordings) >= 10


def test_corpus__halves_are_split_from_the_same_groups():
    """Every held-out group has its tuning twin (same domain, kind and request), both halves
    cover every kind, and no wording of a domain is in both."""

    def key(group):
        asked = {repr(w.calls) for w in group.wordings}  # one request, or items of their own
        calls = asked.pop() if len(asked) == 1 and len(group.wordings) > 1 else "items"
        return group.domain, group.kind, frozenset(group.wordings[0].facts), calls

    tuning = {key(g) for g in TUNING.groups}
    assert all(key(g) in tuning for g in HELDOUT.groups)
    assert {g.kind for g in HELDOUT.groups} == {g.kind for g in TUNING.groups} == set(KINDS)
    said = {(w.domain, w.text) for w in TUNING.wordings}
    assert not [w.text for w in HELDOUT.wordings if (w.domain, w.text) in said]


@pytest.mark.parametrize(("half", "corpus"), [("tuning", TUNING), ("held-out", HELDOUT)])
def test_comprehension__each_half_is_understood_at_95_percent(half, corpus):
    found = comprehension(corpus)
    assert len(found.outcomes) == len(corpus.wordings) > 300
    assert found.rate >= UNDERSTOOD, (half, found.rate)
    assert comprehension(corpus).rate == found.rate  # deterministic


def test_comprehension__counts_a_wrong_call_or_a_missing_fact_as_not_understood():
    profile = TUNING.profiles["telecom"]
    asked = Wording("telecom", "request", "Please restart your phone.", (("reboot_device", {}),))
    assert play_wording(asked, profile).understood
    wrong = Wording("telecom", "request", asked.text, (("toggle_data", {}),))
    assert not play_wording(wrong, profile).understood
    retail = TUNING.profiles["retail"]
    fact = Wording("retail", "fact", "What's your email?", facts=("email",))
    assert play_wording(fact, retail).understood
    other = Wording("retail", "fact", "What's your email?", facts=("zip",))
    assert not play_wording(other, retail).understood


def test_unclear_requests__are_answered_in_words_of_not_understanding():
    wording = Wording("telecom", "unclear", "Please turn on Bluetooth.")
    replies = {play_wording(wording, {}, seed=seed).reply for seed in range(8)}
    phrases = not_understood_phrases()
    assert all(any(p.split("{")[0].strip() in reply for p in phrases) for reply in replies)
    assert len(replies) > 1  # worded by the seed, as the user's other replies


@pytest.mark.parametrize("source", [None, "official"])
def test_paraphrasing_oracle__passes_telecom_test_in_held_out_wordings(source, request):
    data_dir = request.getfixturevalue("data_dir") if source else None
    env = tau_env.make_env("telecom", data_dir=data_dir, split="test")
    wordings = step_wordings(HELDOUT, "telecom")
    rewards = []
    for rotation in range(6):  # every held-out wording of every plan step is said
        agent = ParaphrasingOracleAgent.factory(wordings, rotation)
        user = ScriptedUser.factory(env.unwrapped.domain)
        for task in env.unwrapped.tasks:
            rewards.append(run_episode(env, agent, user, task_id=task.id, seed=rotation).reward)
    assert sum(rewards) / len(rewards) >= PLANS_FLOOR[source]


@pytest.mark.parametrize("grouped", [False, True])
def test_paraphrasing_oracle__passes_every_task_in_tuning_wordings(grouped):
    env = tau_env.make_env("telecom", split="test")
    wordings = step_wordings(TUNING, "telecom")
    agent = ParaphrasingOracleAgent.factory(wordings, 0, grouped=grouped)
    user = ScriptedUser.factory(env.unwrapped.domain)
    rewards = [run_episode(env, agent, user, task_id=t.id).reward for t in env.unwrapped.tasks]
    assert rewards == [1.0] * len(rewards)


def test_paraphrasing_oracle__grouped_asks_consecutive_user_steps_in_one_message():
    env = tau_env.make_env("telecom", split="test")
    wordings = step_wordings(TUNING, "telecom")
    task = max(env.unwrapped.tasks, key=lambda t: len(t.gold_actions))
    one = list(ParaphrasingOracleAgent(task, wordings).actions())
    grouped = list(ParaphrasingOracleAgent(task, wordings, grouped=True).actions())
    user_steps = [a for a in task.gold_actions if a.requestor != "assistant"]
    asks = [a for a in grouped if isinstance(a, SendMessage)][:-1]  # the closing one last
    assert len(asks) < len([a for a in one if isinstance(a, SendMessage)][:-1]) == len(user_steps)


def test_paraphrasing_oracle__passes_official_telecom_test_in_tuning_wordings_grouped_or_not(
    data_dir,
):
    """Every rotation: a novice (Hard persona) who does one step of a message wrong is asked
    the whole message again; a scenario line on the topic ("If the agent asks you to pay a
    bill, you accept") does not stand in for paying."""
    env = tau_env.make_env("telecom", data_dir=data_dir, split="test")
    wordings = step_wordings(TUNING, "telecom")
    failed = []
    for grouped in (False, True):
        for rotation in range(6):
            agent = ParaphrasingOracleAgent.factory(wordings, rotation, grouped=grouped)
            user = ScriptedUser.factory(env.unwrapped.domain)
            for task in env.unwrapped.tasks:
                reward = run_episode(env, agent, user, task_id=task.id, seed=rotation).reward
                if reward != 1.0:
                    failed.append((grouped, rotation, task.id))
    assert failed == []
