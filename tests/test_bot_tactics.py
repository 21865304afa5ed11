"""The bots' tactics (seed 003's tips), each shown in a position built for it.

Every test lets a bot play one turn from its own view through the engine and checks the
moves it committed.
"""

from __future__ import annotations

from handfoot.bots import melds
from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import make_bot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.moves import WILD_MELD
from handfoot.game.values import Phase
from positions import position

P13 = "partnership-13"
# side 2 could go out: 2 clean, 2 dirty and 1 all-wild book, and seat 2 is in its Foot
READY = ["K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J 2 2", "10 10 10 10 10 10 2",
         "2 2 2 JK JK JK JK"]


def turn(state: GameState, bot: Bot) -> list[mv.Move]:
    """The moves the bot commits until its seat is no longer the one to act."""
    seat = state.to_act
    moves: list[mv.Move] = []
    for _ in range(200):
        if state.to_act != seat or state.phase == Phase.GAME_OVER or state.results:
            break
        move = state.apply_action(bot.choose(state.view(seat)))
        if move is not None:
            moves.append(move)
    return moves


def melds_of(moves: list[mv.Move]) -> list[mv.MeldGroup]:
    return [g for m in moves if isinstance(m, (mv.Meld, mv.Pickup)) for g in m.groups]


def test_black_three_is_thrown_first() -> None:
    for level in ("normal", "hard"):
        state = position(P13, phase=Phase.PLAY, hands={0: "B3 4 6 8 10 Q A"},
                         melds={0: ["K K K"]})
        moves = turn(state, make_bot(level, 1))
        assert moves[-1] == mv.Discard(cards.BLACK_THREE), level


def test_takes_the_pile_with_a_natural_pair() -> None:
    for level in ("normal", "hard"):
        state = position(P13, hands={0: "9 9 4 5 7 J Q"}, melds={0: ["K K K"]},
                         pile="5 6 8 A 9")
        moves = turn(state, make_bot(level, 1))
        assert isinstance(moves[0], mv.Pickup), (level, moves)
        assert any(g.target == cards.parse_kind("9") for g in melds_of(moves[:1]))


def test_completes_the_meld_and_starts_a_new_one_to_take_the_pile() -> None:
    """partnership-13: with 6s on the table, the pile's top 6 must finish them into a book
    and start a new meld of 6s (A-10)."""
    six = cards.parse_kind("6")
    for level in ("normal", "hard"):
        state = position(P13, hands={0: "6 6 6 2 JK 4 8 9 J Q"}, melds={0: ["6 6 6 6"]},
                         pile="5 7 8 6")
        moves = turn(state, make_bot(level, 1))
        assert isinstance(moves[0], mv.Pickup), (level, moves)
        sixes = [m for m in state.melds[0] if m.target == six]
        assert [m.size >= 7 for m in sixes] == [True, False], level


def test_guards_a_clean_meld_of_four_from_wild_cards() -> None:
    king = cards.parse_kind("K")
    state = position(P13, phase=Phase.PLAY, hands={0: "2 9 9 9 4 5 7 J"},
                     melds={0: ["K K K K"]})
    moves = turn(state, make_bot("hard", 1))
    assert not any(g.target == king and g.wilds for g in melds_of(moves))
    assert [m.wilds for m in state.melds[0] if m.target == king] == [0]


def test_hurries_into_its_foot_with_few_cards() -> None:
    """Four cards left: hard melds its pair with a wild and discards, reaching its Foot."""
    state = position(P13, phase=Phase.PLAY, hands={0: "9 9 2 5"}, melds={0: ["K K K"]})
    moves = turn(state, make_bot("hard", 1))
    assert any(g.target == cards.parse_kind("9") and g.wilds for g in melds_of(moves))
    assert isinstance(moves[-1], mv.Discard)
    assert state.foot_picked[0] or state.held_n[0] == 0  # the Foot now or next turn


def test_lays_points_down_when_the_other_side_is_about_to_go_out() -> None:
    hand = "9 9 2 5 5 JK 7 8"
    calm = position(P13, phase=Phase.PLAY, hands={0: hand}, melds={0: ["K K K"]})
    assert not melds_of(turn(calm, make_bot("hard", 1)))
    danger = position(P13, phase=Phase.PLAY, hands={0: hand, 1: "4 6"}, in_foot=[1],
                      melds={0: ["K K K"], 1: READY})
    laid = melds_of(turn(danger, make_bot("hard", 1)))
    assert sum(g.size for g in laid) >= 6, laid
    assert all(g.target != WILD_MELD for g in laid)


GONE_OUT = [*READY[:4], "2 2 2 2 2 2 2"]


def test_partner_answers_yes_unless_behind_with_a_costly_hand() -> None:
    light = position(P13, phase=Phase.PLAY, hands={0: "9 9 9 9 5", 2: "4 5"},
                     in_foot=[0, 2], foot_played=[0, 2], melds={0: GONE_OUT})
    light.apply(mv.parse_move("goout 9 9 9 9 discard 5"))
    assert light.phase == Phase.ANSWER and light.to_act == 2
    assert light.apply_action(make_bot("hard", 1).choose(light.view(2))) is not None
    assert light.results  # yes: the round ended

    heavy = position(P13, phase=Phase.PLAY, hands={0: "9 9 9 9 5", 2: "A A JK JK 2 K"},
                     in_foot=[0, 2], foot_played=[0, 2], melds={0: GONE_OUT})
    heavy.totals = [0, 500]
    heavy.apply(mv.parse_move("goout 9 9 9 9 discard 5"))
    heavy.apply_action(make_bot("hard", 1).choose(heavy.view(2)))
    assert not heavy.results and heavy.to_act == 0  # no: seat 1 plays on


def test_go_out_judgement_is_the_engines() -> None:
    """The bots judge the books needed to go out by the engine's rule: a clean book never
    stands in for a dirty one, and Hand, Knee & Foot needs clean books of 5s and 7s that do
    not count as its clean book (``special_books_to_go_out``). Seat 1 holds 9 9 9 in its
    last packet, its partner has played from the Foot, so only the books decide."""
    hkf_no_specials = ["K K K K K K K", "Q Q Q Q Q Q Q", "J J J J J 2 2", "2 2 2 JK JK JK JK"]
    hkf_ready = ["5 5 5 5 5 5 5", "7 7 7 7 7 7 7", "K K K K K K K", "J J J J J 2 2",
                 "2 2 2 JK JK JK JK"]
    three_clean_one_dirty = ["K K K K K K K", "Q Q Q Q Q Q Q", "A A A A A A A",
                             "J J J J J 2 2", "2 2 2 JK JK JK JK"]
    cases = [(P13, READY, True), (P13, three_clean_one_dirty, False),
             ("hand-knee-foot", hkf_ready, True), ("hand-knee-foot", hkf_no_specials, False)]
    nine = cards.parse_kind("9")
    for name, table, ready in cases:
        state = position(name, phase=Phase.PLAY, hands={0: "9 9 9"}, melds={0: table},
                         in_foot=[0, 2], foot_played=[0, 2], foot_turn_done=[0, 2],
                         knee_picked=[0, 2])
        view = state.view(0)
        assert melds._may_go_out(view, [mv.MeldGroup(nine, 3)]) is ready, name
        reason = state.check(mv.GoOut((mv.MeldGroup(nine, 3),)))
        assert (reason is None) is ready, (name, reason)
        if not ready:
            assert "to go out your side needs" in str(reason)
