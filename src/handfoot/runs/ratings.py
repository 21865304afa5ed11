"""Ratings: how strong each player is, from the games they finished (OpenSkill).

Every finished game is one *match* between its sides: partners are a team, the sides are
ranked by their final totals (the highest first; equal totals are a tie) and the
`openskill <https://openskill.me>`_ Plackett-Luce model, with its defaults (a new player
at mu 25, sigma 25/3), moves each player's rating. A player has one rating per rule set
(:func:`profile_key`): a family's Biegames skill says little about its Hand, Knee and Foot.

Bots are rated too, as **fixed anchors**: each level has the rating of
:data:`BOT_ANCHORS` (measured by ``benchmarks/rating_anchors.py`` from a duplicate
tournament between the levels) in every game, and a game never changes it: the game is
rated with the anchor in it, then the anchor is put back. So "hard ≈ 27.3 ± 1.2" is a
fixed point of the family's own scale.

A rating is shown as ``mu ± 2 sigma``: the player's skill is in that interval with about
95% confidence; a new player's interval is wide (25.0 ± 16.7) and narrows with every game.
:meth:`Rating.conservative` (``mu − 2 sigma``) is the low end, the number that rises as a
player both wins and becomes known.

The same code rates the records given to ``handfoot ratings`` and the club's games on the
web server, so the two agree.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # openskill comes with the ratings extra; imported when a game is rated
    from openskill.models import PlackettLuce, PlackettLuceRating

    from handfoot.game.record import GameRecord

__all__ = ["BOT_ANCHORS", "DEFAULT_MU", "DEFAULT_SIGMA", "GameResult", "PlayerRating",
           "Rating", "Ratings", "Seat", "bot_levels_of", "profile_key", "result_of_record",
           "side_ranks"]

DEFAULT_MU = 25.0
"""A new player's rating (openskill's default)."""
DEFAULT_SIGMA = 25.0 / 3
"""A new player's uncertainty (openskill's default)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: ``mu`` and its uncertainty ``sigma`` (one standard deviation)."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    def conservative(self) -> float:
        """``mu − 2 sigma``: the skill the player has at least, with about 97.5% confidence."""
        return self.mu - 2 * self.sigma

    def text(self) -> str:
        """``27.3 ± 1.2`` (mu ± 2 sigma, one decimal)."""
        return f"{self.mu:.1f} ± {2 * self.sigma:.1f}"


BOT_ANCHORS: Mapping[str, Rating] = {
    "random": Rating(-4.83, 4.96),
    "easy": Rating(16.42, 3.40),
    "normal": Rating(31.01, 2.05),
    "hard": Rating(32.50, 1.89),
    "expert": Rating(36.30, 1.92),
    "learned": Rating(36.26, 1.92),
}
"""Each bot level's fixed rating: ``python benchmarks/rating_anchors.py --games 40`` (the six
levels' round robin on partnership-13, 40 duplicate pairs per pairing, 1,200 games, seed
2026; docs/club.md). Random and easy lose nearly every game, so their sigma stays wide."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sat in a seat: a person by name, or a bot by level (``bot`` set, ``name`` its
    level)."""

    name: str
    bot: str | None = None

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.name, self.bot)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game as ratings see it: the rule set, each side's seats and final
    total, and when it ended (for the order of games; ``None`` when unknown)."""

    profile: str
    sides: tuple[tuple[Seat, ...], ...]
    totals: tuple[int, ...]
    finished: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One player's rating under one rule set, and the games it counts."""

    profile: str
    seat: Seat
    rating: Rating
    games: int

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.seat.name, "bot": self.seat.bot is not None,
                "profile": self.profile, "mu": self.rating.mu, "sigma": self.rating.sigma,
                "games": self.games}


def side_ranks(totals: Sequence[int]) -> list[int]:
    """Each side's place from its total: 1 for the highest, equal totals share a place.

    >>> side_ranks([120, 340])
    [2, 1]
    >>> side_ranks([50, 50, 10])
    [1, 1, 3]
    """
    return [1 + sum(other > total for other in totals) for total in totals]


def profile_key(name: str, overrides: Mapping[str, Any]) -> str:
    """The rule set a rating is for: the built-in profile's name, then the parameters the
    game changed from it (sorted, as JSON values).

    >>> profile_key("biegames", {})
    'biegames'
    >>> profile_key("biegames", {"rounds": 2, "book_max": "none"})
    'biegames with book_max = "none", rounds = 2'
    """
    if not overrides:
        return name
    changed = ", ".join(f"{k} = {json.dumps(overrides[k], sort_keys=True)}"
                        for k in sorted(overrides))
    return f"{name} with {changed}"


