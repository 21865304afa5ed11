"""What a seat's view shows, and what it hides.

A :class:`~handfoot.game.values.PlayerView` shows the seat its own cards, only counts of the
other packets (every Foot and Knee, its own too until it picks them up), the top and size
of the discard pile, the size of the stock, and the table; so two states that differ only
in cards hidden from a seat give that seat the same view, and bots that see only views play
whole games under every profile.
"""

from __future__ import annotations

import dataclasses

import pytest

from handfoot.bots.heuristic import EasyBot, RandomBot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout
from handfoot.game.values import Phase, PlayerView
from handfoot.runs.sim import play_game
from positions import faces, position

NAMES = builtin_profile_names()

PUBLIC_FIELDS = {
    "profile", "seat", "side", "players", "sides", "round_number", "rounds", "phase", "turn",
    "to_act", "opening_minimum", "hand", "hand_counts", "foot_counts", "knee_counts",
    "in_foot", "melds", "red_threes", "opened", "discard_top", "discard_size", "stock_size",
    "hand_kinds",  # the seat's own hand, counted by kind
    "open_melds",  # public: each side's melds that take cards, as the table shows them
    "totals", "results", "asking", "staged", "legal_actions",
    "stalled_turns",  # public: everybody sees whether a turn drew or laid cards
    "pickup_size",  # public: the rules and the pile's size say it
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


def knee_position(layout: Layout | None = None, seed: int = 7, **kw: object) -> GameState:
    """Seat 0 to play in hand-knee-foot, its side with a clean book of kings: its Knee may
    be picked up. Every seat still holds its 13-card Knee."""
    args: dict[str, object] = {
        "layout": layout or Layout(2, 2), "turn": 0, "phase": Phase.PLAY,
        "hands": {0: "AS AD 9C 9D 8H 6S 6C TD TH JS JD QC QD 4C 4H"},
        "melds": {0: ["KC KD KH KS KC KD KH"]}, "pile": "6H 7S 8S", "seed": seed,
    }
    args.update(kw)
    return position("hand-knee-foot", **args)  # type: ignore[arg-type]


def swap_knee(state: GameState, seat: int) -> GameState:
    """A copy in which ``seat``'s Knee and the top of the stock changed places."""
    c = state.copy()
    n = len(c.knees[seat])
    c.knees[seat], c.stock[-n:] = c.stock[-n:], c.knees[seat]
    assert c.knees[seat] != state.knees[seat]
    return c


@pytest.mark.parametrize("layout", [Layout(2, 2), Layout(3, 1), Layout(2, 3)],
                         ids=str)
def test_knees_show_only_their_counts_until_picked_up(layout: Layout) -> None:
    state = knee_position(layout)
    players = layout.players
    v = state.view(0)
    assert v.knee_counts == (13,) * players
    assert len(v.hand) == v.hand_counts[0] == 15
    # nobody sees a Knee: not the other seats', and not one's own before picking it up
    for owner in range(players):
        other = swap_knee(state, owner)
        for seat in range(players):
            assert other.view(seat) == state.view(seat), (
                f"seat {seat + 1} sees seat {owner + 1}'s Knee")
    # picking it up puts it in the hand, in view of its owner only
    assert mv.KNEE in state.legal_actions()
    knee = state.knees[0][:]
    state.apply(mv.PickUpKnee())
    mine = state.view(0)
    assert sorted(mine.hand) == sorted(list(v.hand) + knee)
    assert mine.knee_counts == (0,) + (13,) * (players - 1)
    assert mine.hand_counts[0] == 28
    for seat in range(1, players):
        theirs = state.view(seat)
        assert theirs.knee_counts == mine.knee_counts and theirs.hand_counts[0] == 28
    other = swap_knee(state, 1)
    assert other.view(0) == state.view(0)


def test_a_knee_cannot_be_picked_up_before_a_book() -> None:
    state = knee_position(melds={0: ["KC KD KH KS KC KD"]})
    assert mv.KNEE not in state.legal_actions()
    assert mv.KNEE not in state.view(0).legal_actions
    assert swap_knee(state, 0).view(0) == state.view(0)


CONFIGS = sorted({(name, layout) for name in NAMES
                  for layout in (load_profile(name).layouts[0], load_profile(name).layouts[-1])},
                 key=lambda c: (NAMES.index(c[0]), c[1].players))
"""Each profile at its default layout and the last it allows (the most players)."""


@pytest.mark.parametrize(("name", "layout"),
                         [pytest.param(n, x, id=f"{n}-{x}") for n, x in CONFIGS])
def test_random_bots_play_whole_games_from_views(name: str, layout: Layout) -> None:
    p = load_profile(name)
    bots = [WatchingBot(seat, seed=100 + seat) for seat in range(layout.players)]
    state, summary = play_game(p, 12345, bots, layout=layout)
    assert state.is_over and state.legal_actions() == []
    assert len(state.results) == p.rounds == len(summary.round_ends)
    assert summary.totals == tuple(state.totals)
    assert sum(b.calls for b in bots) == summary.actions
    assert all(b.calls for b in bots)


class WatchingEasyBot(WatchingBot):
    """An easy bot that checks every view it is given."""

    name = "watching-easy"

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.inner = EasyBot(seed)  # type: ignore[assignment]
        self.knees = 0

    def choose(self, view: PlayerView) -> int:
        action = super().choose(view)
        self.knees += action == mv.KNEE
        return action


@pytest.mark.parametrize("name", NAMES)
def test_easy_bots_play_a_whole_game_from_views(name: str) -> None:
    p = load_profile(name)
    bots = [WatchingEasyBot(s, seed=s) for s in range(p.layout.players)]
    state, summary = play_game(p, 4, bots, layout=p.layout)
    assert state.is_over and len(summary.round_ends) == p.rounds
    if p.knee_size:
        assert sum(b.knees for b in bots), "no easy bot picked up its Knee"
