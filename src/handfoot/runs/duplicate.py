"""Duplicate tournaments between people (a club's tournaments): who sits where, the same
deals at every table, and the scoring that compares each side with the other tables.

A tournament has ``tables`` tables and ``rounds`` rounds; a round is one whole game. In a
round every table plays **the same deals** (the game seed :func:`deal_seed` of the round,
as ``handfoot tournament`` plays its bots' duplicate pairs), so the cards are no one's luck:

* **Scoring.** A side's score in a round is its final total minus the average final total
  of every side that sat in the same direction (the same side number: North-South,
  East-West) at the tables that finished that round, in points (:func:`standings`). Over a
  round the scores of one direction add up to 0. Each player of a side gets the side's
  score; a player's tournament score is the sum over the rounds. Example with two tables,
  one round: table 1 ends 3,250 to 1,900, table 2 (the same cards) 2,450 to 2,700. Side 1
  averaged 2,850, side 2 2,300: table 1's side 1 scores +400, its side 2 −400, table 2's
  side 1 −400 and its side 2 +400. A table still playing is not counted yet: the scores
  of a round move as its tables finish.
* **Seating** (:func:`schedule`). Players rotate between rounds so that each partners each
  other as evenly as the numbers allow (then meets each as an opponent as evenly); seats
  no player fills are played by bots, which score like anyone but are not in the
  standings.

Nothing here reads a clock or draws a random number that a seed does not fix.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from handfoot.game.rules import Layout
from handfoot.runs.sim import derive_seed

__all__ = ["MAX_ROUNDS", "MAX_TABLES", "Standing", "TableResult", "deal_seed",
           "play_table_with_bots", "schedule", "side_scores",
           "standings", "table_result_of_record"]

MAX_TABLES = 16
"""The most tables one tournament has (64 players in partnerships)."""
MAX_ROUNDS = 12
"""The most rounds (whole games) one tournament has."""

TRIES = 400
"""Seatings tried per round; the one that repeats the fewest partnerships is kept."""


def deal_seed(seed: int, round_index: int) -> int:
    """The game seed every table plays in round ``round_index`` (from 0)."""
    return derive_seed(seed, "club-duplicate-deal", round_index)


def schedule(players: Sequence[str], tables: int, rounds: int, layout: Layout,
             seed: int) -> list[list[tuple[str | None, ...]]]:
    """Who sits where: per round, per table, per seat a player's name or ``None`` (a bot).

    Each round's seating is the best of :data:`TRIES` shuffles (from ``seed``): fewest
    partnerships that happened before (squared counts, so a third time together costs more
    than two second times), then fewest repeated opponents, then bots spread over the tables.
    """
    names = list(players)
    seats = layout.players
    if tables < 2 or tables > MAX_TABLES:
        raise ValueError(f"a duplicate tournament has 2 to {MAX_TABLES} tables, not {tables}")
    if rounds < 1 or rounds > MAX_ROUNDS:
        raise ValueError(f"a tournament has 1 to {MAX_ROUNDS} rounds, not {rounds}")
    if len(set(names)) != len(names):
        raise ValueError("each player may appear only once")
    if len(names) > tables * seats:
        raise ValueError(f"{len(names)} players for {tables} tables of {seats} seats")
    partners: Counter[frozenset[str]] = Counter()
    opponents: Counter[frozenset[str]] = Counter()
    rng = random.Random(derive_seed(seed, "club-duplicate-seating"))
    pool: list[str | None] = [*names, *([None] * (tables * seats - len(names)))]
    out: list[list[tuple[str | None, ...]]] = []
    for _ in range(rounds):
        best: tuple[tuple[int, int, int], list[tuple[str | None, ...]]] | None = None
        for _ in range(TRIES):
            rng.shuffle(pool)
            seating = [tuple(pool[t * seats:(t + 1) * seats]) for t in range(tables)]
            cost = _cost(seating, layout, partners, opponents)
            if best is None or cost < best[0]:
                best = (cost, seating)
        assert best is not None
        out.append(best[1])
        for table in best[1]:
            for pair, together in _pairs(table, layout):
                (partners if together else opponents)[pair] += 1
    return out


def _pairs(table: tuple[str | None, ...],
           layout: Layout) -> list[tuple[frozenset[str], bool]]:
    """Every two players at a table, and whether they are partners."""
    out = []
    for a, b in combinations(range(len(table)), 2):
        pa, pb = table[a], table[b]
        if pa is not None and pb is not None:
            out.append((frozenset((pa, pb)), layout.side_of(a) == layout.side_of(b)))
    return out


def _cost(seating: list[tuple[str | None, ...]], layout: Layout,
          partners: Counter[frozenset[str]],
          opponents: Counter[frozenset[str]]) -> tuple[int, int, int]:
    again = met = 0
    for table in seating:
        for pair, together in _pairs(table, layout):
            if together:
                again += (partners[pair] + 1) ** 2
            else:
                met += opponents[pair]
    bots = [sum(p is None for p in table) for table in seating]
    return (again, met, max(bots) - min(bots))


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's game in one round: who sat in each seat (``None``: a bot) and, once the
    game is over, each side's final total (``None`` while it is being played)."""

    round: int
    """From 0."""
    table: int
    """From 0."""
    seats: tuple[str | None, ...]
    totals: tuple[int, ...] | None


