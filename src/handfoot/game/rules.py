"""Rule profiles: every rule of a Hand and Foot table as data.

A :class:`Profile` is one frozen value holding every rule parameter of the game (the rows of
RULES-MATRIX §2). Profiles ship as TOML files in ``handfoot/profiles``; a house-rule file is
a TOML file with ``extends = "<profile>"`` and the parameters it changes. Loading checks
every key, type, range and combination, and names the file, key and problem when one is
wrong. The engine reads only these parameters: it never looks at a profile's name.

>>> p = load_profile("partnership-13")
>>> p.hand_size, p.opening_minimum(1), p.wild_limit(7)
(13, 50, 2)
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any, Final, TypeAlias

from handfoot.game import cards
from handfoot.game.cards import KIND_NAMES, ByFields

__all__ = [
    "FIELDS",
    "LOAD_REFUSALS",
    "MAX_EXTENDS",
    "MAX_PLAYERS",
    "OPTIONS",
    "FinalDiscard",
    "FirstPlayer",
    "Layout",
    "OptionInfo",
    "PartnerCondition",
    "PickupExistingMeld",
    "PickupOpeningCounts",
    "PickupWildTop",
    "Profile",
    "ProfileError",
    "Seat",
    "Side",
    "builtin_profile_names",
    "load_profile",
    "profile_from_mapping",
]

MAX_PLAYERS: Final = 12
"""The most players at one table. The rulebooks seat at most 8 (RULES-MATRIX P1); 12 leaves
room for a large family table while keeping every deal small enough to make."""

Seat: TypeAlias = int
"""A seat at the table, 0 to players - 1, in turn order."""
Side: TypeAlias = int
"""A side (a partnership, or one player on their own), 0 to sides - 1."""


class ProfileError(ValueError):
    """A rule profile or house-rule file is invalid; the message names file, key and problem."""


@dataclass(frozen=True, slots=True)
class Layout(ByFields):
    """How the seats form sides: ``sides`` sides of ``seats_per_side`` players each.

    Seat ``s`` belongs to side ``s % sides``, so partners are never side by side (with two
    sides of two, partners sit opposite).
    """

    sides: int
    seats_per_side: int

    @property
    def players(self) -> int:
        return self.sides * self.seats_per_side

    def side_of(self, seat: Seat) -> Side:
        return seat % self.sides

    def seats_of(self, side: Side) -> tuple[Seat, ...]:
        return tuple(range(side, self.players, self.sides))

    def __str__(self) -> str:
        return f"{self.sides}x{self.seats_per_side}"

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Read ``"2x2"`` (two sides of two) or ``"3x1"`` (three single players)."""
        try:
            a, b = text.lower().split("x")
            layout = cls(int(a), int(b))
        except ValueError:
            raise ValueError(
                f"{_shown(text)} is not a layout: write SIDESxSEATS, like 2x2 or 3x1"
            ) from None
        if layout.sides < 2 or layout.seats_per_side < 1:
            raise ValueError(f"{text!r}: a game needs at least 2 sides of at least 1 player")
        if layout.players > MAX_PLAYERS:
            raise ValueError(f"{text!r}: a table seats at most {MAX_PLAYERS} players, not "
                             f"{layout.players}")
        return layout

    def describe(self) -> str:
        if self.seats_per_side == 1:
            return f"{self.sides} players, each on their own"
        return f"{self.players} players in {self.sides} sides of {self.seats_per_side}"


# The choice parameters: each value is the string written in TOML and in records.


class FirstPlayer(StrEnum):
    """Who starts round 1 (``first_player``)."""

    LEFT_OF_DEALER = "left_of_dealer"
    RANDOM = "random"
    HIGH_CARD = "high_card"


class PickupWildTop(StrEnum):
    """Whether a wild on top of the pile may be taken (``pickup_wild_top``)."""

    FORBIDDEN = "forbidden"
    LIKE_PAIR = "like_pair"
    ALLOWED = "allowed"


class PickupExistingMeld(StrEnum):
    """A pickup when the side has an unfinished meld of the top card's rank
    (``pickup_existing_meld``)."""

    COMPLETE_AND_START = "complete_and_start"
    MERGE = "merge"
    FORBIDDEN = "forbidden"
    FORBIDDEN_IF_COMPLETES = "forbidden_if_completes"


class PickupOpeningCounts(StrEnum):
    """What counts toward an opening made with a pickup (``pickup_opening_counts``)."""

    TOP_AND_HAND = "top_and_hand"
    ALL_PICKED = "all_picked"


class PartnerCondition(StrEnum):
    """What every partner must have done with their Foot before a side may go out
    (``partner_condition``)."""

    NONE = "none"
    PICKED_UP = "picked_up"
    PLAYED_FROM = "played_from"
    FINISHED_TURN = "finished_turn"


class FinalDiscard(StrEnum):
    """How the last card goes when a player goes out (``final_discard``)."""

    EITHER = "either"
    REQUIRED = "required"
    FORBIDDEN = "forbidden"


@dataclass(frozen=True, slots=True)
class FieldInfo(ByFields):
    """What a profile parameter means, how it is written in TOML and shown to a player."""

    name: str
    section: str
    label: str
    doc: str
    kind: str  # int, bool, str, opt_int, ints, kinds, layouts, bonus_map, pairs
    choices: tuple[str, ...] = ()
    choice_type: type[StrEnum] | None = None
    """For a ``str`` parameter: the enumeration its values belong to."""
    minimum: int = 0
    maximum: int | None = None
    empty_ok: bool = False


def _f(default: Any, section: str, label: str, doc: str, kind: str, **kw: Any) -> Any:
    meta = {"section": section, "label": label, "doc": doc, "kind": kind, **kw}
    if isinstance(default, list | dict):
        raise TypeError("use tuples for profile defaults")
    return field(default=default, metadata=meta)


class _Derived(ByFields):
    """What a :class:`Profile` works out from its parameters once, when it is made: kept in
    slots of this base class, so they are not dataclass fields (not compared, hashed,
    shown, pickled or listed by ``dataclasses.fields``), and need no instance ``__dict__``
    (which a class compiled by mypyc has not; docs/performance.md, "Compiled build")."""

    __slots__ = ("kind_values",)

    kind_values: tuple[int, ...]
    """Card value of each kind (threes have none: they score as bonuses and penalties)."""

    def _set_derived(self, kind_values: tuple[int, ...]) -> None:
        # Here, in the class that declares the slot: mypyc (2.4) compiles this line to a
        # slot store, and fails on an object.__setattr__ of an inherited slot.
        object.__setattr__(self, "kind_values", kind_values)


