"""Talk at a table: preset reactions, emoji and (where the table allows it) free-text chat.

A message is said by a seat (or by a watcher, where the table lets watchers talk), stored
with the game (``talk``: never in the engine's record, whose bytes stay the same) and only
then sent to every connection of the table as ``talk``; it carries the seat and its name,
the preset's id or the text, the time, and the number of moves made before it (``seq``, so
a replay shows it after the move it followed): nothing about anybody's cards.

The presets are one fixed list (:data:`PRESETS`), sent to every connection in its
``welcome`` with the table's settings and latest messages. The table's settings
(:data:`DEFAULTS`: reactions on, watchers silent, chat off) are chosen by whoever made the
table and changed during the game by its host (:func:`host_seat`: the first person's seat,
the one the lobby gives the person who made the table). A message is refused, with the
reason the sender sees, when the settings forbid it, when chat text is empty, too long
(:data:`MAX_CHAT` characters after NFC normalisation) or holds control characters, and past
the rate (:class:`TalkRate`: each seat at most
:attr:`~handfoot.web.settings.Settings.talk_limit` messages in
:attr:`~handfoot.web.settings.Settings.talk_window` seconds and one every
:attr:`~handfoot.web.settings.Settings.talk_gap` seconds; each watcher's connection the
same; the whole table at most :data:`TABLE_LIMIT` in the window). A refusal touches neither
the database nor the table's lock: a flood of talk never holds a move up.

With several server processes (PostgreSQL) a message is announced with ``NOTIFY`` (kind
``t``, carrying the item) and each process sends it to its own connections; a change of
settings is a change of the game's settings (kind ``s``). Talk is not replayed after a lost
notification: it is kept in the database and shown in the replay, but a bubble missed
live is not shown late.
"""

from __future__ import annotations

import json
import logging
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from handfoot.web import messages
from handfoot.web.connection import Connection
from handfoot.web.protocol import ClientMessage
from handfoot.web.settings import Settings
from handfoot.web.store import Store, StoreUnavailable, TalkRow, now

__all__ = ["DEFAULTS", "MAX_CHAT", "PRESETS", "Preset", "TableTalk", "TalkRate",
           "clean_chat", "host_seat", "read_settings", "talk_json"]

log = logging.getLogger("handfoot.web")

T = TypeVar("T")


class _Seat(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...


class _Sharing(Protocol):
    worker: str | None


class TalkTable(Protocol):
    """What :class:`TableTalk` uses of its table (a :class:`~handfoot.web.table.Table`)."""

    id: str
    seq: int
    settings: Settings
    connections: list[Connection]

    @property
    def seats(self) -> Sequence[_Seat]:
        """The seats: their numbers, kinds and names."""

    @property
    def sharing(self) -> _Sharing:
        """The table's dealings with other processes (its ``worker``)."""

    async def storing(self, action: Callable[[], Awaitable[T]], what: str) -> T:
        """``action()``, tried again while the database is out."""


@dataclass(frozen=True, slots=True)
class Preset:
    """A reaction anybody may send: its ``id`` (what a client sends) and its ``text``."""

    id: str
    text: str
    emoji: bool = False

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "emoji": self.emoji}


PRESETS: Final = (
    Preset("gg", "Good game!"),
    Preset("nice", "Nice meld!"),
    Preset("turn", "Your turn!"),
    Preset("oops", "Oops"),
    Preset("thanks", "Thanks, partner"),
    Preset("hurry", "Hurry up, please"),
    Preset("wp", "Well played"),
    Preset("hi", "Hello!"),
    Preset("sorry", "Sorry!"),
    Preset("thumbs", "\N{THUMBS UP SIGN}", emoji=True),
    Preset("laugh", "\N{FACE WITH TEARS OF JOY}", emoji=True),
    Preset("wow", "\N{FACE WITH OPEN MOUTH}", emoji=True),
    Preset("sad", "\N{CRYING FACE}", emoji=True),
    Preset("party", "\N{PARTY POPPER}", emoji=True),
    Preset("heart", "\N{HEAVY BLACK HEART}\N{VARIATION SELECTOR-16}", emoji=True),
)
"""The reactions, in the order the picker shows them (the model: Trickster Cards' chat
presets). An id is never reused for another text: stored games name them."""

