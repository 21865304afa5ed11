"""The `handfoot rules` commands and the rulebook they print."""

from __future__ import annotations

import dataclasses
import doctest
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handfoot.cli import main
from handfoot.cli.rules import seatings_text
from handfoot.game import rulebook
from handfoot.game.differences import diff_profiles
from handfoot.game.loading import (
    OPTIONS,
    ProfileError,
    apply_overrides,
    builtin_profile_names,
    load_profile,
    profile_from_mapping,
)
from handfoot.game.reference import profile_json
from handfoot.game.rulebook import SECTION_TITLES, TABLETOP_FIELDS, describe_profile
from handfoot.game.rules import FIELDS, SECTIONS, Layout, Profile


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def sentences(p: Profile) -> list[str]:
    return [s for _, section in describe_profile(p) for s in section]


# --- the commands -----------------------------------------------------------------------


def test_rules_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "list")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["PROFILE", "SEATINGS", "TITLE"]
    assert lines[1].startswith("partnership-13*")
    assert "2x2" in lines[1] and "Partnership Hand and Foot, 13-card packets" in lines[1]
    rows = {line.split()[0]: line for line in lines[2:7]}
    assert set(rows) == set(builtin_profile_names()[1:])
    assert "2x2, 2x1" in rows["biegames"]
    assert "BieGames Hand and Foot, 11-card packets" in rows["biegames"]
    assert "2x2, 3x1, 2x3" in rows["hand-knee-foot"]
    assert "2x2, 2x3, 3x2, 2x4, 4x2" in rows["remastered-teams"]
    assert "2-8 players (singles, 3 by default)" in rows["remastered-singles"]
    assert "4x1" not in rows["remastered-singles"]
    assert "* default profile" in out and "handfoot rules options" in out


@pytest.mark.parametrize(("layouts", "text"), [
    (["2x2"], "2x2"),
    (["2x2", "2x1"], "2x2, 2x1"),
    (["3x1", "2x1", "4x1"], "2-4 players (singles, 3 by default)"),
    (["2x2", "2x1", "3x1", "4x1"], "2x2, 2-4 players (singles)"),
    (["2x1", "4x1", "5x1"], "2x1, 4x1, 5x1"),  # not a run: listed
])
def test_seatings_compact(layouts: list[str], text: str) -> None:
    assert seatings_text(tuple(Layout.parse(x) for x in layouts)) == text


def test_rules_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "options")
    assert code == 0 and err == ""
    from handfoot.cli.rules import for_people

    flat = " ".join(out.split())
    for option in OPTIONS.values():
        assert (f"{option.id}  {option.key}: {option.title}\n" in out
                or f"{option.key}: {option.title} (part of {option.id}, on its own)\n" in out)
        assert for_people(option.description) in flat  # wrapped, without citations
    assert "OPT-09  sevens_from_hell: Sevens From Hell\n" in out
    assert "    sets: discard_locked_until_clean_book = [\"7\"]\n" in out
    assert ("    sets: pickup_min_pile = 8, pickup_count = 8\n"
            "    exclusive group: pile pickup\n") in out
    assert "    exclusive group: red 3 penalty, black 3 penalty\n" in out
    assert "    meant for: remastered-teams, hand-knee-foot\n" in out
    assert out.count("    tabletop: yes") == sum(o.tabletop for o in OPTIONS.values())
    assert "[options]\n    sevens_from_hell = true" in out


def test_rules_options_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "options", "--json")
    assert code == 0
    data = json.loads(out)
    assert [o["key"] for o in data] == list(OPTIONS)
    by_key = {o["key"]: o for o in data}
    assert by_key["first_to_20000"] == {
        "id": "OPT-03", "key": "first_to_20000", "title": OPTIONS["first_to_20000"].title,
        "groups": ["game length"],
        "meant_for": ["remastered-singles", "remastered-teams", "hand-knee-foot"],
        "tabletop": False, "description": OPTIONS["first_to_20000"].description,
        "source": OPTIONS["first_to_20000"].source,
        "sets": {"target_score": 20000, "rounds": 100,
                 "score_band_minimums": [[-1, 15], [0, 60], [5000, 90], [10000, 120],
                                         [15000, 150]]},
    }
    assert by_key["penalty_unmeldable_pickup"]["tabletop"] is True
    assert by_key["take_whole_pile"]["sets"] == {"pickup_count": "all"}


