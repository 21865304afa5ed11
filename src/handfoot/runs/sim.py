"""Simulation: complete games between bots, and statistics over many of them.

Every game's seed, and every bot's, is derived from one simulation seed, so the same
seed gives the same games and the same statistics on every machine.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from handfoot.bots.ahead import commit_ahead, draw_ahead, played_ahead, staging_ahead
from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import make_bot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.moves import Move
from handfoot.game.record import GameRecord, GameRecorder
from handfoot.game.rules import Layout, Profile, Seat
from handfoot.game.values import IllegalMoveError, Phase
from handfoot.runs.cluster import (
    PartialFile,
    TaskList,
    fingerprint,
    handfoot_version,
    make_runner,
    run_tasks,
)

__all__ = ["HINT_BOT", "GameSummary", "Hint", "SafetyCapReached", "SimulatedGame",
           "SimulationStats", "bot_turn", "hint", "play_game", "play_simulated_game",
           "simulate", "simulation_run", "stuck_text"]

MAX_ACTIONS_PER_GAME = 2_000_000
"""A game that needs more actions than this is stuck: a bug, never a result."""

MAX_TURN_ACTIONS = 500
"""Staging actions a bot may take towards one player move before it is stuck."""

HINT_BOT = "hard"
"""The bot that gives hints: ``hard`` plays in a blink (the search bot would make a person
wait about a second for each one)."""

_DRAW = Phase.DRAW
_GAME_OVER = Phase.GAME_OVER
"""(read once: a member looked up on its enum class is slow)"""


class SafetyCapReached(RuntimeError):
    """A game did not end within :data:`MAX_ACTIONS_PER_GAME` actions: a bug, never a
    result. The message says which game and where it stuck (:func:`stuck_text`)."""

    def __init__(self, message: str, *, seed: int, actions: int) -> None:
        super().__init__(message)
        self.seed = seed
        self.actions = actions

    def __reduce__(self) -> tuple[Any, ...]:  # from a worker process, with seed and actions
        return (_safety_cap, (str(self), self.seed, self.actions))


def _safety_cap(message: str, seed: int, actions: int) -> SafetyCapReached:
    return SafetyCapReached(message, seed=seed, actions=actions)


def stuck_text(state: GameState, last: int = 6) -> str:
    """Where a game that does not end stands: the round, who is to act, the stock, the
    pile, every hand, the turns in a row with no draw and no meld, and the last moves."""
    hands = ", ".join(str(n) for n in state.held_n)
    recent = [e for e in state.history.entries() if e.round_number == state.round_number]
    moves = "; ".join(f"seat {e.seat + 1} {mv.format_move(e.move)}" for e in recent[-last:])
    return (f"round {state.round_number}, seat {state.to_act + 1} to act "
            f"({state.phase.name.lower().replace('_', ' ')}); stock {len(state.stock)} cards, "
            f"pile {len(state.pile)}; cards in hand by seat: {hands}; "
            f"{state.stalled_turns} turn{'s' if state.stalled_turns != 1 else ''} in a row "
            f"without a draw or a meld; last moves: {moves or 'none this round'}")


def derive_seed(seed: int, *labels: object) -> int:
    """A seed for one part of a simulation (a game, a bot), independent of the others."""
    text = ":".join(str(x) for x in (seed, *labels))
    return int.from_bytes(hashlib.sha256(f"handfoot-sim:{text}".encode()).digest()[:8], "big")


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What one finished game did."""

    seed: int
    actions: int
    moves: int
    """Player moves committed (staging actions not counted)."""
    round_ends: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


