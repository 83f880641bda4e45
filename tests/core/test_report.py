"""`ragdiag-tui report`: the page's figures are those of `stats --json` and `compare --json`,
its evidence cards show the overturned runs, and its Markdown twin travels."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from ragdiag_tui.cli import main

from .report_files import DEMO, DEMO_AFTER, DOCS, page, reviewed_demo


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def stats_json(capsys: pytest.CaptureFixture[str], *argv: object) -> dict:
    code, out, _ = run(capsys, "stats", *argv, "--json")
    assert code in (0, 1)
    return json.loads(out)


def test_the_embedded_figures_are_what_stats_json_prints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = reviewed_demo(tmp_path)
    out = tmp_path / "report.html"
    code, _, err = run(capsys, "report", path, "-o", out)
    assert code == 0, err
    assert f"wrote {out}" in err
    data = page(out).data()
    assert data["stats"] == stats_json(capsys, path)
    assert data["stats"]["spot_checks"][0]["overturned"] == 3  # the review is applied
    assert data["report"]["runs"] == 80 and data["report"]["file"] == "demo.jsonl"
    assert data["report"]["reviewers"] == ["ana", "ben"]
    assert "compare" not in data


@pytest.mark.parametrize(
    ("name", "options"),
    [("ragas_runs.jsonl", ["--preset", "ragas"]), ("bad_lines.jsonl", []), ("runs.csv", [])],
)
def test_the_figures_match_stats_on_the_sample_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, options: list[str]
) -> None:
    path = tmp_path / name
    path.write_bytes((DEMO.parent / name).read_bytes())
    out = tmp_path / "report.html"
    code, _, _ = run(capsys, "report", path, "-o", out, *options)
    expected_code, _, _ = run(capsys, "stats", path, *options)
    assert code == expected_code  # 1 when some lines are invalid, as stats
    assert page(out).data()["stats"] == stats_json(capsys, path, *options)


def test_with_a_baseline_the_figures_include_what_compare_json_prints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_bytes(DEMO.read_bytes())
    new.write_bytes(DEMO_AFTER.read_bytes())
    out = tmp_path / "report.html"
    assert run(capsys, "report", new, "-o", out, "--baseline", old)[0] == 0
    code, printed, _ = run(capsys, "compare", old, new, "--json")
    assert code == 0
    data = page(out).data()
    assert data["compare"] == json.loads(printed)
    assert data["stats"] == stats_json(capsys, new)
    text = "".join(page(out).text)
    assert "Against the baseline old.jsonl" in text
    assert all(run_id in text for run_id in data["compare"]["fixed"][:50])


def test_each_overturned_run_gets_an_evidence_card_with_its_missing_documents(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, ids = reviewed_demo(tmp_path)
    out = tmp_path / "report.html"
    assert run(capsys, "report", path, "-o", out, "--docs", DOCS)[0] == 0
    parsed = page(out)
    cards = [attrs for tag, attrs in parsed.tags if tag == "article"]
    assert len(cards) == 3  # the three overturned; neither the one in conflict nor the held one
    text = "".join(parsed.text)
    assert "Evidence: the 3 overturned runs" in text
    runs = {json.loads(line)["id"]: json.loads(line) for line in DEMO.read_text().splitlines()}
    for run_id in ids[:3]:
        assert run_id in text
        assert runs[run_id]["answer"] in text
        for doc in set(runs[run_id]["required"]) - set(runs[run_id]["context"]):
            assert f"{doc} (missing)" in text
    docs = {json.loads(line)["id"]: json.loads(line)["text"] for line in DOCS.read_text().splitlines()}
    missing = sorted(set(runs[ids[0]]["required"]) - set(runs[ids[0]]["context"]))
    assert any(docs[doc][:80] in text for doc in missing if doc in docs)


def test_limit_caps_the_cards_and_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, _ = reviewed_demo(tmp_path)
    out = tmp_path / "report.html"
    assert run(capsys, "report", path, "-o", out, "--limit", "1")[0] == 0
    parsed = page(out)
    assert sum(tag == "article" for tag, _ in parsed.tags) == 1
    assert "Evidence: 1 of the 3 overturned runs (--limit 1)" in "".join(parsed.text)


def test_the_sentence_is_exactly_the_one_stats_prints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = reviewed_demo(tmp_path)
    out = tmp_path / "report.html"
    run(capsys, "report", path, "-o", out)
    _, printed, _ = run(capsys, "stats", path)
    sentence = next(line.strip() for line in printed.splitlines() if line.strip().startswith("lucky-6:"))
    assert sentence in page(out).text


def test_an_unknown_spot_check_is_refused_and_nothing_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = reviewed_demo(tmp_path)
    out = tmp_path / "report.html"
    code, _, err = run(capsys, "report", path, "-o", out, "--spot-check", "nope")
    assert code == 2
    assert "no spot-check named 'nope'" in err and "'lucky-6'" in err
    assert not out.exists()


def test_a_named_spot_check_is_the_only_one_shown(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, _ = reviewed_demo(tmp_path)
    assert (
        main(["sample", str(path), "--view", "retrieval", "-n", "3", "--seed", "1", "--name", "other"]) == 0
    )
    out = tmp_path / "report.html"
    assert run(capsys, "report", path, "-o", out, "--spot-check", "other")[0] == 0
    headings = [text for text in page(out).text if text in ("lucky-6", "other")]
    assert headings == ["other"]
    assert len(page(out).data()["stats"]["spot_checks"]) == 2  # the figures stay those of stats --json


def test_without_matplotlib_report_names_the_extra_and_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    out = tmp_path / "report.html"
    code, _, err = run(capsys, "report", DEMO, "-o", out)
    assert code == 2
    assert "pip install 'ragdiag-tui[report]'" in err
    assert not out.exists()


def test_an_output_that_is_neither_html_nor_markdown_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "report", DEMO, "-o", tmp_path / "report.pdf")
    assert code == 2 and "name an .html or .md file" in err


def test_the_report_never_replaces_the_run_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "runs.html"  # a run file that happens to end in .html
    path.write_bytes(DEMO.read_bytes())
    before = path.read_bytes()
    code, _, _ = run(capsys, "report", path, "-o", path)
    assert code == 2 and path.read_bytes() == before


def test_the_page_loads_nothing_and_forbids_every_script(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = reviewed_demo(tmp_path)
    out = tmp_path / "report.html"
    run(capsys, "report", path, "-o", out)
    parsed = page(out)
    csp = next(a["content"] for t, a in parsed.tags if t == "meta" and a.get("http-equiv"))
    assert "default-src 'none'" in csp and "script-src 'none'" in csp
    assert not [
        a for _, a in parsed.tags if {"src", "href"} & set(a) and not str(a.get("href", "")).startswith("#")
    ]
    assert sum(t == "svg" for t, _ in parsed.tags) >= 3  # stages, the spot-check's rates, most-missed
    assert "@media print" in out.read_text() and "prefers-color-scheme: dark" in out.read_text()


def test_the_markdown_report_has_the_tables_and_ids_and_its_charts_beside(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, ids = reviewed_demo(tmp_path)
    out = tmp_path / "report.md"
    code, _, err = run(capsys, "report", path, "-o", out)
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert "| stage | runs | share |" in text
    assert "### lucky-6" in text
    assert f"Overturned runs (3): {', '.join(ids[:3])}" in text
    assert "| reason tag | key | runs | estimate (95% CI) |" in text
    assert "## Agreement between reviewers" in text
    for chart in ("stages", "rates-0", "missed"):
        svg = ElementTree.parse(tmp_path / f"report-{chart}.svg").getroot()  # a file of its own
        assert svg.tag == "{http://www.w3.org/2000/svg}svg" and "color: #1b1f24" in svg.get("style", "")
        assert f"(report-{chart}.svg)" in text


def test_other_commands_never_import_matplotlib(tmp_path: Path) -> None:
    code = (
        "import sys\nfrom ragdiag_tui.cli import main\n"
        f"main(['stats', {str(DEMO)!r}, '--no-journal'])\n"
        "print('matplotlib' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.stderr.strip().endswith("False")


def test_a_long_table_of_reviewed_runs_is_cut_and_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ragdiag_tui.core.output.report import model

    monkeypatch.setattr(model, "REVIEWED_SHOWN", 2)
    path, _ = reviewed_demo(tmp_path)
    out = tmp_path / "report.html"
    assert run(capsys, "report", path, "-o", out)[0] == 0
    assert "Reviewed runs (the first 2 of 5)" in page(out).text
