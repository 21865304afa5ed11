"""The bots that play at a table: :class:`TableBots`, one per table, with the bots of its
bot seats, the stand-ins for absent people, their memory of the round, and the task that
plays their turns.

The task plays the bot seats (and, where the table chose ``"absent": "bot"``, the seats of
people away longer than the grace time) while anybody is connected. A bot move is worked
out on a copy of the state from the seat's view (the expert in a process pool, off the
event loop), revealed ``bot_delay`` (at the table's pace) after the bot's turn began whatever it
computed, then checked, stored and played by the table. Bots start every round afresh,
with a seed from the game's, the seat and the round (what the hard bots remember is the
round's anyway). Bot memory survives a restart: the stored moves are played again, then (in
a thread, before the bots next move) each bot makes its own moves of the current round
again from its seat's views (a bot whose choice differs, as the time-limited expert's may,
keeps what it saw and the stored move is played); the moves of earlier rounds are only
played, which keeps rebuilding a table cheap. A bot's move another process stored leaves
the bots behind in the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final, Protocol

from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import make_bot
from handfoot.bots.search import ExpertBot
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.moves import format_move
from handfoot.game.values import IllegalMoveError
from handfoot.runs.sim import bot_turn, derive_seed
from handfoot.web.settings import BOT_PACES, Settings
from handfoot.web.store import is_outage

__all__ = ["STAND_IN_BOT", "BotTable", "TableBots", "stored_pace"]

log = logging.getLogger("handfoot.web")

STAND_IN_BOT: Final = "hard"
"""The bot that plays for a person away past the grace time, where the table chose so."""

SEARCH_MARGIN: Final = 0.2
"""Seconds added to the expert's search budget for its move's delay (its search stops at the
first check past the budget, and the answer comes back from another process)."""

OUTAGE_PAUSE: Final = 1.0
"""Seconds the bots wait after a database outage met outside a move's own tries (catching
up with another process's moves) before they think again."""

_Played = tuple[int, int, mv.PlayerMove, str]
"""A move of the current round as a table played it: seq, seat, move, by whom."""


def stored_pace(settings: Mapping[str, Any]) -> str:
    """A game's bot pace as stored in its settings (``normal`` when none, or one the server
    does not know).

    >>> stored_pace({"pace": "slow"}), stored_pace({}), stored_pace({"pace": ["fast"]})
    ('slow', 'normal', 'normal')
    """
    pace = settings.get("pace")
    return pace if isinstance(pace, str) and pace in BOT_PACES else "normal"


class BotTable(Protocol):
    """What the bots use of their table (a :class:`~handfoot.web.table.Table`)."""

    id: str
    state: GameState
    seq: int
    lock: asyncio.Lock
    wake: asyncio.Event
    """Set when the bots may have a turn to play."""

    def bots_may_play(self) -> bool:
        """Whether bots may move now (the game goes on, somebody is connected, this process
        plays the table's bots, the table waits for nobody's Continue)."""

    def stood_in(self, seat: int) -> bool:
        """Whether a stand-in plays ``seat`` now."""

    async def play_bot_move(self, move: mv.PlayerMove, by: str) -> None:
        """Check, store and play a bot's move and tell everyone (the caller holds the
        lock)."""


