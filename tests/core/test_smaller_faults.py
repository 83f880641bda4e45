"""Issue 16's smaller faults, on the command line and in the core: what compare and export say
on stderr, what `sample` offers, the help's examples, no empty journal, the baseline's offers."""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.cli.parser import build_parser
from ragdiag_tui.core.analysis.baseline import open_baseline
from ragdiag_tui.core.output import export
from ragdiag_tui.core.review.journal import Journal, journal_path
from ragdiag_tui.core.review.records import JournalError
from ragdiag_tui.core.review.state import Review, open_review
from ragdiag_tui.core.runs.store import RunStore

from .conftest import REPO

WriteRuns = Callable[..., Path]
RUN = {"question": "q", "answer": "a", "required": ["D1"], "context": ["D1"], "correct": True}


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def labelled(path: Path, reviewer: str, labels: dict[str, bool]) -> None:
    review = open_review(str(path), reviewer=reviewer)
    for run_id, value in labels.items():
        review.set_label(review.store.row_of[run_id], value)


# -- compare and export on stderr ---------------------------------------------------


def test_compare_says_on_stderr_what_each_journal_applied(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    old = write_runs([{"id": "a", **RUN}, {"id": "b", **RUN}], name="old.jsonl")
    new = write_runs([{"id": "a", **RUN}, {"id": "b", **RUN}], name="new.jsonl")
    labelled(old, "alice", {"a": False, "b": False})
    code, _, err = run_cli(capsys, "compare", old, new)
    assert code == 0
    assert f"applied 2 labels from {journal_path(old)}" in err  # as stats says it
    assert "no review entries in" in err and "new.jsonl.review.jsonl: the file's own labels" in err
    code, _, err = run_cli(capsys, "compare", old, new, "--no-journal")
    assert "review journals ignored (--no-journal)" in err and "applied" not in err


def test_export_names_the_invalid_lines_it_leaves_out(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, tmp_path: Path
) -> None:
    path = write_runs([{"id": "a", **RUN}, '{"id": "b", "required": [', {"id": "c", **RUN}, "[1, 2]"])
    code, _, err = run_cli(capsys, "export", path, "-o", tmp_path / "out.jsonl")
    assert code == 1
    assert "exported 2 runs" in err
    assert "2 invalid lines left out: lines 2, 4" in err


def test_export_lists_at_most_ten_invalid_lines_and_counts_the_rest(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, tmp_path: Path
) -> None:
    path = write_runs([{"id": "a", **RUN}] + ['{"id": "b", "required": ['] * 12)
    _, _, err = run_cli(capsys, "export", path, "-o", tmp_path / "out.jsonl", "--no-journal")
    assert "12 invalid lines left out: lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ... (2 more)" in err


def test_export_of_a_clean_file_mentions_no_invalid_lines(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, tmp_path: Path
) -> None:
    path = write_runs([{"id": "a", **RUN}])
    code, _, err = run_cli(capsys, "export", path, "-o", tmp_path / "out.jsonl")
    assert code == 0 and "invalid" not in err


# -- sample's options and the help's examples ----------------------------------------


def subcommand(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    actions = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    return actions[0].choices[name]


def test_sample_no_longer_offers_blind_or_adjudicate(capsys: pytest.CaptureFixture[str]) -> None:
    options = {option for action in subcommand("sample")._actions for option in action.option_strings}
    assert "--blind" not in options and "--adjudicate" not in options
    for app_command in ("review", "serve"):  # where they mean something
        options = {option for action in subcommand(app_command)._actions for option in action.option_strings}
        assert {"--blind", "--adjudicate"} <= options


def example_commands(epilog: str) -> list[list[str]]:
    """The commands after `example:` / `examples:` in a help epilog (continuation lines joined)."""
    text = epilog.split("example", 1)[1].split(":", 1)[1].replace("\\\n", " ")
    return [shlex.split(line) for line in text.splitlines() if line.strip().startswith("ragdiag-tui")]


def named_inputs(argv: list[str]) -> list[str]:
    """The run files an example reads: its file arguments, not what -o writes, nor a journal."""
    files = []
    for index, word in enumerate(argv):
        if argv[index - 1] in ("-o", "--output") or word.endswith(".review.jsonl"):
            continue
        if word.endswith((".jsonl", ".json", ".csv", ".parquet")):
            files.append(word)
    return files


def test_every_help_example_names_run_files_that_exist() -> None:
    parser = build_parser()
    epilogs = [parser.epilog or ""] + [
        subcommand(name).epilog or "" for name in ("review", "diagnose", "check", "stats", "export",
                                                   "sample", "serve", "compare", "merge")
    ]  # fmt: skip
    checked = 0
    for epilog in epilogs:
        for argv in example_commands(epilog):
            for name in named_inputs(argv):
                assert (REPO / name).is_file(), f"{shlex.join(argv)}: {name} does not exist"
                checked += 1
    assert checked >= 15


# -- the journal is made by the first write, not by opening ---------------------------


def test_opening_a_file_for_review_creates_no_journal(write_runs: WriteRuns) -> None:
    path = write_runs([{"id": "a", **RUN}])
    review = open_review(str(path), reviewer="alice")
    assert not review.problems
    assert not Path(journal_path(path)).exists()
    review.set_label(0, False)  # the first write makes it
    lines = Path(journal_path(path)).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["label"] is False
    again = open_review(str(path), reviewer="alice")
    assert again.label(0) is False


def test_a_folder_that_cannot_take_the_journal_is_still_said_when_opening(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "no-such-folder" / "runs.jsonl.review.jsonl")
    with pytest.raises(JournalError, match="cannot write the journal"):
        journal.open()


# -- the baseline's offers keep what the old review held ------------------------------


def test_offered_baseline_labels_keep_their_notes_tags_and_reviewers(write_runs: WriteRuns) -> None:
    old = write_runs([{"id": "a", **RUN}, {"id": "b", **RUN}], name="old.jsonl")
    new = write_runs([{"id": "a", **RUN}, {"id": "b", **RUN}], name="new.jsonl")
    before = open_review(str(old), reviewer="alice")
    before.set_label(0, False)
    before.set_note(0, "cites the wrong policy")
    before.set_tags(0, ["no-evidence"])
    bob = open_review(str(old), reviewer="bob")
    bob.set_label(0, False)
    store = RunStore(str(new))
    store.read()
    review = Review(store, None, "carol")
    baseline, _ = open_baseline(str(old), store, review.is_reviewed, review.label)
    offer = baseline.offers[0]
    assert offer.label is False and offer.by == "alice, bob"
    for entry in offer.records("a", review.digest_of(0), "2026-12-02T00:00:00Z"):
        review.edits.adopt(0, entry)
    assert review.reviewers(0).keys() == {"alice", "bob"}
    alice = review.state(0, "alice")
    assert alice is not None and alice.label is False
    assert alice.note == "cites the wrong policy" and alice.tags == ("no-evidence",)
    assert review.state(0, "carol") is None  # not the reviewer who applied it
    assert review.label(0) is False


def test_the_export_dialog_and_the_cli_read_a_format_from_the_same_extensions() -> None:
    named_by = export.format_named_by  # what the dialog reads a typed path with
    for name, fmt in (("x.csv", "csv"), ("x.JSON", "json"), ("x.parquet", "parquet"), ("x.jsonl", "jsonl")):
        assert named_by(name) == fmt == export.format_for_path(name)
    assert named_by("x.txt") is None and export.format_for_path("x.txt") == "jsonl"


def test_the_diagnose_summary_says_one_run_and_one_invalid_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text('{"id": "a", "required": ["d"], "context": ["d"], "correct": true}\n{broken\n', "utf-8")
    assert main(["diagnose", str(path)]) == 1
    said = capsys.readouterr().err
    assert "1 run: " in said and "0 lucky answers in the file; 1 invalid line" in said, said
    assert "1 runs" not in said and "1 invalid lines" not in said
