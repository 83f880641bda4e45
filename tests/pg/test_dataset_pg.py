"""A lake reviewed in place by a team through PostgreSQL: labels stored under the dataset's
run ids, one review per dataset (its files' names and sizes), each teammate seeing the others'."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from ragdiag_tui.core.review.postgres.store import fingerprint
from ragdiag_tui.engines.dataset import open_dataset
from ragdiag_tui.ui.app import RagdiagApp, create_app

from ..ui.helpers import DEMO, SIZE, loaded, wait_until

pytest.importorskip("duckdb")
from ragdiag_tui.engines.duckdb.review_rows import DatasetRows


def write_lake(folder: Path) -> Path:
    lines = DEMO.read_text(encoding="utf-8").splitlines(keepends=True)
    (folder / "lake").mkdir()
    (folder / "lake" / "a.jsonl").write_text("".join(lines[:30]), encoding="utf-8")
    (folder / "lake" / "b.jsonl").write_text("".join(lines[30:]), encoding="utf-8")
    return folder / "lake"


def lake_app(lake: Path, reviewer: str, url: str) -> RagdiagApp:
    rows = DatasetRows(open_dataset([str(lake)]))
    return create_app(rows.path, reviewer=reviewer, journal=url, source=rows)


async def test_a_team_reviews_a_lake_in_postgresql(pg_url: str, tmp_path: Path) -> None:
    lake = write_lake(tmp_path)
    alice, bob = lake_app(lake, "alice", pg_url), lake_app(lake, "bob", pg_url)
    async with alice.run_test(size=SIZE) as a, bob.run_test(size=SIZE) as b:
        await loaded(a)
        await loaded(b)
        await a.press("end", "y")  # run-0080, in the lake's second file
        bob_review = bob.review_screen.review
        assert bob_review is not None
        await wait_until(
            b, lambda: bob_review.reviewers(79).get("alice") is not None, "alice's label at bob's"
        )
        assert bob_review.label(79) is True
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            "SELECT record FROM ragdiag.entries WHERE review = %s ORDER BY seq", [fingerprint(lake)]
        ).fetchall()
    assert [(json.loads(r)["run"], json.loads(r)["reviewer"], json.loads(r)["label"]) for (r,) in rows] == [
        ("run-0080", "alice", True)
    ]
    assert not Path(f"{lake}.review.jsonl").exists()  # the team's journal is the database's
