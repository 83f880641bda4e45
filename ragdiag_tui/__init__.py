"""ragdiag-tui: review diagnoses of RAG runs: retrieval, generation, pass, unresolved."""

from .core.runs.rule import InvalidRun, diagnose

__all__ = ["InvalidRun", "__version__", "diagnose"]
__version__ = "0.1.0"
