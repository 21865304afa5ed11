"""One deal check for explicit deals and game records: the packets of the round (with a
growing Hand too), the shoe, and the starter rule the seeded deal follows."""

from __future__ import annotations

import dataclasses
import json

import pytest

from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import make_bot
from handfoot.game import cards
from handfoot.game.deal import check_deal, deal_round
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.record import GameRecorder, RecordError, from_json, replay, to_json
from handfoot.game.values import Deal, DealError


def growing() -> GameState:
    return GameState.new(load_profile("remastered-singles", overrides={"growing_hand": True}),
                         seed=1)


def test_a_growing_hand_record_reads_back() -> None:
    """The regression of issue 10: the record checked ``hand_size``, the engine the Hand of
    the round (13 cards in round 1 under ``growing_hand``)."""
    state = growing()
    assert len(state.deal.hands[0]) == state.profile.hand_size_in(1) != state.profile.hand_size
    from_json(to_json(GameRecorder(state).record()))


def test_a_growing_hand_game_round_trips_into_its_second_round() -> None:
    recorder = GameRecorder(growing())
    state = recorder.state
    bots = [make_bot("easy", seat) for seat in range(state.players)]
    moves_in_round_two = 0
    while moves_in_round_two < 6 and not state.is_over:
        if recorder.apply_action(bots[state.to_act].choose(state.view(state.to_act))):
            moves_in_round_two += state.round_number == 2
    assert state.round_number == 2
    assert len(state.deal.hands[0]) == state.profile.hand_size_in(2)
    record = recorder.record()
    assert from_json(to_json(record)) == record
    assert replay(record).ok


def with_starter(deal: Deal, index: int, kind: int) -> Deal:
    """The deal with a card of ``kind`` from the stock swapped into ``discard[index]``."""
    stock = list(deal.stock)
    at = next(i for i, f in enumerate(stock) if cards.kind_of(f) == kind)
    discard = list(deal.discard)
    stock[at], discard[index] = discard[index], stock[at]
    return dataclasses.replace(deal, stock=tuple(stock), discard=tuple(discard))


@pytest.mark.parametrize("kind", [cards.RED_THREE, cards.JOKER, cards.TWO])
def test_an_explicit_deal_with_a_rejected_starter_is_refused(kind: int) -> None:
    p = load_profile("partnership-13")
    deal = with_starter(deal_round(p, p.layout, 3, 1), 0, kind)
    with pytest.raises(ValueError) as info:
        GameState.new(p, deals=[deal], seed=3)
    assert str(info.value) == (
        f"the deal of round 1: discard[0]: {cards.face_name(deal.discard[0])} "
        f"({cards.KIND_NAMES[kind]}) cannot be a starter card: partnership-13 puts a red 3, "
        "2 or joker back into the stock and turns another")


def test_a_black_three_starts_where_the_profile_allows_it() -> None:
    p = load_profile("partnership-13")  # a black 3 is a legal starter
    deal = with_starter(deal_round(p, p.layout, 3, 1), 0, cards.BLACK_THREE)
    assert GameState.new(p, deals=[deal], seed=3).deal == deal
    singles = load_profile("remastered-singles")  # 001:73: any 3 is turned back
    deal = with_starter(deal_round(singles, singles.layout, 3, 1), 0, cards.BLACK_THREE)
    with pytest.raises(DealError, match="cannot be a starter card"):
        check_deal(singles, singles.layout, deal, 1)


def test_only_the_top_of_several_starters_is_checked_where_the_profile_says_so() -> None:
    p = load_profile("remastered-teams")  # three starters, the top one checked
    assert p.starter_cards == 3 and not p.starter_check_all
    deal = deal_round(p, p.layout, 5, 1)
    below = with_starter(deal, 0, cards.JOKER)
    check_deal(p, p.layout, below, 1)  # the 2nd and 3rd cards can be anything (001:179)
    top = with_starter(deal, 2, cards.JOKER)
    with pytest.raises(DealError) as info:
        check_deal(p, p.layout, top, 1)
    assert info.value.where == "discard[2]"
    assert "cannot be the top starter card" in info.value.problem


