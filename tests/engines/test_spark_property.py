"""A property of the Spark engine: random runs, split over files named in another order, give the
stats the rule gives run by run, and the sample hashlib's definition gives.

Few examples: each costs a few Spark jobs. The runs mix astral and private-use IDs (whose UTF-16
order differs from their code-point order), a lone surrogate, repeated ids, empty and missing lists,
and odd types, as a JSON Lines file may hold them.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.runs.metrics import id_metrics, metric_means
from ragdiag_tui.core.runs.rule import InvalidRun, diagnose, stage_of
from ragdiag_tui.engines.dataset import open_dataset
from ragdiag_tui.engines.results import sample_key, stats_dict

from .spark_support import ONE_SESSION, shared_session

pytestmark = ONE_SESSION

ID = st.text(alphabet=["a", "B", "\uff21", "\U0001f600", "\U00010000", "\ue000", "\ud800"], max_size=2)
ODD = st.one_of(
    st.integers(-2, 2), st.text(alphabet="ab", max_size=2), st.lists(st.one_of(ID, st.just(1)), max_size=2)
)
ID_LIST = st.one_of(st.none(), st.lists(ID, max_size=4), ODD)
RUN = st.fixed_dictionaries(
    {},
    optional={
        "id": st.one_of(st.sampled_from(["r1", "r2", "\U0001f600"]), st.integers(0, 3)),
        "required": ID_LIST,
        "context": ID_LIST,
        "correct": st.one_of(st.booleans(), st.none(), st.sampled_from(["true", 1])),
        "model": st.sampled_from(["m1", "m2"]),
    },
)
LINE = st.one_of(RUN, RUN, RUN, st.sampled_from(["[1, 2]", "not json", '"text"']))


def _expected_verdict(line: Any) -> tuple[str, dict[str, Any]] | None:
    """(stage, diagnosis) by the rule itself, or None for an invalid line."""
    if not isinstance(line, dict):
        return None
    if line.get("id") is not None and not isinstance(line["id"], str):
        return None
    try:
        diagnosis = diagnose(line)
    except InvalidRun:
        return None
    return stage_of(diagnosis), diagnosis


def _write(folder: Path, lines: list[Any], cuts: list[int], names: list[str]) -> list[tuple[str, int, Any]]:
    """Write `lines` split at `cuts` into files named `names`; (file, line, record) of each."""
    bounds = [0, *sorted(cuts), len(lines)]
    placed = []
    for name, start, end in zip(names, bounds, bounds[1:], strict=False):
        part = lines[start:end]
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in part), "utf-8")
        placed += [(name, number, record) for number, record in enumerate(part, 1)]
    return placed


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(LINE, min_size=1, max_size=25),
    cuts=st.lists(st.integers(0, 25), max_size=2),
    order=st.permutations(["b/part.jsonl", "a.jsonl", "c.jsonl"]),
    seed=st.integers(0, 10**6),
)
def test_split_runs_give_the_rules_stats_and_the_hash_sample(
    lines: list[Any], cuts: list[int], order: list[str], seed: int
) -> None:
    shared_session()
    from ragdiag_tui.engines import spark as engine

    cuts = [min(cut, len(lines)) for cut in cuts]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp, "lake")
        placed = _write(folder, lines, cuts, order[: len(cuts) + 1])
        dataset = open_dataset([str(folder)])
        placed = [((folder / name).relative_to(dataset.root).as_posix(), *rest) for name, *rest in placed]
        got = engine.stats(dataset, None)
        drawn = engine.sample(
            dataset, None, view="all", filters=[], n=5, margin=0.05, seed=seed, out=Path(tmp, "s.jsonl")
        )
    counts: dict[str, int] = {}
    missed: dict[str, int] = {}
    lucky = invalid = 0
    recall, precision, population = [], [], []
    for name, number, record in placed:
        verdict = _expected_verdict(record)
        if verdict is None:
            invalid += 1
            continue
        stage, diagnosis = verdict
        counts[stage] = counts.get(stage, 0) + 1
        for doc in diagnosis.get("missing", []) if stage == "retrieval" else []:
            missed[doc] = missed.get(doc, 0) + 1
        lucky += stage == "retrieval" and record.get("correct") is True
        run_recall, run_precision = id_metrics(record.get("required"), record.get("context"))
        recall.append(run_recall)
        precision.append(run_precision)
        run_id = record["id"] if isinstance(record.get("id"), str) else f"{name}:{number}"
        population.append((sample_key(seed, run_id), name, number, run_id))
    assert got == stats_dict(counts, lucky, invalid, missed.items(), metric_means(recall, precision))
    assert drawn.population == len(population)
    assert drawn.invalid == invalid
    assert list(drawn.ids) == [run_id for *_, run_id in sorted(population)[:5]]
