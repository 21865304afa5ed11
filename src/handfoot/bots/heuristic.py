"""Players that choose moves by themselves.

A bot sees only its own seat's :class:`~handfoot.game.values.PlayerView` (never the state), so
it cannot read a hidden card, and answers with one integer action from
``view.legal_actions``. :mod:`handfoot.bots.registry` names every level (``make_bot``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, Final, Protocol

from mypy_extensions import mypyc_attr

from handfoot.bots.melds import (
    _NO_TARGETS,
    _ZERO_KINDS,
    _ZERO_TARGETS,
    _build,
    _cards_in,
    _complete_and_start,
    _emptying_bounds,
    _greedy_groups,
    _kind_counts,
    _lays_top,
    _left_kinds,
    _may_go_out,
    _nothing_to_lay,
    _stage_actions,
    _trim_to_keep,
    _within_hand,
)
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import JOKER, RANKS, TWO
from handfoot.game.moves import MeldGroup
from handfoot.game.rules import FinalDiscard, PickupExistingMeld, Profile
from handfoot.game.values import Phase, PlayerView, TableMeld

__all__ = ["SETTINGS", "Bot", "EasyBot", "HardBot", "NormalBot", "RandomBot", "configure",
           "settings_of"]

# Each bot class is marked @mypyc_attr(allow_interpreted_subclasses=True): compiled by mypyc
# (docs/performance.md), a class can otherwise not be subclassed in Python, and the expert
# (handfoot.bots.search) derives from the hard bot, experiments from any bot. In pure Python the
# decorator does nothing.


class Bot(Protocol):
    """Anything that picks a legal action from a seat's view."""

    name: str

    def choose(self, view: PlayerView) -> int:
        """One of ``view.legal_actions``."""
        ...



def _state_of(bot: object) -> dict[str, Any]:
    """A bot's attributes for pickling and copying. Compiled (mypyc), a bot class keeps its
    own attributes in C slots, which ``type(bot).__mypyc_attrs__`` names, and a Python
    subclass (the expert, the learned bot) keeps its own in an instance ``__dict__``; the
    default ``__getstate__`` of a compiled class saves only the first, so an expert sent to
    another process lost its settings. Pure Python: the ``__dict__``, as by default."""
    state: dict[str, Any] = {}
    for name in getattr(type(bot), "__mypyc_attrs__", ()):
        if name != "__dict__" and hasattr(bot, name):
            state[name] = getattr(bot, name)
    state.update(getattr(bot, "__dict__", {}))
    return state


def _restore(bot: object, state: dict[str, Any]) -> None:
    for name, value in state.items():
        setattr(bot, name, value)


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Uniform over the legal actions: the weakest player, and a fast source of games."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def __getstate__(self) -> dict[str, Any]:
        return _state_of(self)

    def __setstate__(self, state: dict[str, Any]) -> None:
        _restore(self, state)

    def choose(self, view: PlayerView) -> int:
        actions = view.legal_actions
        if not actions:
            raise ValueError(f"seat {view.seat + 1} has no legal action to choose from")
        return actions[self._rng.randrange(len(actions))]


