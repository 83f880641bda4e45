"""The DuckDB engine: diagnose, stats and sample over a dataset, on one machine, out of core.

Parquet files whose columns have the rule's types are read by SQL (`schema`, `sql`):
the rule as a query, every core, spilling to disk past the memory limit. JSON Lines
files, and Parquet files with other column types, are read by the local loader run by
run (`pyrows`), so their verdicts and invalid lines are the local path's by
construction. Both feed the same outputs; see engines.results for what is shared. A
Parquet string that is not UTF-8 stops SQL: the command runs again with its file read
exactly (`bad_text`).
"""

from __future__ import annotations

from .bad_text import retrying
from .diagnose import diagnose as _diagnose
from .reviewed import reviewed_stats as _reviewed_stats
from .stats import stats as _stats
from .stratified import sample as _sample

diagnose = retrying(_diagnose)
sample = retrying(_sample)
stats = retrying(_stats)
reviewed_stats = retrying(_reviewed_stats)

__all__ = ["diagnose", "reviewed_stats", "sample", "stats"]
