"""Hostile text runs (issue 38): documents given as texts pass the hostile suite as ID runs do.

Every readable case of the corpus read again with `--match text` gives the same records, the
same stages and, through content IDs, the same missing documents (where no ID changes under
Unicode NFC); and a file of hostile texts (accents composed and decomposed, CJK, emoji, a
3,000-character passage, duplicates, empty lists, markup, escapes, a lone surrogate) loads,
diagnoses, exports and shows in the app with nothing raw reaching the terminal.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.runs.loading import LoadError, Run, read_runs
from ragdiag_tui.core.runs.mapping import FieldMap
from ragdiag_tui.core.runs.texts import content_id
from ragdiag_tui.ui.app import create_app

from ..ui.helpers import detail_text, loaded, screen_text, wait_until
from .corpus import READABLE_NAMES, Case, is_safe_for_terminal

TEXT = FieldMap.from_specs(match="text")
SIMILAR = FieldMap.from_specs(match="similarity")
LONG = "The on-call engineer acknowledges every page within fifteen minutes; " * 44
HOSTILE_TEXTS = [
    {
        "id": "accents",
        "required": ["Cafe\u0301 crème brûlée"],
        "context": ["Café crème brûlée"],
        "correct": True,
    },
    {"id": "cjk", "required": ["東京オフィスの営業時間"], "context": ["大阪オフィス"], "correct": True},
    {
        "id": "emoji",
        "required": ["🚨 #ops-alerts ⏱️", "👩‍👩‍👧 family"],
        "context": ["🚨 #ops-alerts ⏱️"],
        "correct": False,
    },
    {"id": "long", "required": [LONG], "context": [LONG[:-40] + " (cut)"], "correct": True},
    {
        "id": "duplicates",
        "required": ["a passage", "a passage"],
        "context": ["a passage", "a passage"],
        "correct": True,
    },
    {"id": "empty-required", "required": [], "context": ["x"], "correct": True},
    {"id": "empty-context", "required": ["needed text"], "context": [], "correct": True},
    {"id": "empty-text", "required": [""], "context": [""], "correct": False},
    {"id": "markup", "required": ["[@click=app.quit]x[/] [bold]b"], "context": ["[/]"], "correct": True},
    {
        "id": "escape",
        "required": ["\x1b[31mred\x1b[0m \x07 bell \u202e rtl"],
        "context": ["plain"],
        "correct": True,
    },
    {"id": "surrogate", "required": ["\ud800 lone"], "context": ["\ud800 lone"], "correct": True},
]


def records(path: Path, field_map: FieldMap | None) -> list[Run | LoadError]:
    return list(read_runs(path, field_map=field_map))


def _nfc_stable(run: Run) -> bool:
    ids = [*(run.required or ()), *(run.context or ())]
    return all(unicodedata.normalize("NFC", doc) == doc for doc in ids)


@pytest.mark.parametrize("case", READABLE_NAMES, indirect=True)
def test_a_case_read_as_texts_gives_the_verdicts_of_its_ids(case: Case) -> None:
    as_ids = records(case.path, None)
    as_texts = records(case.path, TEXT)
    assert [type(r) for r in as_texts] == [type(r) for r in as_ids]
    for by_id, by_text in zip(as_ids, as_texts, strict=True):
        if isinstance(by_id, LoadError):
            assert isinstance(by_text, LoadError) and by_text.line == by_id.line
            continue
        assert isinstance(by_text, Run)
        if not _nfc_stable(by_id):
            continue
        missing = by_id.diagnosis.get("missing")
        expected = dict(by_id.diagnosis)
        if missing is not None:
            expected["missing"] = sorted(content_id(doc) for doc in missing)
            got = dict(by_text.diagnosis, missing=sorted(by_text.diagnosis["missing"]))
        else:
            got = by_text.diagnosis
        assert got == expected, by_id.id


def write_texts(path: Path) -> Path:
    lines = [json.dumps(run) for run in HOSTILE_TEXTS]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_hostile_texts_load_with_the_rules_answers(tmp_path: Path) -> None:
    path = write_texts(tmp_path / "texts.jsonl")
    for field_map in (TEXT, SIMILAR):
        runs = {r.id: r for r in records(path, field_map) if isinstance(r, Run)}
        assert len(runs) == len(HOSTILE_TEXTS)
        assert runs["accents"].diagnosis == {"stage": "pass", "missing": []}  # one text after NFC
        assert runs["duplicates"].diagnosis == {"stage": "pass", "missing": []}
        assert runs["empty-required"].diagnosis == {"stage": "unresolved"}
        assert runs["empty-context"].diagnosis == {
            "stage": "retrieval",
            "missing": [content_id("needed text")],
        }
        assert runs["empty-text"].diagnosis == {"stage": "generation", "missing": []}
        assert runs["surrogate"].diagnosis == {"stage": "pass", "missing": []}
        assert runs["cjk"].diagnosis["stage"] == "retrieval"
    similar = {r.id: r for r in records(path, SIMILAR) if isinstance(r, Run)}
    assert similar["long"].diagnosis == {"stage": "pass", "missing": []}  # a near copy
    exact = {r.id: r for r in records(path, TEXT) if isinstance(r, Run)}
    assert exact["long"].diagnosis == {"stage": "retrieval", "missing": [content_id(LONG)]}


@pytest.mark.parametrize("command", ["diagnose", "stats"])
def test_the_commands_print_nothing_raw(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    path = write_texts(tmp_path / "texts.jsonl")
    capsys.readouterr()
    code = main(
        [command, str(path), "--match", "similarity", *(["--no-journal"] if command == "stats" else [])]
    )
    out, err = capsys.readouterr()
    assert code in (0, 1)
    assert is_safe_for_terminal(out) and is_safe_for_terminal(err)


def test_the_export_keeps_every_text_exactly(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write_texts(tmp_path / "texts.jsonl")
    out = tmp_path / "out.jsonl"
    assert main(["export", str(path), "--match", "text", "-o", str(out)]) == 0
    exported = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    for run, original in zip(exported, HOSTILE_TEXTS, strict=True):
        assert run["required"] == original["required"]
        assert run["required_ids"] == [content_id(text) for text in original["required"]]


async def test_the_app_shows_hostile_texts_literally(tmp_path: Path) -> None:
    path = write_texts(tmp_path / "texts.jsonl")
    app = create_app(path, reviewer="tester", field_map=FieldMap.from_specs(match="similarity"))
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("full_stop")
        for _ in range(len(HOSTILE_TEXTS)):
            await wait_until(pilot, lambda: "Document 1 of" in detail_text(app), "the document panel")
            text: Any = screen_text(app)
            assert is_safe_for_terminal(text)
            await pilot.press("down")
        await pilot.press("k", "k", "k")
        assert is_safe_for_terminal(screen_text(app))
