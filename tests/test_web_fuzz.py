"""A Hypothesis state machine fuzzes a live app over its WebSockets: at least 10,000 messages a
run (``HANDFOOT_FUZZ_MESSAGES`` for more), made from nothing (any JSON, any text, bytes, frames
too long or nested too deep) and from the protocol (every type, every field of the wrong type
or out of range, real and foreign tokens, the game's own seq and one off, moves that parse and
moves that do not), from each seat and the spectator, on fresh sockets (first frames) and on
ones past their hello, while the seat to act also plays legal moves so the game moves on.

After each message (a ``check`` with its own id follows it, and its answer marks the end of
what the message caused): no exception in the server (its error logs are read), the socket
still open, a reply for every message (an ``error`` with words, or the answer a ``check``,
``hint`` or ``ping`` asks for), and the game unchanged (position, seq, Continue presses, acks)
unless the message was a move the server acknowledged, which then changed it by exactly that
move.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from asgi_socket import Socket
from handfoot.bots.registry import make_bot
from handfoot.game.moves import format_move, parse_move
from handfoot.runs.sim import bot_turn
from handfoot.web.protocol import CLIENT_TYPES, KIND_JSON, MAX_MESSAGE
from handfoot.web.table import Table
from web_client import client, new_game, token_of

TARGET = int(os.environ.get("HANDFOOT_FUZZ_MESSAGES", "10000"))
"""Fuzzed messages a run sends at least."""

STEPS = 50
EXAMPLES = max(8, TARGET // (STEPS * 15) + 1)
"""Examples (games) for about the target; runs go on until it is reached."""

MUTATE = object()
"""Stands for a frame :func:`mutated` makes when it is sent."""

SEQ = "<seq>"
"""Stands for the game's seq when the message is sent (so that moves can be accepted)."""


class Tally:
    messages = 0
    accepted = 0
    rejected = 0
    first_frames = 0
    legal = 0
    games = 0


