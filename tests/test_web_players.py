"""Players and clubs as stored (handfoot.web.players, handfoot.web.clubs): keys kept only as
hashes, one-time links used once and only in time, seats linked to players and their
results stored when a game ends (the hook ratings attach to), clubs seen only by members."""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

from sqlalchemy import select

from handfoot.web import store as st
from handfoot.web.clubs import Clubs, club_tables
from handfoot.web.players import FORMER_PLAYER, FinishedGame, Players
from handfoot.web.store import Store
from web_client import Person, client, new_game, token_of

T = TypeVar("T")


def key() -> str:
    """A key as the browser makes it: 32 random bytes, base64url without padding."""
    return base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()


def run(url: str, body: Callable[[Store, Players, Clubs], Awaitable[T]]) -> T:
    async def main() -> T:
        store = Store(url)
        try:
            await store.start()
            return await body(store, Players(store), Clubs(store))
        finally:
            await store.close()
    return asyncio.run(main())


async def players_and_links(store: Store, players: Players, _clubs: Clubs) -> None:
    k = key()
    ann = await players.create("  Ann  ", k, "phone")
    assert ann.name == "Ann" and (await players.by_key(k)) == ann
    assert await players.by_key(key()) is None
    base = players.clock
    players.clock = lambda: base() + timedelta(hours=2)
    assert await players.by_key(k) == ann
    (device,) = await players.devices(ann.id)
    assert device["seen"] > device["created"]  # last used, to the hour
    players.clock = base
    async with store.engine.connect() as conn:  # only the hash is stored
        hashes = (await conn.execute(select(st.player_keys.c.key_hash))).scalars().all()
    assert hashes == [st.token_hash(k)] and k not in hashes
    # a device link: once, in time
    token = await players.new_link(ann.id, "device")
    k2 = key()
    assert await players.use_link(token, "mail", k2) is None  # not a sign-in link
    assert (await players.use_link(token, "device", k2)) == ann
    assert await players.by_key(k2) == ann
    assert await players.use_link(token, "device", key()) is None  # used
    late = await players.new_link(ann.id, "device")
    base = players.clock
    players.clock = lambda: base() + timedelta(minutes=10, seconds=1)
    assert await players.use_link(late, "device", key()) is None  # expired
    players.clock = base
    assert await players.use_link(late, "device", key()) == ann  # (still unused)
    # two uses at once: one wins
    both = await players.new_link(ann.id, "device")
    got = await asyncio.gather(*(players.use_link(both, "device", key()) for _ in range(5)))
    assert sum(g is not None for g in got) == 1
    assert len(await players.devices(ann.id)) == 4
    # e-mail: verified once a mailed link is used
    await players.set_email(ann.id, "Ann@Example.org")
    assert await players.player_email(ann.id) is None
    mail = await players.new_link(ann.id, "mail", "ann@example.org")
    assert await players.use_link(mail, "mail", key()) == \
        (await players.player(ann.id))
    assert await players.player_email(ann.id) == "ann@example.org"


def test_players_and_their_links(database_url: str) -> None:
    run(database_url, players_and_links)


async def clubs_and_invites(_store: Store, players: Players, clubs: Clubs) -> None:
    ann = await players.create("Ann", key())
    bob = await players.create("Bob", key())
    eve = await players.create("Eve", key())
    club = await clubs.create("The Smiths", ann.id)
    assert club.role == "owner" and await clubs.club_for(club.id, ann.id) == club
    assert await clubs.club_for(club.id, bob.id) is None
    assert await clubs.club_for("no-such-club", bob.id) is None
    token, _ = await clubs.new_invite(club.id, ann.id)
    joined = await clubs.join(token, bob.id)
    assert joined is not None and joined.role == "member"
    assert [m["name"] for m in await clubs.members(club.id)] == ["Ann", "Bob"]
    (invite,) = await clubs.invites(club.id)
    assert invite["uses"] == 1 and invite["valid"]
    assert await clubs.revoke_invite(club.id, invite["id"])
    assert await clubs.join(token, eve.id) is None  # revoked
    late, _ = await clubs.new_invite(club.id, ann.id)
    base = clubs.clock
    clubs.clock = lambda: base() + timedelta(days=7, seconds=1)
    assert await clubs.join(late, eve.id) is None  # expired
    clubs.clock = base
    assert await clubs.club_for(club.id, eve.id) is None
    assert await clubs.save_rule(club.id, "Gran's", "extends = 'biegames'\n", ann.id) == \
        "Gran's"
    assert [r["name"] for r in await clubs.rules(club.id)] == ["Gran's"]


def test_clubs_invites_and_rules(database_url: str) -> None:
    run(database_url, clubs_and_invites)


def test_a_finished_game_stores_the_linked_seats_results_and_calls_the_hooks(
        database_url: str) -> None:
    with client(database_url) as c:
        app: Any = c.app
        players: Players = app.state.players
        clubs: Clubs = app.state.clubs
        portal: Any = c.portal
        heard: list[FinishedGame] = []

        async def hook(game: FinishedGame) -> None:
            heard.append(game)

        players.on_game_finished(hook)
        ann = portal.call(players.create, "Ann", key())
        club = portal.call(clubs.create, "Smiths", ann.id)
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
        game = new_game(c, profile="biegames", layout="2x1", rounds=1, seats=seats)
        gid = game["game_id"]
        portal.call(clubs.add_game, gid, club.id, "biegames")
        assert portal.call(players.link_seat, gid, 0, ann.id)
        bob = portal.call(players.create, "Bob", key())
        assert not portal.call(players.link_seat, gid, 0, bob.id)  # taken
        person = Person(c, gid, token_of(game["seats"][0]["link"]), seat=0, seed=3)
        person.connect()
        person.until("state")
        final = person.play_to_end()
        person.close()
        (done,) = heard
        assert done.game_id == gid and done.club == club.id and done.rules == "biegames"
        assert [s.player for s in done.seats] == [ann.id, None]
        assert list(done.totals) == final["view"]["scores"]["totals"]  # as the table showed
        mine = done.seats[0]
        assert mine.points == done.totals[0] and mine.won == (0 in done.winners)
        assert len(mine.stats["round_scores"]) == 1
        assert sum(mine.stats["round_scores"]) == done.totals[0]
        results = portal.call(clubs.results, club.id)
        assert [(r["player"], r["points"], r["won"]) for r in results] == \
            [(ann.id, mine.points, mine.won)]
        table = club_tables(results)
        assert table["standings"][0]["games"] == 1
        (mine_game,) = portal.call(players.games_of_player, ann.id)
        assert mine_game.finished and mine_game.turn is None and mine_game.club == club.id
        # deleting the player: the seat's name in the record becomes neutral
        exported = portal.call(players.export, ann.id)
        assert exported["tables"]["seat_players"][0]["game"] == gid
        assert exported["tables"]["club_members"][0]["club"] == club.id
        portal.call(players.delete, ann.id)
        assert portal.call(players.player, ann.id).name == FORMER_PLAYER
        row = portal.call(app.state.store.game, gid)
        assert row.seats[0].name == FORMER_PLAYER
