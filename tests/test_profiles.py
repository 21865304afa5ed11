"""Loading rule profiles: the built-in values of RULES-MATRIX §2, house-rule files, and the
errors a bad file gives (each naming the file, the key and the problem)."""

from __future__ import annotations

import dataclasses
import itertools
import tomllib
from pathlib import Path
from typing import Any

import pytest

from handfoot.game import cards
from handfoot.game.loading import (
    OPTIONS,
    ProfileError,
    apply_overrides,
    builtin_profile_names,
    load_profile,
    profile_from_mapping,
    profile_to_toml_values,
)
from handfoot.game.rules import FIELDS, SECTIONS, Layout, Profile

PROFILE_DIR = Path(__file__).parents[1] / "src/handfoot/game/profiles"
ALL = ["partnership-13", "bicycle", "biegames", "hand-knee-foot", "remastered-singles",
       "remastered-teams"]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str, name: str = "house.toml") -> tuple[str, str]:
    """Load a file that must fail; return (its path, the error message)."""
    path = write(tmp_path, name, text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    return str(path), str(info.value)


def wild_limits(p: Profile) -> list[int]:
    return [p.wild_limit(size) for size in range(3, 8)]


# --- built-in profiles (RULES-MATRIX §2) ------------------------------------------------


def test_builtin_names_default_first() -> None:
    assert builtin_profile_names() == ALL


@pytest.mark.parametrize("name", ALL)
def test_builtin_profiles_load_with_their_names(name: str) -> None:
    p = load_profile(name)
    assert p.name == name
    assert p.title and p.source
    assert p.extends is None and p.overrides == () and p.options == ()


@pytest.mark.parametrize("name", ALL)
def test_builtin_toml_lists_every_parameter(name: str) -> None:
    data = tomllib.loads((PROFILE_DIR / f"{name}.toml").read_text(encoding="utf-8"))
    assert set(data) == {"name", "title", "source", *SECTIONS}
    for section in SECTIONS:
        expected = {n for n, info in FIELDS.items() if info.section == section}
        assert set(data[section]) == expected, section


def books(p: Profile) -> tuple[int, int, int, tuple[int, ...]]:
    return (p.clean_books_to_go_out, p.dirty_books_to_go_out, p.wild_books_to_go_out,
            p.special_books_to_go_out)


def values(p: Profile) -> tuple[int, ...]:
    return (p.value_joker, p.value_two, p.value_ace, p.value_eight_to_king,
            p.value_four_to_seven)


def tabletop(p: Profile) -> tuple[Any, ...]:
    return (p.perfect_deal_bonus, p.dealer_bonus, p.improper_meld_penalty,
            p.knee_reminder_penalty, p.go_out_without_permission_penalty,
            p.failed_going_out_penalty, p.bad_pickup_penalty)


def no_new_rules(p: Profile) -> None:
    """The rows of RULES-MATRIX §2 no built-in profile changes (they come from options)."""
    assert p.hand_size_by_round == () and not p.knee_auto_pickup
    assert p.target_score is None and p.score_band_minimums == ()
    assert p.clean_book_opening_rounds == () and p.discard_locked_until_clean_book == ()
    assert p.foot_at_once  # "Foot after melding the last Hand card: immediately"
    assert not p.second_meld_of_rank and not p.unfinished_second_meld_negative
    assert p.new_meld_min_naturals == 0
    assert p.jokers_per_deck == 2 and p.draw_count == 2 and not p.partial_last_draw
    assert p.min_meld_size == 3 and p.book_size == 7
    assert p.pickup_allowed and p.pickup_min_pile == 1
    assert p.dealer_bonus == ()


def test_partnership_13_matches_the_matrix() -> None:
    p = load_profile("partnership-13")
    no_new_rules(p)
    assert p.knee_size == 0 and p.special_book_bonus == ()
    assert tabletop(p) == (0, (), 0, 0, 0, 0, 0) and not p.announce_foot
    assert p.layouts == (Layout(2, 2),)
    assert p.layout.players == 4
    assert p.decks(4) == 5 and p.decks(2) == 5  # a fixed shoe of 5 decks
    assert p.jokers_per_deck == 2
    assert (p.hand_size, p.knee_size, p.foot_size) == (13, 0, 13)
    assert p.starter_cards == 1
    assert set(p.starter_rejected) == {cards.RED_THREE, cards.TWO, cards.JOKER}
    assert p.first_player == "left_of_dealer"
    assert p.rounds == 4
    assert [p.opening_minimum(r) for r in range(1, 5)] == [50, 90, 120, 150]
    assert p.draw_count == 2 and not p.partial_last_draw
    assert wild_limits(p) == [1, 1, 1, 2, 2]  # N >= 2W
    assert p.all_wild_melds and p.wild_meld_opens
    assert (p.min_meld_size, p.book_size, p.book_max) == (3, 7, 7)
    assert p.new_meld_after_book
    assert p.pickup_allowed and p.pickup_count == 7 and p.pickup_needs_pair
    assert p.pickup_melds_top
    assert p.pickup_black_three_blocks
    assert p.pickup_wild_top == "like_pair"
    assert p.pickup_existing_meld == "complete_and_start"
    assert p.pickup_opening_counts == "top_and_hand"
    assert p.discard_after_pickup
    books = (p.clean_books_to_go_out, p.dirty_books_to_go_out, p.wild_books_to_go_out)
    assert books == (2, 2, 1)
    assert p.special_books_to_go_out == ()
    assert p.partner_condition == "played_from"
    assert p.permission and not p.permission_persists
    assert p.final_discard == "either" and p.min_cards_kept == 1
    values = (p.value_joker, p.value_two, p.value_ace, p.value_eight_to_king,
              p.value_four_to_seven)
    assert values == (50, 20, 20, 10, 5)
    assert p.black_three_penalty == 5
    assert (p.red_three_bonus, p.red_three_penalty) == (100, 100)
    assert (p.clean_book_bonus, p.dirty_book_bonus, p.wild_book_bonus) == (500, 300, 1500)
    assert p.going_out_bonus == 100


def test_biegames_matches_the_matrix() -> None:
    p = load_profile("biegames")
    no_new_rules(p)
    assert not p.permission_persists and p.special_book_bonus == ()
    assert tabletop(p) == (0, (), 0, 0, 0, 0, 0) and not p.announce_foot
    assert p.layouts == (Layout(2, 2), Layout(2, 1))
    assert p.decks(4) == 5 and p.decks(2) == 3  # players + 1
    assert p.jokers_per_deck == 2
    assert (p.hand_size, p.knee_size, p.foot_size) == (11, 0, 11)
    assert p.starter_cards == 1
    assert set(p.starter_rejected) == {cards.RED_THREE, cards.TWO, cards.JOKER}
    assert p.first_player == "random"
    assert p.rounds == 4
    assert [p.opening_minimum(r) for r in range(1, 5)] == [50, 90, 120, 150]
    assert p.draw_count == 2
    assert wild_limits(p) == [1, 1, 2, 2, 3]  # N >= W + 1
    assert not p.all_wild_melds
    assert (p.book_size, p.book_max) == (7, 7) and p.new_meld_after_book
    assert p.pickup_count == 7 and p.pickup_needs_pair and p.pickup_melds_top
    assert p.pickup_black_three_blocks and p.pickup_wild_top == "forbidden"
    assert p.pickup_existing_meld == "merge"
    assert p.pickup_opening_counts == "top_and_hand" and p.discard_after_pickup
    books = (p.clean_books_to_go_out, p.dirty_books_to_go_out, p.wild_books_to_go_out)
    assert books == (2, 2, 0)
    assert p.partner_condition == "picked_up"
    assert p.permission
    assert p.final_discard == "either"
    assert p.min_cards_kept == 1  # "two after melding" is one after the discard
    values = (p.value_joker, p.value_two, p.value_ace, p.value_eight_to_king,
              p.value_four_to_seven)
    assert values == (50, 20, 20, 10, 5)
    assert p.black_three_penalty == 5
    assert (p.red_three_bonus, p.red_three_penalty) == (100, 100)
    assert (p.clean_book_bonus, p.dirty_book_bonus, p.wild_book_bonus) == (500, 300, 0)
    assert p.going_out_bonus == 100


def test_remastered_singles_matches_the_matrix() -> None:
    p = load_profile("remastered-singles")
    no_new_rules(p)
    # players 2-8, each on their own; "best with 3+" (001:22)
    assert p.layout == Layout(3, 1)
    assert {x.players for x in p.layouts} == set(range(2, 9))
    assert all(x.seats_per_side == 1 for x in p.layouts)
    assert [p.decks(n) for n in range(2, 9)] == [3, 4, 5, 6, 7, 8, 9]  # WE-001-01: 8 → 9
    assert (p.hand_size, p.knee_size, p.foot_size) == (11, 0, 11)
    assert p.starter_cards == 1 and p.starter_check_all
    assert set(p.starter_rejected) == {cards.RED_THREE, cards.BLACK_THREE, cards.TWO,
                                       cards.JOKER}  # any 3, 2, joker
    assert p.first_player == "high_card"
    assert p.rounds == 4
    assert [p.opening_minimum(r) for r in range(1, 5)] == [60, 90, 120, 150]  # WE-001-13
    assert wild_limits(p) == [1, 1, 2, 2, 3]  # N >= W + 1
    assert p.max_wilds is None and p.min_naturals_with_wild == 0 and p.wild_free_ranks == ()
    assert not p.all_wild_melds  # no (OPT-08)
    assert p.book_max is None  # 7+, naturals only past 7
    assert not p.new_meld_after_book  # 1 meld in total per rank; the book absorbs more
    assert p.pickup_count == 1  # the top card
    assert not p.pickup_needs_pair and not p.pickup_melds_top  # needs nothing
    assert not p.pickup_black_three_blocks and p.pickup_wild_top == "allowed"  # none blocks
    assert p.pickup_existing_meld == "forbidden_if_completes"  # WE-001-07
    assert p.discard_after_pickup
    assert books(p) == (1, 1, 0, ())
    assert p.partner_condition == "none" and not p.permission  # singles: n/a
    assert p.final_discard == "required"  # must discard
    assert p.min_cards_kept == 0  # 0 allowed
    assert values(p) == (50, 20, 20, 10, 5)
    assert p.black_three_penalty == 100
    assert (p.red_three_bonus, p.red_three_penalty) == (100, 100)
    assert (p.red_three_bulk_count, p.red_three_bulk_bonus) == (0, 0)
    assert (p.clean_book_bonus, p.dirty_book_bonus, p.wild_book_bonus) == (700, 300, 0)
    assert p.special_book_bonus == ()
    assert p.going_out_bonus == 100
    assert tabletop(p) == (100, (), 0, 0, 0, 0, 0)  # perfect deal +100 (22 cards)
    assert not p.announce_foot  # "There is no obligation to announce" (001:95)


def test_remastered_teams_matches_the_matrix() -> None:
    p = load_profile("remastered-teams")
    no_new_rules(p)
    # 4, 6, 8 players in equal teams
    assert p.layouts == (Layout(2, 2), Layout(2, 3), Layout(3, 2), Layout(2, 4), Layout(4, 2))
    assert [p.decks(n) for n in (4, 6, 8)] == [5, 7, 9]  # WE-001-01: 8 players → 9 decks
    assert (p.hand_size, p.knee_size, p.foot_size) == (11, 0, 11)
    assert p.starter_cards == 3
    assert not p.starter_check_all  # the top card only
    assert set(p.starter_rejected) == {cards.RED_THREE, cards.BLACK_THREE, cards.TWO,
                                       cards.JOKER}
    assert p.first_player == "high_card"
    assert p.rounds == 4
    assert [p.opening_minimum(r) for r in range(1, 5)] == [60, 90, 120, 150]
    assert wild_limits(p) == [1, 1, 2, 2, 2]  # N >= W + 1, W <= 2
    assert p.max_wilds == 2 and p.wild_free_ranks == ()
    assert p.all_wild_melds and not p.wild_meld_opens  # wild book; not in the opening
    assert p.book_max is None and not p.new_meld_after_book  # 7+; 1 in total
    assert p.pickup_count == 3 and p.pickup_needs_pair and p.pickup_melds_top
    assert p.pickup_black_three_blocks and p.pickup_wild_top == "forbidden"
    assert p.pickup_existing_meld == "forbidden"  # rank not on the team's table
    assert p.pickup_opening_counts == "top_and_hand" and p.discard_after_pickup
    assert books(p) == (2, 3, 0, ())
    assert p.partner_condition == "finished_turn"
    assert p.permission and p.permission_persists
    assert p.final_discard == "forbidden"  # must meld
    assert p.min_cards_kept == 1
    assert values(p) == (50, 20, 20, 10, 5)
    assert p.black_three_penalty == 100
    assert (p.red_three_bonus, p.red_three_penalty) == (100, 100)
    assert (p.red_three_bulk_count, p.red_three_bulk_bonus) == (0, 0)
    assert (p.clean_book_bonus, p.dirty_book_bonus, p.wild_book_bonus) == (700, 300, 1500)
    assert p.special_book_bonus == ()
    assert p.going_out_bonus == 100
    assert tabletop(p) == (100, (), 500, 0, 0, 0, 0)  # perfect deal +100, improper −500
    assert not p.announce_foot  # optional (OPT-24)


def test_hand_knee_foot_matches_the_matrix() -> None:
    p = load_profile("hand-knee-foot")
    no_new_rules(p)
    # 3 individually, 4 in teams of two, 6 in two teams of three (001:291)
    assert p.layouts == (Layout(2, 2), Layout(3, 1), Layout(2, 3))
    assert [p.decks(n) for n in (3, 4, 6)] == [5, 6, 8]  # WE-HKF-01
    assert (p.hand_size, p.knee_size, p.foot_size) == (15, 13, 11)  # WE-HKF-02
    assert not p.knee_auto_pickup  # the player picks it up
    assert p.starter_cards == 3 and not p.starter_check_all  # as teams
    assert set(p.starter_rejected) == {cards.RED_THREE, cards.BLACK_THREE, cards.TWO,
                                       cards.JOKER}
    assert p.first_player == "high_card"
    assert p.rounds == 4
    assert [p.opening_minimum(r) for r in range(1, 5)] == [60, 90, 120, 150]
    assert wild_limits(p) == [1, 1, 2, 2, 2]
    for rank in (cards.FIVE, cards.SEVEN):  # 5s and 7s: 0 (WE-HKF-04)
        assert [p.wild_limit(size, rank) for size in range(3, 8)] == [0, 0, 0, 0, 0]
    assert p.wild_limit(4, cards.EIGHT) == 1
    assert p.all_wild_melds and not p.wild_meld_opens  # required; inherited from teams
    assert p.book_max is None and not p.new_meld_after_book
    assert p.pickup_count is None  # the whole pile
    assert p.pickup_needs_pair and p.pickup_melds_top
    assert p.pickup_wild_top == "like_pair"  # WE-HKF-05
    assert p.pickup_black_three_blocks  # the top card only
    assert p.pickup_existing_meld == "forbidden"
    assert p.pickup_opening_counts == "all_picked"
    assert not p.discard_after_pickup  # knock
    assert books(p) == (1, 1, 1, (cards.FIVE, cards.SEVEN))  # WE-HKF-06
    assert p.partner_condition == "finished_turn"
    assert p.permission and p.permission_persists
    assert p.final_discard == "forbidden" and p.min_cards_kept == 1
    assert values(p) == (50, 20, 20, 10, 5)
    assert p.black_three_penalty == 500  # WE-HKF-03
    assert (p.red_three_bonus, p.red_three_penalty) == (100, 100)
    assert (p.red_three_bulk_count, p.red_three_bulk_bonus) == (7, 300)  # 7+ red 3s 300
    assert (p.clean_book_bonus, p.dirty_book_bonus, p.wild_book_bonus) == (500, 300, 2500)
    assert dict(p.special_book_bonus) == {cards.FIVE: 3000, cards.SEVEN: 5000}
    assert p.going_out_bonus == 200
    assert tabletop(p) == (100, (), 500, 1000, 0, 0, 0)  # 39 cards; −500; Knee −1,000
    assert not p.announce_foot


def test_bicycle_matches_the_matrix() -> None:
    p = load_profile("bicycle")
    no_new_rules(p)
    assert p.layouts == (Layout(2, 2),)  # 4 (2x2)
    assert p.decks(4) == 5  # 5 decks (6 optional)
    assert (p.hand_size, p.knee_size, p.foot_size) == (11, 0, 11)  # WE-004-01
    assert p.starter_cards == 1
    assert set(p.starter_rejected) == {cards.RED_THREE, cards.TWO, cards.JOKER}
    assert p.first_player == "left_of_dealer"
    assert p.rounds == 4
    assert [p.opening_minimum(r) for r in range(1, 5)] == [50, 90, 120, 150]
    assert wild_limits(p) == [0, 0, 1, 2, 3]  # W >= 1 needs N >= 4
    assert p.min_naturals_with_wild == 4
    assert not p.all_wild_melds
    assert (p.book_max, p.new_meld_after_book) == (7, True)  # exactly 7; new meld after
    assert p.pickup_count == 7 and p.pickup_needs_pair and p.pickup_melds_top
    assert p.pickup_black_three_blocks and p.pickup_wild_top == "forbidden"
    assert p.pickup_existing_meld == "merge"  # as biegames
    assert p.pickup_opening_counts == "top_and_hand" and p.discard_after_pickup
    assert books(p) == (1, 1, 0, ())
    assert p.partner_condition == "none" and not p.permission
    assert p.final_discard == "required" and p.min_cards_kept == 1
    assert values(p) == (50, 20, 20, 10, 5)  # WE-004-02
    assert p.black_three_penalty == 5
    assert (p.red_three_bonus, p.red_three_penalty) == (5, 5)
    assert (p.clean_book_bonus, p.dirty_book_bonus, p.wild_book_bonus) == (500, 300, 0)
    assert p.going_out_bonus == 0
    assert tabletop(p) == (0, (), 0, 0, 0, 0, 0)
    assert p.announce_foot  # mandatory (004:36)


@pytest.mark.parametrize(("name", "decks"), [
    ("partnership-13", {4: 5}),                     # WE-000-01
    ("biegames", {2: 3, 4: 5}),                     # WE-003-01
    ("remastered-singles", {2: 3, 8: 9}),           # WE-001-01
    ("remastered-teams", {4: 5, 8: 9}),             # WE-001-01
    ("hand-knee-foot", {3: 5, 4: 6, 6: 8}),         # WE-HKF-01
    ("bicycle", {4: 5}),
])
def test_decks_by_player_count(name: str, decks: dict[int, int]) -> None:
    p = load_profile(name)
    assert {n: p.decks(n) for n in decks} == decks
    assert set(decks) <= {x.players for x in p.layouts}


def test_card_values_by_kind() -> None:
    v = load_profile("partnership-13").kind_values
    assert v[cards.JOKER] == 50 and v[cards.TWO] == 20 and v[cards.ACE] == 20
    assert v[cards.EIGHT] == v[cards.KING] == 10
    assert v[cards.FOUR] == v[cards.SEVEN] == 5


def test_later_rounds_use_the_last_minimum() -> None:
    assert load_profile("partnership-13").opening_minimum(9) == 150


def test_every_field_has_a_section_label_and_doc() -> None:
    for name, info in FIELDS.items():
        assert info.section in SECTIONS, name
        assert info.label and info.doc, name
    assert {f.name for f in dataclasses.fields(Profile)} - set(FIELDS) == {
        "name", "title", "source", "extends", "overrides", "options"}


@pytest.mark.parametrize("name", ALL)
def test_toml_values_read_back_to_the_same_profile(name: str) -> None:
    p = load_profile(name)
    data = {"name": p.name, "title": p.title, "source": p.source, **profile_to_toml_values(p)}
    assert profile_from_mapping(data) == p


# --- house rules ------------------------------------------------------------------------


def test_house_rules_extend_a_profile(tmp_path: Path) -> None:
    path = write(tmp_path, "our-table.toml", """
extends = "biegames"

[game]
rounds = 1

[pickup]
pickup_count = 5
""")
    p = load_profile(path)
    base = load_profile("biegames")
    assert p.name == "our-table"
    assert p.extends == "biegames"
    assert p.overrides == (("pickup_count", 5), ("rounds", 1))
    assert p.title == f"{base.title}, with house rules"
    assert p.source == base.source
    assert (p.rounds, p.pickup_count) == (1, 5)
    unchanged = [n for n in FIELDS if n not in ("rounds", "pickup_count")]
    assert all(getattr(p, n) == getattr(base, n) for n in unchanged)


def test_house_rules_may_name_themselves(tmp_path: Path) -> None:
    path = write(tmp_path, "h.toml", 'extends = "partnership-13"\nname = "ours"\n'
                 'title = "Our table"\n[pickup]\npickup_count = "all"\n')
    p = load_profile(path)
    assert (p.name, p.title, p.extends) == ("ours", "Our table", "partnership-13")
    assert p.pickup_count is None
    assert p.overrides == (("pickup_count", "all"),)


def test_house_rules_chain_relative_to_their_file(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    write(folder, "base.toml", 'extends = "biegames"\n[game]\nrounds = 2\n')
    top = write(folder, "top.toml", 'extends = "base.toml"\n[pickup]\npickup_count = 3\n')
    monkeypatch.chdir(tmp_path)  # not the folder of the files
    p = load_profile(top)
    assert p.extends == "biegames"
    assert p.overrides == (("pickup_count", 3), ("rounds", 2))
    assert p.title == load_profile("biegames").title + ", with house rules"


def test_overrides_argument(tmp_path: Path) -> None:
    p = load_profile("biegames", overrides={"rounds": 1})
    assert p.rounds == 1 and p.overrides == (("rounds", 1),)
    with pytest.raises(ProfileError, match=r"rounds.*out of range"):
        load_profile("biegames", overrides={"rounds": 0})


def test_a_full_profile_file_needs_no_extends(tmp_path: Path) -> None:
    text = (Path(__file__).parents[1] / "src/handfoot/game/profiles/biegames.toml").read_text()
    path = write(tmp_path, "copy.toml", text.replace('name = "biegames"', 'name = "copy"'))
    p = load_profile(path)
    assert p.name == "copy" and p.extends is None
    assert dataclasses.replace(p, name="biegames") == load_profile("biegames")


# --- errors -----------------------------------------------------------------------------


def test_unknown_parameter_suggests_the_right_one(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "biegames"\n[pickup]\npickup_cout = 5\n')
    assert msg.startswith(path)
    assert "pickup_cout" in msg and "unknown parameter" in msg
    assert "did you mean 'pickup_count'?" in msg


def test_unknown_parameter_without_a_close_name_lists_the_section(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, '[melds]\nzebra = 1\n')
    assert msg.startswith(path)
    assert "[melds] zebra: unknown parameter" in msg
    assert "book_size" in msg and "hand_size" not in msg


def test_unknown_top_level_key(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "biegames"\n[pikcup]\npickup_count = 5\n')
    assert msg.startswith(path)
    assert "[pikcup]: unknown section" in msg and "did you mean 'pickup'?" in msg


def test_an_unknown_section_without_a_close_name_lists_the_sections(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "biegames"\n[rules]\nbook_size = 7\n')
    assert msg.startswith(path)
    assert "[rules]: unknown section" in msg
    assert "[melds]" in msg and "[options]" in msg and "extends" in msg
    path, msg = load_error(tmp_path, 'extends = "biegames"\nzebra = 1\n')
    assert "zebra: unknown key" in msg and "[scoring]" in msg


def test_key_in_the_wrong_section(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "biegames"\n[deal]\npickup_count = 5\n')
    assert msg.startswith(path)
    assert "[deal] pickup_count" in msg and "belongs in the [pickup] section" in msg


def test_parameter_outside_any_section(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "biegames"\nhand_size = 9\n')
    assert msg.startswith(path)
    assert "hand_size" in msg and "belongs in the [deal] section" in msg


def test_section_that_is_not_a_table(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'deal = 5\n')
    assert msg.startswith(path) and "[deal] must be a table" in msg


@pytest.mark.parametrize(("section", "line", "key", "problem"), [
    ("deal", 'hand_size = "11"', "hand_size", "must be an integer, not a string '11'"),
    ("deal", "hand_size = 11.5", "hand_size", "must be an integer, not a number"),
    ("deal", "hand_size = true", "hand_size", "must be an integer, not true/false"),
    ("melds", "all_wild_melds = 1", "all_wild_melds", "must be true or false, not an integer"),
    ("pickup", "pickup_wild_top = 3", "pickup_wild_top", "must be a string"),
    ("game", "opening_minimums = 50", "opening_minimums", "must be a non-empty list"),
    ("game", 'opening_minimums = [50, "x"]', "opening_minimums", "each entry must be an integer"),
    ("players", 'layouts = "2x2"', "layouts", "must be a non-empty list"),
    ("melds", "book_max = \"lots\"", "book_max", "must be an integer or \"none\""),
])
def test_wrong_types(tmp_path: Path, section: str, line: str, key: str, problem: str) -> None:
    path, msg = load_error(tmp_path, f'extends = "biegames"\n[{section}]\n{line}\n')
    assert msg.startswith(path)
    assert f"[{section}] {key}" in msg and problem in msg


@pytest.mark.parametrize(("section", "line", "key", "problem"), [
    ("deal", "hand_size = 0", "hand_size", "0 is out of range (1 to 30)"),
    ("deal", "foot_size = 31", "foot_size", "31 is out of range (1 to 30)"),
    ("game", "rounds = -1", "rounds", "-1 is out of range (1 to 100)"),
    ("game", "opening_minimums = [50, -5]", "opening_minimums", "each entry -5 is out of range"),
    ("pickup", "pickup_count = 0", "pickup_count", "0 is out of range (1 to 200)"),
])
def test_out_of_range(tmp_path: Path, section: str, line: str, key: str, problem: str) -> None:
    path, msg = load_error(tmp_path, f'extends = "biegames"\n[{section}]\n{line}\n')
    assert msg.startswith(path)
    assert f"[{section}] {key}" in msg and problem in msg


def test_bad_choice_suggests_a_close_one(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "partnership-13"\n[pickup]\n'
                                     'pickup_wild_top = "like_pairs"\n')
    assert msg.startswith(path)
    assert "[pickup] pickup_wild_top" in msg
    assert "'like_pairs' is not one of forbidden, like_pair, allowed" in msg
    assert "did you mean 'like_pair'?" in msg


@pytest.mark.parametrize(("line", "problem"), [
    ('starter_rejected = ["red 4"]', "'red 4' is not a card kind"),
    ('layouts = ["2by2"]', "'2by2' is not a layout"),
    ('layouts = ["1x4"]', "at least 2 sides"),
])
def test_bad_kinds_and_layouts(tmp_path: Path, line: str, problem: str) -> None:
    section = "players" if line.startswith("layouts") else "deal"
    path, msg = load_error(tmp_path, f'extends = "biegames"\n[{section}]\n{line}\n')
    assert msg.startswith(path) and problem in msg


@pytest.mark.parametrize(("text", "key", "problem"), [
    ("[melds]\nall_wild_melds = false\n", "wild_books_to_go_out",
     "an all-wild book is required to go out, but all_wild_melds is false"),
    ("[melds]\nall_wild_melds = false\n[going_out]\nwild_books_to_go_out = 0\n",
     "pickup_wild_top", "\"like_pair\" melds the wild top card into an all-wild meld, but "
     "all_wild_melds is false"),
    ("[melds]\nbook_max = 6\n", "book_max", "6 is smaller than book_size 7"),
    ("[melds]\nmin_meld_size = 7\nbook_size = 6\nbook_max = 6\n", "min_meld_size",
     "7 is larger than book_size 6"),
    ("[melds]\nwild_free_ranks = [\"2\"]\n", "wild_free_ranks",
     "2 is not a meldable rank (4 to A)"),
    ("[scoring]\nspecial_book_bonus = { \"joker\" = 100 }\n", "special_book_bonus",
     "joker is not a meldable rank (4 to A)"),
])
def test_contradictory_settings(tmp_path: Path, text: str, key: str, problem: str) -> None:
    path, msg = load_error(tmp_path, 'extends = "partnership-13"\n' + text)
    assert msg == f"{path}: {key}: {problem}"


def test_extends_unknown_profile(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "bigames"\n')
    assert msg.startswith(f"{path}: extends: ")
    assert "'bigames' is neither a built-in profile" in msg
    assert "did you mean 'biegames'?" in msg


def test_extends_missing_file(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "nowhere.toml"\n')
    assert msg.startswith(f"{path}: extends: ")
    assert "nowhere.toml: cannot read" in msg


def test_extends_a_file_with_bad_toml(tmp_path: Path) -> None:
    write(tmp_path, "broken.toml", "x = [\n")
    path, msg = load_error(tmp_path, 'extends = "broken.toml"\n')
    assert msg.startswith(f"{path}: extends: ")
    assert "broken.toml: not valid TOML" in msg


def test_extends_loop(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    write(tmp_path, "b.toml", 'extends = "a.toml"\n')
    with pytest.raises(ProfileError, match="extend each other in a loop"):
        load_profile(tmp_path / "a.toml")


def test_invalid_toml(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "biegames"\n[pickup\npickup_count = 5\n')
    assert msg.startswith(f"{path}: not valid TOML: ")
    assert "line 2" in msg


def test_file_that_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "bin.toml"
    path.write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(ProfileError, match=r"bin\.toml: cannot read: not UTF-8"):
        load_profile(path)


def test_missing_file_and_unknown_name(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match=r"missing\.toml: cannot read"):
        load_profile(tmp_path / "missing.toml")
    with pytest.raises(ProfileError, match=r"neither a built-in profile.*'biegames'"):
        load_profile("biegame")


def test_shoe_too_small_for_the_deal(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "partnership-13"\n[players]\nextra_decks = 1\n')
    # 4 players × 26 cards + 1 starter = 105 cards and a draw, from one 54-card deck.
    assert msg == (f"{path}: layouts: with 4 players the shoe holds 54 cards but the deal "
                   "needs 105 and a draw")


def test_shoe_checked_for_every_seating(tmp_path: Path) -> None:
    # 70 cards a player: 2 players fit in 3 decks (162 cards), 4 players not in 5 (270).
    path, msg = load_error(tmp_path, 'extends = "biegames"\n[deal]\nhand_size = 30\n'
                                     'knee_size = 10\nfoot_size = 30\n')
    assert msg.startswith(f"{path}: layouts: with 4 players the shoe holds 270 cards")


def test_top_level_values_must_be_strings(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "biegames"\nname = 5\n')
    assert msg == f"{path}: name: must be a string"


def test_shoe_checked_for_the_largest_hand_by_round(tmp_path: Path) -> None:
    # 2 players, 3 decks (162 cards): round 1 deals 2 × (11 + 20 + 30) + 1 = 123 cards, but
    # round 2 deals 2 × (30 + 20 + 30) + 1 = 161 and leaves no draw.
    path, msg = load_error(tmp_path, 'extends = "biegames"\n[players]\nlayouts = ["2x1"]\n'
                                     '[deal]\nfoot_size = 30\nhand_size = 11\n'
                                     'hand_size_by_round = [11, 30, 30, 30]\n'
                                     'knee_size = 20\n')
    assert msg.startswith(f"{path}: layouts: with 2 players the shoe holds 162 cards")


# --- optional rules (RULES-MATRIX §5) -----------------------------------------------------


def test_options_are_the_rulebook_alternate_rules() -> None:
    ids = [o.id for o in OPTIONS.values()]
    expected = [f"OPT-{n:02d}" for n in range(1, 25)] + ["OPT-07a"]
    assert set(ids) == set(expected)
    assert not set(OPTIONS) & set(FIELDS)  # one flat namespace for --set and overrides
    for option in OPTIONS.values():
        assert option.title and option.description and option.source and option.meant_for
        assert set(option.meant_for) <= set(ALL)
        assert {param for param, _ in option.sets} <= set(FIELDS)


def test_exclusive_groups_are_those_of_the_matrix() -> None:
    groups: dict[str, set[str]] = {}
    for option in OPTIONS.values():
        for group in option.groups:
            groups.setdefault(group, set()).add(option.id)
    assert groups == {
        "game length": {"OPT-01", "OPT-02", "OPT-03"},
        "pile pickup": {"OPT-14", "OPT-15", "OPT-17", "OPT-18", "OPT-20"},
        "book size": {"OPT-06", "OPT-07"},
        "red 3 penalty": {"OPT-10", "OPT-12"},
        "black 3 penalty": {"OPT-11", "OPT-12"},
        "dealing": {"OPT-04"},
    }


def option_pairs() -> list[tuple[str, str]]:
    return [(a, b) for a, b in itertools.combinations(OPTIONS, 2)
            if set(OPTIONS[a].groups) & set(OPTIONS[b].groups)]


def test_the_exclusive_pairs() -> None:
    ids = {tuple(sorted((OPTIONS[a].id, OPTIONS[b].id))) for a, b in option_pairs()}
    assert ids == {
        ("OPT-01", "OPT-02"), ("OPT-01", "OPT-03"), ("OPT-02", "OPT-03"),
        ("OPT-14", "OPT-15"), ("OPT-14", "OPT-17"), ("OPT-14", "OPT-18"), ("OPT-14", "OPT-20"),
        ("OPT-15", "OPT-17"), ("OPT-15", "OPT-18"), ("OPT-15", "OPT-20"), ("OPT-17", "OPT-18"),
        ("OPT-17", "OPT-20"), ("OPT-18", "OPT-20"),
        ("OPT-06", "OPT-07"), ("OPT-10", "OPT-12"), ("OPT-11", "OPT-12"),
    }


@pytest.mark.parametrize("key", list(OPTIONS))
def test_option_sets_exactly_its_values(key: str) -> None:
    option = OPTIONS[key]
    for name in option.meant_for:
        base = load_profile(name)
        p = load_profile(name, overrides={key: True})
        assert p.options == (key,)
        expected = {param: profile_from_mapping(
            {"extends": "partnership-13",
             FIELDS[param].section: {param: value}}).__getattribute__(param)
            for param, value in option.sets}
        for param, value in expected.items():
            assert getattr(p, param) == value, (name, param)
        untouched = [n for n in FIELDS if n not in expected]
        assert [getattr(p, n) for n in untouched] == [getattr(base, n) for n in untouched]


@pytest.mark.parametrize("key", list(OPTIONS))
def test_option_in_a_house_rule_file(tmp_path: Path, key: str) -> None:
    name = OPTIONS[key].meant_for[0]
    path = write(tmp_path, "h.toml", f'extends = "{name}"\n[options]\n{key} = true\n')
    p = load_profile(path)
    assert p.options == (key,) and p.extends == name
    assert p.overrides == ((key, True),)
    assert p == dataclasses.replace(load_profile(name, overrides={key: True}), name="h",
                                    title=p.title)


def test_option_switched_off_changes_nothing(tmp_path: Path) -> None:
    path = write(tmp_path, "h.toml", 'extends = "remastered-teams"\n[options]\n'
                                     'sevens_from_hell = false\n')
    p = load_profile(path)
    assert p.options == ()
    assert p.discard_locked_until_clean_book == ()


def test_explicit_parameters_beat_an_option(tmp_path: Path) -> None:
    path = write(tmp_path, "h.toml", """
extends = "remastered-singles"

[options]
singles_wild_books = true
first_to_10000 = true

[scoring]
wild_book_bonus = 1000

[game]
rounds = 20
""")
    p = load_profile(path)
    assert p.options == ("first_to_10000", "singles_wild_books")  # the rulebook's order
    assert p.all_wild_melds and p.wild_book_bonus == 1000
    assert p.target_score == 10000 and p.rounds == 20
    flat = load_profile("remastered-singles",
                        overrides={"pickup_count": 4, "take_whole_pile": True})
    assert flat.pickup_count == 4 and flat.options == ("take_whole_pile",)


def test_an_extending_file_keeps_the_base_options(tmp_path: Path) -> None:
    write(tmp_path, "base.toml", 'extends = "remastered-teams"\n[options]\n'
                                 'sevens_from_hell = true\n')
    top = write(tmp_path, "top.toml", 'extends = "base.toml"\n[options]\n'
                                      'take_whole_pile = true\nsevens_from_hell = true\n')
    p = load_profile(top)
    assert p.options == ("sevens_from_hell", "take_whole_pile")
    assert p.discard_locked_until_clean_book == (cards.SEVEN,) and p.pickup_count is None


@pytest.mark.parametrize(("a", "b"), option_pairs())
def test_exclusive_options_fail_naming_both(tmp_path: Path, a: str, b: str) -> None:
    name = next(n for n in OPTIONS[a].meant_for if n in OPTIONS[b].meant_for)
    path, msg = load_error(tmp_path, f'extends = "{name}"\n[options]\n{a} = true\n{b} = true\n')
    assert msg.startswith(f"{path}: [options] ")
    group = (set(OPTIONS[a].groups) & set(OPTIONS[b].groups)).pop()
    assert msg.endswith(f"cannot both be on: they are alternative rules for the {group}")
    for key in (a, b):
        assert f"{key} ({OPTIONS[key].id})" in msg
    with pytest.raises(ProfileError, match="cannot both be on"):
        load_profile(name, overrides={a: True, b: True})


def test_exclusive_option_against_the_base_options(tmp_path: Path) -> None:
    write(tmp_path, "base.toml", 'extends = "remastered-teams"\n[options]\n'
                                 'take_whole_pile = true\n')
    path, msg = load_error(tmp_path, 'extends = "base.toml"\n[options]\ntake_top_5 = true\n')
    assert msg == (f"{path}: [options] take_whole_pile (OPT-14) and take_top_5 (OPT-15) cannot "
                   "both be on: they are alternative rules for the pile pickup")


def test_unknown_option_suggests_one(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "remastered-teams"\n[options]\n'
                                     'sevens_from_hel = true\n')
    assert msg == (f"{path}: [options] sevens_from_hel: unknown option; did you mean "
                   "'sevens_from_hell'?")


@pytest.mark.parametrize("value", ["1", '"yes"', "[true]"])
def test_option_value_must_be_a_bool(tmp_path: Path, value: str) -> None:
    path, msg = load_error(tmp_path, f'extends = "remastered-teams"\n[options]\n'
                                     f'sevens_from_hell = {value}\n')
    assert msg.startswith(f"{path}: [options] sevens_from_hell: must be true or false, not ")


def test_option_in_a_parameter_section(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "remastered-teams"\n[game]\n'
                                     'sevens_from_hell = true\n')
    assert msg == (f"{path}: [game] sevens_from_hell: is an option (OPT-09), not a parameter: "
                   "switch it on in the [options] section")


def test_option_outside_any_section(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "remastered-teams"\nsevens_from_hell = true\n')
    assert msg == f"{path}: sevens_from_hell: belongs in the [options] section"


def test_parameter_in_the_options_section(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "remastered-teams"\n[options]\nrounds = 5\n')
    assert msg == (f"{path}: [options] rounds: is a parameter of the [game] section, not an "
                   "option")


def test_options_section_must_be_a_table(tmp_path: Path) -> None:
    path, msg = load_error(tmp_path, 'extends = "remastered-teams"\noptions = ["x"]\n')
    assert msg == f"{path}: [options] must be a table of parameters"


def test_switching_off_an_option_the_base_enables(tmp_path: Path) -> None:
    write(tmp_path, "base.toml", 'extends = "remastered-teams"\n[options]\n'
                                 'sevens_from_hell = true\n')
    path, msg = load_error(tmp_path, 'extends = "base.toml"\n[options]\n'
                                     'sevens_from_hell = false\n')
    assert msg.startswith(f"{path}: [options] sevens_from_hell: the profile this extends "
                          "switches it on")


def test_option_values_are_validated_as_a_whole(tmp_path: Path) -> None:
    # The option's parameters are checked with the rest: OPT-08's all-wild melds on, then
    # switched off explicitly while partnership-13 needs a wild book.
    with pytest.raises(ProfileError, match="wild_books_to_go_out"):
        apply_overrides(load_profile("partnership-13"),
                        {"singles_wild_books": True, "all_wild_melds": False}, origin="t")
