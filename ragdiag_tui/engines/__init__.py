"""Engines: diagnose, count and sample a *dataset* (a folder, a glob or several run files,
Parquet or JSON Lines) that is read in place, never loaded whole.

Above the core (which never imports this package) and below the command line; the
review app does not need it. Each engine is a sub-package exposing the same three
functions (keyword options may be added, such as `master=` for Spark):

    diagnose(ds, mapping, out) -> results.DiagnoseSummary
    stats(ds, mapping, *, group_by=None, top=10) -> dict
    sample(ds, mapping, *, view, filters, n, margin, seed, out, strata=None) -> results.SampleSummary

(`strata`, a core.analysis.stratify.StrataPlan, draws each stratum apart).

`dataset` says what a dataset is; `results` holds what the engines return and the
definitions they share (a run's id in a dataset, the views, `--filter`, the sample key,
a field's text); `records` and `output` the pieces of reading and writing both engines
use, and `strata` the stratified draw they share (the engines never import each other).
Each engine needs its optional extra (`duckdb`, `spark`); `load_engine` says which.
"""

from __future__ import annotations

import importlib
from types import ModuleType

ENGINES = ("duckdb", "spark")
EXTRAS = {"duckdb": ("duckdb", "pyarrow"), "spark": ("pyspark", "pyarrow")}
"""Each engine's extra, and the packages it brings."""


class EngineUnavailable(RuntimeError):
    """An engine whose extra is not installed. The message names the extra."""


def install_hint(engine: str) -> str:
    return f"pip install 'ragdiag-tui[{engine}]'"


def load_engine(engine: str) -> ModuleType:
    """The engine's module (`ragdiag_tui.engines.<engine>`), imported now.

    Raises EngineUnavailable, naming the extra, when a package of its extra is missing.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine '{engine}'; engines: {', '.join(ENGINES)}")
    try:
        for package in EXTRAS[engine]:
            importlib.import_module(package)
        return importlib.import_module(f"{__name__}.{engine}")
    except ImportError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing in EXTRAS[engine] or missing == "py4j":
            raise EngineUnavailable(
                f"the {engine} engine needs {missing}, which is not installed: {install_hint(engine)}"
            ) from None
        raise
