"""What the engine tells a front end about the cards in a hand, so that no client works a
rule out itself: where each kind can go (``GameState.meld_options``) and how many cards a
meld must leave (``GameState.meld_must_leave``), each the same answer the move's checks give.
"""

from __future__ import annotations

import random

import pytest

from handfoot.bots.heuristic import EasyBot
from handfoot.game import moves as mv
from handfoot.game.cards import BLACK_THREE, JOKER, KING, RED_THREE, TWO
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.moves import MeldGroup
from handfoot.game.values import Phase
from positions import play, position


def test_a_natural_joins_its_rank_a_wild_any_meld_and_a_three_none() -> None:
    state = position("biegames", hands={0: "K K 9 9 9 2 JK 3C 5 5 4"},
                     melds={0: ["K K K 2", "5 5 5 5 5 5 5"]}, phase=Phase.PLAY)
    options = {o.kind: o for o in state.meld_options(0)}
    assert options[KING].melds == (0,) and not options[KING].new  # its unfinished meld
    assert options[TWO].melds == (0,) and options[JOKER].melds == (0,)
    assert options[BLACK_THREE].melds == () and not options[BLACK_THREE].new
    assert options[BLACK_THREE].reason == "threes can never be melded"
    assert all(o.reason is None for k, o in options.items() if k != BLACK_THREE)


@pytest.mark.parametrize("name", builtin_profile_names())
def test_every_answer_is_what_a_meld_of_one_card_would_find(name: str) -> None:
    """In bot games of every profile: a card that may be melded alone onto a meld (the
    engine's checks of the whole move pass) lists that meld, and a kind listing no meld
    and no new one is never meldable."""
    state = GameState.new(load_profile(name, overrides={"rounds": 1}), seed=3)
    bots = [EasyBot(s) for s in range(state.players)]
    rng = random.Random(3)
    checked = 0
    while not state.is_over:
        seat = state.to_act
        if state.phase == Phase.PLAY and rng.random() < 0.3:
            melds = state.melds[state.side_of[seat]]
            for o in state.meld_options(seat):
                joined = {melds[i].target for i in o.melds}
                for target in {m.target for m in melds}:
                    wild = o.kind in (TWO, JOKER)
                    if o.kind in (BLACK_THREE, RED_THREE) or not (wild or target == o.kind):
                        assert target not in joined
                        continue
                    group = MeldGroup(target, 0 if wild else 1, int(o.kind == TWO),
                                      int(o.kind == JOKER))
                    if state.is_legal(mv.Meld((group,))):
                        assert target in joined, (o, target)
                        checked += 1
        state.apply_action(bots[seat].choose(state.view(seat)))
    assert checked > 20


def test_a_meld_leaves_what_the_rules_keep() -> None:
    # in the Foot, with no Knee: one card to discard and the rules' cards to hold
    profile = load_profile("partnership-13")
    state = position(profile, hands={0: "9 9 9 9 9 4"}, in_foot=[0], melds={0: ["K K K"]},
                     stock_top="9C 9D")
    play(state, "draw")
    least = state.meld_must_leave(0)
    keep = profile.min_cards_kept
    assert least == (keep + 1 if keep else 0)
    refused = 0
    for text in ("meld 9 9 9", "meld 9 9 9 9 9 9", "meld 9 9 9 9 9 9 9"):
        move = mv.parse_move(text)
        assert isinstance(move, mv.Meld)
        left = len(state.hand(0)) - sum(g.size for g in move.groups)
        assert (state.check(move) is None) == (left >= least), text
        refused += left < least
    assert refused == 1
    # in the Hand, emptying it brings the Foot: nothing need be left
    fresh = position(profile, hands={0: "9 9 9"}, stock_top="5C 6C")
    play(fresh, "draw")
    assert fresh.meld_must_leave(0) == 0


def test_the_view_says_how_many_cards_a_meld_leaves() -> None:
    from handfoot.web.protocol import seat_view_json

    state = position("biegames", hands={0: "9 9 9 8 4"}, in_foot=[0], melds={0: ["K K K"]},
                     stock_top="5C 6C")
    play(state, "draw")
    assert seat_view_json(state, 0)["legal"]["meld_leaves"] == state.meld_must_leave(0)
    assert "meld_leaves" not in seat_view_json(state, 1)["legal"]
