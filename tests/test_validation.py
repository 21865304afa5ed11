"""Rules that load but could not make a finite, playable game are refused at load, naming
the keys (issue 13, item 2); the deal and the recorder never hang or crash on what loads."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import pytest

from handfoot.game import cards
from handfoot.game.deal import deal_round
from handfoot.game.engine import GameState
from handfoot.game.loading import OPTIONS, ProfileError, builtin_profile_names, load_profile
from handfoot.game.record import GameRecorder, RecordError, from_json, replay, to_json
from handfoot.game.rules import MAX_PLAYERS, Layout
from handfoot.game.values import DealError, RoundEnd

EVERY_KIND = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "joker", "black 3",
              "red 3"]


def refusal(name: str, **overrides: Any) -> str:
    with pytest.raises(ProfileError) as info:
        load_profile(name, overrides=overrides)
    return str(info.value)


@pytest.mark.parametrize("name", builtin_profile_names())
def test_every_builtin_profile_and_option_still_loads(name: str) -> None:
    load_profile(name)
    for key in OPTIONS:
        try:
            load_profile(name, overrides={key: True})
        except ProfileError as exc:  # only the refusals the options themselves make
            assert "cannot both be on" in str(exc) or "switches it on" in str(exc), str(exc)


def test_starter_rejected_listing_every_kind_is_refused() -> None:
    """It made the deal loop for ever, and a record carrying it hung `handfoot replay`."""
    started = time.monotonic()
    assert refusal("partnership-13", starter_rejected=EVERY_KIND) == (
        "overrides: starter_rejected: lists every kind of card, so no starter could ever be "
        "turned and the deal would never end")
    assert time.monotonic() - started < 5


def test_starter_rejected_leaving_too_few_cards_to_turn_is_refused() -> None:
    # one deck of 54 for two players: 2 × 26 cards in packets, 2 left; every card but the
    # fours, fives and sixes is rejected, so only 12 cards may be turned
    message = refusal("biegames", layouts=["2x1"], decks_per_player=0, extra_decks=1,
                      hand_size=13, foot_size=13, draw_count=1, book_size=4, book_max=4,
                      starter_rejected=EVERY_KIND[3:])
    assert message.startswith("overrides: starter_rejected: with 2 players (1 decks) the shoe "
                              "holds only 12 cards that may be turned as a starter")


def test_a_record_whose_rules_would_hang_the_deal_is_refused() -> None:
    p = load_profile("biegames")
    data = json.loads(to_json(GameRecorder(GameState.new(p, seed=3)).record()))
    data["profile"]["overrides"] = {"starter_rejected": EVERY_KIND}
    with pytest.raises(RecordError, match=r"^profile\.overrides: starter_rejected: lists every"):
        from_json(json.dumps(data))


def test_the_deal_refuses_a_stock_with_nothing_to_turn_instead_of_looping() -> None:
    """Rules built without loading (dataclasses.replace) skip the check; the deal still
    stops with a DealError."""
    p = dataclasses.replace(load_profile("partnership-13"),
                            starter_rejected=tuple(range(cards.NUM_KINDS)))
    with pytest.raises(DealError, match="no card left in the stock may be turned"):
        deal_round(p, p.layout, 1, 1)


@pytest.mark.parametrize(("foot", "kept"), [(1, 1), (2, 3), (5, 5)])
def test_a_foot_no_larger_than_the_cards_kept_is_refused(foot: int, kept: int) -> None:
    """The player who took such a Foot could neither discard, meld nor go out."""
    assert refusal("partnership-13", foot_size=foot, min_cards_kept=kept) == (
        f"overrides: foot_size: {foot} is not more than min_cards_kept {kept}: a player who "
        f"picks up the Foot could neither discard (they must keep {kept}) nor meld, and the "
        "round could not go on")
    load_profile("partnership-13", overrides={"foot_size": kept + 1, "min_cards_kept": kept})


def test_a_knee_no_larger_than_the_cards_kept_is_refused() -> None:
    """A Knee can come after the Foot (it opens with the side's first book): melding the
    last Foot card into a book brings it into an empty hand, and then the player must
    discard from it while keeping min_cards_kept."""
    assert refusal("hand-knee-foot", knee_size=1) == (
        "overrides: knee_size: 1 is not more than min_cards_kept 1: a player whose Knee comes "
        "last, joining an empty hand, could neither discard nor meld")
    load_profile("hand-knee-foot", overrides={"knee_size": 2})
    load_profile("partnership-13", overrides={"knee_size": 0, "min_cards_kept": 3})


@pytest.mark.parametrize("layout", ["999999999x1", "1000000x1", "7x2", "13x1", "2x7"])
def test_seatings_beyond_a_table_are_refused(layout: str) -> None:
    """`layouts = ["999999999x1"]` loaded, then ran out of memory; "1000000x1" hung."""
    players = Layout(*map(int, layout.split("x"))).players
    started = time.monotonic()
    message = refusal("remastered-singles", layouts=[layout])
    assert message == (f"overrides: [players] layouts: {layout!r}: a table seats at most "
                       f"{MAX_PLAYERS} players, not {players}")
    assert time.monotonic() - started < 5


def test_the_largest_table_loads_and_deals() -> None:
    p = load_profile("remastered-singles", overrides={"layouts": ["12x1", "6x2", "2x6"]})
    for layout in p.layouts:
        state = GameState.new(p, layout=layout, seed=1)
        assert len(state.all_faces()) == 54 * (MAX_PLAYERS + 1)


def test_clean_books_larger_than_a_rank_are_refused() -> None:
    message = refusal("biegames", decks_per_player=0, extra_decks=1, hand_size=5, foot_size=5)
    assert message == (
        "overrides: book_size: with 4 players (1 decks) the shoe holds 4 cards of each rank, "
        "fewer than the 7 of a clean book, which clean_books_to_go_out, "
        "special_books_to_go_out or clean_book_opening_rounds require")
    load_profile("biegames", overrides={"decks_per_player": 0, "extra_decks": 1,
                                        "hand_size": 5, "foot_size": 5, "book_size": 4,
                                        "book_max": 4})


def test_wild_books_larger_than_the_wilds_are_refused() -> None:
    message = refusal("partnership-13", wild_books_to_go_out=3, extra_decks=1,
                      hand_size=5, foot_size=5, book_size=4, book_max=4)
    assert message == ("overrides: wild_books_to_go_out: with 4 players (1 decks) the shoe "
                       "holds 6 wild cards, fewer than the 12 of 3 all-wild books of 4")


@pytest.mark.parametrize("changes", [
    {"max_wilds": 0},
    {"wild_free_ranks": ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]},
    {"naturals_per_wild": 7},
    {"min_naturals_with_wild": 7},
])
def test_dirty_books_no_meld_can_make_are_refused(changes: dict[str, Any]) -> None:
    message = refusal("partnership-13", **changes)
    assert message.startswith("overrides: dirty_books_to_go_out: 2 dirty books must be made "
                              "to go out, but the wild-card rules")
    load_profile("partnership-13", overrides={**changes, "dirty_books_to_go_out": 0})


def test_more_books_than_the_shoe_can_hold_are_refused() -> None:
    message = refusal("biegames", layouts=["2x1"], clean_books_to_go_out=20,
                      dirty_books_to_go_out=0)
    assert message == (
        "overrides: clean_books_to_go_out: the books needed to go out (clean_books_to_go_out, "
        "dirty_books_to_go_out, special_books_to_go_out) take at least 140 natural cards, "
        "more than the 132 of the shoe with 2 players (3 decks)")


@pytest.mark.parametrize(("key", "value"), [
    ("opening_minimums", [50, 100_000]),
    ("score_band_minimums", [[0, 60], [5000, 100_000]]),
])
def test_an_opening_no_shoe_can_make_is_refused(key: str, value: Any) -> None:
    message = refusal("partnership-13", **{key: value})
    assert message.startswith(f"overrides: {key}: an opening minimum of ")
    assert message.endswith("can never be met: every card of the shoe with 4 players (5 "
                            "decks) is worth 2900 points together")


def test_a_deal_that_ends_every_round_can_be_recorded_and_replayed() -> None:
    """Red 3s dealt with no card left to replace them end a round at once; a game whose
    every round ended so made `--records` crash in GameRecorder."""
    p = load_profile("biegames", overrides={
        "layouts": ["2x1"], "decks_per_player": 0, "extra_decks": 1, "hand_size": 13,
        "foot_size": 13, "draw_count": 1, "rounds": 2, "starter_rejected": [],
        "book_size": 4, "book_max": 4, "clean_books_to_go_out": 1,
        "dirty_books_to_go_out": 0})
    seed = next(s for s in range(500) if GameState.new(p, seed=s).is_over)
    state = GameState.new(p, seed=seed)
    assert [r.reason for r in state.results] == [RoundEnd.RED_THREE_NOT_REPLACED] * 2
    record = GameRecorder(state).record()
    assert [len(r.moves) for r in record.rounds] == [0, 0]
    result = replay(from_json(to_json(record)))
    assert result.ok and result.game_over
    # a game with moves still cannot be wrapped afterwards
    playing = GameState.new(p, seed=next(s for s in range(500)
                                         if not GameState.new(p, seed=s).results))
    playing.apply_action(playing.legal_actions()[0])
    with pytest.raises(ValueError, match="before its first move"):
        GameRecorder(playing)


def test_what_loading_refuses_is_documented() -> None:
    """docs/profiles.md lists every refusal beyond types and ranges (LOAD_REFUSALS), each
    under the key its message names."""
    from pathlib import Path

    from handfoot.game.loading import LOAD_REFUSALS
    from handfoot.game.rules import FIELDS

    doc = (Path(__file__).parents[1] / "docs" / "profiles.md").read_text(encoding="utf-8")
    assert "## What loading refuses" in doc
    for key, rule in LOAD_REFUSALS:
        assert key in FIELDS or key == "extends"
        assert f"- `{key}`: {rule}." in doc


def only_staging(state: GameState) -> bool:
    from handfoot.game import moves as mv

    return all(mv.STAGE_NATURAL <= a < mv.KNEE or a == mv.CLEAR for a in state.legal_actions())


def test_why_small_feet_and_knees_are_refused() -> None:
    """Built without loading (dataclasses.replace), such rules leave a player with nothing
    to do but stage cards: the round could never go on."""
    from handfoot.game import moves as mv
    from handfoot.game.values import Phase
    from positions import position

    knee = dataclasses.replace(load_profile("hand-knee-foot"), knee_size=1)
    state = position(knee, layout=knee.layouts[1], phase=Phase.PLAY, hands={0: "9C 9D 9H"},
                     in_foot=[0], knees={0: "5C"}, melds={0: ["9S 9S 9H 9D"]})
    state.apply(mv.parse_move("meld 9 9 9"))  # a book: the Knee opens and joins the hand
    assert [cards.kind_of(f) for f in state.hand(0)] == [cards.FIVE]
    assert state.in_last_packet(0)
    assert state.legal_actions() and only_staging(state)

    foot = dataclasses.replace(load_profile("partnership-13"), foot_size=1)
    state = position(foot, phase=Phase.PLAY, hands={0: "9C 9D 9H"}, feet={0: "5C"},
                     melds={0: ["KS KH KD"]})
    state.apply(mv.parse_move("meld 9 9 9"))  # the last Hand cards: the Foot at once
    assert [cards.kind_of(f) for f in state.hand(0)] == [cards.FIVE]
    assert state.in_last_packet(0)
    assert state.legal_actions() and only_staging(state)