def play_game(profile: Profile, seed: int, bots: Sequence[Bot], *,
              layout: Layout | None = None,
              state: GameState | None = None,
              recorder: GameRecorder | None = None,
              after: Callable[[GameState], None] | None = None,
              on_action: Callable[[Seat, Move | None, int], None] | None = None,
              ) -> tuple[GameState, GameSummary]:
    """Play one game to its end, each seat's bot choosing from its own view: the one play
    loop of simulations, tournaments and demos.

    Plays ``state`` if given (else a new game from ``seed``), through ``recorder`` if
    given, so the game is recorded; ``after(state)`` is called after every action, and
    ``on_action(seat, committed, think_ns)`` with the seat that acted, the player move the
    action committed (None for a staging action) and the nanoseconds its bot took to
    choose. A bot's illegal action raises :class:`IllegalMoveError` with the state as it
    was before that action.
    """
    if recorder is not None:
        state = recorder.state
    state = state or GameState.new(profile, layout=layout, seed=seed)
    # the action comes from the listing of the view just built: its checks are not made
    # again (the recorder's state is this state; its history is the record); between two
    # moves, a seat's view keeps what no staging step changes (play_view)
    apply = state.apply_listed
    view_of = state.play_view
    if len(bots) != state.players:
        raise ValueError(f"{len(bots)} bots for {state.players} seats")
    actions = moves = 0
    clock = time.perf_counter_ns
    # with nobody to tell of each action, a bot's staging steps known ahead (its plan's)
    # are staged without a view per card (bots.ahead): the same game, move for move
    ahead = on_action is None and after is None
    stage_ahead = state.stage_ahead
    while state.phase != _GAME_OVER:  # (not is_over, to_act: no property calls, hot)
        seat = state.actor
        bot = bots[seat]
        if (ahead and state.phase == _DRAW
                and draw_ahead(bot, state) is not None):  # a draw its view would choose
            actions += 1
            moves += 1
            continue
        view = view_of(seat)
        if on_action is None:
            action = bot.choose(view)
            think_ns = 0
        else:
            start = clock()
            action = bot.choose(view)
            think_ns = clock() - start
        committed = apply(action)
        actions += 1
        if committed is not None:
            moves += 1
        elif ahead:
            known = staging_ahead(bot)
            staged = 0
            if known:
                staged = stage_ahead(known)
                played_ahead(bot, staged)
                actions += staged
            # and the meld or pickup that ends the plan, where the view would list it
            if staged == len(known) and commit_ahead(bot, state) is not None:
                actions += 1
                moves += 1
        if on_action is not None:
            on_action(seat, committed, think_ns)
        if after is not None:
            after(state)
        if actions > MAX_ACTIONS_PER_GAME:
            raise SafetyCapReached(
                f"the game with seed {seed} did not end after {MAX_ACTIONS_PER_GAME:,} "
                f"actions: {stuck_text(state)}", seed=seed, actions=actions)
    summary = GameSummary(
        seed=seed,
        actions=actions,
        moves=moves,
        round_ends=tuple(r.reason for r in state.results),
        totals=tuple(state.totals),
        winners=state.winners(),
    )
    return state, summary


def bot_turn(bot: Bot, state: GameState, seat: int) -> mv.PlayerMove:
    """The player move ``bot`` makes now for ``seat``, worked out on a copy of ``state``.

    The bot sees only the seat's views; its staging actions are played on the copy until
    they commit a player move, which is returned (``state`` itself is unchanged), so a
    server can store the move before it plays it. Raises :class:`ValueError` if the seat is
    not the one to act or the bot stages forever, :class:`IllegalMoveError` if the bot
    chooses an illegal action.
    """
    if state.is_over or state.to_act != seat:
        raise ValueError(f"seat {seat + 1} is not the one to act")
    trial = state.copy()
    for _ in range(MAX_TURN_ACTIONS):
        move = trial.apply_listed(bot.choose(trial.play_view(seat)))  # (listed by the view)
        if move is not None:
            return move  # type: ignore[return-value]  # apply_action commits player moves
    raise ValueError(f"the {bot.name} bot staged {MAX_TURN_ACTIONS} actions without a move")


@dataclass(frozen=True, slots=True)
class Hint:
    """What :data:`HINT_BOT` would do for a seat, and why in one line."""

    move: mv.PlayerMove
    notation: str
    reason: str


