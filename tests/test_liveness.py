"""Every round of every profile ends, within a bound on its turns (issue 13) and on its
actions (issue 27).

Why a round ends (docs/profiles.md, "Every round ends"): every turn starts with a draw or a
pickup. A draw takes a card from the stock, which nothing refills during a round; a pickup
that must meld the pile's top card lays a card on the table, which never leaves it during
the round. Where the top card of a pickup joins the hand instead (``pickup_melds_top =
false``), the profile must have ``stalled_turns_each``: the round ends once that many turns
of every player in a row drew nothing and laid nothing.

The bound checked here, for a round whose stock holds S cards after the deal, in a shoe of
C cards, at a table of P players::

    turns <= (S + C + 1) * N,   N = stalled_turns_each * P  (N = 1 where it is "none")

(at most S + C turns draw or lay, fewer than N stalled turns come between two of them and
at most N after the last). A turn is counted by its draw or pickup, the move that starts it.

Within a turn, with T = ``TAKE_BACKS_PER_TURN`` take-backs (undos and clears) at most::

    melds  <= (T + 1) * C             each lays a card; only an undo gives cards back
    stages <= (melds + 2T + 1) * C    each stages a card held; a meld, an undo or a
                                      clear empties the staged cards
    actions per turn <= stages + melds + 2T + P + 4
                        (+ T take-backs of each kind, P - 1 answers and a go-out, the
                        draw or pickup, a Knee, the discard or knock)

so a round takes at most (turn bound) × (actions per turn) actions.

Games are one round each, at every profile and seating, under the random, easy, normal and
hard bots and under :class:`PileCycler`, an adversary that takes the pile whenever it may,
never melds otherwise and throws back a card it just took. ``HANDFOOT_PROPERTY_SCALE=20``
multiplies the number of games (as in test_properties.py).
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter

import pytest
from hypothesis import Phase as HPhase
from hypothesis import given, settings
from hypothesis import strategies as st

from handfoot.bots.heuristic import Bot, EasyBot
from handfoot.bots.registry import make_bot
from handfoot.cli import main
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import (
    OPTIONS,
    ProfileError,
    builtin_profile_names,
    load_profile,
    profile_from_mapping,
)
from handfoot.game.record import GameRecorder, from_json, replay, to_json
from handfoot.game.rules import Layout, Profile
from handfoot.game.values import TAKE_BACKS_PER_TURN, Phase, RoundEnd
from handfoot.runs import sim
from handfoot.runs.sim import derive_seed, play_game

NAMES = builtin_profile_names()
PROFILES: dict[str, Profile] = {name: load_profile(name, overrides={"rounds": 1})
                                for name in NAMES}
CONFIGS = [(name, layout) for name in NAMES for layout in PROFILES[name].layouts]
POLICIES = ("random", "easy", "normal", "hard", "cycler", "taker-back")
SCALE = int(os.environ.get("HANDFOOT_PROPERTY_SCALE", "1"))
SEEDS = st.integers(0, 2**32 - 1)
PHASES = (HPhase.explicit, HPhase.reuse, HPhase.generate)  # a smaller seed is no simpler game
MAX_TURN_ACTIONS = 2_000
"""Actions within one turn: more means a policy (not the rules) is stuck."""


def turn_bound(profile: Profile, layout: Layout, stock: int) -> int:
    """The most turns a round may last: (S + C + 1) × N (see the module docstring)."""
    shoe = profile.decks(layout.players) * (52 + profile.jokers_per_deck)
    limit = profile.stalled_turns_each
    n = 1 if limit is None else limit * layout.players
    return (stock + shoe + 1) * n


def turn_action_bound(profile: Profile, layout: Layout) -> int:
    """The most actions one turn may take (see the module docstring)."""
    shoe = profile.decks(layout.players) * (52 + profile.jokers_per_deck)
    t = TAKE_BACKS_PER_TURN
    melds = (t + 1) * shoe
    stages = (melds + 2 * t + 1) * shoe
    return stages + melds + 2 * t + layout.players + 4


class TakerBack:
    """The adversary within a turn: undoes every meld it may and lays it again (meld,
    undo, meld, ...), clears staged cards half the time, else plays as the easy bot (which
    stages and melds). Its choice is an action or, to lay a meld again, that move."""

    name = "taker-back"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._bot = EasyBot(seed)
        self._meld: mv.Meld | None = None

    def played(self, move: mv.Move | None) -> None:
        if isinstance(move, mv.Meld):
            self._meld = move

    def choose(self, state: GameState) -> int | mv.Move:
        legal = state.legal_actions()
        if state.phase == Phase.ANSWER:
            return mv.ANSWER_NO
        if state.phase == Phase.DRAW:
            self._meld = None
        if mv.UNDO in legal:
            return mv.UNDO
        if self._meld is not None and state.is_legal(self._meld):
            return self._meld
        if mv.CLEAR in legal and self._rng.random() < 0.5:
            return mv.CLEAR
        action = self._bot.choose(state.view(state.to_act))
        return action


class PileCycler:
    """The adversary: takes the pile whenever it may (at once where the top card joins the
    hand, else with the melds an easy bot would make for it), melds nothing else, never
    goes out, and discards a card it just took from the pile when it can."""

    name = "cycler"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._planner = EasyBot(seed)
        self._taken: Counter[int] = Counter()
        self._hand_before: Counter[int] = Counter()

    def choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        seat = state.to_act
        hand = Counter(cards.FACE_KIND[f] for f in state.hand(seat))
        if state.phase == Phase.ANSWER:
            return mv.ANSWER_NO  # a partner going out would end the round
        if state.phase == Phase.DRAW:
            self._hand_before = hand
            self._taken = Counter()
            if mv.PICKUP in legal:
                return mv.PICKUP
            # the easy bot stages a pickup's melds when it can take the pile, else draws
            return self._planner.choose(state.view(seat))
        if not self._taken and state.picked_pile:
            self._taken = hand - self._hand_before
        if state.staged and mv.CLEAR in legal:
            return mv.CLEAR
        discards = [a for a in legal if mv.DISCARD <= a < mv.STAGE_NATURAL]
        for kind in self._taken:
            if mv.DISCARD + kind in discards:
                return mv.DISCARD + kind
        if discards:
            return discards[self._rng.randrange(len(discards))]
        if mv.KNOCK in legal:
            return mv.KNOCK
        return self._any(legal)

    def _any(self, legal: list[int]) -> int:
        """No discard: anything but staging (which a cycler never needs) if it can."""
        plain = [a for a in legal if a < mv.STAGE_NATURAL or a == mv.KNEE]
        plain = [a for a in plain if a not in (mv.CLEAR, mv.UNDO)] or legal
        return plain[self._rng.randrange(len(plain))]


def play_round(profile: Profile, layout: Layout, seed: int, policy: str,
               ) -> tuple[GameState, int, int]:
    """Play a one-round game; returns the state, the turns the round took and its bound.
    Every action is counted too: a turn within :func:`turn_action_bound`, the round within
    that times the turn bound."""
    state = GameState.new(profile, layout=layout, seed=seed)
    bound = turn_bound(profile, layout, len(state.deal.stock))
    per_turn = turn_action_bound(profile, layout)
    turns = actions = turn_actions = 0
    turn_key = (state.round_number, state.seat)
    players: list[Bot]

    def count(move: mv.Move | None) -> None:
        """One action played: counted to the turn it was played in."""
        nonlocal turns, actions, turn_actions, turn_key
        actions += 1
        turn_actions += 1
        if isinstance(move, mv.Draw | mv.Pickup):
            turns += 1
            assert turns <= bound, f"{turns} turns, more than the bound {bound}"
        assert turn_actions <= per_turn, f"{turn_actions} actions in a turn, bound {per_turn}"
        assert actions <= bound * per_turn, f"{actions} actions, bound {bound * per_turn}"
        if (state.round_number, state.seat) != turn_key:  # that action ended the turn
            turn_key, turn_actions = (state.round_number, state.seat), 0

    if policy in ("cycler", "taker-back"):
        kind = PileCycler if policy == "cycler" else TakerBack
        seats = [kind(derive_seed(seed, policy, s)) for s in range(layout.players)]
        turn = (state.round_number, state.seat)
        in_turn = 0
        while not state.is_over:
            seat = seats[state.to_act]
            choice = seat.choose(state)
            move = (state.apply_action(choice) if isinstance(choice, int)
                    else state.apply(choice))
            if isinstance(seat, TakerBack):
                seat.played(move)
            count(move)
            in_turn += 1
            if (state.round_number, state.seat) != turn:
                turn, in_turn = (state.round_number, state.seat), 0
            assert in_turn <= MAX_TURN_ACTIONS, f"the {policy} is stuck within a turn"
        return state, turns, bound
    players = [make_bot(policy, derive_seed(seed, "bot", s)) for s in range(layout.players)]

    def on_action(seat: int, move: mv.Move | None, think_ns: int) -> None:
        count(move)

    play_game(profile, seed, players, state=state, on_action=on_action)
    return state, turns, bound


def examples(n: int) -> settings:
    return settings(max_examples=n * SCALE, deadline=None, phases=PHASES)


# --- the load-time guarantee ----------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_every_profile_and_option_has_a_finite_turn(name: str) -> None:
    """Each built-in profile, alone and with each optional rule, either melds the top card
    of every pickup (or never allows one), or limits stalled turns."""
    for option in ("", *OPTIONS):
        try:
            p = load_profile(name, overrides={option: True} if option else None)
        except ProfileError:
            continue  # an option that cannot apply to this profile is refused at load
        assert (p.pickup_melds_top or not p.pickup_allowed
                or p.stalled_turns_each is not None), f"{name} + {option or 'nothing'}"


def test_a_pickup_into_the_hand_needs_a_stall_limit() -> None:
    base = load_profile("remastered-singles")
    with pytest.raises(ProfileError, match=r"stalled_turns_each.*pickup_melds_top"):
        load_profile("remastered-singles", overrides={"stalled_turns_each": "none"})
    with pytest.raises(ProfileError, match=r"stalled_turns_each.*pickup_melds_top"):
        load_profile("biegames", overrides={"pickup_needs_pair": False,
                                            "pickup_melds_top": False})
    # no pickups at all, or a top card that must be melded: no limit is needed
    assert load_profile("remastered-singles", overrides={
        "stalled_turns_each": "none", "pickup_allowed": False}).stalled_turns_each is None
    assert base.stalled_turns_each == 3
    assert profile_from_mapping({"extends": "remastered-singles", "game": {
        "stalled_turns_each": 5}}).stalled_turns_each == 5


# --- the rule itself ------------------------------------------------------------------------


def _cycling_state(limit: int | None = 3) -> GameState:
    """A 2-player remastered-singles round where both hands are empty Feet: each player
    can take the pile's one card and throw it back."""
    profile = dataclasses.replace(PROFILES["remastered-singles"], stalled_turns_each=limit)
    state = GameState.new(profile, layout=Layout(2, 1), seed=5)
    pos = state.position()
    king = next(f for f in range(cards.NUM_FACES) if cards.FACE_KIND[f] == cards.KING)
    return GameState.from_position(dataclasses.replace(
        pos, phase=Phase.DRAW, turn=0, to_act=0, hands=((), ()), feet=((), ()),
        foot_picked=(True, True), pile=(king,), stalled_turns=1))