PRESET_BY_ID: Final = {p.id: p for p in PRESETS}

DEFAULTS: Final = {"reactions": True, "watchers": False, "chat": False}
"""A table's talk settings unless its creator chose others: ``reactions`` (presets and
emoji from the seats), ``watchers`` (watchers may send them too, and chat if it is on),
``chat`` (free text)."""

MAX_CHAT: Final = 200
"""The longest chat message, in characters after NFC normalisation."""

TABLE_LIMIT: Final = 30
"""The most messages a whole table takes within the window (seats and watchers together)."""

RECENT: Final = 30
"""The talk a connection is sent when it arrives (the latest messages of the game)."""

WATCHER_NAME: Final = "A watcher"

_BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                                  "\u200e\u200f\u061c")
"""Characters that reorder the text around them (a chat line could make a name or a score
read backwards): refused like control characters."""


def read_settings(value: Any, base: Mapping[str, bool] = DEFAULTS) -> dict[str, bool]:
    """Talk settings from a request (``{"reactions": true, "chat": false, ...}``, any of the
    keys of :data:`DEFAULTS`, the others from ``base``); ``ValueError`` saying what is wrong.

    >>> read_settings({"chat": True})
    {'reactions': True, 'watchers': False, 'chat': True}
    >>> read_settings({"chat": "yes"})
    Traceback (most recent call last):
    ...
    ValueError: talk: chat: true or false
    """
    if value is None:
        return dict(base)
    if not isinstance(value, Mapping):
        raise ValueError("talk: an object like {\"reactions\": true, \"watchers\": false, "
                         "\"chat\": false}")
    out = dict(base)
    for key, setting in value.items():
        if key not in DEFAULTS:
            raise ValueError(f"talk: {key!r} is not a setting (one of "
                             f"{', '.join(DEFAULTS)})")
        if not isinstance(setting, bool):
            raise ValueError(f"talk: {key}: true or false")
        out[key] = setting
    return out


def stored_settings(settings: Mapping[str, Any]) -> dict[str, bool]:
    """A game's talk settings as stored with it (the defaults for games made before)."""
    try:
        return read_settings(settings.get("talk"))
    except ValueError:
        return dict(DEFAULTS)


def clean_chat(text: str) -> tuple[str | None, str | None]:
    """A chat message as it is kept: ``(text, None)``, NFC-normalised and trimmed; or
    ``(None, why)`` when it is refused (empty, over :data:`MAX_CHAT` characters, or holding
    control characters or text-reordering marks).

    >>> clean_chat("  Caf\\u0065\\u0301 ?  ")
    ('Café ?', None)
    >>> clean_chat("one\\ntwo")
    (None, 'a chat message is one line of text, without control characters')
    """
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        return None, "a chat message needs some text"
    if len(text) > MAX_CHAT:
        return None, f"a chat message is at most {MAX_CHAT} characters (this one has {len(text)})"
    if any(unicodedata.category(c) == "Cc" or c in _BIDI_CONTROLS for c in text):
        return None, "a chat message is one line of text, without control characters"
    return text, None


def host_seat(seats: Sequence[Any]) -> int | None:
    """The seat that changes the table's talk settings: the first person's (the lobby gives
    it to whoever made the table); None at a table of bots."""
    return next((s.seat for s in seats if s.kind == "human"), None)


def talk_json(row: TalkRow) -> dict[str, Any]:
    """A message as sent: ``id``, ``seq`` (the moves made before it), ``seat`` (null: a
    watcher), ``name``, ``preset`` (null for chat), ``text`` (the preset's text, or the
    chat's) and ``at`` (UTC, to the second)."""
    preset = PRESET_BY_ID.get(row.preset) if row.preset is not None else None
    text = row.text if row.preset is None else (preset.text if preset else row.preset)
    return {"id": row.id, "seq": row.seq, "seat": row.seat, "name": row.name,
            "preset": row.preset, "text": text,
            "at": row.created.replace(microsecond=0).isoformat() + "Z"}


