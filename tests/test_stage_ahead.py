"""Staging a bot's known steps without a view per card (``GameState.stage_ahead``,
``bots.ahead``, the play loop): every game the same, move for move, as when each step is
chosen from a view."""

from __future__ import annotations

import random
from collections.abc import Iterator
from copy import deepcopy

import pytest

from handfoot.bots.ahead import commit_ahead, draw_ahead, played_ahead, staging_ahead
from handfoot.bots.registry import make_bot
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Profile
from handfoot.game.values import Phase
from handfoot.runs.sim import derive_seed, play_game

STAGING = range(mv.STAGE_NATURAL, mv.KNEE)


def _decisions(profile: Profile) -> Iterator[tuple[GameState, list[int]]]:
    """Every decision of three games (random play, then two of hard bots), as the state
    and its listing, before the action chosen there is played (a test may play on copies
    only)."""
    for seed in range(3):
        state = GameState.new(profile, seed=seed)
        rng = random.Random(seed)
        bots = [make_bot("hard", seed * 10 + s) for s in range(state.players)]
        while not state.is_over:
            legal = state.legal_actions()
            yield state, legal
            if seed == 0:
                action = legal[rng.randrange(len(legal))]
            else:
                action = bots[state.to_act].choose(state.play_view(state.to_act))
            state.apply_listed(action)


@pytest.mark.parametrize("name", builtin_profile_names())
def test_a_staging_action_is_staged_ahead_exactly_when_the_listing_holds_it(name: str) -> None:
    """At every decision of random and hard games (staged cards, pickups, feet and knees
    among them), each of the staging actions is staged by ``stage_ahead`` if and only if
    the listing holds it, and then leaves the state ``apply_listed`` leaves."""
    profile = load_profile(name, overrides={"rounds": 1})
    checked = listed_seen = 0
    for state, legal in _decisions(profile):
        for action in STAGING:
            copy = state.copy()
            staged = copy.stage_ahead([action])
            assert staged == (action in legal), (name, mv.action_name(action))
            if staged:
                listed_seen += 1
                other = state.copy()
                other.legal_actions()
                other.apply_listed(action)
                assert copy.staged == other.staged
                assert copy.position() == other.position()
            checked += 1
    assert checked > 1000 and listed_seen > 100


def test_stage_ahead_stops_at_the_first_action_not_listed() -> None:
    profile = load_profile("partnership-13")
    state = GameState.new(profile, seed=3)
    state.apply_listed(mv.DRAW)
    legal = state.legal_actions()
    stage = [a for a in legal if a in STAGING]
    assert stage, "the seat can stage a card"
    first = stage[0]
    # a discard (not a staging action) and a staging action not listed both stop it
    for stopper in (mv.DISCARD + 0, next(a for a in STAGING if a not in legal)):
        copy = state.copy()
        assert copy.stage_ahead([first, stopper, first]) == 1
        assert sum(sum(g) for g in copy.staged.values()) == 1
    assert state.copy().stage_ahead([]) == 0


def test_stage_ahead_stages_nothing_outside_a_turn() -> None:
    profile = load_profile("partnership-13", overrides={"rounds": 1})
    state = GameState.new(profile, seed=1)
    rng = random.Random(1)
    while not state.is_over:
        legal = state.legal_actions()
        if state.phase == Phase.ANSWER:
            assert state.copy().stage_ahead(list(STAGING)) == 0
        state.apply_listed(legal[rng.randrange(len(legal))])
    assert state.stage_ahead(list(STAGING)) == 0


def test_only_normal_and_hard_bots_know_their_steps_ahead() -> None:
    state = GameState.new(load_profile("partnership-13"), seed=2)
    for name in ("random", "easy", "expert", "learned"):
        bot = make_bot(name, 1)
        seat = state.to_act
        bot.choose(state.play_view(seat))
        assert staging_ahead(bot) == [], name
    # a hard bot midway through a plan: its queued staging steps, the commit left out
    profile = load_profile("partnership-13")
    for seed in range(40):
        state = GameState.new(profile, seed=seed)
        bot = make_bot("hard", seed)
        for _ in range(60):
            if state.is_over:
                break
            seat = state.to_act
            action = bot.choose(state.play_view(seat))
            state.apply_listed(action)
            known = staging_ahead(bot)
            if known:
                assert all(a in STAGING for a in known)
                queue = list(bot._queue)  # type: ignore[attr-defined]
                assert queue[:len(known)] == known
                assert len(queue) == len(known) or queue[len(known)] not in STAGING
                played_ahead(bot, 1)
                assert bot._queue == queue[1:]  # type: ignore[attr-defined]
                return
    pytest.fail("no hard bot queued staging steps")


