"""RULES-MATRIX §4 worked examples and test vectors for ``remastered-singles``,
``remastered-teams``, ``hand-knee-foot`` and ``bicycle``.

Every example is set up as a game position (tests/positions.py) and played through the
engine with real moves (draws, pickups, melds, the Knee, knocks, discards, going out and
the answers to "May I go out?"); the assertions read the resulting state, the side's
score breakdown (:meth:`GameState.score_side`) or the :class:`RoundResult` of the round the
moves ended.

Vectors covered: WE-001-01 to WE-001-14 (WE-001-06 perfect deal and WE-001-14 improper meld
are tabletop-only: the profile values are asserted and the engine's refusal of a short
opening is played), WE-HKF-01 to WE-HKF-06, WE-004-01 to WE-004-09, and the four profiles'
columns of §4.2 (meld legality, book values, the 000 and 004 pickup examples, red 3
scoring, a round ending with an unplayed Foot holding a black 3), plus the resolutions
they rest on (A-01..A-09, A-12, A-15..A-17, A-19, A-26..A-32, A-38..A-41, A-44..A-49, A-52).
"""

from __future__ import annotations

import pytest

from handfoot.bots.registry import make_bot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.deal import deal_round
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import WILD_MELD, parse_move
from handfoot.game.rules import Layout
from handfoot.game.scoring import SideScore
from handfoot.game.values import Phase
from handfoot.runs.sim import play_game
from positions import faces, must_fail, only_result, pass_turn, play, position

S = "remastered-singles"
T = "remastered-teams"
H = "hand-knee-foot"
B = "bicycle"
PROFILES = [pytest.param(S, id="singles"), pytest.param(T, id="teams"),
            pytest.param(H, id="hkf"), pytest.param(B, id="bicycle")]
REMASTERED = [pytest.param(S, id="singles"), pytest.param(T, id="teams"),
              pytest.param(H, id="hkf")]

# The books each profile needs to go out (RULES-MATRIX X1).
S_BOOKS = ["4 4 4 4 4 4 4", "6 6 6 6 6 2 2"]  # 1 clean + 1 dirty (001:38)
B_BOOKS = S_BOOKS  # 1 clean + 1 dirty (004:56)
T_BOOKS = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2",
           "8 8 8 8 8 2 2"]  # 2 clean + 3 dirty (001:138, A-02)
H_BOOKS = ["5 5 5 5 5 5 5", "7 7 7 7 7 7 7", "JK JK JK 2 2 2 2", "Q Q Q Q Q Q Q",
           "9 9 9 9 9 2 2"]  # clean 5s, clean 7s, wilds, one more clean, one dirty (001:318-322)


# --- helpers -----------------------------------------------------------------------------


def pos(profile: str, layout: Layout | None = None, **kw: object) -> GameState:
    """A position (tests/positions.py) whose game can go on after the round ends."""
    state = position(profile, layout=layout, **kw)  # type: ignore[arg-type]
    state.seed = 7
    return state


def lines(score: SideScore) -> dict[str, tuple[int, int]]:
    """A side's breakdown as ``{key: (count, points)}``; checks that the lines add up."""
    out = {line.key: (line.count, line.points) for line in score.lines}
    assert len(out) == len(score.lines)
    assert sum(p for _, p in out.values()) == score.total
    return out


def melded(state: GameState, side: int = 0) -> int:
    return lines(state.score_side(side))["melded"][1]


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


def no_tabletop_lines(score: SideScore) -> None:
    """The software deals and checks every move: no perfect-deal or improper-meld line."""
    keys = {line.key for line in score.lines}
    assert not {k for k in keys if "perfect" in k or "improper" in k or "adjust" in k}


# --- WE-001-01, WE-HKF-01/02, WE-004-01: shoe and deal ------------------------------------


@pytest.mark.parametrize(("profile", "layout"), [
    pytest.param(S, Layout(8, 1), id="singles-8x1"),
    pytest.param(T, Layout(2, 4), id="teams-2x4"),
    pytest.param(T, Layout(4, 2), id="teams-4x2"),
])
def test_we_001_01_eight_players_use_nine_decks(profile: str, layout: Layout) -> None:
    p = load_profile(profile)
    assert p.decks(8) == 9  # 001:14 "So 8 players would use 9 decks"
    state = GameState.new(p, layout=layout, seed=3)
    deal = state.deal
    shoe = deal.all_faces()
    assert len(shoe) == 9 * 54
    assert shoe.count(cards.JOKER_FACE) == 18  # 2 jokers per deck
    assert [len(h) for h in deal.hands] == [11] * 8
    assert [len(f) for f in deal.feet] == [11] * 8
    assert len(deal.discard) == p.starter_cards
    assert len(deal.stock) == 486 - 8 * 22 - p.starter_cards
    # the game is played: every seat takes a turn, clockwise
    first = state.seat
    order = []
    for _ in range(8):
        order.append(state.seat)
        pass_turn(state)
    assert order == [(first + i) % 8 for i in range(8)]
    assert state.seat == first and not state.results
    assert sorted(state.all_faces()) == sorted(shoe)


@pytest.mark.parametrize("players", range(2, 9))
def test_singles_two_to_eight_players_dealt_and_played(players: int) -> None:
    """001:22 "2 to 8 Players"; one more deck than players (001:23). A whole round is
    played by bots through the engine at every player count."""
    layout = Layout(players, 1)
    assert layout in load_profile(S).layouts
    p = load_profile(S, overrides={"rounds": 1})
    state = GameState.new(p, layout=layout, seed=players)
    deal = state.deal
    assert p.decks(players) == players + 1
    assert len(deal.all_faces()) == 54 * (players + 1)
    assert [len(h) for h in deal.hands] == [11] * players
    assert [len(f) for f in deal.feet] == [11] * players
    assert len(deal.discard) == 1
    shoe = sorted(deal.all_faces())
    state, summary = play_game(p, players, [make_bot("easy", s) for s in range(players)],
                               state=state)
    assert state.is_over
    result = only_result(state)
    assert len(result.scores) == players  # every player is a side of their own
    for score in result.scores:
        lines(score)
    assert any(state.melds[s] for s in range(players))
    assert summary.moves > 2 * players
    assert sorted(state.all_faces()) == shoe  # no card created or lost


@pytest.mark.parametrize("profile", [S, B])
def test_starter_card_rules_singles_and_bicycle(profile: str) -> None:
    """001:73: a 3 or a wild starter is mixed back and replaced. 004:12: a red 3, deuce or
    joker goes back; a black 3 is a legal starter (D9)."""
    p = load_profile(profile)
    rejected = ({cards.RED_THREE, cards.BLACK_THREE, cards.TWO, cards.JOKER} if profile == S
                else {cards.RED_THREE, cards.TWO, cards.JOKER})
    seen = set()
    for seed in range(300):
        deal = deal_round(p, p.layout, seed, 1)
        assert len(deal.discard) == 1
        assert len(deal.all_faces()) == 54 * p.decks(p.layout.players)
        seen.add(cards.kind_of(deal.discard[0]))
    assert not seen & rejected
    assert (cards.BLACK_THREE in seen) == (profile == B)


@pytest.mark.parametrize("profile", [T, H])
def test_teams_three_starter_cards_only_the_top_checked(profile: str) -> None:
    """001:179 "Turn three cards face up ... If the top card is a 3 or a Wild, it is mixed
    into the draw pile and replaced." (D8, D9; HKF inherits, A-31)."""
    p = load_profile(profile)
    bad = {cards.RED_THREE, cards.BLACK_THREE, cards.TWO, cards.JOKER}
    lower_bad = 0
    for seed in range(200):
        deal = deal_round(p, p.layout, seed, 1)
        assert len(deal.discard) == 3
        assert cards.kind_of(deal.discard[-1]) not in bad  # the top (bottom first)
        lower_bad += sum(cards.kind_of(f) in bad for f in deal.discard[:-1])
    assert lower_bad > 0  # the 2nd and 3rd cards can be anything


@pytest.mark.parametrize(("layout", "decks"), [
    pytest.param(Layout(3, 1), 5, id="3-players"),
    pytest.param(Layout(2, 2), 6, id="4-players"),
    pytest.param(Layout(2, 3), 8, id="6-players"),
])
def test_we_hkf_01_02_decks_and_packets(layout: Layout, decks: int) -> None:
    """WE-HKF-01: players + 2 decks; WE-HKF-02: Hand 15, Knee 13, Foot 11 (39 a player)."""
    p = load_profile(H)
    assert layout in p.layouts
    players = layout.players
    assert p.decks(players) == decks
    state = GameState.new(p, layout=layout, seed=5)
    deal = state.deal
    assert len(deal.all_faces()) == 54 * decks
    assert [len(h) for h in deal.hands] == [15] * players
    assert [len(k) for k in deal.knees] == [13] * players
    assert [len(f) for f in deal.feet] == [11] * players
    assert all(len(h) + len(k) + len(f) == 39
               for h, k, f in zip(deal.hands, deal.knees, deal.feet, strict=True))
    assert len(deal.discard) == 3
    assert len(deal.stock) == 54 * decks - 39 * players - 3
    # the Knee waits face down: it is not part of any hand
    assert [len(k) for k in state.knees] == [13] * players
    assert state.view(state.seat).knee_counts == (13,) * players
    assert not any(state.foot_picked)
    assert mv.KNEE not in state.legal_actions()  # no book yet


