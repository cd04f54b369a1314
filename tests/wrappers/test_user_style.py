"""User styles: the structured channel, paraphrases, novice mistakes, personas, determinism."""

import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import STYLES, ScriptedUser, UserStyle, style_for_persona
from tau_env.wrappers.users.matcher import did_not_follow
from tests.mock_messages import dismiss_request
from tests.wrappers.conftest import saying


@pytest.fixture(scope="module")
def telecom():
    return tau_env.make_env("telecom", split="test")


def play(env, task_id, style, seed=0, agent=OracleAgent):
    user = ScriptedUser.factory(env.unwrapped.domain, style=style, seed=seed)
    return run_episode(env, agent, user, task_id=task_id, seed=0)


def user_texts(result):
    return [m.content for m in result.trajectory if m.role == "user" and m.content]


def test_personas__map_onto_styles_from_their_words(telecom):
    from tau_env.domains.telecom.tasks.personas import PERSONAS

    assert [style_for_persona(p.text or "").name for p in PERSONAS] == [
        "plain",
        "paraphrase",
        "novice",
    ]


def test_personas__of_the_reference_map_onto_the_same_styles(data_dir):
    tasks = {t.id: t for t in tau_env.load_tasks("telecom", data_dir=data_dir, split="small")}
    for task_id, task in tasks.items():
        label = task_id.split("[PERSONA:")[1].rstrip("]")
        expected = {"None": "plain", "Easy": "paraphrase", "Hard": "novice"}[label]
        assert style_for_persona(task.user_scenario.persona or "").name == expected, task_id


def test_structured_channel__is_read_only_in_the_easy_mode(mock_domain):
    request = dismiss_request("Please do what I sent you.")
    env = tau_env.make_env("mock")
    for style, acted in (("structured", True), ("plain", False), ("paraphrase", False)):
        user = ScriptedUser.factory(env.unwrapped.domain, style=style)
        result = run_episode(env, saying(request, "Thanks."), user, task_id="complete_and_dismiss")
        calls = [m for m in result.trajectory if m.role == "user" and m.tool_calls]
        assert bool(calls) is acted, style


def style_figures(env, style, task_ids):
    """Per style: quoted tool names, non-compliant replies, agent turns, success."""
    quoted = unfollowed = turns = wins = 0
    for task_id in task_ids:
        result = play(env, task_id, style)
        texts = user_texts(result)
        quoted += sum(" shows: " in text for text in texts)
        unfollowed += sum(did_not_follow(text) for text in texts)
        turns += sum(m.role == "assistant" for m in result.trajectory)
        wins += result.grade.success
    return quoted, unfollowed, turns, wins


def test_styles__behave_measurably_differently_on_the_same_tasks(telecom):
    task_ids = [task.id for task in telecom.unwrapped.tasks][:40]
    plain = style_figures(telecom, "plain", task_ids)
    paraphrase = style_figures(telecom, "paraphrase", task_ids)
    novice = style_figures(telecom, "novice", task_ids)
    assert plain[0] == paraphrase[0] == novice[0] == 0  # no style names a tool
    assert plain[1] == paraphrase[1] == 0 < novice[1]  # only novices need instructions again
    assert novice[2] > plain[2]  # which costs the agent turns
    assert plain[3] == paraphrase[3] == novice[3] == len(task_ids)  # the oracle adapts


def test_styles__are_deterministic_for_a_seed_and_vary_across_seeds(telecom):
    task_ids = [task.id for task in telecom.unwrapped.tasks][:15]
    first = [user_texts(play(telecom, t, "novice", seed=1)) for t in task_ids]
    again = [user_texts(play(telecom, t, "novice", seed=1)) for t in task_ids]
    other = [user_texts(play(telecom, t, "novice", seed=2)) for t in task_ids]
    assert first == again and first != other


def test_style__rejects_bad_chances_and_names():
    with pytest.raises(ValueError, match="omission"):
        UserStyle(omission=1.5)
    with pytest.raises(ValueError, match="patience"):
        UserStyle(patience=0)
    env = tau_env.make_env("mock")
    with pytest.raises(ValueError, match="unknown user style 'chatty'"):
        ScriptedUser(env.unwrapped.tasks[0], style="chatty")
    assert set(STYLES) == {"structured", "plain", "paraphrase", "novice"}
