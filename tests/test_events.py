"""The engine's history, the public events of its moves and the spectator's public view.

* The history holds every committed player move (never a staging action); a record made
  from any state equals the one a :class:`~handfoot.game.record.GameRecorder` kept.
* Each move type's event says what the table saw: a draw its count and red 3s (never the
  cards), a pickup every card taken, melds and discards in full; the private part holds
  what only the mover saw.
* Nothing hidden leaks: for every profile and seating, every public view and every event
  is the same after the hidden cards are dealt again, and a move's event (public and
  private) is the same when the cards its seat cannot see are dealt differently.
"""

from __future__ import annotations

import random

import pytest

from handfoot.bots.heuristic import HardBot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.record import GameRecorder, record_from_state, to_json
from handfoot.game.rules import Layout
from handfoot.game.values import Event, HistoryEntry, Phase, PublicView
from positions import play, position, reshuffle_hidden

H = "hand-knee-foot"


def last(state: GameState) -> Event:
    return state.events(state.moves_played - 1)[0]


def seatings() -> list[tuple[str, Layout]]:
    return [(name, layout) for name in builtin_profile_names()
            for layout in load_profile(name).layouts]


# --- history -----------------------------------------------------------------------------


def test_history_holds_committed_moves_only() -> None:
    state = position("partnership-13", hands={0: "K K K 9 9 9 5"}, melds={0: ["Q Q Q"]},
                     stock_top="4C 5C")
    play(state, "draw")
    state.apply(mv.Stage(cards.KING, cards.KING))
    state.apply(mv.Stage(cards.KING, cards.KING))
    state.apply(mv.ClearStaged())
    for _ in range(3):
        state.apply_action(mv.STAGE_NATURAL + cards.KING * 2)
    state.apply(mv.Confirm())
    play(state, "discard 5")
    assert state.history == (
        HistoryEntry(1, 0, mv.Draw()),
        HistoryEntry(1, 0, mv.Meld((mv.MeldGroup(cards.KING, 3),))),
        HistoryEntry(1, 0, mv.Discard(cards.FIVE)),
    )
    assert state.moves_played == 3
    assert [e.number for e in state.events()] == [0, 1, 2]
    assert [e.number for e in state.events(2)] == [2]
    assert state.events(3) == []


def test_copies_share_history_but_not_the_future() -> None:
    state = GameState.new(load_profile("biegames"), seed=3)
    state.apply(mv.Draw())
    trial = state.copy()
    held = [k for k in range(cards.RED_THREE) if state.held[state.seat][k]]
    trial.apply(mv.Discard(held[-1]))
    state.apply(mv.Discard(held[0]))
    assert trial.history[0] == state.history[0] == HistoryEntry(1, state.history[0].seat,
                                                                mv.Draw())
    assert len(trial.history) == len(state.history) == 2
    assert trial.history[1] != state.history[1]
    assert state.check(mv.Draw()) is None and len(state.history) == 2  # checking plays nothing


@pytest.mark.parametrize("name", ["partnership-13", "hand-knee-foot", "remastered-singles"])
def test_a_record_is_made_from_any_state(name: str) -> None:
    profile = load_profile(name, overrides={"rounds": 2})
    state = GameState.new(profile, seed=11)
    recorder = GameRecorder(state, metadata={"created_by": "tests"})
    bots = [HardBot(s) for s in range(state.players)]
    while not state.is_over:
        recorder.apply_action(bots[state.to_act].choose(state.view(state.to_act)))
        if state.moves_played % 97 == 0:  # mid-game too
            assert record_from_state(state, metadata={"created_by": "tests"}) == \
                recorder.record()
    made = record_from_state(state, metadata={"created_by": "tests"})
    assert to_json(made) == to_json(recorder.record())
    assert made.moves == len(state.history)


# --- each move's event -----------------------------------------------------------------


def test_draw_shows_the_count_and_red_threes_never_the_cards() -> None:
    state = position("partnership-13", stock_top="3H 4C 5D")
    play(state, "draw")
    event = last(state)
    assert event.public == {"type": "draw", "seat": 0, "round": 1, "notation": "draw",
                            "words": "drew from the stock", "count": 2, "foot": False,
                            "knee": False, "red_threes": ["3H"], "replaced": 1}
    assert event.private == {"drew": ["3H", "4C", "5D"]}
    assert (event.number, event.round_number, event.seat) == (0, 1, 0)


