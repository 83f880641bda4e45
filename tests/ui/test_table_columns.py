"""The run table's column layout (`table_columns.Columns`), without an app: widths, the
header's arrow, and which column a click on the header lands in."""

from __future__ import annotations

from rich.cells import cell_len

from ragdiag_tui.core.analysis.sorting import ASCENDING, SORT_COLUMNS
from ragdiag_tui.core.runs.store import RunStore
from ragdiag_tui.ui.widgets.table.table_columns import MIN_QUESTION, SORT_ARROWS, WAS_AT, Columns, fit, fit_id


def starts(widths: list[int]) -> list[int]:
    """The first cell of each shown column (a space between columns)."""
    at, out = 0, []
    for width in widths:
        out.append(at)
        at += width + 1 if width else 0
    return out


def test_a_click_on_a_title_names_its_sort_column() -> None:
    columns = Columns()
    widths = columns.widths(160)
    for name, start, width in zip(SORT_COLUMNS, starts(widths), widths, strict=True):
        if width:
            assert columns.sort_column_at(start, 160) == name
            assert columns.sort_column_at(start + width, 160) == name  # the gap after it too


def test_the_was_column_is_not_sorted_by_and_hidden_again_with_none() -> None:
    columns = Columns()
    columns.show_was(True)
    assert columns.columns[WAS_AT][0] == "was"
    start = starts(columns.widths(160))[WAS_AT]
    assert columns.sort_column_at(start, 160) is None
    columns.show_was(False)
    assert [title for title, _, _ in columns.columns].count("was") == 0


def test_the_metric_columns_show_only_while_the_question_keeps_room() -> None:
    columns = Columns()
    narrow = columns.widths(80)
    assert not columns.metrics_shown and narrow[SORT_COLUMNS.index("recall")] == 0
    wide = columns.widths(200)
    assert columns.metrics_shown and wide[-1] >= MIN_QUESTION
    assert columns.toggle_extra(200) is False and not columns.widths(200)[SORT_COLUMNS.index("tags")]


def test_the_sorted_column_s_title_carries_the_arrow() -> None:
    header = Columns().header(160, "stage", ASCENDING)
    assert f"stage{SORT_ARROWS[ASCENDING]}" in header
    assert SORT_ARROWS[-ASCENDING] not in header


def test_the_id_column_widens_to_the_cells_of_wide_ids_and_escapes() -> None:
    columns, store = Columns(), RunStore()
    store.ids = ["run-1", "運行運行運行"]  # six characters, twelve cells
    columns.widen_for(store)
    assert columns.widths(200)[1] == 12
    store.ids.append("r" * 13)  # printable ASCII: as wide as it is long
    columns.widen_for(store)
    assert columns.widths(200)[1] == 13
    escaped, store = Columns(), RunStore()
    store.ids = ["r\x1b\x1b\x1bx"]  # five characters, drawn escaped: `r\x1b\x1b\x1bx`, fourteen cells
    escaped.widen_for(store)
    assert escaped.widths(200)[1] == 14


def test_a_cut_id_keeps_its_front_and_its_end() -> None:
    """Ids tell runs apart by their ends (`p000-run-0000001` … `p000-run-0000002`): cut at the
    end alone, every one of a lake's ids read `p000-run-00000…` at 140 columns."""
    ids = ["p000-run-0000001", "p000-run-0000002", "part-000.parquet:12"]
    cut = [fit_id(text, 15) for text in ids]
    assert cut == ["p000-ru…0000001", "p000-ru…0000002", "part-00…quet:12"]
    assert len(set(cut)) == len(cut)
    assert fit_id("run-7", 15) == "run-7" + " " * 10  # one that fits is padded, not cut
    assert fit_id("日本語のとても長いラン識別子", 9) == fit(
        "日本語のとても長いラン識別子", 9
    )  # wide: cut by cells
    assert all(cell_len(fit_id(text, width)) == width for text in ids for width in range(0, 20))
