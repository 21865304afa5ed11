"""The observation every adapter shares: one flat float32 vector from a seat's view.

The vector is built from a :class:`~handfoot.game.values.PlayerView` and nothing else, so it
holds only what that seat may know: states that differ in cards hidden from the seat give
the same vector. Seats and sides are *relative* to the observer: relative seat ``k`` is
seat ``(seat + k) % players`` (0 is the observer, 1 the next to play), relative side ``k``
is side ``(side + k) % sides`` (0 is the observer's side).

:data:`FIELDS` is the field table; ``docs/rl.md`` is generated from it
(:func:`field_table_markdown`) and a test keeps the two in agreement.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from handfoot.game import cards
from handfoot.game.loading import apply_overrides, load_profile
from handfoot.game.moves import NUM_ACTIONS, NUM_TARGETS, WILD_MELD
from handfoot.game.rules import Layout, Profile
from handfoot.game.table import BookKind
from handfoot.game.values import Phase, PlayerView
from handfoot.rl import EXTRA_HINT

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:  # pragma: no cover - the rl extra is missing
    raise ImportError(f"handfoot.rl.observation needs {exc.name}: {EXTRA_HINT}") from exc

__all__ = [
    "FIELDS", "NUM_ACTIONS", "Field", "ObservationEncoder", "describe_view",
    "field_table_markdown", "resolve_game",
]

SCORE_SCALE = 1000.0
"""Scores are divided by this, so they stay near the range of the counts."""

Filler = Callable[[PlayerView, list[float]], None]


@dataclass(frozen=True)
class Field:
    """One field of the observation vector."""

    name: str
    size: str
    """Its length as a formula in ``P`` (players) and ``S`` (sides)."""
    low: float
    high: float
    meaning: str
    fill: Filler

    def length(self, players: int, sides: int) -> int:
        n = 1
        for term in self.size.split("*"):
            n *= {"P": players, "S": sides}.get(term) or int(term)
        return n


def _seats(v: PlayerView) -> list[int]:
    return [(v.seat + k) % v.players for k in range(v.players)]


def _sides(v: PlayerView) -> list[int]:
    return [(v.side + k) % v.sides for k in range(v.sides)]


def _one_hot(out: list[float], n: int, index: int | None) -> None:
    row = [0.0] * n
    if index is not None:
        row[index] = 1.0
    out.extend(row)


def _hand(v: PlayerView, out: list[float]) -> None:
    counts = [0.0] * cards.NUM_KINDS
    for face in v.hand:
        counts[cards.FACE_KIND[face]] += 1
    out.extend(counts)


def _staged(v: PlayerView, out: list[float]) -> None:
    row = [0.0] * (NUM_TARGETS * 3)
    for g in v.staged:
        row[g.target * 3] += g.naturals
        row[g.target * 3 + 1] += g.twos
        row[g.target * 3 + 2] += g.jokers
    out.extend(row)


def _melds(v: PlayerView, out: list[float]) -> None:
    book = v.profile.book_size
    for side in _sides(v):
        row = [0.0] * (NUM_TARGETS * 7)
        for m in v.melds[side]:
            base = m.target * 7
            kind = m.book_kind(book)
            if kind is None:
                row[base] += m.naturals
                row[base + 1] += m.twos
                row[base + 2] += m.jokers
            else:
                row[base + {BookKind.CLEAN: 3, BookKind.DIRTY: 4, BookKind.WILD: 5}[kind]] += 1
                row[base + 6] += m.size
        out.extend(row)


def _per_seat(get: Callable[[PlayerView, int], float]) -> Filler:
    def fill(v: PlayerView, out: list[float]) -> None:
        out.extend(get(v, s) for s in _seats(v))
    return fill


def _per_side(get: Callable[[PlayerView, int], float]) -> Filler:
    def fill(v: PlayerView, out: list[float]) -> None:
        out.extend(get(v, s) for s in _sides(v))
    return fill


def _relative_seat(get: Callable[[PlayerView], int | None]) -> Filler:
    def fill(v: PlayerView, out: list[float]) -> None:
        seat = get(v)
        _one_hot(out, v.players, None if seat is None else (seat - v.seat) % v.players)
    return fill


def _scalar(get: Callable[[PlayerView], float]) -> Filler:
    def fill(v: PlayerView, out: list[float]) -> None:
        out.append(float(get(v)))
    return fill


def _discard_top(v: PlayerView, out: list[float]) -> None:
    _one_hot(out, cards.NUM_KINDS + 1,
             cards.NUM_KINDS if v.discard_top is None else cards.FACE_KIND[v.discard_top])


def _phase(v: PlayerView, out: list[float]) -> None:
    _one_hot(out, len(Phase), int(v.phase))


BIG = 10_000.0

FIELDS: tuple[Field, ...] = (
    Field("hand", "15", 0, BIG,
          "cards this seat may play (its Hand, or its Foot once picked up), counted per kind: "
          "4, 5, 6, 7, 8, 9, 10, J, Q, K, A, 2, joker, black 3, red 3", _hand),
    Field("staged", "36", 0, BIG,
          "cards this seat has staged this action, per target (ranks 4..A, then the all-wild "
          "meld) as (naturals, 2s, jokers); zero unless it is this seat's turn", _staged),
    Field("hand_sizes", "P", 0, BIG,
          "cards in each relative seat's hand (its Foot once picked up)",
          _per_seat(lambda v, s: v.hand_counts[s])),
    Field("foot_sizes", "P", 0, BIG,
          "cards in each relative seat's Foot still face down (0 once picked up)",
          _per_seat(lambda v, s: v.foot_counts[s])),
    Field("knee_sizes", "P", 0, BIG,
          "cards in each relative seat's Knee still face down (Hand, Knee & Foot; else 0)",
          _per_seat(lambda v, s: v.knee_counts[s])),
    Field("in_foot", "P", 0, 1, "1 where a relative seat has picked up its Foot",
          _per_seat(lambda v, s: float(v.in_foot[s]))),
    Field("melds", "S*84", 0, BIG,
          "the table of each relative side: per target (ranks 4..A, then the all-wild meld) "
          "7 numbers: naturals, 2s and jokers in its unfinished melds, then its clean, dirty "
          "and all-wild books, and the cards in those books", _melds),
    Field("red_threes", "S", 0, BIG, "red 3s laid by each relative side",
          _per_side(lambda v, s: len(v.red_threes[s]))),
    Field("opened", "S", 0, 1, "1 where a relative side has made its opening meld",
          _per_side(lambda v, s: float(v.opened[s]))),
    Field("scores", "S", -BIG, BIG,
          f"each relative side's total score before this round, divided by {SCORE_SCALE:g}",
          _per_side(lambda v, s: v.totals[s] / SCORE_SCALE)),
    Field("opening_minimum", "1", 0, BIG,
          "points this seat's side needs for its opening meld this round (still shown once "
          "opened; 0 in a round whose opening is a clean book instead)",
          _scalar(lambda v: v.opening_minimum)),
    Field("discard_top", "16", 0, 1,
          "the kind of the discard pile's top card, one-hot over the 15 kinds, or the last "
          "entry when the pile is empty (the pile below the top is squared up: not visible)",
          _discard_top),
    Field("discard_size", "1", 0, BIG, "cards in the discard pile",
          _scalar(lambda v: v.discard_size)),
    Field("stock_size", "1", 0, BIG, "cards in the stock", _scalar(lambda v: v.stock_size)),
    Field("phase", "4", 0, 1, "one-hot phase: draw, play, answer, game over", _phase),
    Field("turn", "P", 0, 1, "one-hot relative seat whose turn it is",
          _relative_seat(lambda v: v.turn)),
    Field("to_act", "P", 0, 1,
          "one-hot relative seat that must act now (a partner while answering "
          "\"May I go out?\"); all zero when the game is over",
          _relative_seat(lambda v: None if v.phase == Phase.GAME_OVER else v.to_act)),
    Field("asked", "1", 0, 1, "1 when this seat must answer its partner's \"May I go out?\"",
          _scalar(lambda v: float(v.asking is not None))),
    Field("round", "2", 0, BIG, "the round number (from 1) and the number of rounds",
          lambda v, out: out.extend((float(v.round_number), float(v.rounds)))),
)


class ObservationEncoder:
    """Encodes views of one game shape (a profile and a seating) as flat vectors."""

    def __init__(self, profile: Profile, layout: Layout) -> None:
        self.profile = profile
        self.layout = layout
        p, s = layout.players, layout.sides
        self.offsets: dict[str, tuple[int, int]] = {}
        pos = 0
        low: list[float] = []
        high: list[float] = []
        for f in FIELDS:
            n = f.length(p, s)
            self.offsets[f.name] = (pos, n)
            low += [f.low] * n
            high += [f.high] * n
            pos += n
        self.size = pos
        self.low = np.array(low, dtype=np.float32)
        self.high = np.array(high, dtype=np.float32)

    def encode_list(self, view: PlayerView) -> list[float]:
        out: list[float] = []
        for f in FIELDS:
            f.fill(view, out)
        return out

    def encode(self, view: PlayerView) -> npt.NDArray[np.float32]:
        """The observation vector of ``view``."""
        return np.asarray(self.encode_list(view), dtype=np.float32)

    def field(self, vector: Sequence[float], name: str) -> Sequence[float]:
        """The slice of ``vector`` holding one field."""
        start, n = self.offsets[name]
        return vector[start:start + n]


def action_mask(view: PlayerView) -> npt.NDArray[np.int8]:
    """1 for the actions legal for the view's seat now (all 0 when it is not to act)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if view.legal_actions:
        mask[list(view.legal_actions)] = 1
    return mask


