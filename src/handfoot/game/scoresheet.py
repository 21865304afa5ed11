"""Score sheets for tables that play with real cards (see docs/score-keeper.md).

A table counts, for each side at the end of a round, its books by kind, its red 3s, who
went out, the points of the cards it melded and of the cards left in its hands and feet,
and the tabletop-only bonuses and penalties its rules have. :func:`read_entry` checks one
side's count (a :class:`SideEntry`), :func:`check_round` a round's counts together, and
:func:`score_entry` scores a count with the engine's own :func:`~handfoot.game.scoring.score_tally`,
so the breakdown has the lines of the game's round screen. A :class:`ScoreSheet` holds the
rules, the names and the rounds; :meth:`ScoreSheet.view` gives every round's breakdown, the
running totals, the next round's opening minimums and, at the end, the winners.

Entries are plain JSON (the web page, the terminal and the exports write the same)::

    {"books": {"clean": 2, "dirty": 1, "wild": 0, "special": {"5": 1}},
     "red_threes": 1, "went_out": true,
     "melded": 1450,                          # a total, or counts by card: {"K": 8, "2": 1}
     "left": {"Q": 1, "black 3": 1},          # the same; with a total, the 3s are counted apart
     "black_threes_left": 0, "red_threes_left": 0,
     "tabletop": {"improper_meld": 1}}
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from handfoot.game import cards
from handfoot.game.cards import BLACK_THREE, JOKER, KIND_NAMES, KIND_PLURALS, RANKS, RED_THREE, TWO
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.record import profile_spec
from handfoot.game.rules import FIELDS, Layout, Profile
from handfoot.game.scoring import SideScore, SideTally, score_tally
from handfoot.game.table import Books, missing_books, opening_minimum

__all__ = ["FORMAT", "MAX_NAME", "TABLETOP", "Problem", "RoundView", "ScoreSheet",
           "ScoreSheetError", "SheetView", "SideEntry", "adjustments", "check_round",
           "clean_name", "entry_form", "read_entry", "round_problems", "score_entry",
           "score_json", "special_ranks", "tabletop_rules"]

FORMAT: Final = "handfoot-score-sheet"
"""The ``format`` of a score sheet's JSON export."""

MAX_NAME: Final = 40
"""Longest side or player name kept (longer ones are cut)."""

MAX_COUNT: Final = 10_000
"""No count a table enters is larger (a round holds far fewer cards)."""

TABLETOP: Final[Mapping[str, str]] = {
    "perfect_deals": "perfect_deal_bonus",
    "dealer_off": "dealer_bonus",
    "improper_melds": "improper_meld_penalty",
    "knee_reminders": "knee_reminder_penalty",
    "went_out_unasked": "go_out_without_permission_penalty",
    "failed_going_out": "failed_going_out_penalty",
    "bad_pickups": "bad_pickup_penalty",
}
"""Each tabletop entry and the profile parameter that scores it. ``dealer_off`` is how many
cards the side's dealer was off (empty: the side did not deal); the others are counts."""

_TABLETOP_WORDS: Final[Mapping[str, str]] = {
    "perfect_deals": "Players with a perfect deal",
    "dealer_off": "Cards the dealer was off (empty: not this side's deal)",
    "improper_melds": "Improper openings (below the minimum)",
    "knee_reminders": "Reminders to pick up the Knee",
    "went_out_unasked": "Tries to go out unasked (or after a no)",
    "failed_going_out": "Failures to go out after permission",
    "bad_pickups": "Pickups whose top card could not be melded",
}

_CARD_NAMES: Final[Mapping[str, int]] = {
    **{name.lower(): kind for kind, name in enumerate(KIND_NAMES)},
    "t": cards.TEN, "jk": JOKER, "b3": BLACK_THREE, "r3": RED_THREE,
}
"""Card kinds by the names an entry may use (``"K"``, ``"10"``, ``"joker"``, ``"red 3"``)."""

_MELDABLE: Final = (*RANKS, TWO, JOKER)


