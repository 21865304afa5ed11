"""Club duplicate tournaments on the server: scheduled by a member, started at their time,
every table of a round dealt the same cards, members seated by the rotation, bots in the
other seats, live standings, every table's record (docs/club.md, "Tournaments").

The format and the scoring are :mod:`handfoot.runs.duplicate`'s. Here:

* **Scheduling** (:meth:`Tournaments.schedule`): the club's rule set (its house rules by
  name, or a built-in profile), the number of tables and rounds, the start time and the
  bots' level; the member who schedules it is entered, others enter until the start.
* **The start** (:meth:`Tournaments.refresh`, called by the page's polling, by every
  table's end, and every few seconds by :meth:`Tournaments.run`): once the start time has
  passed, the entrants are seated for every round (:func:`~handfoot.runs.duplicate.schedule`)
  and the first round's tables are made; each is a club game whose human seats are linked
  to their members (so the club page's *Go to your seat* takes a member to theirs, and the
  game counts for the standings and the ratings). A round's tables share its seed
  (:func:`~handfoot.runs.duplicate.deal_seed` of the tournament's secret seed), so they
  are dealt the same cards. When every table of a round is over, the next round's tables
  are made. Two processes doing this at once cannot both: the tournament's status and
  ``current_round`` move only by a conditional update, and only its winner makes tables.
* **Unattended tables**: the bots play whoever is connected, and a member away from their
  seat is played by a stand-in (the table's ``absent: "bot"``), so a round always ends.
* **Who sees it**: only the club's members (the routes answer 404 to anybody else).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import Text, cast, insert, select, update
from sqlalchemy.exc import IntegrityError

from handfoot.bots.registry import BOTS
from handfoot.game.record import profile_spec
from handfoot.game.rules import Layout, Profile
from handfoot.runs.duplicate import (
    MAX_ROUNDS,
    MAX_TABLES,
    TableResult,
    deal_seed,
    schedule,
    standings,
)
from handfoot.runs.ratings import profile_key
from handfoot.web.clubs import CLUB_SECRET
from handfoot.web.store import (
    GameRow,
    SeatRow,
    Store,
    club_tournament_games,
    club_tournaments,
    games,
    now,
    players,
    token_hash,
)
from handfoot.web.tokens import new_game_id, rematch_token

if TYPE_CHECKING:
    from handfoot.web.clubs import Clubs
    from handfoot.web.players import Players
    from handfoot.web.table import Table
    from handfoot.web.tables import Tables

__all__ = ["REFRESH_EVERY", "TOURNAMENT_RECORD_WAITS", "Tournaments"]

log = logging.getLogger("handfoot.web")

REFRESH_EVERY: Final = 5.0
"""Seconds between two looks at the tournaments under way (a start time passed, a round
over) when no page asks."""

MAX_NAME: Final = 60
TOURNAMENT_RECORD_WAITS: Final = ("this table's record opens once every table of its tournament "
                                  "round is over: the others are playing the same cards")
ENTRY_TRIES: Final = 20
"""Times an entry is tried again when another member's entry changed the list first."""


