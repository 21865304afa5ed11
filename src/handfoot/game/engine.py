"""The game: state, legal moves, applying moves, views and scoring.

:class:`GameState` holds a whole game under one :class:`~handfoot.game.rules.Profile`. It says
whose turn it is and in which :class:`Phase`; :meth:`GameState.apply` plays a player move
(see :mod:`handfoot.game.moves`) or raises :class:`IllegalMoveError` with a reason a player
understands, leaving the state exactly as it was; :meth:`GameState.legal_actions` lists the
legal integer actions; :meth:`GameState.view` gives a seat only what that seat may know;
:meth:`GameState.copy` is cheap. :meth:`GameState.verify` checks a move without playing
it and says what it will do (:class:`Effect`); :meth:`GameState.is_legal` answers cheaply.
The state keeps its :attr:`GameState.history` and the public and private part of every
move's :class:`Event`; :meth:`GameState.public_view` is what a spectator sees;
:meth:`GameState.position` and :meth:`GameState.from_position` turn a state into a
:class:`Position` value and back.

The engine is pure: no I/O, no clock, no global state. Randomness (the shuffle and the
place a rejected starter card goes back into the stock) comes only from the game's seed,
or the deals are given explicitly.

Internally every packet is a vector of counts (by face for people, by kind for the rules),
and a meld is a rank plus counts, so a rule check is a few integer comparisons.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any, Final, NamedTuple, overload

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import (
    ACE,
    BLACK_THREE,
    FACE_KIND,
    FOUR,
    JOKER,
    KIND_CODES,
    KIND_FACES,
    KIND_NAMES,
    KIND_PLURALS,
    NUM_FACES,
    NUM_KINDS,
    RED_THREE,
    TWO,
    Face,
    Kind,
)
from handfoot.game.events import move_words
from handfoot.game.moves import WILD_MELD, ActionId, ByFields, MeldGroup
from handfoot.game.rules import (
    FinalDiscard,
    FirstPlayer,
    Layout,
    PartnerCondition,
    PickupExistingMeld,
    PickupOpeningCounts,
    PickupWildTop,
    Profile,
    Seat,
    Side,
)
from handfoot.game.table import (
    BookKind,
    Books,
    book_kind,
    count_books,
    missing_books,
    opens_with_clean_book,
)
from handfoot.game.table import opening_minimum as side_opening_minimum
from handfoot.game.wording import book_requirement_text, join, wild_rule_text

__all__ = [
    "SCORE_LABELS",
    "Deal",
    "DealError",
    "Effect",
    "Event",
    "GameState",
    "History",
    "HistoryEntry",
    "IllegalMoveError",
    "MeldOptions",
    "Phase",
    "PlayerView",
    "Position",
    "PublicView",
    "RoundEnd",
    "RoundResult",
    "ScoreLine",
    "SideScore",
    "SideTally",
    "TableMeld",
    "check_deal",
    "deal_of_round",
    "deal_round",
    "score_tally",
]


class IllegalMoveError(ValueError):
    """A move the rules do not allow; the message says why, in a player's words.

    Inside the engine the reason may be given as a function that words it, so that a
    legality test (:meth:`GameState.is_legal`, the legal-action listing) never builds a
    sentence it would throw away; ``str()`` words it (once).
    """

    def __str__(self) -> str:
        reason = self.args[0] if self.args else ""
        if callable(reason):
            reason = reason()
            self.args = (reason,)
        return str(reason)


class DealError(ValueError):
    """A deal the profile could not have dealt. ``where`` names the part of the deal
    (``"hands[1]"``, ``"discard[0]"``, or ``""`` for the whole), ``problem`` says what is
    wrong with it."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem


class RoundEnd(StrEnum):
    """How a round ended; each value is the phrase records store."""

    WENT_OUT = "went out"
    STOCK_EXHAUSTED = "stock exhausted"
    """A player who had to draw found too few cards in the stock."""
    RED_THREE_NOT_REPLACED = "red 3 not replaced"
    """A red 3 was laid and the stock had no card to replace it."""
    STALLED = "stalled"
    """``stalled_turns_each`` turns of every player in a row drew no card from the stock
    and laid none on the table."""


class Phase(IntEnum):
    """What the player to act must do."""

    DRAW = 0
    """Start of a turn: draw from the stock or take the discard pile."""
    PLAY = 1
    """Meld, then discard (or go out)."""
    ANSWER = 2
    """A partner answers "May I go out?"."""
    GAME_OVER = 3


# Enum members that hot code reads, as module constants: in Python 3.11 reading a member
# through its class (``Phase.DRAW``) goes through ``EnumType.__getattr__``'s slow path and
# costs about ten times a global lookup (measured: it made the engine benchmark slower).
_DRAW: Final = Phase.DRAW
_PLAY: Final = Phase.PLAY
_ANSWER: Final = Phase.ANSWER
_GAME_OVER: Final = Phase.GAME_OVER
_FINAL_DISCARD_REQUIRED: Final = FinalDiscard.REQUIRED
_FINAL_DISCARD_FORBIDDEN: Final = FinalDiscard.FORBIDDEN
_WILD_TOP_FORBIDDEN: Final = PickupWildTop.FORBIDDEN
_EXISTING_FORBIDDEN: Final = PickupExistingMeld.FORBIDDEN
_EXISTING_FORBIDDEN_IF_COMPLETES: Final = PickupExistingMeld.FORBIDDEN_IF_COMPLETES
_EXISTING_COMPLETE_AND_START: Final = PickupExistingMeld.COMPLETE_AND_START
_ALL_PICKED_COUNT: Final = PickupOpeningCounts.ALL_PICKED
_PARTNER_NONE: Final = PartnerCondition.NONE
_PARTNER_PICKED_UP: Final = PartnerCondition.PICKED_UP
_PARTNER_PLAYED_FROM: Final = PartnerCondition.PLAYED_FROM
_PARTNER_FINISHED_TURN: Final = PartnerCondition.FINISHED_TURN


# --- value types -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableMeld(ByFields):
    """A meld or book on a side's table: its target rank (or the all-wild meld) and cards."""

    target: int
    naturals: int
    twos: int
    jokers: int
    faces: tuple[int, ...]

    def __init__(self, target: int, naturals: int, twos: int, jokers: int,
                 faces: tuple[int, ...]) -> None:
        # Not the dataclass's own: mypyc compiles this one, each line to a slot store
        # (docs/performance.md, "Constructors").
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "naturals", naturals)
        object.__setattr__(self, "twos", twos)
        object.__setattr__(self, "jokers", jokers)
        object.__setattr__(self, "faces", faces)

    @property
    def size(self) -> int:
        return self.naturals + self.twos + self.jokers

    @property
    def wilds(self) -> int:
        return self.twos + self.jokers

    def book_kind(self, book_size: int) -> BookKind | None:
        """``"clean"``, ``"dirty"``, ``"wild"``, or None while it is not a book."""
        return book_kind(book_size, self.target, self.naturals, self.twos + self.jokers)

    def describe(self) -> str:
        what = "all-wild meld" if self.target == WILD_MELD else KIND_PLURALS[self.target]
        return f"{what}: {cards.format_faces(self.faces)}"


@dataclass(frozen=True, slots=True)
class Deal(ByFields):
    """Where every card of a round starts: packets, stock (top first) and discard pile
    (bottom first), after the starter was turned, before any red three is replaced."""

    hands: tuple[tuple[int, ...], ...]
    feet: tuple[tuple[int, ...], ...]
    knees: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    discard: tuple[int, ...]
    dealer: int
    first_player: int

    def all_faces(self) -> list[int]:
        out: list[int] = []
        for group in (self.hands, self.feet, self.knees):
            for packet in group:
                out.extend(packet)
        out.extend(self.stock)
        out.extend(self.discard)
        return out


@dataclass(frozen=True, slots=True)
class ScoreLine(ByFields):
    """One line of a side's round breakdown: ``count`` items worth ``points`` in all."""

    key: str
    label: str
    count: int
    points: int


SCORE_LABELS: Final[Mapping[str, str]] = {
    "melded": "Cards on the table",
    "unfinished_second_melds": "Unfinished second melds",
    "clean_books": "Clean books",
    "special_books": "Special clean books",
    "dirty_books": "Dirty books",
    "wild_books": "All-wild books",
    "red_threes": "Red 3s laid",
    "going_out": "Going out",
    "cards_left": "Cards left in hands and feet",
    "black_threes_caught": "Black 3s left in hands and feet",
    "red_threes_caught": "Red 3s left in hands and feet",
}
"""The label of each :class:`ScoreLine` key the engine scores (an ``"adjustment"`` line,
which only a score keeper adds, carries its own)."""


def _score_line(key: str, count: int, points: int) -> ScoreLine:
    return ScoreLine(key, SCORE_LABELS[key], count, points)


@dataclass(frozen=True, slots=True)
class SideScore(ByFields):
    """A side's score for a round, with its breakdown; ``total`` is the sum of the lines."""

    side: Side
    lines: tuple[ScoreLine, ...]
    total: int


@dataclass(frozen=True, slots=True)
class SideTally(ByFields):
    """What a side's round score is made of, counted at the end of the round: the engine
    counts it from the cards (:meth:`GameState.score_side`), a score keeper at a real table
    from what the players count; :func:`score_tally` scores both the same way."""

    melded_cards: int = 0
    """Cards on the side's table, but those of unfinished second melds."""
    melded_points: int = 0
    unfinished_cards: int = 0
    """Cards of unfinished second melds (only where ``unfinished_second_meld_negative``)."""
    unfinished_points: int = 0
    clean_books: int = 0
    """Clean books but those of the profile's special ranks."""
    special_books: tuple[tuple[Kind, int], ...] = ()
    """(rank, number) of clean books of the ranks of ``special_book_bonus``."""
    dirty_books: int = 0
    wild_books: int = 0
    red_threes: int = 0
    """Red 3s laid down."""
    went_out: bool = False
    left_cards: int = 0
    """Cards left in the side's hands, Knees and Feet, threes aside."""
    left_points: int = 0
    black_threes_left: int = 0
    red_threes_left: int = 0


def score_tally(profile: Profile, side: Side, tally: SideTally,
                adjustments: Sequence[tuple[str, int]] = ()) -> SideScore:
    """A side's round score under ``profile``, with every line of its breakdown, from what
    it counted; ``adjustments`` are (label, points) lines for the tabletop-only rules."""
    p = profile
    lines = [_score_line("melded", tally.melded_cards, tally.melded_points)]
    if p.unfinished_second_meld_negative:
        lines.append(_score_line("unfinished_second_melds", tally.unfinished_cards,
                                 -tally.unfinished_points))
    special = dict(p.special_book_bonus)
    lines.append(_score_line("clean_books", tally.clean_books,
                             tally.clean_books * p.clean_book_bonus))
    if special:
        lines.append(_score_line(
            "special_books", sum(n for _, n in tally.special_books),
            sum(special[rank] * n for rank, n in tally.special_books)))
    lines.append(_score_line("dirty_books", tally.dirty_books,
                             tally.dirty_books * p.dirty_book_bonus))
    if p.all_wild_melds:
        lines.append(_score_line("wild_books", tally.wild_books,
                                 tally.wild_books * p.wild_book_bonus))
    reds = tally.red_threes
    per_red = (p.red_three_bulk_bonus if p.red_three_bulk_count
               and reds >= p.red_three_bulk_count else p.red_three_bonus)
    lines.append(_score_line("red_threes", reds, reds * per_red))
    lines.append(_score_line("going_out", int(tally.went_out),
                             p.going_out_bonus if tally.went_out else 0))
    lines.append(_score_line("cards_left", tally.left_cards, -tally.left_points))
    lines.append(_score_line("black_threes_caught", tally.black_threes_left,
                             -tally.black_threes_left * p.black_three_penalty))
    lines.append(_score_line("red_threes_caught", tally.red_threes_left,
                             -tally.red_threes_left * p.red_three_penalty))
    for label, points in adjustments:
        lines.append(ScoreLine("adjustment", label, 1, points))
    return SideScore(side, tuple(lines), sum(line.points for line in lines))


@dataclass(frozen=True, slots=True)
class RoundResult(ByFields):
    """How a round ended and what each side scored."""

    round_number: int
    reason: RoundEnd
    """``"went out"``, ``"stock exhausted"`` or ``"red 3 not replaced"``."""
    went_out: Seat | None
    """The seat that went out, if any."""
    scores: tuple[SideScore, ...]
    totals: tuple[int, ...]
    """Each side's cumulative total after this round."""


@dataclass(frozen=True, slots=True)
class PlayerView(ByFields):
    """What one seat may know: its own cards, the table, and counts of hidden packets."""

    profile: Profile
    """The rules (public)."""
    seat: Seat
    side: Side
    players: int
    sides: int
    round_number: int
    rounds: int
    phase: Phase
    turn: Seat
    """The seat whose turn it is."""
    to_act: Seat
    """The seat that must act now (a partner, while answering)."""
    opening_minimum: int
    hand: tuple[Face, ...]
    """This seat's playable cards (Hand, then Foot), as faces."""
    hand_counts: tuple[int, ...]
    foot_counts: tuple[int, ...]
    knee_counts: tuple[int, ...]
    in_foot: tuple[bool, ...]
    melds: tuple[tuple[TableMeld, ...], ...]
    red_threes: tuple[tuple[Face, ...], ...]
    opened: tuple[bool, ...]
    discard_top: Face | None
    discard_size: int
    stock_size: int
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    asking: Seat | None
    """The partner asking "May I go out?", when this seat must answer."""
    staged: tuple[MeldGroup, ...]
    legal_actions: tuple[ActionId, ...]
    stalled_turns: int = 0
    """Turns in a row that drew no card from the stock and laid none on the table: the
    round ends "stalled" when it reaches ``profile.stalled_turns_each`` × players."""
    pickup_size: int = 0
    """How many cards taking the pile takes now (the profile's count, or fewer when the
    pile holds fewer)."""

    def __init__(self, profile: Profile, seat: Seat, side: Side, players: int, sides: int,
                 round_number: int, rounds: int, phase: Phase, turn: Seat, to_act: Seat,
                 opening_minimum: int, hand: tuple[Face, ...], hand_counts: tuple[int, ...],
                 foot_counts: tuple[int, ...], knee_counts: tuple[int, ...],
                 in_foot: tuple[bool, ...], melds: tuple[tuple[TableMeld, ...], ...],
                 red_threes: tuple[tuple[Face, ...], ...], opened: tuple[bool, ...],
                 discard_top: Face | None, discard_size: int, stock_size: int,
                 totals: tuple[int, ...], results: tuple[RoundResult, ...], asking: Seat | None,
                 staged: tuple[MeldGroup, ...], legal_actions: tuple[ActionId, ...],
                 stalled_turns: int = 0, pickup_size: int = 0) -> None:
        # Not the dataclass's own: mypyc compiles this one, each line to a slot store
        # (docs/performance.md, "Constructors").
        object.__setattr__(self, "profile", profile)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "round_number", round_number)
        object.__setattr__(self, "rounds", rounds)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "to_act", to_act)
        object.__setattr__(self, "opening_minimum", opening_minimum)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "hand_counts", hand_counts)
        object.__setattr__(self, "foot_counts", foot_counts)
        object.__setattr__(self, "knee_counts", knee_counts)
        object.__setattr__(self, "in_foot", in_foot)
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "red_threes", red_threes)
        object.__setattr__(self, "opened", opened)
        object.__setattr__(self, "discard_top", discard_top)
        object.__setattr__(self, "discard_size", discard_size)
        object.__setattr__(self, "stock_size", stock_size)
        object.__setattr__(self, "totals", totals)
        object.__setattr__(self, "results", results)
        object.__setattr__(self, "asking", asking)
        object.__setattr__(self, "staged", staged)
        object.__setattr__(self, "legal_actions", legal_actions)
        object.__setattr__(self, "stalled_turns", stalled_turns)
        object.__setattr__(self, "pickup_size", pickup_size)


