"""The rows of the report's tables as text, the same for the HTML page and the Markdown file:
each renderer hands in its own escaping function (`escape`), which every text from a file or a
person goes through; the figures are formatted here once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...analysis.estimate import EXACT
from ...analysis.lucky import LUCKY_IN_FILE, STILL_LUCKY
from ...analysis.spotcheck import SpotCheckReport

Escape = Callable[[object], str]
Rows = list[list[str]]


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def figure_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def rate_text(rate: dict[str, float | None]) -> str:
    """An interval of the JSON figures as `24% (14-37%)`, `67% (exact: ...)` when every run of
    the population was reviewed, or `-` without an estimate."""
    if rate["estimate"] is None:
        return "-"
    if rate.get("exact"):
        return f"{100 * rate['estimate']:.0f}% ({EXACT})"
    return f"{100 * rate['estimate']:.0f}% ({100 * rate['low']:.0f}-{100 * rate['high']:.0f}%)"


def lucky_facts(stats: dict[str, Any]) -> list[tuple[str, str]]:
    """The two lucky-answer figures, each by its name (core/analysis/lucky.py): by the file's
    labels (the population a spot-check of lucky answers is drawn from), then by the labels
    in force."""
    return [
        (
            LUCKY_IN_FILE,
            f"{stats['lucky_in_file']:,} (by the file's labels: correct, a required document missing)",
        ),
        (STILL_LUCKY, f"{stats['still_lucky']:,} (by the labels in force)"),
    ]


def rates(report: SpotCheckReport, tag_names: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """What a spot-check's rates chart draws: the overturned rate, then each tag's, by title."""
    figures = report.to_json()
    return [("Overturned", figures["overturned_rate"])] + [
        (tag_names.get(key, key), tag["rate"]) for key, tag in figures["tags"].items()
    ]


def strata_rates(report: SpotCheckReport) -> list[tuple[str, dict[str, Any]]]:
    """What a stratified spot-check's strata chart draws: the combined rate, its anytime
    interval, then each stratum's overturned rate (empty for a spot-check without strata)."""
    if not report.strata:
        return []
    figures = report.to_json()
    combined = [
        ("Combined", figures["overturned_rate"]),
        ("Combined, anytime", figures["overturned_rate_anytime"]),
    ]
    return combined + [(stratum["stratum"], stratum["overturned_rate"]) for stratum in figures["strata"]]


def tag_rows(report: SpotCheckReport, tag_names: dict[str, str], escape: Escape, code: Escape) -> Rows:
    """Per reason tag: its name, its key (`code`: as an identifier), its count and its estimate."""
    return [
        [
            escape(tag_names.get(key, key)),
            code(key),
            f"{tag['count']:,} of {report.settled:,}",
            rate_text(tag["rate"]),
        ]
        for key, tag in report.to_json()["tags"].items()
    ]


def agreement_rows(agreement: dict[str, Any], escape: Escape) -> tuple[Rows, Rows, str]:
    """The agreement figures of `stats --json`: the pairs' rows, each reviewer against the file,
    and Krippendorff's alpha (with why there is none)."""

    def kappa(row: dict[str, Any]) -> str:
        return (
            figure_text(row["kappa"]) if row["kappa"] is not None else f"n/a ({escape(row['kappa_reason'])})"
        )

    def figures(row: dict[str, Any]) -> list[str]:
        return [f"{row['overlap']:,}", percent(row["agreement"]), kappa(row)]

    pairs = [
        [" / ".join(escape(name) for name in pair["reviewers"]), *figures(pair)]
        for pair in agreement["pairs"]
    ]
    files = [[escape(one["reviewer"]), *figures(one)] for one in agreement["with_file"]]
    alpha = figure_text(agreement["alpha"])
    if agreement["alpha"] is None:
        alpha += f" ({escape(agreement['alpha_reason'])})"
    return pairs, files, alpha
