"""Mutation testing of the engine: does the suite notice when the code is wrong?

Run by ``scripts/mutation`` (never by the default test run). It samples N mutants of one
module (``--module``: one of :data:`MODULES`, the engine's modules and the web server's
``web/table.py``) with a fixed ``--seed``. A mutant is one small change to the source: a
comparison flipped, ``and``/``or`` swapped, a condition negated, an integer moved by one, a
statement deleted, ``+``/``-`` swapped, ``True``/``False`` swapped, a returned value
replaced by ``None``.

The working tree is never written to: each worker copies ``src/``, ``tests/`` and the files
the tests read into a temporary folder, writes the mutant there and runs pytest with
``PYTHONPATH`` pointing at the copy. A killed run leaves nothing behind but that folder.

Each mutant runs its module's fast tests first (:data:`MODULE_FAST_TESTS`, the engine's
example tests by default; ``-x``, a CPU-time limit per run: a mutant that loops forever is
stopped and counts as killed by timeout); a mutant they do not kill runs the broad suite
(every test file but the browser, web-server, PostgreSQL, soak, cluster, RL and benchmark
tests, see :data:`BROAD_EXCLUDED`; for ``web/table.py``, the web server's tests instead).
Mutants listed in ``tests/mutation_equivalent.txt`` (equivalent to the original: no test
can tell them apart) are set aside, not run.

    scripts/mutation --module engine.py -n 200 --seed 7 -j 2
    scripts/mutation --list                  # every mutant of the module, with its id
    scripts/mutation --mutant 1234 --show    # one mutant's diff
    scripts/mutation --mutant 1234           # run one mutant
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import copy
import dataclasses
import difflib
import hashlib
import itertools
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("game/engine.py", "game/checks.py", "game/listing.py", "game/state.py",
           "game/deal.py", "game/scoring.py", "game/events.py", "game/values.py",
           "game/rules.py", "game/loading.py", "game/moves.py", "game/record.py",
           "web/table.py")
"""The modules that can be mutated, as paths below src/handfoot."""
EQUIVALENT_FILE = ROOT / "tests" / "mutation_equivalent.txt"

FAST_TESTS = (
    "tests/test_engine_rules.py",
    "tests/test_engine_edges.py",
    "tests/test_illegal_moves.py",
    "tests/test_worked_examples.py",
    "tests/test_illegal_moves_remastered.py",
    "tests/test_worked_examples_remastered.py",
    "tests/test_views.py",
    "tests/test_deals.py",
    "tests/test_events.py",
    "tests/test_golden.py",
    "tests/test_validation.py",
    "tests/test_record.py",
)
"""The first stage, in order: the engine's example tests, a few seconds for the lot, which
kill most mutants (with ``-x``, usually in the first file)."""

BROAD_EXCLUDED = (
    "tests/e2e",  # the browser tests (Chromium)
    "tests/test_web_",  # the web server
    "tests/test_score_keeper",  # the score keeper: an app on the scoring code, not play
    "tests/test_cli_play.py",  # the terminal game played through its prompts (33 s)
    "tests/test_terminal.py",  # the terminal screens
    "tests/test_readme.py",  # the README's commands, run as programs
    "tests/test_soak.py",  # long games of every profile, behind a flag anyway
    "tests/test_cluster.py",  # dask workers
    "tests/test_rl_",  # the RL frameworks (NumPy, PettingZoo, OpenSpiel, Gymnasium)
    "tests/test_benchmarks.py",  # timings
    "tests/test_mutation_tool.py",  # this tool's own test
    "tests/test_compiled.py",  # reads pytest's cache, which a mutant's run has not got
)
"""Test files the second stage leaves out (prefixes): they need a browser, a server, a
database or a framework, or drive a user interface; they take long and test the engine only
through what the rest tests."""

_RULES_FAST = (
    "tests/test_profile_answers.py",  # seatings, sizes and minimums by round, wild limits
    "tests/test_profiles.py",  # every profile field's check and its reason
    "tests/test_cli_rules.py",  # the rules files and options on the command line
    *FAST_TESTS,
    "tests/test_generated_profiles.py",
    "tests/test_hostile_files.py",
)

MODULE_FAST_TESTS: dict[str, tuple[str, ...]] = {
    "game/rules.py": _RULES_FAST,
    "game/loading.py": _RULES_FAST,
    "game/moves.py": (
        "tests/test_move_encoding_edges.py",  # the action ids, the notation's corners
        "tests/test_wording.py",  # the moves' text, both ways
        "tests/test_meld_options.py",
        *FAST_TESTS,
        "tests/test_checked_moves.py",
        "tests/test_verify.py",
        "tests/test_apply_listed.py",
        "tests/test_options.py",
    ),
    "game/record.py": (
        "tests/test_record_edges.py",  # results at their bounds, mismatches, replay's text
        "tests/test_record.py",  # the record's format, its checks, its replay
        *FAST_TESTS,
        "tests/test_hostile_files.py",
        "tests/test_resume.py",
        "tests/test_trajectories.py",
    ),
    "web/table.py": (  # the tests that play through a table, fastest first
        "tests/test_web_table_edges.py",  # stale moves, refused hints, leaving, daily seed
        "tests/test_web_table_rounds.py",  # the bots across a round's end at a restore
        "tests/test_web_table_presence.py",  # who is away, stand-ins, presence, stop
        "tests/test_web_tally.py",
        "tests/test_web_checked_moves.py",
        "tests/test_web_broadcast.py",
        "tests/test_web_rematch.py",
        "tests/test_web_restore.py",
        "tests/test_web_idle.py",
        "tests/test_web_protocol.py",
    ),
}
"""The fast stage of each module whose own tests are not the engine's example tests
(:data:`FAST_TESTS`): the files that exercise it most, first, so that few mutants need the
broad stage (minutes a mutant)."""

WEB_MODULES = ("web/table.py",)
"""Modules of the web server: their broad stage is the web server's tests."""

