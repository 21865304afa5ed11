"""Tournaments between bot levels: every pairing, played in duplicate.

Each *deal* (a game seed) is played twice with the bots' sides swapped, so both bots
play every hand of the deal and the luck of the cards cancels out: in the first game of a
pair side 1 is the first bot of the pairing and side 2 the second; in the second game the
same deal is played with the sides swapped. With partnerships both seats of a side are the
same bot. With more than two bots every pairing is played (round robin), ``games``
duplicate pairs each, over the same deals.

Every seed (deals and bots) is derived with :func:`handfoot.runs.sim.derive_seed` from the
tournament seed and the game's place in the schedule, never from the order in which games
happen to be played, so the results are identical for any number of worker processes.
Only the time bots take per decision varies from run to run; it is kept apart, under
``"timing"`` in :meth:`TournamentResult.as_dict`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from handfoot.bots.registry import check_bot, make_bot
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.rules import Layout, Profile, Seat
from handfoot.game.values import IllegalMoveError
from handfoot.runs.cluster import (
    PartialFile,
    TaskList,
    fingerprint,
    handfoot_version,
    make_runner,
    run_tasks,
)
from handfoot.runs.sim import derive_seed, play_game

__all__ = [
    "BotStats",
    "GameRecord",
    "PairingStats",
    "TournamentResult",
    "mean_ci",
    "play_pair",
    "run_tournament",
    "tournament_run",
    "wilson_interval",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

Progress = Callable[[int, int], None]
"""``progress(games_done, games_total)``, called in the calling process."""


# --- statistics -------------------------------------------------------------------------


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n`` (95% by default).

    ``successes`` may be fractional (a shared victory counts one half). ``(0, 1)`` for
    ``n == 0``.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% confidence interval (normal approximation)."""
    if not values:
        return (0.0, 0.0, 0.0)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean, mean)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


# --- playing ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatCounts:
    """What one bot did in one game (over all the seats it held)."""

    moves: int = 0
    """Moves it committed (staging actions not counted)."""
    draws: int = 0
    """Committed draws from the stock."""
    pickups: int = 0
    """Committed pile pickups."""
    decisions: int = 0
    """Calls of its ``choose()``."""
    think_ns: int = 0
    """Time spent in ``choose()``, in nanoseconds (the only nondeterministic number)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a tournament: where it sits in the schedule and how it ended."""

    pairing: int
    """Index of the pairing (bots ``pairing_bots``) in the round robin."""
    pair: int
    """Index of the duplicate pair within the pairing."""
    game_in_pair: int
    """0: side 1 is the pairing's first bot; 1: the same deal with the sides swapped."""
    deal_seed: int
    side_bots: tuple[str, ...]
    """The bot playing each side."""
    bot_seeds: tuple[int, ...]
    """Each seat's bot seed."""
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    moves: int
    actions: int
    counts: tuple[SeatCounts, ...]
    """Per side: what its bot did."""


def _deal_seed(seed: int, pair: int) -> int:
    return derive_seed(seed, "tournament-deal", pair)


def _bot_seed(seed: int, pairing: int, pair: int, game_in_pair: int, seat: int) -> int:
    return derive_seed(seed, "tournament-bot", pairing, pair, game_in_pair, seat)


def _play_one(profile: Profile, layout: Layout, side_bots: tuple[str, ...], deal_seed: int,
              bot_seeds: tuple[int, ...]) -> tuple[GameState, int, int, list[list[int]]]:
    """Play a game (with :func:`handfoot.runs.sim.play_game`); per side: [moves, draws, pickups,
    decisions, think_ns]."""
    players = [make_bot(side_bots[layout.side_of(seat)], bot_seeds[seat])
               for seat in range(layout.players)]
    state = GameState.new(profile, layout=layout, seed=deal_seed)
    counts = [[0, 0, 0, 0, 0] for _ in range(layout.sides)]

    def count(seat: Seat, committed: mv.Move | None, think_ns: int) -> None:
        c = counts[layout.side_of(seat)]
        c[3] += 1
        c[4] += think_ns
        if committed is not None:
            c[0] += 1
            if isinstance(committed, mv.Draw):
                c[1] += 1
            elif isinstance(committed, mv.Pickup):
                c[2] += 1

    try:
        state, summary = play_game(profile, deal_seed, players, state=state, on_action=count)
    except IllegalMoveError as exc:  # a bot chose an illegal action: a bug
        seat = state.to_act
        raise RuntimeError(f"deal seed {deal_seed}, seat {seat + 1} "
                           f"({side_bots[layout.side_of(seat)]}): {exc}") from exc
    return state, summary.actions, summary.moves, counts


