"""Self-play training (``python -m handfoot.runs.train``) wherever its games are played: with a
budget of games, one process, two processes and a Dask cluster write the same model, byte
for byte; the run options are those of ``handfoot tournament``/``simulate``."""

from __future__ import annotations

import json
import sys
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import handfoot.runs.train
from handfoot.bots.learned import NPZ_DATE, Model
from handfoot.runs.cluster import SCHEDULER_ENV, InlineRunner, Results, Task
from handfoot.runs.train import main

SMOKE = ["--smoke", "--games", "12", "--seed", "3", "--profile", "biegames"]
"""One-round games, 2 a training iteration: 6 iterations, 2 of them the warm start."""


def train(out: Path, *options: str) -> tuple[bytes, dict[str, Any]]:
    """The model's .npz bytes and its card, trained with ``options`` into ``out``."""
    assert main([*SMOKE, *options, "--out", str(out)]) == 0
    card: dict[str, Any] = json.loads((out / "biegames.json").read_text())
    return (out / "biegames.npz").read_bytes(), card


@pytest.fixture(scope="module")
def alone(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, dict[str, Any]]:
    """The run with every game in this process."""
    mp = pytest.MonkeyPatch()
    mp.delenv(SCHEDULER_ENV, raising=False)
    try:
        return train(tmp_path_factory.mktemp("alone"), "--workers", "1")
    finally:
        mp.undo()


def test_a_budget_of_games_is_played_in_whole_iterations(
        alone: tuple[bytes, dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, card = alone
    assert card["games"] == 12 and card["minutes"] is None
    assert card["budget"] == {"games": 12, "games_per_iteration": 2}
    assert card["evaluation"]["games"] == 2
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    _, card = train(tmp_path, "--workers", "1", "--games", "7", "--games-per-iteration", "3")
    log = capsys.readouterr().err
    assert card["games"] == 9  # 7 games in iterations of 3: 3 iterations
    assert "warm start: 3 games" in log and "iteration 3: 9 games" in log
    assert "iteration 4" not in log


def test_two_processes_write_the_model_of_one(
        alone: tuple[bytes, dict[str, Any]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    npz, card = train(tmp_path, "--workers", "2")
    assert card["workers"] == 2 and card["scheduler"] is None
    assert npz == alone[0]
    assert card["evaluation"] == alone[1]["evaluation"]


class Reversed(InlineRunner):
    """Every task in this process, the results given last first."""

    def run(self, fn: Callable[..., Any], tasks: Sequence[Task]) -> Results[Any]:
        yield from reversed(list(super().run(fn, tasks)))


def test_results_finishing_in_another_order_change_nothing(
        alone: tuple[bytes, dict[str, Any]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    monkeypatch.setattr(handfoot.runs.train, "make_runner", lambda *_: Reversed())
    npz, card = train(tmp_path, "--workers", "1")
    assert npz == alone[0]
    assert card["evaluation"] == alone[1]["evaluation"]


def test_a_dask_cluster_writes_the_model_of_one_process(
        alone: tuple[bytes, dict[str, Any]], cluster: Any, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    npz, card = train(tmp_path / "option", "--scheduler", cluster.scheduler_address)
    assert card["scheduler"] == cluster.scheduler_address and card["workers"] == 1
    assert npz == alone[0]
    assert card["evaluation"] == alone[1]["evaluation"]
    # the cluster of the environment variable; --scheduler none plays here in 2 processes
    monkeypatch.setenv(SCHEDULER_ENV, cluster.scheduler_address)
    npz, card = train(tmp_path / "variable")
    assert card["scheduler"] == cluster.scheduler_address and npz == alone[0]
    npz, card = train(tmp_path / "none", "--scheduler", "none")
    assert card["scheduler"] is None and card["workers"] == 2 and npz == alone[0]


def test_the_saved_model_has_no_date_and_loads(alone: tuple[bytes, dict[str, Any]],
                                               tmp_path: Path) -> None:
    path = tmp_path / "m.npz"
    path.write_bytes(alone[0])
    with zipfile.ZipFile(path) as npz:
        assert {info.date_time for info in npz.infolist()} == {NPZ_DATE}
    (tmp_path / "m.json").write_text("{}")
    model = Model.load(path)
    assert [w.shape for w in model.weights] == [(model.mean.shape[0], 16), (16, 1)]
    again = tmp_path / "again.npz"
    model.save(again)
    assert again.read_bytes() == alone[0]
    with np.load(again) as data:
        assert np.array_equal(data["w0"], model.weights[0])


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    return capsys.readouterr().err.splitlines()[-1]


def test_usage_errors_are_those_of_the_other_commands(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    prog = "python -m handfoot.runs.train: error: "
    monkeypatch.setenv(SCHEDULER_ENV, "tcp://127.0.0.1:1")
    assert usage_error([*SMOKE, "--workers", "2"], capsys) == (
        f"{prog}--workers 2 and ${SCHEDULER_ENV} tcp://127.0.0.1:1: the cluster's workers "
        "play the games; give one or the other (or --scheduler none)")
    monkeypatch.delenv(SCHEDULER_ENV)
    assert usage_error([*SMOKE, "--workers", "3", "--scheduler", "tcp://h:1"], capsys) == (
        f"{prog}--workers 3 and --scheduler tcp://h:1: the cluster's workers play the "
        "games; give one or the other")
    assert usage_error([*SMOKE, "--workers", "0"], capsys) == (
        f"{prog}--workers must be at least 1")
    assert "not allowed with argument" in usage_error([*SMOKE, "--minutes", "1"], capsys)
    assert usage_error(["--games", "0"], capsys) == f"{prog}--games must be at least 1"
    # a scheduler without Dask: exit code 1 and what to install, nothing written
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert main([*SMOKE, "--scheduler", "tcp://127.0.0.1:1", "--out", str(tmp_path)]) == 1
    assert "pip install 'handfoot[cluster]'" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
