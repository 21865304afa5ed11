"""The messages the server sends on a game's WebSocket: each built by one function here,
and written as JSON here only (:func:`encode`). The shapes are documented in docs/web.md
("The protocol").

The ``state`` message is the one whose content differs by connection, and the one sent
most: after a hello, after a stale move, and to every connection of a table at each change.
A :class:`StateMessage` holds what every connection shares at one moment (the public part
of the view, who is present, what the table waits for, written as JSON once, and the recent
events) and gives each connection its message with its own part of the view and its events.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol

import orjson

from handfoot.game.engine import GameState
from handfoot.game.moves import PlayerMove
from handfoot.game.values import Event, PlayerView
from handfoot.web.protocol import OWN_KEYS, event_json, hint_json, own_view_json

__all__ = ["OwnTexts", "Reader", "StateMessage", "ack", "checked", "encode", "error", "hint",
           "pace", "pong", "presence", "rematch", "talk", "talk_settings", "welcome"]


def encode(message: Any) -> str:
    """A message as the text of its frame: compact JSON (by orjson, about ten times as fast
    as the standard library's encoder for a ``state`` message's 2 KB; a value orjson does
    not take, such as an integer beyond 64 bits, by the standard library). orjson is asked
    first without ``OPT_NON_STR_KEYS``, which halves its speed on a state's public part
    (3.6 against 6.8 µs): a message whose keys are not all strings is written again with
    it."""
    text: str
    try:
        text = orjson.dumps(message).decode()
    except TypeError:
        try:
            text = orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            text = _ENCODER.encode(message)
    return text


_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
"""The standard library's encoder, for what orjson does not take (written like orjson's:
compact, UTF-8 kept as it is)."""


class StateMessage:
    """The ``state`` message of a table at one moment, for any of its connections:
    ``{"type": "state", "seq", "view", "events", "presence", "waiting"}``.

    ``public`` is the part of the view every connection shares (the public view without
    the keys a seat has of its own, :data:`~handfoot.web.protocol.OWN_KEYS`); it is written
    as JSON here once, as are ``presence`` and ``waiting``. ``events`` are the events a
    connection may lack (the oldest first); :meth:`text` picks a connection's from them."""

    __slots__ = ("_events", "_head", "_tail", "_texts", "events", "seq")

    def __init__(self, seq: int, public: Mapping[str, Any], presence: Sequence[bool],
                 waiting: Mapping[str, Any] | None, events: Sequence[Event]) -> None:
        self.seq = seq
        self.events = events
        self._events: dict[tuple[int, int | None], str] = {}
        """The events' JSON by (``since``, the seat whose private parts it holds, None
        for none): the connections of the other seats and the spectators share one."""
        self._texts: dict[tuple[int | None, int], str] = {}
        """Each message given out, by (seat, ``since``): a seat's second connection and
        the spectators that saw the same events share one."""
        # the view's public keys, left open for a connection's own keys to close it
        self._head = f'{_STATE_HEAD}"seq":{seq},"view":{encode(public)[:-1]},'
        self._tail = f',"presence":{encode(presence)},"waiting":{encode(waiting)}}}'

    def text(self, seat: int | None, own: Callable[[], Mapping[str, Any] | str],
             since: int) -> str:
        """The message, as JSON, for a connection of ``seat`` (None: a spectator): the view
        is the public part and ``own()``, the keys that are the seat's own
        (:func:`~handfoot.web.protocol.own_view_json`, or its JSON text: never empty, like
        the public part, so the two join into one object; asked for once per seat and
        ``since``); the events are those numbered ``since`` onwards, each with its private
        part for the seat that made it only."""
        text = self._texts.get((seat, since))
        if text is None:
            mine = own()
            text = self._compose(seat, mine if isinstance(mine, str) else encode(mine), since)
        return text

    def _compose(self, seat: int | None, mine: str, since: int) -> str:
        text = self._texts[(seat, since)] = f'{self._head}{mine[1:]},"events":' \
            f'{self._events_text(seat, since)}{self._tail}'
        return text

    def send(self, connections: Sequence[Reader], own: OwnTexts, state: GameState,
             view: PlayerView | None, acked: tuple[Reader, str] | None = None) -> None:
        """Send each of a table's ``connections`` its message (:meth:`text`, its own part
        from ``own``: :meth:`OwnTexts.text` of ``state`` and ``view``, a view of it the
        caller has) with the events it lacks (those from its ``last_event``), and note it
        sent (``last_event`` = :attr:`seq`, the table's seq); ``acked``: a connection and
        the request id its message acknowledges (:meth:`acked`). A broadcast's loop,
        compiled with this module."""
        seq = self.seq
        mover, request_id = acked if acked is not None else (None, "")
        for conn in connections:
            seat = conn.seat
            since = min(conn.last_event, seq)
            text = self._texts.get((seat, since))
            if text is None:
                text = self._compose(seat, own.text(state, seat, view), since)
            conn.send_text(text if conn is not mover else StateMessage.acked(text, request_id))
            conn.last_event = seq

    @staticmethod
    def acked(text: str, request_id: str) -> str:
        """A connection's ``state`` (:meth:`text`) that also acknowledges its move
        ``request_id``, the move whose ``seq`` it has (``"id"`` added: the ``ack`` and the
        ``state`` in one frame, for a client whose hello asked for ``"acks": "state"``)."""
        return f'{_STATE_HEAD}"id":{encode(request_id)},{text[len(_STATE_HEAD):]}'

    def _events_text(self, seat: int | None, since: int) -> str:
        events = [e for e in self.events if e.number >= since]
        private = seat if any(e.private and e.seat == seat for e in events) else None
        key = (since, private)
        text = self._events.get(key)
        if text is None:
            text = self._events[key] = encode([event_json(e, private) for e in events])
        return text


