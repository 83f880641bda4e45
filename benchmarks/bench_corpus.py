"""Memory and time of opening a `--docs` corpus in each format the app reads: one JSON array,
JSON Lines, CSV and TSV (issue 22: a JSON array peaked at about 25x its size; opening any corpus
should peak under ~3x its size).

    python benchmarks/bench_corpus.py [--mb 100] [--shapes tiny typical]
        [--formats json jsonl csv tsv] [--against TREE]

Two corpora of about `--mb` MB each are written once under benchmarks/data/ (not timed), in each
format:

- tiny: `{"id": "doc-0000001", "text": "refund window"}`, about 45 bytes a document, the
  issue's corpus of tiny objects; as CSV, `doc-0000001,refund window`, 26 bytes a row, the
  worst case for an index (it is mostly ids);
- typical: an id, a title and a 30-word text, about 230 bytes a document.

Each is opened in a fresh interpreter (`DocStore.open`), and the probe prints: the seconds to
open, and the processor's seconds (cpu: steadier on a shared machine); the peak resident memory
over the interpreter's own (ru_maxrss, in MB, and as a multiple of the file's size); the peak
of Python's allocations while opening (tracemalloc, a second open, slower); the memory kept
once open; and the time to read one document back. With
`--against TREE` (another checkout's root, such as main's), each corpus is opened by that
tree's code too, alternately in the same run, for a before and after. Nothing is asserted; the
goal is a peak under 3x the file's size in every format.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
FORMATS = ("json", "jsonl", "csv", "tsv")
WORDS = ["refund", "policy", "window", "deploy", "freeze", "approve", "leave", "guide", "vpn", "reset"]

PROBE = """
import os, resource, sys, time, tracemalloc
from ragdiag_tui.core.runs.corpus import DocStore
def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
before = rss()
start, cpu = time.perf_counter(), time.process_time()
docs = DocStore.open(sys.argv[1])
opened, cpu = time.perf_counter() - start, time.process_time() - cpu
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
print(opened, cpu, peak, kept, read, traced, count)
"""


def document(shape: str, i: int, rng: random.Random) -> dict[str, str]:
    if shape == "tiny":
        return {"id": f"doc-{i:07d}", "text": f"{rng.choice(WORDS)} {rng.choice(WORDS)}"}
    text = " ".join(rng.choice(WORDS) for _ in range(30))
    return {"id": f"kb-{i}", "title": f"Document {i}", "text": text}


def corpora(shape: str, megabytes: int) -> dict[str, Path]:
    """The same documents as one JSON array (one document a line, as `json.dump` of a list with
    newlines writes them), as JSON Lines, as CSV and as TSV (a header row, then a row a
    document), written once; by format."""
    DATA.mkdir(exist_ok=True)
    paths = {suffix: DATA / f"corpus-{shape}-{megabytes}mb.{suffix}" for suffix in FORMATS}
    if all(path.exists() for path in paths.values()):
        return paths
    rng = random.Random(1)
    parts = {suffix: path.with_name(path.name + ".part") for suffix, path in paths.items()}
    with contextlib.ExitStack() as stack:
        out = {
            suffix: stack.enter_context(open(path, "w", encoding="utf-8", newline=""))
            for suffix, path in parts.items()
        }
        tables = {
            suffix: csv.writer(out[suffix], delimiter=",\t"[suffix == "tsv"], lineterminator="\n")
            for suffix in ("csv", "tsv")
        }
        out["json"].write("[\n")
        size, i = 0, 0
        while size < megabytes * 2**20:
            doc = document(shape, i, rng)
            line = json.dumps(doc)
            out["json"].write(("," if i else "") + line + "\n")
            out["jsonl"].write(line + "\n")
            for writer in tables.values():
                if not i:
                    writer.writerow(doc)
                writer.writerow(doc.values())
            size += len(line) + 2
            i += 1
        out["json"].write("]\n")
    for suffix, part in parts.items():  # whole files only: a run stopped midway writes them again
        part.replace(paths[suffix])
    return paths


def measure(path: Path, tree: str, label: str) -> None:
    env = dict(os.environ, PYTHONPATH=tree)
    done = subprocess.run(  # in the tree's folder, which `-c` puts first on the path
        [sys.executable, "-c", PROBE, str(path)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=tree,
    )
    if done.returncode:
        raise SystemExit(done.stderr)
    opened, cpu, peak, kept, read, traced, count = map(float, done.stdout.split())
    size = path.stat().st_size / 2**20
    print(
        f"  {path.suffix:<7}{label:<8}{size:8.0f}{int(count):>11,}{opened:9.2f}{cpu:9.2f}"
        f"{peak:9.0f}{peak / size:7.1f}x{traced:10.0f}{traced / size:7.1f}x{kept:9.0f}{read * 1000:9.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mb", type=int, default=100, help="the size of each corpus, in MB")
    parser.add_argument("--shapes", nargs="+", default=["tiny", "typical"], choices=["tiny", "typical"])
    parser.add_argument("--formats", nargs="+", default=list(FORMATS), choices=FORMATS)
    parser.add_argument("--against", metavar="TREE", help="another checkout's root, opened alternately")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; sizes and memory in MB, times in seconds (read: ms)")
    header = (
        f"  {'format':<7}{'code':<8}{'size':>8}{'documents':>11}{'open':>9}{'cpu':>9}{'peak RSS':>9}{'':>8}"
    )
    header += f"{'tracemalloc':>10}{'':>8}{'kept':>9}{'read':>9}"
    trees = [(str(HERE.parent), "this")]
    if args.against:
        trees.insert(0, (str(Path(args.against).resolve()), "against"))
    for shape in args.shapes:
        paths = corpora(shape, args.mb)
        print(f"\n{shape} documents")
        print(header)
        for suffix in args.formats:
            for tree, label in trees:
                measure(paths[suffix], tree, label)


if __name__ == "__main__":
    main()
