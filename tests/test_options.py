"""The Optional Alternate Rules of seed 001 (RULES-MATRIX §5, OPT-01 to OPT-24) as toggles.

Every option is switched on through :func:`handfoot.game.loading.load_profile` overrides on the
profiles it is meant for (``meant_for`` in ``handfoot/options.toml``), and its behaviour is
played through the engine: game positions (tests/positions.py) with real moves, or whole
seeded games where the effect is game-level (the game's length, the deal sizes by round,
tabletop-only values that the engine must never apply). Assertions read the state, the
refusal reasons, ``legal_actions()``, the round results and the score breakdowns.

Covered: OPT-01 to OPT-24 with A-20 to A-26, A-54, A-55 and the worked examples WE-001-15
to WE-001-23; the exclusive option groups; what each option's ``set`` table does to a
profile; and a sample of option combinations played as complete bot games.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from handfoot.bots.registry import make_bot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import BLACK_THREE, KING, RED_THREE, SEVEN
from handfoot.game.engine import GameState
from handfoot.game.loading import OPTIONS, ProfileError, load_profile, value_to_toml
from handfoot.game.moves import WILD_MELD, Discard, Draw, GoOut, parse_move
from handfoot.game.rules import FIELDS, Layout, Profile
from handfoot.game.scoring import SideScore
from handfoot.game.values import IllegalMoveError, Phase, RoundResult
from handfoot.runs.sim import play_game, simulate
from positions import faces, must_fail, play, position

SINGLES = "remastered-singles"
TEAMS = "remastered-teams"
HKF = "hand-knee-foot"
REMASTERED = [SINGLES, TEAMS, HKF]

ROUND_ENDS = {"went out", "stock exhausted", "red 3 not replaced"}

# Books that let a singles side go out (001:38: one clean and one dirty book).
SINGLES_BOOKS = ["4 4 4 4 4 4 4", "6 6 6 6 6 2 2"]


# --- helpers -----------------------------------------------------------------------------


def prof(name: str, *options: str, **params: object) -> Profile:
    """A built-in profile with options switched on and parameters set, as a house rule."""
    return load_profile(name, overrides={**dict.fromkeys(options, True), **params})


def option_key(option_id: str) -> str:
    """The key of the option with a matrix id (OPT-03 has two keys: not for it)."""
    (key,) = [k for k, o in OPTIONS.items() if o.id == option_id]
    return key


ANNOUNCE = option_key("OPT-24")


def meant_for(*options: str) -> list[str]:
    """The Remastered profiles every one of ``options`` is meant for."""
    return [p for p in REMASTERED if all(p in OPTIONS[o].meant_for for o in options)]


def lines(score: SideScore) -> dict[str, tuple[int, int]]:
    """A side's breakdown as ``{key: (count, points)}``; checks that the lines add up."""
    out = {line.key: (line.count, line.points) for line in score.lines}
    assert sum(line.points for line in score.lines) == score.total
    return out


def table(state: GameState, side: int) -> list[tuple[str, int, int, int]]:
    """A side's melds as (rank, naturals, twos, jokers)."""
    return [("wild" if m.target == WILD_MELD else cards.KIND_NAMES[m.target], m.naturals,
             m.twos, m.jokers) for m in state.melds[side]]


def kinds_held(state: GameState, seat: int) -> dict[str, int]:
    return {cards.KIND_NAMES[k]: n for k, n in enumerate(state.held[seat]) if n}


def pass_turn(state: GameState) -> None:
    """The seat to play draws and discards the lowest kind it may discard."""
    state.apply(Draw())
    seat = state.seat
    kind = next(k for k in range(RED_THREE)
                if state.held[seat][k] and state.check(Discard(k)) is None)
    state.apply(Discard(kind))


def finish_round(state: GameState) -> RoundResult:
    """End the round at the next draw: the stock goes under the discard pile (every card
    stays in the round), so the draw finds it empty and the round ends "stock exhausted"."""
    assert state.phase == Phase.DRAW
    done = len(state.results)
    state.pile[:0] = reversed(state.stock)
    state.stock = []
    state.apply(Draw())
    assert len(state.results) == done + 1
    result = state.results[-1]
    assert result.reason == "stock exhausted"
    return result


def round_scores(state: GameState) -> list[int]:
    """What each side would score if the round ended now without anyone going out."""
    return [state.score_side(side).total for side in range(state.sides)]


def discard_actions(state: GameState) -> set[int]:
    """The kinds whose DISCARD action is listed as legal."""
    legal = set(state.legal_actions())
    return {k for k in range(RED_THREE) if mv.DISCARD + k in legal}


def discard_allowed(state: GameState) -> set[int]:
    """The kinds the engine accepts as a discard now."""
    return {k for k in range(RED_THREE)
            if state.held[state.seat][k] and state.check(Discard(k)) is None}


def play_bots(profile: Profile, seed: int, bot: str,
              before: Callable[[GameState, int], None] | None = None) -> GameState:
    """A complete game between bots; ``before(state, action)`` sees every action first."""
    state = GameState.new(profile, seed=seed)
    bots = [make_bot(bot, seed * 31 + s) for s in range(state.players)]
    for _ in range(500_000):
        if state.is_over:
            return state
        action = bots[state.to_act].choose(state.view(state.to_act))
        if before is not None:
            before(state, action)
        state.apply_action(action)
    raise AssertionError("the game did not end")


def check_results(state: GameState) -> None:
    """Round ends are the three known ones, breakdowns add up, totals accumulate, and the
    engine never adds a tabletop adjustment line."""
    assert state.is_over
    running = [0] * state.sides
    for number, result in enumerate(state.results, 1):
        assert result.round_number == number
        assert result.reason in ROUND_ENDS
        assert (result.went_out is not None) == (result.reason == "went out")
        for score in result.scores:
            got = lines(score)
            assert "adjustment" not in got
            running[score.side] += score.total
        assert list(result.totals) == running
    assert state.totals == running
    best = max(running)
    assert state.winners() == tuple(s for s, t in enumerate(running) if t == best)


# --- the options as data ----------------------------------------------------------------

# RULES-MATRIX §5 "Exclusive groups", by option id.
MATRIX_GROUPS = {
    "game length": {"OPT-01", "OPT-02", "OPT-03"},
    "pile pickup": {"OPT-14", "OPT-15", "OPT-17", "OPT-18", "OPT-20"},
    "book size": {"OPT-06", "OPT-07"},
    "red 3 penalty": {"OPT-10", "OPT-12"},
    "black 3 penalty": {"OPT-11", "OPT-12"},
    "dealing": {"OPT-04"},
}


def test_every_matrix_option_is_defined() -> None:
    ids = {o.id for o in OPTIONS.values()}
    expected = {f"OPT-{n:02d}" for n in range(1, 25)} | {"OPT-07a"}
    assert ids == expected


def test_exclusive_groups_are_those_of_the_matrix() -> None:
    groups: dict[str, set[str]] = {}
    for option in OPTIONS.values():
        for group in option.groups:
            groups.setdefault(group, set()).add(option.id)
    assert groups == MATRIX_GROUPS
    # the score bands switched on alone belong to no group
    assert OPTIONS["minimums_by_score"].groups == ()


def _option_profile_cases() -> list[object]:
    return [pytest.param(key, name, id=f"{key}-{name}")
            for key, option in OPTIONS.items() for name in option.meant_for]


@pytest.mark.parametrize(("key", "name"), _option_profile_cases())
def test_option_sets_its_parameters(key: str, name: str) -> None:
    """Switching an option on gives the profile exactly the values of its ``set`` table."""
    p = prof(name, key)
    assert key in p.options
    for param, raw in OPTIONS[key].sets:
        assert value_to_toml(FIELDS[param], getattr(p, param)) == raw, param
    base = load_profile(name)
    changed = {f.name for f in dataclasses.fields(Profile)
               if f.name in FIELDS and getattr(p, f.name) != getattr(base, f.name)}
    assert changed <= {param for param, _ in OPTIONS[key].sets}


