"""Where every card of a round lies and whose turn it is: the fields of a game state, how a
copy copies each, and the questions the rules and the front ends ask of them.

:class:`State` is the first of the classes :class:`~handfoot.game.engine.GameState` is
built from, each in its own module and each adding one concern: the position and its
questions (here), checking moves (:mod:`.checks`), listing what may be done and views
(:mod:`.listing`), then playing moves (:mod:`.engine`). They are one class split by
concern, not separate types: only ``GameState`` is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import (
    BLACK_THREE,
    FACE_KIND,
    JOKER,
    RED_THREE,
    TWO,
    Face,
)
from handfoot.game.events import event_parts
from handfoot.game.moves import WILD_MELD, MeldGroup
from handfoot.game.rules import Layout, PartnerCondition, PickupWildTop, Profile, Seat, Side
from handfoot.game.table import (
    count_books,
)
from handfoot.game.table import opening_minimum as side_opening_minimum
from handfoot.game.values import (
    _DRAW,
    _GAME_OVER,
    TAKE_BACKS_PER_TURN,
    Deal,
    Event,
    History,
    MeldOptions,
    Phase,
    RoundResult,
    TableMeld,
    _LogNode,
)

__all__ = ["State"]


# Enum members that hot code reads, as module constants: in Python 3.11 reading a member
# through its class (``Phase.DRAW``) goes through ``EnumType.__getattr__``'s slow path and
# costs about ten times a global lookup (measured: it made the engine benchmark slower).
_WILD_TOP_FORBIDDEN: Final = PickupWildTop.FORBIDDEN
_PARTNER_NONE: Final = PartnerCondition.NONE
_PARTNER_PICKED_UP: Final = PartnerCondition.PICKED_UP
_PARTNER_PLAYED_FROM: Final = PartnerCondition.PLAYED_FROM
_PARTNER_FINISHED_TURN: Final = PartnerCondition.FINISHED_TURN

_INF: Final = 1 << 30
"""No cap: larger than any count of cards."""
_NO_TARGETS: Final[list[int]] = [0] * mv.NUM_TARGETS
"""0 for every target (a template, copied, never changed)."""
_NO_OPEN: Final[list[TableMeld | None]] = [None] * mv.NUM_TARGETS
"""No meld for any target (a template, copied, never changed)."""

_NO_INDEX: Final[list[int]] = [-1] * cards.NUM_KINDS
"""-1 for every kind (a template, copied, never changed)."""

_SideTable = tuple[tuple[TableMeld, ...], tuple[TableMeld | None, ...], list[int], list[int],
                   list[TableMeld]]
"""A side's melds as a tuple, each target's meld of them that still takes cards (None if
none), its size (0 if none) and its index (-1 if none; indexed by kind, a kind that is no
target has none), and the melds as a list again (what the side's melds are compared
with): :meth:`State._side_table`."""

_Listing = tuple[list[int], dict[int, tuple[tuple[MeldGroup, ...], Any, list[int] | None]]]
"""A legal-action listing kept for :meth:`GameState.apply_listed`: the actions, and for
each commit of staged cards it found legal (``PICKUP``, ``CONFIRM``, ``GO_OUT*``) the
groups, the plan and a pickup's cards below the top card that its check worked out."""

_new_group: Final = mv.new_meld_group
_NATIVE_GROUPS: Final = _new_group is MeldGroup
"""Compiled, ``MeldGroup(...)`` named is built natively (``new_meld_group`` is the class,
called through a Python call); pure Python, ``new_meld_group`` sets the slots directly."""


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
    ("take_backs", _SHARED),
    ("undo_stack", _LIST),
    ("staged", _DICT),
    ("_log", _SHARED),
    ("_facts", _FRESH),
    ("_listed", _FRESH),
    ("_viewed", _FRESH),
    ("_options", _FRESH),
    ("_side_tables", _FRESH),
    ("_flags_kept", _FRESH),
)
"""Every field of a :class:`GameState`, with how :meth:`GameState.copy` copies it: the one
list ``__slots__`` is made from and ``copy`` follows. ``new``/``_start_round``, ``position`` and
``from_position`` set or read each field; tests/test_positions.py compares every field of
a copy and of ``from_position(state.position())`` with the state's."""


