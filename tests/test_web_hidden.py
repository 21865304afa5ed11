"""Hidden information on the web server: whole games with a person's client in every seat (each
choosing its moves with a hard bot through its own view) and a spectator, over the WebSocket.

Every frame each of them is sent is its view of the game and stays the same when every card
hidden from it is dealt again; its events name only cards face up, or its own; hints and move
checks answer the same after the re-deal; no frame and no HTTP response carries the seed; no
route gives the deal, the stock or the record of a game before its end (a daily deal's not
before its day is over).

The issue asks for 200 games per profile and seating: ``HANDFOOT_SOAK_GAMES=200`` runs that
many (``HANDFOOT_SOAK_ROUNDS`` rounds each); the default suite plays one game of each
seating, of one round (two in the two-player seatings, so that Continue is crossed).
"""

from __future__ import annotations

import base64
import collections
import datetime as dt
import json
import os
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from asgi_socket import Socket
from handfoot.game.engine import GameState
from handfoot.game.events import advice_words
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.moves import MoveSyntaxError, parse_move
from handfoot.game.values import Phase
from handfoot.runs.sim import derive_seed, hint
from handfoot.web import daily
from positions import reshuffle_hidden
from web_client import Person, client, new_game, token_of

SEATINGS = [(name, str(layout)) for name in builtin_profile_names()
            for layout in load_profile(name).layouts]

GAMES = int(os.environ.get("HANDFOOT_SOAK_GAMES", "1"))
"""Complete games per profile and seating (the issue's soak: 200)."""

ROUNDS = os.environ.get("HANDFOOT_SOAK_ROUNDS")
"""Rounds per game (default: 1, and 2 in the two-player seatings)."""

FRAME_KEYS = {
    "welcome": {"type", "seat", "game", "talk"},  # talk: settings, presets, who said what
    "state": {"type", "seq", "view", "events", "presence", "waiting"},
    "presence": {"type", "presence"},
    "ack": {"type", "id", "seq"},
    "hint": {"type", "id", "move", "words", "kinds", "reason"},
    "checked": {"type", "id", "ok", "message"},
    "talk": {"type", "id", "items"},  # each item: seat, name, preset or text, time, seq
    "talk_settings": {"type", "id", "settings"},
}
"""Every key each frame a seat or spectator is sent may have: a new key is a new way for
something to leak, so it must be added here after a look."""

HIDDEN_KEYS = {"seed", "hands", "feet", "knees", "stock", "deal", "deals", "rounds_dealt"}
"""Keys that would name the deal (a finished game's record and replay have some of them),
with anything but a count or null as their value."""


@dataclass
class Tally:
    """What a run checked."""

    games: int = 0
    frames: int = 0
    http: int = 0
    hints: int = 0
    checks: int = 0
    moves: int = 0
    seconds: float = 0.0
    per_seating: dict[str, int] = field(default_factory=dict)


TALLY = Tally()


def seed_texts(seed: int) -> list[str]:
    """The ways a seed could be written down."""
    raw = seed.to_bytes(16, "big")
    return [str(seed), f"{seed:x}", f"{seed:X}", f"{seed:032x}",
            base64.urlsafe_b64encode(raw).decode().rstrip("="),
            base64.b64encode(raw).decode().rstrip("=")]


def no_seed(text: str, seed: int, where: str) -> None:
    for written in seed_texts(seed):
        assert written not in text, f"{where}: the seed ({written}) is in {text[:200]}"


def deal_free(data: Any, where: str) -> None:
    """No key that names the deal, anywhere in ``data``."""
    if isinstance(data, dict):
        leaked = sorted(k for k in HIDDEN_KEYS & set(data) if data[k] is not None and (
            k == "seed" or isinstance(data[k], list | dict | str)))  # not the stock's size
        assert not leaked, f"{where}: {leaked} in {str(data)[:200]}"
        for value in data.values():
            deal_free(value, where)
    elif isinstance(data, list):
        for value in data:
            deal_free(value, where)


class Fed:
    """What a :class:`Person` reads from: frames fed by the coroutine that drives the game
    (see :mod:`asgi_socket`), and sends to."""

    def __init__(self, sock: Socket) -> None:
        self.sock = sock
        self.frames: collections.deque[dict[str, Any]] = collections.deque()

    def receive_json(self) -> Any:
        return self.frames.popleft()

    def send_json(self, data: Any) -> None:
        self.sock.send_json(data)


