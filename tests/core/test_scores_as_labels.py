"""Scores as labels and documents as texts, end to end through the command line: the rule
used is written wherever the label is shown or exported, and journaled with each spot-check."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.runs.texts import content_id

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "ragas_text" / "results.csv"
READ = ["--preset", "ragas", "--match", "similarity", "--map", "correct=non_llm_string_similarity"]
RULE = "correct = non_llm_string_similarity >= 0.5"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def results(tmp_path: Path) -> Path:
    path = tmp_path / "results.csv"
    path.write_bytes(FIXTURE.read_bytes())
    return path


def test_stats_states_the_label_rule_and_the_matching(
    capsys: pytest.CaptureFixture[str], results: Path
) -> None:
    code, out, _ = run(capsys, "stats", results, *READ, "--label-threshold", "0.5", "--no-journal")
    assert code == 0
    assert f"read as: label: {RULE}" in out
    assert "read as: documents: texts" in out and "> 0.5" in out
    _, out, _ = run(capsys, "stats", results, *READ, "--label-threshold", "0.5", "--no-journal", "--json")
    document = json.loads(out)
    assert any(RULE in line for line in document["reading"])
    assert document["lucky_in_file"] == 4  # correct by the score, a reference text not retrieved


def test_without_the_threshold_a_score_is_no_label(capsys: pytest.CaptureFixture[str], results: Path) -> None:
    _, out, _ = run(capsys, "stats", results, *READ, "--no-journal", "--json")
    stages = json.loads(out)["stages"]
    assert stages["answer-label"] == 14 and stages["unresolved"] == 1
    assert "reading" not in json.loads(out) or all(
        "label:" not in line for line in json.loads(out)["reading"]
    )


def test_export_writes_the_rule_the_content_ids_and_keeps_the_score(
    capsys: pytest.CaptureFixture[str], results: Path, tmp_path: Path
) -> None:
    out = tmp_path / "reviewed.csv"
    code, _, err = run(capsys, "export", results, *READ, "--label-threshold", "0.5", "-o", out)
    assert code == 0, err
    with open(out, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    first = rows[0]
    assert first["label_rule"] == RULE
    assert first["non_llm_string_similarity"] == "0.5"  # the score itself, never a boolean over it
    assert first["correct"] == "true"  # 0.5 >= 0.5
    assert first["required_ids"] == content_id(
        "The parental leave policy grants sixteen weeks of paid leave to every new parent."
    )
    assert rows[1]["missing"].startswith("t:") and rows[1]["missing"] in rows[1]["required_ids"]


def test_the_spot_check_journals_the_rule(capsys: pytest.CaptureFixture[str], results: Path) -> None:
    code, _, err = run(
        capsys,
        "sample",
        results,
        *READ,
        "--label-threshold",
        "0.5",
        "--view",
        "lucky",
        "-n",
        "2",
        "--seed",
        "7",
        "--name",
        "lucky",
    )
    assert code == 0, err
    journal = results.with_name(results.name + ".review.jsonl")
    (record,) = [json.loads(line) for line in journal.read_text().splitlines() if '"spot-check"' in line]
    assert any(RULE in line for line in record["reading"])
    assert any("similarity" in line for line in record["reading"])


def test_the_report_header_states_the_rule(
    capsys: pytest.CaptureFixture[str], results: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report.md"
    code, _, err = run(capsys, "report", results, *READ, "--label-threshold", "0.5", "-o", out)
    assert code == 0, err
    assert f"**read as**: label: {RULE}" in out.read_text().replace("\\", "")


def test_a_numeric_label_without_the_threshold_names_the_option() -> None:
    from ragdiag_tui.core.analysis.explain import reason

    assert "--label-threshold" in reason({"error": "answer-label"}, None, 0.83)
    assert "--label-threshold" not in reason({"error": "answer-label"}, None, "yes")
    assert "--label-threshold" not in reason({"error": "answer-label"}, None, float("nan"))


def test_the_ragas_preset_says_it_reads_the_text_columns(
    capsys: pytest.CaptureFixture[str], results: Path
) -> None:
    code, _, err = run(capsys, "diagnose", results, "--preset", "ragas")
    assert code == 0
    assert "no reference_context_ids, retrieved_context_ids in the runs" in err
    assert "texts of reference_contexts, retrieved_contexts" in err


def test_the_unmapped_hint_names_the_text_columns(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "passages.jsonl"
    run_ = {
        "q": "?",
        "gold_passages": ["The leave is 16 weeks."],
        "hits": ["Deploys on Tuesdays."],
        "score": 0.8,
    }
    path.write_text(json.dumps(run_) + "\n", encoding="utf-8")
    _, _, err = run(capsys, "diagnose", path)
    assert "documents as texts in gold_passages, hits" in err
    assert "--map required=gold_passages" in err and "--match text" in err
    assert "--map correct=score --label-threshold 0.5" in err
