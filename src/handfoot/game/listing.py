"""What a seat may do and see: the legal integer actions (the staging of cards one at a
time included, pruned to what could make a legal meld), where each kind of card in a hand can
go, and the views of a seat and of a spectator.

The listing is the hot loop of every bot and simulation: its code is written for the
compiled build (locals typed exactly, no generic operations on items, flags worked out once
per move and kept; docs/performance.md, "Compiled build"), and each such place says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import (
    ACE,
    BLACK_THREE,
    FACE_KIND,
    FOUR,
    JOKER,
    NUM_KINDS,
    RED_THREE,
    TWO,
)
from handfoot.game.checks import (
    _FINAL_DISCARD_FORBIDDEN,
    _FINAL_DISCARD_REQUIRED,
    _NAT0,
    _NAT1,
    _WILD0,
    _WILD1,
    Checks,
)
from handfoot.game.moves import WILD_MELD, ActionId, MeldGroup
from handfoot.game.rules import Seat
from handfoot.game.values import (
    _ANSWER,
    _DRAW,
    _GAME_OVER,
    IllegalMoveError,
    MeldOptions,
    PlayerView,
    PublicView,
    TableMeld,
)

__all__ = ["Listing"]

_NO_KINDS: Final[list[int]] = [0] * NUM_KINDS
"""No card staged, by kind (read only)."""
_NOTHING_STAGED: Final = _NAT0
""":meth:`Checks._target_flags` of a rank with nothing on the table or staged, that the
pile's top card does not join: a natural may start a meld, nothing else."""
_UNSTAGED: Final[list[int]] = [_NOTHING_STAGED] * mv.NUM_TARGETS
"""Every target's :data:`_NOTHING_STAGED` (a template, copied, never changed)."""
_NONE_STAGED: Final[dict[int, list[int]]] = {}
"""No staged cards (never changed): flags as if nothing were staged."""
_WILDS: Final = _WILD0 | _WILD1
"""The flags that let a wild be staged for a target."""
_KEPT_SIZES: Final = 64
"""The sizes of a meld whose staging flags :meth:`Listing._flags_alone` keeps (0 to 63)."""
_NO_KEPT_FLAGS: Final[list[int]] = [-1] * (mv.NUM_TARGETS * _KEPT_SIZES)
"""No flags kept yet (a template, copied, never changed)."""


