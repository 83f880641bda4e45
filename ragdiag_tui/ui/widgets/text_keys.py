"""Text boxes whose own keys act in the order typed.

A text box takes a printable key itself, as the key comes; its other keys (enter,
backspace, the arrows: its bindings) act only once the key has bubbled up to the app,
after the keys typed behind it have reached the box. Typed in one burst, `abc` backspace
`d` would read "abc" (the d typed, then the c deleted), and a filter `/abc` enter `y` would
filter by "abcy". Here a key bound on the box itself runs its action in the box, in turn.
So does tab (the screen's, moving the focus on): `model` tab `neyman` in a dialog put
"neyman" in the field it left. The keys sent to the box before the focus moved go on to
the field that has it now (`hand_on`).
"""

from __future__ import annotations

from textual import events
from textual.widget import Widget
from textual.widgets import Button, Input

FOCUS_KEYS = ("tab", "shift+tab")
"""Keys that move the focus (the screen's bindings), run in turn from whichever box has it."""


async def run_own_binding(widget: Widget, event: events.Key) -> bool:
    """Run the action `event` is bound to if `widget` itself binds it, or it moves the focus
    (`FOCUS_KEYS`); True: run, the key stopped.

    An action that declines (`SkipAction`: an `Input`'s inherited `scroll_down`) leaves the key
    to go on to the bindings above, as Textual's own binding lookup does (the palette's `down`)."""
    active = widget.screen.active_bindings.get(event.key)
    if active is None or (active.node is not widget and event.key not in FOCUS_KEYS):
        return False
    if not await widget.app.run_action(active.binding.action, active.node):
        return False
    event.prevent_default()
    event.stop()
    return True


def hand_on(widget: Widget, event: events.Key) -> bool:
    """Send a key on to what has focus now if `widget` lost it before the key's turn (a tab
    typed before it moved on); True: sent on (or held until something has focus), stopped."""
    typeahead = getattr(widget.app, "typeahead", None)
    if typeahead is None or not widget.app.screen_stack or widget.app.focused is widget:
        return False
    return bool(typeahead.intercept(event))


class InOrderInput(Input):
    """An `Input` whose own bindings act in the order the keys were typed.

    Enter (or another of `LEAVING_KEYS`) hands the box's text on (a filter, an export's
    path): the keys typed after it are held (by the app's typeahead) until focus has left
    the box, so that they are not taken as more text (`e` enter `jy` exported to "jy").
    Should the focus stay (a dialog that says what is wrong), the box takes them after all.
    A dialog at work on what enter started says so in its `working` (see ui/typeahead.py).
    Only the keys that would be text wait, unless `HOLD_EVERY_KEY`: the dialog's own keys
    (escape cancels a draw under way) still act."""

    LEAVING_KEYS: tuple[str, ...] = ("enter",)
    HOLD_EVERY_KEY = False
    leaving = False

    async def _on_key(self, event: events.Key) -> None:
        if hand_on(self, event):
            return
        if self.leaving and (event.is_printable or self.HOLD_EVERY_KEY):
            typeahead = getattr(self.app, "typeahead", None)
            if typeahead is not None and typeahead.hold(event, away_from=self):
                return
            self.leaving = False  # the focus stayed here: the keys are the box's
        if event.key in self.LEAVING_KEYS:
            self.leaving = True
        await run_own_binding(self, event)  # else Input's own handler takes it next, as always

    def on_focus(self) -> None:
        self.leaving = False


class InOrderButton(Button):
    """A `Button` whose enter acts in the order typed and whose later keys wait for it to act.

    Enter presses the button (its dialog closes, say); the keys typed after it in the same
    burst would otherwise reach the button, still focused until the dialog has gone, and be
    lost (`D` … enter on Draw, then `y`). They are held (by the app's typeahead) until the
    focus has left the button's dialog, then go where it went (the table); should the focus
    stay (a dialog that says what is wrong), the dialog takes them after all. Escape is never
    held: it still cancels a dialog at work on what the button started."""

    leaving = False

    async def _on_key(self, event: events.Key) -> None:
        if hand_on(self, event):
            return
        if self.leaving and event.key != "escape":
            typeahead = getattr(self.app, "typeahead", None)
            # Wait for the dialog to close, not only for the focus to leave the button: a
            # button its press disables (Draw, while it draws) hands the focus to another.
            if typeahead is not None and typeahead.hold(event, away_from=self.screen):
                return
            self.leaving = False  # the focus stayed here: the keys are the dialog's
        if event.key == "enter":
            self.leaving = True
        await run_own_binding(self, event)

    def on_focus(self) -> None:
        self.leaving = False
