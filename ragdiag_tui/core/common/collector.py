"""The cyclic garbage collector held off while the app starts.

Starting the app makes a few hundred thousand objects that live as long as it does:
modules, classes, styles, widgets. Before the first screenful, the collector passes
over them again and again (on a two-core machine about 50 ms in all, one full pass
about 30 ms) and finds nothing to free. `hold` stops its automatic passes; `release`
puts every object made so far out of its sight (`gc.freeze`) and lets it run again,
so the objects made afterwards are collected as usual and the startup's are never
scanned again.

`hold` sets the threshold, not `gc.disable()`: the run store turns the collector off
and on around its reading (store.py) and must find it as it left it.
"""

from __future__ import annotations

import gc

_held: tuple[int, ...] | None = None  # the thresholds `hold` replaced


def hold() -> None:
    """No automatic collection until `release` (once; later calls do nothing)."""
    global _held
    if _held is None:
        _held = gc.get_threshold()
        gc.set_threshold(0)


def release() -> None:
    """Freeze every object made so far and collect as before `hold` (nothing if not held)."""
    global _held
    if _held is not None:
        gc.freeze()
        gc.set_threshold(*_held)
        _held = None
