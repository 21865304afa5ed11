"""Properties of whole random games, checked with Hypothesis.

Games are played under every built-in profile at every layout it allows, by two policies,
both choosing only from ``state.legal_actions()`` with ``random.Random(seed)``:

* ``uniform``: every legal action equally likely. Such a player almost never melds (it
  stages cards at random and rarely confirms), so it mostly tests drawing, discarding,
  staging and the round ends.
* ``easy``: :class:`handfoot.bots.heuristic.EasyBot` per seat, with one action in ten chosen
  uniformly instead. It opens, melds, builds books, takes the pile, plays from its Foot,
  picks up its Knee, undoes, asks to go out and goes out, so the table properties are not
  vacuous.

A game that needs more than :data:`MAX_ACTIONS` actions is stuck, and fails.

Where the time goes (the whole file takes about 50 s on one core; keep it under a minute):

* :func:`test_whole_games_keep_every_invariant` plays one game per profile, layout and
  policy (38 games), and two more at each profile's default layout, checking the cheap
  properties (cards, table, openings, scores, round ends) after every action, views and the
  action mask at a few sampled points, and that the game replays from its record and is
  played again the same way from its seed.
* The other property tests go deeper into one property each (views and the action mask at
  many more points, copies played on), one game per profile and policy, the layout drawn
  from the profile's layouts; and every seat's view after every action of a fixed round.
* :func:`test_option_combinations_play_whole_games` draws sets of optional house rules.

``HANDFOOT_PROPERTY_SCALE=20 pytest tests/test_properties.py`` multiplies every number of
games for a long search.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import Phase as HPhase
from hypothesis import given, settings
from hypothesis import strategies as st

from handfoot.bots.heuristic import EasyBot
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import FACE_KIND, JOKER, RED_THREE, TWO
from handfoot.game.engine import GameState
from handfoot.game.loading import OPTIONS, builtin_profile_names, load_profile
from handfoot.game.moves import WILD_MELD
from handfoot.game.record import GameRecorder, from_json, replay, to_json
from handfoot.game.rules import Layout, Profile
from handfoot.game.values import IllegalMoveError, Phase, PlayerView, RoundResult, TableMeld
from positions import position, reshuffle_hidden, snapshot

MAX_ACTIONS = 500_000
"""More actions than this in one game means the game is stuck."""

NAMES = builtin_profile_names()
PROFILES: dict[str, Profile] = {name: load_profile(name) for name in NAMES}
CONFIGS = [(name, layout) for name in NAMES for layout in PROFILES[name].layouts]
"""Every profile at every layout it allows."""
DEFAULTS = [(name, PROFILES[name].layout) for name in NAMES]
POLICIES = ("uniform", "easy")
EPSILON = 0.1
"""Share of the easy policy's actions chosen uniformly instead."""
ROUND_END_REASONS = {"went out", "stock exhausted", "red 3 not replaced", "stalled"}

SEEDS = st.integers(0, 2**32 - 1)
# No shrinking: a smaller seed is not a simpler game, and each try is a whole game.
PHASES = (HPhase.explicit, HPhase.reuse, HPhase.generate)


SCALE = int(os.environ.get("HANDFOOT_PROPERTY_SCALE", "1"))
"""Multiplies every test's number of games: ``HANDFOOT_PROPERTY_SCALE=20 pytest ...`` for a
long search."""


