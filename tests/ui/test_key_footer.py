"""The footer of keys: built in its final style, not restyled key by key once mounted."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.dom import DOMNode
from textual.widgets import Footer

from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.widgets.key_footer import KeyFooter

from .helpers import SIZE, loaded, screen_text, wait_until


async def test_the_keys_of_the_compact_footer_are_built_compact(runs_path: Path) -> None:
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        footer = screen.query_one(KeyFooter)
        restyled: list[DOMNode] = []
        update_styles = app.update_styles

        def spy(node: DOMNode, animate: bool = True) -> None:
            restyled.append(node)
            update_styles(node, animate=animate)

        before = set(footer.query("FooterKey"))
        app.update_styles = spy  # type: ignore[method-assign]
        screen.query_one("#query").focus()  # the filter box has keys of its own: a rebuild
        await wait_until(pilot, lambda: not before & set(footer.query("FooterKey")), "the keys rebuilt")
        await pilot.pause()
        keys = list(footer.query("FooterKey"))
        assert keys and all(key.has_class("-compact") for key in keys)
        assert not [
            node for node in restyled if node.css_identifier.startswith("FooterKey")
        ]  # each restyle costs a pass


def _keys(footer: KeyFooter) -> list[str]:
    return [key.key for key in footer.query("FooterKey")]


async def test_the_keys_are_rebuilt_only_when_the_keys_to_show_change(runs_path: Path) -> None:
    """A focus change announces new bindings; the footer mounts new keys only when the keys
    it would show differ (the table and the detail pane have the same ones)."""
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        footer = screen.query_one(KeyFooter)
        shown = list(footer.query("FooterKey"))
        on_table = _keys(footer)
        assert "y" in on_table and "escape" not in on_table

        await pilot.press("tab")  # the detail pane: the same keys
        assert app.focused is screen.query_one("#detail")
        await pilot.pause()
        assert list(footer.query("FooterKey")) == shown  # the same widgets: nothing rebuilt

        await pilot.press("slash")  # the filter box: its own keys
        await wait_until(pilot, lambda: "escape" in _keys(footer), "the filter box's keys")
        assert "y" not in _keys(footer)

        await pilot.press("escape")  # back to the table: its keys again, rebuilt
        await wait_until(pilot, lambda: _keys(footer) == on_table, "the table's keys")
        assert not set(footer.query("FooterKey")) & set(shown)


@pytest.fixture
def rebuilds(monkeypatch: pytest.MonkeyPatch) -> list[Footer]:
    """Each footer that rebuilds its keys, in turn."""
    built: list[Footer] = []
    real = Footer.recompose

    async def recompose(self: Footer) -> None:
        built.append(self)
        await real(self)

    monkeypatch.setattr(Footer, "recompose", recompose)
    return built


async def test_the_keys_are_built_once_as_the_screen_is_put_together(
    runs_path: Path, rebuilds: list[Footer]
) -> None:
    """The review screen is laid out and drawn with its keys: the footer does not wait for the
    screen's first focus to build them, then lay the screen out and draw it again."""
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        footer = screen.query_one(KeyFooter)
        assert "y" in _keys(footer) and "ctrl+p" in _keys(footer)
        assert rebuilds == []
        await pilot.press("slash")  # a change of keys still rebuilds them
        await wait_until(pilot, lambda: "escape" in _keys(footer), "the filter box's keys")
        assert rebuilds == [footer]


async def test_the_palette_hint_and_docs_key_show_from_100_columns(
    runs_path: Path, rebuilds: list[Footer]
) -> None:
    """Narrower, the footer's keys need their room: built so from the start, and rebuilt as the
    terminal is widened or narrowed past 100 columns."""
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot)
        footer = screen.query_one(KeyFooter)
        assert "y" in _keys(footer)
        assert "ctrl+p" not in _keys(footer) and "full_stop" not in _keys(footer)
        assert rebuilds == []
        await pilot.resize_terminal(120, 30)
        await wait_until(pilot, lambda: {"ctrl+p", "full_stop"} <= set(_keys(footer)), "the wide keys")
        await pilot.resize_terminal(99, 30)
        await wait_until(pilot, lambda: not {"ctrl+p", "full_stop"} & set(_keys(footer)), "the narrow keys")


async def test_the_statistics_footer_gives_its_keys_the_palette_hints_room_under_100_columns(
    runs_path: Path,
) -> None:
    """At 80 columns the hint cut the statistics screen's last key short ("esc Back to ru")."""
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: app.screen.query(KeyFooter), "the statistics screen")
        footer = app.screen.query_one(KeyFooter)
        await wait_until(pilot, lambda: "escape" in _keys(footer), "the statistics screen's keys")
        assert "ctrl+p" not in _keys(footer)
        assert "esc Back to runs" in screen_text(app).splitlines()[-1]
        await pilot.resize_terminal(120, 30)
        await wait_until(pilot, lambda: "ctrl+p" in _keys(footer), "the palette hint")
