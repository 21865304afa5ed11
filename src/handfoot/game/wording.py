"""The words the engine's reasons, the rulebook and the front ends share.

An illegal meld's reason quotes the wild-card rule in the same words as the rulebook, so
the phrase is made here, once, for both (the engine does not import the rulebook); and every
move has its words here, for the moves list and the hints of every front end (no front end
reads the notation back to word a move).

>>> from handfoot.game.rules import load_profile
>>> wild_rule_text(load_profile("partnership-13"))
'naturals must be at least 2 × wilds'
>>> count_text(1, "card"), count_text(1500, "point"), join(["a", "b", "c"])
('1 card', '1,500 points', 'a, b and c')
>>> book_requirement_text(load_profile("hand-knee-foot"))
'a clean book of 5s, a clean book of 7s, 1 more clean book, 1 dirty book and 1 all-wild book'
>>> from handfoot.game.moves import parse_move
>>> move_words(parse_move("meld K K K 2 | 9: JK"))
'melded K K K 2 and joker onto the 9s'
>>> advice_words(parse_move("goout T T T discard 3"))
'go out: meld 10 10 10, then discard a black 3'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from handfoot.game.cards import JOKER, KIND_CODES, KIND_PLURALS, TWO
from handfoot.game.moves import (
    WILD_MELD,
    Answer,
    Discard,
    Draw,
    GoOut,
    Knock,
    Meld,
    MeldGroup,
    Move,
    Pickup,
    PickUpKnee,
    Undo,
    format_move,
)
from handfoot.game.rules import Profile

__all__ = ["a_kind", "advice_words", "book_requirement_text", "count_text", "group_words",
           "join", "kind_word", "move_words", "number", "wild_ratio_terms", "wild_rule_text"]


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


# --- moves in words -----------------------------------------------------------------------
#
# A move as a sentence for the people at the table, from the move itself (never its
# notation read back): the moves list ("melded K K K 2 and 2 onto the kings"), in the past
# tense, and advice ("meld K K K 2"), in the imperative.

_KIND_WORDS: dict[str, str] = {"T": "10", "B3": "black 3", "R3": "red 3", "JK": "joker"}


def kind_word(kind: int) -> str:
    """A kind as people write it on a card: "K", "10", "2", "joker", "black 3"."""
    code = KIND_CODES[kind]
    return _KIND_WORDS.get(code, code)


def a_kind(kind: int) -> str:
    """"a 10", "an ace", "an 8", "a joker", "a black 3"."""
    word = "ace" if kind_word(kind) == "A" else kind_word(kind)
    return f"{'an' if word.startswith(('ace', '8')) else 'a'} {word}"


def group_words(group: MeldGroup) -> str:
    """One group of a meld: "K K K 2", "2 2 onto the kings", "9 9 9 (a new meld)"."""
    wild_codes = [kind_word(TWO)] * group.twos + [kind_word(JOKER)] * group.jokers
    if group.target != WILD_MELD and not group.naturals:
        # wild cards (or nothing: the pile's top card alone) for a rank's meld
        onto = f"onto the {KIND_PLURALS[group.target]}"
        return f"{' '.join(wild_codes)} {onto}" if wild_codes else f"the top card {onto}"
    naturals = [] if group.target == WILD_MELD else [kind_word(group.target)] * group.naturals
    text = " ".join(naturals + wild_codes)
    return f"{text} (a new meld)" if group.new else text


def _groups_words(groups: Sequence[MeldGroup]) -> str:
    return join(group_words(g) for g in groups)


def move_words(move: Move) -> str:
    """A move in the past tense, as the moves list says it: "drew from the stock",
    "took the pile: K K with the top card", "discarded a 7", "went out: melded 9 9 9, then
    discarded a 4"."""
    match move:
        case Draw():
            return "drew from the stock"
        case Pickup(groups):
            if not groups:
                return "took the pile"
            first = group_words(groups[0])
            if "onto the" not in first:
                first += " with the top card"
            more = f"; melded {_groups_words(groups[1:])}" if len(groups) > 1 else ""
            return f"took the pile: {first}{more}"
        case Meld(groups):
            return f"melded {_groups_words(groups)}"
        case Discard(kind):
            return f"discarded {a_kind(kind)}"
        case GoOut(groups, discard):
            parts = [f"melded {_groups_words(groups)}"] if groups else []
            if discard is not None:
                parts.append(f"discarded {a_kind(discard)}")
            return "went out" + (f": {', then '.join(parts)}" if parts else "")
        case Answer(yes):
            return f"answered {'yes' if yes else 'no'}"
        case Undo():
            return "took back a meld"
        case Knock():
            return "knocked"
        case PickUpKnee():
            return "picked up the Knee"
    return format_move(move)  # staging actions are not played moves: their notation


_ADVICE: tuple[tuple[str, str], ...] = (
    ("drew from", "draw from"), ("took the pile", "take the pile"), ("melded", "meld"),
    ("discarded", "discard"), ("went out", "go out"), ("answered", "answer"),
    ("took back", "take back"), ("knocked", "knock"), ("picked up", "pick up"))


def advice_words(move: Move) -> str:
    """A move as advice, in the imperative (the hint): "meld K K K 2", "discard a 7",
    "take the pile: K K with the top card"."""
    text = move_words(move)
    for past, now in _ADVICE:
        text = text.replace(past, now)
    return text
