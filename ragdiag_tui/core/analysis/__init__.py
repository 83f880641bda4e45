"""The analysis: views and filters, sorting, statistics, spot-check samples and their
estimates, agreement between reviewers, blind-review counts, comparing two run files,
baselines, and the plain-language reasons. Uses `review`, `runs` and `common`.

The names below are this package's public face; each is imported from its module on
first use, so importing one module of the package does not load the rest.
"""

from ..common.lazy import public_api

__getattr__, __all__ = public_api(
    __name__,
    {
        "agreement": ["Agreement", "agreement", "figure", "format_agreement", "percent", "review_agreement"],
        "baseline": ["Baseline", "Offer", "open_baseline"],
        "blind": ["blind_spot_checks", "shown_counts"],
        "compare": ["compare_files", "compare_stores", "format_comparison"],
        "estimate": ["Interval", "auto_size", "effective_size", "interval_json", "wilson", "wilson_at"],
        "explain": ["ABSENT", "MAX_NAMED", "describe_label", "id_list", "invalid_reason", "reason"],
        "filtering": [
            "LABEL_STAGE_CODES",
            "field_values",
            "filter_rows",
            "narrows",
            "parse_query",
            "row_matches",
            "view_rows",
        ],
        "lucky": [
            "LUCKY_IN_FILE",
            "OVERTURNED",
            "STILL_LUCKY",
            "is_lucky_in_file",
            "is_overturned_lucky",
            "lucky_in_file",
            "lucky_view_rows",
        ],
        "sampling": [
            "NOUNS",
            "Sample",
            "SampleError",
            "default_name",
            "draw",
            "draw_ids",
            "draw_sample",
            "population",
            "population_ids",
            "sample_key",
            "sample_plan",
        ],
        "sequence": ["StratumLabels", "anytime_interval", "combined_anytime", "confidence_set", "may_stop"],
        "sorting": ["ASCENDING", "DESCENDING", "FILE_ORDER", "SORT_COLUMNS", "sort_rows"],
        "spotcheck": [
            "SpotCheckReport",
            "earlier_rates",
            "format_spot_checks",
            "spot_check_report",
            "spot_check_reports",
        ],
        "strata": [
            "ALLOCATIONS",
            "StratumCount",
            "allocate",
            "parse_priors",
            "plan_sizes",
            "stratified_estimate",
        ],
        "stratify": [
            "StrataPlan",
            "draw_stratified",
            "field_stratum",
            "serving_order",
            "strata_sizes",
            "stratified_record",
            "stratum_of",
            "stratum_text",
        ],
        "stats": [
            "STAGE_ORDER",
            "Stats",
            "format_table",
            "review_document",
            "review_stats",
            "stats_document",
        ],
        "views": [
            "BASELINE_VIEWS",
            "BASELINE_VIEW_BY_NAME",
            "NOT_COMPARABLE",
            "NO_RUN",
            "SAMPLE_VIEWS",
            "VIEWS",
            "VIEW_BY_NAME",
        ],
    },
)
