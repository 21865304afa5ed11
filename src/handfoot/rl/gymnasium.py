"""A single-agent Gymnasium environment: one learning seat, handfoot bots in the others.

>>> from handfoot.rl.gymnasium import HandAndFootEnv
>>> env = HandAndFootEnv(profile="biegames", players=2, opponents="easy", rounds=1)
>>> obs, info = env.reset(seed=3)
>>> sorted(obs)
['action_mask', 'observation']

The observation is ``{"observation": float32 vector, "action_mask": int8 vector}`` as in
the PettingZoo environment. Between two learner decisions the bots play (a partner bot
answers the learner's "May I go out?"; the learner answers a partner's). The reward is the
learner's side's score for each round that ends during the step; the episode terminates at
the end of the game, with ``info["won"]`` (the learner's side has the highest total; ties
count as wins) and ``info["totals"]``.

With ``max_steps``, the episode is truncated after that many learner steps (a policy that
stages and clears cards forever would otherwise never finish a game).

An action the mask does not allow changes nothing: with ``illegal="penalize"`` (the
default) the step returns ``illegal_reward`` and ``info["illegal"] = True``; with
``illegal="raise"`` it raises :class:`~handfoot.game.values.IllegalMoveError`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.moves import NUM_ACTIONS
from handfoot.game.rules import Layout, Profile
from handfoot.game.values import IllegalMoveError
from handfoot.rl import EXTRA_HINT
from handfoot.rl.observation import ObservationEncoder, action_mask, describe_view, resolve_game

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - the rl extra is missing
    raise ImportError(f"handfoot.rl.gymnasium needs {exc.name}: {EXTRA_HINT}") from exc

__all__ = ["HandAndFootEnv"]

BotSpec = str | Bot


class HandAndFootEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One learning seat (``seat``) against bots.

    ``opponents`` is one bot (a level name such as ``"hard"``, or a bot object) for every
    opposing seat, or one per opposing seat in seat order; ``partner`` likewise for the
    learner's partners (default: the first opponent's level when it is a name, else
    ``"hard"``; a bot object is never shared between seats by default). Level names get a
    fresh bot per seat at every reset; a bot object given once for several seats plays all
    of them, so give stateful bots one per seat.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - gymnasium declares it

    def __init__(self, profile: str | Profile = "partnership-13",
                 players: int | str | Layout | None = None, *, seat: int = 0,
                 opponents: BotSpec | Sequence[BotSpec] = "hard",
                 partner: BotSpec | Sequence[BotSpec] | None = None,
                 rounds: int | None = None, overrides: dict[str, Any] | None = None,
                 illegal: str = "penalize", illegal_reward: float = -10.0,
                 max_steps: int | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        overrides = dict(overrides or {})
        if rounds is not None:
            overrides["rounds"] = rounds
        self.profile, self.layout = resolve_game(profile, players, overrides)
        n = self.layout.players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat}: choose 0 to {n - 1}")
        if illegal not in ("penalize", "raise"):
            raise ValueError(f"illegal={illegal!r}: use 'penalize' or 'raise'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: use None or 'ansi'")
        self.seat = seat
        self.max_steps = max_steps
        self.steps = 0
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        side = self.layout.side_of(seat)
        partners = [s for s in range(n) if s != seat and self.layout.side_of(s) == side]
        others = [s for s in range(n) if self.layout.side_of(s) != side]
        opp = self._specs(opponents, len(others), "opponents")
        first = opp[0] if opp and isinstance(opp[0], str) else "hard"
        mates = self._specs(first if partner is None else partner, len(partners), "partner")
        self._bot_specs: dict[int, BotSpec] = {**dict(zip(others, opp, strict=True)),
                                               **dict(zip(partners, mates, strict=True))}
        self.encoder = ObservationEncoder(self.profile, self.layout)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high,
                                      (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.state: GameState | None = None
        self.bots: dict[int, Bot] = {}

    @staticmethod
    def _specs(spec: BotSpec | Sequence[BotSpec], n: int, what: str) -> list[BotSpec]:
        if isinstance(spec, str) or not isinstance(spec, Sequence):
            return [spec] * n
        if len(spec) == 1:
            return list(spec) * n
        if len(spec) != n:
            raise ValueError(f"{what}: give one bot for all {n} seats or one per seat")
        return list(spec)

    def _observation(self) -> dict[str, Any]:
        assert self.state is not None
        view = self.state.view(self.seat)
        return {"observation": self.encoder.encode(view), "action_mask": action_mask(view)}

    def _info(self) -> dict[str, Any]:
        state = self.state
        assert state is not None
        info: dict[str, Any] = {"totals": tuple(state.totals),
                                "round": state.round_number}
        if state.is_over:
            info["won"] = state.side_of[self.seat] in state.winners()
        return info

    def _advance(self) -> float:
        """Let the bots act until the learner must act or the game ends; its reward."""
        state = self.state
        assert state is not None
        reward = 0.0
        while not state.is_over and state.to_act != self.seat:
            seat = state.to_act
            reward += self._apply(self.bots[seat].choose(state.view(seat)))
        return reward

    def _apply(self, action: int) -> float:
        state = self.state
        assert state is not None
        done = len(state.results)
        state.apply_action(action)
        side = state.side_of[self.seat]
        return float(sum(r.scores[side].total for r in state.results[done:]))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        rng = random.Random(game_seed)
        self.bots = {s: make_bot(b, rng.getrandbits(62)) if isinstance(b, str) else b
                     for s, b in self._bot_specs.items()}
        self.state = GameState.new(self.profile, layout=self.layout, seed=game_seed)
        self.steps = 0
        self._advance()  # rounds cannot end before anyone acts
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() first")
        if state.is_over or (self.max_steps is not None and self.steps >= self.max_steps):
            raise RuntimeError("the episode is over: call reset()")
        self.steps += 1
        truncated = (self.max_steps is not None and self.steps >= self.max_steps)
        a = int(action)
        if not (0 <= a < NUM_ACTIONS) or not state.action_mask()[a]:
            if self.illegal == "raise":
                raise IllegalMoveError(f"action {a} is not legal now")
            info = self._info()
            info["illegal"] = True
            return self._observation(), float(self.illegal_reward), False, truncated, info
        reward = self._apply(a) + self._advance()
        return (self._observation(), reward, state.is_over, truncated and not state.is_over,
                self._info())

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        return describe_view(self.state.view(self.seat))
