"""Positions in text: what FEN is to chess, for a round of Hand and Foot.

:func:`position_text` writes a :class:`~handfoot.game.values.Position` as a few lines of
``key: value`` that a person can read and edit; :func:`parse_position` reads them back
(``parse_position(position_text(pos))`` is ``pos`` with an empty history). Cards are in the
card notation of :mod:`handfoot.game.cards` (``KS TD 2C JK``), seats and sides are numbered from
1 as players say them. A bad text raises :class:`PositionSyntaxError` naming the line, the
key and the problem. The grammar, every key and what a text does not carry (the moves
played before: the history and its events) are in docs/engine.md, "Positions in text".

>>> from handfoot.game.engine import GameState
>>> from handfoot.game.loading import load_profile
>>> state = GameState.new(load_profile("partnership-13"), seed=5)
>>> text = position_text(state.position())
>>> text.splitlines()[:4]
['handfoot position 1', 'profile: partnership-13', 'layout: 2x2', 'round: 1']
>>> GameState.from_position(parse_position(text)) == state
True
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import FACE_KIND, JOKER, KIND_CODES, TWO, CardError
from handfoot.game.deal import deal_round
from handfoot.game.loading import ProfileError, builtin_profile_names, load_profile, parse_toml
from handfoot.game.moves import WILD_MELD
from handfoot.game.record import profile_spec
from handfoot.game.rules import Layout, Profile
from handfoot.game.scoring import SCORE_LABELS, ScoreLine, SideScore
from handfoot.game.values import (
    TAKE_BACKS_PER_TURN,
    Deal,
    Phase,
    Position,
    RoundEnd,
    RoundResult,
    TableMeld,
)

__all__ = ["HEADER", "POSITION_FIELDS", "PositionSyntaxError", "parse_position",
           "position_text"]

HEADER: Final = "handfoot position 1"
"""The first line of every position text: the format and its version."""

POSITION_FIELDS: Final = frozenset({
    "profile", "layout", "round_number", "phase", "turn", "to_act", "hands", "feet", "knees",
    "stock", "pile", "melds", "red_threes", "opened", "foot_picked", "foot_played",
    "foot_turn_done", "totals", "permission", "stalled_turns", "take_backs", "refused",
    "pending",
    "pending_answerers", "picked_pile", "staged", "undo_stack", "results", "dealer",
    "first_player", "deal", "seed", "deals", "history"})
"""The fields of :class:`~handfoot.game.values.Position` this notation knows (the text carries
all of them but ``history``); a test fails when the engine adds a field not listed here."""

_PHASES: Final = {Phase.DRAW: "draw", Phase.PLAY: "play", Phase.ANSWER: "answer",
                  Phase.GAME_OVER: "game over"}
_NONE: Final = "-"
"""An empty packet, pile or list."""


class PositionSyntaxError(ValueError):
    """A position text could not be read: ``line 7, hand 2: 'QX' is not a card: ...``."""

    def __init__(self, key: str, problem: str, line: int | None = None) -> None:
        if len(key) > 40:  # a hostile key is named by its start
            key = key[:24] + "..."
        where = key if line is None else f"line {line}, {key}" if key else f"line {line}"
        super().__init__(f"{where}: {problem}" if where else problem)
        self.key = key
        self.problem = problem
        self.line = line


# --- writing ---------------------------------------------------------------------------


def position_text(pos: Position) -> str:
    """The position as text (see the module docstring); ends with a newline.

    Lines whose value is the default are left out (no Knee, no red 3s, nothing staged, ...).
    Raises ``ValueError`` for a position no text can hold: a table meld whose counts are
    not its cards, or a profile that is no built-in profile plus overrides.
    """
    out = [HEADER]
    name, overrides = _profile_spec(pos.profile)
    out.append(f"profile: {name}")
    out += [f"set: {key} = {_toml(value)}" for key, value in overrides.items()]
    out.append(f"layout: {pos.layout}")
    out.append(f"round: {pos.round_number}")
    if pos.seed is not None:
        out.append(f"seed: {pos.seed}")
    if pos.dealer is not None:
        out.append(f"dealer: {pos.dealer + 1}")
    if pos.first_player is not None:
        out.append(f"first player: {pos.first_player + 1}")
    out.append(f"phase: {_PHASES[pos.phase]}")
    out.append(f"turn: {pos.turn + 1}")
    if pos.to_act != pos.turn:
        out.append(f"to act: {pos.to_act + 1}")
    if any(pos.totals):
        out.append("totals: " + " ".join(map(str, pos.totals)))
    for seat, hand in enumerate(pos.hands):
        out.append(f"hand {seat + 1}: {_faces(hand)}")
    for seat, foot in enumerate(pos.feet):
        out.append(f"foot {seat + 1}: {_faces(foot)}")
    for seat, knee in enumerate(pos.knees):
        if knee:
            out.append(f"knee {seat + 1}: {_faces(knee)}")
    out.append(f"stock: {_faces(pos.stock)}")
    out.append(f"pile: {_faces(pos.pile)}")
    for side, melds in enumerate(pos.melds):
        out.append(f"melds {side + 1}: {_melds(melds)}")
    for side, reds in enumerate(pos.red_threes):
        if reds:
            out.append(f"red 3s {side + 1}: {_faces(reds)}")
    for key, flags in (("opened", pos.opened), ("in foot", pos.foot_picked),
                       ("played from foot", pos.foot_played),
                       ("foot turn done", pos.foot_turn_done), ("permission", pos.permission)):
        if any(flags):
            out.append(f"{key}: {_numbers(i for i, flag in enumerate(flags) if flag)}")
    if pos.stalled_turns:
        out.append(f"stalled turns: {pos.stalled_turns}")
    if pos.take_backs:
        out.append(f"take backs: {pos.take_backs}")
    if pos.refused:
        out.append("refused: yes")
    if pos.picked_pile:
        out.append("pile taken: yes")
    if pos.pending is not None:
        out.append(f"asking: {mv.format_move(pos.pending)}")
    if pos.pending_answerers:
        out.append(f"answerers: {_numbers(pos.pending_answerers)}")
    if pos.staged:
        out.append("staged: " + " | ".join(
            mv.format_group(mv.MeldGroup(key // 2, n, tw, jk, new=bool(key % 2)))
            for key, n, tw, jk in pos.staged))
    for i, (hand, melds, opened, played) in enumerate(pos.undo_stack):
        marks = [word for word, flag in (("opened", opened), ("played from foot", played))
                 if flag]
        out.append(f"undo {i + 1}: " + " ; ".join([_faces(hand), _melds(melds), *marks]))
    for result in pos.results:
        out.append(f"result {result.round_number}: {_result(result)}")
    if pos.deal is not None:
        out += _deal_lines("dealt", pos.deal, pos, pos.round_number)
    for number, deal in enumerate(pos.deals, 1):
        out += _deal_lines(f"deal {number}", deal, pos, number)
    return "\n".join(out) + "\n"


_SPECS: dict[int, tuple[Profile, tuple[str, dict[str, Any]]]] = {}


def _profile_spec(profile: Profile) -> tuple[str, dict[str, Any]]:
    """:func:`~handfoot.game.record.profile_spec`, remembered for the last profiles written
    (it loads profiles; a search writing many positions of one game asks again and again)."""
    known = _SPECS.get(id(profile))
    if known is None or known[0] is not profile:
        if len(_SPECS) >= 32:
            _SPECS.clear()
        known = _SPECS[id(profile)] = (profile, profile_spec(profile))
    return known[1]


def _faces(faces: Iterable[int]) -> str:
    return cards.format_faces(faces) or _NONE


def _numbers(indices: Iterable[int]) -> str:
    return " ".join(str(i + 1) for i in indices)


def _meld(meld: TableMeld) -> str:
    kinds = [FACE_KIND[f] for f in meld.faces]
    if (kinds.count(TWO), kinds.count(JOKER), len(kinds)) != (meld.twos, meld.jokers,
                                                              meld.size):
        raise ValueError(f"a table meld whose counts are not its cards: {meld}")
    text = cards.format_faces(meld.faces)
    if meld.target != WILD_MELD and not meld.naturals:
        return f"{KIND_CODES[meld.target]}: {text}"  # wilds alone on a rank's meld
    return text


def _melds(melds: Sequence[TableMeld]) -> str:
    return " | ".join(_meld(m) for m in melds) or _NONE


def _result(result: RoundResult) -> str:
    parts = [result.reason.value + ("" if result.went_out is None
                                    else f", seat {result.went_out + 1}")]
    if result.totals:
        parts.append("totals " + " ".join(map(str, result.totals)))
    for score in result.scores:
        lines = []
        for line in score.lines:
            text = f"{line.key} {line.count} {line.points}"
            if SCORE_LABELS.get(line.key) != line.label:
                # a label of its own, as a JSON string that never holds ";" or ","
                text += " " + json.dumps(line.label).replace(";", "\\u003b").replace(
                    ",", "\\u002c")
            lines.append(text)
        parts.append(f"side {score.side + 1}: " + (", ".join(lines) or _NONE))
    return " ; ".join(parts)


def _deal_lines(label: str, deal: Deal, pos: Position, round_number: int) -> list[str]:
    if pos.seed is not None and deal == deal_round(pos.profile, pos.layout, pos.seed,
                                                   round_number):
        return [f"{label}: seed"]
    if label == "dealt" and deal == _deal_as_now(pos):
        return [f"{label}: as now"]
    out = [f"{label}: dealer {deal.dealer + 1}, first player {deal.first_player + 1}"]
    for key, packets in (("hand", deal.hands), ("foot", deal.feet), ("knee", deal.knees)):
        out += [f"{label} {key} {seat + 1}: {_faces(packet)}"
                for seat, packet in enumerate(packets) if packet or key != "knee"]
    out.append(f"{label} stock: {_faces(deal.stock)}")
    out.append(f"{label} pile: {_faces(deal.discard)}")
    return out


def _deal_as_now(pos: Position) -> Deal:
    """The deal :meth:`GameState.from_position` takes for a position without one."""
    n = pos.layout.players
    first = pos.turn if pos.first_player is None else pos.first_player
    return Deal(pos.hands, pos.feet, pos.knees, pos.stock, pos.pile,
                dealer=(first - 1) % n, first_player=first)


def _toml(value: Any) -> str:
    """A TOML value (an override of the profile) on one line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}"
                                for k, v in value.items()) + " }"
    raise ValueError(f"{value!r} cannot be written as a TOML value")


