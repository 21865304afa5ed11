"""Test helpers for the web server: an app on a temporary SQLite file, and a person at the
table driven by the test through the WebSocket.

The person keeps a shadow :class:`GameState` (from the game's seed, read from the database,
and the notation of every event it is sent), so the test can choose its moves with a bot
through the seat's own view and check every frame against the shadow.
"""

from __future__ import annotations

import collections
import json
import random
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

import uvicorn
from starlette.testclient import TestClient

from handfoot.bots.registry import make_bot
from handfoot.game import cards
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import format_move, parse_move
from handfoot.game.rules import Layout
from handfoot.runs.sim import bot_turn, derive_seed
from handfoot.web.app import create_app
from handfoot.web.protocol import public_view_json, seat_view_json
from handfoot.web.settings import SeedSource, Settings
from positions import reshuffle_hidden


def counted_seeds(base: int = 0) -> SeedSource:
    """Repeatable seeds (:attr:`Settings.seed_source`): from ``base``, the game's
    parameters and how many games with the same parameters this app made before."""
    made: collections.Counter[str] = collections.Counter()

    def seed(profile: str, layout: str, seats: Sequence[Mapping[str, Any]]) -> int:
        key = json.dumps([profile, layout, list(seats)], sort_keys=True)
        made[key] += 1
        return derive_seed(base, key, made[key])

    return seed


def settings_for(path: Path | str, **kw: Any) -> Settings:
    """Settings for a test app on a SQLite file (a path) or any database (a URL, such as
    the ``database_url`` fixture's); its games' seeds are repeatable (``seed_source``,
    default :func:`counted_seeds`); no limits per address (``open_limits``) unless asked:
    a test makes many games from one address."""
    url = path if isinstance(path, str) else f"sqlite+aiosqlite:///{path}"
    return Settings(database_url=url, bot_delay=0.0,
                    absent_grace=kw.pop("absent_grace", 60.0),
                    open_limits=kw.pop("open_limits", False),
                    seed_source=kw.pop("seed_source", None) or counted_seeds(), **kw)


@contextmanager
def client(path: Path | str, **kw: Any) -> Iterator[TestClient]:
    app = create_app(settings_for(path, **kw))
    with TestClient(app) as c:
        try:
            yield c
        finally:  # a socket left open would keep the client from closing
            for person in c.__dict__.get("people", []):
                person.close()


def token_of(link: str) -> str:
    return link.split("#", 1)[1].split("=", 1)[1]


