"""Which keys the footer shows: a narrow terminal has no room for every key there (the
keys still work, and the help screen and the command palette list them all)."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding


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
