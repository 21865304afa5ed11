"""Game records: a whole game as versioned JSON, and replay.

A :class:`GameRecord` is self-contained: the rules (a built-in profile plus the parameters
changed from it), the seats, and for every round where each card was dealt (the
:class:`~handfoot.game.values.Deal`), every player move in order (in the notation of
:mod:`handfoot.game.moves`, with the seat that made it) and, once the round has ended, its result
with the full score breakdown. The format is described field by field in ``docs/records.md``
and by the JSON Schema shipped as ``handfoot/schema/record-v1.json``.

* :class:`GameRecorder` wraps a :class:`~handfoot.game.engine.GameState` while it is played and
  logs every committed move; :meth:`GameRecorder.record` gives the record.
* :func:`to_json` and :func:`from_json` write and read records (:func:`read_record` reads a
  file, at most :data:`MAX_RECORD_BYTES` of it); reading validates against
  the schema and the rules and raises :class:`RecordError` naming the JSON path and the
  problem (``rounds[0].deal.hands[2][5]: 'KX' is not a card: ...``).
* :func:`replay` plays a record again from its deals, re-checking every move, and compares
  the recorded results with the recomputed ones.
* :func:`replay_command` is ``handfoot replay FILE [--json]``: an exit code and the text.

Seats and sides are numbered from 0 in the JSON (they are indices); messages for people
number them from 1, like the engine's own messages.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final

from handfoot._version import __version__
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.deal import check_deal, deal_of_round
from handfoot.game.engine import GameState
from handfoot.game.loading import ProfileError, builtin_profile_names, load_profile, value_to_toml
from handfoot.game.rules import FIELDS, Layout, Profile
from handfoot.game.scoring import ScoreLine, SideScore
from handfoot.game.values import Deal, DealError, IllegalMoveError, RoundEnd, RoundResult

__all__ = [
    "FORMAT",
    "VERSION",
    "GameRecord",
    "GameRecorder",
    "RecordError",
    "RecordedMove",
    "ReplayProblem",
    "ReplayResult",
    "RoundRecord",
    "SeatInfo",
    "check_record",
    "format_breakdown",
    "from_json",
    "profile_spec",
    "read_record",
    "record_from_data",
    "record_from_state",
    "record_schema",
    "record_to_data",
    "replay",
    "replay_command",
    "to_json",
]

FORMAT: Final = "handfoot-record"
VERSION: Final = 1
SCHEMA_FILE: Final = "record-v1.json"


class RecordError(ValueError):
    """A game record cannot be read or set up; the message names the JSON path and problem."""


# --- the record ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat: the name (or label) of who sat there, and the side it plays for (0-based)."""

    name: str
    side: int


@dataclass(frozen=True, slots=True)
class RecordedMove:
    """One player move: the seat that made it (0-based) and the move in the notation."""

    seat: int
    move: str


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round: its deal, its moves in order, and its result once it has ended."""

    deal: Deal
    moves: tuple[RecordedMove, ...] = ()
    result: RoundResult | None = None
    """As recorded; ``totals`` is empty when the record does not give them."""


@dataclass(frozen=True)
class GameRecord:
    """A game as recorded: rules, seats, and every round's deal, moves and result."""

    profile_name: str
    """A built-in profile name."""
    overrides: Mapping[str, Any]
    """Parameters changed from the built-in profile, as TOML values."""
    layout: str
    seats: tuple[SeatInfo, ...]
    rounds: tuple[RoundRecord, ...]
    metadata: Mapping[str, Any] = field(default_factory=dict)
    format: str = FORMAT
    version: int = VERSION

    def profile(self) -> Profile:
        """The rules of the game (raises :class:`RecordError` if they cannot be built)."""
        return _build_profile(self)

    @property
    def moves(self) -> int:
        """The number of moves in the record."""
        return sum(len(r.moves) for r in self.rounds)


def profile_spec(profile: Profile) -> tuple[str, dict[str, Any]]:
    """A built-in profile name and overrides that rebuild ``profile``'s rules exactly.

    Uses ``profile.extends or profile.name`` and ``profile.overrides`` when they do; a
    profile not based on a built-in one (a complete TOML file) is written as the built-in
    profile it differs least from, plus every parameter that differs.
    """
    base = profile.extends or profile.name
    names = builtin_profile_names()
    if base in names:
        overrides = dict(profile.overrides)
        try:
            if _same_rules(load_profile(base, overrides=overrides), profile):
                return base, overrides
        except ProfileError:
            pass
    best: tuple[str, dict[str, Any]] | None = None
    for name in names:
        builtin = load_profile(name)
        diff = {key: value_to_toml(info, getattr(profile, key))
                for key, info in FIELDS.items()
                if getattr(profile, key) != getattr(builtin, key)}
        if best is None or len(diff) < len(best[1]):
            best = (name, diff)
    assert best is not None
    if not _same_rules(load_profile(best[0], overrides=best[1]), profile):
        raise ValueError(f"the rules of {profile.name} cannot be written as a built-in profile "
                         "plus overrides")
    return best


