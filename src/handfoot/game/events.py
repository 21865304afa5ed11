"""What each committed move showed the table, and every move in a player's words.

An event has a public part (every seat and spectator) and a private part (the mover only),
made from the facts the commit noted (see docs/engine.md, "Events"). Every move has its
words here, for the events, the moves list and the hints of every front end: the past tense
("melded K K K 2 and joker onto the 9s") and advice ("meld K K K 2"), made from the move
itself (no front end reads the notation back to word a move).

>>> from handfoot.game.moves import parse_move
>>> move_words(parse_move("meld K K K 2 | 9: JK"))
'melded K K K 2 and joker onto the 9s'
>>> advice_words(parse_move("goout T T T discard 3"))
'go out: meld 10 10 10, then discard a black 3'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import JOKER, KIND_CODES, KIND_PLURALS, TWO
from handfoot.game.moves import (
    WILD_MELD,
    Answer,
    Discard,
    Draw,
    GoOut,
    Knock,
    Meld,
    MeldGroup,
    Move,
    Pickup,
    PickUpKnee,
    Undo,
    format_move,
)
from handfoot.game.values import HistoryEntry
from handfoot.game.wording import count_word, join

__all__ = ["a_kind", "advice_words", "event_parts", "group_words", "imperative", "kind_word",
           "laid_words", "move_words"]


# --- events -------------------------------------------------------------------------------

_EVENT_TYPES: Final[dict[type, str]] = {
    mv.Draw: "draw", mv.Pickup: "pickup", mv.Meld: "meld", mv.Discard: "discard",
    mv.GoOut: "go_out", mv.Answer: "answer", mv.Undo: "undo", mv.Knock: "knock",
    mv.PickUpKnee: "knee",
}


def _names(faces: Sequence[int]) -> list[str]:
    return [cards.face_name(f) for f in faces]


def event_parts(entry: HistoryEntry, facts: Sequence[tuple[Any, ...]],
                ) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The public and private parts of a move's event, from the facts its commit noted."""
    move, seat = entry.move, entry.seat
    public: dict[str, Any] = {"type": _EVENT_TYPES[type(move)], "seat": seat,
                              "round": entry.round_number}
    private: dict[str, Any] = {}
    asked = any(f[0] == "asked" for f in facts)
    if asked:
        public["asked"] = True  # "May I go out?": the plan is the asker's secret till then
        public["words"] = "asked to go out"
        private["notation"] = mv.format_move(move)
        private["words"] = move_words(move)
    else:
        public["notation"] = mv.format_move(move)
        public["words"] = move_words(move)
    if isinstance(move, mv.Answer):
        public["yes"] = move.yes
    melds: list[dict[str, Any]] = []
    seats: dict[int, dict[str, Any]] = {}  # what happened to each seat's packets

    def of(s: int) -> dict[str, Any]:
        if s not in seats:
            seats[s] = {"seat": s, "foot": False, "knee": False, "red_threes": [],
                        "replaced": 0}
        return seats[s]

    of(seat)
    drew: list[int] = []
    for fact in facts:
        match fact:
            case ("drew", _, faces):
                public["count"] = len(faces)
                drew.extend(faces)
            case ("took", top, rest):
                public["top"] = cards.face_name(top)
                public["taken"] = _names([top, *reversed(rest)])
            case ("melded", target, faces, new):
                melds.append({"target": "wild" if target == WILD_MELD else KIND_CODES[target],
                              "cards": _names(faces), "new": new})
            case ("packet", s, packet, faces):
                of(s)[packet] = True
                if s == seat:
                    private[packet] = _names(faces)
            case ("red3", s, face):
                of(s)["red_threes"].append(cards.face_name(face))
            case ("replaced", s, face):
                of(s)["replaced"] += 1
                if s == seat:
                    drew.append(face)
            case ("discarded", face):
                public["card"] = cards.face_name(face)
            case ("asked_for", asker, pending):
                public["going_out"] = asker  # every partner said yes: the asker goes out
                public["notation"] = mv.format_move(pending)
                public["going_out_words"] = move_words(pending)
            case ("returned", faces):
                public["cards"] = _names(faces)
            case ("ended", result, over):
                public["round_end"] = {
                    "round": result.round_number, "reason": result.reason,
                    "went_out": result.went_out,
                    "scores": [score.total for score in result.scores],
                    "totals": list(result.totals), "game_over": over}
    if isinstance(move, mv.Draw):
        public.setdefault("count", 0)  # the stock could not be drawn: the round ended
    if melds:
        public["melds"] = melds
        public["cards"] = [c for m in melds for c in m["cards"]]
    if drew:
        private["drew"] = _names(drew)
    mine = seats.pop(seat)
    for key in ("foot", "knee", "red_threes", "replaced"):
        public[key] = mine[key]
    if seats:
        public["others"] = list(seats.values())
    return public, private or None


# --- moves in words ---------------------------------------------------------------------


_KIND_WORDS: dict[str, str] = {"T": "10", "B3": "black 3", "R3": "red 3", "JK": "joker"}


def kind_word(kind: int) -> str:
    """A kind as people write it on a card: "K", "10", "2", "joker", "black 3"."""
    code = KIND_CODES[kind]
    return _KIND_WORDS.get(code, code)


def a_kind(kind: int) -> str:
    """"a 10", "an ace", "an 8", "a joker", "a black 3"."""
    word = "ace" if kind_word(kind) == "A" else kind_word(kind)
    return f"{'an' if word.startswith(('ace', '8')) else 'a'} {word}"


