"""The ladder's decisions (``benchmarks/review.py ladder``) played out once to several cuts,
each cut's margin noted: what the review would say of every level's move with play-outs cut
at 2, 4, 8 turns a seat or played to the round's end, on the same decisions, determinizations
and bot seeds. The raw margins are written to a file for :func:`analyse` (docs/review.md,
"Why a meld is judged at six turns"): each level's mean loss and the paired differences
between adjacent levels at each cut, and with two discards compared at the first cut and a
pair with a meld in it at each later one (as the review does with
:data:`handfoot.runs.review.LATE_TURNS_EACH`), and where two levels' moves differ, by the
kinds of move, what the stronger level's gains at each cut.

    python benchmarks/review_probe.py run --games 40 --samples 64 --every 3 --out F
    python benchmarks/review_probe.py analyse F [F ...]

``run`` plays the review's play-outs once, on to the last of ``--cuts`` (default
2,3,4,6,99; 99: the round's end); ``--first`` starts at another game of the ladder's (so
runs can be split and their files analysed together).
"""

from __future__ import annotations

import argparse
import itertools
import math
import pickle
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import review as bench

from handfoot import build
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.values import Phase
from handfoot.runs import review as rv
from handfoot.runs.sim import bot_turn, derive_seed

CUTS: list[int] = [2, 3, 4, 6, 99]
LOG: dict[int, list[float]] = {}


def multi_playout(state: GameState, seat: int, bot_seed: int, profile_name: str,
                  late: bool = False) -> rv.Outcome:
    """As :func:`handfoot.runs.review._playout`, played on to the last of :data:`CUTS`,
    the margin (with the leaf) noted at each (the round's end's where it ends first)."""
    number = state.round_number
    side = seat % state.sides
    bots = [rv._policy(bot_seed + s, profile_name) for s in range(state.players)]
    values: list[float] = []
    turns = 0
    last = seat
    while not state.is_over and state.round_number == number:
        if state.seat != last:
            last = state.seat
            turns += 1
            while len(values) < len(CUTS) and turns >= CUTS[len(values)] * state.players:
                values.append(rv._standing(state, side, 0).margin)
            if len(values) == len(CUTS):
                break
        actor = state.to_act
        state.apply_listed(bots[actor].choose(state.play_view(actor)))
    if len(values) < len(CUTS):
        final = rv._outcome(state, number, side, 0).margin
        values += [final] * (len(CUTS) - len(values))
    out = rv.Outcome(values[0], 0, 0, 0, False, 0)
    LOG[id(out)] = values
    return out


def probe_game(g: int, levels: list[str], every: int, samples: int, seed0: int,
               cuts: list[int]) -> tuple[list[dict[str, Any]], float]:
    """One game of the ladder (as ``ladder_game``): each judged decision's phase, moves,
    kinds, each level's move's index and the margins [cut][move][sample]."""
    CUTS[:] = cuts
    rv._playout = multi_playout
    rv.LATE_TURNS_EACH = rv.HORIZON_TURNS_EACH  # the cuts are noted here, not in weigh
    start = time.process_time()
    out: list[dict[str, Any]] = []
    state, bots, shadows, listers = bench.ladder_table(g, levels, seed0)
    seed = derive_seed(seed0, "ladder", g)
    index = 0
    while not state.is_over:
        seat = state.to_act
        move = bot_turn(bots[seat], state, seat)
        view, pile = rv.seat_input(state, seat)
        listers[seat]._observe(view)
        if (view.phase in (Phase.DRAW, Phase.PLAY) and not view.staged
                and derive_seed(seed, "pick", index) % every == 0):
            mine = {lv: bench._shadow_move(shadows[seat][lv], state, seat) for lv in levels}
            LOG.clear()
            w = rv.weigh(view, pile, list(mine.values()), lister=listers[seat],
                         samples=samples, seed=derive_seed(seed, "decision", index))
            if w is not None:
                vals = [[[LOG[id(o)][h] for o in os_] for os_ in w.outcomes]
                        for h in range(len(cuts))]
                out.append({"game": g, "phase": "draw" if view.phase == Phase.DRAW else "play",
                            "moves": [mv.format_move(m) for m in w.moves],
                            "kinds": [bench._kind(m) for m in w.moves],
                            "level": {lv: w.index_of(mine[lv]) for lv in levels},
                            "vals": vals})
        bench.follow_all(shadows[seat].values(), listers[seat], view, move)
        state.apply(move)
        index += 1
    return out, time.process_time() - start


