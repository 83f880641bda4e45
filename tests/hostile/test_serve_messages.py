"""Issue 9, classes 5 and 8: what `serve` prints about the file and the host.

A file name is untrusted text: printed escaped, never raw (an OSC 52 in it would
write the clipboard). An empty `--host` is named as what it is (every address of
the machine), not as the address "".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("textual_serve")

from textual_serve.server import Server

from ragdiag_tui.serve import serve


@pytest.fixture
def no_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Server, "serve", lambda self, *args, **kwargs: None)


def _run_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"id": "a", "required": ["D1"], "context": ["D1"], "correct": True}) + "\n")
    return path


def test_serve_prints_a_hostile_file_name_escaped(
    tmp_path: Path, no_serving: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _run_file(tmp_path, "runs\x1b]52;c;aGk=\x07\u202e.jsonl")
    assert serve(path, host="127.0.0.1", port=0) == 0
    out, err = capsys.readouterr()
    for char in "\x1b\x07\u202e":
        assert char not in out + err
    assert "runs\\x1b]52;c;aGk=\\x07\\u202e.jsonl" in out


def test_an_empty_host_is_named_as_every_address(
    tmp_path: Path, no_serving: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _run_file(tmp_path, "runs.jsonl")
    assert serve(path, host="", port=0) == 0
    err = capsys.readouterr().err
    assert "every address" in err
    assert '"" is not' not in err and " is not a loopback" not in err
