"""A small folder of every kind of file a command reads, and its fingerprint: shared by the
tests that prove no writer lands on what a command read (tests/core/test_file_safety*.py,
tests/ui/test_file_safety_app.py)."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from ragdiag_tui.cli import main

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_runs"
TAGS = '[[tag]]\nkey = "stale"\nname = "Out of date"\n'


def make_folder(root: Path) -> dict[str, Path]:
    """runs.jsonl with a reviewed journal, the --baseline old.jsonl, the --docs corpus, a tags
    file, a journal given by --journal (j.log), and a two-file dataset (lake/)."""
    root.mkdir(parents=True, exist_ok=True)
    files = {
        "run": root / "runs.jsonl",
        "journal": root / "runs.jsonl.review.jsonl",
        "baseline": root / "old.jsonl",
        "docs": root / "docs.jsonl",
        "tags": root / "tags.toml",
        "custom": root / "j.log",
        "lake": root / "lake" / "a.jsonl",
    }
    shutil.copy(SAMPLES / "demo_after.jsonl", files["run"])
    shutil.copy(SAMPLES / "demo.jsonl", files["baseline"])
    shutil.copy(SAMPLES / "docs.jsonl", files["docs"])
    files["tags"].write_text(TAGS, encoding="utf-8")
    (root / "lake").mkdir()
    shutil.copy(SAMPLES / "demo.jsonl", files["lake"])
    shutil.copy(SAMPLES / "demo_after.jsonl", root / "lake" / "b.jsonl")
    for journal in ("journal", "custom"):
        options = ["--view", "all", "-n", "3", "--seed", "1", "--journal", str(files[journal])]
        assert main(["sample", str(files["run"]), *options]) == 0
    return files


def fingerprint(root: Path) -> dict[str, str]:
    """Every name under `root` with its content's sha256 (a link: where it leads)."""
    seen = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder, name)
            key = str(path.relative_to(root))
            if path.is_symlink():
                seen[key] = "-> " + os.readlink(path)
            else:
                seen[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return seen


def aim(target: Path, at: Path, how: str) -> Path:
    """`target` made to lead to `at`: `direct` is `at` itself, else a symlink or a hard link."""
    if how == "direct":
        return at
    if how == "symlink":
        target.symlink_to(at)
    else:
        os.link(at, target)
    return target
