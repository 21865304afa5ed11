"""What each seat did over a game, for the final screen: :class:`SeatStats` (pickups,
points melded, books made), counted by :class:`GameStats` as the table plays each move,
from the tally of the side's table before and after it (:class:`Tally`, which counts again
only the melds that changed: a replay asks after every move that lays cards).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Final

from handfoot.game import moves as mv
from handfoot.game.cards import FACE_KIND
from handfoot.game.engine import GameState
from handfoot.game.rules import Profile
from handfoot.game.values import RoundResult

__all__ = ["GameStats", "SeatStats", "Tally", "table_tally"]

_Laid = tuple[int, int, int]
"""A side's tally just before a move (points on its table, books) and the rounds finished."""


@dataclass
class SeatStats:
    """What a player did over the game (for the final screen)."""

    pickups: int = 0
    books: int = 0
    melded: int = 0

    def json(self, seat: int) -> dict[str, int]:
        return {"seat": seat, "pickups": self.pickups, "books": self.books,
                "melded": self.melded}


class GameStats:
    """Every seat's :class:`SeatStats`, counted move by move: :meth:`before` a move is
    played, :meth:`count` after it."""

    __slots__ = ("_tally", "seats")

    def __init__(self, profile: Profile, players: int) -> None:
        self.seats = [SeatStats() for _ in range(players)]
        self._tally = Tally(profile)

    def json(self) -> list[dict[str, int]]:
        return [s.json(i) for i, s in enumerate(self.seats)]

    def before(self, state: GameState, seat: int, move: mv.PlayerMove) -> _Laid | None:
        """What :meth:`count` needs of the state just before ``seat`` plays ``move``; None
        for a draw or a discard, which lay nothing on the table (no points melded, no book
        made)."""
        if isinstance(move, mv.Draw | mv.Discard):
            return None
        points, books = self._tally.before(state, state.side_of[seat])
        return points, books, len(state.results)

    def count(self, state: GameState, seat: int, move: mv.PlayerMove, before: _Laid) -> None:
        """Add to a seat's statistics what its move (just played; neither a draw nor a
        discard) laid on its side's table: the card points it added and the books it made,
        from the side's tally ``before`` it (nothing for a move that takes cards back, as an
        undo does)."""
        side = state.side_of[seat]
        stats = self.seats[seat]
        if isinstance(move, mv.Pickup):
            stats.pickups += 1
        points_before, books_before, results_before = before
        if len(state.results) > results_before:  # the move ended the round
            table_after, books_after = _scored_tally(state.results[results_before], side)
        else:
            table_after, books_after = self._tally(state, side)
        stats.melded += max(0, table_after - points_before)
        stats.books += max(0, books_after - books_before)


def table_tally(state: GameState, side: int) -> tuple[int, int]:
    """The points of the cards on a side's table, and its books (of any kind: every meld
    of a book's size is one, as :meth:`GameState.book_counts` counts them)."""
    value = _face_values(state.profile.kind_values).__getitem__
    size = state.profile.book_size
    melds = state.melds[side]
    return (sum(sum(map(value, m.faces)) for m in melds),
            sum(m.naturals + m.twos + m.jokers >= size for m in melds))


class Tally:
    """:func:`table_tally` for a table's sides, counting again only what changed: the
    melds on a table are frozen values, replaced when cards are added, so a meld that is
    the same object as at the last tally keeps its points and whether it is a book. A
    replay asks after every move that lays cards, and a move changes one or two melds;
    before such a move it asks :meth:`before`, which answers from the side's last tally in
    the round (only the side's own moves other than draws and discards change its table,
    and each was tallied)."""

    __slots__ = ("_sides", "_size", "_value")

    def __init__(self, profile: Profile) -> None:
        self._value = _face_values(profile.kind_values).__getitem__
        self._size = profile.book_size
        self._sides: dict[int, _SideTally] = {}

    def __call__(self, state: GameState, side: int) -> tuple[int, int]:
        melds = state.melds[side]
        kept = self._sides.get(side)
        if kept is None:
            kept = self._sides[side] = _SideTally()
        old, points, books = kept.melds, kept.points, kept.books
        total, made = kept.tally
        count = len(melds)
        if len(old) > count:  # melds taken back (an undo), or a new round's empty table
            total -= sum(points[count:])
            made -= sum(books[count:])
            del old[count:], points[count:], books[count:]
        value, size = self._value, self._size
        for i, m in enumerate(melds):
            if i < len(old):
                if old[i] is m:
                    continue
                total -= points[i]
                made -= books[i]
                old[i] = m
                points[i] = worth = sum(map(value, m.faces))
                books[i] = book = int(m.naturals + m.twos + m.jokers >= size)
            else:
                old.append(m)
                worth = sum(map(value, m.faces))
                points.append(worth)
                book = int(m.naturals + m.twos + m.jokers >= size)
                books.append(book)
            total += worth
            made += book
        kept.round = state.round_number
        kept.tally = (total, made)
        return kept.tally

    def before(self, state: GameState, side: int) -> tuple[int, int]:
        """The side's tally now, just before one of its moves: its last tally if it was
        made in this round, else counted."""
        kept = self._sides.get(side)
        if kept is not None and kept.round == state.round_number:
            return kept.tally
        return self(state, side)


def _scored_tally(result: RoundResult, side: int) -> tuple[int, int]:
    """A side's table as the round's score lines count it: the points of its melded cards
    and its books (a round that ended cleared the table)."""
    lines = {line.key: line for line in result.scores[side].lines}
    return lines["melded"].points, sum(lines[k].count for k in _BOOK_LINES if k in lines)


_BOOK_LINES: Final = ("clean_books", "special_books", "dirty_books", "wild_books")
"""The score lines that count books."""


class _SideTally:
    """A side's melds as :class:`Tally` last saw them, each one's points and whether it
    is a book (1 or 0), the round then, and the totals."""

    __slots__ = ("books", "melds", "points", "round", "tally")

    def __init__(self) -> None:
        self.melds: list[Any] = []
        self.points: list[int] = []
        self.books: list[int] = []
        self.round = 0
        self.tally = (0, 0)


@functools.lru_cache(maxsize=16)
def _face_values(kind_values: tuple[int, ...]) -> tuple[int, ...]:
    """The value of each face, given the value of each kind (a replay asks for the table's
    points before and after every meld)."""
    return tuple(kind_values[kind] for kind in FACE_KIND)
