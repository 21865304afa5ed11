"""The bots: complete games under every profile, determinism, views only, strength."""

from __future__ import annotations

import random

import pytest

from handfoot.bots.heuristic import Bot, _listed
from handfoot.bots.melds import _kind_counts, _order
from handfoot.bots.registry import BOTS, make_bot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout
from handfoot.game.values import PlayerView
from handfoot.runs.sim import derive_seed, play_game, simulate

LEVELS = ("normal", "hard")


def _largest(name: str) -> Layout:
    return max(load_profile(name).layouts, key=lambda lay: (lay.players, lay.sides))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("profile", builtin_profile_names())
def test_plays_every_profile_at_default_and_largest_layout(level: str, profile: str) -> None:
    p = load_profile(profile)
    for layout in {p.layout, _largest(profile)}:
        stats = simulate(p, 1, seed=3, layout=layout, bots=(level,))
        assert stats.games == 1 and stats.rounds == p.rounds


def test_registered_by_name() -> None:
    assert {"random", "easy", "normal", "hard"} <= set(BOTS)
    assert make_bot("normal", 1).name == "normal"
    assert make_bot("hard", 1).name == "hard"


class _ViewOnly:
    """Passes views through, checking that a bot is shown nothing but a PlayerView."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.pickups = 0
        self.draws = 0

    def choose(self, view: PlayerView) -> int:
        assert type(view) is PlayerView
        action = self.bot.choose(view)
        assert action in view.legal_actions
        if action == mv.PICKUP:
            self.pickups += 1
        elif action == mv.DRAW:
            self.draws += 1
        return action


@pytest.mark.parametrize("level", LEVELS)
def test_deterministic_and_views_only(level: str) -> None:
    p = load_profile("biegames", overrides={"rounds": 1})
    layout = Layout(2, 2)

    def run() -> tuple[tuple[int, ...], int]:
        bots = [_ViewOnly(make_bot(level, 10 + s)) for s in range(4)]
        _, summary = play_game(p, 5, bots, layout=layout)
        return summary.totals, summary.actions

    assert run() == run()


def _mean_scores(profile: str, layout: Layout, a: str, b: str, games: int,
                 ) -> tuple[float, float, dict[str, float]]:
    p = load_profile(profile, overrides={"rounds": 2})
    total = {a: 0.0, b: 0.0}
    taken = {a: [0, 0], b: [0, 0]}
    for i in range(games):
        swap = i % 2
        names = [(a, b)[(s % 2 + swap) % 2] for s in range(layout.players)]
        bots = [_ViewOnly(make_bot(n, derive_seed(1, i, s))) for s, n in enumerate(names)]
        state = GameState.new(p, layout=layout, seed=derive_seed(2, i // 2))
        _, summary = play_game(p, 0, bots, state=state)
        for side, score in enumerate(summary.totals):
            total[names[side]] += score
        for bot, n in zip(bots, names, strict=True):
            taken[n][0] += bot.pickups
            taken[n][1] += bot.draws
    rates = {n: pk / max(pk + dr, 1) for n, (pk, dr) in taken.items()}
    return total[a] / games, total[b] / games, rates


@pytest.mark.parametrize(("profile", "layout"), [("partnership-13", Layout(2, 2)),
                                                 ("biegames", Layout(2, 2))])
def test_normal_outscores_easy(profile: str, layout: Layout) -> None:
    normal, easy, rates = _mean_scores(profile, layout, "normal", "easy", 20)
    print(f"{profile}: normal {normal:.0f} easy {easy:.0f} per game; pickup rates {rates}")
    assert normal > easy
    assert 0 < rates["normal"] < 0.5


# The planner's helpers written for the compiled build (docs/performance.md, "Third pass")
# must answer what the Python they replaced answered.


def test_order_is_the_stable_sort_by_key() -> None:
    rng = random.Random(16)
    for _ in range(2000):
        n = rng.randrange(16)
        keys = [rng.randrange(-40, 40) if rng.random() < 0.5 else rng.randrange(-3, 3)
                + (1 << 20) * rng.randrange(2) for _ in range(n)]
        expected = sorted(range(n), key=keys.__getitem__)
        assert [v & 15 for v in _order(keys[:])] == expected


def test_order_refuses_sixteen_keys() -> None:
    with pytest.raises(ValueError):
        _order(list(range(16)))


def test_listed_is_membership_in_an_increasing_listing() -> None:
    rng = random.Random(16)
    for _ in range(500):
        legal = tuple(sorted(rng.sample(range(mv.NUM_ACTIONS), rng.randrange(1, 40))))
        for action in range(mv.NUM_ACTIONS):
            assert _listed(legal, action) == (action in legal)
    assert not _listed((), mv.DRAW)


def test_hand_kind_counts_match_cards() -> None:
    rng = random.Random(16)
    for _ in range(200):
        hand = tuple(rng.randrange(cards.NUM_FACES) for _ in range(rng.randrange(30)))
        assert _kind_counts(hand) == cards.kind_counts(hand)
    assert _kind_counts(()) == [0] * cards.NUM_KINDS
