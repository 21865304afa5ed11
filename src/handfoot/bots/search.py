"""The ``expert`` bot: determinized Monte-Carlo search over a seat's view.

At a decision that swings a round (with the default ``scope="go-out"``: any decision at
which a plan goes out, where going out now or playing on is worth measuring; ``"key"`` adds
drawing or taking the pile whenever a pickup is possible; ``"all"`` adds every meld and
discard decision) :class:`ExpertBot` lists candidate moves (the plans
:class:`~handfoot.bots.heuristic.HardBot` would consider, drawing, taking the pile, going out, the
discards hard would most gladly make), then repeatedly

1. builds a full :class:`~handfoot.game.engine.GameState` consistent with everything its seat
   has seen (:func:`determinize`: its own cards, the table, every packet's size, the
   discard top and what it remembers of the pile; the unseen cards shuffled into the
   other hands, feet, knees, the rest of the pile and the stock), and
2. plays every candidate on a copy of it, then the rest of the round (or ``horizon``
   turns) with hard bots in every seat, playing the ``learned`` level's style for the game
   (:func:`handfoot.bots.styles.find_style`) as the expert itself does, scoring its
   side's round score minus the best other side's.

Why only going out by default: ``benchmarks/search_gain.py`` measured that, even with many
more samples than a second allows, searching pickups and melds gains nothing over hard's
own choice (and on partnership-13 loses points), while searching whether to go out gains.

All candidates share each sample (common random numbers). It keeps the hard bot's own
choice unless another candidate is better by more than ``z`` standard errors of the
paired difference. Trivial decisions (one choice, answering, staging the rest of a chosen
plan, picking up a Knee) are the hard bot's.

The bot sees only views: the determinization reads nothing but a
:class:`~handfoot.game.values.PlayerView` and the bot's own memory of the pile.

Construct it directly, ``ExpertBot(seed, time_budget=0.5)``, or by name
(``make_bot("expert", seed)``). The environment variable ``HANDFOOT_EXPERT_BUDGET``
(seconds) changes the default time budget, e.g. for tournaments in other processes.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Sequence
from dataclasses import replace

from handfoot.bots.heuristic import HardBot
from handfoot.bots.styles import Style, apply_shipped_style, view_layout
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.rules import Layout
from handfoot.game.values import Phase, PlayerView

__all__ = ["DEFAULT_BUDGET", "SCOPES", "UNPLAYABLE", "ExpertBot", "determinize",
           "pick_candidate", "state_from_view", "unseen_faces"]

DEFAULT_BUDGET = float(os.environ.get("HANDFOOT_EXPERT_BUDGET", "0.5"))
"""Seconds per searched decision (``HANDFOOT_EXPERT_BUDGET`` overrides)."""

_RED3 = cards.RED_THREE

UNPLAYABLE = -1e9
"""A play-out's value when its plan cannot be played in the sample."""

SCOPES = ("go-out", "key", "all")
"""Which decisions :class:`ExpertBot` searches, narrowest first."""


def unseen_faces(view: PlayerView) -> list[int]:
    """The shoe minus every card the seat can see (as faces, sorted).

    Seen: its own hand, every meld and red 3 on the table, and the discard top. Raises
    ``ValueError`` if the view shows a card the shoe lacks.
    """
    p = view.profile
    counts = cards.face_counts(cards.build_shoe(p.decks(view.players), p.jokers_per_deck))
    seen: list[int] = list(view.hand)
    for melds in view.melds:
        for m in melds:
            seen.extend(m.faces)
    for reds in view.red_threes:
        seen.extend(reds)
    if view.discard_top is not None:
        seen.append(view.discard_top)
    for f in seen:
        if counts[f] <= 0:
            raise ValueError(f"the view shows more {cards.face_name(f)} than the shoe holds")
        counts[f] -= 1
    return cards.faces_from_counts(counts)