def props(examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return settings(max_examples=examples * SCALE, deadline=None, phases=PHASES)


def params(configs: list[tuple[str, Layout]]) -> list[object]:
    return [pytest.param(name, layout, id=f"{name}-{layout}") for name, layout in configs]


# --- playing random games --------------------------------------------------------------


class Policy:
    """A seeded random player for every seat, choosing from the legal actions."""

    def __init__(self, kind: str, seed: int, players: int) -> None:
        self.rng = random.Random(seed)
        self.bots = ([EasyBot(self.rng.randrange(2**32)) for _ in range(players)]
                     if kind == "easy" else None)

    def __call__(self, state: GameState) -> tuple[int, tuple[int, ...]]:
        """An action for the seat to act, and the legal actions it was chosen from."""
        rng = self.rng
        if self.bots is None:
            legal = tuple(state.legal_actions())
            return (legal[rng.randrange(len(legal))] if legal else -1), legal
        view = state.view(state.to_act)  # its legal actions are the state's: see views
        legal = view.legal_actions
        if rng.random() < EPSILON:
            return legal[rng.randrange(len(legal))], legal
        return self.bots[state.to_act].choose(view), legal


After = Callable[[GameState], None]
Check = Callable[[GameState, int], After | None]
"""Called before each action with the state and the action; may return a check to run on
the state after the action."""


def new_game(profile: str | Profile, layout: Layout, seed: int) -> GameState:
    p = PROFILES[profile] if isinstance(profile, str) else profile
    return GameState.new(p, layout=layout, seed=seed)


def play(profile: str | Profile, layout: Layout, seed: int, policy: str,
         check: Check | None = None, *, state: GameState | None = None,
         apply: Callable[[int], object] | None = None) -> tuple[GameState, list[int]]:
    """Play a game to its end; returns the final state and every action played.

    ``apply`` plays an action (by default ``state.apply_action``).
    """
    state = state or new_game(profile, layout, seed)
    apply = apply or state.apply_action
    choose = Policy(policy, seed, state.players)
    played: list[int] = []
    while not state.is_over:
        action, legal = choose(state)
        assert legal, f"seat {state.to_act + 1} has no legal action in {state.phase.name}"
        assert action in legal
        after = check(state, action) if check is not None else None
        apply(action)
        played.append(action)
        if after is not None:
            after(state)
        if len(played) > MAX_ACTIONS:
            pytest.fail(f"{state.profile.name} {layout} seed {seed} ({policy}): the game is "
                        f"stuck after {MAX_ACTIONS} actions")
    return state, played


def shoe(state: GameState) -> list[int]:
    """The game's cards, by face: the counts every state must hold in all."""
    p = state.profile
    return cards.face_counts(cards.build_shoe(p.decks(state.players), p.jokers_per_deck))


def sampler(seed: int, rate: float) -> Callable[[], bool]:
    rng = random.Random(seed ^ 0x5EED)
    return lambda: rng.random() < rate


# --- 1. card conservation --------------------------------------------------------------


def assert_cards_conserved(state: GameState, expected: list[int],
                           seats: list[int] | None = None) -> None:
    """Every card of the shoe (``expected``: counts by face) is in exactly one place, and
    each hand's counts by face, by kind and in all agree (for ``seats``, by default all)."""
    elsewhere: list[int] = []
    for seat in range(state.players):
        elsewhere += state.feet[seat]
        elsewhere += state.knees[seat]
        if state.knees[seat]:
            assert len(state.knees[seat]) == state.profile.knee_size, (
                f"seat {seat + 1}'s Knee was picked up in part")
    elsewhere += state.stock
    elsewhere += state.pile
    for side in range(state.sides):
        for m in state.melds[side]:
            elsewhere += m.faces
        elsewhere += state.red_threes[side]
    counts = Counter(elsewhere)
    held = [sum(column) for column in zip(*state.held_faces, strict=True)]
    found = [held[f] + counts[f] for f in range(cards.NUM_FACES)]
    assert found == expected, "a card was created or lost: " + ", ".join(
        f"{cards.face_name(f)} {found[f] - expected[f]:+}"
        for f in range(cards.NUM_FACES) if found[f] != expected[f])
    for seat in range(state.players):
        hf = state.held_faces[seat]
        assert min(hf) >= 0, f"seat {seat + 1} holds a negative count of a face"
        assert sum(hf) == state.held_n[seat]
    for seat in range(state.players) if seats is None else seats:
        assert cards.kind_counts(cards.faces_from_counts(state.held_faces[seat])) == \
            state.held[seat], f"seat {seat + 1}'s hand by kind is not its hand by face"
    assert_staged_cards_held(state)


def assert_staged_cards_held(state: GameState) -> None:
    """Staged cards are still in the hand of the seat whose turn it is."""
    if state.staged:
        staged: Counter[int] = Counter()
        for group in state.staged_groups():
            for kind, count in group.kind_counts():
                staged[kind] += count
        for kind, count in staged.items():
            assert count <= state.held[state.seat][kind], "more cards staged than held"


@pytest.mark.parametrize(("name", "layout"), params(CONFIGS))
def test_red_threes_are_not_lost_when_the_stock_runs_out(name: str, layout: Layout) -> None:
    """Two red 3s drawn with the last two stock cards: the first is laid and cannot be
    replaced, so the round ends; the second must still be somewhere (found by the card
    conservation property: ``_lay_red_threes`` took every red 3 from the hand at once and
    dropped the rest when the stock ran out)."""
    p = PROFILES[name]
    state = position(p, layout=layout, round_number=p.rounds, turn=0, phase=Phase.DRAW,
                     stock_top="3H 3D", stock_size=2)
    state.apply(mv.Draw())
    assert state.is_over
    result = state.results[-1]
    assert result.reason == "red 3 not replaced"
    assert cards.face_counts(state.all_faces()) == shoe(state), "a red 3 was lost"
    lines = {line.key: line.count for line in result.scores[0].lines}
    assert lines["red_threes"] + lines["red_threes_caught"] == 2


# --- 2. every meld on the table is legal ------------------------------------------------


def meld_cap(p: Profile, target: int) -> int:
    """Cards at which a meld is full and takes no more."""
    return p.book_size if target == WILD_MELD else (p.book_max or 1 << 30)


def assert_meld_legal(p: Profile, m: TableMeld, where: Callable[[], str]) -> None:
    t, n, tw, jk, faces = m.target, m.naturals, m.twos, m.jokers, m.faces
    kinds = Counter(FACE_KIND[f] for f in faces)
    size = n + tw + jk
    assert len(faces) == size, f"{where()}: {size} cards counted, {len(faces)} faces"
    assert kinds[TWO] == tw and kinds[JOKER] == jk, f"{where()}: wild counts disagree"
    assert size >= p.min_meld_size, f"{where()}: only {size} cards"
    if t == WILD_MELD:
        assert p.all_wild_melds, f"{where()}: an all-wild meld, but the profile has none"
        assert n == 0 and set(kinds) <= {TWO, JOKER}, f"{where()}: naturals in an all-wild meld"
        assert size <= p.book_size, f"{where()}: an all-wild meld of {size} cards"
        return
    assert t in cards.RANKS, f"{where()}: target {t} is not a meldable rank"
    assert kinds[t] == n and set(kinds) <= {t, TWO, JOKER}, f"{where()}: faces of other kinds"
    if t in p.wild_free_ranks:
        assert tw + jk == 0, f"{where()}: wild cards in a meld of a wild-free rank"
    if p.book_max is not None:
        assert size <= p.book_max, f"{where()}: {size} cards, more than a book holds"
    else:
        assert tw + jk <= p.book_size, f"{where()}: wilds past a book"
    assert p.wilds_allowed(n, tw + jk, t), f"{where()}: {n} naturals with {tw + jk} wilds"


def assert_table_legal(state: GameState, sides: list[int] | None = None,
                       checked: dict[int, TableMeld] | None = None) -> int:
    """Check the tables of ``sides`` (every side by default); returns the number of melds
    checked. Melds in ``checked`` (by id) were checked before and are not again."""
    p = state.profile
    count = 0
    for side in range(state.sides) if sides is None else sides:
        unfinished: Counter[int] = Counter()
        not_books: Counter[int] = Counter()
        by_target: dict[int, list[TableMeld]] = {}
        for i, m in enumerate(state.melds[side]):
            if checked is None or checked.get(id(m)) is not m:
                assert_meld_legal(p, m, lambda: (
                    f"round {state.round_number}, side {side + 1}, "  # noqa: B023
                    f"meld {i + 1} ({m.describe()})"))  # noqa: B023
                if checked is not None:
                    checked[id(m)] = m
                count += 1
            if m.size < meld_cap(p, m.target):
                unfinished[m.target] += 1
            if m.size < p.book_size:
                not_books[m.target] += 1
            by_target.setdefault(m.target, []).append(m)
        for t, melds in by_target.items():
            what = f"side {side + 1}'s {cards.KIND_PLURALS[t] if t < WILD_MELD else 'wilds'}"
            second = p.second_meld_of_rank and t != WILD_MELD
            # every meld of a target but the last is full: only the last takes cards
            full = p.book_size if second else meld_cap(p, t)
            assert all(m.size >= full for m in melds[:-1]), (
                f"{what}: an earlier meld is unfinished: {[m.size for m in melds]}")
            if second:
                assert not_books[t] <= 1, f"{what}: {not_books[t]} melds that are not books"
            else:
                assert unfinished[t] <= 1, f"{what}: {unfinished[t]} unfinished melds"
            if t != WILD_MELD:
                if not p.new_meld_after_book and not p.second_meld_of_rank:
                    assert len(melds) == 1, f"{what}: {len(melds)} melds of one rank"
                assert all(m.naturals >= p.new_meld_min_naturals for m in melds[1:]), (
                    f"{what}: a new meld beside a book with too few naturals")
        assert all(FACE_KIND[f] == RED_THREE for f in state.red_threes[side])
    return count


# --- 3. the opening minimum, and how the table changes ------------------------------------


def expected_minimum(p: Profile, round_number: int, total: int) -> int:
    """A side's opening minimum, worked out from the profile's tables (none in a round
    whose opening needs a clean book instead, A-25)."""
    if round_number in p.clean_book_opening_rounds:
        return 0
    if p.score_band_minimums:
        minimum = p.score_band_minimums[0][1]
        for threshold, value in p.score_band_minimums:
            if total >= threshold:
                minimum = value
        return minimum
    return p.opening_minimums[min(round_number, len(p.opening_minimums)) - 1]


class TableBefore:
    """The tables as they were before an action, to check what the action laid down."""

    def __init__(self, state: GameState) -> None:
        self.round_number = state.round_number
        self.opened = state.opened[:]
        self.acting_side = state.side_of[state.seat]
        self.melds = [side[:] for side in state.melds]
        self.top_kind = (FACE_KIND[state.pile[-1]] if state.phase == Phase.DRAW and state.pile
                         else None)  # a pickup melds the top card into its first meld
        self.minimums = [state.opening_minimum_of(side) for side in range(state.sides)]
        p = state.profile
        for side, minimum in enumerate(self.minimums):
            assert minimum == expected_minimum(p, state.round_number, state.totals[side]), (
                f"side {side + 1}'s opening minimum in round {state.round_number} with "
                f"{state.totals[side]} points")

    def changed(self, state: GameState) -> list[int]:
        """The sides whose table is not the same list of melds as before."""
        if state.round_number != self.round_number:
            return list(range(state.sides))
        return [side for side, (old, now) in enumerate(zip(self.melds, state.melds,
                                                                 strict=True))
                if len(old) != len(now) or any(a is not b for a, b in zip(old, now,
                                                                         strict=True))]

    def check(self, state: GameState, action: int) -> int:
        """Check the state after ``action``; returns the number of sides that opened."""
        if state.round_number != self.round_number:
            return 0
        p = state.profile
        openings = 0
        for side in range(state.sides):
            old, now = self.melds[side], state.melds[side]
            assert state.opened[side] == bool(now), (
                f"side {side + 1}: opened is {state.opened[side]} with {len(now)} melds on "
                "the table")
            if len(old) == len(now) and all(a is b for a, b in zip(old, now, strict=True)):
                continue  # untouched
            assert side == self.acting_side, f"side {side + 1}'s table changed on another turn"
            if action == mv.UNDO:
                continue  # an undo takes back a whole meld action
            # Within a round, melds only grow; only naturals take a book past its size.
            assert len(now) >= len(old)
            for i, new in enumerate(now):
                before = old[i] if i < len(old) else None
                if before is not None:
                    assert before.target == new.target
                    assert new.faces[:len(before.faces)] == before.faces
                added_wilds = new.wilds - (before.wilds if before else 0)
                start = before.size if before else 0
                if added_wilds and p.book_max is None and new.target != WILD_MELD:
                    assert start + added_wilds <= p.book_size, (
                        f"side {side + 1}: {added_wilds} wilds took "
                        f"{cards.KIND_PLURALS[new.target]} from {start} past {p.book_size}: "
                        f"{new.describe()}")
            if self.opened[side] or not state.opened[side]:
                continue
            openings += 1
            delta: Counter[int] = Counter()
            wild_meld_cards = 0
            clean_book = False
            top_target = self.top_kind if action == mv.PICKUP else None
            for i, new in enumerate(now):
                laid = new.faces[len(old[i].faces):] if i < len(old) else new.faces
                delta.update(laid)
                if new.target == WILD_MELD:
                    wild_meld_cards += len(laid)
                elif new.target == top_target:
                    top_target = None  # holds the top card: not a book from the hand
                elif i >= len(old) and new.wilds == 0 and new.size >= p.book_size:
                    clean_book = True
            value = sum(p.kind_values[FACE_KIND[f]] * c for f, c in delta.items())
            how = (f"side {side + 1} opened round {self.round_number} with "
                   f"{cards.format_faces(delta.elements())} ({value} points) by "
                   f"{mv.action_name(action)}")
            assert value >= self.minimums[side], f"{how}; the minimum is {self.minimums[side]}"
            if not p.wild_meld_opens:
                assert not wild_meld_cards, f"{how}, including an all-wild meld"
            if self.round_number in p.clean_book_opening_rounds:
                assert clean_book, f"{how}, without a clean book from the hand"
        return openings


# --- 4. views hide hidden cards ---------------------------------------------------------

VIEW_FIELDS = {
    "profile", "seat", "side", "players", "sides", "round_number", "rounds", "phase", "turn",
    "to_act", "opening_minimum", "hand", "hand_counts", "foot_counts", "knee_counts",
    "in_foot", "melds", "red_threes", "opened", "discard_top", "discard_size", "stock_size",
    "hand_kinds",  # the seat's own hand, counted by kind
    "open_melds",  # public: each side's melds that take cards, as the table shows them
    "totals", "results", "asking", "staged", "legal_actions",
    "stalled_turns",  # public: everybody sees whether a turn drew or laid cards
    "pickup_size",  # public: the rules and the pile's size say it
}
"""Every field a view may have: none of them is the seed, the deal, the stock, the pile
below its top, or another seat's cards."""


def assert_view_honest(state: GameState, seat: int) -> None:
    v = state.view(seat)
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert names <= VIEW_FIELDS, f"unexpected view fields: {sorted(names - VIEW_FIELDS)}"
    assert v.seat == seat and v.side == state.side_of[seat]
    assert sorted(v.hand) == state.hand(seat), "the view's hand is not the seat's cards"
    assert v.hand_counts == tuple(state.held_n)
    assert v.foot_counts == tuple(len(f) for f in state.feet)
    assert v.knee_counts == tuple(len(k) for k in state.knees)
    assert v.in_foot == tuple(state.foot_picked)
    assert v.opening_minimum == state.opening_minimum_of(v.side)
    assert v.stock_size == len(state.stock) and v.discard_size == len(state.pile)
    assert v.discard_top == (state.pile[-1] if state.pile else None)
    assert v.melds == tuple(tuple(m) for m in state.melds)
    acting = seat == state.to_act and not state.is_over
    assert v.legal_actions == (tuple(state.legal_actions()) if acting else ())


def assert_views_hide(state: GameState, rng: random.Random) -> None:
    for seat in range(state.players):
        assert_view_honest(state, seat)
        other = reshuffle_hidden(state, seat, rng)
        if len(state.stock) > 1:
            assert snapshot(other) != snapshot(state), "the reshuffle changed nothing"
        assert other.view(seat) == state.view(seat), (
            f"seat {seat + 1}'s view changed when only cards hidden from it moved "
            f"(round {state.round_number}, {state.phase.name}, seat {state.to_act + 1} to act)")


# --- 5. scores are their breakdowns -----------------------------------------------------


def expected_side_score(state: GameState, side: int, went_out: int | None = None) -> int:
    """A side's round score recomputed from the table and the packets."""
    p = state.profile
    values = p.kind_values
    special = dict(p.special_book_bonus)
    total = 0
    seen: set[int] = set()
    for m in state.melds[side]:
        value = sum(values[FACE_KIND[f]] for f in m.faces)
        second = m.target in seen and m.target != WILD_MELD
        seen.add(m.target)
        if p.unfinished_second_meld_negative and second and m.size < p.book_size:
            total -= value
            continue
        total += value
        if m.size >= p.book_size:
            total += (p.wild_book_bonus if m.target == WILD_MELD
                      else p.dirty_book_bonus if m.wilds
                      else special.get(m.target, p.clean_book_bonus))
    reds = len(state.red_threes[side])
    bulk = p.red_three_bulk_count and reds >= p.red_three_bulk_count
    total += reds * (p.red_three_bulk_bonus if bulk else p.red_three_bonus)
    if went_out is not None and state.side_of[went_out] == side:
        total += p.going_out_bonus
    for seat in state.layout.seats_of(side):
        for f in state.hand(seat) + state.feet[seat] + state.knees[seat]:
            k = FACE_KIND[f]
            total -= (p.red_three_penalty if k == RED_THREE
                      else p.black_three_penalty if k == cards.BLACK_THREE else values[k])
    return total


def assert_result_consistent(results: list[RoundResult], sides: int) -> None:
    running = [0] * sides
    for i, r in enumerate(results):
        assert r.round_number == i + 1
        assert r.reason in ROUND_END_REASONS, f"round {r.round_number} ended by {r.reason!r}"
        assert (r.went_out is not None) == (r.reason == "went out")
        assert [s.side for s in r.scores] == list(range(sides))
        for s in r.scores:
            assert s.total == sum(line.points for line in s.lines), (
                f"round {r.round_number}, side {s.side + 1}: total {s.total} is not the sum "
                f"of its lines {[(x.key, x.points) for x in s.lines]}")
            running[s.side] += s.total
        assert r.totals == tuple(running), f"round {r.round_number}: totals not cumulative"


# --- 6. how rounds and games end ---------------------------------------------------------


def missing_books(p: Profile, melds: list[TableMeld]) -> list[str]:
    """The books a side with these melds still lacks to go out (worked out here)."""
    clean: Counter[int] = Counter()
    dirty = wild = 0
    for m in melds:
        if m.size < p.book_size:
            continue
        if m.target == WILD_MELD:
            wild += 1
        elif m.wilds:
            dirty += 1
        else:
            clean[m.target] += 1
    missing = []
    special = Counter(p.special_books_to_go_out)
    for rank, need in special.items():
        if clean[rank] < need:
            missing.append(f"clean {cards.KIND_PLURALS[rank]}")
    spare_clean = sum(clean.values()) - sum(min(clean[r], n) for r, n in special.items())
    if spare_clean < p.clean_books_to_go_out:
        missing.append("clean books")
    if dirty < p.dirty_books_to_go_out:
        missing.append("dirty books")
    if wild < p.wild_books_to_go_out:
        missing.append("all-wild books")
    return missing


def partner_ready(state: GameState, partner: int) -> bool:
    cond = state.profile.partner_condition
    if cond == "none":
        return True
    flags = {"picked_up": state.foot_picked, "played_from": state.foot_played,
             "finished_turn": state.foot_turn_done}[cond]
    return flags[partner] and not state.knees[partner]


class GoingOut:
    """What an action that may end the round by going out is, checked once it did."""

    def __init__(self, state: GameState, action: int) -> None:
        self.seat = state.seat
        self.discard: int | None = None
        if mv.GO_OUT_DISCARD <= action < mv.DISCARD:
            self.discard = action - mv.GO_OUT_DISCARD
        elif mv.DISCARD <= action < mv.STAGE_NATURAL:
            self.discard = action - mv.DISCARD
        elif action == mv.ANSWER_YES and state.pending is not None:
            self.discard = state.pending.discard
        self.partners_ready = all(partner_ready(state, s) for s in state.partners(self.seat))

    def check(self, result: RoundResult, p: Profile) -> None:
        assert result.went_out == self.seat, "someone else went out than the seat to play"
        if p.final_discard == "forbidden":
            assert self.discard is None, "went out with a discard, which the profile forbids"
        elif p.final_discard == "required":
            assert self.discard is not None, "went out without the required final discard"
        assert self.partners_ready, "went out before every partner was ready"


def check_discard(state: GameState, action: int) -> None:
    """A locked rank (Sevens From Hell) is discarded only once some table has a clean book
    of it, or by a player holding nothing else at the discard (A-55)."""
    p = state.profile
    if mv.GO_OUT_DISCARD <= action < mv.DISCARD:
        kind = action - mv.GO_OUT_DISCARD
    elif mv.DISCARD <= action < mv.STAGE_NATURAL:
        kind = action - mv.DISCARD
    else:
        return
    if kind not in p.discard_locked_until_clean_book:
        return
    released = any(m.target == kind and m.wilds == 0 and m.size >= p.book_size
                   for side in state.melds for m in side)
    held = state.held[state.seat][:]
    if action < mv.DISCARD:  # the staged cards are melded first
        for group in state.staged_groups():
            for k, count in group.kind_counts():
                held[k] -= count
    others = [k for k in range(RED_THREE)
              if held[k] and k not in p.discard_locked_until_clean_book]
    assert released or not others, (
        f"{mv.action_name(action)} is listed before a clean book of "
        f"{cards.KIND_PLURALS[kind]}, by a seat that holds other cards")


def assert_game_ended_properly(final: GameState) -> None:
    p = final.profile
    assert final.phase == Phase.GAME_OVER and final.is_over
    assert final.legal_actions() == [] and not any(final.action_mask())
    rounds = len(final.results)
    assert [r.round_number for r in final.results] == list(range(1, rounds + 1))
    if p.target_score is None:
        assert rounds == p.rounds
    else:
        assert 1 <= rounds <= p.rounds
        assert all(max(r.totals) < p.target_score for r in final.results[:-1]), (
            "the game went on after a side reached the target score")
        assert rounds == p.rounds or max(final.totals) >= p.target_score
    assert_result_consistent(final.results, final.sides)
    assert list(final.totals) == list(final.results[-1].totals)
    # The last round's table and packets are still there: rescore them, and check the
    # going out.
    last = final.results[-1]
    if last.went_out is not None:
        seat = last.went_out
        assert final.held_n[seat] == 0 and not final.feet[seat] and not final.knees[seat], (
            f"seat {seat + 1} went out holding cards")
        assert final.foot_picked[seat]
        missing = missing_books(p, final.melds[final.side_of[seat]])
        assert not missing, f"seat {seat + 1} went out lacking {', '.join(missing)}"
        assert all(partner_ready(final, s) for s in final.partners(seat))
    assert [s.total for s in last.scores] == [
        expected_side_score(final, side, last.went_out) for side in range(final.sides)], (
        f"the last round ({last.reason}) does not score what is on the table")
    with pytest.raises(IllegalMoveError):
        final.apply(mv.Draw())
    assert final.winners() and set(final.winners()) <= set(range(final.sides))


# --- 7. the action mask and illegal actions ----------------------------------------------


def check_actions(state: GameState, rng: random.Random, illegal_tries: int) -> None:
    legal = state.legal_actions()
    mask = state.action_mask()
    assert len(mask) == mv.NUM_ACTIONS
    assert legal == sorted(set(legal))
    assert [a for a in range(mv.NUM_ACTIONS) if mask[a]] == legal
    expected = shoe(state)
    before = snapshot(state)
    tables = TableBefore(state)
    for a in legal:
        c = state.copy()
        try:
            c.apply_action(a)
        except IllegalMoveError as exc:
            pytest.fail(f"listed action {a} ({mv.action_name(a)}) raised: {exc}")
        # every branch, not only the one played, keeps the cards and the table legal
        assert_cards_conserved(c, expected)
        assert_table_legal(c)
        tables.check(c, a)
    illegal = [a for a in range(mv.NUM_ACTIONS) if not mask[a]]
    for a in rng.sample(illegal, min(illegal_tries, len(illegal))):
        c = state.copy()
        try:
            c.apply_action(a)
        except IllegalMoveError:
            assert snapshot(c) == before, f"illegal {mv.action_name(a)} changed the state"
            continue
        pytest.fail(f"{mv.action_name(a)} (id {a}) is not listed in {state.phase.name} but "
                    "was played")
    assert snapshot(state) == before


# --- every invariant of a whole game ------------------------------------------------------


GOING_OUT_ACTIONS = {mv.GO_OUT, mv.ANSWER_YES}
"""With a discard (``GO_OUT_DISCARD + kind``, ``DISCARD + kind``), the actions that may
end a round by going out."""


class Invariants:
    """The checks run around every action of a game (see :data:`Check`).

    After every action: cards conserved (after a staging action, which moves no card: that
    none moved), every table legal, table changes and openings, locked discards, cards kept
    after a discard, and going out (by the seat to play, with or without the final discard
    as the profile says, partners ready).
    When a round ends: its score breakdown, and, when the stock ran out, the score
    recomputed from the table. At sampled actions (``views``, ``masks``: rates): every
    seat's view against reshuffled hidden cards; the action mask and every legal action.
    """

    def __init__(self, state: GameState, seed: int, *, views: float = 0.0,
                 masks: float = 0.0) -> None:
        self.expected = shoe(state)
        self.sample_views = sampler(seed ^ 0x1, views)
        self.sample_masks = sampler(seed ^ 0x2, masks)
        self.rng = random.Random(seed ^ 0xC0FFEE)
        self.melds = self.openings = self.views = self.masks = self.rounds = 0
        self.knees = 0
        self.checked: dict[int, TableMeld] = {}
        assert_cards_conserved(state, self.expected)
        assert_table_legal(state)

    def __call__(self, state: GameState, action: int) -> After:
        if self.sample_masks():
            check_actions(state, self.rng, 12)
            self.masks += 1
        tables = TableBefore(state)
        ended = len(state.results)
        knees = sum(1 for k in state.knees if k)
        exhausting = (action == mv.DRAW and state.phase == Phase.DRAW
                      and len(state.stock) < state.profile.draw_count
                      and not (state.profile.partial_last_draw and state.stock))
        expected = ([expected_side_score(state, s) for s in range(state.sides)]
                    if exhausting else None)
        views = self.sample_views()
        check_discard(state, action)
        going_out = (GoingOut(state, action) if action in GOING_OUT_ACTIONS
                     or mv.GO_OUT_DISCARD <= action < mv.STAGE_NATURAL else None)

        round_number, seat = state.round_number, state.seat
        staging = action == mv.CLEAR or mv.STAGE_NATURAL <= action < mv.KNEE
        places = (state.held_n[:], len(state.stock), len(state.pile)) if staging else None

        def after(state: GameState) -> None:
            if staging and state.round_number == round_number:
                # staging moves no card: only the cheap checks
                assert (state.held_n, len(state.stock), len(state.pile)) == places, (
                    f"{mv.action_name(action)} moved cards")
                assert_staged_cards_held(state)
            else:
                assert_cards_conserved(state, self.expected,
                                       None if state.round_number != round_number
                                       else list({seat, state.seat}))
            self.melds += assert_table_legal(state, tables.changed(state), self.checked)
            self.openings += tables.check(state, action)
            if len(state.results) != ended:
                self.rounds += 1
                assert len(state.results) == ended + 1
                if state.results[-1].reason == "went out":
                    assert going_out is not None, f"{mv.action_name(action)} went out"
                    going_out.check(state.results[-1], state.profile)
                assert_result_consistent(state.results, state.sides)
                assert list(state.totals) == list(state.results[-1].totals)
                if expected is not None:
                    # Running out of stock changes nothing before the round is scored.
                    r = state.results[-1]
                    assert r.reason == "stock exhausted"
                    assert [s.total for s in r.scores] == expected
            else:
                if sum(1 for k in state.knees if k) < knees:
                    self.knees += 1
                if (mv.DISCARD <= action < mv.STAGE_NATURAL
                        and state.in_last_packet(seat)):
                    assert state.held_n[seat] >= state.profile.min_cards_kept, (
                        f"seat {seat + 1} discarded down to {state.held_n[seat]} cards")
            if views:
                assert_views_hide(state, self.rng)
                self.views += 1

        return after


def record_and_replay(recorder: GameRecorder, final: GameState, *, json: bool) -> None:
    """The game's record (through JSON, if ``json``) replays to the same results."""
    record = recorder.record()
    if json:
        again = from_json(to_json(record))
        assert to_json(again) == to_json(record)
        record = again
    result = replay(record)
    assert result.ok, [problem.message for problem in result.problems]
    assert result.game_over
    assert list(result.results) == final.results
    assert result.totals == tuple(final.totals)


def play_checked(p: Profile, layout: Layout, seed: int, policy: str, *,
                 json: bool = False) -> None:
    """One game with every invariant checked, recorded and replayed, and played again."""
    state = new_game(p, layout, seed)
    checks = Invariants(state, seed, views=0.002, masks=0.002)
    assert_views_hide(state, checks.rng)
    recorder = GameRecorder(state)
    final, actions = play(p, layout, seed, policy, checks, state=state,
                          apply=recorder.apply_action)
    assert_game_ended_properly(final)
    assert_views_hide(final, checks.rng)
    record_and_replay(recorder, final, json=json)
    # the same seed, the same game
    again, actions_again = play(p, layout, seed, policy)
    assert actions_again == actions
    assert again.results == final.results and again.totals == final.totals
    if policy == "easy":
        assert checks.melds, "the easy policy never melded: the table was not checked"
        assert checks.openings, "the easy policy never opened: openings were not checked"
        assert checks.knees or not p.knee_size, "the easy policy never picked up a Knee"


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), params(CONFIGS))
@props(1)
@given(seed=SEEDS)
def test_whole_games_keep_every_invariant(name: str, layout: Layout, policy: str,
                                          seed: int) -> None:
    play_checked(PROFILES[name], layout, seed, policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), params(DEFAULTS))