@dataclass(frozen=True, slots=True)
class Profile(_Derived):
    """Every rule parameter of a Hand and Foot game.

    Build one with :func:`load_profile`; the defaults here are those of ``partnership-13``.
    Field metadata (``FIELDS``) documents each parameter for people and for the loader.
    """

    name: str = "partnership-13"
    title: str = "Partnership Hand and Foot, 13-card packets"
    source: str = ""
    extends: str | None = None
    overrides: tuple[tuple[str, Any], ...] = ()
    options: tuple[str, ...] = ()
    """The optional house rules switched on (keys of :data:`OPTIONS`)."""

    # [players]
    layouts: tuple[Layout, ...] = _f(
        (Layout(2, 2),), "players", "Seating",
        "Allowed seatings as SIDESxSEATS (\"2x2\": two sides of two partners). The first is "
        "the default.", "layouts")
    decks_per_player: int = _f(
        0, "players", "Decks per player",
        "Decks in the shoe: decks_per_player × players + extra_decks.", "int", maximum=4)
    extra_decks: int = _f(
        5, "players", "Extra decks", "Decks added on top of decks_per_player × players.",
        "int", maximum=20)
    jokers_per_deck: int = _f(2, "players", "Jokers per deck", "Jokers in each 54-card deck.",
                              "int", maximum=4)

    # [deal]
    hand_size: int = _f(13, "deal", "Hand", "Cards dealt to each player's Hand.", "int",
                        minimum=1, maximum=30)
    knee_size: int = _f(0, "deal", "Knee",
                        "Cards in each player's Knee packet (0: no Knee).", "int", maximum=30)
    foot_size: int = _f(13, "deal", "Foot", "Cards dealt to each player's Foot.", "int",
                        minimum=1, maximum=30)
    starter_cards: int = _f(1, "deal", "Starter cards",
                            "Cards turned face up to start the discard pile.", "int",
                            minimum=1, maximum=5)
    starter_rejected: tuple[int, ...] = _f(
        (cards.RED_THREE, cards.TWO, cards.JOKER), "deal", "Rejected starter",
        "Kinds that may not be turned as a starter: such a card goes back into the stock at a "
        "random place and another is turned.", "kinds")
    starter_check_all: bool = _f(
        True, "deal", "Check every starter",
        "With several starter cards, whether every one is checked (true) or only the top one.",
        "bool")
    hand_size_by_round: tuple[int, ...] = _f(
        (), "deal", "Hand by round",
        "Hand sizes for rounds 1, 2, ... (later rounds use the last); empty: hand_size in every "
        "round.", "ints", minimum=1, maximum=30, empty_ok=True)
    knee_auto_pickup: bool = _f(
        False, "deal", "Knee picked up automatically",
        "Whether the engine picks up a player's Knee for them once it may be taken (otherwise "
        "the player must take it: picking it up is their own action).", "bool")
    first_player: FirstPlayer = _f(
        FirstPlayer.LEFT_OF_DEALER, "deal", "First player",
        "Who starts round 1: left of the dealer, a random seat, or the high card; later "
        "rounds move one seat clockwise.", "str", choices=FirstPlayer)

    # [game]
    rounds: int = _f(4, "game", "Rounds", "Rounds in a game.", "int", minimum=1, maximum=100)
    opening_minimums: tuple[int, ...] = _f(
        (50, 90, 120, 150), "game", "Opening minimums",
        "Points a side's first melds of the round must reach, by round; later rounds use the "
        "last value.", "ints", maximum=100_000)
    target_score: int | None = _f(
        None, "game", "Target score",
        "Play rounds until a side reaches this total (\"none\": play the set rounds); rounds "
        "then caps the game's length.", "opt_int", minimum=1, maximum=1_000_000)
    score_band_minimums: tuple[tuple[int, int], ...] = _f(
        (), "game", "Opening minimum by score",
        "Pairs [score, minimum]: a side's opening minimum is that of the last pair whose score "
        "its total before the round reaches (a total below every pair uses the first); empty: "
        "by round.", "pairs", maximum=100_000)
    clean_book_opening_rounds: tuple[int, ...] = _f(
        (), "game", "Clean-book opening rounds",
        "Rounds in which a side's opening must include a clean book laid from the hand.",
        "ints", minimum=1, maximum=20, empty_ok=True)
    foot_at_once: bool = _f(
        True, "game", "Foot at once",
        "Whether melding the last Hand card picks up the Foot at once (false: the Foot is "
        "picked up next turn, after the draw or pickup).", "bool")
    discard_locked_until_clean_book: tuple[int, ...] = _f(
        (), "game", "Locked discards",
        "Ranks that may not be discarded until some player has a clean book of that rank "
        "(Sevens From Hell: 7); a player holding nothing else may discard one.", "kinds")
    announce_foot: bool = _f(
        False, "game", "Announce the Foot",
        "Whether picking up a Foot is announced to the table (no effect on play or score).",
        "bool")
    draw_count: int = _f(2, "game", "Stock draw", "Cards drawn from the stock each turn.",
                         "int", minimum=1, maximum=5)
    partial_last_draw: bool = _f(
        False, "game", "Partial last draw",
        "When the stock holds fewer cards than a draw, take what is left (true) or end the "
        "round (false).", "bool")
    stalled_turns_each: int | None = _f(
        None, "game", "Stalled turns",
        "The round ends, with no going-out bonus, once every player in turn has had this "
        "many turns in a row (stalled_turns_each × players turns) in which no card was drawn "
        "from the stock and none was laid on the table (\"none\": no limit; allowed only "
        "where every pickup melds the pile's top card or the pile is never taken).",
        "opt_int", minimum=1, maximum=20)

    # [melds]
    min_meld_size: int = _f(3, "melds", "Smallest meld", "Fewest cards in a new meld.", "int",
                            minimum=2, maximum=7)
    book_size: int = _f(7, "melds", "Book size", "Cards that make a meld a book.", "int",
                        minimum=3, maximum=13)
    book_max: int | None = _f(
        7, "melds", "Largest book",
        "Most cards a book may hold; \"none\": books grow past book_size with naturals only.",
        "opt_int", minimum=3, maximum=52)
    new_meld_after_book: bool = _f(
        True, "melds", "New meld after a book",
        "Whether a side may start a new meld of a rank it has a book of (otherwise the book "
        "takes further naturals).", "bool")
    new_meld_min_naturals: int = _f(
        0, "melds", "Naturals in a meld after a book",
        "Fewest naturals in a new meld of a rank the side already has a book of.", "int",
        maximum=7)
    second_meld_of_rank: bool = _f(
        False, "melds", "Second meld beside a growing book",
        "Where books grow past book_size: whether a side may instead start a second meld of "
        "that rank.", "bool")
    unfinished_second_meld_negative: bool = _f(
        False, "melds", "Unfinished second meld counts against",
        "Whether the cards of a second meld of a rank that is not a book at the round's end "
        "count against the side.", "bool")
    naturals_per_wild: int = _f(
        2, "melds", "Naturals per wild",
        "A meld with wilds needs naturals ≥ naturals_per_wild × wilds + natural_margin.", "int",
        maximum=7)
    natural_margin: int = _f(0, "melds", "Natural margin",
                             "Added to the naturals a meld with wilds needs.", "int", maximum=7)
    max_wilds: int | None = _f(
        None, "melds", "Most wilds", "Most wild cards in one meld (\"none\": no fixed cap).",
        "opt_int", maximum=7)
    min_naturals_with_wild: int = _f(
        0, "melds", "Naturals before a wild",
        "Fewest naturals in any meld holding a wild (Bicycle: 4).", "int", maximum=7)
    wild_free_ranks: tuple[int, ...] = _f(
        (), "melds", "Wild-free ranks", "Ranks whose melds may never hold a wild.", "kinds")
    all_wild_melds: bool = _f(
        True, "melds", "All-wild melds",
        "Whether a meld may be made of wild cards only (it becomes a wild book at book_size).",
        "bool")
    wild_meld_opens: bool = _f(
        True, "melds", "All-wild meld opens",
        "Whether an all-wild meld may be part of the opening and count toward it.", "bool")

    # [pickup]
    pickup_allowed: bool = _f(True, "pickup", "Pile pickup",
                              "Whether the discard pile may be taken.", "bool")
    pickup_count: int | None = _f(
        7, "pickup", "Cards taken", "Cards taken from the top of the pile (\"all\": the whole "
        "pile); a smaller pile is taken whole.", "opt_int", minimum=1, maximum=200)
    pickup_min_pile: int = _f(1, "pickup", "Smallest pile",
                              "Fewest cards the pile must hold to be taken.", "int",
                              minimum=1, maximum=50)
    pickup_needs_pair: bool = _f(
        True, "pickup", "Pair needed",
        "Whether the taker must hold a natural pair of the top card (two like wilds for a "
        "wild top) and meld them with it at once.", "bool")
    pickup_melds_top: bool = _f(
        True, "pickup", "Top card melded",
        "Whether the top card must be melded at once (false: it joins the hand like the rest).",
        "bool")
    pickup_black_three_blocks: bool = _f(
        True, "pickup", "Black 3 blocks", "Whether a black 3 on top blocks the pickup.", "bool")
    pickup_wild_top: PickupWildTop = _f(
        PickupWildTop.LIKE_PAIR, "pickup", "Wild on top",
        "A wild on top: cannot be taken, needs two like wilds melded with it, or is allowed.",
        "str", choices=PickupWildTop)
    pickup_existing_meld: PickupExistingMeld = _f(
        PickupExistingMeld.COMPLETE_AND_START, "pickup", "Rank already melded",
        "When the side has an unfinished meld of the top card's rank: the pickup must "
        "complete it and start a new one; the cards merge into it (surplus starts a new "
        "meld); the pickup is forbidden if the rank is on the side's table; or forbidden only "
        "if the top card would complete a book.", "str", choices=PickupExistingMeld)
    pickup_opening_counts: PickupOpeningCounts = _f(
        PickupOpeningCounts.TOP_AND_HAND, "pickup", "Opening on a pickup",
        "What counts toward an opening made with a pickup: the top card and hand cards, or "
        "every picked-up card.", "str", choices=PickupOpeningCounts)
    discard_after_pickup: bool = _f(
        True, "pickup", "Discard after pickup",
        "Whether a turn begun with a pickup ends with a discard (false: the player knocks).",
        "bool")

    # [going_out]
    clean_books_to_go_out: int = _f(2, "going_out", "Clean books to go out",
                                    "Clean books a side needs to go out.", "int", maximum=20)
    dirty_books_to_go_out: int = _f(2, "going_out", "Dirty books to go out",
                                    "Dirty books a side needs to go out.", "int", maximum=20)
    wild_books_to_go_out: int = _f(1, "going_out", "Wild books to go out",
                                   "All-wild books a side needs to go out.", "int", maximum=20)
    special_books_to_go_out: tuple[int, ...] = _f(
        (), "going_out", "Special books to go out",
        "Ranks of which a side needs a clean book to go out (Hand, Knee & Foot: 5 and 7); "
        "these books do not count toward clean_books_to_go_out.", "kinds")
    partner_condition: PartnerCondition = _f(
        PartnerCondition.PLAYED_FROM, "going_out", "Partner's Foot",
        "What every partner must have done with their Foot before a side may go out: nothing, "
        "picked it up, played a card from it, or finished a turn holding it.", "str",
        choices=PartnerCondition)
    permission: bool = _f(True, "going_out", "Permission",
                          "Whether a player with partners must ask \"May I go out?\".", "bool")
    permission_persists: bool = _f(
        False, "going_out", "Permission persists",
        "Whether permission, once granted, lasts for the rest of the round.", "bool")
    final_discard: FinalDiscard = _f(
        FinalDiscard.EITHER, "going_out", "Final card",
        "Going out: the last card may be melded or discarded (either), must be discarded, or "
        "must be melded.", "str", choices=FinalDiscard)
    min_cards_kept: int = _f(
        1, "going_out", "Cards kept",
        "Cards a player in their last packet must still hold after discarding, unless going "
        "out.", "int", maximum=5)

    # [scoring]
    value_joker: int = _f(50, "scoring", "Joker", "Card value of a joker.", "int",
                          minimum=-1000, maximum=1000)
    value_two: int = _f(20, "scoring", "Two", "Card value of a two.", "int",
                        minimum=-1000, maximum=1000)
    value_ace: int = _f(20, "scoring", "Ace", "Card value of an ace.", "int",
                        minimum=-1000, maximum=1000)
    value_eight_to_king: int = _f(10, "scoring", "8 to K", "Card value of 8 through K.", "int",
                                  minimum=-1000, maximum=1000)
    value_four_to_seven: int = _f(5, "scoring", "4 to 7", "Card value of 4 through 7.", "int",
                                  minimum=-1000, maximum=1000)
    black_three_penalty: int = _f(5, "scoring", "Black 3 caught",
                                  "Points lost for each black 3 left in a packet.", "int",
                                  maximum=10000)
    red_three_bonus: int = _f(100, "scoring", "Red 3 laid", "Points for each red 3 laid down.",
                              "int", maximum=10000)
    red_three_penalty: int = _f(100, "scoring", "Red 3 caught",
                                "Points lost for each red 3 left in a packet.", "int",
                                maximum=10000)
    red_three_bulk_count: int = _f(
        0, "scoring", "Red 3 bulk count",
        "With at least this many red 3s laid (0: never), each scores red_three_bulk_bonus.",
        "int", maximum=100)
    red_three_bulk_bonus: int = _f(0, "scoring", "Red 3 bulk bonus",
                                   "Points for each red 3 once the bulk count is reached.",
                                   "int", maximum=10000)
    clean_book_bonus: int = _f(500, "scoring", "Clean book", "Bonus for each clean book.",
                               "int", maximum=100000)
    dirty_book_bonus: int = _f(300, "scoring", "Dirty book", "Bonus for each dirty book.",
                               "int", maximum=100000)
    wild_book_bonus: int = _f(1500, "scoring", "Wild book", "Bonus for each all-wild book.",
                              "int", maximum=100000)
    special_book_bonus: tuple[tuple[int, int], ...] = _f(
        (), "scoring", "Special clean books",
        "Bonus for a clean book of the given rank instead of the clean-book bonus, as "
        "{rank = points}.", "bonus_map")
    going_out_bonus: int = _f(100, "scoring", "Going out", "Bonus for going out.", "int",
                              maximum=100000)
    # Tabletop-only scoring: these reward or punish things that cannot happen when the
    # software deals and checks every move; they exist for a score keeper at a real table.
    perfect_deal_bonus: int = _f(
        0, "scoring", "Perfect deal (tabletop)",
        "Tabletop only: bonus for grabbing exactly the cards of one's packets when players "
        "deal themselves. The software deals, so it never applies it.", "int", maximum=10000)
    dealer_bonus: tuple[int, ...] = _f(
        (), "scoring", "Dealer accuracy bonus (tabletop)",
        "Tabletop only: bonus to the dealer by how many cards the deal was off (0, 1, 2, 3, "
        "...). The software deals, so it never applies it.", "ints", maximum=10000,
        empty_ok=True)
    improper_meld_penalty: int = _f(
        0, "scoring", "Improper meld (tabletop)",
        "Tabletop only: points lost for laying down an opening below the minimum. The "
        "software refuses such a meld instead.", "int", maximum=10000)
    knee_reminder_penalty: int = _f(
        0, "scoring", "Knee reminder (tabletop)",
        "Tabletop only: points lost by a player who reminds a partner to pick up the Knee.",
        "int", maximum=10000)
    go_out_without_permission_penalty: int = _f(
        0, "scoring", "Going out unasked (tabletop)",
        "Tabletop only: points lost for trying to go out without permission or after a no. "
        "The software never lets this happen.", "int", maximum=10000)
    failed_going_out_penalty: int = _f(
        0, "scoring", "Failing after permission (tabletop)",
        "Tabletop only: points lost for being unable to go out after permission was granted. "
        "The software asks only with a legal going-out, so it cannot happen.", "int",
        maximum=10000)
    bad_pickup_penalty: int = _f(
        0, "scoring", "Unmeldable pickup (tabletop)",
        "Tabletop only: points lost for taking the pile without being able to meld its top "
        "card. The software refuses such a pickup.", "int", maximum=10000)

    # --- derived tables (built once per profile) ---------------------------------------

    @property
    def layout(self) -> Layout:
        """The default seating."""
        return self.layouts[0]

    def check_layout(self, layout: Layout) -> None:
        """Raise ValueError, in the words of :meth:`seating_error`, unless the profile is
        played at this seating."""
        if layout not in self.layouts:
            raise ValueError(self.seating_error(layout))

    def seating_error(self, asked: Layout | str) -> str:
        """The one sentence that refuses a seating (or a number of players, as text) the
        profile is not played at, naming those it is.

        >>> load_profile("biegames").seating_error(Layout(3, 1))
        'biegames is played as 2x2 (4 players) or 2x1 (2 players), not 3x1 (3 players)'
        """
        names = [f"{x} ({x.players} players)" for x in self.layouts]
        allowed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        what = f"{asked} ({asked.players} players)" if isinstance(asked, Layout) else asked
        return f"{self.name} is played as {allowed}, not {what}"

    def decks(self, players: int) -> int:
        """Decks in the shoe for a number of players."""
        return self.decks_per_player * players + self.extra_decks

    def opening_minimum(self, round_number: int, total: int | None = None) -> int:
        """The opening minimum of a round (1-based), for a side with ``total`` points
        before the round when minimums go by score."""
        if self.score_band_minimums and total is not None:
            minimum = self.score_band_minimums[0][1]
            for threshold, value in self.score_band_minimums:
                if total >= threshold:
                    minimum = value
            return minimum
        mins = self.opening_minimums
        return mins[min(round_number, len(mins)) - 1]

    def hand_size_in(self, round_number: int) -> int:
        """Cards dealt to each Hand in a round."""
        sizes = self.hand_size_by_round
        if not sizes:
            return self.hand_size
        return sizes[min(round_number, len(sizes)) - 1]

    def __post_init__(self) -> None:
        self._set_derived(self._kind_values())

    def _kind_values(self) -> tuple[int, ...]:
        v = [0] * cards.NUM_KINDS
        for k in cards.RANKS:
            if k == cards.ACE:
                v[k] = self.value_ace
            elif k >= cards.EIGHT:
                v[k] = self.value_eight_to_king
            else:
                v[k] = self.value_four_to_seven
        v[cards.TWO] = self.value_two
        v[cards.JOKER] = self.value_joker
        return tuple(v)

    def wild_limit(self, size: int, rank: int | None = None) -> int:
        """Most wilds a meld of ``size`` cards of ``rank`` may hold (ratio rules)."""
        if rank is not None and rank in self.wild_free_ranks:
            return 0
        best = 0
        for w in range(1, size + 1):
            if self.wilds_allowed(size - w, w, rank):
                best = w
        return best

    def wilds_allowed(self, naturals: int, wilds: int, rank: int | None = None) -> bool:
        """Whether a natural-rank meld of this composition satisfies the wild rules."""
        if wilds == 0:
            return True
        if rank is not None and rank in self.wild_free_ranks:
            return False
        if self.max_wilds is not None and wilds > self.max_wilds:
            return False
        if naturals < self.min_naturals_with_wild:
            return False
        return naturals >= self.naturals_per_wild * wilds + self.natural_margin


