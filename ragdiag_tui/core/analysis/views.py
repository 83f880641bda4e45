"""The views a reviewer picks runs by: their keys, names and titles, those of a baseline,
and the views a sample may be drawn from. Only names here, no rows: `filtering`,
`baseline` and `sampling` compute the views' rows, so the command line's parser and the
app's first frame name the views without loading them."""

from __future__ import annotations

from dataclasses import dataclass

from ..runs.stages import STAGES


@dataclass(frozen=True, slots=True)
class View:
    key: str  # the one key that selects it
    name: str
    title: str


VIEWS = (
    View("a", "all", "All runs"),
    *(View(stage.key, stage.name, stage.view_title) for stage in STAGES),  # one view per stage
    View("L", "lucky", "Lucky answers"),
    View("U", "unreviewed", "Unreviewed"),
    View("R", "reviewed", "Reviewed"),
    View("C", "conflicts", "Conflicts"),
)
VIEW_BY_NAME = {view.name: view for view in VIEWS}

SAMPLE_VIEWS = tuple(name for name in VIEW_BY_NAME if name != "conflicts")
"""The view names a sample may be drawn from, as the command line spells them. Not the
conflicts view: a conflict is settled by adjudication, every one of them, not sampled."""

BASELINE_VIEWS = (
    View("~", "changed", "Changed since the baseline"),
    View("+", "fixed", "Fixed since the baseline"),
    View("-", "regressed", "Regressed since the baseline"),
)
BASELINE_VIEW_BY_NAME = {view.name: view for view in BASELINE_VIEWS}
NO_RUN = 255  # a baseline's `was` of a run that OLD does not have
NOT_COMPARABLE = 254  # its `was` of a run whose OLD run (same id) asked another question
