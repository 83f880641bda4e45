"""Run files, journals and pages shared by the report's tests: a reviewed spot-check (its ids
read back from the journal the `sample` command writes, never assumed), a hostile run file,
and the parts of a written page."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ragdiag_tui.cli import main

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "sample_runs" / "demo.jsonl"
DEMO_AFTER = REPO / "sample_runs" / "demo_after.jsonl"
DOCS = REPO / "sample_runs" / "docs.jsonl"

HOSTILE = [
    "<script>document.title='pwned-script'</script>",
    '"><img src=x onerror="document.title=\'pwned-img\'">',
    "javascript:document.title='pwned-js'",
    "</script><script>document.title='pwned-close'</script>",
    "<svg onload=\"document.title='pwned-svg'\"></svg>",
    "x](javascript:alert(1)) [link](javascript:alert(1)) *em* | pipe | https://evil.example/x "
    "www.evil.example `code` $x$",
]


def journal_path(path: Path) -> Path:
    return Path(f"{path}.review.jsonl")


def journal_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in journal_path(path).read_text(encoding="utf-8").splitlines()]


def label(
    path: Path, run: str, value: bool, reviewer: str, tags: list[str] | None = None, note: str = ""
) -> None:
    """Append a reviewer's label record, as the app journals it."""
    record = {
        "v": 1,
        "run": run,
        "label": value,
        "note": note,
        "tags": tags or [],
        "reviewer": reviewer,
        "at": "2026-11-30T00:00:00.000000Z",
    }
    with journal_path(path).open("a", encoding="utf-8") as journal:
        journal.write(json.dumps(record) + "\n")


def draw(path: Path, view: str, size: int, name: str | None = None) -> list[str]:
    """Draw a spot-check with `ragdiag-tui sample`; its ids as the journal records them."""
    argv = ["sample", str(path), "--view", view, "-n", str(size), "--seed", "7"]
    assert main([*argv, *(["--name", name] if name else [])]) in (0, 1)
    drawn = [r for r in journal_records(path) if r.get("kind") == "spot-check"]
    return drawn[-1]["ids"]


def reviewed_demo(folder: Path) -> tuple[Path, list[str]]:
    """demo.jsonl with a spot-check of lucky answers, two reviewers on its first runs: the
    first three overturned by both, the fourth in conflict, the fifth held."""
    path = folder / "demo.jsonl"
    path.write_bytes(DEMO.read_bytes())
    ids = draw(path, "lucky", 6)
    for at, run in enumerate(ids[:5]):
        first = at >= 4
        second = at == 3 or at >= 4
        label(path, run, first, "ana", [] if first else ["required-wrong"], "checked" if at == 0 else "")
        label(path, run, second, "ben", [] if second else ["required-wrong"])
    return path, ids


class Page(HTMLParser):
    """A written page, parsed: every start tag with its attributes, the text, and the embedded data."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data
        else:
            self.text.append(data)

    def data(self) -> dict[str, Any]:
        """The embedded figures (the one script element's JSON)."""
        assert len(self.scripts) == 1
        return json.loads(self.scripts[0])


def page(path: Path) -> Page:
    return Page(path.read_text(encoding="utf-8"))


def hostile_review(folder: Path) -> tuple[Path, Path, Path]:
    """A run file whose every text is hostile markup (ids, questions, answers, document IDs and
    texts), reviewed by hostile reviewers with hostile notes and tags, in a spot-check with a
    hostile name; with its documents and a tag file of hostile names. Every run is a lucky
    answer overturned by its reviewers. Returns (run file, documents, tags)."""
    path, docs, tags = folder / "hostile.jsonl", folder / "docs.jsonl", folder / "tags.toml"
    runs = [
        {
            "id": f"{h}#{i}",
            "question": h,
            "answer": h,
            "required": [h, f"doc{i}"],
            "context": [f"doc{i}"],
            "correct": True,
            "model": h,
        }
        for i, h in enumerate(HOSTILE)
    ]
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    docs.write_text("".join(json.dumps({"id": h, "text": h}) + "\n" for h in HOSTILE), encoding="utf-8")
    tags.write_text(
        "".join(f'[[tag]]\nkey = "t{i}"\nname = {json.dumps(h)}\n' for i, h in enumerate(HOSTILE[:5])),
        encoding="utf-8",
    )
    ids = draw(path, "lucky", len(HOSTILE), name=HOSTILE[3])
    draw(path, "lucky", 2, name=HOSTILE[5])  # a second spot-check, named in Markdown link syntax
    for at, run in enumerate(ids):
        for reviewer in (HOSTILE[at], HOSTILE[(at + 1) % len(HOSTILE)]):
            label(path, run, False, reviewer, ["t0", HOSTILE[at]], note=HOSTILE[at])
    return path, docs, tags
