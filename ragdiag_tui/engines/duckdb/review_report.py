"""What a dataset reviewed in place gives the statistics screen's report (`r`), as part of its
`RowSource` (review_rows.DatasetRows): a source of its own for the report's worker, the counts
with the review applied (`reviewed.reviewed_stats`, what `stats DATASET --json` prints), and
the files' size and number for the report's header."""

from __future__ import annotations

from typing import Any, Self

from ...core.runs.mapping import FieldMap
from ..dataset import Dataset


class ReportFacts:
    """The report's part of a dataset's row source (mixed into `DatasetRows`)."""

    ds: Dataset
    field_map: FieldMap | None

    def reopened(self) -> Self:
        """The same dataset through a source of its own: its own DuckDB connection and caches,
        for a worker while this one serves the screen."""
        return type(self)(self.ds, self.field_map)  # type: ignore[call-arg]

    def reviewed_stats(self, review: Any, top: int) -> dict[str, Any]:
        """`stats DATASET --json` with `review` (of this dataset, read in place) applied."""
        from . import reviewed_stats

        return reviewed_stats(self.ds, self.field_map, review, top=top)

    def footprint(self) -> tuple[int, int]:
        """The bytes of the dataset's files, and how many files it has."""
        return sum(path.stat().st_size for path in self.ds.files), len(self.ds.files)