def test_we_004_01_bicycle_equipment() -> None:
    """004:7 "five to six decks of cards with the jokers left in"; 11-card Hand and Foot."""
    p = load_profile(B)
    assert p.layouts == (Layout(2, 2),)  # 4 players in two teams
    for extra, total in ((None, 270), (6, 324)):
        prof = p if extra is None else load_profile(B, overrides={"extra_decks": extra})
        state = GameState.new(prof, seed=2)
        deal = state.deal
        assert len(deal.all_faces()) == total
        assert deal.all_faces().count(cards.JOKER_FACE) == total // 27
        assert [len(h) for h in deal.hands] == [11] * 4
        assert [len(f) for f in deal.feet] == [11] * 4
        assert [len(k) for k in deal.knees] == [0] * 4
        assert len(deal.discard) == 1
        assert len(deal.stock) == total - 88 - 1


@pytest.mark.parametrize("profile", PROFILES)
def test_a19_first_player_rotates_clockwise_each_round(profile: str) -> None:
    """A-19 / D12-D13: the Remastered round-1 first seat is the high card's (a random
    seat; later rounds move one seat clockwise); bicycle starts left of the dealer
    (004:31), the dealer rotating left."""
    p = load_profile(profile)
    for layout in p.layouts:
        n = layout.players
        firsts = [deal_round(p, layout, 4, r).first_player for r in range(1, 5)]
        assert firsts == [(firsts[0] + r) % n for r in range(4)]
        for r in range(1, 5):
            deal = deal_round(p, layout, 4, r)
            assert deal.first_player == (deal.dealer + 1) % n
        if profile == B:
            assert firsts[0] == 0


def test_a47_teams_play_with_equal_teams_only() -> None:
    """001:121 "4 to 8 Players on 2 to 4 teams"; A-47: equal teams only."""
    p = load_profile(T)
    assert sorted(str(x) for x in p.layouts) == ["2x2", "2x3", "2x4", "3x2", "4x2"]
    assert {x.players for x in p.layouts} == {4, 6, 8}
    for layout in p.layouts:
        state = GameState.new(p, layout=layout, seed=1)
        assert len(state.all_faces()) == 54 * (layout.players + 1)
        pass_turn(state)
    with pytest.raises(ValueError, match="played as"):
        GameState.new(p, layout=Layout(5, 1), seed=1)


# --- WE-001-11, WE-004-02: card values, played and scored -------------------------------

# Melds laid one by one (side opened), with the card values each adds (001:45-46; 004:15-19).
VALUE_MELDS = [("4 4 4", 15), ("8 8 8", 30), ("K K K", 30), ("A A A", 60)]
REM_WILD_MELDS = [("9 9 9 2", 50), ("Q Q JK", 70)]  # a 2 is 20, a joker 50
BIC_WILD_MELDS = [("9 9 9 9 2", 60), ("Q Q Q Q JK", 90)]  # a dirty meld needs 4 naturals


@pytest.mark.parametrize(("profile", "black3", "red3"), [
    pytest.param(S, 100, 100, id="singles"),  # WE-001-11
    pytest.param(B, 5, 5, id="bicycle"),  # WE-004-02, A-38
])
def test_we_001_11_we_004_02_card_values(profile: str, black3: int, red3: int) -> None:
    wild_melds = REM_WILD_MELDS if profile == S else BIC_WILD_MELDS
    all_melds = VALUE_MELDS + wild_melds
    hand = " ".join(m for m, _ in all_melds) + " 5 T A 2 JK 3C 6"
    partner = [2] if profile == B else []
    state = pos(profile, hands={0: hand, **{s: "7" for s in partner}}, in_foot=[0, *partner],
                red_threes={0: 1}, opened=[0], phase=Phase.PLAY, stock_size=1)
    total = 0
    for meld, value in all_melds:
        play(state, "meld " + meld)
        total += value
        assert melded(state) == total, meld
    play(state, "discard 6")
    play(state, "draw")  # the next player finds fewer than 2 stock cards: the round ends
    result = only_result(state)
    assert result.reason == "stock exhausted"
    got = lines(result.scores[0])
    assert got["melded"] == (sum(len(m.split()) for m, _ in all_melds), total)
    # left: 5 (5) + 10 (10) + A (20) + 2 (20) + joker (50), and the partner's 7 (5)
    assert got["cards_left"] == (5 + len(partner), -(105 + 5 * len(partner)))
    assert got["black_threes_caught"] == (1, -black3)
    assert got["red_threes"] == (1, red3)
    assert got["going_out"] == (0, 0)
    no_tabletop_lines(result.scores[0])


# --- WE-001-12, WE-HKF-03: bonus tables, played in a round that goes out -----------------


def test_we_001_12_teams_bonus_table() -> None:
    """Clean 700, dirty 300, wild book 1500, going out 100 (001:154-155); the perfect deal
    (+100) and the improper meld (−500) are tabletop values the engine never applies."""
    p = load_profile(T)
    assert (p.perfect_deal_bonus, p.improper_meld_penalty) == (100, 500)
    state = pos(T, melds={0: [*T_BOOKS, "JK JK JK 2 2 2 2"]}, red_threes={0: 1},
                in_foot=[0, 2], foot_turn_done=[2], hands={0: "K K", 2: "4"},
                stock_top="K K")
    play(state, "draw", "goout K K K K")
    assert state.phase == Phase.ANSWER and state.actor == 2
    play(state, "yes")
    result = only_result(state)
    assert (result.reason, result.went_out) == ("went out", 0)
    got = lines(result.scores[0])
    assert got["clean_books"] == (2, 1400)
    assert got["dirty_books"] == (3, 900)
    assert got["wild_books"] == (1, 1500)
    assert got["going_out"] == (1, 100)
    assert got["red_threes"] == (1, 100)
    assert got["cards_left"] == (1, -5)
    assert lines(result.scores[1])["going_out"] == (0, 0)
    for score in result.scores:
        no_tabletop_lines(score)


def test_we_hkf_03_scoring_table_in_a_round() -> None:
    """Wild book 2,500; clean 7s 5,000; clean 5s 3,000; clean 500; dirty 300; going out
    200; 7+ red 3s 300 each; black 3 −500 (001:324-334). The 7th red 3 is drawn in play."""
    p = load_profile(H)
    assert p.knee_reminder_penalty == 1000  # tabletop: "Pick up Knee reminder -1,000"
    state = pos(H, melds={0: H_BOOKS}, red_threes={0: 6}, in_foot=[0, 1, 2, 3],
                knee_picked=[0, 1, 2, 3], foot_turn_done=[2],
                hands={0: "K K", 1: "3C 9", 2: "4", 3: "8"}, stock_top="3H K K")
    assert lines(state.score_side(0))["red_threes"] == (6, 600)
    play(state, "draw")  # 3H and a K; the 3H is laid and replaced by the other K
    assert len(state.red_threes[0]) == 7
    play(state, "goout K K K K")
    play(state, "yes")
    result = only_result(state)
    assert (result.reason, result.went_out) == ("went out", 0)
    got = lines(result.scores[0])
    assert got["special_books"] == (2, 8000)  # clean 5s + clean 7s
    assert got["clean_books"] == (1, 500)  # the queens
    assert got["dirty_books"] == (1, 300)
    assert got["wild_books"] == (1, 2500)
    assert got["going_out"] == (1, 200)
    assert got["red_threes"] == (7, 2100)
    assert got["cards_left"] == (1, -5)
    theirs = lines(result.scores[1])
    assert theirs["black_threes_caught"] == (1, -500)
    assert theirs["cards_left"] == (2, -20)
    assert theirs["going_out"] == (0, 0)
    no_tabletop_lines(result.scores[0])


# --- §4.2 book values -------------------------------------------------------------------

# id, melds laid one after another, card values, and the book's worth (card values + bonus)
# by profile with the bonus line; None where the book is illegal (RULES-MATRIX §4.2).
BOOKS = [
    ("clean-9s", ["9 9 9 9", "9 9 9"], 70,
     {S: ("clean_books", 770), T: ("clean_books", 770), H: ("clean_books", 570),
      B: ("clean_books", 570)}),
    ("clean-4s", ["4 4 4", "4 4 4 4"], 35,  # WE-001-02, WE-001-03: 735
     {S: ("clean_books", 735), T: ("clean_books", 735), H: ("clean_books", 535),
      B: ("clean_books", 535)}),
    ("five-9s-two-2s", ["9 9 9 9", "9 2 2"], 90,  # WE-004-07
     {S: ("dirty_books", 390), T: ("dirty_books", 390), H: ("dirty_books", 390),
      B: ("dirty_books", 390)}),
    ("five-9s-2-joker", ["9 9 9 9 9", "9: 2 JK"], 120,  # WE-004-07 (derived): 420
     {S: ("dirty_books", 420), T: ("dirty_books", 420), H: ("dirty_books", 420),
      B: ("dirty_books", 420)}),
    ("five-9s-two-jokers", ["9 9 9 9 9 JK JK"], 150,  # WE-004-07 (derived): 450
     {S: ("dirty_books", 450), T: ("dirty_books", 450), H: ("dirty_books", 450),
      B: ("dirty_books", 450)}),
    ("clean-5s", ["5 5 5 5 5 5 5"], 35,
     {S: ("clean_books", 735), T: ("clean_books", 735), H: ("special_books", 3035),
      B: ("clean_books", 535)}),
    ("clean-7s", ["7 7 7", "7 7", "7 7"], 35,
     {S: ("clean_books", 735), T: ("clean_books", 735), H: ("special_books", 5035),
      B: ("clean_books", 535)}),
    ("four-8s-three-2s", ["8 8 8 8 2 2 2"], 100,  # WE-001-09: 400
     {S: ("dirty_books", 400), T: None, H: None, B: ("dirty_books", 400)}),
    ("seven-jokers", ["JK JK JK", "JK JK JK JK"], 350,
     {S: None, T: ("wild_books", 1850), H: ("wild_books", 2850), B: None}),
    ("seven-2s", ["2 2 2 2", "2 2 2"], 140,
     {S: None, T: ("wild_books", 1640), H: ("wild_books", 2640), B: None}),
]
BONUS_KEYS = ("clean_books", "dirty_books", "wild_books", "special_books")


