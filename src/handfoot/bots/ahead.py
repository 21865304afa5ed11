"""A bot's staging actions known ahead: what a normal or hard bot will choose next whatever
view it is shown, so a play loop may stage them without building those views.

A normal or hard bot that starts a plan (cards to stage for a meld, a pickup or going
out, then the commit) queues its steps and, at each later view, plays the next one if the
view lists it (else it drops the plan). Between two staging steps nothing it reads changes
but the listing, so the play loop (:func:`handfoot.runs.sim.play_game`) hands the queued
staging steps to :meth:`~handfoot.game.engine.GameState.stage_ahead`, which stages them
while each is one the listing would hold, and tells the bot how many were played: the same
game, move for move, without a view and a listing per card (docs/performance.md, "Fifth
pass").

The commit that ends such a plan (the meld or the pickup of the staged cards) is played
ahead too (:func:`commit_ahead`): at its view the bot plays it if the view lists it and
lists no Knee (it takes its Knee first), and sees nothing else it would act on (its pile
memory changes only when the pile does, which no step of its own turn before a discard
does), so :meth:`~handfoot.game.engine.GameState.commit_ahead` commits it where the
listing would hold it, with the listing's own checks, and the view is built only where it
would not (docs/performance.md, "Sixth pass").

So is a draw the bot would choose whatever else its view showed (:func:`draw_ahead`): at
the draw, with no plan under way, nothing staged and no Knee to take, where the pile's top
card is one it never plans to take (:meth:`~handfoot.bots.heuristic.NormalBot._pickup_top`,
from the seat's own cards and what is public). The view it skips would have changed
nothing the bot keeps: the hard bot's pile memory is updated from the next view, which
shows the same pile (a draw leaves it as it is).

Only the two classes themselves qualify: a subclass (the expert, styles, the learned bot)
may look at every view it is shown.
"""

from __future__ import annotations

from typing import Final

from handfoot.bots.heuristic import HardBot, NormalBot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.values import Phase

__all__ = ["commit_ahead", "draw_ahead", "played_ahead", "staging_ahead"]

_DRAW: Final = Phase.DRAW
"""(read once: a member looked up on its enum class is slow)"""


def staging_ahead(bot: object) -> list[int]:
    """The staging actions ``bot`` will choose next from any view that lists them, in
    order (the staging steps at the head of its plan); [] for any other bot."""
    if type(bot) is not HardBot and type(bot) is not NormalBot:
        return []
    assert isinstance(bot, NormalBot)
    queue = bot._queue
    n = 0
    while n < len(queue) and mv.STAGE_NATURAL <= queue[n] < mv.KNEE:
        n += 1
    return queue[:n]


def played_ahead(bot: object, count: int) -> None:
    """``count`` of :func:`staging_ahead`'s actions were played (as if chosen from views
    that listed them)."""
    if count:
        assert isinstance(bot, NormalBot)
        del bot._queue[:count]


def commit_ahead(bot: object, state: GameState) -> mv.Move | None:
    """Once every staging step of ``bot``'s plan has been played ahead: commit the meld or
    pickup that ends it, if the view would list it and no Knee (then the bot would choose
    it), and tell the bot; the move committed, or None (nothing done) for any other bot,
    plan or listing."""
    if type(bot) is not HardBot and type(bot) is not NormalBot:
        return None
    assert isinstance(bot, NormalBot)
    queue = bot._queue
    if not queue or (queue[0] != mv.CONFIRM and queue[0] != mv.PICKUP):
        return None
    move = state.commit_ahead(queue[0])
    if move is not None:
        del queue[0]
    return move


def draw_ahead(bot: object, state: GameState) -> mv.Move | None:
    """At the draw of ``bot``'s seat, where its view would make it draw whatever else the
    view showed: draw (the move), else None (nothing done; any other bot)."""
    if state.phase != _DRAW or (type(bot) is not HardBot and type(bot) is not NormalBot):
        return None
    assert isinstance(bot, NormalBot)
    if bot._queue or state.staged:
        return None
    seat = state.seat
    pile = state.pile
    top_face = pile[-1] if pile else None
    held_of_top = 0 if top_face is None else state.held[seat][cards.FACE_KIND[top_face]]
    if bot._pickup_top(state.profile, top_face, held_of_top, state.pickup_size(), len(pile),
                       state.opened[state.side_of[seat]]) >= 0:
        return None
    return state.commit_ahead(mv.DRAW)
