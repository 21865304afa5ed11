"""A readable rulebook made from a rule profile's parameters.

:func:`describe_profile` writes the rules of a profile as plain sentences grouped the way a
rule sheet is. Everything is generated from the profile's parameters and options, never from
its name, so a house-rule file reads as well as a built-in profile. How two profiles differ
is told by :mod:`handfoot.game.differences`, and every profile's parameters by the reference
page (:mod:`handfoot.game.reference`).

>>> from handfoot.game.loading import load_profile
>>> dict(describe_profile(load_profile("partnership-13")))["Deal"][0]
'Each player gets a 13-card Hand and a 13-card Foot.'
"""

from __future__ import annotations

from handfoot.game import cards
from handfoot.game.loading import OPTIONS
from handfoot.game.rules import FinalDiscard, PickupOpeningCounts, PickupWildTop, Profile
from handfoot.game.wording import (
    FIRST_PLAYER_WORDS,
    PARTNER_CONDITION_WORDS,
    article,
    count_ranges_text,
    dealer_bonus_text,
    kinds_text,
    player_counts,
    points_text,
    rounds_text,
    score_bands_text,
    seating_phrase,
    seating_phrases,
    shoe_text,
    special_book_bonus_text,
    wild_rule_with_limits,
)
from handfoot.game.wording import book_requirement_text as _book_requirement
from handfoot.game.wording import count_text as _n
from handfoot.game.wording import join as _join
from handfoot.game.wording import number as _num

__all__ = ["SECTION_TITLES", "TABLETOP_FIELDS", "describe_profile"]

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
        out.append(f"{count_ranges_text(player_counts(p))} players, each on their own{default}.")
    elif len(p.layouts) == 1:
        out.append(_sentence(seating_phrase(p.layout)))
    else:
        out.append(_sentence(f"{seating_phrase(p.layout)}, by default"))
        out.append(_sentence("other seatings: " + "; ".join(seating_phrases(p.layouts[1:]))))
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
        by_players = player_counts(p)

        def shoe(n: int) -> str:
            return (f"{_n(p.decks(n), 'deck')} ({_num(p.decks(n) * _deck_size(p))} cards) "
                    f"for {n} players")

        if len(by_players) > 3:
            counts = f"from {shoe(by_players[0])} to {shoe(by_players[-1])}"
        else:
            counts = _join((shoe(n) for n in reversed(by_players)), "and")
        jokers = f"with {_n(p.jokers_per_deck, 'joker')}" if p.jokers_per_deck else "no jokers"
        out.append(_sentence(f"{shoe_text(p)} ({_deck_size(p)} cards each, {jokers}): "
                             f"{counts}"))
    return out


