"""The table of stages is the one source: the store's codes, the views and the styles derive from it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ragdiag_tui.core.analysis.filtering import VIEW_BY_NAME
from ragdiag_tui.core.analysis.stats import STAGE_ORDER
from ragdiag_tui.core.runs import stages
from ragdiag_tui.core.runs.rule import diagnose
from ragdiag_tui.core.runs.store import RunStore

TCSS = Path(stages.__file__).parents[2] / "ui" / "ragdiag.tcss"


def test_every_diagnosis_has_a_code_and_the_store_gives_it_back(tmp_path: Path) -> None:
    runs = [
        {"required": ["a"], "context": [], "correct": True},
        {"required": ["a"], "context": ["a"], "correct": False},
        {"required": ["a"], "context": ["a"], "correct": True},
        {"required": [], "context": []},
        {"required": ["a"], "context": ["a"]},
    ]
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(map(json.dumps, runs)) + "\nnot json\n")
    store = RunStore.load(path)
    assert list(store.stage) == [s.code for s in stages.STAGES]
    for row, run in enumerate(runs):
        assert stages.stage_code(diagnose(run)) == store.stage[row]
        assert store.diagnosis(row) == diagnose(run)


def test_each_stage_has_a_view_under_its_key() -> None:
    for stage in stages.STAGES:
        view = VIEW_BY_NAME[stage.name]
        assert (view.key, view.title) == (stage.key, stage.view_title)


def test_the_statistics_count_the_rule_stages_in_table_order() -> None:
    assert tuple(s.name for s in stages.STAGES if s.code != stages.S_INVALID) == STAGE_ORDER


def test_each_stage_colour_is_written_once_in_the_styles() -> None:
    css = TCSS.read_text()
    for stage in stages.STAGES:
        assert len(re.findall(rf"^\.{stage.style_class} \{{ color: ", css, re.MULTILINE)) == 1, stage.name
    # No widget keeps a stage class of its own (`run-table--pass` and the like).
    words = "|".join(re.escape(s.css) for s in stages.STAGES)
    assert not re.findall(rf"[a-z]-[a-z]+--(?:{words})\b", css)
