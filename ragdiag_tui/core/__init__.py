"""The pure core: runs, the rule, loading, the store, reviews, export and statistics.

Nothing here imports Textual or Rich (an import-linter contract in pyproject.toml checks it).
"""
