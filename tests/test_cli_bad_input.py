"""Bad input on the command line (issue 27, item 3): every case is ONE line on standard
error naming the problem, exit status 2, no traceback; and output that the terminal's
encoding cannot show is written in plain letters, never a ``UnicodeEncodeError``.

Each command runs in its own process under a 1 GiB address-space limit, so a command that
tried to read ``/dev/zero`` whole would fail with MemoryError instead of eating the machine.
"""

from __future__ import annotations

import json
import os
import resource
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from handfoot.game.record import MAX_RECORD_BYTES, MAX_RECORD_MOVES, to_json

MEMORY_LIMIT = 2**30


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def handfoot(*argv: str, cwd: Path, env: dict[str, str] | None = None,
             timeout: float = 120) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``handfoot ARGV`` in a process of its own: the result and its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "handfoot", *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout,
                          preexec_fn=_limit_memory, stdin=subprocess.DEVNULL,
                          env={**os.environ, "HANDFOOT_SCHEDULER": "", **(env or {})})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return done, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def a_record(moves: int) -> str:
    """A record of a real short game whose first round's moves are repeated to ``moves``
    (a record far too long: it is refused before it is parsed)."""
    from handfoot.game.engine import GameState
    from handfoot.game.loading import load_profile
    from handfoot.game.moves import parse_move
    from handfoot.game.record import GameRecorder

    profile = load_profile("biegames")
    state = GameState.new(profile, seed=1)
    recorder = GameRecorder(state)
    recorder.apply(parse_move("draw"))
    data = json.loads(to_json(recorder.record()))
    data["rounds"][0]["moves"] = [{"seat": 0, "move": "draw"}] * moves
    return json.dumps(data, separators=(",", ":"))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bad-input")
    (folder / "million-moves.json").write_text(a_record(1_000_000))
    (folder / "many-moves.json").write_text(a_record(MAX_RECORD_MOVES + 1))
    with open(folder / "huge.json", "wb") as f:  # a sparse file of 20 MiB
        f.truncate(20 * 2**20)
    return folder


BAD_COMMANDS = {
    "replay /dev/zero": (["replay", "/dev/zero"], "at most 4 MiB"),
    "replay a 29 MB record": (["replay", "million-moves.json"], "at most 4 MiB"),
    "replay too many moves": (["replay", "many-moves.json"], "a record holds at most 50,000"),
    "play --resume /dev/zero": (["play", "--resume", "/dev/zero"],
                                "--resume /dev/zero: not a handfoot game record: a record "
                                "file holds at most 4 MiB"),
    "play --resume nofile": (["play", "--resume", "nofile.json"],
                             "--resume nofile.json: cannot read the file: No such file"),
    "simulate --games huge": (["simulate", "--games", "99999999999999999999"],
                              "at most 1,000,000 games"),
    "tournament --games huge": (["tournament", "--bots", "easy,random", "--games",
                                 "99999999999999999999"], "at most 1,000,000 games"),
    "simulate --scheduler garbage": (["simulate", "--games", "1", "--scheduler", "garbage"],
                                     "not a Dask scheduler address"),
    "tournament --scheduler garbage": (["tournament", "--bots", "easy,random", "--scheduler",
                                        "garbage"], "not a Dask scheduler address"),
    "simulate --resume nofile": (["simulate", "--games", "1", "--resume", "nofile.json"],
                                 "--resume nofile.json: no such file"),
    "simulate --records /proc/nope/x": (["simulate", "--games", "1", "--records",
                                         "/proc/nope/x"], "--records /proc/nope/x: "),
    "db upgrade foo://bar": (["db", "upgrade", "--database-url", "foo://bar"],
                             "cannot use a 'foo' database"),
    "serve foo://bar": (["serve", "--database-url", "foo://bar"],
                        "cannot use a 'foo' database"),
    "serve --port 0": (["serve", "--port", "0"], "0 is not a port: give one from 1 to 65535"),
    "serve --port -1": (["serve", "--port", "-1"], "-1 is not a port"),
    "serve --port 70000": (["serve", "--port", "70000"], "70000 is not a port"),
    "serve --host 999.1.1.1": (["serve", "--host", "999.1.1.1", "--port", "8000"],
                               "--host '999.1.1.1': not an address of this computer"),
    "db upgrade not a URL": (["db", "upgrade", "--database-url", "foo"],
                             "not a database URL"),
    "score --sheet /dev/zero": (["score", "--sheet", "/dev/zero"], "not a file"),
    "score --sheet huge": (["score", "--sheet", "huge.json"], "a sheet takes at most 16 MiB"),
    "ratings /dev/zero": (["ratings", "/dev/zero"], "/dev/zero: not a file"),
    "ratings a 29 MB record": (["ratings", "million-moves.json"], "at most 4 MiB"),
    "ratings nofile": (["ratings", "nofile.json"], "nofile.json: no such file"),
    "simulate --games abc": (["simulate", "--games", "abc"], "invalid int value: 'abc'"),
    "an unknown option": (["simulate", "--bogus"], "unrecognized arguments: --bogus"),
    "no command": ([], "the following arguments are required: COMMAND"),
}


