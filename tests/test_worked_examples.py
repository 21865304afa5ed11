"""RULES-MATRIX §4 worked examples and test vectors for ``partnership-13`` and ``biegames``.

Every example is set up as a game position and played through the engine with real moves
(draws, pickups, melds, discards, going out, answers, undo); the assertions read the
resulting state, the side's score breakdown (:meth:`GameState.score_side`) or the
:class:`RoundResult` of the round the moves ended. ``biegames`` is played at both of its
seatings, partnership (2x2) and two-player (2x1).

Vectors covered: WE-000-01 to WE-000-09, WE-003-01 to WE-003-07, and the §4.2 rows for the
two profiles (meld legality, book values, the 000 and 004 pickup examples, red 3 scoring, a
round ending with an unplayed Foot holding a black 3), plus the resolutions they rest on
(A-10, A-11, A-13, A-16, A-33 to A-37, A-42 to A-45, A-48) and BieGames undo (§6.7).
"""

from __future__ import annotations

import pytest

from handfoot.game import cards
from handfoot.game.deal import deal_round
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import WILD_MELD, Meld, MeldGroup, Pickup, parse_move
from handfoot.game.rules import Layout
from handfoot.game.scoring import SideScore
from handfoot.game.values import IllegalMoveError, Phase
from positions import (
    faces,
    must_fail,
    only_result,
    pass_turn,
    play,
    position,
    snapshot,
    taken_back,
)

P13 = "partnership-13"
BG = "biegames"
TWO_BY_TWO = Layout(2, 2)
TWO_BY_ONE = Layout(2, 1)

# (profile, layout) for every seating of the two profiles.
SEATINGS = [
    pytest.param(P13, TWO_BY_TWO, id="p13"),
    pytest.param(BG, TWO_BY_TWO, id="bg-2x2"),
    pytest.param(BG, TWO_BY_ONE, id="bg-2x1"),
]
BG_SEATINGS = [
    pytest.param(BG, TWO_BY_TWO, id="bg-2x2"),
    pytest.param(BG, TWO_BY_ONE, id="bg-2x1"),
]

# The books each profile needs to go out (2 clean + 2 dirty, and the all-wild book for 000).
BG_BOOKS = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2"]
P13_BOOKS = [*BG_BOOKS, "JK JK 2 2 2 2 2"]


# --- helpers -----------------------------------------------------------------------------


def pos(profile: str, layout: Layout = TWO_BY_TWO, **kw: object) -> GameState:
    """A position (see tests/positions.py) whose game can go on after the round ends.

    ``position`` starts the game from an explicit round-1 deal only; giving the game a seed
    lets the engine deal the next round when a move ends this one.
    """
    state = position(profile, layout=layout, **kw)  # type: ignore[arg-type]
    state.seed = 7
    return state


def lines(score: SideScore) -> dict[str, tuple[int, int]]:
    """A side's breakdown as ``{key: (count, points)}``; checks that the lines add up."""
    out = {line.key: (line.count, line.points) for line in score.lines}
    assert sum(p for _, p in out.values()) == score.total
    return out


def points(score: SideScore, *keys: str) -> int:
    got = lines(score)
    return sum(got[k][1] for k in keys)


def held(state: GameState, seat: int) -> list[str]:
    return sorted(cards.face_name(f) for f in state.hand(seat))


def names(text: str) -> list[str]:
    return sorted(cards.face_name(f) for f in faces(text))


def kinds_held(state: GameState, seat: int) -> dict[str, int]:
    return {cards.KIND_NAMES[k]: n for k, n in enumerate(state.held[seat]) if n}


def table(state: GameState, side: int) -> list[tuple[str, int, int, int]]:
    """A side's melds as (rank, naturals, twos, jokers)."""
    return [("wild" if m.target == WILD_MELD else cards.KIND_NAMES[m.target], m.naturals,
             m.twos, m.jokers) for m in state.melds[side]]


# --- WE-000-01..03, WE-003-01: shoe and deal ------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_we_000_01_to_03_shoe_deal_and_stock(seed: int) -> None:
    p = load_profile(P13)
    state = GameState.new(p, seed=seed)
    deal = state.deal
    shoe = deal.all_faces()
    assert len(shoe) == 270  # WE-000-01: 5 packs of 54
    assert shoe.count(cards.JOKER_FACE) == 10  # 2 jokers per pack
    assert [len(h) for h in deal.hands] == [13] * 4
    assert [len(f) for f in deal.feet] == [13] * 4
    assert sum(map(len, deal.hands)) + sum(map(len, deal.feet)) == 104  # WE-000-02
    assert (len(deal.stock), len(deal.discard)) == (165, 1)  # WE-000-03
    # "This table drawing is before any red-three replacements": each red 3 laid from a
    # dealt Hand is replaced from those 165.
    laid = sum(len(r) for r in state.red_threes)
    assert len(state.stock) == 165 - laid
    assert len(state.all_faces()) == 270