def run(args: argparse.Namespace) -> None:
    levels = list(bench.LEVELS)
    cuts = [int(c) for c in args.cuts.split(",")]
    print(f"build: {build}; {args.games} games, every {args.every}, {args.samples} "
          f"determinizations, cuts {cuts}", flush=True)
    data: list[dict[str, Any]] = []
    cpu = 0.0
    for g in range(args.first, args.first + args.games):
        got, took = probe_game(g, levels, args.every, args.samples, args.seed, cuts)
        data.extend(got)
        cpu += took
        print(f"  game {g}: {len(got)} decisions, {took:.0f} s", flush=True)
    with open(args.out, "wb") as f:
        pickle.dump({"cuts": cuts, "levels": levels, "decisions": data}, f)
    print(f"{len(data)} decisions, {cpu:.0f} s CPU")


# -- analysis --------------------------------------------------------------------------------

def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    d = [x - y for x, y in zip(a, b, strict=True)]
    m = statistics.fmean(d)
    if len(d) < 2:
        return m, 0.0
    return m, statistics.stdev(d) / math.sqrt(len(d))


def _best(v: list[list[float]], z: float) -> int:
    """The review's rule: the reviewer's own move (0) unless the best other beats it by
    ``z`` standard errors on the even samples."""
    even = [row[0::2] for row in v]
    means = [statistics.fmean(r) if r else -math.inf for r in even]
    ch = max(range(len(v)), key=lambda c: (means[c], -c))
    if ch != 0:
        gain, se = _paired(even[ch], even[0])
        if gain > z * se:
            return ch
    return 0


def losses(d: dict[str, Any], vals: list[list[float]], z: float = rv.Z_BEST,
           half: slice = slice(1, None, 2)) -> dict[str, float]:
    """Each level's loss at a decision from one set of margins [move][sample]."""
    b = _best(vals, z)
    out: dict[str, float] = {}
    for lv, c in d["level"].items():
        out[lv] = 0.0 if c is None or c == b else statistics.fmean(
            x - y for x, y in zip(vals[b][half], vals[c][half], strict=True))
    return out


def _short(d: dict[str, Any], a: int, b: int) -> bool:
    return bool(d["phase"] == "draw"
                or (d["kinds"][a] == "discard" and d["kinds"][b] == "discard"))


def pair_losses(d: dict[str, Any], short: int, long_: int, z: float = rv.Z_BEST,
                ) -> dict[str, float]:
    """Each level's loss where two discards are compared at cut ``short`` and a pair with
    anything else in it at cut ``long_`` (both moves at the same cut)."""
    def vals(a: int, b: int) -> list[list[float]]:
        got: list[list[float]] = d["vals"][short if _short(d, a, b) else long_]
        return got

    k = len(d["moves"])
    best = 0
    if d["vals"][0][0]:
        gains = {}
        for c in range(1, k):
            v = vals(0, c)
            if v[c]:
                gains[c] = _paired(v[c][0::2], v[0][0::2])
        if gains:
            ch = max(gains, key=lambda c: (gains[c][0], -c))
            if gains[ch][0] > z * gains[ch][1]:
                best = ch
    out: dict[str, float] = {}
    for lv, c in d["level"].items():
        if c is None or c == best:
            out[lv] = 0.0
            continue
        v = vals(best, c)
        out[lv] = statistics.fmean(x - y for x, y in zip(v[best][1::2], v[c][1::2],
                                                         strict=True))
    return out