@dataclass(frozen=True, slots=True)
class PublicView(ByFields):
    """What everybody at the table (and a spectator) may see: no hidden card at all.

    Like :class:`PlayerView` without a seat's own hand, staged cards and legal actions.
    """

    profile: Profile
    players: int
    sides: int
    round_number: int
    rounds: int
    phase: Phase
    turn: int
    to_act: int
    opening_minimums: tuple[int, ...]
    """Each side's opening minimum this round."""
    hand_counts: tuple[int, ...]
    foot_counts: tuple[int, ...]
    knee_counts: tuple[int, ...]
    in_foot: tuple[bool, ...]
    melds: tuple[tuple[TableMeld, ...], ...]
    red_threes: tuple[tuple[int, ...], ...]
    opened: tuple[bool, ...]
    discard_top: int | None
    discard_size: int
    stock_size: int
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    asking: int | None
    """The seat asking "May I go out?" while its partners answer."""
    stalled_turns: int = 0
    """As :attr:`PlayerView.stalled_turns`."""
    pickup_size: int = 0
    """As :attr:`PlayerView.pickup_size`."""


@dataclass(frozen=True, slots=True)
class HistoryEntry(ByFields):
    """One committed player move: the round it was made in, the seat, and the move.

    Staging actions are not moves; a confirmed staging is the :class:`~handfoot.game.moves.Meld`
    it made, and a pickup or go-out from staged cards is the full move.
    """

    round_number: int
    seat: int
    move: mv.PlayerMove

    def __init__(self, round_number: int, seat: int, move: mv.PlayerMove) -> None:
        # Not the dataclass's own: mypyc compiles this one, each line to a slot store
        # (docs/performance.md, "Constructors").
        object.__setattr__(self, "round_number", round_number)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "move", move)


@dataclass(frozen=True, slots=True)
class Event(ByFields):
    """What one committed move showed the table (see docs/engine.md, "Events").

    ``public`` is what every seat and spectator may see; ``private`` (or None) only
    ``seat``. Both are JSON-ready: cards are strings in the card notation (``"KS"``).
    """

    number: int
    """0-based index into :attr:`GameState.history`."""
    round_number: int
    seat: int
    public: Mapping[str, Any]
    private: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class Effect(ByFields):
    """A checked move: what a legal move will do, from :meth:`GameState.verify` (nothing
    is played). :meth:`GameState.apply` commits it without checking it again, in the
    position it was checked in (and only there)."""

    move: mv.PlayerMove | None
    """The player move the history will hold (a confirmed staging is its ``Meld``); None
    for a staging action."""
    seat: int
    """The seat making it."""
    melds: tuple[MeldGroup, ...] = ()
    """The groups it lays, each with the pile's top card where that joins it; ``new`` marks
    a group that starts a meld."""
    value: int = 0
    """The card value of what it melds (what counts towards an opening)."""
    books: int = 0
    """Melds it brings to book size."""
    opens: bool = False
    """It lays the side's opening."""
    taken: int = 0
    """Cards it takes from the pile."""
    asks: bool = False
    """It asks the partners "May I go out?" (the going out waits for their answers)."""
    goes_out: bool = False
    """It goes out, ending the round."""
    ends_round: bool = False
    """It ends the round: somebody goes out, or the stock cannot be drawn from, or a red 3
    laid cannot be replaced, or the round stalls at the end of the turn."""
    ends_game: bool = False
    """It ends the game: the last round ends, or a side reaches the target score."""
    checked: Any = field(default=None, compare=False, repr=False)
    """What :meth:`GameState.apply` commits (the state and the position it was checked in,
    and what the checks worked out); no part of what the move does."""


@dataclass(frozen=True, slots=True)
class MeldOptions(ByFields):
    """Where a card of one kind in a seat's hand can go now: the side's melds one such card
    can be added to, whether it can go into a new meld, or why it can do neither. A front
    end highlights the melds a selection can join from these, without working out a rule
    itself (:meth:`GameState.meld_options`)."""

    kind: Kind
    melds: tuple[int, ...]
    """The side's melds (indices into :attr:`PlayerView.melds` of the side) that one card
    of this kind can be added to now."""
    new: bool
    """It can go into a new meld, with enough other cards: a natural of a rank that may
    start a meld now, or a wild card."""
    reason: str | None = None
    """Why it can go into no meld, in a player's words (None when it can)."""


class History(Sequence[HistoryEntry]):
    """A game's committed moves, oldest first, each with what its event showed: an
    immutable sequence that a state, its copies and its positions share (a parent-linked
    list, so taking it or extending it never copies the moves before)."""

    __slots__ = ("_node",)

    def __init__(self, node: _LogNode | None = None) -> None:
        self._node = node

    def __len__(self) -> int:
        return 0 if self._node is None else self._node[1] + 1

    @overload
    def __getitem__(self, index: int) -> HistoryEntry: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[HistoryEntry]: ...

    def __getitem__(self, index: int | slice) -> HistoryEntry | Sequence[HistoryEntry]:
        return self.entries()[index]

    def entries(self) -> tuple[HistoryEntry, ...]:
        """The moves as a tuple."""
        return tuple(node[2] for node in self._nodes(0))

    def _nodes(self, since: int) -> list[_LogNode]:
        """The nodes numbered ``since`` onwards, oldest first."""
        nodes: list[_LogNode] = []
        node = self._node
        while node is not None and node[1] >= since:
            nodes.append(node)
            node = node[0]
        nodes.reverse()
        return nodes

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return other._node is self._node or self.entries() == other.entries()
        if isinstance(other, Sequence):
            return self.entries() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"History({list(self.entries())!r})"


@dataclass(frozen=True)
class Position(ByFields):
    """A round in progress (or finished) as a value: everything a :class:`GameState` holds.

    ``GameState.from_position(pos)`` makes a state from it and ``state.position()`` gives
    it back. Packets are faces: ``hands`` (what each seat holds and plays from), ``feet``
    and ``knees`` not yet picked up; ``stock`` top first, ``pile`` bottom first. ``deal``
    is where the round's cards started (None for a made-up position: its cards as they
    lie); ``seed`` and ``deals`` deal the later rounds.
    """

    profile: Profile
    layout: Layout
    round_number: int
    phase: Phase
    turn: int
    """The seat whose turn it is."""
    to_act: int
    """The seat that must act (a partner, while answering)."""
    hands: tuple[tuple[int, ...], ...]
    feet: tuple[tuple[int, ...], ...]
    knees: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...]
    melds: tuple[tuple[TableMeld, ...], ...]
    red_threes: tuple[tuple[int, ...], ...]
    opened: tuple[bool, ...]
    foot_picked: tuple[bool, ...]
    foot_played: tuple[bool, ...]
    foot_turn_done: tuple[bool, ...]
    totals: tuple[int, ...]
    permission: tuple[bool, ...] = ()
    """Each side's standing permission to go out (empty: none)."""
    refused: bool = False
    """A partner said no to going out this turn."""
    pending: mv.GoOut | None = None
    """The go-out asked for, while partners answer."""
    pending_answerers: tuple[int, ...] = ()
    picked_pile: bool = False
    """The seat whose turn it is took the pile this turn."""
    stalled_turns: int = 0
    """Turns in a row, this one included, in which no card has been drawn from the stock
    or laid on the table for good (``stalled_turns_each``)."""
    staged: tuple[tuple[int, int, int, int], ...] = ()
    """Staged cards: (target * 2 + slot, naturals, twos, jokers)."""
    undo_stack: tuple[tuple[tuple[int, ...], tuple[TableMeld, ...], bool, bool], ...] = ()
    """Melds this turn can take back: (the hand, the side's melds, opened, played from
    the Foot) as they were before each."""
    results: tuple[RoundResult, ...] = ()
    dealer: int | None = None
    """None: the seat before the first player."""
    first_player: int | None = None
    """None: ``turn``."""
    deal: Deal | None = None
    seed: int | None = None
    deals: tuple[Deal, ...] = ()
    history: History = field(default_factory=History)


# --- dealing ---------------------------------------------------------------------------