def bot_levels_of(record: GameRecord) -> list[str | None]:
    """Each seat's bot level, or ``None`` for a person, from what the record says:

    * ``metadata.bots``: per seat, a level or ``null`` (the web server writes it);
    * else ``metadata.seats`` (``handfoot play``): ``"you"`` or a bot level per seat;
    * else a seat named exactly as a level (``handfoot simulate`` names seats so).
    """
    from handfoot.bots.registry import BOTS

    players = len(record.seats)
    for key in ("bots", "seats"):
        listed = record.metadata.get(key)
        if isinstance(listed, list) and len(listed) == players:
            return [level if isinstance(level, str) and level in BOTS else None
                    for level in listed]
    return [seat.name if seat.name in BOTS else None for seat in record.seats]


def result_of_record(record: GameRecord) -> GameResult | None:
    """The finished game a record holds, replayed (every move checked, every total
    recomputed); ``None`` if the game is not over. A record that does not replay raises
    :class:`handfoot.game.record.RecordError` naming the first problem."""
    from handfoot.game.record import RecordError, replay

    result = replay(record)
    if result.error is not None:
        raise RecordError(result.error.message)
    if not result.game_over:
        return None
    levels = bot_levels_of(record)
    sides = max(s.side for s in record.seats) + 1
    seats = tuple(tuple(Seat(seat.name if levels[i] is None else str(levels[i]), levels[i])
                        for i, seat in enumerate(record.seats) if seat.side == side)
                  for side in range(sides))
    finished = record.metadata.get("finished")
    return GameResult(profile=profile_key(record.profile_name, record.overrides),
                      sides=seats, totals=tuple(result.totals),
                      finished=finished if isinstance(finished, str) else None)


def _model() -> PlackettLuce:
    from openskill.models import PlackettLuce

    return PlackettLuce()


@dataclass
class Ratings:
    """Every player's rating per rule set, built by rating games in order.

    ``anchors`` are the bots' fixed ratings (:data:`BOT_ANCHORS` unless given).
    """

    anchors: Mapping[str, Rating] = field(default_factory=lambda: dict(BOT_ANCHORS))
    ratings: dict[tuple[str, tuple[str, str | None]], Rating] = field(default_factory=dict)
    games: dict[tuple[str, tuple[str, str | None]], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._pl = _model()

    def rating(self, profile: str, seat: Seat) -> Rating:
        """A player's rating now (a bot's anchor; a new player's default)."""
        if seat.bot is not None:
            return self.anchors.get(seat.bot, Rating())
        return self.ratings.get((profile, seat.key), Rating())

    def rate(self, game: GameResult) -> None:
        """Rate one finished game: every person's rating moves, every bot keeps its
        anchor. A name on two seats of one game counts once (its first seat)."""
        if len(game.sides) != len(game.totals) or len(game.sides) < 2:
            raise ValueError("a rated game has one total per side and at least two sides")
        teams: list[list[PlackettLuceRating]] = [
            [self._pl.rating(mu=r.mu, sigma=r.sigma)
             for r in (self.rating(game.profile, seat) for seat in side)]
            for side in game.sides]
        new = self._pl.rate(teams, ranks=[float(r) for r in side_ranks(game.totals)])
        done: set[tuple[str, str | None]] = set()
        for side, rated in zip(game.sides, new, strict=True):
            for seat, r in zip(side, rated, strict=True):
                key = (game.profile, seat.key)
                if seat.key in done:
                    continue
                done.add(seat.key)
                self.games[key] = self.games.get(key, 0) + 1
                if seat.bot is None:  # a bot's anchor stays as it was
                    self.ratings[key] = Rating(r.mu, r.sigma)

    def rate_all(self, games: Iterable[GameResult]) -> None:
        """Rate games in the order of their end (``finished``; games without a time first,
        in the order given)."""
        for game in sorted(games, key=lambda g: (g.finished is not None, g.finished or "")):
            self.rate(game)

    def players(self, profile: str | None = None) -> list[PlayerRating]:
        """Everyone rated (bots that played included), best ``mu`` first, per rule set."""
        out = []
        for (prof, key), count in self.games.items():
            if profile is not None and prof != profile:
                continue
            seat = Seat(key[0], key[1])
            out.append(PlayerRating(prof, seat, self.rating(prof, seat), count))
        out.sort(key=lambda p: (p.profile, -p.rating.mu, p.seat.name))
        return out
