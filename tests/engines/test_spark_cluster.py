"""The Spark engine on a real cluster: a standalone master and one worker on 127.0.0.1, started
with the scripts that ship with pyspark, and the CLI pointed at it with --master. Its commands
run in one Spark application, driven by the JVM of the shared local session (stopped for the
test), so the test pays for one executor and no second driver."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main as ragdiag_tui
from ragdiag_tui.engines.results import sample_key

from .conftest import local_stats, read_jsonl, write_jsonl
from .spark_support import ONE_SESSION, SAMPLE_RUNS, cluster_session, require_spark, standalone_cluster

pytestmark = ONE_SESSION  # its driver is the JVM of the shared session's worker

LUCKY_DEMO = [
    "run-0005",
    "run-0019",
    "run-0020",
    "run-0024",
    "run-0031",
    "run-0045",
    "run-0067",
    "run-0076",
    "run-0079",
]  # fmt: skip  (sample_runs/README.md)


def _command(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Run a `ragdiag-tui` command in this process: its exit status and what it printed."""
    status = ragdiag_tui(args)
    printed = capsys.readouterr()
    return {"status": status, "stdout": printed.out, "stderr": printed.err}


def test_stats_and_sample_on_a_standalone_cluster_equal_the_local_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_spark()
    runs = read_jsonl(SAMPLE_RUNS / "demo.jsonl")
    lake = tmp_path / "lake"
    write_jsonl(lake / "day=2" / "runs.jsonl", runs[:30])
    write_jsonl(lake / "day=1" / "runs.jsonl", runs[30:])
    sample_file = tmp_path / "spot" / "sample.jsonl"
    sample_file.parent.mkdir()
    with standalone_cluster(tmp_path / "cluster") as (master, env), cluster_session(master, env) as session:
        assert session.sparkContext.master == master
        on_cluster = ("--engine", "spark", "--master", master)
        stats = _command(["stats", str(lake), *on_cluster, "--json"], capsys)
        drawn = _command(
            ["sample", str(lake), *on_cluster, "--view", "lucky", "-n", "4", "--seed", "11", "--name", "spot",
             "-o", str(sample_file), "--json"],
            capsys,
        )  # fmt: skip
    assert stats["status"] == 0, stats["stderr"]
    assert json.loads(stats["stdout"]) == local_stats(SAMPLE_RUNS / "demo.jsonl", capsys)
    assert drawn["status"] == 0, drawn["stderr"]
    expected = sorted(LUCKY_DEMO, key=lambda run_id: sample_key(11, run_id))[:4]
    assert json.loads(drawn["stdout"])["ids"] == expected
    assert [run["id"] for run in read_jsonl(sample_file)] == expected
    # The sample file on its own: its spot-check, over the dataset's 9 lucky answers.
    assert ragdiag_tui(["stats", str(sample_file), "--json"]) == 0
    (spot_check,) = json.loads(capsys.readouterr().out)["spot_checks"]
    assert (spot_check["name"], spot_check["population"]) == ("spot", len(LUCKY_DEMO))