def _cycle(state: GameState) -> None:
    """One stalled turn: take the King, throw it back."""
    state.apply(mv.Pickup(()))
    state.apply(mv.Discard(cards.KING))


def test_the_round_ends_after_the_limit_of_stalled_turns() -> None:
    state = _cycling_state(limit=3)
    for turn in range(1, 6):  # 3 turns each of 2 players: the 6th ends it
        _cycle(state)
        assert state.stalled_turns == turn + 1 and not state.results
    _cycle(state)
    (result,) = state.results
    assert result.reason == RoundEnd.STALLED
    assert str(result.reason) == "stalled"  # what records store
    assert result.went_out is None
    assert all(line.key != "going_out" or line.points == 0
               for s in result.scores for line in s.lines)


def test_no_limit_keeps_cycling() -> None:
    state = _cycling_state(limit=None)
    for _ in range(100):
        _cycle(state)
    assert not state.results and state.stalled_turns == 101


def test_a_draw_or_a_kept_meld_resets_the_count_an_undone_meld_does_not() -> None:
    state = _cycling_state(limit=3)
    _cycle(state)
    _cycle(state)
    assert state.stalled_turns == 3
    state.apply(mv.Draw())
    assert state.stalled_turns == 0
    state.apply(mv.Discard(next(k for k in range(cards.RED_THREE) if state.held[0][k])))
    assert state.stalled_turns == 1  # the next player's turn has begun

    # an undone meld lays nothing
    state = _cycling_state(limit=3)
    pos = state.position()
    kings = [f for f in range(cards.NUM_FACES) if cards.FACE_KIND[f] == cards.KING]
    state = GameState.from_position(dataclasses.replace(
        pos, hands=((*kings[:3], kings[0]), ()), opened=(True, False)))
    state.apply(mv.Pickup(()))
    state.apply(mv.Meld((mv.MeldGroup(cards.KING, 3),)))
    state.apply(mv.Undo())
    state.apply(mv.Discard(cards.KING))
    assert state.stalled_turns == 1 + 1  # turn 1 stalled, turn 2 begun
    # a meld kept to the turn's end does
    state = GameState.from_position(dataclasses.replace(
        pos, hands=((*kings[:3], kings[0]), ()), opened=(True, False)))
    state.apply(mv.Pickup(()))
    state.apply(mv.Meld((mv.MeldGroup(cards.KING, 3),)))
    state.apply(mv.Discard(cards.KING))
    assert state.stalled_turns == 1