class TalkRate:
    """The times of one sender's recent messages: at most ``limit`` within ``window``
    seconds, and ``gap`` seconds between two. :meth:`refusal` says why the next is refused
    (and in how many seconds it would not be), or None; :meth:`note` counts one sent.

    >>> t = [0.0]
    >>> rate = TalkRate(2, 10.0, 1.0, clock=lambda: t[0])
    >>> rate.note(); rate.refusal()
    (1.0, 'wait 1 s between two messages')
    >>> t[0] = 1.0; rate.note(); t[0] = 2.0; rate.refusal()
    (8.0, 'at most 2 messages in 10 seconds: wait 8 s')
    """

    def __init__(self, limit: int, window: float, gap: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.gap = gap
        self.clock = clock
        self.times: deque[float] = deque(maxlen=max(1, limit))

    def refusal(self) -> tuple[float, str] | None:
        clock = self.clock()
        times = self.times
        while times and clock - times[0] >= self.window:
            times.popleft()
        if times and clock - times[-1] < self.gap:
            return round(self.gap - (clock - times[-1]), 1) or 0.1, \
                f"wait {self.gap:g} s between two messages"
        if len(times) >= self.limit:
            wait = round(self.window - (clock - times[0]), 1) or 0.1
            return wait, (f"at most {self.limit} messages in {self.window:g} seconds: "
                          f"wait {wait:g} s")
        return None

    def note(self) -> None:
        self.times.append(self.clock())


class TableTalk:
    """A table's talk: its settings, the rates of its senders, the latest messages."""

    def __init__(self, table: TalkTable, store: Store, stored: Mapping[str, Any]) -> None:
        self.table = table
        self.store = store
        self.settings = stored_settings(stored)
        self.host = host_seat(table.seats)
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self._rates: dict[object, TalkRate] = {}
        cfg = table.settings
        self._table_rate = TalkRate(TABLE_LIMIT, cfg.talk_window, 0.0)

    def loaded(self, rows: Sequence[TalkRow]) -> None:
        """The latest stored messages, read with the game."""
        self.recent.extend(talk_json(r) for r in rows[-RECENT:])

    # -- connections ------------------------------------------------------------------------

    def welcome_json(self) -> dict[str, Any]:
        """The talk part of a ``welcome``: the settings, the host's seat, the presets, the
        longest chat message and the latest messages (``recent``)."""
        return {"settings": dict(self.settings), "host": self.host,
                "presets": [p.json() for p in PRESETS], "max_chat": MAX_CHAT,
                "recent": list(self.recent)}

    def settings_message(self, request_id: str | None = None) -> dict[str, Any]:
        return messages.talk_settings(request_id, self.settings)

    def _send_all(self, item: dict[str, Any], sender: Connection | None = None,
                  request_id: str | None = None) -> None:
        for conn in list(self.table.connections):
            conn.send(messages.talk(request_id if conn is sender else None, [item]))

    # -- messages from connections ----------------------------------------------------------

    async def handle(self, conn: Connection, msg: ClientMessage) -> None:
        if msg.type == "talk_settings":
            await self._change(conn, msg)
        else:
            await self._say(conn, msg)

    def _refusal(self, conn: Connection, chat: bool) -> tuple[str, str, float | None] | None:
        """Why a reaction (or ``chat``) from ``conn`` is refused now: the error's code, its
        message and the seconds after which it would pass (a rate's); None if it is not."""
        settings = self.settings
        if conn.seat is None and not settings["watchers"]:
            return "talk_off", "watchers may not talk at this table (its host can allow it)", \
                None
        if chat and not settings["chat"]:
            return "talk_off", "chat is off at this table (its host can turn it on)", None
        if not chat and not settings["reactions"]:
            return "talk_off", "reactions are off at this table (its host can turn them " \
                "on)", None
        cfg = self.table.settings
        key: object = ("seat", conn.seat) if conn.seat is not None else conn
        rate = self._rates.get(key)
        if rate is None:
            rate = self._rates[key] = TalkRate(cfg.talk_limit, cfg.talk_window, cfg.talk_gap)
        for limiter, whose in ((rate, ""), (self._table_rate, "the table is busy talking: ")):
            refused = limiter.refusal()
            if refused is not None:
                wait, why = refused
                return "talk_rate", f"too many messages: {whose}{why}", wait
        return None

    async def _say(self, conn: Connection, msg: ClientMessage) -> None:
        """A reaction or chat message: refused by the settings or the rate (before its text
        is read), or for its text; else stored, then sent to everyone."""
        chat = msg.type == "chat"
        preset: str | None = None
        text: str | None = None
        if not chat:
            preset = msg.raw.get("preset")
            if preset not in PRESET_BY_ID:
                conn.send(messages.error(msg.id, "bad_message", f"react: preset: one of "
                                         f"{', '.join(PRESET_BY_ID)}"))
                return
        refused = self._refusal(conn, chat)
        if refused is not None:
            code, why, wait = refused
            more = {} if wait is None else {"retry_after": wait}
            conn.send(messages.error(msg.id, code, why, **more))
            return
        if chat:
            raw = msg.raw.get("text")
            text, problem = clean_chat(raw if isinstance(raw, str) else "")
            if problem is not None:  # (not counted against the rate)
                conn.send(messages.error(msg.id, "talk_text", problem))
                return
        self._forget_rates()
        key: object = ("seat", conn.seat) if conn.seat is not None else conn
        self._rates[key].note()
        self._table_rate.note()
        table = self.table
        name = WATCHER_NAME if conn.seat is None else table.seats[conn.seat].name
        row = TalkRow(0, table.seq, conn.seat, name, preset, text, now())
        try:
            stored = await table.storing(
                lambda: self.store.add_talk(table.id, row, self._notice),
                "a reaction")
        except StoreUnavailable:
            conn.send(messages.error(msg.id, "busy", "the server is busy (its database does "
                                     "not answer): your message was not sent"))
            return
        item = talk_json(stored)
        self.recent.append(item)
        self._send_all(item, conn, msg.id)

    def _notice(self, row: TalkRow) -> str:
        """What other processes are told of a message stored here: this process's name and
        the message (this process hears its own notice too, and ignores it)."""
        return json.dumps([self.table.sharing.worker, talk_json(row)], separators=(",", ":"))

    def _forget_rates(self) -> None:
        """Forget the rates of watchers' connections that are gone."""
        if len(self._rates) > 64:
            live = {id(c) for c in self.table.connections}
            for key in [k for k in self._rates if isinstance(k, Connection)
                        and id(k) not in live]:
                del self._rates[key]

    async def _change(self, conn: Connection, msg: ClientMessage) -> None:
        if conn.seat is None or conn.seat != self.host:
            conn.send(messages.error(msg.id, "not_host", "only the table's host (who made "
                                     "the table, in the first person's seat) changes its "
                                     "talk settings"))
            return
        try:
            new = read_settings({k: v for k, v in msg.raw.items() if k in DEFAULTS},
                                self.settings)
        except ValueError as exc:
            conn.send(messages.error(msg.id, "bad_message", str(exc)))
            return
        table = self.table
        try:
            await table.storing(lambda: self.store.set_setting(table.id, "talk", new),
                                "the talk settings")
        except StoreUnavailable:
            conn.send(messages.error(msg.id, "busy", "the server is busy (its database does "
                                     "not answer): the settings were not changed"))
            return
        self.settings = new
        for other in list(table.connections):
            other.send(self.settings_message(msg.id if other is conn else None))

    # -- other processes --------------------------------------------------------------------

    def heard(self, data: str, worker: str | None) -> None:
        """A message another process stored (the JSON its notification carries: see
        :meth:`_notice`): sent to this process's connections."""
        try:
            sender, item = json.loads(data)
        except (ValueError, TypeError):
            return
        if sender == worker or not isinstance(item, dict):
            return  # this process's own (already sent), or not a message
        self.recent.append(item)
        self._send_all(item)

    def settings_stored(self, settings: Mapping[str, Any]) -> None:
        """The game's settings as another process stored them: tell this process's
        connections of a change of the talk settings."""
        new = stored_settings(settings)
        if new != self.settings:
            self.settings = new
            message = self.settings_message()
            for conn in list(self.table.connections):
                conn.send(message)


def replay_talk(rows: Sequence[TalkRow]) -> dict[int, list[dict[str, Any]]]:
    """A game's messages by the number of moves made before each (a replay's frames)."""
    out: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row.seq, []).append(talk_json(row))
    return out

