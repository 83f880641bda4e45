"""Spot-checks on screen: draw one (D), open one (K, or `review --spot-check`), its runs in
sample order with its progress in the summary, moving on after each label; reason tags on
the number keys; the tags, recall and precision columns."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from textual.widgets import Input

from ragdiag_tui.cli import parse_args
from ragdiag_tui.core.analysis.sorting import ASCENDING
from ragdiag_tui.core.review.records import SpotCheck, utc_now
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.review.tags import DEFAULT_TAGS
from ragdiag_tui.ui.app import RagdiagApp, create_app
from ragdiag_tui.ui.screens.help import HelpScreen
from ragdiag_tui.ui.screens.sample import SampleDialog
from ragdiag_tui.ui.screens.spot_check_list import SpotCheckList

from .helpers import (
    GEN,
    LUCKY,
    PASS,
    RETR,
    SIZE,
    UNRES,
    detail_text,
    loaded,
    record_notifications,
    screen_text,
    table,
    table_lines,
    wait_until,
)

IDS = ["pass-1", "gen-2", "lucky-3", "retr-4", "unres-5"]


def journal_spot_check(path: Path, name: str, ids: list[str]) -> None:
    """Record a spot-check in the run file's journal, as `ragdiag-tui sample` does."""
    review = open_review(path, reviewer="lead")
    review.add_spot_check(SpotCheck(name, "all", "", 7, 9, len(ids), tuple(ids), "lead", utc_now()))
    review.journal.close()


async def test_d_draws_a_sample_of_the_view_and_opens_it_in_sample_order(app: RagdiagApp, runs_path) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("L", "D")
        await wait_until(pilot, lambda: isinstance(app.screen, SampleDialog), "the sample dialog")
        dialog = app.screen
        assert dialog.population == 2  # lucky-3 and a[b]c, by the file's labels
        dialog.query_one("#sample-seed", Input).value = "7"
        dialog.query_one("#sample-name", Input).value = "lucky-2"
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.spot_check == "lucky-2", "the spot-check to open")
        # The documented draw: the smallest sha256(seed, 0x1f, id) first.
        expected = sorted(
            ["lucky-3", "a[b]c"], key=lambda i: hashlib.sha256(f"7\x1f{i}".encode()).hexdigest()
        )
        assert [screen.store.ids[row] for row in screen.rows] == expected
        assert "lucky-2: 0/2 reviewed · 0 held · 0 overturned" in screen_text(app)
        assert "Spot-check lucky-2" in screen_text(app)
        record = [json.loads(line) for line in (runs_path.parent / "runs.jsonl.review.jsonl").open()][-1]
        assert record["kind"] == "spot-check" and record["ids"] == expected and record["seed"] == 7


async def test_the_draw_runs_in_a_worker_and_escape_cancels_it(app: RagdiagApp, monkeypatch) -> None:
    """Keying a million runs takes most of a second: the dialog says it is drawing, ignores
    a second enter, and escape closes it with nothing recorded."""
    import threading

    from ragdiag_tui.ui.screens import sample as sample_screen

    started, release, calls = threading.Event(), threading.Event(), []
    real = sample_screen.draw_ids

    def slow_draw(*args):  # type: ignore[no-untyped-def]
        calls.append(args)
        started.set()
        release.wait(10)
        return real(*args)

    monkeypatch.setattr(sample_screen, "draw_ids", slow_draw)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, SampleDialog), "the sample dialog")
        await pilot.press("enter")
        await wait_until(pilot, started.is_set, "the draw to start")
        assert "Drawing 11 of 11" in screen_text(app)
        await pilot.press("enter", "escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, SampleDialog), "the dialog to close")
        release.set()
        await pilot.pause()
        assert len(calls) == 1 and screen.spot_check is None and not screen.review.spot_checks


async def test_sample_dialog_refuses_a_margin_above_a_half(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, SampleDialog), "the sample dialog")
        dialog = app.screen
        dialog.query_one("#sample-size", Input).value = "auto"
        dialog.query_one("#sample-margin", Input).value = "0.9"
        await pilot.press("enter")
        assert app.is_running and isinstance(app.screen, SampleDialog)
        assert "The margin is a proportion above 0 and at most 0.5, such as 0.05" in screen_text(app)
        dialog.query_one("#sample-margin", Input).value = "0.5"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.review_screen.spot_check is not None, "the spot-check to open")
        assert len(app.review_screen.rows) == 4  # +-50%: n0 = 3.8416, for 11 runs 3.8416 / 1.2583 = 3.05