def test_rules_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "show", "partnership-13")
    assert code == 0
    assert out.startswith("Partnership Hand and Foot, 13-card packets (partnership-13)\n")
    for title in SECTION_TITLES[:7]:
        assert f"\n{title}\n" in out
    for sentence in [
        "4 players in 2 sides of 2 (partners sit opposite).",
        "5 decks of 54 cards (2 jokers each): 270 cards.",
        "Each player gets a 13-card Hand and a 13-card Foot.",
        "Opening minimums by round: 50, 90, 120, 150.",
        "Wild cards: naturals must be at least 2 × wilds (at most 1 wild in 3-5 cards, "
        "2 in 6-7).",
        "Going out needs 2 clean books, 2 dirty books and 1 all-wild book.",
        "Book bonuses: clean 500, dirty 300, all-wild 1,500.",
    ]:
        assert f"  - {sentence}\n" in out
    assert "At a real table" not in out and "House options" not in out


def test_rules_show_biegames(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "show", "biegames")
    assert code == 0
    assert "One more deck than players" in out
    assert "5 decks (270 cards) for 4 players and 3 decks (162 cards) for 2 players" in out
    assert "Each player gets an 11-card Hand and an 11-card Foot." in out
    assert "naturals must outnumber wilds (at most 1 wild in 3-4 cards, 2 in 5-6, 3 in 7)" in out
    assert "A wild card on top blocks the pile." in out
    assert "every partner must have picked up their Foot" in out


def test_rules_show_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "show", "biegames", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["name"] == "biegames" and data["extends"] is None and data["overrides"] == {}
    assert data["players"]["layouts"] == ["2x2", "2x1"]
    assert data["deal"]["hand_size"] == 11
    assert data["melds"]["max_wilds"] == "none"
    assert data["pickup"]["pickup_count"] == 7
    assert data["options"] == {}
    assert {name for s in SECTIONS for name in data[s]} == set(FIELDS)


def test_rules_show_house_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ours.toml"
    path.write_text('extends = "biegames"\n[pickup]\npickup_count = "all"\n', encoding="utf-8")
    code, out, _ = run(capsys, "rules", "show", str(path))
    assert code == 0
    assert "House rules on biegames: pickup_count = \"all\"" in out
    assert "A player who takes the discard pile takes the whole pile." in out
    code, out, _ = run(capsys, "rules", "show", str(path), "--json")
    data = json.loads(out)
    assert data["name"] == "ours" and data["extends"] == "biegames"
    assert data["overrides"] == {"pickup_count": "all"}
    assert data["pickup"]["pickup_count"] == "all"


def test_rules_show_house_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hell.toml"
    path.write_text('extends = "remastered-teams"\n[options]\nsevens_from_hell = true\n'
                    'penalty_unmeldable_pickup = true\n', encoding="utf-8")
    code, out, _ = run(capsys, "rules", "show", str(path))
    assert code == 0
    assert out.endswith(
        "\nHouse options\n"
        "  - These optional rules are on; the rules above already include them.\n"
        "  - Sevens From Hell (OPT-09).\n"
        "  - Penalty: unmeldable pickup (OPT-23; at a real table only).\n")
    assert ("  - Nobody may discard a 7 until some player has a clean book of 7s; a player "
            "holding nothing else may discard one.\n") in out
    assert "\nAt a real table\n" in out
    assert "  - Taking the pile without being able to meld its top card costs 50 points.\n" in out
    code, out, _ = run(capsys, "rules", "show", str(path), "--json")
    data = json.loads(out)
    assert data["options"] == {"sevens_from_hell": True, "penalty_unmeldable_pickup": True}
    assert data["game"]["discard_locked_until_clean_book"] == ["7"]


def test_rules_show_every_builtin(capsys: pytest.CaptureFixture[str]) -> None:
    for name in builtin_profile_names():
        code, out, err = run(capsys, "rules", "show", name)
        assert code == 0 and err == "", name
        assert "House options" not in out, name


def test_rules_diff(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "diff", "partnership-13", "biegames")
    assert code == 0
    lines = {line.split(":")[0].strip(" -"): line for line in out.splitlines()[1:]}
    assert "partnership-13 deals 13 cards, biegames deals 11 cards" in lines["Hand size"]
    assert "2 × wilds" in lines["Wild cards in a meld"]
    assert "naturals must outnumber wilds" in lines["Wild cards in a meld"]
    assert "biegames does not allow melds of wild cards only" in lines["All-wild melds"]
    assert lines["Taking the pile with a wild on top"].endswith(
        "partnership-13 needs two like wilds melded with it, biegames does not allow it.")
    assert "1 all-wild book" in lines["Books to go out"]
    assert "picked up their Foot" in lines["The partner's Foot before going out"]
    assert out.startswith(f"partnership-13 and biegames differ in {len(lines)} rules:")


