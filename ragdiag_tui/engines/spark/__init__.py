"""The Spark engine: `diagnose`, `stats` and `sample` of a dataset, locally or on a cluster.

Needs the `spark` extra (pyspark) and Java 17 or newer. `master` is any Spark master URL
(`local[*]`, the default, or `spark://HOST:PORT`); the Python workers run the interpreter
running the command.
"""

from .engine import diagnose, sample, stats
from .session import DEFAULT_MASTER, SparkUnavailable

__all__ = ["DEFAULT_MASTER", "SparkUnavailable", "diagnose", "sample", "stats"]