def test_pickup_shows_every_card_taken_and_the_melds() -> None:
    state = position("partnership-13", hands={0: "K K 9 9 9 4"}, melds={0: ["Q Q Q"]},
                     pile="4C 8S 9S 7D KD")
    play(state, "pickup K K")
    event = last(state)
    assert event.public["type"] == "pickup"
    assert event.public["notation"] == "pickup K K"
    assert event.public["words"] == "took the pile: K K with the top card"
    assert event.public["top"] == "KD"
    assert event.public["taken"] == ["KD", "7D", "9S", "8S", "4C"]
    assert event.public["melds"] == [{"target": "K", "cards": ["KD", "KC", "KC"],
                                      "new": True}]
    assert event.public["cards"] == ["KD", "KC", "KC"]
    assert event.private is None


def test_meld_discard_and_undo_are_public_in_full() -> None:
    state = position("partnership-13", hands={0: "KS KH KD JK 9C 9D 9H 5S"},
                     melds={0: ["Q Q Q"]}, stock_top="4C 5C")
    play(state, "draw", "meld K K K JK | 9 9 9")
    meld = last(state)
    assert meld.public["notation"] == "meld K K K JK | 9 9 9"
    assert meld.public["words"] == "melded K K K joker and 9 9 9"
    assert meld.public["melds"] == [
        {"target": "K", "cards": ["KD", "KH", "KS", "JK"], "new": True},
        {"target": "9", "cards": ["9C", "9D", "9H"], "new": True}]
    play(state, "undo")
    undo = last(state)
    assert undo.public["type"] == "undo"
    assert sorted(undo.public["cards"]) == sorted(["KD", "KH", "KS", "JK", "9C", "9D", "9H"])
    play(state, "discard 5")
    discard = last(state)
    assert discard.public["card"] in ("5C", "5S") and discard.public["type"] == "discard"
    assert "round_end" not in discard.public


def test_going_out_asks_privately_then_the_answer_shows_it() -> None:
    books = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2",
             "JK JK 2 2 2 2 2"]
    state = position("partnership-13", hands={0: "9 9 9 8 8"}, in_foot=[0, 2],
                     foot_played=[2], foot_turn_done=[2], melds={0: books},
                     stock_top="8 K")
    state.seed = 7
    play(state, "draw", "goout 9 9 9 | 8 8 8 discard K")
    asked = last(state)
    assert asked.public == {"type": "go_out", "seat": 0, "round": 1, "asked": True,
                            "words": "asked to go out", "foot": False, "knee": False,
                            "red_threes": [], "replaced": 0}
    assert asked.private == {"notation": "goout 9 9 9 | 8 8 8 discard K",
                             "words": "went out: melded 9 9 9 and 8 8 8, then discarded a K"}
    refused = play(state.copy(), "no")
    assert last(refused).public["yes"] is False and last(refused).seat == 2
    play(state, "yes")
    answer = last(state)
    assert answer.seat == 2 and answer.public["type"] == "answer"
    assert answer.public["yes"] is True and answer.public["going_out"] == 0
    assert answer.public["notation"] == "goout 9 9 9 | 8 8 8 discard K"
    assert answer.public["words"] == "answered yes"
    assert answer.public["going_out_words"] == (
        "went out: melded 9 9 9 and 8 8 8, then discarded a K")
    assert answer.public["card"] in ("KC", "KD", "KH", "KS")
    assert [m["target"] for m in answer.public["melds"]] == ["9", "8"]
    end = answer.public["round_end"]
    result = state.results[0]
    assert end == {"round": 1, "reason": "went out", "went_out": 0,
                   "scores": [s.total for s in result.scores], "totals": list(result.totals),
                   "game_over": False}


