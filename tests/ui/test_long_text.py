"""Long text in the detail (issue 22, items 6 and 7): a document of 25,000 lines and a note
of 100,000 are shown cut by lines, with how much is shown, and `t` reads either whole in a
view that draws only what is on screen; a label does not look the document up again."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.content import Content
from textual.geometry import Size
from textual.visual import Visual
from textual.widgets import Static

from ragdiag_tui.core.runs import corpus
from ragdiag_tui.core.runs.corpus import DocsSource
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.widgets.detail import detail_text
from ragdiag_tui.ui.widgets.detail.pane_text import PaneText
from ragdiag_tui.ui.widgets.detail.run_detail import RunDetail

from .helpers import loaded, screen_text, wait_until
from .test_documents import lucky_run, write_docs, write_runs
from .test_team import label_as

DOC_LINES = 25_000
NOTE_LINES = 100_000
SHOWN = 100  # the most lines a long text may take in the pane (its cut, and a few of the panel's own)


def whole_text_open(app) -> bool:  # type: ignore[no-untyped-def]
    return type(app.screen).__name__ == "WholeText"


async def show_the_long_document(pilot, screen):  # type: ignore[no-untyped-def]
    """Highlight the run's first document (`.`) and wait until its text, `clause 1` on, shows."""
    await pilot.press("full_stop")
    panel = screen.query_one("#run-document-text")
    await wait_until(pilot, lambda: "clause 1\n" in str(panel.visual), "the long document's text")
    return panel


def long_text(count: int, word: str) -> str:
    return "\n".join(f"{word} {n}" for n in range(1, count + 1))


def test_lines_are_counted_and_cut_as_splitlines_splits_them() -> None:
    line_count, head_lines = detail_text.line_count, detail_text.head_lines  # type: ignore[attr-defined]
    for text in ["", "a", "a\n", "a\nb", "\n", "a\r\nb\rc\x85d\u2028", "a\n\nb\n\n"]:
        assert line_count(text) == len(text.splitlines())
        for limit in range(1, 6):
            head = head_lines(text, limit)
            lines = text.splitlines()
            if len(lines) <= limit:
                assert head is None
            else:
                assert head is not None and (head + "\n").splitlines() == lines[:limit]
    shown_lines = detail_text.shown_lines  # type: ignore[attr-defined]
    shown = shown_lines(long_text(NOTE_LINES, "line"), 20)
    assert len(shown) == 21 and shown[-1] == f"… (20 of {NOTE_LINES:,} lines shown · t shows it whole)"
    assert shown_lines("a\x1b[2Jb", 5) == ["a\\x1b[2Jb"]  # still made safe
    assert shown_lines("x" * 10 + "\ny", 5, chars=4)[-1] == "… (4 of 12 characters shown · t shows it whole)"


async def test_a_25000_line_document_is_cut_by_lines_and_t_reads_it_whole(tmp_path: Path) -> None:
    text = long_text(DOC_LINES, "clause")
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    docs = write_docs(tmp_path / "docs.jsonl", {"doc-cap": text, "doc-carry": "short", "doc-other": "x"})
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await loaded(pilot)
        panel = await show_the_long_document(pilot, screen)
        shown = str(panel.visual)
        assert f" of {DOC_LINES:,} lines shown · t shows the whole document)" in shown
        assert shown.count("\n") < SHOWN
        assert panel.virtual_size.height < SHOWN
        await pilot.press("t")
        await wait_until(pilot, lambda: whole_text_open(app), "the whole text")
        view = app.screen.query_one("#whole-text")
        assert view.virtual_size.height == DOC_LINES
        await pilot.press("end")
        await wait_until(pilot, lambda: f"clause {DOC_LINES}" in screen_text(app), "the last line on screen")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen, "back to the review")


async def test_a_label_beside_a_long_document_does_not_look_it_up_again(tmp_path: Path, monkeypatch) -> None:
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    docs = write_docs(tmp_path / "docs.jsonl", {"doc-cap": long_text(DOC_LINES, "clause")})
    looked_up = []
    real = corpus.document_text  # the document panel looks it up there each time it shows one
    monkeypatch.setattr(corpus, "document_text", lambda *args: looked_up.append(args[0]) or real(*args))
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await loaded(pilot)
        await show_the_long_document(pilot, screen)
        before = len(looked_up)
        await pilot.press("y", "n", "y")
        await wait_until(pilot, lambda: screen.review.label(0) is True, "the labels")  # type: ignore[union-attr]
        assert len(looked_up) == before
        await pilot.press("full_stop")  # another document is looked up
        await wait_until(pilot, lambda: len(looked_up) == before + 1, "the next document")


async def test_a_merged_100000_line_note_is_cut_and_t_reads_it_whole(tmp_path: Path) -> None:
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    label_as(runs, "ann", {0: True}, notes={0: long_text(NOTE_LINES, "remark")})
    app = create_app(runs, reviewer="tester")
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await loaded(pilot)
        labels = screen.query_one("#run-labels")
        shown = str(labels.visual)
        # ann's note in the reviewers' block and as the run's note: each cut.
        assert shown.count(f" of {NOTE_LINES:,} lines shown · t shows it whole)") == 2
        assert shown.count("\n") < SHOWN
        assert f"remark {NOTE_LINES}" not in shown
        await pilot.press("t")
        await wait_until(pilot, lambda: whole_text_open(app), "the whole notes")
        view = app.screen.query_one("#whole-text")
        assert view.virtual_size.height == NOTE_LINES + 1
        assert "ann:" in screen_text(app)
        await pilot.press("end")
        await wait_until(pilot, lambda: f"remark {NOTE_LINES}" in screen_text(app), "the last line on screen")


