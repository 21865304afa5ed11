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

from handfoot import rulebook
from handfoot.cli import main
from handfoot.rulebook import SECTION_TITLES, describe_profile, diff_profiles, profile_json
from handfoot.rules import (
    FIELDS,
    SECTIONS,
    Profile,
    ProfileError,
    apply_overrides,
    load_profile,
    profile_from_mapping,
)


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
    assert lines[2].startswith("biegames ")
    assert "2x2, 2x1" in lines[2] and "BieGames Hand and Foot, 11-card packets" in lines[2]
    assert "* default profile" in out


def test_rules_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "show", "partnership-13")
    assert code == 0
    assert out.startswith("Partnership Hand and Foot, 13-card packets (partnership-13)\n")
    for title in SECTION_TITLES:
        assert f"\n{title}\n" in out
    for sentence in [
        "4 players in 2 sides of 2 (partners sit opposite).",
        "5 decks of 54 cards (2 jokers each): 270 cards.",
        "Each player gets a 13-card Hand and a 13-card Foot.",
        "Opening minimums by round: 50, 90, 120, 150.",
        "Wild cards: naturals must be at least 2 × wilds (at most 1 wild in 3-5 cards, "
        "2 in 6-7).",
        "Going out needs 2 clean books, 2 dirty books and 1 all-wild book.",
        "Book bonuses: clean 500, dirty 300, all-wild 1500.",
    ]:
        assert f"  - {sentence}\n" in out


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
    assert code == 2 and "usage: handfoot" in err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--help")
    assert code == 0 and "list" in out and "show" in out and "diff" in out


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
    "first_player": ({}, "high_card"),
    "rounds": ({}, 3),
    "opening_minimums": ({}, [60, 90, 120, 150]),
    "draw_count": ({}, 3),
    "partial_last_draw": ({}, True),
    "min_meld_size": ({}, 4),
    "book_size": ({"book_max": "none"}, 8),
    "book_max": ({}, "none"),
    "new_meld_after_book": ({}, False),
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
    "pickup_melds_top": ({}, False),
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


def test_rulebook_ignores_the_name() -> None:
    p = load_profile("biegames")
    renamed = dataclasses.replace(p, name="partnership-13", title="x", source="y")
    assert describe_profile(renamed) == describe_profile(p)
    assert diff_profiles(p, renamed) == []
    assert not any("biegames" in s or "BieGames" in s for s in sentences(p))


def test_rulebook_sections() -> None:
    sections = describe_profile(load_profile("partnership-13"))
    assert tuple(title for title, _ in sections) == SECTION_TITLES
    assert all(lines for _, lines in sections)


def test_profile_json_reads_back() -> None:
    p = load_profile("biegames", overrides={"rounds": 1})
    data = profile_json(p)
    assert json.loads(json.dumps(data)) == data
    assert data["overrides"] == {"rounds": 1} and data["game"]["rounds"] == 1
    params = {key: data[key] for key in ("name", "title", "source", *SECTIONS)}
    assert dataclasses.replace(profile_from_mapping(params), extends=p.extends,
                               overrides=p.overrides) == p


@st.composite
def profiles(draw: st.DrawFn) -> Profile:
    """Random profiles: each parameter keeps its partnership-13 value or takes its variant."""
    chosen = [name for name in VARIANTS if draw(st.booleans())]
    changes: dict[str, Any] = {}
    for name in chosen:
        changes.update(VARIANTS[name][0])
    changes.update({name: VARIANTS[name][1] for name in chosen})
    try:
        return apply_overrides(load_profile("partnership-13"), changes, origin="random")
    except ProfileError:
        return load_profile("biegames")


@settings(max_examples=150, deadline=None, derandomize=True)
@given(profiles(), profiles())
def test_rulebook_reads_well_for_any_profile(a: Profile, b: Profile) -> None:
    for s in sentences(a) + diff_profiles(a, b):
        assert (s[0].isupper() or s[0].isdigit()) and s.endswith("."), s
        for bad in ("None", " 1 cards", " 1 wilds", " 1 points", " 1 decks", "  ", "..",
                    " ,", "_", "a 8", "a 11"):
            assert bad not in s, (bad, s)


def test_rulebook_doctest() -> None:
    result = doctest.testmod(rulebook)
    assert result.failed == 0 and result.attempted > 0
