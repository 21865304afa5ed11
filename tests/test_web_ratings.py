"""Club ratings on the server (handfoot.web.ratings), on SQLite and PostgreSQL: a club game
that ends moves its members' ratings exactly as openskill does when called directly, bots
stay anchors, a game is rated once, and games ending at once (as from several processes)
lose no update."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import pytest
from sqlalchemy import insert

pytest.importorskip("openskill")

from openskill.models import PlackettLuce

from handfoot.runs.ratings import BOT_ANCHORS
from handfoot.web import store as st
from handfoot.web.ratings import ClubRatings
from handfoot.web.store import GameRow, SeatRow, Store

T = TypeVar("T")


@dataclass(frozen=True)
class SeatResult:
    seat: int
    side: int
    player: str | None
    kind: str
    level: str | None


@dataclass(frozen=True)
class Finished:
    game_id: str
    seats: tuple[SeatResult, ...]
    totals: tuple[int, ...]
    club: str | None = "club1"


def run(url: str, body: Callable[[Store, ClubRatings], Awaitable[T]]) -> T:
    async def main() -> T:
        store = Store(url)
        try:
            await store.start()
            async with store.engine.begin() as conn:  # players whose ids are their names
                for name in ("ann", "bob"):
                    await conn.execute(insert(st.players).values(
                        id=name, name=name.capitalize(), email=None, email_verified=False,
                        created=st.now(), deleted=None))
            return await body(store, ClubRatings(store))
        finally:
            await store.close()
    return asyncio.run(main())


async def a_game(store: Store, game_id: str, overrides: dict[str, object] | None = None,
                 ) -> None:
    stamp = st.now()
    await store.create_game(GameRow(
        id=game_id, profile="biegames", overrides=overrides or {}, layout="2x2",
        settings={"absent": "wait"}, seed=1, spectator_hash="s" * 64, status="over",
        created=stamp, updated=stamp,
        seats=tuple(SeatRow(i, "human", None, f"P{i}", None) for i in range(4))))


def seats(*who: str | None) -> tuple[SeatResult, ...]:
    """Seat i plays for side i % 2; a name is a member, a level ("bot:hard") a bot, None a
    person not signed in."""
    out = []
    for i, w in enumerate(who):
        if w is not None and w.startswith("bot:"):
            out.append(SeatResult(i, i % 2, None, "bot", w[4:]))
        else:
            out.append(SeatResult(i, i % 2, w, "human", None))
    return tuple(out)


async def members_against_bots(store: Store, ratings: ClubRatings) -> None:
    model = PlackettLuce()
    hard, easy = BOT_ANCHORS["hard"], BOT_ANCHORS["easy"]
    await a_game(store, "g1", {"rounds": 1})
    game = Finished("g1", seats("ann", "bot:hard", "bob", "bot:easy"), (1200, 3400))
    assert await ratings.rate(game)
    assert not await ratings.rate(game)  # rated once
    (ann, bob), _ = model.rate(
        [[model.rating(), model.rating()],
         [model.rating(mu=hard.mu, sigma=hard.sigma), model.rating(mu=easy.mu,
                                                                   sigma=easy.sigma)]],
        ranks=[2, 1])
    (shown,) = await ratings.of_players({"ann": "Ann", "bob": "Bob"})
    assert shown["profile"] == "biegames with rounds = 1"
    got = {p["name"]: (p["mu"], p["sigma"], p["games"]) for p in shown["players"]}
    assert got["Ann"] == pytest.approx((ann.mu, ann.sigma, 1))
    assert got["Bob"] == pytest.approx((bob.mu, bob.sigma, 1))
    # a second game, with a guest (not signed in) as Ann's partner, under other rules
    await a_game(store, "g2")
    assert await ratings.rate(
        Finished("g2", seats("ann", "bob", None, "bot:hard"), (500, 500)))
    # seats: Ann, Bob, the guest, a hard bot: Ann and the guest against Bob and the bot
    (a2, _), (b2, _) = model.rate(
        [[model.rating(), model.rating()],
         [model.rating(), model.rating(mu=hard.mu, sigma=hard.sigma)]], ranks=[1, 1])
    shown2 = {s["profile"]: s for s in await ratings.of_players({"ann": "Ann", "bob": "Bob"})}
    plain = {p["name"]: p for p in shown2["biegames"]["players"]}
    assert (plain["Ann"]["mu"], plain["Bob"]["mu"]) == pytest.approx((a2.mu, b2.mu))
    assert plain["Ann"]["games"] == 1  # the other rule set's rating is its own
    # not a club game, or no member: nothing
    await a_game(store, "g3")
    assert not await ratings.rate(Finished("g3", seats("ann", "bob", None, None),
                                                    (1, 2), club=None))
    assert not await ratings.rate(Finished("g3", seats(None, None, None, None),
                                                    (1, 2)))


def test_members_against_bots(database_url: str) -> None:
    run(database_url, members_against_bots)


async def games_at_once(store: Store, ratings: ClubRatings) -> None:
    """Six games of Ann and Bob against two hard bots end at once, each rated by its own
    ClubRatings (as each process has one): every game counts, once."""
    others = [ClubRatings(store) for _ in range(6)]
    for i in range(6):
        await a_game(store, f"h{i}")
    done = await asyncio.gather(*(
        r.rate(Finished(f"h{i}", seats("ann", "bot:hard", "bob", "bot:hard"),
                                 (900, 100)))
        for i, r in enumerate(others)))
    assert all(done)
    model = PlackettLuce()
    hard = BOT_ANCHORS["hard"]
    ann, bob = model.rating(), model.rating()
    for _ in range(6):  # the same game six times: the order does not matter
        bots = [model.rating(mu=hard.mu, sigma=hard.sigma) for _ in range(2)]
        (ann, bob), _ = model.rate([[ann, bob], bots], ranks=[1, 2])
    (shown,) = await ratings.of_players({"ann": "Ann", "bob": "Bob"})
    got = {p["name"]: p for p in shown["players"]}
    assert got["Ann"]["games"] == 6 and got["Bob"]["games"] == 6
    assert got["Ann"]["mu"] == pytest.approx(ann.mu)


def test_games_ending_at_once_lose_no_update(database_url: str) -> None:
    run(database_url, games_at_once)
