"""A readable rulebook made from a rule profile's parameters.

:func:`describe_profile` writes the rules of a profile as plain sentences grouped the way a
rule sheet is, :func:`diff_profiles` says how two profiles differ, and :func:`profile_json`
gives a profile as data. Everything is generated from the profile's parameters, never from
its name, so a house-rule file reads as well as a built-in profile.

>>> from handfoot.rules import load_profile
>>> dict(describe_profile(load_profile("partnership-13")))["Deal"][0]
'Each player gets a 13-card Hand and a 13-card Foot.'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from handfoot import cards
from handfoot.rules import FIELDS, Layout, Profile, profile_to_toml_values, value_to_toml

__all__ = ["SECTION_TITLES", "describe_profile", "diff_profiles", "profile_json", "wild_rule_text"]

SECTION_TITLES = (
    "Players and cards",
    "Deal",
    "Game",
    "Melds and books",
    "Taking the discard pile",
    "Going out",
    "Scoring",
)
"""The sections of a rulebook, in order."""

Section = tuple[str, list[str]]

# --- words ------------------------------------------------------------------------------

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

_KIND_SPOKEN = (
    "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace",
    "2", "joker", "black 3", "red 3",
)


def _word(n: int) -> str:
    """A small count in words ("one", "two"), larger ones in digits."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _a(n: int) -> str:
    """The article for a number as it is said: "an 11-card Foot", "a 13-card Hand"."""
    return "an" if str(n).startswith("8") or n in (11, 18) else "a"


