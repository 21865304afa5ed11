"""The compiled build (mypyc, setup.py) against the pure one, and the working copy.

Builds real wheels of a copy of this tree with pip, as ``pip install .`` would: one with
``HANDFOOT_COMPILE=1`` (compiled, or the build fails) and one whose C compiler fails
(``CC=false``: it must fall back to a working pure-Python wheel, not a failed install;
built with this environment's setuptools, ``--no-build-isolation``: see ``fallback_build``).
Each is installed (``pip install --target``) into a folder that a fresh interpreter runs
it from. The two builds, and
the working copy, must play the seeded games of tests/compiled_games.py to byte-identical
records by identical decisions.

Building takes about a minute of CPU (docs/performance.md); the installed builds are kept
under pytest's cache folder (.pytest_cache), one per version of the sources, so a rerun on
unchanged sources builds nothing. ``HANDFOOT_SKIP_COMPILED=1`` skips the builds (the
editable-install and working-copy tests still run); so does a machine with no C compiler.
"""

from __future__ import annotations

import fcntl
import hashlib
import inspect
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import handfoot
from handfoot.game.engine import GameState
from handfoot.game.state import _STATE_FIELDS, State

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
TREE_FILES = ("setup.py", "pyproject.toml", "README.md", "LICENSE")
"""What a build needs besides src/handfoot."""
EXT = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def copy_tree(dest: Path) -> Path:
    """A copy of what the package is built from (no caches, no compiled modules)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in TREE_FILES:
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "src" / "handfoot", dest / "src" / "handfoot",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    return dest


def sources_key() -> str:
    """Names the sources a build is made from, with the interpreter and mypy."""
    digest = hashlib.sha256()
    paths = [ROOT / name for name in TREE_FILES]
    paths += sorted(p for p in (ROOT / "src" / "handfoot").rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts
                    and p.suffix not in (".so", ".pyd"))
    for path in paths:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    import mypy.version

    digest.update(f"{sys.version} {mypy.version.__version__}".encode())
    return digest.hexdigest()[:16]


def build_wheel(tree: Path, out: Path, *, isolated: bool = True,
                **env: str) -> tuple[Path, str]:
    """Builds ``tree`` as ``pip install`` does, in pip's isolated build environment (the
    build requirements of pyproject.toml, from the package index, and nothing else), or
    with ``isolated=False`` in this interpreter's environment (its setuptools; pip's
    ``--no-build-isolation``); returns the wheel and what the build printed."""
    isolation = [] if isolated else ["--no-build-isolation"]
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", *isolation, "-w", str(out),
         str(tree)],
        capture_output=True, text=True, env={**os.environ, **env}, timeout=1200)
    output = run.stdout + run.stderr
    if run.returncode != 0:
        pytest.fail(f"pip wheel failed ({env}):\n{output[-6000:]}")
    (wheel,) = out.glob("handfoot-*.whl")
    return wheel, output


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """One process at a time (pytest-xdist workers share the cache folder)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def built(config: pytest.Config, kind: str, *, isolated: bool = True, **env: str) -> Path:
    """The folder a wheel of this tree is installed in (``pip install --target``; built
    once per sources version, in pip's isolated build environment unless ``isolated`` is
    False); the build's output is kept beside it as ``build.log``."""
    if os.environ.get("HANDFOOT_SKIP_COMPILED") == "1":
        pytest.skip("HANDFOOT_SKIP_COMPILED=1")
    if not shutil.which(os.environ.get("CC", "cc")) and not shutil.which("gcc"):
        pytest.skip("no C compiler on this machine")
    if getattr(config, "cache", None) is not None:
        base = config.cache.mkdir("compiled-build") / kind
    else:  # -p no:cacheprovider: a folder of this session only
        base = Path(tempfile.mkdtemp(prefix=f"handfoot-{kind}-build-"))
    here = base / sources_key()
    with locked(base / ".lock"):
        if not (here / "site" / "handfoot" / "__init__.py").exists():
            shutil.rmtree(here, ignore_errors=True)
            for old in base.iterdir():  # builds of older sources
                if old.is_dir():
                    shutil.rmtree(old, ignore_errors=True)
            work = here / "work"
            wheel, output = build_wheel(copy_tree(work / "tree"), work / "dist",
                                         isolated=isolated, **env)
            install = subprocess.run(
                [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                 "--target", str(here / "site"), str(wheel)],
                capture_output=True, text=True, timeout=600)
            assert install.returncode == 0, install.stdout + install.stderr
            (here / "build.log").write_text(output)
            (here / "wheel.txt").write_text(
                wheel.name + "\n" + "\n".join(zipfile.ZipFile(wheel).namelist()))
            shutil.rmtree(work)
    return here


