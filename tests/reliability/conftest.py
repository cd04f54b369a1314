"""Prints the reliability tally (fuzzed steps, injected faults, kill points) after the run."""

from __future__ import annotations

from tests.reliability.tally import lines


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    found = lines()
    if found:
        terminalreporter.section("reliability tally")
        for line in found:
            terminalreporter.write_line(line)
