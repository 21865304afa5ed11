"""A table rebuilt from its stored moves (a restore, :meth:`Table.replay`) is the game as
plain :meth:`GameState.apply` plays it: the same state, history, events and record, and the
statistics the table counts are what counting the whole table before and after every move
gives (the restore's fast paths must change nothing but the time).

Games of every built-in profile, played by easy bots (which undo, take the pile, pick up
knees) and by hard bots (which go out, and ask to), with some actions chosen at random from
the legal ones (one in ten, one in fifty), then replayed through a table as a restore replays them.
"""

from __future__ import annotations

import asyncio
import random
from datetime import datetime
from pathlib import Path

import pytest

from handfoot.bots.registry import make_bot
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.moves import format_move
from handfoot.game.record import GameRecorder, record_to_data
from handfoot.game.rules import Profile
from handfoot.web.settings import Settings
from handfoot.web.stats import table_tally
from handfoot.web.store import GameRow, MoveRow, SeatRow, Store, now, token_hash
from handfoot.web.table import Table

RANDOM_SHARE = {"easy": 0.1, "hard": 0.02}
"""The share of actions chosen at random from the legal ones, by the bots' level."""
MAX_ACTIONS = 20_000


class _Store:
    async def add_move(self, game_id: str, move: MoveRow, *, status: str | None = None,
                       ) -> datetime:
        return now()


def _game(profile: Profile, seed: int, level: str,
          ) -> tuple[GameState, list[tuple[int, mv.PlayerMove]]]:
    """A whole game from ``seed`` by bots of ``level``: the final state and every player
    move with its seat."""
    state = GameState.new(profile, seed=seed)
    rng = random.Random(seed)
    bots = [make_bot(level, rng.randrange(2**32)) for _ in range(state.players)]
    played: list[tuple[int, mv.PlayerMove]] = []
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            break
        seat = state.actor
        view = state.view(seat)
        legal = view.legal_actions
        action = legal[rng.randrange(len(legal))] if rng.random() < RANDOM_SHARE[level] \
            else bots[seat].choose(view)
        move = state.apply_action(action)
        if move is not None:
            played.append((seat, move))
    assert state.is_over, "the game is stuck"
    return state, played


def _table(profile: Profile, seed: int) -> Table:
    seats = tuple(SeatRow(s, "human" if s == 0 else "bot", None if s == 0 else "easy",
                          f"P{s}", "t" if s == 0 else None)
                  for s in range(GameState.new(profile, seed=seed).players))
    row = GameRow("g", profile.name, {}, str(GameState.new(profile, seed=seed).layout),
                  {}, seed, "h", "playing", now(), now(), seats)
    return Table(row, profile, _Store(), Settings(), lambda: None)  # type: ignore[arg-type]


def _counted_stats(profile: Profile, seed: int,
                   played: list[tuple[int, mv.PlayerMove]]) -> list[dict[str, int]]:
    """Each seat's statistics (pickups, melded points, books made) counted the slow way:
    the whole side's table before and after every move other than a draw or a discard,
    the round's score lines for a move that ends the round."""
    state = GameState.new(profile, seed=seed)
    stats = [{"seat": s, "pickups": 0, "books": 0, "melded": 0} for s in range(state.players)]
    for seat, move in played:
        side = state.side_of[seat]
        results = len(state.results)
        lays = not isinstance(move, mv.Draw | mv.Discard)
        points_before, books_before = table_tally(state, side)
        state.apply(move)
        if isinstance(move, mv.Pickup):
            stats[seat]["pickups"] += 1
        if not lays:
            continue
        if len(state.results) > results:
            lines = {line.key: line for line in state.results[results].scores[side].lines}
            points_after = lines["melded"].points
            books_after = sum(lines[k].count for k in
                              ("clean_books", "special_books", "dirty_books", "wild_books")
                              if k in lines)
        else:
            points_after, books_after = table_tally(state, side)
        stats[seat]["melded"] += max(0, points_after - points_before)
        stats[seat]["books"] += max(0, books_after - books_before)
    return stats


@pytest.mark.parametrize("name", builtin_profile_names())
@pytest.mark.parametrize(("seed", "level"), [(3, "easy"), (8, "hard")])
def test_a_restored_table_is_the_game_played(name: str, seed: int, level: str) -> None:
    profile = load_profile(name)
    final, played = _game(profile, seed, level)
    table = _table(profile, seed)
    rows = [MoveRow(i + 1, 0, seat, format_move(move), "human" if seat == 0 else "bot",
                    f"r{i}" if seat == 0 else None) for i, (seat, move) in enumerate(played)]
    table.replay(rows, set())

    assert table.state == final
    assert table.state.history == final.history
    assert table.state.events(0) == final.events(0)
    assert table.seq == len(played)
    plain = GameRecorder(GameState.new(profile, seed=seed),
                         seat_names=[s.name for s in table.seats], metadata={
                             "game_id": "g",
                             "bots": [s.level if s.kind == "bot" else None
                                      for s in table.seats],
                             **({"finished": table.updated.isoformat(timespec="microseconds")
                                 + "Z"} if final.is_over else {})})
    for _, move in played:
        plain.apply(move)
    assert table.record_data() == record_to_data(plain.record())
    assert table.acks == {(0, r.request_id): r.seq for r in rows if r.request_id}

    counted = _counted_stats(profile, seed, played)
    assert table.stats.json() == counted
    kinds = {type(move) for _, move in played}
    assert {mv.Draw, mv.Discard, mv.Meld} <= kinds
    assert sum(s["melded"] for s in counted) > 0  # the statistics were not all zero


def test_a_load_reads_what_the_separate_queries_read(tmp_path: Path) -> None:
    """:meth:`Store.load` (on SQLite: the game's row through SQLAlchemy, the rest through
    the driver in one call) gives the game, moves and Continue presses that
    :meth:`Store.game`, :meth:`Store.moves` and :meth:`Store.continues` give; None for a
    game that does not exist."""

    async def check() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")
        await store.start()
        try:
            stamp = now()
            seats = (SeatRow(0, "human", None, "Ann", token_hash("a")),
                     SeatRow(1, "bot", "hard", "Bot", None),
                     SeatRow(2, "human", None, "Bea", token_hash("b")),
                     SeatRow(3, "bot", "expert", "Ex", None))
            await store.create_game(GameRow(
                "g1", "biegames", {"rounds": 2}, "2x2", {"absent": "bot"}, 2**100 + 7,
                token_hash("s"), "playing", stamp, stamp, seats))
            for seq, notation in enumerate(["draw", "discard 5", "draw"], start=1):
                await store.add_move("g1", MoveRow(seq, 1, (seq - 1) % 4, notation,
                                                   "human" if seq % 2 else "bot",
                                                   f"r{seq}" if seq % 2 else None))
            await store.add_continue("g1", 1, 0)
            await store.add_continue("g1", 1, 2)
            loaded = await store.load("g1")
            game = await store.game("g1")
            assert loaded is not None and game is not None
            assert loaded == (game, await store.moves("g1"), await store.continues("g1"))
            assert loaded[0].seats == seats and loaded[0].seed == 2**100 + 7
            assert loaded[0].overrides == {"rounds": 2}
            assert [m.notation for m in loaded[1]] == ["draw", "discard 5", "draw"]
            assert loaded[1][0] == MoveRow(1, 1, 0, "draw", "human", "r1")
            assert loaded[2] == {(1, 0), (1, 2)}
            assert await store.moves("g1", after=2) == loaded[1][2:]
            assert await store.load("nope") is None
        finally:
            await store.close()

    asyncio.run(check())
