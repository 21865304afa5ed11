"""Tune hard's style for a profile by self-play: ``python -m handfoot.runs.tune``.

The hard bot's play is shaped by a few numbers (:data:`handfoot.bots.heuristic.SETTINGS`): how many
naturals of a melded rank it keeps in hand as a pickup ticket, above how many cards it
holds back a new three of a kind, how much a pair is worth keeping, how risky a discard
is that an opponent took the pile with before, ... They were set by hand, once, for every
profile alike. This module searches them for one profile by duplicate self-play
(coordinate ascent): each step changes one setting by one step up or down and plays the
changed bot against the current best in duplicate pairs on fresh deals; the change is kept
when it wins more than half of the games by at least ``z`` standard errors (the pairs'
win shares: the same deal played from both sides cancels most of the deal's luck). The
search stops when a whole round over the settings keeps nothing, or when its budget is
spent.

The result is a *style*: a JSON file (``<profile>.style.json``) with the settings that
differ from hard's, and its card: the seed, the budget, every step measured, the code
version and an evaluation against ``hard`` on deals the search never saw. The ``learned``
bot plays with the shipped style of the profile (``handfoot/bots/models/``); any bot spec can
use one (``hard:hold=1:hold_new_above=6``, :func:`handfoot.bots.registry.make_bot`).

A style is tuned for one seating (``--layout``; the profile's first by default, another
writes ``<profile>.<layout>.style.json``). With more than two sides (three players on
their own) a step is a *rotation* instead of duplicate pairs (:func:`play_rotation`): each
deal is played once per side, the challenger at that side and the incumbent at every
other, and the measure is the share of the other sides it finished above (ties half).

Only a budget of steps is reproducible (``--steps``): the same options give the same
style, however many workers play the games; ``--minutes`` stops after the step that
crosses the time.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handfoot.bots.heuristic import HardBot, settings_of
from handfoot.bots.registry import make_bot
from handfoot.bots.styles import Style
from handfoot.game.loading import load_profile
from handfoot.game.rules import Layout, Profile
from handfoot.runs.cluster import TaskList, code_version, make_runner, run_tasks
from handfoot.runs.sim import derive_seed, play_game
from handfoot.runs.tournament import mean_ci, run_tournament, wilson_interval

__all__ = ["DEFAULTS", "STEPS", "Match", "Step", "evaluate", "main", "play_rotation", "spec",
           "tune"]

STEPS: dict[str, float | int | None] = {
    "hold_new_above": 1, "keep_pair": 25.0, "greedy_hand": 1, "keep_extra": 20.0,
    "keep_on_meld": 20.0, "feed_meld": 15.0, "feed_taken": 20.0, "safe_next_meld": 20.0,
    "safe_unseen": 10.0, "safe_other_meld": 10.0, "feed_thrown": 10.0, "keep_value": 0.25,
    "danger_cards": 1, "pickup_pile": 1, "short_pickup": None, "answer_points": 50,
    "hold_new": None, "hold": 1, "keep_special": 25.0, "dirty_need": 1}
"""Each tuned setting, in the order the search tries them, and its step (``None``: a
switch, tried the other way)."""

DEFAULTS: dict[str, bool | int | float] = settings_of(HardBot(0))
"""Hard's own settings (what every style changes)."""


def _differing(settings: dict[str, bool | int | float]) -> dict[str, bool | int | float]:
    """The settings that differ from hard's."""
    return {k: v for k, v in settings.items() if v != DEFAULTS[k]}


def spec(settings: dict[str, bool | int | float], level: str = "hard") -> str:
    """The bot spec of a level with the settings that differ from hard's, in a fixed
    order: ``spec({"hold": 1})`` is ``"hard:hold=1"``, ``spec({})`` is ``"hard"``."""
    differing = _differing(settings)
    parts = [f"{name}={_text(differing[name])}" for name in sorted(differing)]
    return ":".join([level, *parts])


def _text(value: bool | int | float) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _neighbours(settings: dict[str, bool | int | float],
                name: str) -> list[dict[str, bool | int | float]]:
    """The settings one step away along ``name``: up, then down (a switch: flipped);
    never a negative count or weight."""
    value = settings.get(name, DEFAULTS[name])
    step = STEPS[name]
    if step is None:
        return [{**settings, name: not value}]
    out = []
    for sign in (1, -1):
        moved = value + sign * step
        if isinstance(step, float):
            moved = round(float(moved), 6)
        if moved >= 0:
            out.append({**settings, name: moved})
    return out


