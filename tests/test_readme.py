"""Every command in the README works as written (issue 14, item 4).

The ``handfoot ...`` lines of the README's ``sh`` blocks run in order in a fresh folder with
the virtual environment's ``bin`` first on ``PATH`` (what ``. .venv-run/bin/activate`` does),
with the README's house-rule file saved as ``my-table.toml``. Long runs are shortened
(``--games`` becomes 1 or 2); ``play`` is left with ``quit``; ``serve`` is started on a free
port, asked for its first page and stopped. The Python examples run too.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def readme_commands() -> list[str]:
    """The README's ``handfoot`` command lines, in order, without their comments."""
    out = []
    for block in _blocks("sh"):
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("handfoot "):
                out.append(re.split(r"\s+#", line, maxsplit=1)[0].strip())
    return out


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["XDG_DATA_HOME"] = str(tmp_path / "data")  # serve's default database stays here
    env.pop("PYTHONIOENCODING", None)
    return env


def _shortened(argv: list[str]) -> list[str]:
    """A long run made short: --games N becomes 1 (tournament) or 2 (simulate)."""
    out = list(argv)
    if "--games" in out:
        i = out.index("--games")
        out[i + 1] = "1" if argv[1] == "tournament" else "2"
    return out


def test_readme_lists_the_commands_a_new_user_needs() -> None:
    commands = readme_commands()
    verbs = {shlex.split(c)[1] for c in commands}
    assert {"rules", "simulate", "demo", "replay", "tournament", "play", "serve"} <= verbs
    text = README.read_text(encoding="utf-8")
    assert ". .venv-run/bin/activate" in text and "scripts/handfoot" in text
    demo = next(i for i, c in enumerate(commands) if "--record game.json" in c)
    replay = next(i for i, c in enumerate(commands) if c.startswith("handfoot replay game.json"))
    assert demo < replay  # the record the replay reads is made first


def test_every_readme_command_runs_as_written(tmp_path: Path) -> None:
    assert (BIN / "handfoot").exists(), "the handfoot command is not installed in this venv"
    (tmp_path / "my-table.toml").write_text(
        next(b for b in _blocks("toml") if "extends" in b), encoding="utf-8")
    env = _env(tmp_path)
    failures = []
    ran = 0
    for command in readme_commands():
        argv = _shortened(shlex.split(command))
        if argv[1] == "serve":
            continue  # test_readme_serve_starts_and_stops
        stdin = "quit\ny\n" if argv[1] == "play" else ""
        done = subprocess.run(argv, cwd=tmp_path, env=env, input=stdin, capture_output=True,
                              text=True, timeout=600)
        ran += 1
        expected = 1 if argv[1] == "play" else 0  # play: 1 when you leave the game
        if done.returncode != expected or "Traceback" in done.stderr:
            failures.append(f"{command}: exit {done.returncode}\n{done.stderr[-2000:]}")
        if argv[1] == "play":
            assert "continue it with:" in done.stdout and "handfoot play --resume" in done.stdout
    assert not failures, "\n\n".join(failures)
    assert ran >= 10
    assert (tmp_path / "game.json").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_readme_serve_starts_and_stops(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    (command,) = [c for c in readme_commands() if c.startswith("handfoot serve")]
    argv = shlex.split(command)
    port = str(_free_port())
    if "--port" in argv:
        argv[argv.index("--port") + 1] = port
    else:
        argv += ["--port", port]
    err = (tmp_path / "serve.err").open("w")
    server = subprocess.Popen(argv, cwd=tmp_path, env=_env(tmp_path), stdout=subprocess.PIPE,
                              stderr=err, text=True)
    try:
        assert server.stdout is not None
        said: list[str] = []
        while len(said) < 5 and not any("playing at" in line for line in said):
            line = server.stdout.readline()  # "database migrated ...", "playing at ..."
            if not line:
                break
            said.append(line)
        assert any("playing at" in line for line in said), said
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
                    assert page.status == 200
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        err.close()
    # Ctrl-C is how the README stops the server: it ends quietly, with 0 (it printed
    # uvicorn's KeyboardInterrupt traceback and died by SIGINT, as uvicorn.run would not)
    said_err = (tmp_path / "serve.err").read_text()
    assert "Traceback" not in said_err and "KeyboardInterrupt" not in said_err, said_err
    assert server.returncode == 0


def test_readme_python_examples_run() -> None:
    import contextlib
    import io

    blocks = _blocks("python")
    assert blocks
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "README.md", "exec"), {})
        # what a block prints is what its comment shows (readable cards, not integer ids)
        for shown in re.findall(r"print\(.*\)\s+# (.+?) \.\.\.", block):
            assert out.getvalue().startswith(shown), (shown, out.getvalue())


def test_quick_start_scripts_exist_and_parse() -> None:
    for name in ("serve", "play", "test", "demo", "handfoot"):
        script = ROOT / "scripts" / name
        assert script.exists() and os.access(script, os.X_OK), script
        subprocess.run(["bash", "-n", str(script)], check=True)
    subprocess.run(["bash", "-n", str(ROOT / "scripts" / "_venv")], check=True)
    text = (ROOT / "scripts" / "_venv").read_text(encoding="utf-8")
    assert "pyproject.toml" in text and "sha256" in text  # installs only when it changed
    assert 'rglob("*")' in text and "--no-deps" in text  # builds again when a source did


def test_the_first_screen_speaks_to_families_and_the_extras_are_a_table() -> None:
    """Issue 27: the README opened for families and then turned to mypyc, OpenSpiel ratios
    and issue targets; those live in docs/ now. Five lines say how to play, and a table
    says what each extra adds and how to install it (every extra of pyproject.toml that a
    user installs)."""
    import tomllib

    text = README.read_text(encoding="utf-8")
    first = text.split("## Play in the browser", 1)[0]
    for word in ("mypyc", "gin rummy", "issue ", "rounds/s", "\u00b5s", "p99", "target"):
        assert word not in first, word
    steps = re.findall(r"^(\d)\. ", text.split("## How to play", 1)[1].split("\n## ", 1)[0],
                       re.M)
    assert steps == ["1", "2", "3", "4", "5"]
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    rows = {m.group(1): m.group(2) for m in
            re.finditer(r"^\| (\w+) \| [^|]+ \| `(pip install [^`]+)` \|$", text, re.M)}
    assert set(rows) == {"core", "web", "ratings", "rl", "cluster"}
    assert rows["core"] == "pip install ."
    for extra in ("web", "ratings", "rl", "cluster"):
        assert extra in extras and rows[extra] == f"pip install '.[{extra}]'"
    for gone in ("251 rounds/s", "5.80\u00d7", "\u2265 60%: **not reached**"):
        assert gone not in text
    performance = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert "5.80\u00d7" in performance and "251 rounds/s" in performance
    assert "[docs/performance.md](docs/performance.md)" in text
    assert "[docs/rl.md](docs/rl.md)" in text
