"""The garbage collector while a run plays many games: :func:`playing_games`.

A game makes no reference cycle (in 30 hard games of partnership-13, no young, middle or
full collection freed a single object: reference counting frees everything), yet CPython's
collector walks what lives on: each move leaves about six tracked objects behind (its
history entry, the log node, the list of what it showed, the move's groups), so at the
default thresholds (700, 10, 10) 30 hard games of partnership-13 brought 190 young
collections, 18 middle ones and 2 full ones, 30-40 ms of 790 (4-5%, ``gc.callbacks``),
each walking the game's history again and pushing it out of the caches; the full ones
walked the modules and rule profiles too. While games play, a run:

- freezes (:func:`gc.freeze`) what exists before they start (modules, profiles, a model
  being trained): never walked while they play;
- collects the young generation after :data:`THRESHOLDS`'s 10,000 new tracked objects
  instead of 700 (as a server does, :mod:`handfoot.web.collector`): in those 30 games, 3
  young collections and no middle or full one.

Memory stays bounded: the objects of a move that do not live on are freed by their
reference counts whatever the thresholds (a 200-game ``handfoot simulate`` peaks at the
same RSS, docs/performance.md's eleventh pass), and a cycle made in a run (an exception's
traceback, say) is still found, by a collection at most 10,000 objects later. Afterwards
the thresholds are restored and what was frozen unfrozen. The engine does not know of it
(it has no global state); :func:`~handfoot.runs.cluster.run_tasks`' runners play every
task under it (simulations, tournaments, training, tuning), in this process or a worker's.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

__all__ = ["THRESHOLDS", "playing_games"]

THRESHOLDS: Final = (10_000, 10, 10)
"""``gc.set_threshold`` while games play (CPython's defaults: 700, 10, 10)."""


@contextmanager
def playing_games() -> Iterator[None]:
    """While inside: what exists frozen, the collector's thresholds :data:`THRESHOLDS`;
    afterwards both as they were. Where the process is tuned already (something frozen: a
    server process, an enclosing run; or its young threshold as high) it changes nothing,
    so runs nest and a server keeps its own policy."""
    before = gc.get_threshold()
    if gc.get_freeze_count() or before[0] >= THRESHOLDS[0]:
        yield
        return
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
