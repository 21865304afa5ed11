"""Playing a game against bots in the terminal (``handfoot play``).

:class:`TerminalGame` runs one game in which exactly one seat is a person. The person types
moves in the notation of :mod:`handfoot.moves` (``draw``, ``meld K K K | 9 9 2``,
``discard 5``, ...) or a command (``help``, ``hint``, ``legal``, ``show``, ``quit``); the
other seats are bots whose moves are announced one line each.

Everything shown to the person is drawn from their seat's
:class:`~handfoot.engine.PlayerView` (the renderers below take a view, never the state), so
no hidden card can reach the screen. Input and output are injected (an input function and a
Rich :class:`~rich.console.Console`), so a game can be scripted in tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from handfoot import cards
from handfoot import moves as mv
from handfoot.bots import Bot
from handfoot.cards import JOKER_FACE, KIND_PLURALS, RANKS
from handfoot.engine import GameState, IllegalMoveError, Phase, PlayerView, TableMeld
from handfoot.moves import WILD_MELD, MoveSyntaxError, format_groups, format_move, parse_move
from handfoot.record import GameRecorder, format_breakdown, to_json
from handfoot.registry import BOTS, make_bot
from handfoot.rules import Layout, Profile
from handfoot.sim import HINT_BOT, derive_seed
from handfoot.sim import hint as sim_hint
from handfoot.table import BookKind, opening_minimum, opens_with_clean_book

__all__ = [
    "HELP_TEXT",
    "HINT_BOT",
    "HUMAN",
    "SeatError",
    "TerminalGame",
    "best_bot",
    "card_text",
    "hand_text",
    "hint_bot",
    "legal_lines",
    "meld_text",
    "parse_seats",
    "render_view",
]

HUMAN = "you"
"""The seat name that marks the person in ``--seats``."""

BOT_PREFERENCE = ("hard", "normal", "easy", "random")
"""Bots from strongest to weakest; the first one available is the default opponent."""

HELP_TEXT = """\
Moves (cards are kinds: 4-10 or T, J, Q, K, A, 2, JK for a joker, B3 for a black 3):
  draw                       take cards from the stock
  pickup K K 2 | A A A       take the discard pile; the top card joins the first group
                             of its rank (pickup K: alone melds the top card by itself)
  meld K K K | 9 9 2         lay or add to melds, all at once; "|" separates melds
  meld K: 2                  add wild cards alone to your kings
  meld new K K K             start a second meld of kings (after one became a book)
  meld JK JK 2               a group of wilds only is an all-wild meld (where allowed)
  discard 5                  discard a card of that kind; ends your turn
  goout 9 9 | Q discard B3   go out: meld the groups, then discard (or no discard);
                             with partners this asks them "May I go out?"
  yes / no                   answer your partner's "May I go out?"
  undo                       take back your last meld this turn
  knock                      end your turn without a discard (where the rules say so)
  knee                       pick up your Knee (Hand, Knee & Foot)
