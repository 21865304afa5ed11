"""A guard for speed work: a digest of every decision of many seeded games, to compare two
builds (pure or compiled) before and after a change that must not change any game.

For every built-in profile and every seating it allows, 8 two-round games between normal
bots and 8 between hard bots, played in the one play loop of self-play (``play_view``, the
bot's choice, ``apply_listed``), plus 8 one-round games between random players in the loop
of ``benchmarks/engine.py`` (``legal_actions``, ``apply_listed``): each decision's seat,
legal actions and chosen action go into a sha256, one line per profile, seating and bot,
with the count of decisions, and a last line for all of them::

    python benchmarks/decision_hashes.py > before.txt           # on the build before
    python benchmarks/decision_hashes.py --against before.txt   # after: exits 1 on a change

Run it under another build with ``PYTHONPATH`` (a source tree's ``src``, or an unpacked
compiled wheel); the first line says which build ran and is not compared.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

import handfoot
from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.runs.sim import derive_seed

SEED = 34
GAMES = 8
BOTS = ("random", "normal", "hard")


def digest(profile_name: str, layout_text: str, bot: str, games: int) -> tuple[str, int]:
    """(sha256 prefix, decisions) of ``games`` seeded games of one kind."""
    rounds = 1 if bot == "random" else 2
    profile = load_profile(profile_name, overrides={"rounds": rounds})
    layout = next(x for x in profile.layouts if str(x) == layout_text)
    out = hashlib.sha256()
    decisions = 0
    for g in range(games):
        seed = derive_seed(SEED, profile_name, layout_text, bot, g)
        state = GameState.new(profile, layout=layout, seed=seed)
        if bot == "random":
            rng = random.Random(seed)
            while not state.is_over:
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
                out.update(repr((state.to_act, actions, action)).encode())
                state.apply_listed(action)
                decisions += 1
            continue
        bots = [make_bot(bot, derive_seed(SEED, "bot", g, s)) for s in range(layout.players)]
        while not state.is_over:
            seat = state.to_act
            view = state.play_view(seat)
            action = bots[seat].choose(view)
            out.update(repr((seat, view.legal_actions, action)).encode())
            state.apply_listed(action)
            decisions += 1
        out.update(repr(state.totals).encode())
    return out.hexdigest()[:16], decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="an earlier output: exit 1 if different")
    parser.add_argument("--games", type=int, default=GAMES)
    args = parser.parse_args()
    lines = []
    total = hashlib.sha256()
    count = 0
    print(f"handfoot {handfoot.__version__}, {handfoot.build}", flush=True)
    for name in builtin_profile_names():
        for layout in load_profile(name).layouts:
            for bot in BOTS:
                hexd, n = digest(name, str(layout), bot, args.games)
                line = f"{name} {layout} {bot}: {hexd} ({n:,} decisions)"
                lines.append(line)
                total.update(line.encode())
                count += n
                print(line, flush=True)
    last = f"all: {total.hexdigest()[:16]} ({count:,} decisions)"
    lines.append(last)
    print(last, flush=True)
    if args.against is not None:
        before = [x for x in args.against.read_text().splitlines()[1:] if x]
        if before != lines:
            changed = [b for b, a in zip(before, lines, strict=False) if a != b]
            print(f"DIFFERENT from {args.against}: {len(changed)} lines, e.g. {changed[:3]}")
            sys.exit(1)
        print(f"same as {args.against}")


if __name__ == "__main__":
    main()