def hint(state: GameState, seat: int, seed: int) -> Hint | None:
    """What the hint bot would play for ``seat`` now (on a copy), or None when the seat is
    not the one to act or the bot has no advice. The bot sees only the seat's view."""
    if state.is_over or state.to_act != seat:
        return None
    try:
        move = bot_turn(make_bot(HINT_BOT, seed), state, seat)
    except (ValueError, IllegalMoveError):
        return None
    return Hint(move, mv.format_move(move), hint_reason(state, move))


def hint_reason(state: GameState, move: mv.PlayerMove) -> str:
    """Why a move pays, in one line, without saying the move again (the hint shows the move
    itself): ``taking the pile (9♣ on top) does not pay now``."""
    match move:
        case mv.Draw():
            top = state.pile[-1] if state.pile else None
            if top is None:
                return "the pile is empty"
            label = cards.face_label(top)
            blocker = state.pickup_blocker()
            if blocker is not None:
                return f"the pile ({label} on top) cannot be taken: {blocker}"
            kind = cards.FACE_KIND[top]
            if (state.profile.pickup_needs_pair and not cards.is_wild(kind)
                    and state.held[state.to_act][kind] < 2):
                return (f"taking the pile ({label} on top) needs two natural "
                        f"{cards.KIND_PLURALS[kind]} in your hand")
            return f"taking the pile ({label} on top) does not pay now"
        case mv.Pickup(groups):
            n = state.pickup_size()
            return (f"{n} card{'s' if n != 1 else ''} for your hand, and "
                    + _melds_why(state, groups))
        case mv.Meld(groups):
            return _melds_why(state, groups)
        case mv.Discard(kind):
            name = cards.KIND_NAMES[kind]
            if kind == cards.BLACK_THREE:
                return "a black 3 blocks the pile for the next player"
            return f"the {name} is the card you can spare best"
        case mv.GoOut():
            return "your side has the books it needs"
        case mv.Answer(yes):
            if yes:
                return "your side has what it needs to go out"
            return "the cards you hold would cost your side too much"
        case mv.Knock():
            return "your turn can end here"
        case mv.PickUpKnee():
            return "your side has the book the Knee needs"
        case mv.Undo():
            return "your last meld did not pay"
    return mv.format_move(move)


def _melds_why(state: GameState, groups: tuple[mv.MeldGroup, ...]) -> str:
    """Why melding ``groups`` pays, in a player's words: the opening it makes, the book it
    completes, how far it brings a meld toward a book (not the move said again)."""
    p = state.profile
    side = state.side_of[state.to_act]
    values = p.kind_values
    points = sum(values[g.target] * g.naturals if g.target != mv.WILD_MELD else 0
                 for g in groups) + sum(values[cards.TWO] * g.twos + values[cards.JOKER] * g.jokers
                                        for g in groups)
    reasons: list[str] = []
    if not state.opened[side]:
        need = state.opening_minimum_of(side)
        reasons.append(f"{points:,} points open your side, which needs {need:,}")
    sizes: dict[int, int] = {}
    for m in state.melds[side]:
        if m.size < p.book_size:
            sizes.setdefault(m.target, m.size)
    for g in groups:
        name = "all-wild meld" if g.target == mv.WILD_MELD else cards.KIND_PLURALS[g.target]
        size = sizes.get(g.target, 0) + g.naturals + g.twos + g.jokers
        sizes[g.target] = size
        if size >= p.book_size:
            reasons.append(f"it completes a book of {name}" if g.target != mv.WILD_MELD
                           else "it completes an all-wild book")
        elif size - g.naturals - g.twos - g.jokers > 0:
            reasons.append(f"your {name} reach {size} of {p.book_size}, closer to a book")
        elif state.opened[side]:
            reasons.append(f"a new meld of {name} puts {size} cards on the table, where they "
                           "score instead of counting against you")
    if not reasons:
        return _melds_text(groups)
    return "; ".join(dict.fromkeys(reasons))


