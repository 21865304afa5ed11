"""Resampling what a seat cannot see: states that give the seat the same view.

Used by OpenSpiel's information-set MCTS (:func:`handfoot.rl.openspiel.ismcts_resampler`).
"""

from __future__ import annotations

import random

from handfoot import cards
from handfoot.engine import GameState

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
    c = state.copy()
    others = [s for s in range(c.players) if s != seat]
    hands = {s: c.hand(s) for s in others}
    packets: list[int] = [f for s in others for f in hands[s]]
    n_packets = len(packets)
    packets += [f for s in range(c.players) for f in c.feet[s] + c.knees[s]] + c.stock
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
    pos = 0
    for s in others:
        n = len(hands[s])
        hand = hand_cards[pos:pos + n]
        pos += n
        c.held_faces[s] = cards.face_counts(hand)
        c.held[s] = cards.kind_counts(hand)
    pos = 0

    def take(n: int) -> list[int]:
        nonlocal pos
        out = rest[pos:pos + n]
        pos += n
        return out

    c.feet = [take(len(f)) for f in c.feet]
    c.knees = [take(len(k)) for k in c.knees]
    c.stock = take(len(c.stock))
    return c
