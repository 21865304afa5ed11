"""scripts/soak, run tiny: it plays, checks and counts, and a violation makes it fail."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import soak
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout

SCRIPT = Path(__file__).parents[1] / "scripts" / "soak"


def test_the_script_runs_the_soak_module() -> None:
    assert os.access(SCRIPT, os.X_OK)
    assert '"$ROOT/tests/soak.py" "$@"' in SCRIPT.read_text(encoding="utf-8")


def test_a_few_games_see_every_profile() -> None:
    games = soak.games(6, 1, soak.LEVELS)
    assert len({g.profile for g in games}) == 6
    assert len(soak.configs(soak.LEVELS)) == 4 * sum(
        len(load_profile(name).layouts) for name in builtin_profile_names())


def test_a_tiny_soak_passes_and_prints_its_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert soak.main(["--games", "2", "--seed", "5", "--bots", "easy",
                      "--views", "0.05", "--masks", "0.05"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1/2 partnership-13:2x2:easy:")
    assert out[-1].startswith("soak: 2 games, ") and " 0 violations " in out[-1]
    actions = int(out[-1].split(", ")[1].removesuffix(" actions"))
    assert actions > 500


def test_a_violation_is_printed_and_fails_the_soak(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(state: object) -> None:
        raise AssertionError("the cards do not add up")

    monkeypatch.setattr(soak, "assert_game_ended_properly", broken)
    game = soak.Game("biegames", Layout(2, 1), "hard", 3)
    assert soak.main(["--game", str(game), "--quiet"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("VIOLATION game 1 --game biegames:2x1:hard:3: AssertionError at "
                             "test_soak.py:")
    assert out[0].endswith(": the cards do not add up")
    assert out[-1].startswith("soak: 1 games, ") and " 1 violations " in out[-1]


def test_a_bad_game_or_level_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as info:
        soak.main(["--bots", "genius"])
    assert info.value.code == 2
    with pytest.raises(SystemExit):
        soak.main(["--game", "biegames:2x1"])
