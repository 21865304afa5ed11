"""The words the engine's reasons and the rulebook share.

An illegal meld's reason quotes the wild-card rule in the same words as the rulebook, so
the phrase is made here, once, for both (the engine does not import the rulebook).

>>> from handfoot.game.loading import load_profile
>>> wild_rule_text(load_profile("partnership-13"))
'naturals must be at least 2 × wilds'
>>> count_text(1, "card"), count_text(1500, "point"), join(["a", "b", "c"])
('1 card', '1,500 points', 'a, b and c')
>>> book_requirement_text(load_profile("hand-knee-foot"))
'a clean book of 5s, a clean book of 7s, 1 more clean book, 1 dirty book and 1 all-wild book'
"""

from __future__ import annotations

from collections.abc import Iterable

from handfoot.game.cards import KIND_PLURALS
from handfoot.game.rules import Profile

__all__ = ["book_requirement_text", "count_text", "join", "number", "wild_ratio_terms",
           "wild_rule_text"]


def number(n: int) -> str:
    """A number as a score keeper writes it: 500, 1,500, 10,000."""
    return f"{n:,}"


def count_text(n: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun: "1 card", "2 cards"."""
    return f"{number(n)} {noun if n == 1 else (plural or noun + 's')}"


def join(items: Iterable[str], last: str = "and") -> str:
    """Items joined as in a sentence: "a, b and c"."""
    xs = list(items)
    if len(xs) <= 1:
        return "".join(xs)
    return ", ".join(xs[:-1]) + f" {last} " + xs[-1]


def wild_ratio_terms(p: Profile) -> list[str]:
    """The wild-card limits of a meld as clauses: "naturals must outnumber wilds"."""
    terms = []
    a, b = p.naturals_per_wild, p.natural_margin
    if a == 1 and b == 1:
        terms.append("naturals must outnumber wilds")
    elif a == 0 and b:
        terms.append(f"a meld with wilds needs at least {count_text(b, 'natural')}")
    elif a == 1 and b == 0:
        terms.append("naturals must be at least as many as wilds")
    elif a or b:
        lhs = "wilds" if a == 1 else f"{a} × wilds"
        terms.append(f"naturals must be at least {lhs}" + (f" + {b}" if b else ""))
    if p.max_wilds is not None:
        terms.append("no meld may hold a wild" if p.max_wilds == 0
                     else f"a meld holds at most {count_text(p.max_wilds, 'wild')}")
    if p.min_naturals_with_wild:
        terms.append("a meld with a wild needs at least "
                     f"{count_text(p.min_naturals_with_wild, 'natural')}")
    return terms


def wild_rule_text(p: Profile) -> str:
    """The wild-card rule of melds in words, as an illegal meld's reason quotes it."""
    return "; ".join(wild_ratio_terms(p)) or "no limit"


def book_requirement_text(p: Profile) -> str:
    """The books a side needs to go out, as the rulebook and the engine's reason say it:
    "2 clean books and 2 dirty books" ("" when it needs none)."""
    items = [f"a clean book of {KIND_PLURALS[rank]}" for rank in p.special_books_to_go_out]
    for n, what in ((p.clean_books_to_go_out, "clean"),
                    (p.dirty_books_to_go_out, "dirty"),
                    (p.wild_books_to_go_out, "all-wild")):
        if n:
            more = " more" if what == "clean" and p.special_books_to_go_out else ""
            items.append(f"{n}{more} {what} book" + ("s" if n > 1 else ""))
    return join(items)
