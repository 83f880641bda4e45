"""AgreementPanel: how far the reviewers agree, with each other and with the file.

Pairs of reviewers (runs both labelled, percent agreement, Cohen's kappa), then
Krippendorff's alpha over every run with two or more labels, then each reviewer
against the file's own labels. A figure that is undefined shows "n/a" and, on
the line under it, why. Reviewer names are untrusted: shown through `visible`.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ...core.analysis.agreement import Agreement, figure, percent
from ...core.common.text import visible
from .table.table_columns import fit

MAX_NAME = 24  # cells of the name column; a longer reviewer name is cut with an ellipsis
LOW_KAPPA = 0.4  # below it agreement is at best "fair" (Landis and Koch): worth a look
BLIND_NOTE = (
    "Hidden in blind mode: the figures would tell the other reviewers' labels and the file's. "
    "Open the file without --blind to see them."
)


def _c(name: str) -> str:
    return f".agreement-panel--{name}"


LEGEND = (
    "runs: labelled by both · agree: same label · kappa: agreement beyond chance "
    "(1 perfect, 0 chance, below 0.4 marked)"
)


def agreement_content(result: Agreement | None) -> Content:
    """The panel's text; None means blind mode."""
    if result is None:
        return Content.assemble(("Agreement", _c("heading")), "\n", (BLIND_NOTE, _c("muted")))
    lines = [Content.assemble(("Agreement between reviewers", _c("heading")))]
    if not result.reviewers:
        lines.append(Content.assemble(("No reviewer has labelled a run yet.", _c("muted"))))
        return Content("\n").join(lines)
    pair_names = [" · ".join(visible(name) for name in pair.reviewers) for pair in result.pairs]
    file_names = [visible(one.reviewer) for one in result.with_file]
    width = min(MAX_NAME, max(map(cell_len, pair_names + file_names + ["reviewers"])))
    lines += pair_lines(result, pair_names, width)
    lines.append(alpha_lines(result))
    lines.append(Content.assemble("\n", ("Each reviewer against the file's labels", _c("heading"))))
    lines.append(header("reviewer", width))
    for name, one in zip(file_names, result.with_file, strict=True):
        lines.append(row(name, width, one.overlap, one.agreement, one.kappa, one.kappa_reason))
    lines.append(Content.assemble("\n", (LEGEND, _c("muted"))))
    return Content("\n").join(lines)


def header(title: str, width: int) -> Content:
    """The titles of a table of figures, its name column `width` cells wide."""
    text = f"{fit(title, width)}  {'runs':>7}  {'agree':>6}  {'kappa':>6}"
    return Content.assemble((text, _c("muted")))


def row(
    name: str, width: int, overlap: int, agree: float | None, kappa: float | None, why: str | None
) -> Content:
    """One line of figures; an undefined kappa's reason on the line under it."""
    low = kappa is not None and kappa < LOW_KAPPA
    line = Content.assemble(
        f"{fit(name, width)}  {overlap:>7,}  {percent(agree):>6}  ",
        (f"{figure(kappa):>6}", _c("low") if low else _c("muted") if kappa is None else ""),
    )
    if kappa is None and why:
        return Content.assemble(line, "\n", (f"  {why}", _c("muted")))
    return line


def pair_lines(result: Agreement, pair_names: list[str], width: int) -> list[Content]:
    """The figures of each pair of reviewers, or why there are none."""
    if result.pairs:
        lines = [header("reviewers", width)]
        for name, pair in zip(pair_names, result.pairs, strict=True):
            lines.append(row(name, width, pair.overlap, pair.agreement, pair.kappa, pair.kappa_reason))
        return lines
    if len(result.reviewers) == 1:
        only = visible(result.reviewers[0])
        return [Content.assemble((f"Only {only} has labelled runs: agreement needs two.", _c("muted")))]
    return [Content.assemble(("No two reviewers labelled a run in common.", _c("muted")))]


def alpha_lines(result: Agreement) -> Content:
    """Krippendorff's alpha over the runs with two or more labels, or why it is undefined."""
    alpha = (
        Content.assemble((figure(result.alpha), _c("low") if result.alpha < LOW_KAPPA else ""))
        if result.alpha is not None
        else Content.assemble(("n/a", _c("muted")), (f"  {result.alpha_reason}", _c("muted")))
    )
    return Content.assemble(
        "\n",
        ("Krippendorff's alpha ", _c("key")),
        alpha,
        (f"\nover {result.pairable:,} runs with two or more labels", _c("muted")),
    )


class AgreementPanel(VerticalScroll, can_focus=True):
    """The agreement figures, scrollable when the team is large."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "agreement-panel--heading",
        "agreement-panel--key",
        "agreement-panel--muted",
        "agreement-panel--low",
    }

    DEFAULT_CSS = """
    AgreementPanel { height: 1fr; padding: 0 1; }
    AgreementPanel > .agreement-panel--heading { text-style: bold; color: $text-primary; }
    AgreementPanel > .agreement-panel--key { text-style: bold; }
    AgreementPanel > .agreement-panel--muted { color: $foreground-muted; }
    AgreementPanel > .agreement-panel--low { color: $text-warning; text-style: bold; }
    AgreementPanel #agreement-text { width: 100%; }
    """

    def __init__(self, result: Agreement | None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.result = result
        """The figures shown; None in blind mode."""

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(id="agreement-text", markup=False)

    def on_mount(self) -> None:
        self._show()
        self.watch(self.app, "theme", self._show, init=False)

    def _show(self) -> None:
        content = agreement_content(self.result)
        self.query_one("#agreement-text", Static).update(content)

    @property
    def text(self) -> str:
        """What the panel says, as plain text (for tests and the screen reader of tomorrow)."""
        return agreement_content(self.result).plain
