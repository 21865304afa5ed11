"""The single-agent Gymnasium environment: one learning seat against handfoot bots."""

from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from handfoot.bots.heuristic import RandomBot  # noqa: E402
from handfoot.game.loading import builtin_profile_names, load_profile  # noqa: E402
from handfoot.game.values import IllegalMoveError  # noqa: E402
from handfoot.rl.gymnasium import HandAndFootEnv  # noqa: E402


@pytest.mark.parametrize("name", builtin_profile_names())
def test_check_env_passes(name: str) -> None:
    check_env(HandAndFootEnv(profile=name, opponents="hard", rounds=1), skip_render_check=True)


@pytest.mark.parametrize("name", builtin_profile_names())
def test_check_env_passes_at_every_seating(name: str) -> None:
    for layout in load_profile(name).layouts:
        for seat in (0, layout.players - 1):
            check_env(HandAndFootEnv(profile=name, players=str(layout), seat=seat,
                                     opponents="easy", rounds=1), skip_render_check=True)


def play(env: HandAndFootEnv, seed: int) -> tuple[float, dict[str, object], int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        assert env.state is not None and env.state.to_act == env.seat
        obs, reward, terminated, truncated, info = env.step(
            rng.choice(np.flatnonzero(obs["action_mask"])))
        total += reward
        steps += 1
        if terminated:
            return total, info, steps
        assert not truncated


def test_the_learner_gets_its_side_score_and_the_result() -> None:
    env = HandAndFootEnv(profile="partnership-13", seat=1, opponents=("easy", "random"),
                         partner="normal", rounds=2)
    total, info, _ = play(env, 3)
    state = env.state
    assert state is not None and state.is_over
    assert total == state.totals[state.side_of[1]]
    assert info["won"] == (state.side_of[1] in state.winners())
    assert info["totals"] == tuple(state.totals)


def test_same_seed_same_episode() -> None:
    a = play(HandAndFootEnv(profile="biegames", players=2, opponents="easy", rounds=1), 5)
    b = play(HandAndFootEnv(profile="biegames", players=2, opponents="easy", rounds=1), 5)
    assert a == b


def test_illegal_actions_are_penalised_or_raise() -> None:
    env = HandAndFootEnv(rounds=1, illegal_reward=-3.0)
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, terminated, _, info = env.step(bad)
    assert reward == -3.0 and not terminated and info["illegal"]
    assert np.array_equal(obs2["observation"], obs["observation"])
    strict = HandAndFootEnv(rounds=1, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalMoveError):
        strict.step(bad)


def test_bot_objects_seats_and_render() -> None:
    env = HandAndFootEnv(profile="remastered-singles", players=4, seat=2,
                         opponents=[RandomBot(1), "easy", "hard"], rounds=1,
                         render_mode="ansi")
    env.reset(seed=0)
    assert "seat 2 (side 2)" in (env.render() or "")
    with pytest.raises(ValueError, match="one per seat"):
        HandAndFootEnv(opponents=("easy", "hard", "normal"))
    with pytest.raises(ValueError, match="seat 4"):
        HandAndFootEnv(seat=4)


def test_max_steps_truncates_the_episode() -> None:
    env = HandAndFootEnv(rounds=1, max_steps=3)
    obs, _ = env.reset(seed=2)
    flags = []
    for _ in range(3):
        obs, _, terminated, truncated, _ = env.step(
            int(np.flatnonzero(obs["action_mask"])[0]))
        flags.append((terminated, truncated))
    assert flags == [(False, False), (False, False), (False, True)]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