# --- reading ---------------------------------------------------------------------------

_NO_CARDS: Final[tuple[int, ...]] = ()
_NO_MELDS: Final[tuple[TableMeld, ...]] = ()
_NO_STAGED: Final[tuple[tuple[int, int, int, int], ...]] = ()
_KEY: Final = re.compile(r"(?:(dealt)|deal (\d+))? ?([a-z][a-z3 ]*[a-z])? ?(\d+)?")
_T = TypeVar("_T")


@dataclass(frozen=True)
class _Line:
    number: int
    key: str
    value: str

    def fail(self, problem: str) -> PositionSyntaxError:
        return PositionSyntaxError(self.key, problem, self.number)


_MOST: Final = 10**15
"""The largest number a position holds (seeds, totals, score lines)."""
_MOST_CARDS: Final = 10_000
"""The largest ``+N`` of a packet (far more than any shoe holds)."""
_KEY_DIGITS: Final = 4
"""The most digits of a number in a key (a seat, side, deal, undo or result number)."""

_SINGLE: Final = frozenset({
    "profile", "layout", "round", "seed", "dealer", "first player", "phase", "turn", "to act",
    "totals", "stock", "pile", "opened", "in foot", "played from foot", "foot turn done",
    "permission", "stalled turns", "take backs", "refused", "pile taken", "asking",
    "answerers", "staged"})
