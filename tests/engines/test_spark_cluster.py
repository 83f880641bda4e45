"""The Spark engine on a real cluster: a standalone master and one worker on 127.0.0.1, started
with the scripts that ship with pyspark, and the CLI pointed at it with --master (its commands
run in one Spark application, so the test pays for one driver and one executor)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main as ragdiag_tui
from ragdiag_tui.engines.results import sample_key

from .conftest import local_stats, read_jsonl, write_jsonl
from .spark_support import (
    REPO,
    SAMPLE_RUNS,
    require_spark,
    standalone_cluster,
)

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


def _commands(master: str, env: dict[str, str], *commands: list[str]) -> list[dict[str, Any]]:
    """Run `ragdiag-tui` commands in one Spark application on `master` (see spark_cluster_driver)."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.engines.spark_cluster_driver", master, json.dumps(list(commands))],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


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
    with standalone_cluster(tmp_path / "cluster") as (master, env):
        on_cluster = ("--engine", "spark", "--master", master)
        stats, drawn = _commands(
            master,
            env,
            ["stats", str(lake), *on_cluster, "--json"],
            ["sample", str(lake), *on_cluster, "--view", "lucky", "-n", "4", "--seed", "11", "--name", "spot",
             "-o", str(sample_file), "--json"],
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
