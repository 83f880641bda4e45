"""The stages: one table that the store, the views, the titles and the styles all derive from.

A row of a run file is in exactly one stage: one of the rule's four outcomes, the
label error (`{"error": "answer-label"}`), or `invalid` for a line that is not a run
the rule can evaluate. Each stage has

- `code`: the byte the store keeps for the row (its position in `STAGES`);
- `name`: the rule's word (`diagnosis["stage"]`, or `diagnosis["error"]` for the label
  error), also the name of the view that shows the stage's rows;
- `title`: the word on screen;
- `css`: the style class the UI colours it with (`stage--<css>`, in ui/ragdiag.tcss);
- `key` and `view_title`: the key that selects its view, and that view's heading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .rule import GENERATION, LABEL_ERROR, PASS, RETRIEVAL, UNRESOLVED, stage_of

INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class Stage:
    code: int
    name: str
    title: str
    css: str
    key: str
    view_title: str

    @property
    def style_class(self) -> str:
        """The component class of the stage's colour, the same in every widget."""
        return f"stage--{self.css}"


STAGES = (
    Stage(0, RETRIEVAL, "retrieval", "retrieval", "r", "Retrieval"),
    Stage(1, GENERATION, "generation", "generation", "g", "Generation"),
    Stage(2, PASS, "pass", "pass", "p", "Pass"),
    Stage(3, UNRESOLVED, "unresolved", "unresolved", "u", "Unresolved"),
    Stage(4, LABEL_ERROR, "label error", "label-error", "l", "Label error"),
    Stage(5, INVALID, "invalid", "invalid", "i", "Invalid lines"),
)
assert all(stage.code == code for code, stage in enumerate(STAGES))

S_RETRIEVAL, S_GENERATION, S_PASS, S_UNRESOLVED, S_LABEL_ERROR, S_INVALID = (s.code for s in STAGES)
STAGE_NAMES = tuple(stage.name for stage in STAGES)
STAGE_CODE = {stage.name: stage.code for stage in STAGES}
"""The code of each stage name; a diagnosis's code is `STAGE_CODE[stage_of(diagnosis)]`."""
RULE_STAGE_NAMES = STAGE_NAMES[:S_INVALID]
"""The rule's outcomes, in table order: every stage but `invalid`."""
STYLE_CLASSES = frozenset(stage.style_class for stage in STAGES)
"""Every stage's style class, for a widget's COMPONENT_CLASSES."""


def stage_code(diagnosis: Mapping[str, Any]) -> int:
    """The code of a diagnosis (as `rule.diagnose` returns it)."""
    return STAGE_CODE[stage_of(diagnosis)]
