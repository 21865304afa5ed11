"""A correspondence game's timer survives SIGKILL: ``handfoot serve`` on a SQLite file in a
subprocess, a correspondence game whose person's time is made to run out while the server is
dead, a restart, and a second SIGKILL just as the stand-in starts its turn: the stand-in plays
exactly one turn, the bot goes on with nobody connected, and the next turn has a new hour."""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SERVE = "import sys; from handfoot.cli import main; sys.exit(main(sys.argv[1:]))"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Server:
    def __init__(self, db: Path, log: Path) -> None:
        self.db = db
        self.log = log
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-c", SERVE, "serve", "--port", str(self.port),
                 "--database-url", f"sqlite:///{self.db}", "--bot-delay", "0",
                 "--no-open-limits"], stdout=out, stderr=out)
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, self.log.read_text()
            try:
                with urllib.request.urlopen(self.base + "/api/profiles", timeout=2):
                    return
            except OSError:
                assert time.monotonic() < deadline, "the server does not answer"
                time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self.process = None

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(),
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            return json.load(r)


def _query(db: Path, sql: str, *args: Any) -> list[Any]:
    with sqlite3.connect(db, timeout=10) as conn:
        return conn.execute(sql, args).fetchall()


def _wait(check: Callable[[], Any], timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def _timeout_runs(rows: list[Any]) -> list[list[Any]]:
    runs: list[list[Any]] = []
    for i, (seq, seat, by) in enumerate(rows):
        if by != "timeout":
            continue
        if i and rows[i - 1][2] == "timeout":
            runs[-1].append((seq, seat))
        else:
            runs.append([(seq, seat)])
    return runs


def test_a_timer_fires_once_across_sigkill_and_restarts(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    server = _Server(db, tmp_path / "server.log")
    server.start()
    try:
        game = server.post("/api/games", {
            "profile": "biegames", "layout": "2x1",
            "seats": [{"kind": "human", "name": "Ann"},
                      {"kind": "bot", "level": "easy", "name": "Bot"}],
            "correspondence": {"per_move": 3600, "on_timeout": "bot"}})
        gid = game["game_id"]

        def turn() -> Any:
            rows = _query(db, "SELECT seq, seat, due FROM turns WHERE game = ?", gid)
            return rows[0] if rows else None

        seq, _seat, _due = _wait(lambda: (t := turn()) is not None and t[1] == 0 and t)
        server.kill()
        # the hour passes while the server is dead
        past = (datetime.now(UTC).replace(tzinfo=None) - timedelta(seconds=1))
        _query(db, "UPDATE turns SET due = ? WHERE game = ?",
               past.isoformat(sep=" ", timespec="microseconds"), gid)
        moves_before = _query(db, "SELECT count(*) FROM moves WHERE game = ?", gid)[0][0]

        server.start()  # the timer fires after the restart...
        _wait(lambda: _query(db, "SELECT count(*) FROM moves WHERE game = ? AND \"by\" = "
                                 "'timeout'", gid)[0][0] > 0)
        server.kill()  # ... and the server dies again as the stand-in plays
        server.start()

        # the turn passes, the bot moves with nobody connected, the person's turn is back
        again = _wait(lambda: (t := turn()) is not None and t[0] > seq and t[1] == 0 and t)
        time.sleep(3.0)  # three more passes of the timers: nothing more fires
        rows = _query(db, 'SELECT seq, seat, "by" FROM moves WHERE game = ? ORDER BY seq',
                      gid)
        runs = _timeout_runs(rows)
        assert len(runs) == 1, runs  # exactly one stand-in turn
        assert runs[0][0][0] == moves_before + 1
        assert {s for _, s in runs[0]} == {0}
        assert [r[0] for r in rows] == list(range(1, len(rows) + 1))  # no move twice
        after = rows[runs[0][-1][0]:]  # the move after the stand-in's turn is another's
        assert after and after[0][1] == 1
        assert turn()[0] == again[0]  # the person's new turn waits, its hour not out
        new_due = datetime.fromisoformat(again[2])
        assert new_due > datetime.now(UTC).replace(tzinfo=None) + timedelta(minutes=50)
    finally:
        server.kill()
