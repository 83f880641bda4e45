"""The Markdown report, for a pull request or a ticket: the header, each spot-check's
sentence, tables of stages, tags and agreement, the overturned runs' ids. Its charts are
SVG files beside it, named in the text and never needed to read it.

Text from files and people is escaped (`md`): every ASCII punctuation mark gets a backslash,
so nothing in it becomes emphasis, a link, an autolink, HTML or a table's cell boundary.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from ...common.text import visible
from .model import ReportData, SpotCheckSection
from .tables import agreement_rows, lucky_facts, tag_rows

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
LISTED = 50  # ids listed per list


def md(value: object) -> str:
    """Untrusted text as literal Markdown (one line)."""
    return _PUNCTUATION.sub(r"\\\1", visible(str(value))) or "-"


def md_table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """A table from cells that are Markdown already (escaped by the caller)."""
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return [*out, ""]


def md_ids(ids: Sequence[str]) -> str:
    shown = ", ".join(md(one) for one in ids[:LISTED]) or "none"
    more = len(ids) - LISTED
    return shown + (f", … ({more:,} more)" if more > 0 else "")


def render_markdown(data: ReportData, charts: dict[str, str]) -> str:
    """The Markdown text; `charts`: chart name -> the file name it was written to, beside."""
    header = data.header
    out = [f"# Review report: {md(header.name)}", ""]
    out += [
        f"- **run file**: {md(header.name)}, {header.size:,} bytes, {header.runs:,} runs"
        + (f" and {header.invalid:,} invalid lines" if header.invalid else ""),
        f"- **fingerprint**: blake2b-128 {md(header.fingerprint)}",
        f"- **review journal**: {md(header.journal)}",
        *(f"- **read as**: {md(line)}" for line in header.reading),
        f"- **reviewers**: {', '.join(md(name) for name in header.reviewers) or 'none yet'}",
        f"- **written**: {md(header.written)} by ragdiag-tui {md(header.version)}",
        "",
    ]
    out += _stages(data, charts.get("stages"))
    out += ["## Spot-checks", ""]
    for at, section in enumerate(data.spot_checks):
        out += _spot_check(section, data, charts.get(f"rates-{at}"))
        out += _chart(f"Strata of {md(section.report.name)}", charts.get(f"strata-{at}"))
    if not data.spot_checks:
        out += ["No spot-check in the review.", ""]
    out += _agreement(data.stats["agreement"], data)
    out += _missed(data, charts.get("missed"))
    out += _baseline(data, charts.get("transitions"))
    return "\n".join(out)


def _chart(title: str, name: str | None) -> list[str]:
    """A chart written beside, by its file name (ours); `title`: Markdown already escaped."""
    return [f"Chart: ![{title}]({name})", ""] if name else []


def _stages(data: ReportData, chart: str | None) -> list[str]:
    stats = data.stats
    runs = stats["runs"]
    rows = [
        [stage, f"{n:,}", f"{100 * n / runs:.1f}%" if runs else "-"] for stage, n in stats["stages"].items()
    ]
    out = ["## Runs per stage", "", *md_table(("stage", "runs", "share"), rows)]
    out += [f"- **{name.capitalize()}**: {value}" for name, value in lucky_facts(stats)]
    out += [f"- Invalid lines: {stats['invalid_lines']:,}", ""]
    if "reviewed" in stats:
        out += [f"Reviewed: {stats['reviewed']:,}; in conflict: {stats['conflicts']:,}", ""]
    return out + _chart("Runs per stage", chart)


def _spot_check(section: SpotCheckSection, data: ReportData, chart: str | None) -> list[str]:
    report = section.report
    out = [f"### {md(report.name)}", "", f"> {md(report.sentence())}", ""]
    out += [f"Progress: {report.reviewed:,} of {report.in_file:,} sampled runs reviewed.", ""]
    if report.settled:
        out += md_table(
            ("reason tag", "key", "runs", "estimate (95% CI)"), tag_rows(report, data.tag_names, md, md)
        )
        out += _chart(f"Rates of {md(report.name)}", chart)
    out += [f"Overturned runs ({len(section.overturned_ids):,}): {md_ids(section.overturned_ids)}", ""]
    return out


def _agreement(agreement: dict[str, Any], data: ReportData) -> list[str]:
    if len(agreement["reviewers"]) < 2:
        return []
    pairs, files, alpha = agreement_rows(agreement, md)
    return [
        "## Agreement between reviewers",
        "",
        *md_table(("reviewers", "overlap", "agreement", "Cohen's kappa"), pairs),
        f"Krippendorff's alpha over {agreement['pairable_runs']:,} runs with two or more labels: {alpha}",
        "",
        *md_table(("reviewer vs the file", "overlap", "agreement", "Cohen's kappa"), files),
        f"In conflict: {len(data.conflicts):,} ({md_ids(data.conflicts)}); adjudicated: {data.adjudicated:,}",
        "",
    ]


def _missed(data: ReportData, chart: str | None) -> list[str]:
    if not data.most_missed:
        return ["## Most-missed documents", "", "No run misses a required document.", ""]
    rows = [[md(doc), f"{n:,}"] for doc, n in data.most_missed]
    return [
        f"## Most-missed documents (top {len(rows)})",
        "",
        *md_table(("document", "runs"), rows),
        *_chart("Most-missed documents", chart),
    ]


def _baseline(data: ReportData, chart: str | None) -> list[str]:
    if data.baseline is None:
        return []
    found = data.baseline.figures
    names = list(found["transitions"])
    rows = [[name, *(f"{found['transitions'][name][new]:,}" for new in names)] for name in names]
    out = [
        f"## Against the baseline {md(data.baseline.name)}",
        "",
        f"Joined by {found['by']}: {found['joined']:,}; only in the baseline: {found['only_old']:,}; "
        f"only in this file: {found['only_new']:,}.",
        "",
        *md_table(("baseline → now", *names), rows),
        *_chart("Stage transitions", chart),
    ]
    for key, title in (
        ("fixed", "Fixed"),
        ("regressed", "Regressed"),
        ("new_lucky", "New lucky answers"),
        ("resolved_lucky", "Lucky answers resolved"),
    ):
        out += [f"- **{title}** ({len(found[key]):,}): {md_ids(found[key])}"]
    docs = [
        [
            md(d["id"]),
            f"{d['missed_old']:,}",
            f"{d['missed_new']:,}",
            f"{d['missed_new'] - d['missed_old']:+,}",
        ]
        for d in found["documents"]
    ]
    return [*out, "", *md_table(("document", "baseline", "now", "change"), docs)]
