"""Illegal moves under ``partnership-13`` and ``biegames`` (both seatings).

Every case sets up a position (tests/positions.py), plays any legal moves that lead to the
situation, then tries one illegal move. Each case checks that (a) the engine raises
:class:`IllegalMoveError`, (b) the reason names the rule in a player's words (key words are
asserted), and (c) the state is exactly as it was (:func:`positions.snapshot`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from handfoot.game import cards
from handfoot.game.engine import GameState
from handfoot.game.moves import (
    Answer,
    ClearStaged,
    Confirm,
    Knock,
    Meld,
    MeldGroup,
    Move,
    MoveSyntaxError,
    Pickup,
    Stage,
    Undo,
    parse_move,
)
from handfoot.game.rules import Layout
from handfoot.game.values import IllegalMoveError, Phase
from positions import must_fail, play, position, snapshot

P13 = "partnership-13"
BG = "biegames"
TWO_BY_TWO = Layout(2, 2)
TWO_BY_ONE = Layout(2, 1)
SEATINGS = [(P13, TWO_BY_TWO, "p13"), (BG, TWO_BY_TWO, "bg-2x2"), (BG, TWO_BY_ONE, "bg-2x1")]
PARTNERSHIPS = [(P13, TWO_BY_TWO, "p13"), (BG, TWO_BY_TWO, "bg-2x2")]

BG_BOOKS = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2"]
P13_BOOKS = [*BG_BOOKS, "JK JK 2 2 2 2 2"]
BOOKS = {P13: P13_BOOKS, BG: BG_BOOKS}
PILE_K = "4C 5C 6C 7C 8C 9D KD"  # a pile whose top is a king


# --- building positions -----------------------------------------------------------------


def pos(profile: str, layout: Layout = TWO_BY_TWO, **kw: object) -> GameState:
    """A position whose game can go on after the round ends (the game gets a seed so the
    engine can deal the next round)."""
    state = position(profile, layout=layout, **kw)  # type: ignore[arg-type]
    state.seed = 7
    return state


def drawn(profile: str, layout: Layout, **kw: object) -> GameState:
    """A position after the player to act has drawn (two 4s)."""
    return play(pos(profile, layout, stock_top="4C 4D", **kw), "draw")


def ready_to_go_out(profile: str, layout: Layout, hand: str = "K K K 9",
                    **kw: object) -> GameState:
    """Seat 0 in its Foot, the side's books made, the partner's Foot played from."""
    partner = [2] if layout.seats_per_side == 2 else []
    return pos(profile, layout, melds={0: BOOKS[profile]}, in_foot=[0, *partner],
               foot_played=partner, hands={0: hand}, phase=Phase.PLAY, **kw)


def asking(profile: str, layout: Layout) -> GameState:
    """Seat 0 has asked "May I go out?"; seat 2 must answer."""
    state = play(ready_to_go_out(profile, layout), "goout K K K discard 9")
    assert state.phase == Phase.ANSWER
    return state


def refused(profile: str, layout: Layout) -> GameState:
    """Seat 0 asked and the partner said no, this turn."""
    return play(asking(profile, layout), "no")


def game_over(profile: str, layout: Layout) -> GameState:
    state = play(pos(profile, layout, round_number=4, stock_size=1, pile="8D"), "draw")
    assert state.phase == Phase.GAME_OVER
    return state


# --- the cases ------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    build: Callable[[], GameState]
    move: str | Move
    words: tuple[str, ...]


def _common(profile: str, layout: Layout) -> dict[str, Case]:
    """Illegal moves with the same rule under every seating of both profiles."""
    P, L = profile, layout

    def at(**kw: object) -> Callable[[], GameState]:
        return lambda: pos(P, L, **kw)

    def after_draw(**kw: object) -> Callable[[], GameState]:
        return lambda: drawn(P, L, **kw)

    return {
        # turn structure
        "draw-twice": Case(after_draw(), "draw", ("already drawn",)),
        "pickup-after-draw": Case(after_draw(hands={0: "K K 9"}, pile=PILE_K), "pickup K K",
                                  ("already drawn",)),
        "meld-before-draw": Case(at(hands={0: "K K K 9"}, opened=[0]), "meld K K K",
                                 ("draw", "before")),
        "discard-before-draw": Case(at(hands={0: "K K K 9"}), "discard 9", ("draw", "before")),
        "confirm-before-draw": Case(at(), Confirm(), ("draw", "before")),
        "undo-before-draw": Case(at(), "undo", ("draw", "before")),
        # discards
        "discard-not-held": Case(after_draw(hands={0: "9 9"}), "discard Q", ("hold no", "Q")),
        "discard-red-3": Case(after_draw(hands={0: "9 9"}), "discard R3",
                              ("red 3", "never discarded")),
        "knock-instead-of-discard": Case(after_draw(), Knock(), ("discard", "not a knock")),
        # melds
        "meld-black-3-by-staging": Case(after_draw(hands={0: "3C 3S 3C 9"}),
                                        Stage(cards.BLACK_THREE, cards.BLACK_THREE, 0),
                                        ("threes", "never", "meld")),
        "meld-two-cards": Case(after_draw(hands={0: "K K 9"}, opened=[0]), "meld K K",
                               ("at least 3", "only 2")),
        "meld-cards-not-held": Case(after_draw(hands={0: "K K 9"}, opened=[0]), "meld Q Q Q",
                                    ("hold", "queens")),
        "meld-past-a-book-of-7": Case(after_draw(hands={0: "K K 9"}, melds={0: ["K" + " K" * 5]}),
                                      "meld K K", ("at most 7",)),
        "meld-8-card-book": Case(after_draw(hands={0: "8 8 8 8 8 8 8 8 9"}, opened=[0]),
                                 "meld 8 8 8 8 8 8 8 8", ("at most 7",)),
        "second-meld-of-a-rank-while-one-is-unfinished": Case(
            after_draw(hands={0: "K K K K K 9"}, melds={0: ["K K K K"]}), "meld K K | K K K",
            ("at most 7", "kings")),
        "opening-book-bonus-does-not-count": Case(
            after_draw(hands={0: "4 4 4 4 4 4 4 9"}), "meld 4 4 4 4 4 4 4",
            ("opening", "35", "50")),
        "stage-card-not-held": Case(after_draw(hands={0: "9 9"}), Stage(cards.KING, cards.KING),
                                    ("no K left to stage",)),
        "stage-natural-onto-another-rank": Case(after_draw(hands={0: "K K 9"}),
                                                Stage(cards.KING, cards.QUEEN),
                                                ("own rank",)),
        "confirm-nothing-staged": Case(after_draw(), Confirm(), ("no cards are staged",)),
        "clear-nothing-staged": Case(after_draw(), ClearStaged(), ("no cards are staged",)),
        # the pile
        "pickup-black-3-on-top": Case(at(hands={0: "K K 9"}, pile="4C 5C 3S"), "pickup K K",
                                      ("black 3", "on top")),
        "pickup-empty-pile": Case(at(hands={0: "K K 9"}), "pickup K K", ("pile is empty",)),
        "pickup-without-natural-pair": Case(at(hands={0: "K 2 9"}, opened=[0], pile=PILE_K),
                                            "pickup K 2", ("natural pair", "kings")),
        "pickup-top-card-not-melded": Case(at(hands={0: "K K Q Q Q 9"}, opened=[0],
                                              pile=PILE_K),
                                           "pickup Q Q Q", ("top card", "melded at once")),
        "pickup-with-no-meld": Case(at(hands={0: "K K 9"}, opened=[0], pile=PILE_K), "pickup",
                                    ("top card", "melded at once")),
        "pickup-opening-with-buried-2": Case(at(hands={0: "K K 9 9"}, pile="4C 2C 5C KD"),
                                             "pickup K K", ("opening", "30", "round 1", "50")),
        "pickup-below-round-2-minimum": Case(
            at(round_number=2, hands={0: "K K 2 9"}, pile=PILE_K), "pickup K K 2",
            ("opening", "50", "round 2", "90")),
        # the Foot
        "discard-last-foot-card": Case(at(hands={0: "9"}, in_foot=[0], phase=Phase.PLAY),
                                       "discard 9", ("keep at least 1 card", "go out")),
        "meld-leaving-one-foot-card": Case(
            at(hands={0: "K K K 9"}, in_foot=[0], opened=[0], phase=Phase.PLAY), "meld K K K",
            ("keep at least 2 cards",)),
        "meld-every-foot-card-without-going-out": Case(
            at(hands={0: "K K K"}, in_foot=[0], opened=[0], phase=Phase.PLAY), "meld K K K",
            ("nothing to discard", "go out")),
        # going out
        "go-out-from-the-hand": Case(
            at(hands={0: "K K K 9"}, melds={0: BOOKS[P]}, phase=Phase.PLAY),
            "goout K K K discard 9", ("go out", "Foot")),
        "go-out-leaving-cards": Case(lambda: ready_to_go_out(P, L, "K K K 9 9"), "goout K K K",
                                     ("every card", "still hold 2")),
        "go-out-discard-leaving-two": Case(lambda: ready_to_go_out(P, L, "K K K 9 9"),
                                           "goout K K K discard 9", ("exactly that card",)),
        "go-out-discarding-a-card-not-held": Case(lambda: ready_to_go_out(P, L),
                                                  "goout K K K discard Q",
                                                  ("no Q to discard",)),
        "go-out-discarding-a-red-3": Case(lambda: ready_to_go_out(P, L), "goout K K K discard R3",
                                          ("red 3s are never discarded",)),
        "go-out-with-an-illegal-meld": Case(lambda: ready_to_go_out(P, L, "K K 9"),
                                            "goout K K discard 9", ("at least 3",)),
        # undo
        "undo-the-draw": Case(after_draw(), "undo", ("nothing to undo",)),
        "undo-a-pickup": Case(lambda: play(pos(P, L, hands={0: "K K 9"}, opened=[0],
                                               pile=PILE_K), "pickup K K"),
                              "undo", ("nothing to undo",)),
        "undo-after-entering-the-foot": Case(
            lambda: play(pos(P, L, hands={0: "K K K"}, opened=[0], stock_top="KC KD"),
                         "draw", "meld K K K K K"),
            "undo", ("nothing to undo",)),
        "undo-a-red-3-replacement": Case(
            lambda: play(pos(P, L, stock_top="3H 4C 4D"), "draw"), "undo", ("nothing to undo",)),
        # answering and the end of the game
        "answer-when-nobody-asks": Case(after_draw(), "yes", ("nobody is asking",)),
        "answer-no-when-nobody-asks": Case(at(), "no", ("nobody is asking",)),
        "draw-after-game-over": Case(lambda: game_over(P, L), "draw", ("game is over",)),
        "answer-after-game-over": Case(lambda: game_over(P, L), "yes", ("game is over",)),
    }


def _p13() -> dict[str, Case]:
    def at(**kw: object) -> Callable[[], GameState]:
        return lambda: pos(P13, **kw)

    def after_draw(**kw: object) -> Callable[[], GameState]:
        return lambda: drawn(P13, TWO_BY_TWO, **kw)

    return {
        "ratio-K-K-K-2-2": Case(after_draw(hands={0: "K K K 2 2 9"}, opened=[0]),
                                "meld K K K 2 2", ("wild", "2 × wilds")),
        "ratio-8-8-8-8-2-2-2": Case(after_draw(hands={0: "8 8 8 8 2 2 2 9"}, opened=[0]),
                                    "meld 8 8 8 8 2 2 2", ("wild", "2 × wilds")),
        "ratio-K-2-2": Case(after_draw(hands={0: "K 2 2 9"}, opened=[0]), "meld K 2 2",
                            ("wild", "2 × wilds")),
        "ratio-wilds-added-to-a-meld": Case(after_draw(hands={0: "2 2 9"}, melds={0: ["Q Q Q"]}),
                                            Meld((MeldGroup(cards.QUEEN, twos=2),)),
                                            ("wild", "2 × wilds")),
        "all-wild-meld-past-7": Case(after_draw(hands={0: "JK 2 2 9"},
                                                melds={0: ["JK JK JK JK JK"]}),
                                     "meld JK 2 2", ("all-wild", "7")),
        "pickup-2-on-top-without-two-2s": Case(at(hands={0: "2 JK 9"}, pile="4C 5C 2D"),
                                               "pickup 2 JK", ("two 2s", "all-wild")),
        "pickup-joker-on-top-with-2s": Case(at(hands={0: "2 2 9"}, pile="4C 5C JK"),
                                            "pickup 2 2", ("two jokers", "all-wild")),
        "pickup-A10-only-adding-to-the-unfinished-meld": Case(
            at(hands={0: "K K K K K 2 9"}, melds={0: ["K K K"]}, pile=PILE_K), "pickup K K",
            ("unfinished", "complete it to 7", "new meld")),
        "pickup-A10-completing-without-a-new-meld": Case(
            at(hands={0: "K K K K K 2 9"}, melds={0: ["K K K"]}, pile=PILE_K), "pickup K K K",
            ("unfinished", "complete it to 7", "new meld")),
        "pickup-A10-wild-top-onto-unfinished-all-wild-meld": Case(
            at(hands={0: "2 2 9"}, melds={0: ["JK JK JK"]}, pile="4C 5C 2D"), "pickup 2 2",
            ("unfinished", "complete it to 7", "new meld")),
        "go-out-without-the-all-wild-book": Case(
            lambda: pos(P13, melds={0: BG_BOOKS}, in_foot=[0, 2], foot_played=[2],
                        hands={0: "K K K 9"}, phase=Phase.PLAY),
            "goout K K K discard 9", ("needs", "1 all-wild book", "lack")),
        "go-out-partner-in-foot-not-played": Case(
            lambda: pos(P13, melds={0: P13_BOOKS}, in_foot=[0, 2], hands={0: "K K K 9"},
                        phase=Phase.PLAY),
            "goout K K K discard 9", ("partner", "played from their Foot")),
        "go-out-partner-not-in-foot": Case(
            lambda: pos(P13, melds={0: P13_BOOKS}, in_foot=[0], hands={0: "K K K 9"},
                        phase=Phase.PLAY),
            "goout K K K discard 9", ("partner", "played from their Foot")),
    }


def _bg(layout: Layout) -> dict[str, Case]:
    L = layout

    def at(**kw: object) -> Callable[[], GameState]:
        return lambda: pos(BG, L, **kw)

    def after_draw(**kw: object) -> Callable[[], GameState]:
        return lambda: drawn(BG, L, **kw)

    return {
        "ratio-K-2-2": Case(after_draw(hands={0: "K 2 2 9"}, opened=[0]), "meld K 2 2",
                            ("naturals must outnumber wilds",)),
        "ratio-K-2-JK": Case(after_draw(hands={0: "K 2 JK 9"}, opened=[0]), "meld K 2 JK",
                             ("naturals must outnumber wilds",)),
        "ratio-K-K-2-2": Case(after_draw(hands={0: "K K 2 2 9"}, opened=[0]), "meld K K 2 2",
                              ("naturals must outnumber wilds",)),
        "ratio-wilds-added-to-a-meld": Case(
            after_draw(hands={0: "2 2 2 9"}, melds={0: ["Q Q Q"]}),
            Meld((MeldGroup(cards.QUEEN, twos=3),)), ("naturals must outnumber wilds",)),
        "all-wild-meld": Case(after_draw(hands={0: "JK JK JK 9"}, opened=[0]), "meld JK JK JK",
                              ("only of wild cards", "not allowed")),
        "pickup-2-on-top": Case(at(hands={0: "2 2 9"}, pile="4C 5C 2D"), "pickup 2 2",
                                ("wild card on top",)),
        "pickup-joker-on-top": Case(at(hands={0: "JK JK 9"}, pile="4C 5C JK"), "pickup JK JK",
                                    ("wild card on top",)),
        "pickup-A34-merge-past-7": Case(
            at(hands={0: "K K K K 9"}, melds={0: ["K K K K K"]}, pile=PILE_K), "pickup K K",
            ("at most 7",)),
        "pickup-A34-surplus-not-a-meld": Case(
            at(hands={0: "K K K K 9"}, melds={0: ["K K K K K"]}, pile=PILE_K), "pickup K | K K",
            ("new meld", "at least 3")),
        "go-out-with-one-dirty-book": Case(
            lambda: pos(BG, L, melds={0: BG_BOOKS[:3]}, in_foot=[0, 2][:L.seats_per_side],
                        hands={0: "K K K 9"}, phase=Phase.PLAY),
            "goout K K K discard 9", ("2 clean books and 2 dirty books", "lack 1 dirty book")),
    }


def _bg_partnership() -> dict[str, Case]:
    return {
        "go-out-partner-foot-not-picked-up": Case(
            lambda: pos(BG, melds={0: BG_BOOKS}, in_foot=[0], hands={0: "K K K 9"},
                        phase=Phase.PLAY),
            "goout K K K discard 9", ("partner", "picked up their Foot")),
    }


def _permission(profile: str, layout: Layout) -> dict[str, Case]:
    """While the partner must answer "May I go out?", and after a "no"."""
    P, L = profile, layout

    def ask() -> GameState:
        return asking(P, L)

    wait = ("must first answer", "may go out")
    return {
        "discard-while-partner-must-answer": Case(ask, "discard 9", wait),
        "meld-while-partner-must-answer": Case(ask, "meld K K K", wait),
        "draw-while-partner-must-answer": Case(ask, "draw", wait),
        "undo-while-partner-must-answer": Case(ask, "undo", wait),
        "ask-again-while-partner-must-answer": Case(ask, "goout K K K discard 9", wait),
        "stage-while-partner-must-answer": Case(ask, Stage(cards.KING, cards.KING), wait),
        "ask-again-after-no-this-turn": Case(lambda: refused(P, L), "goout K K K discard 9",
                                             ("said no", "later turn")),
        "answer-again-after-no": Case(lambda: refused(P, L), "yes", ("nobody is asking",)),
        "discard-last-card-after-no": Case(
            lambda: play(ready_to_go_out(P, L, "9"), "goout discard 9", "no"), "discard 9",
            ("keep at least 1 card", "go out")),
    }


def _all_cases() -> list[object]:
    out: list[object] = []
    for profile, layout, tag in SEATINGS:
        out += [pytest.param(c, id=f"{tag}-{k}") for k, c in _common(profile, layout).items()]
    out += [pytest.param(c, id=f"p13-{k}") for k, c in _p13().items()]
    for layout, tag in ((TWO_BY_TWO, "bg-2x2"), (TWO_BY_ONE, "bg-2x1")):
        out += [pytest.param(c, id=f"{tag}-{k}") for k, c in _bg(layout).items()]
    out += [pytest.param(c, id=f"bg-2x2-{k}") for k, c in _bg_partnership().items()]
    for profile, layout, tag in PARTNERSHIPS:
        out += [pytest.param(c, id=f"{tag}-{k}")
                for k, c in _permission(profile, layout).items()]
    return out


CASES = _all_cases()


@pytest.mark.parametrize("case", CASES)
def test_illegal_move(case: Case) -> None:
    must_fail(case.build(), case.move, *case.words)


def test_there_are_at_least_35_distinct_illegal_moves() -> None:
    distinct = {*_common(P13, TWO_BY_TWO), *_p13(), *_bg(TWO_BY_TWO), *_bg_partnership(),
                *_permission(P13, TWO_BY_TWO)}
    assert len(distinct) >= 35


# --- opening below the minimum, rounds 1-4 --------------------------------------------

# Melds worth less than each round's minimum (50 / 90 / 120 / 150).
SHORT_OPENINGS = [(1, 50, "K K K K", 40), (2, 90, "A A A 2", 80),
                  (3, 120, "A A A A A", 100), (4, 150, "A A A A A | K K K K", 140)]


@pytest.mark.parametrize(("profile", "layout"),
                         [pytest.param(p, lay, id=tag) for p, lay, tag in SEATINGS])
@pytest.mark.parametrize(("round_number", "minimum", "meld", "value"), SHORT_OPENINGS,
                         ids=[f"round-{r[0]}" for r in SHORT_OPENINGS])
def test_opening_below_the_round_minimum(profile: str, layout: Layout, round_number: int,
                                         minimum: int, meld: str, value: int) -> None:
    state = drawn(profile, layout, round_number=round_number,
                  hands={0: "A A A A A K K K K 2 9"})
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as info:
        state.apply(parse_move("meld " + meld))
    message = str(info.value)
    assert "opening" in message
    assert str(minimum) in message and f"round {round_number}" in message
    assert str(value) in message
    assert snapshot(state) == before


# --- black 3s and wording -------------------------------------------------------------


@pytest.mark.parametrize(("profile", "layout"),
                         [pytest.param(p, lay, id=tag) for p, lay, tag in SEATINGS])
def test_meld_group_of_black_3s_is_refused(profile: str, layout: Layout) -> None:
    state = drawn(profile, layout, hands={0: "3C 3S 3C 9"}, opened=[0])
    before = snapshot(state)
    with pytest.raises(IllegalMoveError):
        state.apply(Meld((MeldGroup(cards.BLACK_THREE, 3),)))
    assert snapshot(state) == before


def test_meld_group_of_black_3s_reason_in_players_words() -> None:
    state = drawn(P13, TWO_BY_TWO, hands={0: "3C 3S 3C 9"}, opened=[0])
    with pytest.raises(IllegalMoveError) as info:
        state.apply(Meld((MeldGroup(cards.BLACK_THREE, 3),)))
    assert "threes" in str(info.value).lower() or "black 3" in str(info.value).lower()


def test_missing_two_is_named_as_a_two() -> None:
    state = drawn(P13, TWO_BY_TWO, hands={0: "K K JK 9"}, opened=[0])
    with pytest.raises(IllegalMoveError) as info:
        state.apply(parse_move("meld K K 2"))
    message = str(info.value)
    assert "2s" in message and "wild cards" not in message


# --- moves the notation itself refuses ------------------------------------------------


@pytest.mark.parametrize(("text", "words"), [
    pytest.param("meld K Q Q", ("mixes", "one rank"), id="mixed-ranks-in-a-group"),
    pytest.param("meld 3C 3S 3C", ("threes can never be melded",), id="black-3s"),
    pytest.param("meld 3H 3D 3H", ("threes can never be melded",), id="red-3s"),
    pytest.param("meld", ("needs cards",), id="meld-nothing"),
    pytest.param("discard K Q", ("exactly one card",), id="discard-two-cards"),
    pytest.param("goout K K K discard 9 8", ("exactly one card",), id="go-out-two-discards"),
    pytest.param("fold", ("unknown move",), id="unknown-verb"),
])
def test_notation_errors(text: str, words: tuple[str, ...]) -> None:
    with pytest.raises(MoveSyntaxError) as info:
        parse_move(text)
    for word in words:
        assert word in str(info.value)


# A few of the moves above, made with the dataclasses rather than the notation.
@pytest.mark.parametrize(("move", "words"), [
    pytest.param(Answer(False), ("nobody is asking",), id="answer-no"),
    pytest.param(Undo(), ("nothing to undo",), id="undo"),
    pytest.param(Pickup(()), ("already drawn",), id="pickup"),
])
def test_dataclass_moves_after_the_draw(move: Move, words: tuple[str, ...]) -> None:
    state = drawn(P13, TWO_BY_TWO)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as info:
        state.apply(move)
    for word in words:
        assert word in str(info.value)
    assert snapshot(state) == before
