"""Simulation: complete games between bots, and statistics over many of them.

Every game's seed, and every bot's, is derived from one simulation seed, so the same
seed gives the same games and the same statistics on every machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from handfoot.bots import Bot, make_bot
from handfoot.engine import GameState, IllegalMoveError
from handfoot.record import GameRecord, GameRecorder
from handfoot.rules import Layout, Profile

__all__ = ["GameSummary", "SafetyCapReached", "SimulationStats", "play_game", "simulate"]

MAX_ACTIONS_PER_GAME = 2_000_000
"""A game that needs more actions than this is stuck: a bug, never a result."""


class SafetyCapReached(RuntimeError):
    """A game did not end within :data:`MAX_ACTIONS_PER_GAME` actions."""


def derive_seed(seed: int, *labels: object) -> int:
    """A seed for one part of a simulation (a game, a bot), independent of the others."""
    text = ":".join(str(x) for x in (seed, *labels))
    return int.from_bytes(hashlib.sha256(f"handfoot-sim:{text}".encode()).digest()[:8], "big")


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What one finished game did."""

    seed: int
    actions: int
    moves: int
    """Player moves committed (staging actions not counted)."""
    round_ends: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


def play_game(profile: Profile, seed: int, bots: Sequence[Bot], *,
              layout: Layout | None = None,
              state: GameState | None = None,
              recorder: GameRecorder | None = None,
              after: Callable[[GameState], None] | None = None,
              ) -> tuple[GameState, GameSummary]:
    """Play one game to its end, each seat's bot choosing from its own view.

    Plays ``state`` if given (else a new game from ``seed``), through ``recorder`` if
    given, so the game is recorded; ``after(state)`` is called after every action.
    """
    if recorder is not None:
        state = recorder.state
    state = state or GameState.new(profile, layout=layout, seed=seed)
    apply = recorder.apply_action if recorder is not None else state.apply_action
    if len(bots) != state.players:
        raise ValueError(f"{len(bots)} bots for {state.players} seats")
    actions = moves = 0
    while not state.is_over:
        seat = state.to_act
        committed = apply(bots[seat].choose(state.view(seat)))
        actions += 1
        if committed is not None:
            moves += 1
        if after is not None:
            after(state)
        if actions > MAX_ACTIONS_PER_GAME:
            raise SafetyCapReached(
                f"game with seed {seed} did not end after {MAX_ACTIONS_PER_GAME} actions")
    summary = GameSummary(
        seed=seed,
        actions=actions,
        moves=moves,
        round_ends=tuple(r.reason for r in state.results),
        totals=tuple(state.totals),
        winners=state.winners(),
    )
    return state, summary


@dataclass
class SimulationStats:
    """Statistics over simulated games."""

    profile: str
    layout: str
    bots: tuple[str, ...]
    seed: int
    games: int = 0
    actions: int = 0
    moves: int = 0
    rounds: int = 0
    round_ends: dict[str, int] = field(default_factory=dict)
    score_sums: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)

    def add(self, summary: GameSummary) -> None:
        if not self.score_sums:
            self.score_sums = [0] * len(summary.totals)
            self.wins = [0.0] * len(summary.totals)
        self.games += 1
        self.actions += summary.actions
        self.moves += summary.moves
        self.rounds += len(summary.round_ends)
        for reason in summary.round_ends:
            self.round_ends[reason] = self.round_ends.get(reason, 0) + 1
        for side, total in enumerate(summary.totals):
            self.score_sums[side] += total
        for side in summary.winners:
            self.wins[side] += 1 / len(summary.winners)

    def as_dict(self) -> dict[str, object]:
        g = max(self.games, 1)
        return {
            "profile": self.profile,
            "layout": self.layout,
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "rounds": self.rounds,
            "actions_per_game": round(self.actions / g, 1),
            "moves_per_game": round(self.moves / g, 1),
            "round_ends": dict(sorted(self.round_ends.items())),
            "mean_score_per_side": [round(s / g, 1) for s in self.score_sums],
            "win_share_per_side": [round(w / g, 4) for w in self.wins],
        }

    def format(self) -> str:
        d = self.as_dict()
        ends = self.round_ends
        lines = [
            f"profile {self.profile} ({self.layout}), bots {', '.join(self.bots)}, "
            f"seed {self.seed}",
            f"games: {self.games}   rounds: {self.rounds}",
            f"moves per game: {d['moves_per_game']}   actions per game: {d['actions_per_game']}",
            "rounds ended: " + ", ".join(f"{reason} {n}" for reason, n in sorted(ends.items())),
        ]
        for side, (mean, share) in enumerate(zip(d["mean_score_per_side"],  # type: ignore[call-overload]
                                                 d["win_share_per_side"], strict=True)):
            lines.append(f"side {side + 1}: mean score {mean}, won {share:.1%} of games")
        return "\n".join(lines)


def simulate(profile: Profile, games: int, seed: int, *, layout: Layout | None = None,
             bots: Sequence[str] = ("random",),
             record: bool = False,
             on_game: Callable[[int, GameState, GameSummary, GameRecord | None], None]
             | None = None,
             ) -> SimulationStats:
    """Play ``games`` complete games; ``bots`` names one level per seat, or one for all.

    With ``record``, each game is recorded and its :class:`GameRecord` passed to
    ``on_game(index, state, summary, record)``.
    """
    layout = layout or profile.layout
    names = tuple(bots) if len(bots) > 1 else tuple(bots) * layout.players
    if len(names) != layout.players:
        raise ValueError(f"give one bot for all seats or one per seat ({layout.players})")
    stats = SimulationStats(profile.name, str(layout), names, seed)
    for i in range(games):
        game_seed = derive_seed(seed, "game", i)
        players = [make_bot(name, derive_seed(seed, "bot", i, s)) for s, name in enumerate(names)]
        state = GameState.new(profile, layout=layout, seed=game_seed)
        recorder = GameRecorder(state, seat_names=list(names),
                                metadata={"game": i + 1}) if record else None
        try:
            state, summary = play_game(profile, game_seed, players, state=state,
                                       recorder=recorder)
        except IllegalMoveError as exc:  # a bot chose an illegal action: an engine bug
            raise RuntimeError(f"game {i} (seed {game_seed}): {exc}") from exc
        stats.add(summary)
        if on_game is not None:
            on_game(i, state, summary, recorder.record() if recorder is not None else None)
    return stats
