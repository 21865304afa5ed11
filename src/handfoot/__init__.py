"""handfoot: the card game Hand and Foot, with every table's house rules as data.

The package's face, as ``chess`` and ``pokerkit`` have one: the rule profiles, the game
state and its moves, records, bots and simulation, importable from ``handfoot`` itself.

>>> import handfoot
>>> state = handfoot.GameState.new(handfoot.load_profile("biegames"), seed=42)
>>> state.apply(handfoot.parse_move("draw"))
>>> state.phase is handfoot.Phase.PLAY
True

Nothing here imports Rich (the terminal game), a web framework or an RL framework: those
live in :mod:`handfoot.terminal`, :mod:`handfoot.web` and :mod:`handfoot.rl`.
"""

from handfoot._version import __version__
from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import BOTS, make_bot
from handfoot.game.cards import CardError, Face, Kind, face_name, parse_face, parse_kind
from handfoot.game.deal import check_deal, deal_round
from handfoot.game.engine import GameState
from handfoot.game.loading import ProfileError, builtin_profile_names, load_profile
from handfoot.game.moves import (
    NUM_ACTIONS,
    ActionId,
    Answer,
    Discard,
    Draw,
    GoOut,
    Knock,
    Meld,
    MeldGroup,
    Move,
    MoveSyntaxError,
    Pickup,
    PickUpKnee,
    PlayerMove,
    Undo,
    action_name,
    format_move,
    parse_move,
)
from handfoot.game.notation import PositionSyntaxError, parse_position, position_text
from handfoot.game.record import GameRecord, GameRecorder, RecordError, from_json, replay, to_json
from handfoot.game.rules import (
    FinalDiscard,
    FirstPlayer,
    Layout,
    PartnerCondition,
    PickupExistingMeld,
    PickupOpeningCounts,
    PickupWildTop,
    Profile,
    Seat,
    Side,
)
from handfoot.game.scoring import ScoreLine, SideScore
from handfoot.game.table import BookKind, Books
from handfoot.game.values import (
    Deal,
    DealError,
    IllegalMoveError,
    Phase,
    PlayerView,
    Position,
    RoundEnd,
    RoundResult,
    TableMeld,
)
from handfoot.runs.sim import GameSummary, play_game, simulate

COMPILABLE: tuple[str, ...] = (
    "game.cards", "game.rules", "game.moves", "game.table", "game.scoring", "game.values",
    "game.deal", "game.events", "game.state", "game.checks", "game.listing", "game.engine",
    "bots.melds", "bots.heuristic", "bots.ahead", "web.protocol", "web.messages")
"""The modules (below ``handfoot``) that a wheel build compiles with mypyc when it can
(setup.py reads this list); every other module is always Python."""


def _compiled_modules() -> tuple[str, ...]:
    import sys
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path

    def native(name: str) -> bool:
        module = sys.modules.get(f"handfoot.{name}")
        if module is not None:
            return not (getattr(module, "__file__", None) or "").endswith(".py")
        # a front end's module, which the package's face does not import: compiled if
        # its native extension lies beside its source
        base = Path(__file__).parent.joinpath(*name.split("."))
        return any(base.with_name(base.name + suffix).is_file()
                   for suffix in EXTENSION_SUFFIXES)

    return tuple(name for name in COMPILABLE if native(name))


compiled_modules: tuple[str, ...] = _compiled_modules()
"""Which of :data:`COMPILABLE` this install runs compiled (native extension modules
built by mypyc); empty in the pure-Python build, which runs the same code as ``.py``."""
compiled: bool = bool(compiled_modules)
"""Whether this install runs the mypyc-compiled build (``handfoot --version`` says)."""
build: str = ("pure Python" if not compiled else "compiled with mypyc"
              if set(compiled_modules) == set(COMPILABLE)
              else f"partly compiled with mypyc: {', '.join(compiled_modules)}")
"""The build in words, as ``handfoot --version`` and the benchmarks print it (which modules
are compiled: :data:`compiled_modules`)."""

__all__ = [
    "BOTS",
    "COMPILABLE",
    "NUM_ACTIONS",
    "ActionId",
    "Answer",
    "BookKind",
    "Books",
    "Bot",
    "CardError",
    "Deal",
    "DealError",
    "Discard",
    "Draw",
    "Face",
    "FinalDiscard",
    "FirstPlayer",
    "GameRecord",
    "GameRecorder",
    "GameState",
    "GameSummary",
    "GoOut",
    "IllegalMoveError",
    "Kind",
    "Knock",
    "Layout",
    "Meld",
    "MeldGroup",
    "Move",
    "MoveSyntaxError",
    "PartnerCondition",
    "Phase",
    "PickUpKnee",
    "Pickup",
    "PickupExistingMeld",
    "PickupOpeningCounts",
    "PickupWildTop",
    "PlayerMove",
    "PlayerView",
    "Position",
    "PositionSyntaxError",
    "Profile",
    "ProfileError",
    "RecordError",
    "RoundEnd",
    "RoundResult",
    "ScoreLine",
    "Seat",
    "Side",
    "SideScore",
    "TableMeld",
    "Undo",
    "__version__",
    "action_name",
    "build",
    "builtin_profile_names",
    "check_deal",
    "compiled",
    "compiled_modules",
    "deal_round",
    "face_name",
    "format_move",
    "from_json",
    "load_profile",
    "make_bot",
    "parse_face",
    "parse_kind",
    "parse_move",
    "parse_position",
    "play_game",
    "position_text",
    "replay",
    "simulate",
    "to_json",
]