@mypyc_attr(allow_interpreted_subclasses=True)
class EasyBot:
    """Melds whatever it can, takes the pile when it holds a pair, careless with discards.

    It builds a whole meld (or pickup, or going out) from its view, stages it card by
    card, and commits it if the engine lists the commit as legal; otherwise it clears the
    staged cards and does not try the same thing again in that situation.
    """

    name = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._queue: list[int] = []
        self._failed: set[tuple[object, ...]] = set()

    def __getstate__(self) -> dict[str, Any]:
        return _state_of(self)

    def __setstate__(self, state: dict[str, Any]) -> None:
        _restore(self, state)

    def choose(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat + 1} has no legal action to choose from")
        if view.phase == Phase.ANSWER:
            return mv.ANSWER_YES
        if mv.KNEE in legal:
            self._queue = []
            return mv.KNEE
        queued = self._next_queued(legal, self._situation(view))
        if queued is not None:
            return queued
        if view.staged:
            return mv.CLEAR if mv.CLEAR in legal else self._fallback(view)
        situation = self._situation(view)
        if situation not in self._failed:
            plan = self._plan(view)
            if plan:
                self._queue = plan
                return self.choose(view)
        return self._fallback(view)

    def _next_queued(self, legal: tuple[int, ...], failed_key: tuple[object, ...],
                     ) -> int | None:
        """The next action of the plan being staged, if still legal; otherwise the plan is
        dropped and ``failed_key`` remembered, so it is not tried again."""
        if not self._queue:
            return None
        action = self._queue.pop(0)
        if action in legal:
            return action
        self._queue = []
        self._failed.add(failed_key)
        return None

    @staticmethod
    def _situation(view: PlayerView) -> tuple[object, ...]:
        melded = 0
        for melds in view.melds:  # (a loop: no generator for the sum)
            melded += len(melds)
        return (view.round_number, view.phase, view.stock_size, view.discard_size,
                len(view.hand), melded)

    def _fallback(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if view.phase == Phase.DRAW:
            return mv.DRAW
        for a in (mv.KNOCK,):
            if a in legal:
                return a
        discards = [a for a in legal if mv.DISCARD <= a < mv.STAGE_NATURAL]
        if mv.DISCARD + cards.BLACK_THREE in discards:
            return mv.DISCARD + cards.BLACK_THREE
        if discards:
            return discards[self._rng.randrange(len(discards))]
        return legal[self._rng.randrange(len(legal))]

    def _plan(self, view: PlayerView) -> list[int]:
        """Stage actions plus a commit, or nothing worth trying."""
        counts = _kind_counts(view.hand)
        p = view.profile
        if view.phase == Phase.DRAW:
            if view.discard_top is None:
                return []
            top = cards.FACE_KIND[view.discard_top]
            if top not in RANKS or counts[top] < 2:
                return []
            groups = _greedy_groups(view, counts, top_kind=top)
            if not groups or not _lays_top(view, groups, top):
                return []
            return [*_stage_actions(groups), mv.PICKUP]
        groups = _greedy_groups(view, counts)
        used = sum(g.size for g in groups)
        in_last = view.in_foot[view.seat]
        left = len(view.hand) - used
        if in_last and left <= 1:
            if left == 0 and p.final_discard != FinalDiscard.REQUIRED:
                return [*_stage_actions(groups), mv.GO_OUT]
            if left == 1 and p.final_discard != FinalDiscard.FORBIDDEN:
                rest = _left_kinds(counts, groups)
                if rest:
                    return [*_stage_actions(groups), mv.GO_OUT_DISCARD + rest[0]]
        if not groups:
            return []
        if in_last:
            groups = _trim_to_keep(groups, len(view.hand) - (p.min_cards_kept + 1))
            if not groups:
                return []
        return [*_stage_actions(groups), mv.CONFIRM]


def _listed(legal: tuple[int, ...], action: int) -> bool:
    """``action in legal`` for a listing in increasing order (as the engine lists the
    legal actions), for the low actions (draw, pickup, clear, knock, ...): the scan stops
    at the first action not below ``action`` (``in`` compares every boxed integer of a
    listing that lacks it)."""
    for a in legal:
        if a >= action:
            return a == action
    return False


# --- normal and hard ---------------------------------------------------------------------

_BLACK3: Final = cards.BLACK_THREE
# (enum members read once: a member looked up on its class costs a thousand instructions)
_PHASE_ANSWER: Final = Phase.ANSWER
_PHASE_DRAW: Final = Phase.DRAW
_FINAL_REQUIRED: Final = FinalDiscard.REQUIRED
_FINAL_FORBIDDEN: Final = FinalDiscard.FORBIDDEN


def _hand_points(view: PlayerView) -> int:
    values = view.profile.kind_values
    return sum(values[cards.FACE_KIND[f]] for f in view.hand)


_Sides = tuple[PlayerView, list[TableMeld | None], list[TableMeld | None], list[int]]
"""What the discard's keep scores read of the sides' melds for one view (:func:`_sides_of`):
the view, then lists indexed by kind."""


_NO_RISKS: Final[list[float]] = [0.0]
"""One kind's feed risk where nothing raises it (a template, multiplied, never changed)."""
_NO_MELDS_BEYOND: Final[list[TableMeld | None]] = [None] * (cards.NUM_KINDS - mv.NUM_TARGETS)
"""The kinds past the last target, which no meld has (appended to a :func:`_currents`)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class NormalBot(EasyBot):
    """Plays a solid game: keeps pairs for the pile, guards clean melds, careful discards.

    Once its side is open and it holds more than :attr:`hold_new_above` cards it keeps a
    bare three of a kind in hand rather than starting a meld (a pair to take the pile
    with); where the profile says a pickup onto an unfinished meld must complete it and
    start a new one, it plans exactly that.

    It plans like :class:`EasyBot` (whole melds staged card by card, committed if legal,
    failed plans remembered per situation), but with several plans in order of preference.
    """

    name = "normal"
    greedy_hand = 0
    """Not yet in the Foot with at most this many cards: meld greedily (hurry)."""
    hold = 0
    """Naturals of a melded rank kept in hand as a pickup ticket (0: none)."""
    hold_new = True
    """Once open and holding more than :attr:`hold_new_above` cards, keep bare threes of a
    kind in hand (pairs to take the pile with, and one to meld)."""
    hold_new_above = 8
    keep_value = 1.0
    """Discards: the weight of a card's point value in how much it is worth keeping."""
    keep_pair = 100.0
    """Discards: how much more a card is worth keeping when the hand holds a pair of it."""
    keep_extra = 50.0
    """... and for each further card of its kind (the third and the fourth)."""
    keep_on_meld = 40.0
    """... when the side has an unfinished meld of its kind."""
    feed_meld = 30.0
    """Discards: the risk of a card the next player's side has an unfinished meld of (where
    the pile may be taken onto a meld)."""
    answer_points = 100
    """Asked to let the partner go out: say no when behind and holding more points."""
    dirty_need = 2
    """Careful melds: finish a clean meld of four naturals or more into a dirty book only
    where it needs at most this many wilds (0: never; greedy play and hurrying do)."""
    keep_special = 0.0
    """Discards: how much more a card of a rank with a special book bonus (the
    profile's ``special_book_bonus``) is worth keeping, per 1,000 points of the bonus."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._key: tuple[object, ...] = ()
        self._sides_memo: _Sides | None = None
        self._own_memo: tuple[PlayerView, list[TableMeld | None]] | None = None
        self._counts_memo: tuple[PlayerView, list[int]] | None = None

    # -- the decision loop ----------------------------------------------------------------

    def choose(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat + 1} has no legal action to choose from")
        self._observe(view)
        action = self._decide(view)
        self._chosen(view, action)
        self._sides_memo = None  # (they hold the view)
        self._own_memo = None
        self._counts_memo = None
        return action

    def _observe(self, view: PlayerView) -> None:
        """Hook: see every view this seat is shown."""

    def _chosen(self, view: PlayerView, action: int) -> None:
        """Hook: the action chosen for ``view``."""

    def _decide(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if view.phase == _PHASE_ANSWER:
            yes = self._answer(view)
            want = mv.ANSWER_YES if yes else mv.ANSWER_NO
            return want if want in legal else legal[0]
        if legal[-1] == mv.KNEE:  # the highest action, last in the (increasing) listing
            self._queue = []
            return mv.KNEE
        queued = self._next_queued(legal, self._key)
        if queued is not None:
            return queued
        if view.staged:
            return mv.CLEAR if _listed(legal, mv.CLEAR) else self._discard_or_draw(view)
        situation: tuple[object, ...] | None = None  # (worked out at the first plan)
        # the plans are worked out one at a time, as they are tried (the first that can
        # start is played), unless a subclass says otherwise by overriding _plans
        plans = (self._plan_iter(view) if type(self)._plans is NormalBot._plans
                 else self._plans(view))
        for plan in plans:
            if not plan:
                continue
            if situation is None:
                situation = self._situation(view)
            key = (situation, tuple(plan))
            if key in self._failed:
                continue
            self._key = key
            self._queue = list(plan)
            first = self._queue.pop(0)
            if _listed(legal, first):
                return first
            self._queue = []
            self._failed.add(key)
        return self._discard_or_draw(view)

    def _answer(self, view: PlayerView) -> bool:
        """Let the partner go out unless this seat's cards would cost too much."""
        side = view.side
        behind = view.totals[side] < max(t for s, t in enumerate(view.totals) if s != side)
        return not (behind and _hand_points(view) > self.answer_points)

    # -- plans ----------------------------------------------------------------------------

    def _danger(self, view: PlayerView) -> bool:
        return False

    def _pickup_ok(self, view: PlayerView, top: int) -> bool:
        return self._pickup_wanted(view.profile, view.pickup_size, view.discard_size,
                                   view.opened[view.side])

    def _pickup_wanted(self, profile: Profile, pickup_size: int, discard_size: int,
                       opened: bool) -> bool:
        """:meth:`_pickup_ok`, from what it reads of the view."""
        return True

    def _pickup_top(self, profile: Profile, top_face: int | None, held_of_top: int,
                    pickup_size: int, discard_size: int, opened: bool) -> int:
        """The kind of the pile's top card (``top_face``) where, at the draw, this seat
        might plan to take the pile with it, else -1: none where :meth:`_plan_iter` plans
        no pickup whatever the listing (no pile, a top card that is no rank, a pickup not
        wanted, a pair the profile asks for and the seat lacks: ``held_of_top`` is how
        many cards of the top card's kind it holds). Then the seat draws, if it has no
        plan under way, no staged cards and no Knee it may take
        (:func:`handfoot.bots.ahead.draw_ahead`)."""
        if top_face is None:
            return -1
        top = cards.FACE_KIND[top_face]
        if not cards.FOUR <= top <= cards.ACE:  # RANKS
            return -1
        if not self._pickup_wanted(profile, pickup_size, discard_size, opened):
            return -1
        if profile.pickup_needs_pair and held_of_top < 2:
            return -1
        return top

    def _plans(self, view: PlayerView) -> list[list[int]]:
        """Every plan for this view (staging actions and a commit), best first."""
        return list(self._plan_iter(view))

    def _plan_iter(self, view: PlayerView) -> Iterator[list[int]]:
        """:meth:`_plans`, each worked out only when the one before it has been tried."""
        counts = self._counts(view)
        p = view.profile
        if view.phase == _PHASE_DRAW:
            legal = view.legal_actions  # sorted: the last is the highest
            if view.discard_top is None or (not _listed(legal, mv.PICKUP) and not (
                    legal and legal[-1] >= mv.STAGE_NATURAL)):
                return
            top = cards.FACE_KIND[view.discard_top]
            if not cards.FOUR <= top <= cards.ACE or not self._pickup_ok(view, top):  # RANKS
                return
            if p.pickup_needs_pair and counts[top] < 2:
                return
            # (bots.ahead.draw_ahead asks the same of the seat's own cards: _pickup_top)
            if p.pickup_existing_meld == _COMPLETE_AND_START:
                groups = _complete_and_start(view, counts, top)
                if groups:
                    yield [*_stage_actions(groups), mv.PICKUP]
            currents = self._own_currents(view)
            for greedy in (False, True):
                groups = _build(view, counts, top_kind=top, greedy=greedy, currents=currents,
                                dirty_need=self.dirty_need)
                if groups and _lays_top(view, groups, top):
                    yield [*_stage_actions(groups), mv.PICKUP]
            groups = _greedy_groups(view, counts, top_kind=top, currents=currents)
            if groups and _lays_top(view, groups, top):
                yield [*_stage_actions(groups), mv.PICKUP]
            return
        in_last = view.in_foot[view.seat]
        total = len(view.hand)
        currents = self._own_currents(view)
        # nothing to lay (most views after a meld): every build below is empty, so with
        # two cards or more no plan is yielded (a plan that goes out or empties the Hand
        # laying nothing needs a hand of at most one card), and none is worked out
        if total >= 2 and _nothing_to_lay(counts, currents, p.min_meld_size):
            return
        # the greedy build (never changed) is worked out only where it is read: going out
        # or emptying the Hand into the Foot (it and the greedy groups only where they
        # could leave at most one card), a greedy first plan, a side not yet open
        greedy_build: list[MeldGroup] | None = None
        emptying: list[list[MeldGroup]] = []
        most_laid, most_built = _emptying_bounds(view, counts, currents)
        if total - most_built <= 1:
            greedy_build = _build(view, counts, greedy=True, currents=currents)
            emptying.append(greedy_build)
        if total - most_laid <= 1:
            emptying.append(_greedy_groups(view, counts, currents=currents))
        for groups in emptying:
            used = _cards_in(groups)
            left = total - used
            if left > 1:
                continue
            if in_last:
                if not _may_go_out(view, groups):
                    continue
                if left == 0 and p.final_discard != _FINAL_REQUIRED:
                    yield [*_stage_actions(groups), mv.GO_OUT]
                if left == 1 and p.final_discard != _FINAL_FORBIDDEN:
                    rest = _left_kinds(counts, groups)  # (the card left: only here)
                    if rest:
                        yield [*_stage_actions(groups), mv.GO_OUT_DISCARD + rest[0]]
            elif groups:
                yield [*_stage_actions(groups), mv.CONFIRM]
        greedy = (not in_last and total <= self.greedy_hand) or self._danger(view)
        hold_new = self.hold_new and view.opened[view.side] and total > self.hold_new_above
        # a greedy build reads neither hold, hold_new nor dirty_need: the greedy build
        if greedy:
            if greedy_build is None:
                greedy_build = _build(view, counts, greedy=True, currents=currents)
            first = greedy_build
        else:
            first = _build(view, counts, greedy=False, hold=self.hold, hold_new=hold_new,
                           dirty_need=self.dirty_need, currents=currents)
        groups = _within_hand(first, total, in_last, p.min_cards_kept)
        if groups:
            yield [*_stage_actions(groups), mv.CONFIRM]
        # a side not yet open: the greedy build next (worked out only once the first plan
        # has been tried, if it has not been played)
        if not view.opened[view.side]:
            if greedy_build is None:
                greedy_build = _build(view, counts, greedy=True, currents=currents)
            groups = _within_hand(greedy_build, total, in_last, p.min_cards_kept)
            if groups:
                yield [*_stage_actions(groups), mv.CONFIRM]

    # -- discards -------------------------------------------------------------------------

    def _discard_or_draw(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if view.phase == _PHASE_DRAW and legal[0] == mv.DRAW:  # action 0, listed first
            return mv.DRAW
        if _listed(legal, mv.KNOCK):
            return mv.KNOCK
        discards: list[int] = []
        for a in legal:  # (increasing: the staging actions come after the discards)
            if a >= mv.STAGE_NATURAL:
                break
            if a >= mv.DISCARD:
                discards.append(a - mv.DISCARD)
        if discards:
            scores = self._keep_scores(view, self._counts(view), discards)
            # the lowest keep score, ties to the lowest kind (no key function: hot)
            best = -1
            best_score = 0.0
            for i in range(len(discards)):
                k = discards[i]
                score = scores[i]
                if best < 0 or score < best_score or (score == best_score and k < best):
                    best, best_score = k, score
            return mv.DISCARD + best
        return legal[self._rng.randrange(len(legal))]

    def _keep_score(self, view: PlayerView, counts: list[int], kind: int) -> float:
        """How much this seat wants to keep one card of ``kind`` (lowest is thrown)."""
        return self._keep_scores(view, counts, [kind])[0]

    def _keep_scores(self, view: PlayerView, counts: list[int],
                     kinds: list[int]) -> list[float]:
        """:meth:`_keep_score` of each of ``kinds``, worked out together (what they read of
        the view is read once; the discard asks it of every kind the seat may throw)."""
        p = view.profile
        values = p.kind_values
        own = self._sides(view)[1]
        ranks = [k for k in kinds if k != _BLACK3 and k != TWO and k != JOKER]
        risks = self._feed_risks(view, ranks)
        out: list[float] = []
        r = 0
        # (the settings read once: the arithmetic is the same, in the same order)
        keep_value = self.keep_value
        keep_pair = self.keep_pair
        keep_extra = self.keep_extra
        keep_on_meld = self.keep_on_meld
        keep_special = self.keep_special
        for kind in kinds:
            if kind == _BLACK3:
                out.append(-1000.0)
                continue
            if kind in (TWO, JOKER):
                out.append(1000.0 + kind)
                continue
            score = keep_value * values[kind]
            c = counts[kind]
            if c >= 2:
                score += keep_pair + keep_extra * (c - 2 if c < 4 else 2)  # (min: a call)
            if own[kind] is not None:
                score += keep_on_meld
            if keep_special:
                for rank, bonus in p.special_book_bonus:
                    if rank == kind:
                        score += keep_special * bonus / 1000.0
            score += risks[r]
            r += 1
            out.append(score)
        return out

    def _feed_risk(self, view: PlayerView, kind: int) -> float:
        """How likely the next player can take the pile with this card on top."""
        return self._feed_risks(view, [kind])[0]

    def _feed_risks(self, view: PlayerView, kinds: list[int]) -> list[float]:
        """:meth:`_feed_risk` of each of ``kinds``, worked out together."""
        out = _NO_RISKS * len(kinds)
        nxt = (view.seat + 1) % view.players
        side = nxt % view.sides
        if side == view.side or not _allows_existing(view):
            return out
        after = self._sides(view)[2]
        for i in range(len(kinds)):
            if after[kinds[i]] is not None:
                out[i] = 0.0 + self.feed_meld
        return out

    def _sides(self, view: PlayerView) -> _Sides:
        """:func:`_sides_of` ``view``, worked out once per view (the discard's keep scores
        read it for every kind the seat may throw)."""
        memo = self._sides_memo
        if memo is None or memo[0] is not view:
            memo = _sides_of(view, self._own_currents(view))
            self._sides_memo = memo
        return memo

    def _counts(self, view: PlayerView) -> list[int]:
        """:func:`_kind_counts` of the hand in ``view`` (its ``hand_kinds``, which the
        engine keeps), as a list made once per view (the plans, the discard and the hard
        bot's count of unseen cards read it; the list kept: not to be changed)."""
        memo = self._counts_memo
        if memo is None or memo[0] is not view:
            memo = (view, list(view.hand_kinds))  # (_kind_counts of the hand)
            self._counts_memo = memo
        return memo[1]

    def _own_currents(self, view: PlayerView) -> list[TableMeld | None]:
        """:func:`_currents` of the side's melds in ``view`` (its ``open_melds``: the
        engine walks a side's melds once a change, not each view), indexed by kind (none
        for a kind that is no target), made once per view (the plans and the discard
        read it)."""
        memo = self._own_memo
        if memo is None or memo[0] is not view:
            own = list(view.open_melds[view.side])
            own.extend(_NO_MELDS_BEYOND)
            memo = (view, own)
            self._own_memo = memo
        return memo[1]


def _sides_of(view: PlayerView, own: list[TableMeld | None]) -> _Sides:
    """The view, then each target's :func:`_current` meld of this seat's side (``own``,
    :meth:`NormalBot._own_currents`) and of the next seat's, and how many other sides have
    any meld of it: each a list indexed by kind (a kind that is no target has none; a
    two's index is the all-wild meld's target, as with :func:`_current`)."""
    after_side = (view.seat + 1) % view.players % view.sides
    after = own
    if after_side != view.side:
        after = list(view.open_melds[after_side])  # (_currents of its melds)
        after.extend(_NO_MELDS_BEYOND)
    others = _ZERO_KINDS[:]
    for side in range(view.sides):
        if side != view.side:
            has = _NO_TARGETS[:]
            for m in view.melds[side]:  # (counted at the side's first meld of each target)
                t = m.target
                if not has[t]:
                    has[t] = True
                    others[t] = others[t] + 1
    return view, own, after, others



def _naturals_beyond(table: tuple[tuple[TableMeld, ...], ...], side: int) -> list[int]:
    """The naturals on the melds of every side but ``side`` (``table``: a view's melds),
    per target (0 for the all-wild)."""
    out = _ZERO_TARGETS[:]
    for s in range(len(table)):
        if s == side:
            continue
        for m in table[s]:
            t = m.target
            if t <= cards.ACE:  # a rank (RANKS), not the all-wild meld
                out[t] = out[t] + m.naturals
    return out


_NO_EXISTING: Final = PickupExistingMeld.FORBIDDEN
"""(read once: an enum member looked up on its class costs a thousand instructions)"""
_COMPLETE_AND_START: Final = PickupExistingMeld.COMPLETE_AND_START


def _allows_existing(view: PlayerView) -> bool:
    return view.profile.pickup_existing_meld != _NO_EXISTING


@mypyc_attr(allow_interpreted_subclasses=True)
class HardBot(NormalBot):
    """Remembers the pile, guards clean books, keeps pairs, hurries into its Foot.

    It follows the discard pile between its turns from what it can see (the top card and
    the pile's size), notes the ranks an opponent took from the pile, avoids feeding the
    next player, and lays its points down when the other side is about to go out.
    """

    name = "hard"
    greedy_hand = 4
    hold = 2
    feed_taken = 60.0
    """Discards: the risk of a rank an opponent has taken the pile with, per time."""
    feed_thrown = 15.0
    """... less for each time (up to two) a card of the rank was thrown and not taken."""
    safe_next_meld = 60.0
    """... less when the next player's side has an unfinished meld of the rank (it plays
    its naturals there, so it rarely holds a pair of it)."""
    safe_other_meld = 20.0
    """... less when another side has a meld of the rank."""
    safe_unseen = 20.0
    """... less when at most one card of the rank is unseen."""
    danger_cards = 3
    """Lay points down once another side could go out and one of its seats in the last
    part holds at most this many cards."""
    pickup_pile = 2
    """Take the pile before the side has opened only when it holds at least this many
    cards."""
    short_pickup = True
    """Take the pile even when it brings fewer cards than a draw from the stock (where a
    pickup takes only the top card, say: one card in place of two)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._round = -1
        self._pile: list[int | None] = []
        self._last_discard: int | None = None
        self._taken: dict[int, int] = {}
        self._thrown: dict[int, int] = {}
        # the table as this seat last followed the pile (its naturals on the other sides
        # are worked out only where somebody took the pile since: _observe)
        self._opp_melds: tuple[tuple[TableMeld, ...], ...] = ()
        self._opp_side = 0
        self._unseen_memo: tuple[PlayerView, list[int]] | None = None

    def _observe(self, view: PlayerView) -> None:
        self._unseen_memo = None  # the pile memory may change
        if view.round_number != self._round:
            self._round = view.round_number
            self._pile = [None] * view.discard_size
            if view.discard_top is not None and self._pile:
                self._pile[-1] = cards.FACE_KIND[view.discard_top]
            self._last_discard = None
            self._taken = {}
            self._thrown = {}
            self._opp_melds = view.melds
            self._opp_side = view.side
            return
        size = view.discard_size
        if size == len(self._pile):
            return
        others = view.players - 1
        expected = len(self._pile) + others
        if size < expected:
            # somebody took the pile: likely the top, right after this seat's discard
            taken = expected - size
            if self._last_discard is not None:
                self._taken[self._last_discard] = self._taken.get(self._last_discard, 0) + 1
            keep = max(0, len(self._pile) - taken)
            self._pile = self._pile[:keep]
        new = size - len(self._pile)  # (no max(): only a positive count is used)
        if new > 0:
            self._pile.extend([None] * new)
        if len(self._pile) > size:
            del self._pile[size:]
        top = cards.FACE_KIND[view.discard_top] if view.discard_top is not None else None
        if self._pile and top is not None:
            self._pile[-1] = top
            if cards.FOUR <= top <= cards.ACE:  # RANKS
                self._thrown[top] = self._thrown.get(top, 0) + 1
        # ranks where an opponent's melds grew by a pickup-sized jump
        if size < expected:
            nat = _naturals_beyond(view.melds, view.side)
            old = _naturals_beyond(self._opp_melds, self._opp_side)
            for r in range(cards.FOUR, cards.ACE + 1):  # RANKS
                if nat[r] - old[r] >= 3:
                    self._taken[r] = self._taken.get(r, 0) + 1
        self._opp_melds = view.melds
        self._opp_side = view.side
        self._last_discard = None

    def _chosen(self, view: PlayerView, action: int) -> None:
        self._unseen_memo = None  # the pile memory may change
        if mv.DISCARD <= action < mv.STAGE_NATURAL:
            kind = action - mv.DISCARD
            self._pile.append(kind)
            self._last_discard = kind

    def _danger(self, view: PlayerView) -> bool:
        """The other side could go out any moment: get points onto the table."""
        in_foot = view.in_foot
        hand_counts = view.hand_counts
        foot_counts = view.foot_counts
        players = view.players
        sides = view.sides
        few = self.danger_cards
        for side in range(sides):
            if side == view.side:
                continue
            # a seat of the side about to go out (asked first: fewer to read than the books)
            close = False
            seat = side  # the side's seats (a range with a step is a Python call, compiled)
            while seat < players:
                if in_foot[seat] and hand_counts[seat] + foot_counts[seat] <= few:
                    close = True
                    break
                seat += sides
            if not close:
                continue
            p = view.profile
            book_size: int = p.book_size
            need: int = p.clean_books_to_go_out + p.dirty_books_to_go_out
            if p.all_wild_melds:
                need += p.wild_books_to_go_out
            books = 0
            for m in view.melds[side]:
                if m.naturals + m.twos + m.jokers >= book_size:
                    books += 1
            if books >= need:
                return True
        return False

    def _pickup_wanted(self, profile: Profile, pickup_size: int, discard_size: int,
                       opened: bool) -> bool:
        if not self.short_pickup and pickup_size < profile.draw_count:
            return False
        return discard_size >= self.pickup_pile or opened

    def _unseen(self, view: PlayerView, kind: int) -> int:
        """Cards of ``kind`` this seat has not seen: not in its hand, not as naturals on
        the table, not thrown on the pile as far as it remembers (worked out once per
        view and pile memory)."""
        return self._unseen_of(view)[kind]

    def _unseen_of(self, view: PlayerView) -> list[int]:
        """:meth:`_unseen` of every kind, worked out once per view and pile memory (the
        list kept: not to be changed)."""
        memo = self._unseen_memo
        if memo is None or memo[0] is not view:
            memo = (view, self._unseen_counts(view))
            self._unseen_memo = memo
        return memo[1]

    def _unseen_counts(self, view: PlayerView) -> list[int]:
        total = 4 * view.profile.decks(view.players)
        return [total - n if n < total else 0 for n in self._seen_counts(view)]

    def _seen_counts(self, view: PlayerView) -> list[int]:
        """The cards of each kind this seat has seen (:meth:`_unseen` is the deck's less
        these, never below 0): in its hand, as naturals on the table, thrown on the pile
        as far as it remembers."""
        seen = self._counts(view)[:]
        for melds in view.melds:
            for m in melds:
                t = m.target
                seen[t] = seen[t] + m.naturals
        for k in self._pile:
            if k is not None:
                seen[k] = seen[k] + 1
        return seen

    def _feed_risks(self, view: PlayerView, kinds: list[int]) -> list[float]:
        risks = NormalBot._feed_risks(self, view, kinds)  # (not super(): a native call)
        nxt = (view.seat + 1) % view.players
        if nxt % view.sides == view.side:
            return risks
        # a side plays its naturals onto its melds, so it rarely holds a pair of a rank
        # it has on the table: those are the safest cards to throw
        _, _, after, others = self._sides(view)
        taken = self._taken
        thrown = self._thrown
        # at most one card of a kind unseen (:meth:`_unseen` <= 1): seen all but one
        # (the seen counts, not the unseen list: read only here, once a discard)
        seen = self._seen_counts(view)
        all_but_one = 4 * view.profile.decks(view.players) - 1
        # (the settings read once: the arithmetic is the same, in the same order)
        feed_taken = self.feed_taken
        feed_thrown = self.feed_thrown
        safe_next_meld = self.safe_next_meld
        safe_other_meld = self.safe_other_meld
        safe_unseen = self.safe_unseen
        for i in range(len(kinds)):
            kind = kinds[i]
            risk = risks[i]
            risk += feed_taken * taken.get(kind, 0)
            times = thrown.get(kind, 0)
            risk -= feed_thrown * (times if times < 2 else 2)  # (no min(): a call, hot)
            if after[kind] is not None:
                risk -= safe_next_meld
            for _ in range(others[kind]):  # once per other side with a meld of it
                risk -= safe_other_meld
            if seen[kind] >= all_but_one:
                risk -= safe_unseen  # nobody else can hold a pair of it
            risks[i] = risk
        return risks


# -- settings ---------------------------------------------------------------------------

SETTINGS: Final[tuple[str, ...]] = (
    "greedy_hand", "hold", "hold_new", "hold_new_above", "keep_value", "keep_pair",
    "keep_extra", "keep_on_meld", "feed_meld", "answer_points", "feed_taken",
    "feed_thrown", "safe_next_meld", "safe_other_meld", "safe_unseen", "danger_cards",
    "pickup_pile", "short_pickup", "keep_special", "dirty_need")
"""The attributes of :class:`NormalBot` and :class:`HardBot` that shape their play (those
from ``feed_taken`` to ``short_pickup`` are hard's own): a bot's style, set with
:func:`configure` or a bot spec such as ``hard:hold=1:keep_pair=80``
(:func:`handfoot.bots.registry.make_bot`)."""

_TRUE: Final = frozenset({"true", "yes", "on", "1"})
_FALSE: Final = frozenset({"false", "no", "off", "0"})


def settings_of(bot: object) -> dict[str, bool | int | float]:
    """The :data:`SETTINGS` a bot has, with their values (none for random and easy).

    >>> settings_of(HardBot(1))["hold"]
    2
    """
    return {name: getattr(bot, name) for name in SETTINGS if hasattr(bot, name)}


def configure(bot: object, settings: Mapping[str, str | bool | int | float]) -> None:
    """Set a bot's :data:`SETTINGS`; each value is given as its type or as text.

    Raises ``ValueError`` (naming the setting) for a setting the bot does not have, a
    value of the wrong kind, a negative count or a number that is not finite; the bot is
    changed only if every setting is valid.

    >>> bot = HardBot(1)
    >>> configure(bot, {"hold": "1", "keep_pair": 80})
    >>> (bot.hold, bot.keep_pair)
    (1, 80.0)
    >>> configure(bot, {"hold": "two"})
    Traceback (most recent call last):
    ...
    ValueError: setting hold: 'two' is not a whole number
    """
    have = settings_of(bot)
    values: dict[str, bool | int | float] = {}
    for name, given in settings.items():
        if name not in have:
            known = ", ".join(have) or "none"
            raise ValueError(f"unknown setting {name!r} for this bot; its settings: {known}")
        values[name] = _setting_value(name, have[name], given)
    for name, value in values.items():
        setattr(bot, name, value)


def _setting_value(name: str, default: bool | int | float,
                   given: str | bool | int | float) -> bool | int | float:
    if not isinstance(given, str | bool | int | float):
        raise ValueError(f"setting {name}: {given!r} is not a value")
    text = given.strip().lower() if isinstance(given, str) else None
    if isinstance(default, bool):
        if isinstance(given, bool):
            return given
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise ValueError(f"setting {name}: {given!r} is not true or false")
    if isinstance(default, int):
        if isinstance(given, bool) or (isinstance(given, float) and not given.is_integer()):
            raise ValueError(f"setting {name}: {given!r} is not a whole number")
        try:
            number = int(given)
        except ValueError:
            raise ValueError(f"setting {name}: {given!r} is not a whole number") from None
        if number < 0:
            raise ValueError(f"setting {name}: {number} is negative")
        return number
    if isinstance(given, bool):
        raise ValueError(f"setting {name}: {given!r} is not a number")
    try:
        real = float(given)
    except ValueError:
        raise ValueError(f"setting {name}: {given!r} is not a number") from None
    if real != real or real in (float("inf"), float("-inf")):
        raise ValueError(f"setting {name}: {given!r} is not a finite number")
    return real
