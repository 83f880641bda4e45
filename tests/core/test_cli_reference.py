"""The site's command-line reference (docs/reference/cli.md) is generated from the parser by
scripts/cli_reference.py: the committed page must be what the script writes now, and must name
every command and every option that `--help` shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from ragdiag_tui.cli import build_parser

from ..scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "reference" / "cli.md"


def help_text(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as caught:
        build_parser().parse_args([*argv, "--help"])
    assert caught.value.code == 0
    return out.getvalue()


def listed_options(text: str) -> set[str]:
    """The options a help text lists: each line of its argument sections that starts with one."""
    options = set()
    for line in text.splitlines():
        if line.startswith("  -"):
            options.update(re.findall(r"(?:^|, )(--?[A-Za-z][\w-]*)", line.strip()))
    return options


def command_names() -> list[str]:
    """The commands `ragdiag-tui --help` lists under COMMAND, read from the help text itself."""
    text = help_text()
    block = text.split("positional arguments:", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^ {4}(\w+)", block, flags=re.MULTILINE)


def test_the_committed_page_is_what_the_script_writes_now() -> None:
    page = load_script("cli_reference").render()
    assert PAGE.read_text(encoding="utf-8") == page, "run: python scripts/cli_reference.py"


def test_the_page_names_every_command() -> None:
    page = PAGE.read_text(encoding="utf-8")
    names = command_names()
    assert {"review", "diagnose", "check", "stats", "export", "sample", "serve", "compare", "merge"} <= set(
        names
    )
    for name in names:
        assert f"## `{name}` {{#{name}}}" in page, name


@pytest.mark.parametrize(
    "argv", [(), *[(name,) for name in command_names()]], ids=lambda argv: " ".join(argv) or "top"
)
def test_the_page_names_every_option_help_shows(argv: tuple[str, ...]) -> None:
    page = PAGE.read_text(encoding="utf-8")
    options = listed_options(help_text(*argv))
    assert "--help" in options
    title = f"## `{argv[0]}` {{#{argv[0]}}}" if argv else "## `ragdiag-tui`"
    section = page.split(title, 1)[1].split("\n## ", 1)[0]
    for option in options:
        assert f"`{option}`" in section, (argv, option)


def test_the_page_states_defaults_and_exit_statuses() -> None:
    page = PAGE.read_text(encoding="utf-8")
    serve = page.split("## `serve`", 1)[1].split("\n## ", 1)[0]
    assert "| `--port` | PORT | `8000` |" in serve
    assert "| `--host` | HOST | `127.0.0.1` |" in serve
    for name in ("diagnose", "sample", "compare", "merge"):
        section = page.split(f"## `{name}`", 1)[1].split("\n## ", 1)[0]
        assert "exit status: 0" in section, name
