"""What the review screen's parts may use of the screen that hosts them.

The review screen is composed of plain classes (labelling, navigation, the run index,
spot-checks, the baseline, the documents, ...) that the screen builds and hands itself
to. A part does not import the screen: it names the members it uses in a protocol,
`ReviewHost` below or a protocol of its own that extends it, and the screen has them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message
    from textual.worker import Worker

    from ....core.review.state import Review, ReviewOptions
    from ....core.runs.store import RunStore
    from ...widgets.table.run_table import RunTable


class ReviewHost(Protocol):
    """What every part uses: the runs, their review, the run table, the app, and a word to the reviewer."""

    @property
    def store(self) -> RunStore:
        """The runs of the file under review."""
        ...

    @property
    def options(self) -> ReviewOptions:
        """How the file was opened for review (blind mode among it), known before it loads."""
        ...

    @property
    def review(self) -> Review | None:
        """The review of those runs; None while the file is loading."""
        ...

    @property
    def table(self) -> RunTable:
        """The run table (its cursor is the run the reviewer is on)."""
        ...

    @property
    def app(self) -> App[object]:
        """The app (to open a dialog or screen over the review screen)."""
        ...

    def tell(self, message: str, **options: Any) -> None:
        """Notify the reviewer, literally (never markup)."""
        ...


class WorkerHost(ReviewHost, Protocol):
    """A host for slow work: it runs it in a thread and takes the messages it posts back."""

    def run_worker(
        self, work: Callable[[], None], name: str | None = "", group: str = "default", **options: Any
    ) -> Worker[None]:
        """Run `work` in a worker (`thread=True` for blocking work)."""
        ...

    def post_message(self, message: Message) -> bool:
        """Send the host a message (safe from any thread)."""
        ...
