"""Club players' ratings on the server: each player's OpenSkill rating per rule set, moved
when a club game ends, stored (:data:`~handfoot.web.store.player_ratings`), shown on the
club page with the bots' anchors.

The numbers are :mod:`handfoot.runs.ratings`'s, the code ``handfoot ratings`` runs on game
records: a club game's sides ranked by their final totals, partners a team, a bot seat its
level's fixed anchor, the rule set the record's (:func:`~handfoot.runs.ratings.profile_key`
of the game's built-in profile and overrides). A human seat not linked to a player (someone
who joined without signing in) plays as a new player (25 ± 16.7) and nothing is stored for
it. So the ratings of a club whose games all seat members (or bots) are exactly what
``handfoot ratings`` gives for the same games' records, which the tests check.

Games are rated in the order they end. Two processes (``--workers``) ending games at once
each read the ratings, compute, and write them back only if no one changed them meanwhile
(each row's ``games`` count is its version); otherwise they read again. A game is rated
once: its id goes into :data:`~handfoot.web.store.rated_games` in the same transaction.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from handfoot.runs.ratings import (
    BOT_ANCHORS,
    GameResult,
    Rating,
    Ratings,
    Seat,
    profile_key,
)
from handfoot.web.store import Store, games, now, player_ratings, rated_games

__all__ = ["ClubRatings", "anchors_json", "profile_hash"]

log = logging.getLogger("handfoot.web")

RETRIES = 8
"""Times a game's rating is computed again when another process changed a rating first."""


class SeatLike(Protocol):
    """A seat at the end of a game, as the players' hook gives it
    (:class:`handfoot.web.players.SeatResult`)."""

    @property
    def seat(self) -> int: ...
    @property
    def side(self) -> int: ...
    @property
    def player(self) -> str | None: ...
    @property
    def kind(self) -> str: ...
    @property
    def level(self) -> str | None: ...


class FinishedLike(Protocol):
    """A game that just ended (:class:`handfoot.web.players.FinishedGame`)."""

    @property
    def game_id(self) -> str: ...
    @property
    def seats(self) -> Sequence[SeatLike]: ...
    @property
    def totals(self) -> Sequence[int]: ...
    @property
    def club(self) -> str | None: ...


class _Changed(Exception):
    """Another process changed a rating this game reads: compute again."""


def profile_hash(key: str) -> str:
    """The stored key of a rule set (its :func:`profile_key`, which may be long)."""
    return hashlib.sha256(key.encode()).hexdigest()


def anchors_json() -> list[dict[str, Any]]:
    """The bots' fixed ratings, weakest first: ``{"level", "mu", "sigma", "text"}``."""
    return [{"level": level, "mu": r.mu, "sigma": r.sigma, "text": r.text()}
            for level, r in sorted(BOT_ANCHORS.items(), key=lambda kv: kv[1].mu)]