def _book_cases() -> list[object]:
    out = []
    for ident, melds, value, by_profile in BOOKS:
        for profile, expected in by_profile.items():
            tag = {S: "singles", T: "teams", H: "hkf", B: "bicycle"}[profile]
            out.append(pytest.param(profile, melds, value, expected, id=f"{tag}-{ident}"))
    return out


@pytest.mark.parametrize(("profile", "melds", "value", "expected"), _book_cases())
def test_book_values(profile: str, melds: list[str], value: int,
                     expected: tuple[str, int] | None) -> None:
    """§4.2 book values: the book is made on the table by Meld moves, then scored."""
    hand = " ".join(m.replace("9:", "") for m in melds) + " 8S"
    state = pos(profile, hands={0: hand}, opened=[0], phase=Phase.PLAY)
    if expected is None:
        must_fail(state, "meld " + melds[0], "wild")
        assert state.melds[0] == []
        return
    key, worth = expected
    for meld in melds:
        assert state.melds[0] == [] or state.melds[0][0].book_kind(7) is None
        play(state, "meld " + meld)
    assert len(state.melds[0]) == 1 and state.melds[0][0].size == 7
    got = lines(state.score_side(0))
    assert got["melded"] == (7, value)
    assert got[key][0] == 1
    assert got["melded"][1] + got[key][1] == worth
    for other in BONUS_KEYS:
        if other != key and other in got:
            assert got[other] == (0, 0)


def test_we_001_10_four_8s_two_wilds_is_a_meld_not_a_book() -> None:
    """001:135's "four 8s and two wild cards" is a legal 6-card meld, not a book (A-03)."""
    state = pos(T, hands={0: "8 8 8 8 2 2 2 9"}, opened=[0], phase=Phase.PLAY)
    play(state, "meld 8 8 8 8 2 2")
    assert table(state, 0) == [("8", 4, 2, 0)]
    assert state.melds[0][0].book_kind(7) is None
    got = lines(state.score_side(0))
    assert got["dirty_books"] == (0, 0) and got["clean_books"] == (0, 0)
    assert got["melded"] == (6, 80)
    # a seventh card makes it a book; a third wild would break W ≤ 2 (001:128)
    must_fail(state, "meld 8: 2", "at most 2 wild")


def test_we_004_09_bicycle_clean_500_dirty_300() -> None:
    state = pos(B, hands={0: "Q Q Q Q Q Q Q J J J J J 2 2 8S"}, opened=[0], phase=Phase.PLAY)
    play(state, "meld Q Q Q Q Q Q Q | J J J J J 2 2")
    got = lines(state.score_side(0))
    assert got["clean_books"] == (1, 500)
    assert got["dirty_books"] == (1, 300)
    assert "wild_books" not in got  # no all-wild books in bicycle


# --- §4.2 meld legality, W3 wild limits, WE-HKF-04 ---------------------------------------

MELD_TABLE = [
    # meld, legal under singles, teams, hand-knee-foot, bicycle (RULES-MATRIX §4.2)
    ("K K 2", True, True, True, False),
    ("K K K 2", True, True, True, False),
    ("K 2 2", False, False, False, False),
    ("K K K 2 2", True, True, True, False),
    ("K K K K 2 2", True, True, True, True),
    ("8 8 8 8 2 2 2", True, False, False, True),
    ("9 9 9 9 9 2 2", True, True, True, True),
    ("JK JK JK", False, True, True, False),
    ("5 5 5 2", True, True, False, False),
    ("8 8 8 8 8 8 8 8", True, True, True, False),
    # WE-HKF-04: "5 5 5 2; 7 7 7 joker; 8 8 8 2: illegal; illegal; legal" (001:305)
    ("7 7 7 JK", True, True, False, False),
    ("8 8 8 2", True, True, True, False),
    # WE-004-04: four kings and a joker is a legal dirty meld
    ("K K K K JK", True, True, True, True),
]


def _meld_cases() -> list[object]:
    out = []
    for meld, *legal in MELD_TABLE:
        slug = meld.replace(" ", "")
        for (profile, tag), ok in zip(((S, "singles"), (T, "teams"), (H, "hkf"),
                                       (B, "bicycle")), legal, strict=True):
            out.append(pytest.param(profile, meld, ok, id=f"{tag}-{slug}"))
    return out


@pytest.mark.parametrize(("profile", "meld", "legal"), _meld_cases())
def test_meld_legality_table(profile: str, meld: str, legal: bool) -> None:
    """§4.2 meld legality, laid with a Meld move on an opened side's empty table."""
    state = pos(profile, hands={0: meld + " 4S"}, opened=[0], stock_top="4C 4D")
    play(state, "draw")
    group = parse_move("meld " + meld).groups[0]  # type: ignore[union-attr]
    if legal:
        play(state, "meld " + meld)
        rank = "wild" if group.target == WILD_MELD else cards.KIND_NAMES[group.target]
        assert table(state, 0) == [(rank, group.naturals, group.twos, group.jokers)]
        assert kinds_held(state, 0) == {"4": 3}
    else:
        reason = "at most 7" if group.wilds == 0 else "wild"
        must_fail(state, "meld " + meld, reason)
        assert state.melds[0] == []


# Most wilds by meld size 3..7 (RULES-MATRIX W3).
WILD_LIMITS = {S: (1, 1, 2, 2, 3), T: (1, 1, 2, 2, 2), H: (1, 1, 2, 2, 2), B: (0, 0, 1, 2, 3)}


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("size", [3, 4, 5, 6, 7])
def test_wild_limit_by_meld_size(profile: str, size: int) -> None:
    most = WILD_LIMITS[profile][size - 3]
    assert load_profile(profile).wild_limit(size) == most
    hand = " ".join(["Q"] * size + ["2"] * (most + 1))
    too_many = " ".join(["Q"] * (size - most - 1) + ["2"] * (most + 1))
    state = pos(profile, hands={0: hand}, opened=[0], phase=Phase.PLAY)
    must_fail(state, "meld " + too_many, "wild")
    play(state, "meld " + " ".join(["Q"] * (size - most) + ["2"] * most))
    assert table(state, 0) == [("Q", size - most, most, 0)]


@pytest.mark.parametrize("rank", ["5", "7"])
@pytest.mark.parametrize("size", [3, 4, 5, 6, 7])
def test_we_hkf_04_fives_and_sevens_never_take_wilds(rank: str, size: int) -> None:
    """001:305 "Melds of 5s or 7s cannot contain Wild cards." at every size, laid at once
    or added later; other ranks follow the team ratio."""
    naturals = " ".join([rank] * (size - 1))
    state = pos(H, hands={0: f"{naturals} {rank} 2 JK 9"}, opened=[0], phase=Phase.PLAY)
    must_fail(state, f"meld {naturals} 2", "never hold wild")
    must_fail(state, f"meld {naturals} JK", "never hold wild")
    play(state, f"meld {naturals} {rank}")
    assert table(state, 0) == [(rank, size, 0, 0)]
    must_fail(state, f"meld {rank}: 2", "wild")
    must_fail(state, f"meld {rank}: JK", "wild")


# --- WE-001-13, WE-001-04/05, WE-004-03..06: opening minimums ---------------------------

REM_OPENINGS = [
    (1, 60, "K K K K K K", "K K K K K", 50),
    (2, 90, "A A A | K K K", "A A A | 5 5 5", 75),
    (3, 120, "A A A A A A", "A A A A A", 100),
    (4, 150, "A A A A A | K K K K K", "A A A A A | K K K K", 140),
]


@pytest.mark.parametrize("profile", REMASTERED)
@pytest.mark.parametrize(("round_number", "minimum", "enough", "short", "value"), REM_OPENINGS,
                         ids=[f"round-{r[0]}" for r in REM_OPENINGS])
def test_we_001_13_opening_minimums(profile: str, round_number: int, minimum: int,
                                    enough: str, short: str, value: int) -> None:
    """60 / 90 / 120 / 150 (001:65-66, 001:163-164; HKF inherits, A-31)."""
    state = pos(profile, round_number=round_number,
                hands={0: "A A A A A A K K K K K K 5 5 5 9"}, stock_top="4C 4D")
    play(state, "draw")
    must_fail(state, "meld " + short, "opening", str(value), str(minimum),
              f"round {round_number}")
    assert not state.opened[0]
    play(state, "meld " + enough)
    assert state.opened[0]
    assert melded(state) == minimum
    play(state, "meld 5 5 5", "discard 9")  # once open, no minimum for the round
    assert state.opened[0] and state.seat == 1


@pytest.mark.parametrize("profile", REMASTERED)
def test_we_001_04_05_three_4s_and_six_10s_open_round_1(profile: str) -> None:
    """001:63 / 001:161: "three 4s would be worth 15 points and six 10s would be 60 points,
    for a total of 75 points. This would satisfy the requirement for Round 1.\""""
    state = pos(profile, hands={0: "4 4 4 T T T T T T 9"}, phase=Phase.PLAY)
    must_fail(state, "meld 4 4 4 | T T T T", "opening", "55", "60")
    must_fail(state, "meld 4 4 4", "opening", "15", "60")  # one meld at a time is short
    play(state, "meld 4 4 4 | T T T T T T")
    assert state.opened[0]
    assert table(state, 0) == [("4", 3, 0, 0), ("10", 6, 0, 0)]
    assert melded(state) == 75


