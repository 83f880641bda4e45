"""The report's charts, drawn by matplotlib as static SVG to inline in the page.

matplotlib is an optional extra (`pip install 'ragdiag-tui[report]'`), imported only when
a chart is drawn, so no other command pays for it. Figures are made with `Figure` (never
pyplot: no global figure, no GUI backend). Text stays text (`svg.fonttype: none`) in a
generic font stack, which keeps a chart a few kilobytes; its ink is a placeholder colour
that becomes `currentColor`, so the page's colour scheme (light, dark, print) colours it.
Every label from a file passes through `visible`, and math text is off (`$` is a dollar).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ...common.text import visible

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

INSTALL = "pip install 'ragdiag-tui[report]'"
INK = "#010203"  # the placeholder of the page's text colour
MUTED = "#8a8f98"
STAGE_COLOURS = {
    "retrieval": "#d64545",
    "generation": "#d98b1c",
    "pass": "#2e9e5b",
    "unresolved": "#8a8f98",
    "answer-label": "#7a5cc7",
}
LUCKY_COLOUR = "#c2185b"
RATE_COLOUR = "#3b6fd1"
LABEL_CHARS = 40  # a label longer than this is cut, with an ellipsis
WIDTH = 5.2  # inches; the page scales each chart to its column (a phone: about three quarters)
_RC = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],
    "font.size": 10,
    "text.parse_math": False,
    "text.color": INK,
    "axes.labelcolor": INK,
    "axes.edgecolor": MUTED,
    "xtick.color": INK,
    "ytick.color": INK,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.facecolor": "none",
    "axes.facecolor": "none",
    "savefig.transparent": True,
}
_PROLOG = re.compile(r"\A.*?(?=<svg\b)", re.S)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)
_STYLE = re.compile(r"<style[^>]*>.*?</style>\s*", re.S)  # matplotlib's line joins: in the page's style


class ChartsUnavailable(Exception):
    """matplotlib is not installed: the message says which extra to install."""


def require_matplotlib() -> None:
    """Raise ChartsUnavailable unless matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ChartsUnavailable(f"the report draws its charts with matplotlib: {INSTALL}") from None


def label(text: str) -> str:
    """A label from a file, safe and short enough for a chart."""
    shown = visible(text)
    return shown if len(shown) <= LABEL_CHARS else shown[: LABEL_CHARS - 1] + "…"


@contextmanager
def _figure(name: str, height: float) -> Iterator[tuple[Figure, Axes]]:
    import matplotlib
    from matplotlib.figure import Figure

    # The salt makes each chart's ids its own: several SVGs share one page.
    with matplotlib.rc_context({**_RC, "svg.hashsalt": name}):
        figure = Figure(figsize=(WIDTH, height), layout="constrained")
        figure.get_layout_engine().set(w_pad=0.08, h_pad=0.06)  # room for a wider fallback font
        yield figure, figure.subplots()


def _svg(figure: Figure) -> str:
    """The figure as an SVG element for a page: no XML prolog or metadata; the ink as currentColor."""
    out = io.StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None})
    svg = _STYLE.sub("", _METADATA.sub("", _PROLOG.sub("", out.getvalue(), count=1), count=1), count=1)
    return svg.replace(INK, "currentColor").replace("<svg ", '<svg role="img" ', 1)


def _rows_height(rows: int) -> float:
    return 0.9 + 0.32 * max(rows, 1)


def stage_chart(stages: dict[str, int]) -> str:
    """Runs per stage: the five stages only (the lucky answers, a part of the retrieval runs,
    are figures beside it, not a sixth bar that overlaps them)."""
    names = list(stages)
    counts = list(stages.values())
    colours = [STAGE_COLOURS.get(name, MUTED) for name in stages]
    with _figure("stages", _rows_height(len(names))) as (figure, axes):
        bars = axes.barh(names, counts, color=colours)
        axes.bar_label(bars, labels=[f"{n:,}" for n in counts], padding=3)
        axes.invert_yaxis()
        axes.set_xlabel("runs")
        axes.margins(x=0.12)
        return _svg(figure)


def rate_chart(name: str, rates: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """Estimated rates (a fraction each) with their 95% intervals as error bars; a rate
    without an estimate is drawn as an empty row."""
    labels = [label(title) for title, _ in rates]
    with _figure(f"rates-{name}", _rows_height(len(rates))) as (figure, axes):
        for at, (_, rate) in enumerate(rates):
            if rate["estimate"] is None:
                continue
            estimate, low, high = (100 * rate[key] for key in ("estimate", "low", "high"))
            colour = RATE_COLOUR if at else LUCKY_COLOUR
            axes.errorbar(
                [estimate], [at], xerr=[[estimate - low], [high - estimate]], fmt="o", color=colour, capsize=4
            )
            axes.annotate(
                f"{estimate:.0f}%", (high, at), xytext=(6, 0), textcoords="offset points", va="center"
            )
        axes.set_yticks(range(len(labels)), labels)
        axes.set_ylim(len(labels) - 0.5, -0.7)
        axes.set_xlim(0, 108)
        axes.set_xticks(range(0, 101, 20))
        exact = any(rate.get("exact") for _, rate in rates)  # the whole population: no interval
        axes.set_xlabel(
            "% of the population (exact: every run of the population reviewed)"
            if exact
            else "% of the population, with its 95% interval",
            loc="right",
        )
        axes.grid(axis="x", color=MUTED, alpha=0.3)
        return _svg(figure)


def missed_chart(documents: Sequence[tuple[str, int]]) -> str:
    """The most-missed documents: how many runs miss each."""
    with _figure("missed", _rows_height(len(documents))) as (figure, axes):
        bars = axes.barh(
            [label(doc) for doc, _ in documents], [n for _, n in documents], color=STAGE_COLOURS["retrieval"]
        )
        axes.bar_label(bars, labels=[f"{n:,}" for _, n in documents], padding=3)
        axes.invert_yaxis()
        axes.set_xlabel("runs missing it")
        axes.margins(x=0.12)
        return _svg(figure)


def transition_chart(transitions: dict[str, dict[str, int]]) -> str:
    """The stage transition matrix: OLD stage (rows) by NEW stage (columns), counts in cells
    (vector cells, never a raster image)."""
    names = list(transitions)
    counts = [[transitions[old][new] for new in names] for old in names]
    top = max(max(row) for row in counts) or 1
    with _figure("transitions", 0.9 + 0.45 * len(names)) as (figure, axes):
        axes.pcolormesh(counts, cmap="Blues", vmin=0, vmax=top, edgecolors="#ffffff", linewidth=1)
        for y, row in enumerate(counts):
            for x, n in enumerate(row):
                shown = f"{n:,}" if n else "·"
                colour = "#ffffff" if n > top / 2 else "#1b1f24"
                axes.text(x + 0.5, y + 0.5, shown, ha="center", va="center", color=colour)
        ticks = [at + 0.5 for at in range(len(names))]
        # Slanted, the column names never run into each other (answer-label beside unresolved).
        axes.set_xticks(ticks, names, rotation=35, ha="left", rotation_mode="anchor")
        axes.set_yticks(ticks, names)
        axes.invert_yaxis()
        axes.set_xlabel("NEW stage")
        axes.set_ylabel("OLD stage")
        axes.xaxis.set_label_position("top")
        axes.xaxis.tick_top()
        for spine in axes.spines.values():
            spine.set_visible(False)
        return _svg(figure)