@dataclass
class Tournaments:
    """A server's club tournaments (``app.state.tournaments``)."""

    store: Store
    tables: Tables
    players: Players
    clubs: Clubs
    clock: Callable[[], datetime] = now
    rules_of: Callable[[str, Mapping[str, Any]], Awaitable[Profile]] | None = None
    """Reads a schedule's rules (``(club_id, body) -> Profile``; ``app.py`` gives the one
    the club's games use)."""

    # -- scheduling ------------------------------------------------------------------------

    async def schedule(self, club_id: str, by: str, body: Mapping[str, Any]) -> str:
        """A new tournament of the club; its id. Raises ``ValueError`` with what is wrong."""
        name = " ".join(str(body.get("name") or "Club tournament").split())[:MAX_NAME]
        tables = _int(body.get("tables", 2), "tables", 2, MAX_TABLES)
        rounds = _int(body.get("rounds", 3), "rounds", 1, MAX_ROUNDS)
        level = body.get("bot_level", "hard")
        if level not in BOTS:
            raise ValueError(f"bot_level: one of {', '.join(BOTS)}")
        starts = self.clock()
        if body.get("starts"):
            try:
                starts = datetime.fromisoformat(str(body["starts"]).replace("Z", "+00:00"))
            except ValueError:
                raise ValueError("starts: a time like 2026-12-24T18:00:00Z") from None
            if starts.tzinfo is not None:
                starts = (starts - (starts.utcoffset() or timedelta())).replace(tzinfo=None)
        if self.rules_of is None:
            raise ValueError("this server cannot read rules here")
        profile = await self.rules_of(club_id, body)
        layout = profile.layout
        if layout.sides < 2:
            raise ValueError("a tournament needs at least two sides at each table")
        base, overrides = profile_spec(profile)
        rules = body.get("club_rules") or profile_key(base, overrides)
        tid = new_game_id()
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(club_tournaments).values(
                id=tid, club=club_id, name=name, rules=str(rules)[:64], profile=base,
                overrides=overrides, layout=str(layout), tables=tables, rounds=rounds,
                bot_level=level, seed=str(secrets.randbits(63)), starts=starts,
                status="scheduled", current_round=-1, entrants=[by], seating=None, by=by,
                created=self.clock()))
        return tid

    async def enter(self, club_id: str, tid: str, player: str, entered: bool) -> bool:
        """Enter (or leave) a scheduled tournament; False once it has started."""
        for _ in range(ENTRY_TRIES):
            row = await self._row(club_id, tid)
            if row is None or row.status != "scheduled":
                return False
            entrants = [p for p in row.entrants if p != player] + ([player] if entered else [])
            if len(entrants) > row.tables * Layout.parse(row.layout).players:
                raise ValueError("every seat of the tournament is taken")
            async with self.store.engine.begin() as conn:
                done = await conn.execute(update(club_tournaments).where(
                    club_tournaments.c.id == tid, club_tournaments.c.status == "scheduled",
                    # unchanged since read (the JSON as stored: the same text on both)
                    cast(club_tournaments.c.entrants, Text) == _json_text(row.entrants))
                    .values(entrants=entrants))
            if done.rowcount == 1:
                return True
        return False

    # -- running ---------------------------------------------------------------------------

    async def run(self) -> None:
        """Every :data:`REFRESH_EVERY` seconds, move on every tournament that is due."""
        while True:
            await asyncio.sleep(REFRESH_EVERY)
            try:
                async with self.store.engine.connect() as conn:
                    rows = (await conn.execute(select(
                        club_tournaments.c.id, club_tournaments.c.club).where(
                        club_tournaments.c.status != "over"))).all()
                for r in rows:
                    await self.refresh(str(r.club), str(r.id))
            except Exception:
                log.exception("the club tournaments' refresh failed")

    async def table_finished(self, table: Table) -> None:
        """A table's game just ended: the tournament it belongs to may move on."""
        tid = table.row.settings.get("tournament")
        club = table.row.settings.get("club")
        if isinstance(tid, str) and isinstance(club, str):
            await self.refresh(club, tid)

    async def refresh(self, club_id: str, tid: str) -> None:
        """Start the tournament if its time has come, note the totals of the tables that
        ended, make the next round's tables once a round is over, end it after the last;
        keep its unfinished tables playing."""
        row = await self._row(club_id, tid)
        if row is None or row.status == "over":
            return
        if row.status == "scheduled":
            if self.clock() < row.starts:
                return
            layout = Layout.parse(row.layout)
            seating = schedule(list(row.entrants), row.tables, row.rounds, layout,
                               int(row.seed))
            async with self.store.engine.begin() as conn:
                won = (await conn.execute(update(club_tournaments).where(
                    club_tournaments.c.id == tid, club_tournaments.c.status == "scheduled")
                    .values(status="playing", current_round=0, seating=seating))).rowcount
            if won == 1:
                await self._make_round(tid, 0)
            row = await self._row(club_id, tid)
            assert row is not None
        round_games = await self._games(tid, row.current_round)
        if len(round_games) < row.tables:  # its maker stopped half-way: make the rest
            await self._make_round(tid, row.current_round)
            round_games = await self._games(tid, row.current_round)
        over = await self._note_totals(tid, round_games)
        if not over:
            return
        nxt = row.current_round + 1
        async with self.store.engine.begin() as conn:
            won = (await conn.execute(update(club_tournaments).where(
                club_tournaments.c.id == tid,
                club_tournaments.c.current_round == row.current_round).values(
                current_round=nxt if nxt < row.rounds else row.current_round,
                status="playing" if nxt < row.rounds else "over"))).rowcount
        if won == 1 and nxt < row.rounds:
            await self._make_round(tid, nxt)

    async def _note_totals(self, tid: str, round_games: list[Any]) -> bool:
        """Keep the totals of the round's games that are over; keep the others playing.
        Whether every table of the round is over."""
        all_over = True
        for g in round_games:
            if g.totals is not None:
                continue
            table = await self.tables.get(str(g.game))
            if table is None:
                continue
            if table.state.is_over:
                async with self.store.engine.begin() as conn:
                    await conn.execute(update(club_tournament_games).where(
                        club_tournament_games.c.tournament == tid,
                        club_tournament_games.c.round == g.round,
                        club_tournament_games.c.table == g.table).values(
                        totals=list(table.state.totals)))
            else:
                all_over = False
                table.play_unattended()
        return all_over

    async def _make_round(self, tid: str, rnd: int) -> None:
        """The tables of round ``rnd`` that are not made yet."""
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(club_tournaments).where(
                club_tournaments.c.id == tid))).one()
            names = dict((await conn.execute(select(players.c.id, players.c.name).where(
                players.c.id.in_(list(row.entrants))))).all())
        made = {g.table for g in await self._games(tid, rnd)}
        layout = Layout.parse(row.layout)
        secret = await self.store.secret(CLUB_SECRET)
        seed = deal_seed(int(row.seed), rnd)
        for t, seats in enumerate(row.seating[rnd]):
            if t in made:
                continue
            game_id = new_game_id()
            stamp = self.clock()
            seat_rows = []
            for s, who in enumerate(seats):
                if who is None:
                    seat_rows.append(SeatRow(s, "bot", row.bot_level,
                                             f"{row.bot_level.capitalize()} bot", None))
                else:
                    seat_rows.append(SeatRow(s, "human", None, str(names.get(who, "Player")),
                                             token_hash(rematch_token(secret, game_id, s))))
            game = GameRow(
                id=game_id, profile=row.profile, overrides=dict(row.overrides or {}),
                layout=str(layout), seed=seed, status="playing", created=stamp,
                updated=stamp,
                spectator_hash=token_hash(rematch_token(secret, game_id, None)),
                settings={"absent": "bot", "unattended": True, "tournament": tid,
                          "club": row.club, "round": rnd + 1, "table": t + 1,
                          "seats": [{"kind": r.kind, "level": r.level, "name": r.name}
                                    for r in seat_rows]},
                seats=tuple(seat_rows))
            try:  # the table's place and its game at once: a second maker fails
                await self.store.create_game(game, also={club_tournament_games: {
                    "tournament": tid, "round": rnd, "table": t, "game": game_id,
                    "totals": None}})
            except IntegrityError:
                continue  # another process made this table
            await self.clubs.add_game(game_id, row.club, f"{row.rules} · {row.name}")
            for s, who in enumerate(seats):
                if who is not None:
                    await self.players.link_seat(game_id, s, str(who))
            table = await self.tables.get(game_id)
            if table is not None:
                table.play_unattended()

    # -- reading ---------------------------------------------------------------------------

    async def _row(self, club_id: str, tid: str) -> Any:
        async with self.store.engine.connect() as conn:
            return (await conn.execute(select(club_tournaments).where(
                club_tournaments.c.id == tid, club_tournaments.c.club == club_id))).first()

    async def _games(self, tid: str, rnd: int | None = None) -> list[Any]:
        query = select(club_tournament_games).where(club_tournament_games.c.tournament == tid)
        if rnd is not None:
            query = query.where(club_tournament_games.c.round == rnd)
        async with self.store.engine.connect() as conn:
            return list((await conn.execute(query.order_by(
                club_tournament_games.c.round, club_tournament_games.c.table))).all())

    async def of_club(self, club_id: str) -> list[dict[str, Any]]:
        """The club's tournaments, the newest first (the club page's section)."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(club_tournaments).where(
                club_tournaments.c.club == club_id).order_by(
                club_tournaments.c.created.desc()))).all()
        return [_summary(r) for r in rows]

    async def view(self, club_id: str, tid: str, me: str) -> dict[str, Any] | None:
        """The tournament page's data for member ``me`` (None: no such tournament in the
        club): the settings, who entered, each round's tables (seats, status, totals, the
        record, and ``me``'s own seat link), and the standings so far."""
        await self.refresh(club_id, tid)
        row = await self._row(club_id, tid)
        if row is None:
            return None
        async with self.store.engine.connect() as conn:
            names = dict((await conn.execute(select(players.c.id, players.c.name).where(
                players.c.id.in_(list(row.entrants))))).all())
        layout = Layout.parse(row.layout)
        secret = await self.store.secret(CLUB_SECRET)
        results = []
        rounds: list[list[dict[str, Any]]] = [[] for _ in range(row.rounds)]
        for g in await self._games(tid):
            seats = row.seating[g.round][g.table]
            totals = None if g.totals is None else tuple(int(x) for x in g.totals)
            results.append(TableResult(g.round, g.table, tuple(seats), totals))
            mine = next((s for s, who in enumerate(seats) if who == me), None)
            rounds[g.round].append({
                "table": g.table + 1, "game": g.game,
                "status": "over" if totals is not None else "playing",
                "seats": [{"seat": s, "side": layout.side_of(s),
                           "name": names.get(who, "Player") if who is not None
                           else f"{row.bot_level.capitalize()} bot",
                           "bot": who is None} for s, who in enumerate(seats)],
                "totals": None if totals is None else list(totals),
                "link": None if mine is None
                else f"/game/{g.game}#t={rematch_token(secret, str(g.game), mine)}",
                "watch": f"/game/{g.game}#s={rematch_token(secret, str(g.game), None)}",
                "record": f"/api/clubs/{club_id}/tournaments/{tid}/games/{g.game}/record"})
        for tables in rounds:  # a record shows the round's deals: only once all are over
            if len(tables) < row.tables or any(t["status"] != "over" for t in tables):
                for t in tables:
                    t["record"] = None
        table = standings(results, layout, list(row.entrants), row.rounds)
        return {
            **_summary(row),
            "entrants": [{"id": p, "name": names.get(p, "Player")} for p in row.entrants],
            "entered": me in row.entrants,
            "seed": row.seed if row.status == "over" else None,
            "rounds_played": rounds,
            "standings": [{**s.as_dict(), "name": names.get(s.name, "Player"),
                           "id": s.name} for s in table],
            "scoring": "a side's final total minus the average total of the sides that sat "
                       "in the same direction at the round's finished tables, in points",
        }

    async def round_still_played(self, table: Table) -> bool:
        """Whether ``table`` is a tournament's table whose round another table still plays
        (its record, which shows every card of the round's deals, waits till then)."""
        tid, rnd = table.row.settings.get("tournament"), table.row.settings.get("round")
        if not isinstance(tid, str) or not isinstance(rnd, int):
            return False
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(games.c.status).join(
                club_tournament_games, club_tournament_games.c.game == games.c.id).where(
                club_tournament_games.c.tournament == tid,
                club_tournament_games.c.round == rnd - 1))).all()
            row = (await conn.execute(select(club_tournaments.c.tables).where(
                club_tournaments.c.id == tid))).first()
        made = len(rows)
        return row is None or made < int(row.tables) or any(r.status != "over" for r in rows)

    async def record_of(self, club_id: str, tid: str, game_id: str) -> dict[str, Any] | None:
        """A table's game record (only a game of this club's tournament)."""
        row = await self._row(club_id, tid)
        if row is None or not any(g.game == game_id for g in await self._games(tid)):
            return None
        table = await self.tables.get(game_id)
        if table is None:
            return None
        if not table.state.is_over or await self.round_still_played(table):
            raise PermissionError(TOURNAMENT_RECORD_WAITS)
        return table.record_data()


def _json_text(value: Any) -> str:
    """A JSON column's value as SQLAlchemy stores it."""
    return json.dumps(value)


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what}: a whole number from {low} to {high}")
    return value


def _summary(row: Any) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "rules": row.rules, "layout": row.layout,
            "tables": row.tables, "rounds": row.rounds, "bot_level": row.bot_level,
            "starts": row.starts.isoformat() + "Z", "status": row.status,
            "round": row.current_round + 1, "entrants_count": len(row.entrants)}

