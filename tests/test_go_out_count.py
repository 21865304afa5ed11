"""The bots' judgement of going out (``melds._may_go_out``, counted in one pass) is the
engine's rule spelled out: ``not missing_books(count_books(_table_after(...)))``. At
every view of games of every profile in the play, it is asked of the plans the bots
work out (the greedy build and groups, the careful build, each group alone, none) and
of groups that finish or start melds of every target."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from checked_bots import play_checked
from handfoot.bots.heuristic import HardBot
from handfoot.bots.melds import (
    _build,
    _currents,
    _greedy_groups,
    _kind_counts,
    _may_go_out,
    _table_after,
)
from handfoot.game import moves as mv
from handfoot.game.loading import builtin_profile_names
from handfoot.game.table import count_books, missing_books
from handfoot.game.values import Phase, PlayerView


def _reference(view: PlayerView, groups: list[mv.MeldGroup]) -> bool:
    p = view.profile
    return not missing_books(p, count_books(p, _table_after(view, groups)))


class _Checked(HardBot):
    checked = 0
    ready = 0

    def _plan_iter(self, view: PlayerView) -> Iterator[list[int]]:
        if view.phase == Phase.PLAY:
            counts = _kind_counts(view.hand)
            currents = _currents(view.melds[view.side], view)
            plans = [_build(view, counts, greedy=True, currents=currents),
                     _build(view, counts, currents=currents),
                     _greedy_groups(view, counts, currents=currents), []]
            plans += [[g] for g in plans[0]]
            bs = view.profile.book_size
            plans += [[mv.MeldGroup(t, bs, 0, 0)] for t in range(mv.WILD_MELD)]
            plans += [[mv.MeldGroup(t, 1, 1, 0)] for t in range(mv.WILD_MELD)]
            plans.append([mv.MeldGroup(mv.WILD_MELD, 0, 2, bs - 2)])
            plans.append([mv.MeldGroup(t, bs - 1, 1, 0) for t in range(mv.WILD_MELD)])
            for groups in plans:
                want = _reference(view, groups)
                assert _may_go_out(view, groups) is want, (view.melds[view.side], groups)
                type(self).ready += want
            type(self).checked += 1
        yield from super()._plan_iter(view)


@pytest.mark.parametrize("name", builtin_profile_names())
def test_going_out_is_judged_as_the_engines_rule_counts_books(name: str) -> None:
    assert play_checked(_Checked, name, "go-out") > 50
    assert _Checked.ready > 0  # (some plans do go out)