_PER_SEAT: Final = frozenset({"hand", "foot", "knee"})
_PER_SIDE: Final = frozenset({"melds", "red 3s"})
_NUMBERED: Final = frozenset({"undo", "result"})
_DEAL_KEYS: Final = frozenset({"stock", "pile"})


def parse_position(text: str) -> Position:
    """Read a position written by :func:`position_text` or by hand.

    Blank lines and lines starting with ``#`` are skipped; keys are case-insensitive. The
    cards of the position must be exactly the profile's shoe. The history is empty.
    """
    lines = _lines(text)
    reader = _Reader(lines)
    profile = reader.profile()
    layout = reader.one("layout", lambda ln: _layout(ln, profile), profile.layout)
    n, sides = layout.players, layout.sides

    def seat(ln: _Line) -> int:
        return _index(ln, ln.value, n, "seat")

    round_number = reader.one("round", lambda ln: _count(ln, 1, profile.rounds), None)
    phase = reader.one("phase", _phase, None)
    turn = reader.one("turn", seat, None)
    pos_fields: dict[str, Any] = {
        "profile": profile, "layout": layout, "round_number": round_number, "phase": phase,
        "turn": turn,
        "to_act": reader.one("to act", seat, turn),
        "seed": reader.one("seed", lambda ln: _int(ln, ln.value), None),
        "dealer": reader.one("dealer", seat, None),
        "first_player": reader.one("first player", seat, None),
        "totals": reader.one("totals", lambda ln: _ints(ln, sides, "side"), (0,) * sides),
        "hands": reader.packets("hand", n),
        "feet": reader.packets("foot", n),
        "knees": reader.packets("knee", n),
        "stock": reader.one("stock", _card_list, _NO_CARDS),
        "pile": reader.one("pile", _card_list, _NO_CARDS),
        "melds": tuple(reader.one(f"melds {s + 1}", _meld_list, _NO_MELDS) for s in range(sides)),
        "red_threes": tuple(reader.one(f"red 3s {s + 1}", _red_threes, _NO_CARDS)
                            for s in range(sides)),
        "opened": reader.flags("opened", sides, "side"),
        "foot_picked": reader.flags("in foot", n, "seat"),
        "foot_played": reader.flags("played from foot", n, "seat"),
        "foot_turn_done": reader.flags("foot turn done", n, "seat"),
        "permission": reader.flags("permission", sides, "side"),
        "stalled_turns": reader.one("stalled turns", lambda ln: _count(ln, 0, 1 << 30), 0),
        "take_backs": reader.one("take backs",
                                 lambda ln: _count(ln, 0, TAKE_BACKS_PER_TURN), 0),
        "refused": reader.one("refused", _yes_no, False),
        "picked_pile": reader.one("pile taken", _yes_no, False),
        "pending": reader.one("asking", _go_out, None),
        "pending_answerers": reader.one(
            "answerers", lambda ln: tuple(_index(ln, w, n, "seat") for w in ln.value.split()),
            _NO_CARDS),
        "staged": reader.one("staged", _staged, _NO_STAGED),
        "undo_stack": tuple(reader.numbered("undo", _undo)),
        "results": tuple(reader.numbered("result", lambda ln: _round_result(ln, sides, n))),
    }
    if round_number is None or phase is None or turn is None:
        missing = [k for k, v in (("round", round_number), ("phase", phase), ("turn", turn))
                   if v is None]
        raise PositionSyntaxError(missing[0], "missing: every position says its round, "
                                              "phase and turn")
    assert pos_fields.keys() | {"deal", "deals", "history"} == POSITION_FIELDS
    _fill(reader.fills, pos_fields)
    partial = Position(**pos_fields)
    deal = reader.deal("dealt", partial, round_number)
    deals = []
    numbers = sorted({int(k.split()[1]) for k in reader.keys if k.startswith("deal ")})
    for i, number in enumerate(numbers, 1):
        if number != i:
            raise PositionSyntaxError(f"deal {number}", f"deals are numbered 1, 2, ...: deal "
                                                        f"{i} is missing")
        got = reader.deal(f"deal {number}", partial, number)
        assert got is not None
        deals.append(got)
    reader.finish()
    pos = Position(**pos_fields, deal=deal, deals=tuple(deals))
    _check_shoe(pos)
    _check_playable(pos, reader)
    return pos


