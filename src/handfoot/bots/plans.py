"""Candidate plans: every whole plan a seat could follow at one of its decisions.

A *decision* is a call to a bot where it chooses freely: its turn's draw (draw, or take
the pile with a meld plan), a meld-or-discard choice in play (a meld plan, going out, a
discard, a knock), or its answer to a partner's "May I go out?". A :class:`Plan` is the
whole sequence of actions that carries one choice out (stage the cards, then commit), not
a single card id.

:func:`candidate_plans` lists them for a :class:`~handfoot.bots.heuristic.HardBot` (it reads the
bot's memory of the pile and the plans it has seen fail) and flags the one hard itself
would choose, so a bot that always takes the flagged plan plays exactly like ``hard``
(``tests/test_plans.py`` compares the records of seeded games). Meld plans come from the
hard planner with its settings switched on and off (careful or greedy, pairs of melded
ranks held or not, bare threes of a kind held or not, the easy planner's greedy groups);
"no meld" is each legal discard. Pickups come from the same planner, without hard's rule
of when a pickup is worth it, so a learned scorer can take the pile more or less often.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from handfoot.bots.heuristic import HardBot
from handfoot.bots.melds import (
    _build,
    _complete_and_start,
    _greedy_groups,
    _lays_top,
    _stage_actions,
    _within_hand,
)
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import RANKS
from handfoot.game.moves import MeldGroup
from handfoot.game.rules import PickupExistingMeld
from handfoot.game.values import Phase, PlayerView

__all__ = ["Plan", "PlanBot", "PlanKind", "candidate_plans", "is_decision", "plan_groups"]


class PlanKind(IntEnum):
    """What a plan does, for the scorer's action features."""

    DRAW = 0
    PICKUP = 1
    MELD = 2
    GO_OUT = 3
    DISCARD = 4
    KNOCK = 5
    YES = 6
    NO = 7
    OTHER = 8


@dataclass(frozen=True, slots=True)
class Plan:
    """A whole plan: its actions in order (stage cards, then the commit), what it does,
    and whether it is hard's own choice."""

    actions: tuple[int, ...]
    kind: PlanKind
    flagged: bool = False

    @property
    def last(self) -> int:
        """The committing action (the only one for a draw, discard or answer)."""
        return self.actions[-1]


class PlanBot(HardBot):
    """Hard's memory and planner, deciding by whole plans: at every decision it lists
    :func:`candidate_plans` and follows the one :meth:`pick` returns, staging it card by
    card as hard stages its own. This class picks the flagged plan, so it plays exactly
    like ``hard``; subclasses (the learned bot) pick by other means."""

    name = "hard-plans"

    def pick(self, view: PlayerView, plans: list[Plan]) -> int:
        """The index of the plan to follow (the flagged one, hard's, is index 0)."""
        return 0

    def _decide(self, view: PlayerView) -> int:
        if not is_decision(self, view):
            return super()._decide(view)
        plans = candidate_plans(self, view)
        plan = plans[self.pick(view, plans)]
        if len(plan.actions) > 1:
            self._key = (self._situation(view), plan.actions)
            self._queue = list(plan.actions[1:])
        return plan.actions[0]

    def answers_yes(self, view: PlayerView) -> bool:
        """Hard's answer to a partner's "May I go out?"."""
        return self._answer(view)

    def default_plan(self, view: PlayerView) -> list[int]:
        """Hard's own choice at a decision, with the side effects of hard's choosing: a
        plan whose first action is not legal is remembered as failed."""
        legal = view.legal_actions
        situation = self._situation(view)
        for plan in self._plan_iter(view):  # worked out one at a time, as hard does
            key = (situation, tuple(plan))
            if not plan or key in self._failed:
                continue
            if plan[0] in legal:
                return plan
            self._failed.add(key)
        return [self._discard_or_draw(view)]


def is_decision(bot: HardBot, view: PlayerView) -> bool:
    """Whether ``view`` is a free choice for ``bot``: not the rest of a plan being staged,
    not cards staged by a plan that failed, not picking up a Knee, and more than one legal
    action (answers included)."""
    legal = view.legal_actions
    if len(legal) <= 1 or mv.KNEE in legal:
        return False
    if view.phase == Phase.ANSWER:
        return True
    return view.phase in (Phase.DRAW, Phase.PLAY) and not view.staged and not bot._queue


