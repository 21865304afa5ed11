"""More than one server process over one PostgreSQL: the players of one game connected to
different processes see the same game at every move; a process killed with SIGKILL loses
no acknowledged move and its players go on through another; presence crosses processes (a
stand-in never plays for a person connected elsewhere); a lost notification is recovered.

The processes are real ``handfoot serve`` subprocesses (uvicorn) driven over real
WebSockets, except the presence and recovery tests, which run two apps (two
:class:`~handfoot.web.tables.Tables`, each listening on its own connection, as two processes
would) in this process for speed."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.rules import Layout
from handfoot.web import store as store_module
from handfoot.web import table_bots
from handfoot.web import tables as tables_module
from handfoot.web.store import Store
from pg import free_port
from web_client import Person, client, new_game, token_of

HANDFOOT = [sys.executable, "-c", "import sys; from handfoot.cli import main; sys.exit(main())"]


# -- real server processes ---------------------------------------------------------------


class Server:
    """``handfoot serve`` in a subprocess on a free port."""

    def __init__(self, database_url: str, *extra: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [*HANDFOOT, "serve", "--port", str(self.port), "--database-url", database_url,
             "--bot-delay", "0.02", "--no-open-limits", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/api/profiles", timeout=5):
                    break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    out = self.process.stdout.read() if self.process.stdout else ""
                    raise AssertionError(f"the server did not start:\n{out}") from None
                time.sleep(0.1)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), method="POST",
            headers={"content-type": "application/json", "origin": self.base})
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.loads(reply.read())  # type: ignore[no-any-return]

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process.stdout:
            self.process.stdout.close()


@contextmanager
def servers(database_url: str, n: int = 2) -> Iterator[list[Server]]:
    started: list[Server] = []
    try:
        for _ in range(n):
            started.append(Server(database_url))
        yield started
    finally:
        for s in started:
            s.stop()


class _Socket:
    """A real WebSocket with the calls :class:`web_client.Person` makes."""

    def __init__(self, server: Server, game_id: str) -> None:
        self.conn = connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}", origin=server.base,
                            proxy=None, max_queue=None, open_timeout=30, legacy=True)

    def send_json(self, data: Any) -> None:
        self.conn.send(json.dumps(data))

    def receive_json(self) -> Any:
        text = self.next_message(60.0)
        if text is None:
            raise TimeoutError("no message from the server in 60 s")
        return json.loads(text)

    def next_message(self, wait: float) -> str | None:
        """The next message within ``wait`` seconds, or None. It polls (``recv`` without a
        timed wait): under load, websockets' timed ``recv`` (a timed ``SimpleQueue.get``)
        was seen to block far past its timeout, for good."""
        deadline = time.monotonic() + wait
        while True:
            try:
                return str(self.conn.recv(timeout=0))
            except TimeoutError:
                if time.monotonic() >= deadline:
                    return None
                time.sleep(0.002)

    def __exit__(self, *exc: Any) -> None:
        self.conn.close()


class Player(Person):
    """A seat (or the spectator) on a real server process, played by a hard bot through its
    view; every frame is checked against its shadow of the game (as :class:`Person`)."""

    def __init__(self, server: Server, database_url: str, game_id: str, token: str, *,
                 seat: int | None, seed: int = 1) -> None:
        self.server = server
        self.database_url = database_url
        self.game_id = game_id
        self.token = token
        self.seat = seat
        self.bot = make_bot("hard", seed)
        self.shadow, self.side_names = _shadow(database_url, game_id)
        self.seq = 0
        self.snapshots: dict[int, GameState] = {0: self.shadow.copy()}
        self.frames: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None
        self.check_frames = True
        self.rng = random.Random(seed)
        self.ws: Any = None
        self._cm: Any = None
        self.acked: dict[int, str] = {}
        """The moves the server acknowledged to this player, by seq."""
        self.heard: list[dict[str, Any]] = []
        """The messages other than states that :meth:`drain` read."""

    def connect(self, seq: int | None = None) -> dict[str, Any]:
        self._cm = self.ws = _Socket(self.server, self.game_id)
        self.ws.send_json({"type": "hello", "token": self.token,
                           "seq": self.seq if seq is None else seq})
        welcome: dict[str, Any] = self.ws.receive_json()
        assert welcome["type"] == "welcome", welcome
        assert welcome["seat"] == self.seat
        return welcome

    def move_to(self, server: Server) -> None:
        """Reconnect to another process, saying the last seq seen."""
        self.server = server
        self.connect(self.seq)
        self.until("state")

    def play(self, move: str, rid: str | None = None) -> dict[str, Any]:
        reply = super().play(move, rid)
        self.acked[reply["seq"]] = move
        return reply

    def _notation(self, event: dict[str, Any]) -> str:
        if event["type"] != "answer" and not (
                event.get("notation") or event.get("private", {}).get("notation")):
            rows = asyncio.run(_moves(self.database_url, self.game_id))
            return rows[event["n"] - 1]
        return super()._notation(event)

    def drain(self, until: float = 0.0) -> None:
        """Read every message that comes within ``until`` seconds."""
        while True:
            text = self.ws.next_message(until)
            if text is None:
                return
            m = json.loads(text)
            if m["type"] == "state":
                self._follow(m)
            else:
                self.heard.append(m)

    def turn(self) -> bool:
        """Do what this seat must (a move, or Continue); whether it did anything."""
        m = self.last
        if m is None or self.seat is None or m["view"]["phase"] == "game_over":
            return False
        waiting = m["waiting"]
        if waiting is not None and self.seat in waiting["continue"]:
            self.send({"type": "continue", "round": waiting["round"]})
            self.until("state")
            return True
        if self.my_turn():
            self.play(self.choose())
            return True
        return False

    def over(self) -> bool:
        return self.last is not None and self.last["view"]["phase"] == "game_over"


def _shadow(database_url: str, game_id: str) -> tuple[GameState, list[str]]:
    async def read() -> Any:
        store = Store(database_url)
        try:
            return await store.game(game_id)
        finally:
            await store.close()
    row = asyncio.run(read())
    profile = load_profile(row.profile, overrides=row.overrides)
    state = GameState.new(profile, layout=Layout.parse(row.layout), seed=row.seed)
    names = [s.name for s in row.seats]
    sides = [" and ".join(names[s] for s in state.layout.seats_of(side))
             for side in range(state.sides)]
    return state, sides


async def _moves(database_url: str, game_id: str) -> list[str]:
    store = Store(database_url)
    try:
        return [r.notation for r in await store.moves(game_id)]
    finally:
        await store.close()


def play_together(people: list[Player], *, stop_at: int | None = None,
                  max_steps: int = 50_000) -> None:
    """Play until the game is over (or some player saw ``stop_at`` moves), each seat when
    its own view says so; everybody's shadow follows every move it is sent."""
    for _ in range(max_steps):
        if all(p.over() for p in people):
            return
        if stop_at is not None and any(p.seq >= stop_at for p in people):
            return
        if not any(p.turn() for p in people):
            for p in people:
                p.drain(0.01)
    raise AssertionError(f"the game did not end: seqs {[p.seq for p in people]}")