def play_pair(profile: Profile, layout: str, bots: tuple[str, str], seed: int, pairing: int,
              pair: int) -> list[GameRecord]:
    """Play one duplicate pair: the same deal twice, the bots' sides swapped.

    A module-level function of plain (picklable) arguments, so a worker process can run it.
    """
    lay = Layout.parse(layout)
    if lay.sides != 2:
        raise ValueError(f"tournaments need two sides, not {lay}")
    deal = _deal_seed(seed, pair)
    out: list[GameRecord] = []
    for game_in_pair in (0, 1):
        side_bots = bots if game_in_pair == 0 else (bots[1], bots[0])
        seeds = tuple(_bot_seed(seed, pairing, pair, game_in_pair, s)
                      for s in range(lay.players))
        state, actions, moves, counts = _play_one(profile, lay, side_bots, deal, seeds)
        out.append(GameRecord(
            pairing=pairing, pair=pair, game_in_pair=game_in_pair, deal_seed=deal,
            side_bots=side_bots, bot_seeds=seeds, totals=tuple(state.totals),
            winners=state.winners(), moves=moves, actions=actions,
            counts=tuple(SeatCounts(*c) for c in counts)))
    return out


def _pair_to_json(pair: list[GameRecord]) -> list[dict[str, Any]]:
    return [asdict(rec) for rec in pair]


def _pair_from_json(data: list[dict[str, Any]]) -> list[GameRecord]:
    return [GameRecord(
        pairing=d["pairing"], pair=d["pair"], game_in_pair=d["game_in_pair"],
        deal_seed=d["deal_seed"], side_bots=tuple(d["side_bots"]),
        bot_seeds=tuple(d["bot_seeds"]), totals=tuple(d["totals"]),
        winners=tuple(d["winners"]), moves=d["moves"], actions=d["actions"],
        counts=tuple(SeatCounts(**c) for c in d["counts"])) for d in data]


# --- results ----------------------------------------------------------------------------


@dataclass
class BotStats:
    """One bot's results over all its games."""

    name: str
    games: int = 0
    wins: float = 0.0
    moves: int = 0
    draws: int = 0
    pickups: int = 0
    decisions: int = 0
    think_ns: int = 0
    pair_diffs: list[float] = field(default_factory=list)
    """Per duplicate pair, the bot's mean score difference over its two games."""
    pair_wins: list[float] = field(default_factory=list)
    """Per duplicate pair, the bot's share of its two games (a shared victory counts half)."""
    diff_sum: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def pickup_rate(self) -> float:
        """Share of its draw-phase moves that took the pile."""
        taken = self.draws + self.pickups
        return self.pickups / taken if taken else 0.0

    def win_ci(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    def diff_ci(self) -> tuple[float, float, float]:
        """Mean score difference per game and its 95% interval (over duplicate pairs)."""
        return mean_ci(self.pair_diffs)

    def as_dict(self) -> dict[str, object]:
        g = max(self.games, 1)
        lo, hi = self.win_ci()
        _, dlo, dhi = self.diff_ci()
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "score_diff_per_game": round(self.diff_sum / g, 1),
            "score_diff_ci95": [round(dlo, 1), round(dhi, 1)],
            "moves_per_game": round(self.moves / g, 1),
            "draws": self.draws,
            "pickups": self.pickups,
            "pickup_rate": round(self.pickup_rate, 4),
        }

    def timing(self) -> dict[str, object]:
        return {
            "decisions": self.decisions,
            "us_per_decision": round(self.think_ns / max(self.decisions, 1) / 1000, 1),
        }


