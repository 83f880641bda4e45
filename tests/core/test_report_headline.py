"""The report leads with its answer (the sentence, its interval, what remains to be done and by
whom), then the charts, then the evidence, then what was reviewed; its Markdown reads as plain
text and carries the evidence of the overturned runs."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from ragdiag_tui.cli import main
from ragdiag_tui.core.output.report.markdown_text import md, md_block, md_cell

from .report_files import DEMO, DOCS, page, reviewed_demo

RENDER = MarkdownIt("gfm-like", {"html": True, "linkify": True})


def report(tmp_path: Path, suffix: str, *extra: str) -> tuple[Path, list[str], str]:
    path, ids = reviewed_demo(tmp_path)
    out = tmp_path / f"report{suffix}"
    assert main(["report", str(path), "-o", str(out), "--docs", str(DOCS), *extra]) == 0
    return path, ids, out.read_text(encoding="utf-8")


def sentence_of(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    main(["stats", str(path)])
    printed = capsys.readouterr().out
    return next(line.strip() for line in printed.splitlines() if line.strip().startswith("lucky-6:"))


def test_the_html_page_leads_with_the_answer_then_charts_evidence_and_metadata(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids, raw = report(tmp_path, ".html")
    sentence = html.escape(sentence_of(path, capsys), quote=True)
    at = {
        "sentence": raw.index(sentence),
        "what remains": raw.index("What remains to be done"),
        "first chart": raw.index("<svg"),
        "evidence": raw.index("<h2>Evidence</h2>"),
        "metadata": raw.index("<h2>About this report</h2>"),
        "fingerprint": raw.index("blake2b-128"),
    }
    assert list(at) == sorted(at, key=at.__getitem__), at
    headline = "".join(page(tmp_path / "report.html").text)
    headline = headline[: headline.index("Runs per stage")]
    # The fourth run is in conflict between ana and ben; the sixth is not reviewed yet.
    assert "Adjudicate the 1 run in conflict: ana and ben disagree on it" in headline
    assert "ragdiag-tui review demo.jsonl --reviewer NAME --adjudicate" in headline
    assert ids[3] in headline
    assert "Review the 1 sampled run of lucky-6 still to review (5 of 6 done)" in headline
    assert "ragdiag-tui review demo.jsonl --spot-check lucky-6 --reviewer NAME" in headline


def test_the_markdown_leads_with_the_answer_and_reads_as_plain_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ids, text = report(tmp_path, ".md")
    sentence = sentence_of(path, capsys)
    lines = text.splitlines()
    assert lines[0] == "# Review report: demo.jsonl"
    assert lines[2] == f"**{sentence}**"  # verbatim: `(95% CI 39-73%)`, not `\(95\% CI 39\-73\%\)`
    assert text.index("What remains to be done") < text.index("## Runs per stage")
    assert text.index("## Evidence") < text.index("## About this report") < text.index("blake2b-128")
    assert "demo.jsonl, " in text and "\\." not in text and "\\%" not in text and "\\-" not in text
    assert f"Runs: {ids[3]}" in text


def test_the_markdown_carries_each_overturned_runs_evidence_as_quoted_text(tmp_path: Path) -> None:
    _, ids, text = report(tmp_path, ".md")
    runs = {json.loads(line)["id"]: json.loads(line) for line in DEMO.read_text().splitlines()}
    docs = {json.loads(line)["id"]: json.loads(line)["text"] for line in DOCS.read_text().splitlines()}
    evidence = text[text.index("## Evidence") :]
    assert "### lucky-6: the 3 overturned runs" in evidence
    for run_id in ids[:3]:
        run = runs[run_id]
        card = evidence[evidence.index(f"#### {run_id}") :]
        assert card.index("The file's label: correct; after review: incorrect.") < 100
        assert f"> {run['question']}" in card and f"> {run['answer']}" in card
        for doc in sorted(set(run["required"]) - set(run["context"])):
            assert f"{doc} (missing)" in card
            if doc in docs:
                assert f"Missing {doc}, from docs.jsonl:" in card
                assert "> " + docs[doc].splitlines()[0][:60] in card
    assert ids[3] not in evidence.split("## About")[0].split("Overturned")[0]  # in conflict: no card


TOKENS = [*"ab_*`[]()<>!#&;:/.@~|\\-+=1 \"'{}é", "www.", "http://", "&amp;", "a@b.c"]


def test_without_a_spot_check_the_headline_gives_the_stages_and_how_to_draw_one(tmp_path: Path) -> None:
    path = tmp_path / "my runs.jsonl"
    path.write_bytes(DEMO.read_bytes())
    out = tmp_path / "report.md"
    assert main(["report", str(path), "-o", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert (
        lines[2] == "**80 runs: 20 retrieval, 12 generation, 39 pass, 4 unresolved, 5 answer-label; "
        "9 lucky answers in the file.**"
    )
    assert "`ragdiag-tui sample 'my runs.jsonl' --view lucky -n auto --seed 1 --name lucky`" in lines[6]


PLAIN = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=25).map("".join).map(str.strip)


def shown(rendered: str, before: str = "") -> str:
    """The text of one rendered paragraph; fails on any tag in it (emphasis, a link, code...)."""
    assert rendered.startswith("<p>") and rendered.endswith("</p>"), rendered
    body = rendered[3 + len(before) : -4]
    assert "<" not in body, rendered
    return re.sub(r"\s+", " ", html.unescape(body))


@given(PLAIN)
def test_any_text_renders_as_itself(text: str) -> None:
    """Whatever the text, the Markdown renders it literally: no emphasis, link, code, HTML,
    heading, list or quote (rendered as GitHub does, with links found in plain text), inside a
    line and where a block begins."""
    expected = re.sub(r"\s+", " ", text) or "-"
    assert shown(RENDER.render(f"x {md(text)}").strip(), "x ") == expected
    if text:
        assert shown(RENDER.render(md_block(text)).strip()) == expected


@given(PLAIN)
def test_any_text_stays_in_its_table_cell(text: str) -> None:
    rendered = RENDER.render(f"| a | b |\n| --- | --- |\n| {md_cell(text)} | z |\n")
    cells = re.findall(r"<td>(.*?)</td>", rendered, re.DOTALL)
    assert len(cells) == 2 and cells[1] == "z", rendered
    assert "<" not in cells[0]
    assert re.sub(r"\s+", " ", html.unescape(cells[0])) == re.sub(r"\s+", " ", text or "-")


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("demo.jsonl", "demo.jsonl"),
        ("57% (95% CI 39-73%)", "57% (95% CI 39-73%)"),
        ("demo_after.jsonl", "demo_after.jsonl"),
        ("_private", "\\_private"),
        ("a *b* c", "a \\*b\\* c"),
        ("# a hash", "# a hash"),
        ("0.1.0", "0.1.0"),
        ("see <b>", "see \\<b>"),
        ("https://x.example", "https\\:\\//x.example"),
    ],
)
def test_only_what_would_change_the_rendering_is_escaped(text: str, written: str) -> None:
    assert md(text) == written


@pytest.mark.parametrize(
    ("text", "written"),
    [("# not a heading", "\\# not a heading"), ("1. not a list", "1\\. not a list"), ("- x", "\\- x")],
)
def test_where_a_block_begins_its_markers_are_escaped_too(text: str, written: str) -> None:
    assert md_block(text) == written