@dataclass(frozen=True)
class Step:
    """One measured change: the challenger against the incumbent on fresh deals."""

    setting: str
    challenger: str
    incumbent: str
    pairs: int
    win_rate: float
    """The challenger's share of the games (ties count half)."""
    z: float
    """(win_rate − 0.5) over the standard error of the pairs' win shares."""
    score_diff: float
    """The challenger's mean score difference per game."""
    kept: bool

    def as_dict(self) -> dict[str, Any]:
        return {"setting": self.setting, "challenger": self.challenger,
                "incumbent": self.incumbent, "pairs": self.pairs,
                "win_rate": round(self.win_rate, 4), "z": round(self.z, 2),
                "score_diff": round(self.score_diff, 1), "kept": self.kept}


def _z(shares: Sequence[float]) -> float:
    n = len(shares)
    mean = sum(shares) / n
    if n < 2:
        return 0.0
    var = sum((s - mean) ** 2 for s in shares) / (n - 1)
    if var == 0:
        return 0.0 if mean == 0.5 else math.copysign(math.inf, mean - 0.5)
    return (mean - 0.5) / math.sqrt(var / n)


@dataclass(frozen=True)
class Match:
    """A match of the first bot against the second, as the search and the card read it."""

    win_rate: float
    """Two sides: the first bot's share of the games. More sides: its share of the other
    sides it finished above (ties half), so 0.5 between equals either way."""
    z: float
    """(win_rate − 0.5) over the standard error of the deals' (pairs') shares."""
    score_diff: float
    """Per game, the first bot's total minus the best other side's (two sides) or the
    mean of the other sides' (more)."""
    details: dict[str, Any]
    """The card's figures: intervals, pickup rates, outright wins."""


def play_rotation(profile: Profile, layout: str, bots: tuple[str, str], seed: int,
                  deal: int) -> list[tuple[float, float, float]]:
    """One deal of a game of more than two sides, played once for each side: ``bots[0]``
    at that side, ``bots[1]`` at every other, so the first bot plays every hand of the deal.
    Per game: the first bot's share of the victory, its share of the other sides it
    finished above (ties half) and its total minus the mean of the others'. A module-level
    function of plain arguments, for worker processes."""
    lay = Layout.parse(layout)
    deal_seed = derive_seed(seed, "rotation-deal", deal)
    out = []
    for side in range(lay.sides):
        players = [make_bot(bots[0] if lay.side_of(seat) == side else bots[1],
                            derive_seed(seed, "rotation-bot", deal, side, seat))
                   for seat in range(lay.players)]
        state, _ = play_game(profile, deal_seed, players, layout=lay)
        totals, winners = state.totals, state.winners()
        mine = totals[side]
        others = [t for o, t in enumerate(totals) if o != side]
        above = sum(1.0 if mine > t else 0.5 if mine == t else 0.0 for t in others)
        out.append((1 / len(winners) if side in winners else 0.0, above / len(others),
                    mine - sum(others) / len(others)))
    return out


def _rotation(profile: Profile, layout: Layout, a: str, b: str, deals: int, seed: int,
              workers: int) -> Match:
    lay = str(layout)
    tasks = TaskList(deals, lambda k: (profile, lay, (a, b), seed, k))
    results = run_tasks(play_rotation, tasks, make_runner(workers, None))
    games = [g for k in sorted(results) for g in results[k]]
    shares = [statistics.fmean(g[1] for g in results[k]) for k in sorted(results)]
    diffs = [statistics.fmean(g[2] for g in results[k]) for k in sorted(results)]
    share, lo, hi = mean_ci(shares)
    diff, dlo, dhi = mean_ci(diffs)
    won = sum(g[0] for g in games)
    wlo, whi = wilson_interval(won, len(games))
    return Match(share, _z(shares), diff, {
        "format": f"rotation: each deal played {layout.sides} times, the style at each side "
                  "in turn, hard at the others; win_rate is the share of hard's sides it "
                  "finished above",
        "win_rate_ci95": [round(lo, 4), round(hi, 4)],
        "score_diff_ci95": [round(dlo, 1), round(dhi, 1)],
        "games": len(games), "games_won": round(won / len(games), 4),
        "games_won_ci95": [round(wlo, 4), round(whi, 4)],
        "games_won_if_equal": round(1 / layout.sides, 4)})


