"""The game: state, legal moves, applying moves, views and scoring.

:class:`GameState` holds a whole game under one :class:`~handfoot.rules.Profile`. It says
whose turn it is and in which :class:`Phase`; :meth:`GameState.apply` plays a player move
(see :mod:`handfoot.moves`) or raises :class:`IllegalMoveError` with a reason a player
understands, leaving the state exactly as it was; :meth:`GameState.legal_actions` lists the
legal integer actions; :meth:`GameState.view` gives a seat only what that seat may know;
:meth:`GameState.copy` is cheap.

The engine is pure: no I/O, no clock, no global state. Randomness (the shuffle and the
place a rejected starter card goes back into the stock) comes only from the game's seed,
or the deals are given explicitly.

Internally every packet is a vector of counts (by face for people, by kind for the rules),
and a meld is a rank plus counts, so a rule check is a few integer comparisons.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from handfoot import cards
from handfoot import moves as mv
from handfoot.cards import (
    BLACK_THREE,
    FACE_KIND,
    JOKER,
    KIND_FACES,
    KIND_NAMES,
    KIND_PLURALS,
    NUM_FACES,
    NUM_KINDS,
    RED_THREE,
    TWO,
)
from handfoot.moves import WILD_MELD, MeldGroup
from handfoot.rulebook import wild_rule_text
from handfoot.rules import Layout, Profile

__all__ = [
    "Deal",
    "GameState",
    "IllegalMoveError",
    "Phase",
    "PlayerView",
    "RoundResult",
    "ScoreLine",
    "SideScore",
    "TableMeld",
    "deal_round",
]


class IllegalMoveError(ValueError):
    """A move the rules do not allow; the message says why, in a player's words."""


class Phase(IntEnum):
    """What the player to act must do."""

    DRAW = 0
    """Start of a turn: draw from the stock or take the discard pile."""
    PLAY = 1
    """Meld, then discard (or go out)."""
    ANSWER = 2
    """A partner answers "May I go out?"."""
    GAME_OVER = 3


# --- value types -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld or book on a side's table: its target rank (or the all-wild meld) and cards."""

    target: int
    naturals: int
    twos: int
    jokers: int
    faces: tuple[int, ...]

    @property
    def size(self) -> int:
        return self.naturals + self.twos + self.jokers

    @property
    def wilds(self) -> int:
        return self.twos + self.jokers

    def book_kind(self, book_size: int) -> str | None:
        """``"clean"``, ``"dirty"``, ``"wild"``, or None while it is not a book."""
        if self.size < book_size:
            return None
        if self.target == WILD_MELD:
            return "wild"
        return "clean" if self.wilds == 0 else "dirty"

    def describe(self) -> str:
        what = "all-wild meld" if self.target == WILD_MELD else KIND_PLURALS[self.target]
        return f"{what}: {cards.format_faces(self.faces)}"


@dataclass(frozen=True, slots=True)
class Deal:
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
class ScoreLine:
    """One line of a side's round breakdown: ``count`` items worth ``points`` in all."""

    key: str
    label: str
    count: int
    points: int


@dataclass(frozen=True, slots=True)
class SideScore:
    """A side's score for a round, with its breakdown; ``total`` is the sum of the lines."""

    side: int
    lines: tuple[ScoreLine, ...]
    total: int


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended and what each side scored."""

    round_number: int
    reason: str
    """``"went out"``, ``"stock exhausted"`` or ``"red 3 not replaced"``."""
    went_out: int | None
    """The seat that went out, if any."""
    scores: tuple[SideScore, ...]
    totals: tuple[int, ...]
    """Each side's cumulative total after this round."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may know: its own cards, the table, and counts of hidden packets."""

    profile: Profile
    """The rules (public)."""
    seat: int
    side: int
    players: int
    sides: int
    round_number: int
    rounds: int
    phase: Phase
    turn: int
    """The seat whose turn it is."""
    to_act: int
    """The seat that must act now (a partner, while answering)."""
    opening_minimum: int
    hand: tuple[int, ...]
    """This seat's playable cards (Hand, then Foot), as faces."""
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
    """The partner asking "May I go out?", when this seat must answer."""
    staged: tuple[MeldGroup, ...]
    legal_actions: tuple[int, ...]


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
        while True:
            face = stock.pop(0)
            if checked and FACE_KIND[face] in rejected:
                stock.insert(rng.randrange(len(stock) + 1), face)
                continue
            discard.append(face)
            break
    if profile.first_player == "left_of_dealer":
        first = (round_number - 1) % players
    else:
        base = random.Random(_derived_seed(seed, "first")).randrange(players)
        first = (base + round_number - 1) % players
    return Deal(hands, feet, knees, tuple(stock), tuple(discard),
                dealer=(first - 1) % players, first_player=first)


# --- the game state --------------------------------------------------------------------

_INF: Final = 1 << 30


class _Plan:
    """The effect of a list of meld groups, worked out without changing the state."""

    __slots__ = ("books_made", "completed", "new_melds", "new_with_top", "steps", "used",
                 "used_top", "value", "wild_value")

    def __init__(self) -> None:
        self.steps: list[tuple[int, int, int, int, int, bool]] = []
        # (meld index or -1 for new, target, naturals, twos, jokers, top card included)
        self.used = [0] * NUM_KINDS  # hand cards used, by kind
        self.used_top = False
        self.value = 0  # card value of everything melded (hand and top card)
        self.wild_value = 0  # of that, in all-wild melds
        self.completed: list[int] = []  # indices of existing melds that became full
        self.new_melds: list[list[int]] = []  # [target, n, t, j] of melds started
        self.new_with_top: list[bool] = []  # whether each holds the pile's top card
        self.books_made = 0  # melds that reach book size


