"""Properties of whole random games, checked with Hypothesis.

Games are played under ``partnership-13`` (2x2) and ``biegames`` (2x2 and 2x1) by two
policies, both choosing only from ``state.legal_actions()`` with ``random.Random(seed)``:

* ``uniform``: every legal action equally likely. Such a player almost never melds (it
  stages cards at random and rarely confirms), so it mostly tests drawing, discarding,
  staging and the round ends.
* ``easy``: :class:`handfoot.bots.EasyBot` per seat, with one action in ten chosen
  uniformly instead. It opens, melds, builds books, takes the pile, plays from its Foot,
  undoes, asks to go out and goes out, so the table properties are not vacuous.

A game that needs more than :data:`MAX_ACTIONS` actions is stuck, and fails.

Cheap invariants are checked after every action; the expensive ones (hidden information,
every legal and some illegal actions) on a random sample of the actions of each game, and
after every action on a few fixed games.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import Phase as HPhase
from hypothesis import given, settings
from hypothesis import strategies as st

from handfoot import cards
from handfoot import moves as mv
from handfoot.bots import EasyBot
from handfoot.cards import FACE_KIND, JOKER, RED_THREE, TWO
from handfoot.engine import (
    GameState,
    IllegalMoveError,
    Phase,
    PlayerView,
    RoundResult,
    TableMeld,
)
from handfoot.moves import WILD_MELD
from handfoot.rules import Layout, Profile, load_profile
from positions import position, snapshot

MAX_ACTIONS = 500_000
"""More actions than this in one game means the game is stuck."""

PROFILES: dict[str, Profile] = {name: load_profile(name)
                                for name in ("partnership-13", "biegames")}
CONFIGS = [
    pytest.param("partnership-13", Layout(2, 2), id="partnership-13-2x2"),
    pytest.param("biegames", Layout(2, 2), id="biegames-2x2"),
    pytest.param("biegames", Layout(2, 1), id="biegames-2x1"),
]
POLICIES = ("uniform", "easy")
EPSILON = 0.1
"""Share of the easy policy's actions chosen uniformly instead."""
ROUND_END_REASONS = {"went out", "stock exhausted", "red 3 not replaced"}

SEEDS = st.integers(0, 2**32 - 1)
# No shrinking: a smaller seed is not a simpler game, and each try is a whole game.
PHASES = (HPhase.explicit, HPhase.reuse, HPhase.generate)


SCALE = int(os.environ.get("HANDFOOT_PROPERTY_SCALE", "1"))
"""Multiplies every test's number of games: ``HANDFOOT_PROPERTY_SCALE=20 pytest ...`` for a
long search."""


def props(examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return settings(max_examples=examples * SCALE, deadline=None, phases=PHASES)


# --- playing random games --------------------------------------------------------------


class Policy:
    """A seeded random player for every seat, choosing from ``legal_actions()``."""

    def __init__(self, kind: str, seed: int, players: int) -> None:
        self.rng = random.Random(seed)
        self.bots = ([EasyBot(self.rng.randrange(2**32)) for _ in range(players)]
                     if kind == "easy" else None)

    def __call__(self, state: GameState, legal: list[int]) -> int:
        rng = self.rng
        if self.bots is None or rng.random() < EPSILON:
            return legal[rng.randrange(len(legal))]
        return self.bots[state.to_act].choose(state.view(state.to_act))


After = Callable[[GameState], None]
Check = Callable[[GameState, int], After | None]
"""Called before each action with the state and the action; may return a check to run on
the state after the action."""


def new_game(name: str, layout: Layout, seed: int) -> GameState:
    return GameState.new(PROFILES[name], layout=layout, seed=seed)


def play(name: str, layout: Layout, seed: int, policy: str, check: Check | None = None,
         *, state: GameState | None = None,
         apply: Callable[[int], object] | None = None) -> tuple[GameState, list[int]]:
    """Play a game to its end; returns the final state and every action played.

    ``apply`` plays an action (by default ``state.apply_action``).
    """
    state = state or new_game(name, layout, seed)
    apply = apply or state.apply_action
    choose = Policy(policy, seed, state.players)
    played: list[int] = []
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"seat {state.to_act + 1} has no legal action in {state.phase.name}"
        action = choose(state, legal)
        assert action in legal
        after = check(state, action) if check is not None else None
        apply(action)
        played.append(action)
        if after is not None:
            after(state)
        if len(played) > MAX_ACTIONS:
            pytest.fail(f"{name} {layout} seed {seed} ({policy}): the game is stuck after "
                        f"{MAX_ACTIONS} actions")
    return state, played


def shoe(state: GameState) -> list[int]:
    p = state.profile
    return sorted(cards.build_shoe(p.decks(state.players), p.jokers_per_deck))


def sampler(seed: int, rate: float) -> Callable[[], bool]:
    rng = random.Random(seed ^ 0x5EED)
    return lambda: rng.random() < rate


# --- 1. card conservation --------------------------------------------------------------


def assert_cards_conserved(state: GameState, expected: list[int]) -> None:
    assert sorted(state.all_faces()) == expected, "a card was created or lost"
    for seat in range(state.players):
        hf = state.held_faces[seat]
        assert min(hf) >= 0, f"seat {seat + 1} holds a negative count of a face"
        assert cards.kind_counts(cards.faces_from_counts(hf)) == state.held[seat]
        assert sum(hf) == sum(state.held[seat]) == state.held_n[seat]
    # staged cards are still in the hand of the seat whose turn it is
    staged: Counter[int] = Counter()
    for group in state.staged_groups():
        for kind, count in group.kind_counts():
            staged[kind] += count
    for kind, count in staged.items():
        assert count <= state.held[state.seat][kind], "more cards staged than held"


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), CONFIGS)
@props(3)
@given(seed=SEEDS)
def test_every_card_is_in_exactly_one_place(name: str, layout: Layout, policy: str,
                                            seed: int) -> None:
    state = new_game(name, layout, seed)
    expected = shoe(state)
    assert_cards_conserved(state, expected)

    def check(state: GameState, action: int) -> After:
        return lambda after: assert_cards_conserved(after, expected)

    final, _ = play(name, layout, seed, policy, check, state=state)
    assert_cards_conserved(final, expected)