def _same_rules(a: Profile, b: Profile) -> bool:
    return all(getattr(a, key) == getattr(b, key) for key in FIELDS)


# --- recording -------------------------------------------------------------------------


def record_from_state(state: GameState, *, seat_names: Sequence[str] | None = None,
                      metadata: Mapping[str, Any] | None = None) -> GameRecord:
    """The game so far as a record, from the state's own history.

    Every round dealt so far is listed with its deal, its moves (the state's
    :attr:`~handfoot.game.engine.GameState.history`) and its result once it has ended. The
    seed is included (as ``metadata["seed"]``) only once the game is over.
    """
    players = state.players
    if seat_names is None:
        seat_names = [f"Seat {i + 1}" for i in range(players)]
    if len(seat_names) != players:
        raise ValueError(f"{len(seat_names)} seat names for {players} seats")
    data = dict(metadata or {})
    data.setdefault("created_by", f"handfoot {__version__}")
    if state.is_over and state.seed is not None:
        data["seed"] = state.seed
    moves: list[list[RecordedMove]] = [[] for _ in range(state.round_number)]
    for entry in state.history:
        moves[entry.round_number - 1].append(RecordedMove(entry.seat,
                                                          mv.format_move(entry.move)))
    results = {r.round_number: r for r in state.results}
    base, overrides = profile_spec(state.profile)
    return GameRecord(
        profile_name=base,
        overrides=overrides,
        layout=str(state.layout),
        seats=tuple(SeatInfo(name, state.side_of[i]) for i, name in enumerate(seat_names)),
        rounds=tuple(RoundRecord(_deal_of_round(state, number), tuple(moves[number - 1]),
                                 results.get(number))
                     for number in range(1, state.round_number + 1)),
        metadata=data,
    )


class GameRecorder:
    """A game with the names and metadata of its record: a thin convenience over
    :func:`record_from_state` (the state keeps its own history).

    Wrap a state before its first move, then play every move through :meth:`apply` or
    :meth:`apply_action` (or on ``recorder.state`` directly)::

        recorder = GameRecorder(GameState.new(profile, seed=7), seat_names=["Ann", ...])
        recorder.apply_action(action)   # or recorder.apply(move)
        text = to_json(recorder.record())

    Staging actions are not recorded: the player move they commit is.
    """

    def __init__(self, state: GameState, *, seat_names: Sequence[str] | None = None,
                 metadata: Mapping[str, Any] | None = None) -> None:
        # Rounds can only have ended already if they ended as they were dealt (a red 3
        # with no card to replace it), possibly every round of the game.
        if (state.moves_played
                or any(r.reason != RoundEnd.RED_THREE_NOT_REPLACED for r in state.results)
                or not (state.is_over or _at_round_start(state))):
            raise ValueError("a GameRecorder must wrap a game before its first move")
        players = state.players
        if seat_names is None:
            seat_names = [f"Seat {i + 1}" for i in range(players)]
        if len(seat_names) != players:
            raise ValueError(f"{len(seat_names)} seat names for {players} seats")
        self.state = state
        self._seat_names = tuple(seat_names)
        self._metadata = dict(metadata or {})

    def apply(self, move: mv.Move) -> None:
        """Play a move (see :meth:`GameState.apply`); the state's history keeps it."""
        self.state.apply(move)

    def apply_action(self, action: int) -> mv.Move | None:
        """Play an integer action; returns the player move it committed."""
        return self.state.apply_action(action)

    def record(self) -> GameRecord:
        """The game so far as a record (the seed is included only once the game is over)."""
        return record_from_state(self.state, seat_names=self._seat_names,
                                 metadata=self._metadata)


def _deal_of_round(state: GameState, round_number: int) -> Deal:
    """The deal of a round the state has played or is playing, as the engine chose it."""
    if round_number == state.round_number:
        return state.deal
    return deal_of_round(state.profile, state.layout, round_number, deals=state.deals,
                         seed=state.seed)


def _at_round_start(state: GameState) -> bool:
    """Whether no card has moved since the current round was dealt."""
    deals = [_deal_of_round(state, r) for r in range(1, state.round_number + 1)]
    fresh = GameState.new(state.profile, layout=state.layout, deals=deals, seed=0)
    return (fresh.round_number == state.round_number
            and fresh.held_faces == state.held_faces and fresh.stock == state.stock
            and fresh.pile == state.pile and fresh.melds == state.melds
            and fresh.phase == state.phase and fresh.actor == state.actor)


