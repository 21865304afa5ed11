"""The rules in words, phrase by phrase: what more than one module says alike.

An illegal meld's reason quotes the wild-card rule in the same words as the rulebook, and
the rulebook and the differences between two profiles tell seatings, shoes, bonuses and
opening minimums in the same words, so each phrase is made here, once, for all of them (the
engine imports neither the rulebook nor the differences).

>>> from handfoot.game.loading import load_profile
>>> wild_rule_text(load_profile("partnership-13"))
'naturals must be at least 2 × wilds'
>>> count_text(1, "card"), count_text(1500, "point"), join(["a", "b", "c"])
('1 card', '1,500 points', 'a, b and c')
>>> book_requirement_text(load_profile("hand-knee-foot"))
'a clean book of 5s, a clean book of 7s, 1 more clean book, 1 dirty book and 1 all-wild book'
>>> seating_phrase(Layout(2, 2)), points_text(1500)
('4 players in 2 sides of 2 (partners sit opposite)', '1,500 points')
"""

from __future__ import annotations

from collections.abc import Iterable

from handfoot.game.cards import KIND_PLURALS
from handfoot.game.rules import Layout, Profile

__all__ = [
    "FIRST_PLAYER_WORDS",
    "PARTNER_CONDITION_WORDS",
    "article",
    "book_requirement_text",
    "count_ranges_text",
    "count_text",
    "count_word",
    "dealer_bonus_text",
    "join",
    "kinds_text",
    "number",
    "player_counts",
    "points_text",
    "rounds_text",
    "score_bands_text",
    "seating_phrase",
    "seating_phrases",
    "shoe_text",
    "special_book_bonus_text",
    "wild_ratio_terms",
    "wild_rule_text",
    "wild_rule_with_limits",
]

FIRST_PLAYER_WORDS = {
    "left_of_dealer": "the player left of the dealer",
    "random": "a player chosen at random",
    "high_card": "the player who draws the highest card",
}
"""Who starts the first round, by ``first_player``."""

PARTNER_CONDITION_WORDS = {
    "none": "",
    "picked_up": "picked up their Foot",
    "played_from": "played at least one card from their Foot",
    "finished_turn": "finished at least one turn holding their Foot",
}
"""What every partner must have done with their Foot, by ``partner_condition`` (as in
"every partner must have ..."; nothing for ``none``)."""


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


def article(n: int) -> str:
    """The article for a number as it is said: "an 11-card Foot", "a 13-card Hand"."""
    return "an" if str(n).startswith("8") or n in (11, 18) else "a"


def kinds_text(kinds: Iterable[int], last: str = "and") -> str:
    """Kinds in the plural, joined: "5s and 7s", "jacks or queens"."""
    return join((KIND_PLURALS[k] for k in kinds), last)


def points_text(n: int) -> str:
    """A number of points: "1 point", "1,500 points"."""
    return count_text(n, "point")


def rounds_text(rounds: Iterable[int]) -> str:
    """ "round 5", "rounds 4 and 5"."""
    xs = sorted(set(rounds))
    return ("round " if len(xs) == 1 else "rounds ") + join(map(str, xs))


def count_ranges_text(counts: Iterable[int]) -> str:
    """Player counts compactly: "3", "2 or 4", "2 to 8", "2 or 4 to 8"."""
    runs: list[list[int]] = []
    for n in sorted(set(counts)):
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    parts = []
    for lo, hi in runs:
        if lo == hi:
            parts.append(str(lo))
        elif hi == lo + 1:
            parts.extend((str(lo), str(hi)))
        else:
            parts.append(f"{lo} to {hi}")
    return join(parts, "or")


def seating_phrase(layout: Layout) -> str:
    """A seating, and where partners sit: "4 players in 2 sides of 2 (partners sit
    opposite)"."""
    return layout.describe() + _partner_seating(layout)


def seating_phrases(layouts: Iterable[Layout]) -> list[str]:
    """Seatings as phrases, the single-player ones folded into one: "2 to 8 players, each on
    their own"."""
    out: list[str] = []
    singles = [x.players for x in layouts if x.seats_per_side == 1]
    for layout in layouts:
        if layout.seats_per_side > 1:
            out.append(seating_phrase(layout))
        elif layout.players == singles[0]:
            out.append(f"{count_ranges_text(singles)} players, each on their own")
    return out