def test_packets_picked_up_are_public_their_cards_private() -> None:
    knee = "A A A 4 5 6 8 9 T J 4 5 3H"
    state = position(H, hands={0: "K K K K K K 9"}, knees={0: knee},
                     stock_top="K 4 6C 6D")
    dealt = [cards.face_name(f) for f in state.knees[0]]
    play(state, "draw", "meld K K K K K K K", "knee")
    event = last(state)
    assert event.public["type"] == "knee" and event.public["knee"] is True
    assert event.public["red_threes"] == ["3H"] and event.public["replaced"] == 1
    assert event.private is not None and event.private["knee"] == dealt
    assert len(event.private["drew"]) == 1


def test_knock_and_stock_exhausted() -> None:
    state = position("partnership-13", stock_size=1)
    state.seed = 7
    play(state, "draw")
    event = last(state)
    assert event.public["count"] == 0
    assert event.public["round_end"]["reason"] == "stock exhausted"
    assert event.private is None


def test_public_view_has_no_hidden_card() -> None:
    state = GameState.new(load_profile("partnership-13"), seed=5)
    view = state.public_view()
    assert isinstance(view, PublicView)
    assert not hasattr(view, "hand") and not hasattr(view, "legal_actions")
    seat_view = state.view(0)
    for name in ("round_number", "phase", "turn", "to_act", "hand_counts", "foot_counts",
                 "melds", "red_threes", "discard_top", "discard_size", "stock_size", "totals"):
        assert getattr(view, name) == getattr(seat_view, name)
    assert view.opening_minimums[seat_view.side] == seat_view.opening_minimum


# --- nothing hidden leaks ---------------------------------------------------------------


def redeal_unseen(state: GameState, keep: set[int], rng: random.Random) -> GameState:
    """A copy with the hands, Feet and Knees of the seats not in ``keep`` dealt again
    among themselves (each packet keeps its size)."""
    c = state.copy()
    others = [s for s in range(c.players) if s not in keep]
    pool = [f for s in others for f in c.hand(s) + c.feet[s] + c.knees[s]]
    rng.shuffle(pool)
    pos = 0

    def take(n: int) -> list[int]:
        nonlocal pos
        pos += n
        return pool[pos - n:pos]

    for s in others:
        hand = take(c.held_n[s])
        c.held_faces[s] = cards.face_counts(hand)
        c.held[s] = cards.kind_counts(hand)
        c.feet[s] = take(len(c.feet[s]))
        c.knees[s] = take(len(c.knees[s]))
    return c


@pytest.mark.parametrize(("name", "layout"), seatings(),
                         ids=[f"{n}-{lay}" for n, lay in seatings()])
def test_events_and_public_views_hide_what_they_must(name: str, layout: Layout) -> None:
    hide_check(profile_name=name, layout=layout, seed=layout.players)


def hide_check(profile_name: str, layout: Layout, seed: int) -> None:
    profile = load_profile(profile_name, overrides={"rounds": 1})
    state = GameState.new(profile, layout=layout, seed=seed)
    bots = [HardBot(s) for s in range(state.players)]
    rng = random.Random(seed)
    types = set()
    while not state.is_over:
        seat = state.to_act
        action = bots[seat].choose(state.view(seat))
        move = mv.decode_action(action)
        if isinstance(move, mv.Stage | mv.ClearStaged):
            state.apply_action(action)
            continue
        # the mover, the seat whose turn it is and the next seat keep their packets
        keep = {seat, state.seat, (state.seat + 1) % state.players}
        alt = redeal_unseen(state, keep, rng)
        assert alt.public_view() == state.public_view()
        state.apply_action(action)
        alt.apply_action(action)
        mine, theirs = last(state), last(alt)
        public = dict(mine.public)
        public.pop("round_end", None)
        other = dict(theirs.public)
        other.pop("round_end", None)
        assert public == other, mine
        assert mine.private == theirs.private
        types.add(mine.public["type"])
        shuffled = reshuffle_hidden(state, state.moves_played % state.players, rng)
        assert shuffled.public_view() == state.public_view()
    assert reshuffle_hidden(state, 0, rng).events() == state.events()
    assert {"draw", "discard", "meld"} <= types
    assert all(e.public["seat"] == e.seat for e in state.events())
    assert state.phase == Phase.GAME_OVER
