"""Reviewing as a team on screen: conflicts, adjudication, blind mode, agreement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.ui.app import RagdiagApp, create_app
from ragdiag_tui.ui.screens.review.adjudicate import AdjudicateDialog
from ragdiag_tui.ui.screens.statistics import StatisticsScreen
from ragdiag_tui.ui.widgets.agreement_panel import AgreementPanel
from ragdiag_tui.ui.widgets.stage_summary import StageSummary

from .helpers import GEN, LUCKY, PASS, RETR, SIZE, detail_text, loaded, screen_text, table, table_lines


def label_as(path: Path, reviewer: str, labels: dict[int, bool], **changes: object) -> None:
    """`reviewer` labels rows through the core's review model, as another app would."""
    review = open_review(path, reviewer=reviewer)
    for row, label in labels.items():
        review.set_label(row, label)
    for row, tags in dict(changes.get("tags", {})).items():  # type: ignore[call-overload]
        review.set_tags(row, tags)
    for row, note in dict(changes.get("notes", {})).items():  # type: ignore[call-overload]
        review.set_note(row, note)
    assert review.journal is not None
    review.journal.close()


@pytest.fixture
def team_path(runs_path: Path) -> Path:
    """ann and bo disagree on GEN (a conflict); they agree on PASS; ann alone labelled RETR."""
    label_as(
        runs_path,
        "ann",
        {PASS: True, GEN: True, RETR: False},
        tags={GEN: ["wrong-doc"]},
        notes={GEN: "reads fine to me"},
    )
    label_as(runs_path, "bo", {PASS: True, GEN: False})
    return runs_path


def journal(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in Path(journal_path(path)).read_text("utf-8").splitlines()]


def line_of(pilot, run_id: str) -> str:  # type: ignore[no-untyped-def]
    return next(line for line in table_lines(pilot) if run_id in line)


async def test_conflicts_view_lists_only_runs_whose_reviewers_disagree(team_path: Path) -> None:
    app = create_app(team_path, reviewer="cy")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        assert "≠ conflicts 1" in screen_text(pilot.app)
        await pilot.press("C")
        assert screen.rows == [GEN]
        assert "Conflicts" in screen_text(pilot.app)
        # ≠ in conflict, ✎ noted (ann's note)
        assert line_of(pilot, "gen-2").split()[:5] == ["≠✎", "gen-2", "generation", "incorrect", "conflict"]
        assert line_of(pilot, "gen-2") == table_lines(pilot)[1]


async def test_the_table_marks_conflicts_and_agreed_runs_apart(team_path: Path) -> None:
    app = create_app(team_path, reviewer="cy")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        assert line_of(pilot, "pass-1").split()[:5] == ["✓", "pass-1", "pass", "correct", "reviewer"]
        assert line_of(pilot, "gen-2").split()[0] == "≠✎"


async def test_detail_lists_every_reviewers_label_tags_note_and_time(team_path: Path) -> None:
    app = create_app(team_path, reviewer="cy")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        table(pilot).cursor = GEN
        await pilot.pause()
        text = detail_text(pilot.app)
        assert "≠ in conflict" in text
        assert "In force       incorrect  (the file's: the reviewers disagree)" in text
        ann = next(line for line in text.splitlines() if "ann" in line)
        bo = next(line for line in text.splitlines() if "bo " in line)
        assert ann.split()[:3] == ["Reviewers", "ann", "correct"]
        assert bo.split()[:2] == ["bo", "incorrect"]
        state = screen.review.state(GEN, "ann")  # type: ignore[union-attr]
        assert state is not None and f"{state.at[:10]} {state.at[11:16]} UTC" in ann
        assert "tags: wrong-doc" in text
        assert "note: reads fine to me" in text


async def test_an_adjudication_note_of_several_lines_says_note_once(team_path: Path) -> None:
    app = create_app(team_path, reviewer="cy")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        assert screen.review is not None
        screen.review.adjudicate(GEN, True, "first line\nsecond line")
        table(pilot).cursor = GEN
        await pilot.pause()
        text = detail_text(pilot.app)
        assert "note: first line" in text and "note: second line" not in text
        assert "      second line" in text  # under the first line's text


