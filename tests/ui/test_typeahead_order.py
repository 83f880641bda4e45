"""Held keys keep their order: a key read while earlier ones wait for a box is held behind them.

Seen in the pseudo-terminal test `c`, `nyc y n`, ctrl+s: the note dialog's box took focus
while the first keys were held, the last keys read went straight into it, and the note
was saved as "nnyc y" (the held keys landed after them).
"""

from __future__ import annotations

from typing import Any

from textual import events

from ragdiag_tui.ui.typeahead import MAX_WAIT, Typeahead


class FakeApp:
    """What Typeahead uses of the app: the focus, refresh callbacks, posted messages, its screens."""

    def __init__(self) -> None:
        self.screen: Any = object()  # a screen without a gate
        self.screen_stack: list[Any] = [self.screen]
        self.focused: Any = "table"
        self.callbacks: list[Any] = []
        self.posted: list[events.Key] = []

    def call_after_refresh(self, callback: Any) -> bool:
        self.callbacks.append(callback)
        return True

    def post_message(self, message: events.Key) -> bool:
        self.posted.append(message)
        return True

    def set_timer(self, delay: float, callback: Any) -> None:
        self.callbacks.append(callback)

    def refresh(self) -> None:
        callbacks, self.callbacks = self.callbacks, []
        for callback in callbacks:
            callback()


def test_a_key_read_while_others_are_held_is_held_behind_them() -> None:
    app = FakeApp()
    typeahead = Typeahead(app)  # type: ignore[arg-type]
    first = events.Key("n", "n")
    assert not typeahead.dispatched(first)  # sent to the table
    app.focused = None  # `c` opened the note dialog, still mounting
    assert typeahead.intercept(first)  # held until the dialog focuses its box
    app.focused = "note box"
    second = events.Key("space", " ")
    assert typeahead.dispatched(second)  # read now: not sent to the box ahead of `n`
    app.refresh()
    assert [key.key for key in app.posted] == ["n", "space"]
    assert not any(typeahead.dispatched(key) for key in app.posted)  # delivered in order now


def test_a_key_read_while_held_keys_are_on_their_way_back_waits_for_them() -> None:
    """Seen while a big file loaded: the held keys were sent again as the last runs came in,
    and a key typed a moment before (already read, not yet handled) went ahead of them."""
    app = FakeApp()
    typeahead = Typeahead(app)  # type: ignore[arg-type]
    first = events.Key("y", "y")
    assert not typeahead.dispatched(first)
    app.focused = None
    assert typeahead.intercept(first)  # held
    app.focused = "table"
    app.refresh()  # sent again: on its way back to the app
    later = events.Key("j", "j")
    assert typeahead.dispatched(later)  # read before `y` comes back: held behind it
    assert not typeahead.dispatched(app.posted[0])  # `y`, back: goes
    app.refresh()
    assert [key.key for key in app.posted] == ["y", "j"]
    assert not typeahead.dispatched(app.posted[1])


def test_keys_held_for_a_box_that_keeps_the_focus_go_to_it_after_all() -> None:
    """After enter, a box holds the keys typed behind it until focus leaves it; a dialog that
    keeps it (it says what is wrong with the path) gets them back, none is lost."""
    app = FakeApp()
    app.focused = "box"
    typeahead = Typeahead(app)  # type: ignore[arg-type]
    key = events.Key("x", "x")
    assert not typeahead.dispatched(key)
    assert typeahead.hold(key, away_from=app.focused)
    for _ in range(MAX_WAIT + 1):
        app.refresh()
    assert [sent.key for sent in app.posted] == ["x"]
    assert not typeahead.dispatched(app.posted[0])
    assert not typeahead.hold(app.posted[0], away_from=app.focused)  # the box takes it now