def state_from_view(view: PlayerView, *, hands: Sequence[Sequence[int]],
                    feet: Sequence[Sequence[int]], knees: Sequence[Sequence[int]],
                    pile: Sequence[int], stock: Sequence[int],
                    picked_pile: bool = False, seed: int = 0) -> GameState:
    """A state with the view's public fields and the given hidden packets.

    ``hands[view.seat]`` must be the view's hand; ``pile`` is bottom first (its last card
    the view's discard top); ``stock`` is top first. Hidden engine flags the view does not
    show are guessed: a seat has played from its Foot and finished a turn in it once it
    holds its Foot; no side holds a standing permission to go out. ``picked_pile`` says
    whether the seat to act took the pile this turn.

    The position starts from a fresh game of the same seed (its deal, dealer and seed
    deal any later round) with the view's public fields and the given packets.
    """
    p = view.profile
    layout = Layout(view.sides, view.players // view.sides)
    fresh = GameState.new(p, layout=layout, seed=seed)
    n = view.players
    pos = replace(
        fresh.position(),
        round_number=view.round_number, totals=tuple(view.totals), results=tuple(view.results),
        hands=tuple(tuple(hands[s]) for s in range(n)), feet=tuple(map(tuple, feet)),
        knees=tuple(map(tuple, knees)), foot_picked=tuple(view.in_foot),
        foot_played=tuple(view.in_foot), foot_turn_done=tuple(view.in_foot),
        melds=view.melds, red_threes=view.red_threes, opened=view.opened,
        permission=(False,) * view.sides, refused=False, pending=None, pending_answerers=(),
        picked_pile=picked_pile, stock=tuple(stock), pile=tuple(pile), turn=view.turn,
        to_act=view.to_act, phase=view.phase, undo_stack=(), staged=(),
        stalled_turns=view.stalled_turns)
    return GameState.from_position(pos)


def determinize(view: PlayerView, rng: random.Random,
                pile_known: Sequence[int | None] = (), *,
                picked_pile: bool = False) -> GameState:
    """A full state consistent with ``view``: the unseen cards dealt at random.

    ``pile_known`` is the seat's memory of the pile, bottom first, as card kinds
    (``None`` where unknown; aligned with the top when lengths differ): a remembered
    position gets a random unseen card of that kind when one is left. Hands and the pile
    get no red 3s (they are laid at once, never discarded); every other unseen card,
    red 3s included, is equally likely in any hidden place. Only ``view``,
    ``pile_known`` and ``rng`` are read, so two states with the same view give the same
    determinization for the same ``rng`` seed.
    """
    n = view.players
    pool = unseen_faces(view)
    by_kind: dict[int, list[int]] = {}
    rng.shuffle(pool)
    for f in pool:
        by_kind.setdefault(cards.FACE_KIND[f], []).append(f)
    taken: set[int] = set()  # indices into pool
    index: dict[int, list[int]] = {}
    for i, f in enumerate(pool):
        index.setdefault(cards.FACE_KIND[f], []).append(i)
    below = max(0, view.discard_size - 1)
    memory: list[int | None] = (
        list(pile_known)[-view.discard_size:] if view.discard_size else [])
    pad: list[int | None] = [None] * (view.discard_size - len(memory))
    memory = pad + memory
    pile_fixed: list[int | None] = [None] * below
    for pos in range(below):
        kind = memory[pos]
        if kind is None or kind == _RED3:
            continue
        free = index.get(kind, [])
        while free and free[-1] in taken:
            free.pop()
        if free:
            i = free.pop()
            taken.add(i)
            pile_fixed[pos] = pool[i]
    rest = [f for i, f in enumerate(pool) if i not in taken]
    plain = [f for f in rest if cards.FACE_KIND[f] != _RED3]
    reds = [f for f in rest if cards.FACE_KIND[f] == _RED3]
    hands: list[list[int]] = []
    pos = 0
    for s in range(n):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        k = view.hand_counts[s]
        hands.append(plain[pos:pos + k])
        pos += k
    pile: list[int] = []
    for slot in pile_fixed:
        if slot is None:
            pile.append(plain[pos])
            pos += 1
        else:
            pile.append(slot)
    if view.discard_top is not None:
        pile.append(view.discard_top)
    if pos > len(plain):
        raise ValueError("too few unseen cards for the hidden hands and pile")
    others = plain[pos:] + reds
    rng.shuffle(others)
    pos = 0
    feet: list[list[int]] = []
    knees: list[list[int]] = []
    for s in range(n):
        k = view.foot_counts[s]
        feet.append(others[pos:pos + k])
        pos += k
    for s in range(n):
        k = view.knee_counts[s]
        knees.append(others[pos:pos + k])
        pos += k
    stock = others[pos:]
    if len(stock) != view.stock_size:
        raise ValueError(f"the unseen cards do not fit the view: {len(stock)} left for a "
                         f"stock of {view.stock_size}")
    return state_from_view(view, hands=hands, feet=feet, knees=knees, pile=pile,
                           stock=stock, picked_pile=picked_pile)


def _margin(state: GameState, side: int) -> float:
    """This side's score for the round as it stands, minus the best other side's."""
    scores = [state.score_side(s).total for s in range(state.sides)]
    return float(scores[side] - max(v for s, v in enumerate(scores) if s != side))


class ExpertBot(HardBot):
    """Determinized Monte-Carlo search over the hard bot's candidate moves.

    Its own play and every seat of its play-outs use the ``learned`` level's style for the
    game (:func:`handfoot.bots.styles.find_style`, looked up at its first view; hard's own
    settings where there is none); ``style`` plays a given one, ``shipped=False`` none.

    ``time_budget`` caps the seconds spent on one decision; ``iterations`` caps the
    samples (determinizations; each is played out once per candidate) and, given alone
    (``time_budget=None``), makes play reproducible for a seed. ``horizon`` ends a
    playout after that many turns and scores the round as it stands (``None``: to the
    end of the round). ``z`` is how many standard errors a candidate must beat the hard
    bot's choice by to replace it. ``max_discards`` limits the discards tried to those the
    hard bot would most gladly throw (``None``: every legal discard). ``scope`` says which
    decisions are searched: ``"go-out"`` (a plan could go out), ``"key"`` (those and pickups)
    or ``"all"``.
    """

    name = "expert"

    def __init__(self, seed: int | None = None, *, time_budget: float | None = DEFAULT_BUDGET,
                 iterations: int | None = None, horizon: int | None = None,
                 z: float = 1.0, min_iterations: int = 2, max_discards: int | None = 4,
                 scope: str = "go-out", style: Style | None = None,
                 shipped: bool = True) -> None:
        super().__init__(seed)
        self.style = style
        """The style of its own play and of every seat in its play-outs (``None``: hard's
        settings)."""
        self._styled = style is not None or not shipped
        if style is not None:
            style.apply(self)
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {', '.join(map(repr, SCOPES))}, "
                             f"not {scope!r}")
        self.scope = scope
        if time_budget is None and iterations is None:
            raise ValueError("give a time budget, an iteration cap, or both")
        self.time_budget = time_budget
        self.iterations = iterations
        self.horizon = horizon
        self.z = z
        self.min_iterations = min_iterations
        self.max_discards = max_discards
        self._search_rng = random.Random(seed)
        self.searched = 0
        """Decisions decided by search (for measurements)."""
        self.samples = 0
        """Samples played, over all searches."""

    def _observe(self, view: PlayerView) -> None:
        if not self._styled:  # the first view: the learned level's style for the game
            self._styled = True
            self.style = apply_shipped_style(self, view.profile, view_layout(view))
        super()._observe(view)

    # -- which decisions are searched -------------------------------------------------------

    def _decide(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if (view.phase not in (Phase.DRAW, Phase.PLAY) or view.staged or self._queue
                or mv.KNEE in legal or len(legal) == 1):
            return super()._decide(view)
        if self.scope == "go-out" and view.phase == Phase.DRAW:
            return super()._decide(view)
        candidates = self._candidates(view)
        if self.scope != "all" and view.phase == Phase.PLAY and not any(
                mv.GO_OUT <= plan[-1] < mv.DISCARD for plan in candidates):
            return super()._decide(view)
        if len(candidates) <= 1:
            return super()._decide(view)
        best = self._search(view, candidates)
        plan = candidates[best]
        if len(plan) > 1:
            self._key = (self._situation(view), tuple(plan))
            self._queue = list(plan[1:])
        return plan[0]

    def _candidates(self, view: PlayerView) -> list[list[int]]:
        """Whole plans (action sequences); the hard bot's own choice first."""
        legal = set(view.legal_actions)
        situation = self._situation(view)
        plans: list[list[int]] = []
        for plan in self._plans(view):
            if plan and plan[0] in legal and (situation, tuple(plan)) not in self._failed:
                plans.append(plan)
        default = plans[0] if plans else [self._discard_or_draw(view)]
        out = [default]
        seen = {tuple(default)}

        def add(plan: list[int]) -> None:
            if tuple(plan) not in seen:
                seen.add(tuple(plan))
                out.append(plan)

        for plan in plans[1:]:
            add(plan)
        # No bare pickup: a pile is taken only as the hard bot plans it, laying the top card
        # (a bare pickup is legal only where the top card joins the hand, and taking it to
        # throw it back is how rounds stall: docs/profiles.md, "Every round ends").
        for a in (mv.DRAW, mv.KNOCK):
            if a in legal:
                add([a])
        for a in sorted(legal):
            if mv.GO_OUT <= a < mv.DISCARD:
                add([a])
        kinds = [a - mv.DISCARD for a in legal if mv.DISCARD <= a < mv.STAGE_NATURAL]
        if kinds:
            counts = cards.kind_counts(view.hand)
            kinds.sort(key=lambda k: (self._keep_score(view, counts, k), k))
            for k in kinds[:self.max_discards]:
                add([mv.DISCARD + k])
        return out

    # -- the search ---------------------------------------------------------------------------

    def _search(self, view: PlayerView, candidates: list[list[int]]) -> int:
        start = time.perf_counter()
        rng = random.Random(self._search_rng.getrandbits(64))
        known = list(self._pile)
        picked = mv.KNOCK in view.legal_actions
        results: list[list[float]] = [[] for _ in candidates]
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if (self.time_budget is not None and done >= self.min_iterations
                    and time.perf_counter() - start >= self.time_budget):
                break
            try:
                base = determinize(view, rng, known, picked_pile=picked)
            except ValueError:
                base = determinize(view, rng, (), picked_pile=picked)
            bot_seed = rng.getrandbits(32)
            for c, plan in enumerate(candidates):
                results[c].append(self._playout(base.copy(), view, plan, bot_seed))
            done += 1
            if (self.time_budget is not None and done >= self.min_iterations
                    and time.perf_counter() - start >= self.time_budget):
                break
        self.searched += 1
        self.samples += done
        return pick_candidate(results, self.z)

    def _playout(self, state: GameState, view: PlayerView, plan: list[int],
                 bot_seed: int) -> float:
        side = view.side
        number = state.round_number
        for a in plan:
            if state.phase == Phase.GAME_OVER or state.round_number != number:
                break
            if a not in state.legal_actions():
                return UNPLAYABLE  # never in a consistent sample
            state.apply_action(a)
        bots = [HardBot(bot_seed + s) for s in range(state.players)]
        if self.style is not None:
            for bot in bots:
                self.style.apply(bot)
        turns = 0
        last_seat = state.seat
        steps = 0
        while state.phase != Phase.GAME_OVER and state.round_number == number:
            if state.seat != last_seat:
                last_seat = state.seat
                turns += 1
                if self.horizon is not None and turns >= self.horizon:
                    return _margin(state, side)
            seat = state.actor
            state.apply_action(bots[seat].choose(state.view(seat)))
            steps += 1
            if steps > 5000:
                break
        if state.round_number != number or state.phase == Phase.GAME_OVER:
            res = state.results[number - 1] if len(state.results) >= number else None
            if res is not None:
                scores = [s.total for s in res.scores]
                return float(scores[side] - max(v for s, v in enumerate(scores) if s != side))
        return _margin(state, side)


def pick_candidate(results: list[list[float]], z: float) -> int:
    """The best candidate by mean, if it beats candidate 0 by ``z`` paired std errors."""
    means = [sum(r) / len(r) if r else -math.inf for r in results]
    best = max(range(len(results)), key=lambda c: (means[c], -c))
    if best == 0:
        return 0
    diffs = [a - b for a, b in zip(results[best], results[0], strict=True)]
    k = len(diffs)
    mean = sum(diffs) / k
    if k < 2:
        return best if z <= 0 and mean > 0 else 0
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    se = math.sqrt(var / k)
    return best if mean > z * se else 0