async def test_sample_dialog_draws_every_run_for_a_margin_too_small_to_compute(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, SampleDialog), "the sample dialog")
        dialog = app.screen
        dialog.query_one("#sample-size", Input).value = "auto"
        dialog.query_one("#sample-margin", Input).value = "1e-170"  # squared: 0.0, a ZeroDivisionError
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.review_screen.spot_check is not None, "the spot-check to open")
        assert app.is_running
        assert len(app.review_screen.rows) == 11  # the whole population of the view


async def test_the_default_name_follows_the_size_to_be_drawn(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("L", "D")
        await wait_until(pilot, lambda: isinstance(app.screen, SampleDialog), "the sample dialog")
        name = app.screen.query_one("#sample-name", Input)
        assert name.placeholder == "lucky-2"  # the whole population of 2, not "lucky-50"
        app.screen.query_one("#sample-size", Input).value = "1"
        await pilot.pause()
        assert name.placeholder == "lucky-1"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.review_screen.spot_check == "lucky-1", "the spot-check to open")


async def test_sample_dialog_refuses_a_bad_size_and_a_taken_name(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        screen.review.add_spot_check(SpotCheck("all-3", "all", "", 1, 9, 1, ("pass-1",), "x", utc_now()))
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, SampleDialog), "the sample dialog")
        dialog = app.screen
        dialog.query_one("#sample-size", Input).value = "many"
        await pilot.press("enter")
        assert isinstance(app.screen, SampleDialog)
        assert "whole number or auto" in screen_text(app)
        dialog.query_one("#sample-size", Input).value = "3"
        await pilot.press("enter")
        assert isinstance(app.screen, SampleDialog) and "exists" in screen_text(app)
        dialog.query_one("#sample-name", Input).value = "mine"
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.spot_check == "mine", "the spot-check to open")
        assert len(screen.rows) == 3


async def test_a_spot_check_moves_on_after_each_label_and_counts_held_and_overturned(runs_path) -> None:
    journal_spot_check(runs_path, "first-five", IDS[::-1])
    app = create_app(runs_path, reviewer="tester", spot_check="first-five")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == "first-five", "the spot-check")
        assert list(screen.rows) == [UNRES, RETR, LUCKY, GEN, PASS]  # sample order
        assert table(pilot).cursor_row == UNRES
        await pilot.press("y")  # unres-5 is labelled correct in the file: held
        assert table(pilot).cursor_row == RETR  # moved on by itself
        await pilot.press("y")  # retr-4 was incorrect: overturned
        assert table(pilot).cursor_row == LUCKY
        assert "first-five: 2/5 reviewed · 1 held · 1 overturned" in screen_text(app)
        await pilot.press("a")  # a view key leaves the spot-check
        assert screen.spot_check is None and len(screen.rows) == len(screen.store)
        assert "first-five" not in screen_text(app)


async def test_a_spot_check_reopened_goes_on_where_it_was_left(runs_path) -> None:
    journal_spot_check(runs_path, "s", IDS)
    app = create_app(runs_path, reviewer="tester", spot_check="s")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == "s", "the spot-check")
        await pilot.press("y", "n")
    app = create_app(runs_path, reviewer="tester", spot_check="s")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == "s", "the spot-check")
        assert table(pilot).cursor_row == LUCKY  # the first not yet reviewed
        assert "s: 2/5 reviewed" in screen_text(app)