async def test_t_reads_the_document_then_the_notes(tmp_path: Path) -> None:
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    label_as(runs, "ann", {0: True}, notes={0: "see \x1b[2J the cap"})
    docs = write_docs(tmp_path / "docs.jsonl", {"doc-cap": long_text(DOC_LINES, "clause")})
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await loaded(pilot)
        await show_the_long_document(pilot, screen)
        await pilot.press("t")
        await wait_until(pilot, lambda: whole_text_open(app), "the whole text")
        assert "Document doc-cap  (1 of 2)" in screen_text(app)
        await pilot.press("t")
        await wait_until(pilot, lambda: "Notes on run run-1  (2 of 2)" in screen_text(app), "the notes")
        assert "see \\x1b[2J the cap" in screen_text(app)  # made safe
        await pilot.press("t")  # after the last: back
        await wait_until(pilot, lambda: app.screen is screen, "back to the review")


async def test_a_label_beside_long_text_redraws_only_the_parts_it_changes(
    tmp_path: Path, monkeypatch
) -> None:
    """The pane full of a long document and a long note: a label (which makes the lucky
    answer's reason shorter, so the pane's content height changes) draws anew the parts
    whose text changed, and neither the pane itself nor the parts that stayed."""
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    label_as(runs, "ann", {}, notes={0: long_text(NOTE_LINES, "remark")})
    docs = write_docs(
        tmp_path / "docs.jsonl", dict.fromkeys(("doc-cap", "doc-carry"), long_text(DOC_LINES, "clause"))
    )
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await loaded(pilot)
        await show_the_long_document(pilot, screen)
        detail = screen.detail
        assert detail.max_scroll_y > 0  # the pane overflows: it scrolls
        parts = {
            wid: detail.query_one(f"#{wid}") for wid in ("run-fields", "run-document-text", "run-answer-text")
        }
        shown = {wid: part.content for wid, part in parts.items()}
        pane_lines = []
        real = RunDetail.render_line
        monkeypatch.setattr(RunDetail, "render_line", lambda self, y: pane_lines.append(y) or real(self, y))
        heights = {detail.virtual_size.height}
        for key, label in (("n", False), ("y", True), ("n", False)):
            await pilot.press(key)
            await wait_until(pilot, lambda label=label: screen.review.label(0) is label, "the label")  # type: ignore[union-attr,misc]
            await pilot.pause()
            heights.add(detail.virtual_size.height)
        assert len(heights) > 1, heights
        assert "Five days." in screen_text(app)
        assert pane_lines == []
        assert all(part.content is shown[wid] for wid, part in parts.items())


async def test_pane_text_is_as_tall_as_a_static_with_the_same_text() -> None:
    texts = [
        "",
        "one line",
        "a\nb\n",
        "a line that is longer than the width and wraps at its words " * 3,
        "short\n" + "x" * 130 + "\n\nlast",
        "wide 漢字 characters 漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字",
        "trailing spaces          \n   lead",
        "a\tb",
    ]

    class Both(App[None]):
        def compose(self) -> ComposeResult:
            yield PaneText(id="pane")
            yield Static(id="static", markup=False)

    async with Both().run_test(size=(80, 20)) as pilot:
        pane, static = pilot.app.query_one("#pane", PaneText), pilot.app.query_one("#static", Static)
        for text in texts:
            for content in (text, Content(text)):
                pane.update(content)
                static.update(content)
                for width in (1, 2, 7, 10, 21, 40, 60):
                    size = Size(width, 20)
                    assert pane.get_content_height(size, size, width) == static.get_content_height(
                        size, size, width
                    ), (text, width)


async def test_the_document_panel_draws_its_text_only_down_to_the_rows_in_view(
    tmp_path: Path, monkeypatch
) -> None:
    """The cut document (50 lines and its heading) is drawn down to the panel's last row in
    view (20), and scrolling the panel to its end draws and shows the last lines."""
    drawn: list[int] = []
    real = Visual.to_strips.__func__  # type: ignore[attr-defined]

    def to_strips(cls, widget, visual, *args, **options):  # type: ignore[no-untyped-def]
        if widget.id == "run-document-text":
            drawn.append(len(str(visual).split("\n")))
        return real(cls, widget, visual, *args, **options)

    monkeypatch.setattr(Visual, "to_strips", classmethod(to_strips))
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    docs = write_docs(tmp_path / "docs.jsonl", {"doc-cap": long_text(DOC_LINES, "clause")})
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await loaded(pilot)
        panel_text = await show_the_long_document(pilot, screen)
        await wait_until(pilot, lambda: "clause 3" in screen_text(app), "the document on screen")
        panel = screen.query_one("#run-document")
        assert str(panel_text.visual).count("\n") > 50  # the cut text: 50 lines, and its heading
        assert drawn and max(drawn) <= panel.size.height
        assert "clause 50" not in screen_text(app)

        # The scrollbar may come a frame after the text. It narrows the text, whose lines then
        # wrap again and end lower: the panel's end is known once it is laid out with the bar.
        def laid_out_with_its_scrollbar() -> bool:
            width = panel.scrollable_content_region.width
            return panel.show_vertical_scrollbar and panel_text.size.width == width

        await wait_until(pilot, laid_out_with_its_scrollbar, "the panel laid out with its scrollbar")
        panel.scroll_end(animate=False)
        cut_notice = f"(50 of {DOC_LINES:,} lines shown"

        def the_end_shown() -> bool:  # both on one screen
            shown = screen_text(app)
            return "clause 50" in shown and cut_notice in shown

        await wait_until(pilot, the_end_shown, "the panel's last lines and the cut notice")
        assert "clause 50" in screen_text(app) and cut_notice in screen_text(app)
