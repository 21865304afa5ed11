"""A readable rulebook made from a rule profile's parameters.

:func:`describe_profile` writes the rules of a profile as plain sentences grouped the way a
rule sheet is, :func:`diff_profiles` says how two profiles differ, :func:`profile_json`
gives a profile as data, :func:`option_json` an optional rule, and
:func:`profiles_markdown` the reference page ``docs/profiles.md``. Everything is generated
from the profile's parameters and options, never from its name, so a house-rule file reads
as well as a built-in profile.

>>> from handfoot.game.loading import load_profile
>>> dict(describe_profile(load_profile("partnership-13")))["Deal"][0]
'Each player gets a 13-card Hand and a 13-card Foot.'

Regenerate the reference page with ``python -m handfoot.game.rulebook > docs/profiles.md``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from handfoot.game import cards
from handfoot.game.loading import (
    LOAD_REFUSALS,
    OPTIONS,
    OptionInfo,
    builtin_profile_names,
    load_profile,
    profile_to_toml_values,
    value_to_toml,
)
from handfoot.game.rules import (
    FIELDS,
    SECTIONS,
    FinalDiscard,
    Layout,
    PartnerCondition,
    PickupOpeningCounts,
    PickupWildTop,
    Profile,
)
from handfoot.game.wording import book_requirement_text as _book_requirement
from handfoot.game.wording import count_text as _n
from handfoot.game.wording import join as _join
from handfoot.game.wording import number as _num
from handfoot.game.wording import wild_ratio_terms as _wild_ratio_terms
from handfoot.game.wording import wild_rule_text

__all__ = [
    "SECTION_TITLES",
    "TABLETOP_FIELDS",
    "describe_profile",
    "diff_profiles",
    "option_json",
    "profile_json",
    "profiles_markdown",
    "toml_value",
    "wild_rule_text",
]

SECTION_TITLES = (
    "Players and cards",
    "Deal",
    "Game",
    "Melds and books",
    "Taking the discard pile",
    "Going out",
    "Scoring",
    "At a real table",
    "House options",
)
"""The sections of a rulebook, in order. The last two appear only when they have rules: the
tabletop-only scoring a profile sets, and the optional house rules it switches on."""

TABLETOP_FIELDS = (
    "perfect_deal_bonus",
    "dealer_bonus",
    "improper_meld_penalty",
    "knee_reminder_penalty",
    "go_out_without_permission_penalty",
    "failed_going_out_penalty",
    "bad_pickup_penalty",
)
"""Scoring parameters for things that cannot happen when the software deals and checks
every move: the software never applies them; they are for a score keeper at a real table."""

Section = tuple[str, list[str]]

# --- words ------------------------------------------------------------------------------

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

_KIND_SPOKEN = (
    "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace",
    "2", "joker", "black 3", "red 3",
)


def _word(n: int) -> str:
    """A small count in words ("one", "two"), larger ones in digits."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else _num(n)


def _a(n: int) -> str:
    """The article for a number as it is said: "an 11-card Foot", "a 13-card Hand"."""
    return "an" if str(n).startswith("8") or n in (11, 18) else "a"


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


def _pays(n: int) -> str:
    return f"pays {_num(n)}" if n else "pays nothing"


def _sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


def _rounds_list(rounds: Iterable[int]) -> str:
    """ "round 5", "rounds 4 and 5"."""
    xs = sorted(set(rounds))
    return ("round " if len(xs) == 1 else "rounds ") + _join(map(str, xs))


def _count_ranges(counts: Iterable[int]) -> str:
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
    return _join(parts, "or")


# --- shared descriptions ----------------------------------------------------------------


def _partner_seating(layout: Layout) -> str:
    if layout.seats_per_side == 1:
        return ""
    if layout.seats_per_side == 2 and layout.sides == 2:
        return " (partners sit opposite)"
    if layout.sides == 2:
        return " (partners sit in every other seat)"
    ordinals = {3: "third", 4: "fourth", 5: "fifth"}
    return f" (partners sit in every {ordinals.get(layout.sides, f'{layout.sides}th')} seat)"


def _seating(layout: Layout) -> str:
    return layout.describe() + _partner_seating(layout)


def _seatings(layouts: Iterable[Layout]) -> list[str]:
    """Seatings as phrases, the single-player ones folded into one: "2 to 8 players, each on
    their own"."""
    out: list[str] = []
    singles = [x.players for x in layouts if x.seats_per_side == 1]
    for layout in layouts:
        if layout.seats_per_side > 1:
            out.append(_seating(layout))
        elif layout.players == singles[0]:
            out.append(f"{_count_ranges(singles)} players, each on their own")
    return out


def _has_partners(p: Profile) -> bool:
    return any(layout.seats_per_side > 1 for layout in p.layouts)


def _who(p: Profile) -> str:
    """What scores and melds together: "side", or "player" when nobody has partners."""
    return "side" if _has_partners(p) else "player"


def _who_that(p: Profile) -> str:
    """ "side that" or "player who"."""
    return "side that" if _has_partners(p) else "player who"


def _its(p: Profile) -> str:
    return "its" if _has_partners(p) else "their"


def _packets(p: Profile, last: str = "or") -> str:
    """The packets a player is dealt: "Hand or Foot", "Hand, Knee or Foot"."""
    return _join(("Hand", "Knee", "Foot") if p.knee_size else ("Hand", "Foot"), last)


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


def _player_counts(p: Profile) -> list[int]:
    return sorted({layout.players for layout in p.layouts})


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


def _card_values(p: Profile) -> str:
    pairs = [("jokers", p.value_joker), ("2s", p.value_two), ("aces", p.value_ace),
             ("8s to kings", p.value_eight_to_king), ("4s to 7s", p.value_four_to_seven)]
    if not p.jokers_per_deck:
        pairs = pairs[1:]
    return ", ".join(f"{what} {_num(value)}" for what, value in pairs)


