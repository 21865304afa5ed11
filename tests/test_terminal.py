"""Terminal play: what the person sees, the commands, and whole scripted games."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console

from handfoot import cards, terminal
from handfoot import moves as mv
from handfoot.cli import main
from handfoot.engine import GameState, Phase, PlayerView
from handfoot.record import from_json, replay
from handfoot.rules import Layout, Profile, load_profile
from handfoot.terminal import HELP_TEXT, TerminalGame, hand_text, parse_seats, render_view

QUICK = load_profile("biegames", overrides={"rounds": 1})
OPEN_FREE = load_profile("biegames", overrides={"rounds": 1, "opening_minimums": [0]})


def console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100, color_system=None), buf


def scripted(lines: list[str]) -> Callable[[str], str]:
    it: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def game_with(read: Callable[[str], str], *, profile: Profile = QUICK, seed: int = 3,
              seats: tuple[str, ...] = ("you", "easy")) -> tuple[TerminalGame, io.StringIO]:
    con, buf = console()
    layout = Layout(len(seats), 1)
    return TerminalGame(profile, layout, list(seats), seed, read=read, console=con), buf


def policy(game: list[TerminalGame], script: list[str] | None = None,
           ) -> Callable[[str], str]:
    """Answer each prompt from the person's view: a scripted prefix, then draw/discard."""
    queue = list(script or [])

    def read(prompt: str) -> str:
        if queue:
            return queue.pop(0)
        view = game[0].view()
        if view.phase == Phase.ANSWER:
            return "yes"
        if mv.DRAW in view.legal_actions:
            return "draw"
        kinds = [a - mv.DISCARD for a in view.legal_actions
                 if mv.DISCARD <= a < mv.STAGE_NATURAL]
        if kinds:
            return f"discard {cards.KIND_CODES[kinds[0]]}"
        return "knock"

    return read


# --- what the person sees ------------------------------------------------------------


def test_hand_is_grouped_by_kind_highest_first() -> None:
    hand = cards.parse_faces("9C 2C KS JK KD 9D KH")
    assert hand_text(hand).plain == "K♦ K♥ K♠ │ 9♣ 9♦ │ 2♣ │ JK"


def test_render_shows_own_hand_and_counts_but_no_hidden_card() -> None:
    profile = load_profile("partnership-13")
    for seed in range(1, 6):
        state = GameState.new(profile, seed=seed)
        view = state.view(0)
        con, buf = console()
        con.print(render_view(view, ["you", "Seat 2 (easy)", "Seat 3 (easy)", "Seat 4 (easy)"]))
        text = buf.getvalue()
        assert f"Your hand ({len(view.hand)}): {hand_text(view.hand).plain}" in text
        assert f"Stock: {view.stock_size}" in text
        for seat in range(1, 4):
            row = next(line for line in text.splitlines() if f"Seat {seat + 1} (easy)" in line
                       and "Side" not in line)
            assert str(state.held_n[seat]) in row.split()
        public = set(view.hand) | set(state.pile[-1:])
        for side in range(2):
            public |= set(view.red_threes[side])
        hidden = {f for s in range(1, 4) for f in state.hand(s) + state.feet[s]} - public
        hidden |= set(state.feet[0]) - public
        labels = set(text.replace("│", " ").split())
        assert not {terminal.card_text(f).plain for f in hidden} & labels


