"""Candidate plans: hard's choice flagged (taking it plays exactly like hard), every plan
legal, every kind of decision covered."""

from __future__ import annotations

import pytest

from handfoot.bots.heuristic import HardBot
from handfoot.bots.plans import Plan, PlanBot, PlanKind, plan_groups
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.values import Phase


def _actions(cls: type[HardBot], profile: str, seed: int) -> list[int]:
    state = GameState.new(load_profile(profile), seed=seed)
    bots = [cls(seed * 10 + s) for s in range(state.players)]
    out = []
    while not state.is_over:
        action = bots[state.to_act].choose(state.view(state.to_act))
        out.append(action)
        state.apply_action(action)
    return out


@pytest.mark.parametrize("profile", builtin_profile_names())
def test_always_taking_the_flagged_plan_plays_exactly_like_hard(profile: str) -> None:
    for seed in (1, 2):
        hard = _actions(HardBot, profile, seed)
        assert _actions(PlanBot, profile, seed) == hard  # full games, move for move


class _Probe(PlanBot):
    """Plays as hard; at each decision, keeps the state and the plans listed."""

    def __init__(self, seed: int, state: GameState, seen: list[tuple[GameState, list[Plan]]],
                 ) -> None:
        super().__init__(seed)
        self.state = state
        self.seen = seen

    def pick(self, view: object, plans: list[Plan]) -> int:
        self.seen.append((self.state.copy(), plans))
        return 0


def _decisions(profile: str, seed: int) -> list[tuple[GameState, list[Plan]]]:
    state = GameState.new(load_profile(profile), seed=seed)
    seen: list[tuple[GameState, list[Plan]]] = []
    bots = [_Probe(seed + s, state, seen) for s in range(state.players)]
    while not state.is_over:
        state.apply_action(bots[state.to_act].choose(state.view(state.to_act)))
    return seen


@pytest.mark.parametrize("profile", ["partnership-13", "biegames", "hand-knee-foot"])
def test_plans_are_legal_distinct_and_cover_every_kind_of_decision(profile: str) -> None:
    decisions = _decisions(profile, 3)
    kinds: set[PlanKind] = set()
    tried = failed = 0
    for state, plans in decisions:
        assert [p.flagged for p in plans] == [True] + [False] * (len(plans) - 1)
        assert len({p.actions for p in plans}) == len(plans)
        legal = state.legal_actions()
        for plan in plans:
            kinds.add(plan.kind)
            assert plan.actions[0] in legal
            trial = state.copy()
            tried += not plan.flagged
            for a in plan.actions:
                if a not in trial.legal_actions():
                    # the planner misread the rules; hard's own plans fail too (on
                    # hand-knee-foot more often than the others: about 1 meld plan in 6)
                    failed += not plan.flagged
                    break
                trial.apply_action(a)
            else:
                if plan.kind in (PlanKind.MELD, PlanKind.PICKUP):
                    # the groups read back from the plan are what was laid
                    assert sum(g.size for g in plan_groups(plan)) == sum(
                        1 for a in plan.actions if a >= mv.STAGE_NATURAL)
    assert failed <= 0.05 * tried, (failed, tried)
    want = {PlanKind.DRAW, PlanKind.MELD, PlanKind.DISCARD}
    assert want <= kinds
    if profile != "hand-knee-foot":
        assert PlanKind.PICKUP in kinds


def test_answers_and_going_out_are_plans() -> None:
    kinds: set[PlanKind] = set()
    for seed in range(1, 6):
        for state, plans in _decisions("partnership-13", seed):
            kinds.update(p.kind for p in plans)
            if state.phase == Phase.ANSWER:
                assert {p.last for p in plans} == {mv.ANSWER_YES, mv.ANSWER_NO}
    assert {PlanKind.GO_OUT, PlanKind.YES, PlanKind.NO} <= kinds


def test_a_decision_offers_more_than_hard_s_plan() -> None:
    decisions = _decisions("biegames", 4)
    play = [plans for state, plans in decisions if state.phase == Phase.PLAY]
    assert play and sum(len(p) > 1 for p in play) > 0.8 * len(play)
    # no meld: every legal discard is a plan of its own
    state, plans = next((s, p) for s, p in decisions if s.phase == Phase.PLAY)
    discards = {a for a in state.legal_actions() if mv.DISCARD <= a < mv.STAGE_NATURAL}
    assert discards <= {p.last for p in plans if len(p.actions) == 1}
