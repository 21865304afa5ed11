"""Moves: what a player can do, in a text notation and as a fixed integer encoding.

Moves exist at two granularities.

* **Player moves** (:class:`Draw`, :class:`Pickup`, :class:`Meld`, :class:`Discard`,
  :class:`GoOut`, :class:`Answer`, :class:`Undo`, :class:`Knock`) are what a person does:
  one :class:`Meld` may lay several melds at once, as an opening often needs. They have a
  text notation (:func:`parse_move`, :func:`format_move`) used by game records and the CLI.
* **Actions** are integers in ``range(NUM_ACTIONS)``, the same for every profile, for bots,
  search and learning agents. Melds are built by *staging* cards one at a time
  (``STAGE_*``), then committed together with ``CONFIRM`` (a :class:`Meld`), ``PICKUP``
  (a :class:`Pickup` using the staged cards) or ``GO_OUT*`` (a :class:`GoOut`).

Notation (case-insensitive)::

    draw                      take cards from the stock
    pickup K K 2 | A A A      take the pile; the top card joins the first group of its rank
    meld K K K 2 | 9 9 9      lay or extend melds; groups are separated by "|"
    meld JK JK 2              a group of wild cards only is an all-wild meld
    meld K: 2                 "RANK:" names the meld: wild cards alone added to the kings
    discard 5                 discard a card of that kind (K, 10, 2, JK, B3, ...)
    goout 9 9 | Q discard B3  go out: meld the groups, then discard (or no "discard")
    yes / no                  answer a partner's "May I go out?"
    undo                      take back your last meld this turn
    knock                     end a turn without discarding (where the profile says so)
    knee                      pick up your Knee (Hand, Knee & Foot)
    meld new K K K            "new" starts a new meld of the rank: after an earlier group
                              completed one, or beside a book where the profile allows

``go out`` and ``pick up`` (two words, as people type them) read as ``goout`` and ``pickup``;
records are always written with the one-word verbs.

Cards in a group are kinds; full cards (``KS``) are accepted and read as their kind. Each
group holds one natural rank plus wilds, or wilds only; a group of wilds only is for the
all-wild meld unless it starts with the rank it is for (``K: 2``, adding a two to the side's
kings; ``K: K 2`` is the same as ``K 2``). Groups apply in order: a group for
a rank goes onto the side's unfinished meld of that rank, or starts a new meld when there
is none, so "complete a meld, then start another" is two groups of the same rank.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, TypeAlias

from handfoot.game import cards
from handfoot.game.cards import JOKER, KIND_CODES, NUM_KINDS, RED_THREE, TWO, CardError, Kind
from handfoot.game.cards import ByFields as ByFields  # the engine's frozen classes derive from it

ActionId: TypeAlias = int
"""An integer action, ``0 <= a < NUM_ACTIONS`` (the same ids for every profile)."""

WILD_MELD: Final = 11
"""The target index of the all-wild meld (rank targets are the kinds 4..A, 0..10)."""
NUM_TARGETS: Final = 12


@dataclass(frozen=True, slots=True)
class MeldGroup(ByFields):
    """Cards added together to one meld: ``naturals`` of ``target`` plus wilds.

    ``target`` is a rank kind (0..10) or :data:`WILD_MELD`. With ``new``, the group must
    start a new meld: after an earlier group of the same action completed the side's
    meld, or beside a book where the profile allows a second meld of its rank.
    """

    target: int
    naturals: int = 0
    twos: int = 0
    jokers: int = 0
    new: bool = False

    def __init__(self, target: int, naturals: int = 0, twos: int = 0, jokers: int = 0,
                 new: bool = False) -> None:
        # Not the dataclass's own: mypyc compiles this one, each line to a slot store
        # (docs/performance.md, "Constructors").
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "naturals", naturals)
        object.__setattr__(self, "twos", twos)
        object.__setattr__(self, "jokers", jokers)
        object.__setattr__(self, "new", new)

    @property
    def size(self) -> int:
        return self.naturals + self.twos + self.jokers

    @property
    def wilds(self) -> int:
        return self.twos + self.jokers

    def kind_counts(self) -> list[tuple[int, int]]:
        """(kind, count) pairs of the cards in the group."""
        out = []
        if self.naturals:
            out.append((self.target, self.naturals))
        if self.twos:
            out.append((TWO, self.twos))
        if self.jokers:
            out.append((JOKER, self.jokers))
        return out


def fast_constructor(cls: Any) -> Any:
    """A constructor of a frozen slotted dataclass that sets its slots directly: what the
    dataclass's ``__init__`` does when every field is given (by position or keyword),
    without the ``object.__setattr__`` by name that a frozen class pays per field (hot
    values: a seat's view for every decision, a meld group for every plan). The object is
    made as one of a twin class (the same base and slots, not frozen), its fields stored
    as plain attributes, then made the class by ``__class__`` assignment (about a third
    of a view's cost through the slots' descriptors, a call per field, which is the
    fallback). The class itself where its fields are not plain slots (a compiled build)."""
    names = [f.name for f in fields(cls)]
    slots = {name: cls.__dict__.get(name) for name in names}
    if (getattr(cls, "__post_init__", None) is not None
            or not all(isinstance(d, types.MemberDescriptorType) for d in slots.values())):
        return cls
    # (the helpers' names start with "_", no field's does)
    # The fastest way: the fields set as plain attributes of a twin class (the same base
    # and slots, not frozen: a store to a slot is one specialised opcode), then the object
    # made the frozen class (``__class__`` assignment, allowed between classes of one
    # layout). Else each slot set through its descriptor (a call per field).
    twin = type(f"_{cls.__name__}Twin", cls.__bases__, {"__slots__": cls.__slots__})
    lines = [f"    _o.{name} = {name}" for name in names]
    source = (f"def new_{cls.__name__}({', '.join(names)}):\n    _o = _new(_twin)\n"
              + "\n".join(lines) + "\n    _o.__class__ = _cls\n    return _o\n")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_twin": twin}
    exec(compile(source, f"<{cls.__name__} constructor>", "exec"), namespace)
    made = namespace[f"new_{cls.__name__}"]
    try:
        probe = made(*range(len(names)))
        if type(probe) is cls and [getattr(probe, n) for n in names] == list(range(len(names))):
            return made
    except TypeError:  # (a layout __class__ assignment refuses)
        pass
    lines = [f"    _set_{name}(_o, {name})" for name in names]
    source = (f"def new_{cls.__name__}({', '.join(names)}):\n    _o = _new(_cls)\n"
              + "\n".join(lines) + "\n    return _o\n")
    namespace = {"_new": object.__new__, "_cls": cls}
    for name, descriptor in slots.items():
        namespace[f"_set_{name}"] = descriptor.__set__
    exec(compile(source, f"<{cls.__name__} constructor>", "exec"), namespace)
    return namespace[f"new_{cls.__name__}"]


new_meld_group: Final[Callable[[int, int, int, int, bool], MeldGroup]] = fast_constructor(
    MeldGroup)
"""``MeldGroup(target, naturals, twos, jokers, new)``, every field given, built faster."""


@dataclass(frozen=True, slots=True)
class Draw(ByFields):
    """Take the top cards of the stock."""


@dataclass(frozen=True, slots=True)
class Pickup(ByFields):
    """Take the discard pile, melding the top card at once with the groups' hand cards."""

    groups: tuple[MeldGroup, ...] = ()


@dataclass(frozen=True, slots=True)
class Meld(ByFields):
    """Lay new melds or add to the side's melds, all in one action."""

    groups: tuple[MeldGroup, ...]


@dataclass(frozen=True, slots=True)
class Discard(ByFields):
    """Discard one card of a kind, ending the turn."""

    kind: Kind


@dataclass(frozen=True, slots=True)
class GoOut(ByFields):
    """Go out: meld the groups and, if ``discard`` is a kind, discard that last card.

    Where the profile asks for permission, this is the question "May I go out?" with the
    plan attached; it is carried out when every partner answers yes.
    """

    groups: tuple[MeldGroup, ...] = ()
    discard: Kind | None = None


@dataclass(frozen=True, slots=True)
class Answer(ByFields):
    """A partner's answer to "May I go out?"."""

    yes: bool


@dataclass(frozen=True, slots=True)
class Undo(ByFields):
    """Take back the last meld of this turn (never a draw, a pickup or a packet seen)."""


@dataclass(frozen=True, slots=True)
class Knock(ByFields):
    """End the turn without a discard, where the profile allows it."""


@dataclass(frozen=True, slots=True)
class PickUpKnee(ByFields):
    """Pick up one's Knee, once the side has completed a book (Hand, Knee & Foot)."""


@dataclass(frozen=True, slots=True)
class Stage(ByFields):
    """Action layer: put one card of ``kind`` aside for ``target``'s group ``slot``."""

    kind: Kind
    target: int
    slot: int = 0


@dataclass(frozen=True, slots=True)
class Confirm(ByFields):
    """Action layer: lay the staged cards as one :class:`Meld`."""


@dataclass(frozen=True, slots=True)
class ClearStaged(ByFields):
    """Action layer: put the staged cards back."""


Move = (Draw | Pickup | Meld | Discard | GoOut | Answer | Undo | Knock | PickUpKnee | Stage
        | Confirm | ClearStaged)
PlayerMove = Draw | Pickup | Meld | Discard | GoOut | Answer | Undo | Knock | PickUpKnee

# --- the integer action encoding -------------------------------------------------------

DRAW: Final = 0
PICKUP: Final = 1
CONFIRM: Final = 2
CLEAR: Final = 3
UNDO: Final = 4
ANSWER_YES: Final = 5
ANSWER_NO: Final = 6
KNOCK: Final = 7
GO_OUT: Final = 8
"""Go out melding the staged cards, with no final discard."""
GO_OUT_DISCARD: Final = 9
"""``GO_OUT_DISCARD + kind`` (kind 0..13): go out melding the staged cards, then discarding."""
DISCARD: Final = GO_OUT_DISCARD + RED_THREE
"""``DISCARD + kind`` (kind 0..13): discard a card of that kind."""
STAGE_NATURAL: Final = DISCARD + RED_THREE
"""``STAGE_NATURAL + rank * 2 + slot``: stage a natural of ``rank`` for its group ``slot``."""
STAGE_WILD: Final = STAGE_NATURAL + 11 * 2
"""``STAGE_WILD + ((w * 12) + target) * 2 + slot``: stage a wild (w = 0 two, 1 joker)."""
KNEE: Final = STAGE_WILD + 2 * NUM_TARGETS * 2
"""Pick up one's Knee."""
NUM_ACTIONS: Final = KNEE + 1
"""Size of the action space (108): the same for every profile."""


def encode_stage(kind: Kind, target: int, slot: int) -> ActionId:
    """The action id of a :class:`Stage`."""
    if kind <= cards.ACE:
        return STAGE_NATURAL + kind * 2 + slot
    w = 0 if kind == TWO else 1
    return STAGE_WILD + (w * NUM_TARGETS + target) * 2 + slot


def _decode(action: ActionId) -> Move:
    simple: dict[ActionId, Move] = {
        DRAW: Draw(), PICKUP: Pickup(), CONFIRM: Confirm(), CLEAR: ClearStaged(),
        UNDO: Undo(), ANSWER_YES: Answer(True), ANSWER_NO: Answer(False), KNOCK: Knock(),
        GO_OUT: GoOut(), KNEE: PickUpKnee(),
    }
    if action in simple:
        return simple[action]
    if action < DISCARD:
        return GoOut(discard=action - GO_OUT_DISCARD)
    if action < STAGE_NATURAL:
        return Discard(action - DISCARD)
    if action < STAGE_WILD:
        rank, slot = divmod(action - STAGE_NATURAL, 2)
        return Stage(rank, rank, slot)
    rest, slot = divmod(action - STAGE_WILD, 2)
    w, target = divmod(rest, NUM_TARGETS)
    return Stage(TWO if w == 0 else JOKER, target, slot)


_DECODED: Final[tuple[Move, ...]] = tuple(_decode(a) for a in range(NUM_ACTIONS))


def decode_action(action: ActionId) -> Move:
    """The move an action id stands for."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
    return _DECODED[action]


def action_name(action: ActionId) -> str:
    """A short description of an action id, for logs and debugging."""
    move = decode_action(action)
    if isinstance(move, Stage):
        where = "all-wild meld" if move.target == WILD_MELD else cards.KIND_PLURALS[move.target]
        extra = " (second meld)" if move.slot else ""
        return f"stage {cards.KIND_NAMES[move.kind]} for {where}{extra}"
    if isinstance(move, Pickup):
        return "pickup with staged cards"
    if isinstance(move, Confirm):
        return "meld staged cards"
    if isinstance(move, ClearStaged):
        return "clear staged cards"
    if isinstance(move, GoOut):
        tail = "" if move.discard is None else f", discarding {cards.KIND_NAMES[move.discard]}"
        return f"go out with staged cards{tail}"
    return format_move(move)


# --- notation -------------------------------------------------------------------------


class MoveSyntaxError(ValueError):
    """A move in the text notation could not be read."""


def format_group(group: MeldGroup) -> str:
    parts: list[str] = ["new"] if group.new else []
    if group.target != WILD_MELD:
        if not group.naturals:  # wilds alone for a rank's meld: name the rank
            parts.append(KIND_CODES[group.target] + ":")
        parts += [KIND_CODES[group.target]] * group.naturals
    parts += ["2"] * group.twos + ["JK"] * group.jokers
    return " ".join(parts)


def format_groups(groups: Sequence[MeldGroup]) -> str:
    return " | ".join(format_group(g) for g in groups)


def format_move(move: Move) -> str:
    """A move in the text notation."""
    match move:
        case Draw():
            return "draw"
        case Pickup(groups):
            return ("pickup " + format_groups(groups)).rstrip()
        case Meld(groups):
            return "meld " + format_groups(groups)
        case Discard(kind):
            return f"discard {KIND_CODES[kind]}"
        case GoOut(groups, discard):
            text = ("goout " + format_groups(groups)).rstrip()
            return text if discard is None else f"{text} discard {KIND_CODES[discard]}"
        case Answer(yes):
            return "yes" if yes else "no"
        case Undo():
            return "undo"
        case Knock():
            return "knock"
        case PickUpKnee():
            return "knee"
        case Stage(kind, target, slot):
            return f"stage {KIND_CODES[kind]} {target} {slot}"
        case Confirm():
            return "confirm"
        case ClearStaged():
            return "clear"
    raise TypeError(f"not a move: {move!r}")


def parse_group(text: str) -> MeldGroup:
    """Read one meld group: the cards of one natural rank plus wilds, or wilds only."""
    words = text.replace(":", ": ").split()
    if not words:
        raise MoveSyntaxError("an empty meld group: list its cards, like K K 2")
    rank: int | None = None
    naturals = twos = jokers = 0
    new = words[0].lower() == "new"
    if new:
        words = words[1:]
        if not words:
            raise MoveSyntaxError("'new' needs the cards of the new meld after it")
    if words[0].endswith(":"):  # "K: 2": the meld the group is for
        try:
            rank = cards.parse_kind(words[0][:-1])
        except CardError as exc:
            raise MoveSyntaxError(str(exc)) from None
        if rank not in cards.RANKS:
            raise MoveSyntaxError(
                f"{words[0]!r}: name a meld by its rank (4 to A), like K: 2")
        words = words[1:]
        if not words:  # no hand cards: at a pickup, the top card alone
            return MeldGroup(rank, new=new)
    for word in words:
        try:
            kind = cards.parse_kind(word)
        except CardError as exc:
            raise MoveSyntaxError(str(exc)) from None
        if kind == TWO:
            twos += 1
        elif kind == JOKER:
            jokers += 1
        elif kind in (cards.BLACK_THREE, RED_THREE):
            raise MoveSyntaxError(f"{word!r}: threes can never be melded")
        else:
            if rank is not None and kind != rank:
                raise MoveSyntaxError(
                    f"{text.strip()!r} mixes {cards.KIND_PLURALS[rank]} and "
                    f"{cards.KIND_PLURALS[kind]}: a meld holds one rank (use | between melds)")
            rank = kind
            naturals += 1
    return MeldGroup(WILD_MELD if rank is None else rank, naturals, twos, jokers, new)


def parse_groups(text: str) -> tuple[MeldGroup, ...]:
    text = text.strip()
    if not text:
        return ()
    return tuple(parse_group(part) for part in text.split("|"))


def parse_move(text: str) -> PlayerMove:
    """Read a player move in the notation (see the module docstring)."""
    words = text.strip().split(maxsplit=1)
    if not words:
        raise MoveSyntaxError("an empty move")
    verb = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    # the two-word spellings people type: "go out ...", "pick up ..."
    two = rest.split(maxsplit=1)
    if two and (verb, two[0].lower()) in (("go", "out"), ("pick", "up")):
        verb += two[0].lower()
        rest = two[1] if len(two) > 1 else ""
    simple: dict[str, PlayerMove] = {
        "draw": Draw(), "yes": Answer(True), "no": Answer(False), "undo": Undo(),
        "knock": Knock(), "knee": PickUpKnee(),
    }
    if verb in simple:
        if rest.strip():
            raise MoveSyntaxError(f"{verb!r} takes nothing after it")
        return simple[verb]
    if verb == "pickup":
        return Pickup(parse_groups(rest))
    if verb == "meld":
        groups = parse_groups(rest)
        if not groups:
            raise MoveSyntaxError("'meld' needs cards, like: meld K K K | 9 9 2")
        return Meld(groups)
    if verb == "discard":
        return Discard(_parse_one_kind(rest, "discard"))
    if verb in ("goout", "go-out"):
        lower = rest.lower()
        discard: int | None = None
        if "discard" in lower.split():
            idx = lower.split().index("discard")
            parts = rest.split()
            tail = parts[idx + 1:]
            if len(tail) != 1:
                raise MoveSyntaxError("'goout ... discard' names exactly one card after it")
            discard = _parse_one_kind(tail[0], "discard")
            rest = " ".join(parts[:idx])
        return GoOut(parse_groups(rest), discard)
    raise MoveSyntaxError(
        f"unknown move {words[0]!r}: use draw, pickup, meld, discard, goout, yes, no, undo,"
        " knock or knee")


def _parse_one_kind(text: str, verb: str) -> int:
    words = text.split()
    if len(words) != 1:
        raise MoveSyntaxError(f"'{verb}' names exactly one card, like: {verb} 5")
    try:
        kind = cards.parse_kind(words[0])
    except CardError as exc:
        raise MoveSyntaxError(str(exc)) from None
    return kind


assert NUM_KINDS == 15
