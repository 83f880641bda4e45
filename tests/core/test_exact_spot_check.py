"""A spot-check of the whole population is exact (issue 39): `stats`, the report in both formats
say "exact: every run of the population reviewed", never a
zero-width interval such as "95% CI 67-67%" that reads as a fault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragdiag_tui.cli import main

from .report_files import DEMO, draw, label, page

EXACT = "exact: every run of the population reviewed"


@pytest.fixture
def whole(tmp_path: Path) -> Path:
    """demo.jsonl with all nine lucky answers drawn and reviewed: six overturned, two tagged."""
    path = tmp_path / "demo.jsonl"
    path.write_bytes(DEMO.read_bytes())
    ids = draw(path, "lucky", 9)
    assert len(ids) == 9
    for at, run in enumerate(ids):
        label(path, run, at >= 6, "ana", ["required-wrong"] if at < 2 else [])
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    capsys.readouterr()
    assert main([str(arg) for arg in argv]) in (0, 1)
    return capsys.readouterr().out


def test_stats_says_exact_instead_of_a_zero_width_interval(
    whole: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = run(capsys, "stats", whole)
    assert f"overturned on 67% of lucky answers ({EXACT})" in text
    assert f"2 of 9, 22% ({EXACT})" in text
    assert "CI 67-67%" not in text and "CI 22-22%" not in text
    figures = json.loads(run(capsys, "stats", whole, "--json"))
    assert figures["spot_checks"][0]["overturned_rate"]["exact"] is True


def test_the_report_says_exact_in_both_formats(whole: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html, md = whole.parent / "report.html", whole.parent / "report.md"
    run(capsys, "report", whole, "-o", html)
    run(capsys, "report", whole, "-o", md)
    text = " ".join("".join(page(html).text).split())
    assert EXACT in text and "(67-67%)" not in text and "(22-22%)" not in text
    markdown = md.read_text(encoding="utf-8")
    assert "exact" in markdown and "67\\-67" not in markdown and "67-67" not in markdown
