"""Dealing a round: the shuffle from a game's seed, the same on every machine, and the check
that a deal given explicitly (a test's, a game record's) is one the profile could have
dealt."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from handfoot.game import cards
from handfoot.game.cards import (
    FACE_KIND,
    KIND_NAMES,
    NUM_FACES,
)
from handfoot.game.rules import FirstPlayer, Layout, Profile
from handfoot.game.values import Deal, DealError
from handfoot.game.wording import join

__all__ = ["check_deal", "deal_of_round", "deal_round"]


def _derived_seed(seed: int, label: str) -> int:
    digest = hashlib.sha256(f"handfoot:{seed}:{label}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def deal_round(profile: Profile, layout: Layout, seed: int, round_number: int) -> Deal:
    """Shuffle and deal a round from a game seed, the same on every machine.

    The shoe is shuffled; each seat in turn gets its Hand, then its Knee, then its Foot
    from the top; the starter is turned from the top of the stock, and a rejected starter
    goes back into the stock at a random place before another is turned.
    """
    players = layout.players
    rng = random.Random(_derived_seed(seed, f"round{round_number}"))
    shoe = cards.build_shoe(profile.decks(players), profile.jokers_per_deck)
    rng.shuffle(shoe)
    pos = 0

    def take(n: int) -> tuple[int, ...]:
        nonlocal pos
        out = tuple(shoe[pos:pos + n])
        pos += n
        return out

    hands = tuple(take(profile.hand_size_in(round_number)) for _ in range(players))
    knees = tuple(take(profile.knee_size) for _ in range(players))
    feet = tuple(take(profile.foot_size) for _ in range(players))
    stock = shoe[pos:]
    discard: list[int] = []
    rejected = set(profile.starter_rejected)
    for i in range(profile.starter_cards):
        checked = profile.starter_check_all or i == profile.starter_cards - 1
        if checked and all(FACE_KIND[face] in rejected for face in stock):
            # Loading refuses such rules (loading.py); never loop forever on them.
            raise DealError("discard", "no card left in the stock may be turned as a starter")
        while True:
            face = stock.pop(0)
            if checked and FACE_KIND[face] in rejected:
                stock.insert(rng.randrange(len(stock) + 1), face)
                continue
            discard.append(face)
            break
    if profile.first_player == FirstPlayer.LEFT_OF_DEALER:
        first = (round_number - 1) % players
    else:
        base = random.Random(_derived_seed(seed, "first")).randrange(players)
        first = (base + round_number - 1) % players
    return Deal(hands, feet, knees, tuple(stock), tuple(discard),
                dealer=(first - 1) % players, first_player=first)


def deal_of_round(profile: Profile, layout: Layout, round_number: int, *,
                  deals: Sequence[Deal] = (), seed: int | None = None) -> Deal:
    """The deal of a round of a game begun with explicit ``deals`` and dealt from ``seed``
    once they run out (the rule of :meth:`GameState.new`).

    A seeded round after explicit ones continues their rotation: the dealer and the first
    player move one seat clockwise each round from the last explicit deal (RULES-MATRIX
    D13: "rotating the dealer left each time"; A-19: "the first seat moves one place
    clockwise"), not from where the seed's own rotation would be.
    """
    if round_number <= len(deals):
        return deals[round_number - 1]
    if seed is None:
        raise ValueError(f"no deal for round {round_number} and no seed to deal one")
    deal = deal_round(profile, layout, seed, round_number)
    if not deals:
        return deal
    last, moved, n = deals[-1], round_number - len(deals), layout.players
    return Deal(deal.hands, deal.feet, deal.knees, deal.stock, deal.discard,
                dealer=(last.dealer + moved) % n, first_player=(last.first_player + moved) % n)


def check_deal(profile: Profile, layout: Layout, deal: Deal, round_number: int) -> None:
    """Raise :class:`DealError` unless ``deal`` is one :func:`deal_round` could have dealt
    for this round: the profile's packets (the Hand of this round), seats, shoe and starter.

    The starter rule is the one :func:`deal_round` follows: a kind of ``starter_rejected``
    is never left as a starter card (only the top one is checked where
    ``starter_check_all`` is false). Explicit deals and game records are checked by it.
    """
    players = layout.players
    name = profile.name
    hand_size = profile.hand_size_in(round_number)
    in_round = f" in round {round_number}" if profile.hand_size_by_round else ""
    for key, group, size, what in (("hands", deal.hands, hand_size, "Hand" + in_round),
                                   ("feet", deal.feet, profile.foot_size, "Foot"),
                                   ("knees", deal.knees, profile.knee_size, "Knee")):
        if len(group) != players:
            raise DealError(key, f"{len(group)} packets for the {players} seats of a {layout} "
                                 "game")
        for seat, packet in enumerate(group):
            if len(packet) != size:
                raise DealError(f"{key}[{seat}]", f"{len(packet)} cards; {name} deals {size} "
                                                  f"to each {what}")
    starters = profile.starter_cards
    if len(deal.discard) != starters:
        raise DealError("discard", f"{len(deal.discard)} cards; {name} turns {starters} "
                                   f"starter card{'s' if starters != 1 else ''}")
    for key, seat in (("dealer", deal.dealer), ("first_player", deal.first_player)):
        if not 0 <= seat < players:
            raise DealError(key, f"{seat} is not a seat index of a {layout} game "
                                 f"(0 to {players - 1})")
    decks = profile.decks(players)
    shoe = cards.face_counts(cards.build_shoe(decks, profile.jokers_per_deck))
    got = cards.face_counts(deal.all_faces())
    if got != shoe:
        problems = []
        for label, sign in (("missing", 1), ("too many", -1)):
            faces = [f for f in range(NUM_FACES) if (shoe[f] - got[f]) * sign > 0]
            if faces:
                n = sum(abs(shoe[f] - got[f]) for f in faces)
                shown = " ".join(
                    cards.face_name(f) + (f" ×{abs(shoe[f] - got[f])}"
                                          if abs(shoe[f] - got[f]) > 1 else "")
                    for f in faces[:10])
                more = " ..." if len(faces) > 10 else ""
                problems.append(f"{n} card{'s' if n != 1 else ''} {label} ({shown}{more})")
        raise DealError("", f"the cards are not {name}'s shoe for {players} players ({decks} "
                            f"decks with {profile.jokers_per_deck} jokers each, {sum(shoe)} "
                            "cards): " + "; ".join(problems))
    rejected = profile.starter_rejected
    for i, face in enumerate(deal.discard):
        top_only = not profile.starter_check_all and starters > 1
        if (top_only and i != starters - 1) or FACE_KIND[face] not in rejected:
            continue
        which = "the top starter card" if top_only else "a starter card"
        kinds = join((KIND_NAMES[k] for k in rejected), "or")
        raise DealError(f"discard[{i}]", (
            f"{cards.face_name(face)} ({KIND_NAMES[FACE_KIND[face]]}) cannot be {which}: "
            f"{name} puts a {kinds} back into the stock and turns another"))
