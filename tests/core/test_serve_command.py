"""The shell command `serve` runs per browser page: every word arrives exactly as given."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

from ragdiag_tui.cli import parse_args
from ragdiag_tui.core.runs.mapping import FieldMap
from ragdiag_tui.serve import review_command


def test_the_served_command_reviews_the_same_file_reviewer_and_map_whatever_their_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    hostile = "-runs $(touch pwned) `id` 'q' \"d\"; rm -rf x & [].jsonl"
    field_map = FieldMap.from_specs(["context=retrieved[].doc id", "id=run's id"], preset="ragas")

    words = shlex.split(review_command(hostile, "o'brien; echo hi", field_map))

    assert words[:4] == [sys.executable, "-m", "ragdiag_tui", "review"]
    args = parse_args(words[4:])
    assert args.command == "review"
    assert args.file == os.path.join(str(tmp_path), hostile)  # absolute: the server's cwd does not matter
    assert args.reviewer == "o'brien; echo hi"
    assert args.field_map == field_map


def test_without_a_reviewer_or_map_the_command_names_only_the_file() -> None:
    words = shlex.split(review_command("/data/runs.jsonl", None, None))
    assert words == [sys.executable, "-m", "ragdiag_tui", "review", "/data/runs.jsonl"]


def test_served_apps_get_the_same_journal_blind_and_adjudicate_options() -> None:
    journal = "postgresql://team@db/reviews?x=1&y='2'"
    command = review_command("/data/runs.jsonl", "alice", None, options=["--journal", journal, "--blind"])
    args = parse_args(shlex.split(command)[4:])
    assert (args.journal, args.blind, args.adjudicate) == (journal, True, False)
    served = parse_args(["serve", "/data/runs.jsonl", "--journal", journal, "--adjudicate"])
    assert (served.journal, served.blind, served.adjudicate) == (journal, False, True)
