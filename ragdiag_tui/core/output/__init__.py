"""What leaves the tool: export of the reviewed runs, the streaming `diagnose` writer, and
the report (HTML or Markdown, with charts and the evidence).
Uses every other part of the core.

The names below are this package's public face; each is imported from its module on
first use, so importing one module of the package does not load the rest.
"""

from ..common.lazy import public_api

__getattr__, __all__ = public_api(
    __name__,
    {
        "diagnose": ["diagnose_file"],
        "export": [
            "ExportError",
            "FORMATS",
            "REVIEW_FIELDS",
            "default_export_path",
            "export_reviewed",
            "export_runs",
            "exported_run",
            "format_for_path",
            "format_named_by",
            "protected_paths",
            "refuse_sources",
        ],
        "report": ["ReportError", "ReportOptions", "build_report", "write_report"],
    },
)
