"""pass^k-against-k charts, drawn by matplotlib and embedded in the page as inline SVG.

matplotlib is an optional dependency (the ``report`` extra); it is imported only when a chart is
drawn, and its absence is reported as a clear error naming the extra. Figures are built with
the object-oriented API (no pyplot, so no global figure registry), with text kept as SVG text
(small, and escaped by matplotlib's XML writer) and no timestamp (the same data gives the same
bytes).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tau_env.errors import TauEnvError

__all__ = ["Curve", "pass_hat_k_svg"]

_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


@dataclass(frozen=True)
class Curve:
    """One line of a chart: a run's pass^k by k.

    Attributes:
        label: Legend text (taken from the store: untrusted, never read as markup or math).
        pass_hat_k: k -> pass^k.
    """

    label: str
    pass_hat_k: Mapping[int, float]


def pass_hat_k_svg(title: str, curves: Sequence[Curve], *, chart_id: str) -> str:
    """An ``<svg>`` element plotting pass^k against k, one line per curve.

    Args:
        title: The chart title (the domain).
        curves: The lines, in legend order.
        chart_id: Unique among the page's charts; salts the SVG's internal ids so that two
            inline charts never share an id.

    Raises:
        TauEnvError: matplotlib is not installed.
    """
    try:
        from matplotlib import rc_context
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        raise TauEnvError(
            "the HTML report draws its charts with matplotlib, which is not installed; "
            "install it with: pip install 'tau-env[report]'"
        ) from None
    figure = Figure(figsize=(5.2, 3.4))
    axes = figure.add_subplot()
    for number, curve in enumerate(curves):
        ks = sorted(curve.pass_hat_k)
        values = [curve.pass_hat_k[k] for k in ks]
        marker = _MARKERS[number % len(_MARKERS)]  # runs with equal figures stay distinguishable
        axes.plot(ks, values, marker=marker, label=_literal(curve.label))
    axes.set_title(_literal(title))
    axes.set_xlabel("k (trials that must all pass)")
    axes.set_ylabel(r"pass$^k$")
    axes.set_ylim(-0.04, 1.04)
    # k is a count of trials: integer ticks only, also for a one-trial run, whose single point
    # would otherwise get an autoscaled axis of fractions around 1.
    largest = max((max(curve.pass_hat_k) for curve in curves if curve.pass_hat_k), default=1)
    axes.set_xlim(0.5, largest + 0.5)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
    axes.grid(alpha=0.3)
    if curves:  # below the axes: lines at pass^k = 1 are common and a legend inside hides them
        axes.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.2))
    buffer = io.StringIO()
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": chart_id}):
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    svg = buffer.getvalue()
    return svg[svg.index("<svg") :]  # drop the XML declaration and DOCTYPE: inline in HTML


def _literal(text: str) -> str:
    """Text matplotlib shows as written: no mathtext, no hidden legend entry."""
    text = text.replace("$", r"\$")
    return "\u200b" + text if text.startswith("_") else text
