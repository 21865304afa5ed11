"""Where the learned level finds its style: one ships for every built-in profile (and
remastered-singles' two-player seating), a house rule plays the style of the built-in
profile it extends, a profile related to none plays untuned and says so (command line and
lobby API); the expert searches with the style; tuning at more than two sides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from handfoot.bots.heuristic import HardBot, settings_of
from handfoot.bots.registry import make_bot
from handfoot.bots.search import ExpertBot
from handfoot.bots.styles import Style, StyledBot, find_style, style_stems
from handfoot.cli.options import LEARNED_HELP, untuned_note
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout, Profile
from handfoot.runs.tune import DEFAULTS, play_rotation, spec, tune
from handfoot.runs.tune import main as tune_main

PROFILES = Path(__file__).resolve().parents[1] / "src" / "handfoot" / "game" / "profiles"


def _first_view_settings(bot: HardBot, profile: Profile,
                         layout: Layout | None = None) -> dict[str, bool | int | float]:
    state = GameState.new(profile, layout=layout or profile.layout, seed=3)
    bot.choose(state.view(state.to_act))
    return settings_of(bot)


@pytest.mark.parametrize("name", builtin_profile_names())
def test_every_built_in_profile_has_a_style_with_its_card(name: str) -> None:
    profile = load_profile(name)
    found = find_style(profile)
    assert found is not None, f"no style ships for {name}"
    stem, style = found
    assert stem == name  # its own, tuned at its first seating
    card = style.card
    assert card["profile"] == name and card["spec"] == spec(style.settings)
    assert style.settings and all(v != DEFAULTS[k] for k, v in style.settings.items())
    for key in ("seed", "budget", "pairs_per_step", "history"):
        assert key in card, f"{name}: the card has no {key}"
    # measured against hard on deals the tuning never saw
    evaluations = [card["evaluation"]] if "evaluation" in card else []
    evaluations += card.get("evaluations", [])
    assert any(ev["pairs"] >= 500 and 0 <= ev["win_rate"] <= 1 for ev in evaluations), name
    # the learned level plays it at that seating
    assert _first_view_settings(StyledBot(1), profile) == settings_of(
        make_bot(spec(style.settings), 1))


def test_two_player_singles_has_a_style_of_its_own() -> None:
    singles = load_profile("remastered-singles")
    assert style_stems(singles, Layout(2, 1)) == ["remastered-singles.2x1", "remastered-singles"]
    two = find_style(singles, Layout(2, 1))
    three = find_style(singles, Layout(3, 1))
    assert two is not None and three is not None
    assert two[0] == "remastered-singles.2x1" and three[0] == "remastered-singles"
    assert two[1].card["layout"] == "2x1" and three[1].card["layout"] == "3x1"
    # a seating without a style of its own plays the profile's
    five = find_style(singles, Layout(5, 1))
    assert five is not None and five[0] == "remastered-singles"
    bot = StyledBot(1)
    assert _first_view_settings(bot, singles, Layout(2, 1)) == settings_of(
        make_bot(spec(two[1].settings), 1))


def _house(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_house_rule_plays_the_style_of_the_built_in_it_extends(tmp_path: Path) -> None:
    house = load_profile(_house(tmp_path, "our-table", 'extends = "bicycle"\n[game]\nrounds = 2\n'))
    assert house.name == "our-table" and house.extends == "bicycle"
    parent = find_style(load_profile("bicycle"))
    found = find_style(house)
    assert parent is not None and found is not None
    assert found[0] == "bicycle" and found[1] is parent[1]
    # a chain of two house files still reaches the built-in profile's style
    _house(tmp_path, "base", 'extends = "hand-knee-foot"\n[game]\nrounds = 3\n')
    chained = load_profile(_house(tmp_path, "chained", 'extends = "base.toml"\n'
                                  '[game]\nrounds = 2\n'))
    found = find_style(chained)
    assert found is not None and found[0] == "hand-knee-foot"
    # the learned level plays it, and nothing says "untuned"
    assert _first_view_settings(StyledBot(2), house) == settings_of(
        make_bot(spec(parent[1].settings), 2))
    assert untuned_note(house, house.layout, ["learned", "hard"]) is None


def test_a_profile_related_to_no_built_in_one_plays_untuned_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (PROFILES / "biegames.toml").read_text(encoding="utf-8")
    text = text.replace('name = "biegames"', 'name = "homebrew"', 1)
    path = _house(tmp_path, "homebrew", text)
    homebrew = load_profile(path)
    assert homebrew.name == "homebrew" and homebrew.extends is None
    assert find_style(homebrew) is None
    bot = StyledBot(1)
    assert _first_view_settings(bot, homebrew) == settings_of(HardBot(1))
    assert bot.style is None
    note = untuned_note(homebrew, homebrew.layout, ["learned", "hard"])
    assert note is not None and "untuned" in note and "homebrew" in note
    assert untuned_note(homebrew, homebrew.layout, ["hard", "normal"]) is None
    # the command line says it when it plays, and --help says when it would
    from handfoot.cli import main as cli_main

    assert cli_main(["simulate", "--profile", str(path), "--set", "rounds=1", "--bots",
                     "learned", "--games", "1", "--json"]) == 0
    assert "learned plays untuned on homebrew" in capsys.readouterr().err
    try:
        cli_main(["simulate", "--help"])
    except SystemExit as exc:
        assert exc.code == 0
    helped = " ".join(capsys.readouterr().out.split())
    assert " ".join(LEARNED_HELP.split()) in helped


def test_the_lobby_api_says_where_learned_plays_untuned(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from handfoot.web.app import learned_styles

    assert learned_styles(load_profile("remastered-singles"))["2x1"] == "remastered-singles.2x1"
    assert set(learned_styles(load_profile("biegames")).values()) == {"biegames"}
    text = (PROFILES / "bicycle.toml").read_text(encoding="utf-8")
    homebrew = load_profile(_house(tmp_path, "mine", text.replace('name = "bicycle"',
                                                                  'name = "mine"', 1)))
    assert learned_styles(homebrew) == {"2x2": None}


def test_the_expert_searches_with_the_learned_style(monkeypatch: pytest.MonkeyPatch) -> None:
    bicycle = load_profile("bicycle")
    found = find_style(bicycle)
    assert found is not None
    expert = ExpertBot(1, time_budget=None, iterations=2)
    assert _first_view_settings(expert, bicycle) == settings_of(
        make_bot(spec(found[1].settings), 1))
    assert expert.style is found[1]
    plain = ExpertBot(1, time_budget=None, iterations=2, shipped=False)
    assert _first_view_settings(plain, bicycle) == settings_of(HardBot(1))
    given = ExpertBot(1, time_budget=None, iterations=2, style=Style({"hold": 1}, {}))
    assert given.hold == 1
    # every seat of its play-outs plays the style too
    from handfoot.bots import search

    made: list[HardBot] = []

    class Spy(HardBot):
        def __init__(self, seed: int | None = None) -> None:
            super().__init__(seed)
            made.append(self)

    monkeypatch.setattr(search, "HardBot", Spy)
    quick = load_profile("bicycle", overrides={"rounds": 1})
    state = GameState.new(quick, seed=4)
    searcher = ExpertBot(1, time_budget=None, iterations=1, scope="all")
    others = [make_bot("hard", s) for s in range(4)]
    while searcher.searched == 0:
        seat = state.to_act
        bot = searcher if seat == 0 else others[seat]
        state.apply_action(bot.choose(state.view(seat)))
    assert made and all(settings_of(b) == settings_of(make_bot(spec(found[1].settings), 0))
                        for b in made)


def test_rotation_plays_each_side_once_per_deal_and_tunes_at_three_players(
        tmp_path: Path) -> None:
    quick = load_profile("remastered-singles", overrides={"rounds": 1})
    games = play_rotation(quick, "3x1", ("hard", "hard"), 5, 0)
    assert len(games) == 3
    for won, above, _diff in games:
        assert 0 <= won <= 1 and 0 <= above <= 1
    _settings, steps = tune(quick, pairs=2, seed=4, steps=2, layout=Layout(3, 1),
                           order=["feed_taken"])
    assert [s.setting for s in steps] == ["feed_taken", "feed_taken"]
    with pytest.raises(ValueError, match="not a tuned setting"):
        tune(quick, pairs=2, seed=4, steps=1, order=["nope"])
    assert tune_main(["--profile", "remastered-singles", "--layout", "2x1", "--pairs", "1",
                      "--steps", "1", "--workers", "1", "--eval-pairs", "0",
                      "--order", "greedy_hand", "--start", "hard:feed_taken=40",
                      "--out", str(tmp_path)]) == 0
    card = json.loads((tmp_path / "remastered-singles.2x1.style.json").read_text())
    assert card["layout"] == "2x1" and card["order"] == ["greedy_hand"]
    assert card["start"]["spec"] == "hard:feed_taken=40"
    assert card["history"][0]["setting"] == "greedy_hand"
    path = tmp_path / "remastered-singles.2x1.style.json"
    assert tune_main(["--profile", "remastered-singles", "--layout", "2x1", "--evaluate",
                      str(path), "--eval-seed", "9", "--eval-pairs", "1",
                      "--workers", "1"]) == 0
    assert json.loads(path.read_text())["evaluations"][-1]["seed"] == 9
    assert tune_main(["--profile", "biegames", "--layout", "3x1", "--steps", "1"]) == 2


def test_the_lobby_shows_each_measured_level_s_rating(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("starlette")
    from handfoot.runs.ratings import Rating
    from handfoot.web import app

    anchors = {"random": Rating(-4.41, 4.95), "hard": Rating(27.14, 1.2),
               "learned": Rating(28.96, 1.1), "nobody": Rating(30.0, 1.0)}
    monkeypatch.setattr(app, "BOT_ANCHORS", anchors)
    # one decimal; a name that is no level shows none
    assert app.level_ratings() == {"random": -4.4, "hard": 27.1, "learned": 29.0}
