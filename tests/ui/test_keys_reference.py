"""The guide's keys page (docs/guide/keys.md) is generated from the help screen's key table by
scripts/keys_reference.py: the committed page must be what the script writes now, and the
table must hold every binding of the review screen once, grouped by task."""

from __future__ import annotations

from pathlib import Path

from textual.binding import Binding

from ragdiag_tui.ui.screens.review.keys import KEY_SECTIONS, SCREEN_BINDINGS, TAG_BINDINGS
from ragdiag_tui.ui.widgets.table.run_table import RunTable

from ..scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "guide" / "keys.md"
TASKS = ("Move", "Label", "Views", "Spot-checks", "Team", "Baseline", "Statistics and export", "Help")


def test_the_committed_keys_page_is_what_the_script_writes_now() -> None:
    page = load_script("keys_reference").render()
    assert PAGE.read_text(encoding="utf-8") == page, "run: python scripts/keys_reference.py"


def test_every_screen_binding_is_in_exactly_one_task() -> None:
    listed = [binding for _, bindings in KEY_SECTIONS for binding in bindings]
    own = [binding for binding in SCREEN_BINDINGS if isinstance(binding, Binding)]
    assert len(own) == len(SCREEN_BINDINGS)
    own = [binding for binding in own if binding not in TAG_BINDINGS]  # listed by the tag set in force
    assert sorted(b.key for b in listed) == sorted([b.key for b in own] + [b.key for b in RunTable.BINDINGS])


def test_the_sections_are_the_tasks_in_order() -> None:
    titles = [section for section, _ in KEY_SECTIONS]
    assert len(titles) == len(TASKS)
    for title, task in zip(titles, TASKS, strict=True):
        assert title.startswith(task), (title, task)
    page = PAGE.read_text(encoding="utf-8")
    positions = [page.index(f"## {title}") for title in titles]
    assert positions == sorted(positions)
