"""What a table tells its clients at the edges (web/table.py): a move another process
stored first is answered ``stale`` and never acknowledged; a hint refused says why in the
refusal's words; a person who leaves starts the grace time before a stand-in plays; a
daily game's record keeps its seed back until the day is over; the replay of a game shows
each round's deal after the round before it ends, and nothing after the game ends."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
from typing import Any

from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import format_move
from handfoot.game.rules import Profile
from handfoot.runs.sim import bot_turn
from handfoot.web.protocol import OWN_KEYS, ClientMessage
from handfoot.web.settings import Settings
from handfoot.web.store import GameRow, MoveConflict, MoveRow, SeatRow, now
from handfoot.web.table import Table
from test_web_restore import _game
from test_web_table_presence import GRACE, _Conn

DAY = dt.date(2026, 12, 4)


class _Store:
    """A database another process writes to: its moves are there before ours."""

    def __init__(self, theirs: list[MoveRow] | None = None) -> None:
        self.theirs = theirs or []

    async def add_move(self, game_id: str, move: MoveRow, *, status: str | None = None,
                       ) -> dt.datetime:
        if any(row.seq == move.seq for row in self.theirs):
            raise MoveConflict(f"move {move.seq} is stored already")
        return now()

    async def moves(self, game_id: str, *, after: int = 0) -> list[MoveRow]:
        return [row for row in self.theirs if row.seq > after]

    async def set_presence(self, worker: str, game_id: str, seats: set[int]) -> None:
        pass


def _table(profile: Profile, seed: int, kinds: list[str], *, store: _Store | None = None,
           settings: dict[str, Any] | None = None,
           today: dt.date = DAY) -> Table:
    layout = GameState.new(profile, seed=seed).layout
    assert layout.players == len(kinds)
    seats = tuple(SeatRow(s, kind, "easy" if kind == "bot" else None, f"P{s}",
                          f"t{s}" if kind == "human" else None) for s, kind in enumerate(kinds))
    row = GameRow("g", profile.name, {}, str(layout), settings or {}, seed, "h", "playing",
                  now(), now(), seats)
    return Table(row, profile, store or _Store(),  # type: ignore[arg-type]
                 Settings(absent_grace=GRACE), lambda: None,  # type: ignore[arg-type,return-value]
                 today=lambda: today)


def _finished(profile: Profile, seed: int, **kw: Any) -> Table:
    """A table of a whole game by easy bots, seat 0 a person, as a restore plays it."""
    _, played = _game(profile, seed, "easy")
    players = GameState.new(profile, seed=seed).players
    table = _table(profile, seed, ["human"] + ["bot"] * (players - 1), **kw)
    table.replay([MoveRow(i + 1, 0, seat, format_move(move), "human" if seat == 0 else "bot",
                          None) for i, (seat, move) in enumerate(played)], set())
    assert table.state.is_over
    return table


def test_a_move_another_process_stored_first_is_stale_and_not_acknowledged() -> None:
    profile = load_profile("biegames")

    async def check() -> None:
        first = GameState.new(profile, seed=1)
        seat = first.to_act
        move = format_move(bot_turn(make_bot("easy", 1), first.copy(), seat))
        # the same person's move, sent from another tab to another process, stored first
        store = _Store([MoveRow(1, 1, seat, move, "human", "other")])
        table = _table(profile, 1, ["human"] * first.players, store=store)
        person = _Conn(seat)
        table.connections.append(person)  # type: ignore[arg-type]
        await table.handle(person, ClientMessage("move", "m1", seq=0, move=move))  # type: ignore[arg-type]
        assert [m["type"] for m in person.sent] == ["error", "state"]
        error, state = person.sent
        assert error == {"type": "error", "id": "m1", "code": "stale",
                         "message": "another move came first: here is the table now"}
        assert state["seq"] == 1 == table.seq  # the other process's move, played here
        assert ("ack", "m1") not in {(m["type"], m.get("id")) for m in person.sent}

    asyncio.run(check())


def test_a_refused_hint_says_why_in_the_refusal_s_words() -> None:
    profile = load_profile("biegames")

    async def check() -> None:
        first = GameState.new(profile, seed=1)
        table = _table(profile, 1, ["human"] * first.players)
        waiting = _Conn((first.to_act + 1) % first.players)
        watcher = _Conn(None)
        for conn in (waiting, watcher):
            await table.handle(conn, ClientMessage("hint", "h"))  # type: ignore[arg-type]
        name = table.seats[first.to_act].name
        assert waiting.sent == [{"type": "hint", "id": "h", "move": None, "words": None,
                                 "kinds": [], "reason": f"it is {name}'s turn, not yours"}]
        assert watcher.sent == [{"type": "hint", "id": "h", "move": None, "words": None,
                                 "kinds": [],
                                 "reason": "you are watching: spectators cannot move"}]

    asyncio.run(check())


def test_a_person_who_leaves_starts_the_grace_time_a_watcher_does_not() -> None:
    profile = load_profile("biegames")

    async def check() -> None:
        table = _table(profile, 1, ["human", "bot", "human", "bot"], settings={"absent": "bot"})
        ann, watcher = _Conn(0), _Conn(None)
        table.join(ann)  # type: ignore[arg-type]
        table.join(watcher)  # type: ignore[arg-type]
        table.leave(watcher)  # type: ignore[arg-type]
        assert table.away_since == {0: 0.0, 2: 0.0}  # a watcher leaving starts no grace time
        before = time.monotonic()
        table.leave(ann)  # type: ignore[arg-type]
        assert before <= table.away_since[0] <= time.monotonic()
        assert not table.stood_in(0)  # Ann has the grace time to come back
        table.away_since[0] -= GRACE
        assert table.stood_in(0)  # and then a stand-in plays for her
        await table.stop()

    asyncio.run(check())


def test_a_daily_game_s_record_shows_its_seed_only_once_the_day_is_over() -> None:
    profile = load_profile("biegames")
    daily = {"daily": DAY.isoformat()}
    during = _finished(profile, 3, settings=daily, today=DAY)
    assert "seed" not in during.record_data()["metadata"]
    after = _finished(profile, 3, settings=daily, today=DAY + dt.timedelta(days=1))
    assert after.record_data()["metadata"]["seed"] == 3
    assert _finished(profile, 3).record_data()["metadata"]["seed"] == 3  # not a daily game


def test_the_replay_deals_each_round_after_the_last_ends_and_stops_at_the_game_s_end() -> None:
    profile = load_profile("biegames")
    table = _finished(profile, 3)
    frames = table.replay_frames()
    rounds = len(table.state.results)
    assert rounds > 1
    assert len(frames) == 1 + table.seq + (rounds - 1)  # a deal before every round
    deals = [f for f in frames if f["move"] is None]
    assert [f["round"] for f in deals] == list(range(1, rounds + 1))
    ends = [i for i, f in enumerate(frames) if f["state"]["phase"] == "round_end"]
    assert len(ends) == rounds - 1
    for i in ends:  # the next round's deal follows each round's end
        assert frames[i + 1]["move"] is None
        assert frames[i + 1]["round"] == frames[i]["round"] + 1
    assert frames[-1]["move"] is not None and frames[-1]["state"]["phase"] == "game_over"


def test_a_finished_game_refuses_every_seat_s_move_and_shares_no_seat_s_own_keys() -> None:
    table = _finished(load_profile("biegames"), 3)
    for seat in range(table.state.players):
        assert table.refusal(seat) == ("illegal", "the game is over")
    # a spectator's state: the shared part holds none of the keys a seat has of its own,
    # so each appears once, with the connection's value
    own = dict.fromkeys(OWN_KEYS)
    seen: list[list[str]] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen.append([k for k, _ in items])
        return dict(items)

    message = json.loads(table.state_message([]).text(None, lambda: own, 0),
                         object_pairs_hook=pairs)
    view_keys = next(keys for keys in seen if "winners" in keys)
    for key in OWN_KEYS:
        assert view_keys.count(key) == 1, (key, view_keys)
    assert message["view"]["winners"] == list(table.state.winners())
    assert message["view"]["seat"] is None