@pytest.mark.parametrize(("layout", "decks", "stock"), [
    pytest.param(TWO_BY_ONE, 3, 162 - 44 - 1, id="2-players-3-decks"),
    pytest.param(TWO_BY_TWO, 5, 270 - 88 - 1, id="4-players-5-decks"),
])
def test_we_003_01_one_more_deck_than_players(layout: Layout, decks: int, stock: int) -> None:
    p = load_profile(BG)
    assert p.decks(layout.players) == decks
    state = GameState.new(p, layout=layout, seed=11)
    assert len(state.all_faces()) == 54 * decks
    assert [len(h) for h in state.deal.hands] == [11] * layout.players
    assert [len(f) for f in state.deal.feet] == [11] * layout.players
    assert len(state.deal.stock) == stock


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_starter_is_never_a_red_3_or_wild_but_may_be_a_black_3(profile: str,
                                                               layout: Layout) -> None:
    """A-11 / A-33: a rejected starter goes back into the stock; a black 3 is legal."""
    p = load_profile(profile)
    rejected = {cards.RED_THREE, cards.TWO, cards.JOKER}
    starters = []
    for seed in range(300):
        deal = deal_round(p, layout, seed, 1)
        kind = cards.kind_of(deal.discard[0])
        assert kind not in rejected
        assert len(deal.discard) == 1
        assert len(deal.all_faces()) == 54 * p.decks(layout.players)
        starters.append(kind)
    assert cards.BLACK_THREE in starters
    # a black 3 starter blocks the first player's pickup
    seed = starters.index(cards.BLACK_THREE)
    state = GameState.new(p, layout=layout, seed=seed)
    assert cards.kind_of(state.pile[-1]) == cards.BLACK_THREE
    assert state.pickup_blocker() == "a black 3 on top of the pile blocks it"
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="black 3"):
        state.apply(Pickup())
    assert snapshot(state) == before


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
@pytest.mark.parametrize(("pile", "taken"), [
    pytest.param("5C 6C 7C KC", 4, id="pile-of-4-taken-whole"),
    pytest.param("4C 4D 4H 5C 5D 6C 6D 7C 7D 8C 8D KC", 7, id="pile-of-12-top-7"),
])
def test_we_003_05_pickup_takes_top_seven_or_whole_pile(profile: str, layout: Layout,
                                                        pile: str, taken: int) -> None:
    """WE-003-05 (and A-42 for 000): exactly min(7, pile) cards, never fewer."""
    state = pos(profile, layout, hands={0: "KS KD 9H 9S"}, opened=[0], pile=pile)
    assert state.pickup_size() == taken
    play(state, "pickup K K")
    pile_faces = faces(pile)
    assert state.pile == pile_faces[:len(pile_faces) - taken]
    # the top king went into the meld with the pair; the other taken cards joined the hand
    assert table(state, 0) == [("K", 3, 0, 0)]
    others = " ".join(cards.face_name(f) for f in pile_faces[len(pile_faces) - taken:-1])
    assert held(state, 0) == names("9H 9S " + others)
    assert state.phase == Phase.PLAY


# --- WE-000-04, WE-003-02, §4.2 meld legality -----------------------------------------

MELD_TABLE = [
    # meld, legal under partnership-13, legal under biegames (RULES-MATRIX §4.2)
    ("K K 2", True, True),
    ("K K K 2", True, True),
    ("K 2 2", False, False),
    ("K K K 2 2", False, True),
    ("K K K K 2 2", True, True),
    ("8 8 8 8 2 2 2", False, True),
    ("9 9 9 9 9 2 2", True, True),
    ("JK JK JK", True, False),
    ("5 5 5 2", True, True),
    ("8 8 8 8 8 8 8 8", False, False),
    # WE-003-02: "two Kings and a joker is fine, one King and two wild cards is not"
    ("K K JK", True, True),
    ("K 2 JK", False, False),
]


def _meld_cases() -> list[object]:
    out = []
    for meld, p13, bg in MELD_TABLE:
        slug = meld.replace(" ", "")
        out.append(pytest.param(P13, TWO_BY_TWO, meld, p13, id=f"p13-{slug}"))
        out.append(pytest.param(BG, TWO_BY_TWO, meld, bg, id=f"bg-2x2-{slug}"))
        out.append(pytest.param(BG, TWO_BY_ONE, meld, bg, id=f"bg-2x1-{slug}"))
    return out


@pytest.mark.parametrize(("profile", "layout", "meld", "legal"), _meld_cases())
def test_meld_legality_table(profile: str, layout: Layout, meld: str, legal: bool) -> None:
    """§4.2 meld legality, laid with a Meld move on an opened side's empty table."""
    state = pos(profile, layout, hands={0: meld + " 4S"}, opened=[0], stock_top="4C 4D")
    play(state, "draw")
    group = parse_move("meld " + meld).groups[0]  # type: ignore[union-attr]
    if legal:
        play(state, "meld " + meld)
        rank = "wild" if group.target == WILD_MELD else cards.KIND_NAMES[group.target]
        assert table(state, 0) == [(rank, group.naturals, group.twos, group.jokers)]
        assert kinds_held(state, 0) == {"4": 3}
    else:
        must_fail(state, "meld " + meld)
        assert state.melds[0] == []


# Most wilds by meld size 3..7 (RULES-MATRIX §2): 000 "at most 1 wild in 3–5 cards, 2 wilds in
# 6–7" (N ≥ 2W); 003 naturals outnumber wilds (N > W).
WILD_LIMITS = {P13: (1, 1, 1, 2, 2), BG: (1, 1, 2, 2, 3)}


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
@pytest.mark.parametrize("size", [3, 4, 5, 6, 7])
def test_we_000_04_wild_limit_by_meld_size(profile: str, layout: Layout, size: int) -> None:
    most = WILD_LIMITS[profile][size - 3]
    hand = " ".join(["Q"] * size + ["2"] * (most + 1))
    too_many = " ".join(["Q"] * (size - most - 1) + ["2"] * (most + 1))
    state = pos(profile, layout, hands={0: hand}, opened=[0], phase=Phase.PLAY)
    must_fail(state, "meld " + too_many, "wild")
    play(state, "meld " + " ".join(["Q"] * (size - most) + ["2"] * most))
    assert table(state, 0) == [("Q", size - most, most, 0)]


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_a48_ratio_is_checked_on_every_addition(profile: str, layout: Layout) -> None:
    """A-48: wilds added to a meld are checked at once, not when the book completes."""
    state = pos(profile, layout, hands={0: "Q Q Q Q 2 2 2 9"}, melds={0: ["Q Q Q"]},
                phase=Phase.PLAY)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="wild"):
        # three wilds onto three queens breaks both profiles' ratio, even though the four
        # queens in hand could follow in a later action
        state.apply(Meld((MeldGroup(cards.QUEEN, twos=3),)))
    assert snapshot(state) == before
    play(state, "meld Q Q 2")  # 5 naturals, 1 wild
    assert table(state, 0) == [("Q", 5, 1, 0)]


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_new_meld_of_a_rank_after_its_book(profile: str, layout: Layout) -> None:
    """000:19 / 003:21: after a book is closed, a new meld of that rank may start."""
    state = pos(profile, layout, hands={0: "K K K K 9"}, melds={0: ["K K K K K K K"]},
                phase=Phase.PLAY)
    must_fail(state, "meld K", "at least 3")  # the book is closed: a single K is no meld
    play(state, "meld K K K")
    assert table(state, 0) == [("K", 7, 0, 0), ("K", 3, 0, 0)]
    play(state, "meld K")  # further kings go onto the new, unfinished meld
    assert table(state, 0) == [("K", 7, 0, 0), ("K", 4, 0, 0)]