def test_renderer_only_ever_receives_a_player_view(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []
    real = terminal.render_view

    def spy(view: object, names: list[str], sym: terminal.Symbols) -> object:
        seen.append(view)
        assert isinstance(view, PlayerView) and view.seat == 0
        return real(view, names, sym)  # type: ignore[arg-type]

    monkeypatch.setattr(terminal, "render_view", spy)
    holder: list[TerminalGame] = []
    game, _buf = game_with(policy(holder, []), seed=5)
    holder.append(game)
    assert game.run() == 0
    assert seen and all(isinstance(v, PlayerView) for v in seen)


def test_player_table_shows_every_seats_counts_and_openings() -> None:
    con, buf = console()
    game2 = TerminalGame(load_profile("partnership-13"), Layout(2, 2),
                         ["easy", "you", "easy", "easy"], 2, read=scripted(["show", "quit", "y"]),
                         console=con)
    assert game2.run() == 1
    text = buf.getvalue()
    assert "Seat 1 (easy): 8 in Hand, Foot 13 · Seat 3 (easy): 13 in Hand, Foot 13" in text
    assert "▶ you: 13 in Hand, Foot 13 · Seat 4 (easy): 13 in Hand, Foot 13" in text
    assert "Seat 1 (easy) takes 1 card from the pile: meld J J J 2" in text
    assert "J♣ J♦ J♦ J♥ 2♥ (5/7)" in text  # naturals, then wilds
    assert "not opened (needs 50)" in text
    assert "Side 1: Seat 1 (easy), Seat 3 (easy)" in text
    assert "Side 2: you, Seat 4 (easy)" in text
    assert "You left the game." in text


# --- commands ----------------------------------------------------------------------


def test_help_legal_hint_and_quit() -> None:
    game, buf = game_with(scripted(["help", "legal", "hint", "quit"]), seed=3)
    assert game.run() == 1
    text = buf.getvalue()
    assert HELP_TEXT.splitlines()[1] in text
    assert "draw: take 2 cards from the stock" in text
    assert "Hint: " in text
    hint = text.split("Hint: ", 1)[1].split("\n", 1)[0]
    assert hint.split("  ")[0] in ("draw",) or hint.startswith("pickup")
    assert "You left the game." in text


def test_hint_does_not_change_the_game() -> None:
    holder: list[TerminalGame] = []
    game, _buf = game_with(policy(holder, []), seed=3)
    holder.append(game)
    # advance to the person's play phase, then ask for hints
    while not (game.state.to_act == game.human and game.state.phase == Phase.PLAY):
        if game.state.to_act == game.human:
            game.state.apply(mv.Draw())
        else:
            game._bot_step(game.state.to_act)
    before = game.view()
    hint = game.hint()
    assert hint and "bot" in hint
    assert game.view() == before
    move = hint.split("   (")[0]
    assert mv.parse_move(move)  # a move in the notation


def _find_meld(view: PlayerView, state: GameState) -> str | None:
    counts = cards.kind_counts(view.hand)
    for rank in cards.RANKS:
        if counts[rank] >= 3:
            text = f"meld {' '.join([cards.KIND_CODES[rank]] * 3)}"
            if state.check(mv.parse_move(text)) is None:
                return text
    return None


def test_meld_then_undo_restores_the_hand() -> None:
    for seed in range(1, 40):
        holder: list[TerminalGame] = []
        game, buf = game_with(policy(holder, []), profile=OPEN_FREE, seed=seed)
        holder.append(game)
        while game.state.to_act != game.human:
            game._bot_step(game.state.to_act)
        game.state.apply(mv.Draw())
        meld = _find_meld(game.view(), game.state)
        if meld is None:
            continue
        before = game.view()
        game.read = scripted([meld, "undo", "legal", "quit"])
        assert game.run() == 1
        text = buf.getvalue()
        assert f"You meld {meld.split(' ', 1)[1]}" in text
        assert "You take back the last meld" in text
        after = game.view()
        assert sorted(after.hand) == sorted(before.hand)
        assert after.melds == before.melds
        return
    pytest.fail("no seed gave the person a meld of three")


def test_illegal_moves_print_the_reason_and_change_nothing() -> None:
    holder: list[TerminalGame] = []
    game, buf = game_with(policy(holder, []), seed=3)
    holder.append(game)
    while game.state.to_act != game.human:
        game._bot_step(game.state.to_act)
    before = game.view()
    game.read = scripted(["discard 5", "meld", "frobnicate K", "pickup 4 4 4 4 4", "quit"])
    assert game.run() == 1
    text = buf.getvalue()
    assert "Not allowed: you must draw or take the pile before you discard" in text
    assert "Cannot read that: 'meld' needs cards" in text
    assert "Cannot read that: unknown move 'frobnicate'" in text
    assert text.count("Not allowed: ") == 2
    assert game.view() == before


# --- whole games from the command line ------------------------------------------------


def _stdin_policy(turns: int) -> str:
    """Draw, then try to discard each kind in turn until one is allowed (the refused
    ones are reported and nothing is lost)."""
    block = ["draw"] + [f"discard {code}" for code in cards.KIND_CODES[:cards.RED_THREE]]
    return "\n".join(block * turns) + "\n"


def test_full_quick_game_from_the_command_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(_stdin_policy(400)))
    record = tmp_path / "game.json"
    code = main(["play", "--profile", "biegames", "--layout", "2x1", "--set", "rounds=1",
                 "--seats", "you,easy", "--seed", "3", "--record", str(record)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Round 1: " in out and "Game total" in out and "Running totals:" in out
    tail = out.split("Running totals:")[-1].splitlines()
    assert any(" wins, " in line or line.startswith("Shared victory") for line in tail)
    assert f"record written to {record}" in out
    assert "Seat 2 (easy) discards " in out and "You draw " in out
    result = replay(from_json(record.read_text(encoding="utf-8")))
    assert result.ok and result.game_over
    data = json.loads(record.read_text(encoding="utf-8"))
    assert [s["name"] for s in data["seats"]] == ["you", "easy 2"]


def test_end_of_input_leaves_the_game(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("help\n"))
    code = main(["play", "--profile", "biegames", "--layout", "2x1", "--seats", "you,easy",
                 "--seed", "1"])
    out, _ = capsys.readouterr()
    assert code == 1 and "You left the game." in out and "Commands:" in out


@pytest.mark.parametrize(("seats", "message"), [
    ("you,you", "exactly one seat must be 'you', not 2"),
    ("easy,easy", "exactly one seat must be 'you', not 0"),
    ("you,wizard", "unknown bot 'wizard': choose from random, easy"),
    ("you,easy,easy", "this table has 2 seats, not 3"),
])
def test_bad_seats_exit_2(seats: str, message: str, capsys: pytest.CaptureFixture[str],
                          ) -> None:
    code = main(["play", "--profile", "biegames", "--layout", "2x1", "--seats", seats])
    _, err = capsys.readouterr()
    assert code == 2
    assert message in err and err.startswith("handfoot: error: --seats")


def test_bad_layout_and_profile_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--profile", "biegames", "--layout", "3x1"]) == 2
    assert "biegames is played as" in capsys.readouterr().err
    assert main(["play", "--profile", "no-such-profile"]) == 2
    assert capsys.readouterr().err.startswith("handfoot: error:")


def test_default_seats_put_you_first_against_the_best_bot() -> None:
    seats = parse_seats(None, 4)
    assert seats[0] == "you" and len(set(seats[1:])) == 1
    assert seats[1] == terminal.best_bot()
    assert parse_seats(" YOU , easy ", 2) == ["you", "easy"]


def test_a_bot_partner_asks_you_and_your_answer_decides() -> None:
    """Seat 3 (hard) is your partner: it asks "may I go out?"; no keeps it playing, yes
    lets it go out. You play the hints (what hard would do) and answer no, then yes."""
    profile = load_profile("partnership-13", overrides={"rounds": 1})
    holder: list[TerminalGame] = []
    asked: list[tuple[str, int | None, int]] = []
    rounds_when_asked: list[int] = []

    def read(prompt: str) -> str:
        view = holder[0].view()
        if view.phase == Phase.ANSWER:
            asked.append((prompt, view.asking, view.to_act))
            rounds_when_asked.append(len(holder[0].state.results))
            return "no" if len(asked) == 1 else "yes"
        hint = holder[0].hint()
        assert hint.endswith("; hard bot)"), hint
        return hint.split("   (")[0]

    con, buf = console()
    game = TerminalGame(profile, Layout(2, 2), ["you", "easy", "hard", "easy"], 3,
                        read=read, console=con)
    holder.append(game)
    assert game.run() == 0
    out = buf.getvalue()
    assert asked == [("answer> ", 2, 0), ("answer> ", 2, 0)]
    assert rounds_when_asked == [0, 0]  # after "no" the round went on
    assert "Seat 3 (hard) asks: may I go out? Answer yes or no." in out
    no_at, yes_at = out.index("You answer no"), out.index("You answer yes")
    assert "Your turn" in out[no_at:yes_at]  # the partner kept playing; you played again
    (result,) = game.state.results
    assert result.reason == "went out" and result.went_out == 2
    assert "You answer yes; Seat 3 (hard) goes out, melding " in out
    assert "Round 1: went out (hard 3)" in out[yes_at:]
