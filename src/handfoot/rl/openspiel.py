"""Hand and Foot as an OpenSpiel game: ``pyspiel.load_game("python_hand_and_foot")``.

Importing this module registers the game. Parameters (all optional):

``profile`` (string, ``"partnership-13"``)
    a built-in profile name.
``players`` (int, 4)
    the number of players: the profile's first seating with that many players. Every
    profile is played by 4.
``layout`` (string, ``""``)
    a seating like ``"3x2"``, for profiles with two seatings of the same size; it wins
    over ``players``.
``rounds`` (int, 0)
    play only this many rounds (0: the profile's number).
``deals`` (int, 10000)
    the number of outcomes of the deal chance node (see below).
``max_actions`` (int, 20000)
    actions per round after which the game is cut short (see below).

**Chance.** The game starts with one chance node that picks a game seed uniformly from
``range(deals)``; the engine deals every round from that seed (the shuffled shoe fixes the
stock order, so each draw is already decided, as with a real shuffled deck). The seed is
never observed, so the players see exactly what the engine's views show. The consequence:
the game is a uniform mixture over ``deals`` shuffles per round rather than over every
shuffle. Algorithms that sample chance (MCTS, random play, Monte-Carlo CFR) are unaffected;
algorithms that enumerate chance outcomes see ``deals`` branches at the root.

**Players, returns.** The player to move is the engine's ``to_act`` (a partner answers
"May I go out?" at its own decision node). Rewards come at the end of each round: every
player receives its side's score for the round, so partners share them; ``returns()`` is
each player's side total so far. The game is general-sum.

**Length.** The engine puts no bound on a round's length (a player may stage and clear
cards forever), so a game is cut short, as a terminal state, after
``rounds * max_actions`` actions; returns are then the totals of the finished rounds.
Random play needs about 1,000 actions per round.

**Observations.** Observation tensors are the vector of :mod:`handfoot.rl.observation`;
observation strings describe the seat's view. The information-state string adds the
public record of every committed move of the game (melds, discards, pickups, answers ...);
the information-state tensor is the observation vector. Neither repeats the cards a seat
drew earlier, so they are not strictly perfect recall of the seat's own past hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from handfoot.game import moves
from handfoot.game.engine import GameState
from handfoot.game.rules import Layout, Profile
from handfoot.rl import EXTRA_HINT
from handfoot.rl.observation import ObservationEncoder, describe_view, resolve_game
from handfoot.rl.resample import resample_hidden

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - the rl extra is missing
    raise ImportError(f"handfoot.rl.openspiel needs {exc.name}: {EXTRA_HINT}") from exc

__all__ = ["GAME_NAME", "HandAndFootGame", "HandAndFootState", "engine_state",
           "ismcts_resampler"]

GAME_NAME = "python_hand_and_foot"

DEFAULTS: dict[str, Any] = {
    "profile": "partnership-13",
    "players": 4,
    "layout": "",
    "rounds": 0,
    "deals": 10_000,
    "max_actions": 20_000,
}

UTILITY_BOUND = 100_000.0
"""Per round: no side scores this much in a round."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Hand and Foot",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class _Engine:
    """Holds the engine state; deep copies use the engine's cheap ``copy``."""

    __slots__ = ("log", "state")

    def __init__(self, state: GameState, log: list[str]) -> None:
        self.state = state
        self.log = log

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.copy(), self.log[:])


class _Config:
    """A game's settings, shared (never copied) by its states."""

    def __init__(self, profile: Profile, layout: Layout, deals: int, max_actions: int) -> None:
        self.profile = profile
        self.layout = layout
        self.deals = deals
        self.max_actions = max_actions
        self.encoder = ObservationEncoder(profile, layout)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self