# --- WE-000-05, WE-003-04: opening minimums -------------------------------------------

# A meld worth exactly the minimum, and one just short of it, for rounds 1..4.
OPENINGS = [
    (1, 50, "K K K K K", "K K K K"),
    (2, 90, "A A A | K K K", "A A A | 5 5 5"),
    (3, 120, "A A A A A A", "A A A A A"),
    (4, 150, "A A A A A | K K K K K", "A A A A A | K K K K"),
]


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
@pytest.mark.parametrize(("round_number", "minimum", "enough", "short"), OPENINGS,
                         ids=[f"round-{r[0]}" for r in OPENINGS])
def test_we_000_05_we_003_04_opening_minimums(profile: str, layout: Layout, round_number: int,
                                              minimum: int, enough: str, short: str) -> None:
    state = pos(profile, layout, round_number=round_number,
                hands={0: "A A A A A A K K K K K 5 5 5 9"}, stock_top="4C 4D")
    play(state, "draw")
    must_fail(state, "meld " + short, "opening", str(minimum), f"round {round_number}")
    assert not state.opened[0]
    play(state, "meld " + enough)
    assert state.opened[0]
    assert points(state.score_side(0), "melded") == minimum
    # once open, there is no minimum for the rest of the round
    play(state, "meld 5 5 5", "discard 9")
    assert state.opened[0]


def test_once_open_the_partner_melds_without_a_minimum() -> None:
    """000:25 "either member may add legal cards without another opening minimum";
    003:25 "for you or your partner"."""
    for profile in (P13, BG):
        state = pos(profile, turn=2, opened=[0], hands={2: "K K K 9"}, stock_top="4C 4D")
        play(state, "draw", "meld K K K")  # 30 < 50, but the side is open
        assert table(state, 0) == [("K", 3, 0, 0)]


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_discarded_black_3_blocks_the_next_players_pickup(profile: str,
                                                           layout: Layout) -> None:
    state = pos(profile, layout, hands={0: "3C 9C", 1: "K K 5"}, pile="KD",
                stock_top="4C 4D 6C 6D")
    play(state, "draw", "discard B3")  # a black 3 may be discarded
    assert state.seat == 1
    must_fail(state, "pickup K K", "black 3")
    play(state, "draw")


# --- WE-000-06, WE-000-07, §4.2 pickup examples ---------------------------------------

# WE-000-06: K♠ K♦ 2♣ in hand, K♣ on top with enough cards below to take 7 in all.
P13_HAND = "KS KD 2C 5H 6H 7H 8H 9H TH JH QH 4C 4D"
PILE_BELOW = "AH AS 4S 5S 6S 7S 8S 9S"  # the top 7 are 4S..9S and the king


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_we_000_06_opening_pickup_with_k_k_2(profile: str, layout: Layout) -> None:
    """§4.2 "the 000 pickup example": legal and opens with 50 under both profiles."""
    state = pos(profile, layout, hands={0: P13_HAND}, pile=PILE_BELOW + " KC")
    assert not state.opened[0]
    play(state, "pickup K K 2")
    meld = state.melds[0][0]
    assert table(state, 0) == [("K", 3, 1, 0)]  # 3 naturals to 1 wild: legal
    assert sorted(cards.face_name(f) for f in meld.faces) == names("KS KD KC 2C")
    assert state.opened[0]
    assert points(state.score_side(0), "melded") == 50  # 10 + 10 + 10 + 20
    # the other 6 discards join the hand; the cards under the 7 stay
    assert held(state, 0) == names("5H 6H 7H 8H 9H TH JH QH 4C 4D 4S 5S 6S 7S 8S 9S")
    assert state.pile == faces("AH AS")
    assert state.phase == Phase.PLAY
    # ... then melds and discards normally
    play(state, "meld 4 4 4", "discard Q")
    assert state.seat == 1 and state.phase == Phase.DRAW
    assert state.pile[-1] == faces("QH")[0]


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_we_000_07_buried_two_cannot_qualify(profile: str, layout: Layout) -> None:
    """The 2 among the buried discards does not count: K K K = 30 < 50."""
    hand = "KS KD 5H 6H 7H 8H 9H TH JH QH 4C 4D 9C"
    state = pos(profile, layout, hands={0: hand}, pile="AH 2C 4S 5S 6S 7S 8S KC")
    must_fail(state, "pickup K K", "opening", "30", "50")
    must_fail(state, "pickup K K 2", "hold")  # the 2 is in the pile, not in the hand
    assert not state.opened[0] and state.phase == Phase.DRAW
    # "... unless other hand cards bring the opening meld(s) to 50"
    state2 = pos(profile, layout, hands={0: "KS KD QC QD QH 9C"},
                 pile="AH 2C 4S 5S 6S 7S 8S KC")
    play(state2, "pickup K K | Q Q Q")
    assert state2.opened[0]
    assert points(state2.score_side(0), "melded") == 60
    assert "2C" in held(state2, 0)


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_004_pickup_example_k_k_plus_a_a_a(profile: str, layout: Layout) -> None:
    """§4.2 "the 004 pickup example" (WE-004-08's position): a joker among the 6 cards
    underneath does not count; K K K + A A A = 90 ≥ 50 opens; the 6 go to the hand."""
    hand = "KS KD AC AD AH 9C"
    pile = "4C 4D 5C JK 6C 7C 8C KC"
    state = pos(profile, layout, hands={0: hand}, pile=pile)
    must_fail(state, "pickup K K", "30", "50")
    must_fail(state, "pickup K K JK", "joker")  # the joker underneath is not in the hand
    play(state, "pickup K K | A A A")
    assert table(state, 0) == [("K", 3, 0, 0), ("A", 3, 0, 0)]
    assert state.opened[0]
    assert points(state.score_side(0), "melded") == 90
    assert held(state, 0) == names("9C 4D 5C JK 6C 7C 8C")
    assert state.pile == faces("4C")


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_pickup_needs_the_top_and_hand_to_open_in_round_2(profile: str, layout: Layout) -> None:
    """The pickup's opening uses the round's minimum: K K K 2 = 50 < 90 in round 2."""
    state = pos(profile, layout, round_number=2, hands={0: "KS KD 2C AC AD AH 9C"},
                pile="AS 4S 5S 6S KC")
    must_fail(state, "pickup K K 2", "opening", "50", "90")
    play(state, "pickup K K 2 | A A A")
    assert state.opened[0]
    assert points(state.score_side(0), "melded") == 110
    assert state.pile == []  # a pile of 5 is taken whole