def _special_book_bonus(p: Profile) -> str:
    return _join(f"{_num(points)} for a clean book of {cards.KIND_PLURALS[rank]}"
                 for rank, points in p.special_book_bonus)


def _hand_sizes(p: Profile) -> str:
    """The Hand sizes by round: "13 cards in round 1, 15 in round 2 and 17 from round 3 on"."""
    sizes = list(p.hand_size_by_round[:p.rounds])
    parts = []
    for i, size in enumerate(sizes):
        r = i + 1
        cards_ = f"{size} cards" if i == 0 else str(size)
        last = i == len(sizes) - 1 and p.rounds > len(sizes)
        parts.append(f"{cards_} {'from round' if last else 'in round'} {r}"
                     + (" on" if last else ""))
    return _join(parts)


def _score_bands(p: Profile) -> str:
    """Minimums by score: "15 below 0 points, 60 from 0, 90 from 5,000"."""
    bands = p.score_band_minimums
    if len(bands) == 1:
        return f"{_num(bands[0][1])} whatever its total"
    parts = [f"{_num(bands[0][1])} below {_n(bands[1][0], 'point')}"]
    parts.extend(f"{_num(minimum)} from {_num(score)}" for score, minimum in bands[1:])
    return _join(parts)


def _clean_book_rounds(p: Profile) -> list[int]:
    """The rounds played whose opening needs a clean book instead of points."""
    return sorted({r for r in p.clean_book_opening_rounds if r <= p.rounds})


def _opening_minimums(p: Profile) -> str:
    """The opening minimums of the rounds played: "50, 90, 120, 150", "60, 90, 120, 150,
    none", "50, 90, 120, 150, then 150 in every later round"."""
    clean = _clean_book_rounds(p)
    shown = min(p.rounds, max(len(p.opening_minimums), *clean, 0))
    text = ", ".join("none" if r in clean else _num(p.opening_minimum(r))
                     for r in range(1, shown + 1))
    if p.rounds > shown:
        text += f", then {_num(p.opening_minimum(shown + 1))} in every later round"
    return text


def _dealer_bonus(p: Profile) -> str:
    """The dealer's bonus by error: "1,000 for an exact deal, 500 for one card off"."""
    groups: list[list[int]] = []  # [points, fewest off, most off]
    for off, points in enumerate(p.dealer_bonus):
        if groups and groups[-1][0] == points:
            groups[-1][2] = off
        else:
            groups.append([points, off, off])
    parts = []
    for points, lo, hi in groups:
        what = _num(points) if points else "nothing"
        if hi == 0:
            parts.append(f"{what} for an exact deal")
        elif lo == 0:
            parts.append(f"{what} for a deal up to {_n(hi, 'card')} off")
        elif lo == hi:
            parts.append(f"{what} for {_n(lo, 'card')} off")
        else:
            parts.append(f"{what} for {lo} {'or' if hi == lo + 1 else 'to'} {hi} cards off")
    if groups[-1][0]:
        parts.append("nothing for more")
    return _join(parts)


def _packet_total(p: Profile) -> str:
    """The cards of a player's packets: "the 22 cards of their Hand and Foot"."""
    sizes = [p.hand_size_in(r) for r in range(1, p.rounds + 1)]
    rest = p.knee_size + p.foot_size
    lo, hi = min(sizes) + rest, max(sizes) + rest
    packets = _packets(p, "and")
    if lo == hi:
        return f"the {lo} cards of their {packets}"
    return f"the cards of their {packets} ({lo} to {hi}, by round)"


def _second_melds_possible(p: Profile) -> bool:
    """Whether a side can ever have two melds of one rank (then one may be unfinished)."""
    if p.book_max is None:
        return p.second_meld_of_rank
    return p.new_meld_after_book or p.second_meld_of_rank


