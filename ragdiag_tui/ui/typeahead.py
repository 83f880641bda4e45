"""Typeahead: every key goes where the reviewer meant it, however fast they type.

Textual hands a key to the widget that has focus when the key is *read*, but the
key is *handled* later, after the keys before it. Typed in one burst (or pasted),
`/nyc` reaches the run table as four keys: `/` moves focus to the filter box, and
`n`, `y`, `c`, already on their way to the table, would then label the run and
open the note box. `c` followed by text opens the note dialog before its text box
exists, and the text would be dropped.

The rule here: a key belongs to what has focus when the key's turn comes.
`Typeahead.dispatched` tags each key with the widget it was sent to and its place
in the order typed. When a bubbled key reaches the app and focus has moved since
(a box took it), the key is sent again, now to the box. While a new screen has
nothing focused yet (a dialog still mounting), keys wait until something has
focus. Boxes that open on a key take focus at once (`Screen.set_focus`), so the
next key already finds them.

A box that hands its text on with enter (the filter, an export's path) holds the keys typed
after it until focus has left it (`hold(key, away_from=box)`): until the messages before
have been handled, or while the box's screen says it is `working` (an export being
written); if the focus stays, the box takes the keys after all.

A screen can also make keys wait: its `key_gate` (a `KeyGate`) says when a key
cannot act yet (the review screen's runs are still loading, say), and the screen
calls `wake` when that may have changed. A waiting key is held with every key
typed after it, and they are sent again in the order typed, never dropped.
"""

from __future__ import annotations

import time
from bisect import insort
from typing import TYPE_CHECKING, Protocol

from textual import events
from textual.screen import Screen

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

_TARGET = "_ragdiag_sent_to"  # the widget (or None) a key was first sent to
_TYPED = "_ragdiag_typed"  # the key's place in the order typed
_GAVE_UP = "_ragdiag_gave_up"  # held for a focus that never left: the widget takes it after all
_NOTHING = object()
POLL = 0.01  # seconds between looks at the focus while keys are held
MAX_WAIT = 50  # looks to wait for a new screen to focus something, then deliver anyway
LEAVE_SECONDS = 30.0  # how long keys typed after a box's enter wait while its dialog is `working`


class KeyGate(Protocol):
    """What a screen offers as its `key_gate`: whether a key must wait before it can act."""

    def key_waits(self, key: str) -> bool:
        """Whether `key`, were its turn now, must wait (held until the screen calls `wake`)."""
        ...


def _typed(event: events.Key) -> int:
    return getattr(event, _TYPED, -1)