# --- A-10 (partnership-13) and A-34 (biegames): pickup onto a rank already melded -------

PILE_K = "5C 6C 7C 8C 9D TD KD"


def test_a10_pickup_must_complete_the_unfinished_meld_and_start_a_new_one() -> None:
    state = pos(P13, hands={0: "K K K K K 2 9"}, melds={0: ["K K K"]}, pile=PILE_K)
    # adding the top card and the pair to the existing meld is not enough
    must_fail(state, "pickup K K", "unfinished", "complete", "7", "new meld")
    # completing it without starting a new meld is not enough either
    must_fail(state, "pickup K K K", "unfinished", "complete", "new meld")
    # the new meld must itself be legal (3+ cards)
    must_fail(state, "pickup K K K | K K", "at least 3")
    # top + K K K completes the 3-card meld to a book of 7; K K 2 starts the new meld
    play(state, "pickup K K K | K K 2")
    assert table(state, 0) == [("K", 7, 0, 0), ("K", 2, 1, 0)]
    assert state.melds[0][0].book_kind(7) == "clean"
    assert kinds_held(state, 0) == {"5": 1, "6": 1, "7": 1, "8": 1, "9": 2, "10": 1}


@pytest.mark.parametrize(("profile", "layout"), BG_SEATINGS)
def test_a34_pickup_merges_into_the_unfinished_meld(profile: str, layout: Layout) -> None:
    state = pos(profile, layout, hands={0: "K K 9"}, melds={0: ["K K K"]}, pile=PILE_K)
    play(state, "pickup K K")
    assert table(state, 0) == [("K", 6, 0, 0)]  # one unfinished meld per rank


@pytest.mark.parametrize(("profile", "layout"), BG_SEATINGS)
def test_a34_surplus_past_the_book_must_form_a_new_legal_meld(profile: str,
                                                              layout: Layout) -> None:
    state = pos(profile, layout, hands={0: "K K K K 9"}, melds={0: ["K K K K K"]},
                pile=PILE_K)
    must_fail(state, "pickup K K", "7")  # 5 + 3 = 8: a book holds 7
    must_fail(state, "pickup K | K K", "at least 3")  # surplus K K is no meld
    play(state, "pickup K | K K K")
    assert table(state, 0) == [("K", 7, 0, 0), ("K", 3, 0, 0)]
    assert state.melds[0][0].book_kind(7) == "clean"


@pytest.mark.parametrize(("profile", "layout"), [
    pytest.param(P13, TWO_BY_TWO, id="p13-A10"),
    pytest.param(BG, TWO_BY_TWO, id="bg-2x2-A34"),
    pytest.param(BG, TWO_BY_ONE, id="bg-2x1-A34"),
])
def test_pickup_onto_a_six_card_meld_top_card_completes_the_book(profile: str,
                                                                 layout: Layout) -> None:
    # The top card completes the book; K K K from the hand start the new meld. Either way
    # of writing it would do: an empty first group (the top card alone), or the engine
    # sending the top card to the 6-card meld and the hand's kings to a new one.
    reasons = []
    for move in (Pickup((MeldGroup(cards.KING, 0), MeldGroup(cards.KING, 3))),
                 parse_move("pickup K K K")):
        state = pos(profile, layout, hands={0: "K K K 9"}, melds={0: ["K K K K K K"]},
                    pile=PILE_K.replace("KD", "KS"))
        try:
            state.apply(move)
        except IllegalMoveError as exc:
            reasons.append(str(exc))
            continue
        assert table(state, 0) == [("K", 7, 0, 0), ("K", 3, 0, 0)]
        return
    pytest.fail("no pickup is legal: " + " / ".join(reasons))


def test_p13_wild_on_top_needs_a_like_pair_in_an_all_wild_meld() -> None:
    """000:31 "a top two needs matching twos, a top joker matching jokers"."""
    pile = "5C 6C 7C 8C 9D TD "
    state = pos(P13, hands={0: "2 JK 9"}, pile=pile + "2D")
    must_fail(state, "pickup 2 JK", "two 2s")
    state = pos(P13, hands={0: "2 2 9"}, pile=pile + "JK")
    must_fail(state, "pickup 2 2", "two jokers")
    state = pos(P13, hands={0: "2 2 9"}, pile=pile + "2D")
    play(state, "pickup 2 2")
    assert table(state, 0) == [("wild", 0, 3, 0)]
    assert state.opened[0]  # 60 ≥ 50: an all-wild meld may open in partnership-13
    state = pos(P13, hands={0: "JK JK 9"}, pile=pile + "JK")
    play(state, "pickup JK JK")
    assert table(state, 0) == [("wild", 0, 0, 3)]