def _lines(text: str) -> list[_Line]:
    out: list[_Line] = []
    header = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not header:
            if " ".join(line.lower().split()) != HEADER:
                raise PositionSyntaxError("", f"the first line must be {HEADER!r}, not "
                                              f"{line!r}", number)
            header = True
            continue
        key, colon, value = line.partition(":")
        key = " ".join(key.lower().split())
        if not colon:
            raise PositionSyntaxError(key, "write 'key: value'", number)
        out.append(_Line(number, key, value.strip()))
    if not header:
        raise PositionSyntaxError("", f"an empty text: a position starts with {HEADER!r}")
    return out


class _Reader:
    """The lines of a text by key; each taken once, and every key must be taken."""

    def __init__(self, lines: list[_Line]) -> None:
        self.keys: dict[str, _Line] = {}
        self.sets: list[_Line] = []
        for ln in lines:
            if ln.key == "set":
                self.sets.append(ln)
                continue
            if not _known(ln.key):
                raise ln.fail("unknown key (see docs/engine.md, 'Positions in text')")
            if any(len(w) > _KEY_DIGITS for w in ln.key.split() if w.isdigit()):
                raise ln.fail(f"a number in a key has at most {_KEY_DIGITS} digits")
            if ln.key in self.keys:
                raise ln.fail(f"given twice (also on line {self.keys[ln.key].number})")
            self.keys[ln.key] = ln
        self.taken: set[str] = set()
        self.fills: list[tuple[_Line, int | None]] = []
        """Packets ending in ``+N`` (N cards to deal) and a stock ending in ``rest`` (None),
        with those words taken off their lines."""
        for key in sorted(self.keys, key=_fill_order):
            ln = self.keys[key]
            words = ln.value.split()
            if not words or _fill_order(key) > _FILL_LAST:
                continue
            if key == "stock" and words[-1].lower() == "rest":
                self.fills.append((ln, None))
            elif key != "stock" and re.fullmatch(r"\+\d+", words[-1]):
                self.fills.append((ln, _int(ln, words[-1][1:], _MOST_CARDS, "+N")))
            else:
                continue
            self.keys[key] = _Line(ln.number, ln.key, " ".join(words[:-1]) or _NONE)

    def take(self, key: str) -> _Line | None:
        self.taken.add(key)
        return self.keys.get(key)

    def one(self, key: str, read: Callable[[_Line], _T], default: _T) -> _T:
        ln = self.take(key)
        return default if ln is None else read(ln)

    def profile(self) -> Profile:
        ln = self.take("profile")
        if ln is None:
            raise PositionSyntaxError("profile", "missing: name the rules, like "
                                                 "'profile: partnership-13'")
        names = builtin_profile_names()
        if ln.value not in names:
            raise ln.fail(f"{ln.value!r} is not a built-in profile (one of {', '.join(names)})")
        return _load_profile(ln, tuple(self.sets))


    def packets(self, key: str, n: int) -> tuple[tuple[int, ...], ...]:
        return tuple(self.one(f"{key} {s + 1}", _card_list, _NO_CARDS) for s in range(n))

    def flags(self, key: str, n: int, what: str) -> tuple[bool, ...]:
        ln = self.take(key)
        if ln is None:
            return (False,) * n
        chosen = {_index(ln, w, n, what) for w in ln.value.split()} if ln.value != _NONE else set()
        return tuple(i in chosen for i in range(n))

    def numbered(self, key: str, read: Callable[[_Line], _T]) -> list[_T]:
        numbers = sorted(int(k.split()[-1]) for k in self.keys if _KEY.fullmatch(k)
                         and k.rsplit(" ", 1)[0] == key and not k.startswith("deal"))
        out = []
        for i, number in enumerate(numbers, 1):
            ln = self.take(f"{key} {number}")
            assert ln is not None
            if number != i and key == "undo":
                raise ln.fail(f"undo entries are numbered 1, 2, ...: undo {i} is missing")
            out.append(read(ln))
        return out

    def deal(self, label: str, pos: Position, round_number: int) -> Deal | None:
        ln = self.take(label)
        n = pos.layout.players
        sub = [k for k in self.keys if k.startswith(label + " ")]
        if ln is None:
            if sub:
                raise self.keys[sub[0]].fail(f"give '{label}: dealer D, first player F' too")
            return None
        value = ln.value.lower()
        if value == "seed":
            if pos.seed is None:
                raise ln.fail("'seed' needs a 'seed:' line")
            if sub:
                raise self.keys[sub[0]].fail(f"'{label}: seed' gives every card")
            return deal_round(pos.profile, pos.layout, pos.seed, round_number)
        if value == "as now" and label == "dealt":
            if sub:
                raise self.keys[sub[0]].fail("'dealt: as now' gives every card")
            return _deal_as_now(pos)
        m = re.fullmatch(r"dealer (\d+), first player (\d+)", value)
        if m is None:
            raise ln.fail("write 'seed', 'as now' or 'dealer D, first player F'")
        dealer = _index(ln, m.group(1), n, "seat")
        first = _index(ln, m.group(2), n, "seat")
        packets = {key: tuple(self.one(f"{label} {key} {s + 1}", _card_list, _NO_CARDS)
                              for s in range(n)) for key in ("hand", "foot", "knee")}
        return Deal(packets["hand"], packets["foot"], packets["knee"],
                    self.one(f"{label} stock", _card_list, _NO_CARDS),
                    self.one(f"{label} pile", _card_list, _NO_CARDS), dealer=dealer,
                    first_player=first)

    def finish(self) -> None:
        for key, ln in self.keys.items():
            if key not in self.taken:
                raise ln.fail("not a key of this position (a seat or side number too high, "
                              "or a deal line without its 'deal N:' line?)")


