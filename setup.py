"""Builds handfoot, compiling the hot modules with mypyc where it can.

Everything else about the package is in pyproject.toml; this file only adds the compiled
extension modules (docs/performance.md, "Compiled build"):

- A wheel build (``pip install .``, ``pip wheel .``) compiles the modules that
  ``handfoot.COMPILABLE`` names (the engine's modules in ``handfoot.game`` and the heuristic
  bots) with mypyc and the C compiler.
  If that fails (no compiler, no Python headers, a mypyc error) it says why and builds the
  pure-Python package instead: same code, same behaviour, slower. The compiler is tried
  first (a second), so that a machine without one does not wait for mypyc's analysis.
- ``HANDFOOT_COMPILE`` chooses: ``auto`` (the default: compile if possible, else pure),
  ``0`` (pure Python, no compiler needed), ``1`` (compiled or the build fails).
- An editable install (``pip install -e .``, what scripts/test and the dev scripts use)
  never compiles, and removes compiled modules left beside the sources by any earlier
  in-place build, so the working copy always runs its ``.py`` files.

At run time ``handfoot.compiled`` (and ``handfoot --version``) tells which build runs.
"""

from __future__ import annotations

import ast
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "handfoot"
MODE = os.environ.get("HANDFOOT_COMPILE", "auto").strip().lower() or "auto"
BUILDS = {"build", "build_ext", "bdist_wheel", "bdist", "install"}
"""The commands that build code; the others (egg_info, dist_info, sdist) only describe
the package and need no compiled modules."""
EDITABLE = {"editable_wheel", "develop"}


def say(message: str) -> None:
    print(f"handfoot build: {message}", file=sys.stderr, flush=True)


def compilable() -> list[str]:
    """``handfoot.COMPILABLE``, read from the package's source (the one list)."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.target.id == "COMPILABLE" and node.value is not None):
            return list(ast.literal_eval(node.value))
    raise SystemExit("setup.py: no COMPILABLE list in src/handfoot/__init__.py")


def stale_modules() -> list[Path]:
    """Compiled modules in the source tree, which would shadow the ``.py`` files there."""
    names = {name.replace(".", "/") for name in compilable()}
    found = [p for p in PACKAGE.rglob("*.so")
             if str(p.relative_to(PACKAGE).parent / p.name.split(".")[0]) in names]
    found += list(PACKAGE.rglob("*.pyd"))
    found += list(PACKAGE.parent.glob("*__mypyc.*"))  # mypyc's shared library
    return found


def remove_stale_modules() -> None:
    for path in stale_modules():
        say(f"removing {path.relative_to(ROOT)}: an editable install runs the .py files")
        path.unlink()


def fallback(reason: str) -> None:
    """Give up compiling: fail under HANDFOOT_COMPILE=1, else go on pure Python."""
    if MODE == "1":
        raise SystemExit(f"handfoot build: HANDFOOT_COMPILE=1 but compiling failed: {reason}")
    say(f"compiling with mypyc failed ({reason}); building the pure-Python package")


def compiler_problem() -> str | None:
    """Why no C extension can be built here (no compiler, or no Python headers), found by
    compiling a file that includes ``Python.h`` with the compiler build_ext would use (``CC``
    and the rest as setuptools reads them): in a second, where mypyc would first analyse the
    whole package for a minute and only then find the compiler missing. None: it can."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory(prefix="handfoot-cc-") as folder:
        source = Path(folder, "probe.c")
        source.write_text("#include <Python.h>\nint handfoot_probe(void) { return 0; }\n",
                          encoding="utf-8")
        try:
            compiler.compile([str(source)], output_dir=folder,
                             include_dirs=[sysconfig.get_paths()["include"]])
        except Exception as exc:  # CompileError, DistutilsExecError, a missing program
            text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            why = text[text.index("returned"):] if "returned" in text else text
            program = (getattr(compiler, "compiler_so", None) or ["cc"])[0]
            return (f"the C compiler {program!r} could not compile a file that includes "
                    f"Python.h: {why[:200]}")
    return None


def extensions() -> list[Any]:
    """mypyc's extension modules for this build, or none (pure Python)."""
    if MODE not in ("auto", "0", "1"):
        raise SystemExit(f"HANDFOOT_COMPILE is {MODE!r}: use auto, 0 or 1")
    commands = set(sys.argv[1:])
    if commands & EDITABLE:
        remove_stale_modules()
        return []
    if MODE == "0" or not commands & BUILDS:
        return []
    problem = compiler_problem()
    if problem:
        fallback(problem)
        return []
    try:
        from mypyc.build import mypycify

        paths = [str(Path("src", "handfoot", *name.split("."))) + ".py" for name in compilable()]
        # pip's isolated build environment has setuptools and mypy, not handfoot's own
        # dependencies: mypy follows the package's other modules for their types only,
        # without reporting on them or on the missing packages they import (the compiled
        # modules import none; `mypy` itself checks the whole package in development).
        options = ["--ignore-missing-imports", "--follow-imports=silent"]
        say(f"compiling {', '.join(compilable())} with mypyc "
            "(HANDFOOT_COMPILE=0 builds pure Python)")
        return list(mypycify([*options, *paths], opt_level="3", group_name="handfoot",
                             target_dir=str(Path("build", "mypyc"))))
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        fallback(f"{type(exc).__name__}: {exc}")
        return []


class OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python when the C compiler fails, and that never
    puts a compiled module beside the sources (an editable or in-place build)."""

    def run(self) -> None:
        if self.inplace or getattr(self, "editable_mode", False):
            say("no compiled modules in the source tree: skipping build_ext")
            self.extensions = []
            return
        try:
            super().run()
        except (Exception, SystemExit) as exc:
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []  # (the wheel stays platform-specific: decided earlier)
            fallback(f"{type(exc).__name__}: {exc}")

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


class CleanBdistWheel(bdist_wheel):
    """bdist_wheel that first removes what a build cut short left in its folder
    (``build/bdist.<platform>/wheel``): setuptools stops on a ``.dist-info`` folder already
    there ("File exists"), so one build killed at the wrong moment made every later build
    of the tree fail, the quick-start scripts' too."""

    def run(self) -> None:
        if self.bdist_dir and Path(self.bdist_dir).exists():
            say(f"removing {self.bdist_dir}, left by a build that did not finish")
            shutil.rmtree(self.bdist_dir)
        super().run()


os.chdir(ROOT)  # mypycify takes paths from here
setup(ext_modules=extensions(),
      cmdclass={"build_ext": OptionalBuildExt, "bdist_wheel": CleanBdistWheel})
