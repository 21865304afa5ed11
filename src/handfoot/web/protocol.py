"""The web protocol: views, events and round results as JSON, and client messages read.

Everything a connection receives about the game is built here from a
:class:`~handfoot.game.engine.PlayerView` (a seat's own view) or from the public part of one
(spectators), so what a page can see is exactly what the engine lets that seat see. The
message shapes are documented in ``docs/web.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard

import orjson

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import FACE_KIND, face_name
from handfoot.game.engine import GameState
from handfoot.game.events import advice_words
from handfoot.game.values import Event, MeldOptions, Phase, PlayerView, RoundResult, TableMeld

__all__ = [
    "ACKS",
    "KIND_JSON",
    "OWN_KEYS",
    "MessageError",
    "ViewCache",
    "event_json",
    "hand_kinds_json",
    "hint_json",
    "is_token",
    "is_unicode",
    "kind_json",
    "own_view_json",
    "public_view_json",
    "read_frame",
    "read_message",
    "result_json",
    "view_json",
]

KIND_JSON: Final = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "JK", "B3",
                    "R3")
"""Card kinds as the pages name them (``"10"``, not the notation's ``T``)."""

_KIND_OF_CODE: Final = {**dict(zip(cards.KIND_CODES, KIND_JSON, strict=True)), "wild": "wild"}
"""The page's name of each kind code of the notation (``"T"`` -> ``"10"``), and of the
all-wild meld's target."""

OWN_KEYS: Final = ("seat", "side", "opening_minimum")
"""The keys of the public view that are a seat's own (null for a spectator); with ``hand``,
``staged``, ``legal`` and ``kinds`` they are what a seat's view adds to the public part."""

PHASE_JSON: Final = {Phase.DRAW: "draw", Phase.PLAY: "play", Phase.ANSWER: "answer",
                     Phase.GAME_OVER: "game_over"}

CLIENT_TYPES: Final = ("hello", "move", "check", "hint", "continue", "ping", "pace", "react",
                       "chat", "talk_settings")

PACE_NAMES: Final = ("fast", "normal", "slow")
"""The bot paces a ``pace`` message may ask for (their seconds: web/settings.py)."""

ACKS: Final = ("frame", "state")
"""How a client's hello may ask for its moves' acknowledgements (``acks``): ``frame``, an
``ack`` of its own before the ``state`` (the default), or ``state``, within the ``state``
that shows the move (docs/web.md, ``hello``)."""

MAX_MESSAGE: Final = 8192
"""The longest client frame read (characters); a longer one is refused with an error."""

MAX_FRAME_BYTES: Final = 65536
"""The longest frame the WebSocket transport takes at all (``handfoot serve`` gives it to
uvicorn as ``ws_max_size``): a longer one closes the connection (code 1009) unread."""

MAX_TOKEN: Final = 128
"""The longest token looked up (real ones are 43 URL-safe characters)."""

MAX_NUMBER: Final = 1_000_000_000
"""The largest ``seq`` or ``round`` a message may carry."""


def kind_json(kind: int) -> str:
    return KIND_JSON[kind]


_FACE_NAMES: Final = tuple(face_name(f) for f in range(cards.NUM_FACES))
"""Each face's name (:func:`~handfoot.game.cards.face_name`), looked up."""


def _cards(faces: Sequence[int]) -> list[str]:
    names = _FACE_NAMES
    return [names[f] for f in faces]


# --- views -----------------------------------------------------------------------------


def view_json(view: PlayerView, side_names: Sequence[str] | None = None, *,
              public: Mapping[str, Any] | None = None,
              options: Sequence[MeldOptions] = (), refused: bool = False) -> dict[str, Any]:
    """A seat's view as the ``VIEW`` JSON of the contract (its own hand, staged cards and
    what it may do now). ``public``: :func:`public_view_json` of any seat's view of the
    same moment, when the caller has it already (a broadcast builds it once). ``options``:
    the seat's :meth:`~handfoot.game.engine.GameState.meld_options` (given to the seat to
    act: where each kind of card in its hand can go). ``refused``: the partner said No to
    "May I go out?" this turn (see :func:`legal_json`)."""
    data = public_view_json(view, side_names) if public is None else dict(public)
    data["seat"] = view.seat
    data["side"] = view.side
    data["opening_minimum"] = view.opening_minimum
    data["hand"] = _cards(view.hand)
    data["staged"] = [mv.format_group(g) for g in view.staged]
    data["legal"] = legal_json(view, refused=refused)
    data["kinds"] = [options_json(o) for o in options]
    return data


def seat_view_json(state: GameState, seat: int, side_names: Sequence[str] | None = None, *,
                   public: Mapping[str, Any] | None = None,
                   view: PlayerView | None = None) -> dict[str, Any]:
    """:func:`view_json` of ``seat``'s view of ``state``, with where each kind of its cards
    can go and how many a meld must leave when it is the seat to act in the play phase (the
    others cannot meld now: their ``kinds`` are empty), and the pickup it may make with no
    card of its hand when it is to draw. ``view``: ``state.view(seat)``, when the caller has
    it already."""
    acting = state.to_act == seat
    playing = acting and state.phase == Phase.PLAY
    if view is None or view.seat != seat:
        view = state.view(seat)
    # the refusal is asked of the state only when the view alone would offer Go out
    refused = playing and view.in_foot[seat] and state.go_out_refused
    data = view_json(view, side_names, public=public,
                     options=state.meld_options(seat) if playing else (), refused=refused)
    if acting and state.phase == Phase.DRAW:
        data["legal"]["pickup_alone"] = pickup_alone(state)
    if playing:
        data["legal"]["meld_leaves"] = state.meld_must_leave(seat)
    return data


def own_view_json(state: GameState, seat: int | None,
                  view: PlayerView | None = None) -> dict[str, Any]:
    """The keys of a connection's view that are its own: :data:`OWN_KEYS` (null for a
    spectator, ``seat`` None) and a seat's ``hand``, ``staged``, ``legal`` and ``kinds``;
    with the public part (:func:`public_view_json` without :data:`OWN_KEYS`) they are the
    whole view. ``view``: a view of ``state`` the caller has already (used if it is
    ``seat``'s)."""
    if seat is None:
        return dict.fromkeys(OWN_KEYS)
    if state.to_act == seat or state.staged:
        return seat_view_json(state, seat, public={}, view=view)
    # a seat not acting: its hand and its side's opening minimum, nothing staged, nothing it
    # may do (as seat_view_json writes it from a whole view, without building one: three of
    # a table's four seats at every move)
    side = state.side_of[seat]
    return {"seat": seat, "side": side, "opening_minimum": state.opening_minimum_of(side),
            "hand": _cards(state.hand(seat)), "staged": [], "legal": {**_IDLE_LEGAL, "discard": []},
            "kinds": []}


_IDLE_LEGAL: Final = {"draw": False, "pickup": False, "meld": False, "discard": [],
                      "go_out": False, "undo": False, "knock": False, "knee": False,
                      "answer": False}
""":func:`legal_json` of a seat that is not to act (it may do nothing)."""


def pickup_alone(state: GameState) -> str | None:
    """The pickup the seat to draw may make with no card of its hand, in the notation: the
    pile into the hand (``"pickup"``), or the top card alone onto its side's meld of its
    rank (``"pickup K:"``); None when every pickup needs cards from the hand."""
    if not state.pile:
        return None
    top = FACE_KIND[state.pile[-1]]
    target = mv.WILD_MELD if top in (cards.TWO, cards.JOKER) else top
    for move in (mv.Pickup(()), mv.Pickup((mv.MeldGroup(target),))):
        if state.is_legal(move):
            return mv.format_move(move)
    return None


def options_json(options: MeldOptions) -> dict[str, Any]:
    """Where a card of one kind in the hand can go: ``melds`` (indices into the side's
    melds), ``new`` (into a new meld), ``why`` (why nowhere)."""
    return {"kind": KIND_JSON[options.kind], "melds": list(options.melds),
            "new": options.new, "why": options.reason}


class ViewCache:
    """The JSON of the parts of a table's views that stay the same objects from one move to
    the next, kept by identity: each meld on the table (a frozen value, replaced when cards
    are added) and each finished round's result. A table's broadcasts write them once
    instead of at every move; the JSON given out must not be changed. Only the melds on the
    table at the last view are kept."""

    __slots__ = ("_melds", "_results")

    def __init__(self) -> None:
        self._melds: dict[int, tuple[TableMeld, dict[str, Any], int]] = {}
        self._results: dict[int, tuple[RoundResult, dict[str, Any]]] = {}

    def melds(self, view: PlayerView) -> tuple[list[list[dict[str, Any]]], list[int]]:
        """:func:`meld_json` of every meld on the table, by side, and each side's points
        on the table."""
        profile = view.profile
        values, size = profile.kind_values, profile.book_size
        known, kept = self._melds, {}
        out, points = [], []
        for side in view.melds:
            laid, total = [], 0
            for meld in side:
                entry = known.get(id(meld))
                if entry is None or entry[0] is not meld:
                    entry = (meld, meld_json(meld, size),
                             sum(values[FACE_KIND[f]] for f in meld.faces))
                kept[id(meld)] = entry
                laid.append(entry[1])
                total += entry[2]
            out.append(laid)
            points.append(total)
        self._melds = kept
        return out, points

    def results(self, view: PlayerView) -> list[dict[str, Any]]:
        """:func:`result_json` of every finished round."""
        known = self._results
        out = []
        for result in view.results:
            entry = known.get(id(result))
            if entry is None or entry[0] is not result:
                entry = known[id(result)] = (result, result_json(result))
            out.append(entry[1])
        if len(known) > 4 * len(out) + 16:  # results of another game's rounds? start again
            self._results = {id(r): known[id(r)] for r in view.results}
        return out


def public_view_json(view: PlayerView, side_names: Sequence[str] | None = None, *,
                     cache: ViewCache | None = None) -> dict[str, Any]:
    """What anybody watching may know: ``view`` without the seat's own cards and choices
    (``seat`` and ``side`` null, ``hand``, ``staged`` and ``legal`` absent). Any seat's view
    gives the same public part; "May I go out?" is asked aloud, so ``asking`` (the seat
    asking while its partners answer) is public too. ``cache``: the table's, to write each
    meld and result once."""
    p = view.profile
    if cache is not None:
        melds_json, melded = cache.melds(view)
        results = cache.results(view)
    else:
        values = p.kind_values
        melded = [sum(values[FACE_KIND[f]] for m in side for f in m.faces)
                  for side in view.melds]
        melds_json = [[meld_json(m, p.book_size) for m in side] for side in view.melds]
        results = [result_json(r) for r in view.results]
    pile = view.discard_size
    return {
        "seat": None,
        "side": None,
        "players": view.players,
        "sides": view.sides,
        "round": view.round_number,
        "rounds": view.rounds,
        "phase": PHASE_JSON[view.phase],
        "turn": view.turn,
        "to_act": view.to_act,
        "opening_minimum": None,
        "opening_minimums": [
            0 if view.round_number in p.clean_book_opening_rounds
            else p.opening_minimum(view.round_number, view.totals[side])
            for side in range(view.sides)],
        "opened": list(view.opened),
        "packets": [_packet_json(view, s) for s in range(view.players)],
        "melds": melds_json,
        "red_threes": [_cards(r) for r in view.red_threes],
        "discard": {"top": face_name(view.discard_top) if view.discard_top is not None
                    else None,
                    "size": pile, "pickup_size": view.pickup_size},
        "stock": view.stock_size,
        "stall": None if p.stalled_turns_each is None else {
            "turns": view.stalled_turns, "limit": p.stalled_turns_each * view.players},
        "scores": {"totals": list(view.totals), "melded": melded},
        "results": results,
        "asking": view.turn if view.phase == Phase.ANSWER else None,
        "side_names": list(side_names) if side_names is not None
        else [f"Side {s + 1}" for s in range(view.sides)],
    }


def _packet_json(view: PlayerView, seat: int) -> dict[str, Any]:
    in_foot = view.in_foot[seat]
    knee_dealt = view.profile.knee_size > 0
    if in_foot:
        playing = "foot"
    elif knee_dealt and view.knee_counts[seat] == 0:
        playing = "knee"
    else:
        playing = "hand"
    return {"hand": view.hand_counts[seat], "foot": view.foot_counts[seat],
            "knee": view.knee_counts[seat], "in_foot": in_foot, "playing": playing}


def meld_json(meld: TableMeld, book_size: int) -> dict[str, Any]:
    wild = meld.target == mv.WILD_MELD
    return {
        "target": "wild" if wild else KIND_JSON[meld.target],
        "label": "all-wild" if wild else cards.KIND_PLURALS[meld.target],
        "cards": _cards(meld.faces),
        "size": meld.size,
        "naturals": meld.naturals,
        "wilds": meld.wilds,
        "book": meld.book_kind(book_size),
        "book_size": book_size,
    }


def legal_json(view: PlayerView, *, refused: bool = False) -> dict[str, Any]:
    """What the seat may do now, by button. ``pickup``, ``meld`` and ``go_out`` say the
    move is worth trying (the exact cards are checked when sent); ``go_out`` is false all
    turn once the partner said No (``refused``), as the engine then refuses it."""
    legal = view.legal_actions
    stages = any(a >= mv.STAGE_NATURAL and a != mv.KNEE for a in legal)
    playing = view.phase == Phase.PLAY
    return {
        "draw": mv.DRAW in legal,
        "pickup": mv.PICKUP in legal or (view.phase == Phase.DRAW and stages),
        "meld": playing and (stages or mv.CONFIRM in legal),
        "discard": [KIND_JSON[a - mv.DISCARD] for a in legal
                    if mv.DISCARD <= a < mv.STAGE_NATURAL],
        "go_out": any(mv.GO_OUT <= a < mv.DISCARD for a in legal)
        or (playing and not refused and view.in_foot[view.seat]
            and view.knee_counts[view.seat] == 0 and bool(legal)),
        "undo": mv.UNDO in legal,
        "knock": mv.KNOCK in legal,
        "knee": mv.KNEE in legal,
        "answer": mv.ANSWER_YES in legal or mv.ANSWER_NO in legal,
    }


def result_json(result: RoundResult) -> dict[str, Any]:
    return {
        "round": result.round_number,
        "reason": result.reason,
        "went_out": result.went_out,
        "scores": [{"side": s.side, "total": s.total,
                    "lines": [{"key": line.key, "label": line.label, "count": line.count,
                               "points": line.points} for line in s.lines]}
                   for s in result.scores],
        "totals": list(result.totals),
    }


def hands_json(state: GameState) -> dict[str, Any]:
    """Every seat's cards (for the replay of a finished game only)."""
    return {"hands": [_cards(state.hand(s)) for s in range(state.players)],
            "feet": [_cards(f) for f in state.feet],
            "knees": [_cards(k) for k in state.knees]}


# --- events ----------------------------------------------------------------------------


def event_json(event: Event, seat: int | None) -> dict[str, Any]:
    """An engine event as sent to a connection: ``n`` (the move's sequence number, from 1),
    its public part, and its private part only on the mover's own connection."""
    data: dict[str, Any] = {"n": event.number + 1, **event.public}
    data.setdefault("seat", event.seat)
    data.setdefault("round", event.round_number)
    if "melds" in data:  # each group's meld named as the view names its melds ("10")
        data["melds"] = [{**m, "target": _KIND_OF_CODE[m["target"]]} for m in data["melds"]]
    if event.private and seat == event.seat:
        data["private"] = dict(event.private)
    return data


# --- hints -----------------------------------------------------------------------------


def hint_json(request_id: str | None, move: mv.PlayerMove | None,
              reason: str) -> dict[str, Any]:
    """The ``hint`` reply: the move in the notation (``move``, which a client sends to play
    it), in words (``words``, in the imperative), the kinds of the cards of the hand it
    plays (``kinds``, which a client marks in the hand without reading the notation back)
    and why (``reason``); without advice ``move`` and ``words`` are null, ``kinds`` is
    empty and ``reason`` says why there is none."""
    return {"type": "hint", "id": request_id,
            "move": None if move is None else mv.format_move(move),
            "words": None if move is None else advice_words(move),
            "kinds": [] if move is None else hand_kinds_json(move), "reason": reason}


def hand_kinds_json(move: mv.PlayerMove) -> list[str]:
    """The kinds of the cards of the hand a move plays, as the view names kinds: each
    group's naturals and wild cards (at a pickup, those that go with the pile's top card)
    and the discard.

    >>> hand_kinds_json(mv.parse_move("goout T T 2 | K: JK discard 3"))
    ['10', '10', '2', 'JK', 'B3']
    >>> hand_kinds_json(mv.parse_move("pickup K:")), hand_kinds_json(mv.parse_move("draw"))
    ([], [])
    """
    groups: tuple[mv.MeldGroup, ...] = ()
    discard: int | None = None
    match move:
        case mv.Pickup(groups) | mv.Meld(groups):
            pass
        case mv.GoOut(groups, discard):
            pass
        case mv.Discard(kind):
            discard = kind
    out: list[str] = []
    for group in groups:
        if group.target != mv.WILD_MELD:
            out += [KIND_JSON[group.target]] * group.naturals
        out += [KIND_JSON[cards.TWO]] * group.twos + [KIND_JSON[cards.JOKER]] * group.jokers
    if discard is not None:
        out.append(KIND_JSON[discard])
    return out


# --- client messages -------------------------------------------------------------------


class MessageError(ValueError):
    """A client frame that is not a message of the protocol; the text says why."""


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """A checked client message."""

    type: str
    id: str | None = None
    seq: int | None = None
    token: str | None = None
    move: str | None = None
    round: int | None = None
    raw: Mapping[str, Any] = field(default_factory=dict)


def read_frame(text: str) -> ClientMessage:
    """A client message from the text of a frame, or :class:`MessageError` (too long, not
    JSON, nested too deep, or not a message: see :func:`read_message`)."""
    if len(text) > MAX_MESSAGE:
        raise MessageError(f"a message is at most {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except RecursionError:
        raise MessageError("a message is one JSON object, not nested this deep") from None
    except ValueError:
        raise MessageError("a message is one JSON object") from None
    if not is_unicode(data):
        raise MessageError("a message's strings are Unicode text (no lone surrogates like "
                           "\\ud800)")
    return read_message(data)


def is_unicode(data: Any) -> bool:
    """Whether every string in parsed JSON is text that can be written as UTF-8 (JSON's
    ``\\ud800`` escapes give lone surrogates, which no database or log can store)."""
    try:
        orjson.dumps(data)  # (refuses lone surrogates; ten times as fast as the check below)
        return True
    except TypeError:  # a lone surrogate, or what orjson does not take (a huge integer)
        pass
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def is_token(value: object) -> TypeGuard[str]:
    """Whether ``value`` could be a token at all (a short ASCII string), so that only such
    strings are hashed and looked up."""
    return isinstance(value, str) and 0 < len(value) <= MAX_TOKEN and value.isascii() \
        and value.isprintable()


def read_message(data: Any) -> ClientMessage:
    """A client message from its parsed JSON, or :class:`MessageError`."""
    if not isinstance(data, dict):
        raise MessageError("a message is a JSON object")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise MessageError(f"unknown message type {kind!r}: one of {', '.join(CLIENT_TYPES)}")
    request_id = data.get("id")
    if request_id is not None and (not isinstance(request_id, str | int)
                                   or isinstance(request_id, bool) or len(str(request_id)) > 64):
        raise MessageError("id: a string or number of at most 64 characters")
    seq = _opt_int(data, "seq")
    rnd = _opt_int(data, "round")
    token = data.get("token")
    move = data.get("move")
    if kind == "hello" and not isinstance(token, str):
        raise MessageError("hello: token: a string is required")
    if kind == "hello" and not is_token(token):
        raise MessageError("hello: token: the token from the link (at most "
                           f"{MAX_TOKEN} letters, digits, '-' and '_')")
    if kind == "hello" and data.get("acks", "frame") not in ACKS:
        raise MessageError(f"hello: acks: one of {', '.join(ACKS)}")
    if kind in ("move", "check") and not isinstance(move, str):
        raise MessageError(f"{kind}: move: the move in the notation is required, "
                           "like \"draw\" or \"meld K K K\"")
    if kind == "move" and seq is None:
        raise MessageError("move: seq: the last sequence number seen is required")
    if kind == "pace" and data.get("pace") not in PACE_NAMES:
        raise MessageError(f"pace: pace: one of {', '.join(PACE_NAMES)}")
    if kind == "continue" and rnd is None:
        raise MessageError("continue: round: the round just seen is required")
    if kind == "react" and not isinstance(data.get("preset"), str):
        raise MessageError("react: preset: the id of a preset (from talk_settings) is required")
    if kind == "chat" and not isinstance(data.get("text"), str):
        raise MessageError("chat: text: the message is required")
    return ClientMessage(kind, None if request_id is None else str(request_id), seq,
                         token if isinstance(token, str) else None,
                         move if isinstance(move, str) else None, rnd, data)


def _opt_int(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_NUMBER:
        raise MessageError(f"{key}: a whole number from 0 to {MAX_NUMBER}")
    return value
