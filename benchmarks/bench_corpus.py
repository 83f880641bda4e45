"""Memory and time of opening a `--docs` corpus: one JSON array against the same documents as
JSON Lines (issue 22 item 8: a JSON array peaked at about 25x its size).

    python benchmarks/bench_corpus.py [--mb 100] [--shapes tiny typical]

Two corpora of about `--mb` MB each are written once under benchmarks/data/ (not timed):

- tiny: `{"id": "doc-0000001", "text": "refund window"}`, about 45 bytes a document,
  the worst case for an index (the issue's corpus of tiny objects);
- typical: an id, a title and a 30-word text, about 230 bytes a document.

Each is opened in a fresh interpreter (`DocStore.open`), as `.json` (one array) and as
`.jsonl`, and the probe prints: the seconds to open; the peak resident memory over the
interpreter's own (ru_maxrss, in MB, and as a multiple of the file's size); the peak of
Python's allocations while opening (tracemalloc, a second open, slower); the memory kept once
open; and the time to read one document back. Nothing is asserted; the goal is a peak under 3x
the file's size for both formats.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
WORDS = ["refund", "policy", "window", "deploy", "freeze", "approve", "leave", "guide", "vpn", "reset"]

PROBE = """
import os, resource, sys, time, tracemalloc
from ragdiag_tui.core.runs.corpus import DocStore
def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
before = rss()
start = time.perf_counter()
docs = DocStore.open(sys.argv[1])
opened = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - before
kept = rss() - before
ids = list(docs)[:: max(1, len(docs) // 1000)]
start = time.perf_counter()
assert all(docs.text(doc_id) is not None for doc_id in ids)
read = (time.perf_counter() - start) / len(ids)
count = len(docs)
docs.close()
del docs
tracemalloc.start()
DocStore.open(sys.argv[1]).close()
traced = tracemalloc.get_traced_memory()[1] / 2**20
print(opened, peak, kept, read, traced, count)
"""


def document(shape: str, i: int, rng: random.Random) -> dict[str, str]:
    if shape == "tiny":
        return {"id": f"doc-{i:07d}", "text": f"{rng.choice(WORDS)} {rng.choice(WORDS)}"}
    text = " ".join(rng.choice(WORDS) for _ in range(30))
    return {"id": f"kb-{i}", "title": f"Document {i}", "text": text}


def corpora(shape: str, megabytes: int) -> tuple[Path, Path]:
    """The same documents as one JSON array (one document a line, as `json.dump` of a list with
    newlines writes them) and as JSON Lines, written once."""
    DATA.mkdir(exist_ok=True)
    array, lines = DATA / f"corpus-{shape}-{megabytes}mb.json", DATA / f"corpus-{shape}-{megabytes}mb.jsonl"
    if not (array.exists() and lines.exists()):
        rng = random.Random(1)
        with open(array, "w", encoding="utf-8") as out_array, open(lines, "w", encoding="utf-8") as out_lines:
            out_array.write("[\n")
            size, i = 0, 0
            while size < megabytes * 2**20:
                line = json.dumps(document(shape, i, rng))
                out_array.write(("," if i else "") + line + "\n")
                out_lines.write(line + "\n")
                size += len(line) + 2
                i += 1
            out_array.write("]\n")
    return array, lines


def measure(path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(done.stderr)
    opened, peak, kept, read, traced, count = map(float, done.stdout.split())
    size = path.stat().st_size / 2**20
    print(
        f"  {path.suffix:<7}{size:8.0f}{int(count):>11,}{opened:9.2f}{peak:9.0f}{peak / size:7.1f}x"
        f"{traced:10.0f}{traced / size:7.1f}x{kept:9.0f}{read * 1000:9.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mb", type=int, default=100, help="the size of each corpus, in MB")
    parser.add_argument("--shapes", nargs="+", default=["tiny", "typical"], choices=["tiny", "typical"])
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; sizes and memory in MB, times in seconds (read: ms)")
    header = f"  {'format':<7}{'size':>8}{'documents':>11}{'open':>9}{'peak RSS':>9}{'':>8}"
    header += f"{'tracemalloc':>10}{'':>8}{'kept':>9}{'read':>9}"
    for shape in args.shapes:
        array, lines = corpora(shape, args.mb)
        print(f"\n{shape} documents")
        print(header)
        measure(array)
        measure(lines)


if __name__ == "__main__":
    main()