def assert_agree(people: list[Player]) -> None:
    """Every player saw every move, in the same order, and the same game after each (once
    the game is over)."""
    for p in people:
        p.drain(0.3)
    last = max(p.seq for p in people)
    for p in people:
        assert p.over() and p.seq == last, (p.seat, p.seq, last)
    first = people[0]
    for seq in range(last + 1):
        for p in people[1:]:
            assert p.snapshots[seq] == first.snapshots[seq], (seq, p.seat)


def seat_links(game: dict[str, Any]) -> list[str]:
    return [token_of(s["link"]) for s in game["seats"] if "link" in s]


# -- the tests ---------------------------------------------------------------------------


def test_serve_refuses_several_workers_on_sqlite(tmp_path: Path) -> None:
    done = subprocess.run([*HANDFOOT, "serve", "--workers", "2", "--database-url",
                           f"sqlite:///{tmp_path / 'w.db'}"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0
    assert "needs a database that processes can share: PostgreSQL" in done.stderr


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    first = Server(url)
    try:
        second = subprocess.run([*HANDFOOT, "serve", "--port", str(free_port()),
                                 "--database-url", url], capture_output=True, text=True,
                                timeout=120)
        assert second.returncode != 0
        assert "another handfoot server is using" in second.stderr
    finally:
        first.stop()


def test_people_of_one_game_on_two_processes_see_the_same_game(postgres_url: str) -> None:
    """Four people, seats 0 and 2 on one process, 1 and 3 and the spectator on the other:
    a one-round game to its end; every frame each is sent is its view of the same game."""
    with servers(postgres_url) as (a, b):
        game = a.post("/api/games", {"profile": "biegames", "rounds": 1,
                                     "seats": [{"kind": "human"}] * 4})
        gid = game["game_id"]
        tokens = seat_links(game)
        people = [Player(a if seat % 2 == 0 else b, postgres_url, gid, tokens[seat],
                         seat=seat, seed=seat + 1) for seat in range(4)]
        watcher = Player(b, postgres_url, gid, token_of(game["spectator_link"]), seat=None)
        for p in [*people, watcher]:
            p.connect()
            p.until("state")
        play_together([*people, watcher])
        assert_agree([*people, watcher])
        assert people[0].over() and watcher.last is not None
        assert asyncio.run(_moves(postgres_url, gid)) == [
            m for _, m in sorted((s, m) for p in people for s, m in p.acked.items())]


def test_bots_play_once_whichever_process_wins_and_a_killed_process_loses_no_move(
        postgres_url: str) -> None:
    """Two people with two bots, one person on each process: both processes think for the
    bots, one stores each bot move. Mid-game one process is killed (SIGKILL) right after it
    acknowledged a move; its person reconnects to the other process, finds that move and
    every other one, and the game goes on to its end."""
    with servers(postgres_url) as (a, b):
        game = a.post("/api/games", {
            "profile": "biegames", "rounds": 1,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "hard"},
                      {"kind": "human"}, {"kind": "bot", "level": "easy"}]})
        gid = game["game_id"]
        tokens = seat_links(game)
        ann = Player(a, postgres_url, gid, tokens[0], seat=0, seed=3)
        bob = Player(b, postgres_url, gid, tokens[1], seat=2, seed=4)
        for p in (ann, bob):
            p.connect()
            p.until("state")
        play_together([ann, bob], stop_at=24)
        for _ in range(20_000):  # on to bob's turn
            if bob.my_turn():
                break
            if not ann.turn():
                for p in (ann, bob):
                    p.drain(0.01)
        assert bob.my_turn(), "the game ended before bob's turn came"
        bob.play(bob.choose())  # acknowledged by process B
        acked_seq = bob.seq
        assert bob.acked[acked_seq]
        b.kill()  # SIGKILL: no goodbye
        bob.move_to(a)
        assert bob.seq >= acked_seq
        stored = asyncio.run(_moves(postgres_url, gid))
        for p in (ann, bob):
            for seq, move in p.acked.items():
                assert stored[seq - 1] == move  # every acknowledged move is there
        play_together([ann, bob])
        assert_agree([ann, bob])
        stored = asyncio.run(_moves(postgres_url, gid))
        assert len(stored) == ann.seq  # each seq once: no bot move was stored twice


