"""Rule profiles: every rule of a Hand and Foot table as data.

A :class:`Profile` is one frozen value holding every rule parameter of the game (the rows of
RULES-MATRIX §2), with the words its parameters are written in: seatings (:class:`Layout`),
the choices (each a ``StrEnum``), what every parameter means (:data:`FIELDS`) and what an
optional rule sets (:class:`OptionInfo`). The engine reads only these parameters: it never
looks at a profile's name. Profiles are read from TOML files, and checked, by
:mod:`handfoot.game.loading`.

>>> from handfoot.game.loading import load_profile
>>> p = load_profile("partnership-13")
>>> p.hand_size, p.opening_minimum(1), p.wild_limit(7)
(13, 50, 2)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, TypeAlias

from handfoot.game import cards
from handfoot.game.cards import ByFields

__all__ = [
    "FIELDS",
    "MAX_PLAYERS",
    "FinalDiscard",
    "FirstPlayer",
    "Layout",
    "OptionInfo",
    "PartnerCondition",
    "PickupExistingMeld",
    "PickupOpeningCounts",
    "PickupWildTop",
    "Profile",
    "Seat",
    "Side",
]

MAX_PLAYERS: Final = 12
"""The most players at one table. The rulebooks seat at most 8 (RULES-MATRIX P1); 12 leaves
room for a large family table while keeping every deal small enough to make."""

Seat: TypeAlias = int
"""A seat at the table, 0 to players - 1, in turn order."""
Side: TypeAlias = int
"""A side (a partnership, or one player on their own), 0 to sides - 1."""


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
                f"{shown(text)} is not a layout: write SIDESxSEATS, like 2x2 or 3x1"
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

    Build one with :func:`~handfoot.game.loading.load_profile`; the defaults here are those
    of ``partnership-13``. Field metadata (``FIELDS``) documents each parameter for people
    and for the loader.
    """

    name: str = "partnership-13"
    title: str = "Partnership Hand and Foot, 13-card packets"
    source: str = ""
    extends: str | None = None
    overrides: tuple[tuple[str, Any], ...] = ()
    options: tuple[str, ...] = ()
    """The optional house rules switched on (keys of :data:`~handfoot.game.loading.OPTIONS`)."""

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

        >>> from handfoot.game.loading import load_profile
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
        last = len(mins)  # (no min(): a builtin call, asked for every view)
        return mins[(round_number if round_number < last else last) - 1]

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
"""The sections of a profile file, in order: every parameter belongs to one."""


# --- values in messages -----------------------------------------------------------------


def shown(value: Any) -> str:
    """A value for a message: its repr, cut short; never an error, whatever a hostile file
    holds (a huge integer, a list nested hundreds deep)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of about {value.bit_length() * 3 // 10} digits"
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        return f"{type_name(value)} that cannot be shown"
    return text if len(text) <= 60 else text[:56] + " ..."


def type_name(value: Any) -> str:
    """What kind of value a message names: "an integer", "a list", "true/false"."""
    return {bool: "true/false", int: "an integer", str: "a string", float: "a number",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)

