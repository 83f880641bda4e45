"""A dataset reviewed in place (`review LAKE`): the first rows before the counts, the
counts from the engine, labels journaled by the dataset's run ids beside the lake and
moving the counts, the same labels in force and counts as the same runs in one file,
a blind second reviewer, and what the app cannot do over a dataset said plainly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.runs.source_store import SourceStore
from ragdiag_tui.core.runs.stages import STAGES
from ragdiag_tui.engines.dataset import open_dataset
from ragdiag_tui.ui.app import RagdiagApp, create_app

from .helpers import DEMO, burst, detail_text, loaded, record_notifications, screen_text, table, wait_until

pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from ragdiag_tui.engines.duckdb.review_rows import DatasetRows  # noqa: E402

SIZE = (140, 40)
SPLIT = 50  # the demo's first 50 runs in one file of the lake, the rest in another


def demo_runs() -> list[dict]:
    return [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]


def write_lake(folder: Path, kind: str, runs: list[dict] | None = None) -> tuple[Path, Path]:
    """The demo's runs (or `runs`) as a lake of two files (in a subfolder too) and as one file
    of the same format; (lake, one file)."""
    runs = demo_runs() if runs is None else runs
    parts = [
        (folder / "lake" / "day-1" / f"part-0.{kind}", runs[:SPLIT]),
        (folder / "lake" / f"part-1.{kind}", runs[SPLIT:]),
    ]
    for path, part in [*parts, (folder / f"one.{kind}", runs)]:
        path.parent.mkdir(parents=True, exist_ok=True)
        if kind == "jsonl":
            path.write_text("".join(json.dumps(run) + "\n" for run in part), encoding="utf-8")
        else:
            pq.write_table(pa.Table.from_pylist(part), path, row_group_size=16)
    return folder / "lake", folder / f"one.{kind}"


def lake_app(lake: Path, **options: object) -> RagdiagApp:
    rows = DatasetRows(open_dataset([str(lake)]))
    return create_app(rows.path, source=rows, **options)  # type: ignore[arg-type]


async def counted(pilot) -> None:
    screen = pilot.app.review_screen
    await wait_until(pilot, lambda: not screen.showing.counting, "the dataset's counts")


def summary(pilot) -> str:
    return str(pilot.app.screen.query_one("#summary").visual)


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_a_lake_is_reviewed_in_place_with_the_counts_labels_and_journal_of_one_file(
    tmp_path: Path, kind: str
) -> None:
    lake, one = write_lake(tmp_path, kind)
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        assert isinstance(screen.store, SourceStore) and len(screen.rows) == len(demo_runs())
        await counted(pilot)
        local = open_review(one, reviewer="ann")
        assert list(screen.review.counts) == list(local.counts)
        assert screen.review.lucky == local.lucky
        assert f"lucky {local.lucky}" in summary(pilot)
        await pilot.press("end")
        last = table(pilot).cursor_row
        assert last == len(demo_runs()) - 1
        assert "run-0080" in detail_text(app)
        await pilot.press("y")  # run-0080 misses a document: a lucky answer now
        await pilot.press("home", "down", "n")  # run-0002 stays incorrect, now the reviewer's
        await pilot.press("down", "y", "ctrl+z")  # taken back
        local.set_label(last, True)
        local.set_label(1, False)
        assert list(screen.review.counts) == list(local.counts)
        assert screen.review.lucky == local.lucky == 10
        assert "lucky 10" in summary(pilot)
    entries = [json.loads(line) for line in Path(f"{lake}.review.jsonl").read_text().splitlines()]
    assert [(e["run"], e["label"]) for e in entries] == [
        ("run-0080", True),
        ("run-0002", False),
        ("run-0003", True),
        ("run-0003", None),
    ]
    # The lake's journal over the one file of the same runs: the same labels in force, counts, digests.
    shutil.copy(f"{lake}.review.jsonl", journal_path(one))
    again = open_review(one, reviewer="ann")
    assert not again.stale and not again.orphans
    assert (list(again.counts), again.lucky) == (list(local.counts), local.lucky)
    reopened = lake_app(lake, reviewer="ann")
    async with reopened.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await counted(pilot)
        assert (list(screen.review.counts), screen.review.lucky) == (list(local.counts), local.lucky)
        assert [screen.review.label(row) for row in (1, 2, len(demo_runs()) - 1)] == [False, False, True]
        assert screen.review.reviewed == 2


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_a_lakes_views_come_from_the_engine_with_the_reviews_labels_over_them(
    tmp_path: Path, kind: str
) -> None:
    lake, one = write_lake(tmp_path, kind)
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        local = open_review(one, reviewer="ann")
        await pilot.press("end", "y")  # run-0080: a lucky answer now
        local.set_label(79, True)
        await pilot.press("L")
        lucky = [row for row in range(len(demo_runs())) if local.is_lucky(row)]
        await wait_until(pilot, lambda: list(screen.rows) == lucky, "the lucky answers")
        assert f"{len(lucky)} of {len(demo_runs())} shown" in screen_text(app)
        await pilot.press("home", "n")  # no longer lucky: stays in view while the cursor is on it
        local.set_label(lucky[0], False)
        await pilot.press("r")  # the retrieval view
        retrieval = [row for row in range(len(demo_runs())) if local.store.stage[row] == 0]
        await wait_until(pilot, lambda: list(screen.rows) == retrieval, "the retrieval view")
        await pilot.press("R")
        await wait_until(pilot, lambda: list(screen.rows) == [lucky[0], 79], "the reviewed runs")
        await pilot.press("a")
        await wait_until(pilot, lambda: len(screen.rows) == len(demo_runs()), "every run")


async def test_a_blind_second_reviewer_sees_no_one_elses_label_on_a_lake(tmp_path: Path) -> None:
    lake, _one = write_lake(tmp_path, "parquet")
    first = SourceStore(DatasetRows(open_dataset([str(lake)])))
    lead = open_review(str(lake), store=first, reviewer="lead")
    lead.set_label(0, False)  # run-0001 is labelled correct in the file
    app = lake_app(lake, reviewer="bob", blind=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await counted(pilot)
        assert screen.review.reviewers(0).keys() == {"lead"}
        assert not screen.review.revealed(0)
        line = screen_text(app).splitlines()[3]
        assert "run-0001" in line and "correct" not in line and "incorrect" not in line
        assert "lead" not in detail_text(app)
        said = record_notifications(app)
        await pilot.press("L")  # it would tell which runs are labelled correct
        await wait_until(pilot, lambda: said, "the notice")
        assert said[0][0].startswith("In blind mode, the views that tell labels: not available")
        assert screen.view == "all" and len(screen.rows) == len(demo_runs())
        await pilot.press("n")
        assert screen.review.revealed(0) and screen.review.label(0) is False
    assert [
        json.loads(line)["reviewer"] for line in Path(f"{lake}.review.jsonl").read_text().splitlines()
    ] == ["lead", "bob"]
    assert all(count >= 0 for count in screen.review.counts) and len(screen.review.counts) == len(STAGES)


async def test_what_the_app_cannot_do_over_a_lake_it_says(tmp_path: Path) -> None:
    lake, _one = write_lake(tmp_path, "jsonl")
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        said = record_notifications(app)
        await pilot.press("slash", *"tag:x")  # a reason tag's filter: the review's, not the engine's
        await wait_until(pilot, lambda: len(said) >= 1, "the filter's notice")
        assert screen.search == "" and len(screen.rows) == len(demo_runs())
        await pilot.press("escape", "R", "slash", "p")  # the review's own view with a filter
        await wait_until(pilot, lambda: len(said) >= 2, "the second filter's notice")
        assert screen.view == "all" and screen.search == "" and len(screen.rows) == len(demo_runs())
        await pilot.press("escape", "o")  # a sort: the engine's, no notice
        await wait_until(
            pilot,
            lambda: list(screen.rows) == sorted(screen.rows, key=screen.store.ids.__getitem__),
            "the sort",
        )
    texts = [text for text, _ in said]
    refusal = "The missing-document filter, tag: terms and the review's own views with a filter: "
    refusal += "not available while reviewing a dataset"
    assert sum(refusal in text for text in texts) == 2


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_a_filter_over_a_lake_shows_the_runs_one_file_shows(tmp_path: Path, kind: str) -> None:
    lake, one = write_lake(tmp_path, kind)
    async with create_app(str(one), reviewer="ann").run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("L", "slash", *"HR-policy-0", "enter")
        await wait_until(pilot, lambda: screen.search == "HR-policy-0", "the filter")
        expected = [screen.store.ids[row] for row in screen.rows]
    assert 0 < len(expected) < len(demo_runs())
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        said = record_notifications(app)
        await pilot.press("L", "slash", *"HR-policy-0", "enter")

        def ids() -> list[str]:
            return [screen.store.ids[row] for row in screen.rows]

        await wait_until(pilot, lambda: ids() == expected, "the lucky answers that name an HR policy")
        await wait_until(
            pilot, lambda: f"{len(expected)} of {len(demo_runs())} shown" in screen_text(app), "the count"
        )
        assert not [text for text, _ in said if "not available" in text]


async def test_enter_scans_a_lakes_filter_at_once_and_the_keys_typed_before_it_do_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ragdiag_tui.ui.screens.review import in_place

    monkeypatch.setattr(in_place, "SETTLE_SECONDS", 3600.0)  # only enter can end the wait for a key
    lake, _ = write_lake(tmp_path, "parquet")
    app = lake_app(lake, reviewer="ann")
    asked: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        source = screen.store.source
        find = source.filter_positions

        def filter_positions(query):
            asked.append(query.text)
            return find(query)

        monkeypatch.setattr(source, "filter_positions", filter_positions)
        await pilot.press("slash", *"HR-policy-0", "enter")
        await wait_until(pilot, lambda: screen.search == "HR-policy-0" and asked, "the filter's scan")
        await wait_until(
            pilot, lambda: f"{len(screen.rows)} of {len(demo_runs())} shown" in screen_text(app), "the count"
        )
        assert 0 < len(screen.rows) < len(demo_runs())
    assert asked == ["hr-policy-0"]  # one scan: the keys before enter each gave way to the next


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_d_over_a_lake_draws_sample_datasets_runs_and_concludes_as_one_file(
    tmp_path: Path, kind: str
) -> None:
    from textual.widgets import Input

    from ragdiag_tui.cli import main
    from ragdiag_tui.core.analysis.spotcheck import spot_check_report
    from ragdiag_tui.ui.screens.sample import SampleDialog

    lake, one = write_lake(tmp_path, kind)
    assert (
        main(
            [
                "sample",
                str(lake),
                "--view",
                "retrieval",
                "-n",
                "6",
                "--seed",
                "7",
                "-o",
                str(tmp_path / "s.jsonl"),
            ]
        )
        == 0
    )
    expected = [json.loads(line)["id"] for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("r")  # the retrieval view
        await wait_until(
            pilot, lambda: screen.view == "retrieval" and len(screen.rows) < len(demo_runs()), "the view"
        )
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, SampleDialog), "the sample dialog")
        dialog = app.screen
        dialog.query_one("#sample-size", Input).value = "6"
        dialog.query_one("#sample-seed", Input).value = "7"
        dialog.query_one("#sample-name", Input).value = "gaps"
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.spot_check == "gaps", "the spot-check to open", seconds=20)
        assert [screen.store.ids[row] for row in screen.rows] == expected
        await pilot.press("y", "n", "y")
        await wait_until(pilot, lambda: screen.review.reviewed == 3, "three labels")
    records = [json.loads(line) for line in Path(f"{lake}.review.jsonl").read_text().splitlines()]
    drawn = [record for record in records if record.get("kind") == "spot-check"]
    assert drawn and drawn[0]["ids"] == expected and drawn[0]["seed"] == 7 and drawn[0]["view"] == "retrieval"
    shutil.copy(f"{lake}.review.jsonl", journal_path(one))
    on_lake = open_review(
        str(lake), store=SourceStore(DatasetRows(open_dataset([str(lake)]))), writable=False
    )
    in_file = open_review(one, writable=False)
    assert spot_check_report(on_lake, on_lake.spot_checks["gaps"]) == spot_check_report(
        in_file, in_file.spot_checks["gaps"]
    )
    assert spot_check_report(in_file, in_file.spot_checks["gaps"]).reviewed == 3
    # `review LAKE --spot-check gaps` opens it again, on the first run still to label.
    async with lake_app(lake, reviewer="ann", spot_check="gaps").run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == "gaps", "the spot-check", seconds=20)
        assert [screen.store.ids[row] for row in screen.rows] == expected
        assert screen.table.cursor == 3


async def labelled_out_of_unreviewed(app: RagdiagApp) -> tuple[list[str], str]:
    """`end` `y`, `U`, `home` `n`, `down`, `down`: the view's ids and the cursor's run once the run
    labelled in the view has left it."""
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        if isinstance(screen.store, SourceStore):
            await counted(pilot)
        await pilot.press("end", "y", "U")
        valid = [row for row in range(len(demo_runs())) if screen.store.is_valid(row)]
        await wait_until(pilot, lambda: list(screen.rows) == valid[:-1], "the unreviewed runs")
        assert table(pilot).cursor == len(valid) - 2  # beside where it was, as over a file
        await pilot.press("home", "n")
        assert list(screen.rows) == valid[:-1]  # stays while the cursor is on it
        await pilot.press("down", "down")
        await wait_until(pilot, lambda: list(screen.rows) == valid[1:-1], "the labelled run gone")
        assert screen.review.reviewed == 2
        return [screen.store.ids[row] for row in screen.rows], screen.store.ids[
            screen.rows[table(pilot).cursor]
        ]


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_a_run_labelled_out_of_a_lakes_view_leaves_it_once_the_cursor_moves_on(
    tmp_path: Path, kind: str
) -> None:
    """`U`, `n`, `down` over a lake: the labelled run is no longer unreviewed and leaves the view
    when the cursor leaves it, as over one file (the view's rows are an array of positions over
    a lake, a list over a file: the app stopped with an AssertionError)."""
    lake, one = write_lake(tmp_path, kind)
    over_lake = await labelled_out_of_unreviewed(lake_app(lake, reviewer="ann"))
    assert over_lake == await labelled_out_of_unreviewed(create_app(one, reviewer="ann"))


async def test_quitting_while_a_lake_is_counted_does_not_wait_for_the_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command exits only once the app's worker threads end: the count's worker waits for
    the engine's scan in a daemon thread of its own and leaves it when the app quits (the
    command then stops the scan), instead of holding the exit until the scan ends."""
    import threading
    import time

    lake, _one = write_lake(tmp_path, "parquet")
    release = threading.Event()
    counting = DatasetRows.tally
    scanning: list[threading.Thread] = []

    def slow_tally(self: DatasetRows) -> object:
        scanning.append(threading.current_thread())
        release.wait(60)
        return counting(self)

    monkeypatch.setattr(DatasetRows, "tally", slow_tally)
    app = lake_app(lake, reviewer="ann")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await loaded(pilot)
            await wait_until(pilot, lambda: scanning, "the count")
            worker = next(w for w in app.workers if w.name == "count")
        deadline = time.monotonic() + 10
        while not worker.is_finished and time.monotonic() < deadline:  # polls the worker's end
            time.sleep(0.02)
        assert worker.is_finished  # the quit did not wait for the scan
        assert scanning[0].daemon and scanning[0].is_alive() and not release.is_set()
    finally:
        release.set()


@pytest.mark.parametrize("keys", [("L", "n"), ("slash", *"pto", "enter", "n"), ("o", "end", "n")])
async def test_keys_typed_after_a_lakes_view_act_on_the_view_they_were_typed_for(
    tmp_path: Path, keys: tuple[str, ...]
) -> None:
    """`L` `n` in one burst over a lake: the engine finds the lucky answers in a worker; the `n`
    waits for them and labels the first lucky answer, as over a file (it labelled the run under
    the cursor in the view before). The same for a filter and a sort."""
    lake, one = write_lake(tmp_path, "parquet")
    labelled = []
    for app in (lake_app(lake, reviewer="ann"), create_app(one, reviewer="ann")):
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot)
            if isinstance(screen.store, SourceStore):
                await counted(pilot)
            burst(app, *keys)
            await wait_until(pilot, lambda screen=screen: screen.review.reviewed == 1, "the label")
            await pilot.pause()
            labelled.append([screen.store.ids[row] for row in screen.review.reviewed_rows()])
            assert screen.table.cursor_row in screen.review.reviewed_rows()
    assert labelled[0] == labelled[1]