class TableBots:
    """The bots of one table (``levels``: the level of each bot seat) and the task that
    plays their turns."""

    def __init__(self, table: BotTable, levels: Mapping[int, str], seed: int,
                 settings: Settings, pool: Callable[[], ProcessPoolExecutor]) -> None:
        self.table = table
        self.levels = dict(levels)
        self._seed = seed
        self._settings = settings
        self._pool = pool
        self.bots: dict[int, Bot] = self._fresh(table.state.round_number)
        """The bot of each bot seat, for the current round."""
        self.stand_ins: dict[int, Bot] = {}
        """The stand-ins of the current round, by seat."""
        self.behind = False
        """Whether a bot's move of this round was played without its bot thinking it here
        (a load, another process's move): the bots remake the round before they move."""
        self.pace = "normal"
        """The table's bot pace (:data:`~handfoot.web.settings.BOT_PACES`), as its creator
        chose it (the ``pace`` message), stored in the game's settings (:func:`stored_pace`)."""
        self.task: asyncio.Task[None] | None = None
        self._thought: dict[int, int] = {}
        """The seq at which each seat's bot last thought here (its memory has that view)."""
        self._round_start = table.state.copy()
        """The current round as dealt (for the bots to remake its moves from)."""
        self._round_rows: list[_Played] = []
        """The current round's moves so far."""

    def make(self, level: str, seat: int, label: str = "bot", *,
             round_number: int | None = None) -> Bot:
        """A bot for the current round, or ``round_number`` (round 1's seed is the one
        bots had before they were made per round)."""
        number = self.table.state.round_number if round_number is None else round_number
        seed = derive_seed(self._seed, label, seat) if number == 1 else \
            derive_seed(self._seed, label, seat, number)
        if level == "expert" and self._settings.expert_budget is not None:
            return ExpertBot(seed, time_budget=self._settings.expert_budget)
        return make_bot(level, seed)

    # -- the moves the table plays ----------------------------------------------------------

    def stored_elsewhere(self, seat: int, by: str) -> None:
        """A stored move is about to be played (at a load, or another process's): a bot's
        move that no bot here thought at this point leaves the bots behind."""
        if by == "bot" and self._thought.get(seat) != self.table.seq:
            self.behind = True

    def played(self, seat: int, move: mv.PlayerMove, by: str, *, new_round: bool,
               new_bots: bool = True) -> None:
        """A move was just played, as move ``table.seq``: one more of the round's, or one
        that began a round, whose bots start afresh (made now unless not ``new_bots``: a
        replay makes only the last round's, with :meth:`renew`)."""
        if new_round:
            if new_bots:
                self.renew()
            self.stand_ins.clear()
            self._thought.clear()
            self.behind = False
            self._round_start = self.table.state.copy()
            self._round_rows = []
        else:
            self._round_rows.append((self.table.seq, seat, move, by))

    def renew(self) -> None:
        """New bots for the current round."""
        self.bots = self._fresh(self.table.state.round_number)

    # -- their memory -----------------------------------------------------------------------

    def catch_up(self) -> None:
        """Bring the bots' memory up to date (see the module's docstring), all at once."""
        if self.behind:
            start, rows = self._round_start.copy(), list(self._round_rows)
            bots, differ = _remake_bots(self._fresh(start.round_number), start, rows)
            self._log_differences(differ)
            self._install(bots, len(rows))

    async def catch_up_apart(self) -> None:
        """:meth:`catch_up` away from the event loop: in a thread, or for the expert
        (whose every move is a search) in the pool of processes it thinks in. Moves may be
        played meanwhile: bots remade for an earlier point of the round catch up again."""
        loop = asyncio.get_running_loop()
        while self.behind:
            number = self.table.state.round_number
            start, rows = self._round_start.copy(), list(self._round_rows)
            fresh = self._fresh(number)
            if any(b.name == "expert" for b in fresh.values()):
                bots, differ = await loop.run_in_executor(self._pool(), _remake_bots, fresh,
                                                          start, rows)
            else:
                bots, differ = await asyncio.to_thread(_remake_bots, fresh, start, rows)
            self._log_differences(differ)
            if self.table.state.round_number == number:
                self._install(bots, len(rows))
            # else a new round began meanwhile: its bots start afresh (already behind
            # again only if a bot's move of the new round was not thought here)

    def _fresh(self, round_number: int) -> dict[int, Bot]:
        return {seat: self.make(level, seat, round_number=round_number)
                for seat, level in self.levels.items()}

    def _log_differences(self, differ: list[tuple[int, str | None, str]]) -> None:
        for seq, again, played in differ:
            log.info("game %s move %d: the bot chose %r again, the game has %r",
                     self.table.id, seq, again, played)

    def _install(self, bots: dict[int, Bot], upto: int) -> None:
        """Take bots remade from the first ``upto`` moves of the round; still behind if a
        bot's move came after those."""
        self.bots = bots
        self._thought.clear()
        self.behind = any(r[3] == "bot" for r in self._round_rows[upto:])

    # -- playing their turns ----------------------------------------------------------------

    def start(self) -> None:
        """Start the task that plays the bots' turns, unless it runs."""
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    def to_move(self) -> tuple[int, Bot, str] | None:
        """The seat a bot plays now, its bot and ``"bot"`` or ``"stand-in"``; or None."""
        table = self.table
        if not table.bots_may_play():
            return None
        seat = table.state.to_act
        if seat in self.bots:
            return seat, self.bots[seat], "bot"
        if table.stood_in(seat):
            if seat not in self.stand_ins:
                self.stand_ins[seat] = self.make(STAND_IN_BOT, seat, "stand-in")
            return seat, self.stand_ins[seat], "stand-in"
        return None

    async def stand_in_move(self, seat: int) -> mv.PlayerMove:
        """The move the seat's stand-in makes now (a correspondence game's time ran out),
        worked out in a thread on a copy of the state."""
        bot = self.stand_ins.get(seat)
        if bot is None:
            bot = self.stand_ins[seat] = self.make(STAND_IN_BOT, seat, "stand-in")
        return await asyncio.to_thread(bot_turn, bot, self.table.state.copy(), seat)

    async def _run(self) -> None:
        table = self.table
        loop = asyncio.get_running_loop()
        while True:
            await table.wake.wait()
            table.wake.clear()
            while (turn := self.to_move()) is not None:
                if self.behind:
                    await self.catch_up_apart()
                    continue
                seat, bot, by = turn
                seq = table.seq
                started = loop.time()
                try:
                    move, bot = await self._think(bot, seat)
                    self._thought[seat] = seq
                except Exception:
                    log.exception("game %s: the %s bot of seat %d failed", table.id,
                                  bot.name, seat + 1)
                    return
                delay = started + self.delay(bot) - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                try:
                    async with table.lock:
                        again = self.to_move()
                        if table.seq != seq or again is None or again[0] != seat \
                                or again[2] != by:
                            continue  # the table changed while the bot thought
                        (self.bots if by == "bot" else self.stand_ins)[seat] = bot
                        await table.play_bot_move(move, by)
                except Exception as exc:
                    if not is_outage(exc):
                        raise
                    log.warning("game %s: a bot's move met a database outage (%s): trying "
                                "again", table.id, type(exc).__name__)
                    await asyncio.sleep(OUTAGE_PAUSE)

    def delay(self, bot: Bot) -> float:
        """Seconds from a bot's turn to its move showing: ``bot_delay`` at the table's pace
        (:meth:`~handfoot.web.settings.Settings.pace_delay`), but for a bot that
        searches against a clock (the expert) at least its search budget and
        :data:`SEARCH_MARGIN`, so that the time a move takes never tells whether it searched
        (a move with one sensible choice is found at once: a quick move would tell the
        table the bot had nothing to weigh)."""
        budget = getattr(bot, "time_budget", None)
        paced = self._settings.pace_delay(self.pace)
        if isinstance(budget, (int, float)):
            return max(paced, budget + SEARCH_MARGIN)
        return paced

    async def _think(self, bot: Bot, seat: int) -> tuple[mv.PlayerMove, Bot]:
        if bot.name == "expert":
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool(), _think_apart, bot,
                                              self.table.state.copy(), seat)
        return bot_turn(bot, self.table.state, seat), bot


def _remake_bots(bots: dict[int, Bot], trial: GameState, rows: list[_Played],
                 ) -> tuple[dict[int, Bot], list[tuple[int, str | None, str]]]:
    """``bots`` (new for the round), each having remade its own moves of ``rows`` (the
    round's moves so far, played from ``trial``, its start) from its seat's views; and the
    moves a bot chose differently (seq, its choice, the move played), as the time-limited
    expert's may."""
    differ: list[tuple[int, str | None, str]] = []
    for seq, seat, move, by in rows:
        bot = bots.get(seat) if by == "bot" else None
        if bot is not None:
            try:
                again: mv.PlayerMove | None = bot_turn(bot, trial, seat)
            except (ValueError, IllegalMoveError):
                again = None
            if again != move:
                differ.append((seq, None if again is None else format_move(again),
                               format_move(move)))
        trial.apply(move)
    return bots, differ


def _think_apart(bot: Bot, state: GameState, seat: int) -> tuple[mv.PlayerMove, Bot]:
    """A bot's move worked out in another process; the bot comes back with its memory."""
    return bot_turn(bot, state, seat), bot
