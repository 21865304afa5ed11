"""A side's table under the rules: its books, what it lacks to go out, its opening minimum.

Pure functions over a :class:`~handfoot.game.rules.Profile` and a side's melds, so the engine
(which enforces the rules) and the bots (which plan with them) judge a table the same way.
A meld is given as ``(target, naturals, wilds)``: a rank kind, or
:data:`~handfoot.game.moves.WILD_MELD` for the all-wild meld.

>>> from handfoot.game.loading import load_profile
>>> p = load_profile("hand-knee-foot")
>>> books = count_books(p, [(cards.FIVE, 7, 0), (cards.KING, 5, 2)])
>>> books.clean, books.dirty
(1, 1)
>>> missing_books(p, books)
['a clean book of 7s', '1 clean book', '1 all-wild book']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from handfoot.game import cards
from handfoot.game.cards import KIND_PLURALS, ByFields
from handfoot.game.moves import WILD_MELD
from handfoot.game.rules import Profile

__all__ = ["BookKind", "Books", "book_kind", "count_books", "missing_books",
           "opening_minimum", "opens_with_clean_book"]


class BookKind(StrEnum):
    """The kinds of book; each value is the word records and views use."""

    CLEAN = "clean"
    DIRTY = "dirty"
    WILD = "wild"
    """An all-wild book."""


def book_kind(book_size: int, target: int, naturals: int, wilds: int) -> BookKind | None:
    """The kind of book a meld is, or None while it is not a book."""
    if naturals + wilds < book_size:
        return None
    if target == WILD_MELD:
        return BookKind.WILD
    return BookKind.CLEAN if wilds == 0 else BookKind.DIRTY


@dataclass(frozen=True, slots=True)
class Books(ByFields):
    """A side's completed books by kind, and its clean books by rank."""

    clean: int
    dirty: int
    wild: int
    clean_by_rank: tuple[int, ...]
    """Clean books of each rank kind (4 to A: kinds 0 to 10)."""

    def __init__(self, clean: int, dirty: int, wild: int,
                 clean_by_rank: tuple[int, ...]) -> None:
        # Not the dataclass's own: mypyc compiles this one, each line to a slot store
        # (docs/performance.md, "Constructors").
        object.__setattr__(self, "clean", clean)
        object.__setattr__(self, "dirty", dirty)
        object.__setattr__(self, "wild", wild)
        object.__setattr__(self, "clean_by_rank", clean_by_rank)

    def as_dict(self) -> dict[str, int]:
        """``{"clean": n, "dirty": n, "wild": n}`` plus ``"clean:RANK"`` for each rank with a
        clean book."""
        out = {BookKind.CLEAN.value: self.clean, BookKind.DIRTY.value: self.dirty,
               BookKind.WILD.value: self.wild}
        for rank, n in enumerate(self.clean_by_rank):
            if n:
                out[f"clean:{rank}"] = n
        return out


def count_books(profile: Profile, melds: Iterable[tuple[int, int, int]]) -> Books:
    """The books among a side's melds, each ``(target, naturals, wilds)``."""
    size = profile.book_size
    clean = dirty = wild = 0
    by_rank = [0] * len(cards.RANKS)
    for target, naturals, wilds in melds:
        if naturals + wilds < size:
            continue
        if target == WILD_MELD:
            wild += 1
        elif wilds:
            dirty += 1
        else:
            clean += 1
            by_rank[target] += 1
    return Books(clean, dirty, wild, tuple(by_rank))


def missing_books(profile: Profile, books: Books) -> list[str]:
    """The books a side still lacks to go out, in a player's words; empty if none.

    A clean book of a special rank (``special_books_to_go_out``) counts for that rank and
    not toward ``clean_books_to_go_out``; a clean book never stands in for a dirty one.
    """
    p = profile
    missing: list[str] = []
    special_used = 0
    for rank in p.special_books_to_go_out:
        if not books.clean_by_rank[rank]:
            missing.append(f"a clean book of {KIND_PLURALS[rank]}")
        else:
            special_used += 1
    for have, need, what in ((books.clean - special_used, p.clean_books_to_go_out, "clean"),
                             (books.dirty, p.dirty_books_to_go_out, "dirty"),
                             (books.wild, p.wild_books_to_go_out, "all-wild")):
        if have < need:
            short = need - have
            missing.append(f"{short} {what} book{'s' if short > 1 else ''}")
    return missing


def opens_with_clean_book(profile: Profile, round_number: int) -> bool:
    """Whether a side's opening this round must include a clean book instead of a points
    minimum (A-25)."""
    return round_number in profile.clean_book_opening_rounds


def opening_minimum(profile: Profile, round_number: int, total: int) -> int:
    """The points a side's opening must reach this round (by round, or by the side's
    ``total`` before the round); 0 in a round whose opening needs a clean book instead."""
    if opens_with_clean_book(profile, round_number):
        return 0
    return profile.opening_minimum(round_number, total)