def test_rules_diff_new_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "diff", "remastered-singles", "hand-knee-foot")
    assert code == 0
    lines = {line.split(":")[0].strip(" -"): line for line in out.splitlines()[1:]}
    assert lines["Seating"].endswith(
        "Seating: remastered-singles is played by 2 to 8 single players; hand-knee-foot is "
        "played by 4 players in 2 sides of 2 (partners sit opposite); 3 single players; or 6 "
        "players in 2 sides of 3 (partners sit in every other seat).")
    assert ("Decks: remastered-singles uses one more deck than players (from 3 for 2 players "
            "to 9 for 8 players); hand-knee-foot uses two more decks than players (8 for 6 "
            "players, 6 for 4 players, 5 for 3 players).") in lines["Decks"]
    assert ("hand-knee-foot pays 3,000 for a clean book of 5s and 5,000 for a clean book of "
            "7s.") in lines["Special clean book bonuses"]
    assert ("remastered-singles requires none (a player may hold no cards); hand-knee-foot "
            "requires at least 1 after the discard.") in lines[
                "Cards to keep in the Foot when not going out"]
    assert "hand-knee-foot charges 1,000 points" in lines[
        "Reminding a partner of the Knee (at a real table only)"]
    assert "remastered-singles pays 100, hand-knee-foot pays 100" not in out


def test_rules_diff_equal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "diff", "biegames", "biegames")
    assert (code, out) == (0, "biegames and biegames: no differences\n")
    same = tmp_path / "same.toml"
    same.write_text('extends = "biegames"\n[game]\nrounds = 4\n', encoding="utf-8")
    code, out, _ = run(capsys, "rules", "diff", "biegames", str(same))
    assert code == 0 and out.endswith(": no differences\n")


