"""A report of a hostile run file: ids, questions, answers, document IDs and texts, tag names,
reviewer names, notes and the spot-check's name all hold markup, event handlers, `javascript:`
URLs and `</script>`. The page holds none of it as markup, only as text; the Markdown neither."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from ragdiag_tui.cli import main

from ..core.report_files import HOSTILE, Page, hostile_review, page

# What the report itself writes: its page, its charts (SVG), its tables and cards.
PAGE_TAGS = {
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "header",
    "footer",
    "section",
    "article",
    "h1",
    "h2",
    "h3",
    "h4",
    "p",
    "span",
    "strong",
    "br",
    "code",
    "dl",
    "dt",
    "dd",
    "ul",
    "li",
    "blockquote",
    "div",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "progress",
    "figure",
    "figcaption",
    "script",
}
SVG_TAGS = {"svg", "defs", "g", "path", "use", "clippath", "rect", "text", "polyline", "line"}


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path, Path]:
    return hostile_review(tmp_path)


def write(hostile: tuple[Path, Path, Path], out: Path) -> None:
    path, docs, tags = hostile
    assert main(["report", str(path), "-o", str(out), "--docs", str(docs), "--tags", str(tags)]) == 0


def test_no_hostile_text_becomes_markup_in_the_page(hostile: tuple[Path, Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    write(hostile, out)
    parsed = page(out)
    unexpected = {tag for tag, _ in parsed.tags} - PAGE_TAGS - SVG_TAGS
    assert not unexpected
    for tag, attrs in parsed.tags:
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
        for name in ("href", "xlink:href", "src", "action", "formaction"):
            assert str(attrs.get(name) or "#").startswith("#"), (tag, attrs)
    scripts = [attrs for tag, attrs in parsed.tags if tag == "script"]
    assert scripts == [{"type": "application/json", "id": "ragdiag-report"}]


def test_hostile_text_shows_literally(hostile: tuple[Path, Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    write(hostile, out)
    text = "".join(page(out).text)
    for h in HOSTILE:
        assert text.count(h) >= 5  # question, answer, note, reviewer, document ID and text ...
    assert f"{HOSTILE[3]}: the file's label was overturned" in text  # the spot-check's name


def test_the_embedded_json_cannot_close_its_element(hostile: tuple[Path, Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    write(hostile, out)
    raw = out.read_text(encoding="utf-8")
    start = raw.index('id="ragdiag-report">') + len('id="ragdiag-report">')
    body = raw[start : raw.index("</script>", start)]
    assert not set("<>&") & set(body)
    assert Page(raw).data()["stats"]["spot_checks"][0]["name"] == HOSTILE[3]


def test_the_markdown_renders_hostile_text_as_text(hostile: tuple[Path, Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    write(hostile, out)
    # GitHub's flavour: tables, autolinked URLs, raw HTML passed through.
    rendered = MarkdownIt("gfm-like", {"html": True, "linkify": True}).render(out.read_text(encoding="utf-8"))
    parsed = Page(rendered + "<script></script>")  # Page wants one script: the one added here
    found = {tag for tag, _ in parsed.tags}
    assert "a" not in found and "em" not in found and "code" not in found and "svg" not in found
    images = [attrs["src"] for tag, attrs in parsed.tags if tag == "img"]
    assert images and all(src.startswith("report-") and src.endswith(".svg") for src in images)
    assert sum(tag == "script" for tag, _ in parsed.tags) == 1
    text = "".join(parsed.text)
    for h in HOSTILE:
        assert h in text


@pytest.mark.parametrize("suffix", [".html", ".md"])
def test_lone_surrogates_and_controls_are_written_as_visible_escapes(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_text(
        '{"id": "x\\ud800y\\u001b[31m", "question": "q\\udcff",'
        ' "required": ["d\\ud800\\u001b"], "context": [], "correct": true}\n',
        encoding="utf-8",
    )
    out = tmp_path / f"report{suffix}"
    assert main(["report", str(path), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")  # valid UTF-8 throughout
    assert "\x1b" not in text and "\\x1b" in text
    if suffix == ".html":
        assert Page(text).data()["stats"]["most_missed"] == [{"id": "d\ud800\x1b", "runs": 1}]