async def test_k_lists_the_spot_checks_and_enter_opens_one(runs_path) -> None:
    journal_spot_check(runs_path, "one", IDS[:2])
    journal_spot_check(runs_path, "two", IDS[2:])
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("K")
        await wait_until(pilot, lambda: isinstance(app.screen, SpotCheckList), "the list")
        assert "two: 0/3 reviewed · 0 held · 0 overturned" in screen_text(app)
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: screen.spot_check == "two", "the spot-check")
        assert list(screen.rows) == [LUCKY, RETR, UNRES]


def test_review_takes_spot_check_on_the_command_line() -> None:
    args = parse_args(["review", "runs.jsonl", "--spot-check", "lucky-50"])
    assert args.spot_check == "lucky-50"


async def test_unknown_spot_check_says_which_there_are(runs_path) -> None:
    journal_spot_check(runs_path, "real", IDS)
    app = create_app(runs_path, reviewer="tester", spot_check="typo")
    notes = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: any("Spot-checks: real." in note for note, _ in notes), "the error")
        assert screen.spot_check is None


async def test_number_keys_toggle_reason_tags_shown_in_table_detail_and_filter(app: RagdiagApp) -> None:
    async with app.run_test(size=(200, 50)) as pilot:
        screen = await loaded(pilot)
        table(pilot).cursor = LUCKY
        await pilot.pause()
        await pilot.press("1", "3")
        assert screen.review.tags(LUCKY) == ("supported-elsewhere", "model-knowledge")
        assert "1 Supported by another document, 3 Answered from model knowledge" in detail_text(app)
        await pilot.press("M")  # the tags column
        assert table_lines(pilot)[1 + LUCKY].split()[7] == "13"
        await pilot.press("1")
        assert screen.review.tags(LUCKY) == ("model-knowledge",)
        assert not screen.review.is_reviewed(LUCKY)  # a tag alone is no review
        await pilot.press("slash", *"tag:model-knowledge")
        assert list(screen.rows) == [LUCKY]


async def test_help_lists_the_tag_set_in_force(runs_path) -> None:
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        text = str(app.screen.query_one("#help-keys Static").visual)
        for tag in DEFAULT_TAGS:
            assert f"{tag.number}  {tag.name}" in text
        for key in ("D", "K", "M", "]", "[", "A", "o", "<", ">"):
            assert f"{key:>11}  " in text, key


async def test_recall_and_precision_show_none_never_zero_and_sort_with_none_last(tmp_path) -> None:
    path = tmp_path / "runs.jsonl"
    runs = [
        {"id": "half", "required": ["A", "B"], "context": ["A"], "correct": True},
        {"id": "nothing-supplied", "required": ["A"], "context": [], "correct": False},
        {"id": "full", "required": ["A"], "context": ["A", "X", "Y"], "correct": True},
    ]
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    app = create_app(path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("M")
        line = table_lines(pilot)[2]
        assert line.split()[4:9] == ["1", "1", "0", "0.00", "none"]  # recall 0, precision none
        table(pilot).cursor = 1
        await pilot.pause()
        assert "recall 0.00 · precision none" in detail_text(app)
        screen.navigation.sort_by("precision", ASCENDING)
        await pilot.pause()
        assert [screen.store.ids[row] for row in screen.rows] == ["full", "half", "nothing-supplied"]
        screen.navigation.sort_by("precision", -ASCENDING)
        await pilot.pause()
        assert [screen.store.ids[row] for row in screen.rows] == ["half", "full", "nothing-supplied"]


async def test_statistics_conclude_each_spot_check_with_its_interval_and_a_bar_per_tag(runs_path) -> None:
    from ragdiag_tui.core.analysis.spotcheck import spot_check_reports
    from ragdiag_tui.ui.screens.statistics import StatisticsScreen

    journal_spot_check(runs_path, "first-five", IDS)
    app = create_app(runs_path, reviewer="tester", spot_check="first-five")
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == "first-five", "the spot-check")
        await pilot.press("4", "n", "y")  # pass-1 overturned (answer wrong), gen-2 overturned
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen), "the statistics")
        report = spot_check_reports(screen.review)[0]
        assert report.overturned == 2 and report.reviewed == 2
        text = screen_text(app)
        assert report.sentence()[:60] in " ".join(text.split())
        assert "95% CI" in text
        tag_line = next(line for line in text.splitlines() if "Answer is actually wrong" in line)
        rate = report.tags[[tag.key for tag in report.tags].index("answer-wrong")].rate
        assert rate is not None
        # 1 of 2 reviewed: half a bar, the count, then the rate with its whole interval, then the name
        assert "█" * 6 + "░" * 6 + f"   1  {rate.estimate_percent()} ({rate.ci_percent()})" in tag_line
        assert "mean recall" in text and "mean precision" in text


