"""Engine edges that mutation testing (issue 19, ``scripts/mutation``) found unguarded: each
test pins one behaviour a mutant of engine.py changed without any other test noticing."""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace

import pytest

from handfoot.game import cards, deal
from handfoot.game import moves as mv
from handfoot.game.deal import check_deal, deal_round
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.rules import Profile
from handfoot.game.state import State
from handfoot.game.values import DealError, Phase, RoundEnd
from positions import must_fail, play, position

# The five books partnership-13 needs to go out: two clean, two dirty, one all-wild.
BOOKS = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2",
         "JK JK 2 2 2 2 2"]


def _going_out(rounds: int, hand: str, books: list[str] | None = None, *,
               draws: str = "8 K") -> GameState:
    """Seat 0 in its Foot holding ``hand``, its partner (seat 2) ready, the side with
    ``books`` on the table; seat 0 to draw ``draws``."""
    p = load_profile("partnership-13", overrides={"rounds": rounds})
    return position(p, hands={0: hand}, in_foot=[0, 2], foot_played=[2], foot_turn_done=[2],
                    melds={0: BOOKS if books is None else books}, stock_top=draws)


# --- the state after the game ends --------------------------------------------------------


@pytest.mark.parametrize("rounds", [1, 2])
def test_going_out_with_a_discard_leaves_no_seat_below_zero_cards(rounds: int) -> None:
    state = _going_out(rounds, "9 9 9 8 8")
    play(state, "draw", "goout 9 9 9 | 8 8 8 discard K", "yes")
    result = state.results[0]
    assert result.reason == RoundEnd.WENT_OUT and result.went_out == 0
    if rounds == 1:
        assert state.phase == Phase.GAME_OVER and state.is_over
        assert state.held_n == [0, 13, 13, 13]
        assert state.hand(0) == [] and state.held[0] == [0] * cards.NUM_KINDS
        assert state.legal_actions() == []
        assert state.pile[-1] in cards.KIND_FACES[cards.KING]
    else:
        assert state.round_number == 2 and state.phase == Phase.DRAW
        assert state.held_n == [13, 13, 13, 13]
    for seat in range(4):
        view = state.view(seat)
        assert list(view.hand_counts) == state.held_n
        assert len(view.hand) == state.held_n[seat]
        assert view.staged == () and view.legal_actions == tuple(
            state.legal_actions() if seat == state.to_act and not state.is_over else ())
    assert state.staged == {}
    # the side's score counts the melded cards and the going-out bonus
    assert result.scores[0].total > result.scores[1].total


def test_discarding_the_last_card_goes_out_in_the_last_round() -> None:
    # remastered-singles (no partners): a discard of the last card ends the game; with one
    # book short it is a plain discard that leaves an empty hand (min_cards_kept = 0)
    p = load_profile("remastered-singles", overrides={"rounds": 1})
    short = position(p, phase=Phase.PLAY, hands={0: "5"}, in_foot=[0],
                     melds={0: ["4 4 4 4 4 4 4", "K K K K K K K"]})
    assert not short.verify(mv.parse_move("discard 5")).goes_out
    play(short, "discard 5")
    assert short.results == [] and short.held_n[0] == 0 and short.seat == 1
    state = position(p, phase=Phase.PLAY, hands={0: "5"}, in_foot=[0],
                     melds={0: ["4 4 4 4 4 4 4", "K K K K K 2 2"]})
    assert state.verify(mv.parse_move("discard 5")).goes_out
    play(state, "discard 5")
    assert state.is_over and state.results[0].went_out == 0
    assert state.held_n == [0, 11, 11] and state.view(0).hand_counts == (0, 11, 11)
    assert all(state.view(s).legal_actions == () for s in range(3))
    # with partners the discard asks first
    asking = position(load_profile("partnership-13", overrides={"rounds": 1}),
                      phase=Phase.PLAY, hands={0: "9"}, in_foot=[0, 2], foot_played=[2],
                      foot_turn_done=[2], melds={0: BOOKS})
    must_fail(asking, "discard 9", "ask your partner first")
    play(asking, "goout discard 9", "yes")
    assert asking.is_over and asking.held_n == [0, 13, 13, 13]


