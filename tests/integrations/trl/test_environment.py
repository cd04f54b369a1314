from __future__ import annotations

import inspect

import pytest

from tests.integrations.trl.conftest import (
    ANNOUNCEMENT,
    SYSTEM,
    grpo_config,
    parameters_changed,
    scripted_model,
    transfer_tasks,
)


@pytest.fixture(scope="module")
def telecom_class(trl):
    from tau_env.integrations.trl import environment_factory

    return environment_factory("telecom", system_prompt=lambda policy: SYSTEM)


def test_environment_factory__tools_are_the_domain_schemas_plus_the_message_tool(telecom_class):
    from transformers.utils import get_json_schema

    import tau_env
    from tau_env.integrations.trl import MESSAGE_TOOL

    env = tau_env.make_env("telecom").unwrapped
    schemas = {s["function"]["name"]: s for s in env.domain.toolbox.tools("agent").openai_schemas()}
    instance = telecom_class()
    public = {
        name
        for name, _ in inspect.getmembers(type(instance), predicate=inspect.isfunction)
        if not name.startswith("_") and name not in ("reset", "get_reward")
    }
    assert public == set(schemas) | {MESSAGE_TOOL}
    for name, schema in schemas.items():
        rendered = get_json_schema(getattr(instance, name))["function"]
        expected = schema["function"]["parameters"]
        assert rendered["name"] == name
        assert set(rendered["parameters"]["properties"]) == set(expected["properties"])
        assert set(rendered["parameters"].get("required", [])) == set(expected.get("required", []))


def test_environment__reset_tools_and_reward_come_from_tau_env(telecom_class):
    task_id = transfer_tasks(1)[0]
    instance = telecom_class()
    opening = instance.reset(task_id=task_id, seed=0, prompt=[])
    assert opening and "Hi! How can I help" not in opening
    result = instance.transfer_to_human_agents(summary="Needs a technician.")
    assert result == "Transfer successful"
    assert instance.send_message_to_customer(message=ANNOUNCEMENT) == "###TRANSFER###"
    assert instance.get_customer_by_id(customer_id="C1") == "The conversation has ended."
    assert instance.get_reward() == 1.0
    assert instance.tool_calls == 2


def test_environment__get_reward_ends_an_unfinished_episode_as_the_agents_stop(telecom_class):
    instance = telecom_class()
    instance.reset(task_id=transfer_tasks(1)[0], seed=0)
    assert instance.get_reward() == 0.0
    assert instance.chat.done
    assert instance.chat.single.aec.unwrapped.grade.termination.value == "agent_stop"


def test_grpo__two_optimizer_steps_through_environment_factory(
    tmp_path, trl, tokenizer, telecom_class
):
    from tau_env.integrations.trl import environment_dataset

    dataset = environment_dataset(
        "telecom", system_prompt=lambda policy: SYSTEM, only=transfer_tasks(4)
    )
    model = scripted_model(tokenizer, message_tool=True)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    played = []

    class Recorded(telecom_class):
        def get_reward(self):
            reward = super().get_reward()
            played.append(
                (self.chat.task_id, self.tool_calls, reward, self.chat.single.aec.unwrapped.grade)
            )
            return reward

    trainer = trl.GRPOTrainer(
        model=model,
        args=grpo_config(tmp_path, trl),
        train_dataset=dataset,
        processing_class=tokenizer,
        environment_factory=Recorded,
    )
    trainer.train()
    assert trainer.state.global_step == 2
    assert len(played) == 8  # 2 steps x 4 rollouts
    for _task_id, tool_calls, reward, grade in played:
        assert reward == grade.reward  # the reward is the env's grade
        assert (reward, tool_calls) in {(1.0, 2), (0.0, 0)}
    assert {reward for *_, reward, _ in played} == {0.0, 1.0}
    assert parameters_changed(before, model)


def test_environment__a_judge_failure_leaves_that_rollout_unscored_counted_once(trl, nl_mock_dir):
    from tau_env.errors import JudgeError
    from tau_env.integrations.trl import component_rewards, environment_factory
    from tests.conftest import NL_TASK

    def fail(trajectory, assertions):
        raise JudgeError("judge unreachable")

    cls = environment_factory("mock", data_dir=str(nl_mock_dir), judge=fail, reward="breakdown")
    judged, other = cls(), cls()
    for env, task_id in ((judged, NL_TASK), (other, "complete_task")):
        env.reset(task_id=task_id, seed=0)
        _play_oracle(env, nl_mock_dir)
    with pytest.warns(UserWarning, match=r"NL judge did not rule.*\(1 so far in this process\)"):
        assert [env.get_reward() for env in (judged, other)] == [None, 1.0]
    functions = component_rewards()
    values = [f([None, None], environments=[judged, other]) for f in functions]
    assert [v[0] for v in values] == [None] * len(functions)  # every check leaves it out
    assert [v[1] for v in values][:1] == [1.0]  # the other rollout keeps its DB check
    assert cls.judge_failures == 1  # read six times, counted once


def _play_oracle(env, data_dir) -> None:
    """The plain-text oracle's turns through the environment's tool methods, to the end."""
    import json

    import tau_env
    from tau_env.baselines.oracle import PlainTextOracleAgent
    from tau_env.chat import action_message

    oracle = PlainTextOracleAgent(tau_env.load_domain("mock", data_dir).task(env.chat.task_id))
    while not env.chat.done:
        message = action_message(oracle.act(None, None))
        if message.get("tool_calls"):
            function = message["tool_calls"][0]["function"]
            getattr(env, function["name"])(**json.loads(function["arguments"]))
        else:
            env.send_message_to_customer(message=message["content"])
