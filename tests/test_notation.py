"""Positions in text (handfoot.game.notation): every position a game reaches reads back as it
was written, hand-written positions load, and bad text is refused with its line and key."""

from __future__ import annotations

import random
from dataclasses import fields, replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as HPhase
from hypothesis import strategies as st

from handfoot.bots.heuristic import EasyBot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.deal import deal_round
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.notation import (
    HEADER,
    POSITION_FIELDS,
    PositionSyntaxError,
    parse_position,
    position_text,
)
from handfoot.game.rules import Layout
from handfoot.game.scoring import ScoreLine, SideScore
from handfoot.game.values import Deal, History, Phase, Position, RoundEnd, RoundResult, TableMeld
from positions import from_text, play, position, snapshot

SEATINGS = [(name, layout) for name in builtin_profile_names()
            for layout in load_profile(name).layouts]
HAND_WRITTEN = Path(__file__).parent / "positions_text" / "kings-to-meld.txt"


def round_trips(pos: Position) -> str:
    """The text of ``pos``: it reads back as ``pos`` (without its history), writes the
    same text again, and makes the same state."""
    text = position_text(pos)
    back = parse_position(text)
    assert back == replace(pos, history=History())
    assert position_text(back) == text
    assert snapshot(GameState.from_position(back)) == snapshot(GameState.from_position(pos))
    return text


@pytest.mark.parametrize(("name", "layout"), SEATINGS, ids=[f"{n}-{lay}" for n, lay in SEATINGS])
@settings(max_examples=2, deadline=None, derandomize=True,
          phases=(HPhase.explicit, HPhase.reuse, HPhase.generate),
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_position_of_a_game_round_trips(name: str, layout: Layout, seed: int) -> None:
    """Random games (easy bots, one action in five at random: staged cards, undo, asking)
    of every profile and seating, two rounds: the position at every change of phase, every
    50th action and the end."""
    profile = load_profile(name, overrides={"rounds": 2})
    state = GameState.new(profile, layout=layout, seed=seed)
    bots = [EasyBot(s) for s in range(state.players)]
    rng = random.Random(seed)
    last_phase = None
    for step in range(20_000):
        if state.phase != last_phase or step % 50 == 0:
            last_phase = state.phase
            round_trips(state.position())
        if state.is_over:
            break
        actions = state.legal_actions()
        if rng.random() < 0.2:
            state.apply_action(rng.choice(actions))
        else:
            state.apply_action(bots[state.to_act].choose(state.view(state.to_act)))
    assert state.is_over
    round_trips(state.position())


def test_the_notation_knows_every_field_of_a_position() -> None:
    assert {f.name for f in fields(Position)} == POSITION_FIELDS


def test_every_field_of_a_position_has_its_text() -> None:
    """A position with something in every field: staged cards, an undo stack, a go-out
    asked and refused, permission, the pile taken, red 3s, knees, a rank's meld holding
    wilds alone, results with an adjustment of its own label, explicit deals, overrides."""
    base = position("partnership-13", hands={0: "KS KH KD JK 9C 9D 9H 5S 5D"},
                    melds={0: ["Q Q Q"]}, stock_top="4C 5C 2C 2D JK", red_threes={1: 2})
    play(base, "draw", "meld K K K JK")
    base.apply(mv.Stage(cards.NINE, cards.NINE))
    base.apply(mv.Stage(cards.NINE, cards.NINE))
    pos = base.position()
    assert pos.staged and pos.undo_stack and pos.red_threes[1]
    round_trips(pos)
    wild_kings = TableMeld(cards.KING, 0, 2, 1, (cards.parse_face("2C"),
                                                 cards.parse_face("2D"), cards.JOKER_FACE))
    line = ScoreLine("adjustment", "Cards dropped; by accident, twice", 1, -50)
    result = RoundResult(1, RoundEnd.WENT_OUT, 2, (
        SideScore(0, (ScoreLine("melded", "Cards on the table", 3, 30), line), -20),
        SideScore(1, (), 0)), (-20, 0))
    profile = load_profile("partnership-13", overrides={
        "rounds": 3, "special_book_bonus": {"5": 3000, "7": 4000}})
    deals = tuple(deal_round(profile, profile.layout, 4, r) for r in (1, 2))
    knee_card = pos.hands[0][0]
    made = replace(
        pos, profile=profile, melds=(pos.melds[0] + (wild_kings,), ()),
        hands=(pos.hands[0][1:], *pos.hands[1:]), knees=((knee_card,), (), (), ()),
        stock=pos.stock[3:], refused=True, picked_pile=True, permission=(True, False),
        results=(result,), totals=(-20, 0), deals=deals,
        # taking back gives back the same cards: the Knee's card left the hand, and the
        # wild kings came onto the table, before the melds taken back
        undo_stack=tuple((_without(hand, knee_card), (*melds, wild_kings), opened, played)
                         for hand, melds, opened, played in pos.undo_stack),
        stalled_turns=5,
        seed=None, dealer=None, first_player=None, deal=None)
    assert [cards.face_name(f) for f in pos.stock[:3]] == ["2C", "2D", "JK"]
    text = round_trips(made)
    for words in ("melds 1: QC QC QC | KD KH KS JK | K: 2C 2D JK", "staged: 9 9",
                  "refused: yes", "pile taken: yes", "permission: 1", "stalled turns: 5",
                  f"knee 1: {cards.face_name(knee_card)}", "set: rounds = 3",
                  'set: special_book_bonus = { "5" = 3000, "7" = 4000 }',
                  "result 1: went out, seat 3 ; totals -20 0 ; side 1: melded 3 30, "
                  'adjustment 1 -50 "Cards dropped\\u003b by accident\\u002c twice" ; '
                  "side 2: -", "deal 2: dealer", "deal 1 stock: ", "deal 2 foot 4: "):
        assert words in text, words
    assert "dealt" not in text and "seed:" not in text and "dealer:" not in text
    assert parse_position(text).results[0].scores[0].lines[1] == line
    # a question asked (a position the engine reaches: the go-out asked is legal)
    books = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2",
             "JK JK 2 2 2 2 2"]
    asked = position("partnership-13", phase=Phase.PLAY, hands={0: "9 9 9 9"},
                     in_foot=[0, 2], foot_played=[2], foot_turn_done=[2], melds={0: books})
    play(asked, "goout 9 9 9 discard 9")
    text = round_trips(asked.position())
    for words in ("asking: goout 9 9 9 discard 9", "answerers: 3", "to act: 3",
                  "phase: answer"):
        assert words in text, words