def test_rules_diff_files_with_one_name(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a" / "t.toml", tmp_path / "b" / "t.toml"
    for path, rounds in ((a, 1), (b, 2)):
        path.parent.mkdir()
        path.write_text(f'extends = "biegames"\n[game]\nrounds = {rounds}\n', encoding="utf-8")
    code, out, _ = run(capsys, "rules", "diff", str(a), str(b))
    assert code == 0
    assert f"Rounds: {a} plays 1 round, {b} plays 2 rounds." in out


@pytest.mark.parametrize("argv", [
    ["rules", "show", "no-such-profile"],
    ["rules", "show", "missing.toml"],
    ["rules", "diff", "biegames", "missing.toml"],
])
def test_errors_exit_2_without_traceback(argv: list[str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("handfoot: error: ") and "Traceback" not in err


def test_bad_file_error_names_file_and_key(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('extends = "biegames"\n[pickup]\npickup_cout = 5\n', encoding="utf-8")
    code, _, err = run(capsys, "rules", "show", str(path))
    assert code == 2
    assert err == (f"handfoot: error: {path}: [pickup] pickup_cout: unknown parameter; "
                   "did you mean 'pickup_count'?\n")


@pytest.mark.parametrize("argv", [[], ["rules"], ["rules", "show"], ["nonsense"]])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.startswith("handfoot") and "--help shows the options" in err
    assert len(err.splitlines()) == 1  # one line naming the problem, not the whole usage


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--help")
    assert code == 0 and "list" in out and "show" in out and "diff" in out
    assert "options" in out


def test_rules_diff_names_the_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "capped.toml"
    path.write_text('extends = "remastered-singles"\n[options]\nbooks_capped_at_7 = true\n',
                    encoding="utf-8")
    code, out, _ = run(capsys, "rules", "diff", "remastered-singles", str(path))
    assert code == 0
    assert ("  - House option OPT-06 (Books capped at 7): remastered-singles has it off, "
            "capped has it on.\n") in out
    assert ("  - Largest book: remastered-singles lets books grow past 7 cards with naturals "
            "only, capped closes books at exactly 7 cards.\n") in out


# --- the rulebook covers every parameter ------------------------------------------------

# For every parameter: the profile changes to make (on partnership-13) so that it matters,
# and a different value for it.
VARIANTS: dict[str, tuple[dict[str, Any], Any]] = {
    "layouts": ({}, ["2x1"]),
    "decks_per_player": ({}, 1),
    "extra_decks": ({}, 6),
    "jokers_per_deck": ({}, 1),
    "hand_size": ({}, 11),
    "knee_size": ({}, 5),
    "foot_size": ({}, 11),
    "starter_cards": ({}, 3),
    "starter_rejected": ({}, ["red 3"]),
    "starter_check_all": ({"starter_cards": 3}, False),
    "hand_size_by_round": ({}, [13, 15, 17, 19]),
    "knee_auto_pickup": ({"knee_size": 5}, True),
    "first_player": ({}, "high_card"),
    "rounds": ({}, 3),
    "opening_minimums": ({}, [60, 90, 120, 150]),
    "target_score": ({}, 10000),
    "score_band_minimums": ({}, [[-1, 15], [0, 60], [5000, 90]]),
    "clean_book_opening_rounds": ({}, [4]),
    "foot_at_once": ({}, False),
    "discard_locked_until_clean_book": ({}, ["7"]),
    "announce_foot": ({}, True),
    "draw_count": ({}, 3),
    "partial_last_draw": ({}, True),
    "stalled_turns_each": ({}, 3),
    "min_meld_size": ({}, 4),
    "book_size": ({"book_max": "none"}, 8),
    "book_max": ({}, "none"),
    "new_meld_after_book": ({}, False),
    "new_meld_min_naturals": ({}, 3),
    "second_meld_of_rank": ({"book_max": "none"}, True),
    "unfinished_second_meld_negative": ({}, True),
    "naturals_per_wild": ({}, 1),
    "natural_margin": ({}, 1),
    "max_wilds": ({}, 1),
    "min_naturals_with_wild": ({}, 4),
    "wild_free_ranks": ({}, ["5", "7"]),
    "all_wild_melds": ({"wild_books_to_go_out": 0, "pickup_wild_top": "forbidden"}, False),
    "wild_meld_opens": ({}, False),
    "pickup_allowed": ({}, False),
    "pickup_count": ({}, "all"),
    "pickup_min_pile": ({}, 3),
    "pickup_needs_pair": ({}, False),
    "pickup_melds_top": ({"pickup_needs_pair": False, "stalled_turns_each": 3}, False),
    "pickup_black_three_blocks": ({}, False),
    "pickup_wild_top": ({}, "allowed"),
    "pickup_existing_meld": ({}, "merge"),
    "pickup_opening_counts": ({}, "all_picked"),
    "discard_after_pickup": ({}, False),
    "clean_books_to_go_out": ({}, 1),
    "dirty_books_to_go_out": ({}, 3),
    "wild_books_to_go_out": ({}, 0),
    "special_books_to_go_out": ({}, ["5", "7"]),
    "partner_condition": ({}, "finished_turn"),
    "permission": ({}, False),
    "permission_persists": ({}, True),
    "final_discard": ({}, "forbidden"),
    "min_cards_kept": ({}, 0),
    "value_joker": ({}, 40),
    "value_two": ({}, 25),
    "value_ace": ({}, 15),
    "value_eight_to_king": ({}, 11),
    "value_four_to_seven": ({}, 6),
    "black_three_penalty": ({}, 100),
    "red_three_bonus": ({}, 200),
    "red_three_penalty": ({}, 300),
    "red_three_bulk_count": ({}, 7),
    "red_three_bulk_bonus": ({"red_three_bulk_count": 7}, 300),
    "clean_book_bonus": ({}, 700),
    "dirty_book_bonus": ({}, 400),
    "wild_book_bonus": ({}, 2500),
    "special_book_bonus": ({}, {"5": 3000, "7": 5000}),
    "going_out_bonus": ({}, 0),
    "perfect_deal_bonus": ({}, 100),
    "dealer_bonus": ({}, [1000, 500, 300, 300]),
    "improper_meld_penalty": ({}, 500),
    "knee_reminder_penalty": ({"knee_size": 5}, 1000),
    "go_out_without_permission_penalty": ({}, 100),
    "failed_going_out_penalty": ({}, 100),
    "bad_pickup_penalty": ({}, 50),
}


def variant_pair(name: str) -> tuple[Profile, Profile]:
    context, value = VARIANTS[name]
    base = apply_overrides(load_profile("partnership-13"), context, origin="test")
    return base, apply_overrides(base, {name: value}, origin="test")


def test_variants_cover_every_parameter() -> None:
    assert set(VARIANTS) == set(FIELDS)


@pytest.mark.parametrize("name", list(FIELDS))
def test_rulebook_tells_every_parameter(name: str) -> None:
    base, changed = variant_pair(name)
    assert getattr(base, name) != getattr(changed, name)
    assert describe_profile(base) != describe_profile(changed)


@pytest.mark.parametrize("name", list(FIELDS))
def test_diff_says_every_parameter_once(name: str) -> None:
    base, changed = variant_pair(name)
    diff = diff_profiles(base, changed, names=("ours", "theirs"))
    assert len(diff) == 1
    assert "ours " in diff[0] and "theirs " in diff[0] and diff[0].endswith(".")
    assert diff_profiles(changed, changed) == []


@pytest.mark.parametrize("name", TABLETOP_FIELDS)
def test_tabletop_parameters_have_their_own_section(name: str) -> None:
    base, changed = variant_pair(name)
    sections = dict(describe_profile(changed))
    assert "At a real table" not in dict(describe_profile(base))
    table = sections["At a real table"]
    assert table[0].startswith("The software deals and checks every move, so it never applies")
    assert len(table) == 2
    assert dict(describe_profile(base))["Scoring"] == sections["Scoring"]
    assert "(at a real table only)" in diff_profiles(base, changed)[0]


# An option on a profile it is meant for whose rules it changes.
OPTION_BASES = {key: ("remastered-teams" if "remastered-teams" in o.meant_for else o.meant_for[0])
                for key, o in OPTIONS.items()}


@pytest.mark.parametrize("key", list(OPTIONS))
def test_rulebook_tells_every_option(key: str) -> None:
    option = OPTIONS[key]
    base = load_profile(OPTION_BASES[key])
    on = load_profile(OPTION_BASES[key], overrides={key: True})
    assert on.options == (key,)
    described = dict(describe_profile(on))
    assert "House options" not in dict(describe_profile(base))
    listed = described["House options"]
    assert listed[0] == "These optional rules are on; the rules above already include them."
    assert listed[1].startswith(f"{option.title} ({option.id}")
    assert ("at a real table only" in listed[1]) == option.tabletop
    diff = diff_profiles(base, on, names=("ours", "theirs"))
    named = [line for line in diff if line.startswith("House option ")]
    assert named == [f"House option {option.id} ({option.title}): ours has it off, theirs has "
                     "it on."]
    changed = {n for n, _ in option.sets if getattr(base, n) != getattr(on, n)}
    assert len(diff) == 1 + len(_rules_for(changed))


def _rules_for(names: set[str]) -> set[str]:
    """The diff lines (by label) that a set of changed parameters gives."""
    from handfoot.game.differences import _diff_rules

    return {rule.label for rule in _diff_rules() if names & set(rule.fields)}


def test_rulebook_ignores_the_name() -> None:
    for name in builtin_profile_names():
        p = load_profile(name)
        renamed = dataclasses.replace(p, name="partnership-13", title="x", source="y")
        assert describe_profile(renamed) == describe_profile(p)
        assert diff_profiles(p, renamed) == []
    p = load_profile("biegames")
    assert not any("biegames" in s or "BieGames" in s for s in sentences(p))


def test_rulebook_sections() -> None:
    for name in builtin_profile_names():
        sections = describe_profile(load_profile(name))
        titles = tuple(title for title, _ in sections)
        assert titles[:7] == SECTION_TITLES[:7], name
        assert set(titles[7:]) <= {"At a real table"}, name
        assert all(lines for _, lines in sections)
    p = load_profile("remastered-teams", overrides={"sevens_from_hell": True})
    assert tuple(title for title, _ in describe_profile(p)) == SECTION_TITLES


# What each built-in profile's rulebook says, generated from its parameters.
PROFILE_SENTENCES: dict[str, list[str]] = {
    "partnership-13": [
        "A book holds exactly 7 cards: nothing more may be added.",
        "Once a side has a book of a rank, it may start a new meld of that rank.",
        "If the side already has an unfinished meld of the top card's rank, the cards from the "
        "pickup must complete it into a book and also start a new meld.",
        "Before a player may go out, every partner must have played at least one card from "
        "their Foot.",
        "Permission holds only for the turn it is asked in.",
        "The last card may be melded or discarded.",
        "Nobody needs to announce picking up their Foot.",
    ],
    "remastered-singles": [
        "2 to 8 players, each on their own (3 by default).",
        "Each player plays alone: their melds and their score are their own.",
        "One more deck than players (54 cards each, with 2 jokers): from 3 decks (162 cards) "
        "for 2 players to 9 decks (486 cards) for 8 players.",
        "If it is a red 3, a black 3, a 2 or a joker, it goes back into the stock at a random "
        "place and another card is turned.",
        "The player who draws the highest card starts the first round; each later round starts "
        "one seat further clockwise.",
        "A game is 4 rounds; the player with the highest total wins.",
        "Opening minimums by round: 60, 90, 120, 150.",
        "Books grow past 7 cards with natural cards only; there is no second meld of a rank: "
        "further naturals of that rank go onto its book.",
        "Wild cards: naturals must outnumber wilds (at most 1 wild in 3-4 cards, 2 in 5-6, "
        "3 in 7).",
        "A meld may not be made of wild cards only.",
        "A player who takes the discard pile, instead of drawing, takes only its top card.",
        "No pair is needed: the top card then simply goes into the hand.",
        "A black 3 on top does not block the pile.",
        "A wild card on top may be taken like any other card.",
        "The pile may not be taken when its top card could complete one of the player's melds "
        "into a book (say, a 7th card on their 6-card meld).",
        "Going out needs 1 clean book and 1 dirty book.",
        "A player must go out with a discard: the last card may not be melded.",
        "A player in their Foot may hold no cards without going out: their turn then ends, and "
        "they draw as usual on their next turn.",
        "Each black 3 left in a Hand or Foot costs 100 points.",
        "Book bonuses: clean 700, dirty 300.",
        "A player who deals themselves exactly the 22 cards of their Hand and Foot scores a "
        "perfect-deal bonus of 100 points.",
    ],
    "remastered-teams": [
        "Other seatings: 6 players in 2 sides of 3 (partners sit in every other seat); 6 "
        "players in 3 sides of 2 (partners sit in every third seat); 8 players in 2 sides of 4 "
        "(partners sit in every other seat); 8 players in 4 sides of 2 (partners sit in every "
        "fourth seat).",
        "One more deck than players (54 cards each, with 2 jokers): 9 decks (486 cards) for 8 "
        "players, 7 decks (378 cards) for 6 players and 5 decks (270 cards) for 4 players.",
        "3 cards are turned up to start the discard pile.",
        "If the top one is a red 3, a black 3, a 2 or a joker, it goes back into the stock at a "
        "random place and another card is turned; the cards under it are not checked.",
        "Wild cards: naturals must outnumber wilds and a meld holds at most 2 wilds (at most 1 "
        "wild in 3-4 cards, 2 in 5-7).",
        "An all-wild meld may not be part of a side's opening.",
        "A player who takes the discard pile takes its top 3 cards, or the whole pile if it is "
        "smaller.",
        "A wild card on top blocks the pile.",
        "The pile may not be taken when the side already has a meld or book of the top card's "
        "rank.",
        "Going out needs 2 clean books and 3 dirty books.",
        "Before a player may go out, every partner must have finished at least one turn "
        "holding their Foot.",
        "Permission, once granted, lasts for the rest of the round: the player need not ask "
        "again.",
        "A player must go out by melding every card: the last card may not be discarded.",
        "Book bonuses: clean 700, dirty 300, all-wild 1,500.",
        "A side that lays down an opening below the minimum takes the cards back and loses 500 "
        "points.",
    ],
    "hand-knee-foot": [
        "Other seatings: 3 players, each on their own; 6 players in 2 sides of 3 (partners sit "
        "in every other seat).",
        "Two more decks than players (54 cards each, with 2 jokers): 8 decks (432 cards) for 6 "
        "players, 6 decks (324 cards) for 4 players and 5 decks (270 cards) for 3 players.",
        "Each player gets a 15-card Hand and an 11-card Foot.",
        "Each player also gets a 13-card Knee, picked up once their side completes its first "
        "book; the player picks it up themselves.",
        "Melds of 5s and 7s may never hold a wild card.",
        "A player who takes the discard pile takes the whole pile.",
        "A wild card on top may be taken only with two like wilds (two 2s for a 2, two jokers "
        "for a joker), melded with it in an all-wild meld.",
        "When a side opens with a pickup, every card taken from the pile may be melded at once "
        "and counts toward the opening minimum.",
        "A turn that began with taking the pile ends without a discard: the player knocks.",
        "A player goes out by playing their last card once they have picked up both their Knee "
        "and their Foot; going out ends the round.",
        "Going out needs a clean book of 5s, a clean book of 7s, 1 more clean book, 1 dirty "
        "book and 1 all-wild book.",
        "Each black 3 left in a Hand, Knee or Foot costs 500 points.",
        "A side that lays down 7 or more red 3s scores 300 points for each instead.",
        "Book bonuses: clean 500, dirty 300, all-wild 2,500.",
        "Instead of the clean-book bonus, a side scores 3,000 for a clean book of 5s and 5,000 "
        "for a clean book of 7s.",
        "Going out scores 200 points.",
        "A player who deals themselves exactly the 39 cards of their Hand, Knee and Foot "
        "scores a perfect-deal bonus of 100 points for their side.",
        "A player who reminds a partner to pick up their Knee loses 1,000 points.",
    ],
    "biegames": [
        "Other seatings: 2 players, each on their own.",
        "A player without partners is a side of their own.",
        "A player chosen at random starts the first round; each later round starts one seat "
        "further clockwise.",
        "If the side already has an unfinished meld of the top card's rank, the top card goes "
        "onto that meld; any cards past a full book must form a new meld.",
        "Before a player may go out, every partner must have picked up their Foot.",
    ],
    "bicycle": [
        "5 decks of 54 cards (2 jokers each): 270 cards.",
        "A player must announce to the table that they are picking up their Foot (it changes "
        "nothing in play or scoring).",
        "Wild cards: a meld with a wild needs at least 4 naturals (no wilds in 3-4 cards, at "
        "most 1 wild in 5, 2 in 6, 3 in 7).",
        "A player may go out whatever their partners have done with their Foot.",
        "A player need not ask partners for permission to go out.",
        "A player must go out with a discard: the last card may not be melded.",
        "Each red 3 laid down scores 5 points; each one left in a Hand or Foot costs 5 points.",
        "Going out scores no bonus.",
    ],
}


@pytest.mark.parametrize("name", list(PROFILE_SENTENCES))
def test_rulebook_of_each_profile(name: str) -> None:
    said = sentences(load_profile(name))
    for sentence in PROFILE_SENTENCES[name]:
        assert sentence in said, sentence
    assert len(said) == len(set(said))


def test_profile_sentences_cover_every_builtin() -> None:
    assert set(PROFILE_SENTENCES) == set(builtin_profile_names())


@pytest.mark.parametrize(("changes", "sentence"), [
    ({"hand_size_by_round": [13, 15, 17, 19]},
     "Each player gets a Hand of 13 cards in round 1, 15 in round 2, 17 in round 3 and 19 in "
     "round 4, and a 13-card Foot."),
    ({"hand_size_by_round": [13, 15], "rounds": 4},
     "Each player gets a Hand of 13 cards in round 1 and 15 from round 2 on, and a 13-card "
     "Foot."),
    ({"knee_size": 5, "knee_auto_pickup": True},
     "Each player also gets a 5-card Knee, picked up once their side completes its first "
     "book; it is added to the player's cards automatically."),
    ({"target_score": 10000, "rounds": 100},
     "Rounds are played until a side has 10,000 points or more at the end of a round (at most "
     "100 rounds); the side with the highest total then wins."),
    ({"target_score": 10000, "rounds": 100},
     "Opening minimums by round: 50, 90, 120, 150, then 150 in every later round."),
    ({"score_band_minimums": [[-1, 15], [0, 60], [5000, 90], [10000, 120], [15000, 150]]},
     "A side's opening minimum goes by its total before the round: 15 below 0 points, 60 "
     "from 0, 90 from 5,000, 120 from 10,000 and 150 from 15,000."),
    ({"rounds": 5, "clean_book_opening_rounds": [5]},
     "In round 5, a side's opening must instead include a clean book of 7 cards laid from the "
     "hand, with no point minimum."),
    ({"rounds": 5, "clean_book_opening_rounds": [5]},
     "Opening minimums by round: 50, 90, 120, 150, none."),
    ({"rounds": 6, "clean_book_opening_rounds": [2]},
     "Opening minimums by round: 50, none, 120, 150, then 150 in every later round."),
    ({"foot_at_once": False},
     "A player who empties their Hand, even by melding, picks up the Foot only on their next "
     "turn, after drawing or taking the pile."),
    ({"discard_locked_until_clean_book": ["7"]},
     "Nobody may discard a 7 until some player has a clean book of 7s; a player holding "
     "nothing else may discard one."),
    ({"discard_locked_until_clean_book": ["7", "8"]},
     "Nobody may discard a 7 or an 8 until some player has a clean book of that rank; a player "
     "holding nothing else may discard one."),
    ({"book_max": "none", "second_meld_of_rank": True, "new_meld_min_naturals": 3},
     "A book may grow past 7 cards with natural cards only; instead, the side may start a "
     "second meld of that rank once its first is a book with at least 3 natural cards."),
    ({"new_meld_min_naturals": 3},
     "Once a side has a book of a rank, it may start a new meld of that rank with at least 3 "
     "natural cards."),
    ({"new_meld_after_book": False},
     "Once a side has a book of a rank, no more cards of that rank may be melded: there is no "
     "second meld of a rank."),
    ({"book_max": 9},
     "Once a side's book of a rank holds 9 cards, it may start a new meld of that rank."),
    ({"unfinished_second_meld_negative": True},
     "The cards of a second meld of a rank that is not a book at the end of the round count "
     "against its side instead."),
    ({"dealer_bonus": [1000, 500, 300, 300], "perfect_deal_bonus": 0},
     "The dealer scores 1,000 for an exact deal, 500 for 1 card off, 300 for 2 or 3 cards off "
     "and nothing for more."),
    ({"perfect_deal_bonus": 100, "hand_size_by_round": [13, 15, 17, 19], "foot_size": 11},
     "A player who deals themselves exactly the cards of their Hand and Foot (24 to 30, by "
     "round) scores a perfect-deal bonus of 100 points for their side."),
    ({"go_out_without_permission_penalty": 100},
     "Trying to go out without permission, or after partners said no, costs 100 points."),
    ({"failed_going_out_penalty": 100},
     "Being unable to go out after asking for and receiving permission costs 100 points."),
    ({"bad_pickup_penalty": 50},
     "Taking the pile without being able to meld its top card costs 50 points."),
    ({"pickup_count": "all", "pickup_needs_pair": False, "pickup_melds_top": False,
      "stalled_turns_each": 3},
     "No pair is needed: the top card then joins the hand with the rest of the cards taken."),
    ({"stalled_turns_each": 2},
     "The round also ends, with no going-out bonus, once every player in turn has had 2 "
     "turns in a row in which nobody drew from the stock or laid a card on the table."),
])
def test_rulebook_sentences(changes: dict[str, Any], sentence: str) -> None:
    p = apply_overrides(load_profile("partnership-13"), changes, origin="test")
    assert sentence in sentences(p)


def test_tabletop_values_that_cannot_matter_are_not_told() -> None:
    p = apply_overrides(load_profile("partnership-13"),
                        {"knee_reminder_penalty": 1000, "permission": False,
                         "go_out_without_permission_penalty": 100,
                         "failed_going_out_penalty": 100, "pickup_allowed": False,
                         "bad_pickup_penalty": 50}, origin="test")
    assert "At a real table" not in dict(describe_profile(p))


def test_profile_json_reads_back() -> None:
    p = load_profile("biegames", overrides={"rounds": 1})
    data = profile_json(p)
    assert json.loads(json.dumps(data)) == data
    assert data["overrides"] == {"rounds": 1} and data["game"]["rounds"] == 1
    params = {key: data[key] for key in ("name", "title", "source", "options", *SECTIONS)}
    assert dataclasses.replace(profile_from_mapping(params), extends=p.extends,
                               overrides=p.overrides) == p


def test_profile_json_reads_back_with_options() -> None:
    p = load_profile("remastered-teams", overrides={"sevens_from_hell": True,
                                                    "first_to_10000": True, "rounds": 20})
    data = profile_json(p)
    assert data["options"] == {"first_to_10000": True, "sevens_from_hell": True}
    params = {key: data[key] for key in ("name", "title", "source", "options", *SECTIONS)}
    assert dataclasses.replace(profile_from_mapping(params), extends=p.extends,
                               overrides=p.overrides) == p


@st.composite
def profiles(draw: st.DrawFn) -> Profile:
    """Random profiles: each parameter keeps its partnership-13 value or takes its variant,
    and some options are switched on."""
    chosen = [name for name in VARIANTS if draw(st.booleans())]
    changes: dict[str, Any] = {}
    for name in chosen:
        changes.update(VARIANTS[name][0])
    changes.update({name: VARIANTS[name][1] for name in chosen})
    keys = draw(st.lists(st.sampled_from(list(OPTIONS)), max_size=3, unique=True))
    options = {key: True for key in keys}
    base = draw(st.sampled_from(builtin_profile_names()))
    try:
        p = apply_overrides(load_profile(base), options, origin="random")
    except ProfileError:
        p = load_profile(base)
    try:
        return apply_overrides(p, changes, origin="random")
    except ProfileError:
        return p


@settings(max_examples=200, deadline=None, derandomize=True)
@given(profiles(), profiles())
def test_rulebook_reads_well_for_any_profile(a: Profile, b: Profile) -> None:
    for s in sentences(a) + diff_profiles(a, b):
        assert (s[0].isupper() or s[0].isdigit()) and s.endswith("."), s
        for bad in ("None", " 1 cards", " 1 wilds", " 1 points", " 1 decks", "  ", "..",
                    " ,", "_", "a 8", "a 11", "their player", " 1 rounds", "()", ".)."):
            assert bad not in s, (bad, s)


def test_rulebook_doctest() -> None:
    result = doctest.testmod(rulebook)
    assert result.failed == 0 and result.attempted > 0
