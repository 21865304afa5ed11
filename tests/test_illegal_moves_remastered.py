"""Illegal moves specific to ``remastered-singles``, ``remastered-teams``,
``hand-knee-foot`` and ``bicycle``.

Every case sets up a position (tests/positions.py), plays any legal moves that lead to the
situation, then tries one illegal move. Each case checks that (a) the engine raises
:class:`IllegalMoveError`, (b) the reason names the rule in a player's words (key words are
asserted), (c) the state is exactly as it was (:func:`positions.snapshot`, which includes
the Knees), and (d) :meth:`GameState.check` gives the same reason and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import Move, PickUpKnee
from handfoot.game.rules import Layout
from handfoot.game.values import IllegalMoveError, Phase
from positions import must_fail, play, position, snapshot

S = "remastered-singles"
T = "remastered-teams"
H = "hand-knee-foot"
B = "bicycle"

S_BOOKS = ["4 4 4 4 4 4 4", "6 6 6 6 6 2 2"]
B_BOOKS = S_BOOKS
T_BOOKS = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2",
           "8 8 8 8 8 2 2"]
H_BOOKS = ["5 5 5 5 5 5 5", "7 7 7 7 7 7 7", "JK JK JK 2 2 2 2", "Q Q Q Q Q Q Q",
           "9 9 9 9 9 2 2"]
PILE_K = "9C 5C 6C 7C 8C KD"  # a pile whose top is a king
KNEE = "4 4 4 6 6 6 8 8 8 9 9 9 A"


# --- building positions -----------------------------------------------------------------


def pos(profile: str, layout: Layout | None = None, **kw: object) -> GameState:
    state = position(profile, layout=layout, **kw)  # type: ignore[arg-type]
    state.seed = 7
    return state


def drawn(profile: str, layout: Layout | None = None, **kw: object) -> GameState:
    """A position after the player to act has drawn (two 4s)."""
    return play(pos(profile, layout, stock_top="4C 4D", **kw), "draw")


def ready(profile: str, books: list[str], hand: str = "K K K", *,
          layout: Layout | None = None, **kw: object) -> GameState:
    """Seat 0 in its Foot (and past its Knee), the side's books on the table, every
    teammate having finished a turn with their Foot; seat 0 to play."""
    lay = layout or load_profile(profile).layout
    partners = [s for s in lay.seats_of(0) if s]
    opts: dict[str, object] = {"in_foot": [0, *partners], "foot_turn_done": partners,
                               "knee_picked": [0, *partners], "phase": Phase.PLAY, **kw}
    return pos(profile, lay, melds={0: books}, hands={0: hand}, **opts)


# --- the cases ------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    build: Callable[[], GameState]
    move: str | Move
    words: tuple[str, ...]


def _singles() -> dict[str, Case]:
    def at(**kw: object) -> Callable[[], GameState]:
        return lambda: pos(S, **kw)

    def after_draw(**kw: object) -> Callable[[], GameState]:
        return lambda: drawn(S, **kw)

    return {
        "pickup-completing-own-book": Case(
            at(hands={0: "9 9"}, melds={0: ["8 8 8 8 8 8"]}, pile="5C 8D"), "pickup",
            ("top card would complete your book of 8s",)),
        "pickup-wild-completing-own-book": Case(
            at(hands={0: "9 9"}, melds={0: ["8 8 8 8 8 2"]}, pile="5C 2D"), "pickup",
            ("would complete your book of 8s",)),
        "pickup-joker-completing-own-book": Case(
            at(hands={0: "9 9"}, melds={0: ["8 8 8 8 2 2"]}, pile="5C JK"), "pickup",
            ("would complete your book of 8s",)),
        "pickup-with-meld-groups": Case(at(hands={0: "K K 2 9"}, pile="5C KD"), "pickup K K 2",
                                        ("take the pile first",)),
        "pickup-after-the-draw": Case(after_draw(hands={0: "9 9"}, pile="5C KD"), "pickup",
                                      ("already drawn",)),
        "draw-after-the-pickup": Case(lambda: play(pos(S, hands={0: "9 9"}, pile="5C KD"),
                                                   "pickup"), "draw", ("already drawn",)),
        "wild-onto-a-book-past-7": Case(
            after_draw(hands={0: "2 9"}, melds={0: ["8 8 8 8 8 8 8"]}), "meld 8: 2",
            ("wild", "past 7")),
        "joker-onto-a-grown-book": Case(
            after_draw(hands={0: "JK 9"}, melds={0: ["8 8 8 8 8 8 8 8"]}), "meld 8: JK",
            ("wild", "past 7")),
        "natural-and-wild-onto-a-book": Case(
            after_draw(hands={0: "8 2 9"}, melds={0: ["8 8 8 8 8 8 8"]}), "meld 8 2",
            ("wild", "past 7")),
        "second-meld-beside-a-book": Case(
            after_draw(hands={0: "K K K 9"}, melds={0: ["K K K K K K K"]}), "meld new K K K",
            ("kings", "of a rank")),
        "all-wild-meld": Case(after_draw(hands={0: "JK JK JK 9"}, opened=[0]), "meld JK JK JK",
                              ("only of wild cards", "not allowed")),
        "seven-2s": Case(after_draw(hands={0: "2 2 2 2 2 2 2 9"}, opened=[0]),
                         "meld 2 2 2 2 2 2 2", ("only of wild cards",)),
        "ratio-K-2-2": Case(after_draw(hands={0: "K 2 2 9"}, opened=[0]), "meld K 2 2",
                            ("wild",)),
        "opening-below-60": Case(after_draw(hands={0: "K K K K K 9"}), "meld K K K K K",
                                 ("opening", "50", "round 1", "60")),
        "opening-with-a-book-bonus": Case(
            after_draw(hands={0: "4 4 4 4 4 4 4 9"}), "meld 4 4 4 4 4 4 4",
            ("opening", "35", "60")),
        "go-out-without-discarding": Case(
            lambda: play(ready(S, S_BOOKS, "K K", stock_top="K K", phase=Phase.DRAW), "draw"),
            "goout K K K K", ("discarding your last card",)),
        "go-out-discarding-two-left": Case(lambda: ready(S, S_BOOKS, "K K K 9 9"),
                                           "goout K K K discard 9", ("exactly that card",)),
        "go-out-without-the-dirty-book": Case(lambda: ready(S, S_BOOKS[:1], "K K K 9"),
                                              "goout K K K discard 9", ("lack 1 dirty book",)),
        "knock-after-a-draw": Case(after_draw(), "knock", ("discard", "not a knock")),
        "knock-after-a-pickup": Case(lambda: play(pos(S, hands={0: "9 9"}, pile="5C KD"),
                                                  "pickup"), "knock", ("not a knock",)),
        "knee-without-a-knee": Case(after_draw(), "knee", ("no Knee",)),
        "answer-without-a-question": Case(after_draw(), "yes", ("nobody is asking",)),
    }


def _teams() -> dict[str, Case]:
    def at(**kw: object) -> Callable[[], GameState]:
        return lambda: pos(T, **kw)

    def after_draw(**kw: object) -> Callable[[], GameState]:
        return lambda: drawn(T, **kw)

    opened = {0: ["K K K K K K"]}
    x23 = Layout(2, 3)

    def asking_2x3(answers: tuple[str, ...]) -> Callable[[], GameState]:
        def build() -> GameState:
            state = ready(T, T_BOOKS, "K K K K", layout=x23)
            play(state, "goout K K K K", *answers)
            return state
        return build

    return {
        "pickup-rank-on-the-table": Case(
            at(hands={0: "4 4 9"}, melds={0: [*opened[0], "4 4 4"]}, pile="5C 6C 4D"),
            "pickup 4 4", ("already has 4s on the table",)),
        "pickup-rank-booked": Case(
            at(hands={0: "4 4 9"}, melds={0: [*opened[0], "4 4 4 4 4 4 4"]}, pile="5C 6C 4D"),
            "pickup 4 4", ("already has 4s",)),
        "pickup-pair-of-2s-wild-top": Case(at(hands={0: "2 2 9"}, melds=opened, pile="5C 6C 2D"),
                                           "pickup 2 2", ("wild card on top",)),
        "pickup-pair-of-jokers-joker-top": Case(
            at(hands={0: "JK JK 9"}, melds=opened, pile="5C 6C JK"), "pickup JK JK",
            ("wild card on top",)),
        "pickup-natural-and-wild": Case(at(hands={0: "4 2 9"}, melds=opened, pile="5C 6C 4D"),
                                        "pickup 4 2", ("natural pair", "4s")),
        "pickup-black-3-on-top": Case(at(hands={0: "K K 9"}, melds=opened, pile="5C 6C 3S"),
                                      "pickup K K", ("black 3",)),
        "pickup-opening-below-60": Case(at(hands={0: "K K 2 9"}, pile=PILE_K), "pickup K K 2",
                                        ("opening", "50", "60")),
        "pickup-top-not-melded": Case(at(hands={0: "K K Q Q Q 9"}, melds={0: ["A A A"]},
                                         pile=PILE_K), "pickup Q Q Q",
                                      ("top card", "melded at once")),
        "third-wild-in-a-meld": Case(after_draw(hands={0: "2 9"}, melds={0: ["Q Q Q Q 2 2"]}),
                                     "meld Q: 2", ("at most 2 wild",)),
        "four-8s-three-2s": Case(after_draw(hands={0: "8 8 8 8 2 2 2 9"}, opened=[0]),
                                 "meld 8 8 8 8 2 2 2", ("at most 2 wild",)),
        "wild-meld-in-the-opening": Case(
            after_draw(hands={0: "K K K K K K JK JK JK 9"}), "meld K K K K K K | JK JK JK",
            ("all-wild", "opening")),
        "second-meld-beside-a-book": Case(
            after_draw(hands={0: "Q Q Q 9"}, melds={0: ["Q Q Q Q Q Q Q"]}), "meld new Q Q Q",
            ("queens", "of a rank")),
        "go-out-with-a-discard": Case(lambda: ready(T, T_BOOKS, "K K K 9"),
                                      "goout K K K discard 9", ("melding your last card",)),
        "go-out-before-teammate-finished-a-foot-turn": Case(
            lambda: ready(T, T_BOOKS, foot_turn_done=[], foot_played=[2]), "goout K K K",
            ("partner", "finished a turn with their Foot")),
        "go-out-teammate-not-in-foot": Case(
            lambda: ready(T, T_BOOKS, in_foot=[0], foot_turn_done=[]), "goout K K K",
            ("seat 3", "finished a turn")),
        "go-out-one-of-two-teammates-not-ready": Case(
            lambda: ready(T, T_BOOKS, layout=x23, foot_turn_done=[2]), "goout K K K",
            ("seat 5", "finished a turn")),
        "go-out-with-two-dirty-books": Case(lambda: ready(T, T_BOOKS[:4]), "goout K K K",
                                            ("2 clean books and 3 dirty books",
                                             "lack 1 dirty book")),
        "go-out-clean-book-for-a-dirty-one": Case(
            lambda: ready(T, [*T_BOOKS[:4], "9 9 9 9 9 9 9"]), "goout K K K",
            ("lack 1 dirty book",)),
        "discard-the-last-card": Case(lambda: ready(T, T_BOOKS, "9"), "discard 9",
                                      ("keep at least 1 card", "melding your last card")),
        "meld-leaving-one-card": Case(lambda: ready(T, T_BOOKS, "K K K 9"), "meld K K K",
                                      ("keep at least 2 cards",)),
        "knock-after-a-pickup": Case(
            lambda: play(pos(T, hands={0: "K K 9"}, melds={0: ["A A A"]}, pile=PILE_K),
                         "pickup K K"), "knock", ("not a knock",)),
        "draw-while-second-teammate-must-answer": Case(asking_2x3(("yes",)), "draw",
                                                       ("seat 5 must first answer",)),
        "ask-again-after-one-no": Case(asking_2x3(("yes", "no")), "goout K K K K",
                                       ("said no", "later turn")),
        "knee-without-a-knee": Case(after_draw(), "knee", ("no Knee",)),
    }


def _hkf() -> dict[str, Case]:
    def at(**kw: object) -> Callable[[], GameState]:
        return lambda: pos(H, **kw)

    def after_draw(**kw: object) -> Callable[[], GameState]:
        return lambda: drawn(H, **kw)

    opened = {0: ["Q Q Q"]}

    def picked(**kw: object) -> Callable[[], GameState]:
        return lambda: play(pos(H, hands={0: "K K 9 9"}, melds=opened, pile=PILE_K, **kw),
                            "pickup K K")

    return {
        "discard-after-a-pickup": Case(picked(), "discard 9", ("do not discard", "knock")),
        "go-out-discarding-after-a-pickup": Case(
            lambda: play(ready(H, H_BOOKS, "K K 9", phase=Phase.DRAW, pile="TC 6C 8C KD"),
                         "pickup K K"), "goout discard 9", ("may not discard",)),
        "wild-in-a-meld-of-5s": Case(after_draw(hands={0: "5 5 5 2 9"}, opened=[0]),
                                     "meld 5 5 5 2", ("5s may never hold wild",)),
        "joker-onto-the-7s": Case(after_draw(hands={0: "JK 9"}, melds={0: ["7 7 7 7"]}),
                                  "meld 7: JK", ("7s may never hold wild",)),
        "go-out-with-the-knee-unpicked": Case(
            lambda: ready(H, H_BOOKS, knee_picked=[2], knees={0: KNEE}), "goout K K K",
            ("picked up your Knee",)),
        "knee-before-any-book": Case(after_draw(hands={0: "K K K 9"}, melds={0: ["Q Q Q Q"]}),
                                     PickUpKnee(), ("only once your side has completed a book",)),
        "knee-when-only-the-opponents-have-a-book": Case(
            at(hands={0: "K K 9"}, melds={1: ["Q Q Q Q Q Q Q"]}), "knee",
            ("completed a book",)),
        "knee-twice": Case(
            lambda: play(pos(H, hands={0: "K K 9"}, melds={0: ["Q Q Q Q Q Q Q"]}), "knee"),
            "knee", ("already picked up your Knee",)),
        "knee-while-partner-must-answer": Case(
            lambda: play(ready(H, H_BOOKS), "goout K K K"), "knee", ("must first answer",)),
        "pickup-joker-top-with-2-and-joker": Case(
            at(hands={0: "2 JK 9"}, melds=opened, pile="5C 6C JK"), "pickup 2 JK",
            ("two jokers",)),
        "pickup-2-top-with-jokers": Case(at(hands={0: "JK JK 9"}, melds=opened, pile="5C 6C 2D"),
                                         "pickup JK JK", ("two 2s",)),
        "pickup-black-3-on-top": Case(at(hands={0: "K K 9"}, melds=opened, pile="5C 6C 3S"),
                                      "pickup K K", ("black 3 on top",)),
        "pickup-rank-on-the-table": Case(
            at(hands={0: "K K 9"}, melds={0: ["K K K"]}, pile=PILE_K), "pickup K K",
            ("already has kings",)),
        "pickup-opening-below-60-without-pile-help": Case(
            at(hands={0: "K K 2 9"}, pile="5C 6C KD"), "pickup K K 2", ("opening", "50", "60")),
        "wild-meld-in-the-opening": Case(
            after_draw(hands={0: "K K K K K K JK JK JK 9"}), "meld K K K K K K | JK JK JK",
            ("all-wild", "opening")),
        "go-out-without-clean-5s": Case(lambda: ready(H, H_BOOKS[1:]), "goout K K K",
                                        ("lack a clean book of 5s",)),
        "go-out-without-the-wild-book": Case(
            lambda: ready(H, [*H_BOOKS[:2], *H_BOOKS[3:]]), "goout K K K",
            ("lack 1 all-wild book",)),
        "go-out-5s-book-as-the-extra-clean-book": Case(
            lambda: ready(H, [b for i, b in enumerate(H_BOOKS) if i != 3]), "goout K K K",
            ("lack 1 clean book",)),
        "go-out-with-a-discard": Case(lambda: ready(H, H_BOOKS, "K K K 9"),
                                      "goout K K K discard 9", ("melding your last card",)),
        "knock-after-a-draw": Case(after_draw(), "knock", ("not a knock",)),
    }


def _bicycle() -> dict[str, Case]:
    def at(**kw: object) -> Callable[[], GameState]:
        return lambda: pos(B, **kw)

    def after_draw(**kw: object) -> Callable[[], GameState]:
        return lambda: drawn(B, **kw)

    return {
        "K-K-K-2": Case(after_draw(hands={0: "K K K 2 9"}, opened=[0]), "meld K K K 2",
                        ("at least 4 natural",)),
        "K-K-2": Case(after_draw(hands={0: "K K 2 9"}, opened=[0]), "meld K K 2",
                      ("at least 4 natural",)),
        "wild-onto-three-naturals": Case(after_draw(hands={0: "2 9"}, melds={0: ["Q Q Q"]}),
                                         "meld Q: 2", ("at least 4 natural",)),
        "all-wild-meld": Case(after_draw(hands={0: "JK JK JK 9"}, opened=[0]), "meld JK JK JK",
                              ("only of wild cards",)),
        "eight-card-book": Case(after_draw(hands={0: "8 8 8 8 8 8 8 8 9"}, opened=[0]),
                                "meld 8 8 8 8 8 8 8 8", ("at most 7",)),
        "natural-onto-a-closed-book": Case(
            after_draw(hands={0: "K 9"}, melds={0: ["K K K K K K K"]}), "meld K",
            ("at least 3",)),
        "go-out-without-a-discard": Case(lambda: ready(B, B_BOOKS, "K K K"), "goout K K K",
                                         ("discarding your last card",)),
        "go-out-without-the-clean-book": Case(lambda: ready(B, B_BOOKS[1:], "K K K 9"),
                                              "goout K K K discard 9", ("lack 1 clean book",)),
        "discard-the-last-card-unqualified": Case(lambda: ready(B, B_BOOKS[:1], "9"),
                                                  "discard 9", ("keep at least 1 card",)),
        "meld-leaving-one-card-unqualified": Case(lambda: ready(B, B_BOOKS[:1], "K K K 9"),
                                                  "meld K K K", ("keep at least 2 cards",)),
        "pickup-wild-on-top": Case(at(hands={0: "2 2 9"}, opened=[0], pile="5C 6C 2D"),
                                   "pickup 2 2", ("wild card on top",)),
        "pickup-black-3-on-top": Case(at(hands={0: "K K 9"}, opened=[0], pile="5C 6C 3S"),
                                      "pickup K K", ("black 3",)),
        "pickup-K-K-2": Case(at(hands={0: "K K 2 9"}, pile=PILE_K), "pickup K K 2",
                             ("at least 4 natural",)),
        "pickup-with-the-joker-underneath": Case(
            at(hands={0: "KS KD AC AD AH 9C"}, pile="4C 4D 5C JK 6C 7C 8C KC"), "pickup K K JK",
            ("jokers",)),
        "pickup-below-50": Case(at(hands={0: "KS KD 9C"}, pile="4C 4D 5C JK 6C 7C 8C KC"),
                                "pickup K K", ("opening", "30", "50")),
        "pickup-without-a-pair": Case(at(hands={0: "K 9"}, opened=[0], pile=PILE_K), "pickup K",
                                      ("at least 3",)),
        "opening-round-2-below-90": Case(
            lambda: drawn(B, round_number=2, hands={0: "K K K K 2 9"}), "meld K K K K 2",
            ("opening", "60", "round 2", "90")),
        "knock-after-a-pickup": Case(
            lambda: play(pos(B, hands={0: "K K 9"}, opened=[0], pile=PILE_K), "pickup K K"),
            "knock", ("not a knock",)),
        "answer-without-a-question": Case(lambda: ready(B, B_BOOKS, "K K K 9"), "yes",
                                          ("nobody is asking",)),
        "knee-without-a-knee": Case(after_draw(), "knee", ("no Knee",)),
    }


GROUPS = {"singles": _singles, "teams": _teams, "hkf": _hkf, "bicycle": _bicycle}


def _all_cases() -> list[object]:
    return [pytest.param(case, id=f"{tag}-{key}")
            for tag, make in GROUPS.items() for key, case in make().items()]


@pytest.mark.parametrize("case", _all_cases())
def test_illegal_move(case: Case) -> None:
    must_fail(case.build(), case.move, *case.words)


def test_there_are_at_least_30_distinct_illegal_moves() -> None:
    keys = {f"{tag}-{key}" for tag, make in GROUPS.items() for key in make()}
    assert len(keys) >= 30
    for make in GROUPS.values():
        assert len(make()) >= 10


# --- the same moves through the integer action layer -----------------------------------


@pytest.mark.parametrize(("profile", "build"), [
    pytest.param(H, lambda: drawn(H, hands={0: "K K K 9"}, melds={0: ["Q Q Q Q"]}),
                 id="hkf-knee-before-a-book"),
    pytest.param(S, lambda: drawn(S), id="singles-no-knee"),
    pytest.param(B, lambda: drawn(B), id="bicycle-no-knee"),
])
def test_knee_action_is_not_listed_and_refused(profile: str,
                                               build: Callable[[], GameState]) -> None:
    from handfoot.game import moves as mv

    state = build()
    assert state.profile.name == profile
    assert mv.KNEE not in state.legal_actions()
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="Knee"):
        state.apply_action(mv.KNEE)
    assert snapshot(state) == before


def test_hkf_discard_action_not_listed_after_a_pickup() -> None:
    from handfoot.game import moves as mv

    state = play(pos(H, hands={0: "K K 9 9"}, melds={0: ["Q Q Q"]}, pile=PILE_K), "pickup K K")
    actions = state.legal_actions()
    assert mv.KNOCK in actions
    assert not [a for a in actions if mv.DISCARD <= a < mv.STAGE_NATURAL]
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="knock"):
        state.apply_action(mv.DISCARD + 5)  # a 9
    assert snapshot(state) == before
