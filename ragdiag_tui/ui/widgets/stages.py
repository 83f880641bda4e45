"""How the UI shows stages: their titles and style classes come from `core.stages.STAGES`."""

from __future__ import annotations

from ...core.runs.stages import STAGES, STYLE_CLASSES

# Every widget that names a stage colours it with the same component class,
# `stage--<css>`, so each stage's colour is written once, in ragdiag.tcss.
STAGE_STYLE_CLASSES = STYLE_CLASSES
STAGE_TITLES = tuple(stage.title for stage in STAGES)

# Marks a lucky answer (labelled correct, required evidence missing) everywhere:
# the table, the summary, the detail pane and the help screen.
LUCKY_MARK = "★"
OVERTURNED_MARK = "☆"  # lucky in the file, its label overturned by review (still listed in L)
HELD_MARK = "◆"  # another reviewer is on this run (a shared store's reservation)

# Marks a run in conflict (its reviewers set different labels, no adjudication yet):
# the table, the summary, the detail pane and the help screen.
CONFLICT_MARK = "≠"


def stage_style(code: int) -> str:
    """The `.stage--x` style of a stage code, for `Content.assemble`."""
    return "." + STAGES[code].style_class


def label_word(label: bool | None) -> str:
    return "correct" if label is True else "incorrect" if label is False else "none"
