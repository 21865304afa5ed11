"""Game review, measured (docs/review.md): its speed, the leaf's calibration, the ladder of
the bot levels, and planted mistakes.

    python benchmarks/review.py speed  [--rounds 1] [--seats 0] [--budget 30] [--reps 3]
    python benchmarks/review.py calibrate [--games 200] [--every 4]
    python benchmarks/review.py ladder [--games 30] [--samples 16] [--every 4] [--jobs 1]
                                       [--horizon N] [--no-leaf]
    python benchmarks/review.py planted [--games 40] [--samples 32] [--horizon N] [--no-leaf]
                                        [--kinds old|new|tried|all|KIND,...] [--first G]
                                        [--verbose [--facts]] [--certify N [--record F]]
    python benchmarks/review.py certified FILE...
    python benchmarks/review.py stakes [--games 2] [--samples 12] [--profiles P,P+all,...]

``speed`` reviews a hard self-play game of partnership-13 (four players) and prints
``review: <N> decisions in <S> s`` (CPU time, min/median/max over ``--reps``).
``calibrate`` fits the leaf's weights (:data:`handfoot.runs.review.LEAF_WEIGHTS`) on pairs
of moves at decisions of the reviewer's self-play, each played out to the review's
horizon and on to the round's end. ``ladder`` judges every level at the same decisions of
games between bots of the ladder (mixed levels): each level's mean loss per decision and
the paired differences between adjacent levels, with 95% confidence intervals over the
games. ``planted`` plays one-round games of the learned bot, and at seat 0's decisions
where a bad move is at hand reviews it with the bot's own move: for each kind, how often
the planted move is classed a mistake or blunder and the bot's own move good. ``--kinds
new``: the clear mistakes, each decided from the rules and the seat's own view
(:func:`clear_plants`: a wild card thrown where laying it would close a book; drawing
where the bot takes a pile of the whole pickup; a natural thrown where the bot stops such
a pile with a black 3); ``--kinds old`` (the default, the docs' earlier tables): a wild
card thrown while it could go onto one of the side's melds that already holds one; a
natural thrown of a rank the next player's side has a meld of one or two cards from a
book; drawing instead of taking a pile of 5 cards or more the bot takes.
``stakes`` measures, for each profile (``NAME+all``: with the whole pile taken), what its
rounds put at stake: the standard deviation of a side's round margin in the reviewer's
self-play (the review's scale, :func:`handfoot.runs.review_stakes.stakes`), beside the
decision losses of reviews of one-round games of hard bots of that profile and the spread
of the reviewer's own move's margins across a decision's determinizations, each also as a
ratio to partnership-13's.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import math
import random
import statistics
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from handfoot import build
from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import make_bot
from handfoot.bots.search import ExpertBot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.record import GameRecord, GameRecorder
from handfoot.game.rules import Profile
from handfoot.game.values import Phase, PlayerView, TableMeld
from handfoot.runs import review as rv
from handfoot.runs.review import lister_for, seat_input, weigh
from handfoot.runs.review_report import classify, game_review
from handfoot.runs.review_stakes import stake_scale, stakes
from handfoot.runs.sim import bot_turn, derive_seed, play_game

PROFILE = "partnership-13"
LEVELS = ("random", "easy", "normal", "hard", "learned")


def bot_game(level: str, seed: int, rounds: int = 1) -> GameRecord:
    """A recorded game of ``level`` in every seat."""
    profile = load_profile(PROFILE, overrides={"rounds": rounds})
    state = GameState.new(profile, seed=seed)
    recorder = GameRecorder(state, seat_names=[f"{level} {s + 1}" for s in range(state.players)])
    bots = [make_bot(level, derive_seed(seed, "review-bot", s)) for s in range(state.players)]
    play_game(profile, seed, bots, recorder=recorder)
    return recorder.record()


def speed(args: argparse.Namespace) -> None:
    record = bot_game("hard", 5, args.rounds)
    seats = None if args.seats == "all" else [int(s) for s in args.seats.split(",")]
    times = []
    decisions = 0
    for _ in range(args.reps):
        start = time.process_time()
        review = game_review(record, seats, budget=args.budget)
        times.append(time.process_time() - start)
        decisions = sum(len(s.decisions) for s in review.seats)
    print(f"build: {build}; {args.rounds}-round game, seats {args.seats}, budget "
          f"{args.budget:g} s, {review.samples} determinizations a decision")
    print(f"review: {decisions} decisions in {statistics.median(times):.1f} s "
          f"(CPU; min {min(times):.1f}, max {max(times):.1f} over {args.reps})")


def _shadow_move(bot: Bot, state: GameState, seat: int) -> mv.PlayerMove:
    """The move ``bot`` would make now (on copies: the bot itself is not changed); an
    undo (the random bot's) is played on the copy and the bot asked again."""
    bot = copy.deepcopy(bot)
    trial = state.copy()
    for _ in range(50):
        move = bot_turn(bot, trial, seat)
        if not isinstance(move, mv.Undo):
            break
        trial.apply(move)
    return move


def _follow(bot: Bot, view: PlayerView, move: mv.PlayerMove) -> None:
    """Show a shadow bot the seat's view and the move the seat made, as the lister is
    shown them: its memory of the pile follows the game."""
    observe = getattr(bot, "_observe", None)
    chosen = getattr(bot, "_chosen", None)
    if observe is not None:
        observe(view)
    if chosen is not None:
        kind = move.kind if isinstance(move, mv.Discard) else (
            move.discard if isinstance(move, mv.GoOut) else None)
        if kind is not None:
            chosen(view, mv.DISCARD + kind)


def follow_all(shadows: Iterable[Bot], lister: ExpertBot, view: PlayerView,
               move: mv.PlayerMove) -> None:
    """Show a seat's shadow bots and its candidate lister the view and the move the seat
    made (the lister remembers the seat's discards, as :func:`review_record` shows it)."""
    for bot in shadows:
        _follow(bot, view, move)
    if isinstance(move, mv.Discard):
        lister._chosen(view, mv.DISCARD + move.kind)
    elif isinstance(move, mv.GoOut) and move.discard is not None:
        lister._chosen(view, mv.DISCARD + move.discard)


def _ratio_ci(per_game: list[tuple[float, int]]) -> tuple[float, float]:
    """Mean per decision over games (sum over games / decisions) and the half-width of
    its 95% confidence interval, the games as the units (decisions of a game are not
    independent)."""
    total = sum(s for s, _ in per_game)
    n = sum(k for _, k in per_game)
    m = total / n
    g = len(per_game)
    if g < 2:
        return m, math.nan  # one game: no interval
    var = sum((s - m * k) ** 2 for s, k in per_game) / (g - 1) / g
    return m, 1.96 * math.sqrt(var) / (n / g)


Judged = tuple[str, dict[str, tuple[str, float]]]
"""A decision of the ladder: its phase (``draw`` or ``play``), and each level's move's kind
(``draw``, ``pickup``, ``meld``, ``discard``, ``goout``, ...) and loss."""


def _kind(move: mv.PlayerMove) -> str:
    return type(move).__name__.lower()


def ladder_table(g: int, levels: list[str], seed0: int,
                 ) -> tuple[GameState, list[Bot], list[dict[str, Bot]], list[ExpertBot]]:
    """The ladder's game ``g``: its state, the bot in each seat (four of ``levels``,
    rotating), each seat's shadow bot of every level, and each seat's candidate lister."""
    profile = load_profile(PROFILE, overrides={"rounds": 1})
    seed = derive_seed(seed0, "ladder", g)
    state = GameState.new(profile, seed=seed)
    seat_levels = [levels[(g + s) % len(levels)] for s in range(state.players)]
    bots = [make_bot(lv, derive_seed(seed, "bot", s)) for s, lv in enumerate(seat_levels)]
    shadows = [{lv: make_bot(lv, derive_seed(seed, "shadow", s, lv)) for lv in levels}
               for s in range(state.players)]
    listers = [lister_for(s, profile.name) for s in range(state.players)]
    return state, bots, shadows, listers


def ladder_game(g: int, levels: list[str], every: int, samples: int, seed0: int,
                horizon: int = 0, leaf: bool = True, late: int = -1,
                ) -> tuple[dict[str, float], int, int, float, list[Judged]]:
    """One game of the ladder (see :func:`ladder`): each level's summed loss estimates,
    the decisions judged, those where every level chose the same move, the CPU time and
    each decision judged (its phase, each level's move's kind and loss). ``horizon`` and
    ``leaf`` as ``planted``'s ``--horizon`` and ``--no-leaf`` (set here: the game may run
    in a process of its own), and ``late`` as ``--late``."""
    if horizon:
        rv.HORIZON_TURNS_EACH = horizon
    if late >= 0:
        rv.LATE_TURNS_EACH = late
    if not leaf:
        rv.LEAF_WEIGHTS = (0.0,) * len(rv.LEAF_WEIGHTS)
    start = time.process_time()
    judged: list[Judged] = []
    state, bots, shadows, listers = ladder_table(g, levels, seed0)
    seed = derive_seed(seed0, "ladder", g)
    sums = dict.fromkeys(levels, 0.0)
    count = same = index = 0
    while not state.is_over:
        seat = state.to_act
        move = bot_turn(bots[seat], state, seat)
        view, pile = seat_input(state, seat)
        listers[seat]._observe(view)
        if (view.phase in (Phase.DRAW, Phase.PLAY) and not view.staged
                and derive_seed(seed, "pick", index) % every == 0):
            mine = {lv: _shadow_move(shadows[seat][lv], state, seat) for lv in levels}
            w = weigh(view, pile, list(mine.values()), lister=listers[seat],
                      samples=rv.samples_at(view, samples),
                      seed=derive_seed(seed, "decision", index))
            if w is not None:
                same += len({mv.format_move(m) for m in mine.values()}) == 1
                each: dict[str, tuple[str, float]] = {}
                for lv in levels:
                    c = w.index_of(mine[lv])
                    loss = w.loss_of(c)[0] if c is not None else 0.0
                    sums[lv] += loss
                    each[lv] = (_kind(mine[lv]), loss)
                judged.append(("draw" if view.phase == Phase.DRAW else "play", each))
                count += 1
        follow_all(shadows[seat].values(), listers[seat], view, move)
        state.apply(move)
        index += 1
    return sums, count, same, time.process_time() - start, judged


def ladder(args: argparse.Namespace) -> None:
    """Every level judged at the same decisions: positions from one-round games of mixed
    levels (four of the five, rotating); at each sampled decision every level is asked for
    its move from that seat's view (a shadow bot of each level follows each seat), and all
    the moves are played out on the same determinizations with the reviewer's candidates:
    each level's loss against the best, paired. ``--jobs`` games at once (processes); the
    CPU time printed is theirs, summed."""
    from concurrent.futures import ProcessPoolExecutor

    levels = args.levels.split(",")
    print(f"build: {build}; {args.games} one-round games of mixed levels, one decision in "
          f"{args.every} of every seat, {args.samples} determinizations a decision, "
          f"play-outs of {args.horizon or rv.HORIZON_TURNS_EACH} turns a seat"
          f"{_late_words(args)}, {'no leaf' if args.no_leaf else 'the leaf'}", flush=True)
    rows: list[tuple[dict[str, float], int]] = []
    judged: list[Judged] = []
    same = decisions = 0
    cpu = 0.0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(ladder_game, range(args.first, args.first + args.games),
                           itertools.repeat(levels),
                           itertools.repeat(args.every), itertools.repeat(args.samples),
                           itertools.repeat(args.seed), itertools.repeat(args.horizon),
                           itertools.repeat(not args.no_leaf), itertools.repeat(args.late))
        for g, (sums, count, agreed, took, each) in enumerate(results, args.first):
            rows.append((sums, count))
            judged.extend(each)
            decisions += count
            same += agreed
            cpu += took
            if args.verbose:
                print(f"  game {g}: {count} decisions, " + ", ".join(
                    f"{lv} {sums[lv] / max(1, count):.1f}" for lv in levels), flush=True)
    print(f"{decisions} decisions judged ({same} where every level chose the same move), "
          f"{cpu:.0f} s CPU")
    for lv in levels:
        m, h = _ratio_ci([(sums[lv], k) for sums, k in rows])
        print(f"{lv:8} mean loss {m:7.1f} (95% CI {m - h:.1f} to {m + h:.1f})")
    for a, b in itertools.pairwise(levels):
        m, h = _ratio_ci([(sums[a] - sums[b], k) for sums, k in rows])
        print(f"{a + ' - ' + b:16} {m:7.1f} (95% CI {m - h:.1f} to {m + h:.1f})")
    _ladder_breakdown(levels, judged)


def _ladder_breakdown(levels: list[str], judged: list[Judged]) -> None:
    """Where each level's loss comes from: its mean loss at the draw and at the play
    decisions, and for each kind of move it made there, how often and at what mean loss."""
    print("by phase and move: level, phase: mean loss (decisions); each kind of move: "
          "share of the phase's decisions, mean loss")
    for lv in levels:
        for phase in ("draw", "play"):
            got = [each[lv] for ph, each in judged if ph == phase]
            if not got:
                continue
            kinds: dict[str, list[float]] = {}
            for kind, loss in got:
                kinds.setdefault(kind, []).append(loss)
            print(f"  {lv:8} {phase}: {statistics.fmean(x for _, x in got):6.1f} "
                  f"({len(got)}); " + ", ".join(
                      f"{kind} {len(xs) / len(got):.0%} {statistics.fmean(xs):.1f}"
                      for kind, xs in sorted(kinds.items(), key=lambda kv: -len(kv[1]))))


Spot = tuple[str, PlayerView, tuple[int, ...], tuple[mv.PlayerMove, mv.PlayerMove],
             ExpertBot, int, str]

OLD_KINDS = ("wild discarded", "book fed", "pile refused")
"""The first definitions (docs/review.md, "Planted mistakes", the earlier tables): each
decision gives at most one spot, the first of these that applies."""
NEW_KINDS = ("book-closing wild thrown", "book-closing wild thrown early", "full pile refused",
             "full pile of a new rank refused", "pile unblocked")
"""The clear mistakes (docs/review.md, "Planted mistakes"): each decided from the rules
and the seat's own view alone; a decision gives a spot of every kind that applies."""
TRIED_KINDS = ("joker thrown", "wild thrown instead of a meld")
"""Definitions tried and not kept (docs/review.md, "Planted mistakes"), still measurable."""
EARLY_STOCK = 40
"""The stock's cards from which a round is not about to end, for *book-closing wild thrown
early*: 20 draws of two, five more turns for each of four players."""
KIND_SETS = {"old": OLD_KINDS, "new": NEW_KINDS, "tried": TRIED_KINDS,
             "new+tried": NEW_KINDS + TRIED_KINDS,
             "all": OLD_KINDS + NEW_KINDS + TRIED_KINDS}


def planted_spots(games: int, seed: int, kinds: tuple[str, ...] = OLD_KINDS,
                  first: int = 0) -> Iterator[Spot]:
    """(kind, view, pile, (planted move, the bot's move), lister, move index, the table's
    facts in words) at seat 0's decisions of learned self-play where a bad move of one of
    ``kinds`` is at hand (games ``first`` to ``first + games - 1``)."""
    profile = load_profile(PROFILE, overrides={"rounds": 1})
    for g in range(first, first + games):
        state = GameState.new(profile, seed=derive_seed(seed, "planted", g))
        bots = [make_bot("learned", derive_seed(seed, "planted-bot", g, s))
                for s in range(state.players)]
        lister = lister_for(0, profile.name)
        index = 0
        while not state.is_over:
            seat = state.to_act
            move = bot_turn(bots[seat], state, seat)
            if seat == 0:
                view, pile = seat_input(state, 0)
                lister._observe(view)
                found: list[tuple[str, mv.PlayerMove]] = []
                old = plant_for(state, view, move)
                if old is not None and old[0] in kinds:
                    found.append(old)
                found += [p for p in clear_plants(state, view, pile, move) if p[0] in kinds]
                for kind, bad in found:
                    yield (kind, view, pile, (bad, move), lister, index,
                           table_facts(kind, view, pile, bad, move))
                if isinstance(move, mv.Discard):
                    lister._chosen(view, mv.DISCARD + move.kind)
            state.apply(move)
            index += 1


def plant_for(state: GameState, view: PlayerView, move: mv.PlayerMove,
              ) -> tuple[str, mv.PlayerMove] | None:
    """The first definitions (:data:`OLD_KINDS`): the first that applies at this decision
    of seat 0, if one does."""
    if view.phase == Phase.PLAY and isinstance(move, mv.Discard):
        hand = cards.kind_counts(view.hand)
        # ranks where the side has a meld that already holds a wild card: adding one more
        # there costs no clean book
        dirty = {m.target for m in view.melds[view.side] if m.twos + m.jokers and
                 m.target < mv.WILD_MELD}
        for w in (cards.JOKER, cards.TWO):
            if not hand[w] or mv.DISCARD + w not in view.legal_actions or move.kind == w:
                continue
            group = (mv.MeldGroup(t, twos=int(w == cards.TWO), jokers=int(w == cards.JOKER))
                     for t in sorted(dirty))
            if any(state.check(mv.Meld((g,))) is None for g in group):
                return "wild discarded", mv.Discard(w)
    if view.phase == Phase.PLAY and isinstance(move, mv.Discard):
        # a natural the opponents need: a rank where the next seat's side has a meld one
        # or two cards from a book (the next player may take the pile with it, or lay it)
        nxt = state.side_of[(view.seat + 1) % view.players]
        size = state.profile.book_size
        hand = cards.kind_counts(view.hand)
        for m in view.melds[nxt]:
            k = m.target
            if (k < mv.WILD_MELD and size - 2 <= m.size < size and hand[k]
                    and k != move.kind and mv.DISCARD + k in view.legal_actions):
                return "book fed", mv.Discard(k)
    if (view.phase == Phase.DRAW and isinstance(move, mv.Pickup) and view.pickup_size >= 5
            and mv.DRAW in view.legal_actions):
        return "pile refused", mv.Draw()
    return None


def _wild_joins(state: GameState, view: PlayerView, wild: int,
                sizes: Iterable[int] | None = None) -> list[TableMeld]:
    """The side's melds one ``wild`` from the seat's hand may legally be added to now (of
    those ``sizes`` when given)."""
    twos, jokers = int(wild == cards.TWO), int(wild == cards.JOKER)
    return [m for m in view.melds[view.side]
            if (sizes is None or m.size in sizes) and state.check(
                mv.Meld((mv.MeldGroup(m.target, twos=twos, jokers=jokers),))) is None]


def clear_plants(state: GameState, view: PlayerView, pile: tuple[int, ...],
                 move: mv.PlayerMove) -> list[tuple[str, mv.PlayerMove]]:
    """The clear mistakes (:data:`NEW_KINDS`) at hand at this decision of seat 0, each
    decided from the rules and the seat's own view (its hand, the melds on the table, the
    stock's size, the pile): never from hidden cards, play-outs or the reviewer. ``state``
    is asked only what the seat knows too: the seating, and whether a meld of the seat's
    own cards is legal.

    - *book-closing wild thrown*: the bot discards, holding a wild card that, laid on
      one of its side's melds one card from a book (the all-wild meld included), closes
      that book now; the wild card is thrown instead;
    - *book-closing wild thrown early*: the same, while the stock holds at least
      :data:`EARLY_STOCK` cards (five more turns for each of four players: the round is
      not about to end);
    - *full pile refused*: the bot takes a pile that gives the profile's whole pickup (7
      cards in partnership-13); drawing instead;
    - *full pile of a new rank refused*: the same, where the side has no meld or book of
      the top card's rank (the pickup starts its first meld of that rank);
    - *pile unblocked*: the bot stops a pile of the whole pickup or more with a black 3;
      a natural it holds alone, of a rank the next player's side has no meld of (a plain
      pair of it takes the pile), is thrown instead.

    Tried and not kept (:data:`TRIED_KINDS`): *joker thrown* (the bot discards, holding a
    joker that could go onto one of its side's melds that already holds a wild card, or
    its all-wild meld; the joker is thrown instead) and *wild thrown instead of a meld*
    (as *book-closing wild thrown*, where the bot lays melds instead of discarding: the
    wild card is thrown and nothing laid).
    """
    found: list[tuple[str, mv.PlayerMove]] = []
    profile = state.profile
    hand = cards.kind_counts(view.hand)
    full = profile.pickup_count or 7
    if view.phase == Phase.PLAY and not view.staged and isinstance(move, mv.Meld | mv.Discard):
        for w in (cards.JOKER, cards.TWO):
            if (hand[w] and mv.DISCARD + w in view.legal_actions and move != mv.Discard(w)
                    and _wild_joins(state, view, w, (profile.book_size - 1,))):
                if not isinstance(move, mv.Discard):
                    found.append(("wild thrown instead of a meld", mv.Discard(w)))
                    break
                found.append(("book-closing wild thrown", mv.Discard(w)))
                if view.stock_size >= EARLY_STOCK:
                    found.append(("book-closing wild thrown early", mv.Discard(w)))
                break
    if (view.phase == Phase.PLAY and isinstance(move, mv.Discard) and hand[cards.JOKER]
            and move.kind != cards.JOKER and mv.DISCARD + cards.JOKER in view.legal_actions
            and any(m.wilds for m in _wild_joins(state, view, cards.JOKER))):
        found.append(("joker thrown", mv.Discard(cards.JOKER)))
    if (view.phase == Phase.DRAW and isinstance(move, mv.Pickup) and view.pickup_size >= full
            and mv.DRAW in view.legal_actions):
        found.append(("full pile refused", mv.Draw()))
        top = pile[-1] if pile else None
        if all(m.target != top for m in view.melds[view.side]):
            found.append(("full pile of a new rank refused", mv.Draw()))
    if (view.phase == Phase.PLAY and isinstance(move, mv.Discard)
            and move.kind == cards.BLACK_THREE and view.discard_size + 1 >= full):
        nxt = state.side_of[(view.seat + 1) % view.players]
        melded = {m.target for m in view.melds[nxt]}
        alone = [k for k in cards.RANKS if hand[k] == 1 and k not in melded
                 and mv.DISCARD + k in view.legal_actions]
        if alone:
            found.append(("pile unblocked", mv.Discard(alone[0])))
    return found


def _name(kind: int) -> str:
    return cards.KIND_NAMES[kind]


def table_facts(kind: str, view: PlayerView, pile: tuple[int, ...], bad: mv.PlayerMove,
                own: mv.PlayerMove) -> str:
    """The table's facts at a spot, as ``key=value; ...`` (for ``planted --verbose``): what
    a player sees there, to tell the spots a review catches from those it does not."""
    profile = view.profile
    side = view.side
    seat = view.seat
    nxt_seat = (seat + 1) % view.players
    nxt = nxt_seat % view.sides if view.sides else 0
    hand = cards.kind_counts(view.hand)
    wild_meld = max((m.size for m in view.melds[side] if m.target == mv.WILD_MELD), default=0)
    facts: dict[str, object] = {
        "own": mv.format_move(own), "held": len(view.hand),
        "foot": int(view.in_foot[seat]), "pile": view.discard_size, "stock": view.stock_size,
        "wilds_held": hand[cards.TWO] + hand[cards.JOKER], "allwild": wild_meld,
        "books": sum(m.size >= profile.book_size for m in view.melds[side]),
    }
    if isinstance(own, mv.Discard):
        facts["own_stop"] = int(own.kind in (cards.BLACK_THREE, cards.TWO, cards.JOKER))
    if isinstance(bad, mv.Discard) and cards.is_wild(bad.kind):
        facts["wild"] = _name(bad.kind)
        sizes = sorted((m.size, m.wilds) for m in view.melds[side]
                       if m.target != mv.WILD_MELD and (m.wilds or m.size >= 3))
        facts["dirty_sizes"] = "/".join(f"{s}w{w}" for s, w in sizes if w) or "-"
        facts["near_book"] = int(any(m.size == profile.book_size - 1 for m in view.melds[side]))
    elif isinstance(bad, mv.Discard):
        k = bad.kind
        facts["card"] = _name(k)
        facts["next_meld"] = max((m.size for m in view.melds[nxt]
                                  if m.target == k and m.size < profile.book_size), default=0)
        facts["next_held"] = view.hand_counts[nxt_seat]
        facts["next_foot"] = int(view.in_foot[nxt_seat])
        facts["seen"] = pile.count(k) + sum(m.naturals for s in view.melds for m in s
                                            if m.target == k)
    else:
        take = pile[-view.pickup_size:] if view.pickup_size else ()
        top = take[-1] if take else -1
        facts["take"] = view.pickup_size
        facts["top"] = _name(top) if top >= 0 else "-"
        facts["top_melded"] = max((m.size for m in view.melds[side] if m.target == top),
                                  default=0)
        melded = {m.target for m in view.melds[side]}
        facts["pile_wilds"] = sum(cards.is_wild(k) for k in take)
        facts["pile_onmelds"] = sum(k in melded for k in take)
        facts["pile_b3"] = take.count(cards.BLACK_THREE)
    return "; ".join(f"{k}={v}" for k, v in facts.items())


Loss = tuple[float, float]
"""A move's loss estimate and its standard error."""


def judge_plant(view: PlayerView, pile: tuple[int, ...], bad: mv.PlayerMove,
                own: mv.PlayerMove, lister: ExpertBot, samples: int, seed: int,
                ) -> tuple[Loss | None, Loss | None]:
    """The planted move's and the bot's own move's losses (estimate, standard error),
    weighed together on the same determinizations (``samples`` a play decision's count, as
    the review's), each None where the reviewer does not weigh it."""
    w = weigh(view, pile, [bad, own], lister=lister, samples=rv.samples_at(view, samples),
              seed=seed)
    if w is None:
        return None, None
    ca, cb = w.index_of(bad), w.index_of(own)
    return (w.loss_of(ca) if ca is not None else None,
            w.loss_of(cb) if cb is not None else None)


ORACLE_SAMPLES = 1024
"""Determinizations the round's-end oracle plays a play decision's spot on (``planted
--certify``)."""
ORACLE_DRAW_FACTOR = 2
"""How many times as many at a draw decision (a refused pile: its cost is the noisiest)."""
CERTIFY_LINE = 40.0
"""The line the oracle certifies against: the review's mistake line (points of
partnership-13, whose stake scale is 1)."""
CERTIFY_Z = 2.0
"""Standard errors the oracle's mean cost must clear the line by, either way."""
OWN_LINE = 20.0
"""The line the bot's own move is certified against where the review classes it worse
than good (``--certify-own``): the inaccuracy line, its loss against the review's best."""
BUCKETS = ("certified bad", "undecided", "certified not bad")


def oracle_seed(seed: int, game: int, index: int) -> int:
    """The oracle's seed for the spot at move ``index`` of game ``game``: drawn under a
    label of its own, so its determinizations and bots are independent of the reviewer's
    (``derive_seed(seed, "planted-decision", index)``)."""
    return derive_seed(seed, "oracle", game, index)


def oracle_cost(view: PlayerView, pile: tuple[int, ...], bad: mv.PlayerMove,
                own: mv.PlayerMove, samples: int, seed: int) -> Loss:
    """The planted move's cost, judged from the seat's own view as the review judges it
    but played to the round's end: on each of ``samples`` determinizations of the view
    (:func:`handfoot.bots.search.determinize`, the pile remembered, as
    :func:`handfoot.runs.review.weigh` deals them), the bot's own move and the planted
    move, each followed by the reviewer in every seat with the same bot seeds (common
    random numbers) to the round's end; the mean and standard error of the side's final
    round margin after the bot's move less after the planted move. No leaf, no cut."""
    rng = random.Random(seed)
    picked = mv.KNOCK in view.legal_actions
    diffs: list[float] = []
    for i in range(samples):
        base = rv.deal(view, rng, pile, picked=picked)
        bot_seed = derive_seed(seed, "bots", i) & 0xFFFFFFF
        finals = []
        for move in (own, bad):
            trial = base.copy()
            trial.apply(move)
            finals.append(_cut_and_end(trial, view.seat, bot_seed)[2])
        diffs.append(finals[0] - finals[1])
    return rv._paired(diffs, [0.0] * len(diffs))


def certify(cost: Loss, line: float = CERTIFY_LINE, z: float = CERTIFY_Z) -> str:
    """The bucket of a planted move by the oracle's cost (mean, standard error), the rule
    registered before the reviewer's figures were looked at (docs/review.md, "Certified by
    a round's-end oracle"): *certified bad* where the mean is at least ``line`` + ``z``
    standard errors, *certified not bad* where it is below ``line`` − ``z`` standard
    errors, *undecided* otherwise."""
    mean, se = cost
    if mean >= line + z * se:
        return "certified bad"
    if mean < line - z * se:
        return "certified not bad"
    return "undecided"


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k`` of ``n`` (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def numbered_spots(games: int, seed: int, kinds: tuple[str, ...], first: int = 0,
                   ) -> Iterator[tuple[int, Spot]]:
    """:func:`planted_spots`, each with its game's number."""
    for g in range(first, first + games):
        for spot in planted_spots(1, seed, kinds, g):
            yield g, spot


def certified_table(rows: Iterable[dict[str, object]]) -> list[str]:
    """Per kind and bucket: the spots, the planted move classed a mistake or blunder and
    the bot's own move good, each with its Wilson 95% interval, and the medians of the
    oracle's cost and of the review's loss of the planted move (``certified``)."""
    by: dict[str, dict[str, list[dict[str, object]]]] = {}
    for r in rows:
        by.setdefault(str(r["kind"]), {}).setdefault(str(r["bucket"]), []).append(r)
    out = []
    for kind, buckets in by.items():
        n_all = sum(len(v) for v in buckets.values())
        out.append(f"{kind}: {n_all} spots")
        for bucket in BUCKETS:
            got = buckets.get(bucket, [])
            n = len(got)
            if not n:
                out.append(f"  {bucket}: 0")
                continue
            c = sum(bool(r["caught"]) for r in got)
            g = sum(bool(r["good"]) for r in got)
            (cl, ch), (gl, gh) = wilson(c, n), wilson(g, n)
            line = (f"  {bucket}: {n} ({n / n_all:.0%}); caught {c} ({c / n:.0%}, "
                    f"95% CI {cl:.0%}-{ch:.0%}); own good {g} ({g / n:.0%}, "
                    f"95% CI {gl:.0%}-{gh:.0%})")
            costs = [float(x) for r in got if isinstance(x := r.get("cost"), float | int)]
            losses = [float(p[0]) for r in got if isinstance(p := r.get("planted"), list)]
            if costs:
                line += f"; median oracle cost {statistics.median(costs):.0f}"
            if losses:
                line += f", review's loss {statistics.median(losses):.0f}"
            out.append(line)
    return out


def own_table(rows: Iterable[dict[str, object]]) -> list[str]:
    """Where the review classed the bot's own move worse than good and the oracle played
    it against the review's best move (``planted --certify-own``): per kind and the
    plant's bucket, how often the own move is certified worse than the best by the
    inaccuracy line (20 points) and two standard errors, certified not, or undecided."""
    by: dict[tuple[str, str], list[str]] = {}
    for r in rows:
        if "own_bucket" in r:
            by.setdefault((str(r["kind"]), str(r.get("bucket", "-"))), []).append(
                str(r["own_bucket"]))
    out = []
    for (kind, bucket), got in sorted(by.items()):
        counts = ", ".join(f"{b.replace('bad', 'worse').replace('not worse', 'not')} "
                           f"{got.count(b)}" for b in BUCKETS)
        out.append(f"{kind}, plant {bucket}: the own move not good in {len(got)}; oracle "
                   f"against the review's best: {counts}")
    return out


def certified(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for path in args.files
            for line in Path(path).read_text().splitlines() if line.strip()]
    merged: dict[tuple[object, ...], dict[str, object]] = {}
    for r in rows:  # a spot recorded twice (a chunk run again, --certify-own) is one
        merged.setdefault((r["kind"], r["game"], r["index"]), {}).update(r)
    plants = [r for r in merged.values() if "bucket" in r]
    distinct: dict[tuple[object, ...], dict[str, object]] = {}
    for r in plants:  # a decision planted under two kinds counts once over all kinds
        distinct.setdefault((r["game"], r["index"]), {**r, "kind": ALL_KINDS})
    several = len({r["kind"] for r in plants}) > 1
    pooled = certified_table(distinct.values()) if several else []
    for line in certified_table(plants) + pooled + own_table(merged.values()):
        print(line)


ALL_KINDS = "all kinds, each decision once"


def _late_words(args: argparse.Namespace) -> str:
    late = rv.LATE_TURNS_EACH if args.late < 0 else args.late
    short = args.horizon or rv.HORIZON_TURNS_EACH
    return f" (a pair with a meld in it at {late})" if late > short else ""


def planted(args: argparse.Namespace) -> None:
    print(f"build: {build}; {args.games} one-round games of learned self-play, "
          f"{args.samples} determinizations a decision, play-outs of "
          f"{args.horizon or rv.HORIZON_TURNS_EACH} turns a seat{_late_words(args)}, "
          f"{'no leaf' if args.no_leaf else 'the leaf'}")
    tally: dict[str, list[int]] = {}
    values: dict[str, list[float]] = {}
    pairs: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = {}
    if args.horizon:
        rv.HORIZON_TURNS_EACH = args.horizon
    if args.late >= 0:
        rv.LATE_TURNS_EACH = args.late
    if args.no_leaf:
        rv.LEAF_WEIGHTS = (0.0,) * len(rv.LEAF_WEIGHTS)
    start = time.process_time()
    kinds = KIND_SETS.get(args.kinds) or tuple(args.kinds.split(","))
    unknown = set(kinds) - set(KIND_SETS["all"])
    if unknown:
        raise SystemExit(f"planted: no kind {', '.join(sorted(unknown))}")
    oracle: dict[tuple[int, int, str], Loss] = {}  # a spot of two kinds is played once
    records: list[dict[str, object]] = []
    for g, (kind, view, pile, (bad, own), lister, index, facts) in numbered_spots(
            args.games, args.seed, kinds, args.first):
        a, b = judge_plant(view, pile, bad, own, lister, args.samples,
                           derive_seed(args.seed, "planted-decision", index))
        hit = a is not None and classify(max(0.0, a[0]), a[1]) in ("mistake", "blunder")
        fine = b is None or classify(max(0.0, b[0]), b[1]) == "good"
        cert = ""
        if args.certify:
            key = (g, index, mv.format_move(bad))
            if key not in oracle:
                n = args.certify * (ORACLE_DRAW_FACTOR if view.phase == Phase.DRAW else 1)
                oracle[key] = oracle_cost(view, pile, bad, own, n,
                                          oracle_seed(args.seed, g, index))
            cost = oracle[key]
            bucket = certify(cost)
            cert = f" | oracle {cost[0]:.0f} ± {cost[1]:.0f}: {bucket}"
            records.append({"kind": kind, "game": g, "index": index, "cost": cost[0],
                            "se": cost[1], "bucket": bucket, "planted": a, "own": b,
                            "caught": hit, "good": fine})
            if args.record:
                with open(args.record, "a") as out:
                    out.write(json.dumps(records[-1]) + "\n")
        if args.certify_own and not fine:
            w = weigh(view, pile, [bad, own], lister=lister,
                      samples=rv.samples_at(view, args.samples),
                      seed=derive_seed(args.seed, "planted-decision", index))
            assert w is not None  # judged above: the same determinizations
            n = args.certify_own * (ORACLE_DRAW_FACTOR if view.phase == Phase.DRAW else 1)
            ocost = oracle_cost(view, pile, own, w.moves[w.best], n,
                                derive_seed(args.seed, "oracle-own", g, index))
            obucket = certify(ocost, OWN_LINE)
            cert += (f" | own against {mv.format_move(w.moves[w.best])}: oracle "
                     f"{ocost[0]:.0f} ± {ocost[1]:.0f}: {obucket}")
            if args.record:
                with open(args.record, "a") as out:
                    out.write(json.dumps({"kind": kind, "game": g, "index": index,
                                          "own_cost": ocost[0], "own_se": ocost[1],
                                          "own_bucket": obucket}) + "\n")
        if args.verbose:
            print(f"  {kind}: game {g} move {index}: planted {a and round(a[0])} ± "
                  f"{a and round(a[1])}, own {b and round(b[0])} ± {b and round(b[1])}"
                  + cert
                  + (f" | {mv.format_move(bad)} | {facts}" if args.facts else ""), flush=True)
        row = tally.setdefault(kind, [0, 0, 0])
        row[0] += 1
        row[1] += hit
        row[2] += fine
        if a is not None:
            values.setdefault(kind, []).append(a[0])
            pairs.setdefault(kind, []).append((a, b if b is not None else (0.0, 0.0)))
    for kind, (n, caught, good) in sorted(tally.items(), key=lambda kv: kinds.index(kv[0])):
        print(f"{kind}: {n} spots; planted move a mistake or blunder in {caught} "
              f"({caught / n:.0%}); the bot's own move good in {good} ({good / n:.0%})")
        if len(values.get(kind, [])) >= 2:
            cuts = statistics.quantiles(values[kind], n=10)
            print(f"  its loss: median {statistics.median(values[kind]):.0f}, deciles "
                  + ", ".join(f"{c:.0f}" for c in cuts))
    print("caught / own move under the line, at other lines (a loss counts when at least "
          "the line and above z standard errors):")
    for line in (10.0, 20.0, 30.0, 40.0):
        for z in (0.5, 1.0, 1.5):
            cells = []
            for kind, rows in pairs.items():
                caught = sum(a[0] >= line and a[0] > z * a[1] for a, _ in rows)
                good = sum(not (b[0] >= line and b[0] > z * b[1]) for _, b in rows)
                cells.append(f"{kind} {caught / len(rows):.0%}/{good / len(rows):.0%}")
            print(f"  line {line:3.0f}, z {z}: " + "; ".join(cells))
    if records:
        print(f"certified by the round's-end oracle ({args.certify} determinizations a "
              f"play decision, {args.certify * ORACLE_DRAW_FACTOR} a draw; bad: cost >= "
              f"{CERTIFY_LINE:g} + {CERTIFY_Z:g} se, not bad: < "
              f"{CERTIFY_LINE:g} - {CERTIFY_Z:g} se):")
        for text in certified_table(records):
            print("  " + text)
    n = sum(r[0] for r in tally.values())
    if n:
        print(f"all: {n} spots; {sum(r[1] for r in tally.values()) / n:.0%} caught, "
              f"{sum(r[2] for r in tally.values()) / n:.0%} own good; "
              f"{time.process_time() - start:.0f} s CPU")


STAKE_PROFILES = ("partnership-13", "bicycle", "biegames", "hand-knee-foot",
                  "remastered-singles", "remastered-teams", "partnership-13+all")


def _stake_profile(spec: str, rounds: int | None = None) -> Profile:
    name, _, house = spec.partition("+")
    overrides: dict[str, object] = {"pickup_count": "all"} if house == "all" else {}
    if rounds is not None:
        overrides["rounds"] = rounds
    return load_profile(name, overrides=overrides or None)


def stakes_mode(args: argparse.Namespace) -> None:
    print(f"build: {build}; each profile: the stakes (self-play), then {args.games} one-round "
          f"games of {args.level} bots reviewed, every seat, {args.samples} determinizations "
          "a decision")
    spread: list[float] = []
    real_weigh = rv.weigh

    def weigh_noting(*a: object, **k: object) -> rv.Weighed | None:
        w = real_weigh(*a, **k)  # type: ignore[arg-type]
        if w is not None:
            own, _ = w.margins(w.best, w.best, slice(None))
            if len(own) > 1:
                spread.append(statistics.stdev(own))
        return w

    rv.weigh = weigh_noting
    rows: list[tuple[str, list[float]]] = []
    for spec in args.profiles.split(","):
        start = time.process_time()
        profile = _stake_profile(spec)
        sd = stakes(profile)
        scale = stake_scale(profile)
        one = _stake_profile(spec, rounds=1)
        losses: list[float] = []
        estimates: list[float] = []
        ses: list[float] = []
        apart: list[tuple[float, float]] = []  # where the played move is not the best
        spread.clear()
        worse = [0, 0]
        for g in range(args.games):
            seed = args.seed + g
            state = GameState.new(one, seed=seed)
            recorder = GameRecorder(state, seat_names=[f"{args.level} {s + 1}" for s in
                                                       range(state.players)])
            bots = [make_bot(args.level, derive_seed(seed, "review-bot", s))
                    for s in range(state.players)]
            play_game(one, seed, bots, recorder=recorder)
            review = game_review(recorder.record(), None, samples=args.samples)
            for seat in review.seats:
                for d in seat.decisions:
                    losses.append(d.loss)
                    estimates.append(d.estimate)
                    ses.append(d.se)
                    if d.played.notation != d.best.notation:
                        apart.append((d.estimate, d.se))
                    worse[0] += classify(d.loss, d.se) != "good"
                    worse[1] += classify(d.loss, d.se, scale) != "good"
        cuts = statistics.quantiles(losses, n=10)
        figures = [sd, statistics.mean(estimates), statistics.mean(a for a, _ in apart),
                   statistics.median(se for _, se in apart), statistics.median(spread)]
        rows.append((spec, figures))
        n = len(losses)
        print(f"{spec}: stakes {sd:.0f} (scale {scale:.2f}); {n} decisions: mean loss "
              f"{figures[1]:.1f}, loss deciles " + ", ".join(f"{c:.0f}" for c in cuts)
              + f"; {len(apart)} where the played move is not the best: mean loss "
              f"{figures[2]:.1f}, median se {figures[3]:.1f}; the reviewer's move's margins across "
              f"determinizations: median sd {figures[4]:.0f}; worse than good at "
              f"partnership-13's lines {worse[0] / n:.0%}, at its own {worse[1] / n:.0%}; "
              f"{time.process_time() - start:.0f} s CPU", flush=True)
    if rows and rows[0][0] == "partnership-13":
        base = rows[0][1]
        print("as ratios to partnership-13's: stakes / mean loss / mean loss where the move "
              "was not the best / its median se / median sd across determinizations")
        for spec, figures in rows:
            print(f"  {spec}: " + " / ".join(f"{f / b:.2f}" if b else "-"
                                             for f, b in zip(figures, base, strict=True)))


def _cut_and_end(state: GameState, seat: int, seed: int) -> tuple[tuple[float, ...], float,
                                                                   float]:
    """Play on from ``state`` with the reviewer in every seat: the leaf's features and the
    margin as it stands at the review's horizon (or the round's end, features 0), and the
    round's final margin, for ``seat``'s side."""
    number = state.round_number
    side = state.side_of[seat]
    bots = [rv._policy(seed + s, state.profile.name) for s in range(state.players)]
    turns = 0
    last = seat  # counted from the deciding seat's turn, as the review's play-outs
    cut: tuple[tuple[float, ...], float] | None = None
    while not state.is_over and state.round_number == number:
        if state.seat != last:
            last = state.seat
            turns += 1
            if cut is None and turns >= rv.HORIZON_TURNS_EACH * state.players:
                cut = rv.leaf_features(state, side), rv.standing_margin(state, side)
        actor = state.to_act
        state.apply_listed(bots[actor].choose(state.play_view(actor)))
    totals = [x.total for x in state.results[number - 1].scores]
    final = float(totals[side] - max(v for s, v in enumerate(totals) if s != side))
    if cut is None:
        cut = (0.0,) * len(rv.LEAF_WEIGHTS), final
    return cut[0], cut[1], final


def calibrate(args: argparse.Namespace) -> None:
    """Fit the leaf's weights on what the review compares: two moves at the same decision.
    At decisions of the reviewer's self-play (one-round games), a determinization of the
    seat's view, two of the reviewer's candidates (its own move and another), each played
    out with the same bot seeds to the review's horizon (the features and the margin as it
    stands there) and on to the round's end (the final margin). Least squares, no
    intercept, of the difference between the two moves of (final - standing) on the
    difference of their features: what a card held at the cut is worth against the same
    card laid or thrown, not what holding many cards says of a side's luck. Fitted on the
    even games, checked on the odd ones."""
    import random

    import numpy as np

    from handfoot.bots.search import determinize

    profile = load_profile(PROFILE, overrides={"rounds": 1})
    xs: list[list[float]] = []
    ys: list[float] = []
    games: list[int] = []
    start = time.process_time()
    for g in range(args.games):
        seed = derive_seed(args.seed, "calibrate", g)
        state = GameState.new(profile, seed=seed)
        bots = [rv._policy(derive_seed(seed, "bot", s), profile.name)
                for s in range(state.players)]
        listers = [lister_for(s, profile.name) for s in range(state.players)]
        rng = random.Random(seed)
        index = 0
        while not state.is_over:
            seat = state.to_act
            move = bot_turn(bots[seat], state, seat)
            view, _pile = seat_input(state, seat)
            listers[seat]._observe(view)
            if (view.phase in (Phase.DRAW, Phase.PLAY) and not view.staged
                    and index % args.every == 0):
                base = determinize(view, rng, (), picked_pile=mv.KNOCK in view.legal_actions)
                moves = rv._candidate_moves(view, base, listers[seat], [move])
                if len(moves) >= 2:
                    other = moves[1 + rng.randrange(len(moves) - 1)]
                    pair = []
                    bot_seed = rng.randrange(1 << 28)
                    for m in (moves[0], other):
                        trial = base.copy()
                        trial.apply(m)
                        pair.append(_cut_and_end(trial, seat, bot_seed))
                    (fa, sa, ya), (fb, sb, yb) = pair
                    xs.append([p - q for p, q in zip(fa, fb, strict=True)])
                    ys.append((ya - sa) - (yb - sb))
                    games.append(g)
            if isinstance(move, mv.Discard):
                listers[seat]._chosen(view, mv.DISCARD + move.kind)
            state.apply(move)
            index += 1
    x = np.array(xs)
    y = np.array(ys)
    fit = np.array([g % 2 == 0 for g in games])
    w, *_ = np.linalg.lstsq(x[fit], y[fit], rcond=None)
    test = ~fit
    resid = y[test] - x[test] @ w
    print(f"build: {build}; {args.games} games, {len(ys)} pairs of moves, "
          f"{time.process_time() - start:.0f} s CPU")
    w_all, *_ = np.linalg.lstsq(x, y, rcond=None)
    cov = np.linalg.pinv(x.T @ x) * float(np.mean((y - x @ w_all) ** 2))
    names = [f"{n} early" for n in rv.LEAF_FEATURES] + [f"{n} late" for n in rv.LEAF_FEATURES]
    for n, v, v_all, se in zip(names, w, w_all, np.sqrt(np.diag(cov)), strict=True):
        print(f"  {n:16} {v:8.1f} (all pairs {v_all:8.1f} ± {se:.1f})")
    print(f"held-out pairs {int(test.sum())}: the difference of (final - standing), sd "
          f"{y[test].std():.0f}; after the leaf, sd {resid.std():.0f}")
    print("LEAF_WEIGHTS = (" + ", ".join(f"{v:.1f}" for v in w_all) + ")")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--rounds", type=int, default=1)
    s.add_argument("--seats", default="0", help="comma-separated seats, or 'all'")
    s.add_argument("--budget", type=float, default=30.0)
    s.add_argument("--reps", type=int, default=3)
    lad = sub.add_parser("ladder")
    lad.add_argument("--games", type=int, default=30)
    lad.add_argument("--samples", type=int, default=16)
    lad.add_argument("--levels", default=",".join(LEVELS))
    lad.add_argument("--seed", type=int, default=1)
    lad.add_argument("--first", type=int, default=0,
                     help="the first game's number (a run split in parts: the same games)")
    lad.add_argument("--every", type=int, default=4, help="judge one decision in this many")
    lad.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    lad.add_argument("--verbose", action="store_true", help="print every game's figures")
    lad.add_argument("--horizon", type=int, default=0,
                     help="turns a seat a play-out plays (default: the review's; 99: the round)")
    lad.add_argument("--no-leaf", action="store_true", help="cut play-outs without the leaf")
    lad.add_argument("--late", type=int, default=-1,
                     help="turns a seat a pair with a meld in it is compared at (default: "
                     "the review's; 0: at the short cut, as two discards)")
    pl = sub.add_parser("planted")
    pl.add_argument("--games", type=int, default=40)
    pl.add_argument("--samples", type=int, default=32)
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--first", type=int, default=0,
                    help="the first game's number (a run split in parts: the same spots)")
    pl.add_argument("--verbose", action="store_true", help="print every spot's losses")
    pl.add_argument("--facts", action="store_true",
                    help="with --verbose: each spot's planted move and the table's facts")
    pl.add_argument("--kinds", default="old",
                    help="the plants: the first definitions (old), the clear mistakes (new), "
                    "those tried and not kept (tried), new+tried, all, or kinds by name, "
                    "comma-separated")
    pl.add_argument("--horizon", type=int, default=0,
                    help="turns a seat a play-out plays (default: the review's; 99: the round)")
    pl.add_argument("--no-leaf", action="store_true", help="cut play-outs without the leaf")
    pl.add_argument("--late", type=int, default=-1,
                    help="turns a seat a pair with a meld in it is compared at (default: "
                    "the review's; 0: at the short cut, as two discards)")
    pl.add_argument("--certify", type=int, default=0, metavar="N",
                    help="also play each spot's two moves to the round's end on N "
                    f"determinizations ({ORACLE_DRAW_FACTOR}N at a draw decision) of seeds of "
                    f"its own (the oracle; e.g. {ORACLE_SAMPLES})")
    pl.add_argument("--record", help="with --certify: append each spot's figures to this "
                    "file (JSON lines) for the certified command")
    pl.add_argument("--certify-own", type=int, default=0, metavar="N",
                    help="where the review classes the bot's own move worse than good, play "
                    "it and the review's best move to the round's end on N determinizations "
                    "(the oracle, seeds of its own)")
    ce = sub.add_parser("certified")
    ce.add_argument("files", nargs="+", help="files written by planted --certify --record")
    st = sub.add_parser("stakes")
    st.add_argument("--games", type=int, default=2)
    st.add_argument("--samples", type=int, default=12)
    st.add_argument("--seed", type=int, default=1)
    st.add_argument("--level", default="hard", help="the bots whose games are reviewed")
    st.add_argument("--profiles", default=",".join(STAKE_PROFILES),
                    help="comma-separated profiles; NAME+all: the whole pile taken "
                    "(partnership-13 first for the ratios)")
    cal = sub.add_parser("calibrate")
    cal.add_argument("--games", type=int, default=200)
    cal.add_argument("--every", type=int, default=4, help="use one decision in this many")
    cal.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    {"speed": speed, "ladder": ladder, "planted": planted, "certified": certified,
     "calibrate": calibrate, "stakes": stakes_mode}[args.what](args)


if __name__ == "__main__":
    main()