@pytest.mark.parametrize(("round_number", "minimum", "enough", "short", "value"), [
    (1, 50, "K K K K K", "K K K K", 40),  # WE-004-03: five kings
    (2, 90, "K K K K JK", "K K K K 2", 60),  # WE-004-04: four kings and a joker
    (3, 120, "A A A A 2 2", "A A A A 2", 100),  # WE-004-05: four aces and two deuces
    (4, 150, "A A A A A JK", "A A A A A 2", 120),  # WE-004-06: five aces and a joker
], ids=["round-1", "round-2", "round-3", "round-4"])
def test_we_004_03_to_06_bicycle_openings(round_number: int, minimum: int, enough: str,
                                          short: str, value: int) -> None:
    state = pos(B, round_number=round_number,
                hands={0: "K K K K K JK 2 2 A A A A A 9"}, stock_top="4C 4D")
    play(state, "draw")
    must_fail(state, "meld " + short, "opening", str(value), str(minimum))
    play(state, "meld " + enough)
    assert state.opened[0]
    assert melded(state) == minimum  # exactly the minimum
    play(state, "discard 9")
    assert state.seat == 1


@pytest.mark.parametrize("profile", [T, H])
def test_we_001_14_improper_meld_is_refused_not_penalised(profile: str) -> None:
    """001:169: the −500 improper-meld penalty is tabletop-only (A-53): the engine refuses
    the short opening and nothing changes, the score included."""
    p = load_profile(profile)
    assert p.improper_meld_penalty == 500
    state = pos(profile, hands={0: "K K K K K 9 9 9"}, phase=Phase.PLAY,
                stock_top="4C 4D 5C", stock_size=3)
    message = must_fail(state, "meld K K K K K", "opening", "50", "60")
    assert "round 1" in message
    assert not state.opened[0] and state.melds[0] == []
    assert lines(state.score_side(0))["melded"] == (0, 0)
    play(state, "discard 9")
    pass_turn(state)  # seat 1 draws the last 2 stock cards
    play(state, "draw")  # seat 2: the stock is exhausted
    result = only_result(state)
    no_tabletop_lines(result.scores[0])
    assert lines(result.scores[0])["melded"] == (0, 0)


@pytest.mark.parametrize(("profile", "packets"), [(S, 22), (T, 22), (H, 39)])
def test_we_001_06_perfect_deal_is_tabletop_only(profile: str, packets: int) -> None:
    """001:75 "exactly 22 cards ... 100-point bonus" (A-20): the software deals every
    player exactly their packets, so the bonus value exists but is never scored."""
    p = load_profile(profile)
    assert p.perfect_deal_bonus == 100
    state = GameState.new(p, seed=9)
    deal = state.deal
    for seat in range(state.players):
        assert len(deal.hands[seat]) + len(deal.knees[seat]) + len(deal.feet[seat]) == packets
    for side in range(state.sides):
        no_tabletop_lines(state.score_side(side))


@pytest.mark.parametrize("profile", [T, H])
def test_a12_the_all_wild_meld(profile: str) -> None:
    """A-12: an all-wild meld starts with 3+ wilds, may mix 2s and jokers, is the side's
    only unfinished all-wild meld, and completes at exactly 7 (the ratio and W ≤ 2 rules
    do not apply to it); teams 1,500 / HKF 2,500."""
    state = pos(profile, hands={0: "JK 2 2 JK JK 2 2 JK 9"}, opened=[0], phase=Phase.PLAY)
    must_fail(state, "meld JK 2", "at least 3")
    play(state, "meld JK 2 2")
    assert table(state, 0) == [("wild", 0, 2, 1)]
    must_fail(state, "meld new JK JK JK", "unfinished all-wild meld")
    play(state, "meld JK JK 2 2")
    assert table(state, 0) == [("wild", 0, 4, 3)]
    got = lines(state.score_side(0))
    assert got["wild_books"] == (1, 1500 if profile == T else 2500)
    assert got["melded"] == (7, 4 * 20 + 3 * 50)
    must_fail(state, "meld JK", "at least 3")  # the wild book is closed at 7


@pytest.mark.parametrize("profile", [S, T])
def test_a07_discarding_black_3s_first_is_advice(profile: str) -> None:
    """001:53 "should be discarded before all other cards" (A-07): not enforced."""
    state = pos(profile, hands={0: "3C 9C 8C"}, stock_top="4C 4D")
    play(state, "draw", "discard 9")
    assert state.pile[-1] == faces("9C")[0]
    assert state.held[0][cards.BLACK_THREE] == 1


# --- singles: the one-card pickup (WE-001-07, A-08) --------------------------------------


def test_singles_pickup_takes_only_the_top_card_into_the_hand() -> None:
    """A-08: exactly the top card, no pair, no meld; the turn ends with a discard. The
    000 example (hand K K 2, top K) under singles: the K joins the hand."""
    state = pos(S, hands={0: "KS KD 2C 9C"}, pile="5C 6C KH")
    must_fail(state, "pickup K K 2", "take the pile first")  # no meld with the pickup
    assert state.pickup_size() == 1
    play(state, "pickup")
    assert held(state, 0) == names("KS KD 2C 9C KH")
    assert state.pile == faces("5C 6C")
    assert state.melds[0] == [] and not state.opened[0]
    assert state.phase == Phase.PLAY
    must_fail(state, "draw", "already drawn")  # never both (001:86)
    must_fail(state, "knock", "discard")
    # the picked card has no opening privilege: K K K 2 is 50 < 60
    must_fail(state, "meld K K K 2", "opening", "50", "60")
    play(state, "discard 9")
    assert state.seat == 1 and state.pile == faces("5C 6C 9C")


@pytest.mark.parametrize("top", ["3S", "2D", "JK"], ids=["black-3", "two", "joker"])
def test_singles_black_3_or_wild_on_top_may_be_taken(top: str) -> None:
    """A-08: "A black 3 or wild on top may otherwise be taken"."""
    state = pos(S, hands={0: "9C 8C"}, pile="5C " + top, melds={0: ["K K K"]})
    play(state, "pickup")
    assert held(state, 0) == names("9C 8C " + top)
    play(state, "discard 9")
    assert state.pile[-1] == faces("9C")[0]


def test_singles_004_example_opens_after_the_pickup() -> None:
    """§4.2 004 example under singles: the K is taken alone, then K K K + A A A = 90."""
    state = pos(S, hands={0: "KS KD AC AD AH 9C"}, pile="4C 4D 5C JK 6C 7C 8C KC")
    play(state, "pickup", "meld K K K | A A A")
    assert state.opened[0] and melded(state) == 90
    assert state.pile == faces("4C 4D 5C JK 6C 7C 8C")  # the joker stays in the pile
    play(state, "discard 9")


SINGLES_PICKUPS = [
    # own melds, an opponent's melds, top card, legal (WE-001-07, A-08)
    pytest.param(["8 8 8 8 8 8"], [], "8D", False, id="six-8s-top-8"),
    pytest.param(["8 8 8 8 8 2"], [], "2D", False, id="six-card-8s-top-2"),
    pytest.param(["8 8 8 8 8 8"], [], "JK", False, id="six-8s-top-joker"),
    pytest.param(["8 8 8 8 2 2"], [], "2D", False, id="four-8s-two-2s-top-2"),
    pytest.param(["8 8 8 8 8"], [], "8D", True, id="five-8s-top-8"),
    pytest.param(["8 8 8 8 8"], [], "2D", True, id="five-8s-top-2"),
    pytest.param(["8 8 8 8 8 8 8"], [], "8D", True, id="book-of-8s-top-8"),
    pytest.param(["9 9 9 9 9 9"], [], "8D", True, id="six-9s-top-8"),
    pytest.param([], ["8 8 8 8 8 8"], "8D", True, id="opponents-six-8s"),
]


@pytest.mark.parametrize(("own", "theirs", "top", "legal"), SINGLES_PICKUPS)
def test_we_001_07_singles_pickup_forbidden_only_when_completing_a_book(
        own: list[str], theirs: list[str], top: str, legal: bool) -> None:
    """001:85 "if you have six 8s played, you cannot pick from the discard pile if the top
    card is an 8"; A-08 extends it to a wild the meld's ratio accepts."""
    state = pos(S, hands={0: "JC 4C"}, melds={0: own, 1: theirs}, pile="5C " + top)
    if not legal:
        must_fail(state, "pickup", "would complete your book of 8s")
        play(state, "draw")  # the stock is still there
        return
    before = table(state, 0)
    play(state, "pickup")
    assert held(state, 0) == names("JC 4C " + top)  # into the hand, not onto a meld
    assert table(state, 0) == before
    assert state.pile == faces("5C") and state.phase == Phase.PLAY


# --- singles: books past 7, one meld per rank, zero cards, going out --------------------


def test_singles_books_grow_past_7_with_naturals_only() -> None:
    """001:58 "Natural cards can be added to complete books, wild cards cannot. This will
    not increase the value of the book, but it will add the point value of the card";
    K2/K7, A-26."""
    state = pos(S, hands={0: "8 8 8 8 8 8 8 8 8 2 JK 9 9"}, opened=[0], phase=Phase.PLAY)
    play(state, "meld 8 8 8 8 8 8 8")
    assert lines(state.score_side(0))["clean_books"] == (1, 700)
    play(state, "meld 8")
    assert table(state, 0) == [("8", 8, 0, 0)]
    must_fail(state, "meld 8: 2", "wild", "past 7")
    must_fail(state, "meld 8: JK", "wild", "past 7")
    must_fail(state, "meld 8 2", "wild", "past 7")
    play(state, "meld 8")
    got = lines(state.score_side(0))
    assert table(state, 0) == [("8", 9, 0, 0)]
    assert got["clean_books"] == (1, 700)  # still one clean book
    assert got["melded"] == (9, 90)  # each extra natural adds its card value


