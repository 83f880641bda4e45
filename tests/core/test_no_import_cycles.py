"""No import circles anywhere in ragdiag_tui: not at run time, not under TYPE_CHECKING,
not inside a function. grimp (import-linter's own graph builder) reads every import
statement in the tree, wherever it stands, and a circle is a strongly connected set of
more than one module. The second test proves a planted circle is found.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FIND_CIRCLES = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import grimp

graph = grimp.build_graph("ragdiag_tui", cache_dir=None, exclude_type_checking_imports=False)
edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}

# Tarjan's strongly connected components, iteratively (the tree is deep enough to matter).
index, low, on_stack, stack, circles, counter = {}, {}, set(), [], [], [0]
for root in edges:
    if root in index:
        continue
    work = [(root, iter(edges[root]))]
    index[root] = low[root] = counter[0]; counter[0] += 1
    stack.append(root); on_stack.add(root)
    while work:
        node, children = work[-1]
        child = next(children, None)
        if child is not None:
            if child not in index:
                index[child] = low[child] = counter[0]; counter[0] += 1
                stack.append(child); on_stack.add(child)
                work.append((child, iter(edges.get(child, ()))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[node])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop(); on_stack.discard(member); component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))
print(json.dumps(sorted(circles)))
"""


def import_circles(repo: Path) -> list[list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", FIND_CIRCLES, str(repo)],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def test_no_module_of_ragdiag_tui_is_on_an_import_circle() -> None:
    assert import_circles(ROOT) == []


def test_a_circle_under_type_checking_or_inside_a_function_is_found(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "ragdiag_tui", copy / "ragdiag_tui", ignore=shutil.ignore_patterns("__pycache__"))
    core = copy / "ragdiag_tui" / "core" / "common"
    (core / "loop_a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .loop_b import B\n"
    )
    (core / "loop_b.py").write_text("def b():\n    from . import loop_a\n    return loop_a\nB = 1\n")
    circles = import_circles(copy)
    assert ["ragdiag_tui.core.common.loop_a", "ragdiag_tui.core.common.loop_b"] in circles
