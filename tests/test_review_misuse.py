"""Game review tried as a new user and an attacker would (docs/review.md, "Tried as a user and
an attacker"): names that look like markup, options that do nothing, Ctrl-C, a game not over,
and on the web a queue of reviews and a process that dies while computing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from handfoot.cli import review as cli_review
from handfoot.game.record import to_json
from test_review import bot_record, run, terminal_game_to_end


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("misuse")
    over = bot_record("hard", 5)
    out = {"over": folder / "over.json", "cut": folder / "cut.json"}
    out["over"].write_text(to_json(over))
    out["cut"].write_text(to_json(bot_record("hard", 5, moves=40)))
    data = json.loads(out["over"].read_text())
    data["seats"][0]["name"] = "[/]"  # Rich would read it as a closing tag, and fail
    data["seats"][1]["name"] = "[bold]Bob[/bold]"
    out["markup"] = folder / "markup.json"
    out["markup"].write_text(json.dumps(data))
    return out


def test_names_are_printed_as_written_never_read_as_markup(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "review", str(records["markup"]), "--seat", "0", "--seat", "1",
                         "--budget", "0.2")
    assert code == 0, err
    assert "[/]: no costly decision found." in out or "[/]'s costliest decisions:" in out
    assert "[bold]Bob[/bold]" in out


def test_the_table_keeps_its_heads_when_a_name_is_long(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(records["over"].read_text())
    data["seats"][0]["name"] = "A name far too long for a table of eighty columns, surely"
    path = records["over"].parent / "long.json"
    path.write_text(json.dumps(data))
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "review", str(path), "--seat", "0", "--budget", "0.2")
    assert code == 0
    heads = next(line for line in out.splitlines() if "Seat" in line)
    for head in ("Moves", "Loss", "Acc.", "Good", "Inacc.", "Mist.", "Blund."):
        assert head in heads
    table = [line for line in out.splitlines() if line[:1] in "┏┃┡│└"]
    assert table and max(len(line) for line in table) <= 80


def test_timeline_without_json_is_a_usage_error(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "review", str(records["over"]), "--timeline")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "--timeline goes with --json" in err


def test_ctrl_c_says_how_far_the_review_got_without_a_traceback(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*_args: Any, progress: Any = None, **_kw: Any) -> None:
        progress(3, 20)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_review, "game_review", interrupted)
    code, out, err = run(capsys, "review", str(records["over"]))
    assert code == 1 and out == ""
    assert err.strip() == ("handfoot review: interrupted after 3 of 20 decisions; nothing "
                           "printed")


def test_a_game_not_over_is_reviewed_and_said_so(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "review", str(records["cut"]), "--seat", "0", "--budget", "0.2")
    assert code == 0
    assert out.rstrip().endswith("The game is not over: the moves recorded so far are reviewed.")
    code, out, _ = run(capsys, "review", str(records["cut"]), "--seat", "0", "--budget", "0.2",
                       "--json")
    assert code == 0 and json.loads(out)["over"] is False
    code, out, _ = run(capsys, "review", str(records["over"]), "--seat", "0", "--budget",
                       "0.2", "--json")
    assert code == 0 and json.loads(out)["over"] is True


def _held_reviews(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[tuple[str, int]]]:
    """``_compute`` replaced by one that waits for the returned event: reviews that take as
    long as the test wants; the list says which were begun."""
    import threading

    from handfoot.web import reviews

    release = threading.Event()
    begun: list[tuple[str, int]] = []

    def compute(record: Any, seat: int, budget: float, report: Any) -> dict[str, Any]:
        begun.append((record, seat))
        while not release.wait(0.02):
            report(0, 1)  # stops here when the server closes
        return {"seat": seat}

    monkeypatch.setattr(reviews, "_compute", compute)
    return release, begun


def test_a_review_waiting_behind_another_stays_running_and_is_not_taken_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review waits its turn behind the one computing for longer than STALE: its row is
    kept fresh (every HEARTBEAT), so no process takes it for abandoned (before, it turned
    "failed" after STALE and another process could compute it a second time)."""
    import time
    from datetime import timedelta

    from handfoot.web import reviews
    from web_client import client

    monkeypatch.setattr(reviews, "STALE", timedelta(seconds=0.6))
    monkeypatch.setattr(reviews, "HEARTBEAT", timedelta(seconds=0.1))
    release, begun = _held_reviews(monkeypatch)
    record = bot_record("hard", 5, moves=12)
    with client(tmp_path / "r.db") as c:
        store = c.app.state.store  # type: ignore[attr-defined]
        rv = reviews.Reviews(store, budget=0.1, processes=False)
        first = c.portal.call(rv.start, "g1", record, 0)
        second = c.portal.call(rv.start, "g1", record, 1)
        assert first["status"] == second["status"] == "running"
        assert (first["waiting"], second["waiting"]) == (0, 1)
        time.sleep(1.5)  # well past STALE
        # another process on the same database
        other = reviews.Reviews(store, budget=0.1, processes=False)
        for seat in (0, 1):
            assert c.portal.call(other.status, "g1", seat)["status"] == "running"
            assert not c.portal.call(store.claim_review, "g1", seat, 3, reviews.STALE)
        assert len(begun) == 1
        release.set()
        deadline = time.monotonic() + 10
        while c.portal.call(rv.status, "g1", 1)["status"] != "done":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert c.portal.call(rv.status, "g1", 0)["review"] == {"seat": 0}
        c.portal.call(rv.close)


