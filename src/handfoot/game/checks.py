"""Checking moves: whether a move is legal now and, if not, why in a player's words; what
its melds lay (a :class:`_Plan`); and what a checked move will end (the round, the game).

Every check reads the state and changes nothing. A reason is given as a function that words
it (:class:`~handfoot.game.values.IllegalMoveError` words it once, when shown), so that a
legality test that throws the reason away never builds the sentence.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final, NamedTuple, NoReturn

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import (
    BLACK_THREE,
    FACE_KIND,
    JOKER,
    KIND_NAMES,
    KIND_PLURALS,
    NUM_KINDS,
    RED_THREE,
    TWO,
)
from handfoot.game.moves import WILD_MELD, MeldGroup
from handfoot.game.rules import FinalDiscard, PickupExistingMeld, PickupOpeningCounts, Seat
from handfoot.game.state import _INF, State
from handfoot.game.table import (
    Books,
    count_books,
    missing_books,
    opens_with_clean_book,
)
from handfoot.game.values import (
    _ANSWER,
    _DRAW,
    _GAME_OVER,
    _PLAY,
    TAKE_BACKS_PER_TURN,
    IllegalMoveError,
    Phase,
)
from handfoot.game.wording import book_requirement_text, wild_rule_text

__all__ = ["Checks"]


# Enum members that hot code reads, as module constants: in Python 3.11 reading a member
# through its class (``Phase.DRAW``) goes through ``EnumType.__getattr__``'s slow path and
# costs about ten times a global lookup (measured: it made the engine benchmark slower).
_FINAL_DISCARD_REQUIRED: Final = FinalDiscard.REQUIRED
_FINAL_DISCARD_FORBIDDEN: Final = FinalDiscard.FORBIDDEN
_EXISTING_FORBIDDEN: Final = PickupExistingMeld.FORBIDDEN
_EXISTING_FORBIDDEN_IF_COMPLETES: Final = PickupExistingMeld.FORBIDDEN_IF_COMPLETES
_EXISTING_COMPLETE_AND_START: Final = PickupExistingMeld.COMPLETE_AND_START
_ALL_PICKED_COUNT: Final = PickupOpeningCounts.ALL_PICKED


_Checked = tuple[mv.PlayerMove | None, "_Plan | None", list[int] | None]
"""What :meth:`GameState._verify` found: the player move (None for staging), the plan of
its melds (a go-out's for a discard that goes out), and a pickup's cards below the top."""


_MeldState = tuple[int | None, int | None, int, int, int]
"""While planning: the meld a target's next group goes to (a table meld's index, or a
meld of the plan's), with its naturals, twos and jokers."""


_NO_TARGET_FLAGS: Final[list[bool]] = [False] * mv.NUM_TARGETS
"""No target, a flag per target (a template, copied, never changed)."""
_NO_MELD: Final[_MeldState] = (None, None, 0, 0, 0)
"""No meld yet: the next group starts one. Compared with ``==``, not ``is`` (compiled by
mypyc, a constant tuple need not be one object)."""


_NAT0: Final = 1
"""A flag of :meth:`Checks._target_flags`: a natural may be staged for the slot 0 group."""
_WILD0: Final = 2
"""A wild may be staged for the slot 0 group."""
_NAT1: Final = 4
"""A natural may be staged for the slot 1 group (a second meld)."""
_WILD1: Final = 8
"""A wild may be staged for the slot 1 group."""


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


class Checks(State):
    """A game's move checks (see the module docstring); :class:`State` holds its fields."""

    __slots__ = ()

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
            self._check_take_backs()
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

    def player_move(self, move: mv.Move) -> mv.PlayerMove:
        """The player move a move stands for now: a :class:`~handfoot.game.moves.Confirm` is
        the :class:`~handfoot.game.moves.Meld` of the staged cards (what the history and game
        records hold); a player move is itself. Staging actions are not player moves."""
        if isinstance(move, mv.Confirm):
            return mv.Meld(self.staged_groups())
        if isinstance(move, mv.Stage | mv.ClearStaged):
            raise IllegalMoveError(lambda: f"staging is not a player move: {move!r}")
        return move

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

    def meld_must_leave(self, seat: Seat) -> int:
        """The fewest cards a meld may leave in ``seat``'s hand now, unless it goes out: none
        while emptying the hand brings another packet (the Foot, or the Knee once the side
        has a book), else one to discard and ``min_cards_kept`` to hold (none where a player
        may hold no cards)."""
        if not self.foot_picked[seat]:
            return 0  # emptying the Hand brings the Foot
        if self.knees[seat] and self.knee_open(self.side_of[seat]):
            return 0  # emptying the hand brings the Knee
        keep = self.profile.min_cards_kept
        return keep + 1 if keep else 0

    def _check_remaining(self, seat: int, remaining: int, plan: _Plan | None = None) -> None:
        """A player may not meld themselves into a corner they cannot leave."""
        if (self.foot_picked[seat] and self.knees[seat] and plan is not None
                and plan.books_made > 0):
            return  # the book this meld makes opens the Knee, which an empty hand brings
        least = self.meld_must_leave(seat)
        if remaining >= least:
            return
        if remaining == 0:
            raise IllegalMoveError(
                "melding every card would leave nothing to discard; to finish the round, go "
                "out instead")
        keep = least - 1
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
        # which targets the side has a meld of, on the table or made by this move: worked
        # out at the first new meld that asks (a flag per target, not a set: the compiled
        # build indexes a list natively)
        has_target: list[bool] | None = None
        book_size = p.book_size
        cap = p.book_max if p.book_max is not None else _INF
        for g in groups:
            t = g.target
            gn, gt, gj = g.naturals, g.twos, g.jokers  # (read once)
            if t in (BLACK_THREE, RED_THREE):
                raise IllegalMoveError("threes can never be melded")
            if not (0 <= t <= WILD_MELD) or g.naturals < 0 or g.twos < 0 or g.jokers < 0:
                raise IllegalMoveError(lambda g=g: f"not a meld group: {g!r}")
            if t == WILD_MELD:
                if gn:
                    raise IllegalMoveError("an all-wild meld holds only wild cards")
                if not p.all_wild_melds:
                    raise IllegalMoveError(
                        "melds made only of wild cards are not allowed: a meld needs naturals")
            n, tw, jk = gn, gt, gj
            # (each kind in turn, no tuple of pairs built per group, no call where the
            # hand has the cards)
            used = plan.used
            if n:
                if avail[t] < n:
                    self._too_few(avail, plan, seat, t, n, extra is not None)
                avail[t] = avail[t] - n
                used[t] = used[t] + n
            if tw:
                if avail[TWO] < tw:
                    self._too_few(avail, plan, seat, TWO, tw, extra is not None)
                avail[TWO] = avail[TWO] - tw
                used[TWO] = used[TWO] + tw
            if jk:
                if avail[JOKER] < jk:
                    self._too_few(avail, plan, seat, JOKER, jk, extra is not None)
                avail[JOKER] = avail[JOKER] - jk
                used[JOKER] = used[JOKER] + jk
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
            value = values[t] * gn + values[TWO] * gt + values[JOKER] * gj
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
            # (_NO_MELD is the only state with neither meld: no tuple compared)
            no_meld = table_meld is None and plan_meld is None
            if g.new and not no_meld:
                current_size = old_n + old_t + old_j
                if t != WILD_MELD and p.second_meld_of_rank and current_size >= book_size:
                    # a second meld beside a book that still grows, on the table or
                    # made by this move (several melds may make up an opening, 001)
                    no_meld = True
                elif t != WILD_MELD and current_size >= book_size:
                    raise IllegalMoveError(lambda t=t:
                        f"your side has a book of {KIND_PLURALS[t]}, which takes more natural "
                        f"{KIND_PLURALS[t]}; a second meld of a rank is not allowed")
                else:
                    raise IllegalMoveError(lambda t=t, current_size=current_size:
                        f"your side already has an unfinished {_target_singular(t)} "
                        f"({current_size} cards): a side has one unfinished meld of a rank, "
                        "so add to it")
            if no_meld:
                # a new meld
                if t != WILD_MELD and has_target is None:
                    has_target = _NO_TARGET_FLAGS[:]
                    for m in melds:
                        has_target[m.target] = True
                    for step in plan.steps:  # this move's groups before this one
                        has_target[step.target] = True
                if t != WILD_MELD and has_target is not None and has_target[t]:
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
            starts = no_meld
            if starts:
                table_meld = None
                plan_meld = len(plan.new_melds)
                plan.new_melds.append(_NewMeld(t, new_n, new_t, new_j, with_top))
            elif plan_meld is not None:
                started = plan.new_melds[plan_meld]
                started.naturals, started.twos, started.jokers = new_n, new_t, new_j
                started.with_top |= with_top
            plan.steps.append(_new_step((t, gn, gt, gj, with_top, table_meld, plan_meld,
                                         starts)))
            if has_target is not None:
                has_target[t] = True
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

    def _too_few(self, avail: list[int], plan: _Plan, seat: int, kind: int, count: int,
                 extra: bool) -> NoReturn:
        """Raise: :meth:`_plan` needs ``count`` cards of ``kind`` for a group, and ``avail``
        (what is left of the hand, with the pile's cards if ``extra``) has fewer."""
        have = self.held[seat][kind]
        need = plan.used[kind] + count
        if extra:
            raise IllegalMoveError(lambda:
                f"there are only {avail[kind] + plan.used[kind]} "
                f"{KIND_PLURALS[kind]} in your hand and the pile; these melds "
                f"need {need}")
        raise IllegalMoveError(lambda:
            f"you hold no {KIND_PLURALS[kind]}" if not have else
            f"you hold only {_count_text(have, kind)}; these melds need {need}")

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

    def _check_locked_discard(self, seat: int, kind: int,
                              held: Sequence[int] | None = None) -> None:
        if not self._discard_locked(seat, kind, held):
            return
        raise IllegalMoveError(lambda:
            f"no {KIND_NAMES[kind]} may be discarded until some player has a clean book of "
            f"{KIND_PLURALS[kind]}")

    def _verify_knock(self) -> None:
        self._require(_PLAY, "knock")
        if not (self.picked_pile and not self.profile.discard_after_pickup):
            raise IllegalMoveError("you end your turn with a discard, not a knock")

    def _verify_undo(self) -> None:
        self._require(_PLAY, "undo")
        if not self.undo_stack:
            raise IllegalMoveError(
                "there is nothing to undo: only melds made since your last draw, pickup or "
                "Foot can be taken back")
        self._check_take_backs()

    def _check_take_backs(self) -> None:
        if not self.may_take_back():
            raise IllegalMoveError(_TAKE_BACKS_TEXT)

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

    def _stage_ok(self, kind: int, target: int, slot: int, side: int) -> bool:
        """Whether staging a card of ``kind`` for ``target``'s group ``slot`` could lead to a
        legal meld (the pruning :meth:`legal_actions` lists)."""
        idx = self._current_meld(side, target)
        existing = self.melds[side][idx].size if idx >= 0 else 0
        return self._stage_fits(kind, target, slot, existing, self._top_target())

    def _stage_fits(self, kind: int, target: int, slot: int, existing: int,
                    top_target: int) -> bool:
        """:meth:`_stage_ok`, given the size of the side's meld of ``target`` that takes
        cards (0 if none; as :meth:`_existing_sizes` gives it) and :meth:`_top_target`
        (neither changes while cards are staged)."""
        if kind in (BLACK_THREE, RED_THREE):
            return False
        flags = self._target_flags(target, existing, top_target)
        if kind <= cards.ACE:
            return target == kind and bool(flags & (_NAT0 << slot * 2))
        return bool(flags & (_WILD0 << slot * 2))

    def _target_flags(self, t: int, existing: int, top_target: int,
                      staged: dict[int, list[int]] | None = None) -> int:
        """May a natural / a wild be staged for target ``t``'s slot 0, then its slot 1: the
        bits :data:`_NAT0`, :data:`_WILD0`, :data:`_NAT1`, :data:`_WILD1` (an int, not a
        tuple of four bools: nothing to allocate, a mask to test).

        Slot 0 fills the side's unfinished meld of the target (or a new one) up to its
        capacity; a wild needs that meld on the table or naturals staged beside it. Slot 1 is
        a new meld: once slot 0 (with the pile's top card at a pickup) fills the first, or
        beside a book that still grows where a second meld of the rank is allowed.
        ``staged`` is the state's staged cards unless given.
        """
        p = self.profile
        wild_target = t == WILD_MELD
        if wild_target and not p.all_wild_melds:
            return 0
        if staged is None:
            staged = self.staged
        # (the groups' sums and naturals as plain ints: no generic `sum` or truth test of a
        # list in the compiled build)
        s0 = n0 = s1 = n1 = 0
        some = False  # a group staged for the target (even an empty one)
        if staged:
            g0 = staged.get(t * 2)
            if g0 is not None:
                some = True
                n0 = g0[0]
                s0 = n0 + g0[1] + g0[2]
            g1 = staged.get(t * 2 + 1)
            if g1 is not None:
                some = True
                n1 = g1[0]
                s1 = n1 + g1[1] + g1[2]
        if not (existing or some) and t != top_target:
            # nothing of this target anywhere: only a new meld can start
            return _NAT0 | _WILD0 if wild_target else _NAT0
        book_size = p.book_size
        cap_rank = p.book_max or _INF
        cap = book_size if wild_target else cap_rank
        wild_ok = wild_target or t not in p.wild_free_ranks
        ok0 = existing + s0 < cap
        wild0 = ok0 and wild_ok and (wild_target or existing > 0 or n0 > 0)
        if t == top_target:
            s0 += 1
        # beside a book that still grows: on the table, or made by the cards staged now
        beside_book = not wild_target and p.second_meld_of_rank and existing + s0 >= book_size
        fills = (wild_target or p.new_meld_after_book) and existing + s0 >= cap
        ok1 = (fills or beside_book) and s1 < cap_rank
        wild1 = ok1 and wild_ok and (wild_target or n1 > 0)
        return ((_NAT0 if ok0 else 0) | (_WILD0 if wild0 else 0) | (_NAT1 if ok1 else 0)
                | (_WILD1 if wild1 else 0))

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
            left = self._reds_end(reds, len(self.stock))  # laid and replaced at once
            if left < 0:
                return True
            if self.held_n[seat] == 0 and not self.foot_picked[seat] and held:
                return self._reds_end(self._reds_in(self.feet[seat]), left) < 0  # the Foot
            return self._after_meld_ends(seat, plan, held, 0, kept=False, stock=left)
        return False  # Undo

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
                         kept: bool, stock: int | None = None) -> bool:
        """:meth:`_after_cards_left_hand` once a plan is laid and the seat holds ``held``
        cards, ``reds`` of them red 3s; ``kept``: the melds can be taken back until the
        turn ends (a meld; a pickup's cannot), so ending it keeps them; ``stock``: the
        stock's size by then (else as the state has it)."""
        p = self.profile
        side = self.side_of[seat]
        knee_open = self.knee_open(side) or plan.books_made > 0
        if stock is None:
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


_TAKE_BACKS_TEXT: Final = (f"you have taken back {TAKE_BACKS_PER_TURN} times this turn, the "
                           "most a turn allows: play on (meld, or end your turn)")


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
