"""Train a small policy on the Gymnasium environment and plot its win rate.

A masked softmax policy, linear in the observation vector (plus a bias per action), is
trained by REINFORCE with a running-mean baseline, in plain NumPy on the CPU, in one-round
two-player games of the biegames profile against a mix of the ``random`` and ``easy`` bots.
At intervals it plays evaluation games against each of them; the win rates are plotted
against the number of training games and saved as a PNG.

    python examples/train_policy.py --minutes 5 --out docs/rl-training.png
    python examples/train_policy.py --smoke --out /tmp/smoke.png   # a few seconds

Needs ``pip install 'handfoot[examples]'`` (the rl extra and matplotlib).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from handfoot.moves import NUM_ACTIONS
from handfoot.rl.gymnasium import HandAndFootEnv

PROFILE, PLAYERS, ROUNDS = "biegames", 2, 1
OPPONENTS = ("random", "easy")
Array = npt.NDArray[np.float64]


class Policy:
    """Masked softmax over the 108 actions; logits = W x + b, x the scaled observation."""

    def __init__(self, n_features: int, n_actions: int, scale: Array, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.w = np.zeros((n_features, n_actions))
        self.b = np.zeros(n_actions)
        self.scale = scale
        # Adam moments
        self.m = [np.zeros_like(self.w), np.zeros_like(self.b)]
        self.v = [np.zeros_like(self.w), np.zeros_like(self.b)]
        self.t = 0

    def features(self, obs: npt.NDArray[np.float32]) -> Array:
        return obs.astype(np.float64) / self.scale

    def probs(self, x: Array, mask: npt.NDArray[np.int8]) -> Array:
        logits = x @ self.w + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        p /= p.sum()
        return p

    def act(self, obs: dict[str, Any]) -> tuple[int, Array, Array]:
        x = self.features(obs["observation"])
        p = self.probs(x, obs["action_mask"])
        a = int(self.rng.choice(len(p), p=p))
        return a, x, p

    def update(self, xs: list[Array], ds: list[Array], advantage: float, lr: float) -> None:
        x = np.array(xs)
        d = np.array(ds)  # one-hot(action) - probs: the gradient of log pi wrt the logits
        grads = [advantage * (x.T @ d) / len(xs), advantage * d.mean(axis=0)]
        self.t += 1
        for i, (param, g) in enumerate(zip((self.w, self.b), grads, strict=True)):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            mhat = self.m[i] / (1 - 0.9 ** self.t)
            vhat = self.v[i] / (1 - 0.999 ** self.t)
            param += lr * mhat / (np.sqrt(vhat) + 1e-8)


def play(env: HandAndFootEnv, policy: Policy, seed: int,
         learn: bool) -> tuple[bool, float, list[Array], list[Array]]:
    """One game: whether the learner won, its score margin over the best other side (in
    thousands), and (when learning) its features and log-probability gradients."""
    obs, _ = env.reset(seed=seed)
    xs: list[Array] = []
    ds: list[Array] = []
    while True:
        a, x, p = policy.act(obs)
        if learn:
            d = -p
            d[a] += 1.0
            xs.append(x)
            ds.append(d)
        obs, _, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            totals = list(info["totals"])
            mine = totals.pop(env.layout.side_of(env.seat))
            return bool(info["won"]), (mine - max(totals)) / 1000, xs, ds


@dataclass
class History:
    games: list[int] = field(default_factory=list)
    win_rates: dict[str, list[float]] = field(default_factory=lambda: {o: [] for o in OPPONENTS})
    seconds: list[float] = field(default_factory=list)


def evaluate(envs: dict[str, HandAndFootEnv], policy: Policy, games: int,
             seed: int) -> dict[str, float]:
    return {name: sum(play(env, policy, seed + i, learn=False)[0] for i in range(games)) / games
            for name, env in envs.items()}


def train(minutes: float, eval_every: int, eval_games: int, lr: float, seed: int,
          max_games: int | None = None) -> History:
    train_envs = {o: HandAndFootEnv(PROFILE, PLAYERS, opponents=o, rounds=ROUNDS)
                  for o in OPPONENTS}
    eval_envs = {o: HandAndFootEnv(PROFILE, PLAYERS, opponents=o, rounds=ROUNDS)
                 for o in OPPONENTS}
    env = train_envs["random"]
    n_features = env.encoder.size
    # scale counts to about 0..1: cards by 10, the stock and pile by 100
    scale = np.full(n_features, 10.0)
    for name in ("stock_size", "discard_size", "opening_minimum"):
        offset, n = env.encoder.offsets[name]
        scale[offset:offset + n] = 100.0
    policy = Policy(n_features, NUM_ACTIONS, scale, seed)
    hist = History()
    start = time.perf_counter()
    baseline = 0.0
    games = 0
    eval_seed = 10_000_000

    def record() -> None:
        rates = evaluate(eval_envs, policy, eval_games, eval_seed)
        hist.games.append(games)
        hist.seconds.append(round(time.perf_counter() - start, 1))
        for o in OPPONENTS:
            hist.win_rates[o].append(rates[o])
        print(f"{games:6d} games {hist.seconds[-1]:7.1f}s  win rate "
              + "  ".join(f"vs {o} {rates[o]:.0%}" for o in OPPONENTS), flush=True)

    record()
    while time.perf_counter() - start < minutes * 60 and (max_games is None
                                                          or games < max_games):
        opponent = OPPONENTS[games % len(OPPONENTS)]
        won, margin, xs, ds = play(train_envs[opponent], policy, seed + games, learn=True)
        # the return: a win counts 1, plus the score margin (a denser signal)
        ret = (1.0 if won else -1.0) + margin
        policy.update(xs, ds, ret - baseline, lr)
        baseline = 0.98 * baseline + 0.02 * ret
        games += 1
        if games % eval_every == 0:
            record()
    if hist.games[-1] != games:
        record()
    return hist


def plot(hist: History, out: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for o in OPPONENTS:
        ax.plot(hist.games, [100 * r for r in hist.win_rates[o]], marker="o", label=f"vs {o}")
    ax.set_xlabel("training games")
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(-2, 102)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="training time")
    ap.add_argument("--eval-every", type=int, default=200, help="training games between evals")
    ap.add_argument("--eval-games", type=int, default=100, help="games per opponent per eval")
    ap.add_argument("--lr", type=float, default=0.03)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("train_policy.png"), help="the PNG")
    ap.add_argument("--json", type=Path, help="also write the measurements as JSON")
    ap.add_argument("--smoke", action="store_true", help="a few seconds: for CI")
    args = ap.parse_args(argv)
    if args.smoke:
        hist = train(minutes=0.2, eval_every=4, eval_games=2, lr=args.lr, seed=args.seed,
                     max_games=8)
    else:
        hist = train(args.minutes, args.eval_every, args.eval_games, args.lr, args.seed)
    title = (f"REINFORCE, linear masked softmax: {PROFILE} {PLAYERS} players, "
             f"{ROUNDS} round")
    plot(hist, args.out, title)
    print(f"wrote {args.out}")
    if args.json:
        args.json.write_text(json.dumps({"games": hist.games, "seconds": hist.seconds,
                                         "win_rates": hist.win_rates}, indent=1) + "\n")


if __name__ == "__main__":
    main()