FIELDS: dict[str, FieldInfo] = {
    f.name: FieldInfo(
        name=f.name,
        section=f.metadata["section"],
        label=f.metadata["label"],
        doc=f.metadata["doc"],
        kind=f.metadata["kind"],
        choices=tuple(c.value for c in f.metadata.get("choices", ())),
        choice_type=f.metadata.get("choices"),
        minimum=f.metadata.get("minimum", 0),
        maximum=f.metadata.get("maximum"),
        empty_ok=f.metadata.get("empty_ok", False),
    )
    for f in dataclasses.fields(Profile)
    if "section" in f.metadata
}
"""Every rule parameter, by name."""

SECTIONS = ("players", "deal", "game", "melds", "pickup", "going_out", "scoring")
_TOP_KEYS = ("name", "title", "source", "extends")


@dataclass(frozen=True, slots=True)
class OptionInfo(ByFields):
    """An optional house rule of the Remastered rulebook (RULES-MATRIX §5) and what it sets."""

    id: str
    key: str
    title: str
    groups: tuple[str, ...]
    """Exclusive groups: two options sharing one cannot both be on."""
    meant_for: tuple[str, ...]
    source: str
    description: str
    tabletop: bool
    """True when the option changes nothing the software can see happen."""
    sets: tuple[tuple[str, Any], ...]
    """The parameters it sets, as TOML values."""