def test_the_stall_count_survives_copies_and_positions() -> None:
    state = _cycling_state(limit=3)
    _cycle(state)
    _cycle(state)
    assert state.copy().stalled_turns == 3
    assert GameState.from_position(state.position()).stalled_turns == 3
    assert state.position().stalled_turns == 3


def test_the_issue_game_ends() -> None:
    """The game of issue 13 (4 hard bots, seed 375): it ends, and the same round played
    by cyclers ends by the new rule."""
    profile = PROFILES["remastered-singles"]
    layout = Layout(4, 1)
    bots = [make_bot("hard", derive_seed(375, "bot", s)) for s in range(4)]
    state, summary = play_game(profile, 375, bots, layout=layout)
    assert state.is_over and summary.moves < 1_000
    state, turns, bound = play_round(profile, layout, 375, "cycler")
    assert state.results[0].reason == RoundEnd.STALLED and turns <= bound


def test_a_stalled_round_is_recorded_and_replays() -> None:
    """The round's end is no move of its own: replaying the moves reaches it again."""
    profile = load_profile("remastered-singles", overrides={"rounds": 2})
    layout = Layout(3, 1)
    recorder = GameRecorder(GameState.new(profile, layout=layout, seed=11))
    cyclers = [PileCycler(s) for s in range(layout.players)]
    while not recorder.state.is_over:
        recorder.apply_action(cyclers[recorder.state.to_act].choose(recorder.state))
    text = to_json(recorder.record())
    assert '"reason": "stalled"' in text
    result = replay(from_json(text))
    assert result.error is None and not result.mismatches
    assert [r.reason for r in result.results] == [RoundEnd.STALLED] * 2
    assert result.results == tuple(recorder.state.results)