@pytest.mark.parametrize(("profile", "layout"), BG_SEATINGS)
def test_bg_wild_or_black_3_on_top_blocks_the_pile(profile: str, layout: Layout) -> None:
    for top, move, reason in (("2D", "pickup 2 2", "wild card on top"),
                              ("JK", "pickup JK JK", "wild card on top"),
                              ("3C", "pickup K K", "black 3 on top")):
        state = pos(profile, layout, hands={0: "2 2 JK JK K K 9"},
                    pile="5C 6C 7C 8C 9D TD " + top)
        must_fail(state, move, reason)


# --- WE-000-08, WE-000-09, WE-003-03, §4.2 book values --------------------------------

BOOKS = [
    # id, melds laid one after another, bonus line, bonus, card values (§4.2 book values)
    ("clean-9s", ["9 9 9 9", "9 9 9"], "clean_books", 500, 70),  # WE-000-08: 570
    ("clean-4s", ["4 4 4", "4 4 4 4"], "clean_books", 500, 35),  # 535
    ("dirty-9s", ["9 9 9 2", "9 9 2"], "dirty_books", 300, 90),  # WE-000-09: 390
    ("clean-5s", ["5 5 5 5 5 5 5"], "clean_books", 500, 35),  # 535
    ("clean-7s", ["7 7 7", "7 7", "7 7"], "clean_books", 500, 35),  # 535
]
P13_WILD_BOOKS = [
    ("seven-jokers", ["JK JK JK", "JK JK JK JK"], "wild_books", 1500, 350),  # 1,850
    ("seven-2s", ["2 2 2 2", "2 2 2"], "wild_books", 1500, 140),  # 1,640
]


def _book_cases() -> list[object]:
    out = []
    for ident, melds, key, bonus, value in BOOKS:
        for profile, layout, tag in ((P13, TWO_BY_TWO, "p13"), (BG, TWO_BY_TWO, "bg-2x2"),
                                     (BG, TWO_BY_ONE, "bg-2x1")):
            out.append(pytest.param(profile, layout, melds, key, bonus, value,
                                    id=f"{tag}-{ident}"))
    for ident, melds, key, bonus, value in P13_WILD_BOOKS:
        out.append(pytest.param(P13, TWO_BY_TWO, melds, key, bonus, value, id=f"p13-{ident}"))
    return out


@pytest.mark.parametrize(("profile", "layout", "melds", "key", "bonus", "value"), _book_cases())
def test_book_values(profile: str, layout: Layout, melds: list[str], key: str, bonus: int,
                     value: int) -> None:
    """§4.2 book values (card values + bonus), the book made on the table by melds."""
    hand = " ".join(melds) + " 8S"
    state = pos(profile, layout, hands={0: hand}, opened=[0], phase=Phase.PLAY)
    for meld in melds:
        assert state.melds[0] == [] or state.melds[0][0].book_kind(7) is None
        play(state, "meld " + meld)
    assert len(state.melds[0]) == 1 and state.melds[0][0].size == 7
    got = lines(state.score_side(0))
    assert got["melded"] == (7, value)
    assert got[key] == (1, bonus)
    for other in ("clean_books", "dirty_books", "wild_books"):
        if other != key and other in got:
            assert got[other] == (0, 0)
    assert got["melded"][1] + got[key][1] == value + bonus


@pytest.mark.parametrize(("profile", "layout"), BG_SEATINGS)
@pytest.mark.parametrize("meld", ["JK JK JK", "2 2 2", "2 2 JK"])
def test_bg_all_wild_books_are_illegal(profile: str, layout: Layout, meld: str) -> None:
    """§4.2: seven jokers / seven 2s are illegal under biegames (no all-wild melds)."""
    state = pos(profile, layout, hands={0: "JK JK JK 2 2 2 8S"}, opened=[0], phase=Phase.PLAY)
    must_fail(state, "meld " + meld, "wild")


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_we_003_03_clean_book_worth_200_more_than_dirty(profile: str, layout: Layout) -> None:
    state = pos(profile, layout, hands={0: "Q Q Q Q Q Q Q J J J J J 2 2 8S"}, opened=[0],
                phase=Phase.PLAY)
    play(state, "meld Q Q Q Q Q Q Q | J J J J J 2 2")
    got = lines(state.score_side(0))
    assert got["clean_books"] == (1, 500)
    assert got["dirty_books"] == (1, 300)
    assert got["clean_books"][1] - got["dirty_books"][1] == 200


# --- WE-003-06: the 2,175 round -------------------------------------------------------


def test_we_003_06_round_score_2175() -> None:
    """Two clean + two dirty books, one red 3, melded cards worth 410, partner holding 35,
    and the player goes out with the partner's permission."""
    melds = [*BG_BOOKS, "J J J J", "8 8 8 8 8", "9 9 9"]  # 200 in books + 120 in melds
    state = pos(BG, TWO_BY_TWO, melds={0: melds}, red_threes={0: 1}, in_foot=[0, 2],
                hands={0: "K K A A 4", 2: "5 5 5 10 10"}, stock_top="KH AH")
    play(state, "draw")
    play(state, "goout K K K | A A A discard 4")  # "May I go out?" (+ 90 melded)
    assert state.phase == Phase.ANSWER and state.actor == 2
    assert not state.results
    play(state, "yes")
    result = only_result(state)
    assert (result.reason, result.went_out) == ("went out", 0)
    side = result.scores[0]
    got = lines(side)
    assert got["clean_books"] == (2, 1000)
    assert got["dirty_books"] == (2, 600)  # 2 × 500 + 2 × 300 = 1,600
    assert got["red_threes"] == (1, 100)
    assert got["going_out"] == (1, 100)
    assert got["melded"] == (46, 410)
    assert got["cards_left"] == (5, -35)
    assert got["black_threes_caught"] == (0, 0)
    assert got["red_threes_caught"] == (0, 0)
    assert side.total == 2175
    assert result.totals[0] == 2175 and state.totals[0] == 2175
    assert state.round_number == 2  # the next round is dealt


