"""Which keys the footer shows: a narrow terminal has no room for every key there (the
keys still work, and the help screen and the command palette list them all)."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding
from textual.widgets import Footer

from ...widgets.key_footer import wide_footer


def show_in_footer(key_to_bindings: dict[str, list[Binding]], action: str, shown: bool) -> bool:
    """Show or hide the bindings of `action` in the footer; whether any changed."""
    changed = False
    for key, bindings in key_to_bindings.items():
        if any(binding.action == action and binding.show != shown for binding in bindings):
            key_to_bindings[key] = [
                replace(binding, show=shown) if binding.action == action else binding for binding in bindings
            ]
            changed = True
    return changed


def fit_footer(key_to_bindings: dict[str, list[Binding]], footer: Footer | None, width: int) -> bool:
    """Under 100 columns the footer's keys need the room of the palette hint (ctrl+p still
    works, and the help screen lists it), and there is no room for `. Docs`: show or hide
    them for `width` (the footer's, once there is one); whether its keys change."""
    wide = wide_footer(width)
    changed = show_in_footer(key_to_bindings, "move_document(1)", wide)
    if footer is not None and footer.show_command_palette != wide:
        footer.show_command_palette = wide
        changed = True
    return changed