@pytest.fixture(scope="session")
def compiled_build(pytestconfig: pytest.Config) -> Path:
    return built(pytestconfig, "compiled", HANDFOOT_COMPILE="1")


@pytest.fixture(scope="session")
def fallback_build(pytestconfig: pytest.Config) -> Path:
    """A wheel built where the C compiler fails (``CC=false``), in the default mode.

    Built without pip's isolated build environment (this environment's setuptools): what is
    checked here, the compiler probe and the pure wheel it falls back to, does not depend on
    it, and the isolated environment cost 5-7 s of the build's 6.5-8.5 s. Isolated pure
    builds are made by tests/test_run_scripts.py (the scripts' ``pip install``) and
    tests/test_release.py (``python -m build``); the compiled build above stays isolated
    (there mypyc type-checks the package without handfoot's run-time packages)."""
    env = {"CC": "false"}
    if "HANDFOOT_COMPILE" in os.environ:
        env["HANDFOOT_COMPILE"] = "auto"
    return built(pytestconfig, "fallback", isolated=False, **env)


def run_in(site: Path | None, code: str, *args: str) -> str:
    """Runs Python ``code`` in a fresh interpreter with ``site`` (an installed build) first
    on its path, or the working copy's sources if None; returns what it printed."""
    path = str(site) if site is not None else str(ROOT / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([path, str(TESTS)])}
    run = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                         text=True, env=env, cwd=TESTS, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run.stdout


WHICH = "import handfoot; print(handfoot.__file__); print(','.join(handfoot.compiled_modules))"


def test_the_compiled_build_runs_compiled(compiled_build: Path) -> None:
    site = compiled_build / "site"
    wheel = (compiled_build / "wheel.txt").read_text().splitlines()
    for name in handfoot.COMPILABLE:
        assert f"handfoot/{name.replace('.', '/')}{EXT}" in wheel
    file, modules = run_in(site, WHICH).splitlines()
    assert Path(file) == site / "handfoot" / "__init__.py"
    assert tuple(modules.split(",")) == handfoot.COMPILABLE
    version = run_in(site, "from handfoot.cli import main; main(['--version'])")
    assert version.strip() == f"handfoot {handfoot.__version__} (compiled with mypyc)"


def test_the_speed_benchmarks_measure_the_compiled_build(compiled_build: Path) -> None:
    """``--compiled DIR`` runs a benchmark on that build, and its first line says so."""
    site = compiled_build / "site"
    for script, *args in (("selfplay.py", "--games", "1"),
                          ("engine.py", "--games", "1", "--baseline-games", "2")):
        run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), "--profile",
                              "biegames", "--reps", "1", *args, "--compiled", str(site)],
                             capture_output=True, text=True, check=True, timeout=300)
        lines = run.stdout.splitlines()
        assert lines[0].startswith(f"handfoot {handfoot.__version__}, compiled with mypyc")
        assert any(line.startswith("biegames 2x2: ") for line in lines), run.stdout


def test_a_failing_compiler_gives_a_working_pure_build(fallback_build: Path) -> None:
    site = fallback_build / "site"
    log = (fallback_build / "build.log").read_text()
    assert "building the pure-Python package" in log
    # found by a probe before mypyc analysed the package (a minute, for nothing)
    assert "the C compiler 'false' could not compile a file that includes Python.h" in log
    assert "with mypyc (HANDFOOT_COMPILE=0 builds pure Python)" not in log
    wheel = (fallback_build / "wheel.txt").read_text().splitlines()
    assert not [name for name in wheel if name.endswith((".so", ".pyd"))]
    assert wheel[0].endswith("-py3-none-any.whl")  # a pure wheel, installable anywhere
    file, modules = run_in(site, WHICH).splitlines()
    assert Path(file) == site / "handfoot" / "__init__.py"
    assert modules == ""
    version = run_in(site, "from handfoot.cli import main; main(['--version'])")
    assert version.strip() == f"handfoot {handfoot.__version__} (pure Python)"


GAMES = "import compiled_games; compiled_games.main()"


def test_compiled_and_pure_builds_play_identical_games(compiled_build: Path,
                                                      fallback_build: Path) -> None:
    compiled = run_in(compiled_build / "site", GAMES).splitlines()
    pure = run_in(fallback_build / "site", GAMES).splitlines()
    sources = run_in(None, GAMES).splitlines()
    assert compiled[0] == "compiled"
    assert pure[0] == sources[0] == "pure"
    import compiled_games

    assert len(compiled) == 1 + len(compiled_games.profile_checks()) + len(
        compiled_games.cases())
    assert compiled[1:] == pure[1:]
    assert sources[1:] == pure[1:]


