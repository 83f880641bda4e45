"""`compare OLD NEW`: joining two run files and what moved between stages."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.analysis.compare import compare_files, compare_stores
from ragdiag_tui.core.runs.stages import STAGE_NAMES as STAGES
from ragdiag_tui.core.runs.store import RunStore

WriteRuns = Callable[..., Path]


def run(run_id: str, required: list[str], context: list[str], correct: Any = True, **extra: Any) -> dict:
    obj = {"id": run_id, "question": extra.pop("question", f"q {run_id}"), "required": required}
    obj["context"] = context
    if correct is not None:
        obj["correct"] = correct
    return {**obj, **extra}


PASS = (["D1"], ["D1"], True)
GENERATION = (["D1"], ["D1"], False)
RETRIEVAL = (["D1", "D2"], ["D1"], False)
LUCKY = (["D1", "D2"], ["D1"], True)


def cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def compare_json(capsys: pytest.CaptureFixture[str], old: Path, new: Path, *extra: str) -> dict:
    code, out, err = cli(capsys, "compare", old, new, "--json", *extra)
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def before_after(tmp_path: Path, write_runs: WriteRuns) -> tuple[Path, Path]:
    old = write_runs(
        [
            run("fixed-r", *RETRIEVAL),
            run("fixed-g", *GENERATION),
            run("regressed", *PASS),
            run("lucky-resolved", *LUCKY),
            run("same", *PASS),
            run("still-lucky", *LUCKY),
            run("renamed-question", *PASS, question="old wording"),
            run("gone", *PASS),
            '{"id": "broken", "required": "D1"}',
            run("label-error", ["D1"], ["D1"], None),
        ],
        "old.jsonl",
    )
    new = write_runs(
        [
            run("fixed-r", ["D1", "D2"], ["D1", "D2"], True),
            run("fixed-g", *PASS),
            run("regressed", ["D1", "D3"], ["D1"], True),  # a new lucky answer too
            run("lucky-resolved", ["D1", "D2"], ["D1", "D2"], False),
            run("same", *PASS),
            run("still-lucky", *LUCKY),
            run("renamed-question", *RETRIEVAL, question="new wording"),
            run("label-error", *PASS),
            run("broken", *PASS),
            run("arrived", *PASS),
        ],
        "new.jsonl",
    )
    return old, new


def test_transition_matrix_counts_old_stage_by_new_stage(
    capsys: pytest.CaptureFixture[str], before_after: tuple[Path, Path]
) -> None:
    data = compare_json(capsys, *before_after)
    assert list(data["transitions"]) == list(STAGES)
    assert all(list(row) == list(STAGES) for row in data["transitions"].values())
    moved = {(old, new): n for old, row in data["transitions"].items() for new, n in row.items() if n}
    assert moved == {
        ("retrieval", "pass"): 1,  # fixed-r
        ("generation", "pass"): 1,  # fixed-g
        ("pass", "retrieval"): 1,  # regressed
        ("retrieval", "generation"): 1,  # lucky-resolved
        ("pass", "pass"): 1,  # same
        ("retrieval", "retrieval"): 1,  # still-lucky
        ("answer-label", "pass"): 1,
        ("invalid", "pass"): 1,  # an invalid line joins by its id
    }


def test_fixed_regressed_and_lucky_answers_name_the_runs(
    capsys: pytest.CaptureFixture[str], before_after: tuple[Path, Path]
) -> None:
    data = compare_json(capsys, *before_after)
    assert data["fixed"] == ["fixed-r", "fixed-g"]
    assert data["regressed"] == ["regressed"]
    assert data["new_lucky"] == ["regressed"]
    assert data["resolved_lucky"] == ["lucky-resolved"]


def test_json_has_every_documented_key(
    capsys: pytest.CaptureFixture[str], before_after: tuple[Path, Path]
) -> None:
    data = compare_json(capsys, *before_after)
    for key in ("joined", "only_old", "only_new", "not_comparable", "transitions", "fixed", "regressed"):
        assert key in data
    for key in ("new_lucky", "resolved_lucky", "documents"):
        assert key in data
    assert (data["joined"], data["only_old"], data["only_new"]) == (9, 1, 1)
    assert all(set(doc) == {"id", "missed_old", "missed_new"} for doc in data["documents"])


def test_same_id_with_another_question_is_not_comparable_and_left_out(
    capsys: pytest.CaptureFixture[str], before_after: tuple[Path, Path]
) -> None:
    data = compare_json(capsys, *before_after)
    assert data["not_comparable"] == [{"old": "renamed-question", "new": "renamed-question"}]
    # pass -> retrieval would otherwise be a regression
    assert sum(sum(row.values()) for row in data["transitions"].values()) == data["joined"] - 1
    assert "renamed-question" not in data["regressed"]
    code, out, _ = cli(capsys, "compare", *before_after)
    assert code == 0
    assert "not comparable (same id, different question): 1" in out
    assert "renamed-question" in out


def test_documents_whose_missed_count_changed_most(
    capsys: pytest.CaptureFixture[str], before_after: tuple[Path, Path]
) -> None:
    data = compare_json(capsys, *before_after)
    # D2: missed by fixed-r, lucky-resolved, still-lucky before; by still-lucky after.
    # D3: missed by `regressed` after. renamed-question is not comparable: not counted.
    assert data["documents"] == [
        {"id": "D2", "missed_old": 3, "missed_new": 1},
        {"id": "D3", "missed_old": 0, "missed_new": 1},
    ]


def test_by_question_joins_same_question_and_requires_the_same_source(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    old = write_runs(
        [
            run("a1", *RETRIEVAL, question="Q1", source="wiki"),
            run("a2", *RETRIEVAL, question="Q2", source="wiki"),
            run("a3", *GENERATION, question="Q3"),
            run("a4", *PASS, question="Q4", source="wiki"),
            run("a5", *PASS, question="Q4", source="tickets"),
        ],
        "old.jsonl",
    )
    new = write_runs(
        [
            run("b1", *PASS, question="Q1", source="wiki"),  # same source: joined
            run("b2", *PASS, question="Q2", source="tickets"),  # another source: not joined
            run("b3", *PASS, question="Q3", source="wiki"),  # OLD has no source: joined
            run("b5", *RETRIEVAL, question="Q4", source="tickets"),  # joins a5, not a4
        ],
        "new.jsonl",
    )
    data = compare_json(capsys, old, new, "--by", "question")
    assert data["joined"] == 3
    assert (data["only_old"], data["only_new"]) == (2, 1)
    assert data["fixed"] == ["b1", "b3"]
    assert data["regressed"] == ["b5"]
    by_id = compare_json(capsys, old, new)
    assert by_id["joined"] == 0


def test_by_question_pairs_repeated_questions_in_file_order(tmp_path: Path, write_runs: WriteRuns) -> None:
    old = write_runs([run("o1", *PASS, question="Q"), run("o2", *GENERATION, question="Q")], "old.jsonl")
    new = write_runs([run("n1", *PASS, question="Q"), run("n2", *PASS, question="Q")], "new.jsonl")
    result = compare_stores(RunStore.load(old), RunStore.load(new), by="question")
    assert result.pairs == [(0, 0), (1, 1)]
    assert [result.new.ids[n] for _, n in result.fixed] == ["n2"]


def _journal(path: Path, *lines: dict[str, Any]) -> None:
    with open(f"{path}.review.jsonl", "a", encoding="utf-8") as handle:
        for line in lines:
            entry = {"v": 1, "note": "", "reviewer": "alice", "at": "2026-11-30T15:00:00.000000Z", **line}
            handle.write(json.dumps(entry) + "\n")


def test_both_review_journals_are_applied_unless_no_journal(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    old = write_runs([run("r1", *GENERATION), run("r2", *PASS)], "old.jsonl")
    new = write_runs([run("r1", *PASS), run("r2", *PASS)], "new.jsonl")
    _journal(old, {"run": "r1", "label": True})  # r1 was a pass after review: nothing fixed
    _journal(new, {"run": "r2", "label": False})  # r2 is a generation failure after review
    data = compare_json(capsys, old, new)
    assert data["fixed"] == []
    assert data["regressed"] == ["r2"]
    raw = compare_json(capsys, old, new, "--no-journal")
    assert raw["fixed"] == ["r1"]
    assert raw["regressed"] == []


def test_journal_labels_count_for_lucky_answers(write_runs: WriteRuns) -> None:
    old = write_runs([run("r1", *RETRIEVAL)], "old.jsonl")
    new = write_runs([run("r1", *RETRIEVAL)], "new.jsonl")
    _journal(new, {"run": "r1", "label": True})
    result, _ = compare_files(str(old), str(new))
    assert [result.new.ids[n] for _, n in result.new_lucky] == ["r1"]


@pytest.mark.parametrize("missing", ["old", "new"])
def test_exit_2_when_either_file_cannot_be_read(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, tmp_path: Path, missing: str
) -> None:
    present = write_runs([run("r1", *PASS)])
    absent = tmp_path / "absent.jsonl"
    files = (absent, present) if missing == "old" else (present, absent)
    code, out, err = cli(capsys, "compare", *files)
    assert code == 2
    assert out == ""
    assert "absent.jsonl: no such file" in err


def test_exit_2_when_a_journal_cannot_be_read(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, tmp_path: Path
) -> None:
    old = write_runs([run("r1", *PASS)], "old.jsonl")
    new = write_runs([run("r1", *PASS)], "new.jsonl")
    (tmp_path / "new.jsonl.review.jsonl").mkdir()
    code, _, err = cli(capsys, "compare", old, new)
    assert code == 2
    assert "new.jsonl.review.jsonl" in err


def test_invalid_lines_do_not_change_the_exit_status(
    capsys: pytest.CaptureFixture[str], before_after: tuple[Path, Path]
) -> None:
    code, out, _ = cli(capsys, "compare", *before_after)
    assert code == 0
    assert "fixed (retrieval or generation -> pass): 2" in out
    assert "regressed (pass -> retrieval or generation): 1" in out


def test_report_shows_untrusted_text_escaped(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    nasty = "r\x1b[31m1\u202e"
    old = write_runs([run(nasty, ["\x1bD"], [], True)], "o.jsonl")
    new = write_runs([run(nasty, ["\x1bD"], ["\x1bD"], True)], "n.jsonl")
    code, out, _ = cli(capsys, "compare", old, new)
    assert code == 0
    assert "\x1b" not in out and "\u202e" not in out
    assert "r\\x1b[31m1\\u202e" in out
    assert "\\x1bD" in out


def test_sample_before_and_after_files(capsys: pytest.CaptureFixture[str], samples: Path) -> None:
    data = compare_json(capsys, samples / "demo.jsonl", samples / "demo_after.jsonl")
    assert (data["joined"], data["only_old"], data["only_new"]) == (78, 2, 2)
    assert data["fixed"] == ["run-0005", "run-0010", "run-0019", "run-0020", "run-0031"]
    assert data["regressed"] == ["run-0013", "run-0014"]
    assert [pair["new"] for pair in data["not_comparable"]] == ["run-0041"]


def test_help_names_the_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    out = capsys.readouterr().out
    for key in ("not_comparable", "transitions", "resolved_lucky", "missed_old", "--by {id,question}"):
        assert key in out


def test_only_in_old_or_new_counts_runs_not_invalid_lines(capsys, write_runs: WriteRuns) -> None:
    old = write_runs([run("r1", *PASS), "not json", run("gone", *PASS), "[1]"], "old.jsonl")
    new = write_runs([run("r1", *PASS), "{broken", run("added", *PASS)], "new.jsonl")
    data = compare_json(capsys, old, new)
    assert (data["joined"], data["only_old"], data["only_new"]) == (1, 1, 1)


def test_lucky_before_and_after_is_not_a_new_lucky_answer(capsys, write_runs: WriteRuns) -> None:
    old = write_runs([run("r1", *LUCKY), run("r2", *RETRIEVAL)], "old.jsonl")
    new = write_runs([run("r1", *LUCKY), run("r2", *LUCKY)], "new.jsonl")
    assert compare_json(capsys, old, new)["new_lucky"] == ["r2"]


def test_compare_and_the_review_baseline_join_the_same_runs(capsys, write_runs: WriteRuns) -> None:
    from ragdiag_tui.core.analysis.baseline import open_baseline

    old = write_runs([run("r1", *PASS), run("r2", *PASS, question="before"), run("r3", *PASS)], "old.jsonl")
    new = write_runs([run("r1", *PASS), run("r2", *PASS, question="after"), run("r4", *PASS)], "new.jsonl")
    data = compare_json(capsys, old, new)
    store = RunStore.load(new)
    baseline, _ = open_baseline(str(old), store, lambda row: False, lambda row: None)
    assert data["joined"] == baseline.comparison.joined == 2