def test_a_record_with_a_rejected_starter_is_refused() -> None:
    p = load_profile("biegames")
    recorder = GameRecorder(GameState.new(p, seed=2))
    data = json.loads(to_json(recorder.record()))
    deal = data["rounds"][0]["deal"]
    joker = deal["stock"].index("JK")
    deal["stock"][joker], deal["discard"][0] = deal["discard"][0], "JK"
    with pytest.raises(RecordError) as info:
        from_json(json.dumps(data))
    assert str(info.value) == (
        "rounds[0].deal.discard[0]: JK (joker) cannot be a starter card: biegames puts a "
        "red 3, 2 or joker back into the stock and turns another")


def test_every_seeded_deal_passes_the_check() -> None:
    for name in ("partnership-13", "hand-knee-foot", "remastered-teams", "bicycle"):
        p = load_profile(name)
        for layout in p.layouts:
            for seed in range(3):
                for round_number in range(1, p.rounds + 1):
                    check_deal(p, layout, deal_round(p, layout, seed, round_number),
                               round_number)


# --- rotation: explicit deals, then deals from the seed (issue 13, item 4b) ----------------

ROTATION_CASES = [(name, layout, first)
                  for name in ("partnership-13", "remastered-singles", "remastered-teams",
                               "hand-knee-foot", "biegames", "bicycle")
                  for layout in load_profile(name).layouts
                  for first in ("left_of_dealer", "random", "high_card")]


@pytest.mark.parametrize(("name", "layout", "first"), ROTATION_CASES,
                         ids=[f"{n}-{x}-{f}" for n, x, f in ROTATION_CASES])
def test_seeded_rounds_continue_the_rotation_of_the_explicit_deals(
        name: str, layout: object, first: str) -> None:
    """RULES-MATRIX D13 ("Play 4 deals, rotating the dealer left each time", 000:13; A-19
    "In later rounds the first seat moves one place clockwise"): a round dealt from the seed
    after explicit deals moves the dealer and the first player one seat clockwise from the
    last explicit deal, whichever rule chose round 1's first player; the cards are the
    seed's."""
    from handfoot.game.deal import deal_of_round
    from handfoot.game.rules import Layout

    assert isinstance(layout, Layout)
    p = load_profile(name, overrides={"first_player": first, "rounds": 4})
    n = layout.players
    seeded = [deal_round(p, layout, 5, r) for r in range(1, 5)]
    assert [deal_of_round(p, layout, r, seed=5) for r in range(1, 5)] == seeded
    for dealer in range(n):
        explicit = dataclasses.replace(seeded[0], dealer=dealer,
                                       first_player=(dealer + 1) % n)
        for count in (1, 2):
            deals = [explicit, dataclasses.replace(seeded[1], dealer=(dealer + 1) % n,
                                                   first_player=(dealer + 2) % n)][:count]
            for r in range(count + 1, 5):
                deal = deal_of_round(p, layout, r, deals=deals, seed=5)
                assert deal.dealer == (dealer + r - 1) % n
                assert deal.first_player == (dealer + r) % n
                assert deal.all_faces() == seeded[r - 1].all_faces()
                check_deal(p, layout, deal, r)


def play_round(state: GameState, bots: list[Bot]) -> None:
    start = state.round_number
    for _ in range(20_000):
        if state.is_over or state.round_number != start:
            return
        state.apply_action(bots[state.to_act].choose(state.view(state.to_act)))
    raise AssertionError("the round did not end")


@pytest.mark.parametrize(("name", "layout_text"),
                         [("partnership-13", "2x2"), ("hand-knee-foot", "3x1"),
                          ("remastered-singles", "4x1")])
def test_a_game_from_an_explicit_deal_rotates_on_from_it(name: str, layout_text: str) -> None:
    """The defect of issue 13: partnership-13 went right instead of left and hand-knee-foot
    with 3 players skipped a seat once the explicit deals ran out. Round 2 starts one seat
    clockwise of round 1's first player, and the game's record replays."""
    from handfoot.game.rules import Layout

    p = load_profile(name)
    layout = Layout.parse(layout_text)
    n = layout.players
    for dealer in range(n):
        deal = dataclasses.replace(deal_round(p, layout, 9, 1), dealer=dealer,
                                   first_player=(dealer + 1) % n)
        state = GameState.new(p, layout=layout, deals=[deal], seed=9)
        recorder = GameRecorder(state)
        play_round(state, [make_bot("easy", s) for s in range(n)])
        assert state.round_number == 2
        assert (state.dealer, state.first_player) == ((dealer + 1) % n, (dealer + 2) % n)
        record = recorder.record()
        assert record.rounds[1].deal.first_player == (dealer + 2) % n
        assert replay(from_json(to_json(record))).ok