def test_going_out_by_staged_actions_with_a_discard_ends_the_game_cleanly() -> None:
    state = _going_out(1, "9 9 9 8 8")
    play(state, "draw")
    for kind, n in ((cards.NINE, 3), (cards.EIGHT, 3)):
        for _ in range(n):
            state.apply_action(mv.encode_stage(kind, kind, 0))
    assert state.view(0).staged == (mv.MeldGroup(cards.EIGHT, 3, 0, 0),
                                    mv.MeldGroup(cards.NINE, 3, 0, 0))
    committed = state.apply_action(mv.GO_OUT_DISCARD + cards.KING)
    assert committed == mv.GoOut((mv.MeldGroup(cards.EIGHT, 3, 0, 0),
                                  mv.MeldGroup(cards.NINE, 3, 0, 0)), cards.KING)
    assert state.phase == Phase.ANSWER and state.staged == {} and state.view(0).staged == ()
    state.apply(mv.Answer(True))
    assert state.is_over and state.held_n == [0, 13, 13, 13]
    assert state.view(0).hand_counts == (0, 13, 13, 13) and state.view(0).staged == ()


def test_staged_cards_do_not_outlive_their_round() -> None:
    # seat 0 stages a pickup in the draw phase, then draws from an empty stock: the round
    # ends, and nothing staged is left in the next round's state or views
    state = position("partnership-13", hands={0: "K K 5 6 7 8 9 T J Q A A A"},
                     pile="4C KS", stock_size=0, melds={0: ["Q Q Q Q"]})
    state.apply_action(mv.encode_stage(cards.KING, cards.KING, 0))
    state.apply_action(mv.encode_stage(cards.KING, cards.KING, 0))
    assert state.staged and state.view(0).staged == (mv.MeldGroup(cards.KING, 2, 0, 0),)
    state.apply(mv.Draw())
    assert state.results[0].reason == RoundEnd.STOCK_EXHAUSTED
    assert state.round_number == 2 and state.staged == {} and state.undo_stack == []
    assert all(state.view(s).staged == () for s in range(4))


# --- going out with two groups of one rank -------------------------------------------------


def test_go_out_with_a_group_that_starts_a_meld_and_one_that_books_it() -> None:
    # one clean book short; K K K starts the kings, K K K K makes them a clean book
    books = [b for b in BOOKS if not b.startswith("5")]
    state = _going_out(1, "K K K K K K", books, draws="5 K")
    play(state, "draw")  # seven kings and a 5
    must_fail(state.copy(), "goout K K K | K K K discard 5", "hold 2 cards")
    effect = state.verify(mv.parse_move("goout K K K | K K K K discard 5"))
    assert effect.books == 1 and effect.asks
    assert [(g.naturals, g.new) for g in effect.melds] == [(3, True), (4, False)]
    play(state, "goout K K K | K K K K discard 5")
    assert state.phase == Phase.ANSWER
    play(state, "yes")
    assert state.is_over
    kings = [m for m in state.melds[0] if m.target == cards.KING]
    assert [(m.naturals, m.size) for m in kings] == [(7, 7)]
    assert state.book_counts(0)["clean"] == 2


def test_go_out_refused_when_two_groups_of_a_rank_fall_short_of_a_book() -> None:
    books = [b for b in BOOKS if not b.startswith("5")]
    state = _going_out(1, "K K K K K 5 5 5", books)
    play(state, "draw")  # six kings, three 5s and an 8
    must_fail(state, "goout K K K | K K K | 5 5 5 discard 8", "go out", "clean")


def test_go_out_with_a_book_and_a_second_new_meld_of_its_rank() -> None:
    # seven kings make a book; the next three kings start a new meld of kings beside it
    books = [b for b in BOOKS if not b.startswith("5")]
    state = _going_out(1, "K K K K K K K K K", books)
    play(state, "draw")  # ten kings and an 8
    effect = state.verify(mv.parse_move("goout K K K K K K K | K K K discard 8"))
    assert effect.books == 1
    assert [(g.naturals, g.new) for g in effect.melds] == [(7, True), (3, True)]
    play(state, "goout K K K K K K K | K K K discard 8", "yes")
    assert state.is_over
    kings = [m.size for m in state.melds[0] if m.target == cards.KING]
    assert kings == [7, 3]
    assert state.book_counts(0) == {"clean": 2, "dirty": 2, "wild": 1,
                                    f"clean:{cards.FOUR}": 1, f"clean:{cards.KING}": 1}


