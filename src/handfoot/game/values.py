"""The engine's values: what a game is made of and what it tells, as frozen data.

Errors a move or a deal can raise, the phase of a turn and how a round ended, a meld on the
table, a round's deal and result, a seat's view and the public view, the history of moves
and the events they showed, a checked move's :class:`Effect`, and a whole position
(:class:`Position`). :class:`~handfoot.game.engine.GameState` makes them; none of them
changes once made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any, Final, overload

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import (
    KIND_PLURALS,
    Face,
    Kind,
)
from handfoot.game.moves import WILD_MELD, ActionId, ByFields, MeldGroup
from handfoot.game.rules import Layout, Profile, Seat, Side
from handfoot.game.scoring import SideScore
from handfoot.game.table import (
    BookKind,
    book_kind,
)

__all__ = [
    "TAKE_BACKS_PER_TURN",
    "Deal",
    "DealError",
    "Effect",
    "Event",
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
    "TableMeld",
]

TAKE_BACKS_PER_TURN: Final = 30
"""The most take-backs a turn may make: undoing a meld (``undo``) or clearing staged cards
(``clear``) each counts one; past it they are refused, so that every turn, and every round,
ends after a bounded number of actions under any legal play."""


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
    hand_kinds: tuple[int, ...]
    """How many cards of each kind :attr:`hand` holds (indexed by kind)."""
    hand_counts: tuple[int, ...]
    foot_counts: tuple[int, ...]
    knee_counts: tuple[int, ...]
    in_foot: tuple[bool, ...]
    melds: tuple[tuple[TableMeld, ...], ...]
    open_melds: tuple[tuple[TableMeld | None, ...], ...]
    """For each side, each target's meld (indexed by target: the ranks, then the all-wild
    meld) that still takes cards, None where it has none: the side's latest meld of the
    target, unless that one is full (at ``book_max``, or an all-wild book). Public: the
    table says it."""
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
                 opening_minimum: int, hand: tuple[Face, ...], hand_kinds: tuple[int, ...],
                 hand_counts: tuple[int, ...],
                 foot_counts: tuple[int, ...], knee_counts: tuple[int, ...],
                 in_foot: tuple[bool, ...], melds: tuple[tuple[TableMeld, ...], ...],
                 open_melds: tuple[tuple[TableMeld | None, ...], ...],
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
        object.__setattr__(self, "hand_kinds", hand_kinds)
        object.__setattr__(self, "hand_counts", hand_counts)
        object.__setattr__(self, "foot_counts", foot_counts)
        object.__setattr__(self, "knee_counts", knee_counts)
        object.__setattr__(self, "in_foot", in_foot)
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "open_melds", open_melds)
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


_LogNode = tuple[Any, int, HistoryEntry, list[tuple[Any, ...]]]
"""A history node: (the node before it or None, its 0-based number, the entry, the facts
its event is made from). Copies of a state share their nodes."""


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
    take_backs: int = 0
    """Take-backs (undos, staged cards cleared) made this turn (:data:`TAKE_BACKS_PER_TURN`)."""
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