def _exclusive_pairs() -> list[object]:
    out = []
    for a, b in itertools.combinations(OPTIONS, 2):
        shared = set(OPTIONS[a].groups) & set(OPTIONS[b].groups)
        if shared:
            out.append(pytest.param(a, b, id=f"{a}+{b}"))
    return out


EXCLUSIVE_PAIRS = _exclusive_pairs()


def test_exclusive_pairs_cover_every_group() -> None:
    # game length 3, pile pickup 10, book size 1, red 3 1, black 3 1
    assert len(EXCLUSIVE_PAIRS) == 16


@pytest.mark.parametrize(("a", "b"), EXCLUSIVE_PAIRS)
def test_exclusive_pair_is_refused_naming_both(a: str, b: str) -> None:
    profile = next(p for p in REMASTERED
                   if p in OPTIONS[a].meant_for and p in OPTIONS[b].meant_for)
    for first, second in ((a, b), (b, a)):
        with pytest.raises(ProfileError) as info:
            load_profile(profile, overrides={first: True, second: True})
        message = str(info.value)
        for key in (a, b):
            assert key in message and OPTIONS[key].id in message, message
    # each alone is fine
    prof(profile, a)
    prof(profile, b)


def test_exclusive_pair_in_a_house_rule_file_and_on_top_of_it(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "remastered-teams"\n[options]\ntake_top_5 = true\n'
                    "no_pickups = true\n", encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    message = str(info.value)
    assert "house.toml" in message
    assert "take_top_5" in message and "no_pickups" in message
    # an option the file switches on still excludes one added on top of it
    path.write_text('extends = "remastered-teams"\n[options]\nfirst_to_10000 = true\n',
                    encoding="utf-8")
    assert load_profile(path).target_score == 10000
    with pytest.raises(ProfileError, match=r"first_to_10000.*fifth_round_clean_book"):
        load_profile(path, overrides={"fifth_round_clean_book": True})


def test_non_conflicting_options_combine() -> None:
    p = prof(TEAMS, "sevens_from_hell", "take_whole_pile", "growing_hand", "second_book",
             "unfinished_second_book_negative", "first_to_20000", "minimums_by_score",
             "red_three_caught_500", "black_three_caught_300", "delayed_foot")
    assert p.discard_locked_until_clean_book == (SEVEN,)
    assert p.pickup_count is None
    assert p.hand_size_by_round == (13, 15, 17, 19)
    assert p.second_meld_of_rank and p.unfinished_second_meld_negative
    assert p.target_score == 20000
    assert (p.red_three_penalty, p.black_three_penalty) == (500, 300)
    assert not p.foot_at_once


# --- OPT-01: a fifth round with a clean-book opening (A-25) ------------------------------

OPENING_HAND = "4 4 4 4 4 4 4 A A A A A A K K K K K 2 2 9 9"


@pytest.mark.parametrize("name", meant_for("fifth_round_clean_book"))
def test_opt01_round_5_opening_needs_a_clean_book(name: str) -> None:
    p = prof(name, "fifth_round_clean_book")
    assert p.rounds == 5
    state = position(p, round_number=5, hands={0: OPENING_HAND}, phase=Phase.PLAY)
    assert state.opening_minimum_of(0) == 0  # no point minimum
    must_fail(state, "meld A A A A A A", "clean book", "round 5")  # 120 points, no book
    must_fail(state, "meld K K K K K 2 2", "clean book")  # a dirty book is not enough
    must_fail(state, "meld A A A A A A | K K K K K 2 2", "clean book")
    assert not state.opened[0]
    play(state, "meld 4 4 4 4 4 4 4")  # 35 points: the clean book alone opens
    assert state.opened[0]
    assert table(state, 0) == [("4", 7, 0, 0)]
    play(state, "meld A A A")  # once open, anything legal
    assert table(state, 0)[-1] == ("A", 3, 0, 0)


@pytest.mark.parametrize("name", meant_for("fifth_round_clean_book"))
def test_opt01_clean_book_with_other_melds_in_the_same_action(name: str) -> None:
    p = prof(name, "fifth_round_clean_book")
    state = position(p, round_number=5, hands={0: OPENING_HAND}, phase=Phase.PLAY)
    play(state, "meld A A A | 4 4 4 4 4 4 4 | K K K 2")
    assert state.opened[0]
    assert sorted(table(state, 0)) == [("4", 7, 0, 0), ("A", 3, 0, 0), ("K", 3, 1, 0)]


@pytest.mark.parametrize("name", meant_for("fifth_round_clean_book"))
def test_opt01_rounds_1_to_4_keep_their_minimums(name: str) -> None:
    p = prof(name, "fifth_round_clean_book")
    for number, minimum in enumerate((60, 90, 120, 150), 1):
        state = position(p, round_number=number, hands={0: OPENING_HAND}, phase=Phase.PLAY)
        assert state.opening_minimum_of(0) == minimum
    state = position(p, round_number=4, hands={0: OPENING_HAND}, phase=Phase.PLAY)
    must_fail(state, "meld 4 4 4 4 4 4 4", "35", "150")
    play(state, "meld A A A A A A | 4 4 4 4 4 4")  # 150 without a book
    assert state.opened[0]


@pytest.mark.parametrize("name", meant_for("fifth_round_clean_book"))
def test_opt01_a_game_has_five_rounds(name: str) -> None:
    p = prof(name, "fifth_round_clean_book")
    openings: list[tuple[int, list[tuple[str, int, int, int]]]] = []

    def watch(state: GameState, action: int) -> None:
        if state.round_number != 5 or state.phase not in (Phase.DRAW, Phase.PLAY):
            return
        if action != mv.CONFIRM and not mv.PICKUP <= action < mv.DISCARD:
            return  # only a meld, a pickup or going out can open
        side = state.side_of[state.seat]
        if state.opened[side]:
            return
        after = state.copy()
        after.apply_action(action)
        if after.round_number == 5 and after.opened[side]:
            openings.append((side, table(after, side)))

    for seed in (5, 8, 7, 10, 11, 6, 9, 12):  # games until the bots have opened in round 5
        state = play_bots(p, seed, "easy", before=watch)
        check_results(state)
        assert [r.round_number for r in state.results] == [1, 2, 3, 4, 5]
        if openings:
            break
    assert openings, "no bot opened in round 5"
    # every opening the bots made in round 5 held a clean book of 7 or more
    for _, melds in openings:
        assert any(n >= 7 and tw + jk == 0 and rank != "wild" for rank, n, tw, jk in melds)
    base = play_bots(load_profile(name), 5, "easy")
    assert len(base.results) == 4


# --- OPT-02 / OPT-03: first to 10,000 / 20,000 (A-23, A-54, A-22) ----------------------

TARGETS = [pytest.param("first_to_10000", 10000, id="OPT-02"),
           pytest.param("first_to_20000", 20000, id="OPT-03")]


def _target_state(name: str, option: str, round_number: int) -> GameState:
    p = prof(name, option)
    hands = {s: "9 9 5" for s in range(p.layout.players)}
    feet = {s: "K K 4" for s in range(p.layout.players)}
    return position(p, round_number=round_number, hands=hands, feet=feet,
                    melds={0: ["8 8 8 8 8 8 8"], 1: ["Q Q Q Q Q Q Q"]})


@pytest.mark.parametrize("name", REMASTERED)
@pytest.mark.parametrize(("option", "target"), TARGETS)
def test_target_not_reached_the_game_goes_on_past_round_4(name: str, option: str,
                                                          target: int) -> None:
    state = _target_state(name, option, 4)
    assert state.profile.target_score == target
    scores = round_scores(state)
    state.totals = [target - 1 - scores[0], *[0] * (state.sides - 1)]
    finish_round(state)
    assert state.totals[0] == target - 1
    assert not state.is_over
    assert state.round_number == 5 and state.phase == Phase.DRAW
    if option == "first_to_10000":
        assert state.opening_minimum_of(0) == 150  # the last round's minimum
    else:
        assert state.opening_minimum_of(0) == 150  # the band of 15,000 and more
        assert state.opening_minimum_of(1) == 60  # the band of 0 to 4,999


@pytest.mark.parametrize("name", REMASTERED)
@pytest.mark.parametrize(("option", "target"), TARGETS)
@pytest.mark.parametrize(("round_number", "ends", "winners"), [
    pytest.param(4, (0, -1000), (0,), id="side-1-reaches-it"),
    pytest.param(2, (0, -1000), (0,), id="reached-in-round-2"),
    pytest.param(7, (3, 40), (1,), id="both-reach-highest-wins"),
    pytest.param(6, (25, 25), (0, 1), id="both-reach-a-tie-shares"),
])
def test_target_reached_at_a_round_end_ends_the_game(name: str, option: str, target: int,
                                                     round_number: int,
                                                     ends: tuple[int, int],
                                                     winners: tuple[int, ...]) -> None:
    """A-23: checked at the end of each round; the highest total wins, equal totals share."""
    state = _target_state(name, option, round_number)
    scores = round_scores(state)
    wanted = [target + ends[0], target + ends[1], *[-5000] * (state.sides - 2)]
    state.totals = [w - s for w, s in zip(wanted, scores, strict=True)]
    result = finish_round(state)
    assert result.round_number == round_number
    assert list(result.totals) == wanted == state.totals
    assert state.is_over
    assert state.winners() == winners
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.apply(Draw())


@pytest.mark.parametrize("name", REMASTERED)
@pytest.mark.parametrize(("option", "target"), TARGETS)
def test_target_round_cap_ends_the_game(name: str, option: str, target: int) -> None:
    """No side reaches the target: the game still ends after ``rounds`` rounds (100)."""
    state = _target_state(name, option, 99)
    assert state.profile.rounds == 100
    finish_round(state)
    assert not state.is_over and state.round_number == 100
    state.totals = [0] * state.sides
    finish_round(state)
    assert state.is_over
    assert max(state.totals) < target


@pytest.mark.parametrize("name", REMASTERED)
@pytest.mark.parametrize("round_number", [5, 9])
def test_a54_rounds_after_4_use_150_through_the_engine(name: str, round_number: int) -> None:
    p = prof(name, "first_to_10000")
    state = position(p, round_number=round_number, hands={0: "A A A A A K K K K K 9"},
                     phase=Phase.PLAY)
    must_fail(state, "meld A A A A A | K K K K", "140", f"round {round_number}", "150")
    play(state, "meld A A A A A | K K K K K")
    assert state.opened[0]


# WE-001-15: the side's total before the round -> its opening minimum.
WE_001_15 = [(-200, 15), (0, 60), (4999, 60), (5000, 90), (9999, 90), (10000, 120),
             (14999, 120), (15000, 150), (15001, 150)]


@pytest.mark.parametrize("name", REMASTERED)
@pytest.mark.parametrize("option", ["first_to_20000", "minimums_by_score"])
def test_we_001_15_minimum_by_score(name: str, option: str) -> None:
    p = prof(name, option)
    for round_number in (1, 4, 6):
        state = position(p, round_number=round_number)
        for total, minimum in WE_001_15:
            state.totals = [total, *[0] * (state.sides - 1)]
            assert state.opening_minimum_of(0) == minimum, (round_number, total)
            assert state.view(0).opening_minimum == minimum
        assert state.opening_minimum_of(1) == 60


def band(total: int) -> int:
    """A-22: the opening minimum of a side with ``total`` points before the round."""
    for threshold, minimum in ((15000, 150), (10000, 120), (5000, 90), (0, 60)):
        if total >= threshold:
            return minimum
    return 15


def test_band_helper_is_we_001_15() -> None:
    assert [band(t) for t, _ in WE_001_15] == [m for _, m in WE_001_15]


BAND_OPENINGS = [
    # total, minimum, a shorter opening, one that reaches the minimum
    (-200, 15, None, "4 4 4"),
    (0, 60, "4 4 4 | K K K", "A A A"),
    (5000, 90, "A A A | 4 4 4", "A A A | K K K"),
    (10000, 120, "A A A | K K K | 4 4 4", "A A A A A A"),
    (15001, 150, "A A A A A A", "A A A A A | K K K K K"),
]


@pytest.mark.parametrize("name", REMASTERED)
@pytest.mark.parametrize("option", ["first_to_20000", "minimums_by_score"])
@pytest.mark.parametrize(("total", "minimum", "short", "enough"), BAND_OPENINGS,
                         ids=[str(b[0]) for b in BAND_OPENINGS])
def test_we_001_15_opening_refused_naming_the_score(name: str, option: str, total: int,
                                                    minimum: int, short: str | None,
                                                    enough: str) -> None:
    p = prof(name, option)
    state = position(p, round_number=2, phase=Phase.PLAY,
                     hands={0: "A A A A A A K K K K K 4 4 4 9 9"})
    state.totals = [total, *[0] * (state.sides - 1)]
    if short is not None:
        must_fail(state, "meld " + short, f"{total} points", str(minimum))
    else:
        zero = state.copy()
        zero.totals = [0] * state.sides
        must_fail(zero, "meld " + enough, "15", "0 points", "60")
    play(state, "meld " + enough)
    assert state.opened[0]


@pytest.mark.parametrize("name", REMASTERED)
@pytest.mark.parametrize(("option", "target"), TARGETS)
def test_target_game_is_played_until_a_side_reaches_it(name: str, option: str,
                                                       target: int) -> None:
    p = prof(name, option)
    seen: dict[int, tuple[list[int], list[int]]] = {}

    def watch(state: GameState) -> None:
        if state.round_number not in seen and not state.is_over:
            seen[state.round_number] = (
                state.totals[:], [state.opening_minimum_of(s) for s in range(state.sides)])

    state, summary = play_game(p, 2024, [make_bot("easy", s) for s in range(p.layout.players)],
                               after=watch)
    check_results(state)
    totals = [list(r.totals) for r in state.results]
    assert all(max(t) < target for t in totals[:-1])  # nobody had reached it before
    assert max(totals[-1]) >= target or len(totals) == p.rounds
    assert summary.winners == state.winners()
    for number, (before, minimums) in seen.items():
        if number == 1:
            continue
        assert before == totals[number - 2]
        for side, minimum in enumerate(minimums):
            if option == "first_to_20000":
                expected = band(before[side])
            else:
                expected = p.opening_minimums[min(number, 4) - 1]
            assert minimum == expected, (number, side, before)


# --- OPT-04 and OPT-21..23: tabletop values (A-21, WE-001-16, WE-001-18) ----------------


def dealer_bonus(p: Profile, off_by: int) -> int:
    """A-21: the dealer's bonus for a deal ``off_by`` cards wrong; past the table, 0."""
    return p.dealer_bonus[off_by] if off_by < len(p.dealer_bonus) else 0


@pytest.mark.parametrize("name", meant_for("dealer_deals"))
def test_opt04_dealer_bonus_table_and_first_player(name: str) -> None:
    p = prof(name, "dealer_deals")
    assert p.dealer_bonus == (1000, 500, 300, 300)
    assert [dealer_bonus(p, d) for d in range(7)] == [1000, 500, 300, 300, 0, 0, 0]
    assert p.perfect_deal_bonus == 0  # replaces the per-player perfect deal
    assert p.first_player == "left_of_dealer"
    for layout in p.layouts:
        for seed in (1, 2):
            state = GameState.new(p, layout=layout, seed=seed)
            assert state.first_player == 0
            assert state.dealer == layout.players - 1
            assert state.seat == state.first_player == (state.dealer + 1) % layout.players
    # the deal rotates: each round the next seat deals and the one on its left starts
    state = GameState.new(p, seed=8)
    n = state.players
    for number in range(1, 5):
        assert state.round_number == number
        assert state.dealer == (number - 2) % n
        assert state.first_player == (state.dealer + 1) % n == state.seat
        if number < 4:
            finish_round(state)


@pytest.mark.parametrize("name", meant_for("dealer_deals"))
def test_opt04_dealer_bonus_is_never_applied_by_the_engine(name: str) -> None:
    p = prof(name, "dealer_deals")
    state = play_bots(p, 3, "easy")
    check_results(state)
    for result in state.results:
        for score in result.scores:
            assert not any("deal" in line.label.lower() for line in score.lines)


PENALTIES = ["penalty_go_out_without_permission", "penalty_failing_after_permission",
             "penalty_unmeldable_pickup"]


@pytest.mark.parametrize("name", meant_for(*PENALTIES))
def test_we_001_18_penalty_values_are_tabletop_only(name: str) -> None:
    p = prof(name, *PENALTIES)
    assert (p.go_out_without_permission_penalty, p.failed_going_out_penalty,
            p.bad_pickup_penalty) == (100, 100, 50)
    for key in PENALTIES:
        assert OPTIONS[key].tabletop
    # the engine never applies them: the same seeded game plays and scores exactly as
    # without the options
    with_options = play_bots(p, 11, "easy")
    without = play_bots(load_profile(name), 11, "easy")
    check_results(with_options)
    assert with_options.results == without.results


@pytest.mark.parametrize("name", meant_for(*PENALTIES))
def test_tabletop_values_as_score_keeper_adjustments(name: str) -> None:
    p = prof(name, "dealer_deals", *PENALTIES)
    state = position(p, melds={0: ["8 8 8 8 8 8 8"]}, red_threes={0: 1})
    plain = state.score_side(0)
    adjustments = [("dealer bonus", dealer_bonus(p, 0)),
                   ("going out without permission", -p.go_out_without_permission_penalty),
                   ("failing after permission", -p.failed_going_out_penalty),
                   ("unmeldable pickup", -p.bad_pickup_penalty)]
    score = state.score_side(0, adjustments=adjustments)
    assert score.lines[:len(plain.lines)] == plain.lines
    extra = [(line.key, line.label, line.count, line.points)
             for line in score.lines[len(plain.lines):]]
    assert extra == [("adjustment", "dealer bonus", 1, 1000),
                     ("adjustment", "going out without permission", 1, -100),
                     ("adjustment", "failing after permission", 1, -100),
                     ("adjustment", "unmeldable pickup", 1, -50)]
    assert score.total == sum(line.points for line in score.lines) == plain.total + 750
    one = state.score_side(0, adjustments=[("dealer bonus", 500)])
    assert one.total == sum(line.points for line in one.lines) == plain.total + 500


# --- OPT-05: no final discard in singles (A-15) ---------------------------------------


def _singles_in_foot(p: Profile, hand: str, melds: Iterable[str] = (),
                     other: Iterable[str] = ()) -> GameState:
    """A two-player singles position: seat 0 plays from its Foot with the books to go out."""
    return position(p, layout=Layout(2, 1), hands={0: hand}, in_foot=[0], phase=Phase.PLAY,
                    melds={0: [*SINGLES_BOOKS, *melds], 1: list(other)})


def test_opt05_the_last_card_cannot_be_discarded() -> None:
    p = prof(SINGLES, "singles_play_out")
    assert (p.final_discard, p.min_cards_kept) == ("forbidden", 1)
    state = _singles_in_foot(p, "9", ["K K K"])
    must_fail(state, "discard 9", "keep at least 1 card")
    must_fail(state, "goout discard 9", "melding your last card")
    assert discard_actions(state) == set()
    assert not any(mv.GO_OUT_DISCARD <= a < mv.DISCARD for a in state.legal_actions())
    # without the option the singles player goes out by discarding it (001:83)
    base = _singles_in_foot(load_profile(SINGLES), "9", ["K K K"])
    assert discard_actions(base) == {cards.NINE}
    play(base, "discard 9")
    assert (base.results[-1].reason, base.results[-1].went_out) == ("went out", 0)


def test_opt05_goes_out_by_melding_the_last_card() -> None:
    p = prof(SINGLES, "singles_play_out")
    state = _singles_in_foot(p, "K", ["K K K"])
    state.apply_action(mv.encode_stage(KING, KING, 0))
    assert mv.GO_OUT in state.legal_actions()
    state.apply(mv.ClearStaged())
    play(state, "goout K")
    result = state.results[-1]
    assert (result.reason, result.went_out) == ("went out", 0)
    assert lines(result.scores[0])["going_out"] == (1, 100)
    # without the option a singles player must discard to go out
    base = _singles_in_foot(load_profile(SINGLES), "K", ["K K K"])
    must_fail(base, "goout K", "discarding your last card")


def test_opt05_a_player_keeps_at_least_one_card() -> None:
    p = prof(SINGLES, "singles_play_out")
    state = _singles_in_foot(p, "K K K 9")
    # melding down to one card would force a discard of the last card
    must_fail(state, "meld K K K", "keep at least 2 cards")
    must_fail(state, "goout K K K discard 9", "melding your last card")
    state = _singles_in_foot(p, "K K K 9 5")
    play(state, "meld K K K")
    assert discard_allowed(state) == discard_actions(state) == {cards.FIVE, cards.NINE}
    play(state, "discard 9")
    assert kinds_held(state, 0) == {"5": 1}
    assert state.seat == 1 and not state.results
    # without the option a singles player may play on with no cards (001:84)
    base = position(SINGLES, layout=Layout(2, 1), hands={0: "K K K 9"}, in_foot=[0],
                    opened=[0], phase=Phase.PLAY)  # no books: the discard cannot go out
    play(base, "meld K K K", "discard 9")
    assert base.held_n[0] == 0 and not base.results


# --- OPT-06: books capped at 7 (A-26) -------------------------------------------------


@pytest.mark.parametrize("name", meant_for("books_capped_at_7"))
def test_opt06_a_book_never_exceeds_7(name: str) -> None:
    p = prof(name, "books_capped_at_7")
    state = position(p, hands={0: "K K K K K 2 9 9 9 9 5"}, melds={0: ["K K K K K K K"]},
                     phase=Phase.PLAY)
    must_fail(state, "meld K", "at least 3")  # the book takes no eighth king
    must_fail(state, "meld K: 2", "at least 3")  # nor a wild
    must_fail(state, "meld K K 2", "at least 3 natural")  # a new meld needs 3 naturals
    assert table(state, 0) == [("K", 7, 0, 0)]
    play(state, "meld K K K")
    assert table(state, 0) == [("K", 7, 0, 0), ("K", 3, 0, 0)]
    play(state, "meld K: 2")  # the new meld is an ordinary meld
    play(state, "meld K K")
    assert table(state, 0) == [("K", 7, 0, 0), ("K", 5, 1, 0)]


@pytest.mark.parametrize("name", meant_for("books_capped_at_7"))
def test_opt06_a_meld_cannot_grow_past_7(name: str) -> None:
    p = prof(name, "books_capped_at_7")
    state = position(p, hands={0: "Q Q Q 9"}, melds={0: ["Q Q Q Q Q Q"]}, phase=Phase.PLAY)
    must_fail(state, "meld Q Q", "at most 7", "8")
    play(state, "meld Q")
    assert table(state, 0) == [("Q", 7, 0, 0)]
    # without the option the Remastered book grows with naturals
    base = position(name, hands={0: "Q Q Q 9"}, melds={0: ["Q Q Q Q Q Q"]}, phase=Phase.PLAY)
    play(base, "meld Q Q")
    assert table(base, 0) == [("Q", 8, 0, 0)]


@pytest.mark.parametrize("name", meant_for("books_capped_at_7"))
def test_opt06_new_meld_beside_a_book_through_actions(name: str) -> None:
    p = prof(name, "books_capped_at_7")
    state = position(p, hands={0: "K K K 9 9"}, melds={0: ["K K K K K K K"]},
                     phase=Phase.PLAY)
    stage = mv.encode_stage(KING, KING, 0)
    for _ in range(3):
        assert stage in state.legal_actions()
        state.apply_action(stage)
    assert mv.CONFIRM in state.legal_actions()
    state.apply_action(mv.CONFIRM)
    assert table(state, 0) == [("K", 7, 0, 0), ("K", 3, 0, 0)]


# --- OPT-07 / OPT-07a: a second book (A-26) -------------------------------------------


@pytest.mark.parametrize("name", meant_for("second_book"))
def test_opt07_second_meld_beside_a_growing_book(name: str) -> None:
    p = prof(name, "second_book")
    state = position(p, hands={0: "K K K K K K K K 2 9 9 9 9 5"},
                     melds={0: ["K K K K K K K"]}, phase=Phase.PLAY)
    must_fail(state, "meld K: 2", "wild cards cannot take a meld past 7")
    play(state, "meld K")  # the book keeps growing with naturals
    assert table(state, 0) == [("K", 8, 0, 0)]
    play(state, "meld new K K K")  # or a second meld of the rank starts beside it
    assert table(state, 0) == [("K", 8, 0, 0), ("K", 3, 0, 0)]
    must_fail(state, "meld new K K K", "unfinished")  # one unfinished meld of a rank
    play(state, "meld K")  # further kings join the unfinished second meld
    assert table(state, 0) == [("K", 8, 0, 0), ("K", 4, 0, 0)]


@pytest.mark.parametrize("name", meant_for("second_book"))
def test_opt07_without_the_option_new_is_refused(name: str) -> None:
    state = position(name, hands={0: "K K K K 9 9"}, melds={0: ["K K K K K K K"]},
                     phase=Phase.PLAY)
    must_fail(state, "meld new K K K", "kings")
    play(state, "meld K K K")  # the kings go onto the book
    assert table(state, 0) == [("K", 10, 0, 0)]


@pytest.mark.parametrize("name", meant_for("second_book"))
def test_opt07_without_the_option_new_beside_a_book_names_the_book(name: str) -> None:
    state = position(name, hands={0: "K K K K 9 9"}, melds={0: ["K K K K K K K"]},
                     phase=Phase.PLAY)
    message = must_fail(state, "meld new K K K", "kings")
    assert "unfinished" not in message and "book of kings" in message


@pytest.mark.parametrize("name", meant_for("second_book"))
def test_opt07_new_needs_a_book(name: str) -> None:
    p = prof(name, "second_book")
    state = position(p, hands={0: "K K K K 9 9"}, melds={0: ["K K K K"]}, phase=Phase.PLAY)
    must_fail(state, "meld new K K K", "unfinished")


@pytest.mark.parametrize("name", meant_for("second_book"))
def test_opt07_second_meld_through_actions(name: str) -> None:
    p = prof(name, "second_book")
    state = position(p, hands={0: "K K K 9 9"}, melds={0: ["K K K K K K K"]},
                     phase=Phase.PLAY)
    assert state.check(parse_move("meld new K K K")) is None
    stage = mv.encode_stage(KING, KING, 1)
    for _ in range(3):
        assert stage in state.legal_actions()
        state.apply_action(stage)
    assert mv.CONFIRM in state.legal_actions()
    assert state.apply_action(mv.CONFIRM) == parse_move("meld new K K K")
    assert table(state, 0) == [("K", 7, 0, 0), ("K", 3, 0, 0)]


@pytest.mark.parametrize("name", meant_for("second_book", "unfinished_second_book_negative"))
@pytest.mark.parametrize("negative", [True, False], ids=["OPT-07a", "without-07a"])
def test_opt07a_unfinished_second_meld_at_round_end(name: str, negative: bool) -> None:
    options = ["second_book", "unfinished_second_book_negative"][:1 + negative]
    p = prof(name, *options)
    # a book of kings, and two complete books of queens (the second is a finished book)
    state = position(p, hands={0: "K K K 9"}, phase=Phase.PLAY,
                     melds={0: ["K K K K K K K", "Q Q Q Q Q Q Q", "Q Q Q Q Q Q Q"]})
    play(state, "meld new K K K", "discard 9")  # an unfinished second meld of kings
    while state.seat != 0:
        pass_turn(state)
    result = finish_round(state)
    got = lines(result.scores[0])
    book_cards = 7 * 10 + 14 * 10  # the kings' book and two complete books of queens
    assert got["clean_books"][0] == 3  # a completed second book is an ordinary book
    if negative:
        assert got["unfinished_second_melds"] == (3, -30)
        assert got["melded"] == (21, book_cards)
    else:
        assert "unfinished_second_melds" not in got
        assert got["melded"] == (24, book_cards + 30)


@pytest.mark.parametrize("name", meant_for("second_book", "unfinished_second_book_negative"))
def test_opt07a_first_meld_of_a_rank_is_never_negative(name: str) -> None:
    p = prof(name, "second_book", "unfinished_second_book_negative")
    state = position(p, melds={0: ["K K K", "Q Q Q Q Q Q Q Q", "Q Q Q Q"]})
    got = lines(state.score_side(0))
    assert got["unfinished_second_melds"] == (4, -40)
    assert got["melded"] == (11, 110)


# --- OPT-08: wild books in singles (WE-001-19) ----------------------------------------


def test_opt08_all_wild_meld_and_book_in_singles() -> None:
    base = position(SINGLES, hands={0: "JK JK 2 2 2 JK 2 9"}, opened=[0], phase=Phase.PLAY)
    must_fail(base, "meld JK JK 2", "only of wild cards")
    p = prof(SINGLES, "singles_wild_books")
    state = position(p, hands={0: "JK JK 2 2 2 JK 2 2 9"}, opened=[0], phase=Phase.PLAY)
    play(state, "meld JK JK 2")
    assert table(state, 0) == [("wild", 0, 1, 2)]
    must_fail(state, "meld 2 2 2 JK 2", "complete at 7")
    play(state, "meld 2 2 2 JK")
    assert table(state, 0) == [("wild", 0, 4, 3)]
    assert state.book_counts(0)["wild"] == 1
    got = lines(state.score_side(0))
    assert got["wild_books"] == (1, 1500)
    assert got["melded"] == (7, 3 * 50 + 4 * 20)
    assert got["clean_books"] == (0, 0) and got["dirty_books"] == (0, 0)


@pytest.mark.parametrize(("params", "bonus"), [({}, 1500), ({"wild_book_bonus": 1000}, 1000)],
                         ids=["1500", "1000"])
def test_we_001_19_wild_book_value(params: dict[str, int], bonus: int) -> None:
    p = prof(SINGLES, "singles_wild_books", **params)
    state = position(p, layout=Layout(2, 1), melds={0: ["JK JK JK 2 2 2 2"]},
                     hands={0: "9 9", 1: "5 5"}, feet={0: "8", 1: "8"})
    result = finish_round(state)
    assert lines(result.scores[0])["wild_books"] == (1, bonus)
    assert result.scores[0].total == bonus + 3 * 50 + 4 * 20 - 20 - 10


def test_opt08_a_wild_meld_is_no_part_of_an_opening() -> None:
    p = prof(SINGLES, "singles_wild_books")
    state = position(p, hands={0: "JK JK 2 A A A A 9"}, phase=Phase.PLAY)
    must_fail(state, "meld JK JK 2", "opening")
    must_fail(state, "meld A A A A | JK JK 2", "all-wild meld cannot be part")
    assert not state.opened[0]
    play(state, "meld A A A")  # 60 opens
    play(state, "meld JK JK 2")  # then the wild meld may be laid in the same turn
    assert table(state, 0) == [("A", 3, 0, 0), ("wild", 0, 1, 2)]


# --- OPT-09: Sevens From Hell (A-55) --------------------------------------------------


def _assert_discards_match(state: GameState) -> None:
    assert discard_actions(state) == discard_allowed(state)


@pytest.mark.parametrize("name", meant_for("sevens_from_hell"))
def test_opt09_no_7_discarded_before_a_clean_book_of_7s(name: str) -> None:
    p = prof(name, "sevens_from_hell")
    state = position(p, hands={0: "7 7 9 K"}, phase=Phase.PLAY)
    must_fail(state, "discard 7", "no 7 may be discarded", "clean book of 7s")
    assert discard_actions(state) == {cards.NINE, KING}
    _assert_discards_match(state)
    play(state, "discard 9")
    # without the option a 7 is an ordinary discard
    base = position(name, hands={0: "7 7 9 K"}, phase=Phase.PLAY)
    assert cards.SEVEN in discard_actions(base)


@pytest.mark.parametrize("name", meant_for("sevens_from_hell"))
@pytest.mark.parametrize("owner", [0, 1], ids=["own-side", "other-side"])
def test_opt09_a_clean_book_of_7s_releases_them(name: str, owner: int) -> None:
    p = prof(name, "sevens_from_hell")
    state = position(p, hands={0: "7 7 9 K"}, phase=Phase.PLAY,
                     melds={owner: ["7 7 7 7 7 7 7"]})
    assert SEVEN in discard_actions(state)
    _assert_discards_match(state)
    play(state, "discard 7")
    assert cards.kind_of(state.pile[-1]) == SEVEN


@pytest.mark.parametrize("name", [n for n in meant_for("sevens_from_hell") if n != HKF])
def test_opt09_a_dirty_book_or_an_unfinished_meld_of_7s_does_not(name: str) -> None:
    p = prof(name, "sevens_from_hell")
    for melds in (["7 7 7 7 7 2 2"], ["7 7 7 7 7 7"]):
        state = position(p, hands={0: "7 9 K"}, phase=Phase.PLAY, melds={1: melds})
        must_fail(state, "discard 7", "clean book of 7s")
        _assert_discards_match(state)


@pytest.mark.parametrize("name", meant_for("sevens_from_hell"))
def test_a55_a_player_holding_only_7s_may_discard_one(name: str) -> None:
    p = prof(name, "sevens_from_hell")
    state = position(p, hands={0: "7 7"}, phase=Phase.PLAY)
    assert discard_actions(state) == {SEVEN}
    _assert_discards_match(state)
    play(state, "discard 7")
    assert kinds_held(state, 0) == {"7": 1}
    # a wild is another card: then the 7 stays locked
    state = position(p, hands={0: "7 7 2"}, phase=Phase.PLAY)
    assert discard_actions(state) == {cards.TWO}
    must_fail(state, "discard 7", "clean book of 7s")


def test_opt09_going_out_discard_of_a_7_follows_a55() -> None:
    """Singles goes out with a discard (001:83). The lock is judged on the hand at the
    discard, after the melds: holding only the 7 then, A-55 lets it go, exactly as
    `meld K` followed by `discard 7` would."""
    p = prof(SINGLES, "sevens_from_hell")
    two_moves = _singles_in_foot(p, "7 K", ["K K K"])
    must_fail(two_moves, "discard 7", "no 7 may be discarded")  # the K is still held
    play(two_moves, "meld K")
    play(two_moves, "discard 7")
    one_move = _singles_in_foot(p, "7 K", ["K K K"])
    play(one_move, "goout K discard 7")
    assert one_move.results[-1].totals == two_moves.results[-1].totals
    state = _singles_in_foot(p, "7 K", ["K K K"])
    state.apply_action(mv.encode_stage(KING, KING, 0))
    assert mv.GO_OUT_DISCARD + SEVEN in state.legal_actions()
    # with a clean book of 7s anywhere, the same going out is legal
    state = _singles_in_foot(p, "7 K", ["K K K"], other=["7 7 7 7 7 7 7"])
    state.apply_action(mv.encode_stage(KING, KING, 0))
    assert mv.GO_OUT_DISCARD + SEVEN in state.legal_actions()
    assert state.apply_action(mv.GO_OUT_DISCARD + SEVEN) == parse_move("goout K discard 7")
    assert (state.results[-1].reason, state.results[-1].went_out) == ("went out", 0)


def test_a55_holding_only_a_7_it_may_be_the_going_out_discard() -> None:
    p = prof(SINGLES, "sevens_from_hell")
    state = _singles_in_foot(p, "7")
    assert discard_actions(state) == {SEVEN}
    play(state, "discard 7")
    assert (state.results[-1].reason, state.results[-1].went_out) == ("went out", 0)


@pytest.mark.parametrize("name", meant_for("sevens_from_hell"))
@pytest.mark.parametrize("bot", ["random", "easy"])
def test_opt09_whole_game_never_discards_a_locked_7(name: str, bot: str) -> None:
    p = prof(name, "sevens_from_hell")
    sevens = [0]

    def watch(state: GameState, action: int) -> None:
        move = mv.decode_action(action)
        kind = (move.kind if isinstance(move, Discard)
                else move.discard if isinstance(move, GoOut) else None)
        if kind != SEVEN:
            return
        sevens[0] += 1
        released = any(m.target == SEVEN and m.wilds == 0 and m.size >= 7
                       for melds in state.melds for m in melds)
        held = state.held[state.seat]
        only_sevens = not any(held[k] for k in range(RED_THREE) if k != SEVEN)
        assert released or only_sevens

    check_results(play_bots(p, 4, bot, before=watch))


# --- OPT-10..13: alternative scoring (WE-001-20, A-24) --------------------------------


SCORING = [
    # options, profiles, red 3 caught (each), black 3 caught (each), clean, dirty
    pytest.param(("red_three_caught_500",), 500, None, None, id="OPT-10"),
    pytest.param(("black_three_caught_300",), None, 300, None, id="OPT-11"),
    pytest.param(("red_three_caught_500", "black_three_caught_300"), 500, 300, None,
                 id="OPT-10+11"),
    pytest.param(("red_three_300_black_three_5",), 300, 5, None, id="OPT-12"),
    pytest.param(("clean_500_dirty_300",), None, None, (500, 300), id="OPT-13"),
]


def _scoring_cases() -> list[object]:
    out = []
    for case in SCORING:
        options = case.values[0]
        for name in meant_for(*options):  # type: ignore[misc]
            out.append(pytest.param(name, *case.values, id=f"{case.id}-{name}"))
    return out


@pytest.mark.parametrize(("name", "options", "red", "black", "books"), _scoring_cases())
def test_we_001_20_alternative_scoring(name: str, options: tuple[str, ...], red: int | None,
                                       black: int | None,
                                       books: tuple[int, int] | None) -> None:
    p = prof(name, *options)
    base = load_profile(name)
    layout = p.layout
    side0 = layout.seats_of(0)
    hands = {s: "9 9" for s in range(layout.players)}
    feet = {s: "8 8" for s in range(layout.players)}
    hands[0] = "3S 9"  # a black 3 caught in the Hand in play
    feet[0] = "3H 3C 4 5 6 8 9 T J Q K"  # a red 3 and a black 3 in an unplayed Foot
    state = position(p, hands=hands, feet=feet, red_threes={0: 1},
                     melds={0: ["4 4 4 4 4 4 4", "6 6 6 6 6 2 2"]})
    # every packet of the side still unplayed: Hands, Feet and (Hand, Knee & Foot) Knees
    packets = [f for s in side0 for f in [*state.hand(s), *state.feet[s], *state.knees[s]]]
    blacks = [cards.kind_of(f) for f in packets].count(BLACK_THREE)
    assert blacks >= 2
    result = finish_round(state)
    got = lines(result.scores[0])
    assert got["red_threes_caught"] == (1, -(red if red is not None else base.red_three_penalty))
    each = black if black is not None else base.black_three_penalty
    assert got["black_threes_caught"] == (blacks, -blacks * each)
    assert got["red_threes"] == (1, 100)  # a red 3 laid still scores
    clean, dirty = books if books is not None else (base.clean_book_bonus,
                                                    base.dirty_book_bonus)
    assert got["clean_books"] == (1, clean)
    assert got["dirty_books"] == (1, dirty)
    values = p.kind_values
    expect_left = sum(values[cards.kind_of(f)] for f in packets
                      if cards.kind_of(f) not in (BLACK_THREE, RED_THREE))
    assert got["cards_left"][1] == -expect_left


# --- OPT-14, 15, 17, 18, 20: pile pickups (WE-001-22, WE-001-23) ----------------------

PILE_12 = "4C 5C 6C 8C 9C TC JC QC 4D 5D 6D KC"  # bottom first; the king on top


def _pickup_state(p: Profile, pile: str, hand: str = "KS KD 9H 9S 5H") -> GameState:
    return position(p, hands={0: hand}, pile=pile, melds={0: ["Q Q Q"]})


def _pickup(state: GameState) -> None:
    """Take the pile as the profile asks: with the king pair where a pair is needed."""
    if state.profile.pickup_needs_pair:
        play(state, "pickup K K")
    else:
        play(state, "pickup")


@pytest.mark.parametrize("name", meant_for("take_whole_pile"))
def test_opt14_take_the_whole_pile(name: str) -> None:
    p = prof(name, "take_whole_pile")
    assert p.pickup_count is None
    state = _pickup_state(p, PILE_12)
    assert state.pickup_size() == 12
    _pickup(state)
    assert state.pile == []
    assert state.held_n[0] == 5 + 12 - (3 if p.pickup_melds_top else 0)
    assert state.phase == Phase.PLAY


@pytest.mark.parametrize("name", meant_for("take_whole_pile"))
def test_opt14_the_profiles_pickup_conditions_still_apply(name: str) -> None:
    p = prof(name, "take_whole_pile")
    # a black 3 on top blocks wherever the profile says so (not in singles)
    state = _pickup_state(p, PILE_12 + " 3S", hand="3C 3D 9H 9S")
    if p.pickup_black_three_blocks:
        must_fail(state, "pickup", "black 3")
    else:
        play(state, "pickup")
        assert state.pile == []
    # the rank already on the side's table: teams and HKF forbid it, singles forbids the
    # top card completing a book
    melds = ["KH KH KH KH KS KS"] if name == SINGLES else ["KH KH KH"]
    state = position(p, hands={0: "KS KD 9H"}, pile=PILE_12, melds={0: melds})
    move = "pickup" if name == SINGLES else "pickup K K"
    must_fail(state, move, "kings")
    if p.pickup_needs_pair:  # a pair is still needed
        state = _pickup_state(p, PILE_12, hand="KS 2H 9H 9S")
        must_fail(state, "pickup K 2", "natural pair")


@pytest.mark.parametrize("name", meant_for("take_top_5"))
@pytest.mark.parametrize(("pile", "taken"), [(PILE_12, 5), ("9C TC KC", 3)],
                         ids=["pile-12", "pile-3"])
def test_we_001_22_take_the_top_5(name: str, pile: str, taken: int) -> None:
    p = prof(name, "take_top_5")
    state = _pickup_state(p, pile)
    assert state.pickup_size() == taken
    _pickup(state)
    left = faces(pile)[:len(faces(pile)) - taken]
    assert state.pile == left
    assert state.held_n[0] == 5 + taken - (3 if p.pickup_melds_top else 0)


@pytest.mark.parametrize("name", meant_for("take_top_5"))
def test_opt15_a_black_3_on_top_freezes_the_pile(name: str) -> None:
    p = prof(name, "take_top_5")
    state = _pickup_state(p, PILE_12 + " 3S")
    assert state.pickup_blocker() == "a black 3 on top of the pile blocks it"
    must_fail(state, "pickup", "black 3")
    assert mv.PICKUP not in state.legal_actions()
    if name == SINGLES:  # the singles default does not freeze on a black 3
        base = _pickup_state(load_profile(SINGLES), PILE_12 + " 3S")
        play(base, "pickup")
        assert base.held[0][BLACK_THREE] == 1


@pytest.mark.parametrize("name", meant_for("pile_of_8"))
def test_we_001_22_pile_must_hold_8_and_the_top_8_are_taken(name: str) -> None:
    p = prof(name, "pile_of_8")
    seven = "8C 9C TC JC QC 4D KC"
    state = _pickup_state(p, seven)
    assert state.pickup_blocker() is not None and "at least 8" in state.pickup_blocker()
    must_fail(state, "pickup K K" if p.pickup_needs_pair else "pickup", "at least 8", "7")
    assert mv.PICKUP not in state.legal_actions()
    assert state.legal_actions() == [mv.DRAW]
    for pile, taken in (("6C " + seven, 8), (PILE_12, 8)):
        state = _pickup_state(p, pile)
        assert mv.PICKUP in state.legal_actions() or p.pickup_needs_pair
        _pickup(state)
        assert state.pile == faces(pile)[:len(faces(pile)) - taken]
        assert state.held_n[0] == 5 + taken - (3 if p.pickup_melds_top else 0)


OPT18_PILE = "AC AD AH 4S 5S 6S 8S 9S TS KC"  # aces buried under the top 7


def test_we_001_23_pair_pickup_takes_the_top_7() -> None:
    p = prof(SINGLES, "singles_pair_pickup")
    state = position(p, hands={0: "KS KD AS AD AH 9C"}, pile=OPT18_PILE)
    must_fail(state, "pickup", "must be melded")  # the top card must be played
    must_fail(state, "pickup K", "at least 3 cards")
    # only the top card and hand cards count: the buried aces do not
    must_fail(state, "pickup K K", "30", "60")
    play(state, "pickup K K | A A A")  # 30 + 60 from the hand
    assert state.opened[0]
    assert table(state, 0) == [("K", 3, 0, 0), ("A", 3, 0, 0)]
    assert state.pile == faces("AC AD AH")
    assert sorted(cards.face_name(f) for f in state.hand(0)) == sorted(
        ["9C", "4S", "5S", "6S", "8S", "9S", "TS"])
    assert lines(state.score_side(0))["melded"][1] == 90


def test_opt18_pair_pickup_needs_a_natural_pair() -> None:
    p = prof(SINGLES, "singles_pair_pickup")
    state = position(p, hands={0: "KS 2D 9C AS AD AH"}, pile=OPT18_PILE)
    must_fail(state, "pickup K 2 | A A A", "natural pair")
    state = position(p, hands={0: "2S 2D 9C"}, pile="4C 5C 2C", melds={0: ["Q Q Q"]})
    must_fail(state, "pickup 2 2", "wild card on top")
    assert mv.PICKUP not in state.legal_actions()
    # once the side is open the pair and top card need no minimum
    state = position(p, hands={0: "KS KD 9C"}, pile=OPT18_PILE, melds={0: ["Q Q Q"]})
    play(state, "pickup K K")
    assert table(state, 0) == [("Q", 3, 0, 0), ("K", 3, 0, 0)]
    assert len(state.pile) == 3
    # without the option a singles pickup takes the top card alone, no pair needed
    base = position(SINGLES, hands={0: "KS 9C"}, pile=OPT18_PILE)
    play(base, "pickup")
    assert len(base.pile) == 9 and base.held[0][KING] == 2


@pytest.mark.parametrize("name", meant_for("no_pickups"))
def test_opt20_no_pickups(name: str) -> None:
    base = _pickup_state(load_profile(name), PILE_12)
    assert base.pickup_blocker() is None  # the same position allows it by default
    _pickup(base)
    p = prof(name, "no_pickups")
    state = _pickup_state(p, PILE_12)
    assert state.pickup_blocker() is not None
    must_fail(state, "pickup", "never")
    must_fail(state, "pickup K K", "never")
    assert state.legal_actions() == [mv.DRAW]
    play(state, "draw")


@pytest.mark.parametrize("name", meant_for("no_pickups"))
def test_opt20_no_pickup_in_a_whole_game(name: str) -> None:
    p = prof(name, "no_pickups")

    def watch(state: GameState, action: int) -> None:
        assert action != mv.PICKUP
        if state.phase == Phase.DRAW:
            assert mv.PICKUP not in state.legal_actions()

    check_results(play_bots(p, 6, "random", before=watch))


# --- OPT-16: the delayed Foot ---------------------------------------------------------


@pytest.mark.parametrize("name", meant_for("delayed_foot"))
def test_opt16_melding_the_last_card_waits_for_the_next_draw(name: str) -> None:
    p = prof(name, "delayed_foot")
    state = position(p, hands={0: "K K K"}, melds={0: ["Q Q Q"]}, phase=Phase.PLAY)
    foot = sorted(state.feet[0])
    play(state, "meld K K K")
    assert state.seat == 1 and state.phase == Phase.DRAW  # the turn ended
    assert not state.foot_picked[0] and sorted(state.feet[0]) == foot
    assert state.held_n[0] == 0
    while state.seat != 0:
        pass_turn(state)
    # the draw-or-pickup choice is made before seeing the Foot
    view = state.view(0)
    assert view.hand == () and view.foot_counts[0] == 11 and not view.in_foot[0]
    assert mv.DRAW in view.legal_actions
    drawn = [state.stock[-1], state.stock[-2]]
    play(state, "draw")
    assert state.foot_picked[0] and state.feet[0] == []
    assert sorted(state.hand(0)) == sorted(foot + drawn)
    assert state.phase == Phase.PLAY and state.seat == 0
    # without the option the Foot comes at once, in the same turn (001:194)
    base = position(name, hands={0: "K K K"}, melds={0: ["Q Q Q"]}, phase=Phase.PLAY)
    play(base, "meld K K K")
    assert base.foot_picked[0] and base.seat == 0 and base.phase == Phase.PLAY


def test_opt16_the_pickup_comes_before_the_foot() -> None:
    p = prof(SINGLES, "delayed_foot")
    state = position(p, hands={0: "K K K"}, melds={0: ["Q Q Q"]}, phase=Phase.PLAY,
                     pile="9C")
    foot = sorted(state.feet[0])
    play(state, "meld K K K")
    while state.seat != 0:
        pass_turn(state)
    top = state.pile[-1]
    assert mv.PICKUP in state.legal_actions()
    play(state, "pickup")
    assert state.foot_picked[0]
    assert sorted(state.hand(0)) == sorted([*foot, top])


@pytest.mark.parametrize("name", meant_for("delayed_foot"))
def test_opt16_discarding_the_last_card_foot_after_the_next_draw(name: str) -> None:
    p = prof(name, "delayed_foot")
    state = position(p, hands={0: "K K K 9"}, melds={0: ["Q Q Q"]}, phase=Phase.PLAY)
    play(state, "meld K K K", "discard 9")
    while state.seat != 0:
        pass_turn(state)
    assert state.phase == Phase.DRAW and not state.foot_picked[0]
    play(state, "draw")
    assert state.foot_picked[0] and state.held_n[0] == 2 + 11
    # by default the Foot is picked up as the next turn begins, before the draw
    base = position(name, hands={0: "K K K 9"}, melds={0: ["Q Q Q"]}, phase=Phase.PLAY)
    play(base, "meld K K K", "discard 9")
    while base.seat != 0:
        pass_turn(base)
    assert base.phase == Phase.DRAW and base.foot_picked[0] and base.held_n[0] == 11


# --- OPT-19: a growing Hand (WE-001-17, A-20) -----------------------------------------


@pytest.mark.parametrize("name", meant_for("growing_hand"))
def test_we_001_17_growing_hand(name: str) -> None:
    p = prof(name, "growing_hand")
    base = load_profile(name)
    for layout in p.layouts:
        state = GameState.new(p, layout=layout, seed=21)
        for number, hand_size in enumerate((13, 15, 17, 19), 1):
            assert state.round_number == number
            deal = state.deal
            assert [len(h) for h in deal.hands] == [hand_size] * layout.players
            assert [len(f) for f in deal.feet] == [11] * layout.players
            assert [len(k) for k in deal.knees] == [base.knee_size] * layout.players
            assert len(state.all_faces()) == 54 * p.decks(layout.players)
            if number < 4:
                finish_round(state)
        finish_round(state)
        assert state.is_over
    # by default the Hand does not grow
    state = GameState.new(base, seed=21)
    finish_round(state)
    assert [len(h) for h in state.deal.hands] == [base.hand_size] * state.players


# --- OPT-24: announce the Foot ----------------------------------------------------------


@pytest.mark.parametrize("name", meant_for(ANNOUNCE))
def test_opt24_announce_foot_is_a_flag_only(name: str) -> None:
    p = prof(name, ANNOUNCE)
    base = load_profile(name)
    assert p.announce_foot and not base.announce_foot
    for key in FIELDS:
        if key != "announce_foot":
            assert getattr(p, key) == getattr(base, key), key
    game = play_bots(p, 9, "easy")
    check_results(game)
    assert game.results == play_bots(base, 9, "easy").results


# --- combinations played as whole games --------------------------------------------------

COMBINATIONS = [
    ("sevens_from_hell", "take_whole_pile", "growing_hand", "second_book",
     "unfinished_second_book_negative"),
    ("fifth_round_clean_book", "books_capped_at_7", "red_three_caught_500",
     "black_three_caught_300", "delayed_foot", "pile_of_8"),
    ("singles_play_out", "singles_wild_books", "singles_pair_pickup",
     "red_three_300_black_three_5", "clean_500_dirty_300", "minimums_by_score"),
    ("no_pickups", "clean_500_dirty_300", ANNOUNCE, *PENALTIES, "delayed_foot",
     "growing_hand"),
    ("take_top_5", "dealer_deals", "second_book", "sevens_from_hell", "minimums_by_score"),
]
# target games run until a side reaches the target, which random bots never do
TARGET_COMBINATIONS = [
    ("first_to_10000", "minimums_by_score", "take_top_5", "dealer_deals", "sevens_from_hell"),
    ("first_to_20000", "books_capped_at_7", "no_pickups", "growing_hand"),
]


def _combination_cases() -> list[object]:
    out = []
    for number, combo in enumerate(COMBINATIONS + TARGET_COMBINATIONS, 1):
        bots = ["easy"] if combo in TARGET_COMBINATIONS else ["easy", "random"]
        for name in meant_for(*combo):
            for bot in bots:
                out.append(pytest.param(combo, name, bot, id=f"combo{number}-{name}-{bot}"))
    return out


@pytest.mark.parametrize(("combo", "name", "bot"), _combination_cases())
def test_option_combinations_play_whole_games(combo: tuple[str, ...], name: str,
                                              bot: str) -> None:
    p = prof(name, *combo)
    assert set(combo) <= set(p.options)
    games: list[GameState] = []
    stats = simulate(p, 1, 77, bots=[bot],
                     on_game=lambda _i, state, _summary, _record: games.append(state))
    assert stats.games == 1 and len(games) == 1
    assert set(stats.round_ends) <= ROUND_ENDS
    for state in games:
        check_results(state)
        rounds = len(state.results)
        if p.target_score is None:
            assert rounds == p.rounds
        else:
            assert max(state.totals) >= p.target_score or rounds == p.rounds
