"""The headless command line: diagnose, check, stats, help, exit status, bad files."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui import __version__
from ragdiag_tui.cli import main

WriteRuns = Callable[..., Path]
SEED_OUTPUT = (
    '{"checked":4,"caseIds":["missing-context","wrong-generation","missing-answer-label","lucky-answer-gap"]}'
)

PASS_RUN = {"required": ["D1"], "context": ["D1"], "correct": True}


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture
def mixed_file(write_runs: WriteRuns) -> Path:
    return write_runs(
        [
            {"id": "a", **PASS_RUN},
            '{"id": "b", "required": [',
            {"id": "c", "required": ["D1"], "context": "D1", "correct": True},
            {"required": ["D2", "D1"], "context": [], "correct": True},
            {"id": "e", "required": [], "correct": True},
            {"id": "f", "required": ["D1"], "context": ["D1"], "correct": "yes"},
        ]
    )


# -- diagnose ------------------------------------------------------------------------


def test_diagnose_writes_one_line_per_record_in_file_order(
    capsys: pytest.CaptureFixture[str], mixed_file: Path
) -> None:
    code, out, _ = run_cli(capsys, "diagnose", mixed_file)
    lines = json_lines(out)
    assert [list(line) for line in lines] == [
        ["id", "stage", "missing"],
        ["line", "error", "detail"],
        ["line", "id", "error", "field", "detail"],
        ["id", "stage", "missing"],
        ["id", "stage"],
        ["id", "error"],
    ]
    assert lines[0] == {"id": "a", "stage": "pass", "missing": []}
    assert lines[1]["line"] == 2
    assert lines[1]["error"] == "invalid-json"
    assert lines[2] == {
        "line": 3,
        "id": "c",
        "error": "invalid-run",
        "field": "context",
        "detail": lines[2]["detail"],
    }
    assert "context" in lines[2]["detail"]
    assert lines[3] == {"id": "4", "stage": "retrieval", "missing": ["D1", "D2"]}
    assert lines[4] == {"id": "e", "stage": "unresolved"}
    assert lines[5] == {"id": "f", "error": "answer-label"}
    assert code == 1


def test_diagnose_output_is_compact_json_lines(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    _, out, _ = run_cli(capsys, "diagnose", write_runs([{"id": "a", **PASS_RUN}]))
    assert out == '{"id":"a","stage":"pass","missing":[]}\n'


def test_diagnose_exits_0_when_every_line_is_valid(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    code, out, err = run_cli(capsys, "diagnose", write_runs([{"id": "a", **PASS_RUN}, PASS_RUN]))
    assert code == 0
    assert len(out.splitlines()) == 2
    assert "Traceback" not in err


def test_diagnose_summary_goes_to_stderr(capsys: pytest.CaptureFixture[str], mixed_file: Path) -> None:
    _, out, err = run_cli(capsys, "diagnose", mixed_file)
    assert err.count("\n") == 1
    assert "4 runs" in err
    assert "2 invalid" in err
    assert "1 lucky" in err
    assert "4 runs" not in out


def test_diagnose_to_a_file_writes_it_and_nothing_on_stdout(
    capsys: pytest.CaptureFixture[str], mixed_file: Path, tmp_path: Path
) -> None:
    _, expected, _ = run_cli(capsys, "diagnose", mixed_file)
    out_path = tmp_path / "out.jsonl"
    code, out, err = run_cli(capsys, "diagnose", mixed_file, "-o", out_path)
    assert code == 1
    assert out == ""
    assert out_path.read_text(encoding="utf-8") == expected
    assert "4 runs" in err


def test_diagnose_refuses_to_overwrite_the_run_file(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = write_runs([{"id": "a", **PASS_RUN}])
    before = path.read_bytes()
    code, _, err = run_cli(capsys, "diagnose", path, "-o", path)
    assert code == 2
    assert path.read_bytes() == before
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_diagnose_into_a_missing_folder_is_one_clear_error(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, tmp_path: Path
) -> None:
    code, _, err = run_cli(capsys, "diagnose", write_runs([PASS_RUN]), "-o", tmp_path / "no" / "out.jsonl")
    assert code == 2
    assert err.startswith("ragdiag-tui: ")
    assert err.count("\n") == 1


# -- check ---------------------------------------------------------------------------


def test_check_on_the_seed_cases_prints_the_evaluators_line(
    capsys: pytest.CaptureFixture[str], seed_path: Path
) -> None:
    code, out, err = run_cli(capsys, "check", seed_path)
    assert out == SEED_OUTPUT + "\n"
    assert code == 0
    assert "Traceback" not in err


def test_check_names_a_disagreeing_case_with_expected_and_got(
    capsys: pytest.CaptureFixture[str], seed_path: Path, tmp_path: Path
) -> None:
    cases = json.loads(seed_path.read_text(encoding="utf-8"))
    cases[3]["expected"] = {"stage": "pass", "missing": []}  # the lucky answer is not a pass
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases), encoding="utf-8")
    code, out, err = run_cli(capsys, "check", path)
    assert code == 1
    (line,) = out.splitlines()
    assert "lucky-answer-gap" in line
    assert 'expected {"stage": "pass", "missing": []}' in line
    assert 'got {"stage": "retrieval", "missing": ["D2"]}' in line
    assert '"checked"' not in out
    assert "1 of 4" in err


def test_check_counts_an_invalid_case_as_a_failure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "cases.json"
    cases = [
        {"id": "ok", "input": PASS_RUN, "expected": {"stage": "pass", "missing": []}},
        {"id": "bad", "input": {"required": ["D1"], "context": 3, "correct": True}, "expected": {}},
    ]
    path.write_text(json.dumps(cases), encoding="utf-8")
    code, out, err = run_cli(capsys, "check", path)
    assert code == 1
    assert "context" in err
    assert '"checked"' not in out


def test_check_of_a_file_without_expectations_is_an_error(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    code, out, err = run_cli(capsys, "check", write_runs([PASS_RUN]))
    assert code == 2
    assert out == ""
    assert "expected" in err


# -- stats ---------------------------------------------------------------------------


@pytest.fixture
def stats_file(write_runs: WriteRuns) -> Path:
    runs: list[Any] = []
    # doc-00 is missed by 12 runs, doc-01 by 11, ... doc-11 by 1: twelve documents.
    for doc in range(12):
        for n in range(12 - doc):
            runs.append(
                {"id": f"r{doc}-{n}", "required": [f"doc-{doc:02}"], "context": [], "correct": n == 0}
            )
    runs += [
        {"id": "g", "required": ["D1"], "context": ["D1"], "correct": False},
        {"id": "p", **PASS_RUN},
        {"id": "u", "required": [], "correct": True},
        {"id": "l", "required": ["D1"], "context": ["D1"], "correct": 1},
        "not json",
        {"id": "x", "required": "D1"},
    ]
    return write_runs(runs)


def test_stats_json_counts_stages_lucky_invalid_and_top_ten_missed(
    capsys: pytest.CaptureFixture[str], stats_file: Path
) -> None:
    code, out, _ = run_cli(capsys, "stats", stats_file, "--json")
    assert code == 1  # invalid lines
    assert json.loads(out) == {
        "runs": 82,
        "stages": {"retrieval": 78, "generation": 1, "pass": 1, "unresolved": 1, "answer-label": 1},
        "lucky_in_file": 12,  # no journal: both lucky-answer figures are the file's
        "still_lucky": 12,
        "unresolved": 1,
        "label_errors": 1,
        "invalid_lines": 2,
        "most_missed": [{"id": f"doc-{doc:02}", "runs": 12 - doc} for doc in range(10)],
        # recall: 0 on the 78 retrieval runs, 1 on g, p and l, undefined on u;
        # precision: undefined where nothing was supplied, 1 on g, p and l
        "metrics": {"recall_mean": 3 / 81, "precision_mean": 1.0, "recall_runs": 81, "precision_runs": 3},
        "spot_checks": [],
        "agreement": {  # no review journal: nobody labelled, nothing to agree on
            "reviewers": [],
            "labelled_runs": 0,
            "pairable_runs": 0,
            "pairs": [],
            "alpha": None,
            "alpha_reason": "no run has labels from two reviewers",
            "with_file": [],
        },
    }


def test_stats_table_shows_counts_lucky_invalid_and_most_missed(
    capsys: pytest.CaptureFixture[str], stats_file: Path
) -> None:
    code, out, _ = run_cli(capsys, "stats", stats_file)
    assert code == 1
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.strip()}
    assert rows["retrieval"][0] == "78"
    assert rows["generation"][0] == "1"
    assert rows["total"] == ["82"]
    assert "lucky answers in the file (its labels): 12" in " ".join(out.split())
    assert "still lucky after review (labels in force): 12" in " ".join(out.split())
    assert "invalid lines: 2" in " ".join(out.split())
    assert rows["doc-00"] == ["12"]
    assert rows["doc-09"] == ["3"]
    assert "doc-10" not in rows  # only the ten most missed


def test_stats_exits_0_on_a_clean_file(capsys: pytest.CaptureFixture[str], write_runs: WriteRuns) -> None:
    code, out, _ = run_cli(capsys, "stats", write_runs([PASS_RUN]))
    assert code == 0
    assert "no document is missing" in out


def test_stats_table_never_sends_escape_sequences_to_the_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = "\x1b[2J\x1b[31mred\x1b]0;title\x07\x9b31m\u202edoc"
    path = tmp_path / "runs\x1b[31m.jsonl"
    path.write_text(
        json.dumps({"id": "\x1b[1mrun", "required": [doc], "context": [], "correct": True}) + "\n"
    )
    code, out, err = run_cli(capsys, "stats", path)
    assert code == 0
    for control in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert control not in out
        assert control not in err
    assert "red" in out  # the ID is shown, made inert, not dropped


# -- files that cannot be read ---------------------------------------------------------


@pytest.mark.parametrize("command", ["diagnose", "check", "stats"])
@pytest.mark.parametrize("kind", ["missing", "directory", "empty", "whitespace", "utf-16"])
def test_unreadable_file_exits_2_with_one_clear_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, kind: str
) -> None:
    path = tmp_path / "runs.jsonl"
    if kind == "directory":
        path.mkdir()
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "whitespace":
        path.write_bytes(b" \n\n\t\n")
    elif kind == "utf-16":
        path.write_text(json.dumps(PASS_RUN) + "\n", encoding="utf-16")
    code, out, err = run_cli(capsys, command, path)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("ragdiag-tui: ")
    assert str(path) in err
    assert "Traceback" not in err


# -- help and version ------------------------------------------------------------------


@pytest.mark.parametrize("command", ["diagnose", "check", "stats", "export", "review"])
def test_help_of_each_command_exits_0_and_shows_an_example(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert caught.value.code == 0
    assert "example" in out
    assert f"ragdiag-tui {command}" in out


def test_top_level_help_lists_the_commands_and_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    out = capsys.readouterr().out
    assert caught.value.code == 0
    for command in ("diagnose", "check", "stats"):
        assert command in out
    assert "examples:" in out


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"ragdiag-tui {__version__}"


def test_no_command_exits_2_with_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([])
    assert caught.value.code == 2
    assert "usage" in capsys.readouterr().err


def test_unknown_option_exits_2(capsys: pytest.CaptureFixture[str], write_runs: WriteRuns) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["stats", str(write_runs([PASS_RUN])), "--no-such-option"])
    assert caught.value.code == 2


# -- the installed entry points --------------------------------------------------------


def test_installed_entry_points_check_the_seed_cases(seed_path: Path) -> None:
    commands = [[sys.executable, "-m", "ragdiag_tui"]]
    script = Path(sys.executable).with_name("ragdiag-tui")
    if script.exists():
        commands.append([str(script)])
    for command in commands:
        done = subprocess.run(
            [*command, "check", str(seed_path)], capture_output=True, text=True, timeout=60, check=False
        )
        assert (done.returncode, done.stdout) == (0, SEED_OUTPUT + "\n"), done.stderr
