"""Documents given as texts in the app (issue 38): the document panel shows the texts the run
carries (no corpus), a required text not supplied first, with its best similarity (RAGAS's) and
the closest supplied text; hostile text (markup, escapes) shows as written."""

from __future__ import annotations

import json
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from ragdiag_tui.core.runs.mapping import FieldMap
from ragdiag_tui.core.runs.texts import content_id
from ragdiag_tui.ui.app import create_app

from .helpers import detail_text, loaded, wait_until

NEEDED = "Laptops must use full-disk encryption; keys are escrowed with IT security."
NEAR = "Laptops must use full disk encryption; keys are escrowed by IT security [/]\x1b[31m."
OTHER = "Deploys go out on Tuesdays and Thursdays."


async def test_the_panel_shows_a_missing_text_and_the_closest_supplied_one(tmp_path: Path) -> None:
    run = {
        "user_input": "How are laptops protected?",
        "reference_contexts": [NEEDED],
        "retrieved_contexts": [OTHER, NEAR],
        "score": 0.9,
    }
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(run) + "\n", encoding="utf-8")
    # Exactly: the near copy is not the text, so the run is a lucky answer.
    field_map = FieldMap.from_specs(["correct=score"], "ragas", label_threshold=0.5)
    app = create_app(path, reviewer="tester", field_map=field_map)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        assert content_id(NEEDED) in detail_text(app)
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: "Closest" in detail_text(app), "the closest supplied text")
        text = detail_text(app)
        assert "required · missing" in text and "keys are escrowed with IT security." in text
        similarity = 1 - Levenshtein.normalized_distance(NEAR, NEEDED)  # RAGAS's, independently
        assert f"similarity {similarity:.3f} (RAGAS's)" in text
        assert "by IT security [/]\\x1b[31m." in text  # markup and escapes shown as written
