"""Resampling what a seat cannot see: states that give the seat the same view.

Used by OpenSpiel's information-set MCTS (:func:`handfoot.rl.openspiel.ismcts_resampler`).
"""

from __future__ import annotations

import random
from dataclasses import replace

from handfoot.game import cards
from handfoot.game.engine import GameState

__all__ = ["resample_hidden"]


def resample_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` with the cards hidden from ``seat`` dealt again at random.

    The other seats' hands, every face-down Foot and Knee and the stock are pooled,
    shuffled and dealt back in their sizes; the table, the discard pile (every card in it
    was seen when it was turned or discarded), the seat's own cards and every rule flag are
    kept, so ``seat``'s view is unchanged. Red 3s stay out of hands, as the engine never
    leaves them there. Each consistent placement is equally likely: no inference is drawn
    from the other players' past choices (the usual determinization assumption).
    """
    pos = state.position()
    others = [s for s in range(state.players) if s != seat]
    hands = {s: list(pos.hands[s]) for s in others}
    packets: list[int] = [f for s in others for f in hands[s]]
    n_packets = len(packets)
    packets += [f for s in range(state.players) for f in pos.feet[s] + pos.knees[s]]
    packets += reversed(pos.stock)  # bottom first, as the engine keeps it
    red = [f for f in packets[:n_packets] if cards.FACE_KIND[f] == cards.RED_THREE]
    if red:  # pragma: no cover - the engine lays red 3s at once
        raise ValueError("a hand holds a red 3")
    # hands get no red 3s: shuffle the non-red cards into the hand slots first
    pool = packets[:]
    rng.shuffle(pool)
    non_red = [f for f in pool if cards.FACE_KIND[f] != cards.RED_THREE]
    hand_cards = non_red[:n_packets]
    rest = non_red[n_packets:] + [f for f in pool if cards.FACE_KIND[f] == cards.RED_THREE]
    rng.shuffle(rest)
    new_hands = list(pos.hands)
    pos_in = 0
    for s in others:
        n = len(hands[s])
        new_hands[s] = tuple(sorted(hand_cards[pos_in:pos_in + n]))
        pos_in += n
    at = 0

    def take(n: int) -> tuple[int, ...]:
        nonlocal at
        out = tuple(rest[at:at + n])
        at += n
        return out

    feet = tuple(take(len(f)) for f in pos.feet)
    knees = tuple(take(len(k)) for k in pos.knees)
    stock = take(len(pos.stock))[::-1]  # top first
    return GameState.from_position(replace(pos, hands=tuple(new_hands), feet=feet, knees=knees,
                                           stock=stock))