class Watched(Person):
    """A :class:`Person` that checks the shape of every message and that no message
    carries the seed."""

    def __init__(self, *args: Any, seed: int, bot_seed: int = 1,
                 played: dict[int, str] | None = None, **kw: Any) -> None:
        super().__init__(*args, seed=bot_seed, **kw)
        self.played = {} if played is None else played
        """The moves the clients of the game sent, by seq (shared by them all)."""
        self.game_seed = seed
        self.seed_strings = seed_texts(seed)

    def _notation(self, event: dict[str, Any]) -> str:
        """An event's move: as :meth:`Person._notation`, but a move private to another seat
        is read from what its client sent, not from the database."""
        if event.get("notation") is None and "private" not in event \
                and event["type"] != "answer" and event["n"] in self.played:
            return self.played[event["n"]]
        return super()._notation(event)

    async def join(self, app: Any) -> None:
        """Open the socket in the app's loop and say hello; the first state read."""
        sock = Socket(app, f"/ws/{self.game_id}")
        await sock.open()
        self.ws = Fed(sock)
        self.send({"type": "hello", "token": self.token, "seq": self.seq})
        await self.next_of("welcome")
        await self.next_of("state")

    async def next(self) -> dict[str, Any]:
        """The next frame, read (and checked) as :meth:`Person.receive` reads it."""
        self.ws.frames.append(await self.ws.sock.receive_json())
        return self.receive()

    async def next_of(self, kind: str) -> dict[str, Any]:
        while True:
            m = await self.next()
            if m["type"] == kind:
                return m

    async def move(self, move: str, rid: str) -> dict[str, Any]:
        """Send a move; its ack, once the state that follows it has arrived."""
        self.send({"type": "move", "id": rid, "seq": self.seq, "move": move})
        while True:
            reply = await self.next()
            assert reply["type"] != "error", reply
            if reply["type"] == "ack" and reply["id"] == rid:
                break
        self.played[reply["seq"]] = move
        while self.seq < reply["seq"]:
            await self.next_of("state")
        return reply

    def receive(self) -> dict[str, Any]:
        m = super().receive()
        TALLY.frames += 1
        kind = m["type"]
        assert kind in FRAME_KEYS, m
        assert set(m) == FRAME_KEYS[kind], (kind, sorted(m))
        text = json.dumps(m)
        for written in self.seed_strings:
            assert written not in text, (written, text[:200])
        deal_free(m, f"a {kind} frame")
        if kind == "welcome":
            assert m["seat"] == self.seat
        return m


def stored_seed(c: TestClient, game_id: str) -> int:
    store = c.app.state.store  # type: ignore[attr-defined]
    return int(c.portal.call(store.game, game_id).seed)  # type: ignore[union-attr]


# --- HTTP ------------------------------------------------------------------------------------


