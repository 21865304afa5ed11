"""The bots' pace (the ``pace`` message, web/table.py, web/table_bots.py): the table's
creator sets it, it is stored with the game (a table loaded again, or another process,
keeps it), every connection is told, the bots wait as long as it says (the expert's search
margin still applies); anybody else, a spectator, a pace the server does not know, or a
database that does not answer is refused and changes nothing."""

from __future__ import annotations

import asyncio

import pytest

from handfoot.bots.registry import make_bot
from handfoot.game.loading import load_profile
from handfoot.web import table as table_module
from handfoot.web.protocol import ClientMessage, MessageError, read_message
from handfoot.web.settings import Settings
from handfoot.web.table_bots import SEARCH_MARGIN
from test_web_table_edges import _Store, _table
from test_web_table_presence import _Conn


class _SettingsStore(_Store):
    """A store that keeps the settings written (or, ``out``, whose database is away)."""

    def __init__(self, *, out: bool = False) -> None:
        super().__init__()
        self.out = out
        self.settings: dict[str, object] = {}

    async def set_setting(self, game_id: str, key: str, value: object) -> None:
        if self.out:
            raise ConnectionRefusedError("the database is away")
        self.settings[key] = value


def _pace(name: str, request_id: str = "p1") -> ClientMessage:
    return read_message({"type": "pace", "id": request_id, "pace": name})


def test_the_creator_sets_the_pace_and_every_connection_hears_it() -> None:
    store = _SettingsStore()
    table = _table(load_profile("biegames"), 3, ["human", "bot", "human", "bot"], store=store)
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
    assert store.settings == {"pace": "fast"}


def test_a_table_loaded_again_keeps_its_pace_and_a_stored_pace_it_does_not_know_is_normal(
        ) -> None:
    profile = load_profile("biegames")
    kinds = ["human", "bot", "human", "bot"]
    assert _table(profile, 3, kinds, settings={"pace": "slow"}).bots.pace == "slow"
    for odd in ("ludicrous", 3, None, ["fast"]):
        assert _table(profile, 3, kinds, settings={"pace": odd}).bots.pace == "normal"


def test_a_pace_another_process_stored_is_told_to_this_processs_connections() -> None:
    table = _table(load_profile("biegames"), 3, ["human", "bot", "human", "bot"])
    partner = _Conn(2)
    table.connections.append(partner)
    table.settings_stored({"pace": "fast"})
    assert table.bots.pace == "fast"
    assert partner.sent == [{"type": "pace", "id": None, "pace": "fast", "seat": None}]
    table.settings_stored({"pace": "fast", "talk": {}})  # no change: nothing said
    assert len(partner.sent) == 1


def test_a_pace_the_database_does_not_take_is_refused_and_changes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "STORE_RETRIES", ())
    table = _table(load_profile("biegames"), 3, ["human", "bot", "human", "bot"],
                   store=_SettingsStore(out=True))
    creator, partner = _Conn(0), _Conn(2)
    table.connections += [creator, partner]
    asyncio.run(table.handle(creator, _pace("slow")))
    assert table.bots.pace == "normal"
    assert creator.sent[-1]["type"] == "error" and creator.sent[-1]["code"] == "busy"
    assert partner.sent == []


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
    table = _table(load_profile("biegames"), 3, ["bot", "bot", "human", "bot"],
                   store=_SettingsStore())
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