def test_go_out_with_two_new_melds_of_a_rank_that_break_a_rule() -> None:
    books = [b for b in BOOKS if not b.startswith("5")]
    state = _going_out(1, "K K K K K K K K", books)
    play(state, "draw")  # nine kings and an 8
    # a book and a second meld of two kings: too short to be a meld
    must_fail(state.copy(), "goout K K K K K K K | K K discard 8", "at least 3")
    # a second new meld while the first is unfinished
    must_fail(state.copy(), "goout K K K K K K | new K K K discard 8", "unfinished")
    # one meld of nine kings: past a book's seven cards
    must_fail(state, "goout K K K K K K | K K K discard 8", "at most 7")


# --- a pickup that empties the hand --------------------------------------------------------


def test_a_pickup_that_empties_the_hand_brings_the_foot_at_once() -> None:
    state = position("partnership-13", hands={0: "K K"}, pile="KS",
                     melds={0: ["Q Q Q Q"]})
    foot = sorted(state.feet[0])
    play(state, "pickup K K")
    assert state.foot_picked[0] and state.feet[0] == []
    assert state.hand(0) == foot and state.held_n[0] == 13
    assert state.phase == Phase.PLAY and state.seat == 0 and state.picked_pile
    assert [m.size for m in state.melds[0] if m.target == cards.KING] == [3]
    assert state.view(0).in_foot[0] and state.view(0).foot_counts[0] == 0


def test_a_pickup_that_empties_the_hand_ends_the_turn_where_the_foot_waits() -> None:
    p = load_profile("partnership-13", overrides={"foot_at_once": False})
    state = position(p, hands={0: "K K"}, pile="KS", melds={0: ["Q Q Q Q"]})
    play(state, "pickup K K")
    assert not state.foot_picked[0] and state.held_n[0] == 0 and len(state.feet[0]) == 13
    assert state.seat == 1 and state.phase == Phase.DRAW
    # the Foot comes with seat 0's next draw
    for seat in (1, 2, 3):
        state.apply(mv.Draw())
        state.apply(mv.Discard(next(k for k in range(cards.RED_THREE)
                                    if state.held[seat][k])))
    state.apply(mv.Draw())
    assert state.foot_picked[0] and state.held_n[0] == 13 + p.draw_count


# --- explicit deals of per-round hand sizes --------------------------------------------------


def _end_round_by_drawing(state: GameState) -> GameState:
    """The state with the stock moved under the pile, after a draw that finds none."""
    pos = state.position()
    made = GameState.from_position(replace(pos, stock=(), pile=pos.stock + pos.pile))
    made.apply(mv.Draw())
    assert made.results[-1].reason == RoundEnd.STOCK_EXHAUSTED
    return made


def test_explicit_deals_follow_the_hand_size_of_each_round() -> None:
    p = load_profile("partnership-13", overrides={"rounds": 3, "hand_size_by_round": [11, 13]})
    layout = p.layout
    deals = [deal_round(p, layout, 5, r) for r in (1, 2)]
    assert [len(d.hands[0]) for d in deals] == [11, 13]
    state = GameState.new(p, deals=deals, seed=9)
    assert state.held_n == [11] * 4 and state.deal == deals[0]
    state = _end_round_by_drawing(state)
    assert state.round_number == 2 and state.held_n == [13] * 4 and state.deal == deals[1]
    state = _end_round_by_drawing(state)
    # round 3 is dealt from the seed: the last size of the list holds on
    assert state.round_number == 3 and state.held_n == [13] * 4
    assert state.dealer == (deals[1].dealer + 1) % 4
    # a deal of the wrong size for its round is refused, naming the round
    with pytest.raises(ValueError, match=r"round 2.*11 cards.*13 to each Hand in round 2"):
        GameState.new(p, deals=[deals[0], deals[0]], seed=9)
    with pytest.raises(ValueError, match="needs a seed"):
        GameState.new(p, deals=deals)


# --- wild cards at their limits ------------------------------------------------------------


