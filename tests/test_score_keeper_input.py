"""The terminal score keeper's input (issue 27): numbers read strictly, every problem of a
round at once with only the wrong answers asked again, names and answers never read as
markup, a breakdown that keeps counts and points apart and fits 60 columns, and the small
frictions of the end of a game and of a sheet reopened. A Hypothesis test types random text
at every prompt."""

from __future__ import annotations

import io
import itertools
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from handfoot.cli import main
from handfoot.game.loading import load_profile
from handfoot.game.rules import Profile
from handfoot.game.scoresheet import ScoreSheet
from handfoot.terminal.score_keeper import MAX_DIGITS, ScoreKeeper, parse_whole

TEAMS = load_profile("remastered-teams", overrides={"rounds": 2})


def keeper(tmp_path: Path, answers: Callable[[str], str], *, width: int = 100,
           profile: Profile = TEAMS, sides: list[str] | None = None,
           ) -> tuple[ScoreKeeper, io.StringIO]:
    sheet = ScoreSheet.new(profile, profile.layout, sides or ["Us", "Them"])
    out = io.StringIO()
    return ScoreKeeper(sheet, tmp_path / "s.json", read=answers, who="Ann",
                       console=Console(file=out, width=width, color_system=None)), out


def queue(*answers: str) -> tuple[Callable[[str], str], list[str]]:
    """Each answer in turn (then the end of input), keeping every prompt."""
    left = list(answers)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if not left:
            raise EOFError
        return left.pop(0)
    return read, prompts


@pytest.mark.parametrize("text", ["\u00b2", "\u0663", "9" * 5000, "1_000", "3.0", "", "--1",
                                  "9" * (MAX_DIGITS + 1)])
def test_parse_whole_takes_ascii_digits_only_and_bounded(text: str) -> None:
    with pytest.raises(ValueError):
        parse_whole(text)


@pytest.mark.parametrize("bad", ["\u00b2", "9" * 5000])
def test_a_superscript_or_a_huge_number_is_asked_again_with_a_reason(
        bad: str, tmp_path: Path) -> None:
    """``²`` passed isdigit() and then int() raised; a 5,000-digit number too."""
    read, prompts = queue("", bad, "1", bad, "2", "c " + bad, "q")
    k, out = keeper(tmp_path, read)
    assert k.run() == 1
    text = out.getvalue()
    assert prompts[1].startswith("Who went out") and prompts[2].startswith("Who went out")
    assert "a number from 0 to 2" in text
    assert prompts[3].lstrip().startswith("Clean books") and \
        prompts[4].lstrip().startswith("Clean books")  # asked again
    assert "is not a whole number" in text or "digits" in text
    assert "c N: N is a round already entered" in text or not k.sheet.rounds


def test_every_problem_at_once_and_only_the_wrong_answers_asked_again(tmp_path: Path) -> None:
    """Us say they went out without a book, and both sides count 40 red 3s: both reasons
    are given together, and only who went out, Us's books and the red 3s are asked again
    (the ~17 prompts were walked again for the first reason alone)."""
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 200:
            raise EOFError
        refused = "Not saved" in out.getvalue()
        if prompt.startswith("Who went out"):
            return "0" if refused else "1"
        if "Red 3s laid" in prompt:
            return "1" if refused else "40"
        if "Enter to count" in prompt:
            return "q" if k.sheet.rounds else ""
        return ""

    k, out = keeper(tmp_path, read)
    assert k.run() == 1
    text = out.getvalue()
    assert text.count("Not saved") == 1
    assert "Not saved: 2 things cannot be right:" in text
    assert "  - Us cannot have gone out: it still lacks" in text
    assert "  - 80 red 3s in one round" in text
    assert len(k.sheet.rounds) == 1
    first = [p for p in prompts if "Red 3s laid" in p]
    assert len(first) == 4
    start = next(i for i, p in enumerate(prompts) if p.startswith("Who went out") and i > 1)
    end = next(i for i, p in enumerate(prompts) if "Enter to count" in p and i > start)
    labels = [p.split(" [")[0].strip() for p in prompts[start:end]]
    assert labels == ["Who went out? 0 nobody, 1 Us, 2 Them", "Clean books", "Dirty books",
                      "All-wild books", "Red 3s laid", "Red 3s laid"]