@dataclass
class Standing:
    """One player's tournament so far: the sum of their rounds' scores."""

    name: str
    score: float = 0.0
    rounds: list[float | None] | None = None
    """Per round: the score (``None``: not played yet, or not at a finished table)."""
    played: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "score": round(self.score, 1), "played": self.played,
                "rounds": [None if r is None else round(r, 1) for r in self.rounds or []]}


def side_scores(results: Sequence[TableResult], layout: Layout,
                ) -> dict[tuple[int, int], list[float]]:
    """Per finished table ``(round, table)``: each side's score (its total minus the
    average of its direction over the round's finished tables)."""
    out: dict[tuple[int, int], list[float]] = {}
    by_round: dict[int, list[TableResult]] = {}
    for res in results:
        if res.totals is not None:
            by_round.setdefault(res.round, []).append(res)
    for rnd, done in by_round.items():
        means = [statistics.fmean(r.totals[d] for r in done if r.totals is not None)
                 for d in range(layout.sides)]
        for r in done:
            assert r.totals is not None
            out[(rnd, r.table)] = [r.totals[d] - means[d] for d in range(layout.sides)]
    return out


def standings(results: Sequence[TableResult], layout: Layout, players: Sequence[str],
              rounds: int) -> list[Standing]:
    """Every player's score so far, the highest first (ties by name): per round, the score
    of the side they sat on (a side's final total minus its direction's average over the
    round's finished tables)."""
    table: dict[str, Standing] = {name: Standing(name, rounds=[None] * rounds)
                                  for name in players}
    scores = side_scores(results, layout)
    for res in results:
        got = scores.get((res.round, res.table))
        if got is None:
            continue
        for seat, name in enumerate(res.seats):
            if name is None or name not in table:
                continue
            s = table[name]
            value = got[layout.side_of(seat)]
            assert s.rounds is not None
            s.rounds[res.round] = value
            s.score += value
            s.played += 1
    return sorted(table.values(), key=lambda s: (-s.score, s.name))


def table_result_of_record(record: Any, round_index: int, table: int,
                           seats: tuple[str | None, ...]) -> TableResult:
    """A table's result from its game record (a :class:`handfoot.game.record.GameRecord`),
    replayed: the totals once the game is over."""
    from handfoot.game.record import RecordError, replay

    result = replay(record)
    if result.error is not None:
        raise RecordError(result.error.message)
    return TableResult(round_index, table, seats,
                       tuple(result.totals) if result.game_over else None)


def play_table_with_bots(profile: Any, layout: Layout, seats: tuple[str | None, ...],
                         seed: int, round_index: int, table: int, level: str = "hard",
                         metadata: dict[str, Any] | None = None) -> Any:
    """Play one table of a round to its end with a ``level`` bot in every seat (a bot
    stands in for each player, who keeps their seat's name): the table's
    :class:`handfoot.game.record.GameRecord`. Every table of a round is dealt the same
    cards (:func:`deal_seed`); each bot's seed comes from its table and seat."""
    from handfoot.bots.registry import make_bot
    from handfoot.game.engine import GameState
    from handfoot.game.record import GameRecorder
    from handfoot.runs.sim import play_game

    game_seed = deal_seed(seed, round_index)
    names = [name if name is not None else f"{level.capitalize()} bot" for name in seats]
    state = GameState.new(profile, layout=layout, seed=game_seed)
    recorder = GameRecorder(state, seat_names=names, metadata={
        "bots": [None if name is not None else level for name in seats],
        "round": round_index + 1, "table": table + 1, **(metadata or {})})
    bots = [make_bot(level, derive_seed(seed, "club-duplicate-bot", round_index, table, s))
            for s in range(layout.players)]
    play_game(profile, game_seed, bots, state=state, recorder=recorder)
    return recorder.record()