@props(2)
@given(seed=SEEDS)
def test_whole_games_keep_every_invariant_at_default_layouts(
        name: str, layout: Layout, policy: str, seed: int) -> None:
    play_checked(PROFILES[name], layout, seed, policy, json=True)


# --- deeper looks at single properties ----------------------------------------------------

NAME_POLICY = [pytest.param(name, policy, id=f"{name}-{policy}")
               for name in NAMES for policy in POLICIES]


def layouts_of(name: str) -> st.SearchStrategy[Layout]:
    return st.sampled_from(PROFILES[name].layouts)


@pytest.mark.parametrize(("name", "policy"), NAME_POLICY)
@props(1)
@given(data=st.data(), seed=SEEDS)
def test_views_reveal_no_hidden_card(name: str, policy: str, data: st.DataObject,
                                     seed: int) -> None:
    layout = data.draw(layouts_of(name), label="layout")
    state = new_game(name, layout, seed)
    checks = Invariants(state, seed, views=0.02)
    final, _ = play(name, layout, seed, policy, checks, state=state)
    assert checks.views or len(final.results) == 0


@given(counts=st.lists(st.integers(0, 4), min_size=cards.NUM_FACES,
                       max_size=cards.NUM_FACES), off=st.sampled_from([0, 0, 0, -1, 1, 7]))
