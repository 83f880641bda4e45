"""Run `ragdiag-tui` commands one after another in one Spark application, printing what each
printed and its exit status as one JSON list.

`python -m tests.engines.spark_cluster_driver MASTER ARGS_JSON`: ARGS_JSON is a list of argument
lists. The session is started here, on MASTER, so the commands use it as it is (and leave it
running): the cluster test pays for one driver and one executor, not one per command.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys

from ragdiag_tui.cli import main as ragdiag_tui


def run(commands: list[list[str]]) -> list[dict[str, object]]:
    results = []
    for args in commands:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = ragdiag_tui(args)
        results.append({"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()})
    return results


if __name__ == "__main__":
    from ragdiag_tui.engines.spark.session import build_session

    session = build_session(sys.argv[1])
    try:
        print(json.dumps(run(json.loads(sys.argv[2]))))
    finally:
        session.stop()
