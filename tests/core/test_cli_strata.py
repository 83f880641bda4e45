"""Stratified, sequential spot-checks through the command line: `sample --strata`, `stats`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.analysis.sequence import anytime_interval
from ragdiag_tui.core.analysis.stratify import serving_order

from .test_cli_spotcheck import by_key, journal_label, journal_records, run_cli

WriteRuns = Callable[..., Path]


def model_runs(write_runs: WriteRuns, sizes: dict[str, int]) -> Path:
    """Lucky answers of each model (nested under meta.model), in an interleaved file order."""
    runs: list[Any] = []
    for model, size in sizes.items():
        runs += [
            {"id": f"{model}-{i}", "meta": {"model": model}, "required": ["a", "b"], "context": ["a"],
             "correct": True}
            for i in range(size)
        ]  # fmt: skip
    runs.append({"id": "bare", "required": ["a", "b"], "context": ["a"], "correct": True})
    return write_runs(runs)


SIZES = {"small": 10, "big": 60, "mid": 30}


def test_each_stratum_is_drawn_by_the_hash_definition_and_the_ids_interleave(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = model_runs(write_runs, SIZES)
    code, out, _ = run_cli(
        capsys,
        "sample",
        path,
        "--view",
        "lucky",
        "-n",
        "20",
        "--seed",
        "7",
        "--strata",
        "meta.model",
        "--json",
    )
    assert code == 0
    shown = json.loads(out)
    strata = {stratum["stratum"]: stratum for stratum in shown["strata"]}
    assert list(strata) == ["small", "big", "mid", "(none)"]
    assert {name: (s["population"], s["size"]) for name, s in strata.items()} == {
        "small": (10, 2), "big": (60, 11), "mid": (30, 6), "(none)": (1, 1),
    }  # fmt: skip
    for name, stratum in strata.items():
        ids = [f"{name}-{i}" for i in range(SIZES[name])] if name in SIZES else ["bare"]
        assert stratum["ids"] == by_key(ids, stratum["size"], 7)
    assert shown["ids"] == serving_order({name: s["ids"] for name, s in strata.items()})
    assert sorted(shown["ids"]) == sorted(i for s in strata.values() for i in s["ids"])
    (record,) = journal_records(path)
    assert record["strata_by"] == "meta.model" and record["allocation"] == "proportional"
    assert record["strata"] == shown["strata"]


def test_the_serving_order_keeps_each_stratums_share_within_one_label() -> None:
    drawn = {
        "A": [f"a{i}" for i in range(49)],
        "B": [f"b{i}" for i in range(33)],
        "C": [f"c{i}" for i in range(18)],
    }
    order = serving_order(drawn)
    for k in range(1, len(order) + 1):
        for name, ids in drawn.items():
            taken = sum(1 for run_id in order[:k] if run_id[0] == name.lower())
            assert abs(taken - k * len(ids) / 100) <= 1


def test_neyman_with_priors_and_auto_plans_the_combined_interval(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = model_runs(write_runs, {"small": 100, "big": 600, "mid": 300})
    priors = "small=0.4,big=0.05,mid=0.1"
    argv = ["sample", path, "--view", "lucky", "-n", "auto", "--margin", "0.05", "--seed", "1",
            "--strata", "meta.model", "--allocation", "neyman", "--prior", priors, "--json"]  # fmt: skip
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0
    sizes = {s["stratum"]: s["size"] for s in json.loads(out)["strata"]}
    assert sizes["small"] > sizes["mid"] * 100 / 300  # the 40% stratum gets more than its share
    assert sizes["(none)"] == 1
    assert sum(sizes.values()) < 278  # the flat -n auto of a thousand runs
    (record,) = journal_records(path)
    assert record["margin"] == 0.05


def test_bad_strata_options_exit_2(capsys: pytest.CaptureFixture[str], write_runs: WriteRuns) -> None:
    path = model_runs(write_runs, SIZES)
    base = ["sample", path, "--view", "lucky", "-n", "5", "--seed", "1"]
    assert run_cli(capsys, *base, "--allocation", "neyman")[0] == 2  # without --strata
    with pytest.raises(SystemExit):
        run_cli(capsys, *base, "--strata", "meta.model", "--prior", "small=2")
    code, _, err = run_cli(
        capsys, *base, "--strata", "meta.model", "--allocation", "neyman", "--prior", "x=0.1"
    )
    assert code == 2 and "no --prior names a stratum of meta.model" in err
    assert journal_records(path) == []


def label_stratum(path: Path, ids: list[str], overturned: int) -> None:
    for i, run_id in enumerate(ids):
        journal_label(path, run_id, i >= overturned)  # a lucky answer labelled false is overturned


def test_stats_reports_each_stratum_the_combined_rate_and_names_the_stratum_apart(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = model_runs(write_runs, {"small": 40, "big": 40})
    argv = ["sample", path, "--view", "lucky", "-n", "60", "--seed", "3", "--strata", "meta.model", "--json"]
    strata = {s["stratum"]: s["ids"] for s in json.loads(run_cli(capsys, *argv)[1])["strata"]}
    label_stratum(path, strata["small"], overturned=len(strata["small"]) - 1)  # nearly all overturned
    label_stratum(path, strata["big"], overturned=0)
    label_stratum(path, strata["(none)"], overturned=0)
    code, out, _ = run_cli(capsys, "stats", path, "--json")
    assert code == 0
    (report,) = json.loads(out)["spot_checks"]
    assert report["strata_by"] == "meta.model"
    by_name = {s["stratum"]: s for s in report["strata"]}
    small, big = by_name["small"], by_name["big"]
    assert small["overturned"] == len(strata["small"]) - 1 and big["overturned"] == 0
    weights = {name: s["population"] / 81 for name, s in by_name.items()}
    expected = sum(weights[name] * s["overturned"] / s["settled"] for name, s in by_name.items())
    assert report["overturned_rate"]["estimate"] == pytest.approx(expected)
    assert report["overturned_rate_anytime"]["low"] <= expected <= report["overturned_rate_anytime"]["high"]
    assert report["may_stop"] is False and report["margin"] is None
    _, text, _ = run_cli(capsys, "stats", path)
    line = next(line for line in text.splitlines() if "stand" in line and "apart" in line)
    assert "small:" in line


def test_a_sequential_spot_check_may_stop_and_its_conclusion_is_the_anytime_interval(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = model_runs(write_runs, {"m": 200})
    argv = ["sample", path, "--view", "lucky", "-n", "auto", "--margin", "0.1", "--seed", "5", "--json"]
    ids = json.loads(run_cli(capsys, *argv)[1])["ids"]
    assert len(ids) == 66
    reviewed = 40
    label_stratum(path, ids[:reviewed], overturned=0)  # none overturned: the interval closes on 0
    _, out, _ = run_cli(capsys, "stats", path, "--json")
    (report,) = json.loads(out)["spot_checks"]
    anytime = anytime_interval(0, reviewed, 201)
    assert anytime is not None and (anytime.high - anytime.low) / 2 <= 0.1
    assert report["overturned_rate_anytime"] == {
        "estimate": 0.0,
        "low": anytime.low,
        "high": anytime.high,
        "exact": False,
    }
    assert report["may_stop"] is True and report["margin"] == 0.1
    _, text, _ = run_cli(capsys, "stats", path)
    assert f"anytime 95% CI 0-{100 * anytime.high:.0f}%, valid at any stopping point" in text
    assert "you may stop: 0% ± " in text


def test_the_report_draws_the_strata_with_their_intervals(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = model_runs(write_runs, {"small": 20, "big": 20})
    argv = ["sample", path, "--view", "lucky", "-n", "10", "--seed", "3", "--strata", "meta.model", "--json"]
    strata = {s["stratum"]: s["ids"] for s in json.loads(run_cli(capsys, *argv)[1])["strata"]}
    for ids in strata.values():
        label_stratum(path, ids, overturned=1)
    out = path.parent / "report.md"
    code, _, _ = run_cli(capsys, "report", path, "-o", out)
    assert code == 0
    assert "Chart: ![Strata of lucky\\-10](report-strata-0.svg)" in out.read_text(encoding="utf-8")
    chart = (path.parent / "report-strata-0.svg").read_text(encoding="utf-8")
    assert "Combined, anytime" in chart and "small" in chart and "big" in chart


def test_the_same_stratified_draw_records_once_and_another_field_needs_another_name(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = model_runs(write_runs, SIZES)
    argv = ["sample", path, "--view", "lucky", "-n", "20", "--seed", "7", "--name", "s"]
    assert run_cli(capsys, *argv, "--strata", "meta.model")[0] == 0
    code, _, err = run_cli(capsys, *argv, "--strata", "meta.model")
    assert code == 0 and "already recorded" in err
    code, _, err = run_cli(capsys, *argv, "--strata", "stage")
    assert code == 2 and "stratified by meta.model; choose another --name" in err
    assert len(journal_records(path)) == 1


def test_a_stratified_spot_checks_tag_rates_are_stratified_too(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = model_runs(write_runs, {"small": 10, "big": 90})
    argv = ["sample", path, "--view", "lucky", "-n", "20", "--seed", "3", "--strata", "meta.model", "--json"]
    strata = {s["stratum"]: s["ids"] for s in json.loads(run_cli(capsys, *argv)[1])["strata"]}
    for name, ids in strata.items():
        for i, run_id in enumerate(ids):
            tagged = name == "small" or i == 0
            journal_label(path, run_id, False, ["answer-wrong"] if tagged else [])
    (report,) = json.loads(run_cli(capsys, "stats", path, "--json")[1])["spot_checks"]
    by_name = {s["stratum"]: s for s in report["strata"]}
    expected = sum(
        s["population"] / 101 * s["tags"]["answer-wrong"]["count"] / s["settled"] for s in by_name.values()
    )
    assert report["tags"]["answer-wrong"]["rate"]["estimate"] == pytest.approx(expected)
    assert report["tags"]["answer-wrong"]["count"] == sum(
        s["tags"]["answer-wrong"]["count"] for s in by_name.values()
    )


def test_a_stratum_named_with_control_characters_prints_them_escaped(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = model_runs(write_runs, {"[bold]evil\x1b[2J": 10, "plain": 10})
    argv = ["sample", path, "--view", "lucky", "-n", "8", "--seed", "3", "--strata", "meta.model", "--json"]
    strata = {s["stratum"]: s["ids"] for s in json.loads(run_cli(capsys, *argv)[1])["strata"]}
    assert "[bold]evil\x1b[2J" in strata  # the journal and --json keep the value as it is
    for name, ids in strata.items():
        label_stratum(path, ids, overturned=len(ids) if name == "plain" else 0)
    _, text, _ = run_cli(capsys, "stats", path)
    assert "\x1b" not in text
    assert "stratum [bold]evil\\x1b[2J:" in text