def _without(faces: tuple[int, ...], face: int) -> tuple[int, ...]:
    i = faces.index(face)
    return faces[:i] + faces[i + 1:]


def test_the_deal_is_written_shortly_when_it_can_be() -> None:
    state = GameState.new(load_profile("biegames"), seed=12)
    assert "dealt: seed" in position_text(state.position())
    made_up = GameState.from_position(replace(state.position(), deal=None))
    text = round_trips(made_up.position())
    assert "dealt: as now" in text
    unseeded = replace(state.position(), seed=None)
    text = round_trips(unseeded)
    assert "dealt: dealer" in text and "dealt hand 1: " in text


def test_a_hand_written_position_loads_and_plays() -> None:
    pos = parse_position(HAND_WRITTEN.read_text(encoding="utf-8"))
    state = from_text(HAND_WRITTEN.read_text(encoding="utf-8"))
    assert state == GameState.from_position(pos)
    assert state.hand(0) == sorted(cards.parse_faces("KS KH KD JK 9C 9D 9H 5S"))
    assert [len(state.hand(s)) for s in range(4)] == [8, 13, 13, 13]
    assert all(len(f) == 13 for f in state.feet)
    assert not any(cards.FACE_KIND[f] == cards.RED_THREE for s in range(1, 4)
                   for f in state.hand(s))
    assert cards.format_faces(pos.stock[:2]) == "4C 5C" and state.opened == [True, False]
    play(state, "draw", "meld K K K JK | 9 9 9", "discard 5")
    assert state.seat == 1 and [m.target for m in state.melds[0]] == [
        cards.QUEEN, cards.KING, cards.NINE]
    # the same text in another spelling reads the same
    respelled = HAND_WRITTEN.read_text(encoding="utf-8").replace("PHASE: Draw", "phase: draw")
    assert parse_position(respelled) == pos


def test_hand_edits_of_a_written_position() -> None:
    """Swap a hand with the top of the stock, in the text, as a person would."""
    state = GameState.new(load_profile("partnership-13"), seed=1)
    lines = position_text(state.position()).splitlines()
    stock_at = next(i for i, ln in enumerate(lines) if ln.startswith("stock: "))
    hand_at = next(i for i, ln in enumerate(lines) if ln.startswith("hand 1: "))
    stock = lines[stock_at].split()[1:]
    hand = lines[hand_at].split()[2:]
    lines[hand_at] = "hand 1: " + " ".join(stock[:13])
    lines[stock_at] = "stock: " + " ".join(hand + stock[13:])
    edited = GameState.from_position(parse_position("\n".join(lines)))
    assert edited.hand(0) == sorted(cards.parse_faces(" ".join(stock[:13])))
    edited.apply(mv.Draw())
    assert sorted(edited.hand(0)) == sorted(cards.parse_faces(" ".join(stock[:13] + hand[:2])))