def test_reviews_beyond_the_queue_are_refused_and_a_waiting_one_never_begins_on_close(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from handfoot.web import reviews
    from web_client import client

    monkeypatch.setattr(reviews, "MAX_WAITING", 2)
    release, begun = _held_reviews(monkeypatch)
    record = bot_record("hard", 5, moves=12)
    with client(tmp_path / "r.db") as c:
        store = c.app.state.store  # type: ignore[attr-defined]
        rv = reviews.Reviews(store, budget=0.1, processes=False)
        c.portal.call(rv.start, "g1", record, 0)
        c.portal.call(rv.start, "g1", record, 1)
        with pytest.raises(reviews.Busy):
            c.portal.call(rv.start, "g1", record, 2)
        # one already held is told as it is, busy or not
        assert c.portal.call(rv.start, "g1", record, 1)["status"] == "running"
        c.portal.call(rv.close)  # the one computing stops; the one waiting never begins
        assert begun == [(record, 0)]
        for seat in (0, 1):
            assert c.portal.call(rv.status, "g1", seat)["status"] == "failed"
        release.set()


def test_review_during_the_game_says_when_and_asked_twice_after_is_not_redone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from handfoot.terminal import play as terminal_play

    calls: list[int] = []

    def lines(record: Any, seat: int, **_kw: Any) -> list[str]:
        calls.append(seat)
        return ["Review of your 9 decisions: accuracy 80."]

    monkeypatch.setattr(terminal_play, "costliest_lines", lines)
    after = ["review", "review"]

    def answer(prompt: str) -> str:
        if after:
            return after.pop()
        raise EOFError

    out = terminal_game_to_end(answer, ["review"])
    assert "The review comes once the game is over" in out
    assert "Cannot read that" not in out
    assert calls == [0]
    assert out.count("Reviewing your decisions...") == 1
    assert out.count("Review of your 9 decisions: accuracy 80.") == 2


def _loop_lag(c: Any, seconds: float) -> list[float]:
    """How late the event loop wakes from 1 ms sleeps over ``seconds`` (ms, each)."""
    import asyncio
    import time

    async def measure() -> list[float]:
        lags = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t = time.perf_counter()
            await asyncio.sleep(0.001)
            lags.append((time.perf_counter() - t - 0.001) * 1000)
        return lags

    out: list[float] = c.portal.call(measure)
    return out


@pytest.mark.timing  # the loop's lag is the measure: scripts/test runs it alone
@pytest.mark.parametrize("processes", [True, False])
def test_a_review_computed_leaves_the_event_loop_its_turns(
        tmp_path: Path, processes: bool) -> None:
    """A review computed in a thread of the server process holds the GIL: the event loop
    waits the switch interval (5 ms) at its every turn, and every answer of the server
    takes tens of milliseconds more (measured: 70 ms a request against 2). In a process of
    its own it leaves the loop alone."""
    import statistics
    import sys
    import time

    from handfoot.web import reviews
    from web_client import client

    record = bot_record("hard", 5)
    with client(tmp_path / "r.db") as c:
        store = c.app.state.store  # type: ignore[attr-defined]
        rv = reviews.Reviews(store, budget=60, processes=processes)
        c.portal.call(rv.start, "g1", record, 0)
        deadline = time.monotonic() + 60
        while c.portal.call(rv.status, "g1", 0)["done"] < 2:  # computing, not starting
            assert time.monotonic() < deadline
            time.sleep(0.05)
        lag = statistics.median(_loop_lag(c, 1.0))
        c.portal.call(rv.close)
    switch_ms = sys.getswitchinterval() * 1000
    if processes:
        assert lag < switch_ms / 2, lag
    else:  # what the server did before: the reason for the process
        assert lag > switch_ms / 2, lag


def test_the_review_process_ends_when_its_server_process_is_killed(tmp_path: Path) -> None:
    """A server process killed (kill -9, out of memory) left its review process behind for
    good: waiting for work on a queue it holds both ends of, an orphan."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "server.py"
    script.write_text(
        "import asyncio, os, sys, time\n"
        "from handfoot.web import reviews\n"
        "async def main():\n"
        "    pool = reviews.Reviews(None)._executor(asyncio.get_running_loop())\n"
        "    print(pool.submit(os.getpid).result(), flush=True)\n"
        "    time.sleep(600)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              text=True, env=env)
    try:
        assert server.stdout is not None
        child = int(server.stdout.readline())
        assert Path(f"/proc/{child}").exists()
        server.send_signal(signal.SIGKILL)
        server.wait()
        deadline = time.monotonic() + 15
        while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        gone = not Path(f"/proc/{child}").exists()
        if not gone:
            os.kill(child, signal.SIGKILL)
        assert gone, "the review process outlived its server process"
    finally:
        if server.poll() is None:
            server.kill()


def _session(sid: int) -> list[int]:
    """The processes still alive in session ``sid`` (Linux: from /proc)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if fields[0] != "Z" and int(fields[3]) == sid:
            alive.append(int(stat.parent.name))
    return alive


@pytest.mark.parametrize("stop", ["SIGTERM to the server", "Ctrl-C to its process group"])
def test_a_server_stopped_while_it_reviews_stops_cleanly(tmp_path: Path, stop: str) -> None:
    """A server stopped after a review was asked for drew "resource_tracker: There appear to
    be 8 leaked semaphore objects" (SIGTERM: uvicorn raises the signal again once shut down,
    no exit handler runs, and the review process's queue and event were never unlinked),
    and Ctrl-C in a terminal reached the review process too: a KeyboardInterrupt came back
    to the server as a traceback."""
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    from web_client import client, played_game

    db = tmp_path / "games.db"
    with client(db, absent_grace=0.0) as c:  # a finished game, its review not asked for
        gid = played_game(c)["game_id"]
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), HANDFOOT_REVIEW_BUDGET="30")
    log = tmp_path / "server.err"
    with open(log, "wb") as err:
        server = subprocess.Popen(
            [sys.executable, "-m", "handfoot", "serve", "--port", str(port), "--database-url",
             f"sqlite:///{db}", "--no-open-limits"], stdout=subprocess.DEVNULL, stderr=err,
            env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}/api/games/{gid}/review"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text()
            try:
                request = urllib.request.Request(base, data=b'{"seat": 0}', headers={
                    "content-type": "application/json"})
                with urllib.request.urlopen(request, timeout=5):
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server does not answer"
                time.sleep(0.1)
        while True:  # the review process computes
            with urllib.request.urlopen(base + "?seat=0", timeout=5) as r:
                if json.load(r)["done"] > 0:
                    break
            assert time.monotonic() < deadline, "the review does not start"
            time.sleep(0.1)
        if stop.startswith("SIGTERM"):
            server.send_signal(signal.SIGTERM)
        else:
            os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=60)
        time.sleep(0.5)  # the resource tracker speaks once the last process is gone
        text = log.read_text()
        assert "leaked" not in text and "reviews.py" not in text and "never retrieved" \
            not in text, text
        if not stop.startswith("SIGTERM"):
            # Ctrl-C ends it quietly, with 0, as uvicorn.run does: not uvicorn's
            # KeyboardInterrupt raised again once it had shut down (SIGTERM is raised again
            # too and ends the process by it: no traceback, the status says SIGTERM)
            assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
            assert server.returncode == 0
        # and the review process has ended with it (it ignores the signals; its server
        # process stops it): nothing of the server's session is left
        gone_by = time.monotonic() + 15
        while _session(server.pid) and time.monotonic() < gone_by:
            time.sleep(0.2)
        assert not _session(server.pid), "the review process outlived its server"
    finally:
        if server.poll() is None:
            server.kill()