STAGE_OPTIONS: dict[str, tuple[str, ...]] = {
    "fast": ("-p", "no:xdist", "-p", "no:asyncio", "-p", "no:anyio"),
    "broad": ("-n", "0"),
    "web fast": ("-p", "no:xdist"),
    "web broad": ("-n", "0"),
}
"""pytest options of each stage: the engine's fast tests need none of the plugins for
parallel or asynchronous tests, whose loading is most of a short run's start-up (1.1 s of
CPU of 1.3); the web server's tests need the asynchronous ones."""

COPIED = ("src", "tests", "docs", "examples", "benchmarks", "README.md", "pyproject.toml")
"""What a worker's copy holds: the package and what its tests read."""


# --- the mutants -------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    """One change to a module's source: the text from (line, col) to (end_line, end_col)
    (lines from 1, columns from 0, in characters) becomes ``replacement``."""

    module: str
    number: int
    """Its place in the module's list of mutants (source order); ``--mutant`` takes it."""
    operator: str
    """What it does, e.g. ``"< → >="``, ``"delete"``, ``"not"``, ``"3 → 4"``."""
    line: int
    col: int
    end_line: int
    end_col: int
    replacement: str
    original_line: str
    """The source line the change starts on, as it is (stripped)."""
    key: str
    """A hash of the original line, the operator and the change's place in its line: the
    name under which an equivalent mutant is listed (it survives edits elsewhere)."""

    def apply(self, source: str) -> str:
        """The module's source with this mutant in it."""
        lines = source.splitlines(keepends=True)
        start = _offset(lines, self.line, self.col)
        end = _offset(lines, self.end_line, self.end_col)
        return source[:start] + self.replacement + source[end:]

    def mutated_line(self, source: str) -> str:
        """The mutated source line (the first, for a change over several lines)."""
        return self.apply(source).splitlines()[self.line - 1].strip()

    def describe(self) -> str:
        return f"{self.module}:{self.line} [{self.operator}]"


def _offset(lines: Sequence[str], line: int, col: int) -> int:
    return sum(len(x) for x in lines[:line - 1]) + col


_COMPARE_FLIPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.GtE, ast.LtE),
    ast.LtE: (ast.Gt, ast.Lt),
    ast.Gt: (ast.LtE, ast.GtE),
    ast.GtE: (ast.Lt, ast.Gt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
}
_OP_TEXT: dict[type[ast.AST], str] = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
    ast.Add: "+", ast.Sub: "-", ast.And: "and", ast.Or: "or",
}
_BINOP_SWAPS: dict[type[ast.operator], type[ast.operator]] = {ast.Add: ast.Sub, ast.Sub: ast.Add}


