"""The DuckDB engine's sample (the sha256 definition, in any file layout), --group-by,
the command line end to end, and the message naming a missing extra."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.analysis.estimate import auto_size, interval_json, wilson
from ragdiag_tui.core.review.state import open_review

from .conftest import dataset, local_stats, read_jsonl, write_jsonl, write_parquet

engine = pytest.importorskip("ragdiag_tui.engines.duckdb", reason="the duckdb extra is not installed")


def make_runs(count: int = 120) -> list[dict[str, Any]]:
    """Runs of every stage; ids with astral and private-use characters among them."""
    runs = []
    for i in range(count):
        kind = i % 6
        run: dict[str, Any] = {
            "id": f"run-{i}" + ("\U0001f600" if i % 7 == 0 else "\ue000" if i % 5 == 0 else "")
        }
        run["required"] = [] if kind == 5 else ["d1", f"d{i % 4}"]
        run["context"] = ["d1"] if kind in (0, 1) else ["d1", "d0", "d2", "d3"]
        run["correct"] = None if kind == 4 else kind in (0, 2)
        run["model"] = ("m1", "m2", None)[i % 3]
        runs.append(run)
    return runs


def key(seed: int, run_id: str) -> str:
    return hashlib.sha256(f"{seed}\x1f{run_id}".encode()).hexdigest()


def lucky(run: dict[str, Any]) -> bool:
    return run["correct"] is True and bool(set(run["required"]) - set(run["context"]))


@pytest.mark.parametrize("view", ["all", "lucky", "generation"])
def test_the_same_seed_draws_the_same_ids_from_one_file_or_split_over_files_in_another_order(
    view: str, tmp_path: Path
) -> None:
    runs = make_runs()
    one = dataset(write_jsonl(tmp_path / "one" / "runs.jsonl", runs))
    for index, name in enumerate(["c.parquet", "a.parquet", "sub/b.parquet"]):  # rows out of file order
        write_parquet(tmp_path / "split" / name, runs[index::3], extra=("model",))
    split = dataset(tmp_path / "split")
    drawn = [engine.sample(ds, None, view=view, filters=[], n=9, seed=20261130, out=tmp_path / f"s{i}.jsonl")
             for i, ds in enumerate((one, split))]  # fmt: skip
    assert drawn[0].ids == drawn[1].ids
    assert drawn[0].population == drawn[1].population
    stage = {"all": lambda run: True, "lucky": lucky,
             "generation": lambda run: run["required"] and run["correct"] is False
             and not set(run["required"]) - set(run["context"])}[view]  # fmt: skip
    population = [run["id"] for run in runs if stage(run)]
    assert drawn[0].population == len(population)
    assert list(drawn[0].ids) == sorted(population, key=lambda run_id: key(20261130, run_id))[:9]
    by_id = {run["id"]: run for run in runs}
    for i in range(2):  # the sample file holds the drawn runs, every field kept, in draw order
        written = read_jsonl(tmp_path / f"s{i}.jsonl")
        assert [run["id"] for run in written] == list(drawn[0].ids)
        assert all(run == {k: v for k, v in by_id[run["id"]].items() if k in run} for run in written)
    assert read_jsonl(tmp_path / "s0.jsonl") == [by_id[run_id] for run_id in drawn[0].ids]


def test_auto_size_filters_and_runs_without_ids(tmp_path: Path) -> None:
    runs = make_runs(300)
    for run in runs[::2]:
        del run["id"]
    ds = dataset(write_parquet(tmp_path / "d" / "a.parquet", runs[:150], extra=("model",)))
    drawn = engine.sample(ds, None, view="all", filters=[("model", "m1")], n="auto", margin=0.2, seed=5,
                          out=tmp_path / "s.jsonl")  # fmt: skip
    named = [run.get("id", f"a.parquet:{line}") for line, run in enumerate(runs[:150], 1)]
    population = [name for name, run in zip(named, runs, strict=False) if run["model"] == "m1"]
    assert drawn.population == len(population)
    assert list(drawn.ids) == sorted(population, key=lambda run_id: key(5, run_id))[: auto_size(50, 0.2)]
    written = read_jsonl(tmp_path / "s.jsonl")
    assert [run["id"] for run in written] == list(drawn.ids)  # a run without an id gets its name


def test_stats_group_by_gives_each_value_its_own_stats_null_last(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = make_runs()
    write_parquet(tmp_path / "d" / "a.parquet", runs[:70], extra=("model",))
    write_parquet(tmp_path / "d" / "b.parquet", runs[70:], extra=("model",))
    result = engine.stats(dataset(tmp_path / "d"), None, group_by="model")
    assert result["group_by"] == "model"
    assert [group["value"] for group in result["groups"]] == ["m1", "m2", None]
    assert result["all"] == local_stats(write_jsonl(tmp_path / "all.jsonl", runs), capsys)
    for group in result["groups"]:
        subset = [run for run in runs if run["model"] == group["value"]]
        path = write_jsonl(tmp_path / f"{group['value']}.jsonl", subset)
        assert group["stats"] == local_stats(path, capsys)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_stats_sample_review_and_the_conclusion_for_the_datasets_population(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = make_runs(240)
    for index in range(4):
        write_parquet(tmp_path / "lake" / f"part-{index}.parquet", runs[index::4], extra=("model",))
    code, out, _ = run_cli(capsys, "stats", str(tmp_path / "lake"), "--engine", "duckdb", "--json")
    assert code == 0
    assert json.loads(out) == local_stats(write_jsonl(tmp_path / "all.jsonl", runs), capsys)
    sample = tmp_path / "SAMPLE.jsonl"
    code, out, err = run_cli(capsys, "sample", str(tmp_path / "lake"), "--view", "lucky", "-n", "8",
                             "--seed", "11", "--name", "lucky-8", "-o", str(sample), "--json")  # fmt: skip
    assert code == 0, err
    drawn = json.loads(out)
    n_lucky = sum(map(lucky, runs))
    assert drawn["population"] == n_lucky
    assert [run["id"] for run in read_jsonl(sample)] == drawn["ids"]
    review = open_review(sample, reviewer="alice")
    assert review.spot_checks["lucky-8"].population == n_lucky
    for number, run_id in enumerate(drawn["ids"][:5]):
        review.set_label(review.store.row_of[run_id], number < 2)  # two held, three overturned
    code, out, _ = run_cli(capsys, "stats", str(sample), "--json")
    report = json.loads(out)["spot_checks"][0]
    assert (report["population"], report["reviewed"], report["overturned"]) == (n_lucky, 5, 3)
    assert report["overturned_rate"] == interval_json(wilson(3, 5, n_lucky))
    code, out, _ = run_cli(capsys, "stats", str(sample))
    assert f"{n_lucky}" in out


def test_diagnose_a_dataset_with_the_engine_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = make_runs(30)
    write_jsonl(tmp_path / "d" / "a.jsonl", runs[:10])
    write_jsonl(tmp_path / "d" / "b.jsonl", [*runs[10:], "{broken"])
    code, _, err = run_cli(
        capsys, "diagnose", str(tmp_path / "d" / "*.jsonl"), "-o", str(tmp_path / "o.parquet")
    )
    assert code == 1
    assert "30 runs" in err and "1 invalid" in err
    code, _, err = run_cli(capsys, "diagnose", str(tmp_path / "d"))
    assert code == 2
    assert "-o OUT" in err


@pytest.mark.parametrize(("engine_name", "package"), [("duckdb", "duckdb"), ("spark", "pyspark")])
def test_a_missing_extra_is_one_line_naming_it(
    engine_name: str, package: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    write_jsonl(tmp_path / "d" / "a.jsonl", make_runs(3))
    monkeypatch.setitem(sys.modules, package, None)  # the import fails, as without the extra
    code, out, err = run_cli(capsys, "stats", str(tmp_path / "d"), "--engine", engine_name)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert f"pip install 'ragdiag-tui[{engine_name}]'" in err


def test_a_single_run_file_keeps_the_local_path_unless_an_engine_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_jsonl(tmp_path / "runs.jsonl", make_runs(12))
    monkeypatch.setitem(sys.modules, "duckdb", None)
    code, out, _ = run_cli(capsys, "stats", str(path), "--json", "--no-journal")
    assert code == 0
    assert "spot_checks" in json.loads(out)  # the local command's output
    code, _, err = run_cli(capsys, "stats", str(path), "--engine", "duckdb")
    assert code == 2
    assert "ragdiag-tui[duckdb]" in err


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_a_margin_too_small_to_compute_draws_the_whole_population_in_key_order(
    fmt: str, tmp_path: Path
) -> None:
    runs = make_runs(60)
    write = write_jsonl if fmt == "jsonl" else write_parquet
    ds = dataset(write(tmp_path / "d" / f"a.{fmt}", runs[:30]), write(tmp_path / "d" / f"b.{fmt}", runs[30:]))
    drawn = engine.sample(ds, None, view="lucky", filters=[], n="auto", margin=1e-170, seed=9,
                          out=tmp_path / "s.jsonl")  # fmt: skip
    population = [run["id"] for run in runs if lucky(run)]
    assert list(drawn.ids) == sorted(population, key=lambda run_id: key(9, run_id))


def test_a_dataset_whose_runs_hold_none_of_the_rules_fields_says_how_to_map_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    from .conftest import REPO

    for index in range(2):
        shutil.copy(REPO / "sample_runs" / "llamaindex_retrieval.jsonl", tmp_path / f"{index}.jsonl")
    code, _, err = run_cli(capsys, "stats", str(tmp_path), "--json")
    assert code == 0
    assert "--map" in err and str(tmp_path) in err
    code, out, err = run_cli(capsys, "stats", str(tmp_path), "--json", "--preset", "llamaindex")
    assert "--map FIELD=SOURCE" not in err
    assert json.loads(out)["stages"]["unresolved"] < json.loads(out)["runs"]


def test_a_datasets_spot_check_records_its_filter_as_typed_as_the_local_sample_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = make_runs(60)
    write_parquet(tmp_path / "lake" / "part-0.parquet", runs, extra=("model",))
    local = write_jsonl(tmp_path / "all.jsonl", runs)
    common = ("--view", "all", "--filter", "model:M1", "-n", "5", "--seed", "3", "--name", "m1", "--json")
    lake, out_file = str(tmp_path / "lake"), str(tmp_path / "S.jsonl")
    code, out, err = run_cli(capsys, "sample", lake, *common, "-o", out_file)
    assert code == 0, err
    assert "matching 'model:M1'" in err
    code, local_out, err = run_cli(capsys, "sample", str(local), *common)
    assert code == 0, err
    assert json.loads(out)["ids"] == json.loads(local_out)["ids"]  # M1 matches m1, any case
    recorded = open_review(tmp_path / "S.jsonl", reviewer="x").spot_checks["m1"]
    assert recorded.filter == open_review(local, reviewer="x").spot_checks["m1"].filter == "model:M1"


@pytest.mark.parametrize(("view", "n"), [("reviewed", 5), ("lucky", -1), ("lucky", True), ("lucky", "many")])
def test_a_view_or_size_a_dataset_cannot_draw_is_refused_before_reading(
    tmp_path: Path, view: str, n: Any
) -> None:
    from ragdiag_tui.core.analysis.sampling import SampleError

    ds = dataset(write_jsonl(tmp_path / "d" / "a.jsonl", make_runs(6)).parent)
    with pytest.raises(SampleError):
        engine.sample(ds, None, view=view, filters=[], n=n, seed=1, out=tmp_path / "S.jsonl")
    assert not (tmp_path / "S.jsonl").exists()
