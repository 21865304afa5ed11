"""Runs on a Dask distributed cluster: the same results as one process, also when a worker
dies in the middle, and plain errors when there is no cluster (or no Dask)."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from handfoot.cli import main
from handfoot.game.loading import load_profile
from handfoot.runs.cluster import (
    SCHEDULER_ENV,
    ClusterError,
    DaskRunner,
    InlineRunner,
    ProcessRunner,
    make_runner,
    run_tasks,
    runner_options,
)
from handfoot.runs.tournament import run_tournament

PROFILE = load_profile("partnership-13", overrides={"rounds": 1})
TOURNAMENT = ["tournament", "--bots", "random,easy", "--games", "3", "--seed", "2",
              "--set", "rounds=1", "--json", "--quiet"]
SIMULATE = ["simulate", "--games", "4", "--bots", "random,easy,random,easy", "--seed", "9",
            "--set", "rounds=1", "--json", "--quiet"]


def no_timing(text: str) -> dict[str, object]:
    d: dict[str, object] = json.loads(text)
    d.pop("timing", None)
    return d


def test_cli_tournament_on_a_cluster_equals_one_process(
        cluster: Any, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    assert main([*TOURNAMENT, "--workers", "1"]) == 0
    alone = no_timing(capsys.readouterr().out)
    assert main([*TOURNAMENT, "--scheduler", cluster.scheduler_address]) == 0
    assert no_timing(capsys.readouterr().out) == alone


def test_cli_simulate_on_the_cluster_of_the_environment_variable(
        cluster: Any, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    assert main([*SIMULATE, "--workers", "1"]) == 0
    alone = json.loads(capsys.readouterr().out)
    monkeypatch.setenv(SCHEDULER_ENV, cluster.scheduler_address)
    assert main(SIMULATE) == 0
    assert json.loads(capsys.readouterr().out) == alone
    # --workers with a scheduler in the environment: one or the other
    assert main([*SIMULATE, "--workers", "2"]) == 2
    assert "--scheduler none" in capsys.readouterr().err
    assert main([*SIMULATE, "--workers", "2", "--scheduler", "none"]) == 0
    assert json.loads(capsys.readouterr().out) == alone


def test_a_worker_killed_in_the_middle_changes_nothing(cluster: Any) -> None:
    from distributed import Client

    alone = run_tournament(PROFILE, ["random", "easy"], 8, 3)
    killed: list[int] = []
    running: list[str] = []
    with Client(cluster.scheduler_address, set_as_default=False) as client:
        pids: dict[str, int] = client.run(os.getpid)
        before = set(pids.values())

        def kill_a_busy_worker(done: int, total: int) -> None:
            if killed or done == 0:
                return
            busy = [(w, keys) for w, keys in client.processing().items() if keys]
            if busy:  # a worker with a task running: it dies, the task goes elsewhere
                worker, keys = busy[0]
                os.kill(pids[worker], signal.SIGKILL)
                killed.append(pids[worker])
                running.extend(keys)

        result = run_tournament(PROFILE, ["random", "easy"], 8, 3,
                                scheduler=cluster.scheduler_address,
                                progress=kill_a_busy_worker)
        client.wait_for_workers(2, timeout=60)  # the nanny starts a new one
        after = set(client.run(os.getpid).values())
    assert killed and killed[0] in before and killed[0] not in after
    # what the dead worker was playing was played again, on another worker
    replayed = [key for key in running
                if sum(1 for t in cluster.scheduler.story(key) if t[2] == "processing") >= 2]
    assert replayed, running
    keys = [(r.pairing, r.pair, r.game_in_pair) for r in result.records]
    assert len(keys) == len(set(keys)) == 16  # every game once, none counted twice
    assert [(r.deal_seed, r.totals, r.winners) for r in result.records] == \
        [(r.deal_seed, r.totals, r.winners) for r in alone.records]
    a, b = result.as_dict(), alone.as_dict()
    a.pop("timing")
    b.pop("timing")
    assert a == b


def square(x: int) -> int:
    return x * x


@pytest.mark.parametrize("runner", [InlineRunner(), ProcessRunner(2)],
                         ids=["inline", "processes"])
def test_results_are_keyed_whatever_the_order(runner: Any) -> None:
    tasks = [(k, (k,)) for k in (5, 1, 9, 3)]
    finished: list[int] = []
    out = run_tasks(square, tasks, runner,
                    on_result=lambda _k, _r, n: finished.append(n))
    assert out == {5: 25, 1: 1, 9: 81, 3: 9}
    assert finished == [1, 2, 3, 4]


def test_a_task_run_twice_is_counted_once() -> None:
    class Twice:
        def run(self, fn: Any, tasks: Any) -> Generator[tuple[int, Any], None, None]:
            for key, args in tasks:
                yield key, fn(*args)
                yield key, fn(*args) + 1000  # a late copy from a worker thought dead

    counted: list[int] = []
    out = run_tasks(square, [(2, (2,)), (3, (3,))], Twice(),
                    on_result=lambda k, _r, _n: counted.append(k))
    assert out == {2: 4, 3: 9} and counted == [2, 3]


def test_no_scheduler_at_the_address() -> None:
    pytest.importorskip("distributed")
    runner = DaskRunner("tcp://127.0.0.1:1", timeout=1)
    with pytest.raises(ClusterError, match=r"no Dask scheduler answers at tcp://127\.0\.0\.1:1"):
        run_tasks(square, [(0, (1,))], runner)


def test_without_dask_handfoot_runs_and_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    assert main(SIMULATE) == 0
    capsys.readouterr()
    assert main([*SIMULATE, "--scheduler", "tcp://127.0.0.1:1"]) == 1
    assert "pip install 'handfoot[cluster]'" in capsys.readouterr().err


def pid(_: int) -> int:
    return os.getpid()


def test_a_runner_kept_open_plays_every_run_in_its_processes() -> None:
    tasks = [(k, (k,)) for k in range(8)]
    with ProcessRunner(2) as runner:
        pids = {p for _ in range(3) for p in run_tasks(pid, tasks, runner).values()}
    assert len(pids) <= 2 and os.getpid() not in pids  # three runs, one pool of two
    apart = {p for _ in range(2) for p in run_tasks(pid, tasks, runner).values()}
    assert len(apart) > 2 and not apart & pids  # outside `with`: a pool for each run


def test_runner_options() -> None:
    env = {SCHEDULER_ENV: "tcp://h:8786"}
    assert runner_options(None, None, environ={}) == (1, None)
    assert runner_options(None, None, default_workers=2, environ={}) == (2, None)
    assert runner_options(3, None, environ={}) == (3, None)
    assert runner_options(None, None, default_workers=2, environ=env) == (1, "tcp://h:8786")
    assert runner_options(1, "tcp://x:1", environ=env) == (1, "tcp://x:1")
    assert runner_options(2, "none", environ=env) == (2, None)
    assert runner_options(None, "None", default_workers=2, environ=env) == (2, None)
    with pytest.raises(ValueError, match=r"^--workers 2 and \$HANDFOOT_SCHEDULER tcp://h:8786"
                       r": the cluster's workers play the games; give one or the other "
                       r"\(or --scheduler none\)$"):
        runner_options(2, None, environ=env)
    with pytest.raises(ValueError, match=r"^--workers 3 and --scheduler tcp://x:1: .*other$"):
        runner_options(3, "tcp://x:1", environ={})
    with pytest.raises(ValueError, match=r"^--workers must be at least 1$"):
        runner_options(0, None, environ={})


def test_make_runner() -> None:
    assert isinstance(make_runner(), InlineRunner)
    assert isinstance(make_runner(3), ProcessRunner)
    assert isinstance(make_runner(1, "tcp://h:8786"), DaskRunner)
    with pytest.raises(ValueError, match="not both"):
        make_runner(2, "tcp://h:8786")
    with pytest.raises(ValueError, match="at least 1"):
        make_runner(0)


def test_simulate_records_in_two_processes_are_those_of_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    cmd = ["simulate", "--games", "3", "--bots", "random", "--set", "rounds=1", "--quiet"]
    assert main([*cmd, "--records", str(tmp_path / "one")]) == 0
    assert main([*cmd, "--records", str(tmp_path / "two"), "--workers", "2"]) == 0
    one = {p.name: p.read_text() for p in (tmp_path / "one").iterdir()}
    two = {p.name: p.read_text() for p in (tmp_path / "two").iterdir()}
    assert sorted(one) == ["game-0001.json", "game-0002.json", "game-0003.json"]
    assert one == two
    capsys.readouterr()
