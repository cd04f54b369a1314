"""SFT and preference corpora from stored runs, in the conversation format of the training routes.

Both are JSON Lines that ``datasets.load_dataset("json", data_files=...)`` loads and TRL's
``SFTTrainer`` and ``DPOTrainer`` take as they are (conversational formats):

- **SFT** (`sft_examples`): one line per episode, ``{"messages", "tools", "metadata"}``:
  the agent's chat (`tau_env.rollout.episode_chats`), system prompt first, through the agent's
  last turn, and its tool schemas. Rendered with a chat template, a line gives the token ids
  the chat route's `tau_env.chat.tokenize_episode` gives for the same episode. The
  ``prompt-completion`` layout (`SftLayout`) splits the chat before the model's first turn.
- **Preference** (`preference_examples`): ``{"prompt", "chosen", "rejected", "tools",
  "metadata"}`` pairs of a passed and a failed episode of the same task. The two chats must be
  identical up to an agent turn where they differ: ``prompt`` is that shared beginning,
  ``chosen`` and ``rejected`` each episode's messages from that turn through its last agent
  turn (or that turn alone: `PairContinuation`). Each failed episode is paired with the passed
  episode that shares the longest beginning with it (the first in run and trial order among
  equals), so a failed episode gives at most one pair and a passed one may serve several.
  Chats that first differ in what the environment said (the customer worded things
  differently: another episode seed) make no pair: the difference is not the agent's doing.
  Two runs of different agents with the same ``--seed`` play each (task, trial) with the same
  seed, so their customers speak alike until the agents part.

``metadata`` names the run, task, trial, seed and reward of each episode (and
``prompt_length``, the messages before the model's first turn, for SFT): for filtering and for
keeping held-out tasks out of training. Trainers drop it (they read only the conversation
columns); ``metadata=False`` leaves it out. Nothing else in a line names the task.

A passed episode is one the reference counts as a success (reward within 1e-6 of 1); episodes
waiting for a judge (no reward) are never used.
"""

from __future__ import annotations

import heapq
import itertools
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

from tau_env.rollout.episode_chats import EpisodeChat, RunChats
from tau_env.utils.surrogates import replace_surrogates

__all__ = [
    "PairContinuation",
    "SftLayout",
    "jsonl_lines",
    "preference_examples",
    "sft_examples",
]

SftLayout = Literal["messages", "prompt-completion"]
"""``messages``: the whole chat in one column; ``prompt-completion``: the chat before the
model's first turn as ``prompt``, the rest as ``completion`` (TRL then leaves the prompt, the
greeting and a task's history included, out of the loss)."""

PairContinuation = Literal["episode", "turn"]
"""``episode``: ``chosen`` / ``rejected`` run from the parting turn to each episode's last agent
turn; ``turn``: each is the parting turn alone (no environment text in either)."""

_TOLERANCE = 1e-6
"""Rewards within this of ``min_reward`` count as reaching it (the success rule's tolerance)."""


def sft_examples(
    runs: Sequence[RunChats],
    *,
    min_reward: float | None = None,
    layout: SftLayout = "messages",
    metadata: bool = True,
    left_out: Counter[str] | None = None,
) -> Iterator[dict[str, Any]]:
    """One SFT example per episode of `runs`, run by run, by task then trial.

    Args:
        runs: The stored runs.
        min_reward: Keep only episodes whose reward reaches it (e.g. 1.0: the passed ones).
        layout: See `SftLayout`.
        metadata: Add each episode's ``metadata``.
        left_out: Counts the episodes left out, by reason.
    """
    tally: Counter[str] = Counter() if left_out is None else left_out
    for run in runs:
        for episode in run.episodes():
            if episode.reward is None:
                tally["waiting for a judge"] += 1
            elif min_reward is not None and episode.reward < min_reward - _TOLERANCE:
                tally[f"reward below {min_reward:g}"] += 1
            elif (chat := run.chat(episode)) is None:
                tally["no agent turn"] += 1
            else:
                messages, start = chat.messages, chat.prompt_length
                example: dict[str, Any] = (
                    {"messages": messages}
                    if layout == "messages"
                    else {"prompt": messages[:start], "completion": messages[start:]}
                )
                example["tools"] = chat.tools
                if metadata:
                    example["metadata"] = {
                        "task_id": episode.task_id,
                        **_episode_metadata(chat),
                        "prompt_length": chat.prompt_length,
                    }
                yield example


