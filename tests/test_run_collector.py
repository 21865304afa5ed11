"""The collector while a run plays many games (runs/collector.py): tuned inside, restored
after, the same games either way."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from handfoot.game.loading import load_profile
from handfoot.runs import collector
from handfoot.runs.cluster import InlineRunner, ProcessRunner, run_tasks
from handfoot.runs.sim import SimulationStats, play_simulated_game, simulate


@pytest.fixture
def untuned() -> Iterator[None]:
    """CPython's own policy around each test (whatever an earlier test left), and after."""
    before = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


def _policy(_: int) -> tuple[tuple[int, int, int], bool]:
    """A task: the thresholds and whether something is frozen, where it runs."""
    return gc.get_threshold(), gc.get_freeze_count() > 0


def test_tuned_inside_and_restored_after(untuned: None) -> None:
    with collector.playing_games():
        assert gc.get_threshold() == collector.THRESHOLDS
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() == 0


def test_restored_after_an_error(untuned: None) -> None:
    with pytest.raises(RuntimeError), collector.playing_games():
        raise RuntimeError("a game failed")
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() == 0


def test_a_tuned_process_is_left_as_it_is(untuned: None) -> None:
    """Nested runs, or a server's own policy (web/collector.py): nothing changed, nothing
    unfrozen afterwards."""
    with collector.playing_games():
        frozen = gc.get_freeze_count()
        with collector.playing_games():
            assert gc.get_freeze_count() == frozen
        assert gc.get_threshold() == collector.THRESHOLDS
        assert gc.get_freeze_count() == frozen
    gc.freeze()
    gc.set_threshold(10_000, 10, 1_000)  # a serving process's
    frozen = gc.get_freeze_count()
    with collector.playing_games():
        assert gc.get_threshold() == (10_000, 10, 1_000)
    assert gc.get_freeze_count() == frozen
    assert gc.get_threshold() == (10_000, 10, 1_000)


def test_a_cycle_made_while_games_play_is_still_collected(untuned: None) -> None:
    class Node:
        def __init__(self) -> None:
            self.me = self

    with collector.playing_games():
        node = Node()
        del node
        assert gc.collect(0) >= 1  # a young collection finds it (the frozen are not walked)


@pytest.mark.parametrize("runner", [InlineRunner(), ProcessRunner(1)],
                         ids=["inline", "process"])
def test_the_runners_play_every_task_tuned(untuned: None, runner: object) -> None:
    results = run_tasks(_policy, [(i, (i,)) for i in range(3)], runner)  # type: ignore[arg-type]
    assert set(results.values()) == {(collector.THRESHOLDS, True)}
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() == 0


def test_the_same_games_with_and_without(untuned: None) -> None:
    profile = load_profile("partnership-13")
    names = ("hard",) * 4
    without = [play_simulated_game(profile, "2x2", names, 7, i, 2).summary for i in range(2)]
    with collector.playing_games():
        within = [play_simulated_game(profile, "2x2", names, 7, i, 2).summary
                  for i in range(2)]
    assert within == without
    expected = SimulationStats(profile.name, "2x2", names, 7)
    for summary in without:
        expected.add(summary)
    assert simulate(profile, 2, 7, bots=("hard",)) == expected  # under its runner's policy
