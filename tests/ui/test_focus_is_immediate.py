"""Every focus change the UI makes takes effect before the next key is handled.

`Widget.focus()` waits a turn; keys typed in one burst are already queued by then,
so a deferred focus change made by one key (a view key moving focus to the table)
can land after the next key (`/`) focused the filter, and steal the keys meant for
it. The UI therefore focuses through `typeahead.focus_now`. This test reads the UI
code and fails on any direct `.focus()` call.
"""

from __future__ import annotations

import ast
from pathlib import Path

import ragdiag_tui.ui

UI = Path(ragdiag_tui.ui.__file__).parent


def test_the_ui_never_defers_a_focus_change() -> None:
    deferred = []
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "focus"
                and path.name != "typeahead.py"
            ):
                deferred.append(f"{path.relative_to(UI)}:{node.lineno}")
    assert deferred == [], "use typeahead.focus_now(widget) instead of widget.focus()"
    assert any(UI.rglob("*.py"))
