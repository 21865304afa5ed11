"""The simulate, demo and replay commands."""

from __future__ import annotations

import io
import json
import re
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


# --- issue 14: files checked before the game, bots that show the game, progress -------------


@pytest.mark.parametrize("command", [
    ("play", "--profile", "biegames", "--layout", "2x1", "--seats", "you,easy", "--seed", "1"),
    ("demo", "--profile", "biegames", "--layout", "2x1", "--set", "rounds=1"),
])
def test_record_path_is_checked_before_the_game(
        command: tuple[str, ...], capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # play: nothing would be typed
    existing = tmp_path / "old.json"
    existing.write_text("{}", encoding="utf-8")
    cases = [
        (str(tmp_path), "that is a folder; give a file name, like"),
        (str(tmp_path / "missing" / "game.json"), "the folder " + str(tmp_path / "missing")
         + " does not exist"),
        (str(existing), "the file already exists; add --force to overwrite it"),
        (str(existing / "x.json"), "is a file, not a folder"),
    ]
    for path, message in cases:
        code, out, err = run(capsys, *command, "--record", path)
        assert code == 2, (path, out)
        assert err.startswith(f"handfoot: error: --record {path}: ") and message in err
        assert "Errno" not in err and "Round 1" not in out  # refused before any play
    assert existing.read_text(encoding="utf-8") == "{}"
    if command[0] == "demo":
        code, out, _ = run(capsys, *command, "--record", str(existing), "--force")
        assert code == 0 and f"record written to {existing}" in out
        assert json.loads(existing.read_text(encoding="utf-8"))["format"] == "handfoot-record"


def test_simulate_records_folder_is_checked_and_never_mixes_runs(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ("simulate", "--profile", "biegames", "--layout", "2x1", "--set", "rounds=1",
            "--bots", "easy")
    file = tmp_path / "a-file"
    file.write_text("x", encoding="utf-8")
    code, _, err = run(capsys, *args, "--games", "1", "--records", str(file))
    assert code == 2 and "that is a file, not a folder" in err and "Errno" not in err
    folder = tmp_path / "new" / "records"  # made, with its parent
    code, out, _ = run(capsys, *args, "--games", "3", "--records", str(folder))
    assert code == 0 and len(list(folder.glob("game-*.json"))) == 3
    assert f"records: 3 games written to {folder}/" in out
    code, _, err = run(capsys, *args, "--games", "2", "--records", str(folder))
    assert code == 2
    assert "holds 3 game records of an earlier run; choose a new folder, or add --force" in err
    code, _, _ = run(capsys, *args, "--games", "2", "--records", str(folder), "--force")
    assert code == 0
    assert sorted(f.name for f in folder.glob("game-*.json")) == ["game-0001.json",
                                                                   "game-0002.json"]


def test_demo_and_simulate_default_to_bots_that_show_the_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--profile", "biegames", "--layout", "2x1",
                       "--set", "rounds=2")
    assert code == 0 and "seat 1 (hard)" in out and "seat 2 (hard)" in out
    code, out, _ = run(capsys, "simulate", "--profile", "biegames", "--layout", "2x1",
                       "--games", "4", "--json")
    data = json.loads(out)
    assert code == 0 and data["bots"] == ["hard", "hard"]
    assert data["round_ends"].get("went out", 0) > 0
    assert max(data["mean_score_per_side"]) > 0


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from handfoot.cli import options as cli

    monkeypatch.setattr("sys.stderr.isatty", lambda: False)
    assert cli.progress_bar("games", quiet=False) is None
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    assert cli.progress_bar("games", quiet=True) is None
    bar = cli.progress_bar("games", quiet=False)
    assert bar is not None
    from types import SimpleNamespace

    (rate,) = [c for c in bar.columns if type(c).__name__ == "_Rate"]
    assert str(rate.render(SimpleNamespace(finished_speed=None, speed=12.46))) == "12.5 games/s"
    names = {type(c).__name__ for c in bar.columns}
    assert {"BarColumn", "MofNCompleteColumn", "TimeRemainingColumn"} <= names
    # each time says what it is: "0:00:05 elapsed, 0:00:01 left" (it read "0:00:05 left
    # 0:00:01", the elapsed time labelled as the time left)
    from rich.console import Console

    buf = io.StringIO()
    task = bar.add_task("games", total=10, completed=4)
    Console(file=buf, width=200, color_system=None).print(
        bar.make_tasks_table([bar.tasks[task]]))
    text = buf.getvalue()
    assert re.search(r"\d:\d\d:\d\d elapsed, (-:--:--|\d:\d\d:\d\d) left", text), text


def test_rules_options_and_show_speak_to_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "options")
    assert code == 0
    assert out.count("OPT-03 ") == 1
    assert "minimums_by_score: Opening minimums by score (part of OPT-03, on its own)" in out
    assert "(A-" not in out and "source:" not in out and "001:" not in out
    code, out, _ = run(capsys, "rules", "show", "biegames")
    assert code == 0 and "Source:" not in out and "seed 003" not in out
    assert "In short: two-player or partnership play" in out


def test_a_typo_in_all_is_answered_with_all(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--set", "pickup_count=al", "--games", "1")
    assert code == 2 and "did you mean 'all'?" in err


def test_replay_counts_moves_in_words(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    from handfoot.game.engine import GameState
    from handfoot.game.loading import load_profile
    from handfoot.game.moves import parse_move
    from handfoot.game.record import record_from_state, to_json
    from handfoot.game.rules import Layout

    state = GameState.new(load_profile("biegames"), layout=Layout(2, 1), seed=1)
    state.apply(parse_move("draw"))
    path = tmp_path / "one.json"
    path.write_text(to_json(record_from_state(state)), encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "OK: 1 move replayed; every move is legal" in out


def test_tournament_times_decisions_in_microseconds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "--profile", "biegames", "--layout", "2x1",
                       "--set", "rounds=1", "--bots", "easy,random", "--games", "1")
    assert code == 0 and "TIME/DECISION" in out and " µs" in out and "US/DECISION" not in out


def test_cli_doctests() -> None:
    import doctest

    from handfoot.cli import rules

    result = doctest.testmod(rules)
    assert result.failed == 0 and result.attempted >= 1