@dataclass
class ClubRatings:
    """The ratings of a server's players (``app.state.ratings``)."""

    store: Store

    async def game_finished(self, game: FinishedLike) -> None:
        """The players' hook (:meth:`handfoot.web.players.Players.on_game_finished`)."""
        await self.rate(game)

    async def rate(self, game: FinishedLike) -> bool:
        """Rate a club game that just ended (other games are not rated). True if it was
        rated now (False: not a club game, no linked seat, or rated already)."""
        if game.club is None or not any(s.player is not None for s in game.seats):
            return False
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(games.c.profile, games.c.overrides).where(
                games.c.id == game.game_id))).first()
        if row is None:
            return False
        key = profile_key(str(row.profile), dict(row.overrides or {}))
        for _ in range(RETRIES):
            try:
                return await self._rate(game, key)
            except _Changed:
                continue
        log.warning("game %s: not rated; the ratings kept changing under it", game.game_id)
        return False

    async def _rate(self, game: FinishedLike, key: str) -> bool:
        phash = profile_hash(key)
        linked = sorted({s.player for s in game.seats if s.player is not None})
        known = await self._rows(linked, [phash])
        ratings = Ratings(ratings={(key, (p, None)): Rating(mu, sigma)
                                   for (p, _), (mu, sigma, _) in known.items()})
        sides = len(game.totals)
        seats = [(s.seat, s) for s in game.seats]
        result = GameResult(key, tuple(
            tuple(_rated_seat(s) for _, s in sorted(seats) if s.side == side)
            for side in range(sides)), tuple(game.totals))
        ratings.rate(result)
        stamp = now()
        try:
            async with self.store.engine.begin() as conn:
                await conn.execute(insert(rated_games).values(
                    game=game.game_id, profile=key, rated=stamp))
                for player in linked:
                    new = ratings.rating(key, Seat(player))
                    old = known.get((player, phash))
                    if old is None:
                        await conn.execute(insert(player_ratings).values(
                            player=player, profile_hash=phash, profile=key, mu=new.mu,
                            sigma=new.sigma, games=1, updated=stamp))
                        continue
                    done = await conn.execute(update(player_ratings).where(
                        player_ratings.c.player == player,
                        player_ratings.c.profile_hash == phash,
                        player_ratings.c.games == old[2]).values(
                        mu=new.mu, sigma=new.sigma, games=old[2] + 1, updated=stamp))
                    if done.rowcount != 1:
                        raise _Changed
        except IntegrityError:
            if await self._rated(game.game_id):
                return False  # rated already (by another process)
            raise _Changed from None
        return True

    async def _rated(self, game_id: str) -> bool:
        async with self.store.engine.connect() as conn:
            return (await conn.execute(select(rated_games.c.game).where(
                rated_games.c.game == game_id))).first() is not None

    async def _rows(self, players: Sequence[str], hashes: Sequence[str] | None = None,
                    ) -> dict[tuple[str, str], tuple[float, float, int]]:
        if not players:
            return {}
        query = select(player_ratings).where(player_ratings.c.player.in_(list(players)))
        if hashes is not None:
            query = query.where(player_ratings.c.profile_hash.in_(list(hashes)))
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {(str(r.player), str(r.profile_hash)): (float(r.mu), float(r.sigma),
                                                       int(r.games)) for r in rows}

    async def of_players(self, names: Mapping[str, str]) -> list[dict[str, Any]]:
        """The ratings of ``names`` (player id → name) per rule set, best ``mu`` first in
        each: ``{"profile", "players": [{"player", "name", "mu", "sigma", "games",
        "text", "conservative"}], "anchors": [...]}``."""
        ids = list(names)
        if not ids:
            return []
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(player_ratings).where(
                player_ratings.c.player.in_(ids)))).all()
        by_profile: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            rating = Rating(float(r.mu), float(r.sigma))
            by_profile.setdefault(str(r.profile), []).append({
                "player": str(r.player), "name": names[str(r.player)], "mu": rating.mu,
                "sigma": rating.sigma, "games": int(r.games), "text": rating.text(),
                "conservative": round(rating.conservative(), 1)})
        return [{"profile": profile,
                 "players": sorted(players, key=lambda p: (-p["mu"], p["name"]))}
                for profile, players in sorted(by_profile.items())]

    async def club_section(self, club_id: str, members: list[dict[str, Any]],
                           ) -> dict[str, Any]:
        """The club page's "Ratings" section: its members' ratings per rule set and the
        bots' anchors, as data (``players``: ``{"name", "profile", "mu", "sigma", ...}``,
        ``anchors``) and as the plain table the page draws (``headers``, ``rows``)."""
        names = {str(m["id"]): str(m["name"]) for m in members}
        rated = await self.of_players(names)
        rows: list[list[Any]] = []
        flat = []
        for block in rated:
            for p in block["players"]:
                flat.append({**p, "profile": block["profile"]})
                rows.append([p["name"], block["profile"], _unbroken(p["text"]),
                             p["conservative"], p["games"]])
        anchors = anchors_json()
        for a in reversed(anchors):
            rows.append([f"{a['level']} (bot)", "every rule set", _unbroken(f"≈ {a['text']}"),
                         "fixed", ""])
        return {"players": flat, "anchors": anchors,
                "headers": ["Player", "Rules", "Rating", "At least", "Games"],
                "rows": rows}


def _unbroken(text: str) -> str:
    """``27.3 ± 1.2`` kept on one line (no-break spaces)."""
    return text.replace(" ", "\u00a0")


def _rated_seat(seat: SeatLike) -> Seat:
    if seat.kind == "bot" and seat.level is not None:
        return Seat(seat.level, seat.level)
    if seat.player is not None:
        return Seat(seat.player)
    return Seat(f"\0guest {seat.seat}")  # a new player each game, never stored