# --- liveness under play ------------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"),
                         [pytest.param(n, x, id=f"{n}-{x}") for n, x in CONFIGS])
@given(seed=SEEDS)
@examples(2)
def test_every_round_ends_within_the_turn_bound(name: str, layout: Layout, policy: str,
                                                seed: int) -> None:
    state, turns, bound = play_round(PROFILES[name], layout, seed, policy)
    assert state.is_over and len(state.results) == 1
    assert turns <= bound


@given(seed=SEEDS, data=st.data())
@examples(25)
def test_options_keep_rounds_finite_under_the_cycler(seed: int, data: st.DataObject) -> None:
    """Pickup options (a whole pile, top 5, a pile of 8, ...) on top of each profile."""
    name = data.draw(st.sampled_from(NAMES), label="profile")
    keys = sorted(k for k, o in OPTIONS.items() if not o.tabletop)
    chosen = data.draw(st.sets(st.sampled_from(keys), max_size=3), label="options")
    try:
        profile = load_profile(name, overrides={"rounds": 1, **dict.fromkeys(chosen, True)})
    except ProfileError:
        return  # exclusive options, refused at load
    layout = data.draw(st.sampled_from(profile.layouts), label="layout")
    state, turns, bound = play_round(profile, layout, seed, "cycler")
    assert state.is_over and turns <= bound


