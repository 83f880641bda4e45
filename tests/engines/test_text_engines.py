"""Documents given as texts and scores as labels over a dataset (issue 38): DuckDB and Spark give
the local verdicts, content IDs included, exactly and by similarity (both read such files
through the local loader, so the content IDs and RAGAS's comparison are computed once, the
same way everywhere)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragdiag_tui.cli import main

from .spark_support import ONE_SESSION, shared_session

pytestmark = ONE_SESSION

pq = pytest.importorskip("pyarrow.parquet")
pa = pytest.importorskip("pyarrow")
pytest.importorskip("ragdiag_tui.engines.duckdb")

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "ragas_text" / "results.jsonl"
READ = ["--preset", "ragas", "--map", "correct=non_llm_string_similarity", "--label-threshold", "0.5"]


def split_parquet(folder: Path) -> Path:
    """The RAGAS results as two Parquet files of text lists."""
    rows = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    folder.mkdir()
    for part, chunk in enumerate((rows[:7], rows[7:])):
        table = pa.table(
            {
                "user_input": [row["user_input"] for row in chunk],
                "reference_contexts": [row["reference_contexts"] for row in chunk],
                "retrieved_contexts": [row["retrieved_contexts"] for row in chunk],
                "non_llm_string_similarity": [row["non_llm_string_similarity"] for row in chunk],
            }
        )
        pq.write_table(table, folder / f"part-{part}.parquet")
    return folder


def stats(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    capsys.readouterr()
    main(["stats", *args, "--json", "--no-journal"])
    return json.loads(capsys.readouterr().out)


def diagnoses(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main(["diagnose", *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("match", ["text", "similarity"])
@pytest.mark.parametrize("engine", ["duckdb", "spark"])
def test_the_engines_give_the_local_verdicts_on_text_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, engine: str, match: str
) -> None:
    if engine == "spark":
        shared_session()
    folder = split_parquet(tmp_path / "ds")
    local = tmp_path / "all.jsonl"
    local.write_bytes(FIXTURE.read_bytes())
    expected = stats(capsys, str(local), *READ, "--match", match)
    got = stats(capsys, str(folder), *READ, "--match", match, "--engine", engine)
    assert expected["lucky_in_file"] == (4 if match == "similarity" else 7)
    for key in ("runs", "stages", "lucky_in_file", "most_missed"):
        if key in expected:
            assert got.get(key) == expected[key], key
    local_missing = sorted(
        str(d.get("missing")) for d in diagnoses(capsys, str(local), *READ, "--match", match)
    )
    out = tmp_path / "diagnoses.jsonl"
    capsys.readouterr()
    assert main(["diagnose", str(folder), *READ, "--match", match, "--engine", engine, "-o", str(out)]) == 0
    engine_missing = sorted(str(json.loads(line).get("missing")) for line in out.read_text().splitlines())
    assert engine_missing == local_missing


def test_duckdb_matches_exact_texts_and_scores_in_sql(tmp_path: Path) -> None:
    from ragdiag_tui.core.runs.mapping import FieldMap
    from ragdiag_tui.engines.duckdb.schema import field_sql

    folder = split_parquet(tmp_path / "ds")
    exact = FieldMap.from_specs(["correct=non_llm_string_similarity"], "ragas", "text", 0.5)
    sql = field_sql(folder / "part-0.parquet", exact, [])
    assert "sha256(nfc_normalize(" in sql.required and ">= 0.5" in sql.label
    similar = FieldMap.from_specs(["correct=non_llm_string_similarity"], "ragas", "similarity", 0.5)
    with pytest.raises(Exception, match="similarity"):
        field_sql(folder / "part-0.parquet", similar, [])


@pytest.mark.parametrize("threshold", ["0.3", "0.55", "1"])
def test_duckdb_sql_content_ids_and_scores_are_the_local_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, threshold: str
) -> None:
    folder = split_parquet(tmp_path / "ds")
    local = tmp_path / "all.jsonl"
    local.write_bytes(FIXTURE.read_bytes())
    read = ["--preset", "ragas", "--match", "text", "--map", "correct=non_llm_string_similarity"]
    read += ["--label-threshold", threshold]
    expected = diagnoses(capsys, str(local), *read)
    out = tmp_path / "diagnoses.jsonl"
    assert main(["diagnose", str(folder), *read, "--engine", "duckdb", "-o", str(out)]) == 0
    got = [json.loads(line) for line in out.read_text().splitlines()]
    verdicts = [(d.get("stage"), d.get("error"), d.get("missing")) for d in got]
    assert sorted(map(str, verdicts)) == sorted(
        str((d.get("stage"), d.get("error"), d.get("missing"))) for d in expected
    )
