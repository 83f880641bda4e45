"""`sample --strata` over a dataset in DuckDB (the exact path for JSON Lines, SQL for Parquet):
the same strata, sizes and ids as the local path draws from the same runs in one file, each
stratum its n_h smallest keys by the hash definition. (Spark's: test_spark_engine.py.)"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.analysis.stratify import StrataPlan, draw_stratified
from ragdiag_tui.core.review.state import open_review

from .conftest import ID_LIST, dataset, pa, pq, read_jsonl

engine = pytest.importorskip("ragdiag_tui.engines.duckdb", reason="the duckdb extra is not installed")

SOURCES = ["Web", "web", "Straße", "STRASSE", None, "absent", 7, "0.50"]
"""Each run's meta.source: texts differing only in case (one stratum each, never case-folded),
null, absent, a number, and (`"0.50"`) the number 0.50 in JSON Lines (its text `0.5`, as the
filter shows it), the text "0.50" in Parquet."""


def strata_runs(count: int = 96) -> list[tuple[dict[str, Any], str, str]]:
    """(run, its line as written, its expected meta.source stratum) of every stage."""
    made = []
    for i in range(count):
        kind, source = i % 5, SOURCES[(i * 7 + i // 5) % len(SOURCES)]
        run: dict[str, Any] = {"id": f"r{i}", "rank": i % 3, "model": ("m1", "m2")[i % 2]}
        run["required"] = [] if kind == 4 else ["a", "b"]
        run["context"] = ["a"] if kind in (0, 1) else ["a", "b"]
        run["correct"] = None if kind == 3 else kind in (0, 2)
        if source != "absent":
            run["meta"] = {"source": source, "x": 1}
        line = json.dumps(run).replace('"0.50"', "0.50")  # the number, as written
        made.append((run, line, {None: "(none)", "absent": "(none)", 7: "7"}.get(source, source)))
    return made


def write_lines(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def write_struct_parquet(path: Path, runs: list[dict[str, Any]]) -> Path:
    """Runs as Parquet SQL reads exactly: meta a struct of a string, rank an integer."""
    meta = pa.struct([("source", pa.string()), ("x", pa.int64())])
    texts = [run.get("meta") if isinstance((run.get("meta") or {}).get("source"), str | None) else
             {"source": str(run["meta"]["source"]), "x": 1} for run in runs]  # fmt: skip
    table = pa.table(
        {
            "id": pa.array([run["id"] for run in runs], pa.string()),
            "required": pa.array([run["required"] for run in runs], ID_LIST),
            "context": pa.array([run["context"] for run in runs], ID_LIST),
            "correct": pa.array([run["correct"] for run in runs], pa.bool_()),
            "model": pa.array([run["model"] for run in runs], pa.string()),
            "rank": pa.array([run["rank"] for run in runs], pa.int64()),
            "meta": pa.array(texts, meta),
        }
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, row_group_size=11)
    return path


def key(seed: int, run_id: str) -> str:
    return hashlib.sha256(f"{seed}\x1f{run_id}".encode()).hexdigest()


def local_draw(path: Path, view: str, n: int | str, plan: StrataPlan, query: str = "") -> Any:
    review = open_review(path, None, use_journal=False, writable=False)
    return draw_stratified(review, view, n, 11, plan, query)


def assert_same_draw(local: Any, drawn: Any) -> None:
    assert drawn.strata == local.strata  # strata in order, populations, ids in key order
    assert drawn.ids == local.ids  # served interleaved alike
    assert drawn.population == local.population


def assert_hash_definition(drawn: Any, members: dict[str, list[str]]) -> None:
    """Each stratum's ids are its n_h runs of smallest key, ascending; its population is its own."""
    for stratum in drawn.strata.strata:
        assert stratum.population == len(members[stratum.stratum])
        expected = sorted(members[stratum.stratum], key=lambda run_id: key(11, run_id))[: len(stratum.ids)]
        assert list(stratum.ids) == expected
    assert sorted(drawn.ids) == sorted(run_id for s in drawn.strata.strata for run_id in s.ids)


CASES = [
    ("all", 12, "meta.source", "proportional", None, ""),
    ("all", "auto", "meta.source", "neyman", {"Web": 0.05, "web": 0.4}, ""),
    ("all", 9, "stage", "proportional", None, "model:=m1"),
    ("retrieval", 7, "rank", "proportional", None, ""),
]


