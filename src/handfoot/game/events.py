"""What each committed move showed the table: an event's public part (every seat and
spectator) and its private part (the mover only), made from the facts the commit noted, with
the move in a player's words (see docs/engine.md, "Events")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import (
    KIND_CODES,
)
from handfoot.game.moves import WILD_MELD
from handfoot.game.values import HistoryEntry
from handfoot.game.wording import move_words

__all__ = ["event_parts"]


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
