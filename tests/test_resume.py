"""Partial results and --resume: an interrupted tournament or simulation goes on from its
file without replaying finished games, and ends with the results of an uninterrupted run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from handfoot.cli import main
from handfoot.game.loading import load_profile
from handfoot.runs.cluster import PARTIAL_FORMAT, PartialFile, PartialMismatch
from handfoot.runs.sim import simulate
from handfoot.runs.tournament import run_tournament

PROFILE = load_profile("partnership-13", overrides={"rounds": 1})
BOTS = ["random", "easy"]


class Stop(Exception):
    """Stands for Ctrl-C (or a machine going away) in the middle of a run."""


def stop_after(games: int) -> Callable[[int, int], None]:
    def progress(done: int, total: int) -> None:
        if done >= games:
            raise Stop
    return progress


def no_timing(d: dict[str, object]) -> dict[str, object]:
    d = dict(d)
    d.pop("timing", None)
    return d


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("workers", [1, 2])
def test_tournament_interrupted_then_resumed_equals_an_uninterrupted_run(
        tmp_path: Path, workers: int) -> None:
    whole = run_tournament(PROFILE, BOTS, 4, 7)
    file = tmp_path / "t.partial"
    with pytest.raises(Stop):
        run_tournament(PROFILE, BOTS, 4, 7, workers=workers, partial=file,
                       progress=stop_after(4))
    kept = lines(file)[1:]
    assert len(kept) >= 2  # two pairs (four games) at least reached the file
    assert len({e["task"] for e in kept}) == len(kept)
    seen: list[tuple[int, int]] = []
    resumed = run_tournament(PROFILE, BOTS, 4, 7, partial=file, resume=True,
                             progress=lambda done, total: seen.append((done, total)))
    # the kept games are counted from the start and only the others are played
    assert seen[0] == (2 * len(kept), 8)
    assert [d for d, _ in seen[1:]] == list(range(2 * len(kept) + 2, 9, 2))
    assert no_timing(resumed.as_dict()) == no_timing(whole.as_dict())
    assert [(r.pairing, r.pair, r.game_in_pair, r.totals) for r in resumed.records] == \
        [(r.pairing, r.pair, r.game_in_pair, r.totals) for r in whole.records]
    assert sorted(int(e["task"]) for e in lines(file)[1:]) == [0, 1, 2, 3]


def test_simulation_interrupted_then_resumed_equals_an_uninterrupted_run(
        tmp_path: Path) -> None:
    whole = simulate(PROFILE, 5, 11, bots=["easy"])
    file = tmp_path / "s.partial"
    with pytest.raises(Stop):
        simulate(PROFILE, 5, 11, bots=["easy"], partial=file,
                 progress=stop_after(2))
    assert [e["task"] for e in lines(file)[1:]] == [0, 1]
    played: list[int] = []
    resumed = simulate(PROFILE, 5, 11, bots=["easy"], partial=file, resume=True,
                       on_game=lambda i, _state, _summary, _record: played.append(i))
    assert played == [2, 3, 4]  # games 0 and 1 were not played again
    assert resumed.as_dict() == whole.as_dict()


def test_partial_file_format(tmp_path: Path) -> None:
    file = tmp_path / "s.partial"
    simulate(PROFILE, 2, 3, bots=["random"], partial=file)
    head, *games = lines(file)
    assert head["format"] == PARTIAL_FORMAT
    run = head["run"]
    assert isinstance(run, dict)
    assert run["command"] == "simulate" and run["seed"] == 3 and run["games"] == 2
    assert run["bots"] == ["random"] * 4 and run["layout"] == "2x2"
    assert [g["task"] for g in games] == [0, 1]
    assert set(games[0]["result"]) == {
        "seed", "actions", "moves", "round_ends", "totals", "winners"}
    assert not list(tmp_path.glob(".*tmp"))  # the header's temporary file was renamed


def test_a_line_cut_short_is_dropped_and_replayed(tmp_path: Path) -> None:
    whole = simulate(PROFILE, 3, 5, bots=["random"])
    file = tmp_path / "s.partial"
    with pytest.raises(Stop):
        simulate(PROFILE, 3, 5, bots=["random"], partial=file,
                 progress=stop_after(1))
    with open(file, "a", encoding="utf-8") as f:
        f.write('{"task": 1, "result": {"seed"')  # the machine stopped during a write
    partial = PartialFile.resume(file, json.loads(file.read_text().splitlines()[0])["run"])
    assert list(partial.done) == [0]
    assert file.read_text(encoding="utf-8").endswith("}\n")  # the torn line was cut off
    resumed = simulate(PROFILE, 3, 5, bots=["random"], partial=file, resume=True)
    assert resumed.as_dict() == whole.as_dict()
    assert [e["task"] for e in lines(file)[1:]] == [0, 1, 2]


def test_resume_refuses_another_run(tmp_path: Path) -> None:
    file = tmp_path / "t.partial"
    run_tournament(PROFILE, BOTS, 1, 7, partial=file)
    with pytest.raises(PartialMismatch, match="its seed is 7, this run's is 8"):
        run_tournament(PROFILE, BOTS, 1, 8, partial=file, resume=True)
    other = load_profile("partnership-13", overrides={"rounds": 2})
    with pytest.raises(PartialMismatch, match="profile_fingerprint"):
        run_tournament(other, BOTS, 1, 7, partial=file, resume=True)
    with pytest.raises(PartialMismatch, match="command"):
        simulate(PROFILE, 2, 7, bots=["random", "easy", "random", "easy"], partial=file,
                 resume=True)
    (tmp_path / "junk").write_text("hello\n")
    with pytest.raises(PartialMismatch, match="not a handfoot partial-results file"):
        run_tournament(PROFILE, BOTS, 1, 7, partial=tmp_path / "junk", resume=True)


TOURNAMENT = ["tournament", "--bots", "random,easy", "--games", "3", "--seed", "4",
              "--set", "rounds=1", "--json", "--quiet"]


def test_cli_resume_of_an_interrupted_tournament(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(TOURNAMENT) == 0
    whole = no_timing(json.loads(capsys.readouterr().out))
    file = tmp_path / "t.partial"
    with pytest.raises(Stop):
        run_tournament(PROFILE, BOTS, 3, 4, partial=file,
                       progress=stop_after(2))
    assert main([*TOURNAMENT, "--resume", str(file)]) == 0
    assert no_timing(json.loads(capsys.readouterr().out)) == whole
    # resuming a finished run plays nothing and prints the same results
    assert main([*TOURNAMENT, "--resume", str(file)]) == 0
    assert no_timing(json.loads(capsys.readouterr().out)) == whole


def test_cli_interrupted_run_says_how_to_resume(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import handfoot.runs.sim as sim

    played = 0
    real = sim.play_simulated_game

    def interrupted(*args: Any) -> Any:
        nonlocal played
        played += 1
        if played == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(sim, "play_simulated_game", interrupted)
    file = tmp_path / "s.partial"
    cmd = ["simulate", "--games", "4", "--bots", "random", "--set", "rounds=1", "--json",
           "--quiet"]
    assert main([*cmd, "--partial", str(file)]) == 1
    err = capsys.readouterr().err
    assert "interrupted" in err and f"--resume {file}" in err
    assert [e["task"] for e in lines(file)[1:]] == [0, 1]
    monkeypatch.setattr(sim, "play_simulated_game", real)
    assert main([*cmd, "--resume", str(file)]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert main(cmd) == 0
    assert resumed == json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("extra", "message"), [
    (["--partial", "EXISTING"], "already exists"),
    (["--resume", "MISSING"], "no such file"),
    (["--partial", "NEW", "--resume", "EXISTING"], "give one"),
    (["--partial", "NOFOLDER/x"], "does not exist"),
    (["--resume", "OTHER"], "another run"),
])
def test_cli_partial_option_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   extra: list[str], message: str) -> None:
    (tmp_path / "EXISTING").write_text("x")
    run_tournament(PROFILE, BOTS, 1, 99, partial=tmp_path / "OTHER")
    args = [str(tmp_path / a) if a.isupper() or "/" in a else a for a in extra]
    assert main([*TOURNAMENT, *args]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "NEW").exists()


def test_cli_simulate_refuses_records_with_resume(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "s.partial"
    simulate(PROFILE, 1, 1, partial=file)
    assert main(["simulate", "--games", "1", "--records", str(tmp_path / "r"),
                 "--resume", str(file)]) == 2
    assert "--records and --resume" in capsys.readouterr().err
