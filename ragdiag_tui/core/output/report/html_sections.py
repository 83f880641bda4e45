"""The sections of the HTML report besides the spot-checks: the stages and lucky answers,
agreement between reviewers, the most-missed documents, and the comparison with a baseline."""

from __future__ import annotations

from ...common.text import snippet
from . import charts
from .html_text import esc, figure, id_list, table
from .model import SNIPPET, ReportData
from .tables import agreement_rows, lucky_facts


def stages_html(data: ReportData) -> str:
    stats = data.stats
    runs = stats["runs"]
    rows = [
        [esc(stage), f"{n:,}", f"{100 * n / runs:.1f}%" if runs else "-"]
        for stage, n in stats["stages"].items()
    ]
    rows.append(["<strong>total</strong>", f"<strong>{runs:,}</strong>", ""])
    facts = [
        *lucky_facts(stats),
        ("invalid lines", f"{stats['invalid_lines']:,}"),
    ]
    if "reviewed" in stats:
        facts += [("reviewed", f"{stats['reviewed']:,}"), ("in conflict", f"{stats['conflicts']:,}")]
    metrics = stats.get("metrics")
    if metrics:
        for name in ("recall", "precision"):
            mean = metrics[f"{name}_mean"]
            told = "none" if mean is None else f"{mean:.3f} over {metrics[f'{name}_runs']:,} runs"
            facts.append((f"ID-based context {name}, mean", told))
    items = "".join(f"<dt>{esc(name)}</dt><dd>{esc(value)}</dd>" for name, value in facts)
    return (
        "<h2>Runs per stage and lucky answers</h2>"
        + figure(charts.stage_chart(stats["stages"]), "Runs per stage (labels in force)")
        + table(("stage", "runs", "share"), rows, numeric=(1, 2))
        + f'<dl class="facts">{items}</dl>'
    )


def agreement_html(data: ReportData) -> str:
    agreement = data.stats["agreement"]
    if len(agreement["reviewers"]) < 2 and not agreement["with_file"]:
        return ""
    pairs, with_file, alpha = agreement_rows(agreement, esc)
    between = ""
    if len(agreement["reviewers"]) >= 2:
        between = (
            table(("reviewers", "overlap", "agreement", "Cohen's kappa"), pairs, numeric=(1, 2, 3))
            + f"<p>Krippendorff's alpha over {agreement['pairable_runs']:,} runs with two or more "
            f"labels: <strong>{alpha}</strong></p>"
        )
    return (
        "<h2>Agreement between reviewers</h2>"
        + between
        + table(
            ("reviewer vs the file", "overlap", "agreement", "Cohen's kappa"), with_file, numeric=(1, 2, 3)
        )
        + f"<p>In conflict (reviewers disagree, nobody adjudicated): {len(data.conflicts):,} "
        f"{id_list(data.conflicts)}</p><p>Adjudicated: {data.adjudicated:,}</p>"
    )


def missed_html(data: ReportData) -> str:
    if not data.most_missed:
        return '<h2>Most-missed documents</h2><p class="muted">No run misses a required document.</p>'
    count = len(data.most_missed)
    texts = data.missed_texts
    listed = (  # documents given as texts: which passage each content ID is
        table(
            ("document", "runs", "text"),
            [[esc(doc), f"{n:,}", esc(snippet(texts.get(doc, ""), SNIPPET))] for doc, n in data.most_missed],
            numeric=(1,),
        )
        if texts
        else ""
    )
    return (
        f"<h2>Most-missed documents (top {count})</h2>"
        + figure(charts.missed_chart(data.most_missed), "Runs missing each document from their context")
        + listed
    )


def baseline_html(data: ReportData) -> str:
    baseline = data.baseline
    if baseline is None:
        return ""
    found = baseline.figures
    lists = [
        ("fixed", "Fixed (retrieval or generation → pass)"),
        ("regressed", "Regressed (pass → retrieval or generation)"),
        ("new_lucky", "New lucky answers"),
        ("resolved_lucky", "Lucky answers resolved"),
    ]
    items = "".join(
        f"<dt>{title}: {len(found[key]):,}</dt><dd>{id_list(found[key])}</dd>" for key, title in lists
    )
    documents = [
        [
            f'<span class="id">{esc(doc["id"])}</span>',
            f"{doc['missed_old']:,}",
            f"{doc['missed_new']:,}",
            f"{doc['missed_new'] - doc['missed_old']:+,}",
        ]
        for doc in found["documents"]
    ]
    warnings = "".join(f'<p class="muted">{esc(line)}</p>' for line in baseline.warnings)
    return (
        f"<h2>Against the baseline {esc(baseline.name)}</h2>{warnings}"
        f"<p>Joined by {esc(found['by'])}: {found['joined']:,}; only in the baseline: {found['only_old']:,}; "
        f"only in this file: {found['only_new']:,}; not comparable: {len(found['not_comparable']):,}</p>"
        + figure(charts.transition_chart(found["transitions"]), "Stage transitions: baseline by this file")
        + f'<dl class="facts">{items}</dl>'
        + "<h3>Documents whose missed count changed most</h3>"
        + table(("document", "baseline", "now", "change"), documents, numeric=(1, 2, 3))
    )
