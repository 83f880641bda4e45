"""Each sub-package of the core names its public API in its `__init__`; every name there
resolves to the object its module defines, and reading one loads only that module."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

PACKAGES = ["common", "runs", "review", "analysis", "output"]


@pytest.mark.parametrize("name", PACKAGES)
def test_every_public_name_resolves(name: str) -> None:
    package = importlib.import_module(f"ragdiag_tui.core.{name}")
    assert package.__all__, name
    for public in package.__all__:
        assert getattr(package, public) is not None


def test_an_unknown_name_is_an_attribute_error() -> None:
    from ragdiag_tui.core import runs

    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        runs.nothing_here  # noqa: B018


def test_reading_one_name_loads_only_its_module() -> None:
    code = (
        "import sys\n"
        "from ragdiag_tui.core.runs import diagnose\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('ragdiag_tui.core.runs.'))\n"
        "print(loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['ragdiag_tui.core.runs.rule']"
