"""Where a path really leads, for limits on where the app may write."""

from __future__ import annotations

import os


def is_within(path: str | os.PathLike[str], folder: str | os.PathLike[str]) -> bool:
    """Whether `path` (followed through symlinks, `..` resolved) lies inside `folder`."""
    target = os.path.realpath(os.path.abspath(os.path.expanduser(os.fspath(path))))
    root = os.path.realpath(folder)
    return os.path.commonpath([target, root]) == root
