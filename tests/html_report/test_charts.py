"""pass^k charts: k is a count of trials, so the x axis shows whole numbers only."""

import re

import pytest

from tau_env.html_report.charts import Curve, pass_hat_k_svg


def x_tick_labels(svg: str) -> list[str]:
    return re.findall(r'<g id="xtick_\d+">.*?<text[^>]*>([^<]*)</text>', svg, re.S)


@pytest.mark.parametrize(
    "pass_hat_k",
    [{1: 0.7}, {1: 1.0, 2: 0.5}, {1: 0.9, 2: 0.8, 3: 0.7, 4: 0.6}],
    ids=["one-trial", "two-trials", "four-trials"],
)
def test_pass_hat_k_svg__x_axis_has_integer_ticks_from_one_to_the_largest_k(pass_hat_k):
    labels = x_tick_labels(pass_hat_k_svg("mock", [Curve("run", pass_hat_k)], chart_id="c"))
    assert labels == [str(k) for k in sorted(pass_hat_k)]


def test_pass_hat_k_svg__many_trials_keep_integer_ticks():
    curve = Curve("run", {k: 1 / k for k in range(1, 33)})
    labels = x_tick_labels(pass_hat_k_svg("mock", [curve], chart_id="c"))
    assert labels and all(label.isdigit() and 1 <= int(label) <= 32 for label in labels)