# --- JSON ------------------------------------------------------------------------------


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of version 1 records (a fresh copy)."""
    schema: dict[str, Any] = json.loads(_schema_text())
    return schema


@functools.cache
def _schema_text() -> str:
    return resources.files("handfoot.game").joinpath("schema").joinpath(SCHEMA_FILE).read_text(
        encoding="utf-8")


@functools.cache
def _validator() -> Any:
    import jsonschema  # a dependency; imported here to keep `import handfoot.game.record` light

    return jsonschema.Draft202012Validator(record_schema())


CARD_PATTERN: Final = "^(?:[2-9TJQKA][CDHS]|JK)$"


def _cards(faces: Sequence[int]) -> list[str]:
    return [cards.face_name(f) for f in faces]


def _deal_to_data(deal: Deal) -> dict[str, Any]:
    data: dict[str, Any] = {
        "dealer": deal.dealer,
        "first_player": deal.first_player,
        "hands": [_cards(h) for h in deal.hands],
        "feet": [_cards(f) for f in deal.feet],
    }
    if any(deal.knees):
        data["knees"] = [_cards(k) for k in deal.knees]
    data["discard"] = _cards(deal.discard)
    data["stock"] = _cards(deal.stock)
    return data


def _result_to_data(result: RoundResult) -> dict[str, Any]:
    data: dict[str, Any] = {
        "reason": result.reason,
        "went_out": result.went_out,
        "scores": [
            {"side": s.side,
             "total": s.total,
             "lines": [{"key": line.key, "label": line.label, "count": line.count,
                        "points": line.points} for line in s.lines]}
            for s in result.scores
        ],
    }
    if result.totals:
        data["totals"] = list(result.totals)
    return data


def record_to_data(record: GameRecord) -> dict[str, Any]:
    """A record as JSON data (what :func:`to_json` writes)."""
    rounds = []
    for rnd in record.rounds:
        item: dict[str, Any] = {
            "deal": _deal_to_data(rnd.deal),
            "moves": [{"seat": m.seat, "move": m.move} for m in rnd.moves],
        }
        if rnd.result is not None:
            item["result"] = _result_to_data(rnd.result)
        rounds.append(item)
    data: dict[str, Any] = {
        "format": record.format,
        "version": record.version,
        "profile": {"name": record.profile_name,
                    "overrides": dict(sorted(record.overrides.items()))},
        "layout": record.layout,
        "seats": [{"name": s.name, "side": s.side} for s in record.seats],
    }
    if record.metadata:
        data["metadata"] = dict(sorted(record.metadata.items()))
    data["rounds"] = rounds
    return data


def to_json(record: GameRecord) -> str:
    """A record as JSON text: stable and readable (short lists and objects on one line)."""
    return _dump(record_to_data(record), 0) + "\n"


_WIDTH: Final = 100


def _dump(value: Any, indent: int) -> str:
    inline = json.dumps(value, ensure_ascii=False)
    if indent + len(inline) <= _WIDTH or not isinstance(value, dict | list) or not value:
        return inline
    if (isinstance(value, dict) and len(inline) <= _WIDTH
            and not any(isinstance(v, dict | list) for v in value.values())):
        return inline  # a small flat object (a move, a score line) stays on one line
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_dump(v, indent + 2)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if all(not isinstance(v, dict | list) for v in value):
        lines: list[str] = []
        line = ""
        for v in value:
            word = json.dumps(v, ensure_ascii=False) + ","
            if line and len(pad) + len(line) + 1 + len(word) > _WIDTH:
                lines.append(pad + line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(pad + line[:-1])
        return "[\n" + "\n".join(lines) + "\n" + " " * indent + "]"
    return ("[\n" + ",\n".join(pad + _dump(v, indent + 2) for v in value) + "\n"
            + " " * indent + "]")


def from_json(text: str) -> GameRecord:
    """Read a record, checking it against the schema and the rules.

    Raises :class:`RecordError` naming the JSON path and the problem. A text longer than
    :data:`MAX_RECORD_BYTES` or with more than :data:`MAX_RECORD_MOVES` moves is refused
    before it is parsed.
    """
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(_too_big(len(text)))
    moves = text.count('"move"')  # an upper bound on the moves, counted before parsing
    if moves > MAX_RECORD_MOVES:
        raise RecordError(f"not a handfoot game record: it holds about {moves:,} moves; a "
                          f"record holds at most {MAX_RECORD_MOVES:,} (a long game has "
                          "about 1,000)")
    depth = _nesting(text)
    if depth > MAX_NESTING:
        raise RecordError(f"not a handfoot game record: its arrays and objects are nested "
                          f"{depth} deep; a record nests at most {MAX_NESTING} deep")
    try:
        data = json.loads(text, parse_int=_read_int, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"not valid JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:  # the nesting check above should make this unreachable
        raise RecordError("not a handfoot game record: it is nested far too deeply") from None
    return record_from_data(data)


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """The record in the file at ``path`` (see :func:`from_json`). At most
    :data:`MAX_RECORD_BYTES` are read, so an endless or huge file (``/dev/zero``) is refused
    at once. Raises :class:`RecordError`, or :class:`OSError` when the file cannot be read."""
    with open(path, "rb") as f:
        data = f.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(_too_big(None))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("cannot read the file: it is not UTF-8 text") from None
    return from_json(text)


def _too_big(size: int | None) -> str:
    what = f"{size:,} characters" if size is not None else "more than that"
    return (f"not a handfoot game record: a record file holds at most "
            f"{MAX_RECORD_BYTES // 2**20} MiB (a long game takes about 50 KiB), this one "
            f"{what}")


MAX_RECORD_BYTES: Final = 4 * 2**20
"""The largest record file read (4 MiB; the record of a long game of the longest rule set
is about 50 KiB)."""
MAX_RECORD_MOVES: Final = 50_000
"""The most moves a record may hold (a long game has about 1,000)."""
MAX_NESTING: Final = 64
"""The deepest nesting of arrays and objects a record file may have (a record's own
structure is 6 deep; its metadata may add some)."""
MAX_INT_DIGITS: Final = 100
"""The most digits of an integer in a record (a 128-bit seed has 39)."""

_JSON_TOKENS: Final = re.compile(r'\\.|["\[\]{}]', re.DOTALL)


def _nesting(text: str) -> int:
    """How deep a JSON text nests its arrays and objects (brackets inside strings do not
    count), in one pass, before parsing."""
    depth = deepest = 0
    in_string = False
    for match in _JSON_TOKENS.finditer(text):
        c = match.group()
        if c == '"':
            in_string = not in_string
        elif in_string or len(c) == 2:
            continue
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _read_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise RecordError(f"not a handfoot game record: it holds an integer of "
                          f"{len(digits.lstrip('-'))} digits; a record's numbers have at most "
                          f"{MAX_INT_DIGITS}")
    return int(digits)


def _no_constant(name: str) -> Any:
    raise RecordError(f"not valid JSON: {name} is not a JSON number")


def record_from_data(data: Any) -> GameRecord:
    """A record from parsed JSON data (see :func:`from_json`)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a handfoot game record (its \"format\" must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise RecordError(f"version: records of version {data.get('version')!r} cannot be "
                          f"read; this handfoot reads version {VERSION}")
    _validate_schema(data)
    record = GameRecord(
        profile_name=data["profile"]["name"],
        overrides=dict(data["profile"].get("overrides", {})),
        layout=data["layout"],
        seats=tuple(SeatInfo(s["name"], int(s["side"])) for s in data["seats"]),
        rounds=tuple(_round_from_data(i, r) for i, r in enumerate(data["rounds"])),
        metadata=dict(data.get("metadata", {})),
    )
    check_record(record)
    return record


