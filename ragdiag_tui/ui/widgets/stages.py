"""How the UI names stages, and the style class of each; indexed by stage code."""

from __future__ import annotations

from ...core.store import STAGES

# Display words, by stage code (`store.STAGES` order).
STAGE_TITLES = ("retrieval", "generation", "pass", "unresolved", "label error", "invalid")

# Suffixes of the component classes that colour each stage (see ragdiag.tcss).
STAGE_CLASSES = ("retrieval", "generation", "pass", "unresolved", "label-error", "invalid")

assert len(STAGE_TITLES) == len(STAGE_CLASSES) == len(STAGES)

# Marks a lucky answer (labelled correct, required evidence missing) everywhere:
# the table, the summary, the detail pane and the help screen.
LUCKY_MARK = "★"


def label_word(label: bool | None) -> str:
    return "correct" if label is True else "incorrect" if label is False else "none"
