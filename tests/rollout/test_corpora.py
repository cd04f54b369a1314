from __future__ import annotations

import json
from collections import Counter

import pytest

import tau_env
from tau_env.rollout import create_run, run
from tau_env.rollout.corpora import jsonl_lines, preference_examples, sft_examples
from tau_env.rollout.episode_chats import RunChats
from tau_env.store import ResultStore
from tests.rollout.agents import SURROGATE_TASK
from tests.rollout.conftest import mock_config


def _telecom_tasks(count: int) -> tuple[str, ...]:
    """Telecom tasks whose last agent call is a write that follows another step: an agent that
    leaves it out fails, and parts from the oracle after its first turn."""
    env = tau_env.make_env("telecom").unwrapped
    tools = env.domain.toolbox.tools("agent")
    chosen = []
    for task in env.tasks:
        plan = task.gold_actions
        own = [i for i, step in enumerate(plan) if step.requestor == "assistant"]
        if own and own[-1] >= 1 and tools.get(plan[own[-1]].name).kind == "write":
            chosen.append(task.id)
    return tuple(chosen[:count])


TELECOM = _telecom_tasks(3)


def _play(store, run_id, agent, *, domain="mock", tasks=None, seed=300, trials=2, **settings):
    tasks = tasks if tasks is not None else (TELECOM if domain == "telecom" else None)
    extra = {"tasks": tasks} if tasks is not None else {}
    config = mock_config(
        run_id, agent=agent, domain=domain, trials=trials, base_seed=seed, **extra, **settings
    )
    create_run(store, config)
    run(store, config)
    return RunChats(store, run_id)


def _chats(runs):
    """Each episode's chat by (run, trial, task)."""
    return {
        (chats.run_id, e.trial, e.task_id): chats.chat(e)
        for chats in runs
        for e in chats.episodes()
    }


# -- SFT ----------------------------------------------------------------------------------------


def test_sft__one_line_per_episode_reaching_the_reward(store):
    runs = [_play(store, "text", "oracle-text"), _play(store, "random", "random")]
    rewards = [e.reward for chats in runs for e in chats.episodes()]
    passed = sum(1 for r in rewards if r >= 1.0)
    assert 0 < passed < len(rewards)
    left_out: Counter[str] = Counter()

    examples = list(sft_examples(runs, min_reward=1.0, left_out=left_out))

    assert len(examples) == passed
    assert left_out == Counter({"reward below 1": len(rewards) - passed})
    chats = _chats(runs)
    for example in examples:
        meta = example["metadata"]
        assert set(example) == {"messages", "tools", "metadata"}
        assert meta["reward"] == 1.0
        chat = chats[(meta["run_id"], meta["trial"], meta["task_id"])]
        assert example["messages"] == chat.messages and example["tools"] == chat.tools
        assert meta["prompt_length"] == chat.prompt_length
        assert meta["seed"] == chat.episode.seed
    everything = list(sft_examples(runs))
    assert len(everything) == len(rewards)
    assert [set(e) for e in sft_examples(runs, metadata=False)] == [{"messages", "tools"}] * len(
        rewards
    )


def test_sft__prompt_completion_splits_before_the_models_first_turn(store):
    tasks = ["complete_after_history", "complete_task"]
    runs = [_play(store, "r", "oracle-text", tasks=tasks, trials=1)]
    whole = list(sft_examples(runs))

    split = list(sft_examples(runs, layout="prompt-completion"))

    assert len(split) == len(whole) == 2
    for one, two in zip(whole, split, strict=True):
        start = one["metadata"]["prompt_length"]
        assert set(two) == {"prompt", "completion", "tools", "metadata"}
        assert two["prompt"] == one["messages"][:start]
        assert two["completion"] == one["messages"][start:]
        assert two["prompt"][-1]["role"] == "user" and two["completion"][0]["role"] == "assistant"
        assert two["tools"] == one["tools"] and two["metadata"] == one["metadata"]


def test_sft__nothing_but_the_metadata_names_the_task(store):
    runs = [_play(store, "r", "oracle-text", domain="telecom")]
    examples = list(sft_examples(runs))
    assert {e["metadata"]["task_id"] for e in examples} == set(TELECOM)
    for example in examples:
        shown = json.dumps([example["messages"], example["tools"]])
        task_id = example["metadata"]["task_id"]
        assert task_id not in shown
        assert task_id.split("]")[0].strip("[") not in shown  # nor its family


def test_sft__episodes_without_a_reward_or_an_agent_turn_are_left_out(store):
    runs = [_play(store, "r", "oracle-text", user="tests.rollout.agents:QuittingUser", trials=1)]
    episode = next(e for e in runs[0].episodes() if e.task_id == "complete_task")
    store.add_episode(episode.model_copy(update={"trial": 7, "reward": None}))  # waits for a judge
    left_out: Counter[str] = Counter()

    examples = list(sft_examples(runs, left_out=left_out))

    assert left_out == Counter({"no agent turn": 1, "waiting for a judge": 1})
    assert len(examples) == runs[0].store.episode_count("r") - 2
    assert all(e["metadata"]["trial"] != 7 for e in examples)


