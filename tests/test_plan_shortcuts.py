"""The normal and hard bots' plans skip what cannot lay a card: where a hand holds no wild
and no rank with a meld that takes cards or with enough cards for a new meld
(``melds._nothing_to_lay``: most views after a meld), no build is worked out and no plan
is yielded. At every view of games of every profile, the claim is checked against the
builds themselves (careful with the bot's settings, greedy, the greedy groups: all
empty), and the plans are checked to be worked out without a build."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from checked_bots import play_checked
from handfoot.bots import heuristic
from handfoot.bots.heuristic import HardBot, NormalBot
from handfoot.bots.melds import _build, _currents, _greedy_groups, _kind_counts, _nothing_to_lay
from handfoot.game.loading import builtin_profile_names
from handfoot.game.values import Phase, PlayerView


class _Checked:
    """A mixin: at each view in the play with nothing to lay, the builds are empty and
    the plans are worked out without one."""

    checked = 0

    def _plan_iter(self, view: PlayerView) -> Iterator[list[int]]:
        counts = _kind_counts(view.hand)
        currents = _currents(view.melds[view.side], view)
        bare = (view.phase == Phase.PLAY and len(view.hand) >= 2
                and _nothing_to_lay(counts, currents, view.profile.min_meld_size))
        if not bare:
            yield from super()._plan_iter(view)  # type: ignore[misc]
            return
        bot: Any = self
        hold_new = bot.hold_new and view.opened[view.side] and len(view.hand) > bot.hold_new_above
        assert _build(view, counts, hold=bot.hold, hold_new=hold_new,
                      dirty_need=bot.dirty_need, currents=currents) == []
        assert _build(view, counts, greedy=True, currents=currents) == []
        assert _greedy_groups(view, counts, currents=currents) == []
        built: list[int] = []

        def counted(*args: Any, **kwargs: Any) -> Any:
            built.append(1)
            return _build(*args, **kwargs)

        with pytest.MonkeyPatch.context() as patch:  # (the plans' own name for it, counted)
            patch.setattr(heuristic, "_build", counted)
            plans = list(super()._plan_iter(view))  # type: ignore[misc]
        assert plans == [] and built == []
        type(self).checked += 1
        yield from plans


class _CheckedHard(_Checked, HardBot):
    checked = 0


class _CheckedNormal(_Checked, NormalBot):
    checked = 0


@pytest.mark.parametrize("name", builtin_profile_names())
@pytest.mark.parametrize("kind", [_CheckedHard, _CheckedNormal])
def test_a_hand_with_nothing_to_lay_plans_nothing_and_builds_nothing(
        name: str, kind: type[_Checked]) -> None:
    assert play_checked(kind, name, "bare") > 10