def _melds_text(groups: tuple[mv.MeldGroup, ...]) -> str:
    targets: list[str] = []
    for g in groups:
        name = "an all-wild meld" if g.target == mv.WILD_MELD else cards.KIND_PLURALS[g.target]
        if name not in targets:
            targets.append(name)
    if not targets:
        return "meld nothing yet"
    text = targets[0] if len(targets) == 1 else ", ".join(targets[:-1]) + " and " + targets[-1]
    return f"meld your {text}" if not text.startswith("an ") else f"meld {text}"


@dataclass
class SimulationStats:
    """Statistics over simulated games."""

    profile: str
    layout: str
    bots: tuple[str, ...]
    seed: int
    games: int = 0
    actions: int = 0
    moves: int = 0
    rounds: int = 0
    round_ends: dict[str, int] = field(default_factory=dict)
    score_sums: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)

    def add(self, summary: GameSummary) -> None:
        if not self.score_sums:
            self.score_sums = [0] * len(summary.totals)
            self.wins = [0.0] * len(summary.totals)
        self.games += 1
        self.actions += summary.actions
        self.moves += summary.moves
        self.rounds += len(summary.round_ends)
        for reason in summary.round_ends:
            self.round_ends[reason] = self.round_ends.get(reason, 0) + 1
        for side, total in enumerate(summary.totals):
            self.score_sums[side] += total
        for side in summary.winners:
            self.wins[side] += 1 / len(summary.winners)

    def as_dict(self) -> dict[str, object]:
        g = max(self.games, 1)
        return {
            "profile": self.profile,
            "layout": self.layout,
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "rounds": self.rounds,
            "actions_per_game": round(self.actions / g, 1),
            "moves_per_game": round(self.moves / g, 1),
            "round_ends": dict(sorted(self.round_ends.items())),
            "mean_score_per_side": [round(s / g, 1) for s in self.score_sums],
            "win_share_per_side": [round(w / g, 4) for w in self.wins],
        }

    def format(self) -> str:
        d = self.as_dict()
        ends = self.round_ends
        lines = [
            f"profile {self.profile} ({self.layout}), bots {', '.join(self.bots)}, "
            f"seed {self.seed}",
            f"games: {self.games}   rounds: {self.rounds}",
            f"moves per game: {d['moves_per_game']}   actions per game: {d['actions_per_game']}",
            "rounds ended: " + ", ".join(f"{reason} {n}" for reason, n in sorted(ends.items())),
        ]
        for side, (mean, share) in enumerate(zip(d["mean_score_per_side"],  # type: ignore[call-overload]
                                                 d["win_share_per_side"], strict=True)):
            lines.append(f"side {side + 1}: mean score {mean}, won {share:.1%} of games")
        return "\n".join(lines)


Progress = Callable[[int, int], None]
"""``progress(games_done, games_total)``, called in the calling process."""


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    """One game of a simulation as a worker hands it back."""

    summary: GameSummary
    record: GameRecord | None = None
    """The game's record, when the simulation records its games."""
    state: GameState | None = None
    """The final state, when the caller asked for it (``on_game``)."""


def play_simulated_game(profile: Profile, layout: str, names: tuple[str, ...], seed: int,
                        index: int, games: int, record: bool = False,
                        keep_state: bool = False) -> SimulatedGame:
    """Game ``index`` of the simulation ``seed``: its seeds come from ``(seed, index)``
    alone, so any process may play it. A module-level function of plain arguments."""
    lay = Layout.parse(layout)
    game_seed = derive_seed(seed, "game", index)
    players = [make_bot(name, derive_seed(seed, "bot", index, s))
               for s, name in enumerate(names)]
    state = GameState.new(profile, layout=lay, seed=game_seed)
    recorder = GameRecorder(state, seat_names=list(names),
                            metadata={"game": index + 1}) if record else None
    try:
        state, summary = play_game(profile, game_seed, players, state=state, recorder=recorder)
    except IllegalMoveError as exc:  # a bot chose an illegal action: an engine bug
        raise RuntimeError(f"game {index} (seed {game_seed}): {exc}") from exc
    except SafetyCapReached as exc:
        raise SafetyCapReached(
            f"game {index + 1} of {games} ({profile.name} {layout}, bots "
            f"{', '.join(names)}, simulation seed {seed}) is stuck: {exc}",
            seed=exc.seed, actions=exc.actions) from None
    return SimulatedGame(summary, recorder.record() if recorder is not None else None,
                         state if keep_state else None)


