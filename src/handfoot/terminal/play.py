"""Playing a game against bots in the terminal (``handfoot play``).

:class:`TerminalGame` runs one game in which one seat is a person (or two or more people
sharing the keyboard, "pass and play"). A person types moves in the notation of
:mod:`handfoot.game.moves` (``draw``, ``meld K K K | 9 9 2``, ``discard 5``, ...) or a command
(``help``, ``hint``, ``legal``, ``show``, ``quit``); the other seats are bots whose moves are
announced one line each.

Everything shown to a person is drawn from their seat's
:class:`~handfoot.game.values.PlayerView` (the renderers below take a view, never the state), so
no hidden card can reach the screen. Input and output are injected (an input function and a
Rich :class:`~rich.console.Console`), so a game can be scripted in tests.

A game left with ``quit`` (after a yes), Ctrl-C or the end of input is saved as a game
record when a save file is given; :func:`resume_state` plays such a record back to the
position it was left in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import BOTS, make_bot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import JOKER_FACE, KIND_NAMES, KIND_PLURALS, RANKS, CardError
from handfoot.game.engine import GameState
from handfoot.game.moves import WILD_MELD, MoveSyntaxError, format_groups, parse_move
from handfoot.game.record import (
    GameRecord,
    RecordError,
    record_from_state,
    replay,
    to_json,
)
from handfoot.game.rules import Layout, Profile
from handfoot.game.table import BookKind, opening_minimum, opens_with_clean_book
from handfoot.game.values import IllegalMoveError, Phase, PlayerView, RoundResult, TableMeld
from handfoot.runs.sim import HINT_BOT, derive_seed
from handfoot.runs.sim import hint as sim_hint
from handfoot.terminal.breakdown import BreakdownRow, breakdown_text
from handfoot.terminal.meldable import meldable
from handfoot.terminal.review import costliest_lines
from handfoot.terminal.saves import SaveFile, write_atomically

__all__ = [
    "ASCII",
    "CLEAR_SCREEN",
    "HELP_TEXT",
    "HINT_BOT",
    "HUMAN",
    "UNICODE",
    "SeatError",
    "Symbols",
    "TerminalGame",
    "best_bot",
    "card_text",
    "hand_text",
    "hint_bot",
    "legal_lines",
    "meld_text",
    "parse_seats",
    "render_view",
    "resume_state",
    "symbols_for",
    "table_text",
]

CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"
"""Home, erase the screen, erase the scrollback: between two people's turns."""

HUMAN = "you"
"""The seat name that marks a person in ``--seats``."""

BOT_PREFERENCE = ("hard", "normal", "easy", "random")
"""Bots from strongest to weakest; the first one available is the default opponent."""

HELP_TEXT = """\
Moves (cards are kinds: 4-10, J, Q, K, A, 2, JK for a joker, B3 for a black 3;
suits never matter, so 5 and 5D are the same move):
  draw                      take cards from the stock
  pickup K K 2 | A A A      take the discard pile; the top card joins the
                            first group of its rank (pickup K: alone melds
                            the top card by itself)
  meld K K K | 9 9 2        lay or add to melds, all at once; "|" separates
                            melds
  meld K: 2                 add wild cards alone to your kings
  meld new K K K            start a second meld of kings (once one is a book)
  meld JK JK 2              wilds alone make an all-wild meld (where allowed)
  discard 5                 discard a card of that kind; ends your turn
  goout 9 9 | Q discard B3  go out: meld the groups, then discard (or no
                            discard); with partners this asks them first
  yes / no  (or y / n)      answer your partner's "May I go out?"
  undo                      take back your last meld this turn
  knock                     end your turn without a discard (where allowed)
  knee                      pick up your Knee (Hand, Knee & Foot)
Commands:
  help    this guide            legal   what you can do now
  hint    what hard would do    show    the table again
  quit    leave the game (it is saved; --resume FILE continues it)"""


class SeatError(ValueError):
    """A ``--seats`` value that makes no sense."""


def best_bot() -> str:
    """The strongest bot available in :data:`handfoot.bots.registry.BOTS`."""
    for name in BOT_PREFERENCE:
        if name in BOTS:
            return name
    return next(iter(BOTS))


def hint_bot() -> str:
    """The bot that gives hints: :data:`handfoot.runs.sim.HINT_BOT`."""
    return HINT_BOT


def parse_seats(text: str | None, players: int, *, people: int = 1) -> list[str]:
    """``"you,easy,easy,easy"`` as one name per seat.

    Exactly one seat is :data:`HUMAN`, or with ``people=0`` at least one (pass and play:
    people share the keyboard). Without a value the person sits in seat 1 and every other
    seat gets :func:`best_bot`.
    """
    if text is None:
        return [HUMAN] + [best_bot()] * (players - 1)
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    unknown = [s for s in seats if s != HUMAN and s not in BOTS]
    if unknown:
        raise SeatError(f"--seats: unknown bot {unknown[0]!r}: choose from "
                        f"{', '.join(BOTS)} (and {HUMAN!r} for your seat)")
    humans = seats.count(HUMAN)
    if people and humans != people:
        raise SeatError(f"--seats: exactly one seat must be {HUMAN!r}, not {humans} "
                        "(two people at one keyboard: add --pass-and-play)"
                        if humans > 1 else
                        f"--seats: exactly one seat must be {HUMAN!r}, not {humans}")
    if not people and humans < 1:
        raise SeatError(f"--seats: at least one seat must be {HUMAN!r}")
    if len(seats) != players:
        raise SeatError(f"--seats: this table has {players} seats, not {len(seats)} "
                        f"(e.g. {','.join([HUMAN] + [best_bot()] * (players - 1))})")
    return seats