def new_game(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


ONE_PERSON_THREE_EASY_BOTS: Final = [{"kind": "human", "name": "Ann"}] + [
    {"kind": "bot", "level": "easy"} for _ in range(3)]


def played_game(c: TestClient, **body: Any) -> dict[str, Any]:
    """A game made by ``new_game(c, **body)`` (by default one round of biegames, Ann at seat
    0 and three easy bots, bots for the absent) and played to its end by seat 0: its JSON."""
    body = {"profile": "biegames", "rounds": 1, "absent": "bot",
            "seats": ONE_PERSON_THREE_EASY_BOTS, **body}
    game = new_game(c, **body)
    person = Person(c, game["game_id"], token_of(game["seats"][0]["link"]), seat=0)
    person.connect()
    person.until("state")
    person.play_to_end()
    person.close()
    return game


def shadow_state(c: TestClient, game_id: str) -> tuple[GameState, list[str]]:
    """The game as dealt, from its stored seed (only a test may read it), and side names."""
    store = c.app.state.store  # type: ignore[attr-defined]
    row = c.portal.call(store.game, game_id)  # type: ignore[union-attr]
    profile = load_profile(row.profile, overrides=row.overrides)
    state = GameState.new(profile, layout=Layout.parse(row.layout), seed=row.seed)
    names = [s.name for s in row.seats]
    layout = state.layout
    sides = [" and ".join(names[s] for s in layout.seats_of(side)) for side in range(state.sides)]
    return state, sides


class Person:
    """A seat (or spectator) on a WebSocket, played by a hard bot through its own view."""

    def __init__(self, c: TestClient, game_id: str, token: str, *, seat: int | None,
                 bot: str = "hard", seed: int = 1, check_frames: bool = False) -> None:
        self.c = c
        self.game_id = game_id
        self.token = token
        self.seat = seat
        self.bot = make_bot(bot, seed)
        self.shadow, self.side_names = shadow_state(c, game_id)
        self.seq = 0
        self.snapshots: dict[int, GameState] = {0: self.shadow.copy()}
        self.frames: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None
        self.check_frames = check_frames
        self.rng = random.Random(seed)
        self.ws: Any = None
        self._cm: Any = None
        c.__dict__.setdefault("people", []).append(self)

    # -- the socket -------------------------------------------------------------------------

    def connect(self, seq: int | None = None, *, acks: str | None = None) -> dict[str, Any]:
        """Say hello (``acks``: how the hello asks for the moves' acks, by default not at
        all: an ``ack`` frame each)."""
        self._cm = self.c.websocket_connect(f"/ws/{self.game_id}")
        self.ws = self._cm.__enter__()
        hello = {"type": "hello", "token": self.token, "seq": self.seq if seq is None else seq}
        if acks is not None:
            hello["acks"] = acks
        self.ws.send_json(hello)
        welcome = self.ws.receive_json()
        assert welcome["type"] == "welcome", welcome
        assert welcome["seat"] == self.seat
        return welcome  # type: ignore[no-any-return]

    def close(self) -> None:
        if self._cm is not None:
            cm, self._cm, self.ws = self._cm, None, None
            cm.__exit__(None, None, None)

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def receive(self) -> dict[str, Any]:
        """The next message; a state message updates the shadow and is checked."""
        m: dict[str, Any] = self.ws.receive_json()
        if m["type"] == "state":
            self._follow(m)
        return m

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            m = self.receive()
            if m["type"] == kind:
                return m

    def _follow(self, m: dict[str, Any]) -> None:
        for event in m["events"]:
            if event["n"] <= self.seq:
                continue
            assert event["n"] == self.seq + 1, (event, self.seq)
            notation = self._notation(event)
            self._check_event(event, notation)
            self.shadow.apply(parse_move(notation))
            self.seq += 1
            self.snapshots[self.seq] = self.shadow.copy()
        assert m["seq"] == self.seq, (m["seq"], self.seq)
        self.frames.append(m)
        self.last = m
        if self.check_frames:
            self.check_view(m)

    # -- checks -----------------------------------------------------------------------------

    def expected_view(self, state: GameState) -> dict[str, Any]:
        if self.seat is None:
            data = public_view_json(state.view(0), self.side_names)
        else:
            data = seat_view_json(state, self.seat, self.side_names)
        return data

    def check_view(self, m: dict[str, Any]) -> None:
        """The frame is the seat's view of the shadow, and the same after re-dealing every
        card hidden from the seat."""
        view = dict(m["view"])
        view.pop("stats", None)
        view.pop("winners", None)
        state = self.snapshots[m["seq"]]
        assert view == self.expected_view(state)
        hidden_from = self.seat if self.seat is not None else -1
        redealt = reshuffle_hidden(state, hidden_from, self.rng) if hidden_from >= 0 \
            else _reshuffle_all(state, self.rng)
        assert view == self.expected_view(redealt)

    def _notation(self, event: dict[str, Any]) -> str:
        """The event's move: public, or private to the mover (a go-out that asks its
        partners first), or else read from the database (only a test may)."""
        if event["type"] == "answer":  # its notation is the go-out it let happen
            return "yes" if event["yes"] else "no"
        text = event.get("notation") or event.get("private", {}).get("notation")
        if text is None:
            store = self.c.app.state.store  # type: ignore[attr-defined]
            rows = self.c.portal.call(store.moves, self.game_id)  # type: ignore[union-attr]
            text = rows[event["n"] - 1].notation
        return str(text)

    def _check_event(self, event: dict[str, Any], notation: str) -> None:
        """An event names only cards face up on the table or taken from the pile (public
        part), or, in its private part on the mover's own connection, the mover's own."""
        before = self.shadow
        after = before.copy()
        after.apply(parse_move(notation))
        # the table as a round-ending move left it: the same rules, ending the game there
        end = before.copy()
        end.profile = replace(before.profile, rounds=before.round_number, target_score=None)
        end.apply(parse_move(notation))
        public = (set(_table_faces(before)) | set(_table_faces(after)) | set(_table_faces(end))
                  | set(before.pile))
        for card in _cards_in({k: v for k, v in event.items() if k != "private"}):
            if card in ("round_end",):
                continue
            assert cards.parse_face(card) in public, (card, event)
        if "private" in event:
            assert event["seat"] == self.seat, event
            own = public | set(before.hand(event["seat"])) | set(after.hand(event["seat"]))
            for card in _cards_in(event["private"]):
                assert cards.parse_face(card) in own, (card, event)

    # -- playing ----------------------------------------------------------------------------

    def my_turn(self) -> bool:
        m = self.last
        if m is None or self.seat is None:
            return False
        view = m["view"]
        return bool(view["phase"] != "game_over" and view["to_act"] == self.seat
                    and m["waiting"] is None)

    def play(self, move: str, rid: str | None = None) -> dict[str, Any]:
        """Send a move; its ack (or the state that carried it), once the state that
        follows it has arrived."""
        rid = rid or f"m{self.seq}"
        self.send({"type": "move", "id": rid, "seq": self.seq, "move": move})
        while True:
            reply = self.receive()
            if reply["type"] == "error":
                raise AssertionError(reply)
            if reply["type"] in ("ack", "state") and reply.get("id") == rid:
                break
        while self.seq < reply["seq"]:
            self.receive()
        return reply

    def choose(self) -> str:
        assert self.seat is not None
        return format_move(bot_turn(self.bot, self.shadow, self.seat))

    def play_to_end(self, *, max_messages: int = 100_000) -> dict[str, Any]:
        """Play this seat (and press Continue) until the game is over; the last state."""
        n = 0
        while True:
            assert self.last is not None
            if self.last["view"]["phase"] == "game_over":
                return self.last
            waiting = self.last["waiting"]
            if waiting is not None and self.seat in waiting["continue"]:
                self.send({"type": "continue", "round": waiting["round"]})
                self.until("state")
                continue
            if self.my_turn():
                self.play(self.choose())
            else:
                self.receive()
            n += 1
            assert n < max_messages, (self.seq, self.last["view"]["phase"],
                                      self.last["events"][-3:])


def _table_faces(state: GameState) -> list[int]:
    out = [f for side in state.melds for m in side for f in m.faces]
    out += [f for r in state.red_threes for f in r]
    if state.pile:
        out.append(state.pile[-1])
    return out


def _cards_in(data: Any) -> Iterator[str]:
    """Every string in ``data`` that is a card in the notation."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("notation", "type", "kind", "reason", "label", "key", "target"):
                continue
            yield from _cards_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from _cards_in(value)
    elif isinstance(data, str):
        try:
            cards.parse_face(data)
        except ValueError:
            return
        yield data


def _reshuffle_all(state: GameState, rng: random.Random) -> GameState:
    """Every hidden card re-dealt, every seat's hand included (what a spectator sees)."""
    c = state
    for seat in range(state.players):
        c = reshuffle_hidden(c, seat, rng)
    return c


@contextmanager
def uvicorn_thread(app: Any, **config: Any) -> Iterator[int]:
    """The app served by uvicorn on a free loopback port in a thread of this process, as
    ``handfoot serve`` runs it (``config``: more of ``uvicorn.Config``); yields the port.
    ``log_config=None``: uvicorn's own logging setup would stop its access log reaching the
    root logger for every later test in this process (tests/test_web_security.py reads it)."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None,
                                           lifespan="on", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(30)