class ScoreSheetError(ValueError):
    """An entry that cannot be right; the message says why, in a player's words."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason a round cannot be right, with the answers it concerns: (side, part)
    pairs, a part being ``went_out``, ``books``, ``red_threes``, ``melded``,
    ``unfinished``, ``left`` (the 3s left with it) or ``tabletop:KEY``; a front end asks
    again for those answers only (:func:`round_problems`)."""

    message: str
    parts: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class SideEntry:
    """What one side counted at the end of a round, checked (see :func:`read_entry`)."""

    clean_books: int = 0
    """Clean books but those of the special ranks."""
    special_books: tuple[tuple[int, int], ...] = ()
    """(rank, clean books of that rank) for the profile's special ranks."""
    dirty_books: int = 0
    wild_books: int = 0
    red_threes: int = 0
    went_out: bool = False
    melded: int | tuple[tuple[int, int], ...] = 0
    """A points total, or (kind, cards) counts of the cards on the side's table."""
    unfinished: int | tuple[tuple[int, int], ...] = 0
    """The same for unfinished second melds (where the profile scores them negative)."""
    left: int | tuple[tuple[int, int], ...] = 0
    """The same for the cards left in the side's hands and feet."""
    black_threes_left: int = 0
    red_threes_left: int = 0
    tabletop: tuple[tuple[str, int], ...] = ()
    """(entry of :data:`TABLETOP`, number) pairs."""

    def json(self) -> dict[str, Any]:
        """The entry as :func:`read_entry` reads it back."""
        def cards_json(v: int | tuple[tuple[int, int], ...]) -> int | dict[str, int]:
            return v if isinstance(v, int) else {KIND_NAMES[k]: n for k, n in v}
        out: dict[str, Any] = {
            "books": {"clean": self.clean_books, "dirty": self.dirty_books,
                      "wild": self.wild_books,
                      "special": {KIND_NAMES[r]: n for r, n in self.special_books}},
            "red_threes": self.red_threes, "went_out": self.went_out,
            "melded": cards_json(self.melded), "left": cards_json(self.left),
            "black_threes_left": self.black_threes_left,
            "red_threes_left": self.red_threes_left,
            "tabletop": dict(self.tabletop)}
        if self.unfinished != 0:
            out["unfinished"] = cards_json(self.unfinished)
        return out

    @property
    def all_clean_books(self) -> int:
        return self.clean_books + sum(n for _, n in self.special_books)


def special_ranks(profile: Profile) -> tuple[int, ...]:
    """The ranks whose clean books a table counts apart: those with their own bonus and
    those a side needs to go out."""
    return tuple(sorted({r for r, _ in profile.special_book_bonus}
                        | set(profile.special_books_to_go_out)))


def tabletop_rules(profile: Profile) -> tuple[str, ...]:
    """The tabletop entries the profile scores (a parameter that is not 0 or empty)."""
    return tuple(key for key, param in TABLETOP.items() if getattr(profile, param))


def entry_form(profile: Profile) -> dict[str, Any]:
    """What a side enters for a round under ``profile``: the fields, in a player's words,
    for the web page and the terminal."""
    books = [{"key": "clean", "label": "Clean books"
              + (" (other ranks)" if special_ranks(profile) else "")},
             {"key": "dirty", "label": "Dirty books"}]
    if profile.all_wild_melds:
        books.append({"key": "wild", "label": "All-wild books"})
    return {
        "books": books,
        "special": [{"key": KIND_NAMES[r], "label": f"Clean books of {KIND_PLURALS[r]}"}
                    for r in special_ranks(profile)],
        "unfinished": profile.unfinished_second_meld_negative,
        "cards": [KIND_NAMES[k] for k in _MELDABLE],
        "threes": [KIND_NAMES[BLACK_THREE], KIND_NAMES[RED_THREE]],
        "values": {KIND_NAMES[k]: profile.kind_values[k] for k in _MELDABLE},
        "penalties": {KIND_NAMES[BLACK_THREE]: -profile.black_three_penalty,
                      KIND_NAMES[RED_THREE]: -profile.red_three_penalty},
        "tabletop": [{"key": key, "label": _TABLETOP_WORDS[key],
                      "optional": key == "dealer_off",
                      "points": _tabletop_points_text(profile, key)}
                     for key in tabletop_rules(profile)],
        "book_size": profile.book_size,
    }


def _tabletop_points_text(profile: Profile, key: str) -> str:
    value = getattr(profile, TABLETOP[key])
    if key == "dealer_off":
        return ", ".join(f"{i} off: {v:+,}" for i, v in enumerate(value))
    sign = 1 if key == "perfect_deals" else -1
    return f"{sign * value:+,} each"


# --- reading and checking entries --------------------------------------------------------


