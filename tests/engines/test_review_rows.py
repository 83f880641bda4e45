"""A dataset's rows by position for the review app (engines.duckdb.review_rows through the
core's SourceStore): each row is the run a single file of the same runs gives, windows
come and go, and the figures over every row are the local path's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragdiag_tui.core.runs.loading import LoadError
from ragdiag_tui.core.runs.source_store import WINDOW, WINDOWS, SourceStore
from ragdiag_tui.core.runs.stages import STAGES
from ragdiag_tui.core.runs.store import S_INVALID, RunStore
from ragdiag_tui.engines.dataset import open_dataset

from .conftest import write_jsonl, write_parquet

pytest.importorskip("duckdb")
from ragdiag_tui.engines.duckdb.review_rows import CHECKPOINT, DatasetRows

DEMO = Path(__file__).resolve().parents[2] / "sample_runs" / "demo.jsonl"
COLUMNS = ("ids", "stage", "file_label", "n_required", "n_context", "questions")


def demo_runs() -> list[dict]:
    return [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]


def many_runs(count: int) -> list[dict]:
    """`count` runs cycling through the demo's, each with an id of its own."""
    runs = demo_runs()
    return [dict(runs[at % len(runs)], id=f"r{at:05d}") for at in range(count)]


def source_store(*inputs: Path) -> SourceStore:
    store = SourceStore(DatasetRows(open_dataset([str(path) for path in inputs])))
    assert store.read()
    return store


def row_of(store: RunStore | SourceStore, row: int) -> tuple:
    return (
        *(getattr(store, name)[row] for name in COLUMNS),
        store.missing.get(row),
        row in store.errors,
        store.raw_text(row),
    )


def assert_same_rows(store: SourceStore, local: RunStore, first_lines: list[int]) -> None:
    """The same rows; each one's line counted within its own file (`first_lines`: the line of
    the single file where each file of the dataset begins)."""
    assert len(store) == len(local)
    for row in range(len(local)):
        assert row_of(store, row) == row_of(local, row), row
        starts = [start for start in first_lines if start <= local.lines[row]]
        assert store.lines[row] == local.lines[row] - max(starts) + 1


def test_a_json_lines_lake_gives_the_rows_of_one_file_of_the_same_runs(tmp_path: Path) -> None:
    runs = many_runs(3 * CHECKPOINT + 17)  # windows and checkpoints that end inside files
    lines: list = [*runs[:1500]]
    lines.insert(700, "")  # a blank line: not a run, so positions and lines part ways
    lines.insert(900, '{"id": "broken", "required": ["a"], "context": "not a list", "correct": true}')
    write_jsonl(tmp_path / "lake" / "a" / "part-0.jsonl", lines)
    write_jsonl(tmp_path / "lake" / "part-1.jsonl", runs[1500:])
    one = write_jsonl(tmp_path / "one.jsonl", [*lines, *runs[1500:]])
    store = source_store(tmp_path / "lake")
    assert_same_rows(store, RunStore.load(one), [1, len(lines) + 1])
    broken = store.row_of.get("broken")
    assert broken is None and store.stage[899] == S_INVALID and isinstance(store.errors[899], LoadError)
    assert store.lines[899] == 901  # its line in its file: the blank line above is no position
    assert store.files[len(store) - 1] == "part-1.jsonl"


def test_a_parquet_lake_gives_the_rows_of_one_file_of_the_same_runs(tmp_path: Path) -> None:
    runs = many_runs(1200)
    write_parquet(tmp_path / "lake" / "a.parquet", runs[:500])
    write_parquet(tmp_path / "lake" / "b.parquet", runs[500:])
    one = write_parquet(tmp_path / "one.parquet", runs)
    store = source_store(tmp_path / "lake")
    assert_same_rows(store, RunStore.load(one), [1, 501])