class GameState:
    """A game of Hand and Foot in progress. See the module docstring."""

    __slots__ = (
        "_refused",
        "actor",
        "deal",
        "dealer",
        "deals",
        "feet",
        "first_player",
        "foot_picked",
        "foot_played",
        "foot_turn_done",
        "held",
        "held_faces",
        "held_n",
        "knees",
        "layout",
        "melds",
        "opened",
        "pending",
        "pending_answerers",
        "permission",
        "phase",
        "picked_pile",
        "pile",
        "players",
        "profile",
        "red_threes",
        "results",
        "round_number",
        "seat",
        "seed",
        "side_of",
        "sides",
        "staged",
        "stock",
        "totals",
        "undo_stack",
    )

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
    undo_stack: list[tuple[list[int], list[int], int, list[TableMeld], bool, bool]]
    staged: dict[int, list[int]]

    # --- construction ------------------------------------------------------------------

    @classmethod
    def new(cls, profile: Profile, *, layout: Layout | None = None, seed: int | None = None,
            deals: Sequence[Deal] = ()) -> GameState:
        """Start a game: round 1 is dealt from ``deals[0]`` if given, else from ``seed``.

        Later rounds use the next explicit deal, or the seed when deals run out.
        """
        layout = layout or profile.layout
        if layout not in profile.layouts:
            allowed = ", ".join(x.describe() for x in profile.layouts)
            raise ValueError(f"{profile.name} is played by {allowed}, not {layout.describe()}")
        if seed is None and len(deals) < profile.rounds:
            raise ValueError(f"a game of {profile.rounds} rounds needs a seed or a deal for "
                             f"every round (got {len(deals)} deals)")
        for number, deal in enumerate(deals, 1):
            try:
                _check_deal(profile, layout, deal, number)
            except ValueError as exc:
                raise ValueError(f"the deal of round {number}: {exc}") from None
        self = cls.__new__(cls)
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
        self._start_round(1)
        return self

    def _deal_for(self, round_number: int) -> Deal:
        if round_number <= len(self.deals):
            return self.deals[round_number - 1]  # checked when the game was created
        if self.seed is None:
            raise ValueError(f"no deal for round {round_number} and no seed to deal one")
        return deal_round(self.profile, self.layout, self.seed, round_number)

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
        self.undo_stack = []
        self.staged = {}
        self.seat = self.actor = deal.first_player
        self.phase = Phase.DRAW
        # Red threes in the dealt Hands are laid and replaced in turn order.
        for i in range(n):
            seat = (deal.first_player + i) % n
            if not self._lay_red_threes(seat):
                return
        self._begin_turn(deal.first_player)

    def copy(self) -> GameState:
        """An independent copy (the profile and immutable parts are shared)."""
        c = GameState.__new__(GameState)
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
        c.held_faces = [h[:] for h in self.held_faces]
        c.held = [h[:] for h in self.held]
        c.held_n = self.held_n[:]
        c.feet = [f[:] for f in self.feet]
        c.knees = [k[:] for k in self.knees]
        c.foot_picked = self.foot_picked[:]
        c.foot_played = self.foot_played[:]
        c.foot_turn_done = self.foot_turn_done[:]
        c.stock = self.stock[:]
        c.pile = self.pile[:]
        c.melds = [m[:] for m in self.melds]
        c.red_threes = [r[:] for r in self.red_threes]
        c.opened = self.opened[:]
        c.permission = self.permission[:]
        c._refused = self._refused
        c.pending = self.pending
        c.pending_answerers = self.pending_answerers[:]
        c.picked_pile = self.picked_pile
        c.undo_stack = self.undo_stack[:]
        c.staged = {k: v[:] for k, v in self.staged.items()}
        return c

    # --- queries -----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.GAME_OVER

    @property
    def to_act(self) -> int:
        """The seat that must act now."""
        return self.actor

    @property
    def opening_minimum(self) -> int:
        """The opening minimum of the side whose turn it is."""
        return self.opening_minimum_of(self.side_of[self.seat])

    def opening_minimum_of(self, side: int) -> int:
        """A side's opening minimum this round (by round, or by its score); 0 in a round
        whose opening needs a clean book instead (A-25)."""
        p = self.profile
        if self.round_number in p.clean_book_opening_rounds:
            return 0
        return p.opening_minimum(self.round_number, self.totals[side])

    def knee_open(self, side: int) -> bool:
        """Whether a side's players may pick up their Knees: it has completed a book."""
        size = self.profile.book_size
        return any(m.size >= size for m in self.melds[side])

    def hand(self, seat: int) -> list[int]:
        """The faces a seat holds (its Hand, or its Foot once picked up)."""
        return cards.faces_from_counts(self.held_faces[seat])

    def partners(self, seat: int) -> tuple[int, ...]:
        return tuple(s for s in self.layout.seats_of(self.side_of[seat]) if s != seat)

    def in_last_packet(self, seat: int) -> bool:
        """True once a seat has picked up every packet it was dealt."""
        return self.foot_picked[seat] and not self.knees[seat]

    def book_counts(self, side: int) -> dict[str, int]:
        """Completed books of a side by kind, and clean books by rank (``"clean:5"``)."""
        out = {"clean": 0, "dirty": 0, "wild": 0}
        size = self.profile.book_size
        for m in self.melds[side]:
            kind = m.book_kind(size)
            if kind is not None:
                out[kind] += 1
                if kind == "clean":
                    key = f"clean:{m.target}"
                    out[key] = out.get(key, 0) + 1
        return out

    def winners(self) -> tuple[int, ...]:
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

    # --- applying moves ------------------------------------------------------------------

    def apply(self, move: mv.Move) -> None:
        """Play a move for the seat to act, or raise :class:`IllegalMoveError`.

        On an error the state is exactly as it was.
        """
        if self.phase == Phase.GAME_OVER:
            raise IllegalMoveError("the game is over")
        match move:
            case mv.Draw():
                self._draw()
            case mv.Pickup(groups):
                self._pickup(groups)
            case mv.Meld(groups):
                self._meld(groups)
            case mv.Discard(kind):
                self._discard(kind)
            case mv.GoOut(groups, discard):
                self._go_out(groups, discard)
            case mv.Answer(yes):
                self._answer(yes)
            case mv.Undo():
                self._undo()
            case mv.Knock():
                self._knock()
            case mv.PickUpKnee():
                self._knee()
            case mv.Stage(kind, target, slot):
                self._stage(kind, target, slot)
            case mv.Confirm():
                self._require(Phase.PLAY, "meld")
                if not self.staged:
                    raise IllegalMoveError("no cards are staged to meld")
                self._meld(self.staged_groups())
            case mv.ClearStaged():
                if not self.staged:
                    raise IllegalMoveError("no cards are staged")
                self.staged = {}
            case _:
                raise IllegalMoveError(f"not a move: {move!r}")

    def check(self, move: mv.Move) -> str | None:
        """The reason a move is illegal now, or None if it is legal."""
        try:
            self.copy().apply(move)
        except IllegalMoveError as exc:
            return str(exc)
        return None

    def apply_action(self, action: int) -> mv.Move | None:
        """Play an integer action; returns the player move it committed (None for staging).

        Staged cards become a :class:`~handfoot.moves.Meld`, :class:`~handfoot.moves.Pickup`
        or :class:`~handfoot.moves.GoOut`, which is what a game record stores.
        """
        move = mv.decode_action(action)
        if isinstance(move, mv.Stage | mv.ClearStaged):
            self.apply(move)
            return None
        if isinstance(move, mv.Confirm):
            move = mv.Meld(self.staged_groups())
        elif isinstance(move, mv.Pickup):
            move = mv.Pickup(self.staged_groups())
        elif isinstance(move, mv.GoOut):
            move = mv.GoOut(self.staged_groups(), move.discard)
        if isinstance(move, mv.Meld) and not move.groups:
            raise IllegalMoveError("no cards are staged to meld")
        self.apply(move)
        return move

    def _require(self, phase: Phase, what: str) -> None:
        if self.phase == phase:
            return
        if self.phase == Phase.ANSWER:
            raise IllegalMoveError(
                f"seat {self.actor + 1} must first answer whether seat {self.seat + 1} may go out")
        if phase == Phase.PLAY:
            raise IllegalMoveError(f"you must draw or take the pile before you {what}")
        if phase == Phase.DRAW:
            raise IllegalMoveError(f"you have already drawn this turn; you cannot {what} now")
        raise IllegalMoveError(f"you cannot {what} now")

    # --- drawing ---------------------------------------------------------------------------

    def _draw(self) -> None:
        self._require(Phase.DRAW, "draw")
        p = self.profile
        seat = self.seat
        count = p.draw_count
        if len(self.stock) < count:
            if not (p.partial_last_draw and self.stock):
                self._end_round("stock exhausted", None)
                return
            count = len(self.stock)
        foot_due = self.held_n[seat] == 0 and not self.foot_picked[seat]
        for _ in range(count):
            self._add(seat, self.stock.pop())
        self.staged = {}
        self.phase = Phase.PLAY
        if self._lay_red_threes(seat) and foot_due:
            self._pick_up_foot(seat)  # a delayed Foot comes after the draw

    def pickup_size(self) -> int:
        """How many cards a pickup takes now."""
        n = self.profile.pickup_count
        return len(self.pile) if n is None else min(n, len(self.pile))

    def _pickup(self, groups: tuple[MeldGroup, ...]) -> None:
        self._require(Phase.DRAW, "take the pile")
        plan, rest = self._check_pickup(groups)
        seat, side = self.seat, self.side_of[self.seat]
        foot_due = self.held_n[seat] == 0 and not self.foot_picked[seat]
        top = self.pile.pop()
        del self.pile[len(self.pile) - len(rest):]
        if self.profile.pickup_opening_counts == "all_picked":
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
            if self.foot_picked[seat]:
                self.foot_played[seat] = True
        self.staged = {}
        self.picked_pile = True
        self.phase = Phase.PLAY
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
        if cards.is_wild(top_kind) and p.pickup_wild_top == "forbidden":
            return "the pile cannot be taken with a wild card on top"
        return None

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
        extra = cards.kind_counts(rest) if p.pickup_opening_counts == "all_picked" else None
        cur = self._current_meld(side, target) if top_kind != BLACK_THREE else -1
        if top_kind != BLACK_THREE:
            if p.pickup_existing_meld == "forbidden" and any(
                    m.target == target for m in self.melds[side]):
                raise IllegalMoveError(
                    f"your side already has {_target_plural(target)} on the table, so you "
                    "cannot take the pile with one on top")
            if p.pickup_existing_meld == "forbidden_if_completes":
                self._check_top_completes(side, top_kind)
        if not p.pickup_melds_top:
            if groups:
                raise IllegalMoveError("take the pile first; you may meld afterwards")
            plan = _Plan()
        else:
            plan = self._plan(side, seat, groups, top_kind=top_kind, extra=extra)
            if not plan.used_top:
                raise IllegalMoveError(
                    f"the top card ({cards.face_label(top)}) must be melded at once: include "
                    f"a group of {_target_plural(target)} from your hand")
        if p.pickup_needs_pair:
            # the pair comes from the hand, even where picked-up cards may be melded too
            held = self.held[seat][top_kind]
            if wild_top:
                like = min(held, sum(st[3] if top_kind == TWO else st[4]
                                     for st in plan.steps if st[1] == WILD_MELD))
                if like < 2:
                    raise IllegalMoveError(
                        f"to take a {KIND_NAMES[top_kind]} on top you must meld two "
                        f"{KIND_PLURALS[top_kind]} from your hand with it in an all-wild meld")
            else:
                pair = min(held, sum(st[2] for st in plan.steps if st[1] == target))
                if pair < 2:
                    raise IllegalMoveError(
                        f"to take the pile you must meld a natural pair of "
                        f"{KIND_PLURALS[top_kind]} from your hand with the top card")
        if p.pickup_existing_meld == "complete_and_start" and cur >= 0 and plan.used_top:
            created = any(m[0] == target for m in plan.new_melds)
            if cur not in plan.completed or not created:
                m = self.melds[side][cur]
                what = "all-wild meld" if target == WILD_MELD else f"meld of {KIND_PLURALS[target]}"
                raise IllegalMoveError(
                    f"your side has an unfinished {what} ({m.size} cards): taking the pile "
                    f"must complete it to {p.book_size} cards and start a new meld")
        self._check_opening(side, plan)
        remaining = (self.held_n[seat] + len(rest) + (0 if plan.used_top else 1)
                     - sum(plan.used))
        self._check_remaining(seat, remaining, plan)
        return plan, rest

    def _check_top_completes(self, side: int, top_kind: int) -> None:
        """Forbid a pickup whose top card could complete one of the side's melds."""
        p = self.profile
        for m in self.melds[side]:
            if m.target == WILD_MELD or m.size + 1 != p.book_size:
                continue
            if (m.target == top_kind
                    or (cards.is_wild(top_kind)
                    and p.wilds_allowed(m.naturals, m.wilds + 1, m.target))):
                raise IllegalMoveError(
                    f"the top card would complete your book of {KIND_PLURALS[m.target]}, so "
                    "you cannot take it")

    # --- melding -----------------------------------------------------------------------

    def _meld(self, groups: tuple[MeldGroup, ...]) -> None:
        self._require(Phase.PLAY, "meld")
        if not groups:
            raise IllegalMoveError("a meld needs cards")
        seat, side = self.seat, self.side_of[self.seat]
        plan = self._plan(side, seat, groups)
        self._check_opening(side, plan)
        remaining = self.held_n[seat] - sum(plan.used)
        self._check_remaining(seat, remaining, plan)
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
            raise IllegalMoveError(
                f"you must keep at least {keep + 1} cards after melding (one to discard, "
                f"{keep} to hold) unless you go out")

    def _check_opening(self, side: int, plan: _Plan) -> None:
        if self.opened[side] or not plan.steps:
            return
        p = self.profile
        if plan.wild_value and not p.wild_meld_opens:
            raise IllegalMoveError("an all-wild meld cannot be part of your side's opening")
        if self.round_number in p.clean_book_opening_rounds and not any(
                t != WILD_MELD and tw + jk == 0 and n >= p.book_size and not with_top
                for (t, n, tw, jk), with_top in zip(plan.new_melds, plan.new_with_top,
                                                    strict=True)):
            raise IllegalMoveError(
                f"in round {self.round_number} your side's opening must include a clean book "
                f"of {p.book_size} laid from your hand")
        need = self.opening_minimum_of(side)
        if plan.value < need:
            by = (f"with {self.totals[side]} points your side needs" if p.score_band_minimums
                  else f"round {self.round_number} needs")
            raise IllegalMoveError(f"your opening melds count {plan.value}; {by} {need}")

    def _current_meld(self, side: int, target: int) -> int:
        """Index of the side's meld of ``target`` that still takes cards, or -1."""
        p = self.profile
        cap = p.book_max
        melds = self.melds[side]
        for i in range(len(melds) - 1, -1, -1):
            m = melds[i]
            if m.target == target:
                if target == WILD_MELD:
                    return i if m.size < p.book_size else -1
                if cap is None or m.size < cap:
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
        # current meld per target: (index or -1 existing, or -2 - new position) and counts
        cur: dict[int, list[int]] = {}
        has_target: set[int] = {m.target for m in melds}
        book_size = p.book_size
        cap = p.book_max if p.book_max is not None else _INF
        for g in groups:
            t = g.target
            if t in (BLACK_THREE, RED_THREE):
                raise IllegalMoveError("threes can never be melded")
            if not (0 <= t <= WILD_MELD) or min(g.naturals, g.twos, g.jokers) < 0:
                raise IllegalMoveError(f"not a meld group: {g!r}")
            if t == WILD_MELD:
                if g.naturals:
                    raise IllegalMoveError("an all-wild meld holds only wild cards")
                if not p.all_wild_melds:
                    raise IllegalMoveError(
                        "melds made only of wild cards are not allowed: a meld needs naturals")
            for kind, count in g.kind_counts():
                if avail[kind] < count:
                    have = self.held[seat][kind]
                    need = plan.used[kind] + count
                    if extra is not None:
                        raise IllegalMoveError(
                            f"there are only {avail[kind] + plan.used[kind]} "
                            f"{KIND_PLURALS[kind]} in your hand and the pile; these melds "
                            f"need {need}")
                    raise IllegalMoveError(
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
            state = cur.get(t)
            if state is None:
                idx = self._current_meld(side, t)
                if idx >= 0:
                    m = melds[idx]
                    state = [idx, m.naturals, m.twos, m.jokers]
                else:
                    state = [-1, 0, 0, 0]
                cur[t] = state
            if g.new and state[0] != -1:
                current_size = state[1] + state[2] + state[3]
                if (t != WILD_MELD and p.second_meld_of_rank and current_size >= book_size
                        and state[0] >= 0):
                    state = [-1, 0, 0, 0]  # a second meld beside a book that still grows
                elif t != WILD_MELD and current_size >= book_size:
                    raise IllegalMoveError(
                        f"your side has a book of {KIND_PLURALS[t]}, which takes more natural "
                        f"{KIND_PLURALS[t]}; a second meld of a rank is not allowed")
                else:
                    raise IllegalMoveError(
                        f"your side already has an unfinished {_target_singular(t)} "
                        f"({current_size} cards): a side has one unfinished meld of a rank, "
                        "so add to it")
            if state[0] == -1:
                # a new meld
                if t != WILD_MELD and t in has_target:
                    if not (p.new_meld_after_book or (g.new and p.second_meld_of_rank)):
                        raise IllegalMoveError(
                            f"your side already has a book of {KIND_PLURALS[t]}; add to it "
                            "instead of starting a new meld")
                    if n < p.new_meld_min_naturals:
                        raise IllegalMoveError(
                            f"a new meld of {KIND_PLURALS[t]} beside their book needs at least "
                            f"{p.new_meld_min_naturals} natural cards")
                size = n + tw + jk
                if size < p.min_meld_size:
                    raise IllegalMoveError(
                        f"a new meld needs at least {p.min_meld_size} cards; "
                        f"{_group_text(t, n, tw, jk)} is only {size}")
                old_size = 0
                new_n, new_t, new_j = n, tw, jk
            else:
                old_size = state[1] + state[2] + state[3]
                new_n, new_t, new_j = state[1] + n, state[2] + tw, state[3] + jk
            new_size = new_n + new_t + new_j
            wilds_added = tw + jk
            if t == WILD_MELD:
                if new_size > book_size:
                    raise IllegalMoveError(
                        f"an all-wild meld is complete at {book_size} cards; this would make "
                        f"it {new_size}")
            else:
                if new_size > cap:
                    raise IllegalMoveError(
                        f"a book holds at most {cap} cards; this would make your "
                        f"{KIND_PLURALS[t]} {new_size}")
                if wilds_added and p.book_max is None and old_size + wilds_added > book_size:
                    raise IllegalMoveError(
                        f"wild cards cannot take a meld past {book_size} cards; only naturals "
                        "can be added to a book")
                if not p.wilds_allowed(new_n, new_t + new_j, t):
                    raise IllegalMoveError(self._ratio_reason(t, new_n, new_t + new_j))
            plan.steps.append((state[0], t, g.naturals, g.twos, g.jokers, with_top))
            if state[0] == -1:
                plan.new_melds.append([t, new_n, new_t, new_j])
                plan.new_with_top.append(with_top)
                ref = -1 - len(plan.new_melds)
            else:
                ref = state[0]
                if ref <= -2:
                    plan.new_melds[-2 - ref][1:] = [new_n, new_t, new_j]
                    plan.new_with_top[-2 - ref] |= with_top
            has_target.add(t)
            if old_size < book_size <= new_size:
                plan.books_made += 1
            full = new_size >= (book_size if t == WILD_MELD else cap)
            if full:
                if ref >= 0:
                    plan.completed.append(ref)
                cur[t] = [-1, 0, 0, 0]
            else:
                cur[t] = [ref, new_n, new_t, new_j]
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
        new_index: list[int] = []
        for idx, t, n, tw, jk, with_top in plan.steps:
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
            if idx >= 0:
                m = melds[idx]
                melds[idx] = TableMeld(t, m.naturals + n, m.twos + tw, m.jokers + jk,
                                       m.faces + tuple(faces))
            elif idx == -1:
                melds.append(TableMeld(t, n, tw, jk, tuple(faces)))
                new_index.append(len(melds) - 1)
            else:
                pos = new_index[-2 - idx]
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
            self._pick_up_knee(seat)  # the Knee joins the hand before the Foot
        elif not self.foot_picked[seat]:
            if p.foot_at_once:
                self._pick_up_foot(seat)
            else:
                self._end_turn()  # the Foot waits for the next turn's draw
        else:
            self._end_turn()  # nothing left to play: the turn ends without a discard

    def _pick_up_knee(self, seat: int) -> None:
        for face in self.knees[seat]:
            self._add(seat, face)
        self.knees[seat] = []
        self.undo_stack = []
        self._lay_red_threes(seat)

    def _knee(self) -> None:
        if self.phase not in (Phase.DRAW, Phase.PLAY):
            self._require(Phase.PLAY, "pick up your Knee")
        seat = self.seat
        if not self.knees[seat]:
            raise IllegalMoveError("you have no Knee to pick up" if not self.profile.knee_size
                                   else "you have already picked up your Knee")
        if not self.knee_open(self.side_of[seat]):
            raise IllegalMoveError(
                "you may pick up your Knee only once your side has completed a book")
        self._pick_up_knee(seat)

    def _pick_up_foot(self, seat: int) -> None:
        for face in self.feet[seat]:
            self._add(seat, face)
        self.feet[seat] = []
        self.foot_picked[seat] = True
        self.undo_stack = []
        self._lay_red_threes(seat)

    def _lay_red_threes(self, seat: int) -> bool:
        """Lay every red 3 the seat holds and replace each from the stock.

        Returns False if the round ended because the stock could not replace one.
        """
        side = self.side_of[seat]
        while self.held[seat][RED_THREE]:
            self.red_threes[side].append(self._take(seat, RED_THREE, 1)[0])
            if not self.stock:
                # every red 3 still held is laid too before the round ends
                while self.held[seat][RED_THREE]:
                    self.red_threes[side].append(self._take(seat, RED_THREE, 1)[0])
                self._end_round("red 3 not replaced", None)
                return False
            self._add(seat, self.stock.pop())
        return True

    # --- discarding and ending turns -------------------------------------------------------

    def _discard(self, kind: int) -> None:
        self._require(Phase.PLAY, "discard")
        seat = self.seat
        p = self.profile
        if not 0 <= kind < RED_THREE:
            raise IllegalMoveError("red 3s are never discarded" if kind == RED_THREE
                                   else f"not a card kind: {kind}")
        if self.picked_pile and not p.discard_after_pickup:
            raise IllegalMoveError(
                "after taking the pile you do not discard: knock to end your turn")
        if not self.held[seat][kind]:
            raise IllegalMoveError(f"you hold no {KIND_NAMES[kind]} to discard")
        self._check_locked_discard(seat, kind)
        if self.in_last_packet(seat) and self.held_n[seat] == 1:
            # discarding the last card goes out, where the player may
            try:
                plan = self._check_go_out((), kind)
            except IllegalMoveError as exc:
                if p.min_cards_kept:
                    raise IllegalMoveError(
                        f"you must keep at least {p.min_cards_kept} card"
                        f"{'s' if p.min_cards_kept != 1 else ''} after discarding unless you go "
                        f"out, and you cannot go out yet: {exc}") from None
            else:
                if self._needs_permission(seat):
                    raise IllegalMoveError(
                        "ask your partner first: go out (goout discard ...) to ask \"May I go "
                        "out?\"")
                self._finish_going_out(plan, kind)
                return
        elif self.in_last_packet(seat) and self.held_n[seat] - 1 < p.min_cards_kept:
            raise IllegalMoveError(
                f"you must keep at least {p.min_cards_kept} card"
                f"{'s' if p.min_cards_kept != 1 else ''} after discarding unless you go out")
        face = self._take(seat, kind, 1)[0]
        self.pile.append(face)
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
        raise IllegalMoveError(
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

    def _knock(self) -> None:
        self._require(Phase.PLAY, "knock")
        if not (self.picked_pile and not self.profile.discard_after_pickup):
            raise IllegalMoveError("you end your turn with a discard, not a knock")
        self._end_turn()

    def _end_turn(self) -> None:
        seat = self.seat
        if self.foot_picked[seat]:
            self.foot_turn_done[seat] = True
        self._begin_turn((seat + 1) % self.players)

    def _begin_turn(self, seat: int) -> None:
        self.seat = self.actor = seat
        self.phase = Phase.DRAW
        self._refused = False
        self.picked_pile = False
        self.undo_stack = []
        self.staged = {}
        p = self.profile
        if self.held_n[seat] == 0 and not self.foot_picked[seat] and p.foot_at_once:
            self._pick_up_foot(seat)  # the Hand ended with a discard last turn
        elif p.knee_auto_pickup and self.knees[seat] and self.knee_open(self.side_of[seat]):
            self._pick_up_knee(seat)

    def _undo(self) -> None:
        self._require(Phase.PLAY, "undo")
        if not self.undo_stack:
            raise IllegalMoveError(
                "there is nothing to undo: only melds made since your last draw, pickup or "
                "Foot can be taken back")
        seat, side = self.seat, self.side_of[self.seat]
        hf, hk, hn, melds, opened, played = self.undo_stack.pop()
        # copies: copies of this state share the stack's entries
        self.held_faces[seat] = hf[:]
        self.held[seat] = hk[:]
        self.held_n[seat] = hn
        self.melds[side] = melds[:]
        self.opened[side] = opened
        self.foot_played[seat] = played
        self.staged = {}

    # --- going out -------------------------------------------------------------------------

    def _go_out(self, groups: tuple[MeldGroup, ...], discard: int | None) -> None:
        self._require(Phase.PLAY, "go out")
        plan = self._check_go_out(groups, discard)
        seat = self.seat
        partners = self.partners(seat)
        if self._needs_permission(seat):
            self.pending = mv.GoOut(groups, discard)
            self.pending_answerers = list(partners)
            self.phase = Phase.ANSWER
            self.actor = partners[0]
            self.staged = {}
            return
        self._finish_going_out(plan, discard)

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
        if p.final_discard == "required" and discard is None:
            raise IllegalMoveError("you must go out by discarding your last card")
        if p.final_discard == "forbidden" and discard is not None:
            raise IllegalMoveError("you must go out by melding your last card, not discarding it")
        if discard is not None and not 0 <= discard < RED_THREE:
            raise IllegalMoveError("red 3s are never discarded" if discard == RED_THREE
                                   else "that card cannot be discarded")
        if discard is not None and not self.held[seat][discard]:
            raise IllegalMoveError(f"you hold no {KIND_NAMES[discard]} to discard")

        plan = self._plan(side, seat, groups)
        self._check_opening(side, plan)
        left = [self.held[seat][k] - plan.used[k] for k in range(NUM_KINDS)]
        left_n = sum(left)
        if discard is not None:
            self._check_locked_discard(seat, discard, left)
        if discard is None and left_n:
            raise IllegalMoveError(
                f"going out needs every card played; you would still hold {left_n}")
        if discard is not None and (left_n != 1 or left[discard] != 1):
            raise IllegalMoveError(
                f"going out with a discard leaves exactly that card; you would hold {left_n} "
                "card" + ("s" if left_n != 1 else "") + " after melding")
        books = self._books_after(side, plan)
        missing = self._missing_books(books)
        if missing:
            raise IllegalMoveError(
                f"to go out your side needs {p.book_requirement_text}; it would still lack "
                f"{missing}")
        for partner in self.partners(seat):
            reason = self._partner_not_ready(partner)
            if reason:
                raise IllegalMoveError(reason)
        return plan

    def _books_after(self, side: int, plan: _Plan) -> dict[str, int]:
        """The side's book counts once a plan (with no top card) is laid."""
        comps = [[m.target, m.naturals, m.twos, m.jokers] for m in self.melds[side]]
        new_index: list[int] = []
        for idx, t, n, tw, jk, _ in plan.steps:
            if idx == -1:
                comps.append([t, n, tw, jk])
                new_index.append(len(comps) - 1)
            else:
                c = comps[idx if idx >= 0 else new_index[-2 - idx]]
                c[1] += n
                c[2] += tw
                c[3] += jk
        out = {"clean": 0, "dirty": 0, "wild": 0}
        for t, n, tw, jk in comps:
            kind = TableMeld(t, n, tw, jk, ()).book_kind(self.profile.book_size)
            if kind is not None:
                out[kind] += 1
                if kind == "clean":
                    out[f"clean:{t}"] = out.get(f"clean:{t}", 0) + 1
        return out

    def _missing_books(self, books: dict[str, int]) -> str:
        p = self.profile
        missing: list[str] = []
        special_used = 0
        for rank in p.special_books_to_go_out:
            if books.get(f"clean:{rank}", 0) < 1 + p.special_books_to_go_out[
                    :p.special_books_to_go_out.index(rank)].count(rank):
                missing.append(f"a clean book of {KIND_PLURALS[rank]}")
            else:
                special_used += 1
        for key, need, what in (("clean", p.clean_books_to_go_out, "clean"),
                                ("dirty", p.dirty_books_to_go_out, "dirty"),
                                ("wild", p.wild_books_to_go_out, "all-wild")):
            have = books[key] - (special_used if key == "clean" else 0)
            if have < need:
                short = need - have
                missing.append(f"{short} {what} book{'s' if short > 1 else ''}")
        return ", ".join(missing)

    def _partner_not_ready(self, partner: int) -> str | None:
        cond = self.profile.partner_condition
        name = f"your partner (seat {partner + 1})"
        if cond != "none" and self.knees[partner]:
            return f"{name} must have picked up their Knee before you go out"
        if cond == "picked_up" and not self.foot_picked[partner]:
            return f"{name} must have picked up their Foot before you go out"
        if cond == "played_from" and not self.foot_played[partner]:
            return f"{name} must have played from their Foot before you go out"
        if cond == "finished_turn" and not self.foot_turn_done[partner]:
            return f"{name} must have finished a turn with their Foot before you go out"
        return None

    def _answer(self, yes: bool) -> None:
        if self.phase != Phase.ANSWER:
            raise IllegalMoveError("nobody is asking to go out")
        pending = self.pending
        assert pending is not None
        if not yes:
            self.pending = None
            self.pending_answerers = []
            self.phase = Phase.PLAY
            self.actor = self.seat
            self._refused = True
            return
        self.pending_answerers.pop(0)
        if self.pending_answerers:
            self.actor = self.pending_answerers[0]
            return
        self.pending = None
        self.phase = Phase.PLAY
        self.actor = self.seat
        self.permission[self.side_of[self.seat]] = True
        plan = self._check_go_out(pending.groups, pending.discard)
        self._finish_going_out(plan, pending.discard)

    def _finish_going_out(self, plan: _Plan, discard: int | None) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        self._commit(seat, plan, None)
        if plan.steps:
            self.opened[side] = True
        if discard is not None:
            self.pile.append(self._take(seat, discard, 1)[0])
        self._end_round("went out", seat)

    # --- staging (the integer action layer) ------------------------------------------------

    def staged_groups(self) -> tuple[MeldGroup, ...]:
        """The staged cards as meld groups, in target order (slot 0 before slot 1).

        At a pickup, a second-meld group staged without a first gets an empty first group
        before it: the top card alone completes the side's meld.
        """
        out = []
        pickup = self.phase == Phase.DRAW
        for key in sorted(self.staged):
            if pickup and key % 2 and key - 1 not in self.staged:
                out.append(MeldGroup(key // 2))
            n, tw, jk = self.staged[key]
            out.append(MeldGroup(key // 2, n, tw, jk, new=bool(key % 2)))
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

    def _stage(self, kind: int, target: int, slot: int) -> None:
        if self.phase not in (Phase.DRAW, Phase.PLAY):
            self._require(Phase.PLAY, "stage cards")
        if self.held[self.seat][kind] - self._staged_kind(kind) <= 0:
            raise IllegalMoveError(f"you have no {KIND_NAMES[kind]} left to stage")
        if kind in (BLACK_THREE, RED_THREE):
            raise IllegalMoveError("threes can never be melded")
        if kind <= cards.ACE and target != kind:
            raise IllegalMoveError("a natural card can only join a meld of its own rank")
        if not 0 <= target <= WILD_MELD or slot not in (0, 1):
            raise IllegalMoveError("no such meld to stage for")
        if self.phase == Phase.DRAW:
            blocker = self.pickup_blocker()
            if blocker:
                raise IllegalMoveError(f"cards are staged only to take the pile, and {blocker}")
        if not self._stage_ok(kind, target, slot, self.side_of[self.seat]):
            raise IllegalMoveError(
                f"a {KIND_NAMES[kind]} staged for {_target_plural(target)}"
                + (" (a second meld)" if slot else "") + " could never make a legal meld")
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
        if self.phase != Phase.DRAW or not self.pile:
            return -1
        top_kind = FACE_KIND[self.pile[-1]]
        return WILD_MELD if cards.is_wild(top_kind) else top_kind

    def _existing_sizes(self, side: int) -> list[int]:
        """The size of each target's meld that still takes cards (0 if none)."""
        p = self.profile
        book_size = p.book_size
        cap_rank = p.book_max or _INF
        existing = [0] * mv.NUM_TARGETS
        seen = [False] * mv.NUM_TARGETS
        for m in reversed(self.melds[side]):
            t = m.target
            if not seen[t]:
                seen[t] = True
                if m.size < (book_size if t == WILD_MELD else cap_rank):
                    existing[t] = m.size
        return existing

    def _target_flags(self, t: int, existing: int, top_target: int,
                      ) -> tuple[bool, bool, bool, bool]:
        """May a natural / a wild be staged for target ``t``'s slot 0, then its slot 1.

        Slot 0 fills the side's unfinished meld of the target (or a new one) up to its
        capacity; a wild needs that meld on the table or naturals staged beside it. Slot 1 is
        a new meld: once slot 0 (with the pile's top card at a pickup) fills the first, or
        beside a book that still grows where a second meld of the rank is allowed.
        """
        p = self.profile
        wild_target = t == WILD_MELD
        if wild_target and not p.all_wild_melds:
            return (False, False, False, False)
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

    def legal_actions(self) -> list[int]:
        """The legal integer actions for the seat to act, in increasing order."""
        phase = self.phase
        if phase == Phase.GAME_OVER:
            return []
        if phase == Phase.ANSWER:
            return [mv.ANSWER_YES, mv.ANSWER_NO]
        seat, side = self.seat, self.side_of[self.seat]
        p = self.profile
        held = self.held[seat]
        out: list[int] = []
        staging = self.staged
        if self.knees[seat] and self.knee_open(side):
            out.append(mv.KNEE)
        if phase == Phase.DRAW:
            out.append(mv.DRAW)
            if self.pickup_blocker() is None:
                if (staging or not p.pickup_melds_top) and self._legal(
                        mv.Pickup(self.staged_groups())):
                    out.append(mv.PICKUP)
                if staging:
                    out.append(mv.CLEAR)
                self._stage_actions(out, seat, side, held)
            return sorted(out)
        # PLAY
        if staging:
            groups = self.staged_groups()
            if self._legal(mv.Meld(groups)):
                out.append(mv.CONFIRM)
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
            if left == 0 and p.final_discard != "required" and self._legal(mv.GoOut(groups)):
                out.append(mv.GO_OUT)
            elif left == 1 and p.final_discard != "forbidden" and not must_knock:
                for k in range(RED_THREE):
                    if held[k] - self._staged_kind(k) == 1:
                        if self._legal(mv.GoOut(groups, k)):
                            out.append(mv.GO_OUT_DISCARD + k)
                        break
        if not must_knock:
            last = self.in_last_packet(seat)
            n = self.held_n[seat]
            for k in range(RED_THREE):
                if not held[k] or self._discard_locked(seat, k):
                    continue
                if last and n == 1:
                    if self._legal(mv.Discard(k)):  # the last card: going out, or holding none
                        out.append(mv.DISCARD + k)
                elif not (last and n - 1 < p.min_cards_kept):
                    out.append(mv.DISCARD + k)
        self._stage_actions(out, seat, side, held)
        return sorted(out)

    def _stage_actions(self, out: list[int], seat: int, side: int, held: list[int]) -> None:
        existing = self._existing_sizes(side)
        top_target = self._top_target()
        flags = self._target_flags
        staged = [0] * NUM_KINDS
        for key, (n, tw, jk) in self.staged.items():
            staged[key // 2] += n
            staged[TWO] += tw
            staged[JOKER] += jk
        wild_flags: list[tuple[bool, bool, bool, bool]] = []
        if held[TWO] > staged[TWO] or held[JOKER] > staged[JOKER]:
            wild_flags = [flags(t, existing[t], top_target) for t in range(mv.NUM_TARGETS)]
        for k in cards.RANKS:
            if held[k] > staged[k]:
                nat0, _, nat1, _ = wild_flags[k] if wild_flags else flags(
                    k, existing[k], top_target)
                if nat0:
                    out.append(mv.STAGE_NATURAL + k * 2)
                if nat1:
                    out.append(mv.STAGE_NATURAL + k * 2 + 1)
        if wild_flags:
            for w_index, w in enumerate((TWO, JOKER)):
                if held[w] > staged[w]:
                    base = mv.STAGE_WILD + w_index * mv.NUM_TARGETS * 2
                    for t in range(mv.NUM_TARGETS):
                        _, wild0, _, wild1 = wild_flags[t]
                        if wild0:
                            out.append(base + t * 2)
                        if wild1:
                            out.append(base + t * 2 + 1)

    def _legal(self, move: mv.Move) -> bool:
        """Whether a committing move is legal, without changing the state."""
        try:
            match move:
                case mv.Pickup(groups):
                    self._check_pickup(groups)
                case mv.Meld(groups):
                    if not groups:
                        return False
                    seat, side = self.seat, self.side_of[self.seat]
                    plan = self._plan(side, seat, groups)
                    self._check_opening(side, plan)
                    self._check_remaining(seat, self.held_n[seat] - sum(plan.used), plan)
                case mv.GoOut(groups, discard):
                    self._check_go_out(groups, discard)
                case _:
                    return self.check(move) is None
        except IllegalMoveError:
            return False
        return True

    def action_mask(self) -> list[int]:
        """A 0/1 list over every action id: 1 where the action is legal now."""
        mask = [0] * mv.NUM_ACTIONS
        for a in self.legal_actions():
            mask[a] = 1
        return mask

    # --- round end and scoring -----------------------------------------------------------

    def _end_round(self, reason: str, went_out: int | None) -> None:
        scores = tuple(self.score_side(side, went_out) for side in range(self.sides))
        for s in scores:
            self.totals[s.side] += s.total
        self.results.append(RoundResult(self.round_number, reason, went_out, scores,
                                        tuple(self.totals)))
        self.pending = None
        self.pending_answerers = []
        self.staged = {}
        self.undo_stack = []
        target = self.profile.target_score
        reached = target is not None and max(self.totals) >= target
        if self.round_number < self.profile.rounds and not reached:
            self._start_round(self.round_number + 1)
        else:
            self.phase = Phase.GAME_OVER

    def score_side(self, side: int, went_out: int | None = None,
                   adjustments: Sequence[tuple[str, int]] = ()) -> SideScore:
        """A side's score for the round as it stands, with every line of its breakdown.

        ``adjustments`` are (label, points) lines a score keeper adds for things that only
        happen at a real table (the tabletop parameters of a profile); the engine itself
        never has any.
        """
        p = self.profile
        values = p.kind_values
        lines: list[ScoreLine] = []
        counted = list(self.melds[side])
        unfinished: list[TableMeld] = []
        if p.unfinished_second_meld_negative:
            seen: set[int] = set()
            for m in self.melds[side]:
                if m.target in seen and m.target != WILD_MELD and m.size < p.book_size:
                    unfinished.append(m)
                    counted.remove(m)
                seen.add(m.target)
        melded = sum(values[FACE_KIND[f]] for m in counted for f in m.faces)
        n_melded = sum(m.size for m in counted)
        lines.append(ScoreLine("melded", "Cards on the table", n_melded, melded))
        if p.unfinished_second_meld_negative:
            lines.append(ScoreLine(
                "unfinished_second_melds", "Unfinished second melds",
                sum(m.size for m in unfinished),
                -sum(values[FACE_KIND[f]] for m in unfinished for f in m.faces)))
        books = self.book_counts(side)
        special = dict(p.special_book_bonus)
        special_count = 0
        special_points = 0
        for m in self.melds[side]:
            if m.book_kind(p.book_size) == "clean" and m.target in special:
                special_count += 1
                special_points += special[m.target]
        clean = books["clean"] - special_count
        lines.append(ScoreLine("clean_books", "Clean books", clean, clean * p.clean_book_bonus))
        if special:
            lines.append(ScoreLine("special_books", "Special clean books", special_count,
                                   special_points))
        lines.append(ScoreLine("dirty_books", "Dirty books", books["dirty"],
                               books["dirty"] * p.dirty_book_bonus))
        if p.all_wild_melds:
            lines.append(ScoreLine("wild_books", "All-wild books", books["wild"],
                                   books["wild"] * p.wild_book_bonus))
        reds = len(self.red_threes[side])
        per_red = (p.red_three_bulk_bonus if p.red_three_bulk_count
                   and reds >= p.red_three_bulk_count else p.red_three_bonus)
        lines.append(ScoreLine("red_threes", "Red 3s laid", reds, reds * per_red))
        out = went_out is not None and self.side_of[went_out] == side
        lines.append(ScoreLine("going_out", "Going out", int(out),
                               p.going_out_bonus if out else 0))
        left_points = 0
        left_count = 0
        caught_red = 0
        caught_black = 0
        for seat in self.layout.seats_of(side):
            for faces in (self.hand(seat), self.feet[seat], self.knees[seat]):
                for f in faces:
                    k = FACE_KIND[f]
                    if k == RED_THREE:
                        caught_red += 1
                    elif k == BLACK_THREE:
                        caught_black += 1
                    else:
                        left_count += 1
                        left_points += values[k]
        lines.append(ScoreLine("cards_left", "Cards left in hands and feet", left_count,
                               -left_points))
        lines.append(ScoreLine("black_threes_caught", "Black 3s left in hands and feet",
                               caught_black, -caught_black * p.black_three_penalty))
        lines.append(ScoreLine("red_threes_caught", "Red 3s left in hands and feet",
                               caught_red, -caught_red * p.red_three_penalty))
        for label, points in adjustments:
            lines.append(ScoreLine("adjustment", label, 1, points))
        return SideScore(side, tuple(lines), sum(line.points for line in lines))

    # --- views ---------------------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """Everything ``seat`` may know, and nothing more."""
        side = self.side_of[seat]
        acting = self.actor == seat and self.phase != Phase.GAME_OVER
        return PlayerView(
            profile=self.profile,
            seat=seat,
            side=side,
            players=self.players,
            sides=self.sides,
            round_number=self.round_number,
            rounds=self.profile.rounds,
            phase=self.phase,
            turn=self.seat,
            to_act=self.actor,
            opening_minimum=self.opening_minimum_of(side),
            hand=tuple(self.hand(seat)),
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
            asking=self.seat if self.phase == Phase.ANSWER and acting else None,
            staged=self.staged_groups() if seat == self.seat else (),
            legal_actions=tuple(self.legal_actions()) if acting else (),
        )


def _target_singular(target: int) -> str:
    return "all-wild meld" if target == WILD_MELD else f"meld of {KIND_PLURALS[target]}"


def _target_plural(target: int) -> str:
    return "all-wild melds" if target == WILD_MELD else KIND_PLURALS[target]


def _count_text(n: int, kind: int) -> str:
    """``"1 king"``, ``"3 kings"``, ``"2 2s"``: a count of a card kind."""
    return f"{n} {KIND_NAMES[kind] if n == 1 else KIND_PLURALS[kind]}"


def _group_text(t: int, n: int, tw: int, jk: int) -> str:
    return mv.format_group(MeldGroup(t, n, tw, jk)) or "nothing"


def _check_deal(profile: Profile, layout: Layout, deal: Deal, round_number: int = 1) -> None:
    """An explicit deal must use exactly the profile's shoe and packet sizes."""
    players = layout.players
    if not (len(deal.hands) == len(deal.feet) == len(deal.knees) == players):
        raise ValueError(f"the deal has {len(deal.hands)} hands and {len(deal.feet)} feet; "
                         f"the game has {players} players")
    for seat in range(players):
        hand_size = profile.hand_size_in(round_number)
        if len(deal.hands[seat]) != hand_size:
            raise ValueError(f"seat {seat + 1}'s hand has {len(deal.hands[seat])} cards; the "
                             f"profile deals {hand_size}")
        if len(deal.knees[seat]) != profile.knee_size:
            raise ValueError(f"seat {seat + 1}'s knee has {len(deal.knees[seat])} cards; the "
                             f"profile deals {profile.knee_size}")
        if len(deal.feet[seat]) != profile.foot_size:
            raise ValueError(f"seat {seat + 1}'s foot has {len(deal.feet[seat])} cards; the "
                             f"profile deals {profile.foot_size}")
    if len(deal.discard) != profile.starter_cards:
        raise ValueError(f"the deal turns {len(deal.discard)} starter cards; the profile "
                         f"turns {profile.starter_cards}")
    if not 0 <= deal.first_player < players or not 0 <= deal.dealer < players:
        raise ValueError("the deal's dealer and first player must be seats of the game")
    shoe = cards.face_counts(cards.build_shoe(profile.decks(players), profile.jokers_per_deck))
    got = cards.face_counts(deal.all_faces())
    if got != shoe:
        extra = [cards.face_name(f) for f in range(NUM_FACES) if got[f] > shoe[f]]
        lacking = [cards.face_name(f) for f in range(NUM_FACES) if got[f] < shoe[f]]
        raise ValueError(
            "the deal does not use exactly the profile's shoe"
            + (f"; too many: {' '.join(extra[:8])}" if extra else "")
            + (f"; missing: {' '.join(lacking[:8])}" if lacking else ""))
