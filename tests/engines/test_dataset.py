"""What a dataset is: a directory, a glob or several files, of one format, in a fixed order."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragdiag_tui.core.analysis.filtering import FieldTerm
from ragdiag_tui.engines.dataset import DatasetError, is_dataset_input, open_dataset
from ragdiag_tui.engines.results import parse_filters, sample_key


def touch(path: Path, text: str = "{}\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_directory_lists_its_run_files_recursively_sorted_by_relative_path(tmp_path: Path) -> None:
    for name in ("b.jsonl", "a/z.jsonl", "a.jsonl", "runs.review.jsonl", ".hidden.jsonl", "_tmp/x.jsonl",
                 "notes.txt"):  # fmt: skip
        touch(tmp_path / name)
    ds = open_dataset([str(tmp_path)])
    assert ds.root == tmp_path
    assert ds.names == ("a.jsonl", "a/z.jsonl", "b.jsonl")  # journals, hidden files and others left out
    assert ds.format == "jsonl"


def test_a_glob_and_several_files_share_their_common_parent_as_root(tmp_path: Path) -> None:
    for name in ("x/1.jsonl", "x/2.jsonl", "y/3.jsonl"):
        touch(tmp_path / name)
    assert open_dataset([str(tmp_path / "*" / "*.jsonl")]).names == ("x/1.jsonl", "x/2.jsonl", "y/3.jsonl")
    ds = open_dataset([str(tmp_path / "y/3.jsonl"), str(tmp_path / "x/1.jsonl")])
    assert (ds.root, ds.names) == (tmp_path, ("x/1.jsonl", "y/3.jsonl"))


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ((), "no Parquet or JSON Lines"),
        (("a.jsonl", "b.parquet"), "one format"),
        (("runs.csv",), "not a dataset file"),
    ],
)
def test_inputs_that_are_no_dataset_are_refused_with_a_reason(
    tmp_path: Path, names: tuple[str, ...], message: str
) -> None:
    for name in names:
        touch(tmp_path / name, "PAR1" if name.endswith("parquet") else "{}\n")
    inputs = [str(tmp_path)] if names != ("runs.csv",) else [str(tmp_path / "runs.csv")]
    with pytest.raises(DatasetError, match=message):
        open_dataset(inputs)


def test_a_missing_path_or_a_glob_matching_nothing_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no such file"):
        open_dataset([str(tmp_path / "absent.jsonl")])
    with pytest.raises(DatasetError, match="no file matches"):
        open_dataset([str(tmp_path / "*.parquet")])


def test_what_counts_as_a_dataset_on_the_command_line(tmp_path: Path) -> None:
    path = touch(tmp_path / "runs.jsonl")
    assert not is_dataset_input([str(path)])
    assert is_dataset_input([str(tmp_path)])
    assert is_dataset_input([str(tmp_path / "*.jsonl")])
    assert is_dataset_input([str(path), str(path)])


def test_the_sample_key_is_sha256_of_seed_unit_separator_and_id() -> None:
    import hashlib

    assert sample_key(7, "run-\U0001f600") == hashlib.sha256("7\x1frun-\U0001f600".encode()).hexdigest()


def test_dataset_filters_are_the_apps_field_terms() -> None:
    # The app's terms: FIELD:VALUE (contains, case-folded), FIELD:=VALUE (whole), FIELD: (present).
    assert parse_filters('model:GPT-4o day:="2026-11-30" source:"a B" note:') == (
        FieldTerm("model", "gpt-4o", False),
        FieldTerm("day", "2026-11-30", True),
        FieldTerm("source", "a b", False),
        FieldTerm("note", "", False),
    )
    with pytest.raises(ValueError, match="FIELD:VALUE"):
        parse_filters("plain text")
    with pytest.raises(ValueError, match="FIELD:VALUE"):
        parse_filters("model:x plain")
    with pytest.raises(ValueError, match="journal"):
        parse_filters("is:lucky")


def test_the_sample_key_is_the_cores() -> None:
    from ragdiag_tui.core.analysis import sampling

    assert sample_key is sampling.sample_key