def read_entry(profile: Profile, data: Any, *, who: str = "this side",
               together: bool = True) -> SideEntry:
    """A side's entry from JSON, checked on its own (:func:`check_round` checks a round's
    entries together); a :class:`ScoreSheetError` names what cannot be right. Without
    ``together`` each part is checked alone, not against the others (books against the
    cards melded, going out against the books: :func:`round_problems` does that)."""
    if not isinstance(data, Mapping):
        raise ScoreSheetError(f"{who}: an entry is an object of counts")
    books = data.get("books", {})
    if not isinstance(books, Mapping):
        raise ScoreSheetError(f"{who}: books: an object like {{\"clean\": 1, \"dirty\": 2}}")
    unknown = set(books) - {"clean", "dirty", "wild", "special"}
    if unknown:
        raise ScoreSheetError(f"{who}: books: no kind of book called {sorted(unknown)[0]!r}")
    clean = _count(books.get("clean", 0), f"{who}: clean books")
    dirty = _count(books.get("dirty", 0), f"{who}: dirty books")
    wild = _count(books.get("wild", 0), f"{who}: all-wild books")
    if wild and not profile.all_wild_melds:
        raise ScoreSheetError(f"{who}: all-wild books: these rules have no all-wild melds")
    special_in = books.get("special", {}) or {}
    if not isinstance(special_in, Mapping):
        raise ScoreSheetError(f"{who}: special books: an object like {{\"5\": 1}}")
    ranks = special_ranks(profile)
    special: dict[int, int] = {}
    for name, n in special_in.items():
        kind = _card_kind(name, f"{who}: special books")
        if kind not in ranks:
            raise ScoreSheetError(
                f"{who}: special books: {KIND_PLURALS[kind]} are not special under these "
                "rules" + (f" (only {', '.join(KIND_PLURALS[r] for r in ranks)})" if ranks
                           else ""))
        special[kind] = _count(n, f"{who}: clean books of {KIND_PLURALS[kind]}")
    went_out = data.get("went_out", False)
    if not isinstance(went_out, bool):
        raise ScoreSheetError(f"{who}: went_out: true or false")
    melded = _cards(data.get("melded", 0), f"{who}: cards melded", _MELDABLE)
    unfinished = _cards(data.get("unfinished", 0), f"{who}: unfinished second melds",
                        _MELDABLE)
    if unfinished != 0 and not profile.unfinished_second_meld_negative:
        raise ScoreSheetError(f"{who}: unfinished second melds score nothing apart under "
                              "these rules: count them with the cards melded")
    left = _cards(data.get("left", 0), f"{who}: cards left", (*_MELDABLE, BLACK_THREE,
                                                               RED_THREE))
    black = _count(data.get("black_threes_left", 0), f"{who}: black 3s left")
    red_left = _count(data.get("red_threes_left", 0), f"{who}: red 3s left")
    if not isinstance(left, int) and (black or red_left):
        raise ScoreSheetError(f"{who}: with the cards left counted by card, count the 3s "
                              "among them, not apart")
    tabletop_in = data.get("tabletop", {}) or {}
    if not isinstance(tabletop_in, Mapping):
        raise ScoreSheetError(f"{who}: tabletop: an object of counts")
    allowed = tabletop_rules(profile)
    tabletop: list[tuple[str, int]] = []
    for key, n in tabletop_in.items():
        if key not in TABLETOP:
            raise ScoreSheetError(f"{who}: tabletop: no tabletop rule called {key!r}")
        if key not in allowed:
            if n in (0, None):
                continue
            raise ScoreSheetError(f"{who}: {_TABLETOP_WORDS[key].lower()}: these rules "
                                  "score nothing for it")
        if n is None:
            continue
        tabletop.append((key, _count(n, f"{who}: {_TABLETOP_WORDS[key].lower()}")))
    entry = SideEntry(
        clean_books=clean, special_books=tuple(sorted(special.items())), dirty_books=dirty,
        wild_books=wild, red_threes=_count(data.get("red_threes", 0), f"{who}: red 3s laid"),
        went_out=went_out, melded=melded, unfinished=unfinished, left=left,
        black_threes_left=black, red_threes_left=red_left, tabletop=tuple(tabletop))
    if together:
        _check_side(profile, entry, who)
    return entry


def check_round(profile: Profile, layout: Layout, entries: Sequence[SideEntry],
                side_names: Sequence[str]) -> None:
    """Refuse a round's entries that cannot all be right together: two sides going out,
    more books, red 3s or cards of a kind than the decks hold (the first of
    :func:`round_problems`)."""
    problems = round_problems(profile, layout, entries, side_names)
    if problems:
        raise ScoreSheetError(problems[0].message)


