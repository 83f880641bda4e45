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

from .helpers import detail_text, loaded, screen_lines, wait_until

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


async def test_the_rule_in_force_is_written_in_the_summary_the_detail_and_statistics(tmp_path: Path) -> None:
    run = {"reference_contexts": [NEEDED], "retrieved_contexts": [OTHER, NEAR], "answer_correctness": 0.9}
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(run) + "\n", encoding="utf-8")
    field_map = FieldMap.from_specs(
        ["correct=answer_correctness"], "ragas", "similarity", label_threshold=0.7
    )
    app = create_app(path, reviewer="tester", field_map=field_map)
    rule = "correct = answer_correctness >= 0.7 · texts, similarity > 0.5"
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await wait_until(pilot, lambda: rule in screen_lines(app)[0] + screen_lines(app)[1], "the rule shown")
        summary = [line for line in screen_lines(app)[:2] if rule in line]
        assert summary and len(summary[0]) <= 80  # compact: whole on a line of 80 columns
        assert "Read as" in detail_text(app) and rule in detail_text(app)  # beside the file's label
        await pilot.press("s")
        stats_rule = f"read as: {rule}"
        await wait_until(pilot, lambda: stats_rule in "\n".join(screen_lines(app)), "the statistics' rule")


async def test_the_id_lists_show_each_texts_start_beside_its_content_id(tmp_path: Path) -> None:
    hostile = "Escapes \x1b[31m and [b]markup[/b] stay as written, on one line\nof text " + "long " * 40
    run = {"reference_contexts": [NEEDED], "retrieved_contexts": [OTHER, hostile], "score": 0.9}
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(run) + "\n", encoding="utf-8")
    field_map = FieldMap.from_specs(["correct=score"], "ragas", label_threshold=0.5)
    app = create_app(path, reviewer="tester", field_map=field_map)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        lines = detail_text(app).splitlines()
        listed = [line for line in lines if line.startswith(("✗", "✓", "+"))]
        missing = next(line for line in listed if content_id(NEEDED) in line)
        assert "missing" in missing and "Laptops must use" in missing  # the text beside its ID
        extra = next(line for line in listed if content_id(hostile) in line)
        assert "Escapes \\x1b[31m and [b]" in extra and extra.endswith("…")  # cut, one line
        assert "\x1b" not in detail_text(app)
        supplied = next(line for line in listed if content_id(OTHER) in line)
        assert "Deploys go out" in supplied
        await pilot.press("s")  # the statistics' most-missed documents: the text beside the ID
        missed = f"{content_id(NEEDED)}  Laptops must use"
        await wait_until(pilot, lambda: missed in "\n".join(screen_lines(app)), "the most-missed text")
