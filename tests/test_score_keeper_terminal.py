"""``handfoot score``: the score keeper at the terminal, driven by scripted answers."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from handfoot.cli import main
from handfoot.game.loading import load_profile
from handfoot.game.scoresheet import ScoreSheet, score_entry
from handfoot.terminal.score_keeper import ScoreKeeper


def script(*steps: tuple[str, str]) -> tuple[Callable[[str], str], list[str]]:
    """A reader answering each prompt that contains the next step's text with its answer,
    and Enter to any other prompt; it also keeps every prompt."""
    queue = list(steps)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 2000:  # a prompt asked without end
            raise AssertionError(f"still asking: {prompts[-3:]}")
        if queue and queue[0][0] in prompt:
            return queue.pop(0)[1]
        if "Enter to count" in prompt and not queue:
            return "q"
        return ""
    return read, prompts


def test_two_rounds_a_refusal_kept_answers_and_a_correction(tmp_path: Path) -> None:
    p = load_profile("remastered-teams", overrides={"rounds": 2})
    sheet = ScoreSheet.new(p, p.layout, ["Us", "Them"])
    out = io.StringIO()
    read, prompts = script(
        ("Enter to count", ""), ("Your name", "Ann"), ("Who went out", "1"),
        ("Clean books", "3"), ("Dirty books", "3"), ("All-wild books", "1"),
        ("Cards melded", "1450"),
        ("Clean books", "1"), ("Cards melded", "K=5 Q=4"), ("Cards left", "A=1 b3=1"),
        # round 2: Them go out without the books; refused, then asked again for who went
        # out and Them's books only, and given the books
        ("Enter to count", ""), ("Who went out", "2"), ("Cards melded", "300"),
        ("Cards melded", "900"),
        ("Who went out", ""),
        ("Clean books", "3"), ("Dirty books", "3"), ("All-wild books", "1"),
        ("c N corrects", "c 1"), ("Who went out", ""), ("Cards left", ""),
        ("Cards left", "A=2"),
    )
    keeper = ScoreKeeper(sheet, tmp_path / "s.json", read=read,
                         console=Console(file=out, width=100))
    assert keeper.run() == 0  # the game is over after round 2 (and its correction)
    text = out.getvalue()
    assert "Not saved: this cannot be right:\n  - Them cannot have gone out: it still lacks" \
        in text
    assert "Your answers are kept" in text
    # the refused round's answers are kept: only the ones the reason concerns are asked
    # again, with what was given in brackets
    again = prompts[next(i for i, p in enumerate(prompts) if "[2] >" in p):]
    assert again[0].startswith("Who went out?")
    assert [p.split(" [")[0].strip() for p in again[1:4]] == [
        "Clean books", "Dirty books", "All-wild books"]
    assert not any("Cards melded" in p for p in again[:4])
    view = sheet.view()
    assert view.over
    assert view.winners == [max(range(2), key=lambda side: view.totals[side])]
    assert view.totals == [sum(score_entry(p, s, r[s]).total for r in sheet.rounds)
                           for s in range(2)]
    saved = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert saved["totals"] == view.totals
    assert [(c["round"], c["who"], c["before"] is None) for c in saved["changes"]] == [
        (1, "Ann", True), (2, "Ann", True), (1, "Ann", False)]
    assert saved["changes"][2]["after"][1]["left"] == {"A": 2}
    assert "The game is over" in text and "Totals after each round" in text
    assert ScoreSheet.from_json(saved).json() == sheet.json()


def test_the_command_makes_saves_and_continues_a_sheet(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str],
                                                       ) -> None:
    path = tmp_path / "sheet.json"
    answers = ["",  # count round 1
               "Bo",  # who
               "0",  # nobody went out
               ] + [""] * 24  # Enter keeps every count of the three players at 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(answers) + "\n"))  # then ends
    code = main(["score", "--profile", "remastered-singles", "--layout", "3x1",
                 "--sides", "Ann,Bo,Cy", "--sheet", str(path)])
    assert code == 1
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [s["name"] for s in data["sides"]] == ["Ann", "Bo", "Cy"]
    assert len(data["rounds"]) == 1 and data["changes"][0]["who"] == "Bo"
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["score", "--sheet", str(path)]) == 1
    out = capsys.readouterr().out
    assert "goes on with it" in out
    assert "┃ Player " in out  # players on their own, not sides
    assert main(["score", "--profile", "remastered-singles", "--layout", "9x9",
                 "--sides", "A", "--sheet", str(tmp_path / "x.json")]) == 2


@pytest.mark.parametrize("text", [
    "not json", "[]", '{"format": "handfoot-score-sheet", "profile": "/etc/passwd"}',
    '{"format": "handfoot-score-sheet", "profile": "remastered-teams", "layout": "2x2", '
    '"sides": [{"name": "A"}, {"name": "B"}], "rounds": [{"entries": [{"red_threes": -1}, {}]}]}',
    '{"format": "handfoot-score-sheet", "profile": "remastered-teams", "layout": "9x9"}',
    '{"format": "handfoot-score-sheet", "profile": "remastered-teams", "sides": 3}',
])
def test_a_damaged_sheet_file_is_one_line_of_error(text: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert main(["score", "--sheet", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("handfoot: error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_where_the_sheet_goes_is_checked_in_words_before_a_name_is_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for sheet, words in (
            (tmp_path, "that is a folder; give a file name, like"),
            (tmp_path / "missing" / "s.json", "does not exist; create it first"),
    ):
        assert main(["score", "--sides", "A,B", "--sheet", str(sheet)]) == 2
        err = capsys.readouterr().err
        assert words in err and "Errno" not in err, err
    bad = tmp_path / "bad.json"
    bad.write_text("{oops", encoding="utf-8")
    assert main(["score", "--sheet", str(bad)]) == 2
    assert capsys.readouterr().err == (
        f"handfoot: error: --sheet {bad}: not a score sheet (not JSON: Expecting property name "
        "enclosed in double quotes at line 1, column 2)\n")


def test_names_asked_at_the_terminal_end_and_repeat_in_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("Us\nAnn\n"))  # then Ctrl-D
    assert main(["score", "--sheet", str(path)]) == 1
    out = capsys.readouterr().out
    assert "Stopped before the sheet was made; nothing was saved." in out
    assert not path.exists()
    # a name given twice is asked again; invisible characters go
    monkeypatch.setattr(sys, "stdin", io.StringIO(
        "Us\nAnn\nAnn\u200b\nBo\nUs\nThem\nCy\nDi\nq\n"))
    assert main(["score", "--sheet", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("is taken: give each its own name") == 2
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [(s["name"], s["players"]) for s in data["sides"]] == [
        ("Us", ["Ann", "Bo"]), ("Them", ["Cy", "Di"])]
    # continuing says so, and what it leaves aside
    monkeypatch.setattr(sys, "stdin", io.StringIO("csv " + str(tmp_path / "no" / "x.csv")
                                                  + "\nq\n"))
    assert main(["score", "--sheet", str(path), "--profile", "biegames", "--sides", "X,Y"]) == 1
    out = capsys.readouterr().out
    assert f"Continuing the sheet in {path} (Partnership Hand and Foot, 13-card packets, 0 " \
        "rounds entered); --sheet NEW.json starts another." in out
    assert "(--profile, --sides left aside: a sheet keeps the rules and names it was made " \
        "with.)" in out
    assert f"Not written: {tmp_path / 'no' / 'x.csv'}: No such file or directory" in out


def test_q_inside_a_round_leaves_it_unsaved_and_the_sheet_goes_on(tmp_path: Path) -> None:
    """A round begun by mistake could only be typed to the end or left with Ctrl-C, which
    ended the program: ``q`` at any of its questions goes back to the sheet."""
    p = load_profile("remastered-teams", overrides={"rounds": 2})
    sheet = ScoreSheet.new(p, p.layout, ["Us", "Them"])
    out = io.StringIO()
    read, _prompts = script(
        ("Enter to count", ""), ("Your name", "Ann"), ("Who went out", "q"),
        ("Enter to count", ""), ("Who went out", "0"), ("Cards melded", "400"),
        ("Cards melded", "300"),
        ("Enter to count", "c 1"), ("Who went out", ""), ("Dirty books", "2"), ("Red 3s", "q"),
        ("Enter to count", "q"),
    )
    keeper = ScoreKeeper(sheet, tmp_path / "s.json", read=read,
                         console=Console(file=out, width=100))
    assert keeper.run() == 1
    text = out.getvalue()
    assert "q leaves the round unsaved" in text
    assert "Round 1 left unsaved; your answers are kept for when you count it." in text
    assert "Round 1 left unsaved; it stays as it was." in text
    assert len(sheet.rounds) == 1 and sheet.rounds[0][0].dirty_books == 0
    saved = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert len(saved["changes"]) == 1


def test_a_round_half_counted_is_kept_in_the_file_for_next_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-D (or Ctrl-C, or q) in the middle of a new round: the answers so far are saved
    in the sheet's file and offered again in brackets when the round is counted."""
    path = tmp_path / "s.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("\nAnn\n1\n2\n1\n"))  # then the input ends
    monkeypatch.setenv("HANDFOOT_COMMAND", "scripts/handfoot")  # as scripts/handfoot sets
    assert main(["score", "--profile", "biegames", "--sides", "Us,Them", "--sheet",
                 str(path)]) == 1
    out = capsys.readouterr().out
    assert f"(with your answers so far for round 1); scripts/handfoot score --sheet {path} " \
        "goes on with it." in out
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["rounds"] == [] and data["draft"]["round"] == 1
    assert data["draft"]["entries"][0]["went_out"] is True
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 4))  # count round 1: 3 Enters
    assert main(["score", "--sheet", str(path), "--who", "Ann"]) == 1
    out = capsys.readouterr().out
    assert "Your answers from last time come back in brackets." in out
    assert "Who went out? 0 nobody, 1 Us, 2 Them [1] > " in out
    assert "Clean books [2] > " in out and "Dirty books [1] > " in out
    # once the round is stored, the draft is gone
    p = load_profile("biegames")
    sheet = ScoreSheet.new(p, p.layout, ["Us", "Them"])
    read, _ = script(("Enter to count", ""), ("Your name", "Ann"), ("Who went out", "q"),
                     ("Enter to count", ""), ("Who went out", "0"), ("Enter to count", "q"))
    keeper = ScoreKeeper(sheet, tmp_path / "t.json", read=read,
                         console=Console(file=io.StringIO(), width=100))
    assert keeper.run() == 1
    assert keeper.draft is None and len(sheet.rounds) == 1
    assert "draft" not in json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
