"""Clubs: a family's players, their invites, house rules, games and standings.

Anyone signed in (:mod:`handfoot.web.players`) makes a club and becomes its owner; others
join by an invite link (:meth:`Clubs.new_invite`: a random token, stored hashed, valid
:data:`INVITE_TTL` unless the owner revokes it first; in the URL's fragment). Only members
see anything of a club: :meth:`Clubs.club_for` is the one gate every club route goes
through, and answers None for a non-member exactly as for a club that does not exist
(the routes then say 404).

A club keeps house rules under names (:data:`~handfoot.web.store.club_rules`: the TOML
text, checked as the lobby's house-rule files are), offered to its members in the lobby.
A game made for a club (:meth:`Clubs.add_game`) belongs to it: its human seats' links are
derived from a server secret (:data:`CLUB_SECRET`; a rematch's, which belongs to the club
too, from the rematch secret), so a member may take a free seat (or watch) from the club's
page later. The standings, head-to-head and each player's
statistics (:func:`club_tables`) are counted from the seats' results that
:meth:`handfoot.web.players.Players.game_finished` stores when a game ends.

Extension points for the club page: :attr:`Clubs.sections` maps a section's name
(``"ratings"``, ``"tournaments"``) to an async function ``(club_id) -> JSON`` whose
answer the club's API adds to the page's data under that name.
"""

from __future__ import annotations

import hmac
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from handfoot.web.players import FORMER_PLAYER, clean_name, is_key, new_id
from handfoot.web.store import (
    Store,
    club_games,
    club_invites,
    club_members,
    club_rules,
    clubs,
    games,
    now,
    players,
    seat_players,
    seats,
    token_hash,
)

__all__ = ["CLUB_SECRET", "INVITE_TTL", "MAX_RULES", "Club", "Clubs", "club_tables"]

CLUB_SECRET: Final = "club"
"""The name of the server secret a club game's seat and spectator tokens come from."""

INVITE_TTL: Final = timedelta(days=7)
"""How long an invite link stays valid (unless revoked)."""

MAX_RULES: Final = 20
"""House rules a club may keep."""

MAX_CLUBS: Final = 20
"""Clubs one player may make."""

Section = Callable[[str], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class Club:
    id: str
    name: str
    role: str
    """The asking player's role: ``"owner"`` or ``"member"``."""

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "role": self.role}