def test_a_views_hand_is_the_faces_held_in_face_order(counts: list[int], off: int) -> None:
    """The view's hand in pure Python (cards.hand_faces: the faces held once picked by
    itertools.compress, walked again where one is held twice or more) is
    faces_from_counts', duplicates and all, whatever total it is told (a state edited by
    hand may count its hand wrongly: the faces are still the counts')."""
    total = sum(counts) + off
    assert cards.hand_faces(counts, total) == tuple(cards.faces_from_counts(counts))


EVERY_ACTION = [("partnership-13", Layout(2, 2)), ("biegames", Layout(2, 1)),
                ("hand-knee-foot", Layout(3, 1))]


@pytest.mark.parametrize(("name", "layout"), params(EVERY_ACTION))
def test_views_reveal_no_hidden_card_after_every_action(name: str, layout: Layout) -> None:
    """A fixed game with every seat's view checked after every action of its first round
    (with a Knee in hand-knee-foot)."""
    seed = 20260101
    rng = random.Random(seed)
    checked = 0
    knees = 0

    def check(state: GameState, action: int) -> After | None:
        nonlocal knees
        knees += action == mv.KNEE
        if state.round_number > 1:
            return None

        def after(state: GameState) -> None:
            nonlocal checked
            assert_views_hide(state, rng)
            checked += 1

        return after

    play(name, layout, seed, "easy", check)
    assert checked > 300
    assert knees or not PROFILES[name].knee_size, "no Knee was picked up"