def round_problems(profile: Profile, layout: Layout, entries: Sequence[SideEntry],
                   side_names: Sequence[str]) -> list[Problem]:
    """Every reason a round's entries (each read by :func:`read_entry`) cannot all be
    right together, each side's own checks included, with the answers each concerns."""
    if len(entries) != layout.sides:
        raise ScoreSheetError(f"a round has an entry for each of the {layout.sides} sides")
    out: list[Problem] = []
    for side, (name, e) in enumerate(zip(side_names, entries, strict=True)):
        out += _side_problems(profile, e, name, side)
    out_sides = [s for s, e in enumerate(entries) if e.went_out]
    if len(out_sides) > 1:
        out.append(Problem(
            "only one side goes out in a round, not "
            + " and ".join(side_names[s] for s in out_sides),
            tuple((s, "went_out") for s in out_sides)))
    per_side = layout.seats_per_side
    for side, (name, e) in enumerate(zip(side_names, entries, strict=True)):
        perfect = dict(e.tabletop).get("perfect_deals", 0)
        if perfect > per_side:
            out.append(Problem(
                f"{name}: {perfect} players with a perfect deal, but the side has "
                f"{_plural(per_side, 'player')}", ((side, "tabletop:perfect_deals"),)))
    dealers = [s for s, e in enumerate(entries) if "dealer_off" in dict(e.tabletop)]
    if len(dealers) > 1:
        out.append(Problem(
            "one player deals a round: the cards the dealer was off go to one side, not "
            + " and ".join(side_names[s] for s in dealers) + " (leave the others empty)",
            tuple((s, "tabletop:dealer_off") for s in dealers)))
    decks = profile.decks(layout.players)
    limits = _deck_limits(profile, decks)
    sides = range(len(entries))

    def parts(part: str, counts: Sequence[int]) -> tuple[tuple[int, str], ...]:
        return tuple((s, part) for s in sides if counts[s])

    books = [e.all_clean_books + e.dirty_books + e.wild_books for e in entries]
    clean = [e.all_clean_books for e in entries]
    wild = [e.wild_books for e in entries]
    red_laid = [e.red_threes for e in entries]
    red_left = [e.red_threes_left + _n(e.left, RED_THREE) for e in entries]
    black = [e.black_threes_left + _n(e.left, BLACK_THREE) for e in entries]
    used: list[tuple[str, int, tuple[tuple[int, str], ...]]] = [
        ("books", sum(books), parts("books", books)),
        ("clean", sum(clean), parts("books", clean)),
        ("wild", sum(wild), parts("books", wild)),
        ("red 3s", sum(red_laid) + sum(red_left),
         parts("red_threes", red_laid) + parts("left", red_left)),
        ("black 3s", sum(black), parts("left", black)),
    ]
    for rank in special_ranks(profile):
        of_rank = [dict(e.special_books).get(rank, 0) for e in entries]
        used.append((f"clean books of {KIND_PLURALS[rank]}", sum(of_rank),
                     parts("books", of_rank)))
    for kind in _MELDABLE:
        by_part = {part: [_n(getattr(e, part), kind) for e in entries]
                   for part in ("melded", "unfinished", "left")}
        used.append((KIND_PLURALS[kind], sum(sum(v) for v in by_part.values()),
                     tuple(p for part, v in by_part.items() for p in parts(part, v))))
    for what, n, concerned in used:
        if n > limits[what]:
            out.append(Problem(_too_many(what, n, limits[what], decks), concerned))
    return out


def score_entry(profile: Profile, side: int, entry: SideEntry) -> SideScore:
    """A side's round score from its entry, by the engine's :func:`score_tally`."""
    values = profile.kind_values
    special = dict(profile.special_book_bonus)
    melded_cards, melded_points = _cards_points(entry.melded, values)
    unfinished_cards, unfinished_points = _cards_points(entry.unfinished, values)
    if isinstance(entry.left, int):
        left_cards, left_points = 0, entry.left
        black, red = entry.black_threes_left, entry.red_threes_left
    else:
        counts = dict(entry.left)
        black, red = counts.pop(BLACK_THREE, 0), counts.pop(RED_THREE, 0)
        left_cards = sum(counts.values())
        left_points = sum(n * values[k] for k, n in counts.items())
    tally = SideTally(
        melded_cards=melded_cards, melded_points=melded_points,
        unfinished_cards=unfinished_cards, unfinished_points=unfinished_points,
        clean_books=entry.clean_books + sum(n for r, n in entry.special_books
                                            if r not in special),
        special_books=tuple((r, n) for r, n in entry.special_books if r in special),
        dirty_books=entry.dirty_books, wild_books=entry.wild_books,
        red_threes=entry.red_threes, went_out=entry.went_out, left_cards=left_cards,
        left_points=left_points, black_threes_left=black, red_threes_left=red)
    return score_tally(profile, side, tally, adjustments(profile, entry))


