"""The spot-check commands: `sample`, `stats` spot-checks and metrics, `diagnose --metrics`."""

from __future__ import annotations

import csv
import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.review.state import open_review

from .references import REFERENCES, proportion_confint

WriteRuns = Callable[..., Path]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


METRIC_RUNS: list[Any] = [
    {"id": "half", "required": ["a", "b"], "context": ["a", "c", "d", "e"], "correct": True},
    {"id": "unres", "required": [], "context": ["a"], "correct": True},
    {"id": "none-given", "required": ["a"], "context": [], "correct": False},
    '{"id": "broken", "required": 5}',
    {"id": "nolabel", "required": ["a", "a"], "context": ["a"]},
]


# -- diagnose --metrics ------------------------------------------------------------------


def test_diagnose_metrics_adds_recall_and_precision_null_when_undefined(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = write_runs(METRIC_RUNS)
    code, out, _ = run_cli(capsys, "diagnose", path, "--metrics")
    assert code == 1  # the broken line, as without the flag
    lines = json_lines(out)
    assert lines[0] == {
        "id": "half",
        "stage": "retrieval",
        "missing": ["b"],
        "recall": 0.5,
        "precision": 0.25,
    }
    assert lines[1] == {"id": "unres", "stage": "unresolved", "recall": None, "precision": 0.0}
    assert lines[2] == {
        "id": "none-given",
        "stage": "retrieval",
        "missing": ["a"],
        "recall": 0.0,
        "precision": None,
    }
    assert "recall" not in lines[3] and lines[3]["error"] == "invalid-run"
    assert lines[4] == {"id": "nolabel", "error": "answer-label", "recall": 1.0, "precision": 1.0}
    assert list(lines[0]) == ["id", "stage", "missing", "recall", "precision"]


def test_diagnose_without_metrics_is_unchanged(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = write_runs(METRIC_RUNS)
    _, out, _ = run_cli(capsys, "diagnose", path)
    assert out.splitlines()[0] == '{"id":"half","stage":"retrieval","missing":["b"]}'
    assert all("recall" not in line for line in json_lines(out))


def test_diagnose_help_names_the_metrics_flag(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["diagnose", "--help"])
    assert "--metrics" in capsys.readouterr().out


# -- sample ------------------------------------------------------------------------------


def lucky_file(write_runs: WriteRuns, lucky: int = 30, other: int = 20) -> Path:
    runs: list[Any] = [
        {"id": f"lucky-{i}", "required": ["a", "b"], "context": ["a"], "correct": True} for i in range(lucky)
    ]
    runs += [{"id": f"pass-{i}", "required": ["a"], "context": ["a"], "correct": True} for i in range(other)]
    return write_runs(runs)


def journal_label(
    path: Path, run_id: str, label: bool, tags: list[str] | None = None, reviewer: str = "al"
) -> None:
    """Append a reviewer's label line, as the app journals it."""
    record = {
        "v": 1,
        "run": run_id,
        "label": label,
        "note": "",
        "tags": tags or [],
        "reviewer": reviewer,
        "at": "2026-11-30T00:00:00.000000Z",
    }
    with open(f"{path}.review.jsonl", "a", encoding="utf-8") as journal:
        journal.write(json.dumps(record) + "\n")


def by_key(ids: list[str], n: int, seed: int) -> list[str]:
    """The documented draw, computed with hashlib alone: the n smallest sha256 keys, in order."""
    return sorted(ids, key=lambda i: hashlib.sha256(f"{seed}\x1f{i}".encode()).hexdigest())[:n]


def journal_records(path: Path) -> list[dict[str, Any]]:
    journal = Path(f"{path}.review.jsonl")
    return json_lines(journal.read_text(encoding="utf-8")) if journal.exists() else []


def test_sample_prints_the_drawn_ids_and_journals_the_spot_check(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = lucky_file(write_runs)
    code, out, err = run_cli(
        capsys, "sample", path, "--view", "lucky", "-n", "5", "--seed", "42", "--reviewer", "bo"
    )
    assert code == 0
    population = [f"lucky-{i}" for i in range(30)]
    assert out.splitlines() == by_key(population, 5, 42)  # the documented sha256 draw
    assert "lucky-5: 5 of 30 runs in the lucky view, seed 42" in err
    (record,) = journal_records(path)
    assert {key: record[key] for key in ("kind", "name", "view", "filter", "seed", "population", "size")} == {
        "kind": "spot-check",
        "name": "lucky-5",
        "view": "lucky",
        "filter": "",
        "seed": 42,
        "population": 30,
        "size": 5,
    }
    assert record["ids"] == out.splitlines() and record["reviewer"] == "bo" and record["at"].endswith("Z")


def test_sample_json_shape(capsys: pytest.CaptureFixture[str], write_runs: WriteRuns) -> None:
    path = lucky_file(write_runs)
    code, out, _ = run_cli(
        capsys,
        "sample",
        path,
        "--view",
        "all",
        "--filter",
        "PASS",
        "-n",
        "3",
        "--seed",
        "1",
        "--name",
        "passes",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["name", "view", "seed", "population", "ids"]
    assert data == {
        "name": "passes",
        "view": "all",
        "seed": 1,
        "population": 20,
        "ids": by_key([f"pass-{i}" for i in range(20)], 3, 1),
    }


def test_the_same_inputs_give_the_same_ids_and_record_nothing_new(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = lucky_file(write_runs)
    argv = ("sample", path, "--view", "lucky", "-n", "7", "--seed", "3")
    _, first, _ = run_cli(capsys, *argv)
    code, again, err = run_cli(capsys, *argv)
    assert (code, again) == (0, first)
    assert "already recorded" in err
    assert len(journal_records(path)) == 1


def test_a_used_name_needs_replace(capsys: pytest.CaptureFixture[str], write_runs: WriteRuns) -> None:
    path = lucky_file(write_runs)
    run_cli(capsys, "sample", path, "--view", "lucky", "-n", "7", "--seed", "3")
    code, out, err = run_cli(capsys, "sample", path, "--view", "lucky", "-n", "7", "--seed", "4")
    assert (code, out) == (2, "")
    assert "a spot-check named 'lucky-7' already exists" in err and "--replace" in err
    code, out, _ = run_cli(capsys, "sample", path, "--view", "lucky", "-n", "7", "--seed", "4", "--replace")
    assert code == 0 and [record["seed"] for record in journal_records(path)] == [3, 4]


def test_a_spot_check_drawn_before_the_sha256_draw_keeps_its_ids(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    # Journaled by an earlier version, which drew random.Random(3).sample of the ids in file order.
    path = lucky_file(write_runs)
    old_ids = random.Random(3).sample([f"lucky-{i}" for i in range(30)], 7)
    assert old_ids != by_key([f"lucky-{i}" for i in range(30)], 7, 3)
    record = {"v": 1, "kind": "spot-check", "name": "lucky-7", "view": "lucky", "filter": "", "seed": 3,
              "population": 30, "size": 7, "ids": old_ids, "reviewer": "bo",
              "at": "2026-11-01T00:00:00Z"}  # fmt: skip
    Path(f"{path}.review.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    for run_id in old_ids[:2]:
        journal_label(path, run_id, False)
    before = Path(f"{path}.review.jsonl").read_bytes()
    code, out, err = run_cli(capsys, "sample", path, "--view", "lucky", "-n", "7", "--seed", "3")
    assert (code, out) == (2, "")  # nothing re-drawn, nothing replaced
    assert "same view, filter, seed and size but other runs" in err and "it keeps its runs" in err
    assert Path(f"{path}.review.jsonl").read_bytes() == before
    code, out, _ = run_cli(capsys, "stats", path, "--json")
    (spot_check,) = json.loads(out)["spot_checks"]
    assert (spot_check["name"], spot_check["reviewed"], spot_check["overturned"]) == ("lucky-7", 2, 2)
    review = open_review(path, reviewer="al")
    assert review.spot_checks["lucky-7"].ids == tuple(old_ids)


def test_more_than_the_population_takes_it_all(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = lucky_file(write_runs, lucky=4)
    code, out, _ = run_cli(capsys, "sample", path, "--view", "lucky", "-n", "50", "--seed", "9", "--json")
    data = json.loads(out)
    assert code == 0 and data["name"] == "lucky-4" and sorted(data["ids"]) == [f"lucky-{i}" for i in range(4)]


def test_auto_size_with_a_margin(capsys: pytest.CaptureFixture[str], write_runs: WriteRuns) -> None:
    path = lucky_file(write_runs, lucky=373, other=0)
    _, out, _ = run_cli(capsys, "sample", path, "--view", "lucky", "-n", "auto", "--seed", "1", "--json")
    assert len(json.loads(out)["ids"]) == 190
    _, out, _ = run_cli(
        capsys, "sample", path, "--view", "lucky", "-n", "auto", "--margin", "0.1", "--seed", "1", "--json"
    )
    assert len(json.loads(out)["ids"]) == 77


def test_a_margin_too_small_to_compute_draws_the_whole_population(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    # 1e-170 squared is 0.0: this was a ZeroDivisionError with a traceback.
    path = lucky_file(write_runs, lucky=12, other=0)
    code, out, _ = run_cli(
        capsys, "sample", path, "--view", "lucky", "-n", "auto", "--margin", "1e-170", "--seed", "1", "--json"
    )
    assert code == 0 and len(json.loads(out)["ids"]) == 12


def test_lucky_means_lucky_in_the_file(capsys: pytest.CaptureFixture[str], write_runs: WriteRuns) -> None:
    path = lucky_file(write_runs, lucky=10)
    for i in range(6):  # six lucky answers overturned
        journal_label(path, f"lucky-{i}", False)
    _, out, _ = run_cli(capsys, "sample", path, "--view", "lucky", "-n", "3", "--seed", "5", "--json")
    assert json.loads(out)["population"] == 10


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--view", "luck", "-n", "5", "--seed", "1"), "invalid choice"),
        (("--view", "lucky", "-n", "0", "--seed", "1"), "give a whole number"),
        (("--view", "lucky", "-n", "five", "--seed", "1"), "give a whole number"),
        (("--view", "lucky", "-n", "5", "--seed", "x"), "invalid int"),
        (("--view", "lucky", "-n", "5"), "required: --seed"),
        (("--view", "lucky", "-n", "auto", "--margin", "2", "--seed", "1"), "above 0 and at most 0.5"),
        (("--view", "lucky", "-n", "auto", "--margin", "0", "--seed", "1"), "'0': the margin is a"),
        (
            ("--view", "lucky", "-n", "auto", "--margin", "0.9", "--seed", "1"),
            "above 0 and at most 0.5, such as 0.05",
        ),
        (("--view", "lucky", "-n", "auto", "--margin", "nan", "--seed", "1"), "'nan': the margin is a"),
    ],
)
def test_bad_sample_arguments_exit_2(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, argv: tuple[str, ...], message: str
) -> None:
    path = lucky_file(write_runs)
    with pytest.raises(SystemExit) as exited:
        main(["sample", str(path), *argv])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err
    assert journal_records(path) == []


def test_a_margin_with_a_fixed_size_is_refused(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = lucky_file(write_runs)
    code, _, err = run_cli(
        capsys, "sample", path, "--view", "lucky", "-n", "5", "--margin", "0.1", "--seed", "1"
    )
    assert code == 2 and "--margin goes with -n auto" in err


def test_an_empty_population_draws_nothing(capsys: pytest.CaptureFixture[str], write_runs: WriteRuns) -> None:
    path = lucky_file(write_runs)
    code, out, err = run_cli(capsys, "sample", path, "--view", "generation", "-n", "5", "--seed", "1")
    assert (code, out) == (2, "")
    assert "no runs in the generation view: nothing to sample" in err
    assert journal_records(path) == []


def test_invalid_lines_still_draw_and_exit_1(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = write_runs([{"id": "a", "required": ["x"], "context": [], "correct": True}, "not json"])
    code, out, _ = run_cli(capsys, "sample", path, "--view", "lucky", "-n", "5", "--seed", "1")
    assert (code, out) == (1, "a\n")


def test_a_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run_cli(
        capsys, "sample", tmp_path / "nope.jsonl", "--view", "lucky", "-n", "5", "--seed", "1"
    )
    assert (code, out) == (2, "") and "nope.jsonl" in err


# -- stats: spot-checks and metrics --------------------------------------------------------


def test_stats_json_reports_each_spot_check(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = lucky_file(write_runs)
    _, out, _ = run_cli(capsys, "sample", path, "--view", "lucky", "-n", "4", "--seed", "2", "--json")
    ids = json.loads(out)["ids"]
    labels = [(ids[0], False, ["answer-wrong"]), (ids[1], True, []), (ids[2], False, ["supported-elsewhere"])]
    for run_id, label, tags in labels:
        journal_label(path, run_id, label, tags)
    code, out, _ = run_cli(capsys, "stats", path, "--json")
    assert code == 0
    (report,) = json.loads(out)["spot_checks"]
    assert {
        key: report[key]
        for key in ("name", "view", "seed", "population", "size", "reviewed", "held", "overturned")
    } == {
        "name": "lucky-4",
        "view": "lucky",
        "seed": 2,
        "population": 30,
        "size": 4,
        "reviewed": 3,
        "held": 1,
        "overturned": 2,
    }
    assert report["overturned_rate"]["estimate"] == pytest.approx(2 / 3)
    assert report["tags"]["answer-wrong"]["count"] == 1
    assert set(report["tags"]["answer-wrong"]["rate"]) == {"estimate", "low", "high", "exact"}
    code, text, _ = run_cli(capsys, "stats", path)
    assert "lucky-4: the file's label was overturned on an estimated 67% of lucky answers (95% CI" in text
    assert (
        "3 of 30 reviewed: 1 held, 2 overturned, 0 in conflict (1 of the 4 sampled still to review)" in text
    )
    assert "Answer is actually wrong (answer-wrong): 1 of 3" in text


@REFERENCES
def test_stats_and_export_count_a_conflict_apart_and_its_tags_nowhere(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = lucky_file(write_runs)
    _, out, _ = run_cli(capsys, "sample", path, "--view", "lucky", "-n", "4", "--seed", "2", "--json")
    ids = json.loads(out)["ids"]
    journal_label(path, ids[0], False, ["answer-wrong"])  # overturned, agreed by both
    journal_label(path, ids[0], False, ["answer-wrong"], reviewer="bo")
    journal_label(path, ids[1], True, [])  # held
    journal_label(path, ids[2], False, ["answer-wrong"])  # in conflict: the file's label stays
    journal_label(path, ids[2], True, ["supported-elsewhere"], reviewer="bo")
    _, out, _ = run_cli(capsys, "stats", path, "--json")
    (report,) = json.loads(out)["spot_checks"]
    counted = [report[key] for key in ("reviewed", "held", "overturned", "conflicts", "settled")]
    assert counted == [3, 1, 1, 1, 2]
    population = report["population"]
    n_eff = 2 * (population - 1) / (population - 2)  # the two settled runs only
    low, high = proportion_confint(1 / 2 * n_eff, n_eff, method="wilson")
    rate = report["overturned_rate"]
    assert (rate["estimate"], rate["low"], rate["high"]) == pytest.approx((0.5, low, high))
    assert report["tags"]["answer-wrong"]["count"] == 1
    assert report["tags"]["supported-elsewhere"]["count"] == 0
    _, text, _ = run_cli(capsys, "stats", path)
    assert (
        f"3 of {population} reviewed: 1 held, 1 overturned, 1 in conflict "
        "(the estimate is over the 2 with a settled label)"
    ) in text
    assert "Answer is actually wrong (answer-wrong): 1 of 2" in text
    out_path = path.with_name("out.jsonl")
    run_cli(capsys, "export", path, "-o", str(out_path))
    exported = {run["id"]: run for run in map(json.loads, out_path.read_text("utf-8").splitlines())}
    assert exported[ids[0]]["tags"] == ["answer-wrong"]
    assert exported[ids[2]]["label_source"] == "conflict" and exported[ids[2]]["tags"] == []
    csv_path = path.with_name("out.csv")
    run_cli(capsys, "export", path, "-o", str(csv_path))
    rows = {row["id"]: row for row in csv.DictReader(csv_path.open(encoding="utf-8"))}
    assert json.loads(rows[ids[0]]["tags"]) == ["answer-wrong"] and rows[ids[2]]["tags"] == ""


def test_stats_without_spot_checks_has_an_empty_list(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    _, out, _ = run_cli(capsys, "stats", lucky_file(write_runs), "--json")
    assert json.loads(out)["spot_checks"] == []


def test_stats_metrics_means(capsys: pytest.CaptureFixture[str], write_runs: WriteRuns) -> None:
    path = write_runs(METRIC_RUNS)
    _, out, _ = run_cli(capsys, "stats", path, "--json")
    metrics = json.loads(out)["metrics"]
    # recall: 0.5, 0.0, 1.0 (unres undefined); precision: 0.25, 0.0, 1.0 (none-given undefined)
    assert metrics["recall_mean"] == pytest.approx(0.5)
    assert metrics["precision_mean"] == pytest.approx(1.25 / 3)
    assert (metrics["recall_runs"], metrics["precision_runs"]) == (3, 3)
    _, text, _ = run_cli(capsys, "stats", path)
    assert "ID-based context recall, mean (RAGAS):             0.500 over 3 runs" in text


def test_stats_metrics_undefined_everywhere_are_null(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    _, out, _ = run_cli(capsys, "stats", write_runs([{"id": "u", "required": [], "correct": True}]), "--json")
    assert json.loads(out)["metrics"]["recall_mean"] is None


def test_stats_with_a_bad_tag_file_names_it(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, tmp_path: Path
) -> None:
    tags = tmp_path / "team.toml"
    tags.write_text('[[tag]]\nkey = "a"\n', encoding="utf-8")
    code, out, err = run_cli(capsys, "stats", lucky_file(write_runs), "--tags", tags)
    assert (code, out) == (2, "")
    assert "team.toml, tag 1 ('a'): name must be a non-empty string" in err


@pytest.mark.parametrize("command", ["stats", "review"])
def test_a_tag_file_nested_a_thousand_deep_is_refused_naming_it(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, tmp_path: Path, command: str
) -> None:
    tags = tmp_path / "deep.toml"
    tags.write_text("x = " + "[" * 1000 + "]" * 1000 + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, command, lucky_file(write_runs), "--tags", tags)
    assert (code, out) == (2, "")
    assert "deep.toml: not a usable TOML file (nested too deeply)" in err


# -- review: --tags and --docs ---------------------------------------------------------------


class FakeApp:
    return_code = 0

    def run(self) -> None:
        pass


def test_review_passes_the_tag_set_and_the_docs_to_the_app(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ragdiag_tui.ui.app

    built: dict[str, Any] = {}

    def create_app(path: str, **options: Any) -> FakeApp:
        built.update(options)
        return FakeApp()

    monkeypatch.setattr(ragdiag_tui.ui.app, "create_app", create_app)
    tags = tmp_path / "team.toml"
    tags.write_text('[[tag]]\nkey = "stale"\nname = "Out of date"\n', encoding="utf-8")
    docs = tmp_path / "docs.jsonl"
    docs.write_text('{"doc_id": "a", "body": "text"}\n', encoding="utf-8")
    path = lucky_file(write_runs)
    code, _, _ = run_cli(capsys, "--tags", tags, "--docs", docs, "--docs-map", "id=doc_id",
                         "--docs-map", "text=body", path)  # fmt: skip
    assert code == 0
    assert [tag.key for tag in built["tags"]] == ["stale"]
    assert built["docs"].open().text("a") == "text"
    run_cli(capsys, "review", path)
    assert [tag.key for tag in built["tags"]][:1] == ["supported-elsewhere"] and built["docs"] is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--tags", "{tmp}/none.toml"), "none.toml: cannot read the tag file"),
        (("--docs", "{tmp}/none.jsonl"), "none.jsonl: cannot read the documents"),
        (("--docs-map", "id=doc_id"), "--docs-map needs --docs FILE"),
    ],
)
def test_review_refuses_unusable_tags_or_docs_before_the_app(
    capsys: pytest.CaptureFixture[str],
    write_runs: WriteRuns,
    tmp_path: Path,
    options: tuple[str, str],
    message: str,
) -> None:
    path = lucky_file(write_runs)
    code, _, err = run_cli(capsys, "review", path, *(option.format(tmp=tmp_path) for option in options))
    assert code == 2 and message in err


def test_a_bad_docs_map_is_a_usage_error(capsys: pytest.CaptureFixture[str], write_runs: WriteRuns) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["review", str(lucky_file(write_runs)), "--docs", "x", "--docs-map", "title=t"])
    assert exited.value.code == 2 and "a document field is one of id, text" in capsys.readouterr().err


def test_serve_hands_tags_and_docs_to_each_pages_review_command(
    capsys: pytest.CaptureFixture[str],
    write_runs: WriteRuns,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import shlex

    import ragdiag_tui.serve
    from ragdiag_tui.cli import parse_args

    commands: list[str] = []

    def serve(path: str, **options: Any) -> int:
        commands.append(
            ragdiag_tui.serve.review_command(
                path, options["reviewer"], options["field_map"], options=options["options"]
            )
        )
        return 0

    monkeypatch.setattr(ragdiag_tui.serve, "serve", serve)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "team tags.toml").write_text('[[tag]]\nkey = "a"\nname = "A"\n', encoding="utf-8")
    (tmp_path / "docs.jsonl").write_text('{"id": "a", "text": "t"}\n', encoding="utf-8")
    path = lucky_file(write_runs)
    code, _, _ = run_cli(
        capsys,
        "serve",
        path,
        "--tags",
        "team tags.toml",
        "--docs",
        "docs.jsonl",
        "--docs-map",
        "text=the text",
    )
    assert code == 0
    args = parse_args(shlex.split(commands[0])[4:])
    assert args.tags == str(tmp_path / "team tags.toml")
    assert args.docs == str(tmp_path / "docs.jsonl")
    assert args.docs_map == ["text=the text"]
    code, _, err = run_cli(capsys, "serve", path, "--tags", "missing.toml")
    assert code == 2 and "missing.toml: cannot read the tag file" in err and len(commands) == 1


def test_a_journal_that_cannot_be_written_records_nothing_and_exits_2(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    path = lucky_file(write_runs)
    Path(f"{path}.review.jsonl").mkdir()  # the journal's place is taken by a folder
    code, out, err = run_cli(capsys, "sample", path, "--view", "lucky", "-n", "3", "--seed", "1")
    assert (code, out) == (2, "")
    assert "the spot-check was not recorded" in err


def test_sample_filters_by_a_field_as_the_app_does(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    runs = [
        {
            "id": f"r{i}",
            "required": ["a"],
            "context": [],
            "correct": True,
            "model": "gpt-4o" if i % 3 else "llama",
        }
        for i in range(9)
    ]
    path = write_runs(runs)
    code, out, _ = run_cli(
        capsys,
        "sample",
        path,
        "--view",
        "lucky",
        "--filter",
        "model:llama",
        "-n",
        "9",
        "--seed",
        "1",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["population"] == 3 and sorted(data["ids"]) == ["r0", "r3", "r6"]
    assert journal_records(path)[0]["filter"] == "model:llama"


def test_a_spot_check_of_runs_the_file_does_not_hold_is_flagged_in_stats(
    capsys: pytest.CaptureFixture[str], write_runs: WriteRuns
) -> None:
    first = write_runs(
        [{"id": f"a{n}", "required": ["D"], "context": ["D"], "correct": True} for n in range(5)]
    )
    assert (
        run_cli(capsys, "sample", first, "--view", "all", "-n", "3", "--seed", "1", "--name", "wk48")[0] == 0
    )
    other = write_runs(
        [{"id": f"b{n}", "required": ["D"], "context": ["D"], "correct": True} for n in range(5)],
        "other.jsonl",
    )
    Path(f"{other}.review.jsonl").write_bytes(Path(f"{first}.review.jsonl").read_bytes())
    _, out, _ = run_cli(capsys, "stats", other)
    assert "wk48: none of its 3 sampled runs is in this file" in out
    _, out, _ = run_cli(capsys, "stats", other, "--json")
    (spot_check,) = json.loads(out)["spot_checks"]
    assert spot_check["absent"] == 3
    _, out, _ = run_cli(capsys, "stats", first, "--json")
    assert json.loads(out)["spot_checks"][0]["absent"] == 0
