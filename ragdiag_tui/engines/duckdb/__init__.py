"""The DuckDB engine: diagnose, stats and sample over a dataset, on one machine, out of core.

Parquet files whose columns have the rule's types are read by SQL (`schema`, `sql`):
the rule as a query, every core, spilling to disk past the memory limit. JSON Lines
files, and Parquet files with other column types, are read by the local loader run by
run (`pyrows`), so their verdicts and invalid lines are the local path's by
construction. Both feed the same outputs; see engines.results for what is shared.
"""

from __future__ import annotations

from .diagnose import diagnose
from .sample import sample
from .stats import stats

__all__ = ["diagnose", "sample", "stats"]