def adjustments(profile: Profile, entry: SideEntry) -> list[tuple[str, int]]:
    """The breakdown lines of an entry's tabletop rules: (label with the count, points)."""
    out = []
    for key, n in entry.tabletop:
        param = TABLETOP[key]
        label = FIELDS[param].label.removesuffix(" (tabletop)")
        value = getattr(profile, param)
        if key == "dealer_off":
            points = value[n] if n < len(value) else 0
            out.append((f"{label}: {n} off", points))
        elif n:
            sign = 1 if key == "perfect_deals" else -1
            out.append((f"{label} \u00d7{n}", sign * n * value))
    return out


# --- the sheet -----------------------------------------------------------------------------


@dataclass
class ScoreSheet:
    """A game kept on paper: its rules, sides and players, and each round's entries."""

    profile: Profile
    layout: Layout
    sides: list[str]
    players: list[list[str]]
    rounds: list[list[SideEntry]] = field(default_factory=list)
    title: str = ""

    @classmethod
    def new(cls, profile: Profile, layout: Layout, sides: Sequence[Any] | None = None,
            players: Sequence[Any] | None = None, title: Any = "", *,
            unique: bool = True) -> ScoreSheet:
        """A new sheet; names are checked and cut to :data:`MAX_NAME`, missing ones made up.
        With ``unique`` two sides (or two partners) may not share a name: a sheet saved
        before that check (``from_json``, the server's store) passes False and opens."""
        profile.check_layout(layout)
        side_names = _names(sides, layout.sides, "sides", unique,
                            lambda i: f"Side {i + 1}" if layout.seats_per_side > 1
                            else f"Player {i + 1}")
        if layout.seats_per_side == 1 and players is None:
            player_names = [[name] for name in side_names]
        else:
            if players is None:
                players = [None] * layout.sides
            if not isinstance(players, Sequence) or isinstance(players, str) or \
                    len(players) != layout.sides:
                raise ScoreSheetError(f"players: a list of names for each of the "
                                      f"{layout.sides} sides")
            player_names = [_names(p, layout.seats_per_side, f"players of {side_names[i]}",
                                   unique, lambda j, i=i: f"{side_names[i]} {j + 1}")
                            for i, p in enumerate(players)]
        if not isinstance(title, str):
            raise ScoreSheetError("title: a text")
        return cls(profile, layout, side_names, player_names, [], clean_name(title)[:80])

    @property
    def over(self) -> bool:
        """Whether the game is over: its last round entered, or a side reached the target."""
        if not self.rounds:
            return False
        totals = self.totals()
        target = self.profile.target_score
        return len(self.rounds) >= self.profile.rounds or (
            target is not None and max(totals) >= target)

    def totals(self, upto: int | None = None) -> list[int]:
        """Each side's total after ``upto`` rounds (all by default)."""
        totals = [0] * self.layout.sides
        for entries in self.rounds[:upto]:
            for side, entry in enumerate(entries):
                totals[side] += score_entry(self.profile, side, entry).total
        return totals

    def read_round(self, data: Any, round_number: int) -> list[SideEntry]:
        """A round's entries from JSON (a list, one per side), checked; the round may be
        the next one or one already entered (a correction)."""
        self._check_round_number(data, round_number)
        entries = [read_entry(self.profile, d, who=self.sides[i]) for i, d in enumerate(data)]
        check_round(self.profile, self.layout, entries, self.sides)
        late = self._ends_too_early(entries, round_number)
        if late:
            raise ScoreSheetError(late)
        return entries

    def round_problems(self, data: Any, round_number: int,
                       ) -> tuple[list[SideEntry], list[Problem]]:
        """Like :meth:`read_round`, but every reason the round cannot be right at once,
        each with the answers it concerns (a side's part that cannot be read concerns
        every answer of that side); the entries are good to store when there is none.
        A wrong round number or a game over still raise :class:`ScoreSheetError`."""
        self._check_round_number(data, round_number)
        every = ("went_out", "books", "red_threes", "melded", "unfinished", "left",
                 *(f"tabletop:{key}" for key in TABLETOP))
        entries: list[SideEntry] = []
        problems: list[Problem] = []
        for side, d in enumerate(data):
            try:
                entries.append(read_entry(self.profile, d, who=self.sides[side],
                                          together=False))
            except ScoreSheetError as exc:
                problems.append(Problem(str(exc), tuple((side, x) for x in every)))
        if problems:
            return [], problems
        problems = round_problems(self.profile, self.layout, entries, self.sides)
        late = None if problems else self._ends_too_early(entries, round_number)
        if late:
            problems.append(Problem(late, tuple((side, x) for side in range(len(entries))
                                                for x in every)))
        return entries, problems

    def _check_round_number(self, data: Any, round_number: int) -> None:
        if not isinstance(round_number, int) or isinstance(round_number, bool) or \
                not 1 <= round_number <= len(self.rounds) + 1:
            raise ScoreSheetError(f"round: {len(self.rounds) + 1} is the next round to enter"
                                  " (earlier ones may be corrected)")
        if round_number == len(self.rounds) + 1 and self.over:
            raise ScoreSheetError("the game is over: rounds already entered may still be "
                                  "corrected")
        if not isinstance(data, Sequence) or isinstance(data, str) or \
                len(data) != self.layout.sides:
            raise ScoreSheetError(f"a round has an entry for each of the {self.layout.sides} "
                                  "sides")

    def _ends_too_early(self, entries: list[SideEntry], round_number: int) -> str | None:
        """Why a correction may not stand: it ends the game before rounds that were played
        after it."""
        target = self.profile.target_score
        if target is not None and round_number < len(self.rounds):
            totals = self.totals(round_number - 1)
            for side, entry in enumerate(entries):
                totals[side] += score_entry(self.profile, side, entry).total
            if max(totals) >= target:
                who = self.sides[totals.index(max(totals))]
                return (f"with this correction {who} reach {max(totals):,} after round "
                        f"{round_number}, which ends the game at {target:,}, but round "
                        f"{round_number + 1} was played after it: correct the later rounds "
                        "first")
        return None

    def set_round(self, round_number: int, entries: list[SideEntry]) -> None:
        if round_number == len(self.rounds) + 1:
            self.rounds.append(entries)
        else:
            self.rounds[round_number - 1] = entries

    def view(self) -> SheetView:
        """Every round's breakdown and totals, the next round's minimums, the winners."""
        p = self.profile
        totals = [0] * self.layout.sides
        rounds = []
        for i, entries in enumerate(self.rounds, start=1):
            minimums = [opening_minimum(p, i, t) for t in totals]
            scores = [score_entry(p, s, e) for s, e in enumerate(entries)]
            totals = [t + sc.total for t, sc in zip(totals, scores, strict=True)]
            out = next((s for s, e in enumerate(entries) if e.went_out), None)
            rounds.append(RoundView(i, minimums, scores, list(totals), out, entries))
        over = self.over
        best = max(totals)
        return SheetView(
            rounds=rounds, totals=totals, over=over,
            next_round=None if over else len(self.rounds) + 1,
            next_minimums=None if over else [
                opening_minimum(p, len(self.rounds) + 1, t) for t in totals],
            winners=[s for s, t in enumerate(totals) if t == best] if over else [])

    # -- export -------------------------------------------------------------------------

    def json(self) -> dict[str, Any]:
        """The sheet as JSON: the rules (a built-in profile and overrides), the names and
        each round's entries, with the breakdowns and totals as computed."""
        base, overrides = profile_spec(self.profile)
        view = self.view()
        return {
            "format": FORMAT, "version": 1, "title": self.title, "profile": base,
            "overrides": overrides, "layout": str(self.layout),
            "sides": [{"name": n, "players": p} for n, p in zip(self.sides, self.players,
                                                                 strict=True)],
            "rounds": [{"round": r.round, "entries": [e.json() for e in r.entries],
                        "opening_minimums": r.minimums, "went_out": r.went_out,
                        "scores": [score_json(sc, e)
                                   for sc, e in zip(r.scores, r.entries, strict=True)],
                        "totals": r.totals}
                       for r in view.rounds],
            "totals": view.totals, "over": view.over, "winners": view.winners,
            "next_round": view.next_round, "next_minimums": view.next_minimums}

    @classmethod
    def from_json(cls, data: Any) -> ScoreSheet:
        """A sheet back from :meth:`json` (its computed parts are recomputed); anything
        else raises :class:`ScoreSheetError` (or ``ProfileError`` for its rules)."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ScoreSheetError(f"not a score sheet (its format is not {FORMAT!r})")
        name = data.get("profile")
        if name not in builtin_profile_names():  # a file names no path to read
            raise ScoreSheetError(f"profile: {str(name)[:40]!r} is not a built-in profile")
        overrides = data.get("overrides") or {}
        sides = data.get("sides") or []
        rounds = data.get("rounds") or []
        if not isinstance(overrides, Mapping) or not isinstance(sides, list) or \
                not all(isinstance(x, Mapping) for x in sides) or \
                not isinstance(rounds, list) or \
                not all(isinstance(r, Mapping) for r in rounds):
            raise ScoreSheetError("a damaged score sheet (overrides, sides or rounds)")
        profile = load_profile(str(name), overrides=overrides or None)
        try:
            layout = Layout.parse(str(data.get("layout")))
        except ValueError as exc:
            raise ScoreSheetError(f"layout: {exc}") from None
        try:
            profile.check_layout(layout)
        except ValueError as exc:
            raise ScoreSheetError(str(exc)) from None
        sheet = cls.new(profile, layout, [s.get("name") for s in sides],
                        [s.get("players") for s in sides], data.get("title") or "",
                        unique=False)
        for i, r in enumerate(rounds, start=1):
            sheet.set_round(i, sheet.read_round(r.get("entries"), i))
        return sheet

    def csv(self) -> str:
        """The sheet as CSV: a row for each round, side and breakdown line, then totals."""
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        out.writerow(["round", "side", "line", "count", "points"])
        view = self.view()
        for r in view.rounds:
            for sc, entry in zip(r.scores, r.entries, strict=True):
                for line in score_json(sc, entry)["lines"]:
                    count = line["count"]  # none for a line given as a points total
                    out.writerow([r.round, self.sides[sc.side], line["label"],
                                  "" if count is None or line["key"] == "adjustment"
                                  else count, line["points"]])
                out.writerow([r.round, self.sides[sc.side], "Round total", "", sc.total])
                out.writerow([r.round, self.sides[sc.side], "Game total", "",
                              r.totals[sc.side]])
        return buf.getvalue()


@dataclass(frozen=True, slots=True)
class RoundView:
    round: int
    minimums: list[int]
    """Each side's opening minimum in this round."""
    scores: list[SideScore]
    totals: list[int]
    """Each side's total after the round."""
    went_out: int | None
    """The side that went out, if one did."""
    entries: list[SideEntry]