def test_names_and_answers_with_brackets_are_shown_as_typed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Rich markup took ``[red]Gran`` as a style and ``[K=5]`` as a tag: they vanished."""
    path = tmp_path / "s.json"
    answers = ["", "0", "", "", "", "", "K=5 Q=4", "x=1", "K=1", "", "", ""]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(answers) + "\n"))
    assert main(["score", "--sides", "[red]Gran,[bold]Bo", "--sheet", str(path),
                 "--who", "[i]Ann"]) == 1
    out = capsys.readouterr().out
    assert "1 [red]Gran, 2 [bold]Bo" in out  # the prompt
    assert "-- [red]Gran" in out
    assert "[K=5 Q=4]" in out or "[0]" in out
    assert "│ [red]Gran" in out  # the totals table
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["keeper"] == "[i]Ann"


def test_the_breakdown_keeps_counts_and_points_apart_and_fits_60_columns(
        tmp_path: Path) -> None:
    """``Clean books  3 x 2,100`` read as 6,300; the count and the points now have columns of
    their own, and at 60 columns no row is split."""
    steps = [("Who went out", "1"), ("Clean books", "3"), ("Dirty books", "3"),
             ("All-wild books", "1"), ("Cards melded", "1450"), ("Clean books", "1"),
             ("Cards melded", "K=5 Q=4"), ("Cards left", "A=1 b3=1")]
    for width in (100, 80, 60):
        left = list(steps)

        def read(prompt: str, left: list[tuple[str, str]] = left) -> str:
            if left and left[0][0] in prompt:
                return left.pop(0)[1]
            if "Enter to count" in prompt and not left:
                return "q"
            return ""

        k, out = keeper(tmp_path, read, width=width)
        assert k.run() == 1
        text = out.getvalue()
        block = text.split("Round 1: Us went out", 1)[1].split("Totals", 1)[0]
        lines = [x for x in block.splitlines() if x.strip()]
        assert all(len(x) <= width for x in lines), (width, lines)
        assert " x " not in block and "\u00d7" not in block
        clean = [x.split() for x in lines if x.strip().startswith("Clean books")]
        assert clean and clean[0][:4] == ["Clean", "books", "3",
                                          f"{3 * TEAMS.clean_book_bonus:,}"], lines
        melded = [x.split() for x in lines if x.strip().startswith("Cards on the table")]
        assert melded[0][:5] == ["Cards", "on", "the", "table", "1,450"]  # a total: no count
        if width == 60:
            assert any(x.split()[-2:] == ["count", "points"] for x in lines)


def test_after_the_last_round_the_prompt_does_not_offer_a_next_round(tmp_path: Path) -> None:
    p = load_profile("remastered-teams", overrides={"rounds": 1})
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        if prompt.startswith("Who went out"):
            return "0"
        if prompt.startswith("c N corrects"):  # the game is over: a word, then Enter
            return "what" if asked.count(prompt) == 1 else ""
        return ""

    k, out = keeper(tmp_path, read, profile=p)
    assert k.run() == 0
    text = out.getvalue()
    after = text.split("The game is over", 1)[1]
    assert "count the next round" not in after
    assert "Type c N to correct round N, csv FILE to export, or press Enter to end." in after


def test_reopening_a_sheet_does_not_ask_the_name_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(["", "Bo", "0"] + [""] * 30)))
    assert main(["score", "--sides", "Us,Them", "--sheet", str(path)]) == 1
    first = capsys.readouterr().out
    assert "Your name" in first
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(["", "0"] + [""] * 30)))
    assert main(["score", "--sheet", str(path)]) in (0, 1)
    again = capsys.readouterr().out
    assert "Your name" not in again
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [c["who"] for c in data["changes"]] == ["Bo", "Bo"]


# --- random text at every prompt ------------------------------------------------------------

NUMBER_LIKE = ["\u00b2", "\u00b3", "\u0663", "\u00bd", "9" * 5000, "1" * (MAX_DIGITS + 1),
               "1_0", "\uff11", "c \u00b2", "c " + "9" * 5000]
"""Texts that look like numbers to str.isdigit() or int() but are not a count."""

ANSWER = st.one_of(
    st.just(""),  # Enter: into a round, and on through its prompts
    st.sampled_from(NUMBER_LIKE),
    st.text(max_size=12),
    st.sampled_from(["0", "1", "2", "3", "-1", "q", "c 1", "c 9", "csv", "none", "K=5 Q=4",
                     "joker=2", "b3=1 r3=1", "x=1", "K=", "=3", "1450", "[red]x", "K=\u0663"]),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(answers=st.lists(ANSWER, max_size=80))
def test_random_text_at_every_prompt_is_taken_or_asked_again(answers: list[str],
                                                             tmp_path: Path) -> None:
    """Never an exception: each answer is taken (the next prompt is another one) or asked
    again after a line saying why."""
    tmp_path = Path(tempfile.mkdtemp(dir=tmp_path))  # one for each example
    left = list(answers)
    log: list[tuple[str, int]] = []
    out = io.StringIO()

    def read(prompt: str) -> str:
        log.append((prompt, len(out.getvalue())))
        if not left:
            raise EOFError
        return left.pop(0).replace("csv", "csv " + str(tmp_path / "x.csv"))

    p = load_profile("hand-knee-foot", overrides={"rounds": 2})
    sheet = ScoreSheet.new(p, p.layout)
    k = ScoreKeeper(sheet, tmp_path / "fuzz.json", read=read, who="Ann",
                    console=Console(file=out, width=80, color_system=None))
    k.save()
    assert k.run() in (0, 1)
    for (prompt, at), (again, after) in itertools.pairwise(log):
        if prompt == again and "Enter to count" not in prompt and "c N" not in prompt:
            assert after > at, f"{prompt!r} asked again without a reason"
    ScoreSheet.from_json(json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8")))


def test_the_terminal_examples_in_docs_score_keeper_md_are_what_it_prints(
        tmp_path: Path) -> None:
    """docs/score-keeper.md shows an answer asked again and a round refused for two reasons:
    each line of those examples is printed or asked as shown."""
    docs = (Path(__file__).resolve().parents[1] / "docs" / "score-keeper.md").read_text(
        encoding="utf-8").split("## In the terminal", 1)[1]
    fenced = [part.split("\n", 1)[1] for part in docs.split("```")[1::2]]
    examples = [b for b in fenced if "Red 3s laid" in b or "Not saved" in b]
    assert len(examples) == 2
    red = iter(["-1", "6", "5"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 100:
            raise EOFError
        if prompt.startswith("Who went out"):
            return "1" if "Not saved" not in out.getvalue() else "q"
        if "Red 3s laid" in prompt:
            return next(red, "")
        return ""

    k, out = keeper(tmp_path, read, profile=load_profile("remastered-teams"))
    k.run()
    said = out.getvalue()
    for block in examples:
        for line in block.splitlines():
            if line.endswith(">") or line.endswith("> -1"):
                asked = line.removesuffix(" -1")
                assert any(p.rstrip() == asked for p in prompts), (line, prompts)
            else:
                assert line in said.splitlines(), (line, said)