def candidate_plans(bot: PlanBot, view: PlayerView) -> list[Plan]:
    """The plans open to ``bot`` at a decision (see :func:`is_decision`), hard's first.

    Exactly one plan is flagged, the first: the one :class:`~handfoot.bots.heuristic.HardBot` would
    choose with the bot's memory (working it out has hard's side effect of remembering
    plans whose first action is not legal). Every plan's first action is legal; later
    actions are legal as long as the planner's reading of the rules is right (hard's own
    plans too can fail at the commit; the bot then clears the staged cards, as hard does).
    Plans seen failing in the same situation are left out; plans are distinct.
    """
    legal = view.legal_actions
    if view.phase == Phase.ANSWER:
        want = mv.ANSWER_YES if bot.answers_yes(view) else mv.ANSWER_NO
        flag = want if want in legal else legal[0]
        out = [Plan((flag,), _kind(flag), True)]
        out.extend(Plan((a,), _kind(a)) for a in (mv.ANSWER_YES, mv.ANSWER_NO)
                   if a in legal and a != flag)
        return out
    legal_set = set(legal)
    default = bot.default_plan(view)
    out = [Plan(tuple(default), _kind(default[-1]), True)]
    seen = {tuple(default)}
    situation = bot._situation(view)

    def add(actions: list[int]) -> None:
        key = tuple(actions)
        if (actions and actions[0] in legal_set and key not in seen
                and (situation, key) not in bot._failed):
            seen.add(key)
            out.append(Plan(key, _kind(actions[-1])))

    for plan in bot._plans(view):
        add(plan)
    if view.phase == Phase.DRAW:
        if mv.DRAW in legal_set:
            add([mv.DRAW])
        for groups in _pickup_variants(view):
            add([*_stage_actions(groups), mv.PICKUP])
        return out
    for groups in _meld_variants(view):
        add([*_stage_actions(groups), mv.CONFIRM])
    for a in sorted(legal):
        if a == mv.KNOCK or mv.GO_OUT <= a < mv.STAGE_NATURAL:
            add([a])
    return out


def plan_groups(plan: Plan) -> list[MeldGroup]:
    """The meld groups a plan stages (in order), read back from its stage actions."""
    groups: list[MeldGroup] = []
    index: dict[tuple[int, int], int] = {}
    for a in plan.actions:
        if a < mv.STAGE_NATURAL or a >= mv.KNEE:
            continue
        move = mv.decode_action(a)
        assert isinstance(move, mv.Stage)
        kind, target, slot = move.kind, move.target, move.slot
        key = (target, slot)
        if key not in index:
            index[key] = len(groups)
            groups.append(MeldGroup(target, new=slot == 1))
        i = index[key]
        g = groups[i]
        if kind == cards.TWO:
            groups[i] = MeldGroup(g.target, g.naturals, g.twos + 1, g.jokers, g.new)
        elif kind == cards.JOKER:
            groups[i] = MeldGroup(g.target, g.naturals, g.twos, g.jokers + 1, g.new)
        else:
            groups[i] = MeldGroup(g.target, g.naturals + 1, g.twos, g.jokers, g.new)
    return groups


# --- the planner's variants ---------------------------------------------------------------

def _kind(last: int) -> PlanKind:
    if last == mv.DRAW:
        return PlanKind.DRAW
    if last == mv.PICKUP:
        return PlanKind.PICKUP
    if last == mv.CONFIRM:
        return PlanKind.MELD
    if mv.GO_OUT <= last < mv.DISCARD:
        return PlanKind.GO_OUT
    if mv.DISCARD <= last < mv.STAGE_NATURAL:
        return PlanKind.DISCARD
    if last == mv.KNOCK:
        return PlanKind.KNOCK
    if last == mv.ANSWER_YES:
        return PlanKind.YES
    if last == mv.ANSWER_NO:
        return PlanKind.NO
    return PlanKind.OTHER


def _pickup_variants(view: PlayerView) -> list[list[MeldGroup]]:
    """Pickup plans from every planner setting, whether or not hard would take the pile."""
    p = view.profile
    if view.discard_top is None:
        return []
    top = cards.FACE_KIND[view.discard_top]
    counts = cards.kind_counts(view.hand)
    if top not in RANKS or (p.pickup_needs_pair and counts[top] < 2):
        return []
    out: list[list[MeldGroup]] = []
    if p.pickup_existing_meld == PickupExistingMeld.COMPLETE_AND_START:
        groups = _complete_and_start(view, counts, top)
        if groups:
            out.append(groups)
    for greedy in (False, True):
        out.append(_build(view, counts, top_kind=top, greedy=greedy))
    out.append(_greedy_groups(view, counts, top_kind=top))
    return [g for g in out if g and _lays_top(view, g, top)]


def _meld_variants(view: PlayerView) -> list[list[MeldGroup]]:
    """Meld plans (no going out) from every planner setting, trimmed to leave the cards a
    seat keeps, as hard trims its own."""
    p = view.profile
    counts = cards.kind_counts(view.hand)
    in_last = view.in_foot[view.seat]
    total = len(view.hand)
    options: list[list[MeldGroup]] = [_greedy_groups(view, counts)]
    for greedy in (False, True):
        for hold in (0, 2):
            for hold_new in (False, True):
                if greedy and (hold or hold_new):
                    continue  # greedy plans ignore both
                options.append(_build(view, counts, greedy=greedy, hold=hold,
                                      hold_new=hold_new))
    out: list[list[MeldGroup]] = []
    for groups in options:
        groups = _within_hand(groups, total, in_last, p.min_cards_kept)
        if groups:
            out.append(groups)
    return out
