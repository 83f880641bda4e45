"""The footer of keys: built in its final style, not restyled key by key once mounted."""

from __future__ import annotations

from pathlib import Path

from textual.dom import DOMNode

from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.widgets.key_footer import KeyFooter

from .helpers import SIZE, loaded, wait_until


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
        screen.refresh_bindings()  # the footer rebuilds its keys
        await wait_until(pilot, lambda: not before & set(footer.query("FooterKey")), "the keys rebuilt")
        await pilot.pause()
        keys = list(footer.query("FooterKey"))
        assert keys and all(key.has_class("-compact") for key in keys)
        assert not [
            node for node in restyled if node.css_identifier.startswith("FooterKey")
        ]  # each restyle costs a pass