@dataclass
class PairingStats:
    """Head to head: the first bot's results against the second."""

    bots: tuple[str, str]
    games: int = 0
    wins: float = 0.0
    """The first bot's wins (a shared victory counts one half)."""
    pair_diffs: list[float] = field(default_factory=list)
    """Per duplicate pair, the first bot's mean score difference."""
    moves: int = 0

    def win_ci(self) -> tuple[float, float]:
        """The 95% Wilson interval of the first bot's win rate."""
        return wilson_interval(self.wins, self.games)

    def diff_ci(self) -> tuple[float, float, float]:
        """The first bot's mean score difference per game and its 95% interval."""
        return mean_ci(self.pair_diffs)

    def as_dict(self) -> dict[str, object]:
        lo, hi = self.win_ci()
        mean, dlo, dhi = self.diff_ci()
        return {
            "bots": list(self.bots),
            "games": self.games,
            "pairs": len(self.pair_diffs),
            "wins": [self.wins, self.games - self.wins],
            "win_rate": round(self.wins / max(self.games, 1), 4),
            "win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "score_diff_per_game": round(mean, 1),
            "score_diff_ci95": [round(dlo, 1), round(dhi, 1)],
            "moves_per_game": round(self.moves / max(self.games, 1), 1),
        }


@dataclass
class TournamentResult:
    """A whole tournament: per bot, per pairing, and every game."""

    profile: str
    layout: str
    bots: tuple[str, ...]
    games: int
    """Duplicate pairs per pairing."""
    seed: int
    bot_stats: dict[str, BotStats]
    pairings: list[PairingStats]
    records: list[GameRecord]

    def as_dict(self) -> dict[str, object]:
        """Everything as JSON-ready data; only ``"timing"`` differs between runs."""
        return {
            "profile": self.profile,
            "layout": self.layout,
            "bots": list(self.bots),
            "pairs_per_pairing": self.games,
            "seed": self.seed,
            "format": "duplicate",
            "per_bot": {name: s.as_dict() for name, s in self.bot_stats.items()},
            "head_to_head": [p.as_dict() for p in self.pairings],
            "timing": {name: s.timing() for name, s in self.bot_stats.items()},
        }

    def format(self) -> str:
        """A table per bot and one line per pairing."""
        lines = [
            f"tournament: profile {self.profile} ({self.layout}), bots "
            f"{', '.join(self.bots)}, {self.games} duplicate pairs per pairing, seed {self.seed}",
            "",
        ]
        header = ("BOT", "GAMES", "WINS", "WIN RATE (95% CI)", "SCORE DIFF/GAME (95% CI)",
                  "MOVES/GAME", "PICKUP RATE", "TIME/DECISION")
        rows = [header]
        for name, s in self.bot_stats.items():
            lo, hi = s.win_ci()
            _, dlo, dhi = s.diff_ci()
            rows.append((
                name, str(s.games), f"{s.wins:g}",
                f"{s.win_rate:.1%} ({lo:.1%}-{hi:.1%})",
                f"{s.diff_sum / max(s.games, 1):+.1f} ({dlo:+.1f} to {dhi:+.1f})",
                f"{s.moves / max(s.games, 1):.1f}",
                f"{s.pickup_rate:.1%} ({s.pickups}/{s.draws + s.pickups})",
                f"{s.think_ns / max(s.decisions, 1) / 1000:.1f} µs",
            ))
        widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
        for r in rows:
            lines.append("  ".join(
                f"{cell:<{w}}" if i == 0 else f"{cell:>{w}}"
                for i, (cell, w) in enumerate(zip(r, widths, strict=True))).rstrip())
        lines.append("")
        lines.append("head to head:")
        for p in self.pairings:
            lo, hi = p.win_ci()
            mean, dlo, dhi = p.diff_ci()
            a, b = p.bots
            g = max(p.games, 1)
            lines.append(
                f"  {a} vs {b}: {p.wins:g}-{p.games - p.wins:g} in {p.games} games "
                f"({len(p.pair_diffs)} pairs), {a} wins {p.wins / g:.1%} "
                f"({lo:.1%}-{hi:.1%}), score diff {mean:+.1f}/game "
                f"({dlo:+.1f} to {dhi:+.1f}), {p.moves / g:.1f} moves/game (both sides)")
        return "\n".join(lines)