Commands:
  help    this guide            legal   what you can do now
  hint    what hard would do    show    the table again
  quit    leave the game"""


class SeatError(ValueError):
    """A ``--seats`` value that makes no sense."""


def best_bot() -> str:
    """The strongest bot available in :data:`handfoot.registry.BOTS`."""
    for name in BOT_PREFERENCE:
        if name in BOTS:
            return name
    return next(iter(BOTS))


def hint_bot() -> str:
    """The bot that gives hints: :data:`handfoot.sim.HINT_BOT`."""
    return HINT_BOT


def parse_seats(text: str | None, players: int) -> list[str]:
    """``"you,easy,easy,easy"`` as one name per seat; exactly one is :data:`HUMAN`.

    Without a value the person sits in seat 1 and every other seat gets :func:`best_bot`.
    """
    if text is None:
        return [HUMAN] + [best_bot()] * (players - 1)
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    unknown = [s for s in seats if s != HUMAN and s not in BOTS]
    if unknown:
        raise SeatError(f"--seats: unknown bot {unknown[0]!r}: choose from "
                        f"{', '.join(BOTS)} (and {HUMAN!r} for your seat)")
    humans = seats.count(HUMAN)
    if humans != 1:
        raise SeatError(f"--seats: exactly one seat must be {HUMAN!r}, not {humans}")
    if len(seats) != players:
        raise SeatError(f"--seats: this table has {players} seats, not {len(seats)} "
                        f"(e.g. {','.join([HUMAN] + [best_bot()] * (players - 1))})")
    return seats


# --- rendering: from a PlayerView only -------------------------------------------------


def _label(face: int) -> str:
    return "JK" if face == JOKER_FACE else cards.face_label(face)


def card_text(face: int) -> Text:
    """One card, red for hearts and diamonds: ``K♠``, ``10♦``, ``JK``."""
    label = _label(face)
    red = face != JOKER_FACE and cards.SUITS[face // 13] in "DH"
    return Text(label, style="red" if red else ("magenta" if face == JOKER_FACE else ""))


def _kind_order(kind: int) -> int:
    """Hand order: aces down to 4s, then 2s, jokers, black 3s, red 3s."""
    if kind in RANKS:
        return cards.ACE - kind
    return kind


def hand_text(hand: Sequence[int]) -> Text:
    """Cards grouped by kind, highest first: ``K♠ K♦ K♥ │ 9♣ 9♦ │ 2♣ │ JK``."""
    groups: dict[int, list[int]] = {}
    for face in sorted(hand):  # clubs, diamonds, hearts, spades within a kind
        groups.setdefault(cards.FACE_KIND[face], []).append(face)
    out = Text()
    for i, kind in enumerate(sorted(groups, key=_kind_order)):
        if i:
            out.append(" │ ", style="dim")
        for j, face in enumerate(groups[kind]):
            if j:
                out.append(" ")
            out.append_text(card_text(face))
    if not hand:
        out.append("(no cards)", style="dim")
    return out


def meld_text(meld: TableMeld, book_size: int) -> Text:
    """A meld: ``kings K♠ K♦ 2♣ (3/7)``, or a book: ``kings: clean book (7)``."""
    what = "all-wild" if meld.target == WILD_MELD else KIND_PLURALS[meld.target]
    kind = meld.book_kind(book_size)
    out = Text(what, style="bold")
    if kind is not None:
        name = {BookKind.CLEAN: "clean book", BookKind.DIRTY: "dirty book",
                BookKind.WILD: "all-wild book"}[kind]
        style = {BookKind.CLEAN: "green", BookKind.DIRTY: "yellow", BookKind.WILD: "cyan"}[kind]
        detail = (f" ({meld.size}" + (f", {meld.wilds} wild" if kind == BookKind.DIRTY else "")
                  + ")")
        out.append(": ")
        out.append(name, style=style)
        out.append(detail)
        return out
    out.append(" ")
    for j, face in enumerate(meld.faces):
        if j:
            out.append(" ")
        out.append_text(card_text(face))
    out.append(f" ({meld.size}/{book_size})", style="dim")
    return out


def _opening_minimum(view: PlayerView, side: int) -> int | None:
    """A side's opening minimum this round, or None when opening needs a clean book."""
    if opens_with_clean_book(view.profile, view.round_number):
        return None
    return opening_minimum(view.profile, view.round_number, view.totals[side])


def _short(name: str) -> str:
    """``"Seat 2 (easy)"`` as ``"easy 2"``, for side names."""
    if name.startswith("Seat ") and name.endswith(")") and " (" in name:
        number, bot = name[5:-1].split(" (", 1)
        return f"{bot} {number}"
    return name


def _side_name(side: int, names: Sequence[str], view: PlayerView) -> str:
    members = [_short(names[s]) for s in range(view.players) if s % view.sides == side]
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
        return "Your turn: draw, or take the pile (pickup ...)."
    return "Your turn: meld, then discard (or go out)."


