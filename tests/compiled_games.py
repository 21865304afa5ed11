"""The seeded games that the compiled and the pure build must play identically.

Run as a script by tests/test_compiled.py under each build (a fresh interpreter, so the
build it imports is the one on its path): it prints the build (``compiled`` or ``pure``)
on the first line, then one line per game: its name, the sha256 of its record's JSON and
the sha256 of every decision made in it (the seat, the legal actions listed and the
action chosen). Two builds that print the same game lines made byte-identical records by
the same decisions.

The games: every built-in profile at every seating it allows, one round played by random
bots and one by hard bots, a whole game between hard bots at each profile's default
seating (later rounds have other opening minimums), and one round of partnership-13 with
an expert at the first seat (a Python subclass of the compiled hard bot, searching every
decision it can with a fixed number of samples, so reproducible)::

    PYTHONPATH=src python tests/compiled_games.py
"""

from __future__ import annotations

import hashlib
import sys

SEED = 316
BOTS = ("random", "hard")
FULL = "full"
"""The bot level of a case that plays a whole game between hard bots."""
EXPERT = "expert"
"""The bot level of the case with an expert at seat 1 and hard bots elsewhere."""


def cases() -> list[tuple[str, str, str]]:
    """(profile, layout, bots) of every game, ``bots`` being a level or :data:`FULL`."""
    from handfoot.rules import builtin_profile_names, load_profile

    out = []
    for name in builtin_profile_names():
        profile = load_profile(name)
        for layout in profile.layouts:
            for bot in BOTS:
                out.append((name, str(layout), bot))
        out.append((name, str(profile.layout), FULL))
    out.append(("partnership-13", "2x2", EXPERT))
    return out


def play(profile_name: str, layout_text: str, bot: str) -> tuple[str, str]:
    """(record digest, decisions digest) of one game."""
    from handfoot.bots import Bot
    from handfoot.engine import GameState
    from handfoot.record import GameRecorder, to_json
    from handfoot.registry import make_bot
    from handfoot.rules import load_profile
    from handfoot.search import ExpertBot
    from handfoot.sim import derive_seed

    profile = load_profile(profile_name, overrides=None if bot == FULL else {"rounds": 1})
    layout = next(x for x in profile.layouts if str(x) == layout_text)
    seed = derive_seed(SEED, profile_name, layout_text, bot)
    level = "hard" if bot in (FULL, EXPERT) else bot
    bots: list[Bot] = [make_bot(level, derive_seed(SEED, "bot", bot, s))
                       for s in range(layout.players)]
    if bot == EXPERT:
        bots[0] = ExpertBot(derive_seed(SEED, "expert"), time_budget=None, iterations=2,
                            scope="all")
    state = GameState.new(profile, layout=layout, seed=seed)
    recorder = GameRecorder(state, seat_names=[level] * layout.players,
                            metadata={"created_by": "handfoot"})
    decisions = hashlib.sha256()
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        action = bots[seat].choose(view)
        decisions.update(repr((seat, view.legal_actions, action)).encode())
        recorder.apply_action(action)
    record = hashlib.sha256(to_json(recorder.record()).encode()).hexdigest()
    return record, decisions.hexdigest()


def main() -> None:
    import handfoot

    print("compiled" if handfoot.compiled else "pure", flush=True)
    for case in cases():
        record, decisions = play(*case)
        print("_".join(case), record, decisions, flush=True)


if __name__ == "__main__":
    sys.exit(main())
