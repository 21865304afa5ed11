"""The bots' pace (the ``pace`` message, web/table.py, web/table_bots.py): the table's
creator sets it, every connection is told, the bots wait as long as it says (the expert's
search margin still applies); anybody else, a spectator, or a pace the server does not know
is refused and changes nothing."""

from __future__ import annotations

import asyncio

import pytest

from handfoot.bots.registry import make_bot
from handfoot.game.loading import load_profile
from handfoot.web.protocol import ClientMessage, MessageError, read_message
from handfoot.web.settings import Settings
from handfoot.web.table_bots import SEARCH_MARGIN
from test_web_table_edges import _table
from test_web_table_presence import _Conn


def _pace(name: str, request_id: str = "p1") -> ClientMessage:
    return read_message({"type": "pace", "id": request_id, "pace": name})


def test_the_creator_sets_the_pace_and_every_connection_hears_it() -> None:
    table = _table(load_profile("biegames"), 3, ["human", "bot", "human", "bot"])
    creator, partner, watcher = _Conn(0), _Conn(2), _Conn(None)
    table.connections += [creator, partner, watcher]
    assert table.game_json()["pace"] == "normal"
    assert table.game_json()["pace_seats"] == [0]

    asyncio.run(table.handle(creator, _pace("fast")))
    assert table.bots.pace == "fast"
    assert creator.sent[-1] == {"type": "pace", "id": "p1", "pace": "fast", "seat": 0}
    for other in (partner, watcher):
        assert other.sent[-1] == {"type": "pace", "id": None, "pace": "fast", "seat": 0}
    assert table.game_json()["pace"] == "fast"


@pytest.mark.parametrize("seat", [2, None])
def test_only_the_creator_sets_the_pace(seat: int | None) -> None:
    table = _table(load_profile("biegames"), 3, ["human", "bot", "human", "bot"])
    conn, creator = _Conn(seat), _Conn(0)
    table.connections += [conn, creator]
    asyncio.run(table.handle(conn, _pace("slow")))
    assert table.bots.pace == "normal"
    assert conn.sent[-1]["type"] == "error" and conn.sent[-1]["code"] == "not_allowed"
    assert creator.sent == []


def test_in_a_table_of_one_person_that_person_sets_the_pace() -> None:
    table = _table(load_profile("biegames"), 3, ["bot", "bot", "human", "bot"])
    assert table.pace_seats() == [2]
    conn = _Conn(2)
    table.connections.append(conn)
    asyncio.run(table.handle(conn, _pace("slow")))
    assert table.bots.pace == "slow"


@pytest.mark.parametrize("bad", [None, "", "ludicrous", 0.1, ["fast"], {"pace": "fast"}])
def test_a_pace_the_server_does_not_know_is_not_a_message(bad: object) -> None:
    with pytest.raises(MessageError, match="pace"):
        read_message({"type": "pace", "pace": bad})


def test_the_bots_wait_as_the_pace_says_and_the_expert_its_search() -> None:
    table = _table(load_profile("biegames"), 3, ["human", "bot", "human", "bot"])
    table.bots._settings = Settings(bot_delay=0.9)
    hard = make_bot("hard", seed=1)
    waits = {}
    for pace in ("fast", "normal", "slow"):
        table.bots.pace = pace
        waits[pace] = table.bots.delay(hard)
    assert waits == pytest.approx({"fast": 0.252, "normal": 0.9, "slow": 1.8})
    expert = make_bot("expert", seed=1)
    budget = expert.time_budget  # type: ignore[attr-defined]
    table.bots.pace = "fast"
    assert table.bots.delay(expert) == pytest.approx(max(0.252, budget + SEARCH_MARGIN))
