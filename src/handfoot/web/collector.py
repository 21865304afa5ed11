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

While it serves, a process also collects by the clock (:func:`collect_by_the_clock`, run by
the app): every :data:`FREEZE_EVERY` seconds whatever has lived that long is frozen too, so
that young and middle collections never walk the tables' state. At a thousand tables moving
once a second, the objects of a move that live on (its history entry, the state it made,
each table's for about a second) kept the young generation at 35,000 objects: a young
collection a second of 15-25 ms, a middle one every ten of 120-175 ms, about 40 µs of CPU a
move, and none of them ever freed anything (docs/server.md, "Measured figures"). Cycles
that become garbage once frozen wait for the full collection every :data:`FULL_EVERY`
seconds, which unfreezes, collects and freezes again; with the thresholds above such
cycles, old by then, waited for a full collection too. (Ten tables of four people played
a hundred moves each and dropped were freed by their reference counts: no cycle.)
"""

from __future__ import annotations

import asyncio
import gc
from typing import Final

__all__ = ["FREEZE_EVERY", "FULL_EVERY", "THRESHOLDS", "collect_by_the_clock",
           "freeze", "tune_for_serving"]

THRESHOLDS: Final = (10_000, 10, 1_000)
"""``gc.set_threshold`` of a serving process (CPython's defaults: 700, 10, 10)."""

FREEZE_EVERY: Final = 0.25
"""Seconds between two freezes of what a serving process holds (:func:`collect_by_the_clock`;
``gc.freeze`` moves lists, whatever their length, and resets the young count)."""

FULL_EVERY: Final = 3600.0
"""Seconds between two full collections of a serving process, everything unfrozen: 0.6-0.8 s
at a thousand tables (docs/server.md), about as often as :data:`THRESHOLDS` brought one at a
thousand moves a second."""

_serving = False


def tune_for_serving() -> None:
    """Collect once, freeze what exists (start-up objects are never walked again) and set
    :data:`THRESHOLDS`. Called by ``handfoot serve`` in each server process, before it
    serves; tests and other programs keep CPython's defaults."""
    global _serving
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    _serving = True


async def collect_by_the_clock(freeze_every: float | None = None,
                               full_every: float | None = None) -> None:
    """Until cancelled: every ``freeze_every`` seconds (:data:`FREEZE_EVERY`)
    ``gc.freeze()``, and every ``full_every`` seconds (:data:`FULL_EVERY`) a full
    collection first (``gc.unfreeze()``, ``gc.collect()``).
    Only in a process :func:`tune_for_serving` has tuned (elsewhere it returns at once:
    tests and other programs collect as CPython does)."""
    if not _serving:
        return
    freeze_every = FREEZE_EVERY if freeze_every is None else freeze_every
    full_every = FULL_EVERY if full_every is None else full_every
    loop = asyncio.get_running_loop()
    full_at = loop.time() + full_every
    while True:
        await asyncio.sleep(freeze_every)
        full_at = freeze(loop.time(), full_at, full_every)


def freeze(now: float, full_at: float, full_every: float) -> float:
    """One turn of :func:`collect_by_the_clock` at time ``now``: a full collection first if
    ``now`` has reached ``full_at``, then ``gc.freeze()``; the time of the next full one."""
    if now >= full_at:
        gc.unfreeze()
        gc.collect()
        full_at = now + full_every
    gc.freeze()
    return full_at