def test_a_new_meld_at_the_exact_wild_limit_of_remastered_singles() -> None:
    # one more natural than wilds, and no more wilds than a book's size
    state = position("remastered-singles", phase=Phase.PLAY, layout=None,
                     hands={0: "9 9 9 9 9 9 9 9 9 2 2 2 2 2 2 2 2 JK 5"})
    must_fail(state.copy(), "meld 9 9 9 9 9 9 9 9 9 2 2 2 2 2 2 2 2", "past 7 cards")
    must_fail(state.copy(), "meld 9 9 9 9 9 9 9 2 2 2 2 2 2 2", "wild")
    legal = state.copy()
    play(legal, "meld 9 9 9 9 9 9 9 9 2 2 2 2 2 2 2")
    assert [(m.naturals, m.wilds) for m in legal.melds[0]] == [(8, 7)]
    play(state, "meld 9 9 9 9 9 9 9 9 9 2 2 2 2 2 2 JK")
    assert [(m.naturals, m.twos, m.jokers) for m in state.melds[0]] == [(9, 6, 1)]


def test_a_meld_with_the_maximum_of_wilds_but_too_few_naturals_says_so() -> None:
    p = load_profile("partnership-13", overrides={"max_wilds": 2, "min_naturals_with_wild": 4})
    state = position(p, phase=Phase.PLAY, hands={0: "9 9 9 9 2 2 2 5"}, melds={0: ["Q Q Q"]})
    reason = must_fail(state.copy(), "meld 9 9 9 2 2", "at least 4 natural")
    assert "at most" not in reason
    must_fail(state.copy(), "meld 9 9 9 9 2 2 2", "at most 2 wild")
    play(state, "meld 9 9 9 9 2 2")
    assert [(m.naturals, m.twos) for m in state.melds[0] if m.target == cards.NINE] == [(4, 2)]


@pytest.mark.parametrize("max_wilds", [None, 1])
def test_a_wild_top_beside_a_meld_one_short_of_a_book(max_wilds: int | None) -> None:
    # remastered-singles: the pile cannot be taken when its top would complete a book; a
    # two completes "9 9 9 9 9 2" only where the meld may hold a second wild
    p = load_profile("remastered-singles", overrides={"max_wilds": max_wilds or "none"})
    state = position(p, hands={0: "K Q 5"}, pile="4C 2S", melds={0: ["9 9 9 9 9 2"]})
    if max_wilds is None:
        must_fail(state, "pickup", "would complete your book of 9s")
    else:
        play(state, "pickup")
        assert state.picked_pile and state.held[0][cards.TWO] == 1
        assert [cards.face_name(f) for f in state.pile] == ["4C"]


def test_book_counts_give_the_clean_books_of_each_rank() -> None:
    state = position("partnership-13", melds={0: ["4 4 4 4 4 4 4", "K K K K K K K",
                                                  "K K K K K K K", "9 9 9 9 9 2 2", "Q Q Q"],
                                              1: ["A A A A A A A"]})
    assert state.book_counts(0) == {"clean": 3, "dirty": 1, "wild": 0,
                                    f"clean:{cards.FOUR}": 1, f"clean:{cards.KING}": 2}
    assert state.book_counts(1) == {"clean": 1, "dirty": 0, "wild": 0,
                                    f"clean:{cards.ACE}": 1}


# --- what a pickup's effect says, and what it lays ---------------------------------------


@pytest.mark.parametrize(("top", "hand", "move", "group"), [
    ("KS", "K K", "pickup K K", mv.MeldGroup(cards.KING, 3, 0, 0, new=True)),
    ("2S", "2 2", "pickup 2 2", mv.MeldGroup(mv.WILD_MELD, 0, 3, 0, new=True)),
    ("JK", "JK JK", "pickup JK JK", mv.MeldGroup(mv.WILD_MELD, 0, 0, 3, new=True)),
])
def test_a_pickups_effect_counts_the_top_card_in_its_group(top: str, hand: str, move: str,
                                                            group: mv.MeldGroup) -> None:
    state = position("partnership-13", hands={0: hand + " 5 6 7 8 9 T J"}, pile="4C " + top,
                     melds={0: ["Q Q Q Q"]})
    effect = state.verify(mv.parse_move(move))
    assert effect.melds == (group,) and effect.taken == 2 and not effect.goes_out
    play(state, move)
    laid = state.melds[0][-1]
    assert (laid.target, laid.naturals, laid.twos, laid.jokers) == (
        group.target, group.naturals, group.twos, group.jokers)
    assert state.stalled_turns == 0  # the top card went onto the table
    assert state.held_n[0] == 7 + 1  # the 4 below the top joined the hand