def _match(profile: Profile, layout: Layout, a: str, b: str, pairs: int, seed: int,
           workers: int) -> Match:
    """``a`` against ``b`` on ``pairs`` deals: duplicate pairs with two sides, a rotation
    (:func:`play_rotation`) with more."""
    if layout.sides > 2:
        return _rotation(profile, layout, a, b, pairs, seed, workers)
    result = run_tournament(profile, [a, b], games=pairs, seed=seed, layout=layout,
                            workers=workers)
    stats = result.bot_stats[a]
    lo, hi = stats.win_ci()
    diff, dlo, dhi = stats.diff_ci()
    return Match(stats.win_rate, _z(stats.pair_wins), diff, {
        "win_rate_ci95": [round(lo, 4), round(hi, 4)],
        "score_diff_ci95": [round(dlo, 1), round(dhi, 1)],
        "pickup_rate": round(stats.pickup_rate, 4),
        "hard_pickup_rate": round(result.bot_stats[b].pickup_rate, 4)})


def evaluate(profile: Profile, settings: dict[str, bool | int | float], pairs: int,
             seed: int, *, layout: Layout | None = None, workers: int = 1,
             ) -> dict[str, Any]:
    """The style against ``hard`` on ``pairs`` deals from ``seed`` (:func:`_match`)."""
    lay = layout or profile.layout
    name = spec(settings)
    if name == "hard":
        return {"pairs": pairs, "seed": seed, "win_rate": 0.5, "score_diff_per_game": 0.0,
                "note": "the style is hard's own"}
    m = _match(profile, lay, name, "hard", pairs, seed, workers)
    return {"pairs": pairs, "seed": seed, "layout": str(lay), "win_rate": round(m.win_rate, 4),
            "z": round(m.z, 2), "score_diff_per_game": round(m.score_diff, 1), **m.details}


def tune(profile: Profile, *, pairs: int, seed: int, steps: int | None = None,
         minutes: float | None = None, z: float = 1.0, workers: int = 1,
         layout: Layout | None = None, start: dict[str, bool | int | float] | None = None,
         log: Callable[[str], None] | None = None, order: Sequence[str] | None = None,
         clock: Callable[[], float] = time.monotonic) -> tuple[dict[str, bool | int | float],
                                                               list[Step]]:
    """Coordinate ascent over :data:`STEPS` (see the module's docstring).

    Each step plays ``pairs`` duplicate pairs on deals of its own
    (``derive_seed(seed, "tune", step)``). Stops after ``steps`` steps, after the step
    that crosses ``minutes``, or when a whole round over the settings keeps nothing.
    Returns the settings (those that differ from hard's) and every step measured.
    ``order`` tries those settings first, in that order, then the others of :data:`STEPS`.
    """
    if pairs < 1:
        raise ValueError("pairs must be at least 1")
    if steps is None and minutes is None:
        raise ValueError("give a budget: steps or minutes")
    lay = layout or profile.layout
    names = list(order or ())
    unknown = [n for n in names if n not in STEPS]
    if unknown:
        raise ValueError(f"not a tuned setting: {', '.join(unknown)} (choose from "
                         f"{', '.join(STEPS)})")
    names += [n for n in STEPS if n not in names]
    current = _differing(start or {})
    done: list[Step] = []
    started = clock()

    def spent() -> bool:
        if steps is not None and len(done) >= steps:
            return True
        return minutes is not None and clock() - started >= minutes * 60

    while not spent():
        kept_any = False
        for name in names:
            for challenger in _neighbours(current, name):
                if spent():
                    break
                a, b = spec(challenger), spec(current)
                m = _match(profile, lay, a, b, pairs, derive_seed(seed, "tune", len(done)),
                           workers)
                win, zz, diff = m.win_rate, m.z, m.score_diff
                kept = zz >= z and win > 0.5
                done.append(Step(name, a, b, pairs, win, zz, diff, kept))
                if log:
                    log(f"step {len(done)}: {a} against {b}: {win:.1%} of games "
                        f"(z {zz:+.2f}), {diff:+.0f} points a game"
                        f"{' -- kept' if kept else ''}")
                if kept:
                    current = _differing(challenger)
                    kept_any = True
                    break
        if not kept_any:
            break
    return current, done


