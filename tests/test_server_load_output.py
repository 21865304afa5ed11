"""server_load.py reads what its child processes print (the clients' processes, the lag
probe, the reactions' flood) as JSON; a line that is not JSON is an error in the run's
figures, quoting what was printed, never a traceback that loses the run."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_clients import Stats  # noqa: E402


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