def test_only_a_few_windows_are_kept_however_many_rows_are_read(tmp_path: Path) -> None:
    runs = many_runs(WINDOW * (WINDOWS + 4))
    store = source_store(write_jsonl(tmp_path / "lake" / "a.jsonl", runs), tmp_path / "lake")
    for row in range(0, len(store), 97):
        assert store.ids[row] == runs[row]["id"]
    assert len(store._windows) == WINDOWS  # the memory of the window, not of the runs
    with pytest.raises(TypeError):
        list(store.ids)  # never the whole column
    assert len(store.ids[0 : len(store)]) == WINDOW  # a slice reads one window at most


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_held_rows_are_read_once_each_and_are_the_rows_of_one_file(tmp_path: Path, kind: str) -> None:
    runs = many_runs(WINDOW * (WINDOWS + 4))
    write = write_jsonl if kind == "jsonl" else write_parquet
    store = source_store(write(tmp_path / "lake" / f"a.{kind}", runs))
    local = RunStore.load(write(tmp_path / f"one.{kind}", runs))
    rows = [(at * 7919) % len(runs) for at in range(3 * (WINDOWS + 4))]  # a row in every window, in no order
    reads: list[tuple[int, int]] = []
    window = store.source.window
    store.source.window = lambda start, stop: reads.append((start, stop)) or window(start, stop)  # type: ignore[method-assign]
    store.hold(rows)
    assert sorted(reads) == reads and all(stop == start + 1 for start, stop in reads)
    assert len(reads) == len(set(rows))
    for _ in range(3):  # a report's passes over its spot-checks, each in sample order
        for row in rows:
            assert row_of(store, row) == row_of(local, row), row
    assert len(reads) == len(set(rows))  # never a window of WINDOW rows read again for them


def test_a_store_holding_named_runs_reads_each_run_a_journal_names_once(tmp_path: Path) -> None:
    runs = many_runs(WINDOW * (WINDOWS + 4))
    lake = write_jsonl(tmp_path / "lake" / "a.jsonl", runs)
    store = SourceStore(DatasetRows(open_dataset([str(lake)])), hold_named=True)
    assert store.read()
    reads: list[tuple[int, int]] = []
    window = store.source.window
    store.source.window = lambda start, stop: reads.append((start, stop)) or window(start, stop)  # type: ignore[method-assign]
    named = [runs[(at * 7919) % len(runs)]["id"] for at in range(3 * (WINDOWS + 4))]
    store.resolve_ids(iter(named))  # as a review's replay names its journal's runs, once
    assert len(reads) == len(set(named)) and all(stop == start + 1 for start, stop in reads)
    for _ in range(3):
        assert [store.ids[store.row_of[run_id]] for run_id in named] == named
    assert len(reads) == len(set(named))


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_a_run_id_is_found_at_its_first_valid_position(tmp_path: Path, kind: str) -> None:
    runs = many_runs(40)
    runs[30]["id"] = runs[5]["id"]  # a repeated id: two runs in a dataset, the first one found
    runs[12]["context"] = [None] if kind == "parquet" else 7  # invalid: never a run to label
    write = write_jsonl if kind == "jsonl" else write_parquet
    write(tmp_path / "lake" / f"a.{kind}", runs[:20])
    write(tmp_path / "lake" / f"b.{kind}", runs[20:])
    rows = DatasetRows(open_dataset([str(tmp_path / "lake")]))
    rows.count()
    found = rows.positions([runs[5]["id"], runs[25]["id"], runs[12]["id"], "no such run"])
    assert found == {runs[5]["id"]: 5, runs[25]["id"]: 25}


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_the_tally_is_the_local_counts_of_the_same_runs(tmp_path: Path, kind: str) -> None:
    runs = many_runs(300)
    write = write_jsonl if kind == "jsonl" else write_parquet
    write(tmp_path / "lake" / f"a.{kind}", runs[:120])
    write(tmp_path / "lake" / f"b.{kind}", runs[120:])
    local = RunStore.load(write(tmp_path / f"one.{kind}", runs))
    store = source_store(tmp_path / "lake")
    tally = store.tally()
    assert tally.counts == [local.stage.count(code) for code in range(len(STAGES))]
    lucky = sum(1 for row in local.missing if local.file_label[row] == 1)
    assert tally.lucky == lucky
    missed = store.most_missed(5)
    assert len(missed) == 5 and dict(missed).items() <= local.missed_documents().items()
    assert [runs for _, runs in missed] == [runs for _, runs in local.missed_documents().most_common(5)]


