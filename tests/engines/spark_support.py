"""What the Spark engine's tests share: the Java check, one local session for the whole
test session, the local path's answers to compare with, and a standalone cluster."""

from __future__ import annotations

import atexit
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE_RUNS = REPO / "sample_runs"
JAVA_VERSION = re.compile(rb'version "(\d+)(?:\.(\d+))?')


def java_major() -> int | None:
    """The major version of the `java` Spark would start (JAVA_HOME's, else PATH's); None without one."""
    home = os.environ.get("JAVA_HOME")
    java = str(Path(home, "bin", "java")) if home else shutil.which("java")
    if not java or not os.path.exists(java):
        return None
    done = subprocess.run([java, "-version"], capture_output=True, check=False)
    found = JAVA_VERSION.search(done.stderr + done.stdout)
    if not found:
        return None
    major = int(found.group(1))
    return int(found.group(2) or 0) if major == 1 else major


def require_spark() -> None:
    """Skip, saying why, where Spark cannot run: no pyspark, or no Java 17+."""
    pytest.importorskip("pyspark", reason="pyspark (the `spark` extra) is not installed")
    major = java_major()
    if major is None:
        pytest.skip("no Java found (Spark needs Java 17 or newer; .ci/run installs openjdk-17-jre-headless)")
    if major < 17:
        pytest.skip(f"Java {major} found; Spark needs Java 17 or newer")


_SESSION: list[Any] = []

FAST_START = {
    "JDK_JAVA_OPTIONS": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions"
    " -XX:-BytecodeVerificationRemote -XX:-UsePerfData"
}
"""The JVMs of the tests start on the quick compiler alone: on a small, busy machine their start-up
costs half as much, and the little data they see never needs the optimising one. They also skip
checking the bytecode of the classes they load (Spark's own jars; a sixth of a JVM's start-up)
and the shared-memory counters that only monitoring tools read."""


def _start(master: str, extra: dict[str, str] | None = None) -> Any:
    """A session on `master`. The first in the process starts the JVM, on the quick start-up
    options; a later one starts a new Spark application in the same JVM."""
    from ragdiag_tui.engines.spark.session import build_session

    before = os.environ.get("JDK_JAVA_OPTIONS")
    os.environ.update(FAST_START)  # read by the JVM that build_session starts
    try:
        return build_session(master, extra)
    finally:
        if before is None:
            del os.environ["JDK_JAVA_OPTIONS"]
        else:
            os.environ["JDK_JAVA_OPTIONS"] = before


def _stop_shared() -> None:
    if _SESSION:
        _SESSION.pop().stop()


def shared_session() -> Any:
    """One local[2] session for every Spark test of this process, stopped at exit: the engine
    uses a running session as it is and leaves it running. A test on the standalone cluster
    (`cluster_session`) stops it; the next call starts it again, in the same JVM."""
    require_spark()
    if not _SESSION:
        _SESSION.append(_start("local[2]"))
        # After pyspark's own exit handlers, so run before them; once per start (a second call stops nothing).
        atexit.register(_stop_shared)
    return _SESSION[0]


ONE_SESSION = pytest.mark.xdist_group("spark-session")
"""Marks the tests that use the shared session: under `--dist loadgroup` (the suite's addopts)
they all run in one xdist worker, so the suite starts one JVM (about 7 s of two busy cores)
instead of one per worker. The test on the standalone cluster is one of them: its driver is
that JVM too."""


@pytest.fixture
def spark() -> Any:
    """The shared session, running (the cluster test may have stopped the one before)."""
    return shared_session()


# -- a standalone cluster on 127.0.0.1 -----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Daemon:
    """A Spark daemon (master or worker) in its own process group, its output read by a thread
    so that a test waits for the line that says it is ready."""

    def __init__(self, args: list[str], env: dict[str, str], ready: str) -> None:
        self.lines: list[str] = []
        self.ready = threading.Event()
        self.ended = threading.Event()
        self.process = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        self._reader = threading.Thread(target=self._read, args=(ready,), daemon=True)
        self._reader.start()

    def _read(self, ready: str) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace")
            self.lines.append(line)
            if ready in line:
                self.ready.set()
        self.ended.set()
        self.ready.set()  # a daemon that died is not going to be ready: stop waiting

    def wait_ready(self, timeout: float = 120) -> None:
        self.ready.wait(timeout)
        if self.ended.is_set() or not self.ready.is_set():
            raise RuntimeError("Spark daemon did not start:\n" + "".join(self.lines[-30:]))

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@contextmanager
def standalone_cluster(work: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """A master and one worker (1 core, 1 GB) on 127.0.0.1, started with the scripts that ship
    with pyspark; yields the master URL and the environment a driver should run with."""
    import pyspark

    home = Path(pyspark.__file__).parent
    spark_class = str(home / "bin" / "spark-class")
    work.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "SPARK_HOME": str(home),
        "SPARK_LOCAL_IP": "127.0.0.1",
        "SPARK_LOG_DIR": str(work / "logs"),
        "SPARK_WORKER_DIR": str(work / "worker"),
        "SPARK_NO_DAEMONIZE": "1",
        "PYSPARK_PYTHON": sys.executable,
        **FAST_START,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    }
    port = free_port()
    url = f"spark://127.0.0.1:{port}"
    master_args = ["--host", "127.0.0.1", "--port", str(port), "--webui-port", "0"]
    master = Daemon([spark_class, "org.apache.spark.deploy.master.Master", *master_args], env, "leader")
    daemons = [master]
    try:
        master.wait_ready()
        worker_args = ["--host", "127.0.0.1", "--webui-port", "0", "--cores", "1", "--memory", "1g"]
        worker_args += ["--work-dir", str(work / "worker")]
        worker = Daemon(
            [spark_class, "org.apache.spark.deploy.worker.Worker", url, *worker_args],
            env,
            "Successfully registered with master",
        )
        daemons.append(worker)
        worker.wait_ready()
        yield url, env
    finally:
        for daemon in reversed(daemons):
            daemon.stop()


@contextmanager
def cluster_session(master: str, env: dict[str, str]) -> Iterator[Any]:
    """A session on the standalone cluster at `master` in this process: the shared local
    session, if running, is stopped first (one SparkContext a JVM), and its JVM drives the
    cluster, so the test pays for no second driver. `env` is `standalone_cluster`'s."""
    _stop_shared()
    session = _start(
        master,
        {
            "spark.driver.host": "127.0.0.1",
            "spark.driver.bindAddress": "127.0.0.1",
            "spark.executorEnv.PYTHONPATH": env["PYTHONPATH"],
        },
    )
    try:
        yield session
    finally:
        session.stop()
