"""Cards, their kinds, and the text notation for them.

A physical card is a *face*: one of the 52 suit-and-rank faces or the joker. Several decks
are shuffled together, so a shoe holds several copies of each face; copies are
interchangeable, and the engine counts them rather than naming them.

For the rules a card is one of 15 *kinds*: the meldable ranks 4 to A, the two, the joker,
the black three and the red three. No rule of any profile looks at a suit, except the
colour of a three, so the engine works on kinds and keeps faces only where a person sees
them (the deal, the discard pile, the table).

Notation: a rank character ``2-9``, ``T`` (``10`` is accepted), ``J``, ``Q``, ``K``, ``A``
followed by a suit ``C``, ``D``, ``H``, ``S`` (the symbols ``♣ ♦ ♥ ♠`` are accepted);
``JK`` is a joker. Input is case-insensitive.

>>> face_name(parse_face("10d"))
'TD'
>>> KIND_NAMES[kind_of(parse_face("3H"))]
'red 3'
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress
from typing import Any, Final, TypeAlias

Kind: TypeAlias = int
"""One of the 15 kinds the rules see, 0 to 14 (:data:`FOUR` ... :data:`RED_THREE`)."""
Face: TypeAlias = int
"""A physical card: ``suit * 13 + rank index`` (0 to 51), or :data:`JOKER_FACE`."""

# --- kinds -----------------------------------------------------------------------------

FOUR: Final = 0
FIVE: Final = 1
SIX: Final = 2
SEVEN: Final = 3
EIGHT: Final = 4
NINE: Final = 5
TEN: Final = 6
JACK: Final = 7
QUEEN: Final = 8
KING: Final = 9
ACE: Final = 10
TWO: Final = 11
JOKER: Final = 12
BLACK_THREE: Final = 13
RED_THREE: Final = 14

NUM_KINDS: Final = 15
RANKS: Final = tuple(range(FOUR, ACE + 1))
"""The meldable ranks, 4 to A, as kinds."""
WILDS: Final = (TWO, JOKER)

KIND_NAMES: Final = (
    "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
    "2", "joker", "black 3", "red 3",
)
"""Names of the kinds as a player says them."""
KIND_PLURALS: Final = (
    "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings", "aces",
    "2s", "jokers", "black 3s", "red 3s",
)
KIND_CODES: Final = (
    "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "JK", "B3", "R3",
)
"""Short codes for kinds, used in move notation."""


def is_wild(kind: Kind) -> bool:
    """True for the two and the joker."""
    return kind in (TWO, JOKER)


# --- faces -----------------------------------------------------------------------------

SUITS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_CHARS: Final = "23456789TJQKA"
"""Rank characters in face order: a face id is ``suit * 13 + rank index``."""
JOKER_FACE: Final = 52
NUM_FACES: Final = 53


def _kind_of_face(face: Face) -> Kind:
    if face == JOKER_FACE:
        return JOKER
    suit, rank = divmod(face, 13)
    ch = RANK_CHARS[rank]
    if ch == "2":
        return TWO
    if ch == "3":
        return RED_THREE if SUITS[suit] in "DH" else BLACK_THREE
    return "456789TJQKA".index(ch)


_FACES_IN_ORDER: Final = range(NUM_FACES)
"""Every face, in face order (what :func:`hand_faces` picks from)."""
FACE_KIND: Final[tuple[Kind, ...]] = tuple(_kind_of_face(f) for f in range(NUM_FACES))
"""The kind of each face."""

KIND_FACES: Final[tuple[tuple[Face, ...], ...]] = tuple(
    tuple(f for f in range(NUM_FACES) if FACE_KIND[f] == k) for k in range(NUM_KINDS)
)
"""The faces of each kind, in the fixed order used to pick a physical card for a kind:
clubs, diamonds, hearts, spades."""


def kind_of(face: Face) -> Kind:
    """The kind of a face."""
    return FACE_KIND[face]


def face_name(face: Face) -> str:
    """The notation of a face: ``KS``, ``TD``, ``JK``."""
    if face == JOKER_FACE:
        return "JK"
    suit, rank = divmod(face, 13)
    return RANK_CHARS[rank] + SUITS[suit]


def face_label(face: Face) -> str:
    """A face for people: ``K♠``, ``10♦``, ``Joker``."""
    if face == JOKER_FACE:
        return "Joker"
    suit, rank = divmod(face, 13)
    ch = RANK_CHARS[rank]
    return ("10" if ch == "T" else ch) + SUIT_SYMBOLS[suit]


class CardError(ValueError):
    """A card or card list in the text notation could not be read."""


def parse_face(text: str) -> Face:
    """Read one card in the notation (``KS``, ``10D``, ``2♣``, ``JK``)."""
    t = text.strip().upper()
    if t in ("JK", "JOKER", "*"):
        return JOKER_FACE
    if len(t) < 2:
        raise CardError(f"{text!r} is not a card: write a rank and a suit, like KS or 10D")
    rank_text, suit_text = t[:-1], t[-1]
    if suit_text in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS.index(suit_text)
    elif suit_text in SUITS:
        suit = SUITS.index(suit_text)
    else:
        raise CardError(f"{text!r} is not a card: the suit must be one of C D H S")
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANK_CHARS:
        raise CardError(f"{text!r} is not a card: the rank must be one of 2-10, J, Q, K, A")
    return suit * 13 + RANK_CHARS.index(rank_text)


def parse_faces(text: str | Iterable[str]) -> list[Face]:
    """Read a list of cards separated by spaces or commas (or given as strings)."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_face(item) for item in items]


