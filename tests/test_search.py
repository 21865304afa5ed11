"""The expert (search) bot: determinization from a view, legal complete games, determinism."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from handfoot.bots.heuristic import Bot, HardBot
from handfoot.bots.registry import make_bot
from handfoot.bots.search import SCOPES, ExpertBot, determinize, unseen_faces
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout
from handfoot.game.values import Phase, PlayerView
from handfoot.runs.sim import play_game


def _shoe(state: GameState) -> list[int]:
    p = state.profile
    return sorted(cards.build_shoe(p.decks(state.players), p.jokers_per_deck))


def _positions(profile: str, layout: Layout, seed: int, every: int = 23,
               ) -> list[GameState]:
    """Mid-round states (hard bots playing), at unstaged decisions."""
    p = load_profile(profile, overrides={"rounds": 1})
    state = GameState.new(p, layout=layout, seed=seed)
    bots = [HardBot(seed * 10 + s) for s in range(layout.players)]
    out: list[GameState] = []
    steps = 0
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        if steps % every == 0 and not view.staged and state.phase in (Phase.DRAW, Phase.PLAY):
            out.append(state.copy())
        state.apply_action(bots[seat].choose(view))
        steps += 1
    return out


def _layouts() -> list[tuple[str, Layout]]:
    out = []
    for name in builtin_profile_names():
        p = load_profile(name)
        for layout in dict.fromkeys([p.layout, max(p.layouts, key=lambda x: x.players)]):
            out.append((name, layout))
    return out


@pytest.mark.parametrize(("profile", "layout"), _layouts())
def test_determinization_conserves_the_shoe_and_agrees_with_the_view(
        profile: str, layout: Layout) -> None:
    positions = _positions(profile, layout, seed=4)
    assert positions
    for i, state in enumerate(positions):
        for seat in range(state.players):
            view = state.view(seat)
            d = determinize(view, random.Random(i))
            assert sorted(d.all_faces()) == _shoe(state)
            dv = d.view(seat)
            for field in PlayerView.__dataclass_fields__:
                if field == "legal_actions" and (
                        seat != state.to_act or mv.UNDO in view.legal_actions):
                    # not the seat's turn, or melds this turn could be undone: the undo
                    # stack is not part of a view, so a sample starts without one
                    continue
                assert getattr(dv, field) == getattr(view, field), field
            # hidden hands hold no red 3 (they are laid at once)
            for s in range(state.players):
                assert not d.held[s][cards.RED_THREE]


def test_determinization_never_reads_hidden_cards() -> None:
    """Two states differing only in hidden cards give the same sample for a seed."""
    state = _positions("partnership-13", Layout(2, 2), seed=9, every=41)[2]
    seat = state.to_act
    other = (seat + 1) % state.players
    twin = state.copy()
    # swap an opponent's card with a stock card of another face (not a red 3)
    mine = cards.faces_from_counts(twin.held_faces[other])[0]
    pos = next(i for i, f in enumerate(twin.stock)
               if f != mine and cards.FACE_KIND[f] != cards.RED_THREE)
    theirs = twin.stock[pos]
    twin.stock[pos] = mine
    for f, d in ((mine, -1), (theirs, 1)):
        twin.held_faces[other][f] += d
        twin.held[other][cards.FACE_KIND[f]] += d
    assert sorted(twin.all_faces()) == _shoe(state)
    assert twin.hand(other) != state.hand(other)
    assert twin.view(seat) == state.view(seat)
    memory = [None, cards.KING]
    a = determinize(state.view(seat), random.Random(3), memory)
    b = determinize(twin.view(seat), random.Random(3), memory)
    assert (a.held_faces, a.feet, a.knees, a.stock, a.pile) == (
        b.held_faces, b.feet, b.knees, b.stock, b.pile)


def test_unseen_is_the_shoe_minus_what_the_seat_sees() -> None:
    state = _positions("partnership-13", Layout(2, 2), seed=2)[3]
    view = state.view(0)
    seen = list(view.hand) + [f for ms in view.melds for m in ms for f in m.faces]
    seen += [f for r in view.red_threes for f in r]
    seen += [view.discard_top] if view.discard_top is not None else []
    assert sorted(unseen_faces(view) + seen) == _shoe(state)


class _ViewOnly:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(self, view: PlayerView) -> int:
        assert type(view) is PlayerView
        action = self.bot.choose(view)
        assert action in view.legal_actions
        return action


def _expert(seed: int) -> ExpertBot:
    return ExpertBot(seed, time_budget=None, iterations=1, horizon=4, scope="all")


@pytest.mark.parametrize(("profile", "layout"), [
    *_layouts(), ("biegames", Layout(2, 1)), ("hand-knee-foot", Layout(3, 1))])
def test_plays_a_complete_game_from_views_only(profile: str, layout: Layout) -> None:
    p = load_profile(profile, overrides={"rounds": 1})
    expert = _expert(1)
    bots: list[Bot] = [_ViewOnly(expert if s == 0 else HardBot(s))
                       for s in range(layout.players)]
    state, summary = play_game(p, 7, bots, layout=layout)
    assert state.is_over and len(state.results) == 1 and summary.actions > 0
    assert expert.searched > 0


def test_deterministic_with_an_iteration_budget() -> None:
    p = load_profile("biegames", overrides={"rounds": 1})

    def run() -> tuple[tuple[int, ...], int]:
        bots: list[Bot] = [_expert(5), HardBot(6)]
        _, summary = play_game(p, 3, bots, layout=Layout(2, 1))
        return summary.totals, summary.actions

    assert run() == run()


def test_registered_by_name() -> None:
    bot = make_bot("expert", 1)
    assert bot.name == "expert" and isinstance(bot, ExpertBot)


@pytest.mark.parametrize("first", ["handfoot.bots.search", "handfoot.bots.heuristic",
                                   "handfoot.bots.registry"])
def test_either_module_may_be_imported_first(first: str) -> None:
    code = (f"import {first}\n"
            "from handfoot.bots.registry import BOTS, make_bot\n"
            "from handfoot.bots.search import ExpertBot\n"
            "assert BOTS['expert'] is ExpertBot\n"
            "assert isinstance(make_bot('expert', 1), ExpertBot)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_needs_a_budget() -> None:
    with pytest.raises(ValueError, match="budget"):
        ExpertBot(1, time_budget=None)


class _Recording(ExpertBot):
    """Notes each searched decision: its phase and whether a candidate goes out."""

    def __init__(self, seed: int, scope: str) -> None:
        # hard's own settings (no style): seeds 11 and 13 then give a round with a pickup
        # to weigh and a chance to go out
        super().__init__(seed, time_budget=None, iterations=1, horizon=4, scope=scope,
                         shipped=False)
        self.decisions: list[tuple[Phase, bool]] = []

    def _search(self, view: PlayerView, candidates: list[list[int]]) -> int:
        goes_out = any(mv.GO_OUT <= plan[-1] < mv.DISCARD for plan in candidates)
        self.decisions.append((view.phase, goes_out))
        return super()._search(view, candidates)


def test_each_scope_searches_only_its_decisions() -> None:
    p = load_profile("partnership-13", overrides={"rounds": 1})
    searched = {}
    for scope in SCOPES:
        searched[scope] = []
        for seed in (11, 13):  # rounds with a pickup to weigh and a chance to go out
            bot = _Recording(3, scope)
            play_game(p, seed, [bot, HardBot(1), HardBot(2), HardBot(3)])
            searched[scope] += bot.decisions
    assert searched["go-out"], "a whole round without a chance to go out"
    assert all(phase == Phase.PLAY and out for phase, out in searched["go-out"])
    assert any(phase == Phase.DRAW for phase, _ in searched["key"])
    assert all(phase == Phase.DRAW or out for phase, out in searched["key"])
    assert any(phase == Phase.PLAY and not out for phase, out in searched["all"])
    assert ExpertBot(1).scope == "go-out"
    with pytest.raises(ValueError, match="scope"):
        ExpertBot(1, scope="some")
