"""Players that choose moves by themselves.

A bot sees only its own seat's :class:`~handfoot.engine.PlayerView` (never the state), so
it cannot read a hidden card, and answers with one integer action from
``view.legal_actions``.
"""

from __future__ import annotations

import random
from typing import Protocol

from handfoot import cards
from handfoot import moves as mv
from handfoot.cards import JOKER, RANKS, TWO
from handfoot.engine import Phase, PlayerView, TableMeld
from handfoot.moves import WILD_MELD, MeldGroup

__all__ = ["BOTS", "Bot", "EasyBot", "RandomBot", "make_bot"]


class Bot(Protocol):
    """Anything that picks a legal action from a seat's view."""

    name: str

    def choose(self, view: PlayerView) -> int:
        """One of ``view.legal_actions``."""
        ...


class RandomBot:
    """Uniform over the legal actions: the weakest player, and a fast source of games."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView) -> int:
        actions = view.legal_actions
        if not actions:
            raise ValueError(f"seat {view.seat + 1} has no legal action to choose from")
        return actions[self._rng.randrange(len(actions))]


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

    def choose(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat + 1} has no legal action to choose from")
        if view.phase == Phase.ANSWER:
            return mv.ANSWER_YES
        if mv.KNEE in legal:
            self._queue = []
            return mv.KNEE
        if self._queue:
            action = self._queue.pop(0)
            if action in legal:
                return action
            self._queue = []
            self._failed.add(self._situation(view))
        if view.staged:
            return mv.CLEAR if mv.CLEAR in legal else self._fallback(view)
        situation = self._situation(view)
        if situation not in self._failed:
            plan = self._plan(view)
            if plan:
                self._queue = plan
                return self.choose(view)
        return self._fallback(view)

    @staticmethod
    def _situation(view: PlayerView) -> tuple[object, ...]:
        return (view.round_number, view.phase, view.stock_size, view.discard_size,
                len(view.hand), sum(len(m) for m in view.melds))

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
        counts = cards.kind_counts(view.hand)
        p = view.profile
        if view.phase == Phase.DRAW:
            if view.discard_top is None:
                return []
            top = cards.FACE_KIND[view.discard_top]
            if top not in RANKS or counts[top] < 2:
                return []
            groups = _greedy_groups(view, counts, top_kind=top)
            if not groups:
                return []
            return [*_stage_actions(groups), mv.PICKUP]
        groups = _greedy_groups(view, counts)
        used = sum(g.size for g in groups)
        in_last = view.in_foot[view.seat]
        left = len(view.hand) - used
        if in_last and left <= 1:
            if left == 0 and p.final_discard != "required":
                return [*_stage_actions(groups), mv.GO_OUT]
            if left == 1 and p.final_discard != "forbidden":
                rest = [k for k in range(cards.RED_THREE)
                        if counts[k] - sum(c for kk, c in _group_kinds(groups) if kk == k) > 0]
                if rest:
                    return [*_stage_actions(groups), mv.GO_OUT_DISCARD + rest[0]]
        if not groups:
            return []
        if in_last:
            groups = _trim_to_keep(groups, len(view.hand) - (p.min_cards_kept + 1))
            if not groups:
                return []
        return [*_stage_actions(groups), mv.CONFIRM]


def _group_kinds(groups: list[MeldGroup]) -> list[tuple[int, int]]:
    return [kc for g in groups for kc in g.kind_counts()]


def _current(melds: tuple[TableMeld, ...], target: int, view: PlayerView) -> TableMeld | None:
    p = view.profile
    cap = p.book_size if target == WILD_MELD else (p.book_max or 1 << 30)
    for m in reversed(melds):
        if m.target == target:
            return m if m.size < cap else None
    return None


def _greedy_groups(view: PlayerView, counts: list[int], top_kind: int | None = None,
                   ) -> list[MeldGroup]:
    """Every natural that can go down, wilds where they add value, if the opening allows."""
    p = view.profile
    own = view.melds[view.side]
    cap = p.book_max or 1 << 30
    wild_left = [counts[TWO], counts[JOKER]]
    groups: list[list[int]] = []  # [target, naturals, twos, jokers, existing size/naturals/wilds]
    for r in RANKS:
        n = counts[r] + (1 if top_kind == r else 0)
        if not n:
            continue
        cur = _current(own, r, view)
        if cur is not None:
            k = min(n, cap - cur.size)
            if k > 0:
                groups.append([r, k, 0, 0, cur.naturals, cur.wilds])
        elif n >= p.min_meld_size and (p.new_meld_after_book
                                       or all(m.target != r for m in own)):
            groups.append([r, min(n, cap), 0, 0, 0, 0])
    # wilds: onto melds where the ratio allows, most valuable first
    for wi, _w in ((1, JOKER), (0, TWO)):
        for g in sorted(groups, key=lambda g: -(g[4] + g[1])):
            while wild_left[wi] > 0:
                nat = g[4] + g[1]
                wilds = g[5] + g[2] + g[3] + 1
                size = nat + wilds
                if size > cap or not p.wilds_allowed(nat, wilds, g[0]):
                    break
                if g[4] == 0 and nat < p.min_meld_size - 1 and nat + wilds < p.min_meld_size:
                    break
                g[2 + wi] += 1
                wild_left[wi] -= 1
    out = [MeldGroup(g[0], g[1] - (1 if top_kind == g[0] else 0), g[2], g[3]) for g in groups]
    out = [g for g in out if g.size > 0 or g.target == top_kind]
    if p.all_wild_melds and (p.wild_meld_opens or view.opened[view.side]):
        cur = _current(own, WILD_MELD, view)
        spare = wild_left[0] + wild_left[1]
        if (cur is not None and spare) or spare >= p.min_meld_size:
            room = p.book_size - (cur.size if cur else 0)
            tw = min(wild_left[0], room)
            jk = min(wild_left[1], room - tw)
            out.append(MeldGroup(WILD_MELD, 0, tw, jk))
    if top_kind is not None and not any(g.target == top_kind for g in out):
        return []
    if not view.opened[view.side]:
        values = p.kind_values
        value = sum(values[k] * c for g in out for k, c in g.kind_counts())
        if top_kind is not None:
            value += values[top_kind]
        if value < view.opening_minimum:
            return []
    return out


def _trim_to_keep(groups: list[MeldGroup], budget: int) -> list[MeldGroup]:
    """Drop groups from the end until at most ``budget`` cards are used."""
    out = list(groups)
    while out and sum(g.size for g in out) > budget:
        out.pop()
    return out


def _stage_actions(groups: list[MeldGroup]) -> list[int]:
    actions: list[int] = []
    seen: set[int] = set()
    for g in groups:
        slot = 1 if g.target in seen else 0
        seen.add(g.target)
        for kind, count in g.kind_counts():
            actions.extend([mv.encode_stage(kind, g.target, slot)] * count)
    return actions


BOTS: dict[str, type[RandomBot] | type[EasyBot]] = {"random": RandomBot, "easy": EasyBot}
"""Bot levels by name."""


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot of the named level (``random``), seeded for reproducible play."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}") from None
