"""The top of the detail pane: the run's stage, id and line, and why the rule diagnosed it so."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.content import Content

from ....core.analysis.explain import ABSENT, reason
from ....core.analysis.filtering import LABEL_STAGE_CODES
from ....core.analysis.lucky import OVERTURNED, is_lucky_in_file
from ....core.common.text import visible
from ....core.runs.stages import S_RETRIEVAL
from ..stages import LUCKY_MARK, STAGE_TITLES, stage_style
from .detail_text import MAX_ID, cut, detail_class, field_line, joined, muted

if TYPE_CHECKING:
    from ....core.review.state import Review
    from ....core.review.tags import Tag
    from ....core.runs.loading import LoadError
    from ....core.runs.store import RunStore

_c = detail_class

BLIND_REASON = (
    "Blind mode: the diagnosis, the file's label and the other reviewers' labels show once you "
    "label this run (y correct, n incorrect)."
)


def heading(store: RunStore, row: int, *extra: tuple[str, str], hidden: bool = False) -> Content:
    """The run's stage chip (or HIDDEN), `extra` after it, then its id and line."""
    code = store.stage[row]
    run_id = store.ids[row]
    where = f"{visible(store.files[row])} " if store.in_place else ""  # a dataset: the run's file too
    return Content.assemble(
        (" HIDDEN ", _c("muted")) if hidden else (f" {STAGE_TITLES[code].upper()} ", stage_style(code)),
        *extra,
        "  ",
        (visible(cut(run_id, MAX_ID)), _c("heading")) if run_id else ("(no id)", _c("muted")),
        (f"  {where}line {store.lines[row]}", _c("muted")),
    )


def valid_heading(
    store: RunStore, review: Review | None, row: int, raw: dict[str, Any], reason_tags: Iterable[Tag] = ()
) -> tuple[Content, Content | str]:
    """The heading and the reason of a run the rule evaluated (`raw`: its object); the run's
    reason tags (`reason_tags`: the set in force) end the reason's line, in view at any width.

    In blind mode, before this reviewer labelled the run, neither tells its label (the tags
    shown are the reviewer's own)."""
    label = review.label(row) if review is not None else raw.get("correct")
    label = label if isinstance(label, bool) else None
    code = store.stage[row]
    if review is not None and not review.revealed(row):
        told = muted(BLIND_REASON)
        mine = review.my_tags(row)
        if mine:
            told = Content("\n").join([told, tags_line("Your tags", mine, reason_tags)])
        return heading(store, row, hidden=code in LABEL_STAGE_CODES), told
    lucky = code == S_RETRIEVAL and label is True
    extra: tuple[tuple[str, str], ...] = ()
    if lucky:
        extra = (("  ", ""), (f" {LUCKY_MARK} LUCKY ANSWER ", _c("lucky")))
    elif review is not None and is_lucky_in_file(store, row):
        extra = (("  ", ""), (f" {LUCKY_MARK} LUCKY IN THE FILE · {OVERTURNED.upper()} ", _c("muted")))
    told: Content | str = reason(store.diagnosis(row), label, raw.get("correct", ABSENT))
    tags = review.tags(row) if review is not None else ()
    if tags:
        told = Content("\n").join(
            [Content(told) if isinstance(told, str) else told, tags_line("Reason tags", tags, reason_tags)]
        )
    return heading(store, row, *extra), told


def tags_line(name: str, keys: tuple[str, ...], reason_tags: Iterable[Tag]) -> Content:
    """`Reason tags  1 supported elsewhere, 4 answer wrong`: the run's tags by number and name."""
    by_key = {tag.key: tag for tag in reason_tags}
    names = [
        f"{by_key[key].number} {visible(by_key[key].name)}" if key in by_key else visible(key) for key in keys
    ]
    return Content.assemble((f"{name}  ", _c("muted")), (", ".join(names), _c("reviewer")))


def error_fields(error: LoadError) -> Content:
    """An invalid run's error, field and reason, in place of its fields."""
    fields = [field_line("error", error.kind)]
    if error.field:
        fields.append(field_line("field", error.field))
    fields.append(field_line("reason", visible(error.reason)))
    return joined(fields)
