"""The serving process's collector (web/collector.py): frozen by the clock, collected whole
now and then."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from handfoot.web import collector


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """Whatever a test freezes is unfrozen after it (the rest of the run collects as
    CPython does). What earlier tests left to the collector is collected before the
    freeze and after it, here: frozen, it would be finalized later, inside another test
    (an earlier test's database connection whose event loop is closed, say)."""
    gc.collect()
    yield
    gc.unfreeze()
    gc.collect()


def test_a_frozen_cycle_waits_for_the_full_collection(unfrozen: None) -> None:
    node = _Node()
    gone = weakref.ref(node)
    del node
    assert collector.freeze(10.0, full_at=20.0, full_every=600.0) == 20.0
    assert gc.get_freeze_count() > 0
    gc.collect()  # young, middle and old: a frozen cycle is none of them
    assert gone() is not None
    assert collector.freeze(20.0, full_at=20.0, full_every=600.0) == 620.0  # unfrozen, collected
    assert gone() is None
    assert gc.get_freeze_count() > 0  # frozen again after it


def test_a_freeze_resets_the_young_count(unfrozen: None) -> None:
    kept: list[list[int]] = [[] for _ in range(500)]
    assert gc.get_count()[0] >= 500
    collector.freeze(0.0, full_at=1.0, full_every=1.0)
    assert gc.get_count()[0] < 500
    assert len(kept) == 500


def test_only_a_serving_process_collects_by_the_clock(monkeypatch: pytest.MonkeyPatch,
                                                       unfrozen: None) -> None:
    monkeypatch.setattr(collector, "_serving", False)
    before = gc.get_freeze_count()
    asyncio.run(asyncio.wait_for(collector.collect_by_the_clock(0.0, 0.0), 5))  # returns
    assert gc.get_freeze_count() == before

    async def serving() -> int:
        task = asyncio.create_task(collector.collect_by_the_clock(0.001, 600.0))
        for _ in range(1000):  # until its first turn
            await asyncio.sleep(0.005)
            if gc.get_freeze_count() > before:
                break
        task.cancel()
        return gc.get_freeze_count()

    monkeypatch.setattr(collector, "_serving", True)
    assert asyncio.run(serving()) > before
