"""The quick-start scripts run the build ``pip install .`` makes (issue 34, item 1):
scripts/play, serve, demo and handfoot build this working copy into their own virtual
environment (``.venv-run``, or ``HANDFOOT_RUN_VENV``), compiled with mypyc where a C compiler
is present, and build it again whenever a source changes, so an edit always runs and an
unchanged tree starts at once.

Each test runs the scripts of a copy of this tree against a virtual environment of its own
whose dependencies come from the test's own environment (a ``.pth`` file naming its
site-packages: no package index needed); what the scripts build and install is theirs.
The edit test builds pure Python (``HANDFOOT_COMPILE=0``, seconds); the compiled test builds
once with mypyc (about a minute of CPU: marked ``build``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import handfoot

ROOT = Path(__file__).resolve().parents[1]
TREE_FILES = ("setup.py", "pyproject.toml", "README.md", "LICENSE")


def _tree(dest: Path) -> Path:
    """A copy of what the scripts build from, and the scripts."""
    dest.mkdir(parents=True)
    for name in TREE_FILES:
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "src" / "handfoot", dest / "src" / "handfoot",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    shutil.copytree(ROOT / "scripts", dest / "scripts")
    return dest


def _venv(dest: Path) -> Path:
    """A new virtual environment that sees this one's installed packages (after its own)."""
    subprocess.run([sys.executable, "-m", "venv", str(dest)], check=True, timeout=300)
    site = Path(subprocess.run(
        [str(dest / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()"
         "['purelib'])"], capture_output=True, text=True, check=True).stdout.strip())
    (site / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return dest


def _script(tree: Path, venv: Path, *args: str, compile_mode: str
            ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(HANDFOOT_RUN_VENV=str(venv), HANDFOOT_COMPILE=compile_mode)
    run = subprocess.run(["bash", str(tree / "scripts" / "handfoot"), *args],
                         capture_output=True, text=True, env=env, cwd=tree.parent,
                         timeout=1800)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run


def _installed(venv: Path, code: str) -> str:
    return subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True,
                          text=True, check=True, cwd=venv.parent,
                          env={k: v for k, v in os.environ.items()
                               if k != "PYTHONPATH"}).stdout.strip()


MARKER = "\nEDITED_BY_THE_TEST: Final = {value!r}\n"
READ = ("import handfoot.game.cards as c; import handfoot; "
        "print(getattr(c, 'EDITED_BY_THE_TEST', None), c.__file__, handfoot.build, sep='|')")


def _env(venv: Path, compile_mode: str, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(HANDFOOT_RUN_VENV=str(venv), HANDFOOT_COMPILE=compile_mode, **more)
    return env


def _at_once(tree: Path, venv: Path) -> str:
    """Three scripts started together: all run the pure build; their stderr, joined."""
    runs = [subprocess.Popen(["bash", str(tree / "scripts" / "handfoot"), "--version"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=_env(venv, "0"), cwd=tree.parent) for _ in range(3)]
    done = [(run.communicate(timeout=600), run.returncode) for run in runs]
    errors = "".join(err[-2000:] for (_, err), _ in done)
    assert [code for _, code in done] == [0, 0, 0], errors
    assert [out.strip() for (out, _), _ in done] \
        == [f"handfoot {handfoot.__version__} (pure Python)"] * 3, done
    return errors


def test_an_edit_of_a_compiled_module_runs_at_the_next_start(tmp_path: Path) -> None:
    """An edit of a compiled module is in the installed package at the next start; an
    unchanged tree builds nothing. On the same tree and folder (a pure build costs seconds,
    a new folder more: one of each for all), three defects found since (issue 34):

    - Three scripts started together on a tree none has built (a fresh clone, or after an
      edit): one builds, the others wait for it, and all three run. They raced before: each
      built into the same folder and the same build/ at once, and most failed (pip's "File
      exists: build/bdist.../handfoot-0.1.0.dist-info", "Directory not empty").
    - A build killed while it packed the wheel leaves build/bdist.<platform>/wheel with a
      .dist-info in it; every later build of the tree failed on it ("File exists") until
      someone deleted build/ by hand. setup.py's bdist_wheel now clears it first.
    - scripts/play then scripts/serve: serve's web extra installs its dependencies, and the
      build made for play is kept (it was built again: a minute of mypyc for nothing)."""
    tree = _tree(tmp_path / "tree")
    venv = _venv(tmp_path / "run")
    # a fresh tree, three scripts at once: one builds, the others wait for it, all run
    errors = _at_once(tree, venv)
    assert errors.count("== building handfoot") == 1, errors
    assert errors.count("waiting for it") == 2, errors
    assert errors.count("== built: handfoot pure Python") == 1, errors
    assert _installed(venv, READ).split("|")[0] == "None"
    # nothing changed: no build
    again = _script(tree, venv, "--version", compile_mode="0")
    assert "== building" not in again.stderr and "installing" not in again.stderr
    # an edit of a module the compiled build compiles (handfoot.game.cards)
    assert "game.cards" in handfoot.COMPILABLE
    source = tree / "src" / "handfoot" / "game" / "cards.py"
    source.write_text(source.read_text() + MARKER.format(value="one"))
    edited = _script(tree, venv, "--version", compile_mode="0")
    assert "== building handfoot" in edited.stderr
    value, file, build = _installed(venv, READ).split("|")
    assert build == "pure Python"
    assert value == "one" and Path(file).is_relative_to(venv), (value, file)
    # a second edit, three scripts at once: one new build, the others wait for it
    source.write_text(source.read_text().replace("'one'", "'two'"))
    errors = _at_once(tree, venv)
    assert errors.count("== building handfoot") == 1, errors
    assert errors.count("waiting for it") == 2, errors
    assert errors.count("== built: handfoot pure Python") == 1, errors
    assert _installed(venv, READ).split("|")[0] == "two"
    # a new file in the package counts as a change too; and the build/bdist.* a killed
    # build left does not stop it
    (tree / "src" / "handfoot" / "zz_added_by_the_test.py").write_text('"""A new module."""\n')
    platform = sysconfig.get_platform()
    version = sys.version_info
    for bdist in (f"bdist.{platform}", f"bdist.{platform}-cpython-{version[0]}{version[1]}"):
        left = tree / "build" / bdist / "wheel" / f"handfoot-{handfoot.__version__}.dist-info"
        left.mkdir(parents=True, exist_ok=True)
        (left / "METADATA").write_text("left by a build that was killed\n")
    added = _script(tree, venv, "--version", compile_mode="0")
    assert added.stdout.strip() == f"handfoot {handfoot.__version__} (pure Python)"
    assert "== building handfoot" in added.stderr
    assert "== built: handfoot pure Python" in added.stderr
    assert "compiling with mypyc failed" not in added.stderr  # HANDFOOT_COMPILE=0: asked for
    assert _installed(venv, "import handfoot.zz_added_by_the_test as m; print(m.__doc__)") \
        == "A new module."
    # scripts/serve after it: the web extra's dependencies installed, the build kept
    serve = _script(tree, venv, "serve", "--help", compile_mode="0")
    assert "installing the dependencies of handfoot[web]" in serve.stderr
    assert "== building" not in serve.stderr, serve.stderr
    again = _script(tree, venv, "serve", "--help", compile_mode="0")
    assert again.stderr == "", again.stderr


@pytest.mark.build
def test_the_scripts_run_the_compiled_build(tmp_path: Path) -> None:
    if not shutil.which(os.environ.get("CC", "cc")) and not shutil.which("gcc"):
        pytest.skip("no C compiler on this machine: the scripts build pure Python")
    if os.environ.get("HANDFOOT_SKIP_COMPILED") == "1":
        pytest.skip("HANDFOOT_SKIP_COMPILED=1")
    tree = _tree(tmp_path / "tree")
    venv = _venv(tmp_path / "run")
    source = tree / "src" / "handfoot" / "game" / "cards.py"
    source.write_text(source.read_text() + MARKER.format(value="compiled"))
    first = _script(tree, venv, "--version", compile_mode="auto")
    assert "== building handfoot" in first.stderr
    assert first.stdout.strip() == f"handfoot {handfoot.__version__} (compiled with mypyc)"
    value, file, build = _installed(venv, READ).split("|")
    assert value == "compiled" and build == "compiled with mypyc"
    assert file.endswith(sysconfig.get_config_var("EXT_SUFFIX")), file  # the edit, compiled
    again = _script(tree, venv, "--version", compile_mode="auto")
    assert "== building" not in again.stderr


@pytest.mark.release
def test_a_folder_whose_making_was_cut_short_is_made_again(tmp_path: Path) -> None:
    """A script killed while ``python3 -m venv`` installed pip left .venv-run with a python
    and no pip; every later start failed ("No module named pip") until it was deleted by
    hand. Now it is made again. (Marked release: the dependencies come from the package
    index, as on a new user's machine.)"""
    tree = _tree(tmp_path / "tree")
    venv = tmp_path / "run"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    run = _script(tree, venv, "--version", compile_mode="0")
    assert "is incomplete (its making was interrupted?): making it again" in run.stderr
    assert run.stdout.strip() == f"handfoot {handfoot.__version__} (pure Python)"


@pytest.mark.build
def test_without_a_c_compiler_the_scripts_run_pure_python_and_say_why(tmp_path: Path) -> None:
    """No C compiler (CC=false): the pure build runs, and the script says so and why
    (pip --quiet used to hide setup.py's words: only --version told)."""
    tree = _tree(tmp_path / "tree")
    venv = _venv(tmp_path / "run")
    run = subprocess.run(["bash", str(tree / "scripts" / "handfoot"), "--version"],
                         capture_output=True, text=True, cwd=tree.parent, timeout=1800,
                         env=_env(venv, "auto", CC="false"))
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == f"handfoot {handfoot.__version__} (pure Python)"
    assert "== built: handfoot pure Python" in run.stderr
    assert "compiling with mypyc failed" in run.stderr
    assert "the game runs the same, slower" in run.stderr