class _Sites(ast.NodeVisitor):
    """Walks a module, collecting (node, operator, mutated node) for each mutation site
    inside a function body; annotations, decorators and docstrings are left alone."""

    def __init__(self) -> None:
        self.found: list[tuple[ast.AST, str, ast.AST]] = []
        self.depth = 0

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.depth += 1
        body = node.body
        if body and _is_docstring(body[0]):
            body = body[1:]
        for stmt in body:
            self.visit(stmt)
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                self.visit(default)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.visit(stmt)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if self.depth:
            self._delete(node)
            if node.value is not None:
                self.visit(node.value)

    def visit_arguments(self, node: ast.arguments) -> None:
        pass  # annotations (defaults are visited with the function)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        pass  # f-strings: wording

    def generic_visit(self, node: ast.AST) -> None:
        if self.depth:
            self._mutate(node)
        super().generic_visit(node)

    def _add(self, node: ast.AST, operator: str, mutated: ast.AST) -> None:
        self.found.append((node, operator, mutated))

    def _delete(self, node: ast.stmt) -> None:
        self._add(node, "delete", ast.Pass())

    def _mutate(self, node: ast.AST) -> None:
        if isinstance(node, (ast.Expr, ast.Assign, ast.AugAssign, ast.Raise, ast.Return,
                             ast.Continue, ast.Break, ast.Assert, ast.Delete)) and not (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            self._delete(node)
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            self._add(node.value, "return None", ast.Constant(None))
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                for flip in _COMPARE_FLIPS.get(type(op), ()):
                    m = copy.deepcopy(node)
                    m.ops[i] = flip()
                    self._add(node, f"{_OP_TEXT[type(op)]} → {_OP_TEXT[flip]}", m)
        elif isinstance(node, ast.BoolOp):
            m = copy.deepcopy(node)
            m.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            self._add(node, f"{_OP_TEXT[type(node.op)]} → {_OP_TEXT[type(m.op)]}", m)
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _BINOP_SWAPS:
            m = copy.deepcopy(node)
            m.op = _BINOP_SWAPS[type(node.op)]()
            eq = "=" if isinstance(node, ast.AugAssign) else ""
            self._add(node, f"{_OP_TEXT[type(node.op)]}{eq} → {_OP_TEXT[type(m.op)]}{eq}", m)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self._add(node, "not x → x", copy.deepcopy(node.operand))
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                self._add(node, f"{node.value} → {not node.value}", ast.Constant(not node.value))
            elif isinstance(node.value, int):
                for delta in (1, -1):
                    new = node.value + delta
                    self._add(node, f"{node.value} → {new}", _int(new))
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            self._add(node.test, "not", ast.UnaryOp(ast.Not(), copy.deepcopy(node.test)))


def _int(value: int) -> ast.expr:
    """An integer as the parser reads it: ``-1`` is ``-`` applied to ``1``."""
    return ast.UnaryOp(ast.USub(), ast.Constant(-value)) if value < 0 else ast.Constant(value)


def _is_docstring(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


def _strip(tree: ast.AST) -> str:
    return ast.dump(tree, annotate_fields=True, include_attributes=False)


def _operator_gaps(source_lines: Sequence[str], node: ast.AST) -> list[tuple[int, int, int, int]]:
    """The spans between the operands of a comparison, boolean or binary operation: where
    its operator tokens are."""
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
    elif isinstance(node, ast.BoolOp):
        operands = list(node.values)
    elif isinstance(node, ast.BinOp):
        operands = [node.left, node.right]
    elif isinstance(node, ast.AugAssign):
        operands = [node.target, node.value]
    else:
        return []
    return [(a.end_lineno or 0, a.end_col_offset or 0, b.lineno, b.col_offset)
            for a, b in itertools.pairwise(operands)]


def _text(lines: Sequence[str], span: tuple[int, int, int, int]) -> str:
    line, col, end_line, end_col = span
    if line == end_line:
        return lines[line - 1][col:end_col]
    return "".join([lines[line - 1][col:], *lines[line:end_line - 1],
                    lines[end_line - 1][:end_col]])


def _replacement(lines: Sequence[str], node: ast.AST, operator: str,
                 mutated: ast.AST) -> list[tuple[tuple[int, int, int, int], str]]:
    """The text edits that turn ``node`` into ``mutated``, as small as possible: an operator
    token replaced, a statement made ``pass``, a condition wrapped in ``not (...)``."""
    span = (node.lineno, node.col_offset,  # type: ignore[attr-defined]
            node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
    if operator == "delete":
        return [(span, "pass" + "\n" * (span[2] - span[0]))]  # keep the line numbers
    if operator == "not":
        return [(span, f"not ({_text(lines, span)})")]
    if operator == "not x → x":
        inner = node.operand  # type: ignore[attr-defined]
        where = (inner.lineno, inner.col_offset, inner.end_lineno, inner.end_col_offset)
        return [(span, f"({_text(lines, where)})")]
    if " → " in operator and isinstance(node, (ast.Compare, ast.BoolOp, ast.BinOp, ast.AugAssign)):
        old, new = operator.split(" → ")
        gaps = _operator_gaps(lines, node)
        if isinstance(node, ast.Compare):
            i = next(i for i, (a, b) in enumerate(zip(node.ops, mutated.ops, strict=True))  # type: ignore[attr-defined]
                     if type(a) is not type(b))
            gaps = [gaps[i]]
        edits = []
        for gap in gaps:
            text = _text(lines, gap)
            pattern = r"\b" + r"\s+".join(map(re.escape, old.split())) + r"\b" \
                if old[0].isalpha() else re.escape(old) + r"(?![=<>/*])"
            if len(re.findall(pattern, text)) != 1:
                return []
            edits.append((gap, re.sub(pattern, new, text)))
        return edits
    return [(span, ast.unparse(mutated))]


def mutants(source: str, module: str) -> list[Mutant]:
    """Every mutant of ``source`` (the text of ``module``), in source order; each is checked
    to make exactly the change it says (its function, mutated, parses to the mutated tree)."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    sites = _Sites()
    sites.visit(tree)
    parents = _parents(tree)
    out: list[Mutant] = []
    seen_in_line: dict[tuple[int, str], int] = {}
    for node, operator, mutated in sites.found:
        edits = _replacement(lines, node, operator, mutated)
        if not edits:
            continue
        # one mutant may edit several gaps (an `and` of three operands): join them into one
        # edit from the first gap's start to the last gap's end
        first, last = edits[0][0], edits[-1][0]
        parts = []
        for (span, text), nxt in zip(edits, [*edits[1:], None], strict=True):
            parts.append(text)
            if nxt is not None:
                parts.append(_text(lines, (span[2], span[3], nxt[0][0], nxt[0][1])))
        line, col, end_line, end_col = first[0], first[1], last[2], last[3]
        original_line = lines[line - 1].strip()
        n = seen_in_line.get((line, operator), 0)
        seen_in_line[(line, operator)] = n + 1
        key = hashlib.sha1(f"{original_line}\0{operator}\0{n}".encode()).hexdigest()[:10]
        m = Mutant(module, len(out), operator, line, col, end_line, end_col, "".join(parts),
                   original_line, key)
        if _makes(m, lines, parents, node, mutated):
            out.append(m)
    return out


_Parents = dict[int, tuple[ast.AST, str, int | None]]


def _parents(tree: ast.AST) -> _Parents:
    """For each node (by id): its parent, the parent's field holding it, its index there."""
    out: _Parents = {}
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if isinstance(value, ast.AST):
                out[id(value)] = (parent, name, None)
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        out[id(item)] = (parent, name, i)
    return out


def _put(parent: ast.AST, name: str, index: int | None, node: ast.AST) -> None:
    if index is None:
        setattr(parent, name, node)
    else:
        getattr(parent, name)[index] = node


def _makes(m: Mutant, lines: Sequence[str], parents: _Parents, node: ast.AST,
           mutated: ast.AST) -> bool:
    """Whether the mutant's text edit gives exactly the tree with ``node`` replaced by
    ``mutated``, judged on the outermost function holding it (parsing the whole module for
    each of thousands of mutants would take minutes)."""
    func = node
    outer: ast.AST | None = None
    while id(func) in parents:
        func = parents[id(func)][0]
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            outer = func
    if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    first = min([outer.lineno, *(d.lineno for d in outer.decorator_list)])
    block = "".join(lines[first - 1:outer.end_lineno])
    # a method is indented: parse it as the body of an `if` (its text stays exact)
    head = "if 1:\n" if outer.col_offset else ""
    shift = first - 1 - head.count("\n")
    shifted = dataclasses.replace(m, line=m.line - shift, end_line=m.end_line - shift)
    try:
        got: ast.AST = ast.parse(shifted.apply(head + block)).body[0]
    except SyntaxError:
        return False
    if head:
        got = got.body[0]  # type: ignore[attr-defined]
    parent, name, index = parents[id(node)]
    _put(parent, name, index, mutated)
    try:
        expected = _strip(outer)
    finally:
        _put(parent, name, index, node)
    return _strip(got) == expected


def sample(all_mutants: Sequence[Mutant], n: int, seed: int) -> list[Mutant]:
    """``n`` mutants chosen by ``seed`` (the same ones on every machine), in source order."""
    if n >= len(all_mutants):
        return list(all_mutants)
    chosen = random.Random(seed).sample(range(len(all_mutants)), n)
    return [all_mutants[i] for i in sorted(chosen)]


# --- equivalent mutants ------------------------------------------------------------------


@dataclass(frozen=True)
class Equivalent:
    module: str
    line: int
    operator: str
    key: str
    reason: str


def read_equivalents(path: Path = EQUIVALENT_FILE) -> list[Equivalent]:
    """The checked-in list: one mutant a line, ``module:line | operator | key | reason``
    (the line is for the reader; the key, :attr:`Mutant.key`, is what matches)."""
    out = []
    if not path.exists():
        return out
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        where, operator, key, reason = (part.strip() for part in raw.split("|", 3))
        module, line = where.split(":")
        out.append(Equivalent(module, int(line), operator, key, reason))
    return out


# --- running -----------------------------------------------------------------------------


def broad_tests(root: Path, module: str = "game/engine.py") -> list[str]:
    """The second stage's test files: every tests/test_*.py but :data:`BROAD_EXCLUDED` and
    the module's fast tests (a mutant that reaches it has passed them); for a web module,
    every tests/test_web_*.py but its fast ones."""
    fast = MODULE_FAST_TESTS.get(module, FAST_TESTS)
    if module in WEB_MODULES:
        found = sorted(str(p.relative_to(root)) for p in (root / "tests").glob("test_web_*.py"))
    else:
        found = sorted(str(p.relative_to(root)) for p in (root / "tests").glob("test_*.py")
                       if not str(p.relative_to(root)).startswith(BROAD_EXCLUDED))
    return [t for t in found if t not in fast]


def stages(root: Path, module: str, *, fast_only: bool = False) -> list[tuple[str, list[str]]]:
    """A module's stages, as (name, test files): its fast tests, then the broad suite."""
    web = "web " if module in WEB_MODULES else ""
    out = [(web + "fast", [t for t in MODULE_FAST_TESTS.get(module, FAST_TESTS)
                           if (root / t).exists()])]
    if not fast_only:
        out.append((web + "broad", broad_tests(root, module)))
    return out


@dataclass
class Outcome:
    mutant: Mutant
    status: str
    """``killed``, ``timeout``, ``survived`` or ``error`` (the mutant did not import)."""
    stage: str = ""
    cpu: float = 0.0


_RUNNING: set[subprocess.Popen[bytes]] = set()
"""The test runs under way (each in its own process group), stopped when the tool is."""


_STOPPING = threading.Event()
"""Set when the tool is stopped: no test run starts after it."""


def _stop(signum: int, frame: object) -> None:
    _STOPPING.set()
    for proc in list(_RUNNING):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    sys.exit(128 + signum)


@dataclass
class Worker:
    """A private copy of the project in a temporary folder, where mutants are written."""

    root: Path
    module_path: Path
    original: str
    limits: dict[str, float] = field(default_factory=dict)

    @classmethod
    def make(cls, source_root: Path, module: str, base: Path) -> Worker:
        root = Path(tempfile.mkdtemp(prefix="handfoot-mutant-", dir=base))
        ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc", ".pytest_cache",
                                        "screenshots", "*.png")
        for name in COPIED:
            src = source_root / name
            if src.is_dir():
                shutil.copytree(src, root / name, ignore=ignore)
            elif src.exists():
                shutil.copy2(src, root / name)
        path = root / "src" / "handfoot" / module
        return cls(root, path, path.read_text(encoding="utf-8"))

    def write(self, source: str) -> None:
        self.module_path.write_text(source, encoding="utf-8")
        # a stale compiled module (same size, same second) must never stand in for it
        for pyc in (self.module_path.parent / "__pycache__").glob(
                self.module_path.stem + ".*.pyc"):
            pyc.unlink()

    def run(self, tests: Sequence[str], cpu_limit: float | None, *,
            extra: Sequence[str] = ()) -> tuple[str, float]:
        """Runs pytest on ``tests`` in the copy: ``("passed" | "failed" | "timeout", cpu)``."""
        shutil.rmtree(self.root / ".hypothesis", ignore_errors=True)
        env = {**os.environ, "PYTHONPATH": str(self.root / "src"),
               "HANDFOOT_SKIP_POSTGRES": "1", "PYTHONHASHSEED": "0"}
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "--hypothesis-seed=0", "-o", "addopts=", *extra, *tests]

        def limit() -> None:
            if cpu_limit is not None:
                soft = int(cpu_limit) + 1
                resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))

        if _STOPPING.is_set():
            raise RuntimeError("stopped")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.Popen(cmd, cwd=self.root, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, preexec_fn=limit,
                                start_new_session=True)
        _RUNNING.add(proc)
        try:
            # the CPU limit decides; this wall-clock bound only guards against a mutant
            # that sleeps or waits (the machine is shared, so it is generous)
            code = proc.wait(timeout=None if cpu_limit is None else 6 * cpu_limit + 60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            code = -signal.SIGKILL
        finally:
            _RUNNING.discard(proc)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # (children's CPU in one process is shared by the workers' threads: an estimate
        # when -j > 1, exact with -j 1; the run's total below is exact either way)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if code in (-signal.SIGXCPU, -signal.SIGKILL):
            return "timeout", cpu
        return ("passed" if code == 0 else "failed"), cpu

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def check_copy(worker: Worker) -> None:
    """Fails unless the copy's package is the one a test run imports."""
    env = {**os.environ, "PYTHONPATH": str(worker.root / "src")}
    code = "import handfoot.game.engine as e; print(e.__file__)"
    out = subprocess.run([sys.executable, "-c", code],
                         cwd=worker.root, env=env, capture_output=True, text=True, check=True)
    got = Path(out.stdout.strip()).resolve()
    if not got.is_relative_to(worker.root.resolve()):
        raise SystemExit(f"the tests would import {got}, not the copy in {worker.root}")


_BASELINE_LOCK = threading.Lock()


def baseline(worker: Worker, name: str, tests: Sequence[str]) -> None:
    """Run a stage's tests on the unmutated copy, once for all workers (they share
    ``limits``): they must pass, and their CPU time sets the stage's limit a mutant."""
    with _BASELINE_LOCK:
        if name in worker.limits:
            return
        status, cpu = worker.run(tests, None, extra=STAGE_OPTIONS[name])
        if status != "passed":
            raise SystemExit(f"the {name} tests fail without a mutant: fix them first")
        worker.limits[name] = 2 * cpu + 10
        print(f"  {name} stage: {len(tests)} test files, {cpu:.1f} s CPU unmutated; "
              f"limit {worker.limits[name]:.0f} s CPU a mutant", flush=True)


def run_mutant(worker: Worker, m: Mutant, stages: Sequence[tuple[str, Sequence[str]]]) -> Outcome:
    """Run a mutant through the stages, stopping at the first that fails (or times out)."""
    total = 0.0
    try:
        for name, tests in stages:
            if name not in worker.limits:  # the broad stage: only once a mutant needs it
                worker.write(worker.original)
                baseline(worker, name, tests)
            worker.write(m.apply(worker.original))
            status, cpu = worker.run(tests, worker.limits[name], extra=STAGE_OPTIONS[name])
            total += cpu
            if status == "timeout":
                return Outcome(m, "timeout", name, total)
            if status == "failed":
                return Outcome(m, "killed", name, total)
        return Outcome(m, "survived", "", total)
    finally:
        worker.write(worker.original)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/mutation", description=__doc__.split("\n")[0])
    parser.add_argument("--module", default="game/engine.py", choices=MODULES)
    parser.add_argument("-n", type=int, default=200, help="mutants to sample (default 200)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("-j", type=int, default=1, help="parallel workers (default 1)")
    parser.add_argument("--list", action="store_true", help="list the sample and stop")
    parser.add_argument("--all", action="store_true", help="every mutant, not a sample")
    parser.add_argument("--mutant", type=int, action="append",
                        help="run only this mutant (its number in --list --all); repeatable")
    parser.add_argument("--show", action="store_true",
                        help="list the mutants with their diffs and stop")
    parser.add_argument("--fast-only", action="store_true",
                        help="run only the fast stage (survivors there count as survivors)")
    parser.add_argument("--tmp", default=None, help="folder for the workers' copies")
    args = parser.parse_args(argv)

    path = ROOT / "src" / "handfoot" / args.module
    source = path.read_text(encoding="utf-8")
    every = mutants(source, args.module)
    if args.mutant:
        chosen = [every[i] for i in args.mutant]
    elif args.all:
        chosen = every
    else:
        chosen = sample(every, args.n, args.seed)
    equivalents = {(e.module, e.key): e for e in read_equivalents()}
    if args.list or args.show:
        for m in chosen:
            mark = "  (equivalent)" if (m.module, m.key) in equivalents else ""
            print(f"#{m.number:<5} {m.describe():<32} {m.key}  {m.mutated_line(source)}{mark}")
            if args.show:
                print("".join(difflib.unified_diff(
                    source.splitlines(keepends=True), m.apply(source).splitlines(keepends=True),
                    f"a/{args.module}", f"b/{args.module}", n=1)))
        print(f"{len(chosen)} of {len(every)} mutants of {args.module}")
        return 0

    to_run = [m for m in chosen if (m.module, m.key) not in equivalents]
    set_aside = [m for m in chosen if (m.module, m.key) in equivalents]
    run_stages = stages(ROOT, args.module, fast_only=args.fast_only)
    print(f"{len(chosen)} of {len(every)} mutants of {args.module} (seed {args.seed}), "
          f"{len(set_aside)} set aside as equivalent; {args.j} worker(s)", flush=True)

    # a terminated run stops its test runs and still removes its copies (the finally below)
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    start = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic()
    base = Path(args.tmp) if args.tmp else None
    workers = [Worker.make(ROOT, args.module, base) if base else
               Worker.make(ROOT, args.module, Path(tempfile.gettempdir()))
               for _ in range(max(1, args.j))]
    outcomes: list[Outcome] = []
    try:
        check_copy(workers[0])
        # the unmutated fast tests must pass in the copy (the broad ones are checked when
        # a mutant first needs them); the workers share one dict of limits
        for w in workers[1:]:
            w.limits = workers[0].limits
        baseline(workers[0], *run_stages[0])
        free = list(workers)

        def job(m: Mutant) -> Outcome:
            w = free.pop()
            try:
                return run_mutant(w, m, run_stages)
            finally:
                free.append(w)

        pool = concurrent.futures.ThreadPoolExecutor(len(workers))
        try:
            futures = [pool.submit(job, m) for m in to_run]
            for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
                outcome = future.result()
                outcomes.append(outcome)
                m = outcome.mutant
                where = f" ({outcome.stage})" if outcome.stage else ""
                print(f"  [{done}/{len(to_run)}] #{m.number} {m.describe()}: "
                      f"{outcome.status}{where} {outcome.cpu:.1f} s", flush=True)
        except BaseException:
            _STOPPING.set()  # nothing queued starts after an error or a stop
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        outcomes.sort(key=lambda o: o.mutant.number)
    finally:
        for w in workers:
            w.remove()
    end = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (end.ru_utime - start.ru_utime) + (end.ru_stime - start.ru_stime)
    report(outcomes, set_aside, source, cpu, time.monotonic() - wall, equivalents)
    return 0 if not any(o.status == "survived" for o in outcomes) else 1


def report(outcomes: Sequence[Outcome], set_aside: Sequence[Mutant], source: str,
           cpu: float, wall: float, equivalents: dict[tuple[str, str], Equivalent]) -> None:
    killed = sum(o.status == "killed" for o in outcomes)
    fast = sum(o.status == "killed" and o.stage.endswith("fast") for o in outcomes)
    timeouts = sum(o.status == "timeout" for o in outcomes)
    survivors = [o for o in outcomes if o.status == "survived"]
    judged = len(outcomes)
    score = 100.0 * (killed + timeouts) / judged if judged else 100.0
    print()
    print(f"mutants {judged + len(set_aside)}: killed {killed} ({fast} by the fast tests), "
          f"timeouts {timeouts}, equivalent {len(set_aside)}, survived {len(survivors)}")
    print(f"mutation score {score:.1f}% (killed + timeouts of the non-equivalent)")
    print(f"CPU time {cpu:.0f} s (all test runs), wall {wall:.0f} s")
    for o in survivors:
        m = o.mutant
        print(f"survived #{m.number} {m.describe()} key {m.key}")
        print(f"    was: {m.original_line}")
        print(f"    now: {m.mutated_line(source)}")


if __name__ == "__main__":
    sys.exit(main())