class Reader(Protocol):
    """What :meth:`StateMessage.send` asks of a connection
    (:class:`~handfoot.web.connection.Connection`)."""

    seat: int | None
    last_event: int

    def send_text(self, text: str) -> None: ...


class OwnTexts:
    """A table's JSON of each connection's own part of its view
    (:func:`~handfoot.web.protocol.own_view_json`), kept for the seats not to act: theirs
    is their hand and their side's opening minimum (nothing staged, nothing they may do),
    which stay the same from one move to the next for every seat but the one that just
    acted. Each is kept by what it is made of (the seat, its cards as the state counts them,
    the minimum), so the text given out is always the seat's own as it is now."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[int, tuple[tuple[int, tuple[int, ...]], str]] = {}

    def text(self, state: GameState, seat: int | None, view: PlayerView | None = None) -> str:
        """``seat``'s own part as JSON (``view``: a view of ``state`` the caller has, see
        :func:`~handfoot.web.protocol.own_view_json`)."""
        if seat is None:
            return _SPECTATOR_OWN
        if state.to_act == seat or state.staged:
            return encode(own_view_json(state, seat, view))
        key = (state.opening_minimum_of(state.side_of[seat]), tuple(state.held_faces[seat]))
        kept = self._kept.get(seat)
        if kept is not None and kept[0] == key:
            return kept[1]
        text = encode(own_view_json(state, seat))
        self._kept[seat] = (key, text)
        return text


_STATE_HEAD: Final = '{"type":"state",'
"""How every ``state`` message's text begins."""

_SPECTATOR_OWN: Final = encode(dict.fromkeys(OWN_KEYS))
"""A spectator's own part: each of :data:`~handfoot.web.protocol.OWN_KEYS` null."""


def welcome(seat: int | None, game: Mapping[str, Any],
            talk: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """After a good hello: the connection's seat (None: a spectator), the game, and its
    talk (:meth:`handfoot.web.talk.TableTalk.welcome_json`: the settings, the host's seat,
    the presets, the longest chat message and the latest messages)."""
    return {"type": "welcome", "seat": seat, "game": game, "talk": talk}


def ack(request_id: str | None, seq: int) -> dict[str, Any]:
    """A person's move was committed as move ``seq``."""
    return {"type": "ack", "id": request_id, "seq": seq}


def error(request_id: str | None, code: str, message: str,
          **more: Any) -> dict[str, Any]:
    """Nothing was done for a request: ``code`` (see docs/web.md, "Error codes") and why,
    in words; ``more``: keys some errors add (``retry_after``)."""
    return {"type": "error", "id": request_id, "code": code, "message": message, **more}


def checked(request_id: str | None, reason: str | None) -> dict[str, Any]:
    """The answer to a ``check``: ``reason`` is why the move is illegal, or None."""
    return {"type": "checked", "id": request_id, "ok": reason is None, "message": reason}


def hint(request_id: str | None, move: PlayerMove | None, reason: str) -> dict[str, Any]:
    """The answer to a ``hint``: the advised move in the notation, in words and as the
    kinds of the hand it plays, and why (or, with no move, why there is no advice): see
    :func:`~handfoot.web.protocol.hint_json`."""
    return hint_json(request_id, move, reason)


def presence(seats: Sequence[bool]) -> dict[str, Any]:
    """Who is connected, per seat (bots always are)."""
    return {"type": "presence", "presence": list(seats)}


def pace(request_id: str | None, name: str, seat: int | None) -> dict[str, Any]:
    """The table's bot pace (``"fast"``, ``"normal"``, ``"slow"``) and the seat that
    set it (None: nobody yet); ``request_id`` on the setter's own copy."""
    return {"type": "pace", "id": request_id, "pace": name, "seat": seat}


def pong() -> dict[str, Any]:
    """The answer to a ``ping``."""
    return {"type": "pong"}


def rematch(game_id: str, link: str) -> dict[str, Any]:
    """The rematch game, with a connection's own way into it."""
    return {"type": "rematch", "game_id": game_id, "link": link}


def talk(request_id: str | None, items: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Reactions or chat messages (see :func:`handfoot.web.talk.talk_json`), just said:
    ``id`` is the sender's request id on the sender's own copy, else null."""
    return {"type": "talk", "id": request_id, "items": list(items)}


def talk_settings(request_id: str | None, settings: Mapping[str, bool]) -> dict[str, Any]:
    """The table's talk settings, to everyone when the host changed them (``id``: the
    host's request id, on the host's own copy)."""
    return {"type": "talk_settings", "id": request_id, "settings": dict(settings)}