def render_view(view: PlayerView, names: Sequence[str]) -> RenderableType:
    """Everything ``view.seat`` may see: the table, the counts, the scores, its own hand.

    ``names`` are the seats' display names (``"you"``, ``"Seat 2 (easy)"``).
    """
    p = view.profile
    parts: list[RenderableType] = []
    title = Text(f"Round {view.round_number} of {view.rounds}", style="bold")
    title.append(f" · {p.name} · ", style="dim")
    title.append(_status_line(view, names), style="bold cyan")
    parts.append(title)

    scores = Text("Scores: ")
    scores.append(" · ".join(f"{_side_name(s, names, view)} {view.totals[s]}"
                             for s in range(view.sides)))
    parts.append(scores)

    seats = Table(box=None, padding=(0, 2, 0, 0), show_edge=False, pad_edge=False)
    seats.add_column("Seat")
    seats.add_column("Side", justify="right")
    seats.add_column("Hand", justify="right")
    has_knee = p.knee_size > 0
    if has_knee:
        seats.add_column("Knee", justify="right")
    seats.add_column("Foot", justify="right")
    seats.add_column("Playing from")
    for s in range(view.players):
        row = [("▶ " if s == view.turn else "  ") + names[s], str(s % view.sides + 1),
               str(view.hand_counts[s])]
        if has_knee:
            row.append(str(view.knee_counts[s]))
        row.append(str(view.foot_counts[s]))
        if view.in_foot[s]:
            row.append("Foot")
        elif has_knee and view.knee_counts[s] == 0:
            row.append("Hand + Knee")
        else:
            row.append("Hand")
        seats.add_row(*row)
    parts.append(seats)

    for side in range(view.sides):
        head = Text(_side_name(side, names, view), style="bold")
        minimum = _opening_minimum(view, side)
        if view.opened[side]:
            head.append(" · opened", style="green")
        elif minimum is None:
            head.append(" · not opened (opens with a clean book)")
        else:
            head.append(f" · not opened (needs {minimum} points to open)")
        if view.red_threes[side]:
            head.append(" · red 3s: ")
            head.append_text(Text(" ").join(card_text(f) for f in view.red_threes[side]))
        parts.append(head)
        melds = view.melds[side]
        if not melds:
            parts.append(Text("  no melds", style="dim"))
        for meld in melds:
            parts.append(Text("  ") + meld_text(meld, p.book_size))

    table = Text("Discard pile: ")
    if view.discard_top is None:
        table.append("empty")
    else:
        table.append_text(card_text(view.discard_top))
        table.append(f" on top, {view.discard_size} card{'s' * (view.discard_size != 1)}")
    table.append(f" · Stock: {view.stock_size}")
    parts.append(table)

    mine = Text(f"Your hand ({len(view.hand)}): ", style="bold")
    mine.append_text(hand_text(view.hand))
    parts.append(mine)
    return Group(*parts)


def legal_lines(view: PlayerView) -> list[str]:
    """What the seat can do now, in words (empty when it is not its turn)."""
    legal = set(view.legal_actions)
    if not legal:
        return []
    out: list[str] = []
    if view.phase == Phase.ANSWER:
        return ["yes: let your partner go out", "no: ask your partner to keep playing"]
    if mv.KNEE in legal:
        out.append("knee: pick up your Knee")
    if mv.DRAW in legal:
        out.append(f"draw: take {view.profile.draw_count} cards from the stock")
    naturals = sorted({(a - mv.STAGE_NATURAL) // 2 for a in legal
                       if mv.STAGE_NATURAL <= a < mv.STAGE_WILD})
    wild_targets = sorted({((a - mv.STAGE_WILD) // 2) % mv.NUM_TARGETS for a in legal
                           if mv.STAGE_WILD <= a < mv.KNEE})
    if view.phase == Phase.DRAW and (mv.PICKUP in legal or naturals or wild_targets):
        top = _label(view.discard_top) if view.discard_top is not None else "?"
        out.append(f"pickup ...: take the pile ({view.discard_size} cards, {top} on top), "
                   "melding the top card with cards from your hand, e.g. "
                   f"pickup {_kind_code(view.discard_top)} {_kind_code(view.discard_top)}")
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
                   + ", ".join(cards.KIND_CODES[k] for k in goes))
    elif view.phase == Phase.PLAY and view.in_foot[view.seat]:
        out.append("goout GROUPS [discard X]: go out once your melds can use your cards "
                   "and your side has the books")
    if mv.KNOCK in legal:
        out.append("knock: end your turn without discarding")
    discards = sorted(a - mv.DISCARD for a in legal if mv.DISCARD <= a < mv.STAGE_NATURAL)
    if discards:
        out.append("discard X: end your turn; X is one of "
                   + ", ".join(cards.KIND_CODES[k] for k in sorted(discards, key=_kind_order)))
    return out


def _kind_code(face: int | None) -> str:
    return "?" if face is None else cards.KIND_CODES[cards.FACE_KIND[face]]


# --- the game --------------------------------------------------------------------------


InputFn = Callable[[str], str]