class Errors(logging.Handler):
    """The server's error log records (an exception anywhere in the app is logged so)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


# --- what is sent ----------------------------------------------------------------------------


NOTATION = ["draw", "pickup", "discard K", "discard JK", "meld K K K", "meld 4 4 4 | 5 5 5",
            "meld K K 2", "meld new 9 9 9", "goout", "goout K K K discard 5", "yes", "no",
            "undo", "knock", "knee", "pickup 7 7", "meld", "discard", "discard 3",
            "meld 3 3 3", "meld JK JK JK", "pickup K K | 9 9 9", "goout | discard 4"]
KINDS = [k if k != "10" else "T" for k in KIND_JSON]

ODD_VALUES: list[Any] = [None, True, False, -1, 0, 1, 2**31, 2**70, -(2**70), 1.5, float("inf"),
                         "", "x" * 70, "\u0000", "\ud800", "é", [], {}, [1, 2], {"a": 1},
                         "draw", "K", 10**9, 10**9 + 1]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
moves = st.one_of(
    st.sampled_from(NOTATION),
    st.builds(lambda verb, ks: f"{verb} {' '.join(ks)}",
              st.sampled_from(["meld", "discard", "pickup", "goout", "meld new"]),
              st.lists(st.sampled_from(KINDS), max_size=8)),
    st.text(max_size=30), json_values, st.sampled_from(ODD_VALUES))
odd = st.sampled_from(ODD_VALUES)
numbers = st.one_of(st.just(SEQ), st.integers(-3, 3), st.integers(), st.floats(),
                    st.booleans(), st.text(max_size=5), st.none(), json_values, odd)
ids = st.one_of(st.none(), st.text(max_size=70), st.integers(), st.booleans(), json_values,
                odd)


@st.composite
def protocol_messages(draw: st.DrawFn, tokens: list[str]) -> dict[str, Any]:
    kind = draw(st.sampled_from([*CLIENT_TYPES, "move", "move", "move", "fly", "", None]))
    message: dict[str, Any] = {"type": kind}
    for key, values in (("id", ids), ("seq", numbers), ("round", numbers),
                        ("move", moves), ("seat", numbers),
                        ("token", st.sampled_from(tokens) | st.text(max_size=50) | json_values
                         | odd)):
        if draw(st.booleans()):
            message[key] = draw(values)
    if kind == "move" and draw(st.booleans()):  # most moves a client could really send
        message.update(seq=SEQ, move=draw(moves), id=draw(st.text(max_size=6)))
    return message


def frames(tokens: list[str]) -> st.SearchStrategy[Any]:
    """A frame: a message of the protocol (JSON text, or bytes), any JSON, any text, bytes,
    or a frame too long or nested too deep."""
    return st.one_of(
        protocol_messages(tokens), protocol_messages(tokens),
        protocol_messages(tokens).map(lambda m: ("bytes", json.dumps(m).encode())),
        json_values.map(json.dumps),
        st.text(max_size=40).map(lambda t: ("text", t)),
        st.binary(max_size=40).map(lambda b: ("bytes", b)),
        st.sampled_from([("text", "x" * (MAX_MESSAGE + 1)), ("text", "[" * 4000),
                         ("text", '{"type": "move", "seq": ' + "9" * 5000 + "}"),
                         ("bytes", b"\xff" * 10)]))


def mutated(rng: random.Random, seq: int, tokens: list[str], *,
            first: bool = False) -> tuple[str, Any]:
    """A frame made from a good message by one to three random changes (a key dropped, a value
    or the type replaced, a key added, the text cut, a character put in, the frame sent as
    bytes or its bytes spoiled): many frames at little cost, from a Hypothesis-drawn seed."""
    message: dict[str, Any] = rng.choice([
        {"type": "move", "id": f"z{rng.randrange(99)}", "seq": seq,
         "move": rng.choice(NOTATION)},
        {"type": "move", "seq": seq + rng.choice([-1, 1]), "move": "draw"},
        {"type": "check", "id": "k", "move": rng.choice(NOTATION)},
        {"type": "hint", "id": rng.randrange(10)}, {"type": "ping"},
        {"type": "continue", "round": rng.randrange(3)},
        {"type": "hello", "token": rng.choice(tokens), "seq": seq}])
    if first and rng.random() < 0.5:  # a first frame: mostly hellos, with any token
        message = {"type": "hello", "token": rng.choice([*tokens, *ODD_VALUES]),
                   "seq": rng.choice([seq, 0, -1, None, "0"])}
    for _ in range(rng.randint(1, 3)):
        what = rng.randrange(5)
        if what == 0 and message:
            message.pop(rng.choice(list(message)))
        elif what == 1 and message:
            message[rng.choice(list(message))] = rng.choice(ODD_VALUES)
        elif what == 2:
            message["type"] = rng.choice([*CLIENT_TYPES, "Move", "moves", " move", 7, None])
        elif what == 3:
            message[rng.choice(["seat", "x", "", "token", "id", "move"])] = rng.choice(ODD_VALUES)
    text = json.dumps(message)
    how = rng.randrange(8)
    if how == 0:
        cut = rng.randrange(len(text) + 1)
        return "text", text[:cut]
    if how == 1:
        at = rng.randrange(len(text) + 1)
        return "text", text[:at] + rng.choice(["{", "}", '"', ",", "\\", "\u0000", "]"]) + text[at:]
    if how == 2:
        return "bytes", text.encode()
    if how == 3:
        data = bytearray(text.encode())
        data[rng.randrange(len(data))] = rng.randrange(128, 256)
        return "bytes", bytes(data)
    return "text", text


def encode(frame: Any, seq: int) -> tuple[str, Any]:
    """("text", str) or ("bytes", bytes), with the game's seq put in."""
    if isinstance(frame, tuple):
        return frame
    if isinstance(frame, dict):
        frame = {k: (seq if v == SEQ else v) for k, v in frame.items()}
        return "text", json.dumps(frame)
    return "text", frame


# --- the machine ---------------------------------------------------------------------------


CLIENT: dict[str, Any] = {}
"""The test's client and error log handler, for the machine."""


def snapshot(table: Table) -> tuple[Any, ...]:
    return (table.seq, table.state.position(), frozenset(table.continued), dict(table.acks))


