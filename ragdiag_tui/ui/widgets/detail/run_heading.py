"""The top of the detail pane: the run's stage, id and line, and why the rule diagnosed it so."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.content import Content

from ....core.analysis.explain import ABSENT, reason
from ....core.analysis.filtering import LABEL_STAGE_CODES
from ....core.common.text import visible
from ....core.runs.stages import S_RETRIEVAL
from ..stages import LUCKY_MARK, STAGE_TITLES, stage_style
from .detail_text import MAX_ID, cut, detail_class, field_line, joined, muted

if TYPE_CHECKING:
    from ....core.review.state import Review
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
    return Content.assemble(
        (" HIDDEN ", _c("muted")) if hidden else (f" {STAGE_TITLES[code].upper()} ", stage_style(code)),
        *extra,
        "  ",
        (visible(cut(run_id, MAX_ID)), _c("heading")) if run_id else ("(no id)", _c("muted")),
        (f"  line {store.lines[row]}", _c("muted")),
    )


def valid_heading(
    store: RunStore, review: Review | None, row: int, raw: dict[str, Any]
) -> tuple[Content, Content | str]:
    """The heading and the reason of a run the rule evaluated (`raw`: its object).

    In blind mode, before this reviewer labelled the run, neither tells its label."""
    label = review.label(row) if review is not None else raw.get("correct")
    label = label if isinstance(label, bool) else None
    code = store.stage[row]
    if review is not None and not review.revealed(row):
        return heading(store, row, hidden=code in LABEL_STAGE_CODES), muted(BLIND_REASON)
    lucky = code == S_RETRIEVAL and label is True
    extra = (("  ", ""), (f" {LUCKY_MARK} LUCKY ANSWER ", _c("lucky"))) if lucky else ()
    return heading(store, row, *extra), reason(store.diagnosis(row), label, raw.get("correct", ABSENT))


def error_fields(error: LoadError) -> Content:
    """An invalid run's error, field and reason, in place of its fields."""
    fields = [field_line("error", error.kind)]
    if error.field:
        fields.append(field_line("field", error.field))
    fields.append(field_line("reason", visible(error.reason)))
    return joined(fields)