def test_a_meld_group_of_a_negative_count_is_refused() -> None:
    state = position("partnership-13", phase=Phase.PLAY, hands={0: "K K K K 2 5"},
                     melds={0: ["Q Q Q Q"]})
    for group in (mv.MeldGroup(cards.KING, 4, -1, 0), mv.MeldGroup(cards.KING, 4, 0, -1),
                  mv.MeldGroup(cards.KING, -1, 2, 0), mv.MeldGroup(-1, 3, 0, 0),
                  mv.MeldGroup(mv.WILD_MELD + 1, 3, 0, 0)):
        must_fail(state, mv.Meld((group,)), "not a meld group")


def test_a_new_group_beside_a_book_that_still_grows_names_the_rule() -> None:
    # remastered-singles: books grow past 7 cards and a rank has one meld
    state = position("remastered-singles", phase=Phase.PLAY, hands={0: "K K K 5 6"},
                     melds={0: ["K K K K K K K"]})
    must_fail(state.copy(), "meld new K K K", "book of kings", "second meld of a rank")
    play(state, "meld K K K")
    assert [m.size for m in state.melds[0]] == [10]


# --- positions and deals ---------------------------------------------------------------------


def test_a_position_without_a_dealer_puts_the_dealer_right_before_the_first_player() -> None:
    base = position("partnership-13").position()
    for turn in range(4):
        pos = replace(base, turn=turn, to_act=turn, dealer=None, first_player=None, deal=None)
        state = GameState.from_position(pos)
        assert (state.first_player, state.dealer) == (turn, (turn - 1) % 4)
        assert state.deal.dealer == (turn - 1) % 4
        for name in State.__slots__:
            getattr(state, name)  # every field is set
    for turn, to_act in ((-1, 0), (0, -1), (4, 0), (0, 4)):
        with pytest.raises(ValueError, match="seats are numbered 0 to 3"):
            GameState.from_position(replace(base, turn=turn, to_act=to_act))


def test_a_deal_with_the_wrong_number_of_starter_cards_is_refused() -> None:
    p = load_profile("partnership-13")
    deal = deal_round(p, p.layout, 3, 1)
    # one card moved from the stock onto the discard: the same shoe, two starters
    two = replace(deal, stock=deal.stock[1:], discard=(deal.stock[0], *deal.discard))
    with pytest.raises(DealError, match=r"2 cards; partnership-13 turns 1 starter card$"):
        check_deal(p, p.layout, two, 1)
    check_deal(p, p.layout, deal, 1)


def test_only_the_top_starter_is_checked_where_the_profile_says_so() -> None:
    p = load_profile("remastered-teams", overrides={"starter_cards": 2})
    deal = deal_round(p, p.layout, 3, 1)
    two = next(f for f in deal.stock if cards.FACE_KIND[f] == cards.TWO)
    stock = list(deal.stock)
    stock.remove(two)
    low, top = deal.discard
    # a 2 under the top starter is allowed; a 2 on top is not
    check_deal(p, p.layout, replace(deal, discard=(two, top), stock=(*stock, low)), 1)
    with pytest.raises(DealError, match=r"discard\[1\].*cannot be the top starter card"):
        check_deal(p, p.layout, replace(deal, discard=(low, two), stock=(*stock, top)), 1)
    checked_all = load_profile("remastered-teams", overrides={"starter_cards": 2,
                                                                "starter_check_all": True})
    with pytest.raises(DealError, match=r"discard\[0\].*cannot be a starter card"):
        check_deal(checked_all, p.layout, replace(deal, discard=(two, top), stock=(*stock, low)),
                   1)


def _first_turned(p: Profile, seed: int) -> int:
    """The card turned first as the starter of round 1: the shuffled shoe's card after the
    packets (the shuffle of :func:`deal_round`, replayed)."""
    shoe = cards.build_shoe(p.decks(p.layout.players), p.jokers_per_deck)
    random.Random(deal._derived_seed(seed, "round1")).shuffle(shoe)
    return shoe[p.layout.players * (p.hand_size_in(1) + p.knee_size + p.foot_size)]


REJECTED_SEED, REJECTED_FACE, REJECTED_DEAL = 1, "3H", "c0457c4992902c90"
"""The first seed whose round-1 starter is rejected, that card, and a digest of the deal."""
BICYCLE_35 = "0b267175bb4f0c3f"