# --- a game that does not end: a clear message --------------------------------------------


def test_simulate_names_a_stuck_game_without_a_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A game that reaches the safety cap (here a tiny one) stops ``handfoot simulate``
    with exit code 1 and a message naming the game, its seed, the rules and where it was."""
    monkeypatch.setattr(sim, "MAX_ACTIONS_PER_GAME", 40)
    code = main(["simulate", "--profile", "remastered-singles", "--layout", "2x1",
                 "--bots", "hard", "--games", "3", "--seed", "7", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert "Traceback" not in err
    assert err.startswith("handfoot simulate: error: game 1 of 3 (remastered-singles 2x1, "
                          "bots hard, hard, simulation seed 7) is stuck: the game with seed "
                          f"{derive_seed(7, 'game', 0)} did not end after 40 actions: round 1, "
                          "seat ")
    assert "stock " in err and "cards in hand by seat: " in err
    assert "without a draw or a meld; last moves: seat " in err
    assert err.rstrip().endswith("please report this message)")


def test_play_game_raises_the_cap_with_where_it_stuck(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "MAX_ACTIONS_PER_GAME", 10)
    bots = [make_bot("random", s) for s in range(2)]
    with pytest.raises(sim.SafetyCapReached, match=r"seed 3 did not end after 10 actions: "
                       r"round 1, seat \d to act") as info:
        play_game(PROFILES["biegames"], 3, bots, layout=Layout(2, 1))
    assert info.value.seed == 3 and info.value.actions == 11


def test_players_are_warned_before_a_round_ends_stalled() -> None:
    """The count of stalled turns is public (everybody sees whether a turn drew or laid
    cards); the web view and the terminal warn once a whole round of the table has stalled."""
    import io

    from rich.console import Console

    from handfoot.terminal.play import render_view
    from handfoot.web.protocol import public_view_json, view_json

    profile = load_profile("remastered-singles")
    limit = profile.stalled_turns_each
    assert limit is not None
    state = GameState.new(profile, seed=3)
    players = state.players

    def shown(stalled: int) -> tuple[dict[str, object], str]:
        s = GameState.from_position(dataclasses.replace(state.position(),
                                                        stalled_turns=stalled))
        view = s.view(s.seat)
        assert view.stalled_turns == stalled == s.public_view().stalled_turns
        data = view_json(view)
        assert data["stall"] == public_view_json(view)["stall"]
        buf = io.StringIO()
        names = [f"seat {i}" for i in range(players)]
        Console(file=buf, width=200, color_system=None).print(render_view(view, names))
        return data, buf.getvalue()

    data, text = shown(players - 1)
    assert data["stall"] == {"turns": players - 1, "limit": limit * players}
    assert "unless someone draws" not in text
    data, text = shown(limit * players - 1)
    assert "the round ends in 1 turn unless someone draws or lays a card" in text
    # a profile without the limit says null
    p13 = GameState.new(load_profile("partnership-13"), seed=3)
    assert view_json(p13.view(p13.seat))["stall"] is None
