"""The score keeper (handfoot.game.scoresheet): what a table counts, scored as the engine scores.

The property test plays random tables (every built-in profile, seating, drawn options and
drawn scoring parameters, tabletop ones included), stops them at a random move, counts each
side the way players at a real table count (books by kind, red 3s, who went out, the cards
melded and left, by card or as totals) and checks that the score keeper's breakdown and
total equal the engine's ``score_side`` for the same table, line for line.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from handfoot.bots.heuristic import EasyBot
from handfoot.game.cards import BLACK_THREE, FACE_KIND, KIND_NAMES, RED_THREE
from handfoot.game.engine import GameState
from handfoot.game.loading import OPTIONS, ProfileError, builtin_profile_names, load_profile
from handfoot.game.moves import WILD_MELD
from handfoot.game.rules import Layout, Profile
from handfoot.game.scoresheet import (
    ScoreSheet,
    ScoreSheetError,
    adjustments,
    entry_form,
    read_entry,
    score_entry,
    special_ranks,
    tabletop_rules,
)
from handfoot.game.table import Books, missing_books

NAMES = builtin_profile_names()


def compatible(keys: set[str]) -> bool:
    groups = [g for key in keys for g in OPTIONS[key].groups]
    return len(groups) == len(set(groups))


@st.composite
def rules(draw: st.DrawFn) -> tuple[Profile, Layout]:
    """A built-in profile with drawn options (tabletop ones too) and scoring parameters."""
    name = draw(st.sampled_from(NAMES), label="profile")
    meant = sorted(k for k, o in OPTIONS.items() if name in o.meant_for)
    keys = draw(st.sets(st.sampled_from(meant), max_size=4).filter(compatible)
                if meant else st.just(set()), label="options")
    overrides: dict[str, Any] = dict.fromkeys(sorted(keys), True)
    if draw(st.booleans(), label="scoring drawn"):
        value = st.integers(-50, 200)
        for key in ("value_joker", "value_two", "value_ace", "value_eight_to_king",
                    "value_four_to_seven"):
            overrides[key] = draw(value, label=key)
        for key in ("clean_book_bonus", "dirty_book_bonus", "wild_book_bonus",
                    "going_out_bonus", "red_three_bonus", "red_three_penalty",
                    "black_three_penalty", "perfect_deal_bonus", "improper_meld_penalty",
                    "knee_reminder_penalty", "bad_pickup_penalty"):
            overrides[key] = draw(st.integers(0, 1500), label=key)
        overrides["red_three_bulk_count"] = draw(st.integers(0, 6), label="bulk count")
        overrides["red_three_bulk_bonus"] = draw(st.integers(0, 1000), label="bulk bonus")
        overrides["unfinished_second_meld_negative"] = draw(st.booleans(), label="unfinished")
        overrides["special_book_bonus"] = draw(st.dictionaries(
            st.sampled_from(["4", "5", "7", "9", "K", "A"]), st.integers(0, 3000),
            max_size=3), label="special books")
        overrides["dealer_bonus"] = draw(st.lists(st.integers(0, 1000), max_size=4),
                                         label="dealer bonus")
    try:
        profile = load_profile(name, overrides=overrides or None)
    except ProfileError:
        profile = load_profile(name, overrides=dict.fromkeys(sorted(keys), True) or None)
    layout = draw(st.sampled_from(profile.layouts), label="layout")
    return profile, layout


def play_to(profile: Profile, layout: Layout, seed: int, moves: int) -> GameState:
    """A table after up to ``moves`` moves of easy bots (a tenth chosen at random)."""
    rng = random.Random(seed)
    state = GameState.new(profile, layout=layout, seed=seed)
    bots = [EasyBot(rng.randrange(2**32)) for _ in range(state.players)]
    for _ in range(moves):
        if state.is_over:
            break
        view = state.view(state.to_act)
        legal = view.legal_actions
        action = (legal[rng.randrange(len(legal))] if rng.random() < 0.1
                  else bots[state.to_act].choose(view))
        state.apply_action(action)
    return state


def counted(state: GameState, side: int, went_out: bool, by_card: bool,
            rng: random.Random) -> dict[str, Any]:
    """What players count for a side at the table, as a score-keeper entry."""
    p = state.profile
    values = p.kind_values
    unfinished_melds = []
    if p.unfinished_second_meld_negative:
        seen: set[int] = set()
        for m in state.melds[side]:
            if m.target in seen and m.target != WILD_MELD and m.size < p.book_size:
                unfinished_melds.append(m)
            seen.add(m.target)
    melded = Counter(FACE_KIND[f] for m in state.melds[side] if m not in unfinished_melds
                     for f in m.faces)
    unfinished = Counter(FACE_KIND[f] for m in unfinished_melds for f in m.faces)
    left: Counter[int] = Counter()
    for seat in state.layout.seats_of(side):
        for faces in (state.hand(seat), state.feet[seat], state.knees[seat]):
            left.update(FACE_KIND[f] for f in faces)
    books = state.book_counts(side)
    ranks = special_ranks(p)
    special = {KIND_NAMES[r]: books.get(f"clean:{r}", 0) for r in ranks}
    entry: dict[str, Any] = {
        "books": {"clean": books["clean"] - sum(special.values()), "dirty": books["dirty"],
                  "wild": books["wild"], "special": special},
        "red_threes": len(state.red_threes[side]), "went_out": went_out,
    }
    if by_card:
        entry["melded"] = {KIND_NAMES[k]: n for k, n in melded.items()}
        entry["left"] = {KIND_NAMES[k]: n for k, n in left.items()}
        if unfinished:
            entry["unfinished"] = {KIND_NAMES[k]: n for k, n in unfinished.items()}
    else:
        entry["melded"] = sum(values[k] * n for k, n in melded.items())
        entry["unfinished"] = sum(values[k] * n for k, n in unfinished.items())
        entry["left"] = sum(values[k] * n for k, n in left.items()
                            if k not in (BLACK_THREE, RED_THREE))
        entry["black_threes_left"] = left[BLACK_THREE]
        entry["red_threes_left"] = left[RED_THREE]
    entry["tabletop"] = {key: rng.randrange(4) for key in tabletop_rules(p)}
    if "perfect_deals" in entry["tabletop"]:  # a player at most once
        entry["tabletop"]["perfect_deals"] = rng.randrange(state.layout.seats_per_side + 1)
    if side != state.dealer % state.layout.sides:  # only the dealer's side
        entry["tabletop"].pop("dealer_off", None)
    return entry


def may_go_out(state: GameState, side: int) -> bool:
    b = state.book_counts(side)
    by_rank = tuple(b.get(f"clean:{r}", 0) for r in range(11))
    return not missing_books(state.profile, Books(b["clean"], b["dirty"], b["wild"], by_rank))


# No shrinking (as in test_properties.py): a smaller seed is not a simpler table, and each
# example plays up to 600 moves.
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(table=rules(), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 600),
       by_card=st.booleans())
def test_the_score_keeper_scores_a_table_as_the_engine_does(
        table: tuple[Profile, Layout], seed: int, moves: int, by_card: bool) -> None:
    profile, layout = table
    state = play_to(profile, layout, seed, moves)
    rng = random.Random(seed)
    ready = [s for s in range(layout.sides) if may_go_out(state, s)]
    out_side = rng.choice(ready) if ready and rng.random() < 0.7 else None
    sheet = ScoreSheet.new(profile, layout)
    data = [counted(state, s, s == out_side, by_card, rng) for s in range(layout.sides)]
    entries = sheet.read_round(data, 1)
    sheet.set_round(1, entries)
    view = sheet.view()
    for side, entry in enumerate(entries):
        went_out = layout.seats_of(out_side)[0] if out_side == side else None
        engine = state.score_side(side, went_out, adjustments(profile, entry))
        keeper = score_entry(profile, side, entry)
        assert keeper.total == engine.total == view.rounds[0].scores[side].total
        if by_card:
            assert keeper == engine  # every line: key, label, count and points
        else:  # a total gives no card counts
            assert [(x.key, x.label, x.points) for x in keeper.lines] == \
                [(x.key, x.label, x.points) for x in engine.lines]
    assert view.totals == [score_entry(profile, s, e).total for s, e in enumerate(entries)]


# --- refusals --------------------------------------------------------------------------------

TEAMS = load_profile("remastered-teams")
HKF = load_profile("hand-knee-foot")


def refused(profile: Profile, data: list[Any], layout: Layout | None = None) -> str:
    sheet = ScoreSheet.new(profile, layout or profile.layout)
    with pytest.raises(ScoreSheetError) as info:
        sheet.read_round(data, 1)
    return str(info.value)


def test_two_sides_going_out_are_refused() -> None:
    out = {"books": {"clean": 3, "dirty": 3, "wild": 1}, "went_out": True}
    message = refused(TEAMS, [out, out])
    assert message == "only one side goes out in a round, not Side 1 and Side 2"


def test_negative_counts_and_non_numbers_are_refused() -> None:
    assert refused(TEAMS, [{"books": {"clean": -1}}, {}]) == \
        "Side 1: clean books: a count cannot be negative (-1)"
    assert refused(TEAMS, [{}, {"red_threes": "two"}]) == \
        "Side 2: red 3s laid: a whole number, not 'two'"
    assert refused(TEAMS, [{"left": {"K": -2}}, {}]) == \
        "Side 1: cards left: kings: a count cannot be negative (-2)"
    assert refused(TEAMS, [{"left": {"3": 1}}, {}]).startswith(
        "Side 1: cards left: '3' is not a card")


def test_more_books_or_red_threes_than_the_decks_hold_are_refused() -> None:
    decks = TEAMS.decks(4)
    limit = (11 * 4 * decks + (4 + TEAMS.jokers_per_deck) * decks) // TEAMS.book_size
    many = {"books": {"dirty": limit}}
    assert refused(TEAMS, [many, {"books": {"clean": 1}}]) == \
        f"{limit + 1} books in one round: the {decks} decks in play allow at most {limit}"
    assert refused(TEAMS, [{"red_threes": decks}, {"red_threes": decks + 1}]) == \
        f"{2 * decks + 1} red 3s in one round: the {decks} decks in play allow at most " \
        f"{2 * decks}"
    assert refused(TEAMS, [{"melded": {"joker": 99}}, {}]) == \
        f"99 jokers in one round: the {decks} decks in play allow at most " \
        f"{TEAMS.jokers_per_deck * decks}"


def test_going_out_without_the_books_is_refused() -> None:
    assert refused(HKF, [{"went_out": True, "books": {"clean": 2, "dirty": 2}}, {}]) == \
        "Side 1 cannot have gone out: it still lacks a clean book of 5s, a clean book of 7s " \
        "and 1 all-wild book"
    assert refused(TEAMS, [{}, {"went_out": True, "books": {"clean": 9}}]).startswith(
        "Side 2 cannot have gone out: it still lacks ")


def test_books_need_their_cards_when_cards_are_counted() -> None:
    assert refused(TEAMS, [{"books": {"clean": 2}, "melded": {"K": 7}}, {}]) == \
        "Side 1: 2 books hold at least 14 cards, but only 7 cards melded are counted"


def test_only_the_next_round_or_a_correction_may_be_entered() -> None:
    sheet = ScoreSheet.new(TEAMS, TEAMS.layout)
    with pytest.raises(ScoreSheetError, match="1 is the next round"):
        sheet.read_round([{}, {}], 2)


# --- a sheet -------------------------------------------------------------------------------


def test_a_sheet_runs_totals_minimums_and_ends_with_the_winner() -> None:
    p = load_profile("remastered-teams")
    sheet = ScoreSheet.new(p, p.layout, ["Us", "Them"], [["Ann", "Bo"], ["Cy", "Di"]])
    view = sheet.view()
    assert view.next_round == 1 and view.next_minimums == [p.opening_minimum(1)] * 2
    rounds = [
        [{"books": {"clean": 3, "dirty": 3, "wild": 1}, "went_out": True, "melded": 900,
          "red_threes": 1},
         {"books": {"dirty": 1}, "melded": 300, "left": 85, "black_threes_left": 1}],
    ] * p.rounds
    for i, data in enumerate(rounds, start=1):
        sheet.set_round(i, sheet.read_round(data, i))
    view = sheet.view()
    first = 900 + 3 * p.clean_book_bonus + 3 * p.dirty_book_bonus + p.wild_book_bonus + \
        p.red_three_bonus + p.going_out_bonus
    second = 300 + p.dirty_book_bonus - 85 - p.black_three_penalty
    assert view.totals == [first * p.rounds, second * p.rounds]
    assert view.over and view.winners == [0] and view.next_round is None
    assert [r.minimums for r in view.rounds][1] == [p.opening_minimum(2)] * 2
    with pytest.raises(ScoreSheetError, match="the game is over"):
        sheet.read_round(rounds[0], p.rounds + 1)
    again = ScoreSheet.from_json(sheet.json())
    assert again.json() == sheet.json()
    csv_text = sheet.csv()
    assert csv_text.splitlines()[0] == "round,side,line,count,points"
    assert f"1,Us,Round total,,{first}" in csv_text.splitlines()


def test_opening_minimums_by_score_follow_the_running_totals() -> None:
    p = load_profile("remastered-teams", overrides={"minimums_by_score": True})
    sheet = ScoreSheet.new(p, p.layout)
    sheet.set_round(1, sheet.read_round([{"melded": 6000}, {"left": 200}], 1))
    assert sheet.view().next_minimums == [p.opening_minimum(2, 6000),
                                          p.opening_minimum(2, -200)]
    assert sheet.view().next_minimums == [90, 15]


def test_tabletop_rules_become_breakdown_lines() -> None:
    p = load_profile("remastered-teams", overrides={"dealer_deals": True,
                                                    "penalty_unmeldable_pickup": True})
    form = entry_form(p)
    # remastered-teams has the improper-meld penalty itself
    assert {t["key"] for t in form["tabletop"]} == {"dealer_off", "bad_pickups",
                                                    "improper_melds"}
    entry = read_entry(p, {"tabletop": {"dealer_off": 1, "bad_pickups": 2}})
    lines = [(x.label, x.points) for x in score_entry(p, 0, entry).lines
             if x.key == "adjustment"]
    assert lines == [("Dealer accuracy bonus: 1 off", 500), ("Unmeldable pickup \u00d72", -100)]
    with pytest.raises(ScoreSheetError, match="these rules score nothing for it"):
        read_entry(TEAMS, {"tabletop": {"knee_reminders": 1}})


# --- hostile input ---------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=True)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=20)
KEYS = st.sampled_from(["books", "red_threes", "went_out", "melded", "left", "unfinished",
                        "black_threes_left", "red_threes_left", "tabletop", "x"])
FIELDS_ = st.sampled_from(["clean", "dirty", "wild", "special", "K", "joker", "red 3",
                           "5", "dealer_off", "improper_melds", "perfect_deals", "?"])
ENTRY = st.dictionaries(KEYS, JSON | st.dictionaries(FIELDS_, JSON, max_size=4), max_size=6)


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(NAMES), data=st.lists(ENTRY, min_size=1, max_size=4) | JSON,
       number=st.integers(-2, 3))
def test_any_round_is_stored_or_refused_with_a_reason(name: str, data: Any,
                                                      number: int) -> None:
    p = load_profile(name)
    sheet = ScoreSheet.new(p, p.layout)
    try:
        entries = sheet.read_round(data, number)
    except ScoreSheetError as exc:
        assert str(exc)
        return
    sheet.set_round(number, entries)
    again = ScoreSheet.from_json(sheet.json())  # what was stored reads back the same
    assert again.view().totals == sheet.view().totals


# --- walked again with hostile input ----------------------------------------------------------


def test_names_drop_invisible_characters_and_two_sides_cannot_share_one() -> None:
    sheet = ScoreSheet.new(TEAMS, TEAMS.layout, ["\u202eUs\x00", "\u200b"],
                           [["Ann\u200b", " Bo "], ["Cy", "\x07"]], "Fri\u2066day\n")
    assert sheet.sides == ["Us", "Side 2"] and sheet.title == "Friday"
    assert sheet.players == [["Ann", "Bo"], ["Cy", "Side 2 2"]]
    with pytest.raises(ScoreSheetError, match="sides: two are called 'Us'; give each its own"):
        ScoreSheet.new(TEAMS, TEAMS.layout, ["Us", " Us\u200b"])
    with pytest.raises(ScoreSheetError, match="players of Us: two are called 'Bo'"):
        ScoreSheet.new(TEAMS, TEAMS.layout, ["Us", "Them"], [["Bo", "Bo"], ["Cy", "Di"]])
    # a sheet saved before the check still opens
    old = ScoreSheet.new(TEAMS, TEAMS.layout, ["Us", "Us"], unique=False).json()
    assert ScoreSheet.from_json(old).sides == ["Us", "Us"]


def test_a_perfect_deal_per_player_at_most_and_one_dealer_a_round() -> None:
    message = refused(TEAMS, [{"tabletop": {"perfect_deals": 3}}, {}])
    assert message == "Side 1: 3 players with a perfect deal, but the side has 2 players"
    assert refused(load_profile("remastered-singles"),
                   [{"tabletop": {"perfect_deals": 2}}, {}], Layout(2, 1)) == \
        "Player 1: 2 players with a perfect deal, but the side has 1 player"
    ScoreSheet.new(TEAMS, TEAMS.layout).read_round([{"tabletop": {"perfect_deals": 2}}, {}], 1)
    p = load_profile("remastered-teams", overrides={"dealer_deals": True})  # OPT-04
    message = refused(p, [{"tabletop": {"dealer_off": 0}}, {"tabletop": {"dealer_off": 1}}])
    assert message.startswith("one player deals a round: the cards the dealer was off go to "
                              "one side, not Side 1 and Side 2")
    sheet = ScoreSheet.new(p, p.layout)
    sheet.read_round([{"tabletop": {"dealer_off": 0}},
                      {"tabletop": {"dealer_off": None}}], 1)


def test_an_absurd_number_is_refused_without_echoing_all_its_digits() -> None:
    message = refused(TEAMS, [{"melded": 10**300}, {}])
    assert message == "Side 1: cards melded: 100000000000\u2026 points is far more than a " \
        "round holds"
    assert refused(TEAMS, [{"red_threes": 10**30}, {}]) == \
        "Side 1: red 3s laid: 100000000000\u2026 is far more than a round holds"
    assert refused(TEAMS, [{"red_threes": 10_001}, {}]) == \
        "Side 1: red 3s laid: 10001 is far more than a round holds"


def test_a_correction_cannot_end_a_first_to_n_game_before_rounds_played_after_it() -> None:
    """First to 10,000 (OPT-02): the game ends at the round a side reaches it, as the
    engine's does; a correction that would put the end before rounds already entered is
    refused (the same change to the last round is a correction like any other)."""
    p = load_profile("remastered-teams", overrides={"first_to_10000": True})
    sheet = ScoreSheet.new(p, p.layout, ["Us", "Them"])
    for number in (1, 2):
        sheet.set_round(number, sheet.read_round([{"melded": 3000}, {"melded": 2000}], number))
    assert not sheet.over and sheet.totals() == [6000, 4000]
    with pytest.raises(ScoreSheetError) as info:
        sheet.read_round([{"melded": 11000}, {}], 1)
    assert str(info.value) == (
        "with this correction Us reach 11,000 after round 1, which ends the game at 10,000, "
        "but round 2 was played after it: correct the later rounds first")
    sheet.set_round(2, sheet.read_round([{"melded": 8000}, {}], 2))  # the last round may
    assert sheet.over and sheet.view().winners == [0]
    sheet.read_round([{"melded": 1000}, {}], 1)  # a correction that ends nothing early


# --- issue 27 --------------------------------------------------------------------------------


def test_csv_leaves_the_count_empty_for_lines_given_as_points() -> None:
    """Cards melded or left given as a points total have no card count: the CSV's count is
    empty there (it said 0), and holds the count where the table counted by card."""
    p = load_profile("remastered-teams")
    sheet = ScoreSheet.new(p, p.layout, ["Us", "Them"])
    sheet.set_round(1, sheet.read_round(
        [{"books": {"clean": 1}, "melded": 900, "left": 85},
         {"melded": {"K": 5, "Q": 4}, "left": {"A": 1}}], 1))
    rows = [row.split(",") for row in sheet.csv().splitlines()[1:]]
    by = {(side, line): count for _, side, line, count, _ in rows}
    assert by[("Us", "Cards on the table")] == ""
    assert by[("Us", "Cards left in hands and feet")] == ""
    assert by[("Us", "Clean books")] == "1"
    assert by[("Them", "Cards on the table")] == "9"
    assert by[("Them", "Cards left in hands and feet")] == "1"


def test_round_problems_gives_every_reason_with_the_answers_it_concerns() -> None:
    p = load_profile("remastered-teams")
    sheet = ScoreSheet.new(p, p.layout, ["Us", "Them"])
    data = [{"went_out": True, "books": {"clean": 1}, "red_threes": 40, "melded": 500},
            {"went_out": True, "melded": {"K": 90}, "books": {"dirty": 15}}]
    entries, problems = sheet.round_problems(data, 1)
    messages = [x.message for x in problems]
    assert any(m.startswith("Us cannot have gone out") for m in messages)
    assert any(m.startswith("Them cannot have gone out") for m in messages)
    assert any(m.startswith("Them: 15 books hold at least") for m in messages)
    assert "only one side goes out in a round, not Us and Them" in messages
    assert any(m.startswith("40 red 3s in one round") for m in messages)
    assert any(m.startswith("90 kings in one round") for m in messages)
    parts = {x.message.split(" ")[0]: x.parts for x in problems}
    assert parts["40"] == ((0, "red_threes"),)
    assert parts["90"] == ((1, "melded"),)
    # the first problem is read_round's one reason
    with pytest.raises(ScoreSheetError) as info:
        sheet.read_round(data, 1)
    assert str(info.value) == messages[0]
    good = [{"books": {"clean": 1}, "melded": 500}, {}]
    entries, problems = sheet.round_problems(good, 1)
    assert problems == [] and entries == sheet.read_round(good, 1)
    # a part that cannot be read concerns every answer of its side
    _, problems = sheet.round_problems([{"red_threes": -1}, {}], 1)
    assert len(problems) == 1 and {side for side, _ in problems[0].parts} == {0}
