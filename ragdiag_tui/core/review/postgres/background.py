"""The PostgreSQL review store's traffic in a thread of its own, so that the caller (the
app's UI thread) never waits on the network.

`Background` runs `tick` (send the spool, renew the reservation, read what others
wrote) a few times a second, and at once when woken (a label spooled, the cursor
moved). `stop` asks it to run `finish` (give the reservation back, close the
connections) and waits half a second at most: a server that hangs never holds up an
exit. The thread is left to finish on its own; if the process ends first, the
reservation lapses at its expiry, and the spool (every label the app acknowledged,
fsynced) is sent by the next process to open the file.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

TICK_EVERY = 0.25  # seconds between two rounds of traffic when nothing wakes the thread
STOP_WAIT = 0.5  # seconds an exit waits for the reservation to be given back (else it expires)


class Background:
    """One thread that runs `tick` until stopped, then `finish` once."""

    def __init__(self, tick: Callable[[], None], finish: Callable[[], None]) -> None:
        self._tick = tick
        self._finish = finish
        self._wake = threading.Event()
        self._stopping = False
        self._since = 0.0  # when the round under way began (0: none is)
        self._thread = threading.Thread(target=self._run, name="ragdiag-pg", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread.is_alive() and not self._stopping

    def wake(self) -> None:
        """Run a round now rather than at the next tick."""
        self._wake.set()

    def busy_for(self) -> float:
        """How long the round under way has taken so far (0.0 when the thread is idle)."""
        since = self._since
        return time.monotonic() - since if since else 0.0

    def stop(self, wait: float = STOP_WAIT) -> bool:
        """Finish (after the round under way) and end the thread; whether it ended within `wait` seconds."""
        self._stopping = True
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(wait)
        return not self._thread.is_alive()

    def _run(self) -> None:
        while not self._stopping:
            self._wake.wait(TICK_EVERY)
            self._wake.clear()
            if self._stopping:
                break
            self._since = time.monotonic()
            try:
                self._tick()
            finally:
                self._since = 0.0
        self._finish()