@dataclass
class Clubs:
    """The clubs of a server (``app.state.clubs``); every method is one transaction."""

    store: Store
    clock: Callable[[], datetime] = now
    sections: dict[str, Section] = field(default_factory=dict)
    """Further sections of the club page: name → ``async (club_id) -> JSON``."""

    async def create(self, name: str, owner: str) -> Club:
        clean = clean_name(name)
        if clean is None:
            raise ValueError("name: a name of 1 to 40 characters")
        stamp = self.clock()
        club = Club(new_id(), clean, "owner")
        async with self.store.engine.begin() as conn:
            made = (await conn.execute(select(func.count()).select_from(club_members).where(
                club_members.c.player == owner, club_members.c.role == "owner"))).scalar_one()
            if made >= MAX_CLUBS:
                raise ValueError(f"a player may make at most {MAX_CLUBS} clubs")
            await conn.execute(insert(clubs).values(id=club.id, name=clean, created=stamp))
            await conn.execute(insert(club_members).values(
                club=club.id, player=owner, role="owner", joined=stamp))
        return club

    async def club_for(self, club_id: str, player_id: str | None) -> Club | None:
        """The club if ``player_id`` is a member (None for anybody else, and for a club that
        does not exist: the two are told apart nowhere)."""
        if player_id is None or not isinstance(club_id, str) or len(club_id) > 32:
            return None
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(
                select(clubs.c.id, clubs.c.name, club_members.c.role)
                .join(club_members, club_members.c.club == clubs.c.id)
                .where(clubs.c.id == club_id, club_members.c.player == player_id))).first()
        return None if row is None else Club(row.id, row.name, row.role)

    async def clubs_of(self, player_id: str) -> list[Club]:
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(clubs.c.id, clubs.c.name, club_members.c.role)
                .join(club_members, club_members.c.club == clubs.c.id)
                .where(club_members.c.player == player_id).order_by(clubs.c.name))).all()
        return [Club(r.id, r.name, r.role) for r in rows]

    async def members(self, club_id: str) -> list[dict[str, Any]]:
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(players.c.id, players.c.name, club_members.c.role,
                       club_members.c.joined)
                .join(club_members, club_members.c.player == players.c.id)
                .where(club_members.c.club == club_id)
                .order_by(club_members.c.joined))).all()
        return [{"id": r.id, "name": r.name, "role": r.role,
                 "joined": r.joined.isoformat() + "Z"} for r in rows]

    async def rename(self, club_id: str, name: str) -> str:
        clean = clean_name(name)
        if clean is None:
            raise ValueError("name: a name of 1 to 40 characters")
        async with self.store.engine.begin() as conn:
            await conn.execute(update(clubs).where(clubs.c.id == club_id).values(name=clean))
        return clean

    async def leave(self, club_id: str, player_id: str) -> None:
        """A member leaves (or is removed); a club's last owner cannot leave while others
        stay (ValueError)."""
        async with self.store.engine.begin() as conn:
            rows = (await conn.execute(select(club_members.c.player, club_members.c.role)
                                       .where(club_members.c.club == club_id))).all()
            owners = [r.player for r in rows if r.role == "owner"]
            if owners == [player_id] and len(rows) > 1:
                raise ValueError("the club's only owner cannot leave while others are in it")
            await conn.execute(delete(club_members).where(
                club_members.c.club == club_id, club_members.c.player == player_id))

    # -- invites ---------------------------------------------------------------------------

    async def new_invite(self, club_id: str, by: str) -> tuple[str, datetime]:
        """A new invite's token (256 random bits) and when it expires."""
        token = secrets.token_urlsafe(32)
        stamp = self.clock()
        expires = stamp + INVITE_TTL
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(club_invites).values(
                token_hash=token_hash(token), club=club_id, by=by, created=stamp,
                expires=expires, revoked=False, uses=0))
        return token, expires

    async def invites(self, club_id: str) -> list[dict[str, Any]]:
        """A club's invites (the id is the start of the token's hash: the token itself is
        not stored)."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(club_invites).where(
                club_invites.c.club == club_id).order_by(club_invites.c.created.desc())
            )).all()
        stamp = self.clock()
        return [{"id": r.token_hash[:16], "created": r.created.isoformat() + "Z",
                 "expires": r.expires.isoformat() + "Z", "revoked": r.revoked,
                 "uses": r.uses, "valid": not r.revoked and r.expires > stamp}
                for r in rows]

    async def revoke_invite(self, club_id: str, invite: str) -> bool:
        if not (isinstance(invite, str) and len(invite) == 16 and invite.isalnum()):
            return False
        async with self.store.engine.begin() as conn:
            done = await conn.execute(update(club_invites).where(
                club_invites.c.club == club_id, club_invites.c.token_hash.like(invite + "%"))
                .values(revoked=True))
        return bool(done.rowcount)

    async def invited_to(self, token: str) -> tuple[str, str] | None:
        """The club (id, name) a valid invite is for; None when unknown, revoked or
        expired."""
        if not is_key(token):
            return None
        digest = token_hash(token)
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(
                select(club_invites, clubs.c.name)
                .join(clubs, clubs.c.id == club_invites.c.club)
                .where(club_invites.c.token_hash == digest))).first()
        if row is None or not hmac.compare_digest(row.token_hash, digest) or row.revoked \
                or row.expires <= self.clock():
            return None
        return str(row.club), str(row.name)

    async def join(self, token: str, player_id: str) -> Club | None:
        """Join the club of a valid invite (a member already: nothing changes); the club,
        or None when the invite is unknown, revoked or expired."""
        invited = await self.invited_to(token)
        if invited is None:
            return None
        club_id, _ = invited
        known = await self.club_for(club_id, player_id)
        if known is not None:
            return known
        try:
            async with self.store.engine.begin() as conn:
                done = await conn.execute(update(club_invites).where(
                    club_invites.c.token_hash == token_hash(token),
                    club_invites.c.revoked.is_(False),
                    club_invites.c.expires > self.clock())
                    .values(uses=club_invites.c.uses + 1))
                if done.rowcount != 1:
                    return None
                await conn.execute(insert(club_members).values(
                    club=club_id, player=player_id, role="member", joined=self.clock()))
        except IntegrityError:
            pass  # joined twice at once
        return await self.club_for(club_id, player_id)

    # -- house rules -----------------------------------------------------------------------

    async def rules(self, club_id: str) -> list[dict[str, Any]]:
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(club_rules.c.name, club_rules.c.toml, club_rules.c.updated,
                       players.c.name.label("by"))
                .join(players, players.c.id == club_rules.c.by)
                .where(club_rules.c.club == club_id).order_by(club_rules.c.name))).all()
        return [{"name": r.name, "toml": r.toml, "by": r.by,
                 "updated": r.updated.isoformat() + "Z"} for r in rows]

    async def rule(self, club_id: str, name: str) -> str | None:
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(club_rules.c.toml).where(
                club_rules.c.club == club_id, club_rules.c.name == name))).first()
        return None if row is None else str(row.toml)

    async def save_rule(self, club_id: str, name: str, toml: str, by: str) -> str:
        """Keep (or replace) a club's house rules under a name; the text must already be
        checked (as :func:`handfoot.web.requests.rules_from_request` checks it)."""
        clean = clean_name(name)
        if clean is None:
            raise ValueError("name: a name of 1 to 40 characters")
        stamp = self.clock()
        async with self.store.engine.begin() as conn:
            done = await conn.execute(update(club_rules).where(
                club_rules.c.club == club_id, club_rules.c.name == clean)
                .values(toml=toml, by=by, updated=stamp))
            if done.rowcount == 0:
                count = (await conn.execute(select(func.count()).select_from(club_rules)
                                            .where(club_rules.c.club == club_id))).scalar_one()
                if count >= MAX_RULES:
                    raise ValueError(f"a club keeps at most {MAX_RULES} sets of house rules")
                await conn.execute(insert(club_rules).values(
                    club=club_id, name=clean, toml=toml, by=by, updated=stamp))
        return clean

    async def delete_rule(self, club_id: str, name: str) -> bool:
        async with self.store.engine.begin() as conn:
            done = await conn.execute(delete(club_rules).where(
                club_rules.c.club == club_id, club_rules.c.name == name))
        return bool(done.rowcount)

    # -- games -----------------------------------------------------------------------------

    async def add_game(self, game_id: str, club_id: str, rules: str) -> None:
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(club_games).values(
                game=game_id, club=club_id, rules=rules[:64], created=self.clock()))

    async def club_rules_of(self, game_id: str) -> tuple[str, str] | None:
        """The club a game belongs to and its rule set's name (None: not a club game)."""
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(club_games.c.club, club_games.c.rules).where(
                club_games.c.game == game_id))).first()
        return None if row is None else (str(row.club), str(row.rules))

    async def game_club(self, game_id: str) -> str | None:
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(club_games.c.club).where(
                club_games.c.game == game_id))).first()
        return None if row is None else str(row.club)

    async def games(self, club_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """A club's games, the latest first: id, rule set, status, dates, and each seat
        (name, kind, level, the player linked, the result once over)."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(games.c.id, games.c.status, games.c.layout, games.c.created,
                       games.c.updated, club_games.c.rules)
                .join(club_games, club_games.c.game == games.c.id)
                .where(club_games.c.club == club_id)
                .order_by(games.c.updated.desc()).limit(limit))).all()
            ids = [r.id for r in rows]
            seat_rows = (await conn.execute(
                select(seats.c.game, seats.c.seat, seats.c.kind, seats.c.level,
                       seats.c.name, seat_players.c.player, seat_players.c.won,
                       seat_players.c.points)
                .outerjoin(seat_players, (seat_players.c.game == seats.c.game)
                           & (seat_players.c.seat == seats.c.seat))
                .where(seats.c.game.in_(ids)).order_by(seats.c.seat))).all() if ids else []
        by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for s in seat_rows:
            by_game[s.game].append({"seat": s.seat, "kind": s.kind, "level": s.level,
                                    "name": s.name, "player": s.player, "won": s.won,
                                    "points": s.points})
        return [{"id": r.id, "status": r.status, "layout": r.layout, "rules": r.rules,
                 "created": r.created.isoformat() + "Z",
                 "updated": r.updated.isoformat() + "Z", "seats": by_game[r.id]}
                for r in rows]

    async def results(self, club_id: str) -> list[dict[str, Any]]:
        """Every finished seat of a player in the club's games (see :func:`club_tables`)."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(seat_players.c.game, seat_players.c.seat, seat_players.c.player,
                       seat_players.c.side, seat_players.c.points, seat_players.c.won,
                       seat_players.c.stats, club_games.c.rules, players.c.name)
                .join(club_games, club_games.c.game == seat_players.c.game)
                .join(players, players.c.id == seat_players.c.player)
                .where(club_games.c.club == club_id, seat_players.c.finished.is_not(None))
            )).all()
        return [{"game": r.game, "seat": r.seat, "player": r.player, "name": r.name,
                 "side": r.side, "points": r.points, "won": bool(r.won),
                 "stats": r.stats or {}, "rules": r.rules} for r in rows]