def _load_options() -> dict[str, OptionInfo]:
    text = resources.files("handfoot.game").joinpath("options.toml").read_text(encoding="utf-8")
    out: dict[str, OptionInfo] = {}
    for item in tomllib.loads(text)["option"]:
        out[item["key"]] = OptionInfo(
            id=item["id"], key=item["key"], title=item["title"],
            groups=tuple(item["groups"]), meant_for=tuple(item["meant_for"]),
            source=item["source"], description=item["description"],
            tabletop=item.get("tabletop", False), sets=tuple(item["set"].items()))
    for key, option in out.items():
        # One flat namespace holds parameters and options (overrides, --set): never both.
        if key in FIELDS:
            raise ProfileError(f"options.toml: {option.id} {key}: is also a parameter's name")
        unknown = [param for param, _ in option.sets if param not in FIELDS]
        if unknown:
            raise ProfileError(f"options.toml: {option.id} {key}: sets unknown parameters "
                               + ", ".join(unknown))
    return out


OPTIONS: dict[str, OptionInfo] = _load_options()
"""The optional house rules by key, in the rulebook's order (``handfoot/options.toml``)."""


# --- loading ----------------------------------------------------------------------------


def builtin_profile_names() -> list[str]:
    """Names of the profiles shipped with handfoot, default first."""
    files = resources.files("handfoot.game").joinpath("profiles")
    names = sorted(p.name.removesuffix(".toml") for p in files.iterdir()
                   if p.name.endswith(".toml"))
    names.remove("partnership-13")
    return ["partnership-13", *names]