def test_singles_dirty_book_takes_naturals_past_7_and_stays_dirty() -> None:
    state = pos(S, hands={0: "8 8 8 8 2 2 2 8 8 9"}, opened=[0], phase=Phase.PLAY)
    play(state, "meld 8 8 8 8 2 2 2", "meld 8 8")  # WE-001-09, then two more naturals
    got = lines(state.score_side(0))
    assert table(state, 0) == [("8", 6, 3, 0)]
    assert got["dirty_books"] == (1, 300) and got["clean_books"] == (0, 0)
    assert got["melded"] == (9, 120)


def test_singles_no_second_meld_of_a_rank() -> None:
    """A-49: one meld of each rank, finished or not; further naturals go onto the book."""
    state = pos(S, hands={0: "K K K K 9"}, melds={0: ["K K K K K K K"]},
                phase=Phase.PLAY)
    must_fail(state, "meld new K K K", "kings", "of a rank")
    play(state, "meld K K K")  # onto the book
    assert table(state, 0) == [("K", 10, 0, 0)]
    # beside an unfinished meld, too
    state = pos(S, hands={0: "Q Q Q Q 9"}, melds={0: ["Q Q Q"]}, phase=Phase.PLAY)
    must_fail(state, "meld new Q Q Q", "unfinished", "add to it")
    play(state, "meld Q Q Q")
    assert table(state, 0) == [("Q", 6, 0, 0)]


def test_singles_holding_zero_cards_after_melding_everything() -> None:
    """A-15 / 001:84: a player in the Foot may meld every card; the turn ends without a
    discard, the round goes on, and next turn they draw 2 as usual."""
    state = pos(S, in_foot=[0], melds={0: ["8 8 8 8"]}, hands={0: "9 9 9"},
                stock_top="8 8")
    play(state, "draw", "meld 9 9 9 | 8 8")
    assert state.held_n[0] == 0 and not state.results
    assert state.seat == 1 and state.phase == Phase.DRAW  # no discard was made
    assert state.pile == []  # the position's pile was empty: nothing was discarded
    pass_turn(state)
    pass_turn(state)
    assert state.seat == 0
    play(state, "draw")
    assert state.held_n[0] == 2
    assert not state.results


def test_singles_goes_out_only_by_discarding_the_last_card() -> None:
    """001:83 "You cannot go out without discarding" (A-15): the Discard of the last card
    goes out when the player is qualified; ``goout`` without a discard is refused."""
    state = pos(S, in_foot=[0], melds={0: S_BOOKS}, hands={0: "K K"}, stock_top="K 9")
    play(state, "draw")
    must_fail(state, "goout K K K", "discard")  # goout without a discard
    play(state, "meld K K K")
    assert state.held_n[0] == 1
    play(state, "discard 9")  # the last card discarded: out
    result = only_result(state)
    assert (result.reason, result.went_out) == ("went out", 0)
    got = lines(result.scores[0])
    assert got["going_out"] == (1, 100)
    assert got["clean_books"] == (1, 700) and got["dirty_books"] == (1, 300)
    assert got["cards_left"] == (0, 0)
    for other in (1, 2):
        assert lines(result.scores[other])["going_out"] == (0, 0)


def test_singles_melding_the_last_card_with_books_stays_in() -> None:
    """Melding every card, even with the books, leaves the player at zero cards in the
    round (A-15)."""
    state = pos(S, in_foot=[0], melds={0: S_BOOKS}, hands={0: "K K"}, stock_top="K K")
    play(state, "draw")
    must_fail(state, "goout K K K K", "discard")
    play(state, "meld K K K K")
    assert state.held_n[0] == 0 and not state.results and state.seat == 1


def test_singles_goout_discarding_in_one_move() -> None:
    state = pos(S, in_foot=[0], melds={0: S_BOOKS}, hands={0: "K K"}, stock_top="K 9")
    play(state, "draw", "goout K K K discard 9")
    result = only_result(state)
    assert result.went_out == 0
    assert lines(result.scores[0])["going_out"] == (1, 100)


def test_singles_discarding_the_last_card_without_books_holds_zero() -> None:
    """A-15: discarding the last card without the books leaves the player at zero cards."""
    state = pos(S, in_foot=[0], melds={0: ["4 4 4 4 4 4 4"]}, hands={0: "K K"},
                stock_top="K 9")
    play(state, "draw", "meld K K K", "discard 9")
    assert state.held_n[0] == 0 and not state.results and state.seat == 1


# --- teams: pickups (WE-001-08, A-09) -----------------------------------------------------

TEAM_OPEN = ["K K K K K K"]  # the team has opened with kings


@pytest.mark.parametrize(("hand", "ours", "theirs", "pile", "move", "reason"), [
    pytest.param("4 4 9", TEAM_OPEN, [], "9C 5C 6C 4D", "pickup 4 4", None, id="legal"),
    pytest.param("4 4 9", [*TEAM_OPEN, "4 4 4"], [], "9C 5C 6C 4D", "pickup 4 4",
                 "already has 4s", id="4s-on-the-table"),
    pytest.param("4 4 9", [*TEAM_OPEN, "4 4 4 4 4 4 4"], [], "9C 5C 6C 4D", "pickup 4 4",
                 "already has 4s", id="book-of-4s-on-the-table"),
    pytest.param("4 2 9", TEAM_OPEN, [], "9C 5C 6C 4D", "pickup 4 2", "natural pair",
                 id="one-4-and-a-wild"),
    pytest.param("4 9 9", TEAM_OPEN, [], "9C 5C 6C 4D", "pickup 4", "at least 3",
                 id="only-one-4"),
    pytest.param("4 4 9", TEAM_OPEN, ["4 4 4"], "9C 5C 6C 4D", "pickup 4 4", None,
                 id="opponents-4s-do-not-block"),
])
def test_we_001_08_teams_pickup_of_the_top_three(hand: str, ours: list[str],
                                                 theirs: list[str], pile: str, move: str,
                                                 reason: str | None) -> None:
    """001:189 "if the top discard is a 4 you must have two 4s in your hand and no 4s
    previously played"; the top three are taken."""
    state = pos(T, hands={0: hand}, melds={0: ours, 1: theirs}, pile=pile)
    if reason is not None:
        must_fail(state, move, reason)
        return
    assert state.pickup_size() == 3
    play(state, move)
    assert ("4", 3, 0, 0) in table(state, 0)
    assert state.pile == faces("9C")
    assert kinds_held(state, 0) == {"5": 1, "6": 1, "9": 1}
    play(state, "discard 9")  # a normal discard follows (PK8)
    assert state.seat == 1


def test_teams_pickup_of_a_short_pile_takes_it_whole() -> None:
    state = pos(T, hands={0: "4 4 9"}, melds={0: TEAM_OPEN}, pile="5C 4D")
    assert state.pickup_size() == 2
    play(state, "pickup 4 4")
    assert state.pile == [] and kinds_held(state, 0) == {"5": 1, "9": 1}


@pytest.mark.parametrize(("top", "move", "reason"), [
    ("2D", "pickup 2 2", "wild card on top"),
    ("JK", "pickup JK JK", "wild card on top"),
    ("3C", "pickup K K", "black 3"),
])
def test_teams_wild_or_black_3_on_top_blocks_the_pile(top: str, move: str,
                                                      reason: str) -> None:
    """001:191 a black 3 freezes the pile; A-09: a wild on top cannot be taken."""
    state = pos(T, hands={0: "2 2 JK JK K K 9"}, melds={0: ["Q Q Q"]},
                pile="5C 6C " + top)
    must_fail(state, move, reason)


def test_000_example_under_teams() -> None:
    """§4.2: hand K K 2, top K, round 1: 50 < 60, so at least 10 more from the hand."""
    state = pos(T, hands={0: "KS KD 2C 9C 9D 9H"}, pile="5C 6C KH")
    must_fail(state, "pickup K K 2", "opening", "50", "60")
    play(state, "pickup K K 2 | 9 9 9")
    assert state.opened[0] and melded(state) == 80
    assert table(state, 0) == [("K", 3, 1, 0), ("9", 3, 0, 0)]
    assert kinds_held(state, 0) == {"5": 1, "6": 1}
    # with a K on the team's table the pickup is refused outright
    state = pos(T, hands={0: "KS KD 2C 9C"}, melds={0: ["K K K"]}, pile="5C 6C KH")
    must_fail(state, "pickup K K 2", "already has kings")


def test_004_example_under_teams() -> None:
    """§4.2: K K K + A A A = 90 ≥ 60; the top three are taken, the joker stays below."""
    state = pos(T, hands={0: "KS KD AC AD AH 9C"}, pile="4C 4D 5C JK 6C 7C 8C KC")
    must_fail(state, "pickup K K", "30", "60")
    play(state, "pickup K K | A A A")
    assert state.opened[0] and melded(state) == 90
    assert held(state, 0) == names("9C 7C 8C")
    assert state.pile == faces("4C 4D 5C JK 6C")
    play(state, "discard 9")


# --- teams: opening, books, the partner's Foot, permission, the last card ---------------


def test_teams_wild_meld_cannot_be_part_of_the_opening() -> None:
    """001:136 "A Wild book ... cannot be used for the team's initial meld" (A-17)."""
    state = pos(T, hands={0: "K K K K K K JK JK JK 9"}, phase=Phase.PLAY)
    must_fail(state, "meld K K K K K K | JK JK JK", "all-wild", "opening")
    must_fail(state, "meld K K K K | JK JK JK", "all-wild", "opening")  # 40 + 150
    play(state, "meld K K K K K K")  # 60 opens without it
    play(state, "meld JK JK JK")  # once open, the wild meld may start
    assert table(state, 0) == [("K", 6, 0, 0), ("wild", 0, 0, 3)]


