"""A package's public face, named in its `__init__` and imported on first use.

A sub-package of the core lists the names it offers, module by module. Reading one of
them imports just that module, so `import ragdiag_tui.core.runs.rule` (or the first
screen of the app) does not pay for the rest of the package.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def public_api(package: str, names_by_module: dict[str, list[str]]) -> tuple[Callable[[str], Any], list[str]]:
    """The `__getattr__` and `__all__` of `package`, which offers `names_by_module`."""
    module_of = {name: module for module, names in names_by_module.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(f"{package}.{module}"), name)

    return __getattr__, sorted(module_of)
