"""The review screen's parts never import the screen: each names what it uses of it in a
protocol (review_host.py, or one of its own that extends it). Nothing checks types at run
time, so this test does: the screen, once loaded, has every member any part names."""

from __future__ import annotations

from typing import Generic, Protocol

import pytest

from ragdiag_tui.ui.app import RagdiagApp
from ragdiag_tui.ui.screens.review.baseline import BaselineHost
from ragdiag_tui.ui.screens.review.dialogs import DialogsHost
from ragdiag_tui.ui.screens.review.documents import DocumentsHost
from ragdiag_tui.ui.screens.review.host import ReviewHost, WorkerHost
from ragdiag_tui.ui.screens.review.loading import LoadingHost
from ragdiag_tui.ui.screens.review.navigation import NavigationHost
from ragdiag_tui.ui.screens.review.run_index import IndexHost
from ragdiag_tui.ui.screens.review.showing import ShowingHost
from ragdiag_tui.ui.screens.review.spot_checking import SpotCheckHost
from ragdiag_tui.ui.screens.review.team_updates import TeamHost

from .helpers import SIZE, loaded

HOSTS = [
    ReviewHost,
    WorkerHost,
    BaselineHost,
    DialogsHost,
    DocumentsHost,
    IndexHost,
    LoadingHost,
    NavigationHost,
    ShowingHost,
    SpotCheckHost,
    TeamHost,
]


def members(protocol: type) -> set[str]:
    """The names a protocol declares, its bases' included."""
    names: set[str] = set()
    for cls in protocol.__mro__:
        if cls in (Protocol, Generic, object):
            continue
        names |= {name for name in vars(cls) if not name.startswith("_")}
        names |= set(vars(cls).get("__annotations__", {}))
    return names


@pytest.mark.parametrize("host", HOSTS, ids=lambda host: host.__name__)
def test_each_protocol_names_members(host: type) -> None:
    assert {"store", "review", "table", "app", "tell"} <= members(host)


async def test_the_review_screen_has_every_member_its_parts_name(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        missing = {
            host.__name__: sorted(name for name in members(host) if not hasattr(screen, name))
            for host in HOSTS
        }
        assert {host: names for host, names in missing.items() if names} == {}
