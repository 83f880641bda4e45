"""A file whose runs hold none of the rule's fields: the app says so at once, with the
fields they hold and the command line that maps them."""

from __future__ import annotations

import json
from pathlib import Path

from ragdiag_tui.core.runs.mapping import FieldMap
from ragdiag_tui.ui.app import create_app

from .helpers import SIZE, loaded, record_notifications, table, wait_until


def write_nested(path: Path, count: int) -> Path:
    runs = (
        {"meta": {"id": f"q{n}"}, "gold": ["D1"], "retrieved": ["D1"], "label": n % 2 == 0}
        for n in range(count)
    )
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    return path


async def test_an_unmapped_file_is_told_with_its_fields_and_how_to_map_them(tmp_path: Path) -> None:
    path = write_nested(tmp_path / "nested.jsonl", 30)
    app = create_app(path, reviewer="tester")
    notes = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: any("rule's fields" in note for note, _ in notes), "the warning")
        (note, severity), *_ = [(note, severity) for note, severity in notes if "rule's fields" in note]
        assert severity == "warning"
        assert f"{path}: no run has the rule's fields (required, context, correct)" in note
        assert "Its runs' fields: meta{id}, gold, retrieved, label." in note
        assert (
            f"ragdiag-tui review {path} --map id=meta.id --map required=gold --map context=retrieved"
            " --map correct=label" in note
        )
        await pilot.press("r")  # the retrieval view: empty, and its message says why
        await wait_until(pilot, lambda: not screen.rows, "the empty view")
        assert "no run has the rule's fields" in table(pilot).empty_message


async def test_a_mapped_file_is_not_told(tmp_path: Path) -> None:
    path = write_nested(tmp_path / "nested.jsonl", 3)
    field_map = FieldMap.from_specs(["required=gold", "context=retrieved", "correct=label"])
    app = create_app(path, reviewer="tester", field_map=field_map)
    notes = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.pause()
        assert not any("rule's fields" in note for note, _ in notes)
        assert table(pilot).empty_message == "No runs match this view and filter."
