"""`sample --strata` over a dataset in DuckDB (the exact path for JSON Lines, SQL for Parquet):
the same strata, sizes and ids as the local path draws from the same runs in one file, each
stratum its n_h smallest keys by the hash definition. (Spark's: test_spark_engine.py.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.analysis.stratify import StrataPlan
from ragdiag_tui.core.review.state import open_review

from .conftest import dataset, read_jsonl
from .strata_support import (
    assert_hash_definition,
    assert_same_draw,
    local_draw,
    strata_runs,
    write_lines,
    write_struct_parquet,
)

engine = pytest.importorskip("ragdiag_tui.engines.duckdb", reason="the duckdb extra is not installed")

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
