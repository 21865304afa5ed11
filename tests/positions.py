"""Building game positions for tests.

:func:`from_text` reads a position in the text notation (:mod:`handfoot.game.notation`).
:func:`position` sets up a round in the middle of play: given hands, feet, melds on the
table, the discard pile and the top of the stock, with every other card of the shoe in
the stock, so no card is created or lost. Moves are then played through the engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace

import pytest

from handfoot.game import cards
from handfoot.game.deal import deal_round
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import WILD_MELD, Discard, Draw, Move, parse_move
from handfoot.game.notation import parse_position
from handfoot.game.rules import Layout, Profile
from handfoot.game.values import History, IllegalMoveError, Phase, Position, RoundResult, TableMeld


def faces(text: str) -> list[int]:
    """Cards in the notation: ``"KS KD 2C"``."""
    return cards.parse_faces(text)


class Pool:
    """The cards of a shoe not yet placed."""

    def __init__(self, profile: Profile, players: int) -> None:
        self.counts = cards.face_counts(
            cards.build_shoe(profile.decks(players), profile.jokers_per_deck))

    def take(self, wanted: Iterable[int]) -> list[int]:
        out = []
        for f in wanted:
            if self.counts[f] <= 0:
                raise ValueError(f"the shoe has no more {cards.face_name(f)}")
            self.counts[f] -= 1
            out.append(f)
        return out

    def take_kind(self, kind: int, n: int) -> list[int]:
        out: list[int] = []
        for f in cards.KIND_FACES[kind]:
            while self.counts[f] and len(out) < n:
                self.counts[f] -= 1
                out.append(f)
        if len(out) < n:
            raise ValueError(f"the shoe has too few {cards.KIND_PLURALS[kind]}")
        return out

    def filler(self, n: int, rng: random.Random) -> list[int]:
        """``n`` cards that are not red threes, drawn at random from what is left."""
        rest = [f for f in range(cards.NUM_FACES) for _ in range(self.counts[f])
                if cards.FACE_KIND[f] != cards.RED_THREE]
        rng.shuffle(rest)
        chosen = rest[:n]
        return self.take(chosen)

    def remaining(self) -> list[int]:
        return cards.faces_from_counts(self.counts)


def meld_from_text(text: str, pool: Pool) -> TableMeld:
    """A table meld from cards (``"9S 9H 9D 2C"``) or kinds (``"9 9 9 2"``)."""
    words = text.split()
    out: list[int] = []
    for w in words:
        try:
            out.extend(pool.take([cards.parse_face(w)]))
        except cards.CardError:
            out.extend(pool.take_kind(cards.parse_kind(w), 1))
    kinds = [cards.FACE_KIND[f] for f in out]
    naturals = [k for k in kinds if not cards.is_wild(k)]
    target = naturals[0] if naturals else WILD_MELD
    assert all(k == target for k in naturals), text
    return TableMeld(target, len(naturals), kinds.count(cards.TWO), kinds.count(cards.JOKER),
                     tuple(out))


def _cards(text: str, pool: Pool) -> list[int]:
    out: list[int] = []
    for w in text.split():
        try:
            out.extend(pool.take([cards.parse_face(w)]))
        except cards.CardError:
            out.extend(pool.take_kind(cards.parse_kind(w), 1))
    return out


def position(profile: str | Profile = "partnership-13", *,
             layout: Layout | None = None,
             round_number: int = 1,
             turn: int = 0,
             phase: Phase = Phase.DRAW,
             hands: Mapping[int, str] | None = None,
             feet: Mapping[int, str] | None = None,
             in_foot: Iterable[int] = (),
             foot_played: Iterable[int] = (),
             foot_turn_done: Iterable[int] = (),
             knees: Mapping[int, str] | None = None,
             knee_picked: Iterable[int] = (),
             melds: Mapping[int, Iterable[str]] | None = None,
             red_threes: Mapping[int, int] | None = None,
             opened: Iterable[int] | None = None,
             pile: str = "",
             stock_top: str = "",
             stock_size: int | None = None,
             seed: int = 7) -> GameState:
    """A game position for tests; every card of the shoe is somewhere.

    ``hands``/``feet`` give a seat's cards (kinds like ``"K"`` or faces like ``"KS"``);
    seats not given get random filler (no red 3s) of the dealt size. Seats in ``in_foot``
    have picked up their Foot (their ``hands`` entry is then the Foot in play). ``melds``
    lists each side's table melds; a side with melds is opened unless ``opened`` says
    otherwise. ``pile`` is bottom first; ``stock_top`` is the top of the stock, first card
    drawn first; ``stock_size`` trims the stock (the trimmed cards go under the pile's
    bottom, so they still exist).

    ``knees`` gives a seat's Knee (profiles with a Knee); seats in ``knee_picked`` have
    picked theirs up (no Knee packet left); other seats get random filler of the profile's
    ``knee_size`` (none where the profile has no Knee).
    """
    p = load_profile(profile) if isinstance(profile, str) else profile
    layout = layout or p.layout
    rng = random.Random(seed)
    state = GameState.new(p, layout=layout, deals=[deal_round(p, layout, seed, 1)], seed=seed)
    pool = Pool(p, layout.players)
    hands = dict(hands or {})
    feet = dict(feet or {})
    knees = dict(knees or {})
    knee_picked = set(knee_picked)
    in_foot = set(in_foot)
    melds = dict(melds or {})
    table = {side: [meld_from_text(t, pool) for t in melds.get(side, ())]
             for side in range(layout.sides)}
    reds = {side: pool.take_kind(cards.RED_THREE, (red_threes or {}).get(side, 0))
            for side in range(layout.sides)}
    pile_faces = _cards(pile, pool)
    top_faces = _cards(stock_top, pool)
    held = {s: _cards(hands[s], pool) for s in hands}
    foot = {s: _cards(feet[s], pool) for s in feet}
    knee = {s: _cards(knees[s], pool) for s in knees}
    for s in range(layout.players):
        if s not in held:
            held[s] = pool.filler(p.hand_size, rng)
        if s not in foot:
            foot[s] = [] if s in in_foot else pool.filler(p.foot_size, rng)
        if s in in_foot and foot[s]:
            raise ValueError("a seat in its Foot has no Foot packet left")
        if s not in knee:
            # no filler call without a Knee: the random fill of other profiles is unchanged
            knee[s] = [] if s in knee_picked or not p.knee_size else pool.filler(
                p.knee_size, rng)
        if s in knee_picked and knee[s]:
            raise ValueError("a seat that picked up its Knee has no Knee packet left")
    rest = pool.remaining()
    rng.shuffle(rest)
    stock = top_faces + rest  # top first
    if stock_size is not None:
        extra = stock[stock_size:]
        stock = stock[:stock_size]
        pile_faces = extra + pile_faces
    # the fresh game's position with these cards and flags
    seats, sides = range(layout.players), range(layout.sides)
    opened_sides = set(opened) if opened is not None else {s for s in table if table[s]}
    state = GameState.from_position(replace(
        state.position(), round_number=round_number,
        hands=tuple(tuple(held[s]) for s in seats), feet=tuple(tuple(foot[s]) for s in seats),
        knees=tuple(tuple(knee[s]) for s in seats),
        foot_picked=tuple(s in in_foot for s in seats),
        foot_played=tuple(s in set(foot_played) for s in seats),
        foot_turn_done=tuple(s in set(foot_turn_done) for s in seats),
        melds=tuple(tuple(table[side]) for side in sides),
        red_threes=tuple(tuple(reds[side]) for side in sides),
        opened=tuple(side in opened_sides for side in sides), stock=tuple(stock),
        pile=tuple(pile_faces), turn=turn, to_act=turn, phase=phase, undo_stack=(),
        staged=()))
    assert sorted(state.all_faces()) == sorted(
        cards.build_shoe(p.decks(layout.players), p.jokers_per_deck))
    return state


def from_text(text: str) -> GameState:
    """A state from a position in the text notation (:mod:`handfoot.game.notation`): often the
    clearest way to set up a table, with ``+N`` packets and a ``rest`` stock."""
    return GameState.from_position(parse_position(text))


def reshuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of the state with every card hidden from ``seat`` shuffled among the hidden
    places, each place keeping its size: the other seats' hands, every Foot and Knee
    (``seat``'s own too: it has not looked at them), the stock and the pile below its top."""
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


