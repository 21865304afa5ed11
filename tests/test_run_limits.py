"""A run's tasks are made as they are played (issue 27, item 3): a simulation or tournament
of a million games starts at once and, interrupted, has used no more memory than a small
one; the process pool keeps only a few chunks in flight."""

from __future__ import annotations

import itertools
import tracemalloc
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from handfoot.game.loading import load_profile
from handfoot.runs import sim, tournament
from handfoot.runs.cluster import (
    IN_FLIGHT,
    MAX_CHUNK,
    InlineRunner,
    ProcessRunner,
    Results,
    Task,
    TaskList,
    run_tasks,
)

MILLION = 1_000_000


class StopAfter(InlineRunner):
    """Plays ``n`` tasks, then is interrupted (Ctrl-C)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def run(self, fn: Callable[..., Any], tasks: Iterable[Task]) -> Results[Any]:
        yield from itertools.islice(super().run(fn, tasks), self.n)
        raise KeyboardInterrupt


def peak_bytes(start: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            start()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("games", [10, MILLION])
def test_a_million_game_simulation_interrupted_used_the_memory_of_ten(
        games: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "make_runner", lambda *_: StopAfter(2))
    profile = load_profile("biegames")
    peak = peak_bytes(lambda: sim.simulate(profile, games, 1, bots=("random",)))
    assert peak < 8 * 2**20, f"{peak / 2**20:.0f} MiB"  # a list of every task: ~200 MiB


def test_a_million_game_tournament_interrupted_used_little_memory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament, "make_runner", lambda *_: StopAfter(1))
    profile = load_profile("biegames")
    peak = peak_bytes(lambda: tournament.run_tournament(
        profile, ["random", "easy"], MILLION // 2, 1, layout=profile.layouts[-1]))
    assert peak < 8 * 2**20, f"{peak / 2**20:.0f} MiB"


def square(x: int) -> int:
    return x * x


def test_the_process_pool_makes_tasks_as_it_sends_them() -> None:
    made: list[int] = []

    def args_of(i: int) -> tuple[Any, ...]:
        made.append(i)
        return (i,)

    tasks = TaskList(MILLION, args_of)
    with ProcessRunner(2) as runner:
        results = runner.run(square, tasks)
        key, value = next(results)
        results.close()
    assert value == key * key
    assert len(made) <= (IN_FLIGHT * 2 + 1) * MAX_CHUNK


def test_a_task_list_gives_the_same_results_as_a_list() -> None:
    tasks = TaskList(20, lambda i: (i,))
    assert list(tasks) == [(i, (i,)) for i in range(20)] and tasks[-1] == (19, (19,))
    with ProcessRunner(2) as runner:
        assert run_tasks(square, tasks, runner) == {i: i * i for i in range(20)}
    seen: list[int] = []
    assert run_tasks(square, tasks, InlineRunner(), keep=False,
                     on_result=lambda k, _r, _n: seen.append(k)) == {}
    assert seen == list(range(20))
