"""The Spark session a command runs in: started quiet, with this interpreter for its Python workers.

A session already running in the process (a test's shared one, a notebook's) is used
as it is and left running; one started here is stopped when the command ends.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..results import EngineError

DEFAULT_MASTER = "local[*]"
APP_NAME = "ragdiag-tui"
MAX_SHUFFLE_PARTITIONS = 200
SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions"

# Only errors reach the terminal: Spark's start-up notices and warnings would bury the output.
# The loggers of the classes that start Spark for Python are at the root's level too (else Spark
# says it sets a default level); the transport's complaint of requests outstanding when a session
# stops is a known, harmless race; a failed task is said once, by the driver (`engine_errors`),
# not also in the executor's and the scheduler's stack traces.
_LOG4J2 = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
logger.repl.name = org.apache.spark.repl.Main
logger.repl.level = error
logger.submit.name = org.apache.spark.deploy.SparkSubmit
logger.submit.level = error
logger.gateway.name = org.apache.spark.api.python.PythonGatewayServer
logger.gateway.level = error
logger.closing.name = org.apache.spark.network.client.TransportResponseHandler
logger.closing.level = fatal
logger.task.name = org.apache.spark.executor.Executor
logger.task.level = fatal
logger.taskset.name = org.apache.spark.scheduler.TaskSetManager
logger.taskset.level = fatal
"""


class SparkUnavailable(RuntimeError):
    """pyspark is not installed. The message names the extra."""


def _log_config() -> str:
    """A log4j2 configuration file that keeps Spark to errors on stderr (written once per process)."""
    path = Path(tempfile.gettempdir()) / f"ragdiag-spark-log4j2-{os.getuid()}.properties"
    if not path.is_file() or path.read_text(encoding="utf-8") != _LOG4J2:
        path.write_text(_LOG4J2, encoding="utf-8")  # writes-ok: Spark's own log settings, in tmp
    return str(path)


def use_this_interpreter() -> None:
    """Spark's Python workers run the interpreter running this command (a venv works as is).
    Set before the session starts: the workers inherit it."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable


def build_session(master: str = DEFAULT_MASTER, extra: dict[str, str] | None = None) -> Any:
    """A new (or the running) SparkSession for `master`, quiet and without its web UI."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise SparkUnavailable("the Spark engine needs pyspark: pip install 'ragdiag-tui[spark]'") from None
    use_this_interpreter()
    log = f"-Dlog4j2.configurationFile=file:{_log_config()}"
    # The driver's JVM starts before any conf is read: its options go on spark-submit's line.
    # (Executors log to their worker's files, not to this terminal.)
    os.environ.setdefault("PYSPARK_SUBMIT_ARGS", f'--driver-java-options "{log}" pyspark-shell')
    builder = (
        SparkSession.builder.master(master)
        .appName(APP_NAME)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.extraJavaOptions", log)
        .config("spark.pyspark.python", sys.executable)
        .config(SHUFFLE_PARTITIONS, "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
    )
    pythonpath = os.environ.get("PYTHONPATH")
    if pythonpath:  # workers find this project where the driver does
        builder = builder.config("spark.executorEnv.PYTHONPATH", pythonpath)
    for key, value in (extra or {}).items():
        builder = builder.config(key, value)
    with quiet_pandas_notice():
        spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


@contextlib.contextmanager
def quiet_pandas_notice() -> Iterator[None]:
    """pyspark warns that it was not tried with the installed pandas; the engine uses Arrow only."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
        yield


def active_session() -> Any:
    """The session already running in this process, or None."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        return None
    return SparkSession.getActiveSession()


_UNREADABLE = re.compile(r"FileUnreadable: (.+)")


@contextlib.contextmanager
def engine_errors() -> Iterator[None]:
    """A Spark job that fails becomes one `results.EngineError`: the file a task could not read,
    or the first line of Spark's own message (not its Java and Python stack traces)."""
    try:
        yield
    except Exception as exc:
        if not type(exc).__module__.startswith(("pyspark", "py4j")):
            raise
        text = str(exc)
        found = _UNREADABLE.search(text)
        if found:
            raise EngineError(found.group(1).strip()) from None
        first = next((line.strip() for line in text.splitlines() if line.strip()), type(exc).__name__)
        raise EngineError(f"Spark could not finish: {first[:300]}") from None


@contextlib.contextmanager
def spark_session(master: str = DEFAULT_MASTER, files: int = 1) -> Iterator[Any]:
    """The session to run one command in: the running one if any (left running), else a new
    one stopped at the end. Shuffles get few partitions when the dataset has few files."""
    spark = active_session()
    owned = spark is None
    if owned:
        spark = build_session(master)
    before = spark.conf.get(SHUFFLE_PARTITIONS)
    spark.conf.set(SHUFFLE_PARTITIONS, str(max(2, min(files, MAX_SHUFFLE_PARTITIONS))))
    try:
        with quiet_pandas_notice(), engine_errors():
            yield spark
    finally:
        if owned:
            spark.stop()
        else:  # a session that is not ours is left as it was
            spark.conf.set(SHUFFLE_PARTITIONS, before)