def test_jsonl_lines__half_an_emoji_becomes_the_replacement_character(store, monkeypatch):
    monkeypatch.setenv(SURROGATE_TASK, "complete_task")
    runs = [_play(store, "r", "tests.rollout.agents:SurrogateOracle", tasks=["complete_task"])]
    examples = list(sft_examples(runs))
    assert any("\ud83d" in (m["content"] or "") for m in examples[0]["messages"])

    lines = list(jsonl_lines(examples))

    assert len(lines) == len(examples) and all(line.endswith(b"\n") for line in lines)
    read = [json.loads(line) for line in lines]
    text = json.dumps(read[0]["messages"], ensure_ascii=False)
    assert "\ufffd" in text and "\ud83d" not in text
    assert read[0]["tools"] == examples[0]["tools"]


# -- preference ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def telecom_store(tmp_path_factory):
    """Telecom runs: the oracle twice, an oracle that forgets its last call (same seeds), and
    the forgetful one with another base seed (other customer wording)."""
    with ResultStore(tmp_path_factory.mktemp("pref") / "runs.sqlite") as store:
        for run_id, agent, seed in [
            ("oracle", "oracle-text", 300),
            ("oracle-again", "oracle-text", 300),
            ("forgetful", "tests.rollout.agents:ForgetfulTextOracle", 300),
            ("forgetful-301", "tests.rollout.agents:ForgetfulTextOracle", 301),
        ]:
            _play(store, run_id, agent, domain="telecom", seed=seed)
        yield store


def _check_pair(pair, chats):
    meta = pair["metadata"]
    chosen = chats[(meta["chosen"]["run_id"], meta["chosen"]["trial"], meta["task_id"])]
    rejected = chats[(meta["rejected"]["run_id"], meta["rejected"]["trial"], meta["task_id"])]
    assert chosen.episode.success and not rejected.episode.success
    assert pair["prompt"] + pair["chosen"] == chosen.messages
    assert pair["prompt"] + pair["rejected"] == rejected.messages
    assert pair["chosen"][0]["role"] == pair["rejected"][0]["role"] == "assistant"
    assert pair["chosen"][0] != pair["rejected"][0]
    assert len(pair["prompt"]) >= chosen.prompt_length
    assert pair["tools"] == chosen.tools == rejected.tools
    return chosen, rejected


def test_preference__each_failed_episode_pairs_with_the_oracle_where_they_part(telecom_store):
    runs = [RunChats(telecom_store, r) for r in ("oracle", "oracle-again", "forgetful")]
    chats = _chats(runs)
    failed = [c for c in chats.values() if c.episode.run_id == "forgetful"]
    assert failed and not any(c.episode.success for c in failed)
    assert all(c.episode.success for c in chats.values() if c.episode.run_id != "forgetful")

    pairs = list(preference_examples(runs))

    assert len(pairs) == len(failed)
    for pair in pairs:
        chosen, rejected = _check_pair(pair, chats)
        # the first of two equal partners; the same seed, so the customer spoke alike...
        assert chosen.episode.run_id == "oracle"
        assert chosen.episode.seed == rejected.episode.seed
        # ...until the agents parted, after the first agent turn (at the forgotten call)
        assert len(pair["prompt"]) > chosen.prompt_length
        assert "tool_calls" in pair["chosen"][0]
    assert {p["metadata"]["rejected"]["trial"] for p in pairs} == {0, 1}


def test_preference__episodes_whose_customer_spoke_otherwise_make_no_pair(telecom_store):
    runs = [RunChats(telecom_store, r) for r in ("oracle", "forgetful-301")]
    chats = _chats(runs)
    failed = [c for c in chats.values() if c.episode.run_id == "forgetful-301"]
    left_out: Counter[str] = Counter()

    pairs = list(preference_examples(runs, left_out=left_out))

    unpaired = left_out["failed, no passed episode parts from it at an agent turn"]
    assert len(pairs) + unpaired == len(failed)
    for pair in pairs:
        _check_pair(pair, chats)
    paired = {(p["metadata"]["task_id"], p["metadata"]["rejected"]["trial"]) for p in pairs}
    prompts = {
        (c.episode.task_id, tuple(json.dumps(m) for m in c.messages[: c.prompt_length]))
        for c in chats.values()
        if c.episode.run_id == "oracle"
    }
    spoke_otherwise = [
        c
        for c in failed
        if (c.episode.task_id, tuple(json.dumps(m) for m in c.messages[: c.prompt_length]))
        not in prompts
    ]
    assert spoke_otherwise  # another seed: the customer's opening words differ
    assert not any((c.episode.task_id, c.episode.trial) in paired for c in spoke_otherwise)


def test_preference__turn_continuation_is_the_parting_turn_alone(telecom_store):
    runs = [RunChats(telecom_store, r) for r in ("oracle", "forgetful")]
    episodes = list(preference_examples(runs))

    turns = list(preference_examples(runs, continuation="turn"))

    assert len(turns) == len(episodes) > 0
    for whole, turn in zip(episodes, turns, strict=True):
        assert turn["prompt"] == whole["prompt"] and turn["metadata"] == whole["metadata"]
        assert turn["chosen"] == whole["chosen"][:1] and turn["rejected"] == whole["rejected"][:1]
        assert len(whole["chosen"]) > 1


def test_preference__without_metadata_a_pair_is_the_dpo_columns(telecom_store):
    runs = [RunChats(telecom_store, r) for r in ("oracle", "forgetful")]
    pairs = list(preference_examples(runs, metadata=False))
    assert pairs and all(set(p) == {"prompt", "chosen", "rejected", "tools"} for p in pairs)


def test_preference__one_run_of_passed_episodes_makes_no_pair(telecom_store):
    assert list(preference_examples([RunChats(telecom_store, "oracle")])) == []
