"""The layers of docs/engine.md, checked: no module of handfoot imports one above it.

    cards → rules → moves → engine → record → bots → search → sim → cli/terminal/server

Every ``import`` in every module (at the top, inside functions, under ``TYPE_CHECKING``) is
read from the source; a module may import its own layer or those below, never above.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "handfoot"

LAYERS: list[tuple[str, ...]] = [
    ("handfoot.cards",),
    ("handfoot.rules",),
    ("handfoot.wording",),  # the rules in words the engine and the rulebook share
    ("handfoot.moves",),
    ("handfoot.table",),  # a side's books, going out and opening: for the engine and the bots
    ("handfoot.engine",),
    ("handfoot.record",),
    ("handfoot.notation",),  # positions in text (a profile is written as a record's)
    ("handfoot.bots",),
    ("handfoot.styles",),  # hard's settings tuned for a profile (style files)
    ("handfoot.search",),
    ("handfoot.plans",),  # whole candidate plans at a decision, hard's flagged
    ("handfoot.learned",),  # the learned bot: plans ranked by a network (NumPy)
    ("handfoot.registry",),  # every bot by name, above all of them
    ("handfoot.cluster",),  # running a run's game tasks (processes, Dask) and partial results
    ("handfoot.sim",),
    ("handfoot.tournament",),
    ("handfoot.train", "handfoot.tune"),  # training the learned bot's models and tuning
    # its style by self-play
    ("handfoot.rulebook",),  # the rules in prose, for the front ends (never the engine)
    ("handfoot.scoresheet",),  # score sheets of games played with real cards
    ("handfoot.cli", "handfoot.terminal", "handfoot.server", "handfoot.rl",
     "handfoot.web", "handfoot.score_terminal"),  # the front ends; handfoot.rl.* and
    # handfoot.web.* too
    ("handfoot",),  # the package's face re-exports the API
]

ALLOWED_UPWARD: dict[tuple[str, str], str] = {}
"""(importer, imported): why an import against the layers is allowed. None is: the last,
handfoot.bots serving the registry's BOTS/make_bot lazily through a module __getattr__,
went when bots.py became compiled by mypyc (whose module init crashes on one)."""


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> int:
    for i, names in enumerate(LAYERS):
        if any(module == name or module.startswith(name + ".") for name in names
               if name != "handfoot"):
            return i
    if module == "handfoot":
        return len(LAYERS) - 1
    raise AssertionError(f"{module} has no layer: add it to LAYERS in {__file__}")


def imports(path: Path) -> set[str]:
    """The handfoot modules a source file imports (``from handfoot import cards`` names
    ``handfoot.cards``; ``from handfoot import __version__`` names ``handfoot``)."""
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


def sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_module_has_a_layer() -> None:
    for path in sources():
        layer(module_name(path))


def test_no_module_imports_a_layer_above_it() -> None:
    wrong = []
    for path in sources():
        me = module_name(path)
        for other in sorted(imports(path)):
            if other == "handfoot" and me != "handfoot":
                continue  # the package itself: __version__, set before anything is imported
            if layer(other) > layer(me) and (me, other) not in ALLOWED_UPWARD:
                wrong.append(f"{me} (layer {layer(me)}) imports {other} (layer {layer(other)})")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_the_check_sees_a_wrong_import(tmp_path: Path) -> None:
    source = tmp_path / "engine.py"
    source.write_text("def f():\n    from handfoot.rulebook import describe_profile\n")
    assert imports(source) == {"handfoot.rulebook"}
    assert layer("handfoot.rulebook") > layer("handfoot.engine")
    assert layer("handfoot.rl.observation") == layer("handfoot.web.app") > layer("handfoot.sim")