def group_words(group: MeldGroup) -> str:
    """One group of a meld: "K K K 2", "2 2 onto the kings", "9 9 9 (a new meld)"."""
    wild_codes = [kind_word(TWO)] * group.twos + [kind_word(JOKER)] * group.jokers
    if group.target != WILD_MELD and not group.naturals:
        # wild cards (or nothing: the pile's top card alone) for a rank's meld
        onto = f"onto the {KIND_PLURALS[group.target]}"
        return f"{' '.join(wild_codes)} {onto}" if wild_codes else f"the top card {onto}"
    naturals = [] if group.target == WILD_MELD else [kind_word(group.target)] * group.naturals
    text = " ".join(naturals + wild_codes)
    return f"{text} (a new meld)" if group.new else text


def _groups_words(groups: Sequence[MeldGroup]) -> str:
    return join(group_words(g) for g in groups)


def _counted(kind: int, n: int) -> str:
    """"a 4", "two 4s", "an ace"."""
    return a_kind(kind) if n == 1 else f"{count_word(n)} {KIND_PLURALS[kind]}"


def laid_words(group: MeldGroup) -> str:
    """A group laid on a meld already on the table, as a player says it: "a 4 on your 4s",
    "two 2s on your kings", "a 4 with a joker on your 4s"."""
    wilds = join(_counted(k, n) for k, n in ((TWO, group.twos), (JOKER, group.jokers)) if n)
    what = wilds
    if group.target != WILD_MELD and group.naturals:
        what = _counted(group.target, group.naturals) + (f" with {wilds}" if wilds else "")
    where = "meld of wild cards" if group.target == WILD_MELD else KIND_PLURALS[group.target]
    return f"{what} on your {where}"


def _melded_words(groups: Sequence[MeldGroup], starts: Sequence[bool] | None) -> str:
    """Groups melded: "melded 9 9 9", or with ``starts`` (which groups started a meld, as
    the move's commit noted) "melded 9 9 9 and laid a 4 on your 4s"."""
    if starts is None or len(starts) != len(groups):
        return f"melded {_groups_words(groups)}"
    new = [g for g, s in zip(groups, starts, strict=True) if s]
    laid = [g for g, s in zip(groups, starts, strict=True) if not s]
    parts = [f"melded {_groups_words(new)}"] if new else []
    if laid:
        each = [laid_words(g) for g in laid]
        # "a 2 and a joker on your meld of wild cards; two kings on your kings"
        parts.append("laid " + ("; ".join(each) if any(" and " in w for w in each)
                                else join(each)))
    return " and ".join(parts) if len(parts) < 2 or len(laid) < 2 else "; ".join(parts)


def move_words(move: Move, starts: Sequence[bool] | None = None) -> str:
    """A move in the past tense, as the moves list says it: "drew from the stock",
    "took the pile: K K with the top card", "discarded a 7", "went out: melded 9 9 9, then
    discarded a 4".

    ``starts``: for each of the move's meld groups, whether it started a new meld (the
    ``new`` of its event's ``melds``); with it, a group laid on a meld already on the table
    is said so ("laid a 4 on your 4s and a J on your jacks"), never as if it were a meld of
    its own. Without it the words come from the move alone.

    >>> from handfoot.game.moves import parse_move
    >>> move_words(parse_move("meld 4 | J"), starts=[False, False])
    'laid a 4 on your 4s and a J on your jacks'
    >>> move_words(parse_move("meld 9 9 9 | 4"), starts=[True, False])
    'melded 9 9 9 and laid a 4 on your 4s'
    """
    match move:
        case Draw():
            return "drew from the stock"
        case Pickup(groups):
            if not groups:
                return "took the pile"
            first = group_words(groups[0])
            if "onto the" not in first:
                first += " with the top card"
            more = f"; {_melded_words(groups[1:], None if starts is None else starts[1:])}" \
                if len(groups) > 1 else ""
            return f"took the pile: {first}{more}"
        case Meld(groups):
            return _melded_words(groups, starts)
        case Discard(kind):
            return f"discarded {a_kind(kind)}"
        case GoOut(groups, discard):
            parts = [_melded_words(groups, starts)] if groups else []
            if discard is not None:
                parts.append(f"discarded {a_kind(discard)}")
            return "went out" + (f": {', then '.join(parts)}" if parts else "")
        case Answer(yes):
            return f"answered {'yes' if yes else 'no'}"
        case Undo():
            return "took back a meld"
        case Knock():
            return "knocked"
        case PickUpKnee():
            return "picked up the Knee"
    return format_move(move)  # staging actions are not played moves: their notation


_ADVICE: tuple[tuple[str, str], ...] = (
    ("drew from", "draw from"), ("took the pile", "take the pile"), ("melded", "meld"),
    ("discarded", "discard"), ("went out", "go out"), ("answered", "answer"),
    ("took back", "take back"), ("knocked", "knock"), ("picked up", "pick up"),
    ("laid", "lay"))


def imperative(words: str) -> str:
    """:func:`move_words`' past tense made advice: "laid a 4 on your 4s" → "lay a 4 on
    your 4s"."""
    for past, now in _ADVICE:
        words = words.replace(past, now)
    return words


def advice_words(move: Move) -> str:
    """A move as advice, in the imperative (the hint): "meld K K K 2", "discard a 7",
    "take the pile: K K with the top card"."""
    return imperative(move_words(move))
