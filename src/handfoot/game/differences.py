"""How two rule profiles differ, one sentence for each rule in which they differ.

:func:`diff_profiles` names both profiles in every sentence. Parameters that only make sense
together are told in one sentence; a parameter without a worded rule of its own is told
plainly, by its label and TOML value, so no parameter is ever left out. Phrases the rulebook
says too come from :mod:`handfoot.game.wording`.

>>> from handfoot.game.loading import load_profile
>>> diff_profiles(load_profile("partnership-13"), load_profile("biegames"))[2]
'Hand size: partnership-13 deals 13 cards, biegames deals 11 cards.'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from handfoot.game.loading import OPTIONS, value_to_toml
from handfoot.game.rules import FIELDS, PartnerCondition, PickupOpeningCounts, Profile
from handfoot.game.wording import (
    FIRST_PLAYER_WORDS,
    PARTNER_CONDITION_WORDS,
    article,
    dealer_bonus_text,
    kinds_text,
    player_counts,
    points_text,
    rounds_text,
    score_bands_text,
    seating_phrases,
    shoe_text,
    special_book_bonus_text,
    wild_rule_with_limits,
)
from handfoot.game.wording import book_requirement_text as _book_requirement
from handfoot.game.wording import count_text as _n
from handfoot.game.wording import number as _num

__all__ = ["diff_profiles"]


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


# --- the rules, one by one --------------------------------------------------------------


@dataclass(frozen=True)
class _Rule:
    """One rule for :func:`diff_profiles`: the parameters it reads and how it says them."""

    fields: tuple[str, ...]
    label: str
    says: Callable[[Profile], str]  # a verb phrase about a profile: "deals 13 cards"


def _yes_no(yes: str, no: str, name: str) -> Callable[[Profile], str]:
    return lambda p: yes if getattr(p, name) else no


def _charge(n: int) -> str:
    return f"charges {points_text(n)}" if n else "charges nothing"


def _pays(n: int) -> str:
    return f"pays {_num(n)}" if n else "pays nothing"


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
        return f"uses {shoe_text(p)}"
    by_players = player_counts(p)
    if len(by_players) > 3:
        lo, hi = by_players[0], by_players[-1]
        counts = f"from {p.decks(lo)} for {lo} players to {p.decks(hi)} for {hi} players"
    else:
        counts = ", ".join(f"{p.decks(n)} for {n} players" for n in reversed(by_players))
    return f"uses {shoe_text(p)} ({counts})"


def _red_three_bulk(p: Profile) -> str:
    if not p.red_three_bulk_count:
        return "has no bulk bonus"
    return (f"scores each red 3 at {_num(p.red_three_bulk_bonus)} once "
            f"{p.red_three_bulk_count} or more are laid down")


def _seating_diff(p: Profile) -> str:
    phrases = [phrase.replace(" players, each on their own", " single players")
               for phrase in seating_phrases(p.layouts)]
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
          lambda p: f"deals {article(p.knee_size)} {p.knee_size}-card Knee" if p.knee_size
          else "deals no Knee"),
    _Rule(("knee_auto_pickup",), "Picking up the Knee",
          _yes_no("does it for the player automatically", "leaves it to the player",
                  "knee_auto_pickup")),
    _Rule(("foot_size",), "Foot size", lambda p: f"deals {_n(p.foot_size, 'card')}"),
    _Rule(("starter_cards",), "Starting the discard pile",
          lambda p: f"turns up {_n(p.starter_cards, 'card')}"),
    _Rule(("starter_rejected",), "Starter cards sent back to the stock",
          lambda p: "sends back " + (kinds_text(p.starter_rejected, "and")
                                     if p.starter_rejected else "none")),
    _Rule(("starter_check_all",), "Checking the starter cards",
          _yes_no("checks every starter card", "checks only the top starter card",
                  "starter_check_all")),
    _Rule(("first_player",), "First player",
          lambda p: f"starts with {FIRST_PLAYER_WORDS[p.first_player]}"),
    _Rule(("rounds",), "Rounds", lambda p: f"plays {_n(p.rounds, 'round')}"
          + (" at most" if p.target_score is not None else "")),
    _Rule(("target_score",), "Target score",
          lambda p: f"plays until a side reaches {_num(p.target_score)}"
          if p.target_score is not None else "plays the set number of rounds"),
    _Rule(("opening_minimums",), "Opening minimums",
          lambda p: "needs " + ", ".join(map(_num, p.opening_minimums)) + " by round"),
    _Rule(("score_band_minimums",), "Opening minimums by score",
          lambda p: f"sets them by a side's total ({score_bands_text(p)})"
          if p.score_band_minimums else "sets them by round only"),
    _Rule(("clean_book_opening_rounds",), "A clean book in the opening",
          lambda p: f"requires one, with no point minimum, in "
          f"{rounds_text(p.clean_book_opening_rounds)}"
          if p.clean_book_opening_rounds else "never requires one"),
    _Rule(("foot_at_once",), "Picking up the Foot after melding the last Hand card",
          _yes_no("does it at once", "waits for the next turn's draw or pickup",
                  "foot_at_once")),
    _Rule(("discard_locked_until_clean_book",), "Discards locked until a clean book",
          lambda p: f"locks {kinds_text(p.discard_locked_until_clean_book)}"
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
          "Wild cards in a meld", lambda p: "says " + wild_rule_with_limits(p)),
    _Rule(("wild_free_ranks",), "Ranks that never take wilds",
          lambda p: f"has {kinds_text(p.wild_free_ranks)}" if p.wild_free_ranks
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
          lambda p: f"needs every partner to have {PARTNER_CONDITION_WORDS[p.partner_condition]}"
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
          lambda p: f"scores {points_text(p.red_three_bonus)}"),
    _Rule(("red_three_penalty",), "Each red 3 left in a packet",
          lambda p: _charge(p.red_three_penalty)),
    _Rule(("red_three_bulk_count", "red_three_bulk_bonus"), "Red 3 bulk bonus", _red_three_bulk),
    _Rule(("clean_book_bonus",), "Clean book bonus", lambda p: _pays(p.clean_book_bonus)),
    _Rule(("dirty_book_bonus",), "Dirty book bonus", lambda p: _pays(p.dirty_book_bonus)),
    _Rule(("wild_book_bonus",), "All-wild book bonus", lambda p: _pays(p.wild_book_bonus)),
    _Rule(("special_book_bonus",), "Special clean book bonuses",
          lambda p: f"pays {special_book_bonus_text(p)}" if p.special_book_bonus else "has none"),
    _Rule(("going_out_bonus",), "Going-out bonus", lambda p: _pays(p.going_out_bonus)),
    # tabletop only
    _Rule(("perfect_deal_bonus",), "Perfect-deal bonus (at a real table only)",
          lambda p: _pays(p.perfect_deal_bonus)),
    _Rule(("dealer_bonus",), "Dealer accuracy bonus (at a real table only)",
          lambda p: f"pays {dealer_bonus_text(p)}" if p.dealer_bonus else "has none"),
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