def format_faces(faces: Iterable[Face]) -> str:
    """Cards in the notation, separated by spaces."""
    return " ".join(face_name(f) for f in faces)


def parse_kind(text: str) -> Kind:
    """Read a kind: a rank (``K``, ``10``, ``T``), ``2``, ``JK``/``joker``, ``B3`` (or ``3``),
    ``R3``.

    A full card (``KS``) is also accepted and read as its kind.
    """
    t = text.strip().upper()
    # a bare 3 is a black 3: red 3s are laid at once, so a player never holds one to name
    aliases = {"10": TEN, "JOKER": JOKER, "JK": JOKER, "B3": BLACK_THREE, "R3": RED_THREE,
               "3": BLACK_THREE}
    if t in aliases:
        return aliases[t]
    if t in KIND_CODES:
        return KIND_CODES.index(t)
    try:
        return kind_of(parse_face(t))
    except CardError:
        raise CardError(
            f"{text!r} is not a card kind: use 4-10, J, Q, K, A, 2, JK, B3 or R3"
        ) from None


# --- shoes -----------------------------------------------------------------------------


def build_shoe(decks: int, jokers_per_deck: int) -> list[Face]:
    """All faces of a multi-deck shoe, in a fixed (unshuffled) order."""
    one_deck = list(range(52)) + [JOKER_FACE] * jokers_per_deck
    return one_deck * decks


def kind_counts(faces: Iterable[Face]) -> list[int]:
    """A vector of 15 counts, one per kind."""
    counts = [0] * NUM_KINDS
    for f in faces:
        counts[FACE_KIND[f]] += 1
    return counts


def face_counts(faces: Iterable[Face]) -> list[int]:
    """A vector of 53 counts, one per face."""
    counts = [0] * NUM_FACES
    for f in faces:
        counts[f] += 1
    return counts


def faces_from_counts(counts: list[int]) -> list[Face]:
    """The faces of a face-count vector, in face order.

    >>> faces_from_counts([0, 2, 0, 1])
    [1, 1, 3]
    """
    out: list[int] = []
    for face, n in enumerate(counts):
        if n == 1:
            out.append(face)
        elif n:
            out.extend([face] * n)
    return out


def hand_faces(counts: list[int], total: int) -> tuple[Face, ...]:
    """:func:`faces_from_counts` as a tuple, given how many cards the counts hold
    (``total``), for pure Python: the faces held once each are picked by
    :func:`itertools.compress` (a loop in C), and only a hand that holds a face twice or
    more is walked again, over the faces it holds (a loop over every face, as
    :func:`faces_from_counts` is, costs more interpreted; compiled, that loop is native
    and the faster: :mod:`handfoot.game.listing` calls this only in pure Python).

    >>> hand_faces([0, 2, 0, 1], 3)
    (1, 1, 3)
    """
    held = tuple(compress(_FACES_IN_ORDER, counts))
    if len(held) == total:
        return held
    out: list[int] = []
    for face in held:
        n = counts[face]
        if n == 1:
            out.append(face)
        else:
            out.extend([face] * n)
    return tuple(out)


class ByFields:
    """The base of the frozen dataclasses of the rules, the moves and the engine: pickled
    and copied (``copy``, ``deepcopy``) as a call of the class with its fields, in order. A
    dataclass's own pickling of a frozen class sets the fields one by one, which a class
    compiled by mypyc refuses (docs/performance.md, "Compiled build"). It lives here, at
    the bottom of the layers, so that every layer above can use it."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        names: tuple[str, ...] = getattr(type(self), "__match_args__")  # noqa: B009
        return type(self), tuple(getattr(self, name) for name in names)