def every_response(c: TestClient, game: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every route of the app asked about this game (GET, and POST with each of the game's
    tokens), static files aside: (what, response). A route about something else (a score
    sheet) is asked about a thing that does not exist."""
    gid = game["game_id"]
    tokens = [token_of(s["link"]) for s in game["seats"] if "link" in s]
    tokens.append(token_of(game["spectator_link"]))
    params = {"game_id": gid, "date": daily.today().isoformat(),
              "profile": builtin_profile_names()[0]}
    out = []
    for route in c.app.routes:  # type: ignore[attr-defined]
        if not isinstance(route, Route):
            continue
        path = route.path
        for name in re.findall(r"{(\w+)}", path):
            path = path.replace(f"{{{name}}}", params.get(name, "no-such-thing"))
        for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
            if method == "GET":
                out.append((f"GET {path}", c.get(path)))
            elif route.path in ("/api/games", "/api/daily", "/api/rules/check"):
                continue  # they make new things from their body, about no game
            else:
                for token in tokens:
                    out.append((f"{method} {path}", c.request(method, path,
                                                              json={"token": token})))
    return out


def check_http_midgame(c: TestClient, game: dict[str, Any], seed: int) -> None:
    """No route gives the seed, the deal or the record while the game is on."""
    for what, r in every_response(c, game):
        TALLY.http += 1
        assert r.status_code < 500, (what, r.status_code)
        no_seed(r.text, seed, what)
        if "json" in r.headers.get("content-type", ""):
            deal_free(r.json(), what)
        if what.endswith(("/record", "/replay")):
            assert r.status_code == 403 and r.json() == {"error": "the game is not over"}


# --- one game --------------------------------------------------------------------------------


def play_game(c: TestClient, profile: str, layout: str, rounds: int, rng: random.Random,
              check_every: int = 8) -> None:
    """One complete game: a client in every seat and a spectator, in lock step (the seat to
    act moves, then every connection reads the state that follows); the clients run in the
    server's event loop, and every route is asked about the game after a few moves."""
    players = int(layout.split("x")[0]) * int(layout.split("x")[1])
    game = new_game(c, profile=profile, layout=layout, rounds=rounds,
                    seats=[{"kind": "human", "name": f"P{i}"} for i in range(players)])
    gid = game["game_id"]
    seed = stored_seed(c, gid)
    played: dict[int, str] = {}
    people = [Watched(c, gid, token_of(s["link"]), seat=i, seed=seed, check_frames=True,
                      bot="hard", bot_seed=rng.randrange(2**32), played=played)
              for i, s in enumerate(game["seats"])]
    watcher = Watched(c, gid, token_of(game["spectator_link"]), seat=None, seed=seed,
                      check_frames=True, bot_seed=rng.randrange(2**32), played=played)
    table = Lockstep(c.app, people, watcher, seed, rng, check_every)
    assert c.portal is not None
    c.portal.call(table.join)
    c.portal.call(table.play, 6)
    check_http_midgame(c, game, seed)
    c.portal.call(table.play, None)
    c.portal.call(table.leave)
    record = c.get(f"/api/games/{gid}/record")
    assert record.status_code == 200 and record.json()["metadata"]["seed"] == seed  # after
    TALLY.games += 1
    # Forget this game's clients (each keeps a copy of the state at every move): the soak
    # plays hundreds of games on one app, and kept clients ran it out of memory (12 GB).
    done = {id(p) for p in table.everyone}
    c.__dict__["people"] = [p for p in c.__dict__.get("people", []) if id(p) not in done]


class Lockstep:
    """The game's connections, driven one move at a time."""

    def __init__(self, app: Any, people: list[Watched], watcher: Watched, seed: int,
                 rng: random.Random, check_every: int) -> None:
        self.app = app
        self.people = people
        self.everyone = [*people, watcher]
        self.seed = seed
        self.rng = rng
        self.check_every = check_every
        self.turn = 0

    async def join(self) -> None:
        for p in self.everyone:
            await p.join(self.app)

    async def leave(self) -> None:
        for p in self.everyone:
            assert p.last is not None and p.last["view"]["phase"] == "game_over"
            await p.ws.sock.close()

    async def play(self, turns: int | None) -> None:
        """Play until the game is over, or ``turns`` moves more."""
        stop = None if turns is None else self.turn + turns
        while stop is None or self.turn < stop:
            last = self.people[0].last
            assert last is not None
            view = last["view"]
            if view["phase"] == "game_over":
                return
            waiting = last["waiting"]
            if waiting is not None:
                for seat in waiting["continue"]:
                    self.people[seat].send({"type": "continue", "round": waiting["round"]})
                    for p in self.everyone:
                        await p.next_of("state")
                continue
            mover = self.people[view["to_act"]]
            if self.turn % self.check_every == 0:
                await ask_hint_and_check(mover, self.seed, self.rng)
            ack = await mover.move(mover.choose(), f"m{self.turn}")
            TALLY.moves += 1
            for p in self.everyone:
                while p.seq < ack["seq"]:
                    await p.next_of("state")
                assert p.seq == ack["seq"]
            self.turn += 1
            assert self.turn < 5000, "a game that never ends"


async def ask_hint_and_check(mover: Watched, seed: int, rng: random.Random) -> None:
    """The seat to act asks for a hint and checks moves: the answers are what the engine
    gives from the seat's view, the same after the cards hidden from it are dealt again."""
    assert mover.seat is not None
    state = mover.shadow
    redealt = redeal_keeping_pile(state, mover.seat, rng)
    # While a partner answers "May I go out?", the asker's go-out waits on the cards in the
    # asker's hand: a re-deal would make "yes" unplayable, so answers are compared as dealt.
    states = (state,) if state.phase == Phase.ANSWER else (state, redealt)
    mover.send({"type": "hint", "id": "h"})
    got = await mover.next_of("hint")
    hint_seed = derive_seed(seed, "hint", mover.seq)
    for s in states:
        advice = hint(s, mover.seat, hint_seed)
        assert advice is not None
        assert (got["move"], got["reason"]) == (advice.notation, advice.reason)
        assert got["words"] == advice_words(advice.move)
    TALLY.hints += 1
    hand = mover.last["view"]["hand"] if mover.last else []
    candidates = [str(got["move"]), "draw", "pickup"]
    if hand:
        face = rng.choice(hand)
        kind = face if face == "JK" else face[:-1]
        candidates += [f"discard {kind}", f"meld {kind} {kind} {kind}", f"pickup {kind} {kind}"]
    for i, text in enumerate(candidates):
        mover.send({"type": "check", "id": f"k{i}", "move": text})
        answer = await mover.next_of("checked")
        expected = engine_check(state, text)
        assert answer["message"] == expected, text
        assert all(engine_check(s, text) == expected for s in states), text
        assert answer["ok"] is (expected is None)
        TALLY.checks += 1


def redeal_keeping_pile(state: GameState, seat: int, rng: random.Random) -> GameState:
    """Every card hidden from ``seat`` dealt again but the discard pile's: each card in the
    pile was face up on its top once (a public event), so a player may know them all. (The
    views show only the top and the size; a check's reason may count a kind in the pile:
    "there are only 1 2s in your hand and the pile".)"""
    c = state.copy()
    pile = c.pile[:]
    c.pile = pile[-1:]
    redealt = reshuffle_hidden(c, seat, rng)
    redealt.pile = pile
    return redealt


def engine_check(state: GameState, text: str) -> str | None:
    """What the server answers to ``check``: the engine's reason, or the notation's."""
    try:
        return state.check(parse_move(text))
    except MoveSyntaxError as exc:
        return str(exc)


def rounds_for(profile: str, layout: str) -> int:
    if ROUNDS is not None:
        return int(ROUNDS)
    return 2 if layout == "2x1" else 1  # Continue between rounds, where games are short


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_no_seat_and_no_spectator_sees_a_hidden_card(tmp_path: Path, profile: str,
                                                     layout: str) -> None:
    rng = random.Random(f"{profile}/{layout}")
    started = time.perf_counter()
    with client(tmp_path / "hidden.db", message_rate=1e9, message_burst=10**9) as c:
        for _ in range(GAMES):  # (the clients in lock step send faster than people can)
            play_game(c, profile, layout, rounds_for(profile, layout), rng)
    TALLY.seconds += time.perf_counter() - started
    TALLY.per_seating[f"{profile} {layout}"] = GAMES
    print(f"\nhidden: {profile} {layout}: {GAMES} games; so far {TALLY.games} games, "
          f"{TALLY.moves} moves, {TALLY.frames} frames, {TALLY.hints} hints, "
          f"{TALLY.checks} checks, {TALLY.http} HTTP responses checked in "
          f"{TALLY.seconds:.1f} s")


# --- the daily deal --------------------------------------------------------------------------


def test_the_daily_deal_stays_hidden_until_its_day_is_over(tmp_path: Path) -> None:
    """Everybody plays the same deal today: nothing gives its seed or its cards before the
    day is over (not the board, not a finished game's record or replay), and the seed comes
    from a server secret, not from the date."""
    with client(tmp_path / "d.db") as c:
        store = c.app.state.store  # type: ignore[attr-defined]
        secret = c.portal.call(store.secret, daily.SECRET_NAME)  # type: ignore[union-attr]
        today = daily.today()
        seed = daily.daily_seed(secret, today)
        game = c.post("/api/daily", json={"name": "Ann"}).json()
        assert stored_seed(c, game["game_id"]) == seed
        p = Watched(c, game["game_id"], token_of(game["link"]), seat=0, seed=seed,
                    check_frames=True)
        p.connect()
        p.until("state")
        final = p.play_to_end()
        assert final["view"]["phase"] == "game_over"
        p.close()
        for date in (today, today + dt.timedelta(days=1)):
            board = c.get(f"/api/daily/{date.isoformat()}")
            assert board.json()["seed"] is None
            no_seed(board.text, daily.daily_seed(secret, date), "the daily board")
        full = {"game_id": game["game_id"], "seats": [{"link": game["link"]}],
                "spectator_link": game["link"]}
        for what, r in every_response(c, full):
            assert r.status_code < 500, what
            no_seed(r.text, seed, what)
            if what.endswith(("/record", "/replay")):
                assert r.status_code == 403 and "daily deal" in r.json()["error"], what
        # the date alone does not give the seed: it is an HMAC under this server's secret
        assert seed != daily.daily_seed(b"\0" * 32, today)
        yesterday = today - dt.timedelta(days=1)
        assert c.get(f"/api/daily/{yesterday.isoformat()}").json()["seed"] == str(
            daily.daily_seed(secret, yesterday))
