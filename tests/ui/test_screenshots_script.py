"""scripts/screenshots.py still makes the README's pictures, and makes them of the right things."""

from __future__ import annotations

import html
import importlib.util
import os
import re
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "screenshots.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("screenshots", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shown_text(svg: Path) -> str:
    """The characters an SVG screenshot draws, without its markup."""
    return html.unescape(re.sub(r"<[^>]+>", "", svg.read_text(encoding="utf-8"))).replace("\xa0", " ")


def test_the_script_writes_the_three_readme_screenshots_from_a_copy_of_the_demo(tmp_path: Path) -> None:
    samples = sorted(os.listdir(ROOT / "sample_runs"))
    cwd = os.getcwd()

    assert load_script().main(["--out", str(tmp_path)]) == 0

    names = ("main.svg", "lucky-answer.svg", "statistics.svg")
    main, lucky, statistics = (shown_text(tmp_path / name) for name in names)
    assert "run-0001" in main and "reviewed 0/80" in main
    assert "Lucky answers" in lucky and "run-0005" in lucky and "hr-policy-043" in lucky  # its missing doc
    assert "Statistics" in statistics and "kb/eng/oncall-handbook#4" in statistics  # the most-missed doc
    blind = shown_text(tmp_path / "blind-reviewer.svg")  # bob's blind pass over alice's spot-check
    assert "lucky-9: mine 1/9 · team 9/9" in blind and "bob" in blind and "hidden" in blind
    assert "Your tags  3 Answered from model knowledge" in blind
    for text in (main, lucky, statistics, blind):
        assert tempfile.gettempdir() not in text  # the copy is opened by its bare name
    assert sorted(os.listdir(ROOT / "sample_runs")) == samples  # no journal next to the samples
    assert os.getcwd() == cwd
