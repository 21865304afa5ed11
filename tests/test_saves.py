"""Saved terminal games (issue 27, item 2): a save never overwrites another game, is
written whole or not at all, and ``handfoot play --list`` says how to resume each."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from handfoot.cli import main
from handfoot.game.record import from_json
from handfoot.terminal.saves import SaveFile, saved_games, write_atomically


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str,
         *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_second_game_of_the_same_seed_never_overwrites_the_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = play(monkeypatch, capsys, "draw\nquit\ny\n", "--seed", "11")
    assert code == 1 and "saved in handfoot-game-11.json" in out
    first = (tmp_path / "handfoot-game-11.json").read_bytes()
    assert from_json(first.decode()).moves == 1

    code, out, _ = play(monkeypatch, capsys, "quit\ny\n", "--seed", "11")
    assert code == 1
    assert "it will be saved in handfoot-game-11-2.json" in out
    assert "--resume handfoot-game-11-2.json" in out
    assert (tmp_path / "handfoot-game-11.json").read_bytes() == first
    assert from_json((tmp_path / "handfoot-game-11-2.json").read_text()).moves == 0

    # a resumed game is the same game: it is saved to its own file again, not to a third
    code, out, _ = play(monkeypatch, capsys, "quit\ny\n", "--resume", "handfoot-game-11-2.json")
    assert code == 1 and "saved in handfoot-game-11-2.json" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "handfoot-game-11-2.json", "handfoot-game-11.json"]


def test_a_name_taken_while_the_game_was_played_is_not_overwritten(tmp_path: Path) -> None:
    save = SaveFile.default(7, tmp_path)
    assert save.path == tmp_path / "handfoot-game-7.json"
    (tmp_path / "handfoot-game-7.json").write_text("another game")  # saved meanwhile
    assert save.write("this game") == tmp_path / "handfoot-game-7-2.json"
    assert (tmp_path / "handfoot-game-7.json").read_text() == "another game"
    assert save.write("this game, later") == tmp_path / "handfoot-game-7-2.json"
    assert (tmp_path / "handfoot-game-7-2.json").read_text() == "this game, later"


def test_a_save_that_fails_leaves_the_earlier_save_whole(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    path.write_text("the earlier save")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        write_atomically(path, "the new save")
    assert path.read_text() == "the earlier save"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary left
    with pytest.raises(UnicodeEncodeError):  # text that cannot be written at all
        SaveFile(path, own=True).write("\udc80")
    assert path.read_text() == "the earlier save"


def test_list_names_each_saved_game_with_its_rules_moves_and_resume_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    play(monkeypatch, capsys, "draw\nquit\ny\n", "--seed", "11")
    play(monkeypatch, capsys, "quit\ny\n", "--seed", "11", "--profile", "biegames",
         "--layout", "2x1")
    (tmp_path / "notes.json").write_text(json.dumps({"not": "a record"}))
    (tmp_path / "broken.json").write_text("{")

    code, out, err = play(monkeypatch, capsys, "", "--list")
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[0].split() == ["FILE", "RULES", "MOVES", "SAVED", "RESUME", "WITH"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == {"handfoot-game-11.json", "handfoot-game-11-2.json"}
    assert rows["handfoot-game-11.json"].split()[1:3] == ["partnership-13", "1"]
    moves = from_json((tmp_path / "handfoot-game-11-2.json").read_text()).moves
    assert rows["handfoot-game-11-2.json"].split()[1:3] == ["biegames", str(moves)]
    for name, row in rows.items():
        assert row.endswith(f"handfoot play --resume {name}")

    games = saved_games(tmp_path)
    assert [g.path.name for g in games] and all(g.problem is None for g in games)
    code, out, _ = play(monkeypatch, capsys, "", "--list", str(tmp_path))
    assert f"--resume {tmp_path / 'handfoot-game-11.json'}" in out


def test_list_of_a_folder_without_saves_says_so(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = play(monkeypatch, capsys, "", "--list", str(tmp_path))
    assert code == 0 and out.startswith(f"No saved games in {tmp_path}")
    code, _, err = play(monkeypatch, capsys, "", "--list", str(tmp_path / "nope"))
    nope = tmp_path / "nope"
    assert code == 2 and err.strip() == f"handfoot: error: --list {nope}: no such folder"
