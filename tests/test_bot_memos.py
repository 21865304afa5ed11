"""What the normal and hard bots work out once per view and share (the hand's counts by
kind, read by the plans, the discard and the hard bot's count of unseen cards): at every
view of games of every profile, what the readers were given is what a fresh working-out
of that view gives, after every reader has read it (none may change it)."""

from __future__ import annotations

import pytest

from checked_bots import play_checked
from handfoot.bots.heuristic import HardBot, NormalBot
from handfoot.bots.melds import _kind_counts
from handfoot.game.loading import builtin_profile_names
from handfoot.game.values import PlayerView


class _Checked:
    """A mixin: after each choice, the memoised counts are still the fresh counts."""

    checked = 0

    def _chosen(self, view: PlayerView, action: int) -> None:
        super()._chosen(view, action)  # type: ignore[misc]
        memo = self._counts_memo  # type: ignore[attr-defined]
        if memo is not None:
            assert memo[0] is view
            assert memo[1] == _kind_counts(view.hand)
            type(self).checked += 1


class _CheckedHard(_Checked, HardBot):
    checked = 0


class _CheckedNormal(_Checked, NormalBot):
    checked = 0


@pytest.mark.parametrize("name", builtin_profile_names())
@pytest.mark.parametrize("kind", [_CheckedHard, _CheckedNormal])
def test_the_counts_a_view_shares_are_its_hands(name: str, kind: type[_Checked]) -> None:
    assert play_checked(kind, name, "memo") > 50
