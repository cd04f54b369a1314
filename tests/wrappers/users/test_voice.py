"""The scripted user's voice: seeded, persona-driven, readable by agents, never its script."""

import re

import pytest

import tau_env
from tau_env.wrappers.rl.airline_belief import AirlineBelief
from tau_env.wrappers.rl.retail_belief import RetailBelief
from tau_env.wrappers.rl.telecom_reading import intent_of
from tau_env.wrappers.users import ScriptedUser, read_brief
from tau_env.wrappers.users.matcher import did_not_follow
from tau_env.wrappers.users.register import REGISTERS, register_for
from tau_env.wrappers.users.style import STYLES

AGREES = re.compile(r"\b(yes|go ahead|please do|i confirm|confirmed)\b", re.IGNORECASE)
"""What an agent's parser takes for agreement (the RL desk views read it so)."""


def voice(task, domain, seed):
    return ScriptedUser(task, domain, seed=seed).voice


def test_opening__is_the_same_for_a_task_and_seed_and_changes_with_the_seed():
    domain = tau_env.load_domain("telecom")
    tasks = domain.tasks[:30]
    first = [voice(t, domain, 3).opening for t in tasks]
    assert first == [voice(t, domain, 3).opening for t in tasks]
    other = [voice(t, domain, 4).opening for t in tasks]
    assert sum(a != b for a, b in zip(first, other, strict=True)) >= 20


def test_opening__tasks_with_one_scenario_still_sound_different():
    domain = tau_env.load_domain("telecom")
    by_text = {}
    for task in domain.tasks:
        by_text.setdefault(str(task.user_scenario), []).append(task)
    twins = next(tasks for tasks in by_text.values() if len(tasks) >= 4)
    assert len({voice(t, domain, 0).opening for t in twins}) >= 3


@pytest.mark.parametrize(
    ("persona", "style", "register"),
    [
        ("", "plain", "everyday"),
        ("A busy engineer who answers in short sentences.", "plain", "terse"),
        ("You stay calm and cooperative.", "paraphrase", "polite"),
        ("You are anxious and have little technical knowledge.", "novice", "anxious"),
    ],
)
def test_register__follows_the_persona_and_style(persona, style, register):
    assert register_for(persona, STYLES[style]).name == register


def test_register__of_the_telecom_personas_differ_and_shape_the_opening():
    domain = tau_env.load_domain("telecom")
    by_persona = {}
    for task in domain.tasks:
        by_persona.setdefault(read_brief(task, domain).persona, task)
    openings = {
        ScriptedUser(task, domain).voice.register.name: voice(task, domain, 0).opening
        for task in by_persona.values()
    }
    assert set(openings) == {"everyday", "polite", "anxious"}


@pytest.mark.parametrize("name", sorted(REGISTERS))
def test_register__phrasings_keep_what_agents_read(name):
    register = REGISTERS[name]
    assert all(AGREES.search(text) for text in register.yes)
    assert not any(AGREES.search(text) for text in register.no)
    assert all("don't know" in text for text in register.unknown)
    assert all(text.endswith("don't know my {label}.") for text in register.unknown_fact)
    assert all(did_not_follow(text) for text in register.repeat)
    others = [
        *register.greetings,
        *register.prefaces,
        *register.closers,
        *register.yes,
        *register.no,
        *register.okay,
        *register.unknown,
        *register.fact_leads,
        *register.ask_human,
        *register.accept_refusal,
        *register.closing,
        *register.give_up,
    ]
    assert not any(did_not_follow(text) for text in others)
    assert all("human agent" in text for text in register.ask_human)
    # Holding to its instructions: no agreement an agent could read as a yes, no human asked.
    holding = [
        *register.decline_transfer,
        *register.decline_again,
        *register.too_expensive,
        *register.healthy,
        *register.withhold,
    ]
    assert not any(AGREES.search(text) for text in holding)
    assert not any("human agent" in text for text in register.decline_transfer)
    assert all("{label}" in text for text in register.withhold)
    assert not any(AGREES.search(t) or "human" in t for t in register.insist)  # no escalation


@pytest.mark.parametrize("name", sorted(REGISTERS))
def test_register__never_names_a_wish_or_a_service(name):
    register = REGISTERS[name]
    said = " ".join(
        [*register.greetings, *register.prefaces, *register.closers, *register.fillers]
    ).lower()
    words = r"cancel|book|exchange|return|swap|change|refund|pay|data|internet|speed|signal|"
    words += r"service|calls?|mms|picture|insurance|bags?|passenger|price|cost|balance|address"
    assert not re.search(rf"\b({words})\b", said)


def test_replies__vary_with_the_seed():
    domain = tau_env.load_domain("mock")
    task = domain.task("create_task")
    said = {
        (v.say("yes"), v.say("no"), v.say("okay"), v.say("closing"))
        for v in (voice(task, domain, seed) for seed in range(10))
    }
    assert len(said) >= 5


@pytest.mark.parametrize(("name", "belief"), [("airline", AirlineBelief), ("retail", RetailBelief)])
def test_opening__an_agent_reads_the_same_wish_and_ids_as_from_the_brief(name, belief):
    domain = tau_env.load_domain(name)
    for task in domain.tasks:
        expected = belief()
        expected.read_customer(read_brief(task, domain).script.opening, opening=True)
        for seed in range(3):
            read = belief()
            read.read_customer(voice(task, domain, seed).opening, opening=True)
            assert (read.intents, read.facts) == (expected.intents, expected.facts), task.id


def test_opening__a_telecom_agent_reads_the_same_issue_as_from_the_brief():
    domain = tau_env.load_domain("telecom")
    for task in domain.tasks:
        issue = intent_of(read_brief(task, domain).script.opening)
        assert all(intent_of(voice(task, domain, s).opening) == issue for s in range(3)), task.id


@pytest.mark.parametrize("name", sorted(REGISTERS))
def test_register__opening_parts_end_a_sentence(name):
    # The opening's words are its parts' words end to end only if each part ends a sentence.
    register = REGISTERS[name]
    for part in (*register.greetings, *register.prefaces, *register.closers):
        assert not part or part.endswith((".", "?", "!")), part


def test_opening__every_sentence_of_the_reason_ends_a_sentence():
    domain = tau_env.load_domain("airline")
    for task in domain.tasks:
        assert voice(task, domain, 0).opening.endswith((".", "?", "!")), task.id
