"""What a profile answers (game/rules.py): the sentence refusing a seating for one, two or
more seatings, the hand size and opening minimum past the last listed round, each card
kind's value, the wild-card limits at their boundaries, and values cut short in messages."""

from __future__ import annotations

from dataclasses import replace

import pytest

from handfoot.game import cards
from handfoot.game.loading import load_profile
from handfoot.game.rules import MAX_PLAYERS, Layout, shown


def test_a_seating_is_refused_naming_every_seating_the_profile_is_played_at() -> None:
    assert load_profile("partnership-13").seating_error(Layout(3, 1)) == (
        "partnership-13 is played as 2x2 (4 players), not 3x1 (3 players)")
    assert load_profile("biegames").seating_error(Layout(3, 1)) == (
        "biegames is played as 2x2 (4 players) or 2x1 (2 players), not 3x1 (3 players)")
    assert load_profile("hand-knee-foot").seating_error("5 players") == (
        "hand-knee-foot is played as 2x2 (4 players), 3x1 (3 players) or 2x3 (6 players), "
        "not 5 players")
    with pytest.raises(ValueError, match=r"^biegames is played as .* not 2x3 \(6 players\)$"):
        load_profile("biegames").check_layout(Layout(2, 3))
    load_profile("biegames").check_layout(Layout(2, 1))  # a seating it is played at


def test_a_layout_is_read_and_described() -> None:
    assert Layout.parse("2X3") == Layout(2, 3) and str(Layout(2, 3)) == "2x3"
    assert Layout(2, 3).players == 6 and Layout(2, 3).seats_of(1) == (1, 3, 5)
    assert [Layout(3, 2).side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert Layout(3, 1).describe() == "3 players, each on their own"
    assert Layout(2, 2).describe() == "4 players in 2 sides of 2"
    for bad in ("1x4", "2x0", "0x2"):
        with pytest.raises(ValueError, match="at least 2 sides of at least 1 player"):
            Layout.parse(bad)
    Layout.parse(f"{MAX_PLAYERS}x1")  # the most a table seats
    with pytest.raises(ValueError, match=f"at most {MAX_PLAYERS} players"):
        Layout.parse(f"{MAX_PLAYERS + 1}x1")
    with pytest.raises(ValueError, match="is not a layout: write SIDESxSEATS"):
        Layout.parse("2by2")


def test_the_last_listed_round_s_hand_size_and_minimum_hold_for_later_rounds() -> None:
    p = replace(load_profile("partnership-13"), hand_size_by_round=(11, 12, 13))
    assert [p.hand_size_in(r) for r in range(1, 6)] == [11, 12, 13, 13, 13]
    assert load_profile("partnership-13").hand_size_in(3) == 13  # none listed: hand_size
    mins = load_profile("partnership-13").opening_minimums
    assert [load_profile("partnership-13").opening_minimum(r) for r in range(1, 7)] == [
        *mins, mins[-1], mins[-1]]


def test_minimums_by_score_take_the_highest_band_reached() -> None:
    p = replace(load_profile("partnership-13"),
                score_band_minimums=((0, 50), (1500, 90), (3000, 120)))
    assert [p.opening_minimum(1, total) for total in (-200, 0, 1499, 1500, 2999, 3000, 9000)] \
        == [50, 50, 50, 90, 90, 120, 120]
    assert p.opening_minimum(1) == p.opening_minimums[0]  # no total: by round


def test_each_kind_is_worth_its_profile_value() -> None:
    p = replace(load_profile("partnership-13"), value_ace=21, value_eight_to_king=11,
                value_four_to_seven=6, value_two=22, value_joker=55)
    v = p.kind_values
    assert [v[k] for k in (cards.FOUR, cards.SEVEN)] == [6, 6]
    assert [v[k] for k in (cards.EIGHT, cards.TEN, cards.KING)] == [11, 11, 11]
    assert (v[cards.ACE], v[cards.TWO], v[cards.JOKER]) == (21, 22, 55)


def test_the_wild_rules_at_their_boundaries() -> None:
    p = replace(load_profile("partnership-13"), naturals_per_wild=1, natural_margin=1,
                max_wilds=2, min_naturals_with_wild=3, wild_free_ranks=(cards.SEVEN,))
    assert p.wilds_allowed(1, 0) and p.wilds_allowed(0, 0, cards.SEVEN)  # no wilds: always
    assert not p.wilds_allowed(6, 1, cards.SEVEN) and p.wilds_allowed(6, 1, cards.EIGHT)
    assert p.wilds_allowed(3, 2) and not p.wilds_allowed(6, 3)  # max_wilds 2, exactly
    assert not p.wilds_allowed(2, 1) and p.wilds_allowed(3, 1)  # 3 naturals at least
    assert p.wilds_allowed(3, 2) and not replace(p, natural_margin=2).wilds_allowed(3, 2)
    assert [p.wild_limit(size) for size in range(3, 8)] == [0, 1, 2, 2, 2]
    assert p.wild_limit(7, cards.SEVEN) == 0
    unlimited = replace(p, max_wilds=None)
    assert unlimited.wilds_allowed(4, 3) and not unlimited.wilds_allowed(3, 3)
    assert p.wilds_allowed(4, 2, None)  # an all-wild meld's rank: none


def test_a_value_in_a_message_is_cut_after_60_characters() -> None:
    assert shown("x" * 58) == repr("x" * 58)  # 60 characters with its quotes: whole
    assert shown("x" * 59) == repr("x" * 59)[:56] + " ..."
    assert len(shown("y" * 500)) == 60
    assert shown(2 ** 300) == "an integer of about 90 digits"
    assert shown(2 ** 64 - 1) == str(2 ** 64 - 1)


def test_a_value_that_cannot_be_shown_is_named_by_its_type() -> None:
    nested: list[object] = []
    for _ in range(100_000):
        nested = [nested]
    assert shown(nested) == "a list that cannot be shown"  # its repr recurses too deep
    assert shown({"n": 10 ** 5000}) == "a table that cannot be shown"  # too many digits
