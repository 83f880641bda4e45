"""The helpers read the screen as the SVG screenshot shows it: `screen_lines` against the
reading of `App.export_screenshot` it replaced, on screens with markup, wide characters,
control characters, a filter, a note box and the help over the review screen."""

from __future__ import annotations

import html
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from textual.app import App

from ragdiag_tui.ui.app import create_app

from .helpers import SIZE, loaded, screen_lines, wait_until

_TEXT = re.compile(
    r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="([\d.]+)"[^>]*-line-(\d+)\)">(.*?)</text>'
)


def svg_lines(app: App[Any]) -> list[str]:
    """The screen's lines read from `App.export_screenshot`: each `<text>` of the SVG is a run
    of characters at a cell position on a line."""
    lines: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for x, length, line, escaped in _TEXT.findall(app.export_screenshot()):
        text = html.unescape(escaped).replace("\xa0", " ")
        cell_width = float(length) / len(text)
        lines[int(line)].append((round(float(x) / cell_width), text))
    out = []
    for y in range(app.size.height):
        drawn = ""
        for column, text in sorted(lines.get(y, ())):
            drawn += " " * max(0, column - cell_len(drawn)) + text
        out.append(drawn.rstrip())
    return out


def _runs(path: Path) -> Path:
    runs = [
        {"id": "[/]", "required": ["D1"], "context": ["D1"], "correct": True, "question": "a\u00a0b  c"},
        {"id": "[@click=app.quit]x[/]", "required": ["D1"], "context": [], "correct": True},
        {"id": "宽字符-漢字", "required": ["文書"], "context": ["文書"], "correct": False, "question": "全"},
        {
            "id": "ctl\x1b[31m",
            "required": ["D\x07"],
            "context": ["D\x07"],
            "correct": None,
            "answer": "é\u0301",
        },
    ]
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    return path


async def test_screen_lines_are_the_svg_screenshots_lines(tmp_path: Path) -> None:
    app = create_app(_runs(tmp_path / "runs.jsonl"), reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        seen = [screen_lines(app)]
        assert seen[0] == svg_lines(app)
        await pilot.press("down", "down")  # the wide characters in the detail pane
        seen.append(screen_lines(app))
        assert seen[-1] == svg_lines(app)
        await pilot.press("slash", *"ctl")  # the filter box, one match
        seen.append(screen_lines(app))
        assert seen[-1] == svg_lines(app)
        await pilot.press("escape", "c", *"a note [b]x[/b]")  # the note box over the screen
        seen.append(screen_lines(app))
        assert seen[-1] == svg_lines(app)
        await pilot.press("escape", "question_mark")  # the help screen over the review screen
        await wait_until(pilot, lambda: app.screen is not screen, "the help screen")
        await pilot.pause()
        seen.append(screen_lines(app))
        assert seen[-1] == svg_lines(app)
        assert len({tuple(lines) for lines in seen}) == len(seen)  # five different screens
        assert any("宽字符" in line for line in seen[1])
