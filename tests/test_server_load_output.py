"""server_load.py reads what its child processes print (the clients' processes, the lag
probe, the reactions' flood) as JSON; a line that is not JSON is an error in the run's
figures, quoting what was printed, never a traceback that loses the run."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_clients import Slices, Stats  # noqa: E402


def test_json_a_child_printed_is_read() -> None:
    stats = Stats()
    assert stats.parsed(b'[[1.5, 0.002]]', "the event-loop lag probe", []) == [[1.5, 0.002]]
    assert stats.parsed('{"moves": 3}', "a clients' process", None) == {"moves": 3}
    assert stats.errors == []


def test_a_line_that_is_not_json_is_an_error_that_quotes_it() -> None:
    stats = Stats()
    got = stats.parsed(b'{"round_trips": [0.01, 0.0', "a clients' process", None)
    assert got is None
    assert len(stats.errors) == 1
    error = stats.errors[0]
    assert error.startswith("a clients' process printed what is not JSON"), error
    assert '{"round_trips": [0.01, 0.0' in error


def test_a_long_output_is_quoted_in_part_with_its_length() -> None:
    stats = Stats()
    text = "x" * 5000
    assert stats.parsed(text, "the reactions' flood", {}) == {}
    assert "(5000 characters)" in stats.errors[0]
    assert len(stats.errors[0]) < 400


def test_connections_open_in_slices_of_a_turn_in_the_order_they_asked() -> None:
    """``--connect-slice 3``: at most 3 connections a turn of the clients' loop, the
    others in the next turns, first asked, first opened."""
    async def main() -> list[tuple[int, int]]:
        slices = Slices(3)
        turn = 0
        opened: list[tuple[int, int]] = []

        async def ticking() -> None:
            nonlocal turn
            while True:
                await asyncio.sleep(0)
                turn += 1

        async def one(i: int) -> None:
            await slices.turn()
            opened.append((i, turn))

        ticker = asyncio.create_task(ticking())
        await asyncio.gather(*(one(i) for i in range(8)))
        ticker.cancel()
        return opened

    opened = asyncio.run(main())
    assert [i for i, _ in opened] == list(range(8))
    turns = [t for _, t in opened]
    assert turns[0] == turns[2] < turns[3] == turns[5] < turns[6] == turns[7]