def _option_name(option: OptionInfo) -> str:
    return f"{option.title} ({option.id})"


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

    Every parameter of :data:`handfoot.game.rules.FIELDS` is told where it affects play; a
    parameter that cannot matter under the others (say, how many cards are taken from a
    pile that may never be taken) is left out. The section "At a real table" (tabletop-only
    scoring the software never applies) appears when the profile sets any, and "House
    options" when it switches optional rules on.
    """
    sections = [
        ("Players and cards", _players_and_cards(p)),
        ("Deal", _deal(p)),
        ("Game", _game(p)),
        ("Melds and books", _melds_and_books(p)),
        ("Taking the discard pile", _taking_the_pile(p)),
        ("Going out", _going_out(p)),
        ("Scoring", _scoring(p)),
        ("At a real table", _at_a_real_table(p)),
        ("House options", _house_options(p)),
    ]
    return [(title, lines) for title, lines in sections if lines]


def _players_and_cards(p: Profile) -> list[str]:
    out = []
    if all(layout.seats_per_side == 1 for layout in p.layouts):
        default = f" ({p.layout.players} by default)" if len(p.layouts) > 1 else ""
        out.append(f"{_count_ranges(_player_counts(p))} players, each on their own{default}.")
    elif len(p.layouts) == 1:
        out.append(_sentence(_seating(p.layout)))
    else:
        out.append(_sentence(f"{_seating(p.layout)}, by default"))
        out.append(_sentence("other seatings: " + "; ".join(_seatings(p.layouts[1:]))))
    if not _has_partners(p):
        out.append("Each player plays alone: their melds and their score are their own.")
    else:
        out.append("Partners form a side: they meld together and share one score.")
        if not all(layout.seats_per_side > 1 for layout in p.layouts):
            out.append("A player without partners is a side of their own.")
    if p.decks_per_player == 0:
        deck = f"{_deck_size(p)} cards ({_jokers_per_deck(p)})"
        decks = p.extra_decks
        out.append(f"{_n(decks, 'deck')} of {deck}: {_num(decks * _deck_size(p))} cards.")
    else:
        by_players = _player_counts(p)

        def shoe(n: int) -> str:
            return (f"{_n(p.decks(n), 'deck')} ({_num(p.decks(n) * _deck_size(p))} cards) "
                    f"for {n} players")

        if len(by_players) > 3:
            counts = f"from {shoe(by_players[0])} to {shoe(by_players[-1])}"
        else:
            counts = _join((shoe(n) for n in reversed(by_players)), "and")
        jokers = f"with {_n(p.jokers_per_deck, 'joker')}" if p.jokers_per_deck else "no jokers"
        out.append(_sentence(f"{_shoe_rule(p)} ({_deck_size(p)} cards each, {jokers}): "
                             f"{counts}"))
    return out


def _deal(p: Profile) -> list[str]:
    out = []
    foot = f"{_a(p.foot_size)} {p.foot_size}-card Foot"
    if len({p.hand_size_in(r) for r in range(1, p.rounds + 1)}) > 1:
        out.append(f"Each player gets a Hand of {_hand_sizes(p)}, and {foot}.")
    else:
        size = p.hand_size_in(1)
        out.append(f"Each player gets {_a(size)} {size}-card Hand and {foot}.")
    if p.knee_size:
        who = _who(p)
        picks = ("it is added to the player's cards automatically" if p.knee_auto_pickup
                 else "the player picks it up themselves")
        once = (f"their side completes {_its(p)} first book" if who == "side"
                else "they complete their first book")
        out.append(f"Each player also gets {_a(p.knee_size)} {p.knee_size}-card Knee, picked "
                   f"up once {once}; {picks}.")
        out.append("A player plays their Hand, then their Foot; the Knee joins the cards they "
                   "hold whenever it is picked up.")
    else:
        out.append("A player plays their Hand first, then their Foot.")
    if p.foot_at_once:
        out.append("A player who melds their last Hand card picks up the Foot at once and "
                   "plays on; one who discards it picks up the Foot on their next turn.")
    else:
        out.append("A player who empties their Hand, even by melding, picks up the Foot only on "
                   "their next turn, after drawing or taking the pile.")
    if p.announce_foot:
        out.append("A player must announce to the table that they are picking up their Foot "
                   "(it changes nothing in play or scoring).")
    else:
        out.append("Nobody needs to announce picking up their Foot.")
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
    who = _who(p)
    if p.target_score is not None:
        most = f" (at most {_n(p.rounds, 'round')})"
        out.append(f"Rounds are played until a {who} has {_points(p.target_score)} or more at "
                   f"the end of a round{most}; the {who} with the highest total then wins.")
    elif p.rounds == 1:
        out.append("A game is a single round.")
    else:
        out.append(f"A game is {p.rounds} rounds; the {who} with the highest total wins.")
    clean = _clean_book_rounds(p)
    if p.score_band_minimums:
        out.append(f"A {who}'s opening minimum goes by {_its(p)} total before the round: "
                   f"{_score_bands(p)}.")
    elif p.rounds == 1:
        if not clean:
            out.append(f"The opening minimum is {_points(p.opening_minimum(1))}.")
    else:
        out.append(f"Opening minimums by round: {_opening_minimums(p)}.")
    if len(clean) < p.rounds:
        out.append(f"A {who}'s first melds in a round must together be worth at least the "
                   "opening minimum.")
    if clean:
        out.append(f"In {_rounds_list(clean)}, a {who}'s opening must instead include a clean "
                   f"book of {p.book_size} cards laid from the hand, with no point minimum.")
    take = " or takes the discard pile" if p.pickup_allowed else ""
    out.append(f"A turn starts as the player draws {_n(p.draw_count, 'card')} from the "
               f"stock{take}; the player may then meld, and ends the turn with a discard.")
    if p.discard_locked_until_clean_book:
        locked = p.discard_locked_until_clean_book
        what = _join((_kind_with_article(k) for k in locked), "or")
        book = (f"a clean book of {cards.KIND_PLURALS[locked[0]]}" if len(locked) == 1
                else "a clean book of that rank")
        out.append(f"Nobody may discard {what} until some player has {book}; a player "
                   "holding nothing else may discard one.")
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
    if p.stalled_turns_each is not None:
        out.append(f"The round also ends, with no going-out bonus, once every player in turn "
                   f"has had {_n(p.stalled_turns_each, 'turn')} in a row in which nobody drew "
                   "from the stock or laid a card on the table.")
    return out


def _melds_and_books(p: Profile) -> list[str]:
    who, its = _who(p), _its(p)
    size = p.book_size
    naturals = (f" with at least {_n(p.new_meld_min_naturals, 'natural card')}"
                if p.new_meld_min_naturals else "")
    out = [f"A meld is at least {p.min_meld_size} cards of one rank from 4 to ace; "
           f"{_wild_cards(p)}.",
           f"A meld of {size} cards is a book: clean with no wild cards, dirty with any.",
           f"A {who} has at most one unfinished meld of each rank."]
    if p.book_max is None:
        if p.second_meld_of_rank:
            out.append(f"A book may grow past {size} cards with natural cards only; instead, "
                       f"the {who} may start a second meld of that rank once {its} first is a "
                       f"book{naturals}.")
        else:
            out.append(f"Books grow past {size} cards with natural cards only; there is no "
                       "second meld of a rank: further naturals of that rank go onto its book.")
    else:
        if p.book_max == size:
            out.append(f"A book holds exactly {size} cards: nothing more may be added.")
            once = f"Once a {who} has a book of a rank"
        else:
            out.append(f"A book may grow to at most {p.book_max} cards.")
            once = f"Once a {who}'s book of a rank holds {p.book_max} cards"
        if p.new_meld_after_book or p.second_meld_of_rank:
            out.append(f"{once}, {'they' if who == 'player' else 'it'} may start a new meld of "
                       f"that rank{naturals}.")
        else:
            out.append(f"{once}, no more cards of that rank may be melded: there is no second "
                       "meld of a rank.")
    out.append(_sentence(f"Wild cards: {_wild_rule(p)}"))
    if p.wild_free_ranks:
        out.append(f"Melds of {_kinds_plural(p.wild_free_ranks)} may never hold a wild card.")
    if p.all_wild_melds:
        out.append(f"A meld may be made of wild cards only; {size} wilds make an "
                   "all-wild book.")
        if p.wild_meld_opens:
            out.append(f"An all-wild meld may be part of a {who}'s opening and counts "
                       "toward it.")
        else:
            out.append(f"An all-wild meld may not be part of a {who}'s opening.")
    else:
        out.append("A meld may not be made of wild cards only.")
    return out


def _taking_the_pile(p: Profile) -> list[str]:
    if not p.pickup_allowed:
        return ["The discard pile may never be taken."]
    who, its = _who(p), _its(p)
    out = []
    if p.pickup_count is None:
        out.append("A player who takes the discard pile takes the whole pile.")
    elif p.pickup_count == 1:
        out.append("A player who takes the discard pile, instead of drawing, takes only its "
                   "top card.")
    else:
        out.append(f"A player who takes the discard pile takes its top {p.pickup_count} "
                   "cards, or the whole pile if it is smaller.")
    if p.pickup_min_pile > 1:
        out.append(f"The pile may be taken only when it holds at least {p.pickup_min_pile} "
                   "cards.")
    rest = ("the top card then simply goes into the hand" if p.pickup_count == 1
            else "the top card then joins the hand with the rest of the cards taken")
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
        out.append(f"No pair is needed: {rest}.")
    if p.pickup_black_three_blocks:
        out.append("A black 3 on top blocks the pile.")
    else:
        out.append("A black 3 on top does not block the pile.")
    if p.pickup_wild_top == PickupWildTop.FORBIDDEN:
        out.append("A wild card on top blocks the pile.")
    elif p.pickup_wild_top == PickupWildTop.LIKE_PAIR:
        jokers = ", two jokers for a joker" if p.jokers_per_deck else ""
        out.append(f"A wild card on top may be taken only with two like wilds (two 2s for a "
                   f"2{jokers}), melded with it in an all-wild meld.")
    else:
        out.append("A wild card on top may be taken like any other card.")
    existing = {
        "complete_and_start": f"If the {who} already has an unfinished meld of the top card's "
        "rank, the cards from the pickup must complete it into a book and also start a new "
        "meld.",
        "merge": f"If the {who} already has an unfinished meld of the top card's rank, the "
        "top card goes onto that meld; any cards past a full book must form a new meld.",
        "forbidden": f"The pile may not be taken when the {who} already has a meld or book of "
        "the top card's rank.",
        "forbidden_if_completes": "The pile may not be taken when its top card could "
        f"complete one of the {who}'s melds into a book (say, a 7th card on {its} 6-card "
        "meld).",
    }
    out.append(existing[p.pickup_existing_meld])
    if p.pickup_melds_top:
        if p.pickup_opening_counts == PickupOpeningCounts.TOP_AND_HAND:
            out.append(f"When a {who} opens with a pickup, only the top card and cards from the "
                       "player's hand count toward the opening minimum.")
        else:
            out.append(f"When a {who} opens with a pickup, every card taken from the pile may "
                       "be melded at once and counts toward the opening minimum.")
    if p.discard_after_pickup:
        out.append("A turn that began with taking the pile ends with a discard as usual.")
    else:
        out.append("A turn that began with taking the pile ends without a discard: the "
                   "player knocks.")
    return out


def _going_out(p: Profile) -> list[str]:
    books = _book_requirement(p)
    who = _who(p)
    if p.knee_size:
        out = ["A player goes out by playing their last card once they have picked up both "
               "their Knee and their Foot; going out ends the round."]
    else:
        out = ["A player goes out by playing every card of their Foot, which ends the round."]
    if books:
        out.append(f"Going out needs {books}.")
    else:
        out.append(f"A {who} needs no books to go out.")
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
                out.append("Permission, once granted, lasts for the rest of the round: the "
                           "player need not ask again.")
            else:
                out.append("Permission holds only for the turn it is asked in.")
        else:
            out.append("A player need not ask partners for permission to go out.")
    if p.final_discard == FinalDiscard.EITHER:
        out.append("The last card may be melded or discarded.")
    elif p.final_discard == FinalDiscard.REQUIRED:
        out.append("A player must go out with a discard: the last card may not be melded.")
    else:
        out.append("A player must go out by melding every card: the last card may not be "
                   "discarded.")
    if p.min_cards_kept == 0:
        out.append("A player in their Foot may hold no cards without going out: their turn "
                   "then ends, and they draw as usual on their next turn.")
    else:
        out.append("A player in their Foot who is not going out must keep at least "
                   f"{_n(p.min_cards_kept, 'card')} after discarding.")
    return out


def _scoring(p: Profile) -> list[str]:
    who, packets = _who(p), _packets(p)
    if who == "side":
        counts = (f"Cards melded on the table count for their side; cards left in a {packets} "
                  "at the end of the round count against it.")
    else:
        counts = ("Cards a player has melded count for them; cards left in their "
                  f"{packets} at the end of the round count against them.")
    out = [f"Card values: {_card_values(p)}.", counts]
    if p.unfinished_second_meld_negative and _second_melds_possible(p):
        out.append("The cards of a second meld of a rank that is not a book at the end of the "
                   f"round count against its {who} instead.")
    out.append(f"Each black 3 left in a {packets} {_cost(p.black_three_penalty)}.")
    out.append(f"Each red 3 laid down scores {_points(p.red_three_bonus)}; each one left in a "
               f"{packets} {_cost(p.red_three_penalty)}.")
    if p.red_three_bulk_count:
        out.append(f"A {_who_that(p)} lays down {p.red_three_bulk_count} or more red 3s scores "
                   f"{_points(p.red_three_bulk_bonus)} for each instead.")
    books = [f"clean {_num(p.clean_book_bonus)}", f"dirty {_num(p.dirty_book_bonus)}"]
    if p.all_wild_melds:
        books.append(f"all-wild {_num(p.wild_book_bonus)}")
    out.append(f"Book bonuses: {', '.join(books)}.")
    if p.special_book_bonus:
        out.append(f"Instead of the clean-book bonus, a {who} scores {_special_book_bonus(p)}.")
    if p.going_out_bonus:
        out.append(f"Going out scores {_points(p.going_out_bonus)}.")
    else:
        out.append("Going out scores no bonus.")
    return out


def _at_a_real_table(p: Profile) -> list[str]:
    """The tabletop-only scoring a profile sets (nonzero values only)."""
    who = _who(p)
    out = []
    if p.perfect_deal_bonus:
        for_side = " for their side" if who == "side" else ""
        out.append(f"A player who deals themselves exactly {_packet_total(p)} scores a "
                   f"perfect-deal bonus of {_points(p.perfect_deal_bonus)}{for_side}.")
    if p.dealer_bonus:
        out.append(f"The dealer scores {_dealer_bonus(p)}.")
    if p.improper_meld_penalty:
        out.append(f"A {_who_that(p)} lays down an opening below the minimum takes the cards back "
                   f"and loses {_points(p.improper_meld_penalty)}.")
    if p.knee_reminder_penalty and p.knee_size:
        out.append("A player who reminds a partner to pick up their Knee loses "
                   f"{_points(p.knee_reminder_penalty)}.")
    if p.go_out_without_permission_penalty and p.permission and _has_partners(p):
        out.append("Trying to go out without permission, or after partners said no, costs "
                   f"{_points(p.go_out_without_permission_penalty)}.")
    if p.failed_going_out_penalty and p.permission and _has_partners(p):
        out.append("Being unable to go out after asking for and receiving permission costs "
                   f"{_points(p.failed_going_out_penalty)}.")
    if p.bad_pickup_penalty and p.pickup_allowed:
        out.append("Taking the pile without being able to meld its top card costs "
                   f"{_points(p.bad_pickup_penalty)}.")
    if out:
        out.insert(0, "The software deals and checks every move, so it never applies the "
                      "following; they are for a score keeper at a real table.")
    return out


def _house_options(p: Profile) -> list[str]:
    """The optional house rules a profile switches on, by title and id."""
    out = []
    for key in p.options:
        option = OPTIONS[key]
        note = "; at a real table only" if option.tabletop else ""
        out.append(f"{option.title} ({option.id}{note}).")
    if out:
        out.insert(0, "These optional rules are on; the rules above already include them.")
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
    by_players = _player_counts(p)
    if len(by_players) > 3:
        lo, hi = by_players[0], by_players[-1]
        counts = f"from {p.decks(lo)} for {lo} players to {p.decks(hi)} for {hi} players"
    else:
        counts = ", ".join(f"{p.decks(n)} for {n} players" for n in reversed(by_players))
    return f"uses {_shoe_rule(p)} ({counts})"


def _red_three_bulk(p: Profile) -> str:
    if not p.red_three_bulk_count:
        return "has no bulk bonus"
    return (f"scores each red 3 at {_num(p.red_three_bulk_bonus)} once "
            f"{p.red_three_bulk_count} or more are laid down")


def _seating_diff(p: Profile) -> str:
    phrases = [phrase.replace(" players, each on their own", " single players")
               for phrase in _seatings(p.layouts)]
    if len(phrases) == 1:
        return "is played by " + phrases[0]
    return "is played by " + "; ".join(phrases[:-1]) + "; or " + phrases[-1]


def _hand_by_round(p: Profile) -> str:
    if not p.hand_size_by_round:
        return "deals the same Hand every round"
    sizes = ", ".join(map(str, p.hand_size_by_round))
    return f"deals Hands of {sizes} cards by round (later rounds the last)"


_DIFF_RULES: tuple[_Rule, ...] = (
    _Rule(("layouts",), "Seating", _seating_diff),
    _Rule(("decks_per_player", "extra_decks"), "Decks", _decks),
    _Rule(("jokers_per_deck",), "Jokers",
          lambda p: f"puts {_n(p.jokers_per_deck, 'joker')} in each deck"
          if p.jokers_per_deck else "plays without jokers"),
    _Rule(("hand_size",), "Hand size", lambda p: f"deals {_n(p.hand_size, 'card')}"),
    _Rule(("hand_size_by_round",), "Hand size by round", _hand_by_round),
    _Rule(("knee_size",), "Knee",
          lambda p: f"deals {_a(p.knee_size)} {p.knee_size}-card Knee" if p.knee_size
          else "deals no Knee"),
    _Rule(("knee_auto_pickup",), "Picking up the Knee",
          _yes_no("does it for the player automatically", "leaves it to the player",
                  "knee_auto_pickup")),
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
    _Rule(("rounds",), "Rounds", lambda p: f"plays {_n(p.rounds, 'round')}"
          + (" at most" if p.target_score is not None else "")),
    _Rule(("target_score",), "Target score",
          lambda p: f"plays until a side reaches {_num(p.target_score)}"
          if p.target_score is not None else "plays the set number of rounds"),
    _Rule(("opening_minimums",), "Opening minimums",
          lambda p: "needs " + ", ".join(map(_num, p.opening_minimums)) + " by round"),
    _Rule(("score_band_minimums",), "Opening minimums by score",
          lambda p: f"sets them by a side's total ({_score_bands(p)})"
          if p.score_band_minimums else "sets them by round only"),
    _Rule(("clean_book_opening_rounds",), "A clean book in the opening",
          lambda p: f"requires one, with no point minimum, in "
          f"{_rounds_list(p.clean_book_opening_rounds)}"
          if p.clean_book_opening_rounds else "never requires one"),
    _Rule(("foot_at_once",), "Picking up the Foot after melding the last Hand card",
          _yes_no("does it at once", "waits for the next turn's draw or pickup",
                  "foot_at_once")),
    _Rule(("discard_locked_until_clean_book",), "Discards locked until a clean book",
          lambda p: f"locks {_kinds_plural(p.discard_locked_until_clean_book)}"
          if p.discard_locked_until_clean_book else "locks none"),
    _Rule(("announce_foot",), "Announcing the Foot",
          _yes_no("requires it", "does not require it", "announce_foot")),
    _Rule(("draw_count",), "Stock draw", lambda p: f"draws {_n(p.draw_count, 'card')} a turn"),
    _Rule(("partial_last_draw",), "A stock too short for a draw",
          _yes_no("lets the player take what is left", "ends the round",
                  "partial_last_draw")),
    _Rule(("stalled_turns_each",), "Turns with no draw and no meld",
          lambda p: f"ends the round after {_n(p.stalled_turns_each, 'turn')} of every "
          "player in a row" if p.stalled_turns_each is not None else "never ends the round for it"),
    _Rule(("min_meld_size",), "Smallest meld",
          lambda p: f"needs {_n(p.min_meld_size, 'card')}"),
    _Rule(("book_size",), "Book size", lambda p: f"makes a book at {p.book_size} cards"),
    _Rule(("book_max",), "Largest book", _book_max),
    _Rule(("new_meld_after_book",), "New meld of a rank after its book",
          _yes_no("allows one", "does not allow one", "new_meld_after_book")),
    _Rule(("new_meld_min_naturals",), "Naturals in a new meld beside a book",
          lambda p: f"needs at least {p.new_meld_min_naturals}"
          if p.new_meld_min_naturals else "needs no more than any meld"),
    _Rule(("second_meld_of_rank",), "A second meld of a rank beside a growing book",
          _yes_no("allows one", "does not allow one", "second_meld_of_rank")),
    _Rule(("unfinished_second_meld_negative",), "An unfinished second meld at the round's end",
          _yes_no("counts against its side", "counts for its side",
                  "unfinished_second_meld_negative")),
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
          _yes_no("requires it to be melded at once", "puts it in the hand",
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
          if p.pickup_opening_counts == PickupOpeningCounts.TOP_AND_HAND
          else "counts every picked-up card"),
    _Rule(("discard_after_pickup",), "A turn that began with a pickup",
          _yes_no("ends with a discard", "ends without a discard (the player knocks)",
                  "discard_after_pickup")),
    _Rule(("clean_books_to_go_out", "dirty_books_to_go_out", "wild_books_to_go_out",
           "special_books_to_go_out"), "Books to go out",
          lambda p: "needs " + (_book_requirement(p) or "no books")),
    _Rule(("partner_condition",), "The partner's Foot before going out",
          lambda p: f"needs every partner to have {_PARTNER_CONDITION[p.partner_condition]}"
          if p.partner_condition != PartnerCondition.NONE else "has no condition"),
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
          if p.min_cards_kept else "requires none (a player may hold no cards)"),
    _Rule(("value_joker",), "Card value of a joker",
          lambda p: f"values it at {_num(p.value_joker)}"),
    _Rule(("value_two",), "Card value of a 2", lambda p: f"values it at {_num(p.value_two)}"),
    _Rule(("value_ace",), "Card value of an ace", lambda p: f"values it at {_num(p.value_ace)}"),
    _Rule(("value_eight_to_king",), "Card value of 8s to kings",
          lambda p: f"values them at {_num(p.value_eight_to_king)}"),
    _Rule(("value_four_to_seven",), "Card value of 4s to 7s",
          lambda p: f"values them at {_num(p.value_four_to_seven)}"),
    _Rule(("black_three_penalty",), "Each black 3 left in a packet",
          lambda p: _charge(p.black_three_penalty)),
    _Rule(("red_three_bonus",), "Each red 3 laid down",
          lambda p: f"scores {_points(p.red_three_bonus)}"),
    _Rule(("red_three_penalty",), "Each red 3 left in a packet",
          lambda p: _charge(p.red_three_penalty)),
    _Rule(("red_three_bulk_count", "red_three_bulk_bonus"), "Red 3 bulk bonus", _red_three_bulk),
    _Rule(("clean_book_bonus",), "Clean book bonus", lambda p: _pays(p.clean_book_bonus)),
    _Rule(("dirty_book_bonus",), "Dirty book bonus", lambda p: _pays(p.dirty_book_bonus)),
    _Rule(("wild_book_bonus",), "All-wild book bonus", lambda p: _pays(p.wild_book_bonus)),
    _Rule(("special_book_bonus",), "Special clean book bonuses",
          lambda p: f"pays {_special_book_bonus(p)}" if p.special_book_bonus else "has none"),
    _Rule(("going_out_bonus",), "Going-out bonus", lambda p: _pays(p.going_out_bonus)),
    # tabletop only
    _Rule(("perfect_deal_bonus",), "Perfect-deal bonus (at a real table only)",
          lambda p: _pays(p.perfect_deal_bonus)),
    _Rule(("dealer_bonus",), "Dealer accuracy bonus (at a real table only)",
          lambda p: f"pays {_dealer_bonus(p)}" if p.dealer_bonus else "has none"),
    _Rule(("improper_meld_penalty",), "Opening below the minimum (at a real table only)",
          lambda p: _charge(p.improper_meld_penalty)),
    _Rule(("knee_reminder_penalty",), "Reminding a partner of the Knee (at a real table only)",
          lambda p: _charge(p.knee_reminder_penalty)),
    _Rule(("go_out_without_permission_penalty",),
          "Going out without permission (at a real table only)",
          lambda p: _charge(p.go_out_without_permission_penalty)),
    _Rule(("failed_going_out_penalty",), "Failing to go out after permission "
          "(at a real table only)", lambda p: _charge(p.failed_going_out_penalty)),
    _Rule(("bad_pickup_penalty",), "Taking the pile without melding its top card "
          "(at a real table only)", lambda p: _charge(p.bad_pickup_penalty)),
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
    out, the red-3 bulk bonus) are told in one sentence. Each optional rule that one profile
    switches on and the other does not gets a sentence too. Equal profiles give an empty
    list. ``names`` replaces the profile names in the sentences (two profiles may share a
    name).
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
    for key, option in OPTIONS.items():
        on_a, on_b = key in a.options, key in b.options
        if on_a != on_b:
            state_a, state_b = ("on", "off") if on_a else ("off", "on")
            out.append(f"House option {option.id} ({option.title}): {name_a} has it "
                       f"{state_a}, {name_b} has it {state_b}.")
    return out


# --- data -------------------------------------------------------------------------------


def profile_json(p: Profile) -> dict[str, Any]:
    """A profile as JSON-ready data: its identity, its house-rule overrides, the options it
    switches on (as an ``[options]`` table), and every parameter by TOML section."""
    return {
        "name": p.name,
        "title": p.title,
        "source": p.source,
        "extends": p.extends,
        "overrides": {key: _json_value(value) for key, value in p.overrides},
        "options": {key: True for key in p.options},
        **profile_to_toml_values(p),
    }


def option_json(option: OptionInfo) -> dict[str, Any]:
    """An optional rule as JSON-ready data, with the parameters it sets as TOML values."""
    return {
        "id": option.id,
        "key": option.key,
        "title": option.title,
        "groups": list(option.groups),
        "meant_for": list(option.meant_for),
        "tabletop": option.tabletop,
        "description": option.description,
        "source": option.source,
        "sets": {param: _json_value(value) for param, value in option.sets},
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


def toml_value(value: Any) -> str:
    """A value written as TOML: ``true``, ``"all"``, ``[50, 90]``, ``{ "5" = 3000 }``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)} = {toml_value(v)}"
                                for k, v in value.items()) + " }"
    return json.dumps(str(value), ensure_ascii=False)