def club_tables(results: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The standings (games, wins, points: overall and per rule set), head-to-head (for
    each pair of players who sat on opposing sides of a game: the games, and each one's
    wins) and each player's statistics (books, pickups, average round score, rounds gone
    out) from the seats' results (:meth:`Clubs.results`).

    >>> rows = [{"game": "g", "seat": 0, "player": "a", "name": "Ann", "side": 0,
    ...          "points": 900, "won": True, "rules": "classic", "stats": {"books": 3,
    ...          "pickups": 1, "went_out": 1, "round_scores": [500, 400]}},
    ...         {"game": "g", "seat": 1, "player": "b", "name": "Bob", "side": 1,
    ...          "points": 300, "won": False, "rules": "classic", "stats": {"books": 1,
    ...          "pickups": 2, "went_out": 0, "round_scores": [100, 200]}}]
    >>> t = club_tables(rows)
    >>> [(r["name"], r["games"], r["wins"], r["points"]) for r in t["standings"]]
    [('Ann', 1, 1, 900), ('Bob', 1, 0, 300)]
    >>> t["head_to_head"][0]["games"], t["head_to_head"][0]["wins"]
    (1, [1, 0])
    >>> [(s["name"], s["average_round"]) for s in t["statistics"]]
    [('Ann', 450.0), ('Bob', 150.0)]
    """
    rows = list(results)
    names = {r["player"]: r["name"] for r in rows}

    def standings(subset: list[dict[str, Any]]) -> list[dict[str, Any]]:
        table: dict[str, dict[str, Any]] = {}
        for r in subset:
            line = table.setdefault(r["player"], {"player": r["player"],
                                                  "name": names[r["player"]],
                                                  "games": 0, "wins": 0, "points": 0})
            line["games"] += 1
            line["wins"] += int(r["won"])
            line["points"] += int(r["points"] or 0)
        return sorted(table.values(),
                      key=lambda x: (-int(x["wins"]), -int(x["points"]), str(x["name"])))

    per_rules: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        per_rules[r["rules"]].append(r)
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_game[r["game"]].append(r)
    pairs: dict[tuple[str, str], list[int]] = {}
    for seated in by_game.values():
        for a in seated:
            for b in seated:
                if a["player"] < b["player"] and a["side"] != b["side"]:
                    count = pairs.setdefault((a["player"], b["player"]), [0, 0, 0])
                    count[0] += 1
                    count[1] += int(a["won"] and not b["won"])
                    count[2] += int(b["won"] and not a["won"])
    head: list[dict[str, Any]] = [
        {"players": [names[a], names[b]], "ids": [a, b], "games": c[0], "wins": [c[1], c[2]]}
        for (a, b), c in sorted(pairs.items(), key=lambda x: (-x[1][0], names[x[0][0]],
                                                              names[x[0][1]]))]
    stats: dict[str, dict[str, Any]] = {}
    for r in rows:
        s = stats.setdefault(r["player"], {"player": r["player"], "name": names[r["player"]],
                                           "games": 0, "books": 0, "pickups": 0,
                                           "went_out": 0, "rounds": 0, "round_points": 0})
        st = r["stats"]
        s["games"] += 1
        s["books"] += int(st.get("books", 0))
        s["pickups"] += int(st.get("pickups", 0))
        s["went_out"] += int(st.get("went_out", 0))
        scores = [int(x) for x in st.get("round_scores", [])]
        s["rounds"] += len(scores)
        s["round_points"] += sum(scores)
    statistics = []
    for s in stats.values():
        rounds = s.pop("rounds")
        total = s.pop("round_points")
        statistics.append({**s, "rounds": rounds,
                           "average_round": round(total / rounds, 1) if rounds else None})
    statistics.sort(key=lambda x: x["name"])
    return {"standings": standings(rows),
            "by_rules": [{"rules": name, "standings": standings(subset)}
                         for name, subset in sorted(per_rules.items())],
            "head_to_head": head, "statistics": statistics,
            "former": FORMER_PLAYER}
