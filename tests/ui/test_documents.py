"""The documents' text in the detail (issue 11): `.` and `,` move a highlight over the
run's required and supplied IDs; the panel shows the highlighted document's text, from
the run itself (RAGAS's contexts) or from `--docs FILE`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.content import Content

from ragdiag_tui.core.runs.corpus import DocsSource
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.widgets.detail.document_panel import question_words
from ragdiag_tui.ui.widgets.detail.run_detail import RunDetail

from .helpers import detail_text, loaded, record_notifications, wait_until

QUESTION = "How many PTO days can be carried over?"


def write_runs(path: Path, *runs: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    return path


def write_docs(path: Path, docs: dict[str, str]) -> Path:
    path.write_text(
        "".join(json.dumps({"id": k, "text": v}) + "\n" for k, v in docs.items()), encoding="utf-8"
    )
    return path


def lucky_run(**extra: Any) -> dict[str, Any]:
    return {
        "id": "run-1",
        "question": QUESTION,
        "answer": "Five days.",
        "required": ["doc-carry", "doc-cap"],
        "context": ["doc-carry", "doc-other"],
        "correct": True,
        **extra,
    }


DOCS = {
    "doc-carry": "Up to five unused PTO days may be carried over.",
    "doc-cap": "Days above the cap are forfeited on January 1.",
    "doc-other": "The office closes at six.",
}


def panel(app: Any) -> Content:
    return app.review_screen.query_one("#run-document-text").visual


async def test_moving_the_highlight_shows_each_documents_text(tmp_path: Path) -> None:
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    docs = write_docs(tmp_path / "docs.jsonl", DOCS)
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        assert "Document 1 of" not in detail_text(app)  # no panel until asked
        await pilot.press("full_stop")
        # The missing required one comes first, as the list shows it.
        await wait_until(pilot, lambda: "forfeited" in detail_text(app), "the first document's text")
        text = detail_text(app)
        assert "Document 1 of 3" in text and "doc-cap" in text
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "Up to five" in detail_text(app), "the second document's text")
        assert "forfeited" not in detail_text(app)
        # The supplied list adds only what is not required: doc-carry, both required and
        # supplied, was shown once already (issue 39: not "Document 4 of 4" for it again).
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "office closes" in detail_text(app), "the extra document's text")
        assert "supplied · extra (not required)" in detail_text(app)
        assert "Document 3 of 3" in detail_text(app)
        await pilot.press("full_stop")  # wraps round to the first
        await wait_until(pilot, lambda: "Document 1 of 3" in detail_text(app), "the first again")
        await pilot.press("comma")  # and back to the last
        await wait_until(pilot, lambda: "Document 3 of 3" in detail_text(app), "the last again")


async def test_a_document_both_required_and_supplied_is_shown_once(tmp_path: Path) -> None:
    run = lucky_run(required=["doc-carry"], context=["doc-carry"], correct=True)
    runs = write_runs(tmp_path / "runs.jsonl", run)
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(write_docs(tmp_path / "docs.jsonl", DOCS))))
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "Up to five" in detail_text(app), "the document's text")
        assert "Document 1 of 1" in detail_text(app)
        await pilot.press("full_stop")  # the same one again: there is no second
        await pilot.pause()
        assert "Document 1 of 1" in detail_text(app) and "Document 2 of" not in detail_text(app)


async def test_the_highlighted_id_is_marked_in_its_column(tmp_path: Path) -> None:
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    app = create_app(runs, reviewer="tester")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("full_stop")
        await pilot.pause()
        required = app.review_screen.query_one("#run-required").visual
        line = required.plain.split("\n").index("✗ missing  doc-cap")
        start = required.plain.index("✗ missing  doc-cap")
        assert line == 1
        assert any(
            span.start <= start and span.end > start and getattr(span.style, "reverse", False)
            for span in required.spans
        )


async def test_question_words_are_marked(tmp_path: Path) -> None:
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    docs = write_docs(tmp_path / "docs.jsonl", DOCS)
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("full_stop", "full_stop")
        await wait_until(pilot, lambda: "Up to five" in detail_text(app), "the document's text")
        content = panel(app)
        marked = {
            content.plain[span.start : span.end]
            for span in content.spans
            if getattr(span.style, "underline", False)
        }
        assert marked == {"PTO", "days", "carried"}  # not "can", "over" (stop words) nor "up"
    assert question_words("How MANY pto days, can be over?") == {"many", "pto", "days"}


async def test_a_missing_document_says_the_answer_lacked_it(tmp_path: Path) -> None:
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    docs = write_docs(tmp_path / "docs.jsonl", DOCS)
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "forfeited" in detail_text(app), "the missing document's text")
        text = detail_text(app)
        assert "required · missing (not supplied)" in text
        assert "The answer was given without this document. Below: what it lacked." in text


async def test_an_id_with_no_text_says_why(tmp_path: Path) -> None:
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    docs = write_docs(
        tmp_path / "docs.jsonl", {"doc-carry": "Up to five unused PTO days may be carried over."}
    )
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: f"not in {docs}" in detail_text(app), "the reason")
        assert "The answer was given without this document." in detail_text(app)
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "Up to five" in detail_text(app), "the next document")


async def test_without_docs_an_id_with_no_text_says_so(tmp_path: Path) -> None:
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    app = create_app(runs, reviewer="tester")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "no --docs file is open" in detail_text(app), "the reason")


async def test_run_carried_texts_show_without_docs(tmp_path: Path) -> None:
    run = lucky_run(
        reference_contexts=[
            "Up to five unused PTO days may be carried over.",
            "Days above the cap are lost.",
        ],
        retrieved_contexts=["Up to five unused PTO days may be carried over.", "The office closes at six."],
    )
    runs = write_runs(tmp_path / "runs.jsonl", run)
    app = create_app(runs, reviewer="tester")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "Days above the cap are lost." in detail_text(app), "the run's text")
        assert "the run itself" in detail_text(app)
        await pilot.press("comma", "comma")
        await wait_until(pilot, lambda: "office closes" in detail_text(app), "the extra one's text")


async def test_markup_looking_text_is_shown_literally(tmp_path: Path) -> None:
    hostile = "[bold red]not bold[/] [@click=app.quit]quit[/] \x1b[31mred"
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run(required=["[b]id[/b]"], context=["doc-other"]))
    docs = write_docs(tmp_path / "docs.jsonl", {"[b]id[/b]": hostile})
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "not bold" in detail_text(app), "the document's text")
        plain = panel(app).plain
        assert "[bold red]not bold[/] [@click=app.quit]quit[/]" in plain
        assert "[b]id[/b]" in plain
        assert "\x1b" not in plain
        assert app.is_running


async def test_a_missing_docs_file_says_so_clearly(tmp_path: Path) -> None:
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    gone = tmp_path / "gone.jsonl"
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(gone)))
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        seen = record_notifications(app)
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "cannot open the documents" in detail_text(app), "the error")
        assert str(gone) in detail_text(app)
        assert any(str(gone) in message and severity == "error" for message, severity in seen)


def test_the_cli_refuses_a_missing_docs_file(tmp_path: Path, capsys: Any) -> None:
    from ragdiag_tui.cli import main

    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    gone = tmp_path / "gone.jsonl"
    code = main(["review", str(runs), "--docs", str(gone)])
    assert code != 0
    err = capsys.readouterr().err
    assert str(gone) in err and "cannot read the documents" in err


async def test_a_run_with_10000_ids_looks_up_only_the_highlighted_one(tmp_path: Path) -> None:
    ids = [f"doc-{n}" for n in range(10_000)]
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run(required=ids, context=ids[:5000]))
    app = create_app(runs, reviewer="tester")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        detail = app.review_screen.query_one(RunDetail)
        looked_up: list[str] = []
        import ragdiag_tui.core.runs.corpus as corpus  # the panel looks it up there when it shows one

        real = corpus.document_text

        def counting(doc_id: str, *args: Any) -> Any:
            looked_up.append(doc_id)
            return real(doc_id, *args)

        corpus.document_text = counting  # type: ignore[assignment]
        try:
            await pilot.press("full_stop", "full_stop")
            await wait_until(pilot, lambda: "Document 2 of" in detail_text(app), "the second document")
        finally:
            corpus.document_text = real  # type: ignore[assignment]
        assert detail.current_document is not None
        assert set(looked_up) <= {"doc-5000", "doc-5001"}


async def test_a_hostile_corpus_keeps_the_app_running_and_says_what_changed(tmp_path: Path) -> None:
    # Old-Mac line ends, a cell past csv's 131,072-character default, a quote never closed:
    # each crashed the app or swallowed the rest before issue 22.
    runs = write_runs(tmp_path / "runs.jsonl", lucky_run())
    docs = tmp_path / "docs.csv"
    long = b"Up to five " + b"x" * 140_000
    docs.write_bytes(
        b'id,text\rdoc-cap,Days above the cap are forfeited.\rdoc-carry,"' + long + b'"\r'
        b'doc-bad,"never closed\rdoc-other,The office closes at six.\r'
    )
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(docs)))
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        seen = record_notifications(app)
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "forfeited" in detail_text(app), "the first document's text")
        assert any("line 4: skipped (a quoted cell is never closed" in message for message, _ in seen)
        # The pipeline re-ran while the corpus was open: the same places now hold other rows.
        docs.write_bytes(b'id,text\rdoc-other,The office closes at six.\rdoc-carry,"' + long + b'"\r')
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "changed since it was opened" in detail_text(app), "the reason")
        assert "Up to five" not in detail_text(app) and app.is_running
