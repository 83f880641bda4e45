"""The file-safety core piece by piece: the registry of files read, the publication that
writes all of an output or none of it, and the messages a refusal or a failure prints."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.common.atomic import WriteRefused, open_output
from ragdiag_tui.core.common.publish import Publication
from ragdiag_tui.core.common.reads import forget_reads, read_as, register_read

from .file_safety import fingerprint, make_folder


def test_a_registered_file_is_refused_through_a_symlink_and_a_hard_link(tmp_path: Path) -> None:
    corpus = tmp_path / "docs.jsonl"
    corpus.write_text("{}\n", encoding="utf-8")
    (tmp_path / "link").symlink_to(corpus)
    os.link(corpus, tmp_path / "hard")
    forget_reads()
    register_read(corpus, "the --docs corpus")
    for name in ("docs.jsonl", "link", "hard"):
        refused = pytest.raises(WriteRefused, match=f"cannot write .*{name}: it is the --docs corpus")
        with refused, open_output(tmp_path / name) as out:
            out.write(b"x")
    assert corpus.read_text(encoding="utf-8") == "{}\n"
    forget_reads()
    assert read_as(corpus) is None


def test_a_file_read_and_deleted_since_protects_nothing(tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    old.write_text("{}\n", encoding="utf-8")
    register_read(old, "the run file")
    old.unlink()
    new = tmp_path / "new.jsonl"  # may be given the freed inode
    new.write_text("x", encoding="utf-8")
    assert read_as(new) is None


def test_a_publication_renames_nothing_until_every_file_is_written(tmp_path: Path) -> None:
    first, second = tmp_path / "a.md", tmp_path / "a-stages.svg"
    first.write_text("before", encoding="utf-8")
    with pytest.raises(OSError, match="No space left"), Publication() as publication:
        for target in (first, second):
            publication.add(target)
        with publication.write(str(first)) as out:
            out.write(b"after")
        with publication.write(str(second)) as out:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert sorted(os.listdir(tmp_path)) == ["a.md"]  # no temporary file left, no chart
    assert first.read_text(encoding="utf-8") == "before"


def test_a_publication_checks_every_target_before_writing_any(tmp_path: Path) -> None:
    tags = tmp_path / "tags.toml"
    tags.write_text("", encoding="utf-8")
    register_read(tags, "the tags file")
    (tmp_path / "r-stages.svg").symlink_to(tags)
    with pytest.raises(WriteRefused, match="it is the tags file"), Publication() as publication:
        publication.add(tmp_path / "r.md")
        publication.add(tmp_path / "r-stages.svg")
    assert sorted(os.listdir(tmp_path)) == ["r-stages.svg", "tags.toml"]
    forget_reads()


def test_a_failed_markdown_report_leaves_no_side_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ragdiag_tui.core.output.report import write

    files = make_folder(tmp_path / "f")
    before = fingerprint(tmp_path / "f")

    def full_disk(*args: object) -> str:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(write, "render_markdown", full_disk)  # after the charts are written
    code = main(["report", str(files["run"]), "-o", str(tmp_path / "f" / "out.md")])
    assert code == 2
    assert fingerprint(tmp_path / "f") == before
    assert "None" not in capsys.readouterr().err


def test_a_write_failure_names_its_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    files = make_folder(tmp_path / "f")
    capsys.readouterr()
    assert main(["diagnose", str(files["run"]), "-o", "/dev/full"]) == 2
    err = capsys.readouterr().err
    assert "/dev/full: No space left on device" in err
    assert "None" not in err


def test_a_journal_given_by_journal_is_called_the_review_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = make_folder(tmp_path / "f")
    capsys.readouterr()
    code = main(["export", str(files["run"]), "--journal", str(files["custom"]), "-o", str(files["custom"])])
    assert code == 2
    err = capsys.readouterr().err
    assert f"cannot write {files['custom']}: it is the review journal" in err
    assert "the run file" not in err