def _aggregate(records: list[GameRecord], bots: Sequence[str],
               pairings: list[tuple[str, str]]) -> tuple[dict[str, BotStats],
                                                         list[PairingStats]]:
    bot_stats = {name: BotStats(name) for name in bots}
    pair_stats = [PairingStats(p) for p in pairings]
    # records arrive sorted by (pairing, pair, game_in_pair): consecutive twos form a pair
    for i in range(0, len(records), 2):
        duo = records[i:i + 2]
        ps = pair_stats[duo[0].pairing]
        first = ps.bots[0]
        diffs: dict[str, list[int]] = {b: [] for b in ps.bots}
        won = dict.fromkeys(ps.bots, 0.0)
        for rec in duo:
            ps.games += 1
            ps.moves += rec.moves
            for side, name in enumerate(rec.side_bots):
                s = bot_stats[name]
                c = rec.counts[side]
                s.games += 1
                s.moves += c.moves
                s.draws += c.draws
                s.pickups += c.pickups
                s.decisions += c.decisions
                s.think_ns += c.think_ns
                diff = rec.totals[side] - max(t for o, t in enumerate(rec.totals) if o != side)
                s.diff_sum += diff
                diffs[name].append(diff)
                if side in rec.winners:
                    share = 1 / len(rec.winners)
                    s.wins += share
                    won[name] += share
                    if name == first:
                        ps.wins += share
        for name, ds in diffs.items():
            bot_stats[name].pair_diffs.append(statistics.fmean(ds))
            bot_stats[name].pair_wins.append(won[name] / len(ds))
        ps.pair_diffs.append(statistics.fmean(diffs[first]))
    return bot_stats, pair_stats


def tournament_run(profile: Profile, bots: Sequence[str], games: int, seed: int,
                   layout: Layout) -> dict[str, object]:
    """What decides a tournament's results, as a partial-results file records it."""
    return {"command": "tournament", "profile": profile.name,
            "profile_fingerprint": fingerprint(profile), "layout": str(layout),
            "bots": list(bots), "games": games, "seed": seed,
            "handfoot": handfoot_version()}


def run_tournament(profile: Profile, bots: Sequence[str], games: int, seed: int, *,
                   layout: Layout | None = None, workers: int = 1,
                   scheduler: str | None = None,
                   partial: str | Path | None = None, resume: bool = False,
                   progress: Progress | None = None) -> TournamentResult:
    """Play every pairing of ``bots`` in ``games`` duplicate pairs (two games each).

    ``workers`` > 1 plays in that many processes, ``scheduler`` (``tcp://host:8786``) on
    the workers of that Dask cluster; the results are the same either way (only the timing
    differs). With ``partial``, each finished pair is written to that file as the run
    goes (:class:`handfoot.runs.cluster.PartialFile`); with ``resume`` too, the pairs the file
    already holds are not played again. ``progress(done, total)`` is called with the number
    of games finished (those read from the file included).
    """
    names = tuple(bots)
    if len(names) < 2:
        raise ValueError("a tournament needs at least two bots")
    if len(set(names)) != len(names):
        raise ValueError("each bot may appear only once")
    for name in names:
        check_bot(name)
    if games < 1:
        raise ValueError("games must be at least 1")
    if workers < 1:
        raise ValueError("workers must be at least 1")
    layout = layout or profile.layout
    if layout.sides != 2:
        raise ValueError(f"tournaments are played with two sides, not {layout}")
    if resume and partial is None:
        raise ValueError("resume needs the partial-results file")
    runner = make_runner(workers, scheduler)
    pairings = list(combinations(names, 2))
    lay = str(layout)
    tasks = TaskList(len(pairings) * games,  # task i * games + pair, made as it is played
                     lambda k: (profile, lay, pairings[k // games], seed, k // games,
                                k % games))
    total = 2 * len(tasks)
    file = None
    if partial is not None:
        run = tournament_run(profile, names, games, seed, layout)
        file = PartialFile.resume(partial, run) if resume else PartialFile.create(partial, run)

    def on_result(_key: int, _pair: list[GameRecord], finished: int) -> None:
        if progress is not None:
            progress(2 * finished, total)

    try:
        if progress is not None:
            progress(2 * len(file.done) if file is not None else 0, total)
        results = run_tasks(play_pair, tasks, runner, partial=file, encode=_pair_to_json,
                            decode=_pair_from_json, on_result=on_result)
    finally:
        if file is not None:
            file.close()
    records = [rec for key in sorted(results) for rec in results[key]]
    bot_stats, pair_stats = _aggregate(records, names, pairings)
    return TournamentResult(profile=profile.name, layout=lay, bots=names, games=games,
                            seed=seed, bot_stats=bot_stats, pairings=pair_stats,
                            records=records)