@pytest.mark.parametrize(("name", "layout"), CONFIGS)
def test_red_threes_are_not_lost_when_the_stock_runs_out(name: str, layout: Layout) -> None:
    """Two red 3s drawn with the last two stock cards: the first is laid and cannot be
    replaced, so the round ends; the second must still be somewhere (found by
    ``test_every_card_is_in_exactly_one_place``: ``_lay_red_threes`` took every red 3 from
    the hand at once and dropped the rest when the stock ran out)."""
    p = PROFILES[name]
    state = position(p, layout=layout, round_number=p.rounds, turn=0, phase=Phase.DRAW,
                     stock_top="3H 3D", stock_size=2)
    state.apply(mv.Draw())
    assert state.is_over
    result = state.results[-1]
    assert result.reason == "red 3 not replaced"
    assert sorted(state.all_faces()) == shoe(state), "a red 3 was lost"
    lines = {line.key: line.count for line in result.scores[0].lines}
    assert lines["red_threes"] + lines["red_threes_caught"] == 2


# --- 2. every meld on the table is legal ------------------------------------------------


def assert_meld_legal(p: Profile, m: TableMeld, where: str) -> None:
    t, n, tw, jk, faces = m.target, m.naturals, m.twos, m.jokers, m.faces
    kinds = Counter(FACE_KIND[f] for f in faces)
    size = n + tw + jk
    assert len(faces) == size, f"{where}: {size} cards counted, {len(faces)} faces"
    assert kinds[TWO] == tw and kinds[JOKER] == jk, f"{where}: wild counts disagree with faces"
    assert size >= p.min_meld_size, f"{where}: only {size} cards"
    if t == WILD_MELD:
        assert p.all_wild_melds, f"{where}: an all-wild meld, but the profile has none"
        assert n == 0 and set(kinds) <= {TWO, JOKER}, f"{where}: naturals in an all-wild meld"
        assert size <= p.book_size, f"{where}: an all-wild meld of {size} cards"
        return
    assert t in cards.RANKS, f"{where}: target {t} is not a meldable rank"
    assert kinds[t] == n and set(kinds) <= {t, TWO, JOKER}, f"{where}: faces of other kinds"
    if p.book_max is not None:
        assert size <= p.book_max, f"{where}: {size} cards, more than a book holds"
    else:
        assert tw + jk <= p.book_size, f"{where}: wilds past a book"
    assert p.wilds_allowed(n, tw + jk, t), f"{where}: {n} naturals with {tw + jk} wilds"


