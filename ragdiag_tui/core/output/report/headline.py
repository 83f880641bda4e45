"""The report's headline, what a reader needs before anything else: each spot-check's
conclusion (its sentence, which carries the interval and how many were reviewed of how many),
then what remains to be done and by whom (runs still to review, runs in conflict to adjudicate).
Computed once from the report's figures and rendered by the HTML page and the Markdown file
alike; the charts, the evidence and the metadata come after it."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from ...analysis.lucky import LUCKY_IN_FILE, STILL_LUCKY
from ...analysis.spotcheck import SpotCheckReport
from .model import ReportData

LISTED = 10  # ids named in an action; the evidence section lists them all


@dataclass(frozen=True, slots=True)
class Action:
    """One thing left to do: a sentence, the command that does it, the runs it concerns."""

    text: str
    command: str = ""
    ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Headline:
    """The conclusions (a sentence per spot-check, or the stages without one) and the actions."""

    conclusions: tuple[str, ...]
    actions: tuple[Action, ...]
    done: str  # said instead of the actions when none is left


def headline(data: ReportData) -> Headline:
    """The headline of a report."""
    name = shlex.quote(data.header.name)  # the commands paste into a shell as they are
    if data.spot_checks:
        conclusions = tuple(section.report.sentence() for section in data.spot_checks)
    else:
        conclusions = (_stages_sentence(data),)
    actions = [_review_action(name, section.report) for section in data.spot_checks]
    if data.conflicts:
        actions.append(_adjudicate_action(name, data))
    if not data.spot_checks:
        actions.append(_draw_action(name, bool(data.header.files)))
    return Headline(
        conclusions,
        tuple(action for action in actions if action is not None),
        "Nothing left to do: every sampled run is reviewed and no run is in conflict.",
    )


def _draw_action(name: str, dataset: bool) -> Action:
    """How to draw a first spot-check: over a dataset, `D` in the app records it in the dataset's
    journal (`sample DATASET -o FILE` would record it beside FILE, not in this report)."""
    if dataset:
        return Action(
            "No spot-check yet: in the app, L then D draws one from the lucky answers; then review it:",
            f"ragdiag-tui review {name} --reviewer NAME",
        )
    return Action(
        "No spot-check yet: draw one from the lucky answers (or press D in the app), then review it:",
        f"ragdiag-tui sample {name} --view lucky -n auto --seed 1 --name lucky",
    )


def _stages_sentence(data: ReportData) -> str:
    stats = data.stats
    stages = ", ".join(f"{n:,} {stage}" for stage, n in stats["stages"].items() if n)
    lucky = f"{stats['lucky_in_file']:,} {LUCKY_IN_FILE}"
    if stats["still_lucky"] != stats["lucky_in_file"]:
        lucky += f", {stats['still_lucky']:,} {STILL_LUCKY}"
    return f"{stats['runs']:,} runs: {stages or 'none'}; {lucky}."


def _review_action(name: str, report: SpotCheckReport) -> Action | None:
    left = report.in_file - report.reviewed
    if left <= 0:
        return None
    return Action(
        f"Review the {left:,} sampled {'run' if left == 1 else 'runs'} of {report.name} still to review "
        f"({report.reviewed:,} of {report.in_file:,} done):",
        f"ragdiag-tui review {name} --spot-check {shlex.quote(report.name)} --reviewer NAME",
    )


def _and(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _adjudicate_action(name: str, data: ReportData) -> Action:
    count = len(data.conflicts)
    who = _and(data.conflict_reviewers) if data.conflict_reviewers else "their reviewers"
    runs = "run" if count == 1 else "runs"
    return Action(
        f"Adjudicate the {count:,} {runs} in conflict: {who} disagree on "
        f"{'it' if count == 1 else 'them'}, so someone else (the team's adjudicator) settles each "
        "one (in the app, C lists them and J adjudicates):",
        f"ragdiag-tui review {name} --reviewer NAME --adjudicate",
        data.conflicts[:LISTED],
    )