def field_table_markdown(players: int = 4, sides: int = 2) -> str:
    """The field table of ``docs/rl.md``: offsets for ``players`` seats in ``sides`` sides."""
    lines = [f"| field | length | offset ({players} players, {sides} sides) | range | meaning |",
             "|---|---|---|---|---|"]
    pos = 0
    for f in FIELDS:
        n = f.length(players, sides)
        rng = "0/1" if f.high == 1 else ("≥ 0" if f.low == 0 else "any")
        lines.append(f"| `{f.name}` | {f.size} | {pos}–{pos + n - 1} | {rng} | {f.meaning} |")
        pos += n
    lines.append(f"| total | | {pos} | | |")
    return "\n".join(lines)


def resolve_game(profile: str | Profile = "partnership-13",
                 players: int | str | Layout | None = None,
                 overrides: dict[str, object] | None = None) -> tuple[Profile, Layout]:
    """The profile and seating an adapter plays.

    ``players`` is ``None`` (the profile's default seating), a number of players (the
    first seating of the profile with that many players), a layout like ``"2x3"``, or a
    :class:`~handfoot.game.rules.Layout`. Anything the profile does not allow raises a
    ValueError that lists what it allows.
    """
    if isinstance(profile, Profile):
        prof = apply_overrides(profile, overrides, origin="overrides") if overrides else profile
    else:
        prof = load_profile(profile, overrides=overrides or None)
    if players is None:
        return prof, prof.layout
    if isinstance(players, Layout):
        layout: Layout | None = players
    elif isinstance(players, int) and not isinstance(players, bool):
        layout = next((x for x in prof.layouts if x.players == players), None)
    elif isinstance(players, str):
        try:
            layout = (Layout.parse(players) if "x" in players.lower()
                      else next((x for x in prof.layouts if x.players == int(players)), None))
        except ValueError:
            layout = None
    else:
        layout = None
    if layout is None:
        raise ValueError(prof.seating_error(f"players={players!r}"))
    prof.check_layout(layout)
    return prof, layout