def test_continue_and_rematch_cross_processes(postgres_url: str) -> None:
    """A two-round game, a person on each process with two bots: the round waits for both
    Continue presses, each made on its own process; after the game, a Rematch pressed on
    one process is offered to the person on the other, with that person's own link."""
    with servers(postgres_url) as (a, b):
        game = a.post("/api/games", {
            "profile": "biegames", "rounds": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                      {"kind": "human"}, {"kind": "bot", "level": "easy"}]})
        gid = game["game_id"]
        tokens = seat_links(game)
        ann = Player(a, postgres_url, gid, tokens[0], seat=0, seed=5)
        bob = Player(b, postgres_url, gid, tokens[1], seat=2, seed=6)
        for p in (ann, bob):
            p.connect()
            p.until("state")
        waits: list[Any] = []
        for _ in range(50_000):  # to the end of round 1 (nobody presses Continue yet)
            if all(p.last and p.last["waiting"] for p in (ann, bob)):
                break
            if not any(p.last and not p.last["waiting"] and p.turn() for p in (ann, bob)):
                for p in (ann, bob):
                    p.drain(0.01)
        assert ann.last and bob.last
        waits.append((ann.last["waiting"], bob.last["waiting"]))
        ann.turn()  # ann presses Continue on A: B hears of it
        for _ in range(200):
            bob.drain(0.05)
            if bob.last["waiting"] == {"continue": [2], "round": 1}:
                break
        assert bob.last["waiting"] == {"continue": [2], "round": 1}
        play_together([ann, bob])
        assert_agree([ann, bob])
        assert len(ann.last["view"]["results"]) == 2
        assert waits == [({"continue": [0, 2], "round": 1}, {"continue": [0, 2], "round": 1})]
        made = a.post(f"/api/games/{gid}/rematch", {"token": tokens[0]})
        for _ in range(200):
            bob.drain(0.05)
            if any(m["type"] == "rematch" for m in bob.heard):
                break
        offer = next(m for m in bob.heard if m["type"] == "rematch")
        assert offer["game_id"] == made["game_id"]
        mine = b.post(f"/api/games/{gid}/rematch", {"token": tokens[1]})
        assert mine["game_id"] == made["game_id"]  # the one rematch
        assert offer["link"] == next(s["link"] for s in mine["seats"] if "link" in s)