async def test_a_run_in_conflict_is_counted_apart_in_the_summary_and_the_statistics(runs_path) -> None:
    from ragdiag_tui.ui.screens.statistics import StatisticsScreen

    journal_spot_check(runs_path, "first-five", IDS)
    for reviewer, labels in (("bob", {"pass-1": False}), ("tester", {"pass-1": True, "gen-2": True})):
        review = open_review(runs_path, reviewer=reviewer)
        for run_id, label in labels.items():
            review.set_label(review.store.row_of[run_id], label)
            if reviewer == "bob":
                review.set_tags(review.store.row_of[run_id], ["answer-wrong"])
        review.journal.close()
    app = create_app(runs_path, reviewer="tester", spot_check="first-five")
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == "first-five", "the spot-check")
        # bob labelled too: the progress is per reviewer (issue 16, item 1)
        assert "first-five: mine 2/5 · team 2/5 · 0 held · 1 overturned · 1 in conflict" in screen_text(app)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen), "the statistics")
        text = " ".join(screen_text(app).split())
        assert "2 of 9 reviewed: 0 held, 1 overturned, 1 in conflict" in text
        assert "(the estimate is over the 1 with a settled label)" in text
        # bob's tag explains his losing label: no bar, a count of 0 for "answer is actually wrong"
        tag_line = next(line for line in screen_text(app).splitlines() if "Answer is actually wrong" in line)
        assert "░" * 12 + "   0  " in tag_line


async def test_the_list_flags_a_spot_check_whose_runs_the_file_does_not_hold(runs_path) -> None:
    journal_spot_check(runs_path, "here", IDS[:2])
    journal_spot_check(runs_path, "elsewhere", ["other-1", "other-2", "other-3"])
    journal_spot_check(runs_path, "partly", [IDS[0], "other-1"])
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("K")
        await wait_until(pilot, lambda: isinstance(app.screen, SpotCheckList), "the list")
        entries = dict(app.screen.entries)
        assert entries["here"] == "here: 0/2 reviewed · 0 held · 0 overturned"
        assert "none of its 3 sampled runs is in this file" in entries["elsewhere"]
        assert "1 of its 2 sampled runs is not in this file" in entries["partly"]
        assert "overturned · ⚠" in screen_text(app)  # the flag is shown, not only kept


async def test_the_list_counts_a_repeated_id_once_and_flags_the_record(runs_path) -> None:
    """Issue 22, item 12: a record naming one run three times is one run, questioned in the list."""
    journal_spot_check(runs_path, "dup", [IDS[0], IDS[0], IDS[0]])
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("K")
        await wait_until(pilot, lambda: isinstance(app.screen, SpotCheckList), "the list")
        entry = dict(app.screen.entries)["dup"]
        assert entry.startswith("dup: 0/1 reviewed")
        assert "⚠ 2 repeated ids counted once" in entry
        assert "⚠ its size says 3 but it names 1 distinct run" in entry