@pytest.mark.parametrize(("books", "missing"), [
    pytest.param(T_BOOKS[:4], "1 dirty book", id="2-clean-2-dirty"),
    pytest.param([*T_BOOKS[:4], "9 9 9 9 9 9 9"], "1 dirty book", id="3-clean-2-dirty"),
    pytest.param([T_BOOKS[0], *T_BOOKS[2:]], "1 clean book", id="1-clean-3-dirty"),
    pytest.param([*T_BOOKS[:4], "JK JK JK 2 2 2 2"], "1 dirty book", id="wild-not-dirty"),
])
def test_teams_two_clean_and_three_dirty_books_to_go_out(books: list[str],
                                                         missing: str) -> None:
    """001:138, 001:199; A-02: counted separately, no substitution."""
    state = pos(T, melds={0: books}, in_foot=[0, 2], foot_turn_done=[2],
                hands={0: "K K"}, stock_top="K K")
    play(state, "draw")
    must_fail(state, "goout K K K K", "2 clean books and 3 dirty books", "lack " + missing)
    state = pos(T, melds={0: T_BOOKS}, in_foot=[0, 2], foot_turn_done=[2],
                hands={0: "K K"}, stock_top="K K")
    play(state, "draw", "goout K K K K", "yes")
    assert only_result(state).went_out == 0


def test_teams_partner_must_finish_a_turn_holding_the_foot() -> None:
    """001:198 "All teammates must have played at least one turn with their Foot" (A-44:
    finished a turn holding it). Played: the partner in the Foot draws and discards."""
    state = pos(T, melds={0: T_BOOKS}, in_foot=[0, 2],
                hands={0: "K K", 2: "4 5 6 8"}, stock_top="K K  9C 9D  JC JD  QC QD  K K")
    play(state, "draw")
    must_fail(state, "goout K K K K", "partner", "finished a turn with their Foot")
    play(state, "discard K")  # seat 0 keeps three kings
    pass_turn(state)  # seat 1
    assert state.seat == 2 and not state.foot_turn_done[2]
    play(state, "draw", "discard 4")  # seat 2 finishes a turn holding its Foot
    assert state.foot_turn_done[2]
    pass_turn(state)  # seat 3
    play(state, "draw", "goout K K K K K")
    assert state.phase == Phase.ANSWER and state.actor == 2
    play(state, "yes")
    result = only_result(state)
    assert result.went_out == 0
    assert lines(result.scores[0])["going_out"] == (1, 100)


def test_teams_partner_who_only_picked_up_the_foot_is_not_enough() -> None:
    """A-44: having played from the Foot (picked up mid-turn, say) is not enough: the
    partner must have finished a turn holding it."""
    state = pos(T, melds={0: T_BOOKS}, in_foot=[0, 2], foot_played=[2],
                hands={0: "K K"}, stock_top="K K")
    play(state, "draw")
    must_fail(state, "goout K K K K", "seat 3", "finished a turn")


@pytest.mark.parametrize("layout", [pytest.param(Layout(2, 3), id="2x3"),
                                    pytest.param(Layout(2, 4), id="2x4")])
def test_teams_permission_asked_of_every_teammate(layout: Layout) -> None:
    """001:200 "permission ... from their teammate(s)"; A-45: all must agree."""
    partners = [s for s in layout.seats_of(0) if s]
    state = pos(T, layout, melds={0: T_BOOKS}, in_foot=[0, *partners],
                foot_turn_done=partners, hands={0: "K K"}, stock_top="K K")
    play(state, "draw", "goout K K K K")
    asked = []
    while state.phase == Phase.ANSWER:
        assert state.seat == 0
        asked.append(state.actor)
        play(state, "yes")
    assert asked == partners
    result = only_result(state)
    assert result.went_out == 0
    assert lines(result.scores[0])["going_out"] == (1, 100)


@pytest.mark.parametrize("layout", [pytest.param(Layout(2, 3), id="2x3"),
                                    pytest.param(Layout(2, 4), id="2x4")])
def test_teams_one_no_refuses_and_everyone_is_asked_again(layout: Layout) -> None:
    """A-45: one "no" refuses; the player may not ask again that turn, and on a later turn
    every teammate is asked again (the earlier yeses do not count)."""
    players = layout.players
    partners = [s for s in layout.seats_of(0) if s]
    state = pos(T, layout, melds={0: T_BOOKS}, in_foot=[0, *partners],
                foot_turn_done=partners, hands={0: "K K"},
                stock_top="K K " + "4 4 " * (players - 1) + "K K")
    play(state, "draw", "goout K K K K")
    for seat in partners[:-1]:
        assert state.actor == seat
        play(state, "yes")
    assert state.actor == partners[-1]
    play(state, "no")  # the last teammate says no
    assert state.phase == Phase.PLAY and state.seat == state.actor == 0
    assert not state.results and not state.permission[0]
    must_fail(state, "goout K K K K", "said no")
    play(state, "discard K")  # keeps three kings
    for _ in range(players - 1):
        pass_turn(state)
    assert state.seat == 0
    play(state, "draw", "goout K K K K K")
    asked = []
    while state.phase == Phase.ANSWER:
        asked.append(state.actor)
        play(state, "yes")
    assert asked == partners
    assert only_result(state).went_out == 0


def test_teams_permission_once_granted_lasts_the_round() -> None:
    """001:200 "This only needs to occur once, and the player can go out on their next
    turn without asking." (A-45). A "yes" in the engine always ends the round at once
    (A-43: asking carries the whole going-out), so the granted permission is set on the
    position; the player then goes out without asking."""
    state = pos(T, melds={0: T_BOOKS}, in_foot=[0, 2], foot_turn_done=[2],
                hands={0: "K K"}, stock_top="K K")
    state.permission[0] = True
    play(state, "draw", "goout K K K K")
    assert state.phase != Phase.ANSWER
    assert only_result(state).went_out == 0


def test_teams_final_card_must_be_melded_and_one_card_kept() -> None:
    """001:188 "you must play your final card and cannot discard it. You must always have
    at least one card in your hand." (X5, X6, A-16)."""
    state = pos(T, melds={0: T_BOOKS}, in_foot=[0, 2], foot_turn_done=[2],
                hands={0: "K K"}, stock_top="K 9")
    play(state, "draw")
    must_fail(state, "goout K K K discard 9", "melding your last card")
    must_fail(state, "meld K K K", "keep at least 2 cards")
    state = pos(T, melds={0: T_BOOKS}, in_foot=[0, 2], foot_turn_done=[2],
                hands={0: "9"}, phase=Phase.PLAY)
    must_fail(state, "discard 9", "keep at least 1 card", "melding your last card")
    state = pos(T, melds={0: T_BOOKS}, in_foot=[0, 2], foot_turn_done=[2],
                hands={0: "K K 9 4"}, stock_top="K 9")
    play(state, "draw", "meld K K K", "discard 4")  # keeps 9 9
    assert state.held_n[0] == 2 and state.seat == 1


def test_teams_discarding_the_last_hand_card_enters_the_foot_next_turn() -> None:
    """A-16: the at-least-one-card rule does not stop emptying the Hand by a discard."""
    state = pos(T, hands={0: "K K"}, feet={0: "Q Q Q 4 5 6 7 8 9 T J"}, melds={0: TEAM_OPEN},
                stock_top="K 5")
    play(state, "draw", "meld K K K", "discard 5")
    assert state.held_n[0] == 0 and not state.foot_picked[0]
    for _ in range(3):
        pass_turn(state)
    assert state.seat == 0 and state.foot_picked[0] and state.held_n[0] == 11


# --- hand-knee-foot: the Knee ------------------------------------------------------------

KNEE0 = "3H Q Q Q 4 5 6 8 8 8 J J J"
KNEE2 = "9 9 9 T T T 4 4 6 6 A A A"


def test_knee_picked_up_after_the_sides_first_book() -> None:
    """001:309-310: the completer picks up their Knee and continues the turn; the partner
    picks theirs up on their next turn (A-30: an explicit action, ``knee`` / KNEE)."""
    state = pos(H, hands={0: "K K K K K K 9 9", 2: "4 4 5 5"}, knees={0: KNEE0, 2: KNEE2},
                stock_top="K 4  6C 6D  7C 7D  Q 4")
    play(state, "draw")
    must_fail(state, "knee", "only once your side has completed a book")
    assert mv.KNEE not in state.legal_actions()
    play(state, "meld K K K K K K K")  # 70 ≥ 60: opens and completes the first book
    assert state.knee_open(0) and mv.KNEE in state.legal_actions()
    stock = len(state.stock)
    play(state, "knee")  # continues the turn with the Knee in hand
    assert state.knees[0] == [] and state.seat == 0 and state.phase == Phase.PLAY
    assert [cards.face_name(f) for f in state.red_threes[0]] == ["3H"]  # laid, replaced
    assert len(state.stock) == stock - 1
    assert kinds_held(state, 0) == {"4": 2, "5": 1, "6": 2, "8": 3, "9": 2, "J": 3, "Q": 3}
    must_fail(state, "knee", "already picked up your Knee")
    play(state, "meld Q Q Q | J J J", "discard 5")
    # the opponents have no book: their Knee stays down
    assert state.seat == 1
    must_fail(state, "knee", "only once your side has completed a book")
    pass_turn(state)
    # the partner picks up their Knee on their next turn, before drawing (action layer)
    assert state.seat == 2 and state.phase == Phase.DRAW
    assert mv.KNEE in state.legal_actions()
    state.apply_action(mv.KNEE)
    assert state.knees[2] == [] and state.held_n[2] == 4 + 13
    play(state, "draw", "meld 9 9 9", "discard 4")
    assert state.seat == 3