class ServerUnderFuzz(RuleBasedStateMachine):
    """One game (4 people, one round of biegames, the same deal in every example) with its
    seats and spectator connected."""

    def __init__(self) -> None:
        super().__init__()
        c: TestClient = CLIENT["client"]
        self.c = c
        self.app = c.app
        game = new_game(c, profile="biegames", layout="2x2", rounds=1,
                        seats=[{"kind": "human"}] * 4)
        Tally.games += 1
        self.game_id = game["game_id"]
        self.tokens = [token_of(s["link"]) for s in game["seats"]]
        self.tokens.append(token_of(game["spectator_link"]))
        self.tokens.append(CLIENT["foreign"])  # a token of another game
        assert c.portal is not None
        self.table: Table = c.portal.call(c.app.state.tables.get, self.game_id)  # type: ignore[attr-defined]
        self.sockets: list[Socket] = c.portal.call(self._open_all)
        self.barrier = 0
        self.bot = make_bot("easy", 1)

    async def _open_all(self) -> list[Socket]:
        out = []
        for token in self.tokens[:-1]:
            sock = Socket(self.app, f"/ws/{self.game_id}")
            await sock.open()
            sock.send_json({"type": "hello", "token": token, "seq": 0})
            assert (await sock.receive_json())["type"] == "welcome"
            out.append(sock)
        return out

    def teardown(self) -> None:
        self.c.portal.call(self._close_all)  # type: ignore[union-attr]

    async def _close_all(self) -> None:
        for sock in self.sockets:
            await sock.close()

    # -- rules ------------------------------------------------------------------------------

    @rule(data=st.data(), which=st.integers(0, 4))
    def send_fuzzed_frames(self, data: st.DataObject, which: int) -> None:
        batch = data.draw(st.lists(frames(self.tokens), min_size=1, max_size=6))
        self.c.portal.call(self._exchange, which, batch)  # type: ignore[union-attr]

    @rule(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 4), count=st.integers(1, 60))
    def send_mutated_frames(self, seed: int, which: int, count: int) -> None:
        batch = [MUTATE] * count
        self.c.portal.call(  # type: ignore[union-attr]
            self._exchange, which, batch, random.Random(seed))

    @rule(data=st.data())
    def first_frame_of_a_new_socket(self, data: st.DataObject) -> None:
        frame = data.draw(frames(self.tokens) | st.builds(
            lambda t, s: {"type": "hello", "token": t, "seq": s},
            st.sampled_from(self.tokens) | odd | st.text(max_size=50), numbers))
        self.c.portal.call(self._first_frame, frame)  # type: ignore[union-attr]

    @rule(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 20))
    def first_frames_of_new_sockets(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        for _ in range(count):
            frame = mutated(rng, self.table.seq, self.tokens, first=True)
            self.c.portal.call(self._first_frame, frame)  # type: ignore[union-attr]

    @rule(data=st.data())
    def the_seat_to_act_sends_a_move(self, data: st.DataObject) -> None:
        """A well-formed move message from the seat to act, with the game's seq, judged like
        every fuzzed frame: its legal move (so that runs always see accepted messages, each
        checked to change the game by exactly that move) or any move text."""
        table = self.table
        state = table.state
        if state.is_over or table.waiting() is not None:
            return
        seat = state.to_act
        legal = format_move(bot_turn(self.bot, state, seat))
        message = {"type": "move", "seq": SEQ, "id": data.draw(st.text(max_size=6)),
                   "move": data.draw(st.just(legal) | moves)}
        self.c.portal.call(self._exchange, seat, [message])  # type: ignore[union-attr]

    @rule()
    def the_seat_to_act_plays(self) -> None:
        self.c.portal.call(self._play_legal)  # type: ignore[union-attr]

    # -- what each does, in the app's loop --------------------------------------------------

    async def _exchange(self, which: int, batch: list[Any],
                        rng: random.Random | None = None) -> None:
        sock = self.sockets[which]
        seat = None if which == len(self.sockets) - 1 else which
        for frame in batch:
            table = self.table
            if frame is MUTATE:
                assert rng is not None
                kind, payload = mutated(rng, table.seq, self.tokens)
                frame = (kind, payload)
            else:
                kind, payload = encode(frame, table.seq)
            before = snapshot(table)
            state_before = table.state.copy()
            (sock.send_text if kind == "text" else sock.send_bytes)(payload)
            replies = await self._barrier(sock)
            Tally.messages += 1
            self._judge(frame, kind, payload, seat, before, state_before, replies)
        self._drain()

    async def _barrier(self, sock: Socket) -> list[dict[str, Any]]:
        """Everything the socket is sent up to the answer of a check sent after it."""
        self.barrier += 1
        mark = f"barrier-{self.barrier}"
        sock.send_json({"type": "check", "id": mark, "move": "draw"})
        replies: list[dict[str, Any]] = []
        while True:
            try:
                m = await sock.receive_json()
            except WebSocketDisconnect as exc:
                raise AssertionError(f"the server closed the socket: {exc.code} {exc.reason}",
                                     replies) from None
            if m.get("type") == "checked" and m.get("id") == mark:
                return replies
            replies.append(m)

    def _judge(self, frame: Any, kind: str, payload: Any, seat: int | None,
               before: tuple[Any, ...], state_before: Any,
               replies: list[dict[str, Any]]) -> None:
        table = self.table
        after = snapshot(table)
        answers = [r for r in replies if r["type"] not in ("state", "presence")]
        try:
            sent = json.loads(payload) if kind == "text" else json.loads(payload.decode())
        except (ValueError, RecursionError):
            sent = None
        acks = [r for r in answers if r["type"] == "ack"]
        new = [a for a in acks if a["seq"] == before[0] + 1]
        if new:  # a move was played: exactly it
            assert isinstance(sent, dict) and sent.get("type") == "move", (sent, replies)
            assert after[0] == before[0] + 1 and seat is not None
            state_before.apply(parse_move(sent["move"]))
            assert table.state.position() == state_before.position(), sent
            Tally.accepted += 1
            return
        if isinstance(sent, dict) and sent.get("type") == "continue" and not any(
                r["type"] == "error" for r in answers):  # a Continue pressed
            assert after[:2] == before[:2] and after[3] == before[3]
            assert after[2] >= before[2] and len(after[2] - before[2]) <= 1
            Tally.accepted += 1
            return
        assert after == before, (payload if isinstance(payload, str) else payload[:80],
                                 replies)
        Tally.rejected += 1
        assert answers or (isinstance(sent, dict) and sent.get("type") == "continue"), (
            "no answer", payload[:100] if isinstance(payload, str | bytes) else payload)
        for a in answers:
            # (a pace, a reaction or talk settings change no game: their echoes come back)
            assert a["type"] in ("error", "ack", "checked", "hint", "pong", "pace", "talk",
                                 "talk_settings"), a
            if a["type"] == "error":
                assert isinstance(a["message"], str) and a["message"], a
                assert a["code"] in ("bad_message", "illegal", "stale", "not_your_turn",
                                     "waiting", "not_allowed", "not_host", "talk_off",
                                     "talk_rate", "talk_text"), a

    async def _first_frame(self, frame: Any) -> None:
        table = self.table
        before = snapshot(table)
        sock = Socket(self.app, f"/ws/{self.game_id}")
        await sock.open()
        kind, payload = encode(frame, table.seq)
        (sock.send_text if kind == "text" else sock.send_bytes)(payload)
        Tally.messages += 1
        Tally.first_frames += 1
        first = await sock.receive_json()
        if first["type"] == "welcome":
            sent = json.loads(payload) if kind == "text" else json.loads(payload.decode())
            assert sent["type"] == "hello" and sent["token"] in self.tokens[:-1]
            await sock.close()
        else:
            assert first["type"] == "error" and first["code"] in ("bad_message", "auth")
            assert first["message"]
            try:
                await sock.receive_json()
                raise AssertionError("the socket stays open after a bad first frame")
            except WebSocketDisconnect as exc:
                assert exc.code in (1008, 4401)
            await sock.task
        self._drain()
        assert snapshot(table) == before

    async def _play_legal(self) -> None:
        table = self.table
        state = table.state
        if state.is_over or table.waiting() is not None:
            return
        seat = state.to_act
        move = format_move(bot_turn(self.bot, state, seat))
        sock = self.sockets[seat]
        sock.send_json({"type": "move", "id": f"legal-{table.seq}", "seq": table.seq,
                        "move": move})
        replies = await self._barrier(sock)
        assert any(r["type"] == "ack" for r in replies), (move, replies)
        Tally.legal += 1
        self._drain()

    def _drain(self) -> None:
        for sock in self.sockets:
            sock.waiting()
            assert sock.closed is None, sock.closed

    @invariant()
    def no_server_errors(self) -> None:
        records = CLIENT["errors"].records
        assert not records, [r.getMessage() for r in records]


@pytest.fixture
def fuzz_client(tmp_path: Path) -> Iterator[TestClient]:
    errors = Errors()
    root = logging.getLogger()
    root.addHandler(errors)
    with client(tmp_path / "fuzz.db", message_rate=1e9, message_burst=10**9,
                seed_source=lambda *_: 20261201) as c:  # one deal: examples replay the same
        other = new_game(c, profile="biegames", rounds=1)
        CLIENT.update(client=c, errors=errors, foreign=token_of(other["seats"][0]["link"]))
        try:
            yield c
        finally:
            root.removeHandler(errors)
            CLIENT.clear()


def test_fuzzed_messages_change_nothing_and_break_nothing(fuzz_client: TestClient) -> None:
    for _ in range(20):  # runs until the target is reached (examples vary in length)
        run_state_machine_as_test(ServerUnderFuzz, settings=settings(
            max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
            suppress_health_check=list(HealthCheck), database=None))
        if Tally.messages >= TARGET:
            break
    print(f"\nfuzz: {Tally.messages} messages ({Tally.first_frames} first frames) in "
          f"{Tally.games} games: {Tally.accepted} accepted, {Tally.rejected} refused; "
          f"{Tally.legal} legal moves between")
    assert Tally.messages >= TARGET
    assert Tally.rejected > Tally.accepted > 0


# --- the HTTP API ----------------------------------------------------------------------------


def _bodies() -> st.SearchStrategy[Any]:
    seat = st.fixed_dictionaries({}, optional={
        "kind": st.sampled_from(["human", "bot", "robot"]) | odd,
        "level": st.sampled_from(["easy", "hard", "expert", "genius"]) | odd,
        "name": st.text(max_size=60) | odd})
    game = st.fixed_dictionaries({}, optional={
        "profile": st.sampled_from(["biegames", "partnership-13", "nope"]) | odd,
        "layout": st.sampled_from(["2x2", "2x1", "3x3", "x"]) | odd,
        "rounds": st.integers(-2, 30) | odd, "absent": st.sampled_from(["wait", "bot"]) | odd,
        "seats": st.lists(seat, max_size=5) | odd,
        "overrides": st.dictionaries(st.sampled_from(["rounds", "hand_size", "nope"]),
                                     st.integers(-5, 200) | odd, max_size=2) | odd,
        "options": st.dictionaries(st.sampled_from(["sevens_from_hell", "x"]), odd,
                                   max_size=2) | odd,
        "toml": st.sampled_from(['extends = "biegames"\n[game]\nrounds = 2\n', "[[[",
                                 'extends = "/etc/passwd"', "[game]\nrounds = -1\n"]) | odd,
        "token": odd | st.text(max_size=50), "name": st.text(max_size=60) | odd})
    return game | json_values


def test_fuzzed_http_bodies_are_answered_never_crashed_on(fuzz_client: TestClient) -> None:
    """Any body to every POST route: an answer below 500 with an ``error`` in words when
    refused, and a game made only from a body that asks for one correctly."""
    c = fuzz_client
    game = new_game(c, profile="biegames", rounds=1)
    paths = ["/api/games", "/api/rules/check", "/api/daily",
             f"/api/games/{game['game_id']}/status", f"/api/games/{game['game_id']}/rematch"]
    answered = collections.Counter[int]()

    @given(body=_bodies(), path=st.sampled_from(paths), raw=st.booleans())
    @settings(max_examples=300, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def one(body: Any, path: str, raw: bool) -> None:
        content = json.dumps(body).encode() if not raw else json.dumps(body)[:-1].encode()
        r = c.post(path, content=content)
        answered[r.status_code] += 1
        assert r.status_code < 500, (path, body, r.text[:200])
        data = r.json()
        if r.status_code >= 400:
            assert isinstance(data["error"], str) and data["error"]

    one()
    assert answered[200] > 0 and answered[400] > 0, answered
    assert not CLIENT["errors"].records