# --- §4.2 red 3 scoring; a round ending with an unplayed Foot --------------------------


def test_p13_red_threes_two_laid_one_caught_in_a_foot_score_plus_100() -> None:
    """§4.2: 2 red 3s laid + 1 red 3 in a Foot never picked up = +200 − 100 = +100.
    One red 3 is laid from the stock during play (and replaced); the round then ends when
    the stock runs out, with the partner's Foot (and its red 3) never picked up."""
    state = pos(P13, red_threes={0: 1}, stock_top="3H 5C 6C", stock_size=3,
                hands={0: "9C 9D"}, feet={2: "3D 4C 4D"})
    play(state, "draw")
    assert [cards.face_name(f) for f in state.red_threes[0]][-1] == "3H"
    assert held(state, 0) == names("9C 9D 5C 6C")  # the replacement is extra
    assert state.stock == []
    play(state, "discard 5")
    play(state, "draw")  # the next player must draw: nothing is left
    result = only_result(state)
    assert (result.reason, result.went_out) == ("stock exhausted", None)
    got = lines(result.scores[0])
    assert got["red_threes"] == (2, 200)
    assert got["red_threes_caught"] == (1, -100)
    assert got["red_threes"][1] + got["red_threes_caught"][1] == 100
    assert got["going_out"] == (0, 0)


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_unplayed_foot_with_a_black_3_is_subtracted(profile: str, layout: Layout) -> None:
    """§4.2: the Foot's cards are subtracted at card value; its black 3 costs 5."""
    hands = {1: "4C 5C"}
    feet = {1: "3C 9C KC"}
    left = (4, 30)
    if layout.seats_per_side == 2:
        hands[3], feet[3] = "AC", "6C"
        left = (6, 55)
    state = pos(profile, layout, hands=hands, feet=feet, stock_size=1, pile="8D")
    play(state, "draw")  # fewer than 2 cards: the round ends
    result = only_result(state)
    assert result.reason == "stock exhausted"
    got = lines(result.scores[1])
    assert got["cards_left"] == (left[0], -left[1])
    assert got["black_threes_caught"] == (1, -5)
    assert got["red_threes_caught"] == (0, 0)
    assert result.scores[1].total == -left[1] - 5


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_red_3_caught_in_an_unpicked_foot_costs_100(profile: str, layout: Layout) -> None:
    """000:43 "hidden red threes left over give −100"; biegames by A-33."""
    state = pos(profile, layout, hands={1: "4C"}, feet={1: "3H 3D 5C"}, stock_size=1,
                pile="8D")
    play(state, "draw")
    got = lines(only_result(state).scores[1])
    assert got["red_threes_caught"] == (2, -200)
    assert got["red_threes"] == (0, 0)
    if layout.seats_per_side == 1:
        assert got["cards_left"] == (2, -10)


# --- going out: requirements, the partner's Foot, permission (A-43..A-45) -------------


def test_p13_going_out_with_permission_yes() -> None:
    """Books 2 clean + 2 dirty + 1 all-wild; the partner has played from the Foot; the
    partner says yes; the round ends with the going-out bonus."""
    state = pos(P13, melds={0: P13_BOOKS}, in_foot=[0, 2], foot_played=[2],
                hands={0: "K K 9 9"}, stock_top="KH 9H")
    play(state, "draw", "goout K K K | 9 9 9")
    assert state.phase == Phase.ANSWER and state.actor == 2 and state.seat == 0
    play(state, "yes")
    result = only_result(state)
    assert (result.reason, result.went_out) == ("went out", 0)
    mine, theirs = (lines(s) for s in result.scores)
    assert mine["going_out"] == (1, 100)
    assert theirs["going_out"] == (0, 0)
    assert mine["clean_books"] == (2, 1000)
    assert mine["dirty_books"] == (2, 600)
    assert mine["wild_books"] == (1, 1500)
    assert state.round_number == 2 and state.phase == Phase.DRAW


def test_p13_partner_must_have_played_from_the_foot() -> None:
    """A-44 for 000: entering the Foot is not enough; the partner must meld or discard
    from it. Played through the engine: seat 2 (in its Foot) draws and discards."""
    state = pos(P13, turn=2, melds={0: P13_BOOKS}, in_foot=[0, 2],
                hands={0: "K K 9 9", 2: "4 5 6 8"},
                stock_top="JC JD QC QD KH 9H")
    play(state, "draw", "discard 4")  # seat 2 plays from its Foot
    assert state.foot_played[2]
    play(state, "draw", "discard Q")  # seat 3
    play(state, "draw", "goout K K K | 9 9 9")
    assert state.phase == Phase.ANSWER
    play(state, "yes")
    assert only_result(state).went_out == 0
    # the same table, but the partner has only picked up the Foot
    state = pos(P13, melds={0: P13_BOOKS}, in_foot=[0, 2], hands={0: "K K 9 9"},
                stock_top="KH 9H")
    play(state, "draw")
    must_fail(state, "goout K K K | 9 9 9", "partner", "played from their Foot")


