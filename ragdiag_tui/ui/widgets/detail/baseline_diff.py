"""Before and after: a run of the reviewed file beside its run in the baseline file.

Built as `Content` for the detail pane (`RunDetail.show_baseline`), with the
detail's own component classes, so its colours are the pane's. Every string from
either file is shown literally, after `visible`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.content import Content

from ....core.analysis.baseline import NO_RUN, NOT_COMPARABLE, Baseline
from ....core.common.text import visible
from ....core.runs.stages import S_GENERATION, S_INVALID, S_PASS, S_RETRIEVAL
from ..stages import STAGE_TITLES, label_word, stage_style
from .detail_text import detail_class

if TYPE_CHECKING:
    from ....core.review.state import Review
    from ....core.runs.store import RunStore

MAX_LISTED = 50  # IDs listed per list; the rest are counted
MAX_ID = 1000  # characters of one ID shown
KEY_WIDTH = 10


_c = detail_class


def _ids(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def id_changes(title: str, before: Any, after: Any) -> list[Content]:
    """`title`, then every ID of either list, marked: kept (=), removed (-) or added (+).

    An unchanged list is one line: its IDs are those listed above, for the run now.
    """
    old, new = _ids(before), _ids(after)
    if old == new:
        ids = "ID" if len(old) == 1 else "IDs"
        return [
            Content.assemble(
                (title.ljust(KEY_WIDTH), _c("key")), (f"unchanged ({len(old)} {ids})", _c("muted"))
            )
        ]
    old_set, new_set = set(old), set(new)
    lines = [
        Content.assemble(
            (title.ljust(KEY_WIDTH), _c("key")),
            (f"before {len(old)}, after {len(new)}", _c("heading")),
            ("  (+ added, - removed, = in both)", _c("muted")),
        )
    ]
    marked = [(doc, "=" if doc in new_set else "-") for doc in old]
    marked += [(doc, "+") for doc in new if doc not in old_set]
    marked.sort(key=lambda item: item[1] == "=")  # what changed first
    for listed, (doc, mark) in enumerate(marked):
        if listed == MAX_LISTED:
            lines.append(Content.assemble((f"  … and {len(marked) - MAX_LISTED} more", _c("muted"))))
            break
        text = visible(doc[:MAX_ID])
        if mark == "=":
            lines.append(Content.assemble(("  = ", _c("muted")), text))
        elif mark == "-":
            lines.append(
                Content.assemble(("  - ", _c("missing")), (text, _c("missing")), ("  removed", _c("muted")))
            )
        else:
            lines.append(
                Content.assemble(("  + ", _c("present")), (text, _c("present")), ("  added", _c("muted")))
            )
    return lines


def _movement(was: int, now: int) -> tuple[str, str]:
    if was in (S_RETRIEVAL, S_GENERATION) and now == S_PASS:
        return "FIXED", "present"
    if was == S_PASS and now in (S_RETRIEVAL, S_GENERATION):
        return "REGRESSED", "missing"
    return ("unchanged", "muted") if was == now else ("changed", "heading")


def baseline_diff(baseline: Baseline, store: RunStore, review: Review | None, row: int) -> Content:
    """The before-and-after block of NEW's run `row`."""
    was = baseline.was[row]
    title = Content.assemble(
        ("Before → after", _c("heading")), (f"  baseline {visible(baseline.name)}", _c("muted"))
    )
    old_row = baseline.old_row.get(row)
    if was == NO_RUN:
        return Content("\n").join([title, _muted("  new: the baseline has no run of this id")])
    if was == NOT_COMPARABLE or old_row is None:
        return Content("\n").join(
            [title, _muted("  not comparable: the baseline's run of this id asks another question")]
        )
    now = store.stage[row]
    lines = [title, stage_line(was, now)]
    if was == S_INVALID or now == S_INVALID:
        return Content("\n").join(lines)
    before, after = baseline.old.run_object(old_row), store.run_object(row)
    lines.append(
        _before_after("Label", baseline.old_label(old_row), review.label(row) if review is not None else None)
    )
    for name in ("question", "answer"):
        if before.get(name) != after.get(name):
            lines.append(_key_line(name.capitalize(), ("changed", _c("heading"))))
    lines += id_changes("Required", before.get("required"), after.get("required"))
    lines += id_changes("Supplied", before.get("context"), after.get("context"))
    offer = baseline.offers.get(row)
    if offer is not None and review is not None and not review.is_reviewed(row):
        lines.append(
            _key_line(
                "Offered",
                (label_word(offer.label), _c("reviewer")),
                (
                    f"  by {visible(offer.by)} in the baseline's review; O applies the offered labels",
                    _c("muted"),
                ),
            )
        )
    return Content("\n").join(lines)


def stage_line(was: int, now: int) -> Content:
    """The run's stage before and after, as chips, and what the change means."""
    word, style = _movement(was, now)
    return Content.assemble(
        ("Stage".ljust(KEY_WIDTH - 1), _c("key")),  # the stage chips start with a space
        (f" {STAGE_TITLES[was]} ", stage_style(was)),
        " → ",
        (f" {STAGE_TITLES[now]} ", stage_style(now)),
        "  ",
        (word, _c(style)),
    )


def _before_after(name: str, old_label: bool | None, new_label: bool | None) -> Content:
    return _key_line(
        name,
        f"{label_word(old_label)} → {label_word(new_label)}",
        ("" if old_label == new_label else "  changed", _c("heading")),
    )


def _key_line(name: str, *value: str | tuple[str, str]) -> Content:
    return Content.assemble((name.ljust(KEY_WIDTH), _c("key")), *value)


def _muted(text: str) -> Content:
    return Content.assemble((text, _c("muted")))
