"""The pure core: everything the tool knows, with no screen. The CLI, the app and every
test of logic use it; nothing here imports Textual or Rich.

Five packages, each using only those below it (import-linter contracts in pyproject.toml):

- `output`: what leaves the tool: export of reviewed runs, the streaming `diagnose` writer.
- `analysis`: views and filters, sorting, statistics, spot-check samples and estimates,
  agreement, blind-review counts, comparing two run files, baselines, explanations.
- `review`: review state over a store (`Review`), the journal file, the PostgreSQL store
  and its spool, merging journals, reason tags.
- `runs`: the rule and its stages, formats and detection, field mapping, loading, the
  columnar `RunStore`, ID metrics, the document corpus.
- `common`: visible text, the JSON rules, atomic writes, paths.
"""