def assert_table_legal(state: GameState) -> int:
    """Check every side's table; returns the number of melds checked."""
    p = state.profile
    checked = 0
    for side in range(state.sides):
        unfinished: Counter[int] = Counter()
        targets: Counter[int] = Counter()
        for i, m in enumerate(state.melds[side]):
            where = (f"round {state.round_number}, side {side + 1}, meld {i + 1} "
                     f"({m.describe()})")
            assert_meld_legal(p, m, where)
            cap = p.book_size if m.target == WILD_MELD else (p.book_max or 1 << 30)
            if m.size < cap:
                unfinished[m.target] += 1
            targets[m.target] += 1
            checked += 1
        for t, count in unfinished.items():
            assert count <= 1, f"side {side + 1} has {count} unfinished melds of target {t}"
        if not p.new_meld_after_book:
            assert all(c <= 1 for t, c in targets.items() if t != WILD_MELD)
        assert all(FACE_KIND[f] == RED_THREE for f in state.red_threes[side])
    return checked


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), CONFIGS)
@props(3)
@given(seed=SEEDS)
def test_every_meld_on_the_table_is_legal(name: str, layout: Layout, policy: str,
                                          seed: int) -> None:
    checked = 0

    def check(state: GameState, action: int) -> After:
        round_number = state.round_number
        before = [m[:] for m in state.melds]

        def after(state: GameState) -> None:
            nonlocal checked
            checked += assert_table_legal(state)
            if state.round_number != round_number or action == mv.UNDO:
                return
            # Within a round, melds only grow (an undo takes back a whole meld action).
            for side in range(state.sides):
                now = state.melds[side]
                assert len(now) >= len(before[side])
                for old, new in zip(before[side], now, strict=False):
                    assert old.target == new.target
                    assert new.faces[:len(old.faces)] == old.faces

        return after

    play(name, layout, seed, policy, check)
    if policy == "easy":
        assert checked, "the easy policy never melded: the property was not exercised"


# --- 3. the opening minimum ------------------------------------------------------------


class TableBefore:
    """The tables as they were before an action, to check what the action laid down."""

    def __init__(self, state: GameState) -> None:
        self.round_number = state.round_number
        self.opened = state.opened[:]
        self.acting_side = state.side_of[state.seat]
        self.tables = [Counter(f for m in side for f in m.faces) for side in state.melds]

    def check(self, state: GameState, action: int) -> int:
        """Check the state after ``action``; returns the number of sides that opened."""
        if state.round_number != self.round_number:
            return 0
        p = state.profile
        minimum = p.opening_minimum(self.round_number)
        openings = 0
        for side in range(state.sides):
            assert state.opened[side] == bool(state.melds[side]), (
                f"side {side + 1}: opened is {state.opened[side]} with "
                f"{len(state.melds[side])} melds on the table")
            new = Counter(f for m in state.melds[side] for f in m.faces)
            if side != self.acting_side:
                assert new == self.tables[side], (
                    f"side {side + 1}'s table changed on another side's turn")
            if self.opened[side] or not state.opened[side]:
                continue
            openings += 1
            delta = new - self.tables[side]
            value = sum(p.kind_values[FACE_KIND[f]] * c for f, c in delta.items())
            assert value >= minimum, (
                f"side {side + 1} opened round {self.round_number} with "
                f"{cards.format_faces(delta.elements())} ({value} points) by "
                f"{mv.action_name(action)}; the minimum is {minimum}")
        return openings


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), CONFIGS)
@props(3)
@given(seed=SEEDS)
def test_openings_reach_the_minimum(name: str, layout: Layout, policy: str,
                                    seed: int) -> None:
    openings = 0

    def check(state: GameState, action: int) -> After:
        before = TableBefore(state)

        def after(state: GameState) -> None:
            nonlocal openings
            openings += before.check(state, action)

        return after

    play(name, layout, seed, policy, check)
    if policy == "easy":
        assert openings, "the easy policy never opened: the property was not exercised"


# --- 4. views hide hidden cards ---------------------------------------------------------

VIEW_FIELDS = {
    "profile", "seat", "side", "players", "sides", "round_number", "rounds", "phase", "turn",
    "to_act", "opening_minimum", "hand", "hand_counts", "foot_counts", "knee_counts",
    "in_foot", "melds", "red_threes", "opened", "discard_top", "discard_size", "stock_size",
    "totals", "results", "asking", "staged", "legal_actions",
}
"""Every field a view may have: none of them is the seed, the deal, the stock, the pile
below its top, or another seat's cards."""


def reshuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of the state with every card hidden from ``seat`` shuffled among the hidden
    places, each place keeping its size: the other seats' hands, every Foot and Knee
    (``seat``'s own too: it has not looked at it), the stock and the pile below its top."""
    c = state.copy()
    others = [s for s in range(c.players) if s != seat]
    pool: list[int] = []
    for s in others:
        pool += c.hand(s)
    for s in range(c.players):
        pool += c.feet[s] + c.knees[s]
    pool += c.stock + c.pile[:-1]
    rng.shuffle(pool)
    pos = 0

    def take(n: int) -> list[int]:
        nonlocal pos
        pos += n
        return pool[pos - n:pos]

    for s in others:
        hand = take(c.held_n[s])
        c.held_faces[s] = cards.face_counts(hand)
        c.held[s] = cards.kind_counts(hand)
    for s in range(c.players):
        c.feet[s] = take(len(c.feet[s]))
        c.knees[s] = take(len(c.knees[s]))
    c.stock = take(len(c.stock))
    c.pile = take(len(c.pile) - 1) + c.pile[-1:] if c.pile else []
    assert pos == len(pool)
    return c


def assert_view_honest(state: GameState, seat: int) -> None:
    v = state.view(seat)
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert names <= VIEW_FIELDS, f"unexpected view fields: {sorted(names - VIEW_FIELDS)}"
    assert v.seat == seat and v.side == state.side_of[seat]
    assert sorted(v.hand) == state.hand(seat), "the view's hand is not the seat's cards"
    assert v.hand_counts == tuple(state.held_n)
    assert v.foot_counts == tuple(len(f) for f in state.feet)
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


def check_views(name: str, layout: Layout, seed: int, policy: str, rate: float) -> int:
    sample = sampler(seed, rate)
    rng = random.Random(seed ^ 0xC0FFEE)
    checked = 0

    def check(state: GameState, action: int) -> After | None:
        if not sample():
            return None

        def after(state: GameState) -> None:
            nonlocal checked
            assert_views_hide(state, rng)
            checked += 1

        return after

    state = new_game(name, layout, seed)
    assert_views_hide(state, rng)
    final, _ = play(name, layout, seed, policy, check, state=state)
    assert_views_hide(final, rng)
    return checked


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), CONFIGS)
@props(3)
@given(seed=SEEDS)
def test_views_reveal_no_hidden_card(name: str, layout: Layout, policy: str,
                                     seed: int) -> None:
    check_views(name, layout, seed, policy, rate=0.02)


@pytest.mark.parametrize(("name", "layout"), CONFIGS)
def test_views_reveal_no_hidden_card_after_every_action(name: str, layout: Layout) -> None:
    assert check_views(name, layout, 20260101, "easy", rate=1.0) > 500


# --- 5. scores are their breakdowns -----------------------------------------------------


def expected_side_score(state: GameState, side: int) -> int:
    """A side's round score recomputed from the table and the packets (no one went out)."""
    p = state.profile
    assert not p.special_book_bonus and not p.red_three_bulk_count
    values = p.kind_values
    total = 0
    for m in state.melds[side]:
        total += sum(values[FACE_KIND[f]] for f in m.faces)
        if m.size >= p.book_size:
            total += (p.wild_book_bonus if m.target == WILD_MELD
                      else p.clean_book_bonus if m.wilds == 0 else p.dirty_book_bonus)
    total += len(state.red_threes[side]) * p.red_three_bonus
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
        assert [s.side for s in r.scores] == list(range(sides))
        for s in r.scores:
            assert s.total == sum(line.points for line in s.lines), (
                f"round {r.round_number}, side {s.side + 1}: total {s.total} is not the sum "
                f"of its lines {[(x.key, x.points) for x in s.lines]}")
            running[s.side] += s.total
        assert r.totals == tuple(running), f"round {r.round_number}: totals not cumulative"


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), CONFIGS)
@props(3)
@given(seed=SEEDS)
def test_scores_are_the_sum_of_their_lines(name: str, layout: Layout, policy: str,
                                           seed: int) -> None:
    def check(state: GameState, action: int) -> After | None:
        ended = len(state.results)
        exhausting = (action == mv.DRAW and len(state.stock) < state.profile.draw_count)
        expected = ([expected_side_score(state, s) for s in range(state.sides)]
                    if exhausting else None)

        def after(state: GameState) -> None:
            if len(state.results) == ended:
                return
            assert len(state.results) == ended + 1
            assert_result_consistent(state.results, state.sides)
            assert list(state.totals) == list(state.results[-1].totals)
            if expected is not None:
                # Running out of stock changes nothing before the round is scored.
                r = state.results[-1]
                assert r.reason == "stock exhausted"
                assert [s.total for s in r.scores] == expected

        return after

    final, _ = play(name, layout, seed, policy, check)
    assert_result_consistent(final.results, final.sides)