PICKLING = """
import copy, pickle
import handfoot
from handfoot import GameState, load_profile, parse_move

state = GameState.new(load_profile("hand-knee-foot"), seed=5)
state.apply(parse_move("draw"))
values = [state, state.view(0), state.public_view(), state.position(), state.deal,
          state.history, state.history[0], parse_move("meld K K K | 9 9 2"),
          parse_move("discard 5"), parse_move("goout"), parse_move("yes"), state.profile,
          state.profile.layout, handfoot.Books(1, 2, 0, (0,) * 11)]
for value in values:
    for how in (copy.copy, copy.deepcopy, lambda v: pickle.loads(pickle.dumps(v))):
        again = how(value)
        assert again == value and type(again) is type(value), (value, how)
text = handfoot.position_text(state.position())
assert handfoot.position_text(handfoot.parse_position(text)) == text
copied = copy.deepcopy(state)
copied.apply_action(copied.legal_actions()[-1])
assert copied != state and pickle.loads(pickle.dumps(state)) == state
print(handfoot.build)
"""


@pytest.mark.parametrize("build", ["compiled", "pure"])
def test_states_views_and_moves_pickle_and_copy(build: str, request: pytest.FixtureRequest,
                                                ) -> None:
    if build == "compiled":
        site: Path | None = request.getfixturevalue("compiled_build") / "site"
    else:
        site = None
    out = run_in(site, PICKLING)
    assert out.startswith("compiled" if build == "compiled" else "pure")


def test_an_editable_install_never_runs_compiled_modules(tmp_path: Path) -> None:
    """Even asked to compile, an editable build compiles nothing and removes compiled
    modules an earlier in-place build left beside the sources (they would shadow the
    ``.py`` files being edited)."""
    tree = copy_tree(tmp_path / "tree")
    stale = [tree / "src" / "handfoot" / "game" / f"engine{EXT}",
             tree / "src" / f"handfoot__mypyc{EXT}"]
    for path in stale:
        path.write_bytes(b"not a module")
    kept = tree / "src" / "handfoot" / "game" / "options.toml"
    code = ("import sys; from setuptools import build_meta; "
            "print(build_meta.build_editable(sys.argv[1]))")
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path / "out")], cwd=tree,
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "HANDFOOT_COMPILE": "1"})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert not [p for p in stale if p.exists()]
    assert kept.exists()
    assert not list((tree / "src").rglob("*.so"))
    wheel = tmp_path / "out" / run.stdout.strip().splitlines()[-1]
    names = zipfile.ZipFile(wheel).namelist()
    assert not [name for name in names if name.endswith((".so", ".pyd"))]
    pth = [name for name in names if name.endswith(".pth")]
    assert pth, names
    assert str(tree / "src") in zipfile.ZipFile(wheel).read(pth[0]).decode()


def test_a_bad_compile_setting_stops_the_build(tmp_path: Path) -> None:
    tree = copy_tree(tmp_path / "tree")
    run = subprocess.run([sys.executable, "setup.py", "--version"], cwd=tree,
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "HANDFOOT_COMPILE": "yes"})
    assert run.returncode != 0
    assert "HANDFOOT_COMPILE is 'yes': use auto, 0 or 1" in run.stderr


def test_the_working_copy_runs_its_python_sources() -> None:
    """Run from the working copy (scripts/test's editable install), nothing is compiled
    and no compiled module lies beside the sources."""
    source = ROOT / "src" / "handfoot" / "__init__.py"
    if Path(handfoot.__file__ or "") != source:
        pytest.skip(f"handfoot is imported from {handfoot.__file__}, not the working copy")
    assert not handfoot.compiled
    assert handfoot.compiled_modules == ()
    assert handfoot.build == "pure Python"
    assert not [p for p in (ROOT / "src").rglob("*") if p.suffix in (".so", ".pyd")]


def test_copy_is_written_as_the_state_fields_say() -> None:
    """GameState.copy is written out (mypyc compiles no exec'd code): one assignment per
    field of _STATE_FIELDS, in order, copied as the list says."""
    lines = [line.strip() for line in inspect.getsource(GameState.copy).splitlines()]
    body = [line for line in lines if line.startswith("c.")]
    assert body == [f"c.{name} = {how.format('self.' + name)}" for name, how in _STATE_FIELDS]
    assert set(State.__slots__) == {name for name, _ in _STATE_FIELDS}
