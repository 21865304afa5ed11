"""Train a small policy on the Gymnasium environment and plot its win rate.

A masked softmax policy, linear in a few features of each action read from the
observation vector (32 weights; it never unstages cards while another action is legal,
and a game is cut short as a loss after ``MAX_STEPS`` of its steps), is trained by
REINFORCE (discounted rewards-to-go, shaped by the cards on the table, normalised per
game), in plain NumPy on the CPU, in one-round two-player games of the biegames profile
against a mix of the ``random`` and ``easy`` bots.
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

from handfoot.game import moves as mv
from handfoot.game.moves import NUM_ACTIONS, NUM_TARGETS
from handfoot.rl.gymnasium import HandAndFootEnv

PROFILE, PLAYERS, ROUNDS = "biegames", 2, 1
MAX_STEPS = 1500
"""Learner steps after which a game is cut short and counted as a loss (a one-round game
takes a few hundred; a policy that learns to stage and unstage cards could loop)."""
UNSTAGE = (mv.CLEAR, mv.UNDO)
OPPONENTS = ("random", "easy")
Array = npt.NDArray[np.float64]


def _action_tables() -> tuple[npt.NDArray[np.int64], ...]:
    """Static facts of the 108 actions: type, discarded kind, staged rank/target, slot."""
    kind = np.full(NUM_ACTIONS, -1)
    rank = np.full(NUM_ACTIONS, -1)
    target = np.full(NUM_ACTIONS, -1)
    slot = np.zeros(NUM_ACTIONS, dtype=np.int64)
    joker = np.zeros(NUM_ACTIONS, dtype=np.int64)
    kind_type = np.zeros(NUM_ACTIONS, dtype=np.int64)
    for a in range(NUM_ACTIONS):
        if a < mv.GO_OUT_DISCARD:
            kind_type[a] = a  # DRAW .. GO_OUT: types 0..8
        elif a < mv.DISCARD:
            kind_type[a], kind[a] = 9, a - mv.GO_OUT_DISCARD
        elif a < mv.STAGE_NATURAL:
            kind_type[a], kind[a] = 10, a - mv.DISCARD
        elif a < mv.STAGE_WILD:
            kind_type[a] = 11
            rank[a], slot[a] = divmod(a - mv.STAGE_NATURAL, 2)
        elif a < mv.KNEE:
            kind_type[a] = 12
            x, slot[a] = divmod(a - mv.STAGE_WILD, 2)
            joker[a], target[a] = divmod(x, NUM_TARGETS)
        else:
            kind_type[a] = 13
    return kind_type, kind, rank, target, slot, joker


KIND_POINTS = np.array([5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 20, 50, 5, 100]) / 50
N_TYPES = 14
N_FEATURES = N_TYPES + 18


class Policy:
    """A masked softmax over the 108 actions, linear in a few features of each action.

    ``logit(a) = theta . phi(obs, a)``, where ``phi`` is read from the observation vector:
    the action's type, and for a discard the held count, wildness, points of its kind and
    whether either side melds that rank; for staging a natural the held and staged counts
    of the rank and whether the side melds it; for staging a wild the target's staged and
    melded naturals; the pile size for a pickup; the staged cards for a confirm. 32 weights.
    """

    def __init__(self, env: HandAndFootEnv, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.theta = np.zeros(N_FEATURES)
        self.off = env.encoder.offsets
        (self.type, self.kind, self.rank, self.target,
         self.slot, self.joker) = _action_tables()
        self.discards = np.flatnonzero(self.kind >= 0)
        self.naturals = np.flatnonzero(self.rank >= 0)
        self.wilds = np.flatnonzero(self.target >= 0)
        self.m = np.zeros(N_FEATURES)
        self.v = np.zeros(N_FEATURES)
        self.t = 0

    def _get(self, obs: npt.NDArray[np.float32], name: str) -> Array:
        start, n = self.off[name]
        return obs[start:start + n].astype(np.float64)

    def features(self, obs: npt.NDArray[np.float32]) -> Array:
        hand = self._get(obs, "hand")
        staged = self._get(obs, "staged").reshape(NUM_TARGETS, 3)
        melds = self._get(obs, "melds").reshape(-1, NUM_TARGETS, 7)
        own, opp = melds[0], melds[1:].sum(axis=0)
        own_has = (own[:, :6].sum(axis=1) > 0).astype(float)
        opp_has = (opp[:, :6].sum(axis=1) > 0).astype(float)
        opened = self._get(obs, "opened")[0]
        phi = np.zeros((NUM_ACTIONS, N_FEATURES))
        phi[np.arange(NUM_ACTIONS), self.type] = 1.0
        f = N_TYPES
        d, k = self.discards, self.kind[self.discards]
        rk = np.minimum(k, NUM_TARGETS - 1)
        meldable = k < mv.WILD_MELD
        phi[d, f] = hand[k] / 4
        phi[d, f + 1] = (k == 11) | (k == 12)
        phi[d, f + 2] = k == 13
        phi[d, f + 3] = np.where(meldable, own_has[rk], 0)
        phi[d, f + 4] = np.where(meldable, opp_has[rk], 0)
        phi[d, f + 5] = KIND_POINTS[k]
        n, r = self.naturals, self.rank[self.naturals]
        phi[n, f + 6] = (hand[r] - staged[r, 0]) / 4
        phi[n, f + 7] = staged[r, 0] / 4
        phi[n, f + 8] = own_has[r]
        phi[n, f + 9] = self.slot[n]
        w, t = self.wilds, self.target[self.wilds]
        phi[w, f + 10] = t == mv.WILD_MELD
        phi[w, f + 11] = staged[t, 0] / 4
        phi[w, f + 12] = own[t, 0] / 7
        phi[w, f + 13] = self.joker[w]
        phi[mv.PICKUP, f + 14] = self._get(obs, "discard_size")[0] / 20
        phi[mv.CONFIRM, f + 15] = staged.sum() / 10
        phi[mv.CONFIRM, f + 16] = opened
        phi[mv.DRAW, f + 17] = opened
        return phi

    def probs(self, phi: Array, mask: npt.NDArray[np.int8]) -> Array:
        if mask.sum() > mask[list(UNSTAGE)].sum():
            # never unstage while anything else is legal: staging then only goes forward
            mask = mask.copy()
            mask[list(UNSTAGE)] = 0
        logits = np.where(mask > 0, phi @ self.theta, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        p /= p.sum()
        return p

    def act(self, obs: dict[str, Any]) -> tuple[int, Array, Array]:
        phi = self.features(obs["observation"])
        p = self.probs(phi, obs["action_mask"])
        a = int(self.rng.choice(len(p), p=p))
        return a, phi, p

    def update(self, g: Array, lr: float) -> None:
        """One Adam step up the gradient ``g``."""
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * g
        self.v = 0.999 * self.v + 0.001 * g * g
        mhat = self.m / (1 - 0.9 ** self.t)
        vhat = self.v / (1 - 0.999 ** self.t)
        self.theta += lr * mhat / (np.sqrt(vhat) + 1e-8)


def potential(policy: Policy, obs: npt.NDArray[np.float32]) -> float:
    """Shaping potential: the learner's cards on the table minus the other sides', less
    half its cards in hand, over 20 (what a round's score mostly counts)."""
    melds = policy._get(obs, "melds").reshape(-1, NUM_TARGETS, 7)[:, :, [0, 1, 2, 6]]
    return float(melds[0].sum() - melds[1:].sum() - 0.5 * policy._get(obs, "hand").sum()) / 20


def play(env: HandAndFootEnv, policy: Policy, seed: int,
         learn: bool) -> tuple[bool, list[Array], list[float]]:
    """One game: whether the learner won and, when learning, the gradients of its
    log-probabilities and its rewards: the change of :func:`potential` at every step, and
    at the end 1 for a win (-1 otherwise) plus the score margin over the best other side in
    thousands; a game cut short counts -1."""
    obs, _ = env.reset(seed=seed)
    grads: list[Array] = []
    rewards: list[float] = []
    before = potential(policy, obs["observation"])
    while True:
        a, phi, p = policy.act(obs)
        if learn:
            d = -p
            d[a] += 1.0
            grads.append(phi.T @ d)
        obs, _, terminated, truncated, info = env.step(a)
        after = potential(policy, obs["observation"])
        reward, before = after - before, after
        if truncated:
            rewards.append(reward - 1.0)
            return False, grads, rewards
        if terminated:
            totals = list(info["totals"])
            mine = totals.pop(env.layout.side_of(env.seat))
            rewards.append(reward + (1.0 if info["won"] else -1.0)
                           + (mine - max(totals)) / 1000)
            return bool(info["won"]), grads, rewards
        rewards.append(reward)


def reinforce_gradient(grads: list[Array], rewards: list[float], gamma: float) -> Array:
    """REINFORCE: discounted rewards-to-go, normalised over the game as the baseline."""
    returns = np.zeros(len(rewards))
    acc = 0.0
    for i in range(len(rewards) - 1, -1, -1):
        acc = rewards[i] + gamma * acc
        returns[i] = acc
    advantage = (returns - returns.mean()) / (returns.std() + 1e-6)
    return np.asarray(advantage @ np.array(grads) / len(grads))


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
          max_games: int | None = None, gamma: float = 0.98) -> History:
    train_envs = {o: HandAndFootEnv(PROFILE, PLAYERS, opponents=o, rounds=ROUNDS,
                                    max_steps=MAX_STEPS) for o in OPPONENTS}
    eval_envs = {o: HandAndFootEnv(PROFILE, PLAYERS, opponents=o, rounds=ROUNDS,
                                   max_steps=MAX_STEPS) for o in OPPONENTS}
    policy = Policy(train_envs["random"], seed)
    hist = History()
    start = time.perf_counter()
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
        _, grads, rewards = play(train_envs[opponent], policy, seed + games, learn=True)
        policy.update(reinforce_gradient(grads, rewards, gamma), lr)
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
    ap.add_argument("--lr", type=float, default=0.05)
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