class Typeahead:
    """Re-sends keys whose target lost focus before their turn; holds keys while nothing has
    focus, or while the screen's gate says they cannot act yet; keys leave in the order typed."""

    def __init__(self, app: App[object]) -> None:
        self.app = app
        self.held: list[events.Key] = []  # in the order typed
        self._count = 0  # keys read so far
        self._in_flight = 0  # keys sent again and not read back yet
        self._waits = 0
        self._polling = False
        self._away_from: Widget | None = None  # the widget a held key waits for focus to leave
        self._away_since = 0.0  # when the first key began to wait for that

    def dispatched(self, event: events.Key) -> bool:
        """Called for every key as the app first reads it: remember where it is sent.

        True when the key is held (the app must not send it): keys typed before it are
        still held or on their way back (sent now to a box that took focus meanwhile, it
        would land before them), or the screen's gate says it must wait."""
        typed = getattr(event, _TYPED, None)
        if typed is None:  # read from the terminal: every key on its way back was typed earlier
            setattr(event, _TYPED, self._count)
            self._count += 1
            behind = self._in_flight > 0
        else:  # a key sent again, read back
            self._in_flight -= 1
            behind = False
        if behind or self._earlier_held(event) or self._gate_waits(event):
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
        if sent_to is _NOTHING or not self.app.screen_stack:
            # Not a key from the terminal (a test's synthetic event), or one still on its way
            # as the app closes (its screens gone, nothing has focus to ask): as Textual would.
            return False
        focused = self.app.focused
        if self._earlier_held(event) or (focused is None and sent_to is not None):
            # A new screen is still mounting its box (keys sent while nothing had focus
            # pass, so a screen that never focuses anything cannot hold them for ever).
            self._hold(event)
            return True
        if sent_to is not focused and sent_to is not None:
            self._resend(event)  # focus moved on before this key's turn: it belongs to the new focus
            return True
        if self._gate_waits(event):
            self._hold(event)
            return True
        return False

    def hold(self, event: events.Key, away_from: Widget | None = None) -> bool:
        """Hold a key until something (else than `away_from`, or outside it if it is a screen)
        has focus, then send it there, in order.

        False (not held) for a key already held for `away_from` while it kept the focus
        (the messages before were handled, its dialog's work ended, or `LEAVE_SECONDS`
        passed): then `away_from` is to take it after all."""
        if away_from is not None:
            if getattr(event, _GAVE_UP, False):
                return False
            if self._away_from is not away_from:
                self._away_from, self._away_since = away_from, time.monotonic()
        self._hold(event)
        return True

    def holds_earlier(self, event: events.Key) -> bool:
        """Whether a key typed before `event` is held (then `event` is to wait behind it)."""
        return self._earlier_held(event)

    def wake(self) -> None:
        """The screen's gate may let keys through now: send the held keys on, if it does."""
        if self.held:
            self._schedule()

    def _working(self, box: Widget) -> bool:
        """Whether the box's screen is at work on what the box handed it (an export being
        written: its `working`), so the keys typed after it wait longer for it to close."""
        working = bool(getattr(getattr(box, "screen", None), "working", False))
        return working and time.monotonic() - self._away_since < LEAVE_SECONDS

    def _still_at(self, focused: Widget) -> bool:
        """Whether the focus is still where held keys wait for it to leave: the box itself, or
        (a button's keys wait for its dialog to close) anywhere on that screen."""
        away = self._away_from
        return focused is away or (isinstance(away, Screen) and focused.screen is away)

    def _earlier_held(self, event: events.Key) -> bool:
        """Whether a key typed before `event` is held."""
        return bool(self.held) and _typed(self.held[0]) < _typed(event)

    def _gate_waits(self, event: events.Key) -> bool:
        if not self.app.screen_stack:
            return False
        gate: KeyGate | None = getattr(self.app.screen, "key_gate", None)
        return gate is not None and gate.key_waits(event.key)

    def _hold(self, event: events.Key) -> None:
        event.prevent_default()
        event.stop()
        if not hasattr(event, _TYPED):
            setattr(event, _TYPED, self._count)
            self._count += 1
        insort(self.held, event, key=_typed)
        self._schedule()

    def _schedule(self) -> None:
        if not self._polling:
            self._polling = True
            self._waits = 0
            self._look_again()

    def _look_again(self) -> None:
        # A timer of the app's: a callback after the refresh would belong to the screen on top,
        # and be lost with it when that screen (a dialog) closes first, leaving keys held for good.
        self.app.set_timer(POLL, self._release)

    def _release(self) -> None:
        self._polling = False
        if not self.held or not self.app.screen_stack:  # nothing held, or the app has closed
            return
        focused = self.app.focused
        waiting = focused is None or self._still_at(focused)
        if waiting and (self._waits < MAX_WAIT or (focused is not None and self._working(focused))):
            self._waits += 1  # a screen still mounting; a box's dialog at work (an export)
            self._polling = True
            self._look_again()
            return
        if self._gate_waits(self.held[0]):
            return  # the screen wakes us when it can take them
        gave_up = waiting and focused is not None
        self._away_from = None
        held, self.held = self.held, []
        for event in held:
            self._resend(event, gave_up)

    def _resend(self, event: events.Key, gave_up: bool = False) -> None:
        event.prevent_default()
        event.stop()
        again = events.Key(event.key, event.character)
        # As the driver sends keys: a key made in a callback a screen runs would count that
        # screen as its sender and stop bubbling there, before the app's bindings.
        again.set_sender(self.app)
        setattr(again, _TYPED, _typed(event))
        if gave_up:
            setattr(again, _GAVE_UP, True)
        if self.app.post_message(again):
            self._in_flight += 1


def focus_now(widget: Widget) -> None:
    """Focus `widget` before the next key is handled (`Widget.focus` waits a turn)."""
    widget.screen.set_focus(widget)


def wake(app: App[object]) -> None:
    """Tell the app's typeahead (if it has one) that its screen's gate may let keys through now."""
    typeahead = getattr(app, "typeahead", None)
    if isinstance(typeahead, Typeahead):
        typeahead.wake()
