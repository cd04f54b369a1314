"""Issues 45 and 53: no probe passes more than 5% of the built-in tasks (seeds 0 and 1), the
oracle passes them all; the official sets' figures.

Each audit plays every task of a set with every probe and the oracle under both seeds (a few
seconds per domain), once per module.
"""

import pytest

from tau_env.audit import ORACLE, audit
from tau_env.baselines.probes import PROBE_NAMES

BUILTIN = ("airline", "retail", "banking_knowledge", "telecom")
MAX_PROBE_RATE = 0.05
"""The rule for built-in tasks: every probe passes at most 5% of them."""

SEEDS = (0, 1)
"""A probe passes a task when it passes under one of these seeds; the oracle under both."""


@pytest.fixture(scope="module")
def builtin_audits():
    return {domain: audit(domain, seeds=SEEDS) for domain in BUILTIN}


@pytest.mark.parametrize("probe", PROBE_NAMES)
@pytest.mark.parametrize("domain", BUILTIN)
def test_builtin__no_probe_passes_more_than_5_percent(builtin_audits, domain, probe):
    report = builtin_audits[domain]
    rate = report.rate(probe)
    passed = report.passed_by_probes()
    assert rate is not None and rate <= MAX_PROBE_RATE, (
        f"{probe} passes {rate:.3f} of built-in {domain}: "
        + ", ".join(t for t, probes in passed.items() if probe in probes)
    )


@pytest.mark.parametrize("domain", BUILTIN)
def test_builtin__the_oracle_passes_every_task(builtin_audits, domain):
    report = builtin_audits[domain]
    assert report.rate(ORACLE) == 1.0
    assert report.oracle_failures() == []
    assert len(report.tasks) >= 200
    assert report.seeds == list(SEEDS) and report.user == "scripted user (seeds 0, 1)"


def test_seeds__a_probe_passes_under_some_seed_the_oracle_under_every_one():
    """The mock's random probes pass different tasks under different seeds."""
    one = {seed: audit("mock", seeds=[seed]) for seed in SEEDS}
    both = audit("mock", seeds=SEEDS)
    for index, task in enumerate(both.tasks):
        for player, outcome in task.passed.items():
            alone = [one[seed].tasks[index].passed[player] for seed in SEEDS]
            assert outcome is (all(alone) if player == ORACLE else any(alone)), (task, player)


def test_workers__processes_sharing_the_tasks_give_the_same_audit():
    """Every episode is seeded on its own: shares played apart add up to the same report."""
    alone = audit("mock", seeds=SEEDS, grading="strict")
    progress: list[tuple[int, int]] = []
    shared = audit(
        "mock", seeds=SEEDS, grading="strict", workers=3, on_task=lambda *n: progress.append(n)
    )
    assert shared.summary() == alone.summary()
    assert progress[-1] == (10, 10) and len(progress) == 3


# -- official sets -----------------------------------------------------------------------------

TOLERANCE_TASKS = 3
"""How far (in tasks) the do-nothing probe may land from issue 45's table: its wording differs
from the agent the table was measured with ("I'm sorry, I can't help with that request", then
a stop, against the scripted user with seed 0)."""

ISSUE_TABLE = {
    # domain: (tasks counted, do-nothing passes, as issue 45 reports them)
    "airline": (50, 23),  # 0.460
    "retail": (74, 6),  # 0.081, the tasks graded without a judge
    "telecom": (114, 0),  # base split
    "banking_knowledge": (96, 0),  # one task needs a judge
}


@pytest.fixture(scope="module")
def official_audits(data_dir):
    return {domain: audit(domain, data_dir=data_dir) for domain in ISSUE_TABLE}


@pytest.mark.parametrize("domain", list(ISSUE_TABLE))
def test_official__do_nothing_figures_match_the_issue_table(official_audits, domain):
    counted, expected = ISSUE_TABLE[domain]
    report = official_audits[domain]
    # The tasks graded without a judge: those whose gold episode has a reward. (An episode
    # that fails another check may get a 0 without the judge; the gold passes every check,
    # so its NL assertions always wait for one.)
    judged = [t for t in report.tasks if t.passed[ORACLE] is not None]
    assert len(judged) == counted
    passed = sum(t.passed["refuse"] is True for t in judged)
    assert abs(passed - expected) <= TOLERANCE_TASKS, f"{passed}/{counted}, issue: {expected}"


@pytest.mark.parametrize("domain", list(ISSUE_TABLE))
def test_official__the_oracle_passes_every_judged_task(official_audits, domain):
    report = official_audits[domain]
    assert report.oracle_failures() == []
    assert report.rate(ORACLE) == 1.0


def test_official__strict_reading_closes_loopholes_and_keeps_the_oracle(data_dir):
    """Official airline under --grading strict: the oracle keeps 1.0, refusing drops, and no
    player scores higher strictly than officially on any task."""
    report = audit("airline", data_dir=data_dir, grading="strict")
    assert report.rate(ORACLE, strict=True) == 1.0
    assert report.rate("refuse", strict=True) < report.rate("refuse")
    for task in report.tasks:
        for player, outcome in task.strict.items():
            if outcome:
                assert task.passed[player], (task.task_id, player)