@dataclass(frozen=True, slots=True)
class SheetView:
    rounds: list[RoundView]
    totals: list[int]
    over: bool
    next_round: int | None
    next_minimums: list[int] | None
    winners: list[int]


def score_json(score: SideScore, entry: SideEntry | None = None) -> dict[str, Any]:
    """A side's score as the round screen's JSON (``lines`` of key, label, count, points);
    a count the table gave as a points total only is ``null``."""
    totals_only = set()
    if entry is not None:
        for key, value in (("melded", entry.melded), ("unfinished_second_melds",
                                                      entry.unfinished),
                           ("cards_left", entry.left)):
            if isinstance(value, int):
                totals_only.add(key)
    return {"side": score.side, "total": score.total,
            "lines": [{"key": line.key, "label": line.label,
                       "count": None if line.key in totals_only else line.count,
                       "points": line.points} for line in score.lines]}


# --- helpers -------------------------------------------------------------------------------


def _count(value: Any, what: str) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreSheetError(f"{what}: a whole number, not {str(value)[:20]!r}")
    if value < 0:
        raise ScoreSheetError(f"{what}: a count cannot be negative ({value})")
    if value > MAX_COUNT:
        raise ScoreSheetError(f"{what}: {_shown(value)} is far more than a round holds")
    return value


