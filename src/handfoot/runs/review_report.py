"""A game review as people read it: classes, accuracy, the costliest decisions and why.

:func:`game_review` turns the decisions :func:`handfoot.runs.review.review_record` judged
into per-seat summaries (:class:`SeatReview`); :meth:`GameReview.to_data` is the JSON of
``handfoot review --json`` and of the web page's review. The thresholds and the accuracy
formula are explained, with the measurements that chose them, in docs/review.md: they are
points of partnership-13's margins, scaled for other rules by what their rounds put at stake
(:func:`handfoot.runs.review_stakes.stake_scale`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.events import imperative
from handfoot.game.record import GameRecord, check_record
from handfoot.runs.review import (
    DEFAULT_BUDGET,
    DRAW_FACTOR,
    HORIZON_TURNS_EACH,
    POLICY,
    Candidate,
    DecisionReview,
    review_record,
)
from handfoot.runs.review_stakes import stake_scale

__all__ = ["CLASSES", "THRESHOLDS", "Z_CLASS", "GameReview", "SeatReview", "accuracy_of",
           "classify", "decision_data", "game_review", "lines", "why"]

CLASSES = ("good", "inaccuracy", "mistake", "blunder")

THRESHOLDS = {"inaccuracy": 20.0, "mistake": 40.0, "blunder": 150.0}
"""The least loss (points of the round's margin) of each class but good, on partnership-13
(docs/review.md); other rules' are these times their stake scale (:func:`lines`)."""

Z_CLASS = 1.0
"""A decision is classed worse than good only when its loss exceeds this many standard
errors: a loss the play-outs cannot tell from nothing is not held against the player."""

ACCURACY_SCALE = 100.0
"""A decision's accuracy is ``100 * exp(-loss / (ACCURACY_SCALE * scale))``: on
partnership-13 (scale 1) 100 for no loss, 82 for an inaccuracy of 20 points, 67 for a
mistake of 40, 22 for a blunder of 150; the same at each class's line under other rules."""


def lines(scale: float = 1.0) -> dict[str, float]:
    """The class lines in points of a game whose stakes are ``scale`` times partnership-13's
    (:func:`~handfoot.runs.review_stakes.stake_scale`): :data:`THRESHOLDS` times ``scale``.

    >>> lines(2.5)
    {'inaccuracy': 50.0, 'mistake': 100.0, 'blunder': 375.0}
    """
    return {name: round(line * scale, 1) for name, line in THRESHOLDS.items()}


def classify(loss: float, se: float, scale: float = 1.0) -> str:
    """The class of a decision that cost ``loss`` points (± ``se``) in a game whose stakes
    are ``scale`` times partnership-13's (its lines: :func:`lines`). A blunder needs its loss
    to be at least the blunder line by :data:`Z_CLASS` standard errors (a loss of 300 ± 200
    is a mistake on partnership-13): measured on house rules where the whole pile is taken
    (margins in thousands, standard errors in hundreds), the blunders of a review at 40
    determinizations that were only just above one standard error were as often not
    blunders at all, played again on 147 and to the round's end (docs/review.md)."""
    if loss <= Z_CLASS * se:
        return "good"
    line = lines(scale)
    if loss - Z_CLASS * se >= line["blunder"]:
        return "blunder"
    for name in ("mistake", "inaccuracy"):
        if loss >= line[name]:
            return name
    return "good"


def accuracy_of(losses: Sequence[float], scale: float = 1.0) -> float:
    """A seat's accuracy, 0..100: the mean of its decisions' ``100 * exp(-loss / (100 *
    scale))`` (100 with no decision), ``scale`` as in :func:`classify`."""
    if not losses:
        return 100.0
    unit = ACCURACY_SCALE * scale
    return sum(100.0 * math.exp(-x / unit) for x in losses) / len(losses)


def _more_often(x: float) -> str:
    """A difference of two frequencies (0..1) in a player's words: "about 3 more times in
    10"."""
    return f"about {max(1, round(10 * x))} more time{'s' if round(10 * x) > 1 else ''} in 10"


def _cards(n: float) -> str:
    return f"{n:.0f} card{'' if round(n) == 1 else 's'}"


def why(played: Candidate, best: Candidate, loss: float) -> str:
    """One line in a player's words: what the better move gains or avoids, from the
    differences between the two moves' play-outs (books made, books handed to the other
    side, the pile left to the next player, points caught in hand, going out). Books,
    points held and going out are counted where the play-outs' short cut is (every player
    having had :data:`~handfoot.runs.review.HORIZON_TURNS_EACH` more turns, or the round's
    end if it comes first), and the line says so: never "by the round's end"."""
    soon = f"within the next {HORIZON_TURNS_EACH} turns of each player"
    reasons: list[tuple[float, str]] = []
    pile = played.next_pickup - best.next_pickup
    if pile >= 1.0:
        reasons.append((pile * 40.0, f"after your move the next player picks up about "
                                     f"{_cards(played.next_pickup)} from the pile on "
                                     f"average, against {_cards(best.next_pickup)}"))
    books = best.books - played.books
    if books >= 0.2:
        more = (f"one more book {_more_often(books)}" if books < 0.95 else
                f"about {books:.0f} more book{'s' if books >= 1.5 else ''}")
        reasons.append((books * 300.0, f"the better move closes {more} {soon}"))
    given = played.other_books - best.other_books
    if given >= 0.2:
        more = (f"one more book {_more_often(given)}" if given < 0.95 else
                f"about {given:.0f} more book{'s' if given >= 1.5 else ''}")
        reasons.append((given * 300.0, f"your move helps the other side to {more} {soon}"))
    caught = played.caught - best.caught
    if caught >= 30.0:
        reasons.append((caught, f"after your move your side still holds about {caught:.0f} "
                                f"more points of cards {soon} (they count against you "
                                "if the round ends)"))
    out = best.went_out - played.went_out
    if out >= 0.15:
        reasons.append((out * 400.0, f"the better move lets your side go out {soon} "
                                     f"{_more_often(out)}"))
    head = f"{imperative(best.words)} rather than {imperative(played.words)}"
    if not reasons:
        parted = _parted(played, best)
        if parted is None:
            return f"{head}: about {loss:.0f} points better on the round"
        return f"{head}: {parted}"
    reasons.sort(key=lambda r: -r[0])
    return f"{head}: {reasons[0][1]}"


_HELD = {
    "wild": ("wild card", "wild cards", "in hand"),
    "fit": ("card of a rank it has melded", "cards of ranks it has melded", "in hand"),
    "group": ("card in a pair or set", "cards in pairs or sets", "in hand"),
    "loose": ("single card", "single cards", "in hand"),
    "black3": ("black 3", "black 3s", "in hand"),
    "foot": ("card", "cards", "still in its feet"),
    "near": ("meld one or two cards from a book", "melds one or two cards from a book",
             "on the table"),
    "wild meld": ("card", "cards", "in its meld of wild cards"),
    "points": ("point", "points", "in hand"),
    "melded": ("card", "cards", "on the table"),
}
"""How each of the leaf's features (:data:`~handfoot.runs.review.LEAF_FEATURES`) is said:
one, many, and where."""


def _count_words(x: float, one: str, many: str, where: str) -> str:
    """A difference in counts: "about 3 more wild cards in hand", "about 2 fewer points in
    hand", "one more wild card in hand about 4 times in 10" (a mean below one is said as how
    often)."""
    more = "more" if x > 0 else "fewer"
    n = abs(x)
    if n >= 0.95:
        return f"about {n:.0f} {more} {one if round(n) == 1 else many} {where}"
    return f"one {more} {one} {where} {_more_often(n).replace(' more', '')}"


def _parted(played: Candidate, best: Candidate) -> str | None:
    """The reason for a loss no play-out figure of :func:`why` explains: what part of the
    margin at the cut the two moves were compared at (the score on the table, or one of the
    leaf's counts of the cards held and laid) makes most of the difference, said with the
    count it comes from; None without the parts."""
    from handfoot.runs.review import LEAF_FEATURES

    n = len(LEAF_FEATURES)
    if len(played.parts) != 1 + 2 * n or len(best.parts) != 1 + 2 * n:
        return None
    gain = [b - a for a, b in zip(played.parts, best.parts, strict=True)]
    soon = f"within the next {best.turns} turns of each player"
    j = max(range(1 + n), key=lambda i: gain[i])
    # what the rest of the position makes up for, said when it is more than a little
    rest = sum(gain[: 1 + n]) - gain[j]
    but = f", though the rest of the position is worth about {-rest:.0f} points less" \
        if rest <= -20 else ""
    if j == 0 or gain[j] <= 0:
        return (f"the better move scores about {max(0.0, gain[0]):.0f} more points on the "
                f"table (melds and books) {soon}{but}")
    name = LEAF_FEATURES[j - 1]
    one, many, where = _HELD[name]
    count = gain[n + j]
    what = _count_words(count, one, many, where)
    return (f"{soon} your side has {what}, worth about {gain[j]:.0f} points to it "
            f"(as such cards were worth in the reviewer's own games){but}")


_SUITS = "SHCD"


def move_cards(notation: str) -> list[str]:
    """The cards a move lays, takes with or throws, as card codes for a picture (kinds with
    a suit chosen for show: ``["KS", "KH", "KC", "2S"]``); none for a draw or an answer."""
    move = mv.parse_move(notation)
    kinds: list[int] = []
    groups: tuple[mv.MeldGroup, ...] = ()
    discard: int | None = None
    if isinstance(move, mv.Pickup | mv.Meld):
        groups = move.groups
    elif isinstance(move, mv.GoOut):
        groups, discard = move.groups, move.discard
    elif isinstance(move, mv.Discard):
        discard = move.kind
    for g in groups:
        for kind, count in g.kind_counts():
            kinds.extend([kind] * count)
    if discard is not None:
        kinds.append(discard)
    out = []
    for i, kind in enumerate(kinds):
        code = cards.KIND_CODES[kind]
        if code == "JK":
            out.append("JK")
        elif code == "B3":
            out.append("3S")
        elif code == "R3":
            out.append("3H")
        else:
            out.append(code + _SUITS[i % 4])
    return out


def decision_data(d: DecisionReview, scale: float = 1.0) -> dict[str, Any]:
    """One decision as JSON (classed at lines ``scale`` times partnership-13's)."""
    return {
        "index": d.index, "round": d.round_number, "turn": d.turn, "phase": d.phase,
        "played": d.played.notation, "played_words": d.played.words,
        "best": d.best.notation, "best_words": d.best.words,
        "played_cards": move_cards(d.played.notation), "best_cards": move_cards(d.best.notation),
        "loss": round(d.loss, 1), "se": round(d.se, 1), "class": classify(d.loss, d.se, scale),
        "why": why(d.played, d.best, d.loss) if d.best.notation != d.played.notation else "",
        "candidates": d.candidates,
    }


@dataclass(frozen=True)
class SeatReview:
    """One seat's review: its decisions and what they add up to."""

    seat: int
    name: str
    decisions: tuple[DecisionReview, ...]
    scale: float = 1.0
    """The game's stakes against partnership-13's: its class lines and accuracy are scaled
    by it (:func:`lines`)."""

    @property
    def mean_loss(self) -> float:
        """The mean of the decisions' unclipped loss estimates (at least 0): a decision's
        loss is clipped at 0, so the mean of the losses would count noise as loss."""
        if not self.decisions:
            return 0.0
        return max(0.0, sum(d.estimate for d in self.decisions) / len(self.decisions))

    @property
    def accuracy(self) -> float:
        return accuracy_of([d.loss for d in self.decisions], self.scale)

    @property
    def points_lost(self) -> float:
        """The losses of the decisions classed worse than good, added up: what the player
        sees marked in the timeline (the web page shows it; :attr:`mean_loss`, the measure
        of play, nets every decision's noise out and may be 0 beside a mistake)."""
        return sum(d.loss for d in self.decisions
                   if classify(d.loss, d.se, self.scale) != "good")

    def classes(self) -> dict[str, int]:
        counts = dict.fromkeys(CLASSES, 0)
        for d in self.decisions:
            counts[classify(d.loss, d.se, self.scale)] += 1
        return counts

    def costliest(self, k: int = 3) -> list[DecisionReview]:
        """The ``k`` decisions that cost most (only those classed worse than good)."""
        bad = [d for d in self.decisions if classify(d.loss, d.se, self.scale) != "good"]
        return sorted(bad, key=lambda d: (-d.loss, d.index))[:k]

    def to_data(self, *, all_decisions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat, "name": self.name, "decisions": len(self.decisions),
            "mean_loss": round(self.mean_loss, 1), "accuracy": round(self.accuracy, 1),
            "points_lost": round(self.points_lost, 1),
            "classes": self.classes(),
            "costliest": [decision_data(d, self.scale) for d in self.costliest()],
        }
        if all_decisions:
            data["timeline"] = [decision_data(d, self.scale) for d in self.decisions]
        return data


@dataclass(frozen=True)
class GameReview:
    """A whole review: the seats reviewed and how it was computed."""

    seats: tuple[SeatReview, ...]
    samples: int
    """Determinizations per play decision (a draw decision with a choice is weighed on
    :data:`~handfoot.runs.review.DRAW_FACTOR` times as many)."""
    budget: float | None
    policy: str = POLICY
    scale: float = 1.0
    """The game's stakes against partnership-13's
    (:func:`~handfoot.runs.review_stakes.stake_scale`): its class lines are :func:`lines` of
    it."""

    def to_data(self, *, all_decisions: bool = False) -> dict[str, Any]:
        return {
            "seats": [s.to_data(all_decisions=all_decisions) for s in self.seats],
            "samples": self.samples, "draw_samples": self.samples * DRAW_FACTOR,
            "budget": self.budget, "reviewer": self.policy,
            "unit": "points of the round's margin (your side's round score minus the best "
                    "other side's)",
            "thresholds": lines(self.scale),
            "scale": self.scale,
        }


def game_review(record: GameRecord, seats: Sequence[int] | None = None, *,
                budget: float = DEFAULT_BUDGET, samples: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> GameReview:
    """Review ``record`` for ``seats`` (all by default); see
    :func:`handfoot.runs.review.review_record` for the errors raised."""
    reviews, used = review_record(record, seats, budget=budget, samples=samples,
                                  progress=progress)
    scale = stake_scale(*check_record(record))
    names: Mapping[int, str] = {i: s.name for i, s in enumerate(record.seats)}
    return GameReview(
        tuple(SeatReview(s, names[s], tuple(ds), scale) for s, ds in sorted(reviews.items())),
        used, None if samples is not None else budget, scale=scale)
