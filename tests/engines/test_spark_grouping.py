"""Every test module that uses the shared Spark session, or stops it for the standalone cluster
(`cluster_session`), runs in one xdist worker (one JVM)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

HERE = Path(__file__).parent
USES_SESSION = re.compile(
    r"\b(?:shared|cluster)_session\(|usefixtures\(\"spark\"\)|\bdef test_\w+\([^)]*\bspark\b"
)


def test_the_suite_schedules_by_group() -> None:
    pyproject = tomllib.loads((HERE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert "--dist loadgroup" in pyproject["tool"]["pytest"]["ini_options"]["addopts"]


def test_every_module_using_the_shared_session_is_in_its_group() -> None:
    users = [path for path in sorted(HERE.glob("test_*.py")) if USES_SESSION.search(path.read_text("utf-8"))]
    expected = {"test_spark_engine.py", "test_spark_property.py", "test_spark_cluster.py"}
    assert {path.name for path in users} >= expected
    for path in users:
        assert re.search(r"^pytestmark = .*\bONE_SESSION\b", path.read_text("utf-8"), re.M), path.name
