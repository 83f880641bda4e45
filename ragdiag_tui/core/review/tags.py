"""Reason tags: why a reviewer held or overturned a label, one number key each.

The default set is for lucky answers (labelled correct, a required document never
supplied), worded for labellers. A team replaces it with `--tags FILE`, a TOML file
of `[[tag]]` entries:

    [[tag]]
    key = "supported-elsewhere"        # short, journaled and exported: letters, digits, - _ .
    name = "Supported by another document"   # what the table and the keys show
    description = "A document that was supplied supports the answer."   # optional

At most nine tags (keys 1-9), keys unique. The journal stores keys, so a tag's name
and description can be reworded without touching past reviews.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..common.reads import register_read

MAX_TAGS = 9
MAX_BYTES = 1 << 20  # nine tags fit in far less; a bigger file is not a tag file
_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


@dataclass(frozen=True, slots=True)
class Tag:
    """One reason tag. `number` is its key on the keyboard (1-9)."""

    key: str
    name: str
    description: str
    number: int


DEFAULT_TAGS: tuple[Tag, ...] = (
    Tag(
        "supported-elsewhere",
        "Supported by another document",
        "Another document that was supplied supports the answer: the evidence was there after all.",
        1,
    ),
    Tag(
        "required-wrong",
        "Required set is wrong",
        "The required documents listed for this question are not the ones it needs.",
        2,
    ),
    Tag(
        "model-knowledge",
        "Answered from model knowledge",
        "The answer is right, but it came from what the model knew, not from the supplied documents.",
        3,
    ),
    Tag(
        "answer-wrong",
        "Answer is actually wrong",
        "The answer was labelled correct but is not: the label itself is wrong.",
        4,
    ),
    Tag(
        "partly-supported",
        "Partly supported",
        "The supplied documents support part of the answer; the rest has no evidence.",
        5,
    ),
)
"""The tags for spot-checking lucky answers, on keys 1-5."""


class TagsError(ValueError):
    """A tag file that cannot be used. The message names the file and the entry."""


def load_tags(path: str | os.PathLike[str]) -> tuple[Tag, ...]:
    """The tag set of a TOML file (see the module's docstring). Raises TagsError."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            register_read(name, "the tags file", os.fstat(handle.fileno()))
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise TagsError(f"{name}: cannot read the tag file ({exc.strerror or exc})") from None
    if len(raw) > MAX_BYTES:
        raise TagsError(f"{name}: over {MAX_BYTES // 1024} KiB, too big for at most {MAX_TAGS} tags")
    data = _decode(name, raw)
    entries = data.get("tag")
    unknown = sorted(set(data) - {"tag"})
    if unknown:
        raise TagsError(f"{name}: unknown table '{unknown[0]}'; write each tag as a [[tag]] entry")
    if not isinstance(entries, list) or not entries:
        raise TagsError(f"{name}: no [[tag]] entries; each needs key, name and optionally description")
    if len(entries) > MAX_TAGS:
        raise TagsError(f"{name}: {len(entries)} tags; at most {MAX_TAGS} fit on the keys 1-9")
    tags: list[Tag] = []
    seen: dict[str, int] = {}
    for number, entry in enumerate(entries, start=1):
        where = f"{name}, tag {number}"
        if not isinstance(entry, dict):
            raise TagsError(f"{where}: expected a table with key, name and description")
        extra = sorted(set(entry) - {"key", "name", "description"})
        if extra:
            raise TagsError(f"{where}: unknown field '{extra[0]}' (fields: key, name, description)")
        key = entry.get("key")
        if not isinstance(key, str) or not _KEY.fullmatch(key):
            raise TagsError(
                f"{where}: key must be 1-40 letters, digits, '-', '_' or '.', starting with a letter "
                f"or digit, got {key!r}"
            )
        where = f"{name}, tag {number} ('{key}')"
        if key in seen:
            raise TagsError(f"{where}: key already used by tag {seen[key]}")
        seen[key] = number
        label = entry.get("name")
        if not isinstance(label, str) or not label.strip():
            raise TagsError(f"{where}: name must be a non-empty string")
        description = entry.get("description", "")
        if not isinstance(description, str):
            raise TagsError(f"{where}: description must be a string")
        tags.append(Tag(key, label.strip(), description.strip(), number))
    return tuple(tags)


def _decode(name: str, raw: bytes) -> dict[str, object]:
    """The TOML document of `raw` (a UTF-8 BOM, as some editors save, is allowed).

    Any failure of the decoder becomes a TagsError naming the file: a hostile file
    (nested a thousand deep: RecursionError; huge: MemoryError) must not end the program.
    """
    import tomllib  # loaded on first use (--tags): the default set needs no TOML

    try:
        return tomllib.loads(raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8"))
    except UnicodeDecodeError:
        raise TagsError(f"{name}: not a TOML file (not UTF-8)") from None
    except tomllib.TOMLDecodeError as exc:
        raise TagsError(f"{name}: not a TOML file ({exc})") from None
    except RecursionError:
        raise TagsError(f"{name}: not a usable TOML file (nested too deeply)") from None
    except Exception as exc:  # MemoryError and any other failure of the decoder: the file is at fault
        raise TagsError(f"{name}: not a usable TOML file ({type(exc).__name__})") from None


def tag_by_number(tags: tuple[Tag, ...], number: int) -> Tag | None:
    """The tag on number key `number` (1-9), if the set has one."""
    return tags[number - 1] if 1 <= number <= len(tags) else None