def preference_examples(
    runs: Sequence[RunChats],
    *,
    continuation: PairContinuation = "episode",
    metadata: bool = True,
    left_out: Counter[str] | None = None,
) -> Iterator[dict[str, Any]]:
    """(prompt, chosen, rejected) pairs of passed and failed episodes of `runs`, by task.

    Reads one task's episodes at a time (over all runs), so memory stays bounded by the
    largest task's.

    Args:
        runs: The stored runs (one run with several trials, or several runs).
        continuation: See `PairContinuation`.
        metadata: Add each pair's ``metadata``.
        left_out: Counts, by reason, the episodes left out: failed ones no passed episode
            parts from at an agent turn, and those that cannot be used at all.
    """
    tally: Counter[str] = Counter() if left_out is None else left_out
    streams = [_judged_chats(run, tally) for run in runs]
    merged = heapq.merge(*streams, key=lambda chat: chat.episode.task_id)
    for task_id, group in itertools.groupby(merged, key=lambda chat: chat.episode.task_id):
        tasks: dict[tuple[str, str], list[EpisodeChat]] = {}
        for chat in group:  # (the same id in two runs on other data is another task)
            tasks.setdefault(chat.task_key, []).append(chat)
        for chats in tasks.values():
            for chosen, rejected, at in _pairs(chats, tally):
                end = at + 1 if continuation == "turn" else None
                pair: dict[str, Any] = {
                    "prompt": chosen.messages[:at],
                    "chosen": chosen.messages[at:end],
                    "rejected": rejected.messages[at:end],
                    "tools": chosen.tools,
                }
                if metadata:
                    pair["metadata"] = {
                        "task_id": task_id,
                        "chosen": _episode_metadata(chosen),
                        "rejected": _episode_metadata(rejected),
                    }
                yield pair


def jsonl_lines(examples: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    """Each example as one line of UTF-8 JSON.

    Text holding half an emoji (a lone surrogate, which UTF-8 cannot encode and a tokenizer
    cannot read) gets U+FFFD, the replacement character, in its place.
    """
    for example in examples:
        text = json.dumps(example, ensure_ascii=False) + "\n"
        try:
            yield text.encode("utf-8")
        except UnicodeEncodeError:
            yield replace_surrogates(text).encode("utf-8")


def _judged_chats(run: RunChats, tally: Counter[str]) -> Iterator[EpisodeChat]:
    for episode in run.episodes():
        if episode.reward is None:
            tally["waiting for a judge"] += 1
        elif (chat := run.chat(episode)) is None:
            tally["no agent turn"] += 1
        else:
            yield chat


def _pairs(
    chats: list[EpisodeChat], tally: Counter[str]
) -> Iterator[tuple[EpisodeChat, EpisodeChat, int]]:
    """(chosen, rejected, index of the first differing agent turn) for a task's episodes."""
    passed = [chat for chat in chats if chat.episode.success]
    for rejected in (chat for chat in chats if not chat.episode.success):
        best: tuple[int, EpisodeChat] | None = None
        for chosen in passed:
            at = _parting_turn(chosen, rejected)
            if at is not None and (best is None or at > best[0]):
                best = (at, chosen)
        if best is None:
            tally["failed, no passed episode parts from it at an agent turn"] += 1
        else:
            yield best[1], rejected, best[0]


def _parting_turn(chosen: EpisodeChat, rejected: EpisodeChat) -> int | None:
    """Where two chats of a task first differ, when that is an agent turn of each; else None."""
    if chosen.tools != rejected.tools:
        return None
    a, b = chosen.messages, rejected.messages
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if at is None or at < max(chosen.prompt_length, rejected.prompt_length):
        return None
    return at if a[at]["role"] == b[at]["role"] == "assistant" else None


def _episode_metadata(chat: EpisodeChat) -> dict[str, Any]:
    episode = chat.episode
    return {
        "run_id": episode.run_id,
        "trial": episode.trial,
        "seed": episode.seed,
        "reward": episode.reward,
    }
