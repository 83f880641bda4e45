"""`stats DATASET --group-by FIELD` as one table: a row per group, and all runs last, so groups
compare at a glance (a block per group repeated every figure ~30 lines apart). The counts
behind each share, and each group's most-missed documents, are in `--json`."""

from __future__ import annotations

from collections.abc import Sequence

from ..common.text import visible
from .lucky import LUCKY_IN_FILE
from .stats import STAGE_ORDER, Stats

NONE = "(none)"  # the group of runs without the field (or with null)


def _share(n: int, runs: int) -> str:
    return f"{100 * n / runs:.1f}%" if runs else "-"


def _mean(stats: Stats, name: str) -> str:
    mean = None if stats.metrics is None else getattr(stats.metrics, f"{name}_mean")
    return "-" if mean is None else f"{mean:.3f}"


def format_group_table(
    title: str, field: str, groups: Sequence[tuple[str | None, Stats]], everything: Stats
) -> str:
    """The table: a row per (value, stats) of `groups` in order, then `all`; then the invalid
    lines and the most-missed documents of all runs."""
    head = [visible(field), "runs", *STAGE_ORDER, "lucky in file", "recall", "precision"]
    rows = [[NONE if value is None else visible(value), stats] for value, stats in groups]
    rows.append(["all", everything])
    cells = [
        [
            label,
            f"{stats.runs:,}",
            *(_share(stats.stages.get(stage, 0), stats.runs) for stage in STAGE_ORDER),
            f"{stats.in_file():,}",
            _mean(stats, "recall"),
            _mean(stats, "precision"),
        ]
        for label, stats in rows
    ]
    widths = [min(max(len(row[at]) for row in [head, *cells]), 40) for at in range(len(head))]

    def line(row: list[str]) -> str:
        first = row[0][: widths[0]].ljust(widths[0])
        return "  " + "  ".join(
            [first, *(cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))]
        )

    out = [visible(title), "", line(head), *map(line, cells[:-1]), line(cells[-1])]
    out += [
        "",
        f"  stages as shares of each group's runs; lucky in file: {LUCKY_IN_FILE} (labelled correct,",
        "  a required document missing);",
        "  recall and precision: ID-based means (RAGAS); --json gives every count and each group's",
        "  most-missed documents",
        "",
        f"  invalid lines: {everything.invalid:,}",
    ]
    top = everything.top_missed()
    if top:
        out += ["", "  most-missed documents (all runs)"]
        width = min(max(len(visible(doc)) for doc, _ in top), 60)
        out += [f"  {visible(doc):<{width}}  {n:>6,}" for doc, n in top]
    return "\n".join(out)
