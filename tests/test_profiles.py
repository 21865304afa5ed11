"""Loading rule profiles: the built-in values of RULES-MATRIX §2, house-rule files, and the
errors a bad file gives (each naming the file, the key and the problem)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from handfoot import cards
from handfoot.rules import (
    FIELDS,
    SECTIONS,
    Layout,
    Profile,
    ProfileError,
    builtin_profile_names,
    load_profile,
    profile_from_mapping,
    profile_to_toml_values,
)


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
    assert builtin_profile_names() == ["partnership-13", "biegames"]


@pytest.mark.parametrize("name", ["partnership-13", "biegames"])
def test_builtin_profiles_load_with_their_names(name: str) -> None:
    p = load_profile(name)
    assert p.name == name
    assert p.title and p.source
    assert p.extends is None and p.overrides == ()


def test_partnership_13_matches_the_matrix() -> None:
    p = load_profile("partnership-13")
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


@pytest.mark.parametrize("name", ["partnership-13", "biegames"])
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
    text = (Path(__file__).parents[1] / "src/handfoot/profiles/biegames.toml").read_text()
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
    assert "pikcup: unknown key" in msg and "did you mean 'pickup'?" in msg


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
