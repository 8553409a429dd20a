"""No import circle between the modules of bot/, rules/ and scrapers/ (issue 37.5).

Every `import` statement counts — at module level and inside functions alike: an import moved into
a function to dodge a circle still couples the two modules, so the test sees it.

How the edges are drawn:
- `import a.b.c` and `from a.b.c import x` depend on `a.b.c` only. Python runs `a/__init__` and
  `a/b/__init__` first, but those implicit package edges are not drawn (else every package whose
  `__init__` re-exports its submodules would be a circle with each of them).
- `from a.b import c` reads the namespace of the package `a.b`, so it depends on `a.b` (its
  `__init__`) and, when `c` is a submodule, on `a.b.c` as well. Relative imports are resolved
  first. So a package `__init__` that imports its submodules, and a submodule that reaches a
  sibling *through the package* (`from bot.cli import args`), form a circle: the sibling is
  imported directly (`import bot.cli.args as arg`, `from bot.cli.args import x`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import rustworkx as rx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "rules", "scrapers")


def _modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for top in packages:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _base(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module an ImportFrom names (relative levels resolved)."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if _is_package(path) else module.split(".")[:-1]
    anchor = package[: len(package) - (node.level - 1)]
    return ".".join(anchor + ([node.module] if node.module else []))


def _targets(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, path, node)
            for alias in node.names:
                targets.add(base)
                targets.add(f"{base}.{alias.name}")
    return {target for target in targets if target in known and target != module}


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES
                 ) -> tuple[rx.PyDiGraph, list[str]]:
    known = _modules(root, packages)
    names = sorted(known)
    index = {name: position for position, name in enumerate(names)}
    graph = rx.PyDiGraph()
    graph.add_nodes_from(names)
    for name in names:
        for target in _targets(name, known[name], known):
            graph.add_edge(index[name], index[target], None)
    return graph, names


def circles(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[list[str]]:
    graph, names = import_graph(root, packages)
    components = rx.strongly_connected_components(graph)
    return sorted(sorted(names[i] for i in c) for c in components if len(c) > 1)


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_walker_sees_relative_lazy_and_package_imports(tmp_path: Path) -> None:
    """Each way of importing makes its edge: a circle hidden in any of them is found."""
    _tree(tmp_path, {
        "pkg/__init__.py": "from pkg.a import A\nfrom pkg.c import C\n",
        "pkg/a.py": "A = 1\ndef f():\n    from .sub import deep\n",  # relative, in a function
        "pkg/sub/__init__.py": "",
        "pkg/sub/deep.py": "from ..b import B\n",  # two levels up
        "pkg/b.py": "import pkg.a as a\nB = 2\n",
        "pkg/c.py": "from pkg import b\nC = 3\n",  # a sibling through the package
        "pkg/d.py": "import pkg.b\n",  # the sibling itself: no edge to the package
    })
    assert circles(tmp_path, ("pkg",)) == [
        ["pkg", "pkg.c"],  # the package's __init__ imports c, which reads the package
        ["pkg.a", "pkg.b", "pkg.sub.deep"],
    ]
    graph, names = import_graph(tmp_path, ("pkg",))
    edges = {(names[a], names[b]) for a, b in graph.edge_list()}
    assert ("pkg.c", "pkg") in edges and ("pkg.c", "pkg.b") in edges
    assert ("pkg.d", "pkg.b") in edges and ("pkg.d", "pkg") not in edges
    assert ("pkg.a", "pkg.sub.deep") in edges and ("pkg.sub.deep", "pkg.b") in edges


def test_the_graph_sees_known_edges() -> None:
    """The real tree is read (else the circle test below could pass by seeing nothing)."""
    graph, names = import_graph()
    index = {name: position for position, name in enumerate(names)}
    assert len(names) > 200
    assert graph.num_edges() > 500
    # absolute, module level
    assert graph.has_edge(index["bot.cli.common"], index["bot.config"])
    # `from rules.model import …` — a name from a module
    assert any(graph.has_edge(index[n], index["rules.model"]) for n in names if n != "rules.model")
    # an import inside a function: the cogs' factories load their cog when called
    assert graph.has_edge(index["bot.discord.cogs"], index["bot.discord.cogs.player"])


def test_no_import_circle() -> None:
    found = circles()
    assert not found, "import circles (strongly connected components):\n" + "\n".join(
        " ↔ ".join(component) for component in found
    )
