"""A long soak: whole games over every profile, seating and bot level, every invariant checked.

Run by ``scripts/soak`` (no test runs it at length; ``tests/test_soak.py`` runs a tiny one).
The checks are those of the property tests (``tests/test_properties.py``): after every
action the cards are conserved and every table is legal, openings, discards and going out
follow the rules; every round's scores equal its breakdown; sampled actions compare each
seat's view with a copy whose hidden cards were dealt again, and every legal action of the
mask; each round ends within the turn bound of ``tests/test_liveness.py``; the finished game
ends properly and its record replays, through JSON, to the same results.

    scripts/soak --games 500 --seed 7          # 500 games, round-robin over every config
    scripts/soak --game remastered-singles:3x1:hard:12345   # one game again

Prints a line per violation (with the ``--game`` that plays it again) and a summary: games,
actions, violations. Exits 1 if any game broke an invariant, 0 otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest

from handfoot.bots.registry import BOTS, make_bot
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.record import GameRecorder
from handfoot.game.rules import Layout
from test_liveness import MAX_TURN_ACTIONS, turn_bound
from test_properties import (
    Invariants,
    assert_game_ended_properly,
    assert_views_hide,
    record_and_replay,
)

LEVELS = ("random", "easy", "normal", "hard")
"""The bot levels soaked by default (``expert`` searches, so it is slow: ask for it)."""


@dataclass(frozen=True)
class Game:
    """One soak game: the rules, the seating, the bot level at every seat and the seed."""

    profile: str
    layout: Layout
    bot: str
    seed: int

    def __str__(self) -> str:
        return f"{self.profile}:{self.layout}:{self.bot}:{self.seed}"

    @classmethod
    def parse(cls, text: str) -> Game:
        profile, layout, bot, seed = text.split(":")
        return cls(profile, Layout.parse(layout), bot, int(seed))


@dataclass
class Outcome:
    game: Game
    actions: int
    rounds: int
    violation: str | None


def configs(levels: Sequence[str]) -> list[tuple[str, Layout, str]]:
    """Every built-in profile at every seating it allows, with every bot level, ordered so
    that a few games already see every profile: each profile's default seating with each
    level first, then the other seatings."""
    names = builtin_profile_names()
    every = [(name, layout, level) for name in names
             for layout in load_profile(name).layouts for level in levels]

    def order(config: tuple[str, Layout, str]) -> tuple[int, int, int]:
        name, layout, level = config
        return (load_profile(name).layouts.index(layout), levels.index(level),
                names.index(name))

    return sorted(every, key=order)


def games(count: int, seed: int, levels: Sequence[str]) -> list[Game]:
    """``count`` games, round-robin over :func:`configs`, each with its own seed."""
    every = configs(levels)
    out = []
    for i in range(count):
        name, layout, level = every[i % len(every)]
        digest = hashlib.sha256(f"soak:{seed}:{i}".encode()).digest()
        out.append(Game(name, layout, level, int.from_bytes(digest[:4], "big")))
    return out


def play(game: Game, *, views: float, masks: float) -> Outcome:
    """Play one game with every check; a broken invariant is the outcome's violation."""
    actions = 0
    state: GameState | None = None
    try:
        profile = load_profile(game.profile)
        state = GameState.new(profile, layout=game.layout, seed=game.seed)
        checks = Invariants(state, game.seed, views=views, masks=masks)
        assert_views_hide(state, checks.rng)
        recorder = GameRecorder(state)
        bots = [make_bot(game.bot, game.seed + seat) for seat in range(state.players)]
        bound = turn_bound(profile, game.layout, len(state.deal.stock))
        round_number, turns, in_turn = 1, 0, 0
        while not state.is_over:
            if state.round_number != round_number:
                bound = turn_bound(profile, game.layout, len(state.deal.stock))
                round_number, turns = state.round_number, 0
            view = state.view(state.to_act)
            assert view.legal_actions, (
                f"seat {state.to_act + 1} has no legal action in {state.phase.name}")
            action = bots[state.to_act].choose(view)
            assert action in view.legal_actions, f"the bot chose {mv.action_name(action)}"
            after = checks(state, action)
            move = recorder.apply_action(action)
            after(state)
            actions += 1
            in_turn += 1
            if isinstance(move, mv.Draw | mv.Pickup):
                turns, in_turn = turns + 1, 0
                assert turns <= bound, (
                    f"round {round_number} took {turns} turns, more than its bound {bound}")
            assert in_turn <= MAX_TURN_ACTIONS * state.players, "a turn never ends"
        assert_game_ended_properly(state)
        assert_views_hide(state, checks.rng)
        record_and_replay(recorder, state, json=True)
    except (Exception, pytest.fail.Exception) as exc:  # every broken check is reported
        where = traceback.extract_tb(exc.__traceback__)[-1]
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        place = f"{Path(where.filename).name}:{where.lineno}"
        rounds = len(state.results) if state is not None else 0
        return Outcome(game, actions, rounds, f"{type(exc).__name__} at {place}: {text}")
    return Outcome(game, actions, len(state.results), None)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/soak", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100,
                        help="games to play, round-robin over every profile, seating and bot "
                             "level (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="the soak's seed (default 1)")
    parser.add_argument("--bots", default=",".join(LEVELS),
                        help="bot levels, comma-separated (default random,easy,normal,hard; "
                             f"known: {', '.join(BOTS)})")
    parser.add_argument("--game", action="append", default=[], metavar="PROFILE:LAYOUT:BOT:SEED",
                        help="play this game (as a violation names it) instead; repeatable")
    parser.add_argument("--views", type=float, default=0.002,
                        help="share of actions after which every view is checked against "
                             "a re-dealt copy (default 0.002)")
    parser.add_argument("--masks", type=float, default=0.002,
                        help="share of actions before which the action mask and every legal "
                             "action are checked (default 0.002)")
    parser.add_argument("--quiet", action="store_true", help="print only violations and the "
                                                              "summary")
    args = parser.parse_args(argv)
    levels = [level.strip() for level in args.bots.split(",") if level.strip()]
    unknown = [level for level in levels if level not in BOTS]
    if unknown or args.games < 0:
        parser.error(f"unknown bot level {unknown[0]!r}" if unknown else "--games must be >= 0")
    try:
        chosen = ([Game.parse(text) for text in args.game] if args.game
                  else games(args.games, args.seed, levels))
    except ValueError as exc:
        parser.error(f"--game: {exc}")
    started = time.monotonic()
    total_actions = violations = 0
    for n, game in enumerate(chosen, 1):
        outcome = play(game, views=args.views, masks=args.masks)
        total_actions += outcome.actions
        if outcome.violation is not None:
            violations += 1
            print(f"VIOLATION game {n} --game {game}: {outcome.violation}", flush=True)
        elif not args.quiet:
            print(f"game {n}/{len(chosen)} {game}: {outcome.rounds} rounds, "
                  f"{outcome.actions} actions, ok", flush=True)
    elapsed = time.monotonic() - started
    print(f"soak: {len(chosen)} games, {total_actions} actions, {violations} violations "
          f"({elapsed:.1f} s)")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