GOOD = f"""{HEADER}
profile: partnership-13
round: 1
phase: draw
turn: 1
hand 1: +13
stock: rest
"""


@pytest.mark.parametrize(("change", "words"), [
    (("hand 1: +13", "hand 2: QX"), "line 6, hand 2: 'QX' is not a card"),
    (("turn: 1", "turn: 5"), "line 5, turn: seat 5: seats are numbered 1 to 4"),
    (("turn: 1", "turn: one"), "line 5, turn: 'one' is not a whole number"),
    (("turn: 1\n", ""), "turn: missing"),
    (("profile: partnership-13", "profile: partnership-31"), "is not a built-in profile"),
    (("round: 1", "round: 9"), "line 3, round: 9 is not between 1 and 4"),
    (("phase: draw", "phase: thinking"), "'thinking' is not a phase"),
    (("stock: rest", "stock: 4C"), "cards: not the shoe of partnership-13 for 4 players"),
    (("stock: rest", "stock: rest\npile: 4C 4C 4C 4C 4C 4C"), "too many: 4C"),
    (("hand 1: +13", "hands 1: 4C"), "line 6, hands 1: unknown key"),
    (("hand 1: +13", "hand 5: 4C"), "line 6, hand 5: not a key of this position"),
    (("hand 1: +13", "hand 1: 4C\nhand 1: 5C"), "line 7, hand 1: given twice (also on line 6)"),
    (("hand 1: +13", "melds 1: KS QS"), "QS in a meld of kings"),
    (("hand 1: +13", "melds 1: KS 3C KH"), "3C: threes are never melded"),
    (("hand 1: +13", "red 3s 2: 3C"), "3C is not a red 3"),
    (("round: 1", "round: 1\nset: rounds = 'x'"), "rounds: must be an integer"),
    (("round: 1", "round: 1\nset: rounds"), "write 'set: parameter = value' in TOML"),
    (("round: 1", "round: 1\nlayout: 3x1"), "layout"),
    (("round: 1", "round: 1\nrefused: maybe"), "'maybe': write yes or no"),
    (("round: 1", "round: 1\nasking: draw"), "the question is a go-out"),
    (("round: 1", "round: 1\ndealt: seed"), "'seed' needs a 'seed:' line"),
    (("round: 1", "round: 1\ndealt stock: 4C"), "give 'dealt: dealer D, first player F' too"),
    (("round: 1", "round: 1\ndeal 2: as now"), "deals are numbered 1, 2, ...: deal 1"),
    (("round: 1", "round: 1\nresult 1: won"), "'won': the round ends are went out"),
    (("round: 1", "round: 1\nresult 1: went out ; side 1: melded ten 5"), "a score line is"),
    (("round: 1", "round: 1\nundo 2: - ; -"), "undo 1 is missing"),
    (("round: 1", "round: 1\nundo 1: - ; - ; closed"), "'closed': the flags are"),
    (("round: 1", "round: 1\nhello"), "line 4, hello: write 'key: value'"),
    ((HEADER, "handfoot position 2"), "line 1: the first line must be 'handfoot position 1'"),
    (("hand 1: +13", "hand 1: +300"), "+300: only"),
])
def test_bad_text_is_refused_naming_line_key_and_problem(change: tuple[str, str],
                                                         words: str) -> None:
    parse_position(GOOD)  # the text before the change is good
    assert change[0] in GOOD
    with pytest.raises(PositionSyntaxError) as info:
        parse_position(GOOD.replace(change[0], change[1], 1))
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_an_empty_text_is_refused() -> None:
    with pytest.raises(PositionSyntaxError, match="an empty text"):
        parse_position("\n# nothing\n")


def test_a_position_that_no_text_holds_is_refused() -> None:
    pos = GameState.new(load_profile("partnership-13"), seed=1).position()
    wrong = TableMeld(cards.KING, 3, 0, 0, tuple(cards.parse_faces("KS KH")))
    with pytest.raises(ValueError, match="counts are not its cards"):
        position_text(replace(pos, melds=((wrong,), ())))


def test_text_carries_no_history() -> None:
    state = play(GameState.new(load_profile("partnership-13"), seed=3), "draw")
    back = GameState.from_position(parse_position(position_text(state.position())))
    assert state.moves_played == 1 and back.moves_played == 0 and back.events() == []
    assert snapshot(back) == snapshot(state)
    assert isinstance(back.deal, Deal) and back.deal == state.deal
