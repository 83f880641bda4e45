"""The report of a review: its figures (model, evidence), drawn (charts) and written as one
self-contained HTML page (html_page, over html_sections, html_spot_checks, html_text and
page_style) or as Markdown (markdown); `write_report` writes either.

The names below are this package's public face; each is imported from its module on first
use, so importing one module of the package does not load the rest.
"""

from ...common.lazy import public_api

__getattr__, __all__ = public_api(
    __name__,
    {
        "charts": ["ChartsUnavailable", "INSTALL", "require_matplotlib"],
        "dataset": ["dataset_figures", "hold_reviewed_runs"],
        "model": [
            "DEFAULT_LIMIT",
            "DatasetFigures",
            "ReportData",
            "ReportError",
            "ReportOptions",
            "build_dataset_report",
            "build_report",
        ],
        "write": ["FORMATS", "default_report_path", "report_format", "write_report"],
    },
)