@pytest.mark.parametrize(("name", "policy"), NAME_POLICY)
@props(1)
@given(data=st.data(), seed=SEEDS)
def test_action_mask_is_the_legal_actions(name: str, policy: str, data: st.DataObject,
                                          seed: int) -> None:
    layout = data.draw(layouts_of(name), label="layout")
    state = new_game(name, layout, seed)
    checks = Invariants(state, seed, masks=0.02)
    final, _ = play(name, layout, seed, policy, checks, state=state)
    assert final.legal_actions() == [] and not any(final.action_mask())
    assert checks.masks


def mutate(c: GameState) -> None:
    """Change every mutable part of a state in place."""
    for group in (c.held_faces, c.held, c.feet, c.knees, c.melds, c.red_threes):
        for item in group:
            item.append(0)  # type: ignore[arg-type]
    for flat in (c.held_n, c.foot_picked, c.foot_played, c.foot_turn_done, c.stock, c.pile,
                 c.opened, c.permission, c.pending_answerers, c.totals, c.results,
                 c.undo_stack):
        flat.append(0)  # type: ignore[arg-type]
    c.staged[99] = [1, 1, 1]
    for value in c.staged.values():
        value[0] += 1


@pytest.mark.parametrize(("name", "policy"), NAME_POLICY)
@props(1)
@given(data=st.data(), seed=SEEDS)
def test_copies_are_independent(name: str, policy: str, data: st.DataObject,
                                seed: int) -> None:
    """At random points of a game, a copy is played on for a while: the original is
    unchanged; the original then plays the same actions and reaches the same state; and
    changing every part of the copy in place leaves the original alone.
    """
    layout = data.draw(layouts_of(name), label="layout")
    state = new_game(name, layout, seed)
    choose = Policy(policy, seed, state.players)
    rng = random.Random(seed ^ 0xC09)
    # copies at three random points of the game's first 1,200 actions, and a few more later
    points = sorted(rng.sample(range(1, 1200), 3))
    sample = sampler(seed, 0.002)
    actions = 0
    copies = 0
    while not state.is_over:
        if not (sample() or (points and actions >= points[0])):
            state.apply_action(choose(state)[0])
            actions += 1
            assert actions <= MAX_ACTIONS, "the game is stuck"
            continue
        while points and actions >= points[0]:
            points.pop(0)
        copies += 1
        before = snapshot(state)
        c = state.copy()
        assert snapshot(c) == before
        continuation = Policy(policy, rng.randrange(2**32), state.players)
        played: list[int] = []
        for _ in range(rng.randrange(1, 300)):
            if c.is_over:
                break
            played.append(continuation(c)[0])
            c.apply_action(played[-1])
        assert snapshot(state) == before, "playing on a copy changed the original"
        for a in played:
            state.apply_action(a)
        actions += len(played)
        assert snapshot(state) == snapshot(c), "the same actions led elsewhere"
        assert state.results == c.results and state.totals == c.totals
        after = snapshot(state)
        mutate(c)
        assert snapshot(state) == after, "changing a copy changed the original"
    assert copies >= 1