def describe_view(view: PlayerView) -> str:
    """A short text of a view: what a seat sees (the ``ansi`` render and observation string)."""
    size = view.profile.book_size
    lines = [f"{view.profile.name} round {view.round_number}/{view.rounds}, "
             f"phase {view.phase.name.lower()}, turn seat {view.turn}, to act seat {view.to_act}"
             f"; seat {view.seat} (side {view.side})"]
    lines.append(f"hand: {cards.format_faces(sorted(view.hand))}")
    if view.staged:
        lines.append("staged: " + " | ".join(
            f"{cards.KIND_CODES[g.target] if g.target != WILD_MELD else 'W'}"
            f"x{g.naturals}+{g.twos}+{g.jokers}" for g in view.staged))
    for s in range(view.players):
        lines.append(f"seat {s}: hand {view.hand_counts[s]}, foot {view.foot_counts[s]}"
                     + (f", knee {view.knee_counts[s]}" if view.knee_counts[s] else "")
                     + (" (in foot)" if view.in_foot[s] else ""))
    for side in range(view.sides):
        melds = "; ".join(
            m.describe() + (f" [{m.book_kind(size)} book]" if m.book_kind(size) else "")
            for m in view.melds[side]) or "-"
        lines.append(f"side {side}: score {view.totals[side]}, "
                     f"{'opened' if view.opened[side] else 'not opened'}, "
                     f"red 3s {len(view.red_threes[side])}: {melds}")
    top = "-" if view.discard_top is None else cards.face_name(view.discard_top)
    lines.append(f"pile: {view.discard_size} (top {top}), stock: {view.stock_size}, "
                 f"opening minimum {view.opening_minimum}")
    if view.asking is not None:
        lines.append(f"seat {view.asking} asks: may I go out?")
    return "\n".join(lines)
