"""Typeahead: every key goes where the reviewer meant it, however fast they type.

Textual hands a key to the widget that has focus when the key is *read*, but the
key is *handled* later, after the keys before it. Typed in one burst (or pasted),
`/nyc` reaches the run table as four keys: `/` moves focus to the filter box, and
`n`, `y`, `c`, already on their way to the table, would then label the run and
open the note box. `c` followed by text opens the note dialog before its text box
exists, and the text would be dropped.

The rule here: a key belongs to what has focus when the key's turn comes.
`Typeahead.dispatched` tags each key with the widget it was sent to. When a
bubbled key reaches the app and focus has moved since (a box took it), the key is
sent again, now to the box. While a new screen has nothing focused yet (a dialog
still mounting), keys wait, in order, until something has focus. Boxes that open
on a key take focus at once (`Screen.set_focus`), so the next key already finds
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

_TARGET = "_ragdiag_sent_to"  # the widget (or None) a key was first sent to
_NOTHING = object()
MAX_WAIT = 50  # refreshes to wait for a new screen to focus something, then deliver anyway


class Typeahead:
    """Re-sends keys whose target lost focus before their turn; holds keys while nothing has focus."""

    def __init__(self, app: App[object]) -> None:
        self.app = app
        self.held: list[events.Key] = []
        self._waits = 0

    def dispatched(self, event: events.Key) -> bool:
        """Called for every key as the app first reads it: remember where it is sent.

        True when keys read before it are still held: it is held behind them (sent now to a
        box that took focus meanwhile, it would land before them), so the app must not send it.
        """
        if self.held:
            self._hold(event)
            return True
        setattr(event, _TARGET, self.app.focused)
        return False

    def intercept(self, event: events.Key) -> bool:
        """Called when a key bubbles up to the app, before its bindings run.

        True when the key was taken here (held or sent on to a new focus), so
        bindings must not act on it.
        """
        sent_to = getattr(event, _TARGET, _NOTHING)
        if sent_to is _NOTHING:
            return False  # not a key from the terminal (a test's synthetic event): as Textual would
        focused = self.app.focused
        if self.held or (focused is None and sent_to is not None):
            # A new screen is still mounting its box (keys sent while nothing had focus
            # pass, so a screen that never focuses anything cannot hold them for ever).
            self._hold(event)
            return True
        if sent_to is focused or sent_to is None:
            return False
        self._resend(event)  # focus moved on before this key's turn: it belongs to the new focus
        return True

    def hold(self, event: events.Key) -> None:
        """Hold a key until something (else) has focus, then send it there, in order."""
        self._hold(event)

    def _hold(self, event: events.Key) -> None:
        event.prevent_default()
        event.stop()
        self.held.append(event)
        if len(self.held) == 1:
            self._waits = 0
            self.app.call_after_refresh(self._release)

    def _release(self) -> None:
        if self.app.focused is None and self._waits < MAX_WAIT:
            self._waits += 1
            self.app.call_after_refresh(self._release)
            return
        held, self.held = self.held, []
        for event in held:
            self._resend(event)

    def _resend(self, event: events.Key) -> None:
        event.prevent_default()
        event.stop()
        self.app.post_message(events.Key(event.key, event.character))


def focus_now(widget: Widget) -> None:
    """Focus `widget` before the next key is handled (`Widget.focus` waits a turn)."""
    widget.screen.set_focus(widget)
