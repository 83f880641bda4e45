"""The lower part of the detail pane: the run's labels, its reviewers, reason tags, ID metrics
and note; then the fields of the run not shown above it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.content import Content

from ....core.analysis.explain import ABSENT, describe_label
from ....core.common.text import visible
from ....core.runs.metrics import id_metrics
from ..stages import label_word
from .detail_text import (
    MAX_NOTE_LINES,
    detail_class,
    field_block,
    field_line,
    joined,
    multiline,
    muted,
    shown_lines,
    value_text,
)
from .field_tree import field_tree, is_nested
from .reviewers import reviewers_block, team_label

if TYPE_CHECKING:
    from ....core.review.state import Review
    from ....core.review.tags import Tag

_c = detail_class

TEXT_FIELDS = ("question", "answer")  # shown near the top, each in its own row
SHOWN_ELSEWHERE = ("id", "required", "context", "correct", *TEXT_FIELDS)
IN_FORCE = {  # why the label in force is what it is, by `Review.label_source`
    "adjudication": "adjudicated",
    "reviewer": "from the reviewers",
    "conflict": "the file's: the reviewers disagree",
}


def metric(value: float) -> str:
    """A recall or precision figure; `none` where it is undefined (NaN), never 0."""
    return "none" if value != value else f"{value:.2f}"


def metrics_text(raw: dict[str, Any]) -> str:
    """RAGAS's ID-based context recall and precision of one run (`raw`: the run object)."""
    recall, precision = id_metrics(raw.get("required"), raw.get("context"))
    return f"recall {metric(recall)} · precision {metric(precision)}"


def labels_content(
    raw: dict[str, Any], review: Review | None, row: int, reason_tags: Iterable[Tag], rule: str | None = None
) -> Content:
    """The file's label, the reviewers', the one in force and why, then the review's
    reviewers, tags, metrics and note of run `row` (`raw`: its object); `reason_tags`:
    the tag set in force; `rule`, how the file was read (`FieldMap.brief`), beside the label."""
    if review is not None and not review.revealed(row):  # blind mode, not labelled yet
        return blind_labels(review, row, reason_tags, rule)
    raw_label = raw.get("correct", ABSENT)
    file_label = raw_label if isinstance(raw_label, bool) else None
    lines = [
        field_line(
            "File label",
            Content.assemble(label_word(file_label), (f"  ({describe_label(raw_label)})", _c("muted"))),
        ),
        *rule_lines(rule),
    ]
    if review is None:
        lines.append(field_line("Reviewer label", muted("loading…")))
        return joined(lines)
    lines += [
        field_line("Reviewer label", team_label(review, row)),
        in_force_line(review, row),
        reviewers_block(review, row),
        field_line("Reason tags", tags_content(review.tags(row), reason_tags)),
        field_line("ID metrics", metrics_text(raw)),
        note_line("Note", review.note(row)),
    ]
    if row in review.unsaved:
        lines.append(
            field_line(
                "Journal",
                Content.assemble(("NOT SAVED: the last change did not reach the disk", _c("unsaved"))),
            )
        )
    return joined(lines)


def in_force_line(review: Review, row: int) -> Content:
    """The label in force and where it comes from."""
    source = review.label_source(row)
    why = f"  ({IN_FORCE.get(source, f'from the {source}')})" if source else "  (no label)"
    return field_line("In force", Content.assemble(label_word(review.label(row)), (why, _c("muted"))))


def note_line(name: str, note: str | None) -> Content:
    """A reviewer's note, or how to add one."""
    if note:
        return field_block(name, "\n".join(shown_lines(note, MAX_NOTE_LINES)))
    return field_line(name, muted("none  (c to add one)"))


def notes_text(review: Review, row: int) -> str:
    """Every note on run `row`, whole, each under its reviewer's name (`t` shows it); ""
    when there is none. Made safe line by line; in blind mode only this reviewer's."""
    if not review.revealed(row):
        mine = review.state(row)
        notes = [(review.reviewer, mine.note if mine is not None else "")]
    else:
        notes = [(name, state.note) for name, state in review.reviewers(row).items()]
    adjudication = review.adjudication(row)
    if adjudication is not None and review.revealed(row):
        notes.append((f"{adjudication.reviewer} (adjudication)", adjudication.note))
    return "\n\n".join(f"{visible(name)}:\n{multiline(note)}" for name, note in notes if note)


def rule_lines(rule: str | None) -> list[Content]:
    """The line saying how the file was read ('correct = score >= 0.7 · texts, exact'), if
    it departs from IDs and boolean labels."""
    return [] if rule is None else [field_line("Read as", Content.assemble((visible(rule), _c("muted"))))]


def blind_labels(
    review: Review, row: int, reason_tags: Iterable[Tag] = (), rule: str | None = None
) -> Content:
    """Blind mode, before this reviewer labelled the run: only what tells no label (the
    reviewer's own tags among it)."""
    mine = review.state(row)
    return joined(
        [
            field_line("File label", muted("hidden until you label this run (blind mode)")),
            *rule_lines(rule),
            field_line("Your label", muted("none  (y correct, n incorrect, space flips)")),
            field_line("Your tags", tags_content(review.my_tags(row), reason_tags)),
            reviewers_block(review, row),
            note_line("Your note", mine.note if mine is not None else None),
        ]
    )


def tags_content(keys: tuple[str, ...], reason_tags: Iterable[Tag]) -> Content:
    """The run's reason tags by number and name, as the tag set in force names them."""
    if not keys:
        return muted("none  (1-9 toggle a reason)")
    by_key = {tag.key: tag for tag in reason_tags}
    names = []
    for key in keys:
        tag = by_key.get(key)
        names.append(f"{tag.number} {visible(tag.name)}" if tag else visible(key))
    return Content.assemble((", ".join(names), _c("reviewer")))


def fields_content(raw: dict[str, Any]) -> Content:
    """The run's fields not shown elsewhere in the pane, each beside or above its value;
    a nested one (an object, a list of objects) as indented key/value lines under its name."""
    lines = [
        field_tree(name, value) if is_nested(value) else field_block(name, value_text(value))
        for name, value in raw.items()
        if name not in SHOWN_ELSEWHERE
    ]
    if not lines:
        return muted("no other fields")
    return joined(lines)
