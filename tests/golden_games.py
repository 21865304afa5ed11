"""The fixed set of seeded games whose records are kept in ``tests/golden/``.

Every profile at every seating it allows, played by random bots and by hard bots, one
round each (``rounds = 1``), from a fixed seed. The records were written before the
engine-foundation refactor; any change of behaviour shows up as a diff against them.

Regenerate (only when a behaviour change is intended, and say so in the commit)::

    python tests/golden_games.py
"""

from __future__ import annotations

from pathlib import Path

from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.record import GameRecorder, to_json
from handfoot.runs.sim import derive_seed, play_game

GOLDEN = Path(__file__).parent / "golden"
SEED = 20261201


def golden_games() -> list[tuple[str, str, str, str]]:
    """(file name, profile, layout, bot) for every golden game."""
    out = []
    for name in builtin_profile_names():
        profile = load_profile(name)
        for layout in profile.layouts:
            for bot in ("random", "hard"):
                out.append((f"{name}_{layout}_{bot}.json", name, str(layout), bot))
    return out


def play_golden(profile_name: str, layout_text: str, bot: str) -> str:
    """The record of one golden game, as the JSON text that is kept."""
    profile = load_profile(profile_name, overrides={"rounds": 1})
    layout = next(x for x in profile.layouts if str(x) == layout_text)
    seed = derive_seed(SEED, profile_name, layout_text, bot)
    state = GameState.new(profile, layout=layout, seed=seed)
    bots = [make_bot(bot, derive_seed(SEED, "bot", s)) for s in range(layout.players)]
    # The version string would change with every release; the games must not.
    recorder = GameRecorder(state, seat_names=[bot] * layout.players,
                            metadata={"created_by": "handfoot"})
    play_game(profile, seed, bots, recorder=recorder)
    return to_json(recorder.record())


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for file_name, profile, layout, bot in golden_games():
        (GOLDEN / file_name).write_text(play_golden(profile, layout, bot), encoding="utf-8")
        print(file_name)


if __name__ == "__main__":
    main()
