"""Who a table counts as away, and when a stand-in may play for them (web/table.py): a
person who leaves gets the grace time from the moment they left; a table of people only
that waits for the absent needs no bots; one that lets bots stand in does."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.web.settings import Settings
from handfoot.web.store import GameRow, SeatRow, now
from handfoot.web.table import Table

GRACE = 60.0


class _Store:
    pass


@dataclass
class _Conn:
    seat: int | None
    closed: bool = False


def _table(kinds: list[str], absent: str) -> Table:
    profile = load_profile("biegames")
    layout = GameState.new(profile, seed=1).layout
    assert layout.players == len(kinds)
    seats = tuple(SeatRow(s, kind, "easy" if kind == "bot" else None, f"P{s}",
                          f"t{s}" if kind == "human" else None) for s, kind in enumerate(kinds))
    row = GameRow("g", profile.name, {}, str(layout), {"absent": absent}, 1, "h", "playing",
                  now(), now(), seats)
    return Table(row, profile, _Store(), Settings(absent_grace=GRACE),  # type: ignore[arg-type]
                 lambda: None)  # type: ignore[arg-type,return-value]


def test_a_person_who_leaves_gets_the_grace_time_before_a_stand_in_plays() -> None:
    async def check() -> None:
        table = _table(["human", "bot", "human", "bot"], "bot")
        table.connections.append(_Conn(0))  # type: ignore[arg-type]
        assert table.present(0) and not table.stood_in(0)
        table.went_away(0)  # still connected: nothing changes
        assert table.away_since[0] == 0.0
        table.connections[0].closed = True
        before = time.monotonic()
        table.went_away(0)
        assert before <= table.away_since[0] <= time.monotonic()
        assert not table.stood_in(0)  # the grace time has only begun
        table.away_since[0] -= GRACE
        assert table.stood_in(0)  # and now it is over
        table.went_away(1)  # a bot's seat is never away
        assert 1 not in table.away_since and not table.stood_in(1)

    asyncio.run(check())


def test_a_stand_in_plays_only_where_the_table_chose_it() -> None:
    async def check() -> None:
        table = _table(["human", "bot", "human", "bot"], "wait")
        table.away_since[0] = time.monotonic() - 2 * GRACE
        assert not table.stood_in(0)

    asyncio.run(check())


def test_only_a_table_with_bots_or_stand_ins_has_bots() -> None:
    assert not _table(["human"] * 4, "wait").has_bots
    assert _table(["human"] * 4, "bot").has_bots
    assert _table(["human", "bot", "human", "human"], "wait").has_bots