def _faces(items: Sequence[str]) -> tuple[int, ...]:
    return tuple(cards.parse_face(c) for c in items)


def _round_from_data(index: int, data: Mapping[str, Any]) -> RoundRecord:
    # The schema's integers include 1.0, so integers are converted with int().
    d = data["deal"]
    players = len(d["hands"])
    deal = Deal(
        hands=tuple(_faces(h) for h in d["hands"]),
        feet=tuple(_faces(f) for f in d["feet"]),
        knees=tuple(_faces(k) for k in d["knees"]) if "knees" in d
        else tuple(() for _ in range(players)),
        stock=_faces(d["stock"]),
        discard=_faces(d["discard"]),
        dealer=int(d["dealer"]),
        first_player=int(d["first_player"]),
    )
    moves = tuple(RecordedMove(int(m["seat"]), m["move"]) for m in data["moves"])
    result = None
    if "result" in data:
        r = data["result"]
        result = RoundResult(
            round_number=index + 1,
            reason=_round_end(r["reason"], f"rounds[{index}].result.reason"),
            went_out=None if r["went_out"] is None else int(r["went_out"]),
            scores=tuple(
                SideScore(side=int(s.get("side", i)),
                          lines=tuple(ScoreLine(line["key"], line.get("label", line["key"]),
                                                int(line["count"]), int(line["points"]))
                                      for line in s["lines"]),
                          total=int(s["total"]))
                for i, s in enumerate(r["scores"])),
            totals=tuple(int(t) for t in r.get("totals", ())),
        )
    return RoundRecord(deal, moves, result)


def _round_end(text: str, where: str) -> RoundEnd:
    try:
        return RoundEnd(text)
    except ValueError:
        raise RecordError(f"{where}: {text!r} is not how a round ends (one of "
                          + ", ".join(repr(r.value) for r in RoundEnd) + ")") from None