def test_bg_partner_must_have_picked_up_the_foot() -> None:
    """A-44 for 003: picking the Foot up is enough; playing from it is not needed."""
    state = pos(BG, melds={0: BG_BOOKS}, in_foot=[0], hands={0: "K K"},
                stock_top="KH 9H")
    play(state, "draw")
    must_fail(state, "goout K K K discard 9", "partner", "picked up their Foot")
    state = pos(BG, melds={0: BG_BOOKS}, in_foot=[0, 2], hands={0: "K K"},
                stock_top="KH 9H")
    assert not state.foot_played[2]
    play(state, "draw", "goout K K K discard 9")
    assert state.phase == Phase.ANSWER and state.actor == 2
    play(state, "yes")
    result = only_result(state)
    assert result.went_out == 0
    assert lines(result.scores[0])["going_out"] == (1, 100)


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_going_out_may_complete_the_last_book_needed(profile: str, layout: Layout) -> None:
    """The books are counted as they stand once the going-out melds are laid."""
    wild = ["JK JK 2 2 2 2 2"] if profile == P13 else []
    partner = [2] if layout.seats_per_side == 2 else []

    def table_with(eights: str) -> GameState:
        state = pos(profile, layout, melds={0: [*BG_BOOKS[:3], eights, *wild]},
                    in_foot=[0, *partner], foot_played=partner, hands={0: "2"},
                    stock_top="8S 9S")
        play(state, "draw")
        return state

    # 4 + 2 eights make 6 cards: not a book, so the second dirty book is missing
    must_fail(table_with("8 8 8 8"), "goout 8 2 discard 9", "lack 1 dirty book")
    state = table_with("8 8 8 8 8")
    play(state, "goout 8 2 discard 9")  # 5 + 2 = 7: the second dirty book
    if partner:
        play(state, "yes")
    result = only_result(state)
    assert result.went_out == 0
    assert lines(result.scores[0])["dirty_books"] == (2, 600)


def test_bg_two_player_game_goes_out_without_asking() -> None:
    state = pos(BG, TWO_BY_ONE, melds={0: BG_BOOKS}, in_foot=[0], hands={0: "K K"},
                stock_top="KH 9H")
    play(state, "draw", "goout K K K discard 9")
    result = only_result(state)
    assert (result.reason, result.went_out) == ("went out", 0)
    assert lines(result.scores[0])["going_out"] == (1, 100)


@pytest.mark.parametrize(("profile", "books"), [
    pytest.param(P13, P13_BOOKS, id="p13"),
    pytest.param(BG, BG_BOOKS, id="bg-2x2"),
])
def test_permission_no_then_ask_again_next_turn(profile: str, books: list[str]) -> None:
    """Answer no: the player continues, cannot ask again this turn, keeps a card after
    discarding; next turn they may ask again (A-45)."""
    state = pos(profile, melds={0: books}, in_foot=[0, 2], foot_played=[2],
                hands={0: "K K 9 9", 2: "4 4 4 5 5"},
                stock_top="KH 9H  JC JD  QC QD  AC AD  9D 8D")
    play(state, "draw", "goout K K K | 9 9 9")
    before_no = [h[:] for h in state.held]
    play(state, "no")
    assert state.phase == Phase.PLAY and state.actor == 0 and state.seat == 0
    assert state.held == before_no and not state.results
    must_fail(state, "goout K K K | 9 9 9", "said no")
    must_fail(state, "goout K K K | 9 9 discard 9", "said no")
    play(state, "meld K K K", "discard 9")  # keeps two 9s
    assert kinds_held(state, 0) == {"9": 2}
    for _ in range(3):
        pass_turn(state)
    assert state.seat == 0
    play(state, "draw", "goout 9 9 9 discard 8")
    assert state.phase == Phase.ANSWER
    play(state, "yes")
    assert only_result(state).went_out == 0


# --- red 3s (D11, R1, R5; A-13) -------------------------------------------------------


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_red_3_drawn_is_laid_and_replaced(profile: str, layout: Layout) -> None:
    state = pos(profile, layout, hands={0: "9C 9D"}, stock_top="3H 5C 6D 8S")
    stock = len(state.stock)
    play(state, "draw")
    assert [cards.face_name(f) for f in state.red_threes[0]] == ["3H"]
    assert held(state, 0) == names("9C 9D 5C 6D")  # the replacement does not replace the draw
    assert len(state.stock) == stock - 3
    assert state.phase == Phase.PLAY
    assert lines(state.score_side(0))["red_threes"] == (1, 100)
    must_fail(state, "undo", "nothing to undo")  # the draw and its replacement are final


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_red_3_in_the_foot_is_laid_when_the_foot_is_picked_up(profile: str,
                                                              layout: Layout) -> None:
    """Melding the last Hand card picks the Foot up at once; its red 3 is laid and
    replaced from the stock."""
    state = pos(profile, layout, hands={0: "K K K"}, feet={0: "3D Q Q Q 9S"}, opened=[0],
                stock_top="KC KD 8H")
    play(state, "draw", "meld K K K K K")
    assert state.foot_picked[0] and state.feet[0] == []
    assert [cards.face_name(f) for f in state.red_threes[0]] == ["3D"]
    assert kinds_held(state, 0) == {"8": 1, "9": 1, "Q": 3}
    assert (state.seat, state.phase) == (0, Phase.PLAY)


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_red_3_with_no_replacement_ends_the_round(profile: str, layout: Layout) -> None:
    """003:43; A-13: the red 3 is still laid and scores; no going-out bonus."""
    state = pos(profile, layout, hands={0: "9C"}, stock_top="3H 5C", stock_size=2)
    play(state, "draw")
    result = only_result(state)
    assert (result.reason, result.went_out) == ("red 3 not replaced", None)
    got = lines(result.scores[0])
    assert got["red_threes"] == (1, 100)
    assert got["going_out"] == (0, 0)
    assert all(lines(s)["going_out"] == (0, 0) for s in result.scores)