@functools.lru_cache(maxsize=32)
def _load_profile(ln: _Line, sets: tuple[_Line, ...]) -> Profile:
    """The profile of a text, remembered for the last texts read (by their lines)."""
    overrides: dict[str, Any] = {}
    for s in sets:
        try:
            data = parse_toml(s.value, "set")
        except ProfileError as exc:
            raise s.fail(f"write 'set: parameter = value' in TOML ({exc})") from None
        if len(data) != 1:
            raise s.fail("one parameter per 'set' line")
        overrides.update(data)
    try:
        return load_profile(ln.value, overrides=overrides, overrides_origin="set")
    except ProfileError as exc:
        raise PositionSyntaxError("", str(exc), (sets or (ln,))[0].number) from None


def _known(key: str) -> bool:
    m = _KEY.fullmatch(key)
    if m is None:
        return False
    dealt, deal_number, name, number = m.groups()
    if dealt or deal_number:
        if name is None:
            return number is None
        return (name in _PER_SEAT and number is not None) or (name in _DEAL_KEYS
                                                               and number is None)
    if name is None:
        return False
    if number is None:
        return name in _SINGLE
    return name in _PER_SEAT | _PER_SIDE | _NUMBERED


def _int(ln: _Line, word: str, most: int = _MOST, what: str = "") -> int:
    """A whole number of at most ``most`` (and at least ``-most``)."""
    if len(word) > 24:  # (int() of thousands of digits is slow, then refused)
        raise ln.fail(f"{word[:12]}...: a number of {len(word)} characters is far too large")
    try:
        value = int(word)
    except ValueError:
        raise ln.fail(f"{word!r} is not a whole number") from None
    if abs(value) > most:
        raise ln.fail(f"{(what + ' ') if what else ''}{value} is too large (at most {most})")
    return value


def _count(ln: _Line, low: int, high: int) -> int:
    value = _int(ln, ln.value)
    if not low <= value <= high:
        raise ln.fail(f"{value} is not between {low} and {high}")
    return value


def _index(ln: _Line, word: str, n: int, what: str) -> int:
    """A seat or side number as people write it (1 to n), as an index."""
    value = _int(ln, word)
    if not 1 <= value <= n:
        raise ln.fail(f"{what} {value}: {what}s are numbered 1 to {n}")
    return value - 1