class Listing(Checks):
    """A game's listings and views (see the module docstring)."""

    __slots__ = ()

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
        # (every action is appended in increasing order, so the listing needs no sort; the
        # Knee, the highest action, comes last)
        knee = bool(self.knees[seat]) and self.knee_open(side)
        if phase == _DRAW:
            out.append(mv.DRAW)
            if self.pickup_blocker() is None:
                found = self._pickup_listed(side, groups)
                if found is not None:
                    out.append(mv.PICKUP)
                    checked[mv.PICKUP] = found
                if staging and self.may_take_back():
                    out.append(mv.CLEAR)
                self._stage_actions(out, seat, side, held, kept)
            if knee:
                out.append(mv.KNEE)
            return self._keep_listing(out, checked)
        # PLAY
        if staging:
            found = self._meld_listed(side, groups)
            if found is not None:
                groups = found[0]
                checked[mv.CONFIRM] = found
                out.append(mv.CONFIRM)
            if self.may_take_back():
                out.append(mv.CLEAR)
        else:
            groups = ()
        # (the staged groups are built below only where a go-out is checked)
        if self.undo_stack and self.may_take_back():
            out.append(mv.UNDO)
        must_knock = self.picked_pile and not p.discard_after_pickup
        if must_knock:
            out.append(mv.KNOCK)
        last = self.in_last_packet(seat)
        if last and not self._refused:
            left = self.held_n[seat] - self._staged_total()
            if groups is None:
                groups = self.staged_groups()
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
                discard = mv.DISCARD
                if p.discard_locked_until_clean_book:
                    for k in range(RED_THREE):
                        if held[k] and not self._discard_locked(seat, k):
                            out.append(discard + k)
                else:  # (no rank locked: the same loop without asking)
                    for k in range(RED_THREE):
                        if held[k]:
                            out.append(discard + k)
        self._stage_actions(out, seat, side, held, kept)
        if knee:
            out.append(mv.KNEE)
        return self._keep_listing(out, checked)

    def _pickup_listed(self, side: int, groups: tuple[MeldGroup, ...] | None,
                       ) -> tuple[tuple[MeldGroup, ...], Any, list[int] | None] | None:
        """At the draw, with nothing blocking a pickup (:meth:`pickup_blocker`): whether
        the listing holds the pickup of the staged cards, as ``(groups, plan, rest)`` for
        :meth:`apply_listed` (None if not). ``groups`` are :meth:`staged_groups` if the
        caller has them."""
        # the checks is_legal makes, called directly (the listing is hot): the phase is
        # known, and no move object is built. Staged cards must include a group the top
        # card joins (else the pickup's plan fails: it must meld the top card, or, where
        # it joins the hand, no group may be staged at all).
        staging = self.staged
        p = self.profile
        top_target = -1
        if staging:
            top_kind = FACE_KIND[self.pile[-1]]
            top_target = WILD_MELD if top_kind in (TWO, JOKER) else top_kind
            may_pick = p.pickup_melds_top and (top_target * 2 in staging
                                               or top_target * 2 + 1 in staging)
        else:
            may_pick = not p.pickup_melds_top
        # a staged group too short to start a meld, even with the top card, fails the
        # pickup's plan: asked first, of the staged cards as they are (a raised reason,
        # or the groups built for nothing, cost more)
        if not may_pick or (staging and self._staged_short(side, top_target)):
            return None
        if groups is None:
            groups = self.staged_groups()
        try:
            plan, rest = self._verify_pickup(groups)
        except IllegalMoveError:
            return None
        return groups, plan, rest

    def _meld_listed(self, side: int, groups: tuple[MeldGroup, ...] | None,
                     ) -> tuple[tuple[MeldGroup, ...], Any, list[int] | None] | None:
        """In the play, with cards staged: whether the listing holds the meld of them
        (:data:`~handfoot.game.moves.CONFIRM`), as ``(groups, plan, None)`` for
        :meth:`apply_listed` (None if not). ``groups`` are :meth:`staged_groups` if the
        caller has them."""
        if self._staged_short(side):
            return None
        if groups is None:
            groups = self.staged_groups()
        try:
            return groups, self._verify_meld(groups), None
        except IllegalMoveError:
            return None

    def _staged_short(self, side: int, top_target: int = -1) -> bool:
        """Whether one of the staged groups (:meth:`staged_groups`) starts a meld (the
        side has none of its target that takes cards) with fewer cards than a meld needs,
        which :meth:`_plan` refuses: asked first, as staging a new meld card by card
        passes through it, and of the staged cards as they are, without building the
        groups (most listings between two staging steps need none).

        Only a slot 0 group starts a meld (slot 1 is ``new``); at a pickup, a slot 1
        staged without a slot 0 has an empty slot 0 before it. ``top_target`` is, at a
        pickup, the target the pile's top card joins: its slot 0 group gets it
        (:meth:`_plan`)."""
        least = self.profile.min_meld_size
        staged = self.staged
        pickup = self.phase == _DRAW
        for key, group in staged.items():
            size: int
            if key & 1:
                if not pickup or key - 1 in staged:
                    continue
                size = 0  # the empty slot 0 group the pickup puts before it
            else:
                size = group[0] + group[1] + group[2]
            t = key >> 1
            if t == top_target:
                size += 1
            if size < least and self._current_meld(side, t) < 0:
                return True
        return False

    def _keep_listing(self, out: list[int],
                      checked: dict[int, tuple[tuple[MeldGroup, ...], Any, list[int] | None]],
                      ) -> list[int]:
        """Keep a listing (made in increasing order) for :meth:`apply_listed`."""
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
        # the naturals staged by rank (a target's rank is its kind; the all-wild meld
        # stages none), and the twos and jokers as plain ints
        staged_k: list[int] = _NO_KINDS
        staged_twos = staged_jokers = 0
        if staged:
            staged_k = _NO_KINDS[:]  # (a copy of a template: native; `[0] * n` is not)
            for key, group in staged.items():
                k = key >> 1  # (no `+=` on an item: the compiled build does it generically)
                staged_k[k] = staged_k[k] + group[0]
                staged_twos += group[1]
                staged_jokers += group[2]
        existing: list[int]
        top_target: int
        unstaged: list[int] | None
        wilds: int  # a bit per target whose flags let a wild be staged (either slot)
        if kept:
            existing, top_target, unstaged, wilds = kept
        else:
            existing = self._existing_sizes(side)
            top_target = self._top_target()
            unstaged = None
            wilds = 0
        # (self._target_flags called as a method, never through a bound-method object: the
        # compiled build then calls it natively)
        stage_natural: int = mv.STAGE_NATURAL
        more_twos = held[TWO] > staged_twos
        more_jokers = held[JOKER] > staged_jokers
        if more_twos or more_jokers:
            if unstaged is None:
                # every target's flags with nothing staged for it (only a target on the
                # table, the top card's and the all-wild meld may differ from a new meld's)
                unstaged = _UNSTAGED[:]
                for t in range(WILD_MELD):
                    if existing[t] or t == top_target:
                        f = self._flags_alone(t, existing[t], top_target)
                        unstaged[t] = f
                        if f & _WILDS:
                            wilds |= 1 << t
                f = self._flags_alone(WILD_MELD, existing[WILD_MELD], top_target)
                unstaged[WILD_MELD] = f
                if f & _WILDS:
                    wilds |= 1 << WILD_MELD
                if kept is not None:
                    kept[:] = (existing, top_target, unstaged, wilds)
            wild_flags = unstaged
            if staged:
                wild_flags = unstaged[:]
                for key in staged:
                    t = key >> 1
                    f = self._target_flags(t, existing[t], top_target)
                    wild_flags[t] = f
                    if f & _WILDS:
                        wilds |= 1 << t
                    else:
                        wilds &= ~(1 << t)
            for k in range(FOUR, ACE + 1):
                if held[k] > staged_k[k]:
                    f = wild_flags[k]
                    if f & _NAT0:
                        out.append(stage_natural + k * 2)
                    if f & _NAT1:
                        out.append(stage_natural + k * 2 + 1)
            # only the targets a wild may join, in increasing order (bit by bit)
            if more_twos:
                self._wild_actions(out, mv.STAGE_WILD, wilds, wild_flags)
            if more_jokers:
                self._wild_actions(out, mv.STAGE_WILD + mv.NUM_TARGETS * 2, wilds, wild_flags)
            return
        kept_flags = self._flags_kept
        for k in range(FOUR, ACE + 1):
            if held[k] > staged_k[k]:
                # a rank with no meld that takes cards and nothing staged may only start a
                # meld, even the pile's top rank: the top card alone never fills one (a
                # book has at least 3 cards), so a second meld beside it cannot be staged yet
                e = existing[k]
                if staged and (2 * k in staged or 2 * k + 1 in staged):
                    f = self._target_flags(k, e, top_target)
                elif e:
                    # nothing staged for it: its flags kept by size (_flags_alone, inlined)
                    f = -1
                    if kept_flags is not None and k != top_target and e < _KEPT_SIZES:
                        f = kept_flags[k * _KEPT_SIZES + e]
                    if f < 0:
                        f = self._flags_alone(k, e, top_target)
                        kept_flags = self._flags_kept
                else:
                    out.append(stage_natural + k * 2)
                    continue
                if f & _NAT0:
                    out.append(stage_natural + k * 2)
                if f & _NAT1:
                    out.append(stage_natural + k * 2 + 1)

    def _flags_alone(self, t: int, existing: int, top_target: int) -> int:
        """:meth:`_target_flags` of target ``t`` with nothing staged for it, where the
        side's meld of it that takes cards has ``existing`` cards (0: none). Besides the
        rules, they depend on the top card's target only for that target itself; for any
        other they are kept by target and size for the game (a cache: none in copies)."""
        if t == top_target or existing >= _KEPT_SIZES:
            return self._target_flags(t, existing, top_target, _NONE_STAGED)
        kept = self._flags_kept
        if kept is None:
            kept = self._flags_kept = _NO_KEPT_FLAGS[:]
        i = t * _KEPT_SIZES + existing
        f = kept[i]
        if f < 0:
            f = self._target_flags(t, existing, top_target, _NONE_STAGED)
            kept[i] = f
        return f

    @staticmethod
    def _wild_actions(out: list[int], base: int, wilds: int, flags: list[int]) -> None:
        """Append the staging actions of one kind of wild (``base``: its first action) for
        the targets whose bit is set in ``wilds``, by their ``flags``."""
        t = 0
        while wilds:
            if wilds & 1:
                f = flags[t]
                if f & _WILD0:
                    out.append(base + t * 2)
                if f & _WILD1:
                    out.append(base + t * 2 + 1)
            wilds >>= 1
            t += 1

    def meld_options(self, seat: Seat) -> tuple[MeldOptions, ...]:
        """For each kind of card ``seat`` holds (in kind order), where one such card can go
        on its side's table as it stands now (see :class:`MeldOptions`), each answer found
        by the checks a meld of it would pass or fail.

        The checks of one card ask the hand for that card (which it holds), so an answer
        depends only on the kind and on the counts of the melds it could join (of its rank,
        or every rank's for a wild card): each is worked out once per state and kept (a
        server asks at every move, of tables that change a meld or two at a time)."""
        side = self.side_of[seat]
        melds = self.melds[side]
        current: dict[int, int] = {}  # target -> its meld that still takes cards (or -1)
        for m in melds:
            if m.target not in current:
                current[m.target] = self._current_meld(side, m.target)
        open_melds = tuple(sorted(
            (index, target, melds[index].naturals, melds[index].twos, melds[index].jokers)
            for target, index in current.items() if index >= 0))
        kept = self._options
        if kept is None:
            kept = self._options = {}
        out = []
        for kind, count in enumerate(self.held[seat]):
            if not count:
                continue
            if kind in (TWO, JOKER):
                key: tuple[Any, ...] = (kind, open_melds)
            else:
                index = current.get(kind, -1)
                key = (kind, kind in current, index,
                       next((m for m in open_melds if m[0] == index), None))
            answer = kept.get(key)
            if answer is None:
                answer = kept[key] = self._meld_options_of(side, seat, kind, open_melds,
                                                           kind in current)
            out.append(answer)
        return tuple(out)

    def _meld_options_of(self, side: int, seat: int, kind: int,
                         open_melds: tuple[tuple[int, int, int, int, int], ...],
                         has_rank: bool) -> MeldOptions:
        """:meth:`meld_options` for one kind: ``open_melds`` are the side's melds that
        still take cards (index, target, counts), ``has_rank`` whether it has any meld of
        the kind's rank."""
        if kind in (BLACK_THREE, RED_THREE):
            return MeldOptions(kind, (), False, "threes can never be melded")
        p = self.profile
        wild = kind in (TWO, JOKER)
        joins: list[int] = []
        failed: IllegalMoveError | None = None  # worded only if it is the answer
        for index, target, _, _, _ in open_melds:
            if wild or target == kind:
                why = self._fits(side, seat, MeldGroup(
                    target, 0 if wild else 1, int(kind == TWO), int(kind == JOKER)))
                if why is None:
                    joins.append(index)
                else:
                    failed = failed or why
        if wild:
            return MeldOptions(kind, tuple(joins), p.all_wild_melds or any(
                r not in p.wild_free_ranks for r in cards.RANKS))
        # a new meld of the least size a meld of this rank may start with
        size = max(p.min_meld_size, p.new_meld_min_naturals, 1)
        extra = [0] * NUM_KINDS
        extra[kind] = size
        new_failed = self._fits(side, seat, MeldGroup(kind, size, new=has_rank), extra)
        reason = None if joins or new_failed is None else str(failed or new_failed)
        return MeldOptions(kind, tuple(joins), new_failed is None, reason)

    def _fits(self, side: int, seat: int, group: MeldGroup,
              extra: list[int] | None = None) -> IllegalMoveError | None:
        """Why one meld group breaks a rule (not worded yet), or None if it fits."""
        try:
            self._plan(side, seat, (group,), extra=extra)
        except IllegalMoveError as exc:
            # kept without its traceback: the frames in it and the reason's closures refer
            # to each other, a cycle only the garbage collector frees (its full collections
            # were the longest stalls of a server's event loop)
            return exc.with_traceback(None)
        return None

    def action_mask(self) -> list[int]:
        """A 0/1 list over every action id: 1 where the action is legal now."""
        mask = [0] * mv.NUM_ACTIONS
        for a in self.legal_actions():
            mask[a] = 1
        return mask

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
        # each side's melds and the melds that take cards, kept while the side's melds
        # are the same (_side_table): views share them (a loop, not comprehensions: hot)
        melds: list[tuple[TableMeld, ...]] = []
        open_melds: list[tuple[TableMeld | None, ...]] = []
        for s in range(self.sides):
            table = self._side_table(s)
            melds.append(table[0])
            open_melds.append(table[1])
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
            (cards.hand_faces(self.held_faces[seat], self.held_n[seat]) if _SLOT_SETTER
             else tuple(cards.faces_from_counts(self.held_faces[seat]))),
            tuple(self.held[seat]),
            tuple(self.held_n),
            # (compiled, comprehensions loop natively; pure Python, map calls len in C)
            tuple(map(len, self.feet)) if _SLOT_SETTER else tuple([len(f) for f in self.feet]),
            (tuple(map(len, self.knees)) if _SLOT_SETTER
             else tuple([len(k) for k in self.knees])),
            tuple(self.foot_picked),
            tuple(melds),
            tuple(open_melds),
            (tuple(map(tuple, self.red_threes)) if _SLOT_SETTER
             else tuple([tuple(r) for r in self.red_threes])),
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
        if _SLOT_SETTER:
            return _new_player_view(*fields, groups, legal, self.stalled_turns,
                                    self.pickup_size())
        # compiled: the class's own __init__ called natively, not through a Python call
        # with a tuple of arguments
        f = fields
        return PlayerView(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10],
                          f[11], f[12], f[13], f[14], f[15], f[16], f[17], f[18], f[19],
                          f[20], f[21], f[22], f[23], f[24], f[25], f[26], groups, legal,
                          self.stalled_turns, self.pickup_size())


_new_player_view: Final[Callable[..., PlayerView]] = mv.fast_constructor(PlayerView)
"""``PlayerView(...)``, built faster (every field by keyword)."""
_SLOT_SETTER: Final = _new_player_view is not PlayerView
"""Pure Python: :data:`_new_player_view` sets the view's slots directly (faster than its
``__init__``); compiled, it is the class itself, whose ``__init__`` is native."""
