"""What the agent interfaces cost: environment steps per second against the bare engine.

Random legal play of the same games, measured in one run: the bare engine
(``legal_actions`` + ``apply_action``), the PettingZoo AEC environment (``last()`` with the
observation vector and action mask, then ``step``), the Gymnasium environment against
``random`` bots, and the OpenSpiel game (``legal_actions`` + ``apply_action`` + an
observation tensor). Prints steps/s and each adapter's ratio to the engine. Needs the rl
extra (``pip install -e '.[rl]'``).

    python benchmarks/rl.py [--profile NAME] [--games N]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile


def engine(profile: str, games: int, seed: int) -> float:
    p = load_profile(profile, overrides={"rounds": 1})
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        state = GameState.new(p, seed=seed + g)
        choice = random.Random(seed + g).choice
        while not state.is_over:
            state.apply_action(choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo(profile: str, games: int, seed: int) -> float:
    from handfoot.rl.pettingzoo import raw_env

    env = raw_env(profile=profile, rounds=1)
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        env.reset(seed=seed + g)
        choice = random.Random(seed + g).choice
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
    return steps / (time.perf_counter() - start)


def gymnasium(profile: str, games: int, seed: int) -> float:
    from handfoot.rl.gymnasium import HandAndFootEnv

    env = HandAndFootEnv(profile=profile, opponents="random", rounds=1)
    steps = 0  # every seat's actions: the learner's and the bots'
    apply = env._apply

    def counted(action: int) -> float:
        nonlocal steps
        steps += 1
        return apply(action)

    env._apply = counted  # type: ignore[method-assign]
    start = time.perf_counter()
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        choice = random.Random(seed + g).choice
        terminated = False
        while not terminated:
            obs, _, terminated, _, _ = env.step(choice(obs["action_mask"].nonzero()[0].tolist()))
    return steps / (time.perf_counter() - start)


def openspiel(profile: str, games: int, seed: int) -> float:
    import pyspiel

    import handfoot.rl.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_hand_and_foot", {"profile": profile, "rounds": 1})
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        state = game.new_initial_state()
        state.apply_action(seed + g)
        choice = random.Random(seed + g).choice
        while not state.is_terminal():
            seat = state.current_player()
            state.observation_tensor(seat)
            state.apply_action(choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="partnership-13")
    parser.add_argument("--games", type=int, default=20, help="one-round games per measure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    measures: dict[str, Callable[[str, int, int], float]] = {
        "engine": engine, "pettingzoo": pettingzoo, "gymnasium": gymnasium,
        "openspiel": openspiel}
    base = 0.0
    print(f"{args.profile}, {args.games} one-round games of random legal play")
    for name, measure in measures.items():
        rate = measure(args.profile, args.games, args.seed)
        base = base or rate
        print(f"{name:>10}: {rate:8.0f} steps/s  ({rate / base:.2f}x the engine)")


if __name__ == "__main__":
    main()