def _ints(ln: _Line, n: int, what: str) -> tuple[int, ...]:
    words = ln.value.split()
    if len(words) != n:
        raise ln.fail(f"{len(words)} numbers for {n} {what}s")
    return tuple(_int(ln, w) for w in words)


def _layout(ln: _Line, profile: Profile) -> Layout:
    try:
        layout = Layout.parse(ln.value)
        profile.check_layout(layout)
    except ValueError as exc:
        raise ln.fail(str(exc)) from None
    return layout


def _phase(ln: _Line) -> Phase:
    for phase, word in _PHASES.items():
        if " ".join(ln.value.lower().split()) == word:
            return phase
    raise ln.fail(f"{ln.value!r} is not a phase: one of {', '.join(_PHASES.values())}")


def _yes_no(ln: _Line) -> bool:
    value = ln.value.lower()
    if value not in ("yes", "no"):
        raise ln.fail(f"{ln.value!r}: write yes or no")
    return value == "yes"


def _cards(ln: _Line, text: str) -> tuple[int, ...]:
    if text.strip() == _NONE:
        return ()
    try:
        return tuple(cards.parse_faces(text))
    except CardError as exc:
        raise ln.fail(str(exc)) from None


def _card_list(ln: _Line) -> tuple[int, ...]:
    return _cards(ln, ln.value)


def _red_threes(ln: _Line) -> tuple[int, ...]:
    faces = _card_list(ln)
    for f in faces:
        if FACE_KIND[f] != cards.RED_THREE:
            raise ln.fail(f"{cards.face_name(f)} is not a red 3")
    return faces


def _table_meld(ln: _Line, text: str) -> TableMeld:
    target: int | None = None
    head, colon, rest = text.partition(":")
    if colon:
        try:
            target = cards.parse_kind(head)
        except CardError as exc:
            raise ln.fail(str(exc)) from None
        if target not in cards.RANKS:
            raise ln.fail(f"{head.strip()!r}: name a meld by its rank (4 to A), like K:")
        text = rest
    faces = _cards(ln, text)
    if not faces:
        raise ln.fail("an empty meld")
    kinds = [FACE_KIND[f] for f in faces]
    for f, k in zip(faces, kinds, strict=True):
        if k in (cards.BLACK_THREE, cards.RED_THREE):
            raise ln.fail(f"{cards.face_name(f)}: threes are never melded")
        if not cards.is_wild(k):
            if target is not None and k != target:
                raise ln.fail(f"{cards.face_name(f)} in a meld of {cards.KIND_PLURALS[target]}:"
                              " a meld holds one rank (use | between melds)")
            target = k
    twos, jokers = kinds.count(TWO), kinds.count(JOKER)
    return TableMeld(WILD_MELD if target is None else target, len(faces) - twos - jokers,
                     twos, jokers, faces)


def _melds_text(ln: _Line, text: str) -> tuple[TableMeld, ...]:
    if text.strip() == _NONE:
        return ()
    return tuple(_table_meld(ln, part) for part in text.split("|"))


def _meld_list(ln: _Line) -> tuple[TableMeld, ...]:
    return _melds_text(ln, ln.value)


def _go_out(ln: _Line) -> mv.GoOut:
    try:
        move = mv.parse_move(ln.value)
    except mv.MoveSyntaxError as exc:
        raise ln.fail(str(exc)) from None
    if not isinstance(move, mv.GoOut):
        raise ln.fail(f"{ln.value!r}: the question is a go-out, like 'goout 9 9 discard 5'")
    return move


def _staged(ln: _Line) -> tuple[tuple[int, int, int, int], ...]:
    try:
        groups = mv.parse_groups(ln.value)
    except mv.MoveSyntaxError as exc:
        raise ln.fail(str(exc)) from None
    out = [(g.target * 2 + g.new, g.naturals, g.twos, g.jokers) for g in groups]
    if len({key for key, *_ in out}) != len(out):
        raise ln.fail("one group per meld (and one 'new' group per rank)")
    return tuple(out)


def _undo(ln: _Line) -> tuple[tuple[int, ...], tuple[TableMeld, ...], bool, bool]:
    parts = [p.strip() for p in ln.value.split(";")]
    if len(parts) < 2:
        raise ln.fail("write 'HAND ; MELDS' and then 'opened' and 'played from foot' if so")
    flags = set(parts[2:])
    unknown = flags - {"opened", "played from foot"}
    if unknown:
        raise ln.fail(f"{sorted(unknown)[0]!r}: the flags are 'opened' and 'played from foot'")
    return (_cards(ln, parts[0]), _melds_text(ln, parts[1]), "opened" in flags,
            "played from foot" in flags)


