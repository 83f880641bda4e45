"""One sentence per diagnosis, in the words of the rule and its worked cases.

Pure: no Textual, no Rich. The review app shows these under the stage of the
highlighted run; every ID in them has already passed through `visible`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..common.text import visible
from ..runs.rule import GENERATION, LABEL_ERROR, PASS, RETRIEVAL, UNRESOLVED, json_type_name

ABSENT: Any = object()
"""`raw_label` when the run has no `correct` field at all."""

MAX_NAMED = 3  # IDs named in a sentence before "and N more"


def id_list(ids: Sequence[str]) -> str:
    """'D1', 'D1 and D2', 'D1, D2 and D3', 'D1, D2, D3 and 4 more'."""
    shown = [visible(i) for i in ids[:MAX_NAMED]]
    rest = len(ids) - len(shown)
    if rest:
        return f"{', '.join(shown)} and {rest} more"
    if len(shown) <= 1:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def describe_label(raw_label: object) -> str:
    """How a file's `correct` value reads: 'true', 'absent', '"yes" (a string)'."""
    if raw_label is ABSENT:
        return "absent"
    if raw_label is True or raw_label is False or raw_label is None:
        return json.dumps(raw_label)
    text = visible(json.dumps(raw_label, ensure_ascii=False))
    if len(text) > 40:
        text = text[:39] + "…"
    return f"{text} (a {json_type_name(raw_label)})"


def reason(diagnosis: Mapping[str, Any], label: bool | None, raw_label: object = ABSENT) -> str:
    """Why the rule gave this diagnosis, in one sentence.

    `label` is the label in force; `raw_label` is the file's `correct` value, used
    to say what was wrong with it when there is no Boolean label.
    """
    stage = diagnosis.get("stage")
    missing = diagnosis.get("missing") or ()
    if stage == UNRESOLVED:
        return (
            "No required documents are declared, so the diagnosis is unprepared: "
            "nothing can be attributed to retrieval or generation."
        )
    if diagnosis.get("error") == LABEL_ERROR:
        scored = raw_label.__class__ in (int, float) and raw_label == raw_label  # a score, not NaN
        return (
            "Without a Boolean staff label, the evaluator cannot call the answer "
            f"correct or incorrect (the label here is {describe_label(raw_label)})."
            + (
                " A score? --label-threshold T makes it a label: correct when the score is >= T."
                if scored
                else ""
            )
        )
    if stage == RETRIEVAL and label is True:
        return (
            f"Labelled correct, but {id_list(missing)} never reached the model: it answered "
            "without a document it needed. A lucky answer: the retriever failed, so it counts "
            "as a retrieval gap, not a pass."
        )
    if stage == RETRIEVAL:
        return (
            f"{id_list(missing)} never reached the model, so the retriever failed first: "
            "fix retrieval before judging the answer itself."
        )
    if stage == GENERATION:
        return (
            "Every required document reached the model, yet the answer is labelled incorrect: "
            "the fault lies in generation."
        )
    if stage == PASS:
        return "Every required document reached the model and the answer is labelled correct."
    return f"Diagnosis: {visible(json.dumps(dict(diagnosis)))}"


def invalid_reason(line: int, detail: str) -> str:
    """The sentence for a line the rule cannot evaluate."""
    return f"Line {line} is not a run the rule can evaluate, so it has no diagnosis: {visible(detail)}."