def _json_path(parts: Sequence[str | int]) -> str:
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out or "record"


def _validate_schema(data: Any) -> None:
    import jsonschema

    error = jsonschema.exceptions.best_match(_validator().iter_errors(data))
    if error is None:
        return
    raise RecordError(f"{_json_path(list(error.absolute_path))}: {_schema_message(error)}")


_JSON_TYPES: Final = {"object": "an object", "array": "an array", "string": "a string",
                      "integer": "an integer", "number": "a number", "boolean": "true or false",
                      "null": "null"}


def _json_type(value: Any) -> str:
    for kind, python in (("null", type(None)), ("boolean", bool), ("integer", int),
                         ("number", float), ("string", str), ("array", list),
                         ("object", dict)):
        if isinstance(value, python):
            return _JSON_TYPES[kind]
    return type(value).__name__


def _schema_message(error: Any) -> str:
    """A schema error in a player's words, without quoting large parts of the record."""
    kind, expected, instance = error.validator, error.validator_value, error.instance
    if kind == "pattern" and expected == CARD_PATTERN:
        try:
            face = cards.parse_face(instance)
        except cards.CardError:
            return (f"{instance!r} is not a card: write a rank (2-9, T, J, Q, K, A) and a suit "
                    "(C, D, H, S), like KS or TD, or JK for a joker")
        return f"{instance!r} is not a card in the record notation: write {cards.face_name(face)!r}"
    if kind == "pattern" and error.absolute_path and error.absolute_path[-1] == "layout":
        return f"{instance!r} is not a layout: write SIDESxSEATS, like 2x2 or 2x1"
    if kind == "type":
        types = expected if isinstance(expected, list) else [expected]
        wanted = " or ".join(_JSON_TYPES.get(str(t), str(t)) for t in types)
        found = _json_type(instance)
        if not isinstance(instance, dict | list):
            found += f" {json.dumps(instance)}"
        return f"must be {wanted}, not {found}"
    if kind == "minItems":
        return f"must hold at least {expected} entr{'y' if expected == 1 else 'ies'}"
    if kind == "minLength":
        return "must not be empty"
    if kind == "const":
        return f"must be {json.dumps(expected)}"
    message: str = error.message
    return message if len(message) <= 200 else message[:200] + " ..."


# --- checking a record against the rules -------------------------------------------------


