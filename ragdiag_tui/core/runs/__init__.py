"""The runs: the rule and its stages, run-file formats and their detection, field
mapping and presets, loading with per-line validation, the columnar RunStore, RAGAS ID
metrics, and the document corpus. Uses only `common`.

The names below are this package's public face; each is imported from its module on
first use, so importing one module of the package does not load the rest.
"""

from ..common.lazy import public_api

__getattr__, __all__ = public_api(
    __name__,
    {
        "corpus": [
            "DocStore",
            "DocText",
            "DocsError",
            "DocsSource",
            "check_docs_file",
            "document_text",
            "missed_texts",
            "parse_docs_map",
            "run_texts",
        ],
        "csv_runs": ["INVALID_CSV", "delimiter_for", "neutralise", "plain_id", "restore"],
        "detect": ["detect"],
        "loading": [
            "FileError",
            "INVALID_JSON",
            "INVALID_RUN",
            "LoadError",
            "NO_EXPECTED",
            "Progress",
            "Record",
            "RecordBuilder",
            "Run",
            "check_readable",
            "read_runs",
        ],
        "mapping": [
            "FieldMap",
            "MAPPABLE",
            "MapSpecError",
            "MappedFieldError",
            "PRESETS",
            "SourcePath",
            "literal_id_list",
            "parse_spec",
        ],
        "metrics": [
            "MetricMeans",
            "defined",
            "id_metrics",
            "id_precision",
            "id_recall",
            "metric_means",
        ],
        "rule": [
            "GENERATION",
            "InvalidRun",
            "LABEL_ERROR",
            "PASS",
            "RETRIEVAL",
            "UNRESOLVED",
            "as_diagnosis",
            "diagnose",
            "diagnose_fields",
            "json_type_name",
            "stage_of",
        ],
        "stages": [
            "RULE_STAGE_NAMES",
            "STAGES",
            "STAGE_CODE",
            "STAGE_NAMES",
            "STYLE_CLASSES",
            "S_GENERATION",
            "S_INVALID",
            "S_LABEL_ERROR",
            "S_PASS",
            "S_RETRIEVAL",
            "S_UNRESOLVED",
            "stage_code",
        ],
        "store": ["ANNOUNCE_FIRST", "L_FALSE", "L_NONE", "L_TRUE", "RunStore", "label_value", "store_means"],
    },
)