def _ratio_ci(per_game: list[tuple[float, int]]) -> tuple[float, float]:
    return bench._ratio_ci(per_game)


def table(name: str, data: list[dict[str, Any]], levels: list[str],
          each: list[dict[str, float]]) -> None:
    games = sorted({d["game"] for d in data})
    rows = []
    for g in games:
        ls = [e for d, e in zip(data, each, strict=True) if d["game"] == g]
        rows.append(({lv: sum(e[lv] for e in ls) for lv in levels}, len(ls)))
    means = []
    for lv in levels:
        m, h = _ratio_ci([(s[lv], k) for s, k in rows])
        means.append(f"{lv} {m:.1f}±{h:.1f}")
    diffs = []
    for a, b in itertools.pairwise(levels):
        m, h = _ratio_ci([(s[a] - s[b], k) for s, k in rows])
        mark = "ok" if m - h > 0 else ("rev" if m + h < 0 else "--")
        diffs.append(f"{a[0]}-{b[0]} {m:+.1f} ({m - h:+.1f},{m + h:+.1f}) {mark}")
    print(f"{name:28} " + ", ".join(means))
    print(f"{'':28} " + "; ".join(diffs))


def analyse(args: argparse.Namespace) -> None:
    data: list[dict[str, Any]] = []
    cuts: list[int] = []
    levels: list[str] = []
    for path in args.files:
        with open(path, "rb") as f:
            got = pickle.load(f)
        cuts, levels = got["cuts"], got["levels"]
        data.extend(got["decisions"])
    print(f"{len(data)} decisions, {len({d['game'] for d in data})} games, cuts {cuts}")
    for h, cut in enumerate(cuts):
        table(f"cut {cut}", data, levels, [losses(d, d["vals"][h]) for d in data])
    # pairwise: two discards (or any two moves at a draw decision) compared at the short
    # cut, a pair with a meld (or going out) in it at the long one
    for long_ in range(1, len(cuts)):
        table(f"pairs with a meld at cut {cuts[long_]}", data, levels,
              [pair_losses(d, 0, long_) for d in data])
    # where two levels differ: by the kinds of their moves
    print("normal and hard differ (normal kind -> hard kind): decisions, hard's gain a "
          "decision at each cut")
    _differ(data, "normal", "hard", len(cuts))
    print("learned and hard differ (hard kind -> learned kind): learned's gain")
    _differ(data, "hard", "learned", len(cuts))


def _differ(data: list[dict[str, Any]], low: str, high: str, cuts: int) -> None:
    """Where levels ``low`` and ``high`` chose different moves, grouped by the kinds of the
    two moves: how many, and ``high``'s gain a decision (over every decision) at each cut."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for d in data:
        cn, ch = d["level"][low], d["level"][high]
        if cn is None or ch is None or cn == ch:
            continue
        groups.setdefault((d["kinds"][cn], d["kinds"][ch]), []).append(d)
    for (kn, kh), ds in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        gains = []
        for h in range(cuts):
            g = [statistics.fmean(x - y for x, y in zip(d["vals"][h][d["level"][high]],
                                                       d["vals"][h][d["level"][low]],
                                                       strict=True)) for d in ds]
            gains.append(f"{statistics.fmean(g) * len(ds) / len(data):+.2f}")
        print(f"  {kn:8} -> {kh:8} {len(ds):5}  " + " ".join(gains))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run")
    r.add_argument("--games", type=int, default=40)
    r.add_argument("--first", type=int, default=0)
    r.add_argument("--samples", type=int, default=64)
    r.add_argument("--every", type=int, default=3)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--cuts", default="2,3,4,6,99")
    r.add_argument("--out", required=True)
    a = sub.add_parser("analyse")
    a.add_argument("files", nargs="+")
    args = parser.parse_args()
    {"run": run, "analyse": analyse}[args.what](args)


if __name__ == "__main__":
    main()