DEFAULT_PROFILE = "partnership-13"


def load_profile(name_or_path: str | Path, *, overrides: Mapping[str, Any] | None = None,
                 overrides_origin: str = "overrides") -> Profile:
    """Load a built-in profile by name, or a profile or house-rule TOML file by path.

    ``overrides`` (flat ``{parameter: value}``, values as written in TOML) are applied last,
    as a house-rule file's would be.
    """
    text, origin = _read_source(name_or_path)
    data = parse_toml(text, origin)
    profile = profile_from_mapping(data, origin=origin, default_name=_stem(name_or_path))
    if overrides:
        base_name = profile.extends or profile.name
        profile = dataclasses.replace(
            apply_overrides(profile, overrides, origin=overrides_origin), extends=base_name)
    return profile


def parse_toml(text: str, origin: str) -> dict[str, Any]:
    """Parse the text of a profile or house-rule file; any problem, even a hostile file's
    (nesting a thousand levels deep, an integer of thousands of digits), is a
    :class:`ProfileError` naming ``origin``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{origin}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ProfileError(f"{origin}: not valid TOML for a profile: its lists or tables are "
                           "nested far too deeply") from None
    except ValueError as exc:  # an integer too long for Python to read
        raise ProfileError(f"{origin}: not valid TOML for a profile: "
                           f"{_int_limit_text(exc)}") from None


def _int_limit_text(exc: ValueError) -> str:
    digits = str(exc).partition("value has ")[2].partition(" digits")[0]
    return (f"an integer of {digits} digits is far too long" if digits.isdigit()
            else f"a value cannot be read ({str(exc)[:80]})")


MAX_EXTENDS: Final = 64
"""The longest chain of house-rule files extending each other."""


def _stem(name_or_path: str | Path) -> str:
    return Path(str(name_or_path)).name.removesuffix(".toml")


def _read_source(name_or_path: str | Path) -> tuple[str, str]:
    text_name = str(name_or_path)
    if text_name in builtin_profile_names():
        res = resources.files("handfoot.game").joinpath("profiles").joinpath(f"{text_name}.toml")
        return res.read_text(encoding="utf-8"), f"{text_name}.toml"
    path = Path(text_name)
    if path.suffix == ".toml" or _exists(path):
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except UnicodeDecodeError as exc:
            raise ProfileError(
                f"{path}: cannot read: not UTF-8 text (byte {exc.start})") from None
        except OSError as exc:
            raise ProfileError(f"{_file_name(path)}: cannot read: {exc.strerror}") from None
        except ValueError:  # a NUL in the name
            raise ProfileError(f"{_file_name(path)}: cannot read: not a file name") from None
    known = builtin_profile_names()
    raise ProfileError(
        f"{_shown(text_name)} is neither a built-in profile ({', '.join(known)}) nor a TOML "
        f"file{_suggest(text_name, known)}")


def _file_name(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 200 else text[:196] + " ..."


def _exists(path: Path, *, file: bool = False) -> bool:
    """Whether a path exists (is a file), False for a name the system cannot look up."""
    try:
        return path.is_file() if file else path.exists()
    except (OSError, ValueError):
        return False


def profile_from_mapping(data: Mapping[str, Any], *, origin: str = "<profile>",
                         default_name: str = "custom",
                         _chain: tuple[tuple[str, str], ...] = ()) -> Profile:
    """Build a profile from parsed TOML (a full profile, or ``extends`` plus overrides).

    ``_chain`` holds the files that extend this one, nearest last, each as (its identity,
    its name as written), to find a loop.
    """
    for key, value in data.items():
        if key in _TOP_KEYS:
            if not isinstance(value, str):
                raise ProfileError(f"{origin}: {key}: must be a string")
            continue
        if key in SECTIONS or key == "options":
            if not isinstance(value, dict):
                raise ProfileError(f"{origin}: [{key}] must be a table of parameters")
            continue
        if key in FIELDS:
            raise ProfileError(
                f"{origin}: {key}: belongs in the [{FIELDS[key].section}] section")
        if key in OPTIONS:
            raise ProfileError(f"{origin}: {key}: belongs in the [options] section")
        raise ProfileError(
            f"{origin}: {key}: unknown key{_suggest(key, [*_TOP_KEYS, *SECTIONS, 'options'])}")

    flat: dict[str, Any] = {}
    for section in SECTIONS:
        for key, value in data.get(section, {}).items():
            info = FIELDS.get(key)
            if info is None and key in OPTIONS:
                raise ProfileError(
                    f"{origin}: [{section}] {key}: is an option ({OPTIONS[key].id}), not a "
                    "parameter: switch it on in the [options] section")
            if info is None:
                names = [n for n, i in FIELDS.items() if i.section == section]
                raise ProfileError(
                    f"{origin}: [{section}] {key}: unknown parameter{_suggest(key, list(FIELDS))}"
                    + ("" if _suggest(key, names) else f" (parameters of [{section}]: "
                       + ", ".join(names) + ")"))
            if info.section != section:
                raise ProfileError(
                    f"{origin}: [{section}] {key}: belongs in the [{info.section}] section")
            flat[key] = value
    for key, value in data.get("options", {}).items():
        if key not in OPTIONS:
            if key in FIELDS:
                raise ProfileError(f"{origin}: [options] {key}: is a parameter of the "
                                   f"[{FIELDS[key].section}] section, not an option")
            raise ProfileError(f"{origin}: [options] {key}: unknown option"
                               f"{_suggest(key, list(OPTIONS))}")
        flat[key] = value

    extends = data.get("extends")
    if extends is not None:
        # A relative path is read from the folder of the file that names it.
        source = extends
        if extends not in builtin_profile_names() and _exists(Path(origin), file=True):
            near = Path(origin).parent / extends
            if near.suffix == ".toml" or _exists(near):
                source = str(near)
        chain = (*_chain, (_identity(origin), origin))
        seen = [identity for identity, _ in chain]
        if _identity(source) in seen:
            loop = [shown for _, shown in chain[seen.index(_identity(source)):]]
            raise ProfileError(
                f"{origin}: extends: profiles extend each other in a loop: "
                + " extends ".join([*loop, source]))
        if len(chain) > MAX_EXTENDS:
            raise ProfileError(
                f"{origin}: extends: a chain of more than {MAX_EXTENDS} files extending each "
                f"other is too long (it begins with {chain[0][1]})")
        try:
            text, base_origin = _read_source(source)
        except ProfileError as exc:
            raise ProfileError(f"{origin}: extends: {exc}") from None
        try:
            base_data = parse_toml(text, base_origin)
        except ProfileError as exc:
            raise ProfileError(f"{origin}: extends: {exc}") from None
        base = profile_from_mapping(base_data, origin=base_origin,
                                    default_name=_stem(extends), _chain=chain)
        profile = apply_overrides(base, flat, origin=origin)
        return dataclasses.replace(
            profile,
            name=data.get("name", default_name),
            title=data.get("title", base.title if base.extends else
                           f"{base.title}, with house rules"),
            source=data.get("source", base.source),
            extends=base.extends or base.name,
            overrides=tuple(sorted({**dict(base.overrides), **flat}.items())),
        )
    base = Profile()
    profile = apply_overrides(base, flat, origin=origin, record=False)
    return dataclasses.replace(
        profile, name=data.get("name", default_name), title=data.get("title", default_name),
        source=data.get("source", ""), extends=None, overrides=())


def _identity(source: str) -> str:
    """A profile source as one name: a built-in profile's name or a file's real path."""
    name = source.removesuffix(".toml")
    if name in builtin_profile_names() and not _exists(Path(source), file=True):
        return name
    try:
        return str(Path(source).resolve())
    except (OSError, ValueError, RuntimeError):
        return os.path.abspath(source)


def apply_overrides(base: Profile, flat: Mapping[str, Any], *, origin: str,
                    record: bool = True) -> Profile:
    """A copy of ``base`` with parameters and options changed, validated as a whole.

    Options switched on apply their parameters first; parameters given explicitly win.
    """
    changes: dict[str, Any] = {}
    enabled = list(base.options)
    for key, raw in flat.items():
        if key not in OPTIONS:
            continue
        if not isinstance(raw, bool):
            raise ProfileError(
                f"{origin}: [options] {key}: must be true or false, not {_shown(raw)}")
        if raw and key not in enabled:
            enabled.append(key)
        elif not raw and key in enabled:
            raise ProfileError(
                f"{origin}: [options] {key}: the profile this extends switches it on; extend "
                "the profile below it instead to leave it off")
    _check_option_groups(enabled, origin)
    for key in OPTIONS:
        if key in enabled and key not in base.options:
            option = OPTIONS[key]
            for param, raw in option.sets:
                changes[param] = _convert(FIELDS[param], raw, f"{origin}: {option.id} {key}")
    for key, raw in flat.items():
        if key in OPTIONS:
            continue
        info = FIELDS.get(key)
        if info is None:
            raise ProfileError(
                f"{origin}: {key}: unknown parameter{_suggest(key, [*FIELDS, *OPTIONS])}")
        changes[key] = _convert(info, raw, origin)
    if enabled != list(base.options):
        changes["options"] = tuple(k for k in OPTIONS if k in enabled)
    if record and flat:
        merged = {**dict(base.overrides), **dict(flat)}
        changes["overrides"] = tuple(sorted(merged.items()))
    profile = dataclasses.replace(base, **changes)
    _check_consistency(profile, origin)
    return profile


def _check_option_groups(enabled: list[str], origin: str) -> None:
    seen: dict[str, str] = {}
    for key in enabled:
        for group in OPTIONS[key].groups:
            if group in seen:
                a, b = OPTIONS[seen[group]], OPTIONS[key]
                raise ProfileError(
                    f"{origin}: [options] {a.key} ({a.id}) and {b.key} ({b.id}) cannot both be "
                    f"on: they are alternative rules for the {group}")
            seen[group] = key


def _suggest(key: str, names: list[str]) -> str:
    if len(key) > 100:
        return ""
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _shown(value: Any) -> str:
    """A value for a message: its repr, cut short; never an error, whatever a hostile file
    holds (a huge integer, a list nested hundreds deep)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of about {value.bit_length() * 3 // 10} digits"
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        return f"{_type_name(value)} that cannot be shown"
    return text if len(text) <= 60 else text[:56] + " ..."


def _type_name(value: Any) -> str:
    return {bool: "true/false", int: "an integer", str: "a string", float: "a number",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)


def _convert(info: FieldInfo, raw: Any, origin: str) -> Any:
    where = f"{origin}: [{info.section}] {info.name}"
    kind = info.kind

    def check_int(v: Any, what: str = "") -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ProfileError(
                f"{where}: {what}must be an integer, not {_type_name(v)} {_shown(v)}")
        if v < info.minimum or (info.maximum is not None and v > info.maximum):
            top = "" if info.maximum is None else f" to {info.maximum}"
            raise ProfileError(
                f"{where}: {what}{_shown(v)} is out of range ({info.minimum}{top})")
        return v

    if kind == "int":
        return check_int(raw)
    if kind == "opt_int":
        if raw in ("none", "all"):
            return None
        if isinstance(raw, str):
            raise ProfileError(f"{where}: must be an integer or \"none\" (or \"all\"), "
                               f"not {_shown(raw)}{_suggest(raw, ['all', 'none'])}")
        return check_int(raw)
    if kind == "bool":
        if not isinstance(raw, bool):
            raise ProfileError(
                f"{where}: must be true or false, not {_type_name(raw)} {_shown(raw)}")
        return raw
    if kind == "str":
        if not isinstance(raw, str):
            raise ProfileError(f"{where}: must be a string, not {_type_name(raw)} {_shown(raw)}")
        if raw not in info.choices:
            raise ProfileError(
                f"{where}: {_shown(raw)} is not one of {', '.join(info.choices)}"
                + _suggest(raw, list(info.choices)))
        assert info.choice_type is not None
        return info.choice_type(raw)
    if kind == "ints":
        if not isinstance(raw, list) or (not raw and not info.empty_ok):
            raise ProfileError(f"{where}: must be a non-empty list of integers")
        return tuple(check_int(v, "each entry ") for v in raw)
    if kind == "pairs":
        if not isinstance(raw, list) or not all(
                isinstance(v, list) and len(v) == 2 for v in raw):
            raise ProfileError(f"{where}: must be a list of [score, minimum] pairs, like "
                               "[[-1, 15], [0, 60], [5000, 90]]")
        pairs = []
        for score, minimum in raw:
            if isinstance(score, bool) or not isinstance(score, int):
                raise ProfileError(f"{where}: the score {_shown(score)} must be an integer")
            if abs(score) > 10_000_000:
                raise ProfileError(f"{where}: the score {_shown(score)} is out of range "
                                   "(-10000000 to 10000000)")
            pairs.append((score, check_int(minimum, "each minimum ")))
        if [a for a, _ in pairs] != sorted({a for a, _ in pairs}):
            raise ProfileError(f"{where}: the scores must increase")
        return tuple(pairs)
    if kind == "kinds":
        if not isinstance(raw, list):
            raise ProfileError(f"{where}: must be a list of card kinds, like [\"red 3\", \"2\"]")
        return tuple(_kind_from_text(v, where) for v in raw)
    if kind == "layouts":
        if not isinstance(raw, list) or not raw:
            raise ProfileError(f"{where}: must be a non-empty list like [\"2x2\", \"2x1\"]")
        out = []
        for v in raw:
            if not isinstance(v, str):
                raise ProfileError(f"{where}: {_shown(v)} must be a string like \"2x2\"")
            try:
                out.append(Layout.parse(v))
            except ValueError as exc:
                raise ProfileError(f"{where}: {exc}") from None
        return tuple(out)
    if kind == "bonus_map":
        if not isinstance(raw, dict):
            raise ProfileError(f"{where}: must be a table like {{ 5 = 3000 }}")
        return tuple(sorted((_kind_from_text(k, where), check_int(v, f"{k}: "))
                            for k, v in raw.items()))
    raise AssertionError(kind)


_KIND_WORDS = {"red 3": cards.RED_THREE, "black 3": cards.BLACK_THREE, "joker": cards.JOKER,
               "2": cards.TWO, "10": cards.TEN}


def _kind_from_text(value: Any, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ProfileError(f"{where}: {_shown(value)} is not a card kind")
    v = value.strip().lower()
    if v in _KIND_WORDS:
        return _KIND_WORDS[v]
    for k, name in enumerate(KIND_NAMES):
        if name.lower() == v:
            return k
    raise ProfileError(
        f"{where}: {_shown(value)} is not a card kind (4-10, J, Q, K, A, 2, joker, black 3, red 3)")


def kind_to_text(kind: int) -> str:
    """The TOML spelling of a kind."""
    return KIND_NAMES[kind]


def _check_consistency(p: Profile, origin: str) -> None:
    def fail(keys: str, problem: str) -> None:
        raise ProfileError(f"{origin}: {keys}: {problem}")

    if p.book_max is not None and p.book_max < p.book_size:
        fail("book_max", f"{p.book_max} is smaller than book_size {p.book_size}")
    if p.min_meld_size > p.book_size:
        fail("min_meld_size", f"{p.min_meld_size} is larger than book_size {p.book_size}")
    if p.wild_books_to_go_out and not p.all_wild_melds:
        fail("wild_books_to_go_out",
             "an all-wild book is required to go out, but all_wild_melds is false")
    if p.pickup_needs_pair and not p.pickup_melds_top:
        fail("pickup_needs_pair",
             "a pair must be melded with the top card, but pickup_melds_top is false")
    if p.stalled_turns_each is None and p.pickup_allowed and not p.pickup_melds_top:
        # Every turn starts with a draw or a pickup. A draw shrinks the stock and a pickup
        # that melds the top card grows the table, so turns are finite; a pickup into the
        # hand does neither, and players could pass the pile's top card round for ever.
        fail("stalled_turns_each",
             "must be a number (not \"none\") where pickup_melds_top is false and "
             "pickup_allowed is true: players could take and discard the same cards for "
             "ever, so the round needs a limit on turns without a draw or a meld")
    if p.pickup_wild_top == PickupWildTop.LIKE_PAIR and not p.all_wild_melds:
        fail("pickup_wild_top",
             "\"like_pair\" melds the wild top card into an all-wild meld, but all_wild_melds "
             "is false")
    for key, ranks in (("wild_free_ranks", p.wild_free_ranks),
                       ("special_books_to_go_out", p.special_books_to_go_out),
                       ("special_book_bonus", tuple(r for r, _ in p.special_book_bonus))):
        for rank in ranks:
            if rank not in cards.RANKS:
                fail(key, f"{KIND_NAMES[rank]} is not a meldable rank (4 to A)")
    if p.min_naturals_with_wild > p.book_size:
        fail("min_naturals_with_wild", "is larger than a book")
    # Every seating must leave a stock to draw from.
    for layout in p.layouts:
        players = layout.players
        shoe = p.decks(players) * (52 + p.jokers_per_deck)
        hand = max(p.hand_size_in(r) for r in range(1, p.rounds + 1))
        dealt = players * (hand + p.knee_size + p.foot_size) + p.starter_cards
        if dealt + p.draw_count > shoe:
            fail("layouts",
                 f"with {players} players the shoe holds {shoe} cards but the deal needs "
                 f"{dealt} and a draw")
    if p.decks(p.layout.players) < 1:
        fail("decks_per_player", "the shoe would hold no deck")
    _check_playable(p, fail)


LOAD_REFUSALS: Final[tuple[tuple[str, str], ...]] = (
    ("layouts", f"a seating of more than {MAX_PLAYERS} players (the rulebooks seat at most "
                "8, RULES-MATRIX P1), or one whose shoe cannot deal every packet, the starter "
                "and a draw"),
    ("starter_rejected", "a list that rejects every kind, or leaves fewer cards that may be "
                         "turned than the packets and starters take: the deal could never "
                         "turn its starter"),
    ("foot_size", "a Foot no larger than `min_cards_kept`: the player who picks it up could "
                  "neither discard, meld nor go out"),
    ("knee_size", "a Knee no larger than `min_cards_kept` (0 is no Knee): it may be the last "
                  "packet, picked up into an empty hand"),
    ("book_size", "a book larger than the cards of one rank in the shoe where clean books "
                  "are needed (to go out, or to open)"),
    ("wild_books_to_go_out", "more all-wild books than the shoe's wild cards can make"),
    ("dirty_books_to_go_out", "dirty books where the wild-card rules let no book hold a wild"),
    ("clean_books_to_go_out", "books to go out that need more natural cards than the shoe "
                              "holds"),
    ("opening_minimums", "an opening minimum (or `score_band_minimums` minimum) larger than "
                         "the value of every card of the shoe"),
    ("stalled_turns_each", "`\"none\"` where a pickup's top card joins the hand"),
    ("extends", f"a loop of files extending each other, or a chain of more than "
                f"{MAX_EXTENDS} files"),
)
"""What loading refuses beyond types and ranges, as (key named, the rule): every one is a
combination that cannot make a finite, playable game (docs/profiles.md)."""


def _check_playable(p: Profile, fail: Callable[[str, str], None]) -> None:
    """Refuse rules that load but cannot make a finite, playable game at some seating: a
    deal that cannot finish, a player stuck in their Foot, books or openings no shoe can
    make (each problem names the keys to change)."""
    rejected = set(p.starter_rejected)
    if len(rejected) == cards.NUM_KINDS:
        fail("starter_rejected", "lists every kind of card, so no starter could ever be "
             "turned and the deal would never end")
    if p.foot_size <= p.min_cards_kept:
        fail("foot_size", (
            f"{p.foot_size} is not more than min_cards_kept {p.min_cards_kept}: a player who "
            "picks up the Foot could neither discard (they must keep "
            f"{p.min_cards_kept}) nor meld, and the round could not go on"))
    if 0 < p.knee_size <= p.min_cards_kept:
        fail("knee_size", (
            f"{p.knee_size} is not more than min_cards_kept {p.min_cards_kept}: a player whose "
            "Knee comes last, joining an empty hand, could neither discard nor meld"))
    hand = max(p.hand_size_in(r) for r in range(1, p.rounds + 1))
    for layout in p.layouts:
        players, decks = layout.players, p.decks(layout.players)
        counts = [0] * cards.NUM_KINDS
        for face in cards.build_shoe(decks, p.jokers_per_deck):
            counts[cards.FACE_KIND[face]] += 1
        with_players = f"with {players} players ({decks} decks)"
        packets = players * (hand + p.knee_size + p.foot_size)
        turnable = sum(n for k, n in enumerate(counts) if k not in rejected)
        if turnable < packets + p.starter_cards:
            fail("starter_rejected", (
                f"{with_players} the shoe holds only {turnable} cards that may be turned as a "
                f"starter, but the packets take {packets} cards and {p.starter_cards} starter"
                f"{'s' if p.starter_cards != 1 else ''} must be turned: the deal could run "
                "out of cards to turn"))
        per_rank = counts[cards.ACE]  # every rank has as many naturals
        wilds = counts[cards.TWO] + counts[cards.JOKER]
        needs_rank = p.clean_books_to_go_out or p.special_books_to_go_out or any(
            r in p.clean_book_opening_rounds for r in range(1, p.rounds + 1))
        if needs_rank and per_rank < p.book_size:
            fail("book_size", (
                f"{with_players} the shoe holds {per_rank} cards of each rank, fewer than "
                f"the {p.book_size} of a clean book, which clean_books_to_go_out, "
                "special_books_to_go_out or clean_book_opening_rounds require"))
        if p.wild_books_to_go_out and wilds < p.book_size * p.wild_books_to_go_out:
            fail("wild_books_to_go_out", (
                f"{with_players} the shoe holds {wilds} wild cards, fewer than the "
                f"{p.book_size * p.wild_books_to_go_out} of {p.wild_books_to_go_out} all-wild "
                f"book{'s' if p.wild_books_to_go_out != 1 else ''} of {p.book_size}"))
        dirty_naturals = _dirty_book_naturals(p, per_rank, wilds)
        if p.dirty_books_to_go_out and dirty_naturals is None:
            fail("dirty_books_to_go_out", (
                f"{p.dirty_books_to_go_out} dirty book{'s' if p.dirty_books_to_go_out != 1 else ''}"
                " must be made to go out, but the wild-card rules (naturals_per_wild, "
                "natural_margin, max_wilds, min_naturals_with_wild, wild_free_ranks) let no "
                f"meld of {p.book_size} or more hold a wild {with_players}"))
        clean = p.clean_books_to_go_out + len(p.special_books_to_go_out)
        naturals = clean * p.book_size + p.dirty_books_to_go_out * (dirty_naturals or 0)
        meldable = sum(counts[k] for k in cards.RANKS)
        if naturals > meldable:
            fail("clean_books_to_go_out", (
                f"the books needed to go out (clean_books_to_go_out, dirty_books_to_go_out, "
                f"special_books_to_go_out) take at least {naturals} natural cards, more than "
                f"the {meldable} of the shoe {with_players}"))
        value = sum(max(0, p.kind_values[k]) * counts[k] for k in cards.RANKS) + (
            sum(max(0, p.kind_values[k]) * counts[k] for k in cards.WILDS))
        highest = max([*p.opening_minimums, *(m for _, m in p.score_band_minimums)])
        if highest > value:
            key = ("opening_minimums" if highest in p.opening_minimums
                   else "score_band_minimums")
            fail(key, (
                f"an opening minimum of {highest} can never be met: every card of the shoe "
                f"{with_players} is worth {value} points together"))


def _dirty_book_naturals(p: Profile, per_rank: int, wilds: int) -> int | None:
    """The fewest naturals of a book holding at least one wild card (None: no such book)."""
    ranks = [r for r in cards.RANKS if r not in p.wild_free_ranks]
    largest = p.book_size if p.book_max is None else p.book_max
    best: int | None = None
    for size in range(p.book_size, largest + 1):
        for w in range(1, min(wilds, size) + 1):
            n = size - w
            if (n <= per_rank and (best is None or n < best)
                    and any(p.wilds_allowed(n, w, r) for r in ranks)):
                best = n
    return best


def profile_to_toml_values(p: Profile) -> dict[str, dict[str, Any]]:
    """Every parameter of a profile as TOML values, by section (for ``--json`` and docs)."""
    out: dict[str, dict[str, Any]] = {s: {} for s in SECTIONS}
    for name, info in FIELDS.items():
        out[info.section][name] = value_to_toml(info, getattr(p, name))
    return out


def value_to_toml(info: FieldInfo, value: Any) -> Any:
    """A parameter value as it is written in TOML."""
    if info.kind == "opt_int":
        return ("all" if info.name == "pickup_count" else "none") if value is None else value
    if info.kind == "ints":
        return list(value)
    if info.kind == "kinds":
        return [kind_to_text(k) for k in value]
    if info.kind == "layouts":
        return [str(x) for x in value]
    if info.kind == "bonus_map":
        return {kind_to_text(k): v for k, v in value}
    if info.kind == "pairs":
        return [list(pair) for pair in value]
    if info.kind == "str":
        return str(value)
    return value