def _n(n: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun: "1 card", "2 cards"."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def _join(items: Iterable[str], last: str = "and") -> str:
    """Items joined as in a sentence: "a, b and c"."""
    xs = list(items)
    if len(xs) <= 1:
        return "".join(xs)
    return ", ".join(xs[:-1]) + f" {last} " + xs[-1]


def _kind_with_article(kind: int) -> str:
    name = _KIND_SPOKEN[kind]
    return ("an " if name[0] in "8a" else "a ") + name


def _kinds_plural(kinds: Iterable[int], last: str = "and") -> str:
    return _join((cards.KIND_PLURALS[k] for k in kinds), last)


def _points(n: int) -> str:
    return _n(n, "point")


def _cost(n: int) -> str:
    return f"costs {_points(n)}" if n else "costs nothing"


def _charge(n: int) -> str:
    return f"charges {_points(n)}" if n else "charges nothing"


def _sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


# --- shared descriptions ----------------------------------------------------------------


def _partner_seating(layout: Layout) -> str:
    if layout.seats_per_side == 1:
        return ""
    if layout.seats_per_side == 2:
        return " (partners sit opposite)"
    if layout.sides == 2:
        return " (partners sit in every other seat)"
    ordinals = {3: "third", 4: "fourth", 5: "fifth"}
    return f" (partners sit in every {ordinals.get(layout.sides, f'{layout.sides}th')} seat)"


def _seating(layout: Layout) -> str:
    return layout.describe() + _partner_seating(layout)


def _seating_short(layout: Layout) -> str:
    if layout.seats_per_side == 1:
        return f"{layout.players} single players"
    return layout.describe()


def _has_partners(p: Profile) -> bool:
    return any(layout.seats_per_side > 1 for layout in p.layouts)


def _wild_cards(p: Profile) -> str:
    return "2s and jokers are wild" if p.jokers_per_deck else "2s are wild (there are no jokers)"


def _shoe_rule(p: Profile) -> str:
    """How many decks make the shoe, as a rule: "5 decks", "one more deck than players"."""
    per, extra = p.decks_per_player, p.extra_decks
    if per == 0:
        return _n(extra, "deck")
    base = "one deck per player" if per == 1 else f"{_word(per)} decks per player"
    if extra == 0:
        return base
    if per == 1:
        return f"{_word(extra)} more deck{'s' if extra > 1 else ''} than players"
    return f"{base} plus {_n(extra, 'deck')}"


def _deck_size(p: Profile) -> int:
    return 52 + p.jokers_per_deck


def _jokers_per_deck(p: Profile) -> str:
    if p.jokers_per_deck == 0:
        return "no jokers"
    return f"{_n(p.jokers_per_deck, 'joker')} each"


def _wild_ratio_terms(p: Profile) -> list[str]:
    """The wild-card limits of a meld as clauses: "naturals must outnumber wilds"."""
    terms = []
    a, b = p.naturals_per_wild, p.natural_margin
    if a == 1 and b == 1:
        terms.append("naturals must outnumber wilds")
    elif a == 0 and b:
        terms.append(f"a meld with wilds needs at least {_n(b, 'natural')}")
    elif a == 1 and b == 0:
        terms.append("naturals must be at least as many as wilds")
    elif a or b:
        lhs = "wilds" if a == 1 else f"{a} × wilds"
        terms.append(f"naturals must be at least {lhs}" + (f" + {b}" if b else ""))
    if p.max_wilds is not None:
        terms.append("no meld may hold a wild" if p.max_wilds == 0
                     else f"a meld holds at most {_n(p.max_wilds, 'wild')}")
    if p.min_naturals_with_wild:
        terms.append(f"a meld with a wild needs at least {_n(p.min_naturals_with_wild, 'natural')}")
    return terms


def wild_rule_text(p: Profile) -> str:
    """The wild-card rule of melds in words, as an illegal meld's reason quotes it."""
    return "; ".join(_wild_ratio_terms(p)) or "no limit"


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
            parts.append(f"at most {_n(limit, 'wild')} in {sizes}")
            said_at_most = True
        else:
            parts.append(f"{limit} in {sizes}")
    return ", ".join(parts)


def _wild_rule(p: Profile) -> str:
    """The wild-card rule with its limits by size, as a clause."""
    terms = _wild_ratio_terms(p)
    rule = _join(terms) if terms else "any mix of naturals and wilds is allowed"
    return f"{rule} ({_wild_limits(p)})"


def _book_requirement(p: Profile) -> str:
    """The books a side needs to go out: "2 clean books, 2 dirty books, 1 all-wild book"."""
    items = [f"a clean book of {cards.KIND_PLURALS[rank]}" for rank in p.special_books_to_go_out]
    for n, what in ((p.clean_books_to_go_out, "clean"),
                    (p.dirty_books_to_go_out, "dirty"),
                    (p.wild_books_to_go_out, "all-wild")):
        if n:
            more = " more" if what == "clean" and p.special_books_to_go_out else ""
            items.append(f"{n}{more} {what} book" + ("s" if n > 1 else ""))
    return _join(items)


def _card_values(p: Profile) -> str:
    pairs = [("jokers", p.value_joker), ("2s", p.value_two), ("aces", p.value_ace),
             ("8s to kings", p.value_eight_to_king), ("4s to 7s", p.value_four_to_seven)]
    if not p.jokers_per_deck:
        pairs = pairs[1:]
    return ", ".join(f"{what} {value}" for what, value in pairs)


def _special_book_bonus(p: Profile) -> str:
    return _join(f"{points} for a clean book of {cards.KIND_PLURALS[rank]}"
                 for rank, points in p.special_book_bonus)


_FIRST_PLAYER = {
    "left_of_dealer": "the player left of the dealer",
    "random": "a player chosen at random",
    "high_card": "the player who draws the highest card",
}

_PARTNER_CONDITION = {
    "none": "",
    "picked_up": "picked up their Foot",
    "played_from": "played at least one card from their Foot",
    "finished_turn": "finished at least one turn holding their Foot",
}


# --- the rulebook -----------------------------------------------------------------------


def describe_profile(p: Profile) -> list[Section]:
    """The rules of a profile as sections of plain-English sentences, in rule-sheet order.

    Every parameter of :data:`handfoot.rules.FIELDS` is told where it affects play; a
    parameter that cannot matter under the others (say, how many cards are taken from a
    pile that may never be taken) is left out.
    """
    return [
        ("Players and cards", _players_and_cards(p)),
        ("Deal", _deal(p)),
        ("Game", _game(p)),
        ("Melds and books", _melds_and_books(p)),
        ("Taking the discard pile", _taking_the_pile(p)),
        ("Going out", _going_out(p)),
        ("Scoring", _scoring(p)),
    ]


def _players_and_cards(p: Profile) -> list[str]:
    out = []
    if len(p.layouts) == 1:
        out.append(_sentence(_seating(p.layout)))
    else:
        out.append(_sentence(f"{_seating(p.layout)}, by default"))
        others = " or ".join(_seating(layout) for layout in p.layouts[1:])
        out.append(f"Also playable with {others}.")
    if _has_partners(p):
        out.append("Partners form a side: they meld together and share one score.")
    if not all(layout.seats_per_side > 1 for layout in p.layouts):
        out.append("A player without partners is a side of their own.")
    if p.decks_per_player == 0:
        deck = f"{_deck_size(p)} cards ({_jokers_per_deck(p)})"
        decks = p.extra_decks
        out.append(f"{_n(decks, 'deck')} of {deck}: {decks * _deck_size(p)} cards.")
    else:
        by_players = sorted({layout.players for layout in p.layouts}, reverse=True)
        counts = _join((f"{_n(p.decks(n), 'deck')} ({p.decks(n) * _deck_size(p)} cards) "
                        f"for {n} players" for n in by_players), "and")
        jokers = f"with {_n(p.jokers_per_deck, 'joker')}" if p.jokers_per_deck else "no jokers"
        out.append(_sentence(f"{_shoe_rule(p)} ({_deck_size(p)} cards each, {jokers}): "
                             f"{counts}"))
    return out


def _deal(p: Profile) -> list[str]:
    out = []
    if p.knee_size:
        out.append(f"Each player gets {_a(p.hand_size)} {p.hand_size}-card Hand, "
                   f"{_a(p.knee_size)} {p.knee_size}-card Knee and "
                   f"{_a(p.foot_size)} {p.foot_size}-card Foot.")
        out.append("A player plays their Hand first, then their Knee, then their Foot.")
    else:
        out.append(f"Each player gets {_a(p.hand_size)} {p.hand_size}-card Hand and "
                   f"{_a(p.foot_size)} {p.foot_size}-card Foot.")
        out.append("A player plays their Hand first, then their Foot.")
    if p.starter_cards == 1:
        out.append("One card is turned up to start the discard pile.")
    else:
        out.append(f"{p.starter_cards} cards are turned up to start the discard pile.")
    rejected = _join((_kind_with_article(k) for k in p.starter_rejected), "or")
    if not p.starter_rejected:
        out.append("Any card may start the pile.")
    elif p.starter_cards == 1:
        out.append(f"If it is {rejected}, it goes back into the stock at a random place "
                   "and another card is turned.")
    elif p.starter_check_all:
        out.append(f"Any of them that is {rejected} goes back into the stock at a random "
                   "place and another card is turned in its place.")
    else:
        out.append(f"If the top one is {rejected}, it goes back into the stock at a random "
                   "place and another card is turned; the cards under it are not checked.")
    out.append(_sentence(f"{_FIRST_PLAYER[p.first_player]} starts the first round; each "
                         "later round starts one seat further clockwise"))
    return out


def _game(p: Profile) -> list[str]:
    out = []
    if p.rounds == 1:
        out.append("A game is a single round.")
        out.append(f"The opening minimum is {p.opening_minimum(1)} points.")
    else:
        out.append(f"A game is {p.rounds} rounds; the side with the highest total wins.")
        mins = ", ".join(str(p.opening_minimum(r)) for r in range(1, p.rounds + 1))
        out.append(f"Opening minimums by round: {mins}.")
    out.append("A side's first melds in a round must together be worth at least the "
               "opening minimum.")
    take = " or takes the discard pile" if p.pickup_allowed else ""
    out.append(f"A turn starts as the player draws {_n(p.draw_count, 'card')} from the "
               f"stock{take}; the player may then meld, and ends the turn with a discard.")
    pile = " (taking the discard pile is still allowed)" if p.pickup_allowed else ""
    if p.partial_last_draw and p.draw_count > 1:
        out.append(f"If the stock holds fewer than {p.draw_count} cards, the player takes "
                   "what is left; the round ends when a player must draw from an empty stock.")
    elif p.draw_count == 1:
        out.append("If a player must draw from an empty stock, the round ends with no "
                   f"going-out bonus{pile}.")
    else:
        out.append(f"If a player must draw from the stock and it holds fewer than "
                   f"{p.draw_count} cards, the round ends with no going-out bonus{pile}.")
    return out


def _melds_and_books(p: Profile) -> list[str]:
    out = [f"A meld is at least {p.min_meld_size} cards of one rank from 4 to ace; "
           f"{_wild_cards(p)}.",
           f"A meld of {p.book_size} cards is a book: clean with no wild cards, dirty "
           "with any."]
    if p.book_max is None:
        out.append(f"A book may grow past {p.book_size} cards, with natural cards only.")
    elif p.book_max == p.book_size:
        out.append(f"A book holds exactly {p.book_size} cards: nothing more may be added.")
    else:
        out.append(f"A book may grow to at most {p.book_max} cards.")
    if p.new_meld_after_book:
        out.append("Once a side has a book of a rank, it may start a new meld of that rank.")
    elif p.book_max == p.book_size:
        out.append("A side may not start a new meld of a rank it has a book of, and the "
                   "full book takes no more cards of that rank.")
    else:
        out.append("A side may not start a new meld of a rank it has a book of: further "
                   "cards of that rank go onto the book.")
    out.append(_sentence(f"Wild cards: {_wild_rule(p)}"))
    if p.wild_free_ranks:
        out.append(f"Melds of {_kinds_plural(p.wild_free_ranks)} may never hold a wild card.")
    if p.all_wild_melds:
        out.append(f"A meld may be made of wild cards only; {p.book_size} wilds make an "
                   "all-wild book.")
        if p.wild_meld_opens:
            out.append("An all-wild meld may be part of a side's opening and counts toward it.")
        else:
            out.append("An all-wild meld may not be part of a side's opening.")
    else:
        out.append("A meld may not be made of wild cards only.")
    return out


def _taking_the_pile(p: Profile) -> list[str]:
    if not p.pickup_allowed:
        return ["The discard pile may never be taken."]
    out = []
    if p.pickup_count is None:
        out.append("A player who takes the discard pile takes the whole pile.")
    elif p.pickup_count == 1:
        out.append("A player who takes the discard pile takes only its top card.")
    else:
        out.append(f"A player who takes the discard pile takes its top {p.pickup_count} "
                   "cards, or the whole pile if it is smaller.")
    if p.pickup_min_pile > 1:
        out.append(f"The pile may be taken only when it holds at least {p.pickup_min_pile} "
                   "cards.")
    rest = "the top card then joins the hand with the rest of the pile"
    if p.pickup_needs_pair and p.pickup_melds_top:
        out.append("To take it, the player must hold a natural pair matching the top card "
                   "and meld the pair with it at once.")
    elif p.pickup_needs_pair:
        out.append(f"To take it, the player must hold a natural pair matching the top card; "
                   f"{rest}.")
    elif p.pickup_melds_top:
        out.append("The player need not hold a pair matching the top card, but must meld "
                   "the top card at once.")
    else:
        out.append(f"The player need not hold a pair matching the top card; {rest}.")
    if p.pickup_black_three_blocks:
        out.append("A black 3 on top blocks the pile.")
    else:
        out.append("A black 3 on top does not block the pile.")
    if p.pickup_wild_top == "forbidden":
        out.append("A wild card on top blocks the pile.")
    elif p.pickup_wild_top == "like_pair":
        jokers = ", two jokers for a joker" if p.jokers_per_deck else ""
        out.append(f"A wild card on top may be taken only with two like wilds (two 2s for a "
                   f"2{jokers}), melded with it in an all-wild meld.")
    else:
        out.append("A wild card on top may be taken like any other card.")
    existing = {
        "complete_and_start": "If the side already has an unfinished meld of the top card's "
        "rank, the cards from the pickup must complete it into a book and also start a new "
        "meld.",
        "merge": "If the side already has an unfinished meld of the top card's rank, the "
        "top card goes onto that meld; any cards past a full book must form a new meld.",
        "forbidden": "The pile may not be taken when the side already has the top card's "
        "rank on the table.",
        "forbidden_if_completes": "The pile may not be taken when the top card would "
        "complete one of the side's melds into a book.",
    }
    out.append(existing[p.pickup_existing_meld])
    if p.pickup_opening_counts == "top_and_hand":
        out.append("When a side opens with a pickup, only the top card and cards from the "
                   "player's hand count toward the opening minimum.")
    else:
        out.append("When a side opens with a pickup, every picked-up card melded counts "
                   "toward the opening minimum.")
    if p.discard_after_pickup:
        out.append("A turn that began with taking the pile ends with a discard as usual.")
    else:
        out.append("A turn that began with taking the pile ends without a discard: the "
                   "player knocks.")
    return out


def _going_out(p: Profile) -> list[str]:
    books = _book_requirement(p)
    out = ["A player goes out by playing every card of their Foot, which ends the round."]
    if books:
        out.append(f"Going out needs {books}.")
    else:
        out.append("A side needs no books to go out.")
    if p.special_books_to_go_out and p.clean_books_to_go_out:
        out.append(f"The clean books of {_kinds_plural(p.special_books_to_go_out)} do not "
                   "count among the other clean books.")
    if _has_partners(p):
        condition = _PARTNER_CONDITION[p.partner_condition]
        if condition:
            out.append(f"Before a player may go out, every partner must have {condition}.")
        else:
            out.append("A player may go out whatever their partners have done with their "
                       "Foot.")
        if p.permission:
            ask = ("A player with partners must first ask them \"May I go out?\"; "
                   "if they agree, the player must go out.")
            out.append(ask)
            if p.permission_persists:
                out.append("Permission, once granted, lasts for the rest of the round.")
            else:
                out.append("Permission holds only for the turn it is asked in.")
        else:
            out.append("A player need not ask partners for permission to go out.")
    if p.final_discard == "either":
        out.append("The last card may be melded or discarded.")
    elif p.final_discard == "required":
        out.append("A player must go out with a discard: the last card may not be melded.")
    else:
        out.append("A player must go out by melding every card: the last card may not be "
                   "discarded.")
    if p.min_cards_kept == 0:
        out.append("A player in their Foot may run out of cards without going out.")
    else:
        out.append("A player in their Foot who is not going out must keep at least "
                   f"{_n(p.min_cards_kept, 'card')} after discarding.")
    return out


def _scoring(p: Profile) -> list[str]:
    out = [f"Card values: {_card_values(p)}.",
           "Cards melded on the table count for their side; cards left in a Hand or Foot "
           "at the end of the round count against it."]
    out.append(f"Each black 3 left in a Hand or Foot {_cost(p.black_three_penalty)}.")
    out.append(f"Each red 3 laid down scores {_points(p.red_three_bonus)}; each one left in a "
               f"Hand or Foot {_cost(p.red_three_penalty)}.")
    if p.red_three_bulk_count:
        out.append(f"A side that lays down {p.red_three_bulk_count} or more red 3s scores "
                   f"{_points(p.red_three_bulk_bonus)} for each instead.")
    books = [f"clean {p.clean_book_bonus}", f"dirty {p.dirty_book_bonus}"]
    if p.all_wild_melds:
        books.append(f"all-wild {p.wild_book_bonus}")
    out.append(f"Book bonuses: {', '.join(books)}.")
    if p.special_book_bonus:
        out.append(f"Instead of the clean-book bonus, a side scores {_special_book_bonus(p)}.")
    if p.going_out_bonus:
        out.append(f"Going out scores {_points(p.going_out_bonus)}.")
    else:
        out.append("Going out scores no bonus.")
    return out


# --- differences ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rule:
    """One rule for :func:`diff_profiles`: the parameters it reads and how it says them."""

    fields: tuple[str, ...]
    label: str
    says: Callable[[Profile], str]  # a verb phrase about a profile: "deals 13 cards"


def _yes_no(yes: str, no: str, name: str) -> Callable[[Profile], str]:
    return lambda p: yes if getattr(p, name) else no


def _pickup_count(p: Profile) -> str:
    if p.pickup_count is None:
        return "takes the whole pile"
    if p.pickup_count == 1:
        return "takes only the top card"
    return f"takes the top {p.pickup_count} cards (the whole pile if smaller)"


def _book_max(p: Profile) -> str:
    if p.book_max is None:
        return f"lets books grow past {p.book_size} cards with naturals only"
    if p.book_max == p.book_size:
        return f"closes books at exactly {p.book_max} cards"
    return f"lets books grow to {p.book_max} cards"


def _decks(p: Profile) -> str:
    if p.decks_per_player == 0:
        return f"uses {_shoe_rule(p)}"
    counts = ", ".join(f"{p.decks(n)} for {n} players"
                       for n in sorted({x.players for x in p.layouts}, reverse=True))
    return f"uses {_shoe_rule(p)} ({counts})"


def _red_three_bulk(p: Profile) -> str:
    if not p.red_three_bulk_count:
        return "has no bulk bonus"
    return (f"scores each red 3 at {p.red_three_bulk_bonus} once "
            f"{p.red_three_bulk_count} or more are laid down")


_DIFF_RULES: tuple[_Rule, ...] = (
    _Rule(("layouts",), "Seating",
          lambda p: "is played by " + _join((_seating_short(x) for x in p.layouts), "or")),
    _Rule(("decks_per_player", "extra_decks"), "Decks", _decks),
    _Rule(("jokers_per_deck",), "Jokers",
          lambda p: f"puts {_n(p.jokers_per_deck, 'joker')} in each deck"
          if p.jokers_per_deck else "plays without jokers"),
    _Rule(("hand_size",), "Hand size", lambda p: f"deals {_n(p.hand_size, 'card')}"),
    _Rule(("knee_size",), "Knee",
          lambda p: f"deals {_a(p.knee_size)} {p.knee_size}-card Knee" if p.knee_size
          else "deals no Knee"),
    _Rule(("foot_size",), "Foot size", lambda p: f"deals {_n(p.foot_size, 'card')}"),
    _Rule(("starter_cards",), "Starting the discard pile",
          lambda p: f"turns up {_n(p.starter_cards, 'card')}"),
    _Rule(("starter_rejected",), "Starter cards sent back to the stock",
          lambda p: "sends back " + (_kinds_plural(p.starter_rejected, "and")
                                     if p.starter_rejected else "none")),
    _Rule(("starter_check_all",), "Checking the starter cards",
          _yes_no("checks every starter card", "checks only the top starter card",
                  "starter_check_all")),
    _Rule(("first_player",), "First player",
          lambda p: f"starts with {_FIRST_PLAYER[p.first_player]}"),
    _Rule(("rounds",), "Rounds", lambda p: f"plays {_n(p.rounds, 'round')}"),
    _Rule(("opening_minimums",), "Opening minimums",
          lambda p: "needs " + ", ".join(map(str, p.opening_minimums)) + " by round"),
    _Rule(("draw_count",), "Stock draw", lambda p: f"draws {_n(p.draw_count, 'card')} a turn"),
    _Rule(("partial_last_draw",), "A stock too short for a draw",
          _yes_no("lets the player take what is left", "ends the round",
                  "partial_last_draw")),
    _Rule(("min_meld_size",), "Smallest meld",
          lambda p: f"needs {_n(p.min_meld_size, 'card')}"),
    _Rule(("book_size",), "Book size", lambda p: f"makes a book at {p.book_size} cards"),
    _Rule(("book_max",), "Largest book", _book_max),
    _Rule(("new_meld_after_book",), "New meld of a rank after its book",
          _yes_no("allows one", "does not allow one", "new_meld_after_book")),
    _Rule(("naturals_per_wild", "natural_margin", "max_wilds", "min_naturals_with_wild"),
          "Wild cards in a meld", lambda p: "says " + _wild_rule(p)),
    _Rule(("wild_free_ranks",), "Ranks that never take wilds",
          lambda p: f"has {_kinds_plural(p.wild_free_ranks)}" if p.wild_free_ranks
          else "has none"),
    _Rule(("all_wild_melds",), "All-wild melds",
          _yes_no("allows melds of wild cards only", "does not allow melds of wild cards only",
                  "all_wild_melds")),
    _Rule(("wild_meld_opens",), "An all-wild meld in the opening",
          _yes_no("counts it toward the opening", "does not count it", "wild_meld_opens")),
    _Rule(("pickup_allowed",), "Taking the discard pile",
          _yes_no("allows it", "never allows it", "pickup_allowed")),
    _Rule(("pickup_count",), "Cards taken from the pile", _pickup_count),
    _Rule(("pickup_min_pile",), "Cards the pile must hold to be taken",
          lambda p: f"needs {_n(p.pickup_min_pile, 'card')}"),
    _Rule(("pickup_needs_pair",), "Taking the pile",
          _yes_no("needs a natural pair matching the top card", "needs no matching pair",
                  "pickup_needs_pair")),
    _Rule(("pickup_melds_top",), "The top card of a taken pile",
          _yes_no("requires it to be melded at once", "puts it in the hand with the rest",
                  "pickup_melds_top")),
    _Rule(("pickup_black_three_blocks",), "A black 3 on top of the pile",
          _yes_no("blocks the pickup", "does not block it", "pickup_black_three_blocks")),
    _Rule(("pickup_wild_top",), "Taking the pile with a wild on top",
          lambda p: {"forbidden": "does not allow it",
                     "like_pair": "needs two like wilds melded with it",
                     "allowed": "allows it like any other card"}[p.pickup_wild_top]),
    _Rule(("pickup_existing_meld",), "Taking the pile when the side has already melded the rank",
          lambda p: {
              "complete_and_start": "requires the pickup to complete the unfinished meld "
              "and start a new one",
              "merge": "adds the cards to the unfinished meld (any surplus starts a new meld)",
              "forbidden": "does not allow it",
              "forbidden_if_completes": "does not allow it if the top card would complete "
              "a book",
          }[p.pickup_existing_meld]),
    _Rule(("pickup_opening_counts",), "Opening with a pickup",
          lambda p: "counts only the top card and hand cards"
          if p.pickup_opening_counts == "top_and_hand" else "counts every picked-up card"),
    _Rule(("discard_after_pickup",), "A turn that began with a pickup",
          _yes_no("ends with a discard", "ends without a discard (the player knocks)",
                  "discard_after_pickup")),
    _Rule(("clean_books_to_go_out", "dirty_books_to_go_out", "wild_books_to_go_out",
           "special_books_to_go_out"), "Books to go out",
          lambda p: "needs " + (_book_requirement(p) or "no books")),
    _Rule(("partner_condition",), "The partner's Foot before going out",
          lambda p: f"needs every partner to have {_PARTNER_CONDITION[p.partner_condition]}"
          if p.partner_condition != "none" else "has no condition"),
    _Rule(("permission",), "Permission to go out",
          _yes_no("requires asking partners \"May I go out?\"", "needs no permission",
                  "permission")),
    _Rule(("permission_persists",), "Permission once granted",
          _yes_no("keeps it for the rest of the round", "keeps it for that turn only",
                  "permission_persists")),
    _Rule(("final_discard",), "The last card when going out",
          lambda p: {"either": "lets it be melded or discarded",
                     "required": "requires it to be discarded",
                     "forbidden": "requires it to be melded"}[p.final_discard]),
    _Rule(("min_cards_kept",), "Cards to keep in the Foot when not going out",
          lambda p: f"requires at least {p.min_cards_kept} after the discard"
          if p.min_cards_kept else "requires none"),
    _Rule(("value_joker",), "Card value of a joker",
          lambda p: f"values it at {p.value_joker}"),
    _Rule(("value_two",), "Card value of a 2", lambda p: f"values it at {p.value_two}"),
    _Rule(("value_ace",), "Card value of an ace", lambda p: f"values it at {p.value_ace}"),
    _Rule(("value_eight_to_king",), "Card value of 8s to kings",
          lambda p: f"values them at {p.value_eight_to_king}"),
    _Rule(("value_four_to_seven",), "Card value of 4s to 7s",
          lambda p: f"values them at {p.value_four_to_seven}"),
    _Rule(("black_three_penalty",), "Each black 3 left in a Hand or Foot",
          lambda p: _charge(p.black_three_penalty)),
    _Rule(("red_three_bonus",), "Each red 3 laid down",
          lambda p: f"scores {_points(p.red_three_bonus)}"),
    _Rule(("red_three_penalty",), "Each red 3 left in a Hand or Foot",
          lambda p: _charge(p.red_three_penalty)),
    _Rule(("red_three_bulk_count", "red_three_bulk_bonus"), "Red 3 bulk bonus", _red_three_bulk),
    _Rule(("clean_book_bonus",), "Clean book bonus",
          lambda p: f"pays {p.clean_book_bonus}"),
    _Rule(("dirty_book_bonus",), "Dirty book bonus", lambda p: f"pays {p.dirty_book_bonus}"),
    _Rule(("wild_book_bonus",), "All-wild book bonus",
          lambda p: f"pays {p.wild_book_bonus}"),
    _Rule(("special_book_bonus",), "Special clean book bonuses",
          lambda p: f"pays {_special_book_bonus(p)}" if p.special_book_bonus else "has none"),
    _Rule(("going_out_bonus",), "Going-out bonus", lambda p: f"pays {p.going_out_bonus}"),
)


def _generic_rule(name: str) -> _Rule:
    """A plain rule for a parameter without a worded one: its label and TOML value."""
    info = FIELDS[name]

    def says(p: Profile) -> str:
        value = value_to_toml(info, getattr(p, name))
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            return "[" + ", ".join(map(str, value)) + "]"
        return str(value)

    return _Rule((name,), info.label, lambda p: "has " + says(p))


def _diff_rules() -> list[_Rule]:
    """The worded rules, plus a plain one for every parameter they do not cover."""
    covered = {name for rule in _DIFF_RULES for name in rule.fields}
    return [*_DIFF_RULES, *(_generic_rule(n) for n in FIELDS if n not in covered)]


def diff_profiles(a: Profile, b: Profile, *, names: tuple[str, str] | None = None,
                  ) -> list[str]:
    """Every rule in which two profiles differ, one sentence each, naming both profiles.

    Parameters that only make sense together (the wild ratio, the decks, the books to go
    out, the red-3 bulk bonus) are told in one sentence. Equal profiles give an empty list.
    ``names`` replaces the profile names in the sentences (two profiles may share a name).
    """
    name_a, name_b = names or (a.name, b.name)
    if name_a == name_b:
        name_a, name_b = f"{name_a} (first)", f"{name_b} (second)"
    out = []
    for rule in _diff_rules():
        if all(getattr(a, f) == getattr(b, f) for f in rule.fields):
            continue
        says_a, says_b = rule.says(a), rule.says(b)
        sep = "; " if any(c in says_a + says_b for c in ",;(") else ", "
        out.append(f"{rule.label}: {name_a} {says_a}{sep}{name_b} {says_b}.")
    return out


# --- data -------------------------------------------------------------------------------


def profile_json(p: Profile) -> dict[str, Any]:
    """A profile as JSON-ready data: its identity, its house-rule overrides, and every
    parameter by TOML section."""
    return {
        "name": p.name,
        "title": p.title,
        "source": p.source,
        "extends": p.extends,
        "overrides": {key: _json_value(value) for key, value in p.overrides},
        **profile_to_toml_values(p),
    }


def _json_value(value: Any) -> Any:
    """A TOML value as JSON data (TOML dates and times become strings)."""
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