def _card_kind(name: Any, what: str) -> int:
    kind = _CARD_NAMES.get(str(name).strip().lower())
    if kind is None:
        raise ScoreSheetError(f"{what}: {str(name)[:20]!r} is not a card (4-10, J, Q, K, A, "
                              "2, joker, black 3, red 3)")
    return kind


def _cards(value: Any, what: str, kinds: tuple[int, ...]) -> int | tuple[tuple[int, int], ...]:
    """A points total (any whole number: card values may be negative) or counts by card."""
    if value is None or value == "":
        return 0
    if isinstance(value, Mapping):
        counts: dict[int, int] = {}
        for name, n in value.items():
            kind = _card_kind(name, what)
            if kind not in kinds:
                raise ScoreSheetError(f"{what}: {KIND_PLURALS[kind]} are not counted here")
            counts[kind] = counts.get(kind, 0) + _count(n, f"{what}: {KIND_PLURALS[kind]}")
        return tuple(sorted((k, n) for k, n in counts.items() if n))
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreSheetError(f"{what}: a points total or counts by card, not "
                              f"{str(value)[:20]!r}")
    if abs(value) > MAX_COUNT * 100:
        raise ScoreSheetError(f"{what}: {_shown(value)} points is far more than a round "
                              "holds")
    return value


