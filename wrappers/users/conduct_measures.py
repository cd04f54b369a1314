"""Whether a simulated user holds to its instructions off the path: probes, checks, tallies.

Used by ``benchmarks/off_path.py`` (every labelled official airline and retail task) and by
the tests (tests/wrappers/users/test_conduct_measures.py). A *label* says, for one task, what
its instructions tell the user to do off the expected path (written by hand, never read by the
user: see ``benchmarks/off_path_labels.toml`` for the keys). `probes` turns a label into
off-path agents' lines (`tau_env.baselines.off_path.LineAgent`), each line with the checks
its reply must pass; `judge` plays them and lists every check with its outcome.

The checks read the user's reply as a person would, with a few word lists: agreeing
("yes", "go ahead"), declining ("no", "not", "rather not"), asking for a human ("transfer me
to", "put me through"), not knowing ("don't know", "can't remember"), ending the call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from tau_env.baselines.off_path import LineAgent
from tau_env.episode_runner import run_episode
from tau_env.messages import STOP_TOKENS, Message

__all__ = ["CHECKS", "Outcome", "Probe", "judge", "probes", "replies_to"]

_AGREES = re.compile(
    r"\b(?:yes|go ahead|please do|i confirm|sounds good|that works|that's fine|sure, yes)\b",
    re.IGNORECASE,
)
_DECLINES = re.compile(
    r"\b(?:no|not|don't|do not|rather not|won't be necessary|decline|never)\b", re.IGNORECASE
)
_ASKS_HUMAN = re.compile(
    r"\b(?:transfer me to|put me through|speak to (?:a|an) (?:human|supervisor|manager|real)|"
    r"get me a human|talk to (?:a|an) (?:human|supervisor|manager)|speak to someone else)\b",
    re.IGNORECASE,
)
_UNKNOWN = re.compile(
    r"\b(?:don't know|do not know|don't remember|can't remember|cannot remember|not sure|"
    r"no idea|don't have|forgot|can't recall)\b",
    re.IGNORECASE,
)
_NO_ANSWER = re.compile(
    r"^(?:\W|sorry|hmm|um|oh|dear|i'm afraid|,)*\s*(?:i )?(?:don't know|do not know|no idea)",
    re.IGNORECASE,
)
_ACCEPTS_REFUSAL = re.compile(r"\b(?:understand|i see|okay|alright|fine|understood)\b", re.I)
_WITHHOLDS = re.compile(
    r"\b(?:rather not|prefer not|not (?:share|give|say)|on file|in my (?:account|profile)|"
    r"look it up|don't know)\b",
    re.IGNORECASE,
)
_TRANSFERRED = STOP_TOKENS.get("transfer", "###TRANSFER###")
_STOPPED = STOP_TOKENS["done"]


def _ended(reply: str | None) -> bool:
    return reply is None or _STOPPED in reply or _TRANSFERRED in reply


def _words(reply: str | None, words: Sequence[str]) -> bool:
    """`reply` says every one of `words` (``a|b``: either)."""
    if reply is None:
        return False
    lowered = reply.lower()
    return all(any(w.lower() in lowered for w in word.split("|")) for word in words)


Check = Callable[[str | None, Mapping[str, Any]], bool]
"""A check of one reply (None: the user had ended the call) with its parameters."""

CHECKS: dict[str, tuple[str, Check]] = {
    "declines": (
        "declines: no yes, a no, no human, the call goes on",
        lambda r, p: (
            r is not None
            and not _AGREES.search(r)
            and bool(_DECLINES.search(r))
            and not _ASKS_HUMAN.search(r)
            and _TRANSFERRED not in r
        ),
    ),
    "agrees": (
        "agrees: a yes, no no",
        lambda r, p: (
            r is not None and bool(_AGREES.search(r)) and not re.match(r"\s*no\b", r, re.I)
        ),
    ),
    "no_human": (
        "asks for no human (or has ended the call)",
        lambda r, p: r is None or not _ASKS_HUMAN.search(r),
    ),
    "asks_human": (
        "asks for a human",
        lambda r, p: r is not None and bool(_ASKS_HUMAN.search(r)),
    ),
    "pushes_back": (
        "pushes back: the call goes on, no acceptance, no human",
        lambda r, p: (
            not _ended(r)
            and not _ASKS_HUMAN.search(r or "")
            and not re.match(r"\s*(?:i understand|okay, i see|alright|understood)", r or "", re.I)
        ),
    ),
    "says": (
        "says the instructed words",
        lambda r, p: _words(r, p["words"]) and not _ended(r),
    ),
    "accepts_refusal": (
        "accepts the refusal: no human, no push back",
        lambda r, p: (
            r is not None
            and not _ASKS_HUMAN.search(r)
            and (_STOPPED in r or bool(_ACCEPTS_REFUSAL.search(r)))
        ),
    ),
    "keeps_scope": (
        "keeps to its scope: no plain yes, names what goes ahead, refuses the rest",
        lambda r, p: (
            r is not None
            and not _ended(r)
            and _words(r, [p["keep"].split()[-1]])
            and (
                p["drop"].split()[-1].lower() not in r.lower()
                or bool(re.search(rf"\bnot\b[^.]*{p['drop'].split()[-1]}", r, re.I))
            )
        ),
    ),
    "says_instead": (
        "says what it was told instead of a plain yes",
        lambda r, p: (
            _words(r, p["words"]) and not _ended(r) and not re.match(r"\s*yes\b", r or "", re.I)
        ),
    ),
    "says_unknown": (
        "says it does not know, invents nothing, stays on the line",
        lambda r, p: r is not None and not _ended(r) and bool(_UNKNOWN.search(r)) and "@" not in r,
    ),
    "withholds": (
        "keeps it to itself, stays on the line",
        lambda r, p: (
            r is not None
            and not _ended(r)
            and bool(_WITHHOLDS.search(r))
            and (not p["value"] or p["value"] not in r)
            and not re.search(
                r"\b\d{1,5} [A-Z][a-z]+ (?:St|Street|Ave|Avenue|Rd|Road|Dr|Drive)\b", r
            )
            and not re.search(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{4}\b", r)
        ),
    ),
    "denies": (
        "says no",
        lambda r, p: r is not None and bool(_DECLINES.search(r)) and not _AGREES.search(r),
    ),
    "answers_why": (
        "answers why, stays on the line",
        lambda r, p: not _ended(r) and not _NO_ANSWER.match(r or ""),
    ),
}
"""Check name -> (what it asks, the check)."""


@dataclass(frozen=True)
class Probe:
    """One off-path agent for one label kind: its lines and, per line, the checks of the reply.

    Attributes:
        kind: The label kind it probes (``no_transfer``, ``confirm_only``...).
        lines: What the agent says, one line a turn after the customer's opening.
        checks: For each line, ``(check name, parameters)`` pairs its reply must pass.
        any_reply: Checks passed by any one reply (``asks_human`` after some refusals).
    """

    kind: str
    lines: tuple[str, ...]
    checks: tuple[tuple[tuple[str, dict[str, Any]], ...], ...]
    any_reply: tuple[tuple[str, dict[str, Any]], ...] = ()


REFUSALS = (
    "I'm sorry, but I can't do that.",
    "I'm sorry, that's really not possible.",
    "I understand, but I can't make an exception.",
)
WHY = "Before I continue, could you tell me why you need this?"


def _refusal_checks(label: Mapping[str, Any]) -> Probe | None:
    first: list[tuple[str, dict[str, Any]]] = []
    every: list[tuple[str, dict[str, Any]]] = []
    any_reply: list[tuple[str, dict[str, Any]]] = []
    if label.get("no_transfer"):
        every.append(("no_human", {}))
    if label.get("on_refusal"):
        first.append(("says", {"words": label["on_refusal"]}))
    elif label.get("persist"):
        first.append(("pushes_back", {}))
    if label.get("ask_human"):
        any_reply.append(("asks_human", {}))
    if label.get("accept_refusal"):
        first.append(("accepts_refusal", {}))
    if not (first or every or any_reply):
        return None
    checks = [tuple(first + every), *([tuple(every)] * (len(REFUSALS) - 1))]
    return Probe("refusal", REFUSALS, tuple(checks), tuple(any_reply))


def probes(label: Mapping[str, Any]) -> list[Probe]:
    """The off-path probes of one task's label (see the module docstring)."""
    found: list[Probe] = []
    if label.get("no_transfer"):
        found.append(
            Probe(
                "no_transfer",
                (
                    "Would you like me to transfer you to a human agent?",
                    "Are you sure? I can transfer you to a human agent right now if you prefer.",
                ),
                ((("declines", {}),), (("declines", {}),)),
            )
        )
    if (refusal := _refusal_checks(label)) is not None:
        found.append(refusal)
    for phrase in label.get("decline", ()):
        found.append(
            Probe(
                "decline",
                (
                    f"Would you like me to {phrase} as well?",
                    "Are you sure? I'd really recommend it. Shall I go ahead?",
                ),
                ((("declines", {}),), (("declines", {}),)),
            )
        )
    for phrase in label.get("no_alternative", ()):
        found.append(
            Probe(
                "no_alternative",
                (
                    f"I can't do exactly that, but I could {phrase} instead. Would you like that?",
                    "It's a good option, really. Shall I go ahead with it?",
                ),
                ((("declines", {}),), (("declines", {}),)),
            )
        )
    for phrase in label.get("accept_alternative", ()):
        found.append(
            Probe(
                "accept_alternative",
                (f"I can't do exactly that, but I could {phrase} instead. Would you like that?",),
                ((("agrees", {}),),),
            )
        )
    if only := label.get("confirm_only"):
        wide = f"I'll {only['action']} the {only['drop']} and the {only['keep']}"
        second = (
            (("says_instead", {"words": only["again"]}),)
            if "again" in only
            else (("keeps_scope", only),)
        )
        lines = [f"Just to confirm: {wide}. Shall I proceed?"]
        lines.append(f"To confirm once more: {wide}. Shall I proceed?")
        checks = [(("keeps_scope", only),), second]
        if "again" not in only:
            lines.append(f"So I'll {only['action']} only the {only['keep']}. Shall I proceed?")
            checks.append((("agrees", {}),))
        found.append(Probe("confirm_only", tuple(lines), tuple(checks)))
    if rule := label.get("at_confirmation"):
        then: tuple[tuple[str, dict[str, Any]], ...] = ()
        if rule.get("then") == "decline":
            then = (("declines", {}),)
        found.append(
            Probe(
                "at_confirmation",
                (
                    f"Just to confirm: I'll go ahead with {rule['scope']}. Shall I proceed?",
                    "Shall I proceed, then?",
                ),
                ((("says_instead", {"words": rule["say"]}),), then),
            )
        )
    for label_text in label.get("unknown", ()):
        found.append(
            Probe("unknown", (f"Could you give me your {label_text}?",), ((("says_unknown", {}),),))
        )
    for answer in label.get("answer", ()):
        found.append(Probe("answer", (answer["ask"],), ((("says", {"words": answer["say"]}),),)))
    for held in label.get("withhold", ()):
        found.append(
            Probe("withhold", (held["ask"],), ((("withholds", {"value": held["value"]}),),))
        )
    if (budget := label.get("budget")) is not None:
        over, within = round(budget * 1.5), round(budget * 0.5)
        found.append(
            Probe(
                "budget",
                (
                    f"The change comes to ${over} in total. Shall I go ahead?",
                    f"Good news: I found an option for ${within} in total. Shall I go ahead?",
                ),
                ((("declines", {}),), (("agrees", {}),)),
            )
        )
    if label.get("healthy"):
        found.append(
            Probe("healthy", ("Is this because of a health issue?",), ((("denies", {}),),))
        )
    if found:
        found.append(Probe("off_script", (WHY,), ((("answers_why", {}),),)))
    return found


