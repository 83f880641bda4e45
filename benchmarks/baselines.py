"""Bare decode-and-diagnose loops: the baselines `ragdiag-tui diagnose` is measured against.

Each reads a JSON Lines file, applies the reference rule to every line and writes
one JSON line per run, with none of the project's code. They skip what the tool
must do (strict errors, duplicate ids, line numbers, case files), so they are the
floor: the fastest loops we know how to write, not straw men.
"""

from __future__ import annotations

import gc
import json
import sys
from typing import Any

import msgspec


def rule(required: Any, context: Any, correct: Any) -> dict[str, Any]:
    if not required:
        return {"stage": "unresolved"}
    if type(correct) is not bool:
        return {"error": "answer-label"}
    have = set(context)
    missing = sorted({i for i in required if i not in have})
    if missing:
        return {"stage": "retrieval", "missing": missing}
    return {"stage": "pass" if correct else "generation", "missing": []}


def stdlib_loop(path: str, out_path: str) -> int:
    """The stdlib `json` loop, with the collector paused as a careful author would."""
    gc.disable()
    n = 0
    loads, dumps = json.loads, json.dumps
    with open(path, "rb") as src, open(out_path, "w") as out:
        for n, line in enumerate(src, start=1):
            run = loads(line)
            result = {"id": run.get("id", str(n))}
            result.update(rule(run.get("required"), run.get("context"), run.get("correct")))
            out.write(dumps(result) + "\n")
    return n


class _Fields(msgspec.Struct):
    id: str | None = None
    required: list[str] | None = None
    context: list[str] | None = None
    correct: Any = None


def msgspec_loop(path: str, out_path: str) -> int:
    """The fastest loop found: msgspec typed decode of only the needed fields."""
    gc.disable()
    decode = msgspec.json.Decoder(_Fields).decode
    encode = msgspec.json.Encoder().encode
    n = 0
    with open(path, "rb") as src, open(out_path, "wb") as out:
        write = out.write
        for n, line in enumerate(src, start=1):
            run = decode(line)
            result = {"id": run.id if run.id is not None else str(n)}
            result.update(rule(run.required, run.context, run.correct))
            write(encode(result) + b"\n")
    return n


LOOPS = {"stdlib": stdlib_loop, "msgspec": msgspec_loop}

if __name__ == "__main__":
    print(LOOPS[sys.argv[1]](sys.argv[2], sys.argv[3]))