class TerminalGame:
    """One game with a person in one seat and bots in the others.

    ``seats`` names each seat: :data:`HUMAN` once, bot names from
    :data:`handfoot.registry.BOTS` elsewhere. ``read`` is called with a prompt and returns a
    line (raising :class:`EOFError` at the end of input, which leaves the game); all
    output goes to ``console``.
    """

    def __init__(self, profile: Profile, layout: Layout, seats: Sequence[str], seed: int,
                 read: InputFn, console: Console) -> None:
        seats = list(seats)
        if seats.count(HUMAN) != 1:
            raise SeatError(f"exactly one seat must be {HUMAN!r}")
        if len(seats) != layout.players:
            raise SeatError(f"{len(seats)} seats for a table of {layout.players}")
        self.profile = profile
        self.layout = layout
        self.seats = seats
        self.seed = seed
        self.human = seats.index(HUMAN)
        self.read = read
        self.console = console
        self.names = ["you" if s == self.human else f"Seat {s + 1} ({name})"
                      for s, name in enumerate(seats)]
        self.bots: dict[int, Bot] = {
            s: make_bot(name, derive_seed(seed, "play-bot", s))
            for s, name in enumerate(seats) if name != HUMAN}
        self.state = GameState.new(profile, layout=layout, seed=seed)
        self.recorder = GameRecorder(
            self.state,
            seat_names=["you" if n == HUMAN else f"{n} {s + 1}" for s, n in enumerate(seats)],
            metadata={"seed": seed, "played_in": "handfoot play"})
        self._shown_results = 0
        self._dirty = True
        self.quit = False
        self._hints = 0

    # --- output ----------------------------------------------------------------------

    def say(self, text: str | Text, style: str | None = None) -> None:
        self.console.print(text, style=style, markup=False, highlight=False)

    def view(self) -> PlayerView:
        """The person's view: all the screen ever shows of the game."""
        return self.state.view(self.human)

    def show(self) -> None:
        self.console.print()
        self.console.print(render_view(self.view(), self.names))

    def _name(self, seat: int) -> str:
        return "You" if seat == self.human else self.names[seat]

    # --- the loop ----------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end; 0 when the game finished, 1 when the person left it."""
        p = self.profile
        self.say(f"{p.title} ({p.name}), {self.layout.describe()}, seed {self.seed}",
                 style="bold")
        for side in range(self.layout.sides):
            members = ", ".join(self.names[s] for s in self.layout.seats_of(side))
            self.say(f"  Side {side + 1}: {members}")
        self.say("Type help for the move notation, legal for what you can do, "
                 "hint for advice, quit to leave.")
        self._report_rounds()
        while not self.state.is_over and not self.quit:
            if self.state.to_act == self.human:
                self._human_step()
            else:
                self._bot_step(self.state.to_act)
            self._report_rounds()
        if self.quit:
            self.say("You left the game.")
            return 1
        self._report_winner()
        return 0

    def _human_step(self) -> None:
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
            self.quit = True
        elif command in ("help", "?"):
            self.say(HELP_TEXT)
        elif command == "legal":
            for text in legal_lines(self.view()):
                self.say(f"  {text}")
        elif command == "hint":
            self.say(f"Hint: {self.hint()}")
        elif command in ("show", "table"):
            self.show()
        else:
            self._human_move(line)

    def _human_move(self, line: str) -> None:
        try:
            move = parse_move(line)
        except MoveSyntaxError as exc:
            self.say(f"Cannot read that: {exc}. Type help for the notation.", style="red")
            return
        before = self.view()
        try:
            self.recorder.apply(move)
        except IllegalMoveError as exc:
            self.say(f"Not allowed: {exc}", style="red")
            return
        self._announce(self.human, move, before)
        self._dirty = True

    def _bot_step(self, seat: int) -> None:
        before = self.state.view(self.human)
        action = self.bots[seat].choose(self.state.view(seat))
        move = self.recorder.apply_action(action)
        if move is not None:
            self._announce(seat, move, before)
            self._dirty = True

    # --- announcements (public information only) -------------------------------------

    def _announce(self, seat: int, move: mv.Move, before: PlayerView) -> None:
        after = self.view()
        who = self._name(seat)
        you = seat == self.human

        def verb(base: str, third: str | None = None) -> str:
            return base if you else (third or base + "s")

        round_over = len(after.results) > len(before.results)
        text: str
        match move:
            case mv.Draw():
                if you and not round_over:
                    new = _new_cards(before.hand, after.hand)
                    text = f"You draw {' '.join(_label(f) for f in new) or 'nothing'}"
                else:
                    text = f"{who} {verb('draw')} from the stock"
            case mv.Pickup(groups):
                taken = before.discard_size
                text = f"{who} {verb('take')} the pile ({taken} cards)"
                if groups:
                    text += f": meld {format_groups(groups)}"
            case mv.Meld(groups):
                text = f"{who} {verb('meld')} {format_groups(groups)}"
            case mv.Discard(kind):
                face = after.discard_top if after.discard_top is not None and not round_over \
                    else None
                card = _label(face) if face is not None else cards.KIND_NAMES[kind]
                text = f"{who} {verb('discard')} {card}"
            case mv.GoOut(groups, discard):
                if after.phase == Phase.ANSWER and not round_over:
                    text = f"{who} {verb('ask')}: may I go out?"
                else:
                    text = f"{who} {verb('go', 'goes')} out"
                    if groups:
                        text += f", melding {format_groups(groups)}"
                    if discard is not None:
                        text += f", discarding {cards.KIND_NAMES[discard]}"
            case mv.Answer(yes):
                text = f"{who} {verb('answer')} {'yes' if yes else 'no'}"
            case mv.Undo():
                text = f"{who} {verb('take')} back the last meld"
            case mv.Knock():
                text = f"{who} {verb('knock')}"
            case mv.PickUpKnee():
                text = f"{who} {verb('pick')} up {'your' if you else 'their'} Knee"
            case _:
                text = f"{who}: {format_move(move)}"
        extras = []
        if not round_over:
            side = seat % self.layout.sides
            laid = after.red_threes[side][len(before.red_threes[side]):]
            if laid and isinstance(move, mv.Draw | mv.Pickup):
                extras.append(verb("lay") + " " + " ".join(_label(f) for f in laid))
            if (after.knee_counts[seat] == 0 and before.knee_counts[seat]
                    and not isinstance(move, mv.PickUpKnee)):
                extras.append(f"{verb('pick')} up {'your' if you else 'their'} Knee")
            if after.in_foot[seat] and not before.in_foot[seat]:
                extras.append(f"{verb('pick')} up {'your' if you else 'their'} Foot")
        if extras:
            text += "; " + "; ".join(extras)
        self.say(text, style="bold" if you else None)

    def _report_rounds(self) -> None:
        results = self.state.results
        for result in results[self._shown_results:]:
            self.console.print()
            side_names = [_side_name(s, self.names, self.view())
                          for s in range(self.layout.sides)]
            self.say(format_breakdown(result, side_names=side_names, seat_names=self.names))
            self.say("Running totals: " + " · ".join(
                f"{side_names[s]} {t}" for s, t in enumerate(result.totals)), style="bold")
            self._dirty = True
        self._shown_results = len(results)

    def _report_winner(self) -> None:
        totals = self.state.totals
        winners = self.state.winners()
        mine = self.human % self.layout.sides
        self.console.print()
        if len(winners) == 1:
            w = winners[0]
            others = " and ".join(str(t) for s, t in enumerate(totals) if s != w)
            who = "Your side wins" if w == mine else f"Side {w + 1} wins"
            if self.layout.seats_per_side == 1:
                who = "You win" if w == mine else f"{self.names[w]} wins"
            self.say(f"{who}, {totals[w]} to {others}.", style="bold")
        else:
            sides = " and ".join(f"side {s + 1}" for s in winners)
            self.say(f"Shared victory: {sides} with {totals[winners[0]]}.", style="bold")

    # --- hints -----------------------------------------------------------------------

    def hint(self) -> str:
        """What the hint bot would do now, from the person's view (on a copy)."""
        if self.state.to_act != self.human:
            return "it is not your turn"
        self._hints += 1
        advice = sim_hint(self.state, self.human, derive_seed(self.seed, "hint", self._hints))
        if advice is None:
            return f"the {HINT_BOT} bot has no advice here; try legal"
        return f"{advice.notation}   ({HINT_BOT} bot)"

    def write_record(self, path: str | Path) -> None:
        """Write the game so far as a record (JSON)."""
        Path(path).write_text(to_json(self.recorder.record()), encoding="utf-8")


def _new_cards(before: Sequence[int], after: Sequence[int]) -> list[int]:
    left = list(before)
    out = []
    for face in after:
        if face in left:
            left.remove(face)
        else:
            out.append(face)
    return out

