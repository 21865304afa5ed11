"""The edges of game records (game/record.py) the whole-game tests pass by: a result's seat
and totals at their bounds, a recorded result that differs in who went out or in the game
totals, where a replay problem is, the text and exit code of a replay with a mismatch, and
files nested too deeply or holding huge numbers."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from handfoot.game.record import (
    GameRecord,
    RecordError,
    ReplayProblem,
    check_record,
    format_breakdown,
    from_json,
    replay,
    replay_command,
    to_json,
)
from test_record import edited, played, read_error, small_game_text


def _with_result(record: GameRecord, index: int, **changes: Any) -> GameRecord:
    rounds = list(record.rounds)
    result = rounds[index].result
    assert result is not None
    rounds[index] = dataclasses.replace(rounds[index],
                                        result=dataclasses.replace(result, **changes))
    return dataclasses.replace(record, rounds=tuple(rounds))


def test_a_result_s_seat_and_totals_are_checked_at_their_bounds() -> None:
    def went_out(seat: int) -> str:
        return edited(lambda d: d["rounds"][0]["result"].update(went_out=seat))

    assert read_error(went_out(-1)) == "rounds[0].result.went_out: -1 is less than the minimum of 0"
    record = played("biegames", "2x1", 3).record  # a record built in code: no schema
    with pytest.raises(RecordError, match=r"^rounds\[0\]\.result\.went_out: -1 is not a seat "):
        check_record(_with_result(record, 0, went_out=-1))
    assert read_error(went_out(2)).startswith(
        "rounds[0].result.went_out: 2 is not a seat index of a 2x1 game")
    for seat in (0, 1):  # a seat of the game: read (replay finds the mismatch)
        assert from_json(went_out(seat)).rounds[0].result.went_out == seat  # type: ignore[union-attr]
    message = read_error(edited(lambda d: d["rounds"][1]["result"].update(totals=[1, 2, 3])))
    assert message == "rounds[1].result.totals: 3 entries for the 2 sides"
    record = from_json(edited(lambda d: d["rounds"][1]["result"].pop("totals")))
    assert record.rounds[1].result is not None and not record.rounds[1].result.totals


def test_a_recorded_result_that_differs_in_who_went_out_or_the_totals_is_a_mismatch() -> None:
    record = played("biegames", "2x1", 3).record
    assert record.rounds[0].result is not None and record.rounds[0].result.went_out is None
    result = replay(_with_result(record, 0, went_out=1))
    (mismatch,) = result.mismatches
    assert mismatch.reason == ("the recorded result differs: seat 2 went out, replay says "
                               "nobody")
    assert result.error is None and not result.ok and result.moves_applied == record.moves
    totals = record.rounds[1].result.totals  # type: ignore[union-attr]
    wrong = (totals[0] + 10, totals[1])
    (mismatch,) = replay(_with_result(record, 1, totals=wrong)).mismatches
    assert mismatch.reason == (f"the recorded result differs: game totals: recorded "
                               f"{list(wrong)}, replay {list(totals)}")
    assert mismatch.message == f"round 2 (rounds[1]): {mismatch.reason}"
    assert replay(_with_result(record, 1, totals=())).ok  # no totals recorded: none compared


def test_a_replay_problem_says_where_it_is() -> None:
    problem = ReplayProblem("round structure", 3, "it did not end")
    assert problem.where == "rounds[2]"
    assert problem.message == "round 3 (rounds[2]): it did not end"
    illegal = ReplayProblem("illegal move", 2, "no card", 40, 7, 1, "discard 5")
    assert illegal.where == "rounds[1].moves[6]"
    assert illegal.message == ("move 40 (round 2, move 7 of the round; rounds[1].moves[6]): "
                               "seat 2 'discard 5' is illegal: no card")
    assert illegal.to_data()["path"] == "rounds[1].moves[6]"


def test_a_breakdown_line_only_one_side_of_the_comparison_has_is_a_mismatch() -> None:
    record = played("biegames", "2x1", 3).record
    result = record.rounds[0].result
    assert result is not None
    first = result.scores[0]
    extra = dataclasses.replace(first.lines[0], key="mystery", label="Mystery")
    more = (dataclasses.replace(first, lines=(*first.lines, extra)), *result.scores[1:])
    (mismatch,) = replay(_with_result(record, 0, scores=more)).mismatches
    assert mismatch.reason == "the recorded result differs: side 1: replay has no 'mystery' line"
    fewer = (dataclasses.replace(first, lines=first.lines[1:]), *result.scores[1:])
    (mismatch,) = replay(_with_result(record, 0, scores=fewer)).mismatches
    key = first.lines[0].key
    assert mismatch.reason == f"the recorded result differs: side 1: the record has no {key!r} line"


def test_replay_s_text_ends_with_the_winner(tmp_path: Path) -> None:
    record = played("biegames", "2x1", 3).record
    result = replay(record)
    assert result.winners is not None and len(result.winners) == 1
    (winner,) = result.winners
    name = ", ".join(s.name for s in record.seats if s.side == winner)
    path = tmp_path / "game.json"
    path.write_text(to_json(record))
    code, out = replay_command(str(path), json_output=False)
    assert code == 0, out
    final = next(line for line in out.splitlines() if line.startswith("Final totals:"))
    assert final.endswith(f"Side {winner + 1} ({name}) wins."), final


def test_a_replay_with_a_mismatch_exits_1_and_says_so(tmp_path: Path) -> None:
    record = played("biegames", "2x1", 3).record
    path = tmp_path / "mismatch.json"
    path.write_text(to_json(_with_result(record, 0, went_out=0)))
    code, out = replay_command(str(path), json_output=False)
    assert code == 1
    lines = out.splitlines()
    assert "MISMATCH: round 1 (rounds[0]): the recorded result differs: seat 1 went out, " \
        "replay says nobody" in lines
    assert lines[-1] == f"{record.moves} moves replayed; 1 recorded result differs."
    code, out = replay_command(str(path), json_output=True)
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and data["game_over"] is True
    assert [p["kind"] for p in data["problems"]] == ["result mismatch"]


def test_a_file_nested_too_deeply_or_with_huge_numbers_is_refused_in_one_line() -> None:
    deep = "[" * 65 + "]" * 65
    assert read_error(deep) == ("not a handfoot game record: its arrays and objects are nested "
                                "65 deep; a record nests at most 64 deep")
    # 64 deep is read (and is then not a record); brackets inside strings do not count
    assert read_error("[" * 64 + "]" * 64).startswith("not a handfoot game record (its")
    assert read_error(json.dumps(["[" * 100])).startswith("not a handfoot game record (its")
    assert read_error("[" + "9" * 101 + "]") == (
        "not a handfoot game record: it holds an integer of 101 digits; a record's numbers "
        "have at most 100")
    assert read_error("[-" + "9" * 100 + "]").startswith("not a handfoot game record (its")
    assert read_error("[NaN]") == "not valid JSON: NaN is not a JSON number"


def test_a_wrong_type_is_named_with_its_value() -> None:
    def seat(value: object) -> str:
        return edited(lambda d: d["rounds"][0]["moves"][2].update(seat=value))

    assert read_error(seat(True)) == \
        "rounds[0].moves[2].seat: must be an integer, not true or false true"
    assert read_error(seat(None)) == "rounds[0].moves[2].seat: must be an integer, not null null"
    assert read_error(seat(1.5)) == "rounds[0].moves[2].seat: must be an integer, not a number 1.5"
    assert read_error(seat([1])) == "rounds[0].moves[2].seat: must be an integer, not an array"


def test_the_small_game_round_trips() -> None:
    text = small_game_text()
    assert to_json(from_json(text)) == text


def test_a_breakdown_names_who_went_out() -> None:
    result = played("biegames", "2x1", 3).state.results[0]
    out = dataclasses.replace(result, went_out=1)
    assert format_breakdown(out).splitlines()[0] == f"Round 1: {result.reason} (seat 2)"
    assert format_breakdown(out, seat_names=["Ann", "Bob"]).splitlines()[0] == \
        f"Round 1: {result.reason} (Bob)"


def test_a_replay_s_text_names_the_house_rules(tmp_path: Path) -> None:
    path = tmp_path / "rules.json"
    path.write_text(edited(
        lambda d: d["profile"]["overrides"].update(rounds=4, going_out_bonus=100)))
    code, out = replay_command(str(path), json_output=False)
    record = played("biegames", "2x1", 3).record
    assert code == 0, out
    assert out.splitlines()[0] == (f"{path}: biegames with going_out_bonus = 100, rounds = 4, 2x1, "
                                   f"4 rounds, {record.moves} moves")


def test_an_empty_list_the_format_needs_entries_in_is_named_with_its_minimum() -> None:
    assert read_error(edited(lambda d: d.update(seats=[]))) == \
        "seats: must hold at least 2 entries"
    assert read_error(edited(lambda d: d.update(rounds=[]))) == \
        "rounds: must hold at least 1 entry"