def _derived_seed(seed: int, label: str) -> int:
    digest = hashlib.sha256(f"handfoot:{seed}:{label}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def deal_round(profile: Profile, layout: Layout, seed: int, round_number: int) -> Deal:
    """Shuffle and deal a round from a game seed, the same on every machine.

    The shoe is shuffled; each seat in turn gets its Hand, then its Knee, then its Foot
    from the top; the starter is turned from the top of the stock, and a rejected starter
    goes back into the stock at a random place before another is turned.
    """
    players = layout.players
    rng = random.Random(_derived_seed(seed, f"round{round_number}"))
    shoe = cards.build_shoe(profile.decks(players), profile.jokers_per_deck)
    rng.shuffle(shoe)
    pos = 0

    def take(n: int) -> tuple[int, ...]:
        nonlocal pos
        out = tuple(shoe[pos:pos + n])
        pos += n
        return out

    hands = tuple(take(profile.hand_size_in(round_number)) for _ in range(players))
    knees = tuple(take(profile.knee_size) for _ in range(players))
    feet = tuple(take(profile.foot_size) for _ in range(players))
    stock = shoe[pos:]
    discard: list[int] = []
    rejected = set(profile.starter_rejected)
    for i in range(profile.starter_cards):
        checked = profile.starter_check_all or i == profile.starter_cards - 1
        if checked and all(FACE_KIND[face] in rejected for face in stock):
            # Loading refuses such rules (rules.py); never loop forever on them.
            raise DealError("discard", "no card left in the stock may be turned as a starter")
        while True:
            face = stock.pop(0)
            if checked and FACE_KIND[face] in rejected:
                stock.insert(rng.randrange(len(stock) + 1), face)
                continue
            discard.append(face)
            break
    if profile.first_player == FirstPlayer.LEFT_OF_DEALER:
        first = (round_number - 1) % players
    else:
        base = random.Random(_derived_seed(seed, "first")).randrange(players)
        first = (base + round_number - 1) % players
    return Deal(hands, feet, knees, tuple(stock), tuple(discard),
                dealer=(first - 1) % players, first_player=first)


def deal_of_round(profile: Profile, layout: Layout, round_number: int, *,
                  deals: Sequence[Deal] = (), seed: int | None = None) -> Deal:
    """The deal of a round of a game begun with explicit ``deals`` and dealt from ``seed``
    once they run out (the rule of :meth:`GameState.new`).

    A seeded round after explicit ones continues their rotation: the dealer and the first
    player move one seat clockwise each round from the last explicit deal (RULES-MATRIX
    D13: "rotating the dealer left each time"; A-19: "the first seat moves one place
    clockwise"), not from where the seed's own rotation would be.
    """
    if round_number <= len(deals):
        return deals[round_number - 1]
    if seed is None:
        raise ValueError(f"no deal for round {round_number} and no seed to deal one")
    deal = deal_round(profile, layout, seed, round_number)
    if not deals:
        return deal
    last, moved, n = deals[-1], round_number - len(deals), layout.players
    return Deal(deal.hands, deal.feet, deal.knees, deal.stock, deal.discard,
                dealer=(last.dealer + moved) % n, first_player=(last.first_player + moved) % n)


def check_deal(profile: Profile, layout: Layout, deal: Deal, round_number: int) -> None:
    """Raise :class:`DealError` unless ``deal`` is one :func:`deal_round` could have dealt
    for this round: the profile's packets (the Hand of this round), seats, shoe and starter.

    The starter rule is the one :func:`deal_round` follows: a kind of ``starter_rejected``
    is never left as a starter card (only the top one is checked where
    ``starter_check_all`` is false). Explicit deals and game records are checked by it.
    """
    players = layout.players
    name = profile.name
    hand_size = profile.hand_size_in(round_number)
    in_round = f" in round {round_number}" if profile.hand_size_by_round else ""
    for key, group, size, what in (("hands", deal.hands, hand_size, "Hand" + in_round),
                                   ("feet", deal.feet, profile.foot_size, "Foot"),
                                   ("knees", deal.knees, profile.knee_size, "Knee")):
        if len(group) != players:
            raise DealError(key, f"{len(group)} packets for the {players} seats of a {layout} "
                                 "game")
        for seat, packet in enumerate(group):
            if len(packet) != size:
                raise DealError(f"{key}[{seat}]", f"{len(packet)} cards; {name} deals {size} "
                                                  f"to each {what}")
    starters = profile.starter_cards
    if len(deal.discard) != starters:
        raise DealError("discard", f"{len(deal.discard)} cards; {name} turns {starters} "
                                   f"starter card{'s' if starters != 1 else ''}")
    for key, seat in (("dealer", deal.dealer), ("first_player", deal.first_player)):
        if not 0 <= seat < players:
            raise DealError(key, f"{seat} is not a seat index of a {layout} game "
                                 f"(0 to {players - 1})")
    decks = profile.decks(players)
    shoe = cards.face_counts(cards.build_shoe(decks, profile.jokers_per_deck))
    got = cards.face_counts(deal.all_faces())
    if got != shoe:
        problems = []
        for label, sign in (("missing", 1), ("too many", -1)):
            faces = [f for f in range(NUM_FACES) if (shoe[f] - got[f]) * sign > 0]
            if faces:
                n = sum(abs(shoe[f] - got[f]) for f in faces)
                shown = " ".join(
                    cards.face_name(f) + (f" ×{abs(shoe[f] - got[f])}"
                                          if abs(shoe[f] - got[f]) > 1 else "")
                    for f in faces[:10])
                more = " ..." if len(faces) > 10 else ""
                problems.append(f"{n} card{'s' if n != 1 else ''} {label} ({shown}{more})")
        raise DealError("", f"the cards are not {name}'s shoe for {players} players ({decks} "
                            f"decks with {profile.jokers_per_deck} jokers each, {sum(shoe)} "
                            "cards): " + "; ".join(problems))
    rejected = profile.starter_rejected
    for i, face in enumerate(deal.discard):
        top_only = not profile.starter_check_all and starters > 1
        if (top_only and i != starters - 1) or FACE_KIND[face] not in rejected:
            continue
        which = "the top starter card" if top_only else "a starter card"
        kinds = join((KIND_NAMES[k] for k in rejected), "or")
        raise DealError(f"discard[{i}]", (
            f"{cards.face_name(face)} ({KIND_NAMES[FACE_KIND[face]]}) cannot be {which}: "
            f"{name} puts a {kinds} back into the stock and turns another"))


# --- the game state --------------------------------------------------------------------

_INF: Final = 1 << 30
_NO_KINDS: Final[list[int]] = [0] * NUM_KINDS
"""No card staged, by kind (read only)."""
_NOTHING_STAGED: Final = (True, False, False, False)
_NONE_STAGED: Final[dict[int, list[int]]] = {}
"""No staged cards (never changed): flags as if nothing were staged."""
""":meth:`GameState._target_flags` of a rank with nothing on the table or staged, that the
pile's top card does not join: a natural may start a meld, nothing else."""

_Checked = tuple[mv.PlayerMove | None, "_Plan | None", list[int] | None]
"""What :meth:`GameState._verify` found: the player move (None for staging), the plan of
its melds (a go-out's for a discard that goes out), and a pickup's cards below the top."""

_MeldState = tuple[int | None, int | None, int, int, int]
"""While planning: the meld a target's next group goes to (a table meld's index, or a
meld of the plan's), with its naturals, twos and jokers."""
_NO_MELD: Final[_MeldState] = (None, None, 0, 0, 0)
"""No meld yet: the next group starts one. Compared with ``==``, not ``is`` (compiled by
mypyc, a constant tuple need not be one object)."""

_LogNode = tuple[Any, int, HistoryEntry, list[tuple[Any, ...]]]
_Listing = tuple[list[int], dict[int, tuple[tuple[MeldGroup, ...], Any, list[int] | None]]]
"""A legal-action listing kept for :meth:`GameState.apply_listed`: the actions, and for
each commit of staged cards it found legal (``PICKUP``, ``CONFIRM``, ``GO_OUT*``) the
groups, the plan and a pickup's cards below the top card that its check worked out."""
"""A history node: (the node before it or None, its 0-based number, the entry, the facts
its event is made from). Copies of a state share their nodes."""


class _Step(NamedTuple):
    """One meld group of a plan: the cards it adds, and the meld they go to."""

    target: int
    naturals: int
    """Naturals from the hand (the pile's top card is not counted here)."""
    twos: int
    jokers: int
    with_top: bool
    """The pile's top card joins this group."""
    meld: int | None
    """The side's table meld it adds to, or None for a meld this plan starts."""
    new_meld: int | None
    """With ``meld`` None: the index in ``_Plan.new_melds`` of the meld it adds to."""
    starts: bool
    """It starts that new meld."""


_new_step: Final = functools.partial(tuple.__new__, _Step)
"""``_Step(*fields)`` from a tuple of the fields, without the named tuple's ``__new__``."""


class _NewMeld:
    """A meld a plan starts: its target and cards once the plan is laid."""

    __slots__ = ("jokers", "naturals", "target", "twos", "with_top")

    def __init__(self, target: int, naturals: int, twos: int, jokers: int,
                 with_top: bool) -> None:
        self.target = target
        self.naturals = naturals
        self.twos = twos
        self.jokers = jokers
        self.with_top = with_top  # it holds the pile's top card


class _Plan:
    """The effect of a list of meld groups, worked out without changing the state."""

    __slots__ = ("books_made", "completed", "new_melds", "steps", "used", "used_top", "value",
                 "wild_value")

    def __init__(self) -> None:
        self.steps: list[_Step] = []
        self.used = [0] * NUM_KINDS  # hand cards used, by kind
        self.used_top = False
        self.value = 0  # card value of everything melded (hand and top card)
        self.wild_value = 0  # of that, in all-wild melds
        self.completed: list[int] = []  # indices of existing melds that became full
        self.new_melds: list[_NewMeld] = []  # the melds started
        self.books_made = 0  # melds that reach book size


_SHARED: Final = "{0}"
"""Copied by sharing: immutable, or replaced rather than changed."""
_LIST: Final = "{0}[:]"
_LISTS: Final = "[x[:] for x in {0}]"
_DICT: Final = "{{k: v[:] for k, v in {0}.items()}}"
_FRESH: Final = "None"
"""Not copied: set to None in the copy."""

_STATE_FIELDS: Final[tuple[tuple[str, str], ...]] = (
    ("profile", _SHARED),
    ("layout", _SHARED),
    ("players", _SHARED),
    ("sides", _SHARED),
    ("side_of", _SHARED),
    ("seed", _SHARED),
    ("deals", _SHARED),
    ("deal", _SHARED),
    ("round_number", _SHARED),
    ("dealer", _SHARED),
    ("first_player", _SHARED),
    ("totals", _LIST),
    ("results", _LIST),
    ("phase", _SHARED),
    ("seat", _SHARED),
    ("actor", _SHARED),
    ("held_faces", _LISTS),
    ("held", _LISTS),
    ("held_n", _LIST),
    ("feet", _LISTS),
    ("knees", _LISTS),
    ("foot_picked", _LIST),
    ("foot_played", _LIST),
    ("foot_turn_done", _LIST),
    ("stock", _LIST),
    ("pile", _LIST),
    ("melds", _LISTS),
    ("red_threes", _LISTS),
    ("opened", _LIST),
    ("permission", _LIST),
    ("_refused", _SHARED),
    ("pending", _SHARED),
    ("pending_answerers", _LIST),
    ("picked_pile", _SHARED),
    ("stalled_turns", _SHARED),
    ("undo_stack", _LIST),
    ("staged", _DICT),
    ("_log", _SHARED),
    ("_facts", _FRESH),
    ("_listed", _FRESH),
    ("_viewed", _FRESH),
)
"""Every field of a :class:`GameState`, with how :meth:`GameState.copy` copies it: the one
list ``__slots__`` is made from and ``copy`` follows. ``new``/``_start_round``, ``position`` and
``from_position`` set or read each field; tests/test_positions.py compares every field of
a copy and of ``from_position(state.position())`` with the state's."""


class GameState:
    """A game of Hand and Foot in progress. See the module docstring."""

    __slots__ = tuple(name for name, _ in _STATE_FIELDS)

    profile: Profile
    layout: Layout
    players: int
    sides: int
    side_of: tuple[int, ...]
    seed: int | None
    deals: tuple[Deal, ...]
    deal: Deal
    """The current round's deal (hidden information: never part of a view)."""
    round_number: int
    dealer: int
    first_player: int
    totals: list[int]
    results: list[RoundResult]
    phase: Phase
    seat: int
    actor: int
    held_faces: list[list[int]]
    held: list[list[int]]
    held_n: list[int]
    feet: list[list[int]]
    knees: list[list[int]]
    foot_picked: list[bool]
    foot_played: list[bool]
    foot_turn_done: list[bool]
    stock: list[int]
    pile: list[int]
    melds: list[list[TableMeld]]
    red_threes: list[list[int]]
    opened: list[bool]
    permission: list[bool]
    _refused: bool
    pending: mv.GoOut | None
    pending_answerers: list[int]
    picked_pile: bool
    stalled_turns: int
    """Turns in a row, this one included, in which no card has been drawn from the stock
    or laid on the table for good; the round ends when it reaches ``stalled_turns_each``
    × players at a turn's end."""
    undo_stack: list[tuple[list[int], list[int], int, list[TableMeld], bool, bool]]
    staged: dict[int, list[int]]
    _log: _LogNode | None
    """The history, newest first: a parent-linked list that copies share."""
    _facts: list[tuple[Any, ...]] | None
    """While a move is being committed: what it showed the table, for its event."""
    _listed: _Listing | None
    """The last legal-action listing, for :meth:`apply_listed` (a cache, not state: None
    in copies and after any move)."""
    _viewed: tuple[_LogNode | None, int, tuple[Any, ...], list[Any]] | None
    """For :meth:`play_view`: the history node, the seat, the fields of that seat's view
    that only a move changes, and what its listings keep until the next move (see
    :meth:`_stage_actions`) (a cache, not state: None in copies)."""

    # --- construction ------------------------------------------------------------------

    @classmethod
    def new(cls, profile: Profile, *, layout: Layout | None = None, seed: int | None = None,
            deals: Sequence[Deal] = ()) -> GameState:
        """Start a game: round 1 is dealt from ``deals[0]`` if given, else from ``seed``.

        Later rounds use the next explicit deal, or the seed when deals run out.
        """
        layout = layout or profile.layout
        profile.check_layout(layout)
        if seed is None and len(deals) < profile.rounds:
            raise ValueError(f"a game of {profile.rounds} rounds needs a seed or a deal for "
                             f"every round (got {len(deals)} deals)")
        for number, deal in enumerate(deals, 1):
            try:
                check_deal(profile, layout, deal, number)
            except DealError as exc:
                raise ValueError(f"the deal of round {number}: {exc}") from None
        self = cls()
        self.profile = profile
        self.layout = layout
        self.players = layout.players
        self.sides = layout.sides
        self.side_of = tuple(layout.side_of(s) for s in range(layout.players))
        self.seed = seed
        self.deals = tuple(deals)
        self.round_number = 0
        self.totals = [0] * self.sides
        self.results = []
        self._log = None
        self._facts = None
        self._listed = None
        self._viewed = None
        self._start_round(1)
        return self

    def _deal_for(self, round_number: int) -> Deal:
        # explicit deals were checked when the game was created
        return deal_of_round(self.profile, self.layout, round_number, deals=self.deals,
                             seed=self.seed)

    def _start_round(self, round_number: int) -> None:
        deal = self._deal_for(round_number)
        n, s = self.players, self.sides
        self.deal = deal
        self.round_number = round_number
        self.dealer = deal.dealer
        self.first_player = deal.first_player
        self.held_faces = [cards.face_counts(h) for h in deal.hands]
        self.held = [cards.kind_counts(h) for h in deal.hands]
        self.held_n = [len(h) for h in deal.hands]
        self.feet = [list(f) for f in deal.feet]
        self.knees = [list(k) for k in deal.knees]
        self.foot_picked = [False] * n
        self.foot_played = [False] * n
        self.foot_turn_done = [False] * n
        self.stock = list(reversed(deal.stock))  # top at the end
        self.pile = list(deal.discard)
        self.melds = [[] for _ in range(s)]
        self.red_threes = [[] for _ in range(s)]
        self.opened = [False] * s
        self.permission = [False] * s
        self._refused = False
        self.pending = None
        self.pending_answerers = []
        self.picked_pile = False
        self.stalled_turns = 0
        self.undo_stack = []
        self.staged = {}
        self.seat = self.actor = deal.first_player
        self.phase = _DRAW
        # Red threes in the dealt Hands are laid and replaced in turn order.
        for i in range(n):
            seat = (deal.first_player + i) % n
            if not self._lay_red_threes(seat):
                return
        self._begin_turn(deal.first_player)

    def position(self) -> Position:
        """The state as a value (see :class:`Position`); cheap: the history is shared."""
        return Position(
            profile=self.profile, layout=self.layout, round_number=self.round_number,
            phase=self.phase, turn=self.seat, to_act=self.actor,
            hands=tuple(tuple(self.hand(s)) for s in range(self.players)),
            feet=tuple(map(tuple, self.feet)), knees=tuple(map(tuple, self.knees)),
            stock=tuple(reversed(self.stock)), pile=tuple(self.pile),
            melds=tuple(map(tuple, self.melds)), red_threes=tuple(map(tuple, self.red_threes)),
            opened=tuple(self.opened), foot_picked=tuple(self.foot_picked),
            foot_played=tuple(self.foot_played), foot_turn_done=tuple(self.foot_turn_done),
            totals=tuple(self.totals), permission=tuple(self.permission),
            refused=self._refused, pending=self.pending,
            pending_answerers=tuple(self.pending_answerers), picked_pile=self.picked_pile,
            stalled_turns=self.stalled_turns,
            staged=tuple((key, n, tw, jk) for key, (n, tw, jk) in sorted(self.staged.items())),
            undo_stack=tuple((tuple(cards.faces_from_counts(faces)), tuple(melds), opened,
                              played)
                             for faces, _, _, melds, opened, played in self.undo_stack),
            results=tuple(self.results), dealer=self.dealer, first_player=self.first_player,
            deal=self.deal, seed=self.seed, deals=self.deals, history=self.history)

    @classmethod
    def from_position(cls, pos: Position) -> GameState:
        """A state holding ``pos``; its moves then play on as in any game.

        Raises ``ValueError`` if the position's seats and sides do not fit its layout.
        """
        layout = pos.layout
        n, sides = layout.players, layout.sides
        for name in ("hands", "feet", "knees", "foot_picked", "foot_played", "foot_turn_done"):
            if len(getattr(pos, name)) != n:
                raise ValueError(f"the position's {name} are for {len(getattr(pos, name))} "
                                 f"seats; a {layout} game has {n}")
        for name in ("melds", "red_threes", "opened", "totals"):
            if len(getattr(pos, name)) != sides:
                raise ValueError(f"the position's {name} are for {len(getattr(pos, name))} "
                                 f"sides; a {layout} game has {sides}")
        if not (0 <= pos.turn < n and 0 <= pos.to_act < n):
            raise ValueError(f"seats are numbered 0 to {n - 1}")
        self = cls()
        self.profile = pos.profile
        self.layout = layout
        self.players = n
        self.sides = sides
        self.side_of = tuple(layout.side_of(s) for s in range(n))
        self.seed = pos.seed
        self.deals = pos.deals
        first = pos.turn if pos.first_player is None else pos.first_player
        self.deal = pos.deal or Deal(pos.hands, pos.feet, pos.knees, pos.stock, pos.pile,
                                     dealer=(first - 1) % n, first_player=first)
        self.round_number = pos.round_number
        self.dealer = (first - 1) % n if pos.dealer is None else pos.dealer
        self.first_player = first
        self.totals = list(pos.totals)
        self.results = list(pos.results)
        self.phase = pos.phase
        self.seat = pos.turn
        self.actor = pos.to_act
        self.held_faces = [cards.face_counts(h) for h in pos.hands]
        self.held = [cards.kind_counts(h) for h in pos.hands]
        self.held_n = [len(h) for h in pos.hands]
        self.feet = [list(f) for f in pos.feet]
        self.knees = [list(k) for k in pos.knees]
        self.foot_picked = list(pos.foot_picked)
        self.foot_played = list(pos.foot_played)
        self.foot_turn_done = list(pos.foot_turn_done)
        self.stock = list(reversed(pos.stock))
        self.pile = list(pos.pile)
        self.melds = [list(m) for m in pos.melds]
        self.red_threes = [list(r) for r in pos.red_threes]
        self.opened = list(pos.opened)
        self.permission = list(pos.permission) or [False] * sides
        self._refused = pos.refused
        self.pending = pos.pending
        self.pending_answerers = list(pos.pending_answerers)
        self.picked_pile = pos.picked_pile
        self.stalled_turns = pos.stalled_turns
        self.undo_stack = [(cards.face_counts(hand), cards.kind_counts(hand), len(hand),
                            list(melds), opened, played)
                           for hand, melds, opened, played in pos.undo_stack]
        self.staged = {key: [n_, tw, jk] for key, n_, tw, jk in pos.staged}
        self._log = pos.history._node
        self._facts = None
        self._listed = None
        self._viewed = None
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.position() == other.position()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<GameState {self.profile.name} {self.layout} round {self.round_number}: "
                f"seat {self.actor + 1} to act ({self.phase.name.lower()}), "
                f"{self.moves_played} moves>")

    def copy(self) -> GameState:
        """An independent copy (the profile and immutable parts are shared).

        One assignment per field, no loop, each copied as :data:`_STATE_FIELDS` says
        (written out rather than made by ``exec`` so that mypyc can compile it;
        tests/test_compiled.py checks it against the list).
        """
        c = GameState()
        c.profile = self.profile
        c.layout = self.layout
        c.players = self.players
        c.sides = self.sides
        c.side_of = self.side_of
        c.seed = self.seed
        c.deals = self.deals
        c.deal = self.deal
        c.round_number = self.round_number
        c.dealer = self.dealer
        c.first_player = self.first_player
        c.totals = self.totals[:]
        c.results = self.results[:]
        c.phase = self.phase
        c.seat = self.seat
        c.actor = self.actor
        c.held_faces = [x[:] for x in self.held_faces]
        c.held = [x[:] for x in self.held]
        c.held_n = self.held_n[:]
        c.feet = [x[:] for x in self.feet]
        c.knees = [x[:] for x in self.knees]
        c.foot_picked = self.foot_picked[:]
        c.foot_played = self.foot_played[:]
        c.foot_turn_done = self.foot_turn_done[:]
        c.stock = self.stock[:]
        c.pile = self.pile[:]
        c.melds = [x[:] for x in self.melds]
        c.red_threes = [x[:] for x in self.red_threes]
        c.opened = self.opened[:]
        c.permission = self.permission[:]
        c._refused = self._refused
        c.pending = self.pending
        c.pending_answerers = self.pending_answerers[:]
        c.picked_pile = self.picked_pile
        c.stalled_turns = self.stalled_turns
        c.undo_stack = self.undo_stack[:]
        c.staged = {k: v[:] for k, v in self.staged.items()}
        c._log = self._log
        c._facts = None
        c._listed = None
        c._viewed = None
        return c

    # --- queries -----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == _GAME_OVER

    @property
    def to_act(self) -> int:
        """The seat that must act now."""
        return self.actor

    @property
    def opening_minimum(self) -> int:
        """The opening minimum of the side whose turn it is."""
        return self.opening_minimum_of(self.side_of[self.seat])

    def opening_minimum_of(self, side: Side) -> int:
        """A side's opening minimum this round (by round, or by its score); 0 in a round
        whose opening needs a clean book instead (A-25)."""
        return side_opening_minimum(self.profile, self.round_number, self.totals[side])

    def knee_open(self, side: Side) -> bool:
        """Whether a side's players may pick up their Knees: it has completed a book."""
        size = self.profile.book_size
        return any(m.size >= size for m in self.melds[side])

    def hand(self, seat: Seat) -> list[Face]:
        """The faces a seat holds (its Hand, or its Foot once picked up)."""
        return cards.faces_from_counts(self.held_faces[seat])

    def partners(self, seat: Seat) -> tuple[Seat, ...]:
        return tuple(s for s in self.layout.seats_of(self.side_of[seat]) if s != seat)

    def in_last_packet(self, seat: Seat) -> bool:
        """True once a seat has picked up every packet it was dealt."""
        return self.foot_picked[seat] and not self.knees[seat]

    def book_counts(self, side: Side) -> dict[str, int]:
        """Completed books of a side by kind, and clean books by rank (``"clean:5"``)."""
        return count_books(self.profile, ((m.target, m.naturals, m.twos + m.jokers)
                                          for m in self.melds[side])).as_dict()

    def winners(self) -> tuple[Side, ...]:
        """The sides with the highest total (several on a tie)."""
        best = max(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)

    def all_faces(self) -> list[int]:
        """Every physical card of the current round, wherever it is (for invariant checks)."""
        out: list[int] = []
        for seat in range(self.players):
            out.extend(self.hand(seat))
            out.extend(self.feet[seat])
            out.extend(self.knees[seat])
        out.extend(self.stock)
        out.extend(self.pile)
        for side in range(self.sides):
            for m in self.melds[side]:
                out.extend(m.faces)
            out.extend(self.red_threes[side])
        return out

    @property
    def history(self) -> History:
        """Every committed player move of the game so far, oldest first."""
        return History(self._log)

    @property
    def moves_played(self) -> int:
        """The number of committed player moves: ``len(state.history)``, in O(1)."""
        return 0 if self._log is None else self._log[1] + 1

    def events(self, since: int = 0) -> list[Event]:
        """The events of the history entries numbered ``since`` onwards, oldest first.

        Each was noted when its move was committed; see docs/engine.md for every field.
        """
        out = []
        for _, number, entry, facts in History(self._log)._nodes(since):
            public, private = _event_parts(entry, facts)
            out.append(Event(number, entry.round_number, entry.seat, public, private))
        return out

    # --- applying moves ------------------------------------------------------------------

    def apply(self, move: mv.Move | Effect) -> None:
        """Play a move for the seat to act, or raise :class:`IllegalMoveError`.

        On an error the state is exactly as it was. ``apply`` is :meth:`verify` and then
        the commit of what it found; given the :class:`Effect` that :meth:`verify` returned
        in this position, it commits that without checking again (``ValueError`` if the
        state has moved on since).
        """
        self._listed = None
        if isinstance(move, Effect):
            self._apply_checked(move)
            return
        try:
            checked = self._verify(move)
        except IllegalMoveError as exc:
            str(exc)  # word the reason now, while the state is the one it is about
            raise
        if checked[0] is not None:
            self._commit_move(checked)
        elif isinstance(move, mv.Stage):
            self._stage(move.kind, move.target, move.slot)
        else:
            self.staged = {}  # ClearStaged

    def verify(self, move: mv.Move) -> Effect:
        """Check a move without playing it: raise :class:`IllegalMoveError` with the reason
        (the one :meth:`apply` would give), or return the checked move, an :class:`Effect`
        that says what it will do (whether it ends the round or the game included) and
        that :meth:`apply` commits as it is."""
        try:
            checked = self._verify(move)
        except IllegalMoveError as exc:
            str(exc)
            raise
        return self._effect(move, checked)

    def _apply_checked(self, effect: Effect) -> None:
        """Commit a move :meth:`verify` checked, if the state is still where it was."""
        at = effect.checked
        if (not isinstance(at, tuple) or at[0] is not self or at[1] is not self._log
                or (at[2] is not None and at[2] != self._staged_now())):
            raise ValueError("this move was checked in another position: verify it again")
        move, checked = at[3], at[4]
        if checked[0] is not None:
            self._commit_move(checked)
        elif isinstance(move, mv.Stage):
            self._stage(move.kind, move.target, move.slot)
        else:
            self.staged = {}  # ClearStaged

    def _staged_now(self) -> tuple[tuple[int, int, int, int], ...]:
        """The staged cards as a value (a staging action's check depends on them)."""
        return tuple((key, n, tw, jk) for key, (n, tw, jk) in sorted(self.staged.items()))

    def is_legal(self, move: mv.Move) -> bool:
        """Whether :meth:`apply` would play ``move`` now (cheap: no reason is worded)."""
        try:
            self._verify(move)
        except IllegalMoveError:
            return False
        return True

    def _verify(self, move: mv.Move) -> _Checked:
        """Every check of a move, in the order :meth:`apply` makes them; returns what the
        commit needs (see :data:`_Checked`)."""
        if self.phase == _GAME_OVER:
            raise IllegalMoveError("the game is over")
        # the most frequent first (the listing asks about pickups, melds and go-outs)
        if isinstance(move, mv.Stage):
            self._verify_stage(move.kind, move.target, move.slot)
            return (None, None, None)
        if isinstance(move, mv.Pickup):
            plan, rest = self._verify_pickup(move.groups)
            return (move, plan, rest)
        if isinstance(move, mv.Discard):
            return (move, self._verify_discard(move.kind), None)
        if isinstance(move, mv.Draw):
            self._require(_DRAW, "draw")
            return (move, None, None)
        if isinstance(move, mv.Meld):
            return (move, self._verify_meld(move.groups), None)
        if isinstance(move, mv.GoOut):
            return (move, self._verify_go_out(move.groups, move.discard), None)
        if isinstance(move, mv.Confirm):
            self._require(_PLAY, "meld")
            if not self.staged:
                raise IllegalMoveError("no cards are staged to meld")
            meld = self.player_move(move)
            assert isinstance(meld, mv.Meld)
            return (meld, self._verify_meld(meld.groups), None)
        if isinstance(move, mv.ClearStaged):
            if not self.staged:
                raise IllegalMoveError("no cards are staged")
            return (None, None, None)
        if isinstance(move, mv.Answer):
            if self.phase != _ANSWER:
                raise IllegalMoveError("nobody is asking to go out")
            return (move, None, None)
        if isinstance(move, mv.Undo):
            self._verify_undo()
            return (move, None, None)
        if isinstance(move, mv.Knock):
            self._verify_knock()
            return (move, None, None)
        if isinstance(move, mv.PickUpKnee):
            self._verify_knee()
            return (move, None, None)
        # unreachable for mypy (every move type is handled above), so no lambda: mypyc
        # compiles no lambda in code it thinks unreachable
        raise IllegalMoveError("that is not a move")

    def _effect(self, move: mv.Move, checked: _Checked) -> Effect:
        player_move, plan, _ = checked
        seat, side = self.actor, self.side_of[self.actor]
        # a staging action, and a Confirm (the Meld of the staged cards), hold only while
        # the staged cards are the ones they were checked with
        staged = self._staged_now() if player_move is None or isinstance(
            move, mv.Confirm) else None
        at = (self, self._log, staged, move, checked)
        ends_round = player_move is not None and self._ends_round(checked)
        ends_game = ends_round and self._ends_game(checked)
        if plan is None:
            last_yes = (isinstance(move, mv.Answer) and move.yes
                        and len(self.pending_answerers) == 1)
            return Effect(player_move, seat, goes_out=last_yes, ends_round=ends_round,
                          ends_game=ends_game, checked=at)
        top_kind = FACE_KIND[self.pile[-1]] if isinstance(move, mv.Pickup) else -1
        melds = []
        for st in plan.steps:  # the top card joins the group it is melded with
            top = (0, 0, 0) if not st.with_top else (
                (0, 1, 0) if top_kind == TWO else (0, 0, 1) if top_kind == JOKER else (1, 0, 0))
            melds.append(MeldGroup(st.target, st.naturals + top[0], st.twos + top[1],
                                   st.jokers + top[2], new=st.starts))
        asks = isinstance(move, mv.GoOut) and self._needs_permission(seat)
        return Effect(
            player_move, seat, melds=tuple(melds), value=plan.value, books=plan.books_made,
            opens=bool(plan.steps) and not self.opened[side],
            taken=self.pickup_size() if isinstance(move, mv.Pickup) else 0, asks=asks,
            goes_out=isinstance(move, mv.Discard) or (isinstance(move, mv.GoOut) and not asks),
            ends_round=ends_round, ends_game=ends_game, checked=at)

    # --- what a checked move will end ----------------------------------------------------
    #
    # The round ends inside a commit, after the automatic steps a move sets off: red 3s
    # laid and replaced from the stock, a Foot or Knee picked up, the turn ending and the
    # next beginning. These methods follow the same steps without changing anything, to
    # tell before the commit whether it will end the round (tests/test_checked_moves.py
    # holds them to what the commit does, move by move, in games of every profile).

    def _ends_round(self, checked: _Checked) -> bool:
        """Whether committing a checked player move ends the round."""
        move, plan, rest = checked
        seat = self.seat
        if isinstance(move, mv.GoOut):
            return not self._needs_permission(seat)
        if isinstance(move, mv.Answer):
            return move.yes and len(self.pending_answerers) == 1
        if isinstance(move, mv.Discard):
            return plan is not None or self._turn_end_ends(seat, len(self.stock))
        if isinstance(move, mv.Knock):
            return self._turn_end_ends(seat, len(self.stock))
        if isinstance(move, mv.PickUpKnee):
            reds = self.held[seat][RED_THREE] + self._reds_in(self.knees[seat])
            return self._reds_end(reds, len(self.stock)) < 0
        if isinstance(move, mv.Draw):
            return self._draw_ends(seat)
        if isinstance(move, mv.Meld):
            assert plan is not None
            return self._after_meld_ends(seat, plan, self.held_n[seat] - sum(plan.used),
                                         self.held[seat][RED_THREE], kept=True)
        if isinstance(move, mv.Pickup):
            assert plan is not None and rest is not None
            top_held = not plan.used_top
            held = self.held_n[seat] + len(rest) + top_held - sum(plan.used)
            reds = (self.held[seat][RED_THREE] + self._reds_in(rest)
                    + (top_held and FACE_KIND[self.pile[-1]] == RED_THREE))
            if self.held_n[seat] == 0 and not self.foot_picked[seat] and held:
                reds += self._reds_in(self.feet[seat])  # the delayed Foot
                return self._reds_end(reds, len(self.stock)) < 0
            return self._after_meld_ends(seat, plan, held, reds, kept=False)
        return False  # Undo

    def _ends_game(self, checked: _Checked) -> bool:
        """Whether a checked player move that ends the round ends the game too."""
        p = self.profile
        if self.round_number >= p.rounds:
            return True
        if p.target_score is None:
            return False
        # Whether a side reaches the target depends on the round's scores as it ends:
        # worked out by committing the move on a copy (once a round, and only in a game
        # played to a target score).
        trial = self.copy()
        trial._commit_move(checked)
        return trial.phase == _GAME_OVER

    def _draw_ends(self, seat: int) -> bool:
        p = self.profile
        stock = self.stock
        count = p.draw_count
        if len(stock) < count:
            if not (p.partial_last_draw and stock):
                return True
            count = len(stock)
        left = len(stock) - count
        reds = self.held[seat][RED_THREE] + self._reds_in(stock[left:])
        left = self._reds_end(reds, left)
        if left < 0:
            return True
        if self.held_n[seat] == 0 and not self.foot_picked[seat]:  # a delayed Foot
            return self._reds_end(self._reds_in(self.feet[seat]), left) < 0
        return False

    def _after_meld_ends(self, seat: int, plan: _Plan, held: int, reds: int, *,
                         kept: bool) -> bool:
        """:meth:`_after_cards_left_hand` once a plan is laid and the seat holds ``held``
        cards, ``reds`` of them red 3s; ``kept``: the melds can be taken back until the
        turn ends (a meld; a pickup's cannot), so ending it keeps them."""
        p = self.profile
        side = self.side_of[seat]
        knee_open = self.knee_open(side) or plan.books_made > 0
        stock = len(self.stock)
        if p.knee_auto_pickup and self.knees[seat] and knee_open:
            return self._reds_end(reds + self._reds_in(self.knees[seat]), stock) < 0
        if held:
            return False
        if self.knees[seat] and knee_open:
            return self._reds_end(reds + self._reds_in(self.knees[seat]), stock) < 0
        if not self.foot_picked[seat] and p.foot_at_once:
            return self._reds_end(reds + self._reds_in(self.feet[seat]), stock) < 0
        stalled = 0 if (kept or plan.steps) else self.stalled_turns
        return self._turn_end_ends(seat, stock, stalled, knee_open=knee_open)

    def _turn_end_ends(self, seat: int, stock: int, stalled: int | None = None, *,
                       knee_open: bool | None = None) -> bool:
        """:meth:`_end_turn` with ``stock`` cards left: the round stalls, or the next seat's
        Foot or Knee brings a red 3 that cannot be replaced. ``stalled``: the turns
        stalled so far (else as the state has it, or none when melds are kept now);
        ``knee_open``: whether the seat's side has a book by then."""
        p = self.profile
        if stalled is None:
            stalled = 0 if self.undo_stack else self.stalled_turns
        limit = p.stalled_turns_each
        if limit is not None and stalled >= limit * self.players:
            return True
        nxt = (seat + 1) % self.players
        reds = self.held[nxt][RED_THREE]
        if self.held_n[nxt] == 0 and not self.foot_picked[nxt] and p.foot_at_once:
            return self._reds_end(reds + self._reds_in(self.feet[nxt]), stock) < 0
        side = self.side_of[nxt]
        opened = self.knee_open(side) if knee_open is None or side != self.side_of[seat] \
            else knee_open
        if p.knee_auto_pickup and self.knees[nxt] and opened:
            return self._reds_end(reds + self._reds_in(self.knees[nxt]), stock) < 0
        return False

    def _reds_end(self, reds: int, left: int) -> int:
        """:meth:`_lay_red_threes` for ``reds`` red 3s with the stock's first ``left``
        cards (bottom first) to replace them from: how many are left after, or -1 if the
        stock runs out first (the round ends)."""
        stock = self.stock
        while reds:
            reds -= 1
            if left == 0:
                return -1
            left -= 1
            if FACE_KIND[stock[left]] == RED_THREE:
                reds += 1
        return left

    @staticmethod
    def _reds_in(faces: Sequence[int]) -> int:
        return sum(1 for face in faces if FACE_KIND[face] == RED_THREE)

    def player_move(self, move: mv.Move) -> mv.PlayerMove:
        """The player move a move stands for now: a :class:`~handfoot.game.moves.Confirm` is
        the :class:`~handfoot.game.moves.Meld` of the staged cards (what the history and game
        records hold); a player move is itself. Staging actions are not player moves."""
        if isinstance(move, mv.Confirm):
            return mv.Meld(self.staged_groups())
        if isinstance(move, mv.Stage | mv.ClearStaged):
            raise IllegalMoveError(lambda: f"staging is not a player move: {move!r}")
        return move

    def _commit_move(self, checked: _Checked) -> None:
        """Play a verified player move and add it to the history (with what its event
        shows)."""
        move, plan, extra = checked
        assert move is not None
        seat, round_number = self.actor, self.round_number
        facts: list[tuple[Any, ...]] = []
        self._facts = facts
        try:
            match move:
                case mv.Draw():
                    self._draw()
                case mv.Pickup():
                    assert plan is not None and extra is not None
                    self._pickup(plan, extra)
                case mv.Meld():
                    assert plan is not None
                    self._meld(plan)
                case mv.Discard(kind):
                    self._discard(kind, plan)
                case mv.GoOut(groups, discard):
                    assert plan is not None
                    self._go_out(groups, discard, plan)
                case mv.Answer(yes):
                    self._answer(yes)
                case mv.Undo():
                    self._undo()
                case mv.Knock():
                    self._end_turn()
                case mv.PickUpKnee():
                    self._pick_up_knee(self.seat)
        finally:
            self._facts = None
        log = self._log
        self._log = (log, 0 if log is None else log[1] + 1,
                     HistoryEntry(round_number, seat, move), facts)

    def check(self, move: mv.Move) -> str | None:
        """The reason a move is illegal now, or None if it is legal (see :meth:`verify`)."""
        try:
            self._verify(move)
        except IllegalMoveError as exc:
            return str(exc)
        return None

    def apply_action(self, action: ActionId) -> mv.Move | None:
        """Play an integer action; returns the player move it committed (None for staging).

        Staged cards become a :class:`~handfoot.game.moves.Meld`,
        :class:`~handfoot.game.moves.Pickup` or :class:`~handfoot.game.moves.GoOut`, which
        is what a game record stores.
        """
        self._listed = None
        move = mv.decode_action(action)
        if type(move) is mv.Stage and self.phase != _GAME_OVER:
            # the most frequent action: what apply does for it, without the dispatch
            try:
                self._verify_stage(move.kind, move.target, move.slot)
            except IllegalMoveError as exc:
                str(exc)  # word the reason now, while the state is the one it is about
                raise
            self._stage(move.kind, move.target, move.slot)
            return None
        if isinstance(move, (mv.Stage, mv.ClearStaged)):
            self.apply(move)
            return None
        if isinstance(move, mv.Pickup):
            player_move: mv.PlayerMove = mv.Pickup(self.staged_groups())
        elif isinstance(move, mv.GoOut):
            player_move = mv.GoOut(self.staged_groups(), move.discard)
        else:
            player_move = self.player_move(move)
        if isinstance(player_move, mv.Meld) and not player_move.groups:
            raise IllegalMoveError("no cards are staged to meld")
        self.apply(player_move)
        return player_move

    def apply_listed(self, action: ActionId) -> mv.Move | None:
        """:meth:`apply_action` for an action of the listing made just before
        (:meth:`legal_actions`, or the :meth:`view` of the seat to act), with nothing done
        to the state in between: the fast path of a play loop.

        What the listing checked is not checked again: a staging action is played at once,
        and a pickup, meld or go-out of the staged cards is committed with the plan the
        listing worked out. An action the listing did not find legal (or with no listing
        kept) goes through :meth:`apply_action`, with its checks and its reason.
        """
        listed = self._listed
        self._listed = None
        if listed is None or action not in listed[0]:
            return self.apply_action(action)
        move = mv.decode_action(action)
        if type(move) is mv.Stage:
            self._stage(move.kind, move.target, move.slot)
            return None
        checked = listed[1].get(action)
        if checked is None:
            return self.apply_action(action)
        groups, plan, rest = checked
        player_move: mv.PlayerMove
        if action == mv.CONFIRM:
            player_move = mv.Meld(groups)
        elif action == mv.PICKUP:
            player_move = mv.Pickup(groups)
        else:
            assert isinstance(move, mv.GoOut)
            player_move = mv.GoOut(groups, move.discard)
        self._commit_move((player_move, plan, rest))
        return player_move

    def _require(self, phase: Phase, what: str) -> None:
        if self.phase == phase:
            return
        if self.phase == _ANSWER:
            raise IllegalMoveError(lambda:
                f"seat {self.actor + 1} must first answer whether seat {self.seat + 1} may go out")
        if phase == _PLAY:
            raise IllegalMoveError(lambda: f"you must draw or take the pile before you {what}")
        if phase == _DRAW:
            raise IllegalMoveError(lambda:
                f"you have already drawn this turn; you cannot {what} now")
        raise IllegalMoveError(lambda: f"you cannot {what} now")

    # --- drawing ---------------------------------------------------------------------------

    def _draw(self) -> None:
        p = self.profile
        seat = self.seat
        count = p.draw_count
        if len(self.stock) < count:
            if not (p.partial_last_draw and self.stock):
                self._end_round(RoundEnd.STOCK_EXHAUSTED, None)
                return
            count = len(self.stock)
        foot_due = self.held_n[seat] == 0 and not self.foot_picked[seat]
        drawn = [self.stock.pop() for _ in range(count)]
        self.stalled_turns = 0
        for face in drawn:
            self._add(seat, face)
        if self._facts is not None:
            self._facts.append(("drew", seat, drawn))
        self.staged = {}
        self.phase = _PLAY
        if self._lay_red_threes(seat) and foot_due:
            self._pick_up_foot(seat)  # a delayed Foot comes after the draw

    def pickup_size(self) -> int:
        """How many cards a pickup takes now."""
        n = self.profile.pickup_count
        return len(self.pile) if n is None else min(n, len(self.pile))

    def _pickup(self, plan: _Plan, rest: list[int]) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        foot_due = self.held_n[seat] == 0 and not self.foot_picked[seat]
        top = self.pile.pop()
        del self.pile[len(self.pile) - len(rest):]
        if self._facts is not None:
            self._facts.append(("took", top, rest))
        if self.profile.pickup_opening_counts == _ALL_PICKED_COUNT:
            for face in rest:  # every picked card may be melded at once
                self._add(seat, face)
            self._commit(seat, plan, top)
        else:
            self._commit(seat, plan, top)  # hand cards and the top card only
            for face in rest:
                self._add(seat, face)
        if not plan.used_top:
            self._add(seat, top)
        if plan.steps:
            self.opened[side] = True
            self.stalled_turns = 0  # the top card went onto the table
            if self.foot_picked[seat]:
                self.foot_played[seat] = True
        self.staged = {}
        self.picked_pile = True
        self.phase = _PLAY
        self.undo_stack = []
        if foot_due and self.held_n[seat]:
            self._pick_up_foot(seat)  # a delayed Foot comes after the pickup
        else:
            self._after_cards_left_hand(seat)

    def pickup_blocker(self) -> str | None:
        """Why the pile cannot be taken at all now, whatever the player holds."""
        p = self.profile
        if not p.pickup_allowed:
            return "this profile never lets the discard pile be taken"
        if not self.pile:
            return "the discard pile is empty"
        if len(self.pile) < p.pickup_min_pile:
            return (f"the pile must hold at least {p.pickup_min_pile} cards to be taken; "
                    f"it holds {len(self.pile)}")
        top_kind = FACE_KIND[self.pile[-1]]
        if top_kind == BLACK_THREE and p.pickup_black_three_blocks:
            return "a black 3 on top of the pile blocks it"
        if cards.is_wild(top_kind) and p.pickup_wild_top == _WILD_TOP_FORBIDDEN:
            return "the pile cannot be taken with a wild card on top"
        return None

    def _verify_pickup(self, groups: tuple[MeldGroup, ...]) -> tuple[_Plan, list[int]]:
        if self.phase != _DRAW:
            self._require(_DRAW, "take the pile")
        return self._check_pickup(groups)

    def _check_pickup(self, groups: tuple[MeldGroup, ...]) -> tuple[_Plan, list[int]]:
        """Check a pickup; returns its plan and the picked cards other than the top."""
        p = self.profile
        blocker = self.pickup_blocker()
        if blocker:
            raise IllegalMoveError(blocker)
        seat, side = self.seat, self.side_of[self.seat]
        top = self.pile[-1]
        top_kind = FACE_KIND[top]
        taken = self.pickup_size()
        wild_top = cards.is_wild(top_kind)
        target = WILD_MELD if wild_top else top_kind
        rest = self.pile[len(self.pile) - taken:-1]
        all_picked = p.pickup_opening_counts == _ALL_PICKED_COUNT
        extra = cards.kind_counts(rest) if all_picked else None
        cur = self._current_meld(side, target) if top_kind != BLACK_THREE else -1
        if top_kind != BLACK_THREE:
            if p.pickup_existing_meld == _EXISTING_FORBIDDEN and any(
                    m.target == target for m in self.melds[side]):
                raise IllegalMoveError(lambda:
                    f"your side already has {_target_plural(target)} on the table, so you "
                    "cannot take the pile with one on top")
            if p.pickup_existing_meld == _EXISTING_FORBIDDEN_IF_COMPLETES:
                self._check_top_completes(side, top_kind)
        if not p.pickup_melds_top:
            if groups:
                raise IllegalMoveError("take the pile first; you may meld afterwards")
            plan = _Plan()
        else:
            plan = self._plan(side, seat, groups, top_kind=top_kind, extra=extra)
            if not plan.used_top:
                raise IllegalMoveError(lambda:
                    f"the top card ({cards.face_label(top)}) must be melded at once: include "
                    f"a group of {_target_plural(target)} from your hand")
        if p.pickup_needs_pair:
            # the pair comes from the hand, even where picked-up cards may be melded too
            held = self.held[seat][top_kind]
            if wild_top:
                like = min(held, sum(st.twos if top_kind == TWO else st.jokers
                                     for st in plan.steps if st.target == WILD_MELD))
                if like < 2:
                    raise IllegalMoveError(lambda:
                        f"to take a {KIND_NAMES[top_kind]} on top you must meld two "
                        f"{KIND_PLURALS[top_kind]} from your hand with it in an all-wild meld")
            else:
                pair = min(held, sum(st.naturals for st in plan.steps if st.target == target))
                if pair < 2:
                    raise IllegalMoveError(lambda:
                        f"to take the pile you must meld a natural pair of "
                        f"{KIND_PLURALS[top_kind]} from your hand with the top card")
        if (p.pickup_existing_meld == _EXISTING_COMPLETE_AND_START and cur >= 0
                and plan.used_top):
            created = any(m.target == target for m in plan.new_melds)
            if cur not in plan.completed or not created:
                m = self.melds[side][cur]
                what = "all-wild meld" if target == WILD_MELD else f"meld of {KIND_PLURALS[target]}"
                raise IllegalMoveError(lambda:
                    f"your side has an unfinished {what} ({m.size} cards): taking the pile "
                    f"must complete it to {p.book_size} cards and start a new meld")
        self._check_opening(side, plan)
        remaining = (self.held_n[seat] + len(rest) + (0 if plan.used_top else 1)
                     - sum(plan.used))
        self._check_remaining(seat, remaining, plan)
        return plan, rest

    def _check_top_completes(self, side: int, top_kind: int) -> None:
        """Forbid a pickup whose top card could complete one of the side's melds: a natural
        of its rank or a wild it may hold completes a natural meld, a wild completes an
        all-wild meld (001:85 "as long as that card does not complete a book from an
        existing meld")."""
        p = self.profile
        wild_top = cards.is_wild(top_kind)
        for m in self.melds[side]:
            if m.size + 1 != p.book_size:
                continue
            if m.target == WILD_MELD:
                completes = wild_top
            else:
                completes = m.target == top_kind or (
                    wild_top and p.wilds_allowed(m.naturals, m.wilds + 1, m.target))
            if completes:
                raise IllegalMoveError(functools.partial(_top_completes_text, m.target))

    # --- melding -----------------------------------------------------------------------

    def _verify_meld(self, groups: tuple[MeldGroup, ...]) -> _Plan:
        if self.phase != _PLAY:
            self._require(_PLAY, "meld")
        if not groups:
            raise IllegalMoveError("a meld needs cards")
        seat, side = self.seat, self.side_of[self.seat]
        plan = self._plan(side, seat, groups)
        self._check_opening(side, plan)
        remaining = self.held_n[seat] - sum(plan.used)
        self._check_remaining(seat, remaining, plan)
        return plan

    def _meld(self, plan: _Plan) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        self.undo_stack.append((self.held_faces[seat][:], self.held[seat][:], self.held_n[seat],
                                self.melds[side][:], self.opened[side], self.foot_played[seat]))
        self._commit(seat, plan, None)
        self.opened[side] = True
        self.staged = {}
        if self.foot_picked[seat]:
            self.foot_played[seat] = True
        self._after_cards_left_hand(seat)

    def _check_remaining(self, seat: int, remaining: int, plan: _Plan | None = None) -> None:
        """A player may not meld themselves into a corner they cannot leave."""
        if not self.foot_picked[seat]:
            return  # emptying the Hand brings the Foot
        if self.knees[seat] and (self.knee_open(self.side_of[seat])
                                 or (plan is not None and plan.books_made > 0)):
            return  # emptying the hand brings the Knee
        keep = self.profile.min_cards_kept
        if remaining == 0 and keep == 0:
            return
        if remaining == 0:
            raise IllegalMoveError(
                "melding every card would leave nothing to discard; to finish the round, go "
                "out instead")
        if remaining < keep + 1:
            raise IllegalMoveError(lambda:
                f"you must keep at least {keep + 1} cards after melding (one to discard, "
                f"{keep} to hold) unless you go out")

    def _check_opening(self, side: int, plan: _Plan) -> None:
        if self.opened[side] or not plan.steps:
            return
        p = self.profile
        if plan.wild_value and not p.wild_meld_opens:
            raise IllegalMoveError("an all-wild meld cannot be part of your side's opening")
        if opens_with_clean_book(p, self.round_number) and not any(
                m.target != WILD_MELD and m.twos + m.jokers == 0 and m.naturals >= p.book_size
                and not m.with_top for m in plan.new_melds):
            raise IllegalMoveError(lambda:
                f"in round {self.round_number} your side's opening must include a clean book "
                f"of {p.book_size} laid from your hand")
        need = self.opening_minimum_of(side)
        if plan.value < need:
            by = (f"with {self.totals[side]} points your side needs" if p.score_band_minimums
                  else f"round {self.round_number} needs")
            raise IllegalMoveError(lambda: f"your opening melds count {plan.value}; {by} {need}")

    def _current_meld(self, side: int, target: int) -> int:
        """Index of the side's meld of ``target`` that still takes cards, or -1."""
        melds = self.melds[side]
        for i in range(len(melds) - 1, -1, -1):
            m = melds[i]
            if m.target == target:
                p = self.profile
                size = m.naturals + m.twos + m.jokers
                if target == WILD_MELD:
                    return i if size < p.book_size else -1
                cap = p.book_max
                if cap is None or size < cap:
                    return i
                return -1
        return -1

    def _plan(self, side: int, seat: int, groups: Sequence[MeldGroup], *,
              top_kind: int | None = None, extra: list[int] | None = None) -> _Plan:
        """Work out a list of meld groups, raising if any of it breaks a rule."""
        p = self.profile
        values = p.kind_values
        avail = self.held[seat][:]
        if extra is not None:
            for k in range(NUM_KINDS):
                avail[k] += extra[k]
        plan = _Plan()
        melds = self.melds[side]
        cur: dict[int, _MeldState] = {}
        has_target: set[int] = {m.target for m in melds}
        book_size = p.book_size
        cap = p.book_max if p.book_max is not None else _INF
        for g in groups:
            t = g.target
            if t in (BLACK_THREE, RED_THREE):
                raise IllegalMoveError("threes can never be melded")
            if not (0 <= t <= WILD_MELD) or min(g.naturals, g.twos, g.jokers) < 0:
                raise IllegalMoveError(lambda g=g: f"not a meld group: {g!r}")
            if t == WILD_MELD:
                if g.naturals:
                    raise IllegalMoveError("an all-wild meld holds only wild cards")
                if not p.all_wild_melds:
                    raise IllegalMoveError(
                        "melds made only of wild cards are not allowed: a meld needs naturals")
            for kind, count in ((t, g.naturals), (TWO, g.twos), (JOKER, g.jokers)):
                if not count:
                    continue
                if avail[kind] < count:
                    have = self.held[seat][kind]
                    need = plan.used[kind] + count
                    if extra is not None:
                        raise IllegalMoveError(lambda kind=kind, need=need:
                            f"there are only {avail[kind] + plan.used[kind]} "
                            f"{KIND_PLURALS[kind]} in your hand and the pile; these melds "
                            f"need {need}")
                    raise IllegalMoveError(lambda kind=kind, need=need, have=have:
                        f"you hold no {KIND_PLURALS[kind]}" if not have else
                        f"you hold only {_count_text(have, kind)}; these melds need {need}")
                avail[kind] -= count
                plan.used[kind] += count
            n, tw, jk = g.naturals, g.twos, g.jokers
            with_top = False
            if top_kind is not None and not plan.used_top and (
                    (t == WILD_MELD and cards.is_wild(top_kind)) or t == top_kind):
                with_top = True
                plan.used_top = True
                if top_kind == TWO:
                    tw += 1
                elif top_kind == JOKER:
                    jk += 1
                else:
                    n += 1
            if n + tw + jk == 0:
                raise IllegalMoveError("a meld group needs at least one card")
            value = values[t] * g.naturals + values[TWO] * g.twos + values[JOKER] * g.jokers
            if with_top and top_kind is not None:
                value += values[top_kind]
            plan.value += value
            if t == WILD_MELD:
                plan.wild_value += value
            # the meld the group goes to: (table meld, meld of this plan, its counts)
            state = cur.get(t)
            if state is None:
                idx = self._current_meld(side, t)
                if idx >= 0:
                    m = melds[idx]
                    state = (idx, None, m.naturals, m.twos, m.jokers)
                else:
                    state = _NO_MELD
                cur[t] = state
            table_meld, plan_meld, old_n, old_t, old_j = state
            if g.new and state != _NO_MELD:
                current_size = old_n + old_t + old_j
                if (t != WILD_MELD and p.second_meld_of_rank and current_size >= book_size
                        and table_meld is not None):
                    state = _NO_MELD  # a second meld beside a book that still grows
                elif t != WILD_MELD and current_size >= book_size:
                    raise IllegalMoveError(lambda t=t:
                        f"your side has a book of {KIND_PLURALS[t]}, which takes more natural "
                        f"{KIND_PLURALS[t]}; a second meld of a rank is not allowed")
                else:
                    raise IllegalMoveError(lambda t=t, current_size=current_size:
                        f"your side already has an unfinished {_target_singular(t)} "
                        f"({current_size} cards): a side has one unfinished meld of a rank, "
                        "so add to it")
            if state == _NO_MELD:
                # a new meld
                if t != WILD_MELD and t in has_target:
                    if not (p.new_meld_after_book or (g.new and p.second_meld_of_rank)):
                        raise IllegalMoveError(lambda t=t:
                            f"your side already has a book of {KIND_PLURALS[t]}; add to it "
                            "instead of starting a new meld")
                    if n < p.new_meld_min_naturals:
                        raise IllegalMoveError(lambda t=t:
                            f"a new meld of {KIND_PLURALS[t]} beside their book needs at least "
                            f"{p.new_meld_min_naturals} natural cards")
                size = n + tw + jk
                if size < p.min_meld_size:
                    raise IllegalMoveError(functools.partial(
                        _short_meld_text, p.min_meld_size, t, n, tw, jk))
                old_size = 0
                new_n, new_t, new_j = n, tw, jk
            else:
                old_size = old_n + old_t + old_j
                new_n, new_t, new_j = old_n + n, old_t + tw, old_j + jk
            new_size = new_n + new_t + new_j
            wilds_added = tw + jk
            if t == WILD_MELD:
                if new_size > book_size:
                    raise IllegalMoveError(lambda new_size=new_size:
                        f"an all-wild meld is complete at {book_size} cards; this would make "
                        f"it {new_size}")
            else:
                if new_size > cap:
                    raise IllegalMoveError(lambda t=t, new_size=new_size:
                        f"a book holds at most {cap} cards; this would make your "
                        f"{KIND_PLURALS[t]} {new_size}")
                if wilds_added and p.book_max is None and old_size + wilds_added > book_size:
                    raise IllegalMoveError(lambda:
                        f"wild cards cannot take a meld past {book_size} cards; only naturals "
                        "can be added to a book")
                if not p.wilds_allowed(new_n, new_t + new_j, t):
                    raise IllegalMoveError(functools.partial(
                        self._ratio_reason, t, new_n, new_t + new_j))
            starts = state == _NO_MELD
            if starts:
                table_meld = None
                plan_meld = len(plan.new_melds)
                plan.new_melds.append(_NewMeld(t, new_n, new_t, new_j, with_top))
            elif plan_meld is not None:
                started = plan.new_melds[plan_meld]
                started.naturals, started.twos, started.jokers = new_n, new_t, new_j
                started.with_top |= with_top
            plan.steps.append(_new_step((t, g.naturals, g.twos, g.jokers, with_top, table_meld,
                                         plan_meld, starts)))
            has_target.add(t)
            if old_size < book_size <= new_size:
                plan.books_made += 1
            full = new_size >= (book_size if t == WILD_MELD else cap)
            if full:
                if table_meld is not None:
                    plan.completed.append(table_meld)
                cur[t] = _NO_MELD
            else:
                cur[t] = (table_meld, plan_meld, new_n, new_t, new_j)
        return plan

    def _ratio_reason(self, t: int, n: int, w: int) -> str:
        p = self.profile
        what = f"{_count_text(n, t)} with {w} wild card{'s' if w != 1 else ''}"
        if t in p.wild_free_ranks:
            return f"melds of {KIND_PLURALS[t]} may never hold wild cards"
        if p.max_wilds is not None and w > p.max_wilds:
            return f"a meld holds at most {p.max_wilds} wild cards; {what} has {w}"
        if n < p.min_naturals_with_wild:
            return (f"a meld with a wild card needs at least {p.min_naturals_with_wild} natural "
                    f"cards; {what} has {n}")
        return f"{what} breaks the wild-card rule: {wild_rule_text(p)}"

    def _commit(self, seat: int, plan: _Plan, top: int | None) -> None:
        """Move the planned cards from the hand (and the top card) onto the table."""
        side = self.side_of[seat]
        melds = self.melds[side]
        new_index: list[int] = []  # where each meld the plan starts is on the table
        for step in plan.steps:
            t, n, tw, jk, with_top = (step.target, step.naturals, step.twos, step.jokers,
                                      step.with_top)
            faces: list[int] = []
            if with_top:
                assert top is not None
                faces.append(top)
            if n:
                faces.extend(self._take(seat, t, n))
            if tw:
                faces.extend(self._take(seat, TWO, tw))
            if jk:
                faces.extend(self._take(seat, JOKER, jk))
            if with_top:
                kt = FACE_KIND[top] if top is not None else -1
                if kt == TWO:
                    tw += 1
                elif kt == JOKER:
                    jk += 1
                else:
                    n += 1
            if self._facts is not None:
                self._facts.append(("melded", t, faces, step.starts))
            if step.meld is not None:
                m = melds[step.meld]
                melds[step.meld] = TableMeld(t, m.naturals + n, m.twos + tw, m.jokers + jk,
                                             m.faces + tuple(faces))
            elif step.starts:
                melds.append(TableMeld(t, n, tw, jk, tuple(faces)))
                new_index.append(len(melds) - 1)
            else:
                assert step.new_meld is not None
                pos = new_index[step.new_meld]
                m = melds[pos]
                melds[pos] = TableMeld(t, m.naturals + n, m.twos + tw, m.jokers + jk,
                                       m.faces + tuple(faces))

    def _take(self, seat: int, kind: int, count: int) -> list[int]:
        """Remove ``count`` cards of a kind from a seat's hand, picking faces in a fixed
        order (clubs, diamonds, hearts, spades), so replays are exact."""
        hf = self.held_faces[seat]
        out: list[int] = []
        for face in KIND_FACES[kind]:
            while hf[face] and len(out) < count:
                hf[face] -= 1
                out.append(face)
            if len(out) == count:
                break
        self.held[seat][kind] -= count
        self.held_n[seat] -= count
        return out

    def _add(self, seat: int, face: int) -> None:
        self.held_faces[seat][face] += 1
        self.held[seat][FACE_KIND[face]] += 1
        self.held_n[seat] += 1

    def _after_cards_left_hand(self, seat: int) -> None:
        """After melding: take the Foot or Knee an empty hand brings, or end an empty turn."""
        p = self.profile
        side = self.side_of[seat]
        if p.knee_auto_pickup and self.knees[seat] and self.knee_open(side):
            self._pick_up_knee(seat)
            return
        if self.held_n[seat]:
            return
        if self.knees[seat] and self.knee_open(side):
            self._pick_up_knee(seat)  # the Knee joins the hand before the Foot (A-30)
        elif not self.foot_picked[seat]:
            if p.foot_at_once:
                self._pick_up_foot(seat)
            else:
                self._end_turn()  # the Foot waits for the next turn's draw
        else:
            self._end_turn()  # nothing left to play: the turn ends without a discard

    def _pick_up_knee(self, seat: int) -> None:
        if self._facts is not None:
            self._facts.append(("packet", seat, "knee", self.knees[seat]))
        for face in self.knees[seat]:
            self._add(seat, face)
        self.knees[seat] = []
        self._keep_melds()
        self._lay_red_threes(seat)

    def _verify_knee(self) -> None:
        if self.phase not in (_DRAW, _PLAY):
            self._require(_PLAY, "pick up your Knee")
        seat = self.seat
        if not self.knees[seat]:
            raise IllegalMoveError("you have no Knee to pick up" if not self.profile.knee_size
                                   else "you have already picked up your Knee")
        if not self.knee_open(self.side_of[seat]):
            raise IllegalMoveError(
                "you may pick up your Knee only once your side has completed a book")

    def _pick_up_foot(self, seat: int) -> None:
        if self._facts is not None:
            self._facts.append(("packet", seat, "foot", self.feet[seat]))
        for face in self.feet[seat]:
            self._add(seat, face)
        self.feet[seat] = []
        self.foot_picked[seat] = True
        self._keep_melds()
        self._lay_red_threes(seat)

    def _lay_red_threes(self, seat: int) -> bool:
        """Lay every red 3 the seat holds and replace each from the stock.

        Returns False if the round ended because the stock could not replace one.
        """
        side = self.side_of[seat]
        facts = self._facts
        while self.held[seat][RED_THREE]:
            face = self._take(seat, RED_THREE, 1)[0]
            self.red_threes[side].append(face)
            self.stalled_turns = 0
            if facts is not None:
                facts.append(("red3", seat, face))
            if not self.stock:
                # every red 3 still held is laid too before the round ends
                while self.held[seat][RED_THREE]:
                    face = self._take(seat, RED_THREE, 1)[0]
                    self.red_threes[side].append(face)
                    if facts is not None:
                        facts.append(("red3", seat, face))
                self._end_round(RoundEnd.RED_THREE_NOT_REPLACED, None)
                return False
            face = self.stock.pop()
            self._add(seat, face)
            if facts is not None:
                facts.append(("replaced", seat, face))
        return True

    # --- discarding and ending turns -------------------------------------------------------

    def _verify_discard(self, kind: int) -> _Plan | None:
        """Check a discard; returns the go-out plan when discarding the last card goes out."""
        if self.phase != _PLAY:
            self._require(_PLAY, "discard")
        seat = self.seat
        p = self.profile
        if not 0 <= kind < RED_THREE:
            raise IllegalMoveError(lambda: "red 3s are never discarded" if kind == RED_THREE
                                   else f"not a card kind: {kind}")
        if self.picked_pile and not p.discard_after_pickup:
            raise IllegalMoveError(
                "after taking the pile you do not discard: knock to end your turn")
        if not self.held[seat][kind]:
            raise IllegalMoveError(lambda: f"you hold no {KIND_NAMES[kind]} to discard")
        self._check_locked_discard(seat, kind)
        if self.in_last_packet(seat) and self.held_n[seat] == 1:
            # discarding the last card goes out, where the player may
            try:
                plan = self._check_go_out((), kind)
            except IllegalMoveError as exc:
                if p.min_cards_kept:
                    why = exc  # (not a default of the lambda: mypyc cannot compile that)
                    raise IllegalMoveError(lambda:
                        f"you must keep at least {p.min_cards_kept} card"
                        f"{'s' if p.min_cards_kept != 1 else ''} after discarding unless you go "
                        f"out, and you cannot go out yet: {why}") from None
            else:
                if self._needs_permission(seat):
                    raise IllegalMoveError(lambda:
                        "ask your partner first: go out (goout discard ...) to ask \"May I go "
                        "out?\"")
                return plan
        elif self.in_last_packet(seat) and self.held_n[seat] - 1 < p.min_cards_kept:
            raise IllegalMoveError(lambda:
                f"you must keep at least {p.min_cards_kept} card"
                f"{'s' if p.min_cards_kept != 1 else ''} after discarding unless you go out")
        return None

    def _discard(self, kind: int, going_out: _Plan | None) -> None:
        if going_out is not None:
            self._finish_going_out(going_out, kind)
            return
        seat = self.seat
        face = self._take(seat, kind, 1)[0]
        self.pile.append(face)
        if self._facts is not None:
            self._facts.append(("discarded", face))
        if self.foot_picked[seat]:
            self.foot_played[seat] = True
        self._end_turn()

    def _discard_locked(self, seat: int, kind: int, held: Sequence[int] | None = None) -> bool:
        """Sevens From Hell: a locked rank is not discarded before its clean book exists,
        unless the player holds nothing else (A-55); ``held`` is the hand at the discard."""
        locked = self.profile.discard_locked_until_clean_book
        if kind not in locked or self._lock_released(kind):
            return False
        cards_held = self.held[seat] if held is None else held
        return any(cards_held[k] for k in range(RED_THREE) if k not in locked)

    def _check_locked_discard(self, seat: int, kind: int,
                              held: Sequence[int] | None = None) -> None:
        if not self._discard_locked(seat, kind, held):
            return
        raise IllegalMoveError(lambda:
            f"no {KIND_NAMES[kind]} may be discarded until some player has a clean book of "
            f"{KIND_PLURALS[kind]}")

    def _lock_released(self, kind: int) -> bool:
        size = self.profile.book_size
        return any(m.target == kind and m.wilds == 0 and m.size >= size
                   for melds in self.melds for m in melds)

    def _needs_permission(self, seat: int) -> bool:
        p = self.profile
        return bool(p.permission and self.partners(seat)
                    and not (p.permission_persists and self.permission[self.side_of[seat]]))

    def _verify_knock(self) -> None:
        self._require(_PLAY, "knock")
        if not (self.picked_pile and not self.profile.discard_after_pickup):
            raise IllegalMoveError("you end your turn with a discard, not a knock")

    def _end_turn(self) -> None:
        seat = self.seat
        if self.foot_picked[seat]:
            self.foot_turn_done[seat] = True
        self._keep_melds()
        limit = self.profile.stalled_turns_each
        if limit is not None and self.stalled_turns >= limit * self.players:
            self._end_round(RoundEnd.STALLED, None)
            return
        self._begin_turn((seat + 1) % self.players)

    def _keep_melds(self) -> None:
        """The melds of this turn can no longer be taken back (a turn's end, a Foot or a
        Knee): cards laid by them are on the table for good, so the turn is not stalled."""
        if self.undo_stack:
            self.stalled_turns = 0
            self.undo_stack = []

    def _begin_turn(self, seat: int) -> None:
        self.seat = self.actor = seat
        self.phase = _DRAW
        self._refused = False
        self.picked_pile = False
        self.stalled_turns += 1  # until the turn draws or lays a card
        self.undo_stack = []
        self.staged = {}
        p = self.profile
        if self.held_n[seat] == 0 and not self.foot_picked[seat] and p.foot_at_once:
            self._pick_up_foot(seat)  # the Hand ended with a discard last turn
        elif p.knee_auto_pickup and self.knees[seat] and self.knee_open(self.side_of[seat]):
            self._pick_up_knee(seat)

    def _verify_undo(self) -> None:
        self._require(_PLAY, "undo")
        if not self.undo_stack:
            raise IllegalMoveError(
                "there is nothing to undo: only melds made since your last draw, pickup or "
                "Foot can be taken back")

    def _undo(self) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        hf, hk, hn, melds, opened, played = self.undo_stack.pop()
        if self._facts is not None:
            now = self.held_faces[seat]
            self._facts.append(("returned", [f for f in range(NUM_FACES)
                                             for _ in range(hf[f] - now[f])]))
        # copies: copies of this state share the stack's entries
        self.held_faces[seat] = hf[:]
        self.held[seat] = hk[:]
        self.held_n[seat] = hn
        self.melds[side] = melds[:]
        self.opened[side] = opened
        self.foot_played[seat] = played
        self.staged = {}

    # --- going out -------------------------------------------------------------------------

    def _go_out(self, groups: tuple[MeldGroup, ...], discard: int | None, plan: _Plan) -> None:
        seat = self.seat
        partners = self.partners(seat)
        if self._needs_permission(seat):
            if self._facts is not None:
                self._facts.append(("asked",))
            self.pending = mv.GoOut(groups, discard)
            self.pending_answerers = list(partners)
            self.phase = _ANSWER
            self.actor = partners[0]
            self.staged = {}
            return
        self._finish_going_out(plan, discard)

    def _verify_go_out(self, groups: tuple[MeldGroup, ...], discard: int | None) -> _Plan:
        if self.phase != _PLAY:
            self._require(_PLAY, "go out")
        return self._check_go_out(groups, discard)

    def _check_go_out(self, groups: tuple[MeldGroup, ...], discard: int | None) -> _Plan:
        p = self.profile
        seat, side = self.seat, self.side_of[self.seat]
        if not self.foot_picked[seat]:
            raise IllegalMoveError("you can only go out once you are playing from your Foot")
        if self.knees[seat]:
            raise IllegalMoveError("you can only go out once you have picked up your Knee too")
        if self._refused:
            raise IllegalMoveError("your partner said no this turn; ask again on a later turn")
        if self.picked_pile and not p.discard_after_pickup and discard is not None:
            raise IllegalMoveError("after taking the pile you may not discard")
        if p.final_discard == _FINAL_DISCARD_REQUIRED and discard is None:
            raise IllegalMoveError("you must go out by discarding your last card")
        if p.final_discard == _FINAL_DISCARD_FORBIDDEN and discard is not None:
            raise IllegalMoveError("you must go out by melding your last card, not discarding it")
        if discard is not None and not 0 <= discard < RED_THREE:
            raise IllegalMoveError("red 3s are never discarded" if discard == RED_THREE
                                   else "that card cannot be discarded")
        if discard is not None and not self.held[seat][discard]:
            raise IllegalMoveError(lambda: f"you hold no {KIND_NAMES[discard]} to discard")

        plan = self._plan(side, seat, groups)
        self._check_opening(side, plan)
        left = [self.held[seat][k] - plan.used[k] for k in range(NUM_KINDS)]
        left_n = sum(left)
        if discard is not None:
            self._check_locked_discard(seat, discard, left)
        if discard is None and left_n:
            raise IllegalMoveError(lambda:
                f"going out needs every card played; you would still hold {left_n}")
        if discard is not None and (left_n != 1 or left[discard] != 1):
            raise IllegalMoveError(lambda:
                f"going out with a discard leaves exactly that card; you would hold {left_n} "
                "card" + ("s" if left_n != 1 else "") + " after melding")
        missing = missing_books(p, self._books_after(side, plan))
        if missing:
            raise IllegalMoveError(lambda:
                f"to go out your side needs {book_requirement_text(p)}; it would still lack "
                f"{', '.join(missing)}")
        for partner in self.partners(seat):
            reason = self._partner_not_ready(partner)
            if reason:
                raise IllegalMoveError(reason)
        return plan

    def _books_after(self, side: int, plan: _Plan) -> Books:
        """The side's books once a plan (with no top card) is laid."""
        comps = [[m.target, m.naturals, m.twos, m.jokers] for m in self.melds[side]]
        comps += [[m.target, m.naturals, m.twos, m.jokers] for m in plan.new_melds]
        for step in plan.steps:
            if step.meld is not None:
                c = comps[step.meld]
                c[1] += step.naturals
                c[2] += step.twos
                c[3] += step.jokers
        return count_books(self.profile, ((t, n, tw + jk) for t, n, tw, jk in comps))

    def _partner_not_ready(self, partner: int) -> str | None:
        cond = self.profile.partner_condition
        if cond != _PARTNER_NONE and self.knees[partner]:
            what = "picked up their Knee"
        elif cond == _PARTNER_PICKED_UP and not self.foot_picked[partner]:
            what = "picked up their Foot"
        elif cond == _PARTNER_PLAYED_FROM and not self.foot_played[partner]:
            what = "played from their Foot"
        elif cond == _PARTNER_FINISHED_TURN and not self.foot_turn_done[partner]:
            what = "finished a turn with their Foot"
        else:
            return None
        return f"your partner (seat {partner + 1}) must have {what} before you go out"

    def _answer(self, yes: bool) -> None:
        pending = self.pending
        assert pending is not None
        if not yes:
            self.pending = None
            self.pending_answerers = []
            self.phase = _PLAY
            self.actor = self.seat
            self._refused = True
            return
        self.pending_answerers.pop(0)
        if self.pending_answerers:
            self.actor = self.pending_answerers[0]
            return
        self.pending = None
        self.phase = _PLAY
        self.actor = self.seat
        self.permission[self.side_of[self.seat]] = True
        if self._facts is not None:
            self._facts.append(("asked_for", self.seat, pending))
        plan = self._check_go_out(pending.groups, pending.discard)
        self._finish_going_out(plan, pending.discard)

    def _finish_going_out(self, plan: _Plan, discard: int | None) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        self._commit(seat, plan, None)
        if plan.steps:
            self.opened[side] = True
        if discard is not None:
            face = self._take(seat, discard, 1)[0]
            self.pile.append(face)
            if self._facts is not None:
                self._facts.append(("discarded", face))
        self._end_round(RoundEnd.WENT_OUT, seat)

    # --- staging (the integer action layer) ------------------------------------------------

    def staged_groups(self) -> tuple[MeldGroup, ...]:
        """The staged cards as meld groups, in target order (slot 0 before slot 1).

        At a pickup, a second-meld group staged without a first gets an empty first group
        before it: the top card alone completes the side's meld.
        """
        out = []
        pickup = self.phase == _DRAW
        for key in sorted(self.staged):
            if pickup and key % 2 and key - 1 not in self.staged:
                out.append(MeldGroup(key // 2))
            n, tw, jk = self.staged[key]
            out.append(_new_group(key >> 1, n, tw, jk, bool(key & 1)))
        return tuple(out)

    def _staged_total(self) -> int:
        return sum(sum(v) for v in self.staged.values())

    def _staged_kind(self, kind: int) -> int:
        total = 0
        for key, (n, tw, jk) in self.staged.items():
            if kind == TWO:
                total += tw
            elif kind == JOKER:
                total += jk
            elif key // 2 == kind:
                total += n
        return total

    def _verify_stage(self, kind: int, target: int, slot: int) -> None:
        if self.phase not in (_DRAW, _PLAY):
            self._require(_PLAY, "stage cards")
        if self.held[self.seat][kind] - self._staged_kind(kind) <= 0:
            raise IllegalMoveError(lambda: f"you have no {KIND_NAMES[kind]} left to stage")
        if kind in (BLACK_THREE, RED_THREE):
            raise IllegalMoveError("threes can never be melded")
        if kind <= cards.ACE and target != kind:
            raise IllegalMoveError("a natural card can only join a meld of its own rank")
        if not 0 <= target <= WILD_MELD or slot not in (0, 1):
            raise IllegalMoveError("no such meld to stage for")
        if self.phase == _DRAW:
            blocker = self.pickup_blocker()
            if blocker:
                raise IllegalMoveError(lambda:
                    f"cards are staged only to take the pile, and {blocker}")
        if not self._stage_ok(kind, target, slot, self.side_of[self.seat]):
            raise IllegalMoveError(lambda:
                f"a {KIND_NAMES[kind]} staged for {_target_plural(target)}"
                + (" (a second meld)" if slot else "") + " could never make a legal meld")

    def _stage(self, kind: int, target: int, slot: int) -> None:
        entry = self.staged.setdefault(target * 2 + slot, [0, 0, 0])
        entry[0 if kind <= cards.ACE else 1 if kind == TWO else 2] += 1

    def _stage_ok(self, kind: int, target: int, slot: int, side: int) -> bool:
        """Whether staging a card of ``kind`` for ``target``'s group ``slot`` could lead to a
        legal meld (the pruning :meth:`legal_actions` lists)."""
        if kind in (BLACK_THREE, RED_THREE):
            return False
        idx = self._current_meld(side, target)
        existing = self.melds[side][idx].size if idx >= 0 else 0
        flags = self._target_flags(target, existing, self._top_target())
        if kind <= cards.ACE:
            return target == kind and flags[slot * 2]
        return flags[slot * 2 + 1]

    def _top_target(self) -> int:
        """At a pickup, the target the pile's top card joins; else -1."""
        if self.phase != _DRAW or not self.pile:
            return -1
        top_kind = FACE_KIND[self.pile[-1]]
        return WILD_MELD if cards.is_wild(top_kind) else top_kind

    def _existing_sizes(self, side: int) -> list[int]:
        """The size of each target's meld that still takes cards (0 if none): the side's
        latest meld of the target decides."""
        p = self.profile
        book_size = p.book_size
        cap_rank = p.book_max or _INF
        existing = [0] * mv.NUM_TARGETS
        for m in self.melds[side]:  # a later meld of a target overrides an earlier one
            t = m.target
            size = m.naturals + m.twos + m.jokers
            existing[t] = size if size < (book_size if t == WILD_MELD else cap_rank) else 0
        return existing

    def _target_flags(self, t: int, existing: int, top_target: int,
                      staged: dict[int, list[int]] | None = None,
                      ) -> tuple[bool, bool, bool, bool]:
        """May a natural / a wild be staged for target ``t``'s slot 0, then its slot 1.

        Slot 0 fills the side's unfinished meld of the target (or a new one) up to its
        capacity; a wild needs that meld on the table or naturals staged beside it. Slot 1 is
        a new meld: once slot 0 (with the pile's top card at a pickup) fills the first, or
        beside a book that still grows where a second meld of the rank is allowed.
        ``staged`` is the state's staged cards unless given.
        """
        p = self.profile
        wild_target = t == WILD_MELD
        if wild_target and not p.all_wild_melds:
            return (False, False, False, False)
        if staged is None:
            staged = self.staged
        g0 = staged.get(t * 2)
        g1 = staged.get(t * 2 + 1)
        if not (existing or g0 or g1) and t != top_target:
            # nothing of this target anywhere: only a new meld can start
            return (True, True, False, False) if wild_target else (True, False, False, False)
        book_size = p.book_size
        cap_rank = p.book_max or _INF
        cap = book_size if wild_target else cap_rank
        s0 = sum(g0) if g0 else 0
        s1 = sum(g1) if g1 else 0
        wild_ok = wild_target or t not in p.wild_free_ranks
        ok0 = existing + s0 < cap
        wild0 = ok0 and wild_ok and (wild_target or existing > 0 or bool(g0 and g0[0]))
        if t == top_target:
            s0 += 1
        beside_book = not wild_target and p.second_meld_of_rank and existing >= book_size
        fills = (wild_target or p.new_meld_after_book) and existing + s0 >= cap
        ok1 = (fills or beside_book) and s1 < cap_rank
        wild1 = ok1 and wild_ok and (wild_target or bool(g1 and g1[0]))
        return (ok0, wild0, ok1, wild1)

    def legal_actions(self) -> list[ActionId]:
        """The legal integer actions for the seat to act, in increasing order.

        The listing is kept (with the plans of the commits it checked) for
        :meth:`apply_listed` until the next move.
        """
        return self._list_legal(None)[:]

    def _list_legal(self, groups: tuple[MeldGroup, ...] | None,
                    kept: list[Any] | None = None) -> list[ActionId]:
        """:meth:`legal_actions`, the list itself (the one kept for :meth:`apply_listed`:
        not to be changed). ``groups`` are :meth:`staged_groups` if the caller has them
        (None: worked out here when needed); ``kept`` is for :meth:`_stage_actions`."""
        phase = self.phase
        if phase == _GAME_OVER:
            return []
        if phase == _ANSWER:
            return [mv.ANSWER_YES, mv.ANSWER_NO]
        seat, side = self.seat, self.side_of[self.seat]
        p = self.profile
        held = self.held[seat]
        out: list[int] = []
        checked: dict[int, tuple[tuple[MeldGroup, ...], Any, list[int] | None]] = {}
        staging = self.staged
        if self.knees[seat] and self.knee_open(side):
            out.append(mv.KNEE)
        if phase == _DRAW:
            out.append(mv.DRAW)
            if self.pickup_blocker() is None:
                # the checks is_legal makes, called directly (the listing is hot): the
                # phase is known, and no move object is built. Staged cards must include a
                # group the top card joins (else the pickup's plan fails: it must meld the
                # top card, or, where it joins the hand, no group may be staged at all).
                if staging:
                    top_kind = FACE_KIND[self.pile[-1]]
                    top_target = WILD_MELD if top_kind in (TWO, JOKER) else top_kind
                    may_pick = p.pickup_melds_top and (top_target * 2 in staging
                                                       or top_target * 2 + 1 in staging)
                else:
                    may_pick = not p.pickup_melds_top
                if may_pick:
                    if groups is None:
                        groups = self.staged_groups()
                    try:
                        plan, rest = self._verify_pickup(groups)
                        out.append(mv.PICKUP)
                        checked[mv.PICKUP] = (groups, plan, rest)
                    except IllegalMoveError:
                        pass
                if staging:
                    out.append(mv.CLEAR)
                self._stage_actions(out, seat, side, held, kept)
            return self._keep_listing(out, checked)
        # PLAY
        if staging:
            if groups is None:
                groups = self.staged_groups()
            if not self._starts_short(side, groups):
                try:
                    checked[mv.CONFIRM] = (groups, self._verify_meld(groups), None)
                    out.append(mv.CONFIRM)
                except IllegalMoveError:
                    pass
            out.append(mv.CLEAR)
        else:
            groups = ()
        if self.undo_stack:
            out.append(mv.UNDO)
        must_knock = self.picked_pile and not p.discard_after_pickup
        if must_knock:
            out.append(mv.KNOCK)
        if self.in_last_packet(seat) and not self._refused:
            left = self.held_n[seat] - self._staged_total()
            if left == 0 and p.final_discard != _FINAL_DISCARD_REQUIRED:
                try:
                    checked[mv.GO_OUT] = (groups, self._verify_go_out(groups, None), None)
                    out.append(mv.GO_OUT)
                except IllegalMoveError:
                    pass
            elif left == 1 and p.final_discard != _FINAL_DISCARD_FORBIDDEN and not must_knock:
                for k in range(RED_THREE):
                    if held[k] - self._staged_kind(k) == 1:
                        try:
                            checked[mv.GO_OUT_DISCARD + k] = (
                                groups, self._verify_go_out(groups, k), None)
                            out.append(mv.GO_OUT_DISCARD + k)
                        except IllegalMoveError:
                            pass
                        break
        if not must_knock:
            last = self.in_last_packet(seat)
            n = self.held_n[seat]
            if last and n == 1:  # the last card: going out, or holding none
                for k in range(RED_THREE):
                    if held[k] and not self._discard_locked(seat, k):
                        try:
                            self._verify_discard(k)
                            out.append(mv.DISCARD + k)
                        except IllegalMoveError:
                            pass
            elif not (last and n - 1 < p.min_cards_kept):
                locked = p.discard_locked_until_clean_book
                discard = mv.DISCARD
                for k in range(RED_THREE):
                    if held[k] and not (locked and self._discard_locked(seat, k)):
                        out.append(discard + k)
        self._stage_actions(out, seat, side, held, kept)
        return self._keep_listing(out, checked)

    def _starts_short(self, side: int, groups: tuple[MeldGroup, ...]) -> bool:
        """Whether one of the staged ``groups`` starts a meld (the side has none of its
        target that takes cards) with fewer cards than a meld needs, which :meth:`_plan`
        refuses: asked first, as staging a new meld card by card passes through it."""
        least = self.profile.min_meld_size
        for g in groups:
            if (not g.new and g.naturals + g.twos + g.jokers < least
                    and self._current_meld(side, g.target) < 0):
                return True
        return False

    def _keep_listing(self, out: list[int],
                      checked: dict[int, tuple[tuple[MeldGroup, ...], Any, list[int] | None]],
                      ) -> list[int]:
        """Sort a listing and keep it for :meth:`apply_listed`."""
        out.sort()
        self._listed = (out, checked)
        return out

    def _stage_actions(self, out: list[int], seat: int, side: int, held: list[int],
                       kept: list[Any] | None = None) -> None:
        """Append the legal staging actions (their flags are :meth:`_target_flags`).

        A target with nothing on the table, nothing staged, that the pile's top card does
        not join, has the flags :meth:`_target_flags` gives such a target without asking.
        The flags of a target with nothing staged change only with a move: given
        ``kept`` (a list kept from one move to the next, empty at first), they are
        worked out once and kept there, with the side's meld sizes and the top target.
        """
        staged = self.staged
        # (locals typed exactly, so that the compiled build indexes and compares natively)
        staged_k: list[int] = _NO_KINDS
        if staged:
            staged_k = [0] * NUM_KINDS
            for key, group in staged.items():
                k = key >> 1  # (no `+=` on an item: the compiled build does it generically)
                staged_k[k] = staged_k[k] + group[0]
                staged_k[TWO] = staged_k[TWO] + group[1]
                staged_k[JOKER] = staged_k[JOKER] + group[2]
        existing: list[int]
        top_target: int
        unstaged: list[tuple[bool, bool, bool, bool]] | None
        if kept:
            existing, top_target, unstaged = kept
        else:
            existing = self._existing_sizes(side)
            top_target = self._top_target()
            unstaged = None
        flags = self._target_flags
        stage_natural: int = mv.STAGE_NATURAL
        more_twos = held[TWO] > staged_k[TWO]
        more_jokers = held[JOKER] > staged_k[JOKER]
        if more_twos or more_jokers:
            if unstaged is None:
                # every target's flags with nothing staged for it
                unstaged = [_NOTHING_STAGED] * mv.NUM_TARGETS
                for t in range(WILD_MELD):
                    if existing[t]:
                        unstaged[t] = flags(t, existing[t], top_target, _NONE_STAGED)
                if 0 <= top_target < WILD_MELD:
                    unstaged[top_target] = flags(top_target, existing[top_target],
                                                 top_target, _NONE_STAGED)
                unstaged[WILD_MELD] = flags(WILD_MELD, existing[WILD_MELD], top_target,
                                            _NONE_STAGED)
                if kept is not None:
                    kept[:] = (existing, top_target, unstaged)
            wild_flags = unstaged[:]
            for key in staged:
                t = key >> 1
                wild_flags[t] = flags(t, existing[t], top_target)
            for k in range(FOUR, ACE + 1):
                if held[k] > staged_k[k]:
                    nat0, _, nat1, _ = wild_flags[k]
                    if nat0:
                        out.append(stage_natural + k * 2)
                    if nat1:
                        out.append(stage_natural + k * 2 + 1)
            for base, more in ((mv.STAGE_WILD, more_twos),
                               (mv.STAGE_WILD + mv.NUM_TARGETS * 2, more_jokers)):
                if more:
                    for t in range(mv.NUM_TARGETS):
                        _, wild0, _, wild1 = wild_flags[t]
                        if wild0:
                            out.append(base + t * 2)
                        if wild1:
                            out.append(base + t * 2 + 1)
            return
        for k in range(FOUR, ACE + 1):
            if held[k] > staged_k[k]:
                if existing[k] or k == top_target or (staged and (2 * k in staged
                                                                 or 2 * k + 1 in staged)):
                    nat0, _, nat1, _ = flags(k, existing[k], top_target)
                    if nat0:
                        out.append(stage_natural + k * 2)
                    if nat1:
                        out.append(stage_natural + k * 2 + 1)
                else:
                    out.append(stage_natural + k * 2)

    def meld_options(self, seat: Seat) -> tuple[MeldOptions, ...]:
        """For each kind of card ``seat`` holds (in kind order), where one such card can go
        on its side's table as it stands now (see :class:`MeldOptions`), each answer found
        by the checks a meld of it would pass or fail."""
        side = self.side_of[seat]
        p = self.profile
        melds = self.melds[side]
        current: dict[int, int] = {}  # target -> its meld that still takes cards
        for m in melds:
            if m.target not in current:
                current[m.target] = self._current_meld(side, m.target)
        wild_new = p.all_wild_melds or any(r not in p.wild_free_ranks for r in cards.RANKS)
        out = []
        for kind, count in enumerate(self.held[seat]):
            if not count:
                continue
            wild = kind in (TWO, JOKER)
            joins: list[int] = []
            reason: str | None = None
            for target, index in sorted(current.items(), key=lambda item: item[1]):
                if index < 0 or not (wild or target == kind):
                    continue
                group = MeldGroup(target, 0 if wild else 1, int(kind == TWO),
                                  int(kind == JOKER))
                try:
                    self._plan(side, seat, (group,))
                except IllegalMoveError as exc:
                    reason = reason or str(exc)
                    continue
                joins.append(index)
            if wild:
                new = wild_new
            elif kind in (BLACK_THREE, RED_THREE):
                new, reason = False, "threes can never be melded"
            else:  # a new meld of the least size a meld of this rank may start with
                size = max(p.min_meld_size, p.new_meld_min_naturals, 1)
                extra = [0] * NUM_KINDS
                extra[kind] = size
                try:
                    self._plan(side, seat, (MeldGroup(kind, size, new=kind in current),),
                               extra=extra)
                    new = True
                except IllegalMoveError as exc:
                    new = False
                    reason = reason or str(exc)
            out.append(MeldOptions(kind, tuple(joins), new,
                                   None if joins or new else reason))
        return tuple(out)

    def action_mask(self) -> list[int]:
        """A 0/1 list over every action id: 1 where the action is legal now."""
        mask = [0] * mv.NUM_ACTIONS
        for a in self.legal_actions():
            mask[a] = 1
        return mask

    # --- round end and scoring -----------------------------------------------------------

    def _end_round(self, reason: RoundEnd, went_out: Seat | None) -> None:
        scores = tuple(self.score_side(side, went_out) for side in range(self.sides))
        for s in scores:
            self.totals[s.side] += s.total
        result = RoundResult(self.round_number, reason, went_out, scores, tuple(self.totals))
        self.results.append(result)
        self.pending = None
        self.pending_answerers = []
        self.staged = {}
        self.undo_stack = []
        target = self.profile.target_score
        reached = target is not None and max(self.totals) >= target
        go_on = self.round_number < self.profile.rounds and not reached
        if self._facts is not None:
            self._facts.append(("ended", result, not go_on))
            self._facts = None  # the next round's deal is no part of this move's event
        if go_on:
            self._start_round(self.round_number + 1)
        else:
            self.phase = _GAME_OVER

    def score_side(self, side: Side, went_out: Seat | None = None,
                   adjustments: Sequence[tuple[str, int]] = ()) -> SideScore:
        """A side's score for the round as it stands, with every line of its breakdown.

        ``adjustments`` are (label, points) lines a score keeper adds for things that only
        happen at a real table (the tabletop parameters of a profile); the engine itself
        never has any.
        """
        p = self.profile
        values = p.kind_values
        counted = list(self.melds[side])
        unfinished: list[TableMeld] = []
        if p.unfinished_second_meld_negative:
            seen: set[int] = set()
            for m in self.melds[side]:
                if m.target in seen and m.target != WILD_MELD and m.size < p.book_size:
                    unfinished.append(m)
                    counted.remove(m)
                seen.add(m.target)
        books = self.book_counts(side)
        special = dict(p.special_book_bonus)
        special_books: dict[Kind, int] = {}
        for m in self.melds[side]:
            if m.book_kind(p.book_size) == BookKind.CLEAN and m.target in special:
                special_books[m.target] = special_books.get(m.target, 0) + 1
        left = [0] * NUM_KINDS
        for seat in self.layout.seats_of(side):
            for faces in (self.hand(seat), self.feet[seat], self.knees[seat]):
                for f in faces:
                    left[FACE_KIND[f]] += 1
        threes = (BLACK_THREE, RED_THREE)
        tally = SideTally(
            melded_cards=sum(m.size for m in counted),
            melded_points=sum(values[FACE_KIND[f]] for m in counted for f in m.faces),
            unfinished_cards=sum(m.size for m in unfinished),
            unfinished_points=sum(values[FACE_KIND[f]] for m in unfinished for f in m.faces),
            clean_books=books["clean"] - sum(special_books.values()),
            special_books=tuple(sorted(special_books.items())),
            dirty_books=books["dirty"], wild_books=books["wild"],
            red_threes=len(self.red_threes[side]),
            went_out=went_out is not None and self.side_of[went_out] == side,
            left_cards=sum(n for k, n in enumerate(left) if k not in threes),
            left_points=sum(n * values[k] for k, n in enumerate(left) if k not in threes),
            black_threes_left=left[BLACK_THREE], red_threes_left=left[RED_THREE])
        return score_tally(p, side, tally, adjustments)

    # --- views ---------------------------------------------------------------------------

    def public_view(self) -> PublicView:
        """What every seat and spectator may see: the table and counts, no hidden card."""
        return PublicView(
            profile=self.profile,
            players=self.players,
            sides=self.sides,
            round_number=self.round_number,
            rounds=self.profile.rounds,
            phase=self.phase,
            turn=self.seat,
            to_act=self.actor,
            opening_minimums=tuple(self.opening_minimum_of(s) for s in range(self.sides)),
            hand_counts=tuple(self.held_n),
            foot_counts=tuple(len(f) for f in self.feet),
            knee_counts=tuple(len(k) for k in self.knees),
            in_foot=tuple(self.foot_picked),
            melds=tuple(tuple(m) for m in self.melds),
            red_threes=tuple(tuple(r) for r in self.red_threes),
            opened=tuple(self.opened),
            discard_top=self.pile[-1] if self.pile else None,
            discard_size=len(self.pile),
            stock_size=len(self.stock),
            totals=tuple(self.totals),
            results=tuple(self.results),
            asking=self.seat if self.phase == _ANSWER else None,
            stalled_turns=self.stalled_turns,
            pickup_size=self.pickup_size(),
        )

    def view(self, seat: Seat) -> PlayerView:
        """Everything ``seat`` may know, and nothing more."""
        return self._view(seat, self._view_fields(seat))

    def play_view(self, seat: Seat) -> PlayerView:
        """:meth:`view`, for a play loop that changes the state only through its moves
        (:meth:`apply_listed`, :meth:`apply_action`, :meth:`apply`): the fields that only
        a committed move changes (the hand, the table, the counts, the scores) are kept
        from this seat's last ``play_view`` while no move has been committed since, so a
        view between two staging steps costs only its staged cards and its listing."""
        kept = self._viewed
        if kept is not None and kept[0] is self._log and kept[1] == seat:
            return self._view(seat, kept[2], kept[3])
        fields = self._view_fields(seat)
        listing: list[Any] = []
        self._viewed = (self._log, seat, fields, listing)
        return self._view(seat, fields, listing)

    def _view_fields(self, seat: Seat) -> tuple[Any, ...]:
        """The fields of ``seat``'s view up to ``asking``, in order: none of them changes
        but by a committed move (staging changes none)."""
        side = self.side_of[seat]
        acting = self.actor == seat and self.phase != _GAME_OVER
        return (
            self.profile,
            seat,
            side,
            self.players,
            self.sides,
            self.round_number,
            self.profile.rounds,
            self.phase,
            self.seat,
            self.actor,
            self.opening_minimum_of(side),
            tuple(cards.faces_from_counts(self.held_faces[seat])),
            tuple(self.held_n),
            tuple(map(len, self.feet)),
            tuple(map(len, self.knees)),
            tuple(self.foot_picked),
            tuple(map(tuple, self.melds)),
            tuple(map(tuple, self.red_threes)),
            tuple(self.opened),
            self.pile[-1] if self.pile else None,
            len(self.pile),
            len(self.stock),
            tuple(self.totals),
            tuple(self.results),
            self.seat if self.phase == _ANSWER and acting else None,
        )

    def _view(self, seat: Seat, fields: tuple[Any, ...],
              kept: list[Any] | None = None) -> PlayerView:
        """``seat``'s view from :meth:`_view_fields`: with its staged cards and listing
        (``kept``: what listings keep until the next move, for :meth:`play_view`)."""
        groups = self.staged_groups() if seat == self.seat and self.staged else ()
        acting = self.actor == seat and self.phase != _GAME_OVER
        legal = tuple(self._list_legal(groups, kept)) if acting else ()
        return _new_player_view(*fields, groups, legal, self.stalled_turns,
                                self.pickup_size())


_new_group: Final = mv.new_meld_group
_new_player_view: Final[Callable[..., PlayerView]] = mv.fast_constructor(PlayerView)
"""``PlayerView(...)``, built faster (every field by keyword)."""


_EVENT_TYPES: Final[dict[type, str]] = {
    mv.Draw: "draw", mv.Pickup: "pickup", mv.Meld: "meld", mv.Discard: "discard",
    mv.GoOut: "go_out", mv.Answer: "answer", mv.Undo: "undo", mv.Knock: "knock",
    mv.PickUpKnee: "knee",
}


def _names(faces: Sequence[int]) -> list[str]:
    return [cards.face_name(f) for f in faces]


def _event_parts(entry: HistoryEntry, facts: Sequence[tuple[Any, ...]],
                 ) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The public and private parts of a move's event, from the facts its commit noted."""
    move, seat = entry.move, entry.seat
    public: dict[str, Any] = {"type": _EVENT_TYPES[type(move)], "seat": seat,
                              "round": entry.round_number}
    private: dict[str, Any] = {}
    asked = any(f[0] == "asked" for f in facts)
    if asked:
        public["asked"] = True  # "May I go out?": the plan is the asker's secret till then
        public["words"] = "asked to go out"
        private["notation"] = mv.format_move(move)
        private["words"] = move_words(move)
    else:
        public["notation"] = mv.format_move(move)
        public["words"] = move_words(move)
    if isinstance(move, mv.Answer):
        public["yes"] = move.yes
    melds: list[dict[str, Any]] = []
    seats: dict[int, dict[str, Any]] = {}  # what happened to each seat's packets

    def of(s: int) -> dict[str, Any]:
        if s not in seats:
            seats[s] = {"seat": s, "foot": False, "knee": False, "red_threes": [],
                        "replaced": 0}
        return seats[s]

    of(seat)
    drew: list[int] = []
    for fact in facts:
        match fact:
            case ("drew", _, faces):
                public["count"] = len(faces)
                drew.extend(faces)
            case ("took", top, rest):
                public["top"] = cards.face_name(top)
                public["taken"] = _names([top, *reversed(rest)])
            case ("melded", target, faces, new):
                melds.append({"target": "wild" if target == WILD_MELD else KIND_CODES[target],
                              "cards": _names(faces), "new": new})
            case ("packet", s, packet, faces):
                of(s)[packet] = True
                if s == seat:
                    private[packet] = _names(faces)
            case ("red3", s, face):
                of(s)["red_threes"].append(cards.face_name(face))
            case ("replaced", s, face):
                of(s)["replaced"] += 1
                if s == seat:
                    drew.append(face)
            case ("discarded", face):
                public["card"] = cards.face_name(face)
            case ("asked_for", asker, pending):
                public["going_out"] = asker  # every partner said yes: the asker goes out
                public["notation"] = mv.format_move(pending)
                public["going_out_words"] = move_words(pending)
            case ("returned", faces):
                public["cards"] = _names(faces)
            case ("ended", result, over):
                public["round_end"] = {
                    "round": result.round_number, "reason": result.reason,
                    "went_out": result.went_out,
                    "scores": [score.total for score in result.scores],
                    "totals": list(result.totals), "game_over": over}
    if isinstance(move, mv.Draw):
        public.setdefault("count", 0)  # the stock could not be drawn: the round ended
    if melds:
        public["melds"] = melds
        public["cards"] = [c for m in melds for c in m["cards"]]
    if drew:
        private["drew"] = _names(drew)
    mine = seats.pop(seat)
    for key in ("foot", "knee", "red_threes", "replaced"):
        public[key] = mine[key]
    if seats:
        public["others"] = list(seats.values())
    return public, private or None


def _target_singular(target: int) -> str:
    return "all-wild meld" if target == WILD_MELD else f"meld of {KIND_PLURALS[target]}"


def _target_plural(target: int) -> str:
    return "all-wild melds" if target == WILD_MELD else KIND_PLURALS[target]


def _count_text(n: int, kind: int) -> str:
    """``"1 king"``, ``"3 kings"``, ``"2 2s"``: a count of a card kind."""
    return f"{n} {KIND_NAMES[kind] if n == 1 else KIND_PLURALS[kind]}"


def _top_completes_text(target: int) -> str:
    book = ("all-wild meld into a wild book" if target == WILD_MELD
            else f"book of {KIND_PLURALS[target]}")
    return f"the top card would complete your {book}, so you cannot take it"


def _short_meld_text(minimum: int, t: int, n: int, tw: int, jk: int) -> str:
    return f"a new meld needs at least {minimum} cards; {_group_text(t, n, tw, jk)} is only " \
        f"{n + tw + jk}"


def _group_text(t: int, n: int, tw: int, jk: int) -> str:
    return mv.format_group(MeldGroup(t, n, tw, jk)) or "nothing"