# --- symbols: Unicode where the terminal can show it, ASCII otherwise ------------------


@dataclass(frozen=True, slots=True)
class Symbols:
    """The characters the screen draws with: suits (clubs, diamonds, hearts, spades), the
    bar between kinds in a hand, the turn marker and the separator dot."""

    suits: str
    bar: str
    turn: str
    dot: str


UNICODE = Symbols("♣♦♥♠", "│", "▶", "·")
ASCII = Symbols("CDHS", "|", ">", "-")
_TO_ASCII = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S", "│": "|", "▶": ">",
                           "·": "-", "×": "x", "–": "-", "—": "-", "µ": "u"})


def symbols_for(encoding: str | None) -> Symbols:
    """:data:`UNICODE` when ``encoding`` can write every symbol, else :data:`ASCII`.

    >>> symbols_for("utf-8") is UNICODE, symbols_for("cp1252") is ASCII
    (True, True)
    """
    s = UNICODE
    try:
        (s.suits + s.bar + s.turn + s.dot).encode(encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return ASCII
    return UNICODE


# --- rendering: from a PlayerView only -------------------------------------------------


def _label(face: int, sym: Symbols = UNICODE) -> str:
    """A face for the screen: ``K♠``, ``10♦`` (``KS``, ``10D`` in ASCII), ``JK``."""
    if face == JOKER_FACE:
        return "JK"
    suit, rank = divmod(face, 13)
    ch = cards.RANK_CHARS[rank]
    return ("10" if ch == "T" else ch) + sym.suits[suit]


def _code(kind: int) -> str:
    """A kind as a person types it: ``K``, ``10``, ``JK``, ``B3``."""
    return "10" if kind == cards.TEN else cards.KIND_CODES[kind]


def notation(text: str) -> str:
    """Move notation as shown to people: tens as ``10`` (the parser reads both).

    >>> notation("meld T T T | K: 2")
    'meld 10 10 10 | K: 2'
    """
    return re.sub(r"\bT\b", "10", text)


def card_text(face: int, sym: Symbols = UNICODE) -> Text:
    """One card, red for hearts and diamonds: ``K♠``, ``10♦``, ``JK``."""
    label = _label(face, sym)
    red = face != JOKER_FACE and cards.SUITS[face // 13] in "DH"
    return Text(label, style="red" if red else ("magenta" if face == JOKER_FACE else ""))


def _kind_order(kind: int) -> int:
    """Hand order: aces down to 4s, then 2s, jokers, black 3s, red 3s."""
    if kind in RANKS:
        return cards.ACE - kind
    return kind


def hand_text(hand: Sequence[int], sym: Symbols = UNICODE) -> Text:
    """Cards grouped by kind, highest first: ``K♠ K♦ K♥ │ 9♣ 9♦ │ 2♣ │ JK``."""
    groups: dict[int, list[int]] = {}
    for face in sorted(hand):  # clubs, diamonds, hearts, spades within a kind
        groups.setdefault(cards.FACE_KIND[face], []).append(face)
    out = Text()
    for i, kind in enumerate(sorted(groups, key=_kind_order)):
        if i:
            out.append(f" {sym.bar} ", style="dim")
        for j, face in enumerate(groups[kind]):
            if j:
                out.append(" ")
            out.append_text(card_text(face, sym))
    if not hand:
        out.append("(no cards)", style="dim")
    return out


def meld_text(meld: TableMeld, book_size: int, sym: Symbols = UNICODE) -> Text:
    """A meld as its rank and size, ``dirty`` once it holds a wild card: ``K 3/7``,
    ``9 5/7 dirty``, ``wild 3/7`` (suits never matter); a book: ``kings: clean book (7)``."""
    kind = meld.book_kind(book_size)
    if kind is not None:
        what = "all-wild" if meld.target == WILD_MELD else KIND_PLURALS[meld.target]
        out = Text(what, style="bold")
        out.append(": ")
        out.append(_BOOK_NAMES[kind], style=_BOOK_STYLES[kind])
        out.append(f" ({meld.size}" + (f", {meld.wilds} wild" if kind == BookKind.DIRTY
                                       else "") + ")")
        return out
    out = Text("wild" if meld.target == WILD_MELD else _code(meld.target), style="bold")
    out.append(f" {meld.size}/{book_size}")
    if meld.wilds and meld.target != WILD_MELD:
        out.append(" dirty", style="yellow")
    return out


_BOOK_NAMES = {BookKind.CLEAN: "clean book", BookKind.DIRTY: "dirty book",
               BookKind.WILD: "all-wild book"}
_BOOK_STYLES = {BookKind.CLEAN: "green", BookKind.DIRTY: "yellow", BookKind.WILD: "cyan"}


def table_text(melds: Sequence[TableMeld], book_size: int, sym: Symbols = UNICODE) -> Text:
    """A side's table in one line, by rank from aces down: its books by kind, then its
    unfinished melds: ``clean books: K 8 · dirty books: 9 · melds: Q 3/7 · 5 4/7 dirty``.
    """
    d = f" {sym.dot} "
    ordered = sorted(melds, key=_meld_order)
    out = Text()
    for kind in (BookKind.CLEAN, BookKind.DIRTY, BookKind.WILD):
        books = [m for m in ordered if m.book_kind(book_size) == kind]
        if not books:
            continue
        if out:
            out.append(d)
        if kind == BookKind.WILD:
            out.append(f"all-wild book{'s' * (len(books) > 1)}", style=_BOOK_STYLES[kind])
            out.append(f": {len(books)}" if len(books) > 1 else "")
        else:
            out.append(f"{_BOOK_NAMES[kind]}s:", style=_BOOK_STYLES[kind])
            out.append(" " + " ".join(_code(m.target) for m in books))
    unfinished = [m for m in ordered if m.book_kind(book_size) is None]
    for i, meld in enumerate(unfinished):
        if out:
            out.append(d)
        if i == 0:
            out.append("melds: ")
        out.append_text(meld_text(meld, book_size, sym))
    if not out:
        out.append("no melds", style="dim")
    return out


class _Flow:
    """A line of items that wraps only between items, never inside one: on a narrow
    terminal ``Q 4/7`` or ``K♦ K♥`` stays whole and the next line starts indented.

    ``text`` holds the items joined by ``sep``; each line after the first starts with
    ``indent`` spaces.
    """

    def __init__(self, text: Text, sep: str, indent: int = 4, sep_style: str = "") -> None:
        self.text = text
        self.sep = sep
        self.indent = indent
        self.sep_style = sep_style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line = Text()
        for item in self.text.split(self.sep, allow_blank=True):
            item.end = ""
            if line.plain.strip() and line.cell_len + len(self.sep) + item.cell_len > width:
                yield line
                line = Text(" " * self.indent)
            elif line.plain.strip():
                line.append(self.sep, style=self.sep_style)
            line.append_text(item)
        yield line


def _meld_order(meld: TableMeld) -> int:
    """Table order: aces down to 4s, then the all-wild meld."""
    return _kind_order(meld.target) if meld.target != WILD_MELD else 99


def melded_points(view: PlayerView, side: int) -> int:
    """The card value of what a side has melded this round (bonuses come at scoring)."""
    values = view.profile.kind_values
    return sum(values[cards.FACE_KIND[f]] for m in view.melds[side] for f in m.faces)


def _plural(n: int, word: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _opening_minimum(view: PlayerView, side: int) -> int | None:
    """A side's opening minimum this round, or None when opening needs a clean book."""
    if opens_with_clean_book(view.profile, view.round_number):
        return None
    return opening_minimum(view.profile, view.round_number, view.totals[side])


def short_name(name: str) -> str:
    """``"Seat 2 (easy)"`` as ``"easy 2"``, for side names and score tables."""
    if name.startswith("Seat ") and name.endswith(")") and " (" in name:
        number, bot = name[5:-1].split(" (", 1)
        return f"{bot} {number}"
    return name


def _side_name(side: int, names: Sequence[str], view: PlayerView) -> str:
    members = [short_name(names[s]) for s in range(view.players) if s % view.sides == side]
    if len(members) == 1:  # a player on their own is named, not numbered
        return members[0]
    return f"Side {side + 1} ({', '.join(members)})"


def _status_line(view: PlayerView, names: Sequence[str]) -> str:
    if view.phase == Phase.GAME_OVER:
        return "The game is over."
    if view.to_act != view.seat:
        return f"{names[view.to_act]} to play."
    if view.phase == Phase.ANSWER:
        asker = view.asking if view.asking is not None else view.turn
        return f"{names[asker]} asks: may I go out? Answer yes or no."
    if view.phase == Phase.DRAW:
        return "Your turn: draw, or take the pile: pickup ..."
    return "Your turn: meld, then discard (or go out)."


def _seat_cards(view: PlayerView, s: int) -> str:
    """What a seat holds, in words: ``13 in Hand, Foot 11``, ``7 in Foot``."""
    has_knee = view.profile.knee_size > 0
    if view.in_foot[s]:
        return f"{view.hand_counts[s]} in Foot"
    parts = [f"{view.hand_counts[s]} in Hand"]
    if has_knee:
        parts.append(f"Knee {view.knee_counts[s]}" if view.knee_counts[s] else "Knee taken")
    parts.append(f"Foot {view.foot_counts[s]}")
    return ", ".join(parts)


def render_view(view: PlayerView, names: Sequence[str], sym: Symbols = UNICODE,
                ) -> RenderableType:
    """Everything ``view.seat`` may see, compactly (it fits an 80×24 terminal with the
    last moves above it): per side its score, players and melds (sorted by rank), then the
    pile, the stock and the seat's own hand.

    ``names`` are the seats' display names (``"you"``, ``"Seat 2 (easy)"``).
    """
    p = view.profile
    d = f" {sym.dot} "
    parts: list[RenderableType] = []
    title = Text(f"Round {view.round_number} of {view.rounds}", style="bold")
    title.append(f"{d}{p.name}{d}", style="dim")
    title.append(_status_line(view, names), style="bold cyan")
    parts.append(_Flow(title, d))

    for side in range(view.sides):
        seats = [s for s in range(view.players) if s % view.sides == side]
        head = Text(f"Side {side + 1}", style="bold")
        if len(seats) == 1:  # a player on their own: one line (eight players fit 80×24)
            s = seats[0]
            head = Text(f"{sym.turn} " if s == view.turn else "  ")
            head.append(names[s], style="bold")
        head.append(f": {view.totals[side]}")
        minimum = _opening_minimum(view, side)
        if view.opened[side]:
            head.append(f"{d}opened", style="green")
        elif minimum is None:
            head.append(f"{d}not opened (opens with a clean book)")
        else:
            head.append(f"{d}not opened (needs {minimum})")
        if view.opened[side] or melded_points(view, side):  # else it is 0
            head.append(f"{d}melded {melded_points(view, side)} this round")
        if view.red_threes[side]:
            head.append(f"{d}{_plural(len(view.red_threes[side]), 'red 3')}")
        if len(seats) == 1:  # cards and melds on the same flowing line
            head.append(f"{d}{_seat_cards(view, seats[0])}")
            if view.melds[side]:
                head.append(d)
                head.append_text(table_text(view.melds[side], p.book_size, sym))
            parts.append(_Flow(head, d))
            continue
        parts.append(_Flow(head, d))
        who = Text("  ")
        for i, s in enumerate(seats):
            if i:
                who.append(d)
            who.append(f"{sym.turn} " if s == view.turn else "")
            who.append(names[s], style="bold" if s == view.seat else "")
            who.append(f": {_seat_cards(view, s)}")
        parts.append(_Flow(who, d))
        parts.append(_Flow(Text("  ") + table_text(view.melds[side], p.book_size, sym), d))

    table = Text("Pile: ")
    if view.discard_top is None:
        table.append("empty")
    else:
        table.append_text(card_text(view.discard_top, sym))
        table.append(f" on top, {_plural(view.discard_size, 'card')}")
        taken = view.pickup_size
        if taken != view.discard_size:
            table.append(f" (a pickup takes {taken})")
    table.append(f"{d}Stock: {view.stock_size}")
    stall_limit = p.stalled_turns_each
    if stall_limit is not None and view.stalled_turns >= view.players:
        left = max(stall_limit * view.players - view.stalled_turns, 0)
        table.append(f"{d}the round ends in {_plural(left, 'turn')} unless someone draws "
                     "or lays a card", style="bold")
    parts.append(_Flow(table, d))

    where = "Foot" if view.in_foot[view.seat] else "hand"
    mine = Text(f"Your {where} ({len(view.hand)}): ", style="bold")
    mine.append_text(hand_text(view.hand, sym))
    parts.append(_Flow(mine, f" {sym.bar} ", indent=2, sep_style="dim"))
    return Group(*parts)


def _pickup_candidates(view: PlayerView) -> list[str]:
    """Pickups to suggest, from the cards the seat holds: ``pickup 5 5``, ``pickup 5 2``."""
    if view.discard_top is None:
        return []
    kind = cards.FACE_KIND[view.discard_top]
    if kind not in RANKS:
        return []
    counts = cards.kind_counts(view.hand)
    code = _code(kind)
    wild = "2" if counts[cards.TWO] else ("JK" if counts[cards.JOKER] else None)
    out = []
    for n in (2, 3, 4, 5, 6):
        if counts[kind] >= n:
            out.append("pickup " + " ".join([code] * n))
    if wild is not None and counts[kind] >= 1:
        out.append(f"pickup {code} {wild}")
    out.append(f"pickup {code}:")
    return out


def legal_lines(view: PlayerView, is_legal: Callable[[mv.Move], bool] | None = None,
                ) -> list[str]:
    """What the seat can do now, in words (empty when it is not its turn).

    ``is_legal`` (the engine's check, where the caller has it) picks a pickup example that
    works, and the ranks listed as meldable are those of melds it accepts
    (:func:`~handfoot.terminal.meldable.meldable`); without it the example only uses cards
    the seat holds and the ranks are those a card of which may be staged.
    """
    legal = set(view.legal_actions)
    if not legal:
        return []
    out: list[str] = []
    if view.phase == Phase.ANSWER:
        return ["yes (or y): let your partner go out",
                "no (or n): ask your partner to keep playing"]
    if mv.KNEE in legal:
        out.append("knee: pick up your Knee")
    if mv.DRAW in legal:
        out.append(f"draw: take {_plural(view.profile.draw_count, 'card')} from the stock")
    naturals = sorted({(a - mv.STAGE_NATURAL) // 2 for a in legal
                       if mv.STAGE_NATURAL <= a < mv.STAGE_WILD})
    wild_targets = sorted({((a - mv.STAGE_WILD) // 2) % mv.NUM_TARGETS for a in legal
                           if mv.STAGE_WILD <= a < mv.KNEE})
    if view.phase == Phase.DRAW and view.discard_top is not None and (
            mv.PICKUP in legal or naturals or wild_targets):
        examples = _pickup_candidates(view)
        if is_legal is not None:
            examples = [e for e in examples if is_legal(parse_move(e))]
        top = _label(view.discard_top)
        taken = view.pickup_size
        whole = "" if taken == view.discard_size else f" of {view.discard_size}"
        if examples:
            out.append(f"pickup ...: take the pile ({_plural(taken, 'card')}{whole}, {top} "
                       "on top), melding the top card with cards from your hand, e.g. "
                       + examples[0])
        elif is_legal is None or mv.PICKUP in legal:
            out.append(f"pickup ...: take the pile ({_plural(taken, 'card')}{whole}, {top} "
                       "on top) if you can meld its top card (with the rest of an opening "
                       "when your side has not opened)")
    if view.phase == Phase.PLAY and is_legal is not None:
        can = meldable(view, is_legal)
        naturals = list(can.ranks)
        wild_targets = list(can.wilds_onto) + ([WILD_MELD] if can.all_wild else [])
    if view.phase == Phase.PLAY and (naturals or wild_targets):
        ranks = ", ".join(KIND_PLURALS[r] for r in naturals)
        text = "meld ...: you can meld"
        text += f" {ranks}" if ranks else ""
        wild_onto = [KIND_PLURALS[t] for t in wild_targets if t != WILD_MELD]
        if wild_onto:
            text += f"{';' if ranks else ''} wilds onto {', '.join(wild_onto)}"
        if WILD_MELD in wild_targets:
            text += " (or an all-wild meld)"
        out.append(text)
    if mv.UNDO in legal:
        out.append("undo: take back your last meld")
    goes = sorted(a - mv.GO_OUT_DISCARD for a in legal
                  if mv.GO_OUT_DISCARD <= a < mv.DISCARD)
    if mv.GO_OUT in legal:
        out.append("goout: go out now")
    if goes:
        out.append("goout discard X: go out now, discarding one of: "
                   + ", ".join(_code(k) for k in goes))
    elif view.phase == Phase.PLAY and view.in_foot[view.seat]:
        out.append("goout GROUPS [discard X]: go out once your melds can use your cards "
                   "and your side has the books")
    if mv.KNOCK in legal:
        out.append("knock: end your turn without discarding")
    discards = sorted(a - mv.DISCARD for a in legal if mv.DISCARD <= a < mv.STAGE_NATURAL)
    if discards:
        out.append("discard X: end your turn; X is one of "
                   + ", ".join(_code(k) for k in sorted(discards, key=_kind_order)))
    return out


def _typed_faces(line: str) -> list[int]:
    """The full cards (with a suit) a person typed in a move: ``discard 5D`` gives 5♦."""
    out = []
    for word in re.split(r"[\s|:,]+", line)[1:]:
        upper = word.upper()
        if upper in ("JK", "JOKER", "B3", "R3", "NEW", "DISCARD") or len(upper) < 2:
            continue
        try:
            out.append(cards.parse_face(word))
        except CardError:
            continue
    return out


def resume_state(record: GameRecord) -> GameState:
    """The game a saved record was left in, played back move by move.

    Raises :class:`~handfoot.game.record.RecordError` when a move does not replay or the game
    is already over.
    """
    result = replay(record)
    if result.error is not None:
        raise RecordError(f"the saved game does not replay: {result.error.message}")
    if result.game_over:
        raise RecordError("that game is over: there is nothing to resume "
                          "(handfoot replay FILE shows its scores)")
    return result.state


# --- the game --------------------------------------------------------------------------


InputFn = Callable[[str], str]

YES = ("y", "yes")
NO = ("n", "no")


class TerminalGame:
    """One game with a person in one seat (or people in several: pass and play) and bots
    in the others.

    ``seats`` names each seat: :data:`HUMAN` for a person, bot names from
    :data:`handfoot.bots.registry.BOTS` elsewhere. ``read`` is called with a prompt and returns a
    line (raising :class:`EOFError` at the end of input, which leaves the game); all
    output goes to ``console``. ``state`` continues a game (see :func:`resume_state`);
    ``save_to`` is where a game left unfinished is saved (None: not saved; a path is
    this game's file to rewrite; a :class:`~handfoot.terminal.saves.SaveFile` may pick a
    free name instead).
    With ``pause`` the game waits for Enter between rounds (and, with several people,
    before showing the next person's hand). ``command`` is how the person started the
    game, for the line that says how to continue it (``scripts/play`` runs ``handfoot play``
    with ``HANDFOOT_PLAY_COMMAND=scripts/play``, since ``handfoot`` may not be on the path).
    """

    def __init__(self, profile: Profile, layout: Layout, seats: Sequence[str], seed: int,
                 read: InputFn, console: Console, *, state: GameState | None = None,
                 save_to: str | Path | SaveFile | None = None, pause: bool = True,
                 symbols: Symbols | None = None, command: str = "handfoot play") -> None:
        seats = list(seats)
        if seats.count(HUMAN) < 1:
            raise SeatError(f"at least one seat must be {HUMAN!r}")
        if len(seats) != layout.players:
            raise SeatError(f"{len(seats)} seats for a table of {layout.players}")
        self.profile = profile
        self.layout = layout
        self.seats = seats
        self.seed = seed
        self.people = [s for s, name in enumerate(seats) if name == HUMAN]
        self.human = self.people[0]
        self.read = read
        self.console = console
        self.sym = symbols if symbols is not None else symbols_for(console.encoding)
        self.save_to = (SaveFile(save_to, own=True) if isinstance(save_to, (str, Path))
                        else save_to)
        self.pause = pause
        self.command = command
        several = len(self.people) > 1
        self.names = [(f"Seat {s + 1} (you)" if several else "you") if name == HUMAN
                      else f"Seat {s + 1} ({name})" for s, name in enumerate(seats)]
        self.bots: dict[int, Bot] = {
            s: make_bot(name, derive_seed(seed, "play-bot", s))
            for s, name in enumerate(seats) if name != HUMAN}
        self.state = state if state is not None else GameState.new(profile, layout=layout,
                                                                    seed=seed)
        self.record_names = [("you" if not several else f"person {s + 1}") if n == HUMAN
                             else f"{n} {s + 1}" for s, n in enumerate(seats)]
        self._shown_results = len(self.state.results)
        self._dirty = True
        self._suit_note = False
        self.quit = False
        self._hints = 0
        self._turn_lines: list[str] = []
        self._turn_seat: int | None = None

    # --- output ----------------------------------------------------------------------

    def say(self, text: str | Text, style: str | None = None) -> None:
        if self.sym is ASCII:  # a terminal that cannot show every character
            enc = self.console.encoding or "ascii"
            plain = (text.plain if isinstance(text, Text) else text).translate(_TO_ASCII)
            text = plain.encode(enc, "replace").decode(enc)
        self.console.print(text, style=style, markup=False, highlight=False)

    def view(self, seat: int | None = None) -> PlayerView:
        """A person's view (the one to act, by default): all the screen ever shows."""
        return self.state.view(self._person() if seat is None else seat)

    def _person(self) -> int:
        """The person whose view the screen shows: the one to act, or the last to."""
        if self.state.to_act in self.people:
            self.human = self.state.to_act
        return self.human

    def show(self) -> None:
        self.console.print()
        self.console.print(render_view(self.view(), self._names(), self.sym))

    def _names(self) -> list[str]:
        if len(self.people) == 1:
            return self.names
        me = self._person()
        return ["you" if s == me else n for s, n in enumerate(self.names)]

    def _name(self, seat: int) -> str:
        return "You" if seat == self._person() else self.names[seat]

    # --- the loop ----------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end; 0 when the game finished, 1 when the person left it."""
        p = self.profile
        self.say(f"{p.title} ({p.name}), {self.layout.describe()}, seed {self.seed}",
                 style="bold")
        if self.layout.seats_per_side == 1:  # players on their own: no sides to name
            self.say(f"  Players in turn: {', '.join(self.names)}")
        for side in range(self.layout.sides if self.layout.seats_per_side > 1 else 0):
            members = ", ".join(self.names[s] for s in self.layout.seats_of(side))
            self.say(f"  Side {side + 1}: {members}")
        if self.state.moves_played:
            self.say(f"Resumed in round {self.state.round_number} after "
                     f"{_plural(self.state.moves_played, 'move')}.")
        self.say("Type help for the move notation, legal for what you can do, "
                 "hint for advice, quit to leave"
                 + (" (your game is saved)." if self.save_to is not None else "."))
        self._last_person: int | None = None  # pass and play: even the first turn waits
        self._report_rounds()
        try:
            while not self.state.is_over and not self.quit:
                if self.state.to_act in self.people:
                    self._pass_keyboard()
                    if not self.quit:
                        self._human_step()
                else:
                    self._bot_step(self.state.to_act)
                self._report_rounds()
        except KeyboardInterrupt:
            self.console.print()
            self.quit = True
        if self.quit:
            self._save_on_leaving()
            return 1
        self._flush()
        self._report_winner()
        self._after_game()
        return 0

    def _after_game(self) -> None:
        """``review``: each person's three costliest decisions; anything else leaves."""
        self.say("Type review to see your three costliest decisions, or press Enter to leave.")
        try:
            lines: dict[int, list[str]] = {}  # a review asked for again is not redone
            while self.read("> ").strip().lower() == "review":
                for seat in self.people:
                    who = "your" if len(self.people) == 1 else f"{self.names[seat]}'s"
                    if seat not in lines:
                        self.say(f"Reviewing {who} decisions...")
                        lines[seat] = costliest_lines(self.record(), seat, who=who)
                    for line in lines[seat]:
                        self.say(line)
        except (EOFError, KeyboardInterrupt):
            self.console.print()

    def _save_on_leaving(self) -> None:
        self._flush()
        if self.save_to is None:
            self.say("You left the game.")
            return
        saved = self.save_to.write(to_json(self.record()))  # never over another game
        self.say(f"You left the game. It is saved in {saved}; continue it with:")
        self.say(f"  {self.command} --resume {saved}")

    def _ask(self, prompt: str) -> bool | None:
        """A yes/no question: True, False, or None at the end of input."""
        while True:
            try:
                answer = self.read(prompt).strip().lower()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return None
            if answer in YES:
                return True
            if answer in NO:
                return False
            self.say("Please answer y or n.")

    def _pass_keyboard(self) -> None:
        """With several people: hide the last one's hand and wait for the next to sit
        (before the first turn too, and the first turn of a resumed game)."""
        seat = self.state.to_act
        if len(self.people) == 1 or seat == self._last_person:
            return
        if self._last_person is not None:
            self._clear_screen()
        try:
            self.read(f"Pass the keyboard to {self.names[seat]}, then press Enter ")
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            self.quit = True
            return
        self._last_person = seat
        self._dirty = True

    def _clear_screen(self) -> None:
        """Clear the screen and its scrollback (``clear``'s codes: home, erase the screen,
        erase the saved lines), so the last person's hand cannot be scrolled back to."""
        self.console.file.write(CLEAR_SCREEN)
        self.console.file.flush()

    def _human_step(self) -> None:
        self._flush()
        if self._dirty:
            self.show()
            self._dirty = False
        phase = self.state.phase
        prompt = {Phase.DRAW: "draw", Phase.PLAY: "play", Phase.ANSWER: "answer"}.get(
            phase, "")
        try:
            line = self.read(f"{prompt}> ")
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            self.quit = True
            return
        line = line.strip()
        if not line:
            return
        command = line.lower()
        if command in ("quit", "exit", "q"):
            where = (f"it will be saved in {self.save_to}" if self.save_to is not None
                     else "it will not be saved")
            if self._ask(f"Leave the game? ({where}) y/n: ") is not False:
                self.quit = True
        elif command in ("help", "?"):
            self.say(HELP_TEXT)
        elif command == "legal":
            for text in legal_lines(self.view(), self.state.is_legal):
                self.say(f"  {text}")
        elif command == "hint":
            self.say(f"Hint: {self.hint()}")
        elif command == "review":  # a word, not a move: the review comes after the game
            self.say("The review comes once the game is over: then type review to see your "
                     "three costliest decisions.")
        elif command in ("show", "table"):
            self.show()
        elif phase == Phase.ANSWER and command in YES + NO:
            self._human_move("yes" if command in YES else "no")
        else:
            self._human_move(line)

    def _human_move(self, line: str) -> None:
        view = self.view()
        try:
            move = parse_move(line)
        except MoveSyntaxError as exc:
            self.say(self._syntax_reason(line, view, exc), style="red")
            return
        before = view
        seat = self.state.to_act
        try:
            self.state.apply(move)
        except IllegalMoveError as exc:
            self.say(f"Not allowed: {exc}{self._illegal_note(move, view)}", style="red")
            return
        self._announce(seat, move, before)
        self._note_suits(line)
        self._dirty = True

    def _syntax_reason(self, line: str, view: PlayerView, exc: MoveSyntaxError) -> str:
        top = view.discard_top
        if (line.lower().startswith("pickup") and top is not None
                and cards.FACE_KIND[top] == cards.BLACK_THREE):
            return ("Not allowed: a black 3 on top of the pile blocks it: nobody can take "
                    "the pile until it is covered; draw instead")
        return f"Cannot read that: {exc}. Type help for the notation."

    def _illegal_note(self, move: mv.Move, view: PlayerView) -> str:
        """A hint after the engine's reason where a player often misreads the table: a
        group for a rank only the other side has melded."""
        if not isinstance(move, mv.Meld | mv.GoOut | mv.Pickup):
            return ""
        mine = {m.target for m in view.melds[view.side]}
        for group in move.groups:
            if group.target in mine or group.target == WILD_MELD:
                continue
            owners = [s for s in range(view.sides)
                      if s != view.side and any(m.target == group.target
                                                for m in view.melds[s])]
            if owners:
                return (f" (the {KIND_PLURALS[group.target]} on the table are Side "
                        f"{owners[0] + 1}'s: you can add only to your own side's melds)")
        return ""

    def _note_suits(self, line: str) -> None:
        """Say which cards went when the person typed suits the engine did not follow:
        cards of one kind are interchangeable, so the engine plays them by kind."""
        typed = _typed_faces(line)
        if not typed or not self.state.moves_played:
            return
        event = self.state.events(self.state.moves_played - 1)[0].public
        went = [cards.parse_face(c) for c in
                ([event["card"]] if "card" in event else []) + list(event.get("cards", []))]
        left = list(went)
        unmatched = []
        for face in typed:
            if face in left:
                left.remove(face)
            else:
                unmatched.append(face)
        if not unmatched:
            return
        shown = " ".join(_label(f, self.sym) for f in went)
        asked = " ".join(_label(f, self.sym) for f in unmatched)
        if self._suit_note:
            text = f"({shown} went, not {asked}: suits never matter.)"
        else:
            text = (f"(Suits never matter in Hand and Foot, so the game plays cards by kind: "
                    f"{shown} went, not the {asked} you typed.)")
        self._suit_note = True
        self.say(text, style="dim")

    def _bot_step(self, seat: int) -> None:
        before = self.view(self._person())
        action = self.bots[seat].choose(self.state.view(seat))
        move = self.state.apply_action(action)
        if move is not None:
            self._announce(seat, move, before)
            self._dirty = True

    # --- announcements (public information only) -------------------------------------

    def _announce(self, seat: int, move: mv.Move, before: PlayerView) -> None:
        me = before.seat
        after = self.view(me)
        who = self._name(seat)
        you = seat == me
        sym = self.sym

        def verb(base: str, third: str | None = None) -> str:
            return base if you else (third or base + "s")

        round_over = len(after.results) > len(before.results)
        event = self.state.events(self.state.moves_played - 1)[0].public \
            if self.state.moves_played else {}
        text: str
        match move:
            case mv.Draw():
                if you and not round_over:
                    new = _new_cards(before.hand, after.hand)
                    text = f"You draw {' '.join(_label(f, sym) for f in new) or 'nothing'}"
                else:
                    text = f"{who} {verb('draw')} from the stock"
            case mv.Pickup(groups):
                taken = len(event.get("taken", ())) or before.pickup_size
                text = f"{who} {verb('take')} {_plural(taken, 'card')} from the pile"
                if groups:
                    text += f": meld {notation(format_groups(groups))}"
            case mv.Meld(groups):
                text = f"{who} {verb('meld')} {notation(format_groups(groups))}"
            case mv.Discard(kind):
                card = event.get("card")
                shown = _label(cards.parse_face(card), sym) if card else KIND_NAMES[kind]
                text = f"{who} {verb('discard')} {shown}"
            case mv.GoOut(groups, discard):
                if after.phase == Phase.ANSWER and not round_over:
                    text = f"{who} {verb('ask')}: may I go out?"
                else:
                    text = f"{who} {verb('go', 'goes')} out"
                    text += _go_out_detail(groups, discard)
            case mv.Answer(yes):
                text = f"{who} {verb('answer')} {'yes' if yes else 'no'}"
                going = event.get("going_out")
                if isinstance(going, int):
                    pending = parse_move(event["notation"])
                    goer = self._name(going)
                    text += f"; {goer} {'go' if going == me else 'goes'} out"
                    if isinstance(pending, mv.GoOut):
                        text += _go_out_detail(pending.groups, pending.discard)
            case mv.Undo():
                text = f"{who} {verb('take')} back the last meld"
            case mv.Knock():
                text = f"{who} {verb('knock')}"
            case mv.PickUpKnee():
                text = f"{who} {verb('pick')} up {'your' if you else 'their'} Knee"
            case _:
                text = f"{who}: {notation(mv.format_move(move))}"
        extras = []
        if not round_over:
            side = seat % self.layout.sides
            laid = after.red_threes[side][len(before.red_threes[side]):]
            if laid and isinstance(move, mv.Draw | mv.Pickup):
                extras.append(verb("lay") + " " + " ".join(_label(f, sym) for f in laid))
            if (after.knee_counts[seat] == 0 and before.knee_counts[seat]
                    and not isinstance(move, mv.PickUpKnee)):
                extras.append(f"{verb('pick')} up {'your' if you else 'their'} Knee")
            if after.in_foot[seat] and not before.in_foot[seat]:
                extras.append(f"{verb('pick')} up {'your' if you else 'their'} Foot")
        if extras:
            text += "; " + "; ".join(extras)
        if you:
            self._flush()
            self.say(text, style="bold")
        elif seat == self._turn_seat and text.startswith(who + " "):
            self._turn_lines.append(text[len(who) + 1:])
        else:
            self._flush()
            self._turn_seat = seat
            self._turn_lines = [text]

    def _flush(self) -> None:
        """Print a bot's turn as one line: ``Seat 2 (hard) draws ...; melds K; discards 8♥``
        (so the last turns of every bot stay on screen above the table)."""
        if self._turn_lines:
            self.say("; ".join(self._turn_lines))
        self._turn_lines = []
        self._turn_seat = None

    def _report_rounds(self) -> None:
        results = self.state.results
        for result in results[self._shown_results:]:
            self._flush()
            self.console.print()
            names = self._names()
            view = self.view()
            side_names = [_side_name(s, names, view) for s in range(self.layout.sides)]
            self.say(round_breakdown(result,
                                     [f"Side {s + 1}" if self.layout.seats_per_side > 1
                                      else short_name(names[s])
                                      for s in range(self.layout.sides)],
                                     [short_name(n) for n in names], self.console.width))
            self.say("Running totals: " + f" {self.sym.dot} ".join(
                f"{side_names[s]} {t}" for s, t in enumerate(result.totals)), style="bold")
            self._dirty = True
            if self.pause and not self.state.is_over and not self.quit:
                try:
                    self.read(f"Press Enter to deal round {self.state.round_number} ")
                except (EOFError, KeyboardInterrupt):
                    self.console.print()
                    self.quit = True
        self._shown_results = len(results)

    def _report_winner(self) -> None:
        totals = self.state.totals
        winners = self.state.winners()
        mine = self.human % self.layout.sides
        several = len({s % self.layout.sides for s in self.people}) > 1
        self.console.print()
        if len(winners) == 1:
            w = winners[0]
            others = " and ".join(str(t) for s, t in enumerate(totals) if s != w)
            who = "Your side wins" if w == mine and not several else f"Side {w + 1} wins"
            if self.layout.seats_per_side == 1:
                who = ("You win" if w == mine and not several
                       else f"{self.names[w]} wins")
            self.say(f"{who}, {totals[w]} to {others}.", style="bold")
        else:
            sides = " and ".join(f"side {s + 1}" for s in winners)
            self.say(f"Shared victory: {sides} with {totals[winners[0]]}.", style="bold")

    # --- hints -----------------------------------------------------------------------

    def hint(self) -> str:
        """What the hint bot would do now, from the person's view (on a copy)."""
        if self.state.to_act not in self.people:
            return "it is not your turn"
        self._hints += 1
        advice = sim_hint(self.state, self.state.to_act,
                          derive_seed(self.seed, "hint", self._hints))
        if advice is None:
            return f"the {HINT_BOT} bot has no advice here; try legal"
        return f"{notation(advice.notation)}   ({notation(advice.reason)}; {HINT_BOT} bot)"

    def record(self) -> GameRecord:
        """The game so far as a record; its metadata holds the seed and the seats, so
        ``handfoot play --resume`` can continue it."""
        return record_from_state(
            self.state, seat_names=self.record_names,
            metadata={"seed": self.seed, "played_in": "handfoot play",
                      "seats": list(self.seats)})

    def write_record(self, path: str | Path) -> None:
        """Write the game so far as a record (JSON)."""
        write_atomically(path, to_json(self.record()))


def round_breakdown(result: RoundResult, side_names: Sequence[str], seat_names: Sequence[str],
                    width: int) -> str:
    """A round's breakdown for the screen: each line's count and points in columns of their
    own, laid out to fit ``width`` (:func:`~handfoot.terminal.breakdown.breakdown_text`)."""
    how = result.reason if result.went_out is None else \
        f"{result.reason} ({seat_names[result.went_out]})"
    keys: dict[str, str] = {}
    for score in result.scores:
        for line in score.lines:
            keys.setdefault(line.key, line.label)
    rows = []
    for key, label in keys.items():
        cells: list[tuple[str, str] | None] = []
        for score in result.scores:
            found = next((x for x in score.lines if x.key == key), None)
            cells.append(None if found is None else (str(found.count), str(found.points)))
        rows.append(BreakdownRow(label, cells))
    totals = [("Round total", [str(sc.total) for sc in result.scores])]
    if result.totals:
        totals.append(("Game total", [str(t) for t in result.totals]))
    return breakdown_text(f"Round {result.round_number}: {how}", side_names, rows, totals,
                          width)


def _go_out_detail(groups: Sequence[mv.MeldGroup], discard: int | None) -> str:
    text = ""
    if groups:
        text += f", melding {notation(format_groups(groups))}"
    if discard is not None:
        text += f", discarding {KIND_NAMES[discard]}"
    return text


def _new_cards(before: Sequence[int], after: Sequence[int]) -> list[int]:
    left = list(before)
    out = []
    for face in after:
        if face in left:
            left.remove(face)
        else:
            out.append(face)
    return out
