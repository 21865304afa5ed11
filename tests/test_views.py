"""What a seat's view shows, and what it hides.

A :class:`~handfoot.engine.PlayerView` shows the seat its own cards, only counts of the
other packets, the top and size of the discard pile, the size of the stock, and the table;
so two states that differ only in cards hidden from a seat give that seat the same view,
and bots that see only views play whole games.
"""

from __future__ import annotations

import dataclasses

import pytest

from handfoot import cards
from handfoot import moves as mv
from handfoot.bots import EasyBot, RandomBot
from handfoot.engine import GameState, Phase, PlayerView
from handfoot.rules import Layout, load_profile
from handfoot.sim import play_game
from positions import faces, position

PUBLIC_FIELDS = {
    "profile", "seat", "side", "players", "sides", "round_number", "rounds", "phase", "turn",
    "to_act", "opening_minimum", "hand", "hand_counts", "foot_counts", "knee_counts",
    "in_foot", "melds", "red_threes", "opened", "discard_top", "discard_size", "stock_size",
    "totals", "results", "asking", "staged", "legal_actions",
}

SEAT0 = "KS KD KH QS QD 9C 9D 7H 5S 4C 4D 2C JK"
SEAT1 = "AS AD AH 8C 8D 8H 6S 6C TD TH JS JD 3C"


def table_position(seed: int = 7, **kw: object) -> GameState:
    """Seat 0 to play in round 1 of partnership-13, its side opened, a known pile."""
    args: dict[str, object] = {
        "turn": 0, "phase": Phase.PLAY, "hands": {0: SEAT0},
        "melds": {0: ["AC AC AC 2D"], 1: ["5C 5D 5H"]},
        "pile": "6H 7S 8S 9H TC", "seed": seed,
    }
    args.update(kw)
    return position("partnership-13", **args)  # type: ignore[arg-type]


def test_view_fields_are_all_public() -> None:
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert names <= PUBLIC_FIELDS, f"review these view fields: {sorted(names - PUBLIC_FIELDS)}"
    assert {"hand", "hand_counts", "foot_counts", "discard_top", "stock_size"} <= names
    for secret in ("seed", "deal", "deals", "stock", "pile", "feet", "held", "held_faces"):
        assert secret not in names


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    state = table_position(hands={0: SEAT0, 1: SEAT1, 3: "4S 4H 4S"}, in_foot=[3])
    v = state.view(0)
    assert v.seat == 0 and v.side == 0 and v.to_act == 0 and v.turn == 0
    assert sorted(v.hand) == sorted(faces(SEAT0))
    assert v.hand_counts == (13, 13, 13, 3)
    assert v.foot_counts == (13, 13, 13, 0)
    assert v.knee_counts == (0, 0, 0, 0)
    assert v.in_foot == (False, False, False, True)
    # seat 1 sees its own cards, and seat 0's only as a count
    v1 = state.view(1)
    assert sorted(v1.hand) == sorted(faces(SEAT1))
    assert v1.hand_counts == v.hand_counts and v1.foot_counts == v.foot_counts
    # what seat 1 holds makes no difference to seat 0's view, only how many
    other = table_position(hands={0: SEAT0, 1: "4H 4S 6D 7C 7D 8C JH QH QC KC KC TS 9S",
                                  3: "4S 4H 4S"}, in_foot=[3])
    assert other.view(0) == v and other.view(1) != v1


def test_only_the_seat_to_act_gets_legal_actions_and_staged_cards() -> None:
    state = table_position()
    state.apply(mv.decode_action(mv.encode_stage(cards.KING, cards.KING, 0)))
    v0 = state.view(0)
    assert v0.legal_actions == tuple(state.legal_actions()) and v0.legal_actions
    assert v0.staged == state.staged_groups() and v0.staged
    for seat in (1, 2, 3):
        v = state.view(seat)
        assert v.legal_actions == () and v.staged == () and v.asking is None


