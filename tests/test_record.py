"""Game records: recording, JSON and its schema, replay, and the errors a reader sees."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.deal import deal_round
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.record import (
    FORMAT,
    GameRecord,
    GameRecorder,
    RecordedMove,
    RecordError,
    RoundRecord,
    check_record,
    format_breakdown,
    from_json,
    profile_spec,
    record_schema,
    record_to_data,
    replay,
    replay_command,
    to_json,
)
from handfoot.game.rules import Layout
from handfoot.game.values import Deal, Phase

MAX_ACTIONS = 200_000
Policy = Callable[[GameState], int]

# Going out is rare in random play; these overrides make it reachable.
EASY_OUT = {"clean_books_to_go_out": 0, "dirty_books_to_go_out": 0,
            "wild_books_to_go_out": 0, "partner_condition": "none", "rounds": 2}


def random_policy(rng: random.Random) -> Policy:
    def choose(state: GameState) -> int:
        return rng.choice(state.legal_actions())
    return choose


def keen_policy(rng: random.Random) -> Policy:
    """Random among legal actions, but keen to meld, take the pile and go out, so that
    records hold every kind of move."""
    gave_up: list[object] = [None]

    def staged(state: GameState, rank: int) -> int:
        return sum(g.naturals for g in state.staged_groups() if g.target == rank)

    def choose(state: GameState) -> int:
        legal = state.legal_actions()
        going_out = [a for a in legal if mv.GO_OUT <= a < mv.DISCARD]
        if going_out:
            return rng.choice(going_out)
        if mv.ANSWER_YES in legal:
            return mv.ANSWER_YES if rng.random() < 0.8 else mv.ANSWER_NO
        for a in (mv.PICKUP, mv.CONFIRM):
            if a in legal:
                return a
        if mv.UNDO in legal and rng.random() < 0.02:
            return mv.UNDO
        seat = state.to_act
        held = state.held[seat]
        turn = (state.round_number, len(state.stock), len(state.pile), seat, state.phase)
        if gave_up[0] != turn:
            if state.phase == Phase.DRAW and state.pile:
                top = cards.kind_of(state.pile[-1])
                a = mv.STAGE_NATURAL + top * 2
                if top in cards.RANKS and held[top] >= 2 and a in legal and staged(state, top) < 2:
                    return a
            if state.phase == Phase.PLAY:
                on_table = {m.target for m in state.melds[state.side_of[seat]]}
                for a in legal:
                    if mv.STAGE_NATURAL <= a < mv.STAGE_WILD:
                        rank, slot = divmod(a - mv.STAGE_NATURAL, 2)
                        if slot == 0 and (held[rank] >= 3 or rank in on_table):
                            return a
                wilds = [a for a in legal if a >= mv.STAGE_WILD]
                if wilds and rng.random() < 0.3:
                    return rng.choice(wilds)
            gave_up[0] = turn
            if mv.CLEAR in legal:
                return mv.CLEAR
        discards = [a for a in legal if mv.DISCARD <= a < mv.STAGE_NATURAL]
        if state.phase == Phase.PLAY and discards:
            return min(discards, key=lambda a: (held[a - mv.DISCARD], rng.random()))
        plain = [a for a in legal if a < mv.STAGE_NATURAL and a != mv.CLEAR]
        return rng.choice(plain or legal)
    return choose


@dataclasses.dataclass
class Played:
    state: GameState
    record: GameRecord


def play(profile_name: str, layout: str, seed: int, *, keen: bool = False,
         overrides: dict[str, Any] | None = None) -> Played:
    profile = load_profile(profile_name, overrides=overrides)
    state = GameState.new(profile, layout=Layout.parse(layout), seed=seed)
    recorder = GameRecorder(state, metadata={"created_by": "tests"})
    rng = random.Random(seed)
    policy = keen_policy(rng) if keen else random_policy(rng)
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            break
        recorder.apply_action(policy(state))
    else:
        pytest.fail(f"{profile_name} {layout} seed {seed}: no end after {MAX_ACTIONS} actions")
    return Played(state, recorder.record())


@functools.cache
def played(profile_name: str, layout: str, seed: int, keen: bool = False) -> Played:
    return play(profile_name, layout, seed, keen=keen, overrides=EASY_OUT if keen else None)


GAMES = [("partnership-13", "2x2", 1), ("biegames", "2x2", 2), ("biegames", "2x1", 3)]


def replaces_move(record: GameRecord, round_index: int, move_index: int,
                  new: RecordedMove) -> GameRecord:
    rounds = list(record.rounds)
    rnd = rounds[round_index]
    moves = list(rnd.moves)
    moves[move_index] = new
    rounds[round_index] = dataclasses.replace(rnd, moves=tuple(moves))
    return dataclasses.replace(record, rounds=tuple(rounds))


def state_before(record: GameRecord, round_index: int, move_index: int) -> GameState:
    """The game just before a move, played from the record."""
    state = GameState.new(record.profile(), layout=Layout.parse(record.layout),
                          deals=[r.deal for r in record.rounds])
    for r, rnd in enumerate(record.rounds[:round_index + 1]):
        for recorded in rnd.moves[:move_index if r == round_index else None]:
            state.apply(mv.parse_move(recorded.move))
    return state


def global_number(record: GameRecord, round_index: int, move_index: int) -> int:
    return sum(len(r.moves) for r in record.rounds[:round_index]) + move_index + 1


# --- recording and replaying whole games ---------------------------------------------------


@pytest.mark.parametrize(("profile_name", "layout", "seed"), GAMES)
def test_random_game_round_trips_and_replays(profile_name: str, layout: str,
                                             seed: int) -> None:
    game = played(profile_name, layout, seed)
    record, state = game.record, game.state
    assert len(record.rounds) == state.profile.rounds
    assert all(r.result is not None for r in record.rounds)
    assert record.metadata["seed"] == seed  # recorded once the game is over
    text = to_json(record)
    data = json.loads(text)
    jsonschema.Draft202012Validator(record_schema()).validate(data)
    assert data["format"] == FORMAT and data["version"] == 1
    assert data["rounds"][0]["moves"][0]["seat"] == record.rounds[0].deal.first_player
    back = from_json(text)
    assert back == record
    assert to_json(back) == text  # stable
    result = replay(back)
    assert result.ok, [p.message for p in result.problems]
    assert result.error is None and not result.mismatches
    assert result.moves_applied == record.moves
    assert result.results == tuple(state.results)
    assert result.totals == tuple(state.totals)
    assert result.game_over and result.winners == state.winners()


def test_keen_games_hold_every_kind_of_move_and_replay() -> None:
    verbs: set[str] = set()
    reasons: set[str] = set()
    wild_only_additions = 0
    for profile_name, layout, seed in [("biegames", "2x1", 4), ("biegames", "2x2", 1),
                                       ("partnership-13", "2x2", 3)]:
        game = played(profile_name, layout, seed, keen=True)
        record = game.record
        assert record.overrides == EASY_OUT
        for rnd in record.rounds:
            for m in rnd.moves:
                verbs.add(m.move.split()[0])
                wild_only_additions += ":" in m.move
        back = from_json(to_json(record))
        assert back == record
        result = replay(back)
        assert result.ok, [p.message for p in result.problems]
        assert result.results == tuple(game.state.results)
        reasons.update(r.reason for r in result.results)
    assert {"draw", "discard", "meld", "pickup", "goout", "yes", "undo"} <= verbs
    assert "went out" in reasons
    assert wild_only_additions  # "meld K: 2" style moves replay too


def test_move_notation_names_the_meld_of_wild_cards_alone() -> None:
    move = mv.Meld((mv.MeldGroup(cards.SEVEN, 1), mv.MeldGroup(cards.KING, 0, 1, 1)))
    assert mv.format_move(move) == "meld 7 | K: 2 JK"
    assert mv.parse_move("meld 7 | K: 2 JK") == move
    assert mv.parse_move("meld 2 2 JK") == mv.Meld((mv.MeldGroup(mv.WILD_MELD, 0, 2, 1),))


def test_seed_is_recorded_only_once_the_game_is_over() -> None:
    profile = load_profile("biegames")
    state = GameState.new(profile, seed=11)
    recorder = GameRecorder(state)
    recorder.apply(mv.Draw())
    record = recorder.record()
    assert "seed" not in record.metadata
    assert record.rounds[0].moves == (RecordedMove(state.deal.first_player, "draw"),)
    assert record.rounds[0].result is None
    assert record.rounds[0].deal == deal_round(profile, profile.layout, 11, 1)


def test_recorder_logs_committed_moves_not_staging() -> None:
    profile = load_profile("partnership-13")
    state = GameState.new(profile, seed=5)
    recorder = GameRecorder(state)
    seat = state.to_act
    assert recorder.apply_action(mv.DRAW) == mv.Draw()
    kind = next(k for k in cards.RANKS if state.held[seat][k])
    assert recorder.apply_action(mv.STAGE_NATURAL + kind * 2) is None
    recorder.apply(mv.ClearStaged())
    recorder.apply(mv.Discard(kind))
    moves = recorder.record().rounds[0].moves
    assert [m.move for m in moves] == ["draw", f"discard {cards.KIND_CODES[kind]}"]
    assert {m.seat for m in moves} == {seat}
    with pytest.raises(mv.MoveSyntaxError):
        mv.parse_move("stage K")
    with pytest.raises(ValueError, match="before its first move"):
        GameRecorder(state)


def test_profile_of_a_house_rule_file_is_rebuilt(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('extends = "biegames"\n[game]\nrounds = 2\n[melds]\nbook_max = "none"\n')
    full = tmp_path / "full.toml"  # a complete profile, not based on a built-in one
    full.write_text(
        (Path(__file__).parents[1] / "src/handfoot/game/profiles/biegames.toml").read_text()
        .replace("rounds = 4", "rounds = 3").replace('name = "biegames"', 'name = "mine"'))
    for path, rounds in ((house, 2), (full, 3)):
        profile = load_profile(path)
        base, overrides = profile_spec(profile)
        assert base == "biegames"
        assert overrides["rounds"] == rounds
        rebuilt = load_profile(base, overrides=overrides)
        assert rebuilt.rounds == rounds and rebuilt.book_max == profile.book_max


# --- replay finds what is wrong ------------------------------------------------------------


def test_tampered_discard_is_reported_at_its_move_number(tmp_path: Path) -> None:
    record = played("partnership-13", "2x2", 1).record
    r = 1
    m = [i for i, x in enumerate(record.rounds[r].moves) if x.move.startswith("discard")][7]
    state = state_before(record, r, m)
    seat = state.to_act
    kind = next(k for k in range(cards.RED_THREE) if not state.held[seat][k])
    text = f"discard {cards.KIND_CODES[kind]}"
    tampered = replaces_move(record, r, m, RecordedMove(seat, text))
    result = replay(tampered)
    assert not result.ok and result.error is not None
    number = global_number(record, r, m)
    err = result.error
    assert (err.kind, err.move_number, err.round_number, err.round_move_number, err.seat,
            err.move) == ("illegal move", number, r + 1, m + 1, seat, text)
    assert err.reason == f"you hold no {cards.KIND_NAMES[kind]} to discard"
    assert result.moves_applied == number - 1
    assert err.message.startswith(f"move {number} (round 2, move {m + 1} of the round; "
                                  f"rounds[1].moves[{m}]): seat {seat + 1} {text!r} is illegal")

    path = tmp_path / "tampered.json"
    path.write_text(to_json(tampered))
    code, out = replay_command(str(path), json_output=False)
    assert code == 1
    assert f"move {number}" in out and text in out and err.reason in out
    code, out = replay_command(str(path), json_output=True)
    assert code == 1
    data = json.loads(out)
    assert data["ok"] is False
    assert data["problems"][-1]["move_number"] == number
    assert data["problems"][-1]["reason"] == err.reason


def test_draw_replaced_by_an_illegal_pickup_is_reported() -> None:
    record = played("biegames", "2x2", 2).record
    r = 0
    for m, recorded in enumerate(record.rounds[r].moves):
        if recorded.move == "draw" and m > 20:
            state = state_before(record, r, m)
            reason = state.check(mv.Pickup())
            if reason is not None:
                break
    else:
        pytest.fail("no draw where a bare pickup is illegal")
    result = replay(replaces_move(record, r, m, RecordedMove(recorded.seat, "pickup")))
    assert result.error is not None
    assert result.error.move_number == global_number(record, r, m)
    assert result.error.move == "pickup"
    assert result.error.reason == reason


def test_wrong_seat_and_wrong_result_are_reported() -> None:
    record = played("biegames", "2x1", 3).record
    moved = record.rounds[0].moves[4]
    result = replay(replaces_move(record, 0, 4, RecordedMove(1 - moved.seat, moved.move)))
    assert result.error is not None and result.error.kind == "wrong seat"
    assert result.error.move_number == 5
    assert "recorded for seat" in result.error.reason

    recorded = record.rounds[1].result
    assert recorded is not None
    score = recorded.scores[0]
    line = score.lines[0]
    bad_line = dataclasses.replace(line, points=line.points + 5)
    bad_score = dataclasses.replace(score, lines=(bad_line, *score.lines[1:]))
    bad = dataclasses.replace(recorded, scores=(bad_score, *recorded.scores[1:]))
    rounds = list(record.rounds)
    rounds[1] = dataclasses.replace(rounds[1], result=bad)
    result = replay(dataclasses.replace(record, rounds=tuple(rounds)))
    assert result.error is None and not result.ok
    (mismatch,) = result.mismatches
    assert mismatch.round_number == 2 and mismatch.kind == "result mismatch"
    assert f"side 1 {line.key}: recorded" in mismatch.reason
    assert result.moves_applied == record.moves  # replay goes on after a mismatch


def test_round_that_does_not_end_where_recorded_is_reported() -> None:
    record = played("biegames", "2x1", 3).record
    rounds = list(record.rounds)
    rounds[0] = dataclasses.replace(rounds[0], moves=rounds[0].moves[:-1], result=None)
    result = replay(dataclasses.replace(record, rounds=tuple(rounds)))
    assert result.error is not None and result.error.kind == "round structure"
    assert "has not ended" in result.error.reason

    extra = RecordedMove(0, "draw")
    rounds = list(record.rounds)
    rounds[0] = dataclasses.replace(rounds[0], moves=(*rounds[0].moves, extra))
    result = replay(dataclasses.replace(record, rounds=tuple(rounds)))
    assert result.error is not None and result.error.kind == "round structure"
    assert result.error.move_number == len(record.rounds[0].moves) + 1
    assert "has already ended" in result.error.reason


# --- reading: clear errors for bad files ---------------------------------------------------


@functools.cache
def small_game_text() -> str:
    return to_json(played("biegames", "2x1", 3).record)


def edited(edit: Callable[[dict[str, Any]], object]) -> str:
    data = json.loads(small_game_text())
    edit(data)
    return json.dumps(data)


def read_error(text: str) -> str:
    with pytest.raises(RecordError) as info:
        from_json(text)
    return str(info.value)


def test_deal_missing_a_card_is_rejected() -> None:
    data = json.loads(small_game_text())
    lost = data["rounds"][0]["deal"]["stock"].pop(3)
    message = read_error(json.dumps(data))
    assert message.startswith("rounds[0].deal: the cards are not biegames's shoe")
    assert f"1 card missing ({lost})" in message


def test_bad_cards_and_moves_are_named_by_path() -> None:
    def set_card(data: dict[str, Any], value: str) -> None:
        data["rounds"][0]["deal"]["hands"][1][5] = value

    message = read_error(edited(lambda d: set_card(d, "KX")))
    assert message.startswith("rounds[0].deal.hands[1][5]: 'KX' is not a card: write a rank")
    message = read_error(edited(lambda d: set_card(d, "10d")))
    assert message == "rounds[0].deal.hands[1][5]: '10d' is not a card in the record notation: "\
        "write 'TD'"
    message = read_error(edited(lambda d: d["rounds"][1]["moves"][3].update(move="drwa")))
    assert message.startswith("rounds[1].moves[3].move: 'drwa': unknown move 'drwa'")
    message = read_error(edited(lambda d: d["rounds"][0]["moves"][2].update(move="meld K Q")))
    assert "rounds[0].moves[2].move: 'meld K Q': 'K Q' mixes kings and queens" in message
    message = read_error(edited(lambda d: d["rounds"][0]["moves"][2].update(seat=5)))
    assert message.startswith("rounds[0].moves[2].seat: 5 is not a seat index")
    message = read_error(edited(lambda d: d["rounds"][0]["moves"][2].pop("seat")))
    assert message == "rounds[0].moves[2]: 'seat' is a required property"
    message = read_error(edited(lambda d: d["rounds"][0]["moves"][2].update(seat="N")))
    assert message == 'rounds[0].moves[2].seat: must be an integer, not a string "N"'
    message = read_error(edited(lambda d: d.update(rounds={})))
    assert message == "rounds: must be an array, not an object"
    message = read_error(edited(lambda d: d["rounds"][0]["deal"]["hands"][0].pop()))
    assert message == "rounds[0].deal.hands[0]: 10 cards; biegames deals 11 to each Hand"


def test_bad_profile_layout_and_seats_are_rejected() -> None:
    message = read_error(edited(lambda d: d["profile"].update(name="biegame")))
    assert message.startswith("profile.name: 'biegame' is not a built-in profile")
    assert "did you mean 'biegames'?" in message
    message = read_error(edited(lambda d: d["profile"]["overrides"].update(rounds=0)))
    assert message == "profile.overrides: [game] rounds: 0 is out of range (1 to 100)"
    message = read_error(edited(lambda d: d["profile"]["overrides"].update(roundz=2)))
    assert message.startswith("profile.overrides: roundz: unknown parameter; did you mean")
    message = read_error(edited(lambda d: d["profile"].update(name="partnership-13")))
    assert message.startswith("layout: partnership-13 is played as 2x2 (4 players), not 2x1")
    message = read_error(edited(lambda d: d["seats"][1].update(side=0)))
    assert message.startswith("seats[1].side: in a 2x1 game seat index 1 plays for side 1")
    message = read_error(edited(lambda d: d.update(layout="two")))
    assert message.startswith("layout: 'two' is not a layout")


def test_not_a_record_is_rejected() -> None:
    assert read_error("{").startswith("not valid JSON: line 1")
    assert read_error("[]").startswith("not a handfoot game record")
    assert read_error(edited(lambda d: d.update(version=2))).startswith(
        "version: records of version 2 cannot be read")
    message = read_error(edited(lambda d: d.update(extra=1)))
    assert message.startswith("record: Additional properties are not allowed ('extra'")


def test_replay_command_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(small_game_text())
    code, out = replay_command(str(good), json_output=False)
    assert code == 0, out
    assert "Round 2: " in out and "Final totals:" in out and out.rstrip().endswith(
        "every recorded result matches.")
    code, out = replay_command(str(good), json_output=True)
    assert code == 0
    data = json.loads(out)
    assert data["ok"] and data["game_over"] and len(data["rounds"]) == 4
    assert data["totals"] == list(played("biegames", "2x1", 3).state.totals)

    code, out = replay_command(str(tmp_path / "missing.json"), json_output=False)
    assert code == 2 and "cannot read the file" in out
    bad = tmp_path / "bad.json"
    bad.write_text(edited(lambda d: d["rounds"][0]["deal"]["stock"].pop()))
    code, out = replay_command(str(bad), json_output=False)
    assert code == 2 and out.startswith(f"{bad}: rounds[0].deal: the cards are not")
    code, out = replay_command(str(bad), json_output=True)
    assert code == 2 and json.loads(out)["error"].startswith("rounds[0].deal:")


def test_format_breakdown() -> None:
    result = played("biegames", "2x1", 3).state.results[0]
    text = format_breakdown(result, side_names=["Ann", "Bob"])
    lines = text.splitlines()
    assert lines[0] == f"Round 1: {result.reason}"
    assert "Ann" in lines[1] and "Bob" in lines[1]
    for score in result.scores:
        for line in score.lines:
            assert any(row.startswith(line.label) for row in lines)
    assert re.search(rf"Round total\s+{result.scores[0].total}\s+{result.scores[1].total}$",
                     text, re.M)


# --- hand-written records ------------------------------------------------------------------


def hand_written(deal: Deal, moves: list[dict[str, Any]]) -> dict[str, Any]:
    def faces(packet: tuple[int, ...]) -> list[str]:
        return [cards.face_name(f) for f in packet]

    return {
        "format": "handfoot-record",
        "version": 1,
        "profile": {"name": "partnership-13", "overrides": {"rounds": 1}},
        "layout": "2x2",
        "seats": [{"name": n, "side": i % 2} for i, n in enumerate(["N", "E", "S", "W"])],
        "rounds": [{
            "deal": {"hands": [faces(h) for h in deal.hands],
                     "feet": [faces(f) for f in deal.feet],
                     "stock": faces(deal.stock), "discard": faces(deal.discard),
                     "dealer": deal.dealer, "first_player": deal.first_player},
            "moves": moves,
        }],
    }


def test_hand_written_record_replays() -> None:
    profile = load_profile("partnership-13", overrides={"rounds": 1})
    deal = deal_round(profile, profile.layout, 2024, 1)
    first = deal.first_player
    keep = [f for f in deal.hands[first] if cards.kind_of(f) < cards.RED_THREE]
    second = (first + 1) % 4
    other = [f for f in deal.hands[second] if cards.kind_of(f) < cards.RED_THREE]
    moves = [
        {"seat": first, "move": "draw"},
        {"seat": first, "move": f"discard {cards.face_name(keep[0])}"},  # a full card is a kind
        {"seat": second, "move": "DRAW"},
        {"seat": second, "move": f"discard {cards.KIND_CODES[cards.kind_of(other[-1])]}"},
    ]
    data = hand_written(deal, moves)
    jsonschema.Draft202012Validator(record_schema()).validate(data)
    data["rounds"][0]["deal"]["dealer"] = float(deal.dealer)  # JSON's 3.0 is an integer too
    record = from_json(json.dumps(data))
    assert record.rounds[0].deal == deal
    assert isinstance(record.rounds[0].deal.dealer, int)
    assert record.metadata == {}
    result = replay(record)
    assert result.ok, [p.message for p in result.problems]
    assert result.moves_applied == 4 and not result.results and not result.game_over
    assert result.winners is None
    assert result.state.to_act == (first + 2) % 4
    assert result.state.pile[-2:] == [keep[0], result.state.pile[-1]]

    # The same record with a move that breaks the rules.
    data["rounds"][0]["moves"].append({"seat": (first + 2) % 4, "move": "discard 5"})
    result = replay(from_json(json.dumps(data)))
    assert result.error is not None and result.error.move_number == 5
    assert result.error.reason == "you must draw or take the pile before you discard"


def test_documentation_example_replays() -> None:
    doc = (Path(__file__).parents[1] / "docs" / "records.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(\{\n  \"format\".*?)```", doc, re.S)
    assert block is not None
    record = from_json(block.group(1))
    result = replay(record)
    assert result.ok and result.moves_applied == record.moves > 0
    assert to_json(record) == block.group(1)


def test_schema_is_valid_and_matches_the_record_data() -> None:
    schema = record_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    record = played("biegames", "2x1", 3).record
    data = record_to_data(record)
    jsonschema.Draft202012Validator(schema).validate(data)
    assert check_record(record)[1] == Layout(2, 1)
    round_record = RoundRecord(record.rounds[0].deal)
    assert round_record.moves == () and round_record.result is None



def test_a_recorder_wrapped_after_round_1_with_a_hand_size_by_round_records_every_round() -> None:
    """GameRecorder wrapping a state after round 1 (it ended as dealt: a red 3 with no card
    to replace it) when the Hand differs by round (as under ``growing_hand``): the record
    has each round's own Hand, reads back, and replays to the same game."""
    from handfoot.bots.heuristic import HardBot

    p = load_profile("biegames", overrides={
        "layouts": ["2x1"], "decks_per_player": 0, "extra_decks": 1, "hand_size": 13,
        "foot_size": 13, "draw_count": 1, "rounds": 2, "starter_rejected": [],
        "book_size": 4, "book_max": 4, "clean_books_to_go_out": 1,
        "dirty_books_to_go_out": 0, "hand_size_by_round": [13, 9]})
    seed = next(s for s in range(500) if len(GameState.new(p, seed=s).results) == 1)
    state = GameState.new(p, seed=seed)
    assert state.round_number == 2 and state.moves_played == 0
    recorder = GameRecorder(state)
    bots = [HardBot(s) for s in range(state.players)]
    while not state.is_over:
        recorder.apply_action(bots[state.to_act].choose(state.view(state.to_act)))
    record = from_json(to_json(recorder.record()))
    assert [len(r.deal.hands[0]) for r in record.rounds] == [13, 9]
    assert len(record.rounds[1].moves) == state.moves_played > 0
    done = replay(record)
    assert done.error is None and not done.mismatches and done.state.is_over
    assert done.results == tuple(state.results)
