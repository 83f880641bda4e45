"""Every screen, drawn over hostile side inputs (tag names and descriptions from a --tags
file, a colleague's notes, tags and spot-check names in the journal, run ids), sends no
control character to the terminal: ESC, BEL and C1 codes show as visible escapes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from ragdiag_tui.core.review.tags import load_tags
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.help import HelpScreen
from ragdiag_tui.ui.screens.sample import SampleDialog
from ragdiag_tui.ui.screens.spot_check_list import SpotCheckList
from ragdiag_tui.ui.screens.statistics import StatisticsScreen

from .helpers import loaded, screen_text, table, wait_until

# Each would act if it reached the terminal: clear the screen, write the clipboard (ended by
# BEL or by ST), the same through the one-byte C1 CSI, a bell, a carriage return.
WIPE = "\x1b[2J"
CLIPBOARD_BEL = "\x1b]52;c;cHduZWQ=\x07"
CLIPBOARD_ST = "\x1b]52;c;cHduZWQ=\x1b\\"
C1_WIPE = "\x9b2J"
HOSTILE = [WIPE, CLIPBOARD_BEL, CLIPBOARD_ST, C1_WIPE, "\x07bell\rreturn"]
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")

TAG_KEYS = ["wipe", "clip-bel", "clip-st", "c1", "bell"]
RUN_IDS = [f"run-{n}{text}" for n, text in enumerate(HOSTILE)]


def write_tags(path: Path) -> None:
    entries = [
        f"[[tag]]\nkey = {json.dumps(key)}\nname = {json.dumps('name ' + text)}\n"
        f"description = {json.dumps('description ' + text)}\n"
        for key, text in zip(TAG_KEYS, HOSTILE, strict=True)
    ]
    path.write_text("".join(entries), encoding="utf-8")  # JSON's \u escapes are TOML's too


def write_runs(path: Path) -> None:
    runs = [
        {
            "id": run_id,
            "question": f"question {text}",
            "required": ["D1", f"D{text}"],
            "context": ["D1"],
            "correct": True,
        }
        for run_id, text in zip(RUN_IDS, HOSTILE, strict=True)
    ]
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    at = "2026-11-30T15:00:00.000000Z"
    records: list[dict[str, Any]] = [
        {
            "v": 1,
            "run": run_id,
            "label": False,
            "note": f"note {text}",
            "tags": [*TAG_KEYS, f"odd{text}"],
            "reviewer": f"mallory{text}",
            "at": at,
        }
        for run_id, text in zip(RUN_IDS, HOSTILE, strict=True)
    ]
    records.append(
        {
            "v": 1,
            "kind": "spot-check",
            "name": f"check{WIPE}{CLIPBOARD_BEL}",
            "view": "all",
            "filter": "",
            "seed": 1,
            "population": 5,
            "size": 2,
            "ids": RUN_IDS[:2],
            "reviewer": f"lead{C1_WIPE}",
            "at": at,
        }
    )
    Path(f"{path}.review.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def written(app: App[Any]) -> str:
    """Every character the active screen's widgets send to the terminal now: the text of
    each segment of each line they draw (styles travel apart, as escape codes Textual makes)."""
    parts = []
    for widget in app.screen.walk_children(with_self=True):
        if widget.display and widget.region:
            for y in range(widget.size.height):
                parts.extend(segment.text for segment in widget.render_line(y))
    return "".join(parts)


def assert_clean(app: App[Any], where: str, expect: str) -> None:
    text = written(app)
    found = sorted(set(CONTROL.findall(text)) | set(CONTROL.findall(screen_text(app).replace("\n", ""))))
    assert not found, f"{where} writes control characters {found!r} to the terminal"
    assert expect in text, f"{where}: {expect!r} is not drawn"


async def opened(pilot: Pilot, key: str, screen_type: type) -> None:
    await pilot.press(key)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, screen_type), f"{key} to open its screen")
    await pilot.pause()


async def test_every_screen_draws_hostile_names_notes_and_ids_as_visible_text(tmp_path: Path) -> None:
    tags_file, runs = tmp_path / "tags.toml", tmp_path / "runs.jsonl"
    write_tags(tags_file)
    write_runs(runs)
    app = create_app(runs, reviewer="tester", tags=load_tags(tags_file))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("M")  # the tags column too
        for row in range(len(RUN_IDS)):
            table(pilot).cursor = row
            await pilot.pause()
            assert_clean(app, f"the review screen on run {row}", "name \\x1b[2J")
        assert "\\x9b2J" in written(app) and "\\x1b]52;c;cHduZWQ=\\x07" in written(app)
        await pilot.press("slash", *"tag:wipe", "enter")
        await pilot.pause()
        assert len(screen.rows) == len(RUN_IDS)
        assert_clean(app, "the filtered review screen", "run-0\\x1b[2J")
        await opened(pilot, "question_mark", HelpScreen)
        assert_clean(app, "the help screen", "name \\x1b]52;c;cHduZWQ=\\x1b\\")
        await pilot.press("escape")
        await opened(pilot, "s", StatisticsScreen)
        assert_clean(app, "the statistics screen", "name \\x1b[2J")
        await pilot.press("escape")
        await opened(pilot, "D", SampleDialog)
        assert_clean(app, "the sample dialog", "Margin")
        await pilot.press("escape")
        await opened(pilot, "K", SpotCheckList)
        assert_clean(app, "the spot-check list", "check\\x1b[2J")
        assert app.is_running