@pytest.mark.parametrize("name", builtin_profile_names())
def test_play_game_plays_the_same_games_with_the_steps_staged_ahead(name: str) -> None:
    """``play_game`` with nobody told of each action (steps staged ahead) and with an
    ``after`` callback (a view per step): the same history, position, scores and counts,
    for normal and hard bots at every seating."""
    base = load_profile(name)
    for layout in base.layouts:
        profile = load_profile(name, overrides={"rounds": 2})
        for level in ("normal", "hard"):
            seed = derive_seed(9, name, str(layout), level)
            runs = []
            for each_step in (False, True):
                bots = [make_bot(level, derive_seed(seed, s)) for s in range(layout.players)]
                seen: list[int] = []
                state, summary = play_game(
                    profile, seed, bots, layout=layout,
                    after=(lambda s, seen=seen: seen.append(1)) if each_step else None)
                runs.append((repr(state.history.entries()), repr(state.position()),
                             tuple(state.totals), summary.actions, summary.moves))
                if each_step:
                    assert len(seen) == summary.actions
            assert runs[0] == runs[1], (name, str(layout), level)


@pytest.mark.parametrize("name", builtin_profile_names())
def test_a_commit_is_played_ahead_exactly_when_the_listing_holds_it_and_no_knee(
        name: str) -> None:
    """At every decision of random and hard games, the meld and the pickup of the staged
    cards, and the draw, are committed by ``commit_ahead`` if and only if the listing holds
    them and no Knee, and then leave the state ``apply_listed`` leaves (nothing done
    otherwise)."""
    profile = load_profile(name, overrides={"rounds": 1})
    checked = committed = 0
    for state, legal in _decisions(profile):
        for action in (mv.CONFIRM, mv.PICKUP, mv.GO_OUT, mv.DRAW):
            copy = state.copy()
            move = copy.commit_ahead(action)
            want = action in legal and mv.KNEE not in legal and (
                bool(state.staged) if action in (mv.CONFIRM, mv.PICKUP)
                else action == mv.DRAW)
            assert (move is not None) == want, (name, mv.action_name(action))
            if move is None:
                assert copy.position() == state.position()
            else:
                committed += 1
                other = state.copy()
                other.legal_actions()
                assert other.apply_listed(action) == move
                assert copy.position() == other.position()
                assert repr(copy.history.entries()) == repr(other.history.entries())
            checked += 1
    assert checked > 1000 and committed > 10


def test_commit_ahead_tells_the_bot_and_leaves_other_bots_alone() -> None:
    profile = load_profile("partnership-13")
    for seed in range(40):
        state = GameState.new(profile, seed=seed)
        bot = make_bot("hard", seed)
        for _ in range(80):
            if state.is_over:
                break
            seat = state.to_act
            state.apply_listed(bot.choose(state.play_view(seat)))
            known = staging_ahead(bot)
            if not known:
                continue
            played_ahead(bot, state.stage_ahead(known))
            queue = list(bot._queue)  # type: ignore[attr-defined]
            if not queue or queue[0] not in (mv.CONFIRM, mv.PICKUP):
                continue
            assert commit_ahead(make_bot("expert", 1), state.copy()) is None
            if commit_ahead(bot, state) is not None:
                assert bot._queue == queue[1:]  # type: ignore[attr-defined]
                return
    pytest.fail("no hard bot's commit was played ahead")


@pytest.mark.parametrize("name", builtin_profile_names())
def test_a_draw_played_ahead_is_the_draw_the_view_would_choose(name: str) -> None:
    """At every draw of hard and normal games, wherever ``draw_ahead`` draws, the bot
    shown the view chooses the draw (on copies of the bot and the state)."""
    profile = load_profile(name, overrides={"rounds": 1})
    ahead = 0
    for seed in range(4):
        state = GameState.new(profile, seed=seed)
        level = "hard" if seed % 2 else "normal"
        bots = [make_bot(level, seed * 10 + s) for s in range(state.players)]
        while not state.is_over:
            seat = state.to_act
            bot = bots[seat]
            if state.phase == Phase.DRAW:
                trial = state.copy()
                if draw_ahead(deepcopy(bot), trial) is not None:
                    ahead += 1
                    assert deepcopy(bot).choose(state.copy().play_view(seat)) == mv.DRAW
                    assert repr(trial.history.entries()[-1]) == repr(
                        _after(state, mv.DRAW).history.entries()[-1])
            state.apply_listed(bot.choose(state.play_view(seat)))
    assert ahead > 20


def _after(state: GameState, action: int) -> GameState:
    other = state.copy()
    other.legal_actions()
    other.apply_listed(action)
    return other
