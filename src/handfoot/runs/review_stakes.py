"""What a game's rules put at stake: the scale of a review's class lines.

The lines of :func:`handfoot.runs.review_report.classify` (a mistake from 40 points, ...)
were measured on the default profile, partnership-13. Other rules score very differently
(a Hand, Knee & Foot round's margin spreads 3.2 times as wide; with the whole pile taken
1.27 times; Remastered Singles' at three players 0.45 times), so the lines are scaled by
the rules' stakes: the standard deviation of a side's round margin in the reviewer's
self-play of those rules, at that seating (:func:`stakes`), over the same measured on
partnership-13 (:func:`stake_scale`). It is measured, not worked out from the rules'
numbers, so a house rule that changes how the game goes (the whole pile taken) counts as
well as one that changes a bonus; it is seeded, so the same rules always get the same
scale, and partnership-13's is 1 exactly. docs/review.md has the measurements that chose
it.
"""

from __future__ import annotations

import dataclasses
import functools
import math

from handfoot.bots.styles import StyledBot, load_style
from handfoot.game.engine import GameState
from handfoot.game.loading import DEFAULT_PROFILE, load_profile
from handfoot.game.rules import Layout, Profile
from handfoot.runs.sim import derive_seed, play_game

__all__ = ["STAKE_GAMES", "stake_scale", "stakes"]

STAKE_GAMES = 160
"""Self-play rounds a profile's stakes are measured on (each a game's first round: a game
of one round or of four has the same stakes), in about 3 s of one core on the pure Python
build (docs/review.md)."""

_STAKES_SEED = 2031


def stakes(profile: Profile, layout: Layout | None = None) -> float:
    """The standard deviation of a side's round margin (its round score minus the best
    other side's) in :data:`STAKE_GAMES` seeded first rounds of the reviewer (the
    ``learned`` level) in every seat at ``layout`` (the profile's own by default), every
    side counted: what a round of these rules puts at stake, in their points. How many
    rounds a game has does not count: one round of each game is played (and the figure is
    kept for the rules, measured once a process)."""
    # only what changes the play is kept (a profile that extends another and changes
    # nothing that counts is measured once)
    return _stakes(_played(profile), layout or profile.layout)


def _played(profile: Profile) -> Profile:
    """``profile`` as its stakes are measured: one round, its provenance dropped."""
    return dataclasses.replace(profile, rounds=1, overrides=(), extends=None)


@functools.lru_cache(maxsize=32)
def _stakes(one: Profile, layout: Layout) -> float:
    margins: list[float] = []
    for g in range(STAKE_GAMES):
        seed = derive_seed(_STAKES_SEED, "stakes", g)
        state = GameState.new(one, layout=layout, seed=seed)
        # the reviewer's bot, as the review's play-outs make it
        bots = [StyledBot(derive_seed(seed, "seat", s), style=load_style(one.name))
                for s in range(state.players)]
        state, _ = play_game(one, seed, bots, state=state)
        for result in state.results:
            totals = [s.total for s in result.scores]
            for side, total in enumerate(totals):
                margins.append(total - max(v for s, v in enumerate(totals) if s != side))
    mean = sum(margins) / len(margins)
    return math.sqrt(sum((m - mean) ** 2 for m in margins) / len(margins))


def stake_scale(profile: Profile, layout: Layout | None = None) -> float:
    """How much larger a round's stakes are under ``profile`` at ``layout`` than under
    partnership-13 (:func:`stakes`), to two decimals: the factor of the review's class
    lines and of its accuracy's scale; 1.0 for partnership-13 itself."""
    default = load_profile(DEFAULT_PROFILE)
    if _played(profile) == _played(default) and (layout or profile.layout) == default.layout:
        return 1.0  # the reference itself: nothing to measure
    reference = stakes(default)
    own = stakes(profile, layout)
    if reference <= 0 or own <= 0:  # pragma: no cover - a game where nothing is scored
        return 1.0
    return round(own / reference, 2)