def option_sets_text(option: OptionInfo) -> str:
    """The parameters an option sets, as TOML: ``rounds = 5, clean_book_opening_rounds = [5]``."""
    return ", ".join(f"{param} = {toml_value(value)}" for param, value in option.sets)


# --- the reference page -----------------------------------------------------------------

_SECTION_INTROS = {
    "players": "Who plays and with how many cards.",
    "deal": "The packets each player gets and how the discard pile starts.",
    "game": "Rounds, opening minimums and the turn.",
    "melds": "Melds, books and wild cards.",
    "pickup": "Taking the discard pile.",
    "going_out": "What a side needs to go out, and how.",
    "scoring": "Card values and bonuses. The parameters marked *tabletop only* score things "
               "that cannot happen when the software deals and checks every move: the "
               "software never applies them; they are for a score keeper at a real table.",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def profiles_markdown() -> str:
    """``docs/profiles.md``: every parameter with its value in every built-in profile, and
    every optional rule, generated from the profiles and ``options.toml``."""
    names = builtin_profile_names()
    profiles = [load_profile(name) for name in names]
    lines = [
        "# Rule profiles",
        "",
        "<!-- Generated from the profiles and options.toml by "
        "`python -m handfoot.game.rulebook > docs/profiles.md`; do not edit by hand. -->",
        "",
        "A profile is a TOML file with the sections below. A house-rule file names the "
        "profile it changes with `extends = \"<profile or file>\"` and gives only the "
        "parameters it changes, and the optional rules it switches on in an `[options]` "
        "table; `name`, `title` and `source` are optional text. Card kinds are written "
        "`\"4\"` … `\"10\"`, `\"J\"`, `\"Q\"`, `\"K\"`, `\"A\"`, `\"2\"`, `\"joker\"`, "
        "`\"black 3\"`, `\"red 3\"`. Seatings are `\"SIDESxSEATS\"`: `\"2x2\"` is two sides "
        "of two partners (partners never sit side by side), `\"2x1\"` two players on their "
        "own; the first seating listed is the default.",
        "",
        "`handfoot rules show NAME` tells a profile's rules in words, `handfoot rules diff A B` "
        "how two differ, and `handfoot rules options` lists the optional rules.",
        "",
        "## The built-in profiles",
        "",
        "| profile | title | source |",
        "|---|---|---|",
    ]
    for p in profiles:
        lines.append(f"| `{p.name}` | {_cell(p.title)} | {_cell(p.source)} |")
    lines += [
        "",
        "Every built-in profile lists every parameter explicitly. The tables below give "
        "each parameter's meaning and its value in every built-in profile.",
    ]
    header = "| parameter | meaning | " + " | ".join(f"`{n}`" for n in names) + " |"
    rule = "|---|---|" + "---|" * len(names)
    for section in SECTIONS:
        lines += ["", f"## [{section}]", "", _SECTION_INTROS[section], "", header, rule]
        for name, info in FIELDS.items():
            if info.section != section:
                continue
            meaning = info.doc
            if info.choices:
                meaning += " One of: " + ", ".join(f"`{c}`" for c in info.choices) + "."
            if name in TABLETOP_FIELDS:
                meaning = f"*Tabletop only.* {meaning}"
            values = " | ".join(
                f"`{toml_value(value_to_toml(info, getattr(p, name)))}`" for p in profiles)
            lines.append(f"| `{name}` | {_cell(meaning)} | {values} |")
    lines += _every_round_ends_markdown(profiles)
    lines += _load_refusals_markdown()
    lines += _options_markdown()
    return "\n".join(lines) + "\n"


def _every_round_ends_markdown(profiles: list[Profile]) -> list[str]:
    """The resolution that makes every round finite (``stalled_turns_each``), with why."""
    lines = [
        "",
        "## Every round ends",
        "",
        "A resolution in the style of RULES-MATRIX §3 (issue 13).",
        "",
        "- Problem: in `remastered-singles` a pickup takes the pile's top card into the hand "
        "(A-08) and a player may hold no cards (001:84). Players who cannot go out yet may "
        "take the top card and discard it again, turn after turn: nothing is drawn, nothing "
        "is laid and the round never ends (hard bots did so in 16 of 53 two-player games). "
        "The seeds give no rule for it: 001:14 expects the stock never to run out, and the "
        "stock rules (A-13, A-36, A-46) need a draw. Forbidding the discard of the card just "
        "taken is not enough: three cards can go round between two players.",
        "- Resolution: `stalled_turns_each`. A turn is *stalled* unless its player drew from "
        "the stock or laid cards on the table for good (a meld still on the table at the "
        "turn's end, the top card melded with a pickup, a red 3); melds taken back with "
        "Undo lay nothing. When a turn ends and the stalled turns in a row reach "
        "`stalled_turns_each` × players, the round ends and is scored as when the stock "
        "runs out: no going-out bonus, the cards left in the packets count against. Records "
        "store the round's end as `\"stalled\"`.",
        "- Why every round ends: every turn starts with a draw or a pickup. A draw takes at "
        "least one card from the stock, and nothing puts cards back into it during a round "
        "(no profile reshuffles the pile, E3; a rejected starter goes back only while "
        "dealing). Cards on the table stay there for the round (Undo takes back only the "
        "current turn's melds). Where every pickup melds the top card (`pickup_melds_top = "
        "true`) each pickup lays a card, so with S cards in the stock after the deal and C in "
        "the shoe a round has at most S + C + 1 turns (the last may find the stock too "
        "short), and `\"none\"` is safe. Where the top "
        "card joins the hand, loading refuses `\"none\"` (unless `pickup_allowed` is false); "
        "with N = `stalled_turns_each` × players, fewer than N stalled turns come between "
        "two turns that draw or lay and at most N follow the last, so a round has at most "
        "(S + C + 1) × N turns. "
        "`tests/test_liveness.py` plays every profile and seating under random, easy, "
        "normal and hard bots and a pile-cycling adversary and checks this bound.",
        "- Why 3: counted in turns of every player the limit means the same at every "
        "seating: three times round the table with nobody drawing or laying. Bots in "
        "ordinary play never reach it (they do not take a card they would have to throw "
        "back; measured: no stalled round in 896 rounds of random, easy, normal and hard "
        "bots at every seating of `remastered-singles`); only a table that passes the "
        "pile's top card round does.",
        "",
        "| profile | `stalled_turns_each` | why |",
        "|---|---|---|",
    ]
    for p in profiles:
        if p.stalled_turns_each is not None:
            why = "the top card of a pickup joins the hand"
        elif not p.pickup_allowed:
            why = "the pile is never taken: every turn draws"
        else:
            why = "every pickup melds the top card"
        value = toml_value(value_to_toml(FIELDS["stalled_turns_each"], p.stalled_turns_each))
        lines.append(f"| `{p.name}` | `{value}` | {why} |")
    return lines


def _load_refusals_markdown() -> list[str]:
    """What loading refuses, beyond each value's type and range (``LOAD_REFUSALS``)."""
    lines = [
        "",
        "## What loading refuses",
        "",
        "Loading checks every key, type and range, and every combination that could not "
        "make a finite, playable game, naming the file and the key to change; whatever loads "
        "plays to its end (`tests/test_generated_profiles.py` plays generated rules). Beyond "
        "types and ranges it refuses:",
        "",
    ]
    lines += [f"- `{key}`: {rule}." for key, rule in LOAD_REFUSALS]
    return lines


def _options_markdown() -> list[str]:
    groups: dict[str, list[OptionInfo]] = {}
    for option in OPTIONS.values():
        for group in option.groups:
            groups.setdefault(group, []).append(option)
    lines = [
        "",
        "## Optional rules",
        "",
        "The Optional Alternate Rules of the Hand & Foot Remastered rulebook (seed 001, "
        "lines 220-287; RULES-MATRIX §5) are options. None is on in a built-in profile. A "
        "house-rule file switches options on in its `[options]` table:",
        "",
        "```toml",
        "extends = \"remastered-teams\"",
        "",
        "[options]",
        "sevens_from_hell = true",
        "first_to_10000 = true",
        "",
        "[game]",
        "rounds = 20            # an explicit parameter wins over an option's value",
        "```",
        "",
        "- An option sets the parameters listed under it. Parameters the file gives "
        "explicitly are applied after the options, so they win (above, the game to 10,000 "
        "stops after 20 rounds at most).",
        "- Options that share an exclusive group are alternatives: switching two of them on "
        "is an error naming both.",
        "- An option's value must be `true` or `false`; `false` leaves it off. An option "
        "switched on by the profile a file extends cannot be switched off again: extend the "
        "profile below it instead.",
        "- `--set KEY=true` on the command line switches an option on as a house-rule file "
        "would.",
        "- *Meant for* names the profiles the rulebook offers an option for; the loader does "
        "not enforce it.",
        "- A *tabletop* option changes nothing the software can see happen (it deals and "
        "checks every move); it gives a score keeper at a real table its values.",
        "",
        "Exclusive groups:",
        "",
    ]
    for group, members in groups.items():
        lines.append(f"- {group}: " + ", ".join(f"`{o.key}` ({o.id})" for o in members))
    lines += ["", "| id | key | title | group | sets | meant for | tabletop |",
              "|---|---|---|---|---|---|---|"]
    for option in OPTIONS.values():
        group = ", ".join(option.groups) or "–"
        meant = ", ".join(f"`{n}`" for n in option.meant_for)
        tabletop = "yes" if option.tabletop else "no"
        lines.append(f"| {option.id} | `{option.key}` | {_cell(option.title)} | {group} | "
                     f"`{_cell(option_sets_text(option))}` | {meant} | {tabletop} |")
    for option in OPTIONS.values():
        lines += [
            "",
            f"### {option.id} `{option.key}`: {option.title}",
            "",
            option.description,
            "",
            f"- Sets: `{option_sets_text(option)}`",
            "- Exclusive group: " + (", ".join(option.groups) or "none"),
            "- Meant for: " + ", ".join(f"`{n}`" for n in option.meant_for),
            f"- Source: {option.source}",
        ]
        if option.tabletop:
            lines.append("- Tabletop: yes; the software deals and checks every move, so it "
                         "never applies what this option scores.")
    return lines


if __name__ == "__main__":
    sys.stdout.write(profiles_markdown())
