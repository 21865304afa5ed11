"""Game review: what each decision of a seat cost, judged from what that seat knew.

:func:`review_record` replays a record. At each decision of a reviewed seat it takes that
seat's view only (:class:`~handfoot.game.values.PlayerView`, and the discard pile's cards,
which every seat saw land face up) and asks :func:`review_decision` what the move played
cost:

1. the candidates: the move the reviewer (the ``learned`` level: hard with the profile's
   tuned style) would make, the other plans the expert's search weighs (hard's other meld
   and pickup plans, drawing, going out, the discards hard would most gladly make), and the
   move played;
2. ``samples`` determinizations (:func:`handfoot.bots.search.determinize`: every card hidden
   from the seat dealt again, consistently with its view), each seeded from the decision's
   index in the record, never from the clock or the record's hidden cards;
3. on each determinization, every candidate played and the round played on by the
   reviewer in every seat (common random numbers: the same determinizations and bot seeds
   for every candidate) until each seat has had :data:`HORIZON_TURNS_EACH` more turns
   (counted from the deciding seat's, whether the candidate ends its turn or not) or the
   round ends, scoring the side's round margin (its round score minus the best other
   side's; at the horizon, as it stands, cards in hands and feet not counted, plus what
   :func:`leaf_value` makes of them); at a play decision whose candidates are not all
   discards, played on to :data:`LATE_TURNS_EACH` turns a seat and scored there too;
4. two moves are compared at the short cut when both are discards (or at a draw
   decision), at the later one otherwise (:meth:`Weighed.margins`). The best move: the
   reviewer's own unless another candidate beats it by :data:`Z_BEST` standard errors of
   the paired difference on the even-numbered samples; the loss is the mean margin of the
   best move minus the played move's on the odd-numbered samples (0 when the played move
   is the best, never below 0), with the standard error of those paired differences.

What the numbers mean, the thresholds of the classes and how they were measured:
docs/review.md. The text of a review (tables, one-line reasons) is in
:mod:`handfoot.runs.review_report`.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from handfoot.bots.search import ExpertBot, determinize
from handfoot.bots.styles import StyledBot, apply_shipped_style, load_style
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.record import GameRecord, RecordError, check_record, replay
from handfoot.game.values import IllegalMoveError, Phase, PlayerView
from handfoot.runs.sim import derive_seed

__all__ = ["BUDGET_USE", "DEFAULT_BUDGET", "DRAW_FACTOR", "LEAF_FEATURES", "LEAF_WEIGHTS",
           "MAX_SAMPLES", "MIN_SAMPLES", "PLAYED_SHARE", "POLICY", "Z_BEST", "Candidate",
           "DecisionReview", "Outcome", "Weighed", "leaf_features", "leaf_value", "lister_for",
           "plan_samples", "review_at", "review_decision", "review_record", "samples_at",
           "seat_input", "standing_margin", "table_words", "weigh"]

POLICY = "learned"
"""The reviewer: the bot level whose choices are the reference and who plays the rest of
the round in every play-out."""

DEFAULT_BUDGET = 30.0
"""Seconds a review may take by default (turned into a sample count before work starts)."""

MIN_SAMPLES = 4
MAX_SAMPLES = 256

PLAYOUT_MOVES_PER_SECOND = 56000.0
"""The planning rate: player moves a play-out plays per second of one core (the compiled
build measures about 60,000 on partnership-13, less the leaf's cost at the cut, about 7%;
docs/review.md). Only used to turn a budget
into a fixed sample count, never read from a clock."""

MOVES_PER_TURN = 3
"""Player moves a turn makes, about (a draw, a meld, a discard), for the same planning."""

CANDIDATES_PLANNED = 5
"""Candidates per decision assumed when a budget is turned into samples."""

DRAW_FACTOR = 4
"""A draw decision with a choice (the pile may be taken) is weighed on this many times the
play decisions' determinizations (:func:`samples_at`): its play-outs stop at the short cut
and it has two or three candidates, so at the same count it costs about 6% of a one-round
review, and what a pile is worth is the noisiest figure a review gives (a standard error of
71 points a decision at 169 determinizations, 33 at four times as many; docs/review.md)."""

PLAYED_SHARE = 0.46
"""The share of the planned play-out moves a review plays: a draw decision without a choice
plays none (one with a choice, :data:`DRAW_FACTOR` times the determinizations of two or three
candidates), a play decision whose candidates are all discards stops at the short cut, and
play-outs end with the round. Measured 0.48 (a one-round game, one seat) and 0.45 (a
four-round game, every seat) on partnership-13 (docs/review.md)."""

BUDGET_USE = 0.6
"""The share of the budget the plan spends at the planning rate: the rest is room for a
busier or slower machine (the speed of this one swings by up to 1.6 times)."""

Z_BEST = 1.5
"""Another candidate replaces the reviewer's move as the best only when it beats it by
this many standard errors of the paired difference."""

MAX_DISCARDS = 3
"""Discards tried at a discard decision (those hard would most gladly throw), besides the
one played."""

HORIZON_TURNS_EACH = 2
"""A play-out stops after every seat has had this many more turns, counted from the deciding
seat's (or at the round's end), and scores the round as it stands (:func:`_standing`):
measured on planted mistakes, a longer play-out adds more noise than it shows
(docs/review.md)."""

LATE_TURNS_EACH = 6
"""Where a play-out goes on to when a decision's candidates are not all discards: a pair of
moves with a meld (or going out) in it is compared there, two discards (and the moves of a
draw decision) at :data:`HORIZON_TURNS_EACH` (docs/review.md: a meld's worth shows later
than a discard's, and the short cut judges a discard with less noise)."""

_IN_HAND = frozenset({"cards_left", "black_threes_caught", "red_threes_caught"})

_REVIEW_SEED = 2029


LEAF_FEATURES = ("wild", "fit", "group", "loose", "black3", "foot", "near", "wild meld",
                 "points", "melded")
"""What a play-out cut at the horizon counts besides the round as it stands
(:func:`leaf_features`), each the side's figure minus the mean of the other sides':

- ``wild``: wild cards in its players' hands;
- ``fit``: natural cards in hand of a rank the side has a meld of;
- ``group``: the other natural cards of a rank its holder has two or more of;
- ``loose``: the other natural cards in hand;
- ``black3``: black threes in hand;
- ``foot``: cards in the feet not yet picked up;
- ``near``: its melds two cards or less from a book (not yet one);
- ``wild meld``: cards in its all-wild meld, while not yet a book;
- ``points``: the points of every card in its hands and feet (what going out would catch);
- ``melded``: the cards on its table (books too): without it, cards held would stand for
  the piles taken, and keeping a card would look better than laying it."""

LEAF_WEIGHTS: tuple[float, ...] = (
    # wild, fit, group, loose, black3, foot, near, wild meld, points, melded: the stock full
    82.7, 84.0, 66.7, 4.6, 51.8, 67.5, 30.8, 513.1, 8.6, 51.7,
    # the same: the stock empty
    143.4, 26.9, 16.8, -29.9, 15.4, 13.2, 258.2, 12.7, -3.1, -3.1)
"""The leaf's weights: for each of :data:`LEAF_FEATURES`, its weight while the stock is full
then when it is empty, linear in between: fitted by least squares of the difference between two
moves at one decision of (the round's final margin minus the margin as it stands at the cut)
on the difference of their features, in the reviewer's self-play
(``python benchmarks/review.py calibrate``; docs/review.md)."""


def leaf_features(state: GameState, side: int) -> tuple[float, ...]:
    """The cut position's features (:data:`LEAF_FEATURES`) for ``side``, each times
    ``early`` then times ``1 - early``, where ``early`` is the share of the round's cards
    still in the stock."""
    p = state.profile
    values = p.kind_values
    per_side: list[list[float]] = []
    for s in range(state.sides):
        ranks = {m.target for m in state.melds[s]}
        wild = fit = group = loose = black3 = foot = near = wmeld = points = melded = 0.0
        for seat in state.layout.seats_of(s):
            held = state.held[seat]
            for k in range(cards.NUM_KINDS):
                n = held[k]
                if not n:
                    continue
                points += n * values[k]
                if k in (cards.TWO, cards.JOKER):
                    wild += n
                elif k == cards.BLACK_THREE:
                    black3 += n
                elif k == cards.RED_THREE:
                    continue
                elif k in ranks:
                    fit += n
                elif n >= 2:
                    group += n
                else:
                    loose += n
            for f in state.feet[seat]:
                foot += 1
                points += values[cards.FACE_KIND[f]]
        for m in state.melds[s]:
            melded += m.size
            if m.size < p.book_size:
                if m.target == mv.WILD_MELD:
                    wmeld += m.size
                if p.book_size - 2 <= m.size:
                    near += 1
        per_side.append([wild, fit, group, loose, black3, foot, near, wmeld, points, melded])
    own = per_side[side]
    others = [per_side[s] for s in range(state.sides) if s != side]
    diff = [own[j] - sum(o[j] for o in others) / len(others) for j in range(len(own))]
    early = len(state.stock) / max(1, len(state.all_faces()))
    return tuple([d * early for d in diff] + [d * (1.0 - early) for d in diff])


def leaf_value(state: GameState, side: int) -> float:
    """What the cards still in hands and feet and the books near completion are worth to
    ``side``, in points of the round's margin (:data:`LEAF_WEIGHTS`)."""
    return sum(w * f for w, f in zip(LEAF_WEIGHTS, leaf_features(state, side), strict=True))


def _parts(state: GameState, side: int) -> tuple[float, ...]:
    """What a cut position's margin is made of, for the reasons a review gives: the margin
    with the leaf, the margin as it stands on the table, then for each of
    :data:`LEAF_FEATURES` what the leaf makes of it (points), then the feature itself (the
    side's count minus the other sides' mean)."""
    f = leaf_features(state, side)
    n = len(LEAF_FEATURES)
    points = [LEAF_WEIGHTS[j] * f[j] + LEAF_WEIGHTS[n + j] * f[n + j] for j in range(n)]
    raw = [f[j] + f[n + j] for j in range(n)]
    # the margin first, summed as leaf_value sums it (the same figure to the last bit)
    leaf = sum(w * x for w, x in zip(LEAF_WEIGHTS, f, strict=True))
    table = standing_margin(state, side)
    return (table + leaf, table, *points, *raw)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One play-out of one candidate: the side's round margin and what made it."""

    margin: float
    books: int
    """The side's books at the end of the round."""
    other_books: int
    """The other sides' books (all of them) at the end of the round."""
    caught: int
    """Points the side lost for cards left in hands and feet (≥ 0)."""
    went_out: bool
    """The side went out (or the round ended another way and it did not)."""
    next_pickup: int
    """Cards the next seat took from the pile at its next turn (0: it drew)."""
    late: float = 0.0
    """The margin at the later cut (:data:`LATE_TURNS_EACH`; ``margin`` where the play-out
    was not played on to it)."""
    parts: tuple[float, ...] = ()
    """What ``margin`` is made of (:func:`_parts`; empty at the round's end: all on the
    table)."""
    late_parts: tuple[float, ...] = ()
    """The same for ``late``."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move weighed at a decision, with its play-outs' means."""

    notation: str
    words: str
    mean: float
    books: float
    other_books: float
    caught: float
    went_out: float
    next_pickup: float
    parts: tuple[float, ...] = ()
    """The means of its play-outs' :attr:`Outcome.parts` at the cut it is compared with the
    other move of its decision review at (or ``late_parts``), on the odd-numbered
    determinizations (those the loss is measured on): the margin on the table, then what
    the leaf makes of each of :data:`LEAF_FEATURES`, then those features."""
    turns: int = HORIZON_TURNS_EACH
    """The turns a seat of that cut."""


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One reviewed decision: the move played, the best move, what the played one cost."""

    index: int
    """The move's index among all the record's moves (0-based)."""
    round_number: int
    turn: int
    """The seat's turn in the round (1-based)."""
    seat: int
    phase: str
    played: Candidate
    best: Candidate
    loss: float
    """Mean margin of the best move minus the played move's (≥ 0)."""
    se: float
    """Standard error of ``loss`` (of the paired differences)."""
    samples: int
    candidates: int
    estimate: float = 0.0
    """The loss before it is clipped at 0 (negative when the played move did better on the
    measuring samples): its mean over many decisions is not biased upwards by the clipping."""


def plan_samples(record: GameRecord, seats: Sequence[int], budget: float) -> int:
    """The determinizations per play decision a ``budget`` (seconds) allows (a draw decision
    gets :data:`DRAW_FACTOR` times as many, :func:`samples_at`): worked out from the record
    alone (its moves and who made them), so it is the same on every machine."""
    short = HORIZON_TURNS_EACH * len(record.seats) * MOVES_PER_TURN
    # a play decision's play-outs may go on to the later cut (a draw decision's never do)
    late = max(HORIZON_TURNS_EACH, LATE_TURNS_EACH) * len(record.seats) * MOVES_PER_TURN
    work = 0
    for rnd in record.rounds:
        n = len(rnd.moves)
        for i, m in enumerate(rnd.moves):
            if m.seat in seats:
                drew = isinstance(mv.parse_move(m.move), mv.Draw | mv.Pickup | mv.Knock)
                # a draw decision counts as CANDIDATES_PLANNED candidates: about what its
                # DRAW_FACTOR times as many determinizations of two or three candidates
                # come to where the pile may be taken, and none where it may not (the
                # share a review really plays is measured: PLAYED_SHARE)
                work += min(n - i, short if drew else late) * CANDIDATES_PLANNED
    if work == 0:
        return MIN_SAMPLES
    samples = int(budget * BUDGET_USE * PLAYOUT_MOVES_PER_SECOND / (work * PLAYED_SHARE))
    return max(MIN_SAMPLES, min(MAX_SAMPLES, samples))


def samples_at(view: PlayerView, samples: int) -> int:
    """The determinizations a decision is weighed on, ``samples`` being a play decision's:
    :data:`DRAW_FACTOR` times as many at a draw decision."""
    return samples * DRAW_FACTOR if view.phase == Phase.DRAW else samples


def seat_input(state: GameState, seat: int) -> tuple[PlayerView, tuple[int, ...]]:
    """What the reviewer is given at a decision: the seat's view and the pile's kinds,
    bottom first (every card of the pile was seen face up when it landed). Nothing else of
    the state reaches the reviewer."""
    return state.view(seat), tuple(cards.FACE_KIND[f] for f in state.pile)


def _make_lister(seed: int, profile_name: str) -> ExpertBot:
    bot = ExpertBot(seed, time_budget=None, iterations=1, max_discards=MAX_DISCARDS)
    apply_shipped_style(bot, profile_name)
    return bot


def lister_for(seat: int, profile_name: str) -> ExpertBot:
    """The bot that lists a seat's candidates and remembers what the seat saw: the expert's
    candidate lister with the profile's tuned style. Show it every view of the seat
    (``_observe``) and its discards (``_chosen``), as :func:`review_record` does."""
    return _make_lister(derive_seed(_REVIEW_SEED, "lister", seat), profile_name)


def _policy(seed: int, profile_name: str) -> StyledBot:
    return StyledBot(seed, style=load_style(profile_name))


def _committed(state: GameState, plan: Sequence[int]) -> mv.PlayerMove | None:
    """The player move ``plan`` (staging actions and a commit) makes on ``state``."""
    for a in plan:
        if a not in state.legal_actions():
            return None
        move = state.apply_action(a)
        if move is not None:
            return move  # type: ignore[return-value]  # apply_action commits player moves
    return None


def _candidate_moves(view: PlayerView, base: GameState, lister: ExpertBot,
                     judged: Sequence[mv.PlayerMove]) -> list[mv.PlayerMove]:
    """The reviewer's move first, then the other candidates, then the judged moves."""
    out: list[mv.PlayerMove] = []
    seen: set[str] = set()

    def add(move: mv.PlayerMove | None) -> None:
        if move is None:
            return
        key = mv.format_move(move)
        if key not in seen:
            seen.add(key)
            out.append(move)

    trial = copy.deepcopy(lister)
    for plan in trial._candidates(view):
        add(_committed(base.copy(), plan))
    for move in judged:
        add(move)
    return out


def _outcome(state: GameState, number: int, side: int, next_pickup: int) -> Outcome:
    if len(state.results) >= number:
        res = state.results[number - 1]
        scores = res.scores
        went = res.went_out is not None and res.went_out % state.sides == side
    else:
        scores = tuple(state.score_side(s) for s in range(state.sides))
        went = False
    totals = [s.total for s in scores]
    margin = float(totals[side] - max(v for s, v in enumerate(totals) if s != side))
    books = other = caught = 0
    for s, score in enumerate(scores):
        for line in score.lines:
            if line.key.endswith("books"):
                if s == side:
                    books += line.count
                else:
                    other += line.count
            elif (s == side and line.key.endswith("caught")) or (
                    s == side and line.key == "cards_left"):
                caught -= line.points
    return Outcome(margin, books, other, caught, went, next_pickup)


def standing_margin(state: GameState, side: int) -> float:
    """The side's round margin as it stands, cards still in hands and feet not counted
    against anybody (the round goes on; they may yet be melded)."""
    totals = []
    for s in range(state.sides):
        lines = state.score_side(s).lines
        totals.append(sum(line.points for line in lines if line.key not in _IN_HAND))
    return float(totals[side] - max(v for s, v in enumerate(totals) if s != side))


def _standing(state: GameState, side: int, next_pickup: int) -> Outcome:
    """A play-out cut at the horizon: the round's margin as it stands plus what the leaf
    makes of the cards still in hands and feet (:func:`leaf_value`)."""
    o = _outcome(state, state.round_number + 1, side, next_pickup)
    parts = _parts(state, side)
    return Outcome(parts[0], o.books, o.other_books, o.caught, o.went_out, next_pickup,
                   parts=parts[1:])


def _playout(state: GameState, seat: int, bot_seed: int, profile_name: str,
             late: bool = False) -> Outcome:
    """Play the rest of the round with the reviewer in every seat, to the cut (and with
    ``late``, on to the later cut, its margin in :attr:`Outcome.late`)."""
    number = state.round_number
    side = seat % state.sides
    bots = [_policy(bot_seed + s, profile_name) for s in range(state.players)]
    nxt = (seat + 1) % state.players
    next_pickup = -1  # not yet known
    steps = 0
    turns = 0
    # turns are counted from the deciding seat's: a candidate that ends its turn (a
    # discard) and one that does not (a meld) are then cut at the same point, each seat
    # having had the same turns (counted from the seat to act next, a discard's play-out
    # would give the deciding side a turn more than a meld's)
    last = seat
    short: Outcome | None = None
    while not state.is_over and state.round_number == number:
        if state.seat != last:
            last = state.seat
            turns += 1
            if short is None and turns >= HORIZON_TURNS_EACH * state.players:
                short = _standing(state, side, max(0, next_pickup))
                if not late:
                    return short
            if short is not None and turns >= LATE_TURNS_EACH * state.players:
                late_cut = _standing(state, side, 0)
                return _with_late(short, late_cut.margin, late_cut.parts)
        actor = state.to_act
        if next_pickup < 0 and actor == nxt and state.seat == nxt:
            before = len(state.pile)
            move = state.apply_listed(bots[actor].choose(state.play_view(actor)))
            if move is not None:
                next_pickup = before - len(state.pile) if isinstance(move, mv.Pickup) else 0
        else:
            state.apply_listed(bots[actor].choose(state.play_view(actor)))
        steps += 1
        if steps > 20000:  # pragma: no cover - the engine's stall rule ends every round
            break
    end = _outcome(state, number, side, max(0, next_pickup))
    return _with_late(short if short is not None else end, end.margin)


def _with_late(o: Outcome, late: float, late_parts: tuple[float, ...] = ()) -> Outcome:
    return Outcome(o.margin, o.books, o.other_books, o.caught, o.went_out, o.next_pickup,
                   late, o.parts, late_parts)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` (paired)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    k = len(d)
    m = _mean(d)
    if k < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in d) / (k - 1)
    return m, math.sqrt(var / k)


@dataclass(frozen=True, slots=True)
class Weighed:
    """The candidates of a decision played out (:func:`weigh`): the moves, their
    play-outs (the same determinizations and bot seeds for all), and the best one."""

    moves: tuple[mv.PlayerMove, ...]
    outcomes: tuple[tuple[Outcome, ...], ...]
    """Each move's play-outs, one a determinization (none for a move a determinization did
    not allow, which never happens to a move legal in the real game)."""
    best: int
    """The best move's index: the reviewer's own (0) unless another beats it by
    :data:`Z_BEST` standard errors on the even-numbered determinizations."""
    short: tuple[bool, ...] = ()
    """For each move, whether it is compared at the short cut with another such move
    (a discard, or any move of a draw decision; :func:`margins`); empty: every pair is."""
    words: tuple[str, ...] = ()
    """Each move in a player's words, as the table saw it (:func:`table_words`)."""

    def margins(self, a: int, b: int, half: slice) -> tuple[list[float], list[float]]:
        """Moves ``a`` and ``b``'s margins on the ``half`` of the determinizations, at the
        cut they are compared at: the short one for two discards (or two moves of a draw
        decision), the later one (:data:`LATE_TURNS_EACH`) for a pair with anything else."""
        return _pair_margins(self.outcomes[a][half], self.outcomes[b][half],
                             not self.short or (self.short[a] and self.short[b]))

    def index_of(self, move: mv.PlayerMove) -> int | None:
        key = mv.format_move(move)
        for c, m in enumerate(self.moves):
            if mv.format_move(m) == key and self.outcomes[c]:
                return c
        return None

    def loss_of(self, c: int) -> tuple[float, float]:
        """Move ``c``'s loss against the best, unclipped, and its standard error, on the
        odd-numbered determinizations (0, 0 for the best itself)."""
        if c == self.best:
            return 0.0, 0.0
        return _paired(*self.margins(self.best, c, slice(1, None, 2)))


def _pair_margins(a: Sequence[Outcome], b: Sequence[Outcome], short: bool,
                  ) -> tuple[list[float], list[float]]:
    if short:
        return [o.margin for o in a], [o.margin for o in b]
    return [o.late for o in a], [o.late for o in b]


def deal(view: PlayerView, rng: random.Random, pile: Sequence[int], *,
         picked: bool) -> GameState:
    """One determinization of ``view`` as the review deals them: the pile's remembered
    kinds (``pile``) kept, or forgotten where that memory does not fit the unseen cards."""
    try:
        return determinize(view, rng, pile, picked_pile=picked)
    except ValueError:  # the memory does not fit the unseen cards: forget it
        return determinize(view, rng, (), picked_pile=picked)


def weigh(view: PlayerView, pile: Sequence[int], judged: Sequence[mv.PlayerMove], *,
          lister: ExpertBot, samples: int, seed: int) -> Weighed | None:
    """Play out the reviewer's candidates at ``view`` and the ``judged`` moves on
    ``samples`` determinizations (see the module's docstring), or None when there is
    one candidate only. Reads nothing but ``view``, ``pile`` (the pile's kinds, bottom
    first) and the lister's memory of what the seat saw."""
    profile_name = view.profile.name
    picked = mv.KNOCK in view.legal_actions
    rng = random.Random(seed)
    bases: list[GameState] = []

    def base(i: int) -> GameState:
        while len(bases) <= i:
            bases.append(deal(view, rng, pile, picked=picked))
        return bases[i]

    moves = _candidate_moves(view, base(0), lister, judged)
    if len(moves) < 2:
        return None
    outcomes: list[list[Outcome]] = [[] for _ in moves]
    playable = [True] * len(moves)
    short = tuple(view.phase == Phase.DRAW or isinstance(m, mv.Discard) for m in moves
                  ) if LATE_TURNS_EACH > HORIZON_TURNS_EACH else ()
    late = not all(short)
    for i in range(samples):
        b = base(i)
        bot_seed = derive_seed(seed, "bots", i) & 0xFFFFFFF
        for c, move in enumerate(moves):
            if not playable[c]:
                continue
            trial = b.copy()
            try:
                trial.apply(move)
            except IllegalMoveError:
                playable[c] = False  # never for a move legal in the real game
                continue
            outcomes[c].append(_playout(trial, view.seat, bot_seed, profile_name, late))
    for c in range(len(moves)):
        if not playable[c]:
            outcomes[c] = []
    keep = [c for c in range(len(moves)) if outcomes[c]]
    if len(keep) < 2:
        return None
    # the best move is chosen on the even samples and the loss measured on the odd ones:
    # measured on the samples that chose it, the best of several noisy means would look
    # better than it is (a loss where the moves are equal)
    # (each candidate against the reviewer's own move, at the cut the pair is compared at)
    words = tuple(table_words(base(0), m) for m in moves)
    w = Weighed(tuple(moves), tuple(tuple(o) for o in outcomes), keep[0], short, words)
    gains = {c: _paired(*w.margins(c, keep[0], slice(0, None, 2))) for c in keep[1:]}
    challenger = max(gains, key=lambda c: (gains[c][0], -c))
    gain, se = gains[challenger]
    if gain > Z_BEST * se:
        return Weighed(w.moves, w.outcomes, challenger, short, words)
    return w


def table_words(state: GameState, move: mv.PlayerMove) -> str:
    """``move`` in the past tense as it would be laid on ``state``'s table: a group laid on
    a meld already there is said so ("laid a 4 on your 4s"), from what the move's commit
    notes (:func:`~handfoot.game.events.move_words`). Only the table is read: the same on
    every determinization of a seat's view."""
    from handfoot.game.events import move_words

    trial = state.copy()
    before = trial.moves_played
    try:
        trial.apply(move)
    except IllegalMoveError:
        return move_words(move)
    events = trial.events(before)
    melds = events[0].public.get("melds") if events and not events[0].public.get("asked") \
        else None
    return move_words(move, None if melds is None else [bool(m["new"]) for m in melds])


def review_decision(view: PlayerView, pile: Sequence[int], played: mv.PlayerMove, *,
                    lister: ExpertBot, samples: int, seed: int,
                    index: int = 0, turn: int = 0) -> DecisionReview | None:
    """What ``played`` cost at ``view`` (:func:`weigh`; see the module's docstring), or
    None when the seat had no real choice (one candidate). ``samples`` is a play decision's
    count (a draw decision is weighed on :func:`samples_at` as many)."""
    from handfoot.game.events import move_words

    samples = samples_at(view, samples)
    w = weigh(view, pile, [played], lister=lister, samples=samples, seed=seed)
    if w is None:
        return None
    played_at = w.index_of(played)
    if played_at is None:
        return None
    estimate, se = w.loss_of(played_at)
    loss = max(0.0, estimate)
    short = not w.short or (w.short[played_at] and w.short[w.best])
    width = 1 + 2 * len(LEAF_FEATURES)

    def parts(o: Outcome) -> tuple[float, ...]:
        got = o.parts if short else o.late_parts
        # a play-out that ended the round before the cut: all of it on the table
        return got if got else (o.margin if short else o.late,) + (0.0,) * (width - 1)

    def candidate(c: int) -> Candidate:
        os_ = w.outcomes[c]
        # the parts on the samples the loss is measured on: they add up to it
        each = [parts(o) for o in os_[1::2]] or [parts(o) for o in os_]
        return Candidate(
            mv.format_move(w.moves[c]), w.words[c] if w.words else move_words(w.moves[c]),
            _mean([o.margin for o in os_]),
            _mean([o.books for o in os_]), _mean([o.other_books for o in os_]),
            _mean([o.caught for o in os_]), _mean([float(o.went_out) for o in os_]),
            _mean([o.next_pickup for o in os_]),
            tuple(_mean([e[j] for e in each]) for j in range(width)),
            HORIZON_TURNS_EACH if short else LATE_TURNS_EACH)

    return DecisionReview(index, view.round_number, turn, view.seat, view.phase.name.lower(),
                          candidate(played_at), candidate(w.best), loss, se, samples,
                          sum(1 for o in w.outcomes if o), estimate)


def review_at(state: GameState, seat: int, move: mv.PlayerMove, *, lister: ExpertBot,
              samples: int, seed: int, index: int, turn: int) -> DecisionReview | None:
    """Review ``move``, about to be played by ``seat`` on ``state``: only the seat's input
    (:func:`seat_input`) is read from the state. The lister is shown the view and the
    move, as the seat saw and made it."""
    view, pile = seat_input(state, seat)
    lister._observe(view)
    r = None
    # (an answer to "May I go out?" is not reviewed: the question pending is not in a view,
    # so a determinization cannot ask it again)
    if view.phase in (Phase.DRAW, Phase.PLAY) and not view.staged:
        r = review_decision(view, pile, move, lister=lister, samples=samples, seed=seed,
                            index=index, turn=turn)
    if isinstance(move, mv.Discard):
        lister._chosen(view, mv.DISCARD + move.kind)
    elif isinstance(move, mv.GoOut) and move.discard is not None:
        lister._chosen(view, mv.DISCARD + move.discard)
    return r



def review_record(record: GameRecord, seats: Sequence[int] | None = None, *,
                  budget: float = DEFAULT_BUDGET, samples: int | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  ) -> tuple[dict[int, list[DecisionReview]], int]:
    """Review every decision of ``seats`` (all by default) in ``record``: the reviews by
    seat, and the samples per decision (``samples``, or as many as ``budget`` seconds allow,
    :func:`plan_samples`). ``progress(done, total)`` is called after each decision.

    Raises :class:`RecordError` for a record that cannot be set up or does not replay, and
    ``ValueError`` for a seat the record does not have."""
    profile, layout = check_record(record)
    players = layout.players
    chosen = list(range(players)) if seats is None else sorted(set(seats))
    for s in chosen:
        if not 0 <= s < players:
            raise ValueError(f"seat {s} is not in the record: its seats are 0 to {players - 1}")
    result = replay(record)
    if result.error is not None:
        raise RecordError(f"the record does not replay: {result.error.message}")
    if samples is None:
        samples = plan_samples(record, chosen, budget)
    seed = record.metadata.get("seed")
    start_seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else 0
    state = GameState.new(profile, layout=layout, seed=start_seed,
                          deals=[r.deal for r in record.rounds])
    listers = {s: lister_for(s, profile.name) for s in chosen}
    total = sum(1 for r in record.rounds for m in r.moves if m.seat in listers)
    reviews: dict[int, list[DecisionReview]] = {s: [] for s in chosen}
    index = done = 0
    for rnd in record.rounds:
        turns = [0] * players
        last_turn = -1
        for recorded in rnd.moves:
            seat = recorded.seat
            move = mv.parse_move(recorded.move)
            if state.seat != last_turn:
                last_turn = state.seat
                turns[state.seat] += 1
            lister = listers.get(seat)
            if lister is not None:
                r = review_at(state, seat, move, lister=lister, samples=samples,
                              seed=derive_seed(_REVIEW_SEED, "decision", index),
                              index=index, turn=turns[seat])
                if r is not None:
                    reviews[seat].append(r)
                done += 1
                if progress is not None:
                    progress(done, total)
            state.apply(move)
            index += 1
    return reviews, samples