class HandAndFootGame(pyspiel.Game):  # type: ignore[misc]
    """The game; its parameters choose the profile and seating."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**DEFAULTS, **(params or {})}
        rounds = int(values["rounds"])
        overrides: dict[str, object] | None = {"rounds": rounds} if rounds > 0 else None
        profile, layout = resolve_game(
            str(values["profile"]), str(values["layout"]) or int(values["players"]), overrides)
        deals = int(values["deals"])
        if deals < 1:
            raise ValueError("deals must be at least 1")
        max_actions = int(values["max_actions"]) * profile.rounds
        info = pyspiel.GameInfo(
            num_distinct_actions=moves.NUM_ACTIONS,
            max_chance_outcomes=deals,
            num_players=layout.players,
            min_utility=-UTILITY_BOUND * profile.rounds,
            max_utility=UTILITY_BOUND * profile.rounds,
            utility_sum=None,
            max_game_length=max_actions + 1,
        )
        super().__init__(_GAME_TYPE, info, params or {})
        # set after pyspiel.Game.__init__, which would drop them
        self.config = _Config(profile, layout, deals, max_actions)
        self.profile, self.layout, self.encoder = profile, layout, self.config.encoder

    def new_initial_state(self) -> HandAndFootState:
        return HandAndFootState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> HandAndFootObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return HandAndFootObserver(self, perfect_recall)


class HandAndFootState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: before the deal (a chance node), then the engine's state."""

    def __init__(self, game: HandAndFootGame) -> None:
        super().__init__(game)
        self._game: _Config = game.config
        self._engine: _Engine | None = None
        self._actions = 0
        self._rewards = [0.0] * game.layout.players
        self._cut = False

    # --- the pyspiel API -----------------------------------------------------------------

    def current_player(self) -> int:
        if self._engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._engine.state.to_act

    def _legal_actions(self, player: int) -> list[int]:
        if self._engine is None or self.is_terminal() or player != self._engine.state.to_act:
            return []
        return self._engine.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self._game.deals
        return [(k, p) for k in range(self._game.deals)]

    def _apply_action(self, action: int) -> None:
        game = self._game
        if self._engine is None:
            self._engine = _Engine(
                GameState.new(game.profile, layout=game.layout, seed=int(action)), [])
            return
        state = self._engine.state
        seat = state.to_act
        done = len(state.results)
        committed = state.apply_action(int(action))
        self._actions += 1
        if committed is not None:
            self._engine.log.append(f"{seat}:{moves.format_move(committed)}")
        ended = state.results[done:]  # rounds this action ended (one, or none)
        self._rewards = [float(sum(r.scores[state.side_of[s]].total for r in ended))
                         for s in range(state.players)]
        if self._actions >= game.max_actions and not state.is_over:
            self._cut = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal from seed {action}"
        return moves.action_name(int(action))

    def is_terminal(self) -> bool:
        return self._engine is not None and (self._engine.state.is_over or self._cut)

    def round_rewards(self) -> list[float]:
        """Each player's side score for the round the last action ended (else zeros)."""
        return list(self._rewards)

    def returns(self) -> list[float]:
        if self._engine is None:
            return [0.0] * self._game.layout.players
        state = self._engine.state
        return [float(state.totals[state.side_of[s]]) for s in range(state.players)]

    def __str__(self) -> str:
        if self._engine is None:
            return "before the deal"
        state = self._engine.state
        hands = " / ".join(f"{s}: {len(state.hand(s))}" for s in range(state.players))
        return (f"round {state.round_number}, phase {state.phase.name.lower()}, "
                f"to act {state.to_act}, held {hands}, stock {len(state.stock)}, "
                f"pile {len(state.pile)}, totals {state.totals}, actions {self._actions}")

    # --- for bots and tests --------------------------------------------------------------

    @property
    def engine(self) -> GameState | None:
        """The engine state (None before the deal): hidden information, never a view."""
        return None if self._engine is None else self._engine.state

    @property
    def public_log(self) -> list[str]:
        return [] if self._engine is None else self._engine.log


def engine_state(state: Any) -> GameState:
    """The engine state under an OpenSpiel state of this game (after the deal)."""
    engine = state.engine
    if engine is None:
        raise ValueError("the cards are not dealt yet")
    assert isinstance(engine, GameState)
    return engine


def ismcts_resampler(seed: int | None = None) -> Callable[[Any, int], Any]:
    """A resampler for OpenSpiel's ``ISMCTSBot.set_resampler``: a copy of the state with
    the cards hidden from the player dealt again (:func:`~handfoot.rl.resample.resample_hidden`),
    so the player's information state is unchanged."""
    rng = random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        clone = state.clone()
        engine = clone._engine
        if engine is not None:
            clone._engine = _Engine(resample_hidden(engine.state, player, rng), engine.log)
        return clone

    return resample


class HandAndFootObserver:
    """OpenSpiel's py-observer: the observation vector and a text of the seat's view."""

    def __init__(self, game: HandAndFootGame, perfect_recall: bool) -> None:
        self.encoder = game.config.encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HandAndFootState, player: int) -> None:
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.encoder.encode_list(engine.view(player))

    def string_from(self, state: HandAndFootState, player: int) -> str:
        engine = state.engine
        if engine is None:
            return f"seat {player}, before the deal"
        text = describe_view(engine.view(player))
        if self.perfect_recall:
            text += "\nmoves: " + ", ".join(state.public_log)
        return text


pyspiel.register_game(_GAME_TYPE, HandAndFootGame)