async def test_J_asks_first_and_journals_the_final_label_as_an_adjudication(team_path: Path) -> None:
    app = create_app(team_path, reviewer="cy")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        review = screen.review
        assert review is not None
        table(pilot).cursor = GEN
        await pilot.pause()
        await pilot.press("J")
        assert isinstance(app.screen, AdjudicateDialog)
        dialog_text = screen_text(pilot.app)
        assert "ann: correct" in dialog_text and "bo: incorrect" in dialog_text
        await pilot.press("escape")  # cancelled: nothing changes
        assert review.adjudication(GEN) is None and review.is_conflict(GEN)
        await pilot.press("J")
        await pilot.press("y")
        await pilot.pause()
        assert not isinstance(app.screen, AdjudicateDialog)
        adjudication = review.adjudication(GEN)
        assert adjudication is not None and adjudication.label is True
        assert not review.is_conflict(GEN)
        assert line_of(pilot, "gen-2").split()[:5] == ["✓✎", "gen-2", "pass", "correct", "adjudged"]
        assert "Adjudicated    correct  by cy" in detail_text(pilot.app)
        assert "conflicts" not in str(screen.query_one(StageSummary).visual)
    last = journal(team_path)[-1]
    fields = [last[key] for key in ("kind", "run", "label", "reviewer")]
    assert fields == ["adjudication", "gen-2", True, "cy"]
    assert {entry["reviewer"] for entry in journal(team_path) if entry.get("run") == "gen-2"} == {
        "ann",
        "bo",
        "cy",
    }  # nothing ann or bo wrote was overwritten


async def test_an_adjudicator_labels_a_conflict_with_y_directly(team_path: Path) -> None:
    app = create_app(team_path, reviewer="cy", adjudicate=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        table(pilot).cursor = GEN
        await pilot.pause()
        await pilot.press("n")
        assert screen.review is not None and screen.review.adjudication(GEN) is not None
        assert not isinstance(app.screen, AdjudicateDialog)
    assert journal(team_path)[-1]["kind"] == "adjudication"


async def test_blind_mode_hides_the_file_label_other_labels_and_the_lucky_mark(team_path: Path) -> None:
    label_as(team_path, "ann", {LUCKY: True})  # a lucky answer by ann's label and the file's
    app = create_app(team_path, reviewer="cy", blind=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        line = line_of(pilot, "lucky-3")
        assert line.split()[:3] == ["lucky-3", "hidden", "hidden"]
        assert "★" not in line and "correct" not in line
        table(pilot).cursor = LUCKY
        await pilot.pause()
        text = detail_text(pilot.app)
        assert "HIDDEN" in text and "LUCKY" not in text
        assert "hidden until you label this run" in text
        assert "1 other reviewer has reviewed this run" in text
        assert "ann" not in text and "correct  (true)" not in text
        summary = str(screen.query_one(StageSummary).visual)
        assert "blind" in summary and "hidden" in summary and "≠ conflicts" not in summary
        await pilot.press("L")
        assert screen.rows == []  # the lucky view would tell
        await pilot.press("a")
        table(pilot).cursor = LUCKY
        await pilot.pause()
        await pilot.press("y")  # labelled: everything shows
        line = line_of(pilot, "lucky-3")
        assert line.split()[:4] == ["✓", "lucky-3", "retrieval", "correct"] and "★" in line
        text = detail_text(pilot.app)
        assert "LUCKY ANSWER" in text and "ann" in text and "File label     correct  (true)" in text


async def test_blind_statistics_leave_out_unlabelled_runs_and_the_agreement(team_path: Path) -> None:
    app = create_app(team_path, reviewer="cy", blind=True)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("s")
        assert isinstance(app.screen, StatisticsScreen)
        assert app.screen.agreement is None
        text = screen_text(pilot.app)
        assert "Hidden in blind mode" in text and "ann" not in text
        assert "runs you have not labelled yet are left out" in text


async def test_statistics_show_the_agreement_beside_the_stages_when_wide(team_path: Path) -> None:
    app = create_app(team_path, reviewer="cy")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("s")
        assert isinstance(app.screen, StatisticsScreen)
        panel = app.screen.query_one(AgreementPanel)
        assert panel.display
        text = screen_text(pilot.app)
        pair = next(line for line in text.splitlines() if "ann · bo" in line)
        assert pair.split()[-3:] == ["2", "50.0%", "0.000"]  # ann [T, T], bo [T, F]: kappa 0
        assert "Krippendorff's alpha" in text and "Runs per stage" in text


async def test_statistics_show_the_agreement_on_a_key_when_narrow(team_path: Path) -> None:
    app = create_app(team_path, reviewer="cy")
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("s")
        assert "Agreement between reviewers" not in screen_text(pilot.app)
        assert "Runs per stage" in screen_text(pilot.app)
        await pilot.press("a")
        text = screen_text(pilot.app)
        assert "Agreement between reviewers" in text and "Runs per stage" not in text
        await pilot.press("a")
        assert "Runs per stage" in screen_text(pilot.app)


async def test_hostile_reviewer_names_show_literally(runs_path: Path) -> None:
    name = "[b]x[/b]\x1b[31m"
    label_as(runs_path, name, {PASS: False})
    label_as(runs_path, "bo", {PASS: True})
    app: RagdiagApp = create_app(runs_path, reviewer="cy")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        text = detail_text(pilot.app)  # PASS is the first run
        assert "[b]x[/b]\\x1b[31m" in text and "\x1b" not in text
        await pilot.press("s")
        assert "[b]x[/b]\\x1b[31m · bo" in screen_text(pilot.app)