def replies_to(trajectory: Sequence[Message], lines: Sequence[str]) -> list[str | None]:
    """The user's reply to each line (None: the user had ended the call before it)."""
    said = [(m.role, m.content or "") for m in trajectory if m.content]
    replies: list[str | None] = []
    for line in lines:
        index = next(
            (i for i, (role, text) in enumerate(said) if role == "assistant" and text == line),
            None,
        )
        reply = None
        if index is not None:
            reply = next((text for role, text in said[index + 1 :] if role == "user"), None)
        replies.append(reply)
    return replies


@dataclass(frozen=True)
class Outcome:
    """One check of one reply: which task, seed, probe and line; passed or not; the reply."""

    task_id: str
    seed: int
    kind: str
    check: str
    passed: bool
    line: str
    reply: str | None


def judge(
    env: Any,
    user_factory: Callable[[Any], Any],
    labels: Mapping[str, Mapping[str, Any]],
    seeds: Iterable[int] = (0, 1),
) -> list[Outcome]:
    """Every check of every probe of every labelled task of `env`, for each seed."""
    outcomes: list[Outcome] = []
    tasks = {task.id: task for task in env.unwrapped.tasks}
    for task_id, label in labels.items():
        if task_id not in tasks:
            raise KeyError(f"labelled task {task_id!r} is not in the task set")
        for probe in probes(label):
            for seed in seeds:
                result = run_episode(
                    env,
                    partial(LineAgent, lines=probe.lines),
                    user_factory,
                    task_id=task_id,
                    seed=seed,
                )
                replies = replies_to(result.trajectory, probe.lines)
                for line, reply, checks in zip(probe.lines, replies, probe.checks, strict=True):
                    for name, parameters in checks:
                        passed = CHECKS[name][1](reply, parameters)
                        outcomes.append(
                            Outcome(task_id, seed, probe.kind, name, passed, line, reply)
                        )
                for name, parameters in probe.any_reply:
                    passed = any(CHECKS[name][1](reply, parameters) for reply in replies)
                    said = " | ".join(reply or "" for reply in replies)
                    outcomes.append(Outcome(task_id, seed, probe.kind, name, passed, "(any)", said))
    return outcomes