def test_a_rejected_starter_goes_back_into_the_stock_where_the_seed_says() -> None:
    # partnership-13 puts a red 3, a 2 or a joker turned as the starter back into the stock
    # at a random place: the deal of a seed is the same on every machine (records replay)
    p = load_profile("partnership-13")
    seed = next(s for s in range(100)
                if cards.FACE_KIND[_first_turned(p, s)] in p.starter_rejected)
    deal = deal_round(p, p.layout, seed, 1)
    turned = _first_turned(p, seed)
    assert deal.discard[0] != turned and turned in deal.stock
    digest = hashlib.sha256(bytes(deal.stock) + bytes(deal.discard)).hexdigest()[:16]
    assert (seed, cards.face_name(turned), digest) == (REJECTED_SEED, REJECTED_FACE,
                                                       REJECTED_DEAL)
    # the place is drawn from len(stock) + 1 places (the end included); bicycle's seed 35
    # draws past them once and draws again, which a draw from one place more would not
    bicycle = load_profile("bicycle")
    deal = deal_round(bicycle, bicycle.layout, 35, 1)
    assert hashlib.sha256(bytes(deal.stock) + bytes(deal.discard)).hexdigest()[:16] == (
        BICYCLE_35)


# --- turns and what they keep ---------------------------------------------------------------


def test_turns_without_a_stock_draw_or_a_laid_card_end_the_round_at_the_limit() -> None:
    # remastered-singles: 3 turns each (9 with 3 players) of taking the one-card pile and
    # discarding, with nothing drawn from the stock or laid, end the round as stalled
    state = position("remastered-singles", pile="4C")
    assert state.stalled_turns == 1  # this turn, until it draws or lays a card
    for turn in range(9):
        seat = state.seat
        assert state.view(seat).stalled_turns == turn + 1
        state.apply(mv.parse_move("pickup"))
        kind = next(k for k in range(cards.RED_THREE)
                    if state.held[seat][k] and state.is_legal(mv.Discard(k)))
        state.apply(mv.Discard(kind))
        assert state.results == [] if turn < 8 else state.results[0].reason == RoundEnd.STALLED
    assert state.round_number == 2 and state.stalled_turns == 1
    # a draw from the stock starts the count again
    state.apply(mv.Draw())
    assert state.stalled_turns == 0


@pytest.mark.parametrize(("hand", "legal"), [("5 6 7", True), ("5 6", False)])
def test_a_discard_must_leave_the_cards_the_profile_keeps(hand: str, legal: bool) -> None:
    p = load_profile("biegames", overrides={"min_cards_kept": 2})
    state = position(p, phase=Phase.PLAY, hands={0: hand}, in_foot=[0])
    if legal:
        play(state, "discard 5")
        assert state.held_n[0] == 2 and state.seat == 1
    else:
        must_fail(state, "discard 5", "keep at least 2 cards")


@pytest.mark.parametrize(("top", "wilds"), [("JK", "JK JK 2 2 2 2"), ("2S", "JK JK JK 2 2 2")])
def test_a_wild_top_completes_an_all_wild_book(top: str, wilds: str) -> None:
    # the top card is the seventh card of a new all-wild meld: one book, not a meld of 8
    state = position("partnership-13", hands={0: wilds + " 5 6 7"}, pile="4C " + top,
                     melds={0: ["Q Q Q Q"]})
    effect = state.verify(mv.parse_move("pickup " + wilds))
    assert effect.books == 1 and [g.size for g in effect.melds] == [7]
    play(state, "pickup " + wilds)
    laid = state.melds[0][-1]
    assert laid.target == mv.WILD_MELD and laid.size == 7
    assert state.book_counts(0)["wild"] == 1


# --- staging one card at a time ----------------------------------------------------------------


def test_a_staged_card_that_could_never_be_legal_says_why() -> None:
    state = position("partnership-13", phase=Phase.PLAY, hands={0: "A A A K K K 2 5"},
                     melds={0: ["Q Q Q Q"]})
    # an ace (the highest natural) only joins aces
    must_fail(state, mv.Stage(cards.ACE, cards.KING, 0), "only join a meld of its own rank")
    must_fail(state, mv.Stage(cards.NINE, cards.NINE, 0), "you have no 9 left to stage")
    # a wild for a rank with no naturals staged, and a second meld before a first
    reason = must_fail(state, mv.Stage(cards.TWO, cards.NINE, 0), "could never make a legal")
    assert "second meld" not in reason
    must_fail(state, mv.Stage(cards.KING, cards.KING, 1), "(a second meld) could never")
    state.apply(mv.Stage(cards.ACE, cards.ACE, 0))
    assert state.staged_groups() == (mv.MeldGroup(cards.ACE, 1, 0, 0),)


