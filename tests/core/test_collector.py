"""The cyclic collector held off while the app starts (core/common/collector.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.common import collector


@pytest.fixture
def thresholds() -> Iterator[tuple[int, ...]]:
    """The thresholds before the test, put back after it, nothing held; the objects frozen
    during the test (the run store freezes them too, after each reading) are let go."""
    before = gc.get_threshold()
    yield before
    collector._held = None
    gc.set_threshold(*before)
    gc.unfreeze()


def test_hold_stops_the_automatic_passes_and_leaves_the_collector_on(thresholds: tuple[int, ...]) -> None:
    assert gc.isenabled()
    collector.hold()
    assert gc.get_threshold()[0] == 0  # no automatic pass
    assert gc.isenabled()  # the store turns it off and on around its reading: it finds it on
    collector.hold()  # a second hold changes nothing: release still restores the first thresholds
    collector.release()
    assert gc.get_threshold() == thresholds


def test_release_puts_the_objects_made_so_far_out_of_sight(thresholds: tuple[int, ...]) -> None:
    gc.unfreeze()
    made_before = [[] for _ in range(100)]
    collector.hold()
    collector.release()
    assert gc.get_freeze_count() > len(made_before)  # they and everything else made so far


def test_release_without_hold_changes_nothing(thresholds: tuple[int, ...]) -> None:
    gc.unfreeze()
    collector.release()
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0


def test_the_review_command_holds_the_collector_while_the_app_starts(
    thresholds: tuple[int, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ragdiag_tui.ui.app

    seen: list[tuple[int, ...]] = []

    class FakeApp:
        return_code = 0

        def run(self) -> None:  # the real screen releases it before its first drawing
            seen.append(gc.get_threshold())

    monkeypatch.setattr(ragdiag_tui.ui.app, "create_app", lambda path, **options: FakeApp())
    path = tmp_path / "runs.jsonl"
    path.write_text('{"id": "a", "required": ["D"], "context": ["D"], "correct": true}\n', encoding="utf-8")
    assert main(["review", str(path)]) == 0
    assert seen[0][0] == 0  # held while the app ran
    assert gc.get_threshold() == thresholds  # and let go once it returned
