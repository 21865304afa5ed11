"""Train a model for the ``learned`` bot by self-play: ``python -m handfoot.runs.train``.

    python -m handfoot.runs.train --profile partnership-13 --minutes 20 --workers 2 --seed 1 \\
        --out src/handfoot/bots/models
    python -m handfoot.runs.train --profile partnership-13 --games 400 --seed 1 \\
        --scheduler tcp://host:8786 --out models

Deep Monte-Carlo learning (DouZero, Zha et al. 2021) over hard's candidate plans: the
network scores (state, plan) rows (:func:`handfoot.bots.learned.encode_decision`) and is
regressed on the round's final point margin of the side that followed the plan (this
side's round score minus the other's, over :data:`~handfoot.bots.learned.VALUE_SCALE`).

1. **Warm start**: hard plays every seat (with ``--epsilon`` exploration); the network is
   fitted to the value of the plans followed and, by a softmax over each decision's
   candidates, to rank hard's flagged plan first (imitation).
2. **Self-play**: the learner (its latest weights, ``--epsilon`` exploration) plays one
   side; the other side is hard or an earlier version of the learner, half each. Every
   round adds the learner's decisions to a replay buffer; the network is trained on it,
   with the imitation term kept (weight ``--imitate``) so it stays near hard where the
   returns say nothing.
3. **Evaluation**: duplicate pairs against hard on evaluation seeds, which are derived
   from ``(seed, "eval", pair)`` while training games use ``(seed, "train", ...)``
   (disjoint from each other and from a tournament's ``(seed, pair)`` deals).

The games are tasks of :func:`handfoot.runs.cluster.run_tasks`, played in this process, in
``--workers K`` processes or on a Dask cluster (``--scheduler ADDRESS`` or
``$HANDFOOT_SCHEDULER``, docs/cluster.md); each game's seed depends only on its place in
the run (iteration and index) and the results are consumed in that order. So a run with a
budget of games (``--games N``, whole iterations of ``--games-per-iteration``) writes the
same model, byte for byte, wherever its games are played. A budget of minutes
(``--minutes``, the wall-clock time of the whole run) is not reproducible: how many games
fit in it depends on the machine and its load.

Writes ``<out>/<profile>.npz`` and its JSON card (feature-schema hash, seed, budget,
code version, evaluation). ``--smoke`` trains for a few seconds on one-round games (for
the tests).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from handfoot.bots.learned import (
    VALUE_SCALE,
    FloatArray,
    LearnedBot,
    Model,
    Record,
    schema_hash,
)
from handfoot.bots.plans import PlanBot
from handfoot.game.engine import GameState
from handfoot.game.loading import DEFAULT_PROFILE, load_profile
from handfoot.game.rules import Profile
from handfoot.runs.cluster import (
    ClusterError,
    Runner,
    add_runner_options,
    code_version,
    make_runner,
    run_tasks,
    runner_options,
)
from handfoot.runs.sim import derive_seed

__all__ = ["GameTask", "TrainConfig", "evaluate", "main", "play_task", "train"]


@dataclass(frozen=True)
class TrainConfig:
    """Everything a run depends on (``workers`` and ``scheduler``: where its games are
    played, which changes nothing but the time a budget of games takes)."""

    profile: str = DEFAULT_PROFILE
    overrides: tuple[tuple[str, object], ...] = ()
    minutes: float = 10.0
    """The wall-clock budget of the whole run, when ``games`` is ``None``."""
    games: int | None = None
    """The budget in training games (rounded up to whole iterations): reproducible."""
    workers: int = 2
    scheduler: str | None = None
    seed: int = 1
    hidden: tuple[int, ...] = (128, 64)
    epsilon: float = 0.1
    imitate: float = 0.3
    warm_share: float = 0.3
    games_per_iteration: int = 16
    steps_per_iteration: int = 200
    batch: int = 256
    lr: float = 1e-3
    buffer: int = 150_000
    eval_pairs: int = 20
    margin: float = 0.0


@dataclass(frozen=True)
class GameTask:
    """One training or evaluation game, picklable for the worker processes."""

    profile: str
    overrides: tuple[tuple[str, object], ...]
    seed: int
    learner: Model | None
    opponent: Model | None
    """``None``: hard."""
    learner_side: int
    epsilon: float
    all_learner: bool = False
    """Every seat is the learner (the warm start: ``learner`` is ``None``, hard's plans)."""


@dataclass
class GameData:
    """What one game taught: the learner's decisions with their targets."""

    taken: FloatArray
    """One row per decision: the plan followed."""
    targets: FloatArray
    """The round margin of the deciding side, over VALUE_SCALE."""
    candidates: list[FloatArray]
    """Every decision's rows (hard's plan first), for the imitation term."""
    margin: float
    """The learner side's game total minus the other side's."""


def _profile(name: str, overrides: Sequence[tuple[str, object]]) -> Profile:
    return load_profile(name, overrides=dict(overrides) or None)


def play_task(task: GameTask) -> GameData:
    """Play one game and return the learner seats' decisions (run in worker processes)."""
    profile = _profile(task.profile, task.overrides)
    state = GameState.new(profile, seed=task.seed)
    records: dict[int, Record] = {}
    bots: list[PlanBot] = []
    for seat in range(state.players):
        bot_seed = derive_seed(task.seed, "bot", seat)
        side = seat % state.sides
        if task.all_learner or side == task.learner_side:
            rec: Record = []
            records[seat] = rec
            bots.append(LearnedBot(bot_seed, model=task.learner, shipped=False,
                                   epsilon=task.epsilon, record=rec))
        elif task.opponent is not None:
            bots.append(LearnedBot(bot_seed, model=task.opponent, shipped=False))
        else:
            bots.append(PlanBot(bot_seed))
    while not state.is_over:
        seat = state.to_act
        state.apply_action(bots[seat].choose(state.view(seat)))
    taken: list[FloatArray] = []
    targets: list[float] = []
    candidates: list[FloatArray] = []
    for seat, rec in records.items():
        side = seat % state.sides
        for rows, choice, number in rec:
            scores = [s.total for s in state.results[number - 1].scores]
            other = max(v for s, v in enumerate(scores) if s != side)
            taken.append(rows[choice])
            targets.append((scores[side] - other) / VALUE_SCALE)
            candidates.append(rows)
    totals = state.totals
    margin = float(totals[task.learner_side]
                   - max(v for s, v in enumerate(totals) if s != task.learner_side))
    dim = candidates[0].shape[1] if candidates else 0
    return GameData(np.array(taken, dtype=np.float32).reshape(-1, dim),
                    np.array(targets, dtype=np.float32), candidates, margin)


# --- the network: forward, backward, Adam -------------------------------------------------

class Trainer:
    """An MLP (ReLU) trained with Adam on value regression plus imitation."""

    def __init__(self, dim: int, hidden: Sequence[int], rng: np.random.Generator,
                 mean: FloatArray, scale: FloatArray, lr: float) -> None:
        sizes = [dim, *hidden, 1]
        self.w = [(rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32)
                  for a, b in itertools.pairwise(sizes)]
        self.b = [np.zeros(b, dtype=np.float32) for b in sizes[1:]]
        self.w[-1] *= 0.1
        self.mean = mean
        self.scale = scale
        self.lr = lr
        self.t = 0
        self.m = [np.zeros_like(p) for p in (*self.w, *self.b)]
        self.v = [np.zeros_like(p) for p in (*self.w, *self.b)]

    def model(self, card: dict[str, Any]) -> Model:
        return Model([w.copy() for w in self.w], [b.copy() for b in self.b], self.mean,
                     self.scale, card)

    def _forward(self, x: FloatArray) -> tuple[FloatArray, list[FloatArray]]:
        h = (x - self.mean) / self.scale
        acts = [h]
        for i, (w, b) in enumerate(zip(self.w, self.b, strict=True)):
            h = h @ w + b
            if i < len(self.w) - 1:
                h = np.maximum(h, 0.0)
            acts.append(h)
        return h[:, 0], acts

    def _backward(self, acts: list[FloatArray], grad_out: npt.NDArray[Any],
                  ) -> list[FloatArray]:
        g = grad_out[:, None].astype(np.float32)
        gw: list[FloatArray] = []
        gb: list[FloatArray] = []
        for i in range(len(self.w) - 1, -1, -1):
            gw.append(acts[i].T @ g)
            gb.append(g.sum(axis=0))
            if i:
                g = (g @ self.w[i].T) * (acts[i] > 0)
        gw.reverse()
        gb.reverse()
        return [*gw, *gb]

    def step(self, x: FloatArray, y: FloatArray, groups: FloatArray | None,
             counts: list[int] | None, imitate: float, tau: float = 0.1) -> float:
        """One Adam step on MSE(value(x), y) and, for ``groups`` (candidate rows, hard's
        first in each group of ``counts``), ``imitate`` × softmax cross-entropy."""
        pred, acts = self._forward(x)
        err = pred - y
        loss = float(np.mean(err ** 2))
        grads = self._backward(acts, 2.0 * err / len(y))
        if groups is not None and counts and imitate > 0:
            q, acts2 = self._forward(groups)
            g = np.zeros_like(q)
            pos = 0
            ce = 0.0
            for k in counts:
                z = q[pos:pos + k] / tau
                z = z - z.max()
                p = np.exp(z) / np.exp(z).sum()
                ce -= math.log(max(float(p[0]), 1e-12))
                p[0] -= 1.0
                g[pos:pos + k] = p / tau
                pos += k
            n = len(counts)
            loss += imitate * ce / n
            extra = self._backward(acts2, imitate * g / n)
            grads = [a + b for a, b in zip(grads, extra, strict=True)]
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        params = [*self.w, *self.b]
        for i, (p, gr) in enumerate(zip(params, grads, strict=True)):
            self.m[i] = b1 * self.m[i] + (1 - b1) * gr
            self.v[i] = b2 * self.v[i] + (1 - b2) * gr * gr
            mh = self.m[i] / (1 - b1 ** self.t)
            vh = self.v[i] / (1 - b2 ** self.t)
            p -= (self.lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        return loss


class Buffer:
    """The latest decisions (rows followed with targets; candidate groups for imitation)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.x: list[FloatArray] = []
        self.y: list[FloatArray] = []
        self.groups: list[FloatArray] = []
        self.count = 0

    def add(self, data: GameData) -> None:
        if len(data.targets):
            self.x.append(data.taken)
            self.y.append(data.targets)
            self.groups.extend(data.candidates[::3])
            self.count += len(data.targets)
        while self.count > self.size and len(self.x) > 1:
            self.count -= len(self.y[0])
            del self.x[0]
            del self.y[0]
        if len(self.groups) > self.size // 3:
            del self.groups[:len(self.groups) - self.size // 3]

    def arrays(self) -> tuple[FloatArray, FloatArray]:
        return np.concatenate(self.x), np.concatenate(self.y)


def _train_steps(trainer: Trainer, buf: Buffer, steps: int, batch: int, imitate: float,
                 rng: np.random.Generator) -> float:
    x, y = buf.arrays()
    losses = []
    for _ in range(steps):
        idx = rng.integers(0, len(y), size=min(batch, len(y)))
        gi = rng.integers(0, len(buf.groups), size=min(batch // 4, len(buf.groups)))
        chosen = [buf.groups[i] for i in gi]
        groups = np.concatenate(chosen) if chosen else None
        losses.append(trainer.step(x[idx], y[idx], groups, [len(c) for c in chosen],
                                   imitate))
    return float(np.mean(losses)) if losses else math.nan


def _run(tasks: list[GameTask], runner: Runner) -> list[GameData]:
    """Every task's game, in the order of ``tasks`` whatever order they finish in."""
    results = run_tasks(play_task, [(i, (task,)) for i, task in enumerate(tasks)], runner)
    return [results[i] for i in range(len(tasks))]


def evaluate(cfg: TrainConfig, model: Model, runner: Runner, pairs: int) -> dict[str, Any]:
    """Duplicate pairs against hard on evaluation seeds: win rate and margin per game."""
    tasks = []
    for pair in range(pairs):
        deal = derive_seed(cfg.seed, "eval", pair)
        for side in (0, 1):
            tasks.append(GameTask(cfg.profile, cfg.overrides, deal, model, None, side, 0.0))
    results = _run(tasks, runner)
    wins = sum(1.0 if r.margin > 0 else 0.5 if r.margin == 0 else 0.0 for r in results)
    margins = [r.margin for r in results]
    n = len(results)
    return {"pairs": pairs, "games": n, "win_rate": wins / n if n else math.nan,
            "score_diff_per_game": float(np.mean(margins)) if n else math.nan,
            "seeds": f"derive_seed({cfg.seed}, 'eval', pair)"}


def train(cfg: TrainConfig, out: Path, log: Any = print) -> Model:
    """Run the whole training and write the model and its card to ``out``."""
    with make_runner(cfg.workers, cfg.scheduler) as runner:
        return _train(cfg, out, runner, log)


def _iterations(games: int, per_iteration: int, warm_share: float) -> tuple[int, int]:
    """A budget of games: the warm start's iterations and all iterations (at least one)."""
    total = max(1, math.ceil(games / per_iteration))
    return max(1, round(total * warm_share)), total


def _train(cfg: TrainConfig, out: Path, runner: Runner, log: Any) -> Model:
    wall_start = time.monotonic()
    cpu_start = time.process_time()
    deadline = wall_start + cfg.minutes * 60.0
    warm_end = wall_start + cfg.minutes * 60.0 * cfg.warm_share
    warm_iterations, iterations = (
        _iterations(cfg.games, cfg.games_per_iteration, cfg.warm_share)
        if cfg.games is not None else (0, 0))
    profile = _profile(cfg.profile, cfg.overrides)
    layout = profile.layout
    rng = np.random.default_rng(cfg.seed)
    pyrng = random.Random(cfg.seed)
    games = 0
    # 1. warm start: hard everywhere, with exploration
    buf = Buffer(cfg.buffer)
    it = 0
    while True:
        tasks = [GameTask(cfg.profile, cfg.overrides,
                          derive_seed(cfg.seed, "train", "warm", it, g), None, None, 0,
                          cfg.epsilon, all_learner=True)
                 for g in range(cfg.games_per_iteration)]
        for data in _run(tasks, runner):
            buf.add(data)
        games += len(tasks)
        it += 1
        done = (it >= warm_iterations if cfg.games is not None
                else time.monotonic() >= warm_end)
        if done and buf.count:
            break
    x, _ = buf.arrays()
    mean = x.mean(axis=0).astype(np.float32)
    scale = np.maximum(x.std(axis=0), 1e-3).astype(np.float32)
    trainer = Trainer(x.shape[1], cfg.hidden, rng, mean, scale, cfg.lr)
    loss = _train_steps(trainer, buf, cfg.steps_per_iteration * 3, cfg.batch, 1.0, rng)
    log(f"warm start: {games} games, {buf.count} decisions, loss {loss:.3f}")
    card: dict[str, Any] = {"schema_hash": schema_hash(layout.players, layout.sides),
                            "margin": cfg.margin}
    snapshots = [trainer.model(card)]
    # 2. self-play against hard and earlier versions
    while (it < iterations if cfg.games is not None
           else time.monotonic() < deadline - _eval_reserve(cfg)):
        current = trainer.model(card)
        tasks = []
        for g in range(cfg.games_per_iteration):
            opponent = None if pyrng.random() < 0.5 else pyrng.choice(snapshots)
            tasks.append(GameTask(cfg.profile, cfg.overrides,
                                  derive_seed(cfg.seed, "train", "self", it, g), current,
                                  opponent, g % 2, cfg.epsilon))
        for data in _run(tasks, runner):
            buf.add(data)
        games += len(tasks)
        loss = _train_steps(trainer, buf, cfg.steps_per_iteration, cfg.batch,
                            cfg.imitate, rng)
        it += 1
        if it % 5 == 0:
            snapshots.append(trainer.model(card))
            snapshots = snapshots[-5:]
        log(f"iteration {it}: {games} games, {buf.count} decisions in the buffer, "
            f"loss {loss:.3f}")
    card = {
        "profile": profile.name, "source": cfg.profile, "overrides": dict(cfg.overrides),
        "layout": str(layout), "schema_hash": schema_hash(layout.players, layout.sides),
        "seed": cfg.seed,
        "budget": ({"games": cfg.games, "games_per_iteration": cfg.games_per_iteration}
                   if cfg.games is not None else {"minutes": cfg.minutes}),
        "minutes": None if cfg.games is not None else cfg.minutes,
        "workers": cfg.workers, "scheduler": cfg.scheduler,
        "games": games, "hidden": list(cfg.hidden), "epsilon": cfg.epsilon,
        "imitate": cfg.imitate, "margin": cfg.margin, "value_scale": VALUE_SCALE,
        "code_version": code_version(),
        "cpu_seconds_main": round(time.process_time() - cpu_start, 1),
        "wall_seconds": round(time.monotonic() - wall_start, 1),
    }
    model = trainer.model(card)
    if cfg.eval_pairs:
        card["evaluation"] = evaluate(cfg, model, runner, cfg.eval_pairs)
        log(f"evaluation against hard: {card['evaluation']}")
    model.card = card
    path = out / f"{profile.name}.npz"  # the learned bot looks models up by this name
    model.save(path)
    log(f"wrote {path} and {path.with_suffix('.json')}")
    return model


def _eval_reserve(cfg: TrainConfig) -> float:
    """Seconds kept for the evaluation at the end (about 0.5 s a game on one core)."""
    return cfg.eval_pairs * 2 * 0.5 / max(1, cfg.workers)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m handfoot.runs.train",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--profile", default=DEFAULT_PROFILE)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, metavar="M",
                        help="wall-clock budget of the whole run (default 10; not "
                             "reproducible: the games that fit depend on the machine)")
    budget.add_argument("--games", type=int, metavar="N",
                        help="budget in training games, rounded up to whole iterations: "
                             "the same model wherever the games are played")
    parser.add_argument("--games-per-iteration", type=int, metavar="G",
                        help="games played between training steps (default 16; 2 with "
                             "--smoke)")
    add_runner_options(parser, default_workers=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--imitate", type=float, default=0.3)
    parser.add_argument("--margin", type=float, default=0.0,
                        help="value units a plan must beat hard's by to be followed")
    parser.add_argument("--eval-pairs", type=int, default=20)
    parser.add_argument("--smoke", action="store_true",
                        help="a few seconds on one-round games (for the tests)")
    args = parser.parse_args(argv)
    try:
        workers, scheduler = runner_options(args.workers, args.scheduler, default_workers=2)
    except ValueError as exc:
        parser.error(str(exc))
    if args.minutes is not None and args.minutes <= 0:
        parser.error("--minutes must be above 0")
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.games_per_iteration is not None and args.games_per_iteration < 1:
        parser.error("--games-per-iteration must be at least 1")
    minutes = 10.0 if args.minutes is None else args.minutes
    cfg = TrainConfig(profile=args.profile, minutes=minutes, games=args.games,
                      workers=workers, scheduler=scheduler, seed=args.seed,
                      epsilon=args.epsilon, imitate=args.imitate, margin=args.margin,
                      eval_pairs=args.eval_pairs,
                      games_per_iteration=args.games_per_iteration or 16)
    if args.smoke:
        cfg = TrainConfig(profile=args.profile, overrides=(("rounds", 1),),
                          minutes=min(minutes, 0.05), games=args.games, workers=workers,
                          scheduler=scheduler, seed=args.seed,
                          games_per_iteration=args.games_per_iteration or 2,
                          steps_per_iteration=5, batch=32, eval_pairs=1, hidden=(16,),
                          margin=args.margin)
    try:
        train(cfg, args.out, log=lambda text: print(text, file=sys.stderr, flush=True))
    except ClusterError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
