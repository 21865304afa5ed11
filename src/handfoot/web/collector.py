"""The garbage collector of a server process: :func:`tune_for_serving`.

CPython's cyclic collector stops everything while it runs, and a full collection walks every
object the process holds: with hundreds of live tables (a game's state, its bots' memory,
its connections: about a thousand objects a table) one took 100 to 350 ms, which every
move and every ping waited for (docs/server.md, "Measured figures"). A server does two
things about it, once, before it serves:

- :func:`gc.freeze` after start-up: the modules, the rule profiles and everything else made
  so far are never walked again (they live as long as the process);
- higher thresholds (:data:`THRESHOLDS`): a young collection after 10,000 new objects
  instead of 700, so the objects of a move (views, messages: freed by their reference
  counts anyway) are rarely walked and seldom promoted; a middle one after 10 young ones
  (at most about 100,000 objects to walk, a few milliseconds); a full one only after 1,000
  middle ones instead of 10 (CPython also waits until the old generation has grown by a
  quarter), which at a thousand moves a second is about once an hour instead of every
  few seconds. A full collection still walks every table's objects when it comes: about
  0.2 s with a thousand tables (docs/server.md).

Reference counting still frees almost everything at once; the collector is there for
cycles (a table and its bots, a closed connection's tasks), which it still finds.
"""

from __future__ import annotations

import gc
from typing import Final

__all__ = ["THRESHOLDS", "tune_for_serving"]

THRESHOLDS: Final = (10_000, 10, 1_000)
"""``gc.set_threshold`` of a serving process (CPython's defaults: 700, 10, 10)."""


def tune_for_serving() -> None:
    """Collect once, freeze what exists (start-up objects are never walked again) and set
    :data:`THRESHOLDS`. Called by ``handfoot serve`` in each server process, before it
    serves; tests and other programs keep CPython's defaults."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
