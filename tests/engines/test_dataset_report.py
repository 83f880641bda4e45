"""`report DATASET` applies the dataset's journal as `stats DATASET` does: its embedded figures
and its spot-check's conclusion are those of the report of one file of the same runs with the
same journal entries; `--no-journal` gives the files' own labels; `-o` onto the journal or a
file of the dataset is refused before anything is written; `--baseline` is refused."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.review.journal import journal_path

from ..core.report_files import DEMO, DOCS, page

pytest.importorskip("duckdb")
pytest.importorskip("matplotlib")
from .reviewed_lake import lake_and_file, review_lake


def report(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["report", *map(str, argv)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_a_datasets_report_embeds_the_figures_and_conclusion_of_one_file_of_the_same_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    lake, one = lake_and_file(tmp_path, kind)
    review_lake(lake)
    shutil.copy(journal_path(lake), journal_path(one))
    for name, runs in (("lake", lake), ("one", one)):
        for suffix in (".html", ".md"):
            code, err = report(capsys, runs, "-o", tmp_path / f"{name}{suffix}", "--docs", DOCS)
            assert code == 0, err
    from_lake, from_one = page(tmp_path / "lake.html").data(), page(tmp_path / "one.html").data()
    assert from_lake["stats"] == from_one["stats"]
    figures = from_lake["stats"]
    assert figures["reviewed"] == 6 and figures["conflicts"] == 1
    assert figures["spot_checks"][0]["overturned"] == 3 and figures["spot_checks"][0]["conflicts"] == 1
    assert {"id": "kb/eng/incident-sev-levels#1", "runs": 1} in figures["most_missed"]  # run-0028's
    stats = json.loads(_stats(capsys, lake))
    assert {key: figures[key] for key in stats} == stats  # the counts: what `stats DATASET --json` prints
    header = from_lake["report"]
    assert (header["file"], header["files"], header["runs"]) == ("lake", 2, 80)
    assert header["reviewers"] == ["ana", "ben"] and header["journal"].endswith("lake.review.jsonl")
    capsys.readouterr()
    main(["stats", str(one)])
    printed = capsys.readouterr().out
    sentence = next(line.strip() for line in printed.splitlines() if line.strip().startswith("lucky-6:"))
    assert sentence in page(tmp_path / "lake.html").text
    markdown = (tmp_path / "lake.md").read_text(encoding="utf-8")
    assert sentence in markdown
    assert "On-call must acknowledge a page within 5 minutes" in markdown  # a card's excerpt, from --docs
    named = (tmp_path / "one.md").read_text(encoding="utf-8").replace(f"one.{kind}", "lake")
    assert _body(markdown) == _body(named.replace("](one-", "](lake-"))
    assert (tmp_path / "lake.html").read_text(encoding="utf-8").count(json.dumps(figures)) == 1  # as written


def _stats(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    capsys.readouterr()
    main(["stats", *map(str, argv), "--json"])
    return capsys.readouterr().out


def _body(markdown: str) -> list[str]:
    """A Markdown report's lines but those about the files themselves (name, size, fingerprint,
    date): what the review says."""
    facts = ("- **dataset**", "- **run file**", "- **fingerprint**", "- **written**", "- **review journal**")
    return [line for line in markdown.splitlines() if not line.startswith(facts)]


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_no_journal_reports_the_files_own_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    lake, one = lake_and_file(tmp_path, kind)
    review_lake(lake)
    assert report(capsys, lake, "-o", tmp_path / "lake.html", "--no-journal")[0] == 0
    assert report(capsys, one, "-o", tmp_path / "one.html")[0] == 0  # no journal beside it
    from_lake = page(tmp_path / "lake.html").data()
    assert from_lake["stats"] == page(tmp_path / "one.html").data()["stats"]
    assert from_lake["stats"]["spot_checks"] == [] and "reviewed" not in from_lake["stats"]
    assert from_lake["report"]["journal"] == "none (the file's own labels)"
    text = "".join(page(tmp_path / "lake.html").text)
    assert (
        "ragdiag-tui review lake --reviewer NAME" in text
    )  # D draws a dataset's spot-check into its journal
    assert "ragdiag-tui sample lake" not in text  # which would record it beside a sample file
    assert json.loads(_stats(capsys, lake, "--no-journal")) == {
        key: value for key, value in from_lake["stats"].items() if key not in ("spot_checks", "agreement")
    }


def test_the_journal_and_the_datasets_files_are_never_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lake, _ = lake_and_file(tmp_path, "parquet")
    review_lake(lake)
    journal = Path(journal_path(lake))
    part = lake / "a.parquet"
    (tmp_path / "journal.html").symlink_to(journal)
    os.link(part, tmp_path / "part.md")
    before = {path: path.read_bytes() for path in (journal, part)}
    listing = sorted(tmp_path.rglob("*"))
    for target, what in ((tmp_path / "journal.html", "review journal"), (tmp_path / "part.md", "dataset")):
        code, err = report(capsys, lake, "-o", target)
        assert code == 2 and what in err, err
    assert {path: path.read_bytes() for path in before} == before
    assert sorted(tmp_path.rglob("*")) == listing  # not a chart, not a temporary file
    code, err = report(capsys, lake, "-o", tmp_path / "r.html", "--baseline", DEMO)
    assert code == 2 and "--baseline goes with a single run file, not a dataset" in err
    assert not (tmp_path / "r.html").exists()
