"""Game review tried as a new user and an attacker would (docs/review.md, "Tried as a user and
an attacker"): names that look like markup, options that do nothing, Ctrl-C, a game not over,
and on the web a queue of reviews and a process that dies while computing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from handfoot.cli import main
from handfoot.cli import review as cli_review
from handfoot.game.record import to_json
from test_review import bot_record


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("misuse")
    over = bot_record("hard", 5)
    out = {"over": folder / "over.json", "cut": folder / "cut.json"}
    out["over"].write_text(to_json(over))
    out["cut"].write_text(to_json(bot_record("hard", 5, moves=40)))
    data = json.loads(out["over"].read_text())
    data["seats"][0]["name"] = "[/]"  # Rich would read it as a closing tag, and fail
    data["seats"][1]["name"] = "[bold]Bob[/bold]"
    out["markup"] = folder / "markup.json"
    out["markup"].write_text(json.dumps(data))
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_names_are_printed_as_written_never_read_as_markup(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "review", str(records["markup"]), "--seat", "0", "--seat", "1",
                         "--budget", "0.2")
    assert code == 0, err
    assert "[/]: no costly decision found." in out or "[/]'s costliest decisions:" in out
    assert "[bold]Bob[/bold]" in out


def test_the_table_keeps_its_heads_when_a_name_is_long(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(records["over"].read_text())
    data["seats"][0]["name"] = "A name far too long for a table of eighty columns, surely"
    path = records["over"].parent / "long.json"
    path.write_text(json.dumps(data))
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "review", str(path), "--seat", "0", "--budget", "0.2")
    assert code == 0
    heads = next(line for line in out.splitlines() if "Seat" in line)
    for head in ("Moves", "Loss", "Acc.", "Good", "Inacc.", "Mist.", "Blund."):
        assert head in heads
    table = [line for line in out.splitlines() if line[:1] in "┏┃┡│└"]
    assert table and max(len(line) for line in table) <= 80


def test_timeline_without_json_is_a_usage_error(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "review", str(records["over"]), "--timeline")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "--timeline goes with --json" in err


def test_ctrl_c_says_how_far_the_review_got_without_a_traceback(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*_args: Any, progress: Any = None, **_kw: Any) -> None:
        progress(3, 20)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_review, "game_review", interrupted)
    code, out, err = run(capsys, "review", str(records["over"]))
    assert code == 1 and out == ""
    assert err.strip() == ("handfoot review: interrupted after 3 of 20 decisions; nothing "
                           "printed")


def test_a_game_not_over_is_reviewed_and_said_so(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "review", str(records["cut"]), "--seat", "0", "--budget", "0.2")
    assert code == 0
    assert out.rstrip().endswith("The game is not over: the moves recorded so far are reviewed.")
    code, out, _ = run(capsys, "review", str(records["cut"]), "--seat", "0", "--budget", "0.2",
                       "--json")
    assert code == 0 and json.loads(out)["over"] is False
    code, out, _ = run(capsys, "review", str(records["over"]), "--seat", "0", "--budget",
                       "0.2", "--json")
    assert code == 0 and json.loads(out)["over"] is True