def test_knee_waits_when_the_hand_runs_out_first() -> None:
    """A-30.4 / 001:312: a Hand emptied before the trigger goes into the Foot; the Knee
    is added once the side completes a book; going out needs all three packets."""
    state = pos(H, hands={0: "Q Q Q Q"}, knees={0: "A A A 4 5 6 8 9 T J 4 5 6"},
                feet={0: "Q K K K K K 9 9 9 4 4"}, melds={0: ["7 7 7 7"]},
                stock_top="Q Q")
    play(state, "draw", "meld Q Q Q Q Q Q")  # six queens: not a book; the Hand is empty
    assert state.foot_picked[0] and len(state.knees[0]) == 13
    assert state.seat == 0 and state.phase == Phase.PLAY
    must_fail(state, "knee", "completed a book")
    must_fail(state, "goout Q | K K K K K | 9 9 9", "Knee")
    assert not state.in_last_packet(0)
    play(state, "meld Q")  # the seventh queen: the side's first book
    assert state.knee_open(0)
    play(state, "knee")
    assert state.knees[0] == [] and state.in_last_packet(0)
    assert kinds_held(state, 0) == {"4": 4, "5": 2, "6": 2, "8": 1, "9": 4, "10": 1, "J": 1,
                                    "K": 5, "A": 3}
    play(state, "meld K K K K K | A A A", "discard 8")
    assert state.seat == 1


def test_knee_comes_before_the_foot_for_the_completer() -> None:
    state = pos(H, hands={0: "K"}, melds={0: ["K K K K"]}, knees={0: KNEE2},
                feet={0: "Q Q Q J J J T T T 5 5"}, stock_top="K K")
    play(state, "draw", "meld K K K")  # the first book, and the Hand is empty
    # the emptied Hand takes the Knee, now open, and the Foot stays down
    assert not state.foot_picked[0] and len(state.feet[0]) == 11
    assert state.held_n[0] == 13 and state.knees[0] == []


def test_going_out_needs_the_knee_picked_up() -> None:
    state = pos(H, melds={0: H_BOOKS}, in_foot=[0, 2], knee_picked=[2], foot_turn_done=[2],
                knees={0: "K K K 4 4 4 6 6 6 8 8 8 A"}, hands={0: "J J"}, stock_top="J J")
    play(state, "draw")
    must_fail(state, "goout J J J J", "picked up your Knee")
    play(state, "knee")
    assert state.in_last_packet(0) and state.held_n[0] == 17


def test_unpicked_knee_counts_against_the_side() -> None:
    """A-30.5 and convention 4: an unpicked Knee's cards are subtracted at round end; its
    black 3 costs 500 and its red 3 100."""
    state = pos(H, in_foot=[1, 3], knee_picked=[3], hands={1: "4", 3: "5"},
                knees={1: "3C 3H K A 6"}, stock_size=1, pile="8D")
    play(state, "draw")
    result = only_result(state)
    assert result.reason == "stock exhausted"
    got = lines(result.scores[1])
    assert got["cards_left"] == (5, -(5 + 5 + 10 + 20 + 5))
    assert got["black_threes_caught"] == (1, -500)
    assert got["red_threes_caught"] == (1, -100)


def test_hkf_three_players_individually() -> None:
    """001:291 three players individually: the Knee opens on the player's own first book
    and going out needs no permission."""
    state = pos(H, Layout(3, 1), melds={0: H_BOOKS}, in_foot=[0], knee_picked=[0],
                hands={0: "K K"}, stock_top="K K")
    play(state, "draw", "goout K K K K")
    result = only_result(state)
    assert result.went_out == 0
    assert lines(result.scores[0])["going_out"] == (1, 200)
    state = pos(H, Layout(3, 1), melds={1: ["Q Q Q Q Q Q Q"]}, hands={0: "4 4 9"})
    assert not state.knee_open(0) and state.knee_open(1)
    must_fail(state, "knee", "completed a book")


def test_hkf_partner_must_have_picked_up_the_knee() -> None:
    state = pos(H, melds={0: H_BOOKS}, in_foot=[0, 2], knee_picked=[0], foot_turn_done=[2],
                knees={2: "4 4 4 5 5 5 6 6 6 8 8 8 9"}, hands={0: "K K"}, stock_top="K K")
    play(state, "draw")
    must_fail(state, "goout K K K K", "Knee")


# --- hand-knee-foot: the whole pile, wild tops, knocking ---------------------------------


def test_hkf_whole_pile_counts_toward_the_opening() -> None:
    """001:301 (A-31/PK7): "the additional cards from the discard pile can be used toward
    the initial meld requirements". The aces come from the pile; under teams the same
    pickup is refused."""
    pile = "AC 4C AD 5C AH QD"
    state = pos(H, hands={0: "QS QH 9C"}, pile=pile)
    play(state, "pickup Q Q | A A A")
    assert state.opened[0] and melded(state) == 90
    assert table(state, 0) == [("Q", 3, 0, 0), ("A", 3, 0, 0)]
    assert state.pile == []  # the entire pile (001:300)
    assert held(state, 0) == names("9C 4C 5C")
    must_fail(state, "discard 9", "knock")  # 001:304
    play(state, "knock")
    assert state.seat == 1 and state.phase == Phase.DRAW
    must_fail(state, "pickup 9 9", "pile is empty")  # the next player draws
    state = pos(T, hands={0: "QS QH 9C"}, pile=pile)
    must_fail(state, "pickup Q Q | A A A", "aces")


def test_000_example_under_hkf() -> None:
    """§4.2: K K 2 + top K = 50 < 60, but a K in the pile may join the opening."""
    state = pos(H, hands={0: "KS KD 2C 9C"}, pile="4C KH 5C KC")
    must_fail(state, "pickup K K 2", "opening", "50", "60")
    play(state, "pickup K K K 2")
    assert state.opened[0] and melded(state) == 60
    assert table(state, 0) == [("K", 4, 1, 0)]
    assert held(state, 0) == names("9C 4C 5C")
    play(state, "knock")


def test_004_example_under_hkf() -> None:
    state = pos(H, hands={0: "KS KD AC AD AH 9C"}, pile="4C 4D 5C JK 6C 7C 8C KC")
    play(state, "pickup K K | A A A")
    assert state.opened[0] and melded(state) == 90
    assert held(state, 0) == names("9C 4C 4D 5C JK 6C 7C 8C")  # the whole pile
    play(state, "knock")
    state = pos(H, hands={0: "KS KD AC AD AH 9C"}, melds={0: ["K K K"]},
                pile="4C 4D 5C JK 6C 7C 8C KC")
    must_fail(state, "pickup K K | A A A", "already has kings")


@pytest.mark.parametrize(("top", "hand", "move", "legal"), [
    pytest.param("JK", "JK JK 9", "pickup JK JK", True, id="A-joker-joker"),
    pytest.param("JK", "2 JK 9", "pickup 2 JK", False, id="B-two-joker"),
    pytest.param("2D", "2 2 9", "pickup 2 2", True, id="two-two"),
    pytest.param("2D", "2 JK 9", "pickup 2 JK", False, id="two-joker-for-a-two"),
])
def test_we_hkf_05_two_like_wilds_take_a_wild_top(top: str, hand: str, move: str,
                                                  legal: bool) -> None:
    """001:303 "If a Wild card is the top card, the discard pile can only be picked-up if
    the player has two like Wild cards to play."""
    state = pos(H, hands={0: hand}, melds={0: ["Q Q Q"]}, pile="5C 6C " + top)
    if not legal:
        must_fail(state, move, "two " + ("jokers" if top == "JK" else "2s"))
        return
    play(state, move)
    kind = "jokers" if top == "JK" else "2s"
    assert table(state, 0)[-1] == (("wild", 0, 0, 3) if kind == "jokers"
                                   else ("wild", 0, 3, 0))
    assert state.pile == [] and kinds_held(state, 0) == {"5": 1, "6": 1, "9": 1}
    play(state, "knock")


def test_hkf_black_3_blocks_only_on_top() -> None:
    """001:302; A-32: only a black 3 on top blocks; one buried in the pile is taken."""
    state = pos(H, hands={0: "K K 9"}, melds={0: ["Q Q Q"]}, pile="3C 5C KD")
    play(state, "pickup K K")
    assert kinds_held(state, 0) == {"5": 1, "9": 1, "black 3": 1}
    state = pos(H, hands={0: "K K 9"}, melds={0: ["Q Q Q"]}, pile="5C KD 3C")
    must_fail(state, "pickup K K", "black 3")


def test_hkf_knock_after_pickup_then_draw_next_turn() -> None:
    """001:304: a turn begun with a pickup ends with a knock; a turn begun with a draw
    ends with a discard."""
    state = pos(H, hands={0: "K K 9 9"}, melds={0: ["Q Q Q"]}, pile="5C KD",
                stock_top="4C 4D 6C 6D 7C 7D 8C 8D")
    play(state, "pickup K K")
    must_fail(state, "discard 9", "knock")
    play(state, "knock")
    assert state.seat == 1 and state.pile == []
    for _ in range(3):
        pass_turn(state)
    assert state.seat == 0 and state.phase == Phase.DRAW
    must_fail(state, "knock", "draw")
    play(state, "draw")
    must_fail(state, "knock", "discard", "not a knock")
    play(state, "discard 9")
    assert state.seat == 1


def test_hkf_pickup_pair_must_come_from_the_hand() -> None:
    state = pos(H, hands={0: "9 9 Q"}, melds={0: ["J J J"]}, pile="5C KC KD 6C KH")
    must_fail(state, "pickup K K", "natural pair")


