"""The layers of docs/architecture.md, checked: the packages of ``src/handfoot`` and the
order in which they may import each other.

The layer table is read from docs/architecture.md ("The layers"), where it is written once.
Every ``import`` in every module (at the top, inside functions, under ``TYPE_CHECKING``) is
read from the source. A module may import its own package and the layers below; packages
that share a layer (the front ends) never import each other; no module is in two layers or
in none; and no chain of imports leads back to where it started.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "handfoot"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def read_layers(text: str) -> list[tuple[str, ...]]:
    """The layers, lowest first, from the table under "## The layers": each row's second
    cell names its packages (or modules) in backticks."""
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    layers: dict[int, tuple[str, ...]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].isdigit():
            names = tuple(re.findall(r"`(handfoot[\w.]*)`", cells[1]))
            assert names, f"docs/architecture.md: layer {cells[0]} names no package"
            layers[int(cells[0])] = names
    assert sorted(layers) == list(range(len(layers))), "layers are numbered 0, 1, 2, ..."
    return [layers[i] for i in range(len(layers))]


LAYERS = read_layers(ARCHITECTURE.read_text(encoding="utf-8"))


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts)


def owner(module: str, layers: list[tuple[str, ...]] = LAYERS) -> tuple[int, str]:
    """(layer, package) of a module: the longest package of the table that holds it
    (``handfoot`` itself holds only the package's ``__init__``)."""
    found = [(len(name), i, name) for i, names in enumerate(layers) for name in names
             if module == name or (name != "handfoot" and module.startswith(name + "."))]
    if not found:
        raise AssertionError(f"{module} is in no layer: add its package to the table in "
                             "docs/architecture.md")
    longest = max(found)[0]
    best = [(i, name) for size, i, name in found if size == longest]
    assert len(best) == 1, f"{module} is in two layers: {best}"
    return best[0]


def imports(path: Path) -> set[str]:
    """The handfoot modules a source file imports (``from handfoot.game import cards``
    names ``handfoot.game.cards``; ``from handfoot import build`` names ``handfoot``)."""
    out: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "handfoot")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != "handfoot":
                continue
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                is_module = (SRC.parent / (sub.replace(".", "/") + ".py")).exists() or (
                    SRC.parent / sub.replace(".", "/")).is_dir()
                out.add(sub if is_module else node.module)
    return out


def graph() -> dict[str, set[str]]:
    return {module_name(path): imports(path) for path in sources()}


def wrong_imports(edges: Mapping[str, Iterable[str]],
                  layers: list[tuple[str, ...]] = LAYERS) -> list[str]:
    """Every import against the layers: upward, or between packages of one layer."""
    wrong = []
    for me, others in sorted(edges.items()):
        mine, my_package = owner(me, layers)
        for other in sorted(others):
            theirs, their_package = owner(other, layers)
            if theirs > mine:
                wrong.append(f"{me} (layer {mine}) imports {other} (layer {theirs})")
            elif theirs == mine and their_package != my_package:
                wrong.append(f"{me} ({my_package}) imports {other} ({their_package}), a "
                             "package of the same layer")
    return wrong


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The import cycles: strongly connected groups of modules (Tarjan's algorithm), each
    with a path around it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in edges.get(v, ()):
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_layer_table_names_packages_that_exist() -> None:
    for names in LAYERS:
        for name in names:
            path = SRC.parent / name.replace(".", "/")
            assert path.is_dir() or path.with_suffix(".py").is_file(), name


def test_every_module_is_in_exactly_one_layer() -> None:
    for path in sources():
        owner(module_name(path))


def test_no_module_imports_against_the_layers() -> None:
    wrong = wrong_imports(graph())
    assert not wrong, "imports against the layers of docs/architecture.md:\n" + "\n".join(wrong)


def test_no_import_cycle() -> None:
    found = cycles(graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_top_level_holds_packages() -> None:
    """``ls src/handfoot`` shows the layers: at most six modules beside the packages
    (``__init__``, ``__main__`` and ``_version`` not counted)."""
    top = [p.name for p in SRC.glob("*.py")
           if p.name not in ("__init__.py", "__main__.py", "_version.py")]
    assert len(top) <= 6, top


def test_no_source_file_is_over_1200_lines() -> None:
    long = []
    for path in [*SRC.rglob("*.py"), *SRC.rglob("*.js"), *SRC.rglob("*.css")]:
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > 1200:
            long.append(f"{path.relative_to(SRC)}: {n} lines")
    assert not long, long


def test_an_upward_import_added_on_purpose_is_caught(tmp_path: Path) -> None:
    source = tmp_path / "engine.py"
    source.write_text("def f():\n    from handfoot.game.rulebook import describe_profile\n"
                      "    from handfoot.web.app import create_app\n")
    found = imports(source)
    assert found == {"handfoot.game.rulebook", "handfoot.web.app"}
    edges = {**graph(), "handfoot.game.engine": found}
    assert wrong_imports(edges) == [
        "handfoot.game.engine (layer 1) imports handfoot.web.app (layer 5)"]


def test_an_import_between_front_ends_is_caught() -> None:
    edges = {**graph()}
    edges["handfoot.web.tables"] = {*edges["handfoot.web.tables"], "handfoot.terminal.play"}
    assert wrong_imports(edges) == [
        "handfoot.web.tables (handfoot.web) imports handfoot.terminal.play (handfoot.terminal), "
        "a package of the same layer"]


def test_a_cycle_added_on_purpose_is_caught() -> None:
    edges = {**graph()}
    edges["handfoot.game.cards"] = {*edges["handfoot.game.cards"], "handfoot.game.engine"}
    (cycle,) = cycles(edges)
    assert {"handfoot.game.cards", "handfoot.game.engine"} <= set(cycle)


@pytest.mark.parametrize("text", ["## The layers\n| 0 | `handfoot.game` |\n| 2 | `x` |\n"])
def test_the_table_must_be_numbered_in_order(text: str) -> None:
    with pytest.raises(AssertionError):
        read_layers(text)