def _build_profile(record: GameRecord) -> Profile:
    names = builtin_profile_names()
    if record.profile_name not in names:
        close = difflib.get_close_matches(record.profile_name, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise RecordError(f"profile.name: {record.profile_name!r} is not a built-in profile "
                          f"({', '.join(names)}){hint}")
    try:
        return load_profile(record.profile_name, overrides=record.overrides)
    except ProfileError as exc:
        text = str(exc).removeprefix("overrides: ")
        raise RecordError(f"profile.overrides: {text}") from None


def check_record(record: GameRecord) -> tuple[Profile, Layout]:
    """Check what the schema cannot: the rules, the seats, every deal and every move's text.

    Returns the profile and layout; raises :class:`RecordError` naming the path and problem.
    """
    profile = _build_profile(record)
    try:
        layout = Layout.parse(record.layout)
    except ValueError as exc:
        raise RecordError(f"layout: {exc}") from None
    try:
        profile.check_layout(layout)
    except ValueError as exc:
        raise RecordError(f"layout: {exc}") from None
    players = layout.players
    if len(record.seats) != players:
        raise RecordError(f"seats: a {layout} game has {players} seats; the record lists "
                          f"{len(record.seats)}")
    for i, seat in enumerate(record.seats):
        if seat.side != layout.side_of(i):
            raise RecordError(f"seats[{i}].side: in a {layout} game seat index {i} plays for "
                              f"side {layout.side_of(i)}, not {seat.side}")
    if not record.rounds:
        raise RecordError("rounds: a record holds at least one round")
    if len(record.rounds) > profile.rounds:
        raise RecordError(f"rounds: {profile.name} plays {profile.rounds} round"
                          f"{'s' if profile.rounds != 1 else ''}; the record has "
                          f"{len(record.rounds)}")
    for r, rnd in enumerate(record.rounds):
        _check_deal(profile, layout, rnd.deal, r + 1, f"rounds[{r}].deal")
        for m, move in enumerate(rnd.moves):
            where = f"rounds[{r}].moves[{m}]"
            if not 0 <= move.seat < players:
                raise RecordError(f"{where}.seat: {move.seat} is not a seat index of a "
                                  f"{layout} game (0 to {players - 1})")
            try:
                mv.parse_move(move.move)
            except mv.MoveSyntaxError as exc:
                raise RecordError(f"{where}.move: {move.move!r}: {exc}") from None
        if rnd.result is not None:
            _check_result_shape(rnd.result, layout, f"rounds[{r}].result")
    return profile, layout


def _check_deal(profile: Profile, layout: Layout, deal: Deal, round_number: int,
                where: str) -> None:
    try:
        check_deal(profile, layout, deal, round_number)
    except DealError as exc:
        raise RecordError(f"{where}.{exc.where}: {exc.problem}" if exc.where
                          else f"{where}: {exc.problem}") from None


def _check_result_shape(result: RoundResult, layout: Layout, where: str) -> None:
    if result.went_out is not None and not 0 <= result.went_out < layout.players:
        raise RecordError(f"{where}.went_out: {result.went_out} is not a seat index of a "
                          f"{layout} game")
    if len(result.scores) != layout.sides:
        raise RecordError(f"{where}.scores: {len(result.scores)} entries for the "
                          f"{layout.sides} sides")
    for i, score in enumerate(result.scores):
        if score.side != i:
            raise RecordError(f"{where}.scores[{i}].side: {score.side}; the scores are listed "
                              "in side order")
    if result.totals and len(result.totals) != layout.sides:
        raise RecordError(f"{where}.totals: {len(result.totals)} entries for the "
                          f"{layout.sides} sides")


# --- replay ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReplayProblem:
    """Something replay found wrong.

    ``kind`` is ``"illegal move"``, ``"wrong seat"``, ``"round structure"`` (stopping the
    replay) or ``"result mismatch"`` (replay goes on).
    """

    kind: str
    round_number: int
    reason: str
    move_number: int | None = None
    """1-based over the whole record."""
    round_move_number: int | None = None
    """1-based within the round."""
    seat: int | None = None
    """The seat index recorded for the move (0-based)."""
    move: str | None = None

    @property
    def where(self) -> str:
        """``rounds[0].moves[36]``: where the problem is in the JSON."""
        if self.round_move_number is None:
            return f"rounds[{self.round_number - 1}]"
        return f"rounds[{self.round_number - 1}].moves[{self.round_move_number - 1}]"

    @property
    def message(self) -> str:
        if self.move_number is None:
            return f"round {self.round_number} ({self.where}): {self.reason}"
        head = (f"move {self.move_number} (round {self.round_number}, move "
                f"{self.round_move_number} of the round; {self.where})")
        if self.kind == "illegal move":
            assert self.seat is not None
            return f"{head}: seat {self.seat + 1} {self.move!r} is illegal: {self.reason}"
        return f"{head}: {self.reason}"

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.round_number, "move_number": self.move_number,
                "round_move_number": self.round_move_number, "seat": self.seat,
                "move": self.move, "reason": self.reason, "path": self.where,
                "message": self.message}


@dataclass(frozen=True)
class ReplayResult:
    """What replaying a record gave."""

    record: GameRecord
    state: GameState
    """The game after the last move replayed. When the record's last round has ended but the
    game has not, the engine has dealt the next round from the record's seed (or seed 0)."""
    results: tuple[RoundResult, ...]
    """The recomputed result of every round that ended."""
    moves_applied: int
    error: ReplayProblem | None
    """The problem that stopped the replay (an illegal move, a wrong seat, a round that ends
    too early or too late), or None if every move was played."""
    mismatches: tuple[ReplayProblem, ...]
    """Rounds whose recorded result differs from the recomputed one."""

    @property
    def ok(self) -> bool:
        return self.error is None and not self.mismatches

    @property
    def problems(self) -> tuple[ReplayProblem, ...]:
        return self.mismatches + ((self.error,) if self.error else ())

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's total over the rounds that ended."""
        return tuple(self.state.totals)

    @property
    def game_over(self) -> bool:
        return self.state.is_over

    @property
    def winners(self) -> tuple[int, ...] | None:
        """The sides with the highest total once the game is over (several on a tie)."""
        return self.state.winners() if self.state.is_over else None


