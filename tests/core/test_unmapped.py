"""A file whose runs hold none of the rule's fields under the map in use: every command says
so at once, lists the fields the runs hold, and shows how to map them."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.runs.unmapped import LOOKED_AT, find_unmapped

WriteRuns = Callable[..., Path]


def nested(n: int, verdict: bool = True) -> dict[str, Any]:
    return {
        "meta": {"id": f"q{n}", "model": "m"},
        "question": f"question {n}",
        "retrieval": {"gold_ids": ["D1"], "hits": [{"doc_id": "D1", "score": 0.5}]},
        "judge": {"verdict": verdict},
    }


NESTED_MAP = ["--map", "required=retrieval.gold_ids", "--map", "context=retrieval.hits[].doc_id"]
SUGGESTED = (
    "--map id=meta.id --map required=retrieval.gold_ids --map 'context=retrieval.hits[].doc_id'"
    " --map correct=judge.verdict"
)


@pytest.mark.parametrize(
    "command",
    [
        ["diagnose"],
        ["check"],
        ["stats"],
        ["stats", "--json"],
        ["export", "-o", "{tmp}/out.jsonl"],
        ["sample", "--view", "all", "-n", "1", "--seed", "1"],
        ["compare", "{file}"],
    ],
)
def test_every_command_says_the_file_is_unmapped_and_how_to_map_it(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, tmp_path: Path, command: list[str]
) -> None:
    path = write_runs([nested(n) for n in range(3000)])
    argv = [command[0], str(path), *(arg.format(tmp=tmp_path, file=path) for arg in command[1:])]
    main(argv)
    err = capsys.readouterr().err
    assert f"{path}: none of the first {LOOKED_AT} runs has the rule's fields" in err
    assert "its runs' fields: meta{id, model}, question, retrieval{gold_ids, hits}, judge{verdict}" in err
    files = f"{path} {path}" if command[0] == "compare" else f"{path}"  # compare OLD NEW
    assert f"ragdiag-tui {command[0]} {files} {SUGGESTED}" in err
    assert err.startswith(f"ragdiag-tui: {path}: none of")  # at once: before anything else is said


def test_the_suggested_command_line_maps_the_file(capsys, write_runs: WriteRuns) -> None:
    path = write_runs([nested(1), nested(2, verdict=False)])
    main(["stats", str(path), "--json"])
    suggested = next(line for line in capsys.readouterr().err.splitlines() if "ragdiag-tui stats" in line)
    argv = [*shlex.split(suggested.split("ragdiag-tui: ", 1)[1])[1:], "--json"]
    main(argv)
    out, err = capsys.readouterr()
    assert "rule's fields" not in err
    assert json.loads(out)["stages"]["unresolved"] == 0


def test_a_mapped_file_and_a_file_of_empty_fields_say_nothing(capsys, write_runs: WriteRuns) -> None:
    main(["stats", str(write_runs([nested(1)])), *NESTED_MAP])
    assert "rule's fields" not in capsys.readouterr().err
    main(["stats", str(write_runs([{"id": "a", "required": [], "context": []}], "empty.jsonl"))])
    assert "rule's fields" not in capsys.readouterr().err


def test_a_short_file_says_no_run_and_a_preset_is_suggested_when_it_fits(write_runs: WriteRuns) -> None:
    path = write_runs([{"user_input": "q", "reference_context_ids": ["1"], "retrieved_context_ids": ["1"]}])
    found = find_unmapped(path)
    assert found is not None
    assert found.headline().startswith(f"{path}: no run has the rule's fields")
    assert found.suggestion == ("--preset", "ragas")
    assert find_unmapped(path, None) == found
    assert find_unmapped(write_runs([{"x": 1}, "not json", {"y": {}}], "other.jsonl")).fields == ("x", "y")


def test_nothing_to_say_when_a_later_run_has_the_fields_or_the_file_has_no_valid_run(
    write_runs: WriteRuns,
) -> None:
    assert find_unmapped(write_runs([{"x": 1}, {"required": ["D1"]}])) is None
    assert find_unmapped(write_runs(["not json"], "bad.jsonl")) is None