def simulation_run(profile: Profile, games: int, seed: int, layout: Layout,
                   names: Sequence[str]) -> dict[str, object]:
    """What decides a simulation's results, as a partial-results file records it."""
    return {"command": "simulate", "profile": profile.name,
            "profile_fingerprint": fingerprint(profile), "layout": str(layout),
            "bots": list(names), "games": games, "seed": seed, "handfoot": handfoot_version()}


def _game_to_json(game: SimulatedGame) -> dict[str, Any]:
    return asdict(game.summary)


def _game_from_json(data: dict[str, Any]) -> SimulatedGame:
    return SimulatedGame(GameSummary(
        seed=data["seed"], actions=data["actions"], moves=data["moves"],
        round_ends=tuple(data["round_ends"]), totals=tuple(data["totals"]),
        winners=tuple(data["winners"])))


def simulate(profile: Profile, games: int, seed: int, *, layout: Layout | None = None,
             bots: Sequence[str] = ("random",),
             record: bool = False,
             on_game: Callable[[int, GameState, GameSummary, GameRecord | None], None]
             | None = None,
             workers: int = 1, scheduler: str | None = None,
             partial: str | Path | None = None, resume: bool = False,
             progress: Progress | None = None,
             ) -> SimulationStats:
    """Play ``games`` complete games; ``bots`` names one level per seat, or one for all.

    With ``record``, each game is recorded and its :class:`GameRecord` passed to
    ``on_game(index, state, summary, record)``, called as each game finishes (in game
    order in one process). ``workers`` > 1 plays in that many processes, ``scheduler``
    (``tcp://host:8786``) on the workers of a Dask cluster; the statistics are the same
    either way (they are summed in game order). With ``partial`` each finished game's
    summary is written to that file as the run goes; with ``resume`` too, the games it
    holds are not played again (nor passed to ``on_game``). ``progress(done, total)``
    counts finished games, those read from the file included.
    """
    layout = layout or profile.layout
    names = tuple(bots) if len(bots) > 1 else tuple(bots) * layout.players
    if len(names) != layout.players:
        raise ValueError(f"give one bot for all seats or one per seat ({layout.players})")
    if resume and partial is None:
        raise ValueError("resume needs the partial-results file")
    runner = make_runner(workers, scheduler)
    lay = str(layout)
    keep_state = on_game is not None
    tasks = TaskList(games, lambda i: (profile, lay, names, seed, i, games, record,
                                       keep_state))  # made as they are played
    file = None
    if partial is not None:
        run = simulation_run(profile, games, seed, layout, names)
        file = PartialFile.resume(partial, run) if resume else PartialFile.create(partial, run)
    stats = SimulationStats(profile.name, lay, names, seed)
    waiting: dict[int, GameSummary] = {}  # finished before an earlier game: added after it

    def add(index: int, summary: GameSummary) -> None:  # in game order, as it finishes
        waiting[index] = summary
        while stats.games in waiting:
            stats.add(waiting.pop(stats.games))

    def on_result(index: int, game: SimulatedGame, finished: int) -> None:
        add(index, game.summary)
        if on_game is not None and game.state is not None:
            on_game(index, game.state, game.summary, game.record)
        if progress is not None:
            progress(finished, games)

    try:
        if progress is not None:
            progress(len(file.done) if file is not None else 0, games)
        for index, data in sorted(file.done.items() if file is not None else ()):
            if 0 <= index < games:  # the games of the partial file, first
                add(index, _game_from_json(data).summary)
        run_tasks(play_simulated_game, tasks, runner, partial=file, encode=_game_to_json,
                  decode=_game_from_json, on_result=on_result, keep=False)
    finally:
        if file is not None:
            file.close()
    assert stats.games == games and not waiting
    return stats
