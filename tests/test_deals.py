"""One deal check for explicit deals and game records: the packets of the round (with a
growing Hand too), the shoe, and the starter rule the seeded deal follows."""

from __future__ import annotations

import dataclasses
import json

import pytest

from handfoot import cards
from handfoot.engine import Deal, DealError, GameState, check_deal, deal_round
from handfoot.record import GameRecorder, RecordError, from_json, replay, to_json
from handfoot.registry import make_bot
from handfoot.rules import load_profile


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