# --- 6. determinism and independent copies ----------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), CONFIGS)
@props(2)
@given(seed=SEEDS)
def test_same_seed_same_game(name: str, layout: Layout, policy: str, seed: int) -> None:
    p = PROFILES[name]
    assert GameState.new(p, layout=layout, seed=seed).deal == \
        GameState.new(p, layout=layout, seed=seed).deal
    a, actions_a = play(name, layout, seed, policy)
    b, actions_b = play(name, layout, seed, policy)
    assert actions_a == actions_b
    assert a.results == b.results and a.totals == b.totals


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


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), CONFIGS)
@props(2)
@given(seed=SEEDS)
def test_copies_are_independent(name: str, layout: Layout, policy: str, seed: int) -> None:
    """At random points of a game, a copy is played on for a while: the original is
    unchanged; the original then plays the same actions and reaches the same state; and
    changing every part of the copy in place leaves the original alone.
    """
    state = new_game(name, layout, seed)
    choose = Policy(policy, seed, state.players)
    sample = sampler(seed, 0.01)
    rng = random.Random(seed ^ 0xC09)
    actions = 0
    copies = 0
    while not state.is_over:
        if not sample():
            state.apply_action(choose(state, state.legal_actions()))
            actions += 1
            assert actions <= MAX_ACTIONS, "the game is stuck"
            continue
        copies += 1
        before = snapshot(state)
        c = state.copy()
        assert snapshot(c) == before
        continuation = Policy(policy, rng.randrange(2**32), state.players)
        played: list[int] = []
        for _ in range(rng.randrange(1, 300)):
            if c.is_over:
                break
            played.append(continuation(c, c.legal_actions()))
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
    assert copies or actions < 200


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
    assert sorted(state.all_faces()) == shoe(state)


# --- 7. the action mask and illegal actions ----------------------------------------------

def check_actions(state: GameState, rng: random.Random, illegal_tries: int,
                  accepted: Counter[str]) -> None:
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
        move = mv.decode_action(a)
        accepted[f"{state.phase.name}: {type(move).__name__}"] += 1
        pytest.fail(f"{mv.action_name(a)} (id {a}) is not listed in {state.phase.name} but "
                    "was played")
    assert snapshot(state) == before


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), CONFIGS)
@props(3)
@given(seed=SEEDS)
def test_action_mask_is_the_legal_actions(name: str, layout: Layout, policy: str,
                                          seed: int) -> None:
    sample = sampler(seed, 0.02)
    rng = random.Random(seed ^ 0xAC7)
    accepted: Counter[str] = Counter()

    def check(state: GameState, action: int) -> None:
        if sample():
            check_actions(state, rng, 12, accepted)

    final, _ = play(name, layout, seed, policy, check)
    assert final.legal_actions() == [] and not any(final.action_mask())


# --- 8. how rounds and games end ---------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), CONFIGS)
@props(3)
@given(seed=SEEDS)
def test_games_end_properly(name: str, layout: Layout, policy: str, seed: int) -> None:
    p = PROFILES[name]
    final, _ = play(name, layout, seed, policy)
    assert final.phase == Phase.GAME_OVER and final.is_over
    assert final.legal_actions() == []
    assert len(final.results) == p.rounds
    assert [r.round_number for r in final.results] == list(range(1, p.rounds + 1))
    for r in final.results:
        assert r.reason in ROUND_END_REASONS
        assert (r.went_out is not None) == (r.reason == "went out")
    with pytest.raises(IllegalMoveError):
        final.apply(mv.Draw())
    assert final.winners() and set(final.winners()) <= set(range(final.sides))


# --- 9. records replay to the same results -----------------------------------------------

HAS_RECORD = importlib.util.find_spec("handfoot.record") is not None


@pytest.mark.skipif(not HAS_RECORD, reason="handfoot.record does not exist yet")
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("name", "layout"), CONFIGS)
@props(2)
@given(seed=SEEDS)
def test_records_replay_to_the_same_results(name: str, layout: Layout, policy: str,
                                            seed: int) -> None:
    from handfoot.record import GameRecorder, from_json, replay, to_json

    recorder = GameRecorder(new_game(name, layout, seed))
    final, _ = play(name, layout, seed, policy, state=recorder.state,
                    apply=recorder.apply_action)
    record = recorder.record()
    again = from_json(to_json(record))
    assert to_json(again) == to_json(record)
    result = replay(again)
    assert result.ok, [problem.message for problem in result.problems]
    assert result.game_over
    assert list(result.results) == final.results
    assert result.totals == tuple(final.totals)