def _round_result(ln: _Line, sides: int, players: int) -> RoundResult:
    parts = [p.strip() for p in ln.value.split(";")]
    reason_text, _, seat_text = parts[0].partition(",")
    try:
        reason = RoundEnd(reason_text.strip().lower())
    except ValueError:
        raise ln.fail(f"{reason_text.strip()!r}: the round ends are "
                      f"{', '.join(r.value for r in RoundEnd)}") from None
    went_out = None
    if seat_text.strip():
        words = seat_text.split()
        if len(words) != 2 or words[0] != "seat":
            raise ln.fail(f"{seat_text.strip()!r}: write ', seat N' for who went out")
        went_out = _index(ln, words[1], players, "seat")
    totals: tuple[int, ...] = ()
    scores: list[SideScore] = []
    for part in parts[1:]:
        if part.startswith("totals"):
            totals = tuple(_int(ln, w) for w in part.split()[1:])
            continue
        head, colon, rest = part.partition(":")
        words = head.split()
        if not colon or len(words) != 2 or words[0] != "side":
            raise ln.fail(f"{part!r}: write 'side N: KEY COUNT POINTS, ...'")
        side = _index(ln, words[1], sides, "side")
        lines = tuple(_score_line(ln, item) for item in rest.split(",")
                      if item.strip() != _NONE)
        scores.append(SideScore(side, lines, sum(line.points for line in lines)))
    return RoundResult(_int(ln, ln.key.split()[-1]), reason, went_out, tuple(scores), totals)


def _score_line(ln: _Line, text: str) -> ScoreLine:
    m = re.fullmatch(r"\s*(\w+) (-?\d+) (-?\d+)(?: (\".*\"))?\s*", text)
    if m is None:
        raise ln.fail(f"{text.strip()!r}: a score line is 'KEY COUNT POINTS'")
    key, count, points, label = m.groups()
    if label is None:
        if key not in SCORE_LABELS:
            raise ln.fail(f"{key!r} is not a score line: one of {', '.join(SCORE_LABELS)}")
        return ScoreLine(key, SCORE_LABELS[key], _int(ln, count), _int(ln, points))
    try:
        text_label = json.loads(label)
    except ValueError:
        raise ln.fail(f"{label}: a label is a string in double quotes") from None
    if not isinstance(text_label, str):
        raise ln.fail(f"{label}: a label is a string in double quotes")
    return ScoreLine(key, text_label, _int(ln, count), _int(ln, points))


_FILL_LAST: Final = 10_000_000


def _fill_order(key: str) -> int:
    """The order packets are dealt ``+N`` in: hands, feet, knees by seat, then the stock;
    above :data:`_FILL_LAST` for every other key."""
    words = key.split()
    if len(words) == 2 and words[0] in ("hand", "foot", "knee") and words[1].isdigit():
        return ("hand", "foot", "knee").index(words[0]) * 100_000 + int(words[1])
    return _FILL_LAST - 1 if key == "stock" else _FILL_LAST + 1


def _fill(fills: list[tuple[_Line, int | None]], fields: dict[str, Any]) -> None:
    """Deal the ``+N`` of packets and the stock's ``rest`` from the cards of the shoe the
    text does not place, shuffled by ``random.Random(seed)`` (seed 0 without a seed line);
    ``+N`` never deals a red 3."""
    if not fills:
        return
    p, players = fields["profile"], fields["layout"].players
    left = cards.face_counts(cards.build_shoe(p.decks(players), p.jokers_per_deck))
    for f in _all_faces(fields):
        left[f] -= 1
    unplaced = cards.faces_from_counts([max(0, n) for n in left])
    rng = random.Random(fields["seed"] or 0)
    rng.shuffle(unplaced)
    names = {"hand": "hands", "foot": "feet", "knee": "knees"}
    for ln, count in fills:
        if count is None:
            rng.shuffle(unplaced)  # the red 3s the packets passed over, among the rest
            fields["stock"] = fields["stock"] + tuple(unplaced)
            unplaced = []
            continue
        dealt = [f for f in unplaced if FACE_KIND[f] != cards.RED_THREE][:count]
        if len(dealt) < count:
            raise ln.fail(f"+{count}: only {len(dealt)} cards (not red 3s) are left to deal")
        for f in dealt:
            unplaced.remove(f)
        name, number = ln.key.split()
        packets = list(fields[names[name]])
        seat = _index(ln, number, players, "seat")
        packets[seat] += tuple(dealt)
        fields[names[name]] = tuple(packets)


def _all_faces(fields: dict[str, Any]) -> list[int]:
    found: list[int] = []
    for key in ("hands", "feet", "knees", "red_threes"):
        for packet in fields[key]:
            found += packet
    found += fields["stock"]
    found += fields["pile"]
    for melds in fields["melds"]:
        for meld in melds:
            found += meld.faces
    return found


