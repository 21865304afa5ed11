"""A release that installs (issue 34, item 2): ``python -m build`` makes an sdist and a wheel
of a copy of this tree (the wheel built from the sdist, so the sdist holds everything a build
needs), ``twine check`` passes on both, and the wheel installed with its ``web`` extra into a
fresh virtual environment plays games (``handfoot simulate``, ``handfoot demo``, and a
``handfoot play`` left with ``quit``) and serves the web game (``GET /`` answers 200,
``/healthz`` too).

Marked ``release``: it builds and installs the package, about a minute and a half of one
core, and needs the package index for the build's and the install's dependencies (PyPI, or
the local index pip is configured with). The wheel is built pure Python
(``HANDFOOT_COMPILE=0``, as on a machine without a C compiler): tests/test_compiled.py builds
and tests the compiled wheel.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

import handfoot

ROOT = Path(__file__).resolve().parents[1]
TREE_FILES = ("setup.py", "pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md",
              "MANIFEST.in")

pytestmark = pytest.mark.release


def _run(*argv: str | Path, timeout: float = 900, **kw: object) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                         timeout=timeout, **kw)  # type: ignore[call-overload]
    assert run.returncode == 0, (argv, run.stdout[-3000:], run.stderr[-3000:])
    return run  # type: ignore[no-any-return]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("release")
    tree = tmp / "tree"
    tree.mkdir()
    for name in TREE_FILES:
        shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src" / "handfoot", tree / "src" / "handfoot",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    # what a developer's tree also holds: the tests (setuptools' default put tests/test*.py
    # in the sdist, without their helpers) and caches beside the sources
    shutil.copytree(ROOT / "tests", tree / "tests",
                    ignore=shutil.ignore_patterns("__pycache__", "golden", "positions_text",
                                                  "e2e", "web_fixtures"))
    cache = tree / "src" / "handfoot" / "game" / "__pycache__"
    cache.mkdir()
    (cache / "cards.cpython-311.pyc").write_bytes(b"not for a release")
    _run(sys.executable, "-m", "build", "--outdir", tmp / "dist", tree,
         env={**os.environ, "HANDFOOT_COMPILE": "0"})
    return tmp / "dist"


def test_build_makes_an_sdist_and_a_wheel_that_twine_accepts(dist: Path) -> None:
    version = handfoot.__version__
    sdist = dist / f"handfoot-{version}.tar.gz"
    (wheel,) = dist.glob(f"handfoot-{version}-*.whl")
    assert sdist.exists()
    check = _run(sys.executable, "-m", "twine", "check", "--strict", sdist, wheel)
    assert check.stdout.count("PASSED") == 2, check.stdout
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md",
                   "src/handfoot/__init__.py", "src/handfoot/web/static/table.js",
                   "src/handfoot/game/profiles/partnership-13.toml"):
        assert needed in names, needed
    strays = [n for n in names if n.startswith("tests/") or "__pycache__" in n
              or n.endswith((".pyc", ".so"))]
    assert not strays, strays
    inside = set(zipfile.ZipFile(wheel).namelist())
    assert not [n for n in inside if "__pycache__" in n or n.endswith(".pyc")]
    for needed in ("handfoot/_version.py", "handfoot/py.typed",
                   "handfoot/game/profiles/partnership-13.toml",
                   "handfoot/web/templates/table.html", "handfoot/web/static/table.js",
                   "handfoot/web/migrations/versions/__init__.py"):
        assert needed in inside, needed
    metadata = zipfile.ZipFile(wheel).read(
        f"handfoot-{version}.dist-info/METADATA").decode()
    assert f"Version: {version}" in metadata  # from _version.py, the one place
    assert "Provides-Extra: web" in metadata


def test_the_wheel_installed_in_a_fresh_venv_plays_and_serves(dist: Path,
                                                              tmp_path: Path) -> None:
    (wheel,) = dist.glob("handfoot-*.whl")
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv)
    bin_dir = venv / "bin"
    # (PYTHONPATH is not the fresh venv's: a handfoot.egg-info on it made pip skip the wheel)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    _run(bin_dir / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         f"{wheel}[web]", env=env)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    cwd = tmp_path  # not the source tree: only the installed package is importable
    where = _run(bin_dir / "python", "-c", "import handfoot; print(handfoot.__file__)",
                 env=env, cwd=cwd).stdout.strip()
    assert Path(where).is_relative_to(venv), where
    version = _run(bin_dir / "handfoot", "--version", env=env, cwd=cwd).stdout
    assert version.strip() == f"handfoot {handfoot.__version__} (pure Python)"
    sim = _run(bin_dir / "handfoot", "simulate", "--games", "2", "--bots", "hard",
               "--seed", "7", env=env, cwd=cwd).stdout
    assert "games" in sim.lower(), sim
    demo = _run(bin_dir / "handfoot", "demo", "--seed", "3", "--record", tmp_path / "g.json",
                env=env, cwd=cwd).stdout
    assert "round" in demo.lower(), demo
    replay = _run(bin_dir / "handfoot", "replay", tmp_path / "g.json", env=env, cwd=cwd)
    assert replay.stdout.strip()
    play = subprocess.run([str(bin_dir / "handfoot"), "play", "--seed", "5"], input="quit\n",
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=120)
    assert play.returncode == 1 and "saved" in play.stdout.lower(), play.stdout[-2000:]

    port = _free_port()
    server = subprocess.Popen([str(bin_dir / "handfoot"), "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                              cwd=cwd)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    assert r.status == 200
                    assert b"Hand and Foot" in r.read()
                break
            except OSError:
                assert server.poll() is None, server.communicate()[0]
                assert time.monotonic() < deadline, "the server did not answer in 60 s"
                time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
            assert r.status == 200
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