def test_undo_on_a_copy_leaves_the_original_alone() -> None:
    """Regression: ``copy()`` shares the undo stack's entries, and ``Undo`` used to install
    them as the live hand and table, so play after an undo on a copy changed the original's
    entry (fixed in 74ef7e5)."""
    state = position("partnership-13", turn=0, phase=Phase.PLAY,
                     hands={0: "KS KD KH QS QD QH 5C 6C 7C 8C 9C TC JC"},
                     melds={0: ["AS AD AH"]})
    state.apply(mv.parse_move("meld K K K"))
    c = state.copy()
    c.apply(mv.Undo())
    c.apply(mv.parse_move("discard 5"))  # takes the 5 out of the restored hand, in place
    state.apply(mv.Undo())
    assert sorted(state.hand(0)) == sorted(
        cards.parse_faces("KS KD KH QS QD QH 5C 6C 7C 8C 9C TC JC")), (
        f"after undo the original holds {cards.format_faces(state.hand(0))}")
    assert cards.face_counts(state.all_faces()) == shoe(state)


# --- optional house rules -----------------------------------------------------------------

PLAYABLE_OPTIONS = [key for key, option in OPTIONS.items() if not option.tabletop]
"""Options that change play (the tabletop ones only give a score keeper values)."""
OPTION_PROFILES = [name for name in NAMES
                   if any(name in OPTIONS[key].meant_for for key in PLAYABLE_OPTIONS)]


