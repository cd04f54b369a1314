"""TRL's two routes hand the model no part of its task's id (issue 53).

The dataset rows (every column: TRL passes them to ``reset`` and to reward functions, and the
rollout route's prompt is a key), what the environment's ``reset`` and tools return, and the
tokens the rollout function feeds the model are searched for the id and its parts
(`tests.id_leaks`), on a built-in and an official telecom task.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

from tau_env.actions import CallTool, SendMessage
from tau_env.baselines.oracle import PlainTextOracleAgent
from tests.id_leaks import agent_sees, leaked, model_text


def test_environment_route__rows_and_returns_hold_no_part_of_the_id(id_case, trl):
    from tau_env.integrations.trl import environment_dataset, environment_factory

    data_dir, domain, task = id_case
    (row,) = environment_dataset("telecom", data_dir=data_dir, only=[task.id]).to_list()
    environment = environment_factory("telecom", data_dir=data_dir)()
    received = [row, environment.reset(**row)]
    oracle = PlainTextOracleAgent(task)
    while not environment.chat.done:
        action = oracle.act(None, None)
        if isinstance(action, CallTool):
            received.append(getattr(environment, action.name)(**action.arguments))
        elif isinstance(action, SendMessage):
            received.append(environment.send_message_to_customer(action.content))
        else:
            break
    assert environment.get_reward() == 1.0
    assert leaked(task, received, agent_sees(domain, task)) == []


def test_rollout_route__rows_and_the_models_tokens_hold_no_part_of_the_id(id_case, tokenizer):
    from tau_env.integrations.trl import make_rollout_func, rollout_dataset

    data_dir, domain, task = id_case
    rows = rollout_dataset("telecom", data_dir=data_dir, only=[task.id])
    oracle = PlainTextOracleAgent(task)

    def generate(trainer, ids):
        text = model_text(oracle.act(None, None))
        new = [*tokenizer.encode(text, add_special_tokens=False), tokenizer.eos_token_id]
        return new, [0.0] * len(new)

    rollout = make_rollout_func("telecom", data_dir=data_dir, generate=generate)
    trainer = SimpleNamespace(processing_class=tokenizer, num_generations=1)
    out = rollout(list(rows["prompt"]), trainer)
    assert out["tau_reward"] == [1.0] and out["tau_task_id"] == [task.id]  # trainer side only
    seen = tokenizer.decode(out["prompt_ids"][0] + out["completion_ids"][0])
    assert json.dumps(task.id) not in seen
    assert leaked(task, [rows.to_list(), seen], agent_sees(domain, task)) == []