def test_the_discard_pile_shows_its_top_and_size_only() -> None:
    state = table_position()
    v = state.view(0)
    assert v.discard_top == cards.parse_face("TC")
    assert v.discard_size == 5
    other = table_position(pile="4H 4S JK 3C TC")  # different cards below the same top
    assert other.pile != state.pile
    assert other.view(0) == v
    # and below-the-top cards moved into the stock are as invisible
    moved = state.copy()
    moved.stock[0], moved.pile[0] = moved.pile[0], moved.stock[0]
    assert moved.view(0) == v


def test_the_stock_shows_its_size_not_its_order() -> None:
    state = table_position()
    reordered = state.copy()
    reordered.stock.reverse()
    assert reordered.stock != state.stock
    for seat in range(4):
        v = state.view(seat)
        assert v.stock_size == len(state.stock)
        assert reordered.view(seat) == v


def test_the_own_foot_is_hidden_from_its_owner_until_picked_up() -> None:
    state = table_position()
    swapped = state.copy()
    swapped.feet[0], swapped.stock[:13] = swapped.stock[:13], swapped.feet[0]
    assert swapped.feet[0] != state.feet[0]
    assert swapped.view(0) == state.view(0)
    assert state.view(0).foot_counts[0] == 13


def test_views_of_states_differing_only_in_hidden_cards_are_equal() -> None:
    a = table_position(seed=7)
    b = table_position(seed=8)  # other hands, feet and stock are dealt differently
    assert a.hand(1) != b.hand(1) and a.stock != b.stock and a.feet[0] != b.feet[0]
    assert a.view(0) == b.view(0)  # the seat to act: legal actions included
    assert a.view(1) != b.view(1)
    # and they stay equal while seat 0 does the same things
    for move in ("meld K K K", "meld 4 4 2", "discard 5"):
        a.apply(mv.parse_move(move))
        b.apply(mv.parse_move(move))
        assert a.view(0) == b.view(0)


def test_a_partner_asked_to_go_out_sees_the_question() -> None:
    state = position(
        "biegames", layout=Layout(2, 2), turn=0, phase=Phase.PLAY,
        hands={0: "9S 9D 9H 4C", 2: "6C 6D 8S"}, in_foot=[0, 2],
        melds={0: ["KC KC KD KD KH KH KS", "QC QC QD QD QH QH QS",
                   "JC JC JD JD JH JH 2C", "TC TC TD TD TH TH 2D"]})
    state.apply(mv.parse_move("goout 9 9 9 discard 4"))
    assert state.phase == Phase.ANSWER and state.to_act == 2
    partner = state.view(2)
    assert partner.asking == 0 and partner.turn == 0 and partner.to_act == 2
    assert partner.legal_actions == (mv.ANSWER_YES, mv.ANSWER_NO)
    asker = state.view(0)
    assert asker.asking is None and asker.legal_actions == ()
    assert state.view(1).asking is None and state.view(1).legal_actions == ()


class WatchingBot:
    """A random bot that checks every view it is given."""

    name = "watching"

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.inner = RandomBot(seed)
        self.calls = 0

    def choose(self, view: PlayerView) -> int:
        assert isinstance(view, PlayerView)
        assert view.seat == self.seat == view.to_act
        assert view.legal_actions and view.phase != Phase.GAME_OVER
        assert len(view.hand) == view.hand_counts[self.seat]
        self.calls += 1
        return self.inner.choose(view)


@pytest.mark.parametrize(("name", "layout"), [
    ("partnership-13", Layout(2, 2)), ("biegames", Layout(2, 2)), ("biegames", Layout(2, 1)),
])
def test_random_bots_play_whole_games_from_views(name: str, layout: Layout) -> None:
    p = load_profile(name)
    bots = [WatchingBot(seat, seed=100 + seat) for seat in range(layout.players)]
    state, summary = play_game(p, 12345, bots, layout=layout)
    assert state.is_over and state.legal_actions() == []
    assert len(state.results) == p.rounds == len(summary.round_ends)
    assert summary.totals == tuple(state.totals)
    assert sum(b.calls for b in bots) == summary.actions
    assert all(b.calls for b in bots)


def test_easy_bots_play_a_whole_game_from_views() -> None:
    p = load_profile("biegames")
    layout = Layout(2, 2)
    state, summary = play_game(p, 4, [EasyBot(s) for s in range(4)], layout=layout)
    assert state.is_over and len(summary.round_ends) == p.rounds