def _start(text: str) -> dict[str, bool | int | float]:
    """The settings of ``--start``: a style file, or a bot spec of hard's settings."""
    if text.split(":", 1)[0] == "hard":
        return settings_of(make_bot(text, 0))
    return Style.load(Path(text)).settings


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m handfoot.runs.tune",
        description="Tune hard's style for a profile by duplicate self-play and write "
                    "<profile>.style.json (the learned bot plays the shipped one).")
    parser.add_argument("--profile", default="partnership-13")
    parser.add_argument("--pairs", type=int, default=1000,
                        help="duplicate pairs a step (default 1000)")
    parser.add_argument("--steps", type=int, help="a budget of steps (reproducible)")
    parser.add_argument("--minutes", type=float,
                        help="a budget of wall-clock minutes (default 30 without --steps)")
    parser.add_argument("--z", type=float, default=1.0,
                        help="keep a change that wins by this many standard errors")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--eval-pairs", type=int, default=500,
                        help="pairs against hard on unseen deals for the card (0: none)")
    parser.add_argument("--layout", help="the seating tuned for, SIDESxSEATS (default: the "
                             "profile's first; another one writes <profile>.<layout>.style.json)")
    parser.add_argument("--order", metavar="NAME,NAME,...",
                        help="try these settings first, in this order (then the others)")
    parser.add_argument("--start", help="start from this style file, or a bot spec "
                                        "(hard:feed_taken=0:...)")
    parser.add_argument("--evaluate", type=Path, metavar="FILE",
                        help="tune nothing: play the style FILE against hard on --eval-pairs "
                             "deals from --eval-seed and add the result to its card")
    parser.add_argument("--eval-seed", type=int,
                        help="the evaluation's seed (default derive_seed(SEED, 'style-eval'))")
    parser.add_argument("--out", type=Path, default=Path("."),
                        help="directory of the style file (default .)")
    args = parser.parse_args(argv)
    try:
        profile = load_profile(args.profile)
        layout = Layout.parse(args.layout) if args.layout else profile.layout
        profile.check_layout(layout)
        if args.pairs < 1 or args.workers < 1 or args.eval_pairs < 0:
            raise ValueError("--pairs and --workers must be at least 1, --eval-pairs 0 or more")
        if args.steps is not None and args.steps < 1:
            raise ValueError("--steps must be at least 1")
        start = _start(args.start) if args.start else None
        judged = Style.load(args.evaluate) if args.evaluate else None
        order = [n.strip() for n in args.order.split(",") if n.strip()] if args.order else []
        unknown = [n for n in order if n not in STEPS]
        if unknown:
            raise ValueError(f"--order: not a tuned setting: {', '.join(unknown)}")
    except ValueError as exc:
        print(f"python -m handfoot.runs.tune: {exc}", file=sys.stderr)
        return 2
    eval_seed = (args.eval_seed if args.eval_seed is not None
                 else derive_seed(args.seed, "style-eval"))
    eval_seeds = (str(args.eval_seed) if args.eval_seed is not None
                  else f"derive_seed({args.seed}, 'style-eval')")
    if judged is not None and args.evaluate is not None:
        pairs = args.eval_pairs or 500
        ev = evaluate(profile, judged.settings, pairs, eval_seed, layout=layout,
                      workers=args.workers)
        ev["seeds"] = eval_seeds
        judged.card.setdefault("evaluations", []).append(ev)
        judged.save(args.evaluate)
        print(f"{spec(judged.settings)} against hard on {pairs} deals ({eval_seeds}): "
              f"{ev['win_rate']:.1%} {ev.get('win_rate_ci95')}, "
              f"{ev['score_diff_per_game']:+.0f} points a game; added to {args.evaluate}")
        return 0
    minutes = args.minutes if args.minutes is not None or args.steps else 30.0
    began, cpu = time.monotonic(), time.process_time()
    seating = f"{layout.sides}x{layout.seats_per_side}"

    def log(line: str) -> None:
        print(line, flush=True)

    settings, steps = tune(profile, pairs=args.pairs, seed=args.seed, steps=args.steps,
                           minutes=minutes, z=args.z, workers=args.workers, start=start,
                           layout=layout, log=log, order=order)
    card: dict[str, Any] = {
        "profile": profile.name, "layout": seating, "level": "hard", "spec": spec(settings),
        "seed": args.seed, "pairs_per_step": args.pairs, "z": args.z,
        "steps": len(steps), **({"order": order} if order else {}),
        "budget": {"steps": args.steps} if args.steps else {"minutes": minutes},
        "workers": args.workers, "code_version": code_version(),
        "wall_seconds": round(time.monotonic() - began, 1),
        "cpu_seconds_main": round(time.process_time() - cpu, 1),
        "history": [s.as_dict() for s in steps]}
    if args.start:
        card["start"] = {"spec": spec(start or {}), "from": Path(args.start).name}
    if args.eval_pairs:
        card["evaluation"] = evaluate(profile, settings, args.eval_pairs, eval_seed,
                                      layout=layout, workers=args.workers)
        card["evaluation"]["seeds"] = eval_seeds
    stem = profile.name if layout == profile.layout else f"{profile.name}.{seating}"
    path = args.out / f"{stem}.style.json"
    Style(settings, card).save(path)
    print(f"{spec(settings)}: wrote {path}")
    if "evaluation" in card:
        ev = card["evaluation"]
        print(f"against hard on {args.eval_pairs} unseen pairs: {ev['win_rate']:.1%} of "
              f"games, {ev['score_diff_per_game']:+.0f} points a game")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
