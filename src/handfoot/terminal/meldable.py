"""What a seat can actually meld now, for the terminal's ``legal``: each candidate meld is
asked of the engine's own check (``is_legal``), so a rank is listed only when some meld
holding it would be accepted, never because one card of it could be staged.

The candidates are the melds a person would try: for each rank held, its naturals (all of
them down to one) with none, some or all of the wild cards held; beside a book, a new meld
of the rank where the rules allow one; wild cards alone onto each meld and as an all-wild
meld. A side that has not opened tries each such meld with its other ranks' natural melds
(the highest first) until the opening's minimum is met: whatever opening is found, each rank
in it is listed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import JOKER, RANKS, TWO
from handfoot.game.moves import WILD_MELD, MeldGroup
from handfoot.game.values import Phase, PlayerView

__all__ = ["Meldable", "meldable"]


@dataclass(frozen=True, slots=True)
class Meldable:
    """What can be melded now: ranks whose naturals can go into a meld, ranks whose melds
    can take a wild card, and whether wild cards alone can make a meld."""

    ranks: tuple[int, ...] = ()
    wilds_onto: tuple[int, ...] = ()
    all_wild: bool = False


def _wild_splits(wilds: int, twos: int, jokers: int) -> list[tuple[int, int]]:
    """Ways to give ``wilds`` wild cards from those held: twos first, or jokers first."""
    out = []
    for t in (min(wilds, twos), wilds - min(wilds, jokers)):
        j = wilds - t
        if 0 <= t <= twos and 0 <= j <= jokers and (t, j) not in out:
            out.append((t, j))
    return out


def meldable(view: PlayerView, is_legal: Callable[[mv.Move], bool]) -> Meldable:
    """What the seat of ``view`` (the seat to act, in its play phase) can meld now, each
    answer a meld the engine's ``is_legal`` accepts."""
    if view.phase != Phase.PLAY or view.to_act != view.seat:
        return Meldable()
    counts = cards.kind_counts(view.hand)
    twos, jokers = counts[TWO], counts[JOKER]
    wild_total = twos + jokers
    side = view.side
    on_table = {m.target for m in view.melds[side]}
    values = view.profile.kind_values
    ranks: set[int] = set()
    onto: set[int] = set()
    all_wild = False

    def groups_of(rank: int) -> Iterator[MeldGroup]:
        """The melds to try for a rank, the likeliest first."""
        news = (False, True) if rank in on_table else (False,)
        for n in range(counts[rank], -1, -1):
            for w in range(0, wild_total + 1):
                if n == 0 and (w == 0 or rank not in on_table):
                    continue
                for t, j in _wild_splits(w, twos, jokers):
                    for new in news:
                        yield MeldGroup(rank, n, t, j, new)

    def record(groups: tuple[MeldGroup, ...]) -> None:
        nonlocal all_wild
        for g in groups:
            if g.target == WILD_MELD:
                all_wild = True
                continue
            if g.naturals:
                ranks.add(g.target)
            if g.twos or g.jokers:
                onto.add(g.target)

    def accepted(groups: tuple[MeldGroup, ...]) -> bool:
        if is_legal(mv.Meld(groups)):
            record(groups)
            return True
        return False

    least = view.profile.min_meld_size
    by_points = sorted((r for r in RANKS if counts[r] and r not in on_table),
                       key=lambda r: -values[r] * counts[r])
    opened = view.opened[side]

    def extras(group: MeldGroup, boost: bool) -> list[MeldGroup]:
        """What an opening adds to ``group``: the other ranks' natural melds, most points
        first, then their pairs made up to a meld with the wild cards ``group`` leaves;
        with ``boost``, the wild cards still left go one each onto those natural melds."""
        out = [MeldGroup(r, counts[r]) for r in by_points
               if counts[r] >= least and r != group.target]
        t_left, j_left = twos - group.twos, jokers - group.jokers
        for r in by_points:
            need = least - counts[r]
            if r == group.target or counts[r] < 2 or need <= 0 or need > t_left + j_left:
                continue
            t = min(need, t_left)
            out.append(MeldGroup(r, counts[r], t, need - t))
            t_left, j_left = t_left - t, j_left - (need - t)
        if boost:
            for i, g in enumerate(out):
                if t_left + j_left == 0:
                    break
                if not (g.twos or g.jokers):
                    t = int(t_left > 0)
                    out[i] = MeldGroup(g.target, g.naturals, t, 1 - t)
                    t_left, j_left = t_left - t, j_left - (1 - t)
        return out

    def try_group(group: MeldGroup) -> bool:
        if accepted((group,)):
            return True
        if opened:
            return False
        for boost in (False, True):
            others = extras(group, boost)
            if any(accepted((group, *others[:k])) for k in range(1, len(others) + 1)) or \
                    any(accepted((group, other)) for other in others[1:]):
                return True
        return False

    for rank in sorted(RANKS, key=lambda r: -r):
        wanted = (counts[rank] > 0 and rank not in ranks) or (wild_total and rank in on_table
                                                             and rank not in onto)
        if not wanted:
            continue
        for group in groups_of(rank):
            if (group.naturals == 0 or rank in ranks) and (
                    not (group.twos or group.jokers) or rank in onto):
                continue  # nothing this meld would add to the listing
            try_group(group)
            if rank in ranks and (rank in onto or not wild_total or rank in view.profile
                                  .wild_free_ranks):
                break
    fewest = 1 if WILD_MELD in on_table else least
    if wild_total >= fewest:
        for w in range(wild_total, fewest - 1, -1):
            if any(try_group(MeldGroup(WILD_MELD, 0, t, j))
                   for t, j in _wild_splits(w, twos, jokers)):
                break
    return Meldable(tuple(sorted(ranks)), tuple(sorted(onto)), all_wild)