@pytest.mark.parametrize(("argv", "words"), BAD_COMMANDS.values(), ids=BAD_COMMANDS.keys())
def test_bad_input_is_one_line_and_exit_2(files: Path, argv: list[str], words: str) -> None:
    done, cpu = handfoot(*argv, cwd=files)
    lines = done.stderr.splitlines()
    assert done.returncode == 2, done.stderr[-2000:]
    assert len(lines) == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "[Errno" not in done.stderr
    assert words in lines[0]
    assert cpu < 5, f"{cpu:.1f} s of CPU to refuse it"


def test_serve_on_a_port_in_use_is_one_line_before_the_database(tmp_path: Path) -> None:
    """Was uvicorn's ``ERROR: [Errno 98] ...`` after "migrated" and "playing at", exit 3."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done, _ = handfoot("serve", "--port", str(port), "--database-url",
                           f"sqlite:///{tmp_path / 'games.db'}", cwd=tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    assert f"--port {port}: another program is listening on 127.0.0.1:{port}" in done.stderr
    assert not (tmp_path / "games.db").exists()  # refused before the database was made


def test_a_database_of_a_newer_handfoot_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    """A revision this version does not know: said as such, the file unchanged."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    made, _ = handfoot("db", "upgrade", "--database-url", url, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute("UPDATE alembic_version SET version_num = '9999'")
    db.close()
    before = (tmp_path / "games.db").read_bytes()
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
    for argv in (["serve", "--port", port], ["db", "upgrade"]):
        done, _ = handfoot(*argv, "--database-url", url, cwd=tmp_path)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
        assert "the database is at revision 9999, which this handfoot" in done.stderr
        assert "made or migrated by a newer handfoot" in done.stderr
        assert (tmp_path / "games.db").read_bytes() == before


def test_a_huge_record_is_refused_before_it_is_parsed(files: Path) -> None:
    started = time.process_time()
    done, cpu = handfoot("replay", "million-moves.json", cwd=files)
    assert (files / "million-moves.json").stat().st_size > MAX_RECORD_BYTES
    assert done.returncode == 2 and cpu < 2, cpu  # was 40 s of CPU before the limit
    assert time.process_time() - started < 1


@pytest.mark.parametrize("argv", [
    ["rules", "show", "partnership-13"],
    ["rules", "diff", "biegames", "partnership-13"],
    ["tournament", "--bots", "easy,random", "--games", "1", "--profile", "biegames",
     "--layout", "2x1", "--quiet"],
], ids=["rules show", "rules diff", "tournament"])
def test_an_ascii_terminal_gets_plain_letters(tmp_path: Path, argv: list[str]) -> None:
    done, _ = handfoot(*argv, cwd=tmp_path, env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0 and not done.stderr, done.stderr[-2000:]
    unicode, _ = handfoot(*argv, cwd=tmp_path, env={"PYTHONIOENCODING": "utf-8"})
    assert done.stdout.isascii() and done.stdout.count("?") == unicode.stdout.count("?")
    plain = {"rules": " x ", "tournament": " us"}[argv[0]]
    assert plain in done.stdout