def replay(record: GameRecord) -> ReplayResult:
    """Play a record again from its deals, re-checking every move.

    Stops at the first illegal move, at a move recorded for a seat other than the one to
    act, or where a round ends before its recorded moves do (or not at all before the next
    round); a recorded result that differs from the recomputed one is reported and the
    replay goes on. Raises :class:`RecordError` if the record cannot be set up at all.
    """
    profile, layout = check_record(record)
    seed = record.metadata.get("seed")
    fallback_seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else 0
    try:
        state = GameState.new(profile, layout=layout, seed=fallback_seed,
                              deals=[r.deal for r in record.rounds])
    except ValueError as exc:
        raise RecordError(f"the game cannot start: {exc}") from None
    mismatches: list[ReplayProblem] = []
    number = 0

    def done(err: ReplayProblem | None) -> ReplayResult:
        return ReplayResult(record, state, tuple(state.results), number, err,
                            tuple(mismatches))

    for r, rnd in enumerate(record.rounds):
        round_number = r + 1
        for m, recorded in enumerate(rnd.moves):
            problem = functools.partial(_move_problem, round_number=round_number,
                                        move_number=number + 1, index=m, recorded=recorded)
            if len(state.results) >= round_number:
                ended = state.results[round_number - 1]
                left = len(rnd.moves) - m
                return done(problem("round structure", (
                    f"round {round_number} has already ended ({ended.reason}), but the record "
                    f"lists {left} more move{'s' if left != 1 else ''} for it")))
            if recorded.seat != state.to_act:
                return done(problem("wrong seat", (
                    f"the move is recorded for seat {recorded.seat + 1}, but seat "
                    f"{state.to_act + 1} is to act")))
            try:
                state.apply(mv.parse_move(recorded.move))
            except (IllegalMoveError, mv.MoveSyntaxError) as exc:
                return done(problem("illegal move", str(exc)))
            number += 1
        ended_now = len(state.results) >= round_number
        if not ended_now and r + 1 < len(record.rounds):
            return done(ReplayProblem(
                "round structure", round_number, (
                    f"the round has not ended after its {len(rnd.moves)} moves, but the record "
                    f"continues with round {round_number + 1}")))
        if rnd.result is not None:
            if not ended_now:
                mismatches.append(ReplayProblem(
                    "result mismatch", round_number=round_number,
                    reason=f"the record gives a result ({rnd.result.reason}), but the round "
                           "has not ended"))
            else:
                diffs = _result_differences(rnd.result, state.results[round_number - 1])
                if diffs:
                    mismatches.append(ReplayProblem(
                        "result mismatch", round_number=round_number,
                        reason="the recorded result differs: " + "; ".join(diffs)))
    return done(None)


def _move_problem(kind: str, reason: str, *, round_number: int, move_number: int, index: int,
                  recorded: RecordedMove) -> ReplayProblem:
    return ReplayProblem(kind, round_number, reason, move_number, index + 1, recorded.seat,
                         recorded.move)


def _result_differences(recorded: RoundResult, computed: RoundResult) -> list[str]:
    """How a recorded result differs from the recomputed one (labels are not compared)."""
    out: list[str] = []
    if recorded.reason != computed.reason:
        out.append(f"it ended by {recorded.reason!r}, replay by {computed.reason!r}")

    def seat_text(seat: int | None) -> str:
        return "nobody" if seat is None else f"seat {seat + 1}"

    if recorded.went_out != computed.went_out:
        out.append(f"{seat_text(recorded.went_out)} went out, replay says "
                   f"{seat_text(computed.went_out)}")
    for rec, comp in zip(recorded.scores, computed.scores, strict=False):
        side = f"side {comp.side + 1}"
        rec_lines = {line.key: line for line in rec.lines}
        comp_lines = {line.key: line for line in comp.lines}
        for key in dict.fromkeys([*comp_lines, *rec_lines]):
            a, b = rec_lines.get(key), comp_lines.get(key)
            if a is None:
                out.append(f"{side}: the record has no {key!r} line")
            elif b is None:
                out.append(f"{side}: replay has no {key!r} line")
            elif (a.count, a.points) != (b.count, b.points):
                out.append(f"{side} {key}: recorded {a.count} for {a.points} points, replay "
                           f"{b.count} for {b.points}")
        if rec.total != comp.total:
            out.append(f"{side} total: recorded {rec.total}, replay {comp.total}")
    if recorded.totals and recorded.totals != computed.totals:
        out.append(f"game totals: recorded {list(recorded.totals)}, replay "
                   f"{list(computed.totals)}")
    return out


# --- text for people -------------------------------------------------------------------


def _side_names(record: GameRecord, sides: int) -> list[str]:
    names = []
    for side in range(sides):
        members = [s.name for s in record.seats if s.side == side]
        names.append(f"Side {side + 1} ({', '.join(members)})" if members else
                     f"Side {side + 1}")
    return names