def test_serve_workers_runs_several_processes_on_postgres(postgres_url: str) -> None:
    """``--workers 2``: uvicorn's two processes share the port; games are created and
    played through it."""
    server = Server(postgres_url, "--workers", "2")
    try:
        pids = set()
        for _ in range(40):
            out = subprocess.run(["pgrep", "-P", str(server.process.pid)],
                                 capture_output=True, text=True).stdout.split()
            pids = {int(p) for p in out}
            if len(pids) >= 2:
                break
            time.sleep(0.25)
        assert len(pids) >= 2, pids
        game = server.post("/api/games", {"profile": "biegames", "rounds": 1,
                                          "seats": [{"kind": "human"}] * 2
                                          + [{"kind": "bot", "level": "easy"}] * 2})
        people = [Player(server, postgres_url, game["game_id"], t, seat=i * 1, seed=i)
                  for i, t in enumerate(seat_links(game))]
        for p in people:
            p.connect()
            p.until("state")
        play_together(people)
        assert_agree(people)
    finally:
        server.stop()


# -- two apps in this process (two Tables, as two processes) ---------------------------


def _wait(condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _in_step(people: list[Person]) -> Person:
    """Bring every person to the latest seq; the one whose turn it is."""
    last = max(p.seq for p in people)
    for p in people:
        while p.seq < last or p.last is None:
            p.receive()
    return next(p for p in people if p.my_turn())


def test_a_stand_in_never_plays_for_a_person_connected_to_another_process(
        postgres_url: str) -> None:
    """Everybody is connected to B; A holds the table for a spectator and runs its bots.
    Long past the grace time A has not stood in for anybody; when the person whose turn it
    is leaves B, a stand-in plays for them after the grace time."""
    with client(postgres_url, absent_grace=0.3) as ca, \
            client(postgres_url, absent_grace=0.3) as cb:
        game = new_game(ca, profile="biegames", rounds=1, absent="bot",
                        seats=[{"kind": "human"}] * 4)
        gid = game["game_id"]
        people = [Person(cb, gid, token_of(s["link"]), seat=i)
                  for i, s in enumerate(game["seats"])]
        for p in people:
            p.connect()
            p.until("state")
        watcher = Person(ca, gid, token_of(game["spectator_link"]), seat=None)
        watcher.connect()
        watcher.until("state")
        table_a = ca.portal.call(ca.app.state.tables.get, gid)  # type: ignore[attr-defined]
        _wait(lambda: table_a.sharing.remote == {0, 1, 2, 3})
        time.sleep(1.0)  # well past the grace time
        assert table_a.seq == 0 and all(table_a.presence())
        actor = _in_step(people)
        actor.close()  # leaves B: A hears it, and after the grace a stand-in plays
        _wait(lambda: table_a.seq > 0)
        rows = ca.portal.call(ca.app.state.store.moves, gid)  # type: ignore[attr-defined]
        assert rows[0].seat == actor.seat and rows[0].by == "stand-in"
        for p in [*people, watcher]:
            p.close()


@pytest.mark.parametrize("recovery", ["listening again", "sweep"])
def test_moves_whose_notifications_were_lost_are_read_from_the_table(
        postgres_url: str, recovery: str) -> None:
    """Process A's listening connection is cut and may not come back while the people, all
    on B, play: A misses the notifications. Then A listens again (and reads every game it
    holds from the table), or its periodic sweep finds the game behind: either way A's
    table and A's spectator get every move."""
    with client(postgres_url) as ca, client(postgres_url) as cb:
        game = new_game(ca, profile="biegames", rounds=1, seats=[{"kind": "human"}] * 4)
        gid = game["game_id"]
        people = [Person(cb, gid, token_of(s["link"]), seat=i)
                  for i, s in enumerate(game["seats"])]
        for p in people:
            p.connect()
            p.until("state")
        watcher = Person(ca, gid, token_of(game["spectator_link"]), seat=None)
        watcher.connect()
        watcher.until("state")
        tables_a = ca.app.state.tables  # type: ignore[attr-defined]
        tables_a._sweeper.cancel()  # no sweep but the one this test asks for
        listener = tables_a.listener
        listener.check_every = 0.2
        reconnect = listener._connect

        async def refused() -> None:
            raise OSError("the database is away (a test)")
        listener._connect = refused  # A may not listen again until the moves are made
        asyncio.run(_terminate(postgres_url, int(listener.connection.get_server_pid())))
        _wait(lambda: listener.connection is None)
        for _ in range(4):  # moves on B while A hears nothing
            actor = _in_step(people)
            actor.play(actor.choose())
        time.sleep(0.5)
        table_a = ca.portal.call(tables_a.get, gid)
        assert table_a.seq < actor.seq  # A missed them
        if recovery == "sweep":
            ca.portal.call(tables_a.sweep)
            assert table_a.seq == actor.seq
            listener._connect = reconnect
        else:
            listener._connect = reconnect
            _wait(lambda: listener.reconnects >= 1)
            _wait(lambda: table_a.seq == actor.seq)
        while watcher.seq < actor.seq:  # and A's spectator is told
            watcher.receive()
        for p in [*people, watcher]:
            p.close()


async def _terminate(database_url: str, pid: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
    os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")


def test_one_process_plays_the_bots_and_another_takes_over_when_it_leaves(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spectator on A (first: A takes the lease on the bots), the person on B: only A's
    bots think; B plays A's bot moves as it hears them and never thinks for a bot. When the
    spectator leaves A, B takes the lease at once (it hears of the change), remakes its
    bots' memory of the round away from its event loop, and its bots play on."""
    thought: list[int] = []  # the thread of every bot_turn
    remade: list[int] = []  # the thread of every remaking of the bots' memory
    real_turn, real_remake = table_bots.bot_turn, table_bots._remake_bots

    def turn(bot: Any, state: Any, seat: int) -> Any:
        thought.append(threading.get_ident())
        return real_turn(bot, state, seat)

    def remake(*args: Any) -> Any:
        remade.append(threading.get_ident())
        return real_remake(*args)
    monkeypatch.setattr(table_bots, "bot_turn", turn)
    monkeypatch.setattr(table_bots, "_remake_bots", remake)
    with client(postgres_url) as ca, client(postgres_url) as cb:
        loop_a = ca.portal.call(_thread_id)  # type: ignore[union-attr]
        loop_b = cb.portal.call(_thread_id)  # type: ignore[union-attr]
        store = cb.app.state.store  # type: ignore[attr-defined]
        game = new_game(ca, profile="biegames", rounds=1,
                        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "hard"}] * 3)
        gid = game["game_id"]
        watcher = Person(ca, gid, token_of(game["spectator_link"]), seat=None)
        watcher.connect()
        watcher.until("state")
        table_a = ca.portal.call(ca.app.state.tables.get, gid)  # type: ignore[attr-defined]
        _wait(lambda: table_a.sharing.drives_bots)
        ann = Person(cb, gid, token_of(game["seats"][0]["link"]), seat=0)
        ann.connect()
        ann.until("state")
        table_b = cb.portal.call(cb.app.state.tables.get, gid)  # type: ignore[attr-defined]
        time.sleep(2.5)  # a heartbeat of each: B still may not take the lease
        assert table_a.sharing.drives_bots and not table_b.sharing.drives_bots
        while ann.seq < 40:
            if ann.my_turn():
                ann.play(ann.choose())
            else:
                ann.receive()
        rows = cb.portal.call(store.moves, gid)  # type: ignore[union-attr]
        assert sum(r.by == "bot" for r in rows) >= 20  # A's bots played, B heard them
        assert loop_a in thought and loop_b not in thought  # only A thought for them
        assert remade == [] and table_b.bots._thought == {} and table_b.bots.behind
        seq_before = table_b.seq
        watcher.close()  # A has no connection left: it gives the lease up, B takes it
        _wait(lambda: table_b.sharing.drives_bots, 1.5)  # on the notice, not a heartbeat later
        assert not table_a.sharing.drives_bots
        while not any(r.by == "bot" and r.seq > seq_before
                      for r in cb.portal.call(store.moves, gid)):  # type: ignore[union-attr]
            if ann.my_turn():
                ann.play(ann.choose())
            else:
                ann.receive()
        assert remade and not {loop_a, loop_b} & set(remade)  # in a thread of its own
        assert loop_b in thought and not table_b.bots.behind
        ann.close()


def _thread_id() -> int:
    return threading.get_ident()


def test_a_dead_processs_seats_and_bots_pass_on_within_seconds(postgres_url: str) -> None:
    """B holds the person and the lease on the bots, then dies (it stops its heartbeat and
    hears nothing more; its rows stay behind): within the staleness of presence plus a
    heartbeat A no longer counts the person as present, and within the lease plus a
    heartbeat A plays the bots."""
    with client(postgres_url) as ca, client(postgres_url) as cb:
        game = new_game(ca, profile="biegames", rounds=1,
                        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "hard"}] * 3)
        gid = game["game_id"]
        ann = Person(cb, gid, token_of(game["seats"][0]["link"]), seat=0)
        ann.connect()
        ann.until("state")
        table_b = cb.portal.call(cb.app.state.tables.get, gid)  # type: ignore[attr-defined]
        _wait(lambda: table_b.sharing.drives_bots)
        watcher = Person(ca, gid, token_of(game["spectator_link"]), seat=None)
        watcher.connect()
        watcher.until("state")
        table_a = ca.portal.call(ca.app.state.tables.get, gid)  # type: ignore[attr-defined]
        _wait(lambda: table_a.sharing.remote == {0})
        assert not table_a.sharing.drives_bots
        cb.portal.call(_play_dead, cb.app.state.tables)  # type: ignore[attr-defined]
        table_b.sharing.drives_bots = False  # a dead process plays nothing
        died = time.monotonic()
        # the bounds: the staleness (or the lease, which a renewal in flight as B died may
        # have just extended), then A's next heartbeat, which comes 2 s after the last one
        # ended (its own queries take a while on a loaded machine: 3 s of slack)
        _wait(lambda: table_a.sharing.remote == set(), 25)
        assert time.monotonic() - died <= store_module.PRESENCE_STALE \
            + tables_module.HEARTBEAT_EVERY + 3.0
        _wait(lambda: table_a.sharing.drives_bots, 25)
        assert time.monotonic() - died <= store_module.BOT_LEASE \
            + tables_module.HEARTBEAT_EVERY + 3.0
        for p in (ann, watcher):
            p.close()


async def _play_dead(tables: Any) -> None:
    """A process stops answering: no heartbeat, no sweep, no notifications heard."""
    for task in (tables._heart, tables._sweeper):
        task.cancel()
    await tables.listener.stop()