class State:
    """A game's fields and the questions asked of them (see the module docstring)."""

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
    take_backs: int
    """Undos and clears of staged cards this turn; at :data:`TAKE_BACKS_PER_TURN` they are
    refused until the next turn."""
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
    _options: dict[tuple[Any, ...], MeldOptions] | None
    """For :meth:`meld_options`: each kind's answer, by what it depends on besides the
    rules (a cache, not state: None in copies)."""
    _side_tables: list[_SideTable | None] | None
    """For :meth:`_side_table`: each side's table as last read (a cache, not state: None
    in copies; kept while the side's melds are the same ones)."""
    _flags_kept: list[int] | None
    """For :meth:`_flags_alone`: the staging flags of a target with nothing staged, by
    target and meld size (-1: not yet worked out; a cache of what the rules say, not
    state: None in copies)."""

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

    def may_take_back(self) -> bool:
        """Whether this turn may still take back (undo melds, clear staged cards): at most
        :data:`TAKE_BACKS_PER_TURN` times a turn, so that every turn ends."""
        return self.take_backs < TAKE_BACKS_PER_TURN

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
            public, private = event_parts(entry, facts)
            out.append(Event(number, entry.round_number, entry.seat, public, private))
        return out

    def pickup_size(self) -> int:
        """How many cards a pickup takes now."""
        n = self.profile.pickup_count
        size = len(self.pile)
        return size if n is None or size < n else n  # (no min(): a call, hot)

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

    def _current_meld(self, side: int, target: int) -> int:
        """Index of the side's meld of ``target`` that still takes cards, or -1 (``target``
        a kind: -1 for a kind that is no target)."""
        return self._side_table(side)[3][target]

    def _needs_permission(self, seat: int) -> bool:
        p = self.profile
        return bool(p.permission and self.partners(seat)
                    and not (p.permission_persists and self.permission[self.side_of[seat]]))

    def _discard_locked(self, seat: int, kind: int, held: Sequence[int] | None = None) -> bool:
        """Sevens From Hell: a locked rank is not discarded before its clean book exists,
        unless the player holds nothing else (A-55); ``held`` is the hand at the discard."""
        locked = self.profile.discard_locked_until_clean_book
        if kind not in locked or self._lock_released(kind):
            return False
        cards_held = self.held[seat] if held is None else held
        return any(cards_held[k] for k in range(RED_THREE) if k not in locked)

    def _lock_released(self, kind: int) -> bool:
        size = self.profile.book_size
        return any(m.target == kind and m.wilds == 0 and m.size >= size
                   for melds in self.melds for m in melds)

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

    # --- staged cards --------------------------------------------------------------------

    def staged_groups(self) -> tuple[MeldGroup, ...]:
        """The staged cards as meld groups, in target order (slot 0 before slot 1).

        At a pickup, a second-meld group staged without a first gets an empty first group
        before it: the top card alone completes the side's meld.
        """
        out: list[MeldGroup] = []
        pickup = self.phase == _DRAW
        staged = self.staged
        for key in sorted(staged):
            if pickup and key % 2 and key - 1 not in staged:
                out.append(MeldGroup(key // 2))
            g = staged[key]
            if _NATIVE_GROUPS:
                out.append(MeldGroup(key >> 1, g[0], g[1], g[2], bool(key & 1)))
            else:
                out.append(_new_group(key >> 1, g[0], g[1], g[2], bool(key & 1)))
        return tuple(out)

    def _staged_total(self) -> int:
        n = 0
        for v in self.staged.values():  # (a loop: no generators)
            n += v[0] + v[1] + v[2]
        return n

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

    def _unstaged(self, held: list[int]) -> list[int]:
        """``held`` (a seat's count of each kind) less the staged cards: for every kind,
        :meth:`_staged_kind` taken from its count, in one pass over the staged groups."""
        left = held[:]
        for key, (n, tw, jk) in self.staged.items():
            if n:  # (naturals: their kind is the target's rank)
                k = key // 2
                left[k] = left[k] - n
            left[TWO] = left[TWO] - tw
            left[JOKER] = left[JOKER] - jk
        return left

    def _staged_now(self) -> tuple[tuple[int, int, int, int], ...]:
        """The staged cards as a value (a staging action's check depends on them)."""
        return tuple((key, n, tw, jk) for key, (n, tw, jk) in sorted(self.staged.items()))

    def _top_target(self) -> int:
        """At a pickup, the target the pile's top card joins; else -1."""
        if self.phase != _DRAW or not self.pile:
            return -1
        top_kind = FACE_KIND[self.pile[-1]]
        return WILD_MELD if cards.is_wild(top_kind) else top_kind

    def _existing_sizes(self, side: int) -> list[int]:
        """The size of each target's meld that still takes cards (0 if none): the side's
        latest meld of the target decides (the list kept: not to be changed)."""
        return self._side_table(side)[2]

    def _side_table(self, side: int) -> _SideTable:
        """The side's melds as a tuple, each target's meld that still takes cards (its
        latest meld of the target, unless full: a book at ``book_max``, an all-wild book;
        None if none), that meld's size (0 if none) and its index (-1 if none), kept
        while the side's melds are the same ones (compared by content, identity first: a
        meld is immutable), so that a side's table is walked once a change, not once per
        view, listing, staging step and check (the views share the tuples: their
        ``melds`` and ``open_melds``)."""
        now = self.melds[side]
        tables = self._side_tables
        if tables is None:
            tables = self._side_tables = [None] * self.sides
        kept = tables[side]
        if kept is not None and kept[4] == now:  # (two lists: no tuple made to compare)
            return kept
        melds = tuple(now)
        p = self.profile
        book_size = p.book_size
        cap_rank = p.book_max or _INF
        open_melds = _NO_OPEN[:]  # (a template's copy: native when compiled)
        sizes = _NO_TARGETS[:]
        index = _NO_INDEX[:]
        for i in range(len(melds)):  # a later meld of a target overrides an earlier one
            m = melds[i]
            t = m.target
            size = m.naturals + m.twos + m.jokers
            if size < (book_size if t == WILD_MELD else cap_rank):
                open_melds[t] = m
                sizes[t] = size
                index[t] = i
            else:
                open_melds[t] = None
                sizes[t] = 0
                index[t] = -1
        kept = (melds, tuple(open_melds), sizes, index, now[:])
        tables[side] = kept
        return kept
