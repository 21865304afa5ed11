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
decision it can with a fixed number of samples, so reproducible).

Before the games, one line per profile check (:func:`profile_lines`): the rules module is
compiled too, so loading must give the same profiles and refuse the same files with the
same words in both builds: every built-in profile, house-rule files (``extends``, options,
a chain of two files, overrides given to the loader), and invalid ones (each line holds
the error's text). Each loaded profile and its seatings are also pickled, copied and
deep-copied, and must come back equal, with the same hash::

    PYTHONPATH=src python tests/compiled_games.py
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from typing import Any

SEED = 316
BOTS = ("random", "hard")
FULL = "full"
"""The bot level of a case that plays a whole game between hard bots."""
EXPERT = "expert"
"""The bot level of the case with an expert at seat 1 and hard bots elsewhere."""


def cases() -> list[tuple[str, str, str]]:
    """(profile, layout, bots) of every game, ``bots`` being a level or :data:`FULL`."""
    from handfoot.game.loading import builtin_profile_names, load_profile

    out = []
    for name in builtin_profile_names():
        profile = load_profile(name)
        for layout in profile.layouts:
            for bot in BOTS:
                out.append((name, str(layout), bot))
        out.append((name, str(profile.layout), FULL))
    out.append(("partnership-13", "2x2", EXPERT))
    return out


HOUSE_FILES: dict[str, str] = {
    "house.toml": (
        'extends = "remastered-teams"\ntitle = "Our table"\n'
        "[options]\nfirst_to_10000 = true\nsecond_book = true\n"
        '[melds]\nnaturals_per_wild = 1\nwild_free_ranks = ["7"]\n'
        "[scoring]\nvalue_ace = 25\nspecial_book_bonus = { 5 = 3000 }\n"),
    "nephew.toml": (
        'extends = "house.toml"\n[players]\nlayouts = ["2x2", "3x1"]\n'
        "[game]\nopening_minimums = [60, 90, 120]\n"),
    "full.toml": (
        'name = "full"\n[players]\nlayouts = ["2x1"]\n[deal]\nhand_size = 11\n'
        '[going_out]\nspecial_books_to_go_out = ["5", "7"]\nclean_books_to_go_out = 1\n'),
    "loop_a.toml": 'extends = "loop_b.toml"\n',
    "loop_b.toml": 'extends = "loop_a.toml"\n',
}
"""House-rule files the profile checks load, written to a temporary folder (the loader is
given paths relative to it, so the error texts name the same files in every run)."""

VALID: tuple[tuple[str, dict[str, Any] | None], ...] = (
    ("house.toml", None),
    ("nephew.toml", None),
    ("nephew.toml", {"rounds": 2, "pickup_count": "all", "dealer_deals": True}),
    ("full.toml", None),
    ("biegames", {"score_band_minimums": [[-1, 15], [0, 60], [5000, 90]]}),
)
"""(profile, overrides) loaded besides the built-in profiles."""

INVALID: tuple[tuple[str, dict[str, Any] | None], ...] = (
    ("loop_a.toml", None),
    ("missing.toml", None),
    ("partnership-31", None),
    ("house.toml", {"first_to_20000": True}),
    ("house.toml", {"second_book": False}),
    ("partnership-13", {"book_max": 5}),
    ("partnership-13", {"foot_size": 1}),
    ("partnership-13", {"layouts": ["2y2"]}),
    ("partnership-13", {"layouts": ["7x2"]}),
    ("partnership-13", {"hand_sise": 11}),
    ("partnership-13", {"rounds": True}),
    ("partnership-13", {"rounds": 0x1F << 300}),
    ("partnership-13", {"wild_free_ranks": ["3"]}),
    ("partnership-13", {"pickup_wild_top": "likepair"}),
    ("partnership-13", {"opening_minimums": [50, 900000]}),
    ("partnership-13", {"opening_minimums": [50, 99_999]}),
    ("partnership-13", {"score_band_minimums": [[0, 60], [0, 90]]}),
    ("partnership-13", {"starter_rejected": [str(k) for k in range(4, 11)]
                        + ["J", "Q", "K", "A", "2", "joker", "black 3", "red 3"]}),
)
"""(profile, overrides) that loading must refuse with the same words in both builds."""

TEXTS: tuple[str, ...] = (
    "[game]\nrounds = \n",
    'extends = "biegames"\n[game]\nrounds = ' + "[" * 1000 + "]" * 1000 + "\n",
    'extends = "biegames"\n[game]\nrounds = ' + "9" * 4301 + "\n",
    'extends = "biegames"\nrounds = 3\n',
    'extends = "biegames"\n[melds]\nrounds = 3\n',
    'extends = "biegames"\n[gaem]\nrounds = 3\n',
    'extends = "biegames"\n[game]\nsecond_book = true\n',
    'extends = "biegames"\n[options]\nbook_size = 7\n',
    'extends = "biegames"\n[options]\nfirst_to_10000 = "yes"\n',
    "[melds]\nbook_max = 6\n",
    "[pickup]\npickup_melds_top = false\n",
    "[players]\nlayouts = []\n",
)
"""Profile texts (parsed, then built as from a file named ``text.toml``) that must be
refused with the same words in both builds."""


def _round_trips(value: object) -> None:
    import copy
    import pickle

    for how in (copy.copy, copy.deepcopy, lambda v: pickle.loads(pickle.dumps(v))):
        again = how(value)
        assert again == value and type(again) is type(value), (value, how)
        assert _hash(again) == _hash(value), (value, how)


def _hash(value: object) -> int | str:
    """The hash of a value, or the error's text (a profile whose ``overrides`` hold a
    TOML list or table cannot be hashed, in either build)."""
    try:
        return hash(value)
    except TypeError as exc:
        return str(exc)


def _profile_digest(profile: Any) -> str:
    """The digest of everything a profile holds, checking on the way that it and its
    seatings survive pickling and copying."""
    import json

    from handfoot.game.loading import profile_to_toml_values

    _round_trips(profile)
    for layout in profile.layouts:
        _round_trips(layout)
    shown = json.dumps([repr(profile), profile_to_toml_values(profile),
                        list(profile.kind_values), [str(x) for x in profile.layouts]])
    return hashlib.sha256(shown.encode()).hexdigest()


def _loaded(name: str, overrides: dict[str, Any] | None) -> str:
    from handfoot.game.loading import ProfileError, load_profile

    try:
        return _profile_digest(load_profile(name, overrides=overrides))
    except ProfileError as exc:
        return f"ProfileError: {exc}"


def _from_text(text: str) -> str:
    from handfoot.game.loading import ProfileError, parse_toml, profile_from_mapping

    try:
        data = parse_toml(text, "text.toml")
        return _profile_digest(profile_from_mapping(data, origin="text.toml"))
    except ProfileError as exc:
        return f"ProfileError: {exc}"


def profile_checks() -> list[tuple[str, Callable[[], str]]]:
    """(name, check) of every profile check; a check gives the digest of the profile it
    loads or the text of the error that refuses it."""
    from handfoot.game.loading import builtin_profile_names

    out: list[tuple[str, Callable[[], str]]] = []
    for name in builtin_profile_names():
        out.append((f"builtin:{name}", partial(_loaded, name, None)))
    for i, (name, overrides) in enumerate(VALID + INVALID):
        out.append((f"load{i}:{name}", partial(_loaded, name, overrides)))
    for i, text in enumerate(TEXTS):
        out.append((f"text{i}", partial(_from_text, text)))
    return out


def profile_lines() -> list[str]:
    """One line per profile check: its name and what it gave (a digest or an error)."""
    checks = profile_checks()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        for file, text in HOUSE_FILES.items():
            with open(os.path.join(folder, file), "w", encoding="utf-8") as out:
                out.write(text)
        os.chdir(folder)
        try:
            return [f"{name} {check()}" for name, check in checks]
        finally:
            os.chdir(here)


PICKLED_AT = 40
"""The move (history length) at which every bot of a game is pickled and unpickled."""


def play(profile_name: str, layout_text: str, bot: str) -> tuple[str, str]:
    """(record digest, decisions digest) of one game."""
    from handfoot.bots.heuristic import Bot
    from handfoot.bots.registry import make_bot
    from handfoot.bots.search import ExpertBot
    from handfoot.game.engine import GameState
    from handfoot.game.loading import load_profile
    from handfoot.game.record import GameRecorder, to_json
    from handfoot.runs.sim import derive_seed

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
        if len(state.history) == PICKLED_AT:
            # each bot sent through pickle mid-game (as the server sends a thinking bot to
            # another process): it must come back whole and play on the same
            bots = [pickle.loads(pickle.dumps(b)) for b in bots]
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
    for line in profile_lines():
        print(line, flush=True)
    for case in cases():
        record, decisions = play(*case)
        print("_".join(case), record, decisions, flush=True)


if __name__ == "__main__":
    sys.exit(main())