def snapshot(state: GameState) -> Position:
    """Everything about a state but its history, for asserting that an illegal move
    changed nothing (or that undoing took the table back)."""
    return replace(state.position(), history=History())


def taken_back(before: Position, times: int = 1) -> Position:
    """``before`` as it is after ``times`` take-backs (undo or clear) that bring the table back
    to it: everything the same but the turn's count of take-backs, which only grows (issue
    27: a turn takes back at most ``TAKE_BACKS_PER_TURN`` times)."""
    return replace(before, take_backs=before.take_backs + times)


def play(state: GameState, *moves: str) -> GameState:
    """Play moves in the notation, in order."""
    for text in moves:
        state.apply(parse_move(text))
    return state


def must_fail(state: GameState, move: str | Move, *words: str) -> str:
    """The move is illegal, its reason names ``words``, the state is unchanged, and
    ``state.check`` gives the same reason without changing anything either."""
    parsed = parse_move(move) if isinstance(move, str) else move
    before = snapshot(state)
    played = state.moves_played
    with pytest.raises(IllegalMoveError) as info:
        state.apply(parsed)
    message = str(info.value)
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"
    assert snapshot(state) == before
    assert state.check(parsed) == message
    assert snapshot(state) == before and state.moves_played == played
    return message


def pass_turn(state: GameState) -> None:
    """The seat to play draws and discards the lowest kind it holds."""
    state.apply(Draw())
    seat = state.seat
    kind = next(k for k in range(cards.RED_THREE) if state.held[seat][k])
    state.apply(Discard(kind))


def only_result(state: GameState) -> RoundResult:
    """The one round result of a state that has finished exactly one round."""
    assert len(state.results) == 1
    return state.results[0]
