"""The review: every reviewer's labels, tags and notes over a RunStore (`Review`), the
records every review store passes, the journal file, the PostgreSQL store and its spool,
merging journals, and reason tags.
Uses `runs` and `common`.

The names below are this package's public face; each is imported from its module on
first use, so importing one module of the package does not load the rest.
"""

from ..common.lazy import public_api

__getattr__, __all__ = public_api(
    __name__,
    {
        "journal": ["Journal", "journal_path"],
        "labels": ["ReviewerState", "TeamLabels"],
        "merge": ["merge_journals"],
        "records": [
            "ADJUDICATION",
            "Entry",
            "JournalError",
            "Record",
            "SpotCheck",
            "Strata",
            "Stratum",
            "digest",
            "parse_record",
            "utc_now",
        ],
        "reviewlog": ["JOURNAL_ENV", "ReviewLog", "open_log"],
        "postgres": ["PgJournal", "SCHEMA_VERSION", "fingerprint", "spool_path"],
        "state": ["Review", "ReviewOptions", "journal_applied", "open_review"],
        "tags": ["DEFAULT_TAGS", "MAX_TAGS", "Tag", "TagsError", "load_tags", "tag_by_number"],
    },
)
