"""The terminal game's screen at 80 and 60 columns (issue 27): lines wrap between items,
never inside one, and a round's breakdown fits 60 columns with its counts and points in
columns of their own."""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.rules import Layout
from handfoot.game.values import Phase, TableMeld
from handfoot.terminal.play import TerminalGame, render_view

HKF = load_profile("hand-knee-foot")


def _screen(width: int, layout: Layout) -> list[str]:
    state = GameState.new(HKF, layout=layout, seed=1)
    view = state.view(0)
    kinds = [cards.ACE, cards.KING, cards.QUEEN, cards.JACK, cards.TEN, cards.NINE]
    melds = tuple(TableMeld(k, 4, 1, 0, tuple(cards.parse_faces("2C " * 5))) for k in kinds)
    view = dataclasses.replace(view, melds=tuple(melds for _ in view.melds))
    names = ["you"] + [f"Seat {s + 1} (hard)" for s in range(1, view.players)]
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None).print(render_view(view, names))
    return buf.getvalue().splitlines()


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("layout", [Layout(2, 2), Layout(3, 1), Layout(2, 3)])
def test_hand_knee_foot_lines_wrap_between_items(width: int, layout: Layout) -> None:
    """At 80 columns a partnership's player line broke inside ``Foot 11``; every item (a
    seat's cards, a meld, an opening) now stays whole on one line."""
    lines = _screen(width, layout)
    assert all(len(line) <= width for line in lines), lines
    text = "\n".join(lines)
    seats = re.findall(r"\d+ in Hand, Knee \d+, Foot \d+", text)
    assert len(seats) == layout.players, lines
    assert text.count(" 5/7 dirty") == 6 * layout.sides
    assert "not opened (needs" in text and "Foot \n" not in text
    for line in lines:
        assert not re.search(r"(Hand|Knee|Foot|needs|in)$", line.rstrip()), line


def _policy(holder: list[TerminalGame]) -> Callable[[str], str]:
    def read(prompt: str) -> str:
        view = holder[0].view()
        if view.phase == Phase.ANSWER:
            return "yes"
        if mv.DRAW in view.legal_actions:
            return "draw"
        kinds = [a - mv.DISCARD for a in view.legal_actions
                 if mv.DISCARD <= a < mv.STAGE_NATURAL]
        return f"discard {cards.KIND_CODES[kinds[0]]}" if kinds else "knock"
    return read


@pytest.mark.parametrize("width", [60, 80])
def test_the_round_breakdown_fits_the_terminal_with_counts_and_points_apart(width: int) -> None:
    """At 60 columns every row of the breakdown was split over two lines."""
    profile = load_profile("biegames", overrides={"rounds": 1})
    holder: list[TerminalGame] = []
    buf = io.StringIO()
    game = TerminalGame(profile, Layout(2, 2), ["you", "easy", "easy", "easy"], 6,
                        read=_policy(holder), pause=False,
                        console=Console(file=buf, width=width, color_system=None))
    holder.append(game)
    assert game.run() == 0
    block = buf.getvalue().split("Round 1: ", 1)[1].split("Running totals", 1)[0]
    lines = block.splitlines()
    assert all(len(line) <= width for line in lines), lines
    result = game.state.results[0]
    for score in result.scores:
        for line in score.lines:
            row = [" ".join(x.split()) for x in lines if x.strip().startswith(line.label)]
            assert any(f" {line.count} {line.points}" in x[len(line.label):] for x in row), \
                (line, lines)
    assert any(x.split()[-2:] == ["count", "points"] for x in lines)


# --- pass and play ---------------------------------------------------------------------------


def _pass_and_play(state: GameState | None = None, limit: int = 30,
                   ) -> tuple[TerminalGame, list[tuple[str, str]]]:
    """A pass-and-play game of two people and two bots; each prompt with the output before
    it."""
    profile = load_profile("partnership-13", overrides={"rounds": 1})
    prompts: list[tuple[str, str]] = []
    buf = io.StringIO()
    holder: list[TerminalGame] = []
    policy = _policy(holder)

    def read(prompt: str) -> str:
        prompts.append((prompt, buf.getvalue()))
        if len(prompts) > limit:
            raise EOFError
        return "" if prompt.startswith("Pass the keyboard") else policy(prompt)

    game = TerminalGame(profile, Layout(2, 2), ["you", "easy", "you", "easy"], 5, read=read,
                        console=Console(file=buf, width=100, color_system=None), state=state)
    holder.append(game)
    game.run()
    return game, prompts


def test_pass_and_play_waits_before_the_first_turn_and_clears_the_scrollback() -> None:
    """The first person's hand was shown without the pause, and the clear between turns
    left the last hand in the scrollback."""
    _, prompts = _pass_and_play()
    first, before = prompts[0]
    assert first == "Pass the keyboard to Seat 1 (you), then press Enter "
    assert "Your hand" not in before
    later = [(p, out) for p, out in prompts[1:] if p.startswith("Pass the keyboard")]
    assert later
    for prompt, out in later:
        # the screen and its scrollback were cleared after the last hand shown
        assert out.rfind("\x1b[3J") > out.rfind("Your hand"), prompt
        assert "\x1b[2J" in out


def test_a_resumed_pass_and_play_game_waits_before_its_first_turn() -> None:
    game, _ = _pass_and_play(limit=12)
    state = game.state.copy()
    assert state.to_act in (0, 2) and state.moves_played
    _, prompts = _pass_and_play(state)
    first, before = prompts[0]
    assert first.startswith("Pass the keyboard to Seat") and "Your hand" not in before


def test_prompts_show_bracketed_text_as_typed(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The prompts went through Rich markup: ``[b]`` in a file name (or a name) vanished."""
    from handfoot.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\ny\n"))
    assert main(["play", "--seats", "you,easy", "--layout", "2x1", "--profile", "biegames",
                 "--seed", "3", "--record", "[b]game.json"]) == 1
    out = capsys.readouterr().out
    assert "Leave the game? (it will be saved in [b]game.json) y/n:" in out


def test_the_breakdowns_in_docs_terminal_md_are_what_the_game_prints() -> None:
    """docs/terminal.md shows one round's breakdown at 80 and at 60 columns: every line it
    shows (but ``...``) is a line the game prints, in the same order."""
    docs = (Path(__file__).resolve().parents[1] / "docs" / "terminal.md").read_text(
        encoding="utf-8")
    fenced = [part.split("\n", 1)[1] for part in docs.split("```")[1::2]]
    blocks = [b for b in fenced if b.startswith("Round 1: went out (hard 4)")]
    assert len(blocks) == 2
    for width, block in zip((80, 60), blocks, strict=True):
        profile = load_profile("biegames", overrides={"rounds": 1})
        holder: list[TerminalGame] = []
        buf = io.StringIO()
        game = TerminalGame(profile, Layout(2, 2), ["you", "hard", "hard", "hard"], 6,
                            read=_policy(holder), pause=False,
                            console=Console(file=buf, width=width, color_system=None))
        holder.append(game)
        assert game.run() == 0
        printed = ("Round 1: " + buf.getvalue().split("Round 1: ", 1)[1]).splitlines()
        at = 0
        for line in block.splitlines():
            if line.strip() == "...":
                continue
            at = printed.index(line, at) + 1  # ValueError: not printed (or out of order)