def test_staging_lists_no_card_past_a_full_meld() -> None:
    # partnership-13: books stop at 7; five kings on the table and two staged fill it, so a
    # third king is listed only for a second meld (slot 1)
    state = position("partnership-13", phase=Phase.PLAY, hands={0: "K K K K 5"},
                     melds={0: ["K K K K K", "Q Q Q Q"]})
    stage0, stage1 = (mv.encode_stage(cards.KING, cards.KING, s) for s in (0, 1))
    assert stage0 in state.legal_actions() and stage1 not in state.legal_actions()
    state.apply_action(stage0)
    state.apply_action(stage0)
    assert stage0 not in state.legal_actions() and stage1 in state.legal_actions()
    assert not state.is_legal(mv.Stage(cards.KING, cards.KING, 0))


def test_staging_follows_the_unfinished_meld_beside_a_growing_book() -> None:
    # a second meld of a rank beside a book that still grows: with a book of 7 kings and a
    # meld of 3, kings go to the meld of 3; a third meld of kings is not listed
    p = load_profile("remastered-singles", overrides={"second_meld_of_rank": True})
    state = position(p, phase=Phase.PLAY, hands={0: "K K K 5 6"},
                     melds={0: ["K K K K K K K", "K K K"]})
    stage0, stage1 = (mv.encode_stage(cards.KING, cards.KING, s) for s in (0, 1))
    assert stage0 in state.legal_actions() and stage1 not in state.legal_actions()
    must_fail(state.copy(), "meld new K K K", "unfinished")
    play(state, "meld K K")
    assert [m.size for m in state.melds[0]] == [7, 5]


def test_a_wild_is_listed_for_a_second_meld_once_its_naturals_are_staged() -> None:
    state = position("partnership-13", phase=Phase.PLAY, hands={0: "K K K K K 2 5"},
                     melds={0: ["K K K K K", "Q Q Q Q"]})
    wild1 = mv.encode_stage(cards.TWO, cards.KING, 1)
    for _ in range(2):
        state.apply_action(mv.encode_stage(cards.KING, cards.KING, 0))  # the book of 7
    assert wild1 not in state.legal_actions()  # no naturals in the second meld yet
    for _ in range(3):
        state.apply_action(mv.encode_stage(cards.KING, cards.KING, 1))
    assert wild1 in state.legal_actions()
    state.apply_action(wild1)
    assert state.staged_groups()[-1] == mv.MeldGroup(cards.KING, 3, 1, 0, new=True)


def test_going_out_with_the_card_left_over_from_a_rank_being_staged_is_listed() -> None:
    state = position("partnership-13", phase=Phase.PLAY, hands={0: "9 9 9 9"},
                     in_foot=[0, 2], foot_played=[2], foot_turn_done=[2], melds={0: BOOKS})
    for _ in range(3):
        state.apply_action(mv.encode_stage(cards.NINE, cards.NINE, 0))
    go_out = mv.GO_OUT_DISCARD + cards.NINE
    assert go_out in state.legal_actions()
    assert state.apply_action(go_out) == mv.GoOut((mv.MeldGroup(cards.NINE, 3, 0, 0),),
                                                   cards.NINE)
    assert state.phase == Phase.ANSWER


def test_the_action_mask_is_zeros_and_ones() -> None:
    state = position("partnership-13", phase=Phase.PLAY, hands={0: "K K K 5"},
                     melds={0: ["Q Q Q Q"]})
    mask = state.action_mask()
    assert set(mask) == {0, 1} and [a for a, m in enumerate(mask) if m] == state.legal_actions()


def test_a_meld_of_more_cards_than_held_counts_them_in_words() -> None:
    state = position("partnership-13", phase=Phase.PLAY, hands={0: "K K 9 5"},
                     melds={0: ["Q Q Q Q"]})
    must_fail(state.copy(), "meld K K K", "you hold only 2 kings; these melds need 3")
    must_fail(state, "meld 9 9 9", "you hold only 1 9; these melds need 3")
