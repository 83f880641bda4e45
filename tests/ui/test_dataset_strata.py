"""A stratified spot-check from `D` over a dataset read in place: drawn as
`sample DATASET --strata FIELD` draws it (the same runs, served in the same order), recorded
in the dataset's journal with its strata and opened; its conclusion (the strata's table, may
stop) is that of the same spot-check over one file of the same runs. `tag:` strata are
refused in the dialog, before any scan."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ragdiag_tui.core.analysis.spotcheck import spot_check_report
from ragdiag_tui.core.analysis.stratify import StrataPlan, draw_stratified
from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.runs.source_store import SourceStore
from ragdiag_tui.engines.dataset import open_dataset

from .helpers import loaded, wait_until
from .test_dataset_review import SIZE, lake_app, write_lake

pytest.importorskip("duckdb")
from ragdiag_tui.engines.duckdb.review_rows import DatasetRows


async def fill_sample_dialog(pilot, **fields: str) -> object:
    from textual.widgets import Input

    from ragdiag_tui.ui.screens.sample import SampleDialog

    app = pilot.app
    await pilot.press("D")
    await wait_until(pilot, lambda: isinstance(app.screen, SampleDialog), "the sample dialog")
    dialog = app.screen
    for name, value in fields.items():
        dialog.query_one(f"#sample-{name}", Input).value = value
    await pilot.press("enter")
    return dialog


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_a_stratified_d_over_a_lake_draws_sample_datasets_runs_and_concludes_as_one_file(
    tmp_path: Path, kind: str
) -> None:
    from ragdiag_tui.cli import main

    lake, one = write_lake(tmp_path, kind)
    out = tmp_path / "s.jsonl"
    command = ["sample", str(lake), "--view", "all", "-n", "12", "--seed", "7", "--strata", "model"]
    assert main([*command, "-o", str(out)]) == 0
    expected = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    local = draw_stratified(open_review(one), "all", 12, 7, StrataPlan("model", "proportional", None, 0.05))
    assert list(local.ids) == expected  # one definition: one file's D draws the same runs
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await fill_sample_dialog(pilot, size="12", seed="7", strata="model", name="by-model")
        await wait_until(pilot, lambda: screen.spot_check == "by-model", "the spot-check to open", seconds=20)
        assert [screen.store.ids[row] for row in screen.rows] == expected
        await pilot.press("y", "n", "y", "y")
        await wait_until(pilot, lambda: screen.review.reviewed == 4, "four labels")
    records = [json.loads(line) for line in Path(f"{lake}.review.jsonl").read_text().splitlines()]
    drawn = [record for record in records if record.get("kind") == "spot-check"]
    assert drawn[0]["ids"] == expected and drawn[0]["strata"]
    shutil.copy(f"{lake}.review.jsonl", journal_path(one))
    on_lake = open_review(
        str(lake), store=SourceStore(DatasetRows(open_dataset([str(lake)]))), writable=False
    )
    in_file = open_review(one, writable=False)
    assert on_lake.spot_checks["by-model"].strata == local.strata
    lake_report = spot_check_report(on_lake, on_lake.spot_checks["by-model"])
    assert lake_report == spot_check_report(in_file, in_file.spot_checks["by-model"])
    assert lake_report.reviewed == 4


async def test_tag_strata_over_a_lake_are_refused_in_the_dialog(tmp_path: Path) -> None:
    from textual.widgets import Static

    lake, _one = write_lake(tmp_path, "parquet")
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        dialog = await fill_sample_dialog(pilot, size="12", seed="7", strata="tag:wrong-doc")
        error = dialog.query_one("#sample-error", Static)
        await wait_until(pilot, lambda: "tag: strata need a run file" in str(error.visual), "the refusal")
        assert app.screen is dialog and screen.spot_check is None
