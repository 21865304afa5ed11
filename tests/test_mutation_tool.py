"""The mutation-testing tool (tests/mutation.py, ``scripts/mutation``): it makes the mutants
it says, the same ones for a seed, and never writes into the working tree's sources."""

from __future__ import annotations

import ast
import functools
import hashlib
from pathlib import Path

import mutation
from mutation import Mutant, Worker, mutants, read_equivalents, sample

ROOT = Path(__file__).resolve().parent.parent

SOURCE = '''\
import os

LIMIT = 3


def f(a: int, b: int = 2) -> int | None:
    """A docstring is never mutated."""
    if a < b and b:
        return a + 1
    x = not a
    while x is not None:
        x -= 1
    return True if a in (1, 2) else b


class C:
    size: int = 7

    def g(self) -> str:
        return f"{self.size - 1}"
'''


@functools.cache
def _engine_mutants() -> tuple[str, list[Mutant]]:
    source = (ROOT / "src" / "handfoot" / "game" / "checks.py").read_text(encoding="utf-8")
    return source, mutants(source, "game/checks.py")


def _made(ms: list[Mutant]) -> set[tuple[str, str]]:
    return {(m.operator, m.mutated_line(SOURCE)) for m in ms}


def test_it_makes_the_mutants_it_says() -> None:
    ms = mutants(SOURCE, "x.py")
    made = _made(ms)
    for expected in [
        ("< → >=", "if a >= b and b:"),
        ("< → <=", "if a <= b and b:"),
        ("and → or", "if a < b or b:"),
        ("not", "if not (a < b and b):"),
        ("+ → -", "return a - 1"),
        ("1 → 2", "return a + 2"),
        ("1 → 0", "return a + 0"),
        ("delete", "pass"),
        ("return None", "return None"),
        ("not x → x", "x = (a)"),
        ("is not → is", "while x is None:"),
        ("not", "while not (x is not None):"),
        ("-= → +=", "x += 1"),
        ("True → False", "return False if a in (1, 2) else b"),
        ("in → not in", "return True if a not in (1, 2) else b"),
        ("2 → 3", "def f(a: int, b: int = 3) -> int | None:"),
    ]:
        assert expected in made, expected
    # only the insides of functions: no imports, module constants, class fields,
    # annotations, docstrings or f-strings
    assert all(m.line >= 6 and m.line not in (7, 17) for m in ms)
    assert {m.operator for m in ms if m.line == 6} == {"2 → 3", "2 → 1"}  # the default
    assert {m.operator for m in ms if m.line == 20} == {"delete", "return None"}
    for m in ms:
        mutated = m.apply(SOURCE)
        assert mutated != SOURCE and len(mutated.splitlines()) == len(SOURCE.splitlines())
        ast.parse(mutated)  # every mutant compiles
    assert len({m.key for m in ms}) == len(ms) and [m.number for m in ms] == list(range(len(ms)))


def test_the_sample_is_the_same_for_a_seed() -> None:
    source, every = _engine_mutants()
    assert len(every) > 1000
    first = sample(every, 50, seed=7)
    assert first == sample(mutants(source, "game/checks.py"), 50, seed=7)
    assert first != sample(every, 50, seed=8)
    assert [m.number for m in first] == sorted(m.number for m in first)
    assert sample(every[:10], 50, seed=7) == every[:10]


def test_a_mutant_keeps_its_key_when_lines_move() -> None:
    moved = "def before() -> int:\n    return 0\n\n\n" + SOURCE
    keys = {m.key for m in mutants(SOURCE, "x.py")}
    assert keys <= {m.key for m in mutants(moved, "x.py")}


def test_the_equivalent_mutants_listed_are_mutants_of_today_s_code() -> None:
    listed = read_equivalents()
    assert listed, "tests/mutation_equivalent.txt lists none"
    by_module: dict[str, dict[str, Mutant]] = {}
    for e in listed:
        if e.module == "game/checks.py":
            by_module[e.module] = {m.key: m for m in _engine_mutants()[1]}
        elif e.module not in by_module:
            path = ROOT / "src" / "handfoot" / e.module
            by_module[e.module] = {m.key: m for m in mutants(
                path.read_text(encoding="utf-8"), e.module)}
        m = by_module[e.module].get(e.key)
        assert m is not None, f"{e.module}:{e.line} {e.key} is no longer a mutant: check it again"
        assert m.operator == e.operator and e.reason


def _tree_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted((ROOT / "src").rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def test_a_mutant_runs_in_a_copy_and_never_in_the_working_tree(tmp_path: Path) -> None:
    before = _tree_digest()
    worker = Worker.make(ROOT, "game/checks.py", tmp_path)
    try:
        assert worker.root.parent == tmp_path and worker.module_path.is_relative_to(tmp_path)
        mutation.check_copy(worker)  # the tests import the copy's package
        source = worker.original
        assert source == _engine_mutants()[0]
        m = next(m for m in _engine_mutants()[1]
                 if "g.twos < -1 or" in m.mutated_line(source))
        test = "tests/test_engine_edges.py::test_a_meld_group_of_a_negative_count_is_refused"
        worker.limits["fast"] = 120
        outcome = mutation.run_mutant(worker, m, [("fast", [test])])
        assert outcome.status == "killed" and outcome.stage == "fast"
        # the copy holds the original again, and passes
        assert worker.module_path.read_text(encoding="utf-8") == source
        assert worker.run([test], 120, extra=mutation.STAGE_OPTIONS["fast"])[0] == "passed"
    finally:
        worker.remove()
    assert not worker.root.exists()
    assert _tree_digest() == before