# --- stock exhaustion (A-13, A-36) ----------------------------------------------------


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_draw_with_fewer_than_two_stock_cards_ends_the_round(profile: str,
                                                             layout: Layout) -> None:
    state = pos(profile, layout, stock_size=1, pile="8D")
    play(state, "draw")
    result = only_result(state)
    assert (result.reason, result.went_out) == ("stock exhausted", None)
    assert all(lines(s)["going_out"] == (0, 0) for s in result.scores)
    assert state.round_number == 2 and state.phase == Phase.DRAW


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_pickups_continue_when_the_stock_is_short(profile: str, layout: Layout) -> None:
    """000:43 "legal discard pickups can otherwise continue"."""
    state = pos(profile, layout, hands={0: "K K 9"}, opened=[0], stock_size=1,
                pile="4C 5C 6C 7C 8C 9C KD")
    play(state, "pickup K K", "discard 9")
    assert not state.results and state.seat == 1
    play(state, "draw")  # the next player cannot take the pile (a 9 needs a pair)
    assert only_result(state).reason == "stock exhausted"


@pytest.mark.parametrize("profile", [P13, BG])
def test_round_end_in_the_last_round_ends_the_game(profile: str) -> None:
    state = pos(profile, round_number=4, stock_size=1, pile="8D")
    play(state, "draw")
    assert state.phase == Phase.GAME_OVER and state.is_over
    assert state.results[-1].round_number == 4


# --- entering the Foot (F2, F3) ------------------------------------------


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_melding_the_last_hand_card_picks_up_the_foot_at_once(profile: str,
                                                              layout: Layout) -> None:
    foot = "Q Q Q 4 5 6 7"
    state = pos(profile, layout, hands={0: "K K K"}, feet={0: foot}, opened=[0],
                stock_top="KC KD")
    play(state, "draw")
    stock = len(state.stock)
    play(state, "meld K K K K K")
    assert state.foot_picked[0] and state.feet[0] == []
    assert kinds_held(state, 0) == {"Q": 3, "4": 1, "5": 1, "6": 1, "7": 1}
    assert (state.seat, state.actor, state.phase) == (0, 0, Phase.PLAY)  # same turn
    assert len(state.stock) == stock  # no new draw
    play(state, "meld Q Q Q", "discard 4")  # keeps playing, from the Foot
    assert state.foot_played[0] and state.seat == 1


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_discarding_the_last_hand_card_takes_the_foot_next_turn(profile: str,
                                                                layout: Layout) -> None:
    foot = "3H Q Q Q 4 5 6"
    state = pos(profile, layout, hands={0: "K K"}, feet={0: foot}, opened=[0],
                stock_top="KC 5C")
    play(state, "draw", "meld K K K", "discard 5")  # empties the Hand
    assert state.held_n[0] == 0
    assert not state.foot_picked[0] and len(state.feet[0]) == 7  # not seen yet
    assert state.seat == 1
    for _ in range(layout.players - 1):
        pass_turn(state)
    # the Foot is picked up as the next turn starts; its red 3 is laid and replaced
    assert state.seat == 0 and state.phase == Phase.DRAW
    assert state.foot_picked[0] and state.feet[0] == []
    assert [cards.face_name(f) for f in state.red_threes[0]] == ["3H"]
    assert state.held_n[0] == 7
    play(state, "draw")  # then a normal draw
    assert state.held_n[0] == 9


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_we_003_07_foot_player_not_qualified_keeps_cards(profile: str,
                                                         layout: Layout) -> None:
    """In the Foot and unable to go out: keep ≥ 2 cards after melding, ≥ 1 after the
    discard (003:41; 000:37 "retain a card after discarding")."""
    state = pos(profile, layout, hands={0: "K K"}, in_foot=[0], opened=[0],
                stock_top="KC 9C")
    play(state, "draw")
    must_fail(state, "meld K K K", "keep at least 2 cards")
    must_fail(state, "goout K K K discard 9", "books")
    state = pos(profile, layout, hands={0: "K K 9"}, in_foot=[0], opened=[0],
                stock_top="KC 5C")
    play(state, "draw", "meld K K K")  # 2 cards left: one to discard, one to hold
    assert state.held_n[0] == 2
    play(state, "discard 9")
    assert state.held_n[0] == 1 and state.seat == 1
    state = pos(profile, layout, hands={0: "9"}, in_foot=[0], phase=Phase.PLAY)
    must_fail(state, "discard 9", "keep at least 1 card")


# --- undo (BieGames, 003:47; RULES-MATRIX §6.7) ---------------------------------------


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_undo_takes_back_melds_exactly_until_the_discard(profile: str,
                                                         layout: Layout) -> None:
    state = pos(profile, layout, hands={0: "K K K 2 Q Q Q 9"}, stock_top="4C 4D")
    play(state, "draw")
    after_draw = snapshot(state)
    play(state, "meld K K K 2")  # opens the side with 50
    assert state.opened[0]
    after_first = snapshot(state)
    play(state, "meld Q Q Q")
    play(state, "undo")
    assert snapshot(state) == taken_back(after_first)
    play(state, "undo")
    assert snapshot(state) == taken_back(after_draw, 2)
    assert not state.opened[0] and state.melds[0] == []
    must_fail(state, "undo", "nothing to undo")  # never the draw
    play(state, "meld K K K 2", "discard 9")
    assert state.seat == 1
    must_fail(state, "undo", "draw")  # the discard committed the turn


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_undo_never_takes_back_a_pickup_or_the_foot(profile: str, layout: Layout) -> None:
    state = pos(profile, layout, hands={0: "K K Q Q Q 9"}, opened=[0],
                pile="4C 5C 6C 7C 8C 9D KD")
    play(state, "pickup K K")
    after_pickup = snapshot(state)
    must_fail(state, "undo", "nothing to undo")
    play(state, "meld Q Q Q", "undo")
    assert snapshot(state) == taken_back(after_pickup)
    state = pos(profile, layout, hands={0: "K K K"}, feet={0: "Q Q Q 9 8"}, opened=[0],
                stock_top="KC KD")
    play(state, "draw", "meld K K K", "meld K K")
    assert state.foot_picked[0]
    must_fail(state, "undo", "nothing to undo")  # the Foot has been seen