def test_a_files_text_found_clean_is_not_read_again_until_the_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app plans its files again for each view and filter: the text columns SQL does not
    read are checked once per version of a file, and a file rewritten with a string that is
    not UTF-8 goes to the exact path."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ragdiag_tui.engines.duckdb.schema import plan

    path = write_parquet(tmp_path / "lake" / "a.parquet", many_runs(30), extra=("question",))
    reads: list[list[str]] = []
    iter_batches = pq.ParquetFile.iter_batches

    def counted(self: pq.ParquetFile, *args: object, columns: list[str], **kwargs: object) -> object:
        reads.append(columns)
        return iter_batches(self, *args, columns=columns, **kwargs)

    monkeypatch.setattr(pq.ParquetFile, "iter_batches", counted)
    assert plan([path], None, ())[0] is not None
    assert reads == [["question"]]
    assert plan([path], None, ())[0] is not None and plan([path], None, ("question",))[0] is not None
    assert reads == [["question"]]
    table = pq.read_table(path)
    bad = pa.array([b"\xff"] * len(table), pa.binary()).view(pa.string())
    pq.write_table(
        table.set_column(table.schema.get_field_index("question"), "question", bad), path.with_suffix(".new")
    )
    path.with_suffix(".new").rename(path)
    assert plan([path], None, ()) == [None]
    assert reads == [["question"], ["question"]]


def test_the_counts_made_ahead_and_merged_piecewise_are_the_local_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The counts' scan started ahead (as `review DATASET` starts it) is the one the app's
    tally waits for, and the missing IDs counted a few at a time and merged are the local
    file's counts."""
    from ragdiag_tui.engines.duckdb import review_codes

    monkeypatch.setattr(review_codes, "COUNT_EVERY", 3)
    monkeypatch.setattr(review_codes, "MERGE_AFTER", 2)
    runs = many_runs(300)
    write_parquet(tmp_path / "lake" / "a.parquet", runs[:120])
    write_parquet(tmp_path / "lake" / "b.parquet", runs[120:])
    local = RunStore.load(write_parquet(tmp_path / "one.parquet", runs))
    rows = DatasetRows(open_dataset([str(tmp_path / "lake")]))
    rows.count_ahead()
    tally = rows.tally()
    assert rows.tally() is tally and tally.counts == [local.stage.count(code) for code in range(len(STAGES))]
    expected = sorted(local.missed_documents().items(), key=lambda item: (-item[1], item[0]))
    assert rows.most_missed(len(expected) + 1) == expected
    lucky = [row for row in local.missing if local.file_label[row] == 1]
    assert list(rows.view_positions("lucky")) == sorted(lucky)
    assert list(rows.view_positions("retrieval")) == sorted(local.missing)


@pytest.mark.parametrize("path", ["listed", "placed by a scan", "joined"])
def test_runs_named_by_their_id_or_their_place_are_found_at_their_first_valid_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """A run's own id is looked up as a list DuckDB pushes into its reader, a run without one
    by the row its FILE:LINE name gives (read and checked), or, many of either, by a scan:
    the same positions every way."""
    from ragdiag_tui.engines.duckdb import review_positions

    if path == "placed by a scan":
        monkeypatch.setattr(review_positions, "NAMED_PLACES", 0)
    if path == "joined":
        monkeypatch.setattr(review_positions, "LISTED", 0)
    runs = many_runs(8)
    runs[1].pop("id")  # a.parquet:2
    runs[4]["id"] = "a.parquet:2"  # an own id that is another run's place: the first one wins
    runs[6].pop("id")  # b.parquet:3
    runs[7].pop("id")
    runs[7]["context"] = [None]  # b.parquet:4, invalid: never a run to label
    write_parquet(tmp_path / "lake" / "a.parquet", runs[:4])
    write_parquet(tmp_path / "lake" / "b.parquet", runs[4:])
    rows = DatasetRows(open_dataset([str(tmp_path / "lake")]))
    rows.count()
    wanted = [
        "a.parquet:2",
        "b.parquet:3",
        "b.parquet:4",
        "a.parquet:1",
        "a.parquet:99",
        "r00003",
        "b.parquet:1",
    ]
    assert rows.positions(wanted) == {"a.parquet:2": 1, "b.parquet:3": 6, "r00003": 3}
