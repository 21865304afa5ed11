"""Whole games under every built-in profile, at every layout it allows.

* The engine and the bots play by a profile's parameters only: a renamed copy of a profile
  plays the same seeded game, action for action, and no engine source file names a profile.
* Easy bots finish games at every layout, and every round ends by going out, by the stock
  running out, or by a red 3 that cannot be replaced.

The round-end statistics of a longer run (not part of the suite) come from
``python tests/test_profile_games.py [GAMES]``.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path

import pytest

from handfoot.bots.heuristic import EasyBot
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout, Profile
from handfoot.game.values import PlayerView
from handfoot.runs.sim import SimulationStats, derive_seed, play_game, simulate

NAMES = builtin_profile_names()
PROFILES: dict[str, Profile] = {name: load_profile(name) for name in NAMES}
CONFIGS = [(name, layout) for name in NAMES for layout in PROFILES[name].layouts]
ROUND_END_REASONS = {"went out", "stock exhausted", "red 3 not replaced", "stalled"}
SIX = {"partnership-13", "biegames", "remastered-singles", "remastered-teams",
       "hand-knee-foot", "bicycle"}

SRC = Path(__file__).resolve().parents[1] / "src" / "handfoot"
PROSE = {"__init__.py", "rules.py", "loading.py", "reference.py", "notation.py"}
"""Modules of the game that may name a profile: the default profile's name (the defaults of
``Profile`` and the parameters' documentation in rules.py; the default profile, listed
first, in loading.py), the reference page's examples (reference.py), an example in an error
message (notation.py)."""
ENGINE_FILES = [*sorted(f"game/{p.name}" for p in (SRC / "game").glob("*.py")
                        if p.name not in PROSE),
                "bots/heuristic.py", "bots/melds.py", "bots/ahead.py", "bots/search.py",
                "bots/plans.py", "runs/sim.py"]
"""The modules that play the game: none tests a profile's name."""


def params(configs: list[tuple[str, Layout]]) -> list[object]:
    return [pytest.param(name, layout, id=f"{name}-{layout}") for name, layout in configs]


# --- no engine code tests a profile's name -------------------------------------------------


class LoggingBot:
    """An easy bot that logs every action it chooses, with its seat."""

    name = "logging"

    def __init__(self, seed: int, log: list[tuple[int, int]]) -> None:
        self.inner = EasyBot(seed)
        self.log = log

    def choose(self, view: PlayerView) -> int:
        action = self.inner.choose(view)
        self.log.append((view.seat, action))
        return action


def play_logged(p: Profile, layout: Layout, seed: int
                ) -> tuple[GameState, list[tuple[int, int]], list[tuple[object, ...]]]:
    """An easy game: the final state, every action, and the public state after each."""
    log: list[tuple[int, int]] = []
    bots = [LoggingBot(derive_seed(seed, "bot", s), log) for s in range(layout.players)]
    trail: list[tuple[object, ...]] = []

    def after(state: GameState) -> None:
        trail.append((state.round_number, state.phase, state.to_act, tuple(state.held_n),
                      len(state.stock), len(state.pile), tuple(map(len, state.melds))))

    state, summary = play_game(p, seed, bots, layout=layout, after=after)
    assert summary.actions == len(log) == len(trail)
    return state, log, trail


@pytest.mark.parametrize(("name", "layout"), params(
    [(name, PROFILES[name].layout) for name in NAMES]
    + [(name, PROFILES[name].layouts[-1]) for name in NAMES if len(PROFILES[name].layouts) > 1]))
def test_a_renamed_profile_plays_the_same_game(name: str, layout: Layout) -> None:
    p = PROFILES[name]
    renamed = dataclasses.replace(p, name="renamed-xyz", title="x")
    assert renamed != p and renamed.name not in NAMES
    seed = derive_seed(4242, name, str(layout))
    a, log_a, trail_a = play_logged(p, layout, seed)
    b, log_b, trail_b = play_logged(renamed, layout, seed)
    assert log_a == log_b, "the renamed profile's game took other actions"
    assert trail_a == trail_b
    assert a.results == b.results
    assert a.totals == b.totals
    assert [m[:] for m in a.melds] == [m[:] for m in b.melds]
    assert len(log_a) > 100


def string_literals(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string constant of a module that is not a docstring (f-string parts too),
    with its line."""
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                docstrings.add(id(body[0].value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings]


@pytest.mark.parametrize("filename", ENGINE_FILES)
def test_no_engine_source_names_a_profile(filename: str) -> None:
    tree = ast.parse((SRC / filename).read_text(encoding="utf-8"))
    literals = string_literals(tree)
    assert literals, "no string literals found: is this the right file?"
    names = SIX | set(NAMES)
    found = [(line, value) for line, value in literals
             if any(name in value.lower() for name in names)]
    assert not found, f"{filename} names a profile in string literals: {found}"


def test_the_six_profiles_are_built_in() -> None:
    assert set(NAMES) >= SIX


# --- easy bots finish every layout ----------------------------------------------------------


def check_stats(p: Profile, stats: SimulationStats, games: int) -> None:
    assert stats.games == games
    if p.target_score is None:
        assert stats.rounds == games * p.rounds
    assert set(stats.round_ends) <= ROUND_END_REASONS, stats.round_ends
    assert sum(stats.round_ends.values()) == stats.rounds


@pytest.mark.parametrize(("name", "layout"), params(CONFIGS))
def test_easy_bots_finish_games_at_every_layout(name: str, layout: Layout) -> None:
    p = PROFILES[name]
    finished: list[GameState] = []

    def on_game(index: int, state: GameState, summary: object, record: object) -> None:
        assert state.is_over and state.legal_actions() == []
        assert [r.reason for r in state.results] == list(summary.round_ends)  # type: ignore[attr-defined]
        for r in state.results:
            assert r.reason in ROUND_END_REASONS
            assert (r.went_out is not None) == (r.reason == "went out")
        finished.append(state)

    stats = simulate(p, 2, derive_seed(2026, name, str(layout)), layout=layout,
                     bots=["easy"], on_game=on_game)
    check_stats(p, stats, 2)
    assert len(finished) == 2
    assert stats.layout == str(layout) and stats.bots == ("easy",) * layout.players


# --- the longer run -------------------------------------------------------------------------


def main(games: int) -> None:
    """Round ends of ``games`` easy-bot games at every profile and layout."""
    width = max(len(f"{n} {x}") for n, x in CONFIGS)
    print(f"{'profile layout':{width}}  games rounds  went-out  stock-out  red-3  "
          "actions/game")
    for name, layout in CONFIGS:
        p = PROFILES[name]
        stats = simulate(p, games, 1, layout=layout, bots=["easy"])
        check_stats(p, stats, games)
        ends = stats.round_ends
        print(f"{f'{name} {layout}':{width}}  {stats.games:5} {stats.rounds:6}  "
              f"{ends.get('went out', 0):8}  {ends.get('stock exhausted', 0):9}  "
              f"{ends.get('red 3 not replaced', 0):5}  {stats.actions / games:12.0f}",
              flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
