"""A PettingZoo AEC environment: every seat an agent, ``player_0`` ... in seat order.

>>> from handfoot.rl.pettingzoo import env
>>> e = env(profile="biegames", players=2, rounds=1)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the
vector is :mod:`handfoot.rl.observation` (what the seat's view shows, nothing else), the
mask covers the engine's 108 action ids and is all 0 for an agent that is not to act. The
agent to act is whoever the engine says must act now (``state.to_act``), so a partner
answers "May I go out?" in its own step. Rewards come at the end of each round: every agent
gets its side's score for that round, so partners share it. At the end of the game every
agent is terminated. An illegal action raises :class:`~handfoot.game.values.IllegalMoveError`
and changes nothing.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from handfoot.game.engine import GameState
from handfoot.game.moves import NUM_ACTIONS
from handfoot.game.rules import Layout, Profile
from handfoot.rl import EXTRA_HINT

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - the rl extra is missing
    raise ImportError(f"handfoot.rl.pettingzoo needs {exc.name}: {EXTRA_HINT}") from exc

from handfoot.rl.observation import ObservationEncoder, action_mask, describe_view, resolve_game

__all__ = ["HandAndFootAEC", "env", "raw_env"]


def game_overrides(rounds: int | None, overrides: dict[str, Any] | None) -> dict[str, Any]:
    """Profile overrides from an adapter's ``rounds`` and ``overrides`` options."""
    out = dict(overrides or {})
    if rounds is not None:
        out["rounds"] = rounds
    return out


class HandAndFootAEC(AECEnv):  # type: ignore[misc]
    """The raw AEC environment; :func:`env` wraps it in PettingZoo's order checks."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "hand_and_foot_v0", "is_parallelizable": False}

    def __init__(self, profile: str | Profile = "partnership-13",
                 players: int | str | Layout | None = None,
                 render_mode: str | None = None, *, rounds: int | None = None,
                 overrides: dict[str, Any] | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: use None or 'ansi'")
        self.profile, self.layout = resolve_game(profile, players,
                                                 game_overrides(rounds, overrides))
        self.render_mode = render_mode
        self.encoder = ObservationEncoder(self.profile, self.layout)
        self.possible_agents = [f"player_{s}" for s in range(self.layout.players)]
        self.agents = self.possible_agents[:]
        obs_space = spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high,
                                      (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = GameState.new(self.profile, layout=self.layout,
                                   seed=self._rng.getrandbits(62))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.to_act]

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.state is not None, "call reset() first"
        view = self.state.view(self.seat(agent))
        return {"observation": self.encoder.encode(view), "action_mask": action_mask(view)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None, "call reset() first"
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        rounds_done = len(state.results)
        state.apply_action(int(action))
        for result in state.results[rounds_done:]:  # the round this action ended, if any
            for a in self.agents:
                self.rewards[a] += float(result.scores[state.side_of[self.seat(a)]].total)
        if state.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.to_act]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        state = self.state
        seat = state.to_act
        return describe_view(state.view(seat))

    def close(self) -> None:
        pass


raw_env = HandAndFootAEC


def env(profile: str | Profile = "partnership-13", players: int | str | Layout | None = None,
        render_mode: str | None = None, **options: Any) -> Any:
    """The AEC environment, wrapped in PettingZoo's out-of-bounds and order checks.

    ``players`` picks the seating (a number of players or a layout like ``"2x3"``);
    ``rounds=`` shortens the game; ``overrides=`` changes any other profile parameter.
    """
    e = HandAndFootAEC(profile, players, render_mode, **options)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(e))
