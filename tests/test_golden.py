"""Golden records: fixed seeded games must replay to byte-identical records.

The files in ``tests/golden/`` were made by ``tests/golden_games.py`` before the engine
foundation refactor; a diff here means a rule or a bot decision changed.
"""

from __future__ import annotations

import pytest

from golden_games import GOLDEN, golden_games, play_golden
from handfoot.game.record import from_json, replay


@pytest.mark.parametrize(("file_name", "profile", "layout", "bot"), golden_games(),
                         ids=[g[0] for g in golden_games()])
def test_golden_game_is_byte_identical(file_name: str, profile: str, layout: str,
                                       bot: str) -> None:
    expected = (GOLDEN / file_name).read_text(encoding="utf-8")
    assert play_golden(profile, layout, bot) == expected


@pytest.mark.parametrize("file_name", [g[0] for g in golden_games()])
def test_golden_record_replays(file_name: str) -> None:
    record = from_json((GOLDEN / file_name).read_text(encoding="utf-8"))
    result = replay(record)
    assert result.ok, result.problems
    assert result.game_over