def _shown(value: int) -> str:
    """A number for a message, cut when absurdly long (``10000000000…``)."""
    text = str(value)
    return text if len(text) <= 12 else text[:12] + "\u2026"


def _n(value: int | tuple[tuple[int, int], ...], kind: int) -> int:
    return 0 if isinstance(value, int) else dict(value).get(kind, 0)


def _cards_points(value: int | tuple[tuple[int, int], ...], values: Sequence[int],
                  ) -> tuple[int, int]:
    if isinstance(value, int):
        return 0, value
    return sum(n for _, n in value), sum(n * values[k] for k, n in value)


def _check_side(profile: Profile, entry: SideEntry, who: str) -> None:
    problems = _side_problems(profile, entry, who, 0)
    if problems:
        raise ScoreSheetError(problems[0].message)


def _side_problems(profile: Profile, entry: SideEntry, who: str, side: int) -> list[Problem]:
    """What cannot be right in one side's entry, its parts checked together."""
    out = []
    size = profile.book_size
    books = entry.all_clean_books + entry.dirty_books + entry.wild_books
    if not isinstance(entry.melded, int):
        melded = sum(n for _, n in entry.melded)
        if melded < books * size:
            out.append(Problem(
                f"{who}: {books} books hold at least {books * size} cards, but only {melded} "
                "cards melded are counted", ((side, "books"), (side, "melded"))))
        wilds = sum(n for k, n in entry.melded if k in (TWO, JOKER))
        if entry.wild_books * size > wilds:
            out.append(Problem(
                f"{who}: {entry.wild_books} all-wild books hold at least "
                f"{entry.wild_books * size} wild cards, but {wilds} are counted",
                ((side, "books"), (side, "melded"))))
    if entry.went_out:
        by_rank = [0] * len(RANKS)
        for rank, n in entry.special_books:
            by_rank[rank] = n
        missing = missing_books(profile, Books(entry.all_clean_books, entry.dirty_books,
                                               entry.wild_books, tuple(by_rank)))
        if missing:
            out.append(Problem(f"{who} cannot have gone out: it still lacks {_join(missing)}",
                               ((side, "went_out"), (side, "books"))))
    return out


def _deck_limits(profile: Profile, decks: int) -> dict[str, int]:
    size = profile.book_size
    per_rank = 4 * decks
    wilds = (4 + profile.jokers_per_deck) * decks
    limits = {
        "books": (len(RANKS) * per_rank + wilds) // size,
        "clean": len(RANKS) * (per_rank // size),
        "wild": wilds // size,
        "red 3s": 2 * decks,
        "black 3s": 2 * decks,
    }
    for rank in RANKS:
        limits[f"clean books of {KIND_PLURALS[rank]}"] = per_rank // size
        limits[KIND_PLURALS[rank]] = per_rank
    limits[KIND_PLURALS[TWO]] = 4 * decks
    limits[KIND_PLURALS[JOKER]] = profile.jokers_per_deck * decks
    return limits


def _too_many(what: str, n: int, limit: int, decks: int) -> str:
    noun = {"clean": "clean books", "wild": "all-wild books"}.get(what, what)
    return f"{n} {noun} in one round: the {decks} decks in play allow at most {limit}"


def _names(values: Any, count: int, what: str, unique: bool, default: Any) -> list[str]:
    if values is None:
        values = [None] * count
    if not isinstance(values, Sequence) or isinstance(values, str) or len(values) != count:
        raise ScoreSheetError(f"{what}: {count} names")
    out = []
    for i, v in enumerate(values):
        if v is not None and not isinstance(v, str):
            raise ScoreSheetError(f"{what}: names are text")
        name = clean_name(v or "")[:MAX_NAME]
        out.append(name or str(default(i)))
    if unique and len(set(out)) < len(out):
        twice = next(n for n in out if out.count(n) > 1)
        raise ScoreSheetError(f"{what}: two are called {twice!r}; give each its own name")
    return out


def clean_name(text: str) -> str:
    r"""A name as shown: control and invisible formatting characters (a NUL, a zero-width
    space, a right-to-left override) dropped, runs of spaces made one.

    >>> clean_name("  Ann\u200b \u202eBob\x00 ")
    'Ann Bob'
    """
    kept = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf")
                   or c.isspace())
    return " ".join(kept.split())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _join(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