def _deal(p: Profile) -> list[str]:
    out = []
    foot = f"{article(p.foot_size)} {p.foot_size}-card Foot"
    if len({p.hand_size_in(r) for r in range(1, p.rounds + 1)}) > 1:
        out.append(f"Each player gets a Hand of {_hand_sizes(p)}, and {foot}.")
    else:
        size = p.hand_size_in(1)
        out.append(f"Each player gets {article(size)} {size}-card Hand and {foot}.")
    if p.knee_size:
        who = _who(p)
        picks = ("it is added to the player's cards automatically" if p.knee_auto_pickup
                 else "the player picks it up themselves")
        once = (f"their side completes {_its(p)} first book" if who == "side"
                else "they complete their first book")
        out.append(f"Each player also gets {article(p.knee_size)} {p.knee_size}-card Knee, picked "
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
    out.append(_sentence(f"{FIRST_PLAYER_WORDS[p.first_player]} starts the first round; each "
                         "later round starts one seat further clockwise"))
    return out


def _game(p: Profile) -> list[str]:
    out = []
    who = _who(p)
    if p.target_score is not None:
        most = f" (at most {_n(p.rounds, 'round')})"
        out.append(f"Rounds are played until a {who} has {points_text(p.target_score)} or more at "
                   f"the end of a round{most}; the {who} with the highest total then wins.")
    elif p.rounds == 1:
        out.append("A game is a single round.")
    else:
        out.append(f"A game is {p.rounds} rounds; the {who} with the highest total wins.")
    clean = _clean_book_rounds(p)
    if p.score_band_minimums:
        out.append(f"A {who}'s opening minimum goes by {_its(p)} total before the round: "
                   f"{score_bands_text(p)}.")
    elif p.rounds == 1:
        if not clean:
            out.append(f"The opening minimum is {points_text(p.opening_minimum(1))}.")
    else:
        out.append(f"Opening minimums by round: {_opening_minimums(p)}.")
    if len(clean) < p.rounds:
        out.append(f"A {who}'s first melds in a round must together be worth at least the "
                   "opening minimum.")
    if clean:
        out.append(f"In {rounds_text(clean)}, a {who}'s opening must instead include a clean "
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
    out.append(_sentence(f"Wild cards: {wild_rule_with_limits(p)}"))
    if p.wild_free_ranks:
        out.append(f"Melds of {kinds_text(p.wild_free_ranks)} may never hold a wild card.")
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
        out.append(f"The clean books of {kinds_text(p.special_books_to_go_out)} do not "
                   "count among the other clean books.")
    if _has_partners(p):
        condition = PARTNER_CONDITION_WORDS[p.partner_condition]
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
    out.append(f"Each red 3 laid down scores {points_text(p.red_three_bonus)}; each one left in a "
               f"{packets} {_cost(p.red_three_penalty)}.")
    if p.red_three_bulk_count:
        out.append(f"A {_who_that(p)} lays down {p.red_three_bulk_count} or more red 3s scores "
                   f"{points_text(p.red_three_bulk_bonus)} for each instead.")
    books = [f"clean {_num(p.clean_book_bonus)}", f"dirty {_num(p.dirty_book_bonus)}"]
    if p.all_wild_melds:
        books.append(f"all-wild {_num(p.wild_book_bonus)}")
    out.append(f"Book bonuses: {', '.join(books)}.")
    if p.special_book_bonus:
        out.append(f"Instead of the clean-book bonus, a {who} scores {special_book_bonus_text(p)}.")
    if p.going_out_bonus:
        out.append(f"Going out scores {points_text(p.going_out_bonus)}.")
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
                   f"perfect-deal bonus of {points_text(p.perfect_deal_bonus)}{for_side}.")
    if p.dealer_bonus:
        out.append(f"The dealer scores {dealer_bonus_text(p)}.")
    if p.improper_meld_penalty:
        out.append(f"A {_who_that(p)} lays down an opening below the minimum takes the cards back "
                   f"and loses {points_text(p.improper_meld_penalty)}.")
    if p.knee_reminder_penalty and p.knee_size:
        out.append("A player who reminds a partner to pick up their Knee loses "
                   f"{points_text(p.knee_reminder_penalty)}.")
    if p.go_out_without_permission_penalty and p.permission and _has_partners(p):
        out.append("Trying to go out without permission, or after partners said no, costs "
                   f"{points_text(p.go_out_without_permission_penalty)}.")
    if p.failed_going_out_penalty and p.permission and _has_partners(p):
        out.append("Being unable to go out after asking for and receiving permission costs "
                   f"{points_text(p.failed_going_out_penalty)}.")
    if p.bad_pickup_penalty and p.pickup_allowed:
        out.append("Taking the pile without being able to meld its top card costs "
                   f"{points_text(p.bad_pickup_penalty)}.")
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


# --- helpers ----------------------------------------------------------------------------

_KIND_SPOKEN = (
    "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace",
    "2", "joker", "black 3", "red 3",
)


def _kind_with_article(kind: int) -> str:
    name = _KIND_SPOKEN[kind]
    return ("an " if name[0] in "8a" else "a ") + name


def _cost(n: int) -> str:
    return f"costs {points_text(n)}" if n else "costs nothing"


def _sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


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


def _deck_size(p: Profile) -> int:
    return 52 + p.jokers_per_deck


def _jokers_per_deck(p: Profile) -> str:
    if p.jokers_per_deck == 0:
        return "no jokers"
    return f"{_n(p.jokers_per_deck, 'joker')} each"


def _card_values(p: Profile) -> str:
    pairs = [("jokers", p.value_joker), ("2s", p.value_two), ("aces", p.value_ace),
             ("8s to kings", p.value_eight_to_king), ("4s to 7s", p.value_four_to_seven)]
    if not p.jokers_per_deck:
        pairs = pairs[1:]
    return ", ".join(f"{what} {_num(value)}" for what, value in pairs)


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