def test_hkf_like_wilds_must_come_from_the_hand() -> None:
    state = pos(H, hands={0: "JK 2 Q"}, melds={0: ["J J J"]}, pile="5C JK 6C JK")
    must_fail(state, "pickup JK JK", "two jokers")


# --- hand-knee-foot: special books, going out (WE-HKF-06) -------------------------------


@pytest.mark.parametrize(("dropped", "missing"), [
    pytest.param(None, None, id="all-five"),
    pytest.param(0, "a clean book of 5s", id="no-clean-5s"),
    pytest.param(1, "a clean book of 7s", id="no-clean-7s"),
    pytest.param(2, "1 all-wild book", id="no-wild-book"),
    pytest.param(3, "1 clean book", id="no-other-clean"),
    pytest.param(4, "1 dirty book", id="no-dirty"),
])
def test_we_hkf_06_books_to_go_out(dropped: int | None, missing: str | None) -> None:
    books = [b for i, b in enumerate(H_BOOKS) if i != dropped]
    state = pos(H, melds={0: books}, in_foot=[0, 2], knee_picked=[0, 2], foot_turn_done=[2],
                hands={0: "K K", 2: "4"}, stock_top="K K")
    play(state, "draw")
    if missing is not None:
        must_fail(state, "goout K K K K", "lack " + missing)
        return
    play(state, "goout K K K K")
    assert state.phase == Phase.ANSWER
    play(state, "yes")
    result = only_result(state)
    got = lines(result.scores[0])
    assert result.went_out == 0
    assert got["going_out"] == (1, 200)
    assert got["special_books"] == (2, 8000)
    assert got["clean_books"] == (1, 500)


def test_hkf_seven_red_threes_score_300_each() -> None:
    """001:332 "7+ red 3s 300" (A-27): 6 laid → 600; the 7th drawn → 7 × 300 = 2,100."""
    state = pos(H, red_threes={0: 6}, hands={0: "9 9"}, stock_top="3H 4C 4D")
    assert lines(state.score_side(0))["red_threes"] == (6, 600)
    play(state, "draw")
    assert lines(state.score_side(0))["red_threes"] == (7, 2100)
    play(state, "discard 4")


# --- bicycle ------------------------------------------------------------------------------


def test_bicycle_dirty_meld_needs_four_naturals_at_every_size() -> None:
    """A-05: a meld with a wild needs 4 naturals whenever it holds the wild."""
    state = pos(B, hands={0: "K K K K 2 2 2 9"}, melds={0: ["Q Q Q"]}, phase=Phase.PLAY)
    must_fail(state, "meld Q: 2", "at least 4 natural")
    must_fail(state, "meld K K K 2", "at least 4 natural")
    play(state, "meld K K K K")
    play(state, "meld K: 2")  # 4 naturals, 1 wild
    play(state, "meld K: 2 2")  # 4 naturals, 3 wilds: a 7-card dirty book
    assert table(state, 0)[-1] == ("K", 4, 3, 0)
    assert lines(state.score_side(0))["dirty_books"] == (1, 300)


def test_bicycle_going_out_ends_with_a_discard_no_permission_no_bonus() -> None:
    """004:56 "The last one has to be a discard"; no permission, no partner condition
    (A-41); no going-out bonus (A-38)."""
    state = pos(B, melds={0: B_BOOKS}, in_foot=[0], hands={0: "K K"}, stock_top="K 9")
    assert not state.foot_picked[2]  # the partner has not even picked up their Foot
    play(state, "draw")
    must_fail(state, "goout K K K", "discard")
    play(state, "goout K K K discard 9")
    result = only_result(state)
    assert (result.reason, result.went_out) == ("went out", 0)
    got = lines(result.scores[0])
    assert got["going_out"] == (1, 0)
    assert got["clean_books"] == (1, 500) and got["dirty_books"] == (1, 300)


def test_bicycle_discarding_the_last_card_goes_out() -> None:
    state = pos(B, melds={0: B_BOOKS}, in_foot=[0], hands={0: "9"}, phase=Phase.PLAY)
    play(state, "discard 9")
    result = only_result(state)
    assert result.went_out == 0 and state.results[0].reason == "went out"
    assert lines(result.scores[0])["going_out"] == (1, 0)
    # not qualified: one card must be kept after the discard
    state = pos(B, melds={0: B_BOOKS[:1]}, in_foot=[0], hands={0: "K K"}, stock_top="K 9")
    play(state, "draw")
    must_fail(state, "meld K K K", "keep at least 2 cards")
    must_fail(state, "goout K K K discard 9", "lack 1 dirty book")


def test_we_004_08_bicycle_pickup_with_the_joker_underneath() -> None:
    """004:54: top K, hand K K, a joker among the 6 cards underneath: K K K = 30 < 50 and
    the joker does not count; three aces from the hand open (90); the 6 go to the hand."""
    state = pos(B, hands={0: "KS KD AC AD AH 9C"}, pile="4C 4D 5C JK 6C 7C 8C KC")
    assert state.pickup_size() == 7
    must_fail(state, "pickup K K", "opening", "30", "50")
    must_fail(state, "pickup K K JK", "jokers")
    play(state, "pickup K K | A A A")
    assert state.opened[0] and melded(state) == 90
    assert table(state, 0) == [("K", 3, 0, 0), ("A", 3, 0, 0)]
    assert held(state, 0) == names("9C 4D 5C JK 6C 7C 8C")
    assert state.pile == faces("4C")
    play(state, "discard 9")  # a normal discard (PK8)
    assert state.seat == 1


def test_a39_bicycle_pickup_details() -> None:
    """A-39: a pile under 7 cards is taken whole; a wild or black 3 on top cannot be taken;
    a pickup onto the team's unfinished meld merges into it (A-34)."""
    state = pos(B, hands={0: "K K 9"}, melds={0: ["Q Q Q Q Q"]}, pile="4C 5C 6C KD")
    assert state.pickup_size() == 4
    play(state, "pickup K K")
    assert state.pile == [] and kinds_held(state, 0) == {"4": 1, "5": 1, "6": 1, "9": 1}
    for top, reason in (("2D", "wild card on top"), ("JK", "wild card on top"),
                        ("3S", "black 3")):
        state = pos(B, hands={0: "2 2 JK JK K K 9"}, melds={0: ["Q Q Q Q Q"]},
                    pile="4C 5C " + top)
        must_fail(state, "pickup 2 2" if top == "2D" else "pickup JK JK" if top == "JK"
                  else "pickup K K", reason)
    state = pos(B, hands={0: "K K 9"}, melds={0: ["K K K K"]},
                pile="5C 6C 7C 8C 9D TD JD QD KD")
    play(state, "pickup K K")
    assert table(state, 0) == [("K", 7, 0, 0)]  # merged into a clean book
    assert state.pile == faces("5C 6C")
    # books close at 7: a new meld of the rank may start, with 4 naturals for a wild
    state = pos(B, hands={0: "K K K 2 9 9"}, melds={0: ["K K K K K K K"]}, phase=Phase.PLAY)
    must_fail(state, "meld K", "at least 3")
    must_fail(state, "meld K K K 2", "at least 4 natural")
    play(state, "meld K K K")
    assert table(state, 0) == [("K", 7, 0, 0), ("K", 3, 0, 0)]


def test_000_example_under_bicycle() -> None:
    """§4.2: K K K 2 is illegal (A-05) and K K K alone is 30 < 50."""
    state = pos(B, hands={0: "KS KD 2C 9C"}, pile="5C 6C KH")
    must_fail(state, "pickup K K 2", "at least 4 natural")
    must_fail(state, "pickup K K", "opening", "30", "50")
    state = pos(B, hands={0: "KS KD KC 2C 9C"}, pile="5C 6C KH")
    play(state, "pickup K K K 2")  # four natural kings and a wild: 60 ≥ 50
    assert table(state, 0) == [("K", 4, 1, 0)] and melded(state) == 60


# --- §4.2 red 3 scoring; a round ending with an unplayed Foot ----------------------------


@pytest.mark.parametrize(("profile", "each"), [(S, 100), (T, 100), (B, 5)])
def test_red_threes_laid(profile: str, each: int) -> None:
    """R2: +100 each (001:52); bicycle 2 red 3s = +10 (A-38)."""
    state = pos(profile, red_threes={0: 1}, hands={0: "9 9"}, stock_top="3H 4C 4D")
    play(state, "draw")
    assert lines(state.score_side(0))["red_threes"] == (2, 2 * each)


PENALTIES = {S: (100, 100), T: (100, 100), H: (500, 100), B: (5, 5)}  # black 3, red 3


@pytest.mark.parametrize("profile", PROFILES)
def test_unplayed_foot_with_a_black_3(profile: str) -> None:
    """§4.2: the Foot's cards are subtracted at card value; its black 3 costs
    −100 / −100 / −500 / −5 and its red 3 −100 / −100 / −100 / −5 (A-06, A-28, A-38)."""
    black3, red3 = PENALTIES[profile]
    layout = load_profile(profile).layout
    side1 = layout.seats_of(1)
    hands = {s: "4C" for s in side1}
    feet = {side1[0]: "3C 3H 9C KC"}
    in_foot = list(side1[1:])
    state = pos(profile, hands=hands, feet=feet, in_foot=in_foot, knee_picked=side1,
                stock_size=1, pile="8D")
    play(state, "draw")
    result = only_result(state)
    assert result.reason == "stock exhausted"
    got = lines(result.scores[1])
    assert got["cards_left"] == (2 + len(side1), -(20 + 5 * len(side1)))
    assert got["black_threes_caught"] == (1, -black3)
    assert got["red_threes_caught"] == (1, -red3)
    assert got["going_out"] == (0, 0)
