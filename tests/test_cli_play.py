"""The simulate, demo and replay commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from handfoot.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_same_seed_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("simulate", "--profile", "biegames", "--layout", "2x1", "--games", "3",
            "--seed", "5", "--bots", "easy")
    code1, out1, _ = run(capsys, *args)
    code2, out2, _ = run(capsys, *args)
    assert code1 == code2 == 0
    assert out1 == out2
    assert "games: 3" in out1 and "moves per game" in out1
    _code3, out3, _ = run(capsys, *args[:-3], "--seed", "6", "--bots", "easy")
    assert out3 != out1


def test_simulate_json_counts_every_round(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--profile", "partnership-13", "--games", "2",
                       "--bots", "easy", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 2 and data["rounds"] == 8
    assert sum(data["round_ends"].values()) == 8
    assert set(data["round_ends"]) <= {"went out", "stock exhausted", "red 3 not replaced"}
    assert len(data["mean_score_per_side"]) == 2


def test_simulate_records_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "simulate", "--profile", "biegames", "--games", "2",
                       "--bots", "easy", "--records", str(tmp_path))
    assert code == 0
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == ["game-0001.json", "game-0002.json"]
    for f in files:
        code, out, _ = run(capsys, "replay", str(f))
        assert code == 0, out
        assert "every move is legal" in out


def test_demo_prints_every_round(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "demo.json"
    code, out, _ = run(capsys, "demo", "--seed", "3", "--record", str(record))
    assert code == 0
    for n in range(1, 5):
        assert f"Round {n}:" in out
    assert "Clean books" in out and "Cards left in hands and feet" in out
    assert "wins" in out or "Shared victory" in out
    code, out, _ = run(capsys, "replay", str(record))
    assert code == 0


def test_quick_game_house_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--profile", "biegames", "--set", "rounds=1",
                       "--layout", "2x1")
    assert code == 0
    assert "Round 1:" in out and "Round 2:" not in out


@pytest.mark.parametrize(("argv", "message"), [
    (("simulate", "--bots", "genius"), "unknown bot 'genius'"),
    (("simulate", "--layout", "3x1"), "played as 2x2"),
    (("simulate", "--layout", "banana"), "not a layout"),
    (("simulate", "--bots", "easy,easy,easy"), "4 bots"),
    (("simulate", "--games", "0"), "--games must be at least 1"),
    (("simulate", "--set", "rounds"), "PARAM=VALUE"),
    (("simulate", "--set", "rounds=0"), "rounds"),
    (("demo", "--profile", "no-such-profile"), "neither a built-in profile"),
    (("replay", "/no/such/record.json"), "record.json"),
])
def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                            message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err + out
    assert "Traceback" not in err


def test_acceptance_200_random_games(capsys: pytest.CaptureFixture[str]) -> None:
    """`handfoot simulate --profile partnership-13 --games 200` ends every round properly.

    A game that needs more than the safety cap of actions raises, failing this test.
    """
    code, out, _ = run(capsys, "simulate", "--profile", "partnership-13", "--games", "200",
                       "--bots", "random", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 200 and data["rounds"] == 800
    assert sum(data["round_ends"].values()) == 800
