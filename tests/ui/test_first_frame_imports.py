"""`ragdiag-tui FILE` imports only what the first frame needs before drawing it: the
command line, parsed, and the app. What only another command, an option (`--docs`,
`--baseline`, `--tags`) or a later key (ctrl+p, J, K, D) needs is loaded on first use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import ragdiag_tui

ROOT = Path(ragdiag_tui.__file__).resolve().parents[1]  # the tree under test, imported first below

NOT_FOR_THE_FIRST_FRAME = [
    "ragdiag_tui.core.analysis.baseline",  # --baseline
    "ragdiag_tui.core.analysis.compare",
    "ragdiag_tui.ui.widgets.detail.baseline_diff",
    "ragdiag_tui.core.analysis.spotcheck",  # a spot-check opened (K, --spot-check) or drawn (D)
    "ragdiag_tui.core.analysis.sampling",
    "ragdiag_tui.core.analysis.estimate",
    "ragdiag_tui.core.runs.corpus",  # --docs, or a document highlighted
    "ragdiag_tui.core.runs.corpus_index",
    "ragdiag_tui.core.runs.corpus_json",
    "ragdiag_tui.ui.screens.command_palette",  # ctrl+p
    "ragdiag_tui.ui.screens.review.adjudicate",  # J
    "tomllib",  # --tags
]

IMPORT_AND_PARSE = (
    "import json, sys\n"
    "import ragdiag_tui.cli, ragdiag_tui.ui.app\n"
    "ragdiag_tui.cli.parse_args(['runs.jsonl'])\n"
    "print(json.dumps([ragdiag_tui.__file__, sorted(sys.modules)]))\n"
)


def test_the_first_frame_loads_none_of_what_comes_later() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_AND_PARSE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    where, loaded = json.loads(done.stdout)
    assert Path(where).resolve().is_relative_to(ROOT)
    assert [name for name in NOT_FOR_THE_FIRST_FRAME if name in loaded] == []
    assert "ragdiag_tui.ui.screens.review.screen" in loaded  # the import did load the app