def format_breakdown(result: RoundResult, *, side_names: Sequence[str] | None = None,
                     seat_names: Sequence[str] | None = None) -> str:
    """A round's score breakdown as a plain-text table, one column pair per side."""
    sides = len(result.scores)
    names = list(side_names) if side_names else [f"Side {s + 1}" for s in range(sides)]
    if result.went_out is None:
        how: str = result.reason
    else:
        who = (seat_names[result.went_out] if seat_names
               else f"seat {result.went_out + 1}")
        how = f"{result.reason} ({who})"
    labels: dict[str, str] = {}
    values: dict[str, dict[int, ScoreLine]] = {}
    for score in result.scores:
        for line in score.lines:
            labels.setdefault(line.key, line.label)
            values.setdefault(line.key, {})[score.side] = line
    rows = [*labels.values(), "Round total", "Game total"]
    label_w = max(len(x) for x in rows)
    col_w = max(13, *(len(n) for n in names))  # three sides fit 80 columns

    def cells(count: str, points: str) -> str:
        return f"{count:>6}{points:>{col_w - 6}}"

    out = [f"Round {result.round_number}: {how}",
           " " * label_w + "".join("  " + f"{n:>{col_w}}" for n in names),
           " " * label_w + "".join("  " + cells("count", "points") for _ in names)]
    for key, label in labels.items():
        row = f"{label:<{label_w}}"
        for s in range(sides):
            entry = values[key].get(s)
            row += "  " + (cells(str(entry.count), str(entry.points)) if entry
                           else " " * col_w)
        out.append(row.rstrip())
    out.append(f"{'Round total':<{label_w}}" + "".join(
        "  " + cells("", str(score.total)) for score in result.scores))
    if result.totals:
        out.append(f"{'Game total':<{label_w}}" + "".join(
            "  " + cells("", str(t)) for t in result.totals))
    return "\n".join(out)


def replay_command(path: str, *, json_output: bool) -> tuple[int, str]:
    """``handfoot replay FILE [--json]``: replay a record file.

    Returns the exit code and the text to print: 0 when every move is legal and every
    recorded result matches, 1 at an illegal move or any other problem replay finds (the
    text names the move number, the move and the reason), 2 when the file cannot be read
    or is not a valid record.
    """
    try:
        record = read_record(path)
        result = replay(record)
    except OSError as exc:
        return _fail(path, f"cannot read the file: {exc.strerror}", json_output)
    except RecordError as exc:
        return _fail(path, str(exc), json_output)
    code = 0 if result.ok else 1
    if json_output:
        return code, _dump(_replay_data(path, result), 0)
    return code, _replay_text(path, result)


def _fail(path: str, message: str, json_output: bool) -> tuple[int, str]:
    if json_output:
        return 2, _dump({"file": path, "ok": False, "error": message}, 0)
    return 2, f"{path}: {message}"


def _replay_data(path: str, result: ReplayResult) -> dict[str, Any]:
    record = result.record
    return {
        "file": path,
        "ok": result.ok,
        "profile": {"name": record.profile_name, "overrides": dict(record.overrides)},
        "layout": record.layout,
        "moves": record.moves,
        "moves_applied": result.moves_applied,
        "rounds": [{"round": r.round_number, **_result_to_data(r)} for r in result.results],
        "totals": list(result.totals),
        "game_over": result.game_over,
        "winners": None if result.winners is None else list(result.winners),
        "problems": [p.to_data() for p in result.problems],
    }


def _replay_text(path: str, result: ReplayResult) -> str:
    record = result.record
    sides = Layout.parse(record.layout).sides
    side_names = _side_names(record, sides)
    seat_names = [f"seat {i + 1} ({s.name})" for i, s in enumerate(record.seats)]
    rules = record.profile_name
    if record.overrides:
        rules += " with " + ", ".join(f"{k} = {json.dumps(v)}"
                                      for k, v in sorted(record.overrides.items()))
    out = [f"{path}: {rules}, {record.layout}, {len(record.rounds)} round"
           f"{'s' if len(record.rounds) != 1 else ''}, {record.moves} move"
           f"{'s' if record.moves != 1 else ''}", ""]
    for r in result.results:
        out += [format_breakdown(r, side_names=side_names, seat_names=seat_names), ""]
    totals = ", ".join(f"{name} {t}" for name, t in zip(side_names, result.totals,
                                                         strict=True))
    if result.winners is not None:
        won = " and ".join(side_names[s] for s in result.winners)
        verb = "tie" if len(result.winners) > 1 else "wins"
        out.append(f"Final totals: {totals}. {won} {verb}.")
    else:
        state = result.state
        if result.results:
            out.append(f"Totals after round {len(result.results)}: {totals}.")
        out.append(f"The game is not over: round {state.round_number} of "
                   f"{state.profile.rounds}, seat {state.to_act + 1} to act.")
    for problem in result.mismatches:
        out.append(f"MISMATCH: {problem.message}")
    if result.error is not None:
        out.append(f"ERROR: {result.error.message}")
        out.append(f"Replay stopped after {result.moves_applied} of {record.moves} moves.")
    elif result.ok:
        moves = f"{result.moves_applied} move{'s' if result.moves_applied != 1 else ''}"
        out.append(f"OK: {moves} replayed; every move is legal"
                   + ("" if not any(r.result for r in record.rounds)
                      else " and every recorded result matches") + ".")
    else:
        moves = f"{result.moves_applied} move{'s' if result.moves_applied != 1 else ''}"
        out.append(f"{moves} replayed; "
                   f"{len(result.mismatches)} recorded result"
                   f"{'s differ' if len(result.mismatches) != 1 else ' differs'}.")
    return "\n".join(out).rstrip()
