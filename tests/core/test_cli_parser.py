"""The command line as a package: the parser is whole (one ArgumentParser with every
command's subparser, for a generated reference page), the headless commands never
import Textual or Rich, and `python -m ragdiag_tui.cli` is the command too."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ragdiag_tui import __version__
from ragdiag_tui.cli import COMMANDS, HANDLERS, build_parser


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_build_parser_returns_every_command_with_its_own_help() -> None:
    parsers = subcommands(build_parser())
    assert set(parsers) == set(COMMANDS) == set(HANDLERS)
    for name, parser in parsers.items():
        assert parser.prog == f"ragdiag-tui {name}"
        assert parser.description and parser.epilog


def test_options_shared_by_several_commands_read_alike() -> None:
    parsers = subcommands(build_parser())
    helps: dict[str, set[str | None]] = {}
    for parser in parsers.values():
        for action in parser._actions:
            if action.option_strings in (["--map"], ["--preset"], ["--tags"], ["--docs"]):
                helps.setdefault(action.option_strings[0], set()).add(action.help)
    assert set(helps) == {"--map", "--preset", "--tags", "--docs"}
    assert all(len(texts) == 1 for texts in helps.values())


@pytest.mark.parametrize(
    "argv",
    [
        ["diagnose", "{file}", "-o", "{out}"],
        ["check", "{file}"],
        ["stats", "{file}", "--no-journal"],
        ["export", "{file}", "-o", "{out}", "--no-journal"],
        ["compare", "{file}", "{file}", "--no-journal"],
        ["serve", "--help"],
        ["--help"],
    ],
)
def test_headless_commands_import_neither_textual_nor_rich(
    write_runs: Callable[..., Path], tmp_path: Path, argv: list[str]
) -> None:
    path = write_runs([{"id": "a", "required": ["D1"], "context": ["D1"], "correct": True}])
    code = (
        "import contextlib, io, sys\n"
        "from ragdiag_tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    try:\n        main(sys.argv[1:])\n    except SystemExit:\n        pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'textual_serve')))"
    )
    args = [arg.format(file=path, out=tmp_path / "out.jsonl") for arg in argv]
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_python_m_ragdiag_tui_cli_is_the_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ragdiag_tui.cli", "--version"], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout.strip()) == (0, f"ragdiag-tui {__version__}")


@pytest.mark.parametrize(
    "argv",
    [
        ["--spot-check", "wk48", "runs.jsonl"],
        ["--spot-check", "sample", "runs.jsonl"],  # a value that is a command's name is still a value
        ["--reviewer", "bob", "--blind", "--spot-check", "check", "runs.jsonl"],
        ["--baseline", "old.jsonl", "runs.jsonl", "--spot-check", "wk48"],
        ["--spot-check", "stats", "--", "runs.jsonl"],
    ],
)
def test_review_options_before_the_file_mean_the_default_review_command(argv: list[str]) -> None:
    from ragdiag_tui.cli import parse_args

    args = parse_args(argv)
    assert (args.command, args.file) == ("review", "runs.jsonl")


def test_every_review_option_with_a_value_may_come_before_the_file() -> None:
    from ragdiag_tui.cli import parse_args

    # Each value is a command's name: taken for the command, it would break the line.
    values = {"preset": "ragas", "map": "id=name", "docs_map": "text=content", "match": "text"}
    values.update(label_threshold="0.5", engine="duckdb")
    for action in subcommands(build_parser())["review"]._actions:
        if action.option_strings and action.nargs != 0:
            args = parse_args([action.option_strings[-1], values.get(action.dest, "stats"), "runs.jsonl"])
            assert (args.command, args.file) == ("review", "runs.jsonl"), action.option_strings
