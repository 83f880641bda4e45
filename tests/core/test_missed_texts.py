"""The most-missed documents of a text run show the text beside the content ID (issue 38):
in `stats` and in both formats of the report, one line cut with an ellipsis, made visible."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.runs.texts import content_id

LEAVE = "Parental leave applies after 90 days of employment and lasts sixteen weeks, " + "paid " * 30
HOSTILE = "Escapes \x1b[31m | <b>markup</b> [b]x[/b] stay as written"
OTHER = "Deploys go out on Tuesdays and Thursdays."


@pytest.fixture
def results(tmp_path: Path) -> Path:
    runs = [
        {"reference_contexts": [LEAVE], "retrieved_contexts": [OTHER], "score": 0.9},
        {"reference_contexts": [LEAVE, HOSTILE], "retrieved_contexts": [OTHER], "score": 0.2},
        {"reference_contexts": [OTHER], "retrieved_contexts": [OTHER], "score": 0.8},
    ]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    return path


READ = ["--preset", "ragas", "--map", "correct=score", "--label-threshold", "0.5", "--no-journal"]


def test_stats_shows_each_most_missed_texts_start(capsys: pytest.CaptureFixture[str], results: Path) -> None:
    assert main(["stats", str(results), *READ]) == 0
    out = capsys.readouterr().out
    leave = next(line for line in out.splitlines() if content_id(LEAVE) in line)
    assert "Parental leave applies after 90 days" in leave and leave.endswith("…")
    hostile = next(line for line in out.splitlines() if content_id(HOSTILE) in line)
    assert "Escapes \\x1b[31m | <b>markup</b>" in hostile
    assert "\x1b" not in out


def test_the_report_shows_each_most_missed_texts_start(
    capsys: pytest.CaptureFixture[str], results: Path, tmp_path: Path
) -> None:
    markdown = tmp_path / "report.md"
    page = tmp_path / "report.html"
    assert main(["report", str(results), *READ, "-o", str(markdown)]) == 0
    assert main(["report", str(results), *READ, "-o", str(page)]) == 0
    text = markdown.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("|") and content_id(LEAVE) in line)
    assert "Parental leave applies after 90 days" in row and "…" in row
    assert "| document | runs | text |" in text
    assert "\x1b" not in text and "\x1b" not in page.read_text(encoding="utf-8")
    shown = html.unescape(page.read_text(encoding="utf-8"))
    assert "Parental leave applies after 90 days" in shown
    assert "<b>markup</b>" not in page.read_text(encoding="utf-8")  # escaped, never markup


def test_a_run_file_of_ids_keeps_its_most_missed_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps({"required": ["d1"], "context": [], "correct": True}) + "\n", encoding="utf-8")
    markdown = tmp_path / "report.md"
    assert main(["report", str(path), "--no-journal", "-o", str(markdown)]) == 0
    assert "| document | runs |" in markdown.read_text(encoding="utf-8")
