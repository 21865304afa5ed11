"""Club duplicate tournaments (issue 30, item 4): the seating rotation, the same deals at
every table, and the scoring against the other tables (handfoot.runs.duplicate)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from handfoot.game.loading import load_profile
from handfoot.game.record import replay
from handfoot.game.rules import Layout
from handfoot.runs.duplicate import (
    TableResult,
    play_table_with_bots,
    schedule,
    standings,
    table_result_of_record,
)

PAIRS = Layout.parse("2x2")


def partner_counts(plan: list[list[tuple[str | None, ...]]]) -> Counter[frozenset[str]]:
    """How often each two players were partners (seats 0 and 2, 1 and 3), counted here."""
    count: Counter[frozenset[str]] = Counter()
    for tables in plan:
        for t in tables:
            for a, b in ((0, 2), (1, 3)):
                if t[a] is not None and t[b] is not None:
                    count[frozenset((t[a], t[b]))] += 1
    return count


def test_eight_players_partner_each_other_once_in_seven_rounds() -> None:
    players = [f"P{i}" for i in range(8)]
    plan = schedule(players, 2, 7, PAIRS, seed=1)
    count = partner_counts(plan)
    assert all(count[frozenset(p)] == 1 for p in combinations(players, 2))
    for tables in plan:  # everyone plays every round, once
        seated = [p for t in tables for p in t]
        assert sorted(p for p in seated if p is not None) == sorted(players)


def test_partners_spread_as_evenly_as_the_numbers_allow() -> None:
    players = [f"P{i}" for i in range(12)]
    plan = schedule(players, 3, 5, PAIRS, seed=7)
    count = partner_counts(plan)
    assert max(count.values()) == 1  # 5 rounds of 6 partnerships: 30 of the 66 pairs, none twice


def test_bots_fill_the_empty_seats_spread_over_the_tables() -> None:
    plan = schedule(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], 2, 3, PAIRS, seed=3)
    for tables in plan:
        assert [sum(p is None for p in t) for t in tables] == [1, 1]
    assert plan == schedule(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], 2, 3, PAIRS, seed=3)
    assert plan != schedule(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], 2, 3, PAIRS, seed=4)


@pytest.mark.parametrize(("players", "tables", "rounds", "words"), [
    (["A"] * 2, 2, 1, "only once"),
    ([f"P{i}" for i in range(9)], 2, 1, "9 players for 2 tables of 4 seats"),
    (["A", "B"], 1, 1, "2 to 16 tables"),
    (["A", "B"], 2, 0, "1 to 12 rounds"),
])
def test_a_schedule_that_cannot_be_is_refused(players: list[str], tables: int, rounds: int,
                                              words: str) -> None:
    with pytest.raises(ValueError, match=words):
        schedule(players, tables, rounds, PAIRS, seed=1)


def test_the_scoring_example_of_the_docs() -> None:
    results = [TableResult(0, 0, ("Ann", "Bob", "Cat", "Dan"), (3250, 1900)),
               TableResult(0, 1, ("Eve", "Fay", "Gus", None), (2450, 2700))]
    got = {s.name: s.score for s in standings(results, PAIRS, ["Ann", "Bob", "Cat", "Dan",
                                                               "Eve", "Fay", "Gus"], 1)}
    assert got == {"Ann": 400, "Cat": 400, "Bob": -400, "Dan": -400,
                   "Eve": -400, "Gus": -400, "Fay": 400}


def test_a_table_still_playing_is_not_counted_yet() -> None:
    results = [TableResult(0, 0, ("Ann", "Bob", "Cat", "Dan"), (3250, 1900)),
               TableResult(0, 1, ("Eve", "Fay", "Gus", "Hal"), None),
               TableResult(0, 2, ("Ida", "Jo", "Kim", "Lu"), (1250, 1900))]
    table = standings(results, PAIRS, ["Ann", "Eve", "Ida", "Jo"], 2)
    got = {s.name: (s.score, s.played, s.rounds) for s in table}
    assert got["Eve"] == (0, 0, [None, None])
    assert got["Ann"] == (1000, 1, [1000, None])  # 3250 - (3250 + 1250) / 2
    assert got["Jo"] == (0, 1, [0, None])  # 1900 - (1900 + 1900) / 2
    assert table[0].name == "Ann"


def test_every_table_plays_the_same_deals_and_scores_sum_to_zero() -> None:
    profile = load_profile("partnership-13", overrides={"rounds": 2})
    players = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
    plan = schedule(players, 2, 1, PAIRS, seed=5)
    records = [play_table_with_bots(profile, PAIRS, seats, 5, 0, t, level="easy")
               for t, seats in enumerate(plan[0])]
    for rnd in range(2):
        assert records[0].rounds[rnd].deal == records[1].rounds[rnd].deal
    # easy bots draw on their seeds, which differ per table: the games differ
    assert [m.move for m in records[0].rounds[0].moves] != \
        [m.move for m in records[1].rounds[0].moves]
    results = [table_result_of_record(r, 0, t, plan[0][t]) for t, r in enumerate(records)]
    totals = [replay(r).totals for r in records]
    assert [r.totals for r in results] == [tuple(t) for t in totals]
    table = standings(results, PAIRS, players, 1)
    assert len(table) == 7 and all(s.played == 1 for s in table)
    # by hand: each side's total minus its direction's mean over the two tables
    for t, seats in enumerate(plan[0]):
        for seat, name in enumerate(seats):
            if name is None:
                continue
            side = seat % 2
            expected = totals[t][side] - (totals[0][side] + totals[1][side]) / 2
            assert next(s.score for s in table if s.name == name) == expected
    assert records[0].metadata["bots"] == [None if p else "easy" for p in plan[0][0]]