def player_counts(p: Profile) -> list[int]:
    """The numbers of players a profile is played by, smallest first."""
    return sorted({layout.players for layout in p.layouts})


def shoe_text(p: Profile) -> str:
    """How many decks make the shoe, as a rule: "5 decks", "one more deck than players"."""
    per, extra = p.decks_per_player, p.extra_decks
    if per == 0:
        return count_text(extra, "deck")
    base = "one deck per player" if per == 1 else f"{count_word(per)} decks per player"
    if extra == 0:
        return base
    if per == 1:
        return f"{count_word(extra)} more deck{'s' if extra > 1 else ''} than players"
    return f"{base} plus {count_text(extra, 'deck')}"


def wild_rule_with_limits(p: Profile) -> str:
    """The wild-card rule with its limits by size, as a clause."""
    terms = wild_ratio_terms(p)
    rule = join(terms) if terms else "any mix of naturals and wilds is allowed"
    return f"{rule} ({_wild_limits(p)})"


def special_book_bonus_text(p: Profile) -> str:
    """The bonuses for clean books of given ranks: "3,000 for a clean book of 5s"."""
    return join(f"{number(points)} for a clean book of {KIND_PLURALS[rank]}"
                for rank, points in p.special_book_bonus)


def score_bands_text(p: Profile) -> str:
    """Minimums by score: "15 below 0 points, 60 from 0, 90 from 5,000"."""
    bands = p.score_band_minimums
    if len(bands) == 1:
        return f"{number(bands[0][1])} whatever its total"
    parts = [f"{number(bands[0][1])} below {count_text(bands[1][0], 'point')}"]
    parts.extend(f"{number(minimum)} from {number(score)}" for score, minimum in bands[1:])
    return join(parts)


def dealer_bonus_text(p: Profile) -> str:
    """The dealer's bonus by error: "1,000 for an exact deal, 500 for one card off"."""
    groups: list[list[int]] = []  # [points, fewest off, most off]
    for off, points in enumerate(p.dealer_bonus):
        if groups and groups[-1][0] == points:
            groups[-1][2] = off
        else:
            groups.append([points, off, off])
    parts = []
    for points, lo, hi in groups:
        what = number(points) if points else "nothing"
        if hi == 0:
            parts.append(f"{what} for an exact deal")
        elif lo == 0:
            parts.append(f"{what} for a deal up to {count_text(hi, 'card')} off")
        elif lo == hi:
            parts.append(f"{what} for {count_text(lo, 'card')} off")
        else:
            parts.append(f"{what} for {lo} {'or' if hi == lo + 1 else 'to'} {hi} cards off")
    if groups[-1][0]:
        parts.append("nothing for more")
    return join(parts)


# --- helpers ----------------------------------------------------------------------------


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def count_word(n: int) -> str:
    """A small count in words ("one", "two"), larger ones in digits."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else number(n)


def _partner_seating(layout: Layout) -> str:
    if layout.seats_per_side == 1:
        return ""
    if layout.seats_per_side == 2 and layout.sides == 2:
        return " (partners sit opposite)"
    if layout.sides == 2:
        return " (partners sit in every other seat)"
    ordinals = {3: "third", 4: "fourth", 5: "fifth"}
    return f" (partners sit in every {ordinals.get(layout.sides, f'{layout.sides}th')} seat)"


def _wild_limits(p: Profile) -> str:
    """The most wilds by meld size: "at most 1 wild in 3-5 cards, 2 in 6-7"."""
    groups: list[list[int]] = []  # [limit, smallest size, largest size]
    for size in range(p.min_meld_size, p.book_size + 1):
        limit = p.wild_limit(size)
        if groups and groups[-1][0] == limit:
            groups[-1][2] = size
        else:
            groups.append([limit, size, size])
    parts = []
    said_at_most = False
    for i, (limit, lo, hi) in enumerate(groups):
        sizes = (f"{lo}" if lo == hi else f"{lo}-{hi}") + (" cards" if i == 0 else "")
        if limit == 0:
            parts.append(f"no wilds in {sizes}")
        elif not said_at_most:
            parts.append(f"at most {count_text(limit, 'wild')} in {sizes}")
            said_at_most = True
        else:
            parts.append(f"{limit} in {sizes}")
    return ", ".join(parts)