@pytest.mark.parametrize("reread", [False, True], ids=["one-pass", "stratum-read-again"])
@pytest.mark.parametrize(("view", "n", "by", "allocation", "priors", "query"), CASES)
def test_duckdb_draws_each_stratum_as_the_local_path_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reread: bool,
    view: str, n: int | str, by: str, allocation: str, priors: Any, query: str,
) -> None:  # fmt: skip
    from ragdiag_tui.engines.duckdb import stratified
    from ragdiag_tui.engines.duckdb.schema import plan as sql_plan
    from ragdiag_tui.engines.results import parse_filters

    if reread:  # every stratum larger than one run is read a second time for its n_h smallest
        monkeypatch.setattr(stratified, "first_cap", lambda n, margin: 1)
    made = strata_runs()
    runs = [run for run, _, _ in made]
    jsonl = write_lines(tmp_path / "lines" / "runs.jsonl", [line for _, line, _ in made])
    parquet = write_struct_parquet(tmp_path / "table" / "runs.parquet", runs)
    assert sql_plan([parquet], None, ("model",), True, True, stratum=by if by != "stage" else None)[0]
    plan = StrataPlan(by, allocation, priors, 0.2)
    for path, number in ((jsonl, "0.5"), (parquet, "0.50")):  # the exact path, then SQL
        local = local_draw(path, view, n, plan, query)
        out = tmp_path / f"{path.suffix}.jsonl"
        drawn = engine.sample(dataset(path.parent), None, view=view, filters=parse_filters(query), n=n,
                              margin=0.2, seed=11, out=out, strata=plan)  # fmt: skip
        assert_same_draw(local, drawn)
        assert len(drawn.strata.strata) > 2 and drawn.ids
        written = read_jsonl(out)
        assert [run["id"] for run in written] == list(drawn.ids)  # the sample file, as served
        if by == "meta.source" and view == "all":
            members: dict[str, list[str]] = {}
            for run, _, stratum in made:
                members.setdefault(number if stratum == "0.50" else stratum, []).append(run["id"])
            named = {"Web", "web", "Straße", "STRASSE", "(none)", "7", number}
            assert {stratum.stratum for stratum in drawn.strata.strata} == named
            assert_hash_definition(drawn, members)


def test_a_datasets_stratified_sample_prints_and_journals_its_strata(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = strata_runs(40)
    folder = tmp_path / "lake"
    write_lines(folder / "a.jsonl", [line for _, line, _ in made[:25]])
    write_lines(folder / "b.jsonl", [line for _, line, _ in made[25:]])
    whole = write_lines(tmp_path / "whole.jsonl", [line for _, line, _ in made])
    out = tmp_path / "s.jsonl"
    args = ["--view", "all", "-n", "10", "--seed", "11", "--strata", "meta.source", "--margin", "0.1"]
    args.append("--json")
    capsys.readouterr()
    assert main(["sample", str(folder), "--engine", "duckdb", "-o", str(out), *args]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert main(["sample", str(whole), *args]) == 0
    local = json.loads(capsys.readouterr().out)
    assert shown["strata"] == local["strata"] and shown["ids"] == local["ids"]
    assert (shown["strata_by"], shown["allocation"]) == ("meta.source", "proportional")
    assert {"Web", "web", "Straße", "STRASSE"} <= {s["stratum"] for s in shown["strata"]}
    recorded = open_review(out, None).spot_checks[shown["name"]]
    assert [stratum.to_json() for stratum in recorded.strata.strata] == shown["strata"]
    assert recorded.margin == 0.1 and list(recorded.ids) == shown["ids"]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--strata", "tag:wrong"], "tag: strata need a run file and its review journal"),
        (["--strata", "meta.source", "--prior", "nothing=0.2"], "no --prior names a stratum of meta.source"),
        (["--prior", "Web=0.2"], "--allocation and --prior go with --strata"),
    ],
)
def test_strata_a_dataset_cannot_have_are_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], said: str
) -> None:
    folder = tmp_path / "lake"
    write_lines(folder / "a.jsonl", [line for _, line, _ in strata_runs(20)])
    capsys.readouterr()
    out = str(tmp_path / "s.jsonl")
    code = main(["sample", str(folder), "-o", out, "--view", "all", "-n", "5", "--seed", "1", *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert said in err and "Traceback" not in err
    assert not (tmp_path / "s.jsonl").exists()
