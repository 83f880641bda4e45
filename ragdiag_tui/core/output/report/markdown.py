"""The Markdown report, for a pull request, a ticket, a chat or an e-mail: the answer first
(each spot-check's sentence and what remains to be done), then the figures (tables, and charts
as SVG files beside it, named in the text and never needed to read it), then the evidence of
the overturned runs, then what was reviewed (the metadata).

It reads as plain text as well as rendered: text from files and people is escaped only where
it would change the rendering (markdown_text), and the evidence is quoted text, not markup.
"""

from __future__ import annotations

from typing import Any

from ...common.text import snippet
from .headline import Headline, headline
from .markdown_evidence import evidence
from .markdown_text import md, md_cell, md_code, md_ids, md_table
from .model import SNIPPET, ReportData, SpotCheckSection
from .tables import agreement_rows, lucky_facts, tag_rows


def render_markdown(data: ReportData, charts: dict[str, str]) -> str:
    """The Markdown text; `charts`: chart name -> the file name it was written to, beside."""
    out = [f"# Review report: {md(data.header.name)}", ""]
    out += _headline(headline(data))
    out += _stages(data, charts.get("stages"))
    if data.spot_checks:
        out += ["## Spot-checks", ""]
    for at, section in enumerate(data.spot_checks):
        out += _spot_check(section, data, charts.get(f"rates-{at}"))
        out += _chart(f"Strata of {md(section.report.name)}", charts.get(f"strata-{at}"))
    out += _agreement(data.stats["agreement"], data)
    out += _missed(data, charts.get("missed"))
    out += _baseline(data, charts.get("transitions"))
    out += evidence(data)
    out += _metadata(data)
    return "\n".join(out)


def _headline(told: Headline) -> list[str]:
    out = []
    for sentence in told.conclusions:
        out += [f"**{md(sentence)}**", ""]
    if not told.actions:
        return [*out, told.done, ""]
    out += ["What remains to be done:", ""]
    for action in told.actions:
        out.append(f"- {md(action.text)} {md_code(action.command)}")
        if action.ids:
            out.append(f"  Runs: {md_ids(action.ids)}")
    return [*out, ""]


def _metadata(data: ReportData) -> list[str]:
    header = data.header
    return [
        "## About this report",
        "",
        f"- **{header.kind}**: {md(header.title)}, {header.size:,} bytes, {header.runs:,} runs"
        + (f" and {header.invalid:,} invalid lines" if header.invalid else ""),
        f"- **fingerprint**: blake2b-128 {md(header.fingerprint)}",
        f"- **review journal**: {md(header.journal)}",
        *(f"- **read as**: {md(line)}" for line in header.reading),
        f"- **reviewers**: {', '.join(md(name) for name in header.reviewers) or 'none yet'}",
        f"- **written**: {md(header.written)} by ragdiag-tui {md(header.version)}",
        "",
    ]


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
    out += [f"- **{name.capitalize()}**: {md(value)}" for name, value in lucky_facts(stats)]
    out += [f"- Invalid lines: {stats['invalid_lines']:,}", ""]
    if "reviewed" in stats:
        out += [f"Reviewed: {stats['reviewed']:,}; in conflict: {stats['conflicts']:,}", ""]
    return out + _chart("Runs per stage", chart)


def _spot_check(section: SpotCheckSection, data: ReportData, chart: str | None) -> list[str]:
    report = section.report
    out = [f"### {md(report.name)}", ""]
    out += [
        f"Progress: {report.reviewed:,} of {report.in_file:,} sampled runs reviewed; "
        f"{md(report.noun())}: {report.population:,} in the population when drawn "
        f"(view {md(report.view)}, seed {report.seed}).",
        "",
    ]
    if report.settled:
        out += md_table(
            ("reason tag", "key", "runs", "estimate (95% CI)"),
            tag_rows(report, data.tag_names, md_cell, md_cell),
        )
        out += _chart(f"Rates of {md(report.name)}", chart)
    out += [f"Overturned runs ({len(section.overturned_ids):,}): {md_ids(section.overturned_ids)}", ""]
    return out


def _agreement(agreement: dict[str, Any], data: ReportData) -> list[str]:
    if len(agreement["reviewers"]) < 2 and not agreement["with_file"]:
        return []
    pairs, files, alpha = agreement_rows(agreement, md_cell)
    out = ["## Agreement between reviewers", ""]
    if len(agreement["reviewers"]) >= 2:
        out += [
            *md_table(("reviewers", "overlap", "agreement", "Cohen's kappa"), pairs),
            f"Krippendorff's alpha over {agreement['pairable_runs']:,} runs with two or more labels: {alpha}",
            "",
        ]
    return [
        *out,
        *md_table(("reviewer vs the file", "overlap", "agreement", "Cohen's kappa"), files),
        f"In conflict: {len(data.conflicts):,} ({md_ids(data.conflicts)}); adjudicated: {data.adjudicated:,}",
        "",
    ]


def _missed(data: ReportData, chart: str | None) -> list[str]:
    if not data.most_missed:
        return ["## Most-missed documents", "", "No run misses a required document.", ""]
    texts = data.missed_texts
    rows = [
        [md_cell(doc), f"{n:,}", *([md_cell(snippet(texts.get(doc, ""), SNIPPET))] if texts else [])]
        for doc, n in data.most_missed
    ]
    return [
        f"## Most-missed documents (top {len(rows)})",
        "",
        *md_table(("document", "runs", *(["text"] if texts else [])), rows),
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
        f"Joined by {md(found['by'])}: {found['joined']:,}; only in the baseline: {found['only_old']:,}; "
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
            md_cell(d["id"]),
            f"{d['missed_old']:,}",
            f"{d['missed_new']:,}",
            f"{d['missed_new'] - d['missed_old']:+,}",
        ]
        for d in found["documents"]
    ]
    return [*out, "", *md_table(("document", "baseline", "now", "change"), docs)]
