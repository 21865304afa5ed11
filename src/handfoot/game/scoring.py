"""A side's round score and its breakdown, from what the side counted at the round's end.

The engine counts a :class:`SideTally` from the cards (:meth:`GameState.score_side`), a
score keeper at a real table from what the players say; :func:`score_tally` scores both the
same way, line by line (:class:`ScoreLine`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from handfoot.game.cards import (
    Kind,
)
from handfoot.game.moves import ByFields
from handfoot.game.rules import Profile, Side

__all__ = ["SCORE_LABELS", "ScoreLine", "SideScore", "SideTally", "score_tally"]


@dataclass(frozen=True, slots=True)
class ScoreLine(ByFields):
    """One line of a side's round breakdown: ``count`` items worth ``points`` in all."""

    key: str
    label: str
    count: int
    points: int


SCORE_LABELS: Final[Mapping[str, str]] = {
    "melded": "Cards on the table",
    "unfinished_second_melds": "Unfinished second melds",
    "clean_books": "Clean books",
    "special_books": "Special clean books",
    "dirty_books": "Dirty books",
    "wild_books": "All-wild books",
    "red_threes": "Red 3s laid",
    "going_out": "Going out",
    "cards_left": "Cards left in hands and feet",
    "black_threes_caught": "Black 3s left in hands and feet",
    "red_threes_caught": "Red 3s left in hands and feet",
}
"""The label of each :class:`ScoreLine` key the engine scores (an ``"adjustment"`` line,
which only a score keeper adds, carries its own)."""


def _score_line(key: str, count: int, points: int) -> ScoreLine:
    return ScoreLine(key, SCORE_LABELS[key], count, points)


@dataclass(frozen=True, slots=True)
class SideScore(ByFields):
    """A side's score for a round, with its breakdown; ``total`` is the sum of the lines."""

    side: Side
    lines: tuple[ScoreLine, ...]
    total: int


@dataclass(frozen=True, slots=True)
class SideTally(ByFields):
    """What a side's round score is made of, counted at the end of the round: the engine
    counts it from the cards (:meth:`GameState.score_side`), a score keeper at a real table
    from what the players count; :func:`score_tally` scores both the same way."""

    melded_cards: int = 0
    """Cards on the side's table, but those of unfinished second melds."""
    melded_points: int = 0
    unfinished_cards: int = 0
    """Cards of unfinished second melds (only where ``unfinished_second_meld_negative``)."""
    unfinished_points: int = 0
    clean_books: int = 0
    """Clean books but those of the profile's special ranks."""
    special_books: tuple[tuple[Kind, int], ...] = ()
    """(rank, number) of clean books of the ranks of ``special_book_bonus``."""
    dirty_books: int = 0
    wild_books: int = 0
    red_threes: int = 0
    """Red 3s laid down."""
    went_out: bool = False
    left_cards: int = 0
    """Cards left in the side's hands, Knees and Feet, threes aside."""
    left_points: int = 0
    black_threes_left: int = 0
    red_threes_left: int = 0


def score_tally(profile: Profile, side: Side, tally: SideTally,
                adjustments: Sequence[tuple[str, int]] = ()) -> SideScore:
    """A side's round score under ``profile``, with every line of its breakdown, from what
    it counted; ``adjustments`` are (label, points) lines for the tabletop-only rules."""
    p = profile
    lines = [_score_line("melded", tally.melded_cards, tally.melded_points)]
    if p.unfinished_second_meld_negative:
        lines.append(_score_line("unfinished_second_melds", tally.unfinished_cards,
                                 -tally.unfinished_points))
    special = dict(p.special_book_bonus)
    lines.append(_score_line("clean_books", tally.clean_books,
                             tally.clean_books * p.clean_book_bonus))
    if special:
        lines.append(_score_line(
            "special_books", sum(n for _, n in tally.special_books),
            sum(special[rank] * n for rank, n in tally.special_books)))
    lines.append(_score_line("dirty_books", tally.dirty_books,
                             tally.dirty_books * p.dirty_book_bonus))
    if p.all_wild_melds:
        lines.append(_score_line("wild_books", tally.wild_books,
                                 tally.wild_books * p.wild_book_bonus))
    reds = tally.red_threes
    per_red = (p.red_three_bulk_bonus if p.red_three_bulk_count
               and reds >= p.red_three_bulk_count else p.red_three_bonus)
    lines.append(_score_line("red_threes", reds, reds * per_red))
    lines.append(_score_line("going_out", int(tally.went_out),
                             p.going_out_bonus if tally.went_out else 0))
    lines.append(_score_line("cards_left", tally.left_cards, -tally.left_points))
    lines.append(_score_line("black_threes_caught", tally.black_threes_left,
                             -tally.black_threes_left * p.black_three_penalty))
    lines.append(_score_line("red_threes_caught", tally.red_threes_left,
                             -tally.red_threes_left * p.red_three_penalty))
    for label, points in adjustments:
        lines.append(ScoreLine("adjustment", label, 1, points))
    return SideScore(side, tuple(lines), sum(line.points for line in lines))