def _check_shoe(pos: Position) -> None:
    """The cards of the position are exactly the profile's shoe."""
    # By its fields, not vars(): a compiled Position (mypyc) has no __dict__.
    found = _all_faces({f.name: getattr(pos, f.name) for f in dataclasses.fields(pos)})
    p, players = pos.profile, pos.layout.players
    shoe = cards.face_counts(cards.build_shoe(p.decks(players), p.jokers_per_deck))
    got = cards.face_counts(found)
    if got == shoe:
        return
    problems = []
    for label, sign in (("missing", 1), ("too many", -1)):
        faces = [f for f in range(cards.NUM_FACES) if (shoe[f] - got[f]) * sign > 0]
        if faces:
            shown = " ".join(cards.face_name(f) + (f" x{abs(shoe[f] - got[f])}"
                                                   if abs(shoe[f] - got[f]) > 1 else "")
                             for f in faces[:12])
            problems.append(f"{label}: {shown}{' ...' if len(faces) > 12 else ''}")
    raise PositionSyntaxError("cards", f"not the shoe of {p.name} for {players} players "
                                       f"({sum(shoe)} cards, {len(found)} in the text); "
                              + "; ".join(problems))


def _check_playable(pos: Position, reader: _Reader) -> None:
    """What parses, plays: the seat to act has a legal move in a state the engine can reach
    (a question asked by the seat whose turn it is and answered by its partners, the Foot
    packet gone once picked up, staged cards held, melds to take back only in play)."""
    from handfoot.game.engine import GameState  # (the engine does not import notation)

    def fail(key: str, problem: str) -> PositionSyntaxError:
        ln = reader.keys.get(key)
        return PositionSyntaxError(key, problem, ln.number if ln else None)

    layout, turn, phase = pos.layout, pos.turn, pos.phase
    partners = [s for s in layout.seats_of(layout.side_of(turn)) if s != turn]
    if phase == Phase.ANSWER:
        if pos.pending is None:
            raise fail("phase", "phase answer, but nobody asks to go out: give the question "
                                "('asking: goout ...') and who answers it ('answerers: ...')")
        if not pos.pending_answerers:
            raise fail("answerers", "missing: a question is answered by the partners of the "
                                    f"seat asking (seat {turn + 1})")
        answerers = list(pos.pending_answerers)
        strangers = [s + 1 for s in answerers if s not in partners]
        if strangers or len(set(answerers)) != len(answerers):
            raise fail("answerers", f"the partners of seat {turn + 1} (seats "
                                    f"{' '.join(str(s + 1) for s in partners) or 'none'}) "
                                    "answer, each once")
        if pos.to_act != answerers[0]:
            raise fail("to act", f"seat {answerers[0] + 1}, the first answerer, acts")
        asked = GameState.from_position(dataclasses.replace(
            pos, phase=Phase.PLAY, to_act=turn, pending=None, pending_answerers=()))
        reason = asked.check(pos.pending)
        if reason is not None:
            raise fail("asking", f"seat {turn + 1} could not go out so: {reason}")
    else:
        if pos.pending is not None or pos.pending_answerers:
            raise fail("asking" if pos.pending is not None else "answerers",
                       "a question is asked only in the answer phase")
        if pos.to_act != turn and phase != Phase.GAME_OVER:
            raise fail("to act", f"the seat whose turn it is (seat {turn + 1}) acts, but "
                                 "when answering a question")
    for s in range(layout.players):
        if pos.foot_picked[s] and pos.feet[s]:
            raise fail("in foot", f"seat {s + 1} is in its Foot, but its Foot packet still "
                                  "holds cards")
    if pos.undo_stack and phase not in (Phase.PLAY, Phase.ANSWER):
        raise fail("undo 1", "melds are taken back only in the play phase (or when a "
                             "question asked is answered no)")
    side = layout.side_of(turn)
    now = cards.face_counts(list(pos.hands[turn])
                            + [f for m in pos.melds[side] for f in m.faces])
    for i, (hand, melds, _, _) in enumerate(pos.undo_stack, 1):
        then = cards.face_counts(list(hand) + [f for m in melds for f in m.faces])
        if then != now:
            raise fail(f"undo {i}", f"taking back must give back the cards of seat {turn + 1}'s "
                                    "hand and its side's melds now, no other cards")
    if pos.staged:
        held = cards.kind_counts(pos.hands[turn])
        staged = [0] * len(held)
        for key, n, tw, jk in pos.staged:
            staged[key >> 1] += n
            staged[TWO] += tw
            staged[JOKER] += jk
        for kind, count in enumerate(staged):
            if count > held[kind]:
                raise fail("staged", f"{count} {cards.KIND_PLURALS[kind]} staged, but seat "
                                     f"{turn + 1} holds {held[kind]}")
    if phase == Phase.GAME_OVER:
        return
    state = GameState.from_position(pos)
    if not state.legal_actions():
        actor = state.actor
        what = ("holds no cards" + ("" if pos.feet[actor] or pos.knees[actor]
                                    else " and has no Foot to pick up")
                if not pos.hands[actor] else "has no legal move")
        raise fail("phase", f"seat {actor + 1} is to act ({_PHASES[phase]}) but {what}")
