"""Off-path agents: their lines one per turn after the opening, then a stop; no task read."""

import tau_env
from tau_env.actions import SendMessage, Stop
from tau_env.baselines.off_path import OFF_PATH_LINES, LineAgent, off_path_factories
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import ScriptedUser


def test_line_agent__says_its_lines_in_order_then_stops():
    agent = LineAgent(None, lines=["A?", "B?"])
    said = [agent.act(None, None) for _ in range(3)]
    assert said[:2] == [SendMessage(content="A?"), SendMessage(content="B?")]
    assert isinstance(said[2], Stop)


def test_factories__one_per_agent_with_its_generic_lines_unless_given():
    factories = off_path_factories()
    assert (
        set(factories)
        == set(OFF_PATH_LINES)
        == {"offer_transfer", "refuse", "alternative", "confirm_twice", "off_script", "push_back"}
    )
    assert factories["refuse"](None).lines == list(OFF_PATH_LINES["refuse"])
    assert off_path_factories({"x": ["Hi?"]})["x"](None).lines == ["Hi?"]


def test_episode__the_lines_follow_the_customer_opening():
    env = tau_env.make_env("mock")
    user = ScriptedUser.factory(env.unwrapped.domain)
    result = run_episode(env, off_path_factories()["off_script"], user, task_id="create_task")
    agent = [m.content for m in result.trajectory if m.role == "assistant" and m.content]
    assert agent[1:3] == list(OFF_PATH_LINES["off_script"])  # after the env's greeting