def compatible(keys: frozenset[str]) -> bool:
    """No two of the options are alternatives (share an exclusive group)."""
    groups = [g for key in keys for g in OPTIONS[key].groups]
    return len(groups) == len(set(groups))


@st.composite
def option_games(draw: st.DrawFn) -> tuple[str, frozenset[str], Layout]:
    name = draw(st.sampled_from(OPTION_PROFILES), label="profile")
    meant = [key for key in PLAYABLE_OPTIONS if name in OPTIONS[key].meant_for]
    keys = draw(st.sets(st.sampled_from(meant), min_size=1, max_size=5).filter(compatible),
                label="options")
    layout = draw(st.sampled_from(PROFILES[name].layouts), label="layout")
    return name, frozenset(keys), layout


def test_every_option_is_meant_for_a_profile_that_exists() -> None:
    assert len(OPTION_PROFILES) >= 3
    for key, option in OPTIONS.items():
        assert option.meant_for, key
        assert set(option.meant_for) <= set(NAMES), key
        for name in option.meant_for:
            p = load_profile(name, overrides={key: True})
            assert key in p.options


@props(8)
@given(game=option_games(), seed=SEEDS)
def test_option_combinations_play_whole_games(game: tuple[str, frozenset[str], Layout],
                                              seed: int) -> None:
    """Two games under a drawn set of options: cards conserved, tables legal, openings,
    scores the sum of their lines, the action mask at a few points, and the game ends."""
    name, keys, layout = game
    p = load_profile(name, overrides={key: True for key in sorted(keys)})
    assert set(p.options) == set(keys)
    # Uniform play hardly scores: it would play a target-score game's 100 rounds.
    policies = ("easy", "easy") if p.target_score is not None else ("easy", "uniform")
    for i, policy in enumerate(policies):
        game_seed = (seed + i) % 2**32
        state = new_game(p, layout, game_seed)
        checks = Invariants(state, game_seed, masks=0.003)
        final, _ = play(p, layout, game_seed, policy, checks, state=state)
        assert_game_ended_properly(final)
