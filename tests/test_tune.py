"""Bot settings, bot specs, styles and their tuning by self-play (handfoot.runs.tune)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from handfoot.bots.heuristic import (
    SETTINGS,
    EasyBot,
    HardBot,
    NormalBot,
    RandomBot,
    configure,
    settings_of,
)
from handfoot.bots.registry import check_bot, make_bot, parse_spec
from handfoot.bots.styles import Style, find_style, load_style
from handfoot.cli import main as cli_main
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout
from handfoot.runs.sim import play_game
from handfoot.runs.tournament import run_tournament
from handfoot.runs.tune import DEFAULTS, STEPS, _neighbours, _z, evaluate, spec, tune
from handfoot.runs.tune import main as tune_main

QUICK = load_profile("biegames", overrides={"rounds": 1})
PROFILES = Path(__file__).resolve().parents[1] / "src" / "handfoot" / "game" / "profiles"


def profile_from_toml_copy(builtin: str, name: str) -> Path:
    """A complete profile file: the built-in one's TOML under another name (it extends
    nothing), in a fresh temporary folder."""
    import tempfile

    folder = Path(tempfile.mkdtemp())
    text = (PROFILES / f"{builtin}.toml").read_text(encoding="utf-8")
    path = folder / f"{name}.toml"
    path.write_text(text.replace(f'name = "{builtin}"', f'name = "{name}"', 1), encoding="utf-8")
    return path


# -- settings ---------------------------------------------------------------------------


def test_every_setting_is_tuned_and_hard_has_them_all() -> None:
    assert set(STEPS) == set(SETTINGS) == set(DEFAULTS)
    assert settings_of(RandomBot(1)) == {} == settings_of(EasyBot(1))
    normal = settings_of(NormalBot(1))
    assert "hold" in normal and "feed_taken" not in normal  # hard's own
    assert settings_of(HardBot(1))["hold"] == 2


def test_configure_converts_text_and_checks_every_value_first() -> None:
    bot = HardBot(1)
    configure(bot, {"hold": "1", "keep_pair": "80.5", "hold_new": "no", "danger_cards": 4})
    assert (bot.hold, bot.keep_pair, bot.hold_new, bot.danger_cards) == (1, 80.5, False, 4)
    before = settings_of(bot)
    for bad, words in [({"hold": "two"}, "not a whole number"),
                       ({"hold": 1.5}, "not a whole number"),
                       ({"hold": True}, "not a whole number"),
                       ({"hold": -1}, "negative"),
                       ({"keep_pair": "nan"}, "not a finite number"),
                       ({"keep_pair": "inf"}, "not a finite number"),
                       ({"keep_pair": "x"}, "not a number"),
                       ({"hold_new": "maybe"}, "not true or false"),
                       ({"hold_new": 2}, "not true or false"),
                       ({"holds": 1}, "unknown setting 'holds'")]:
        with pytest.raises(ValueError, match=words):
            configure(bot, {"keep_extra": 1.0, **bad})  # the valid one is not set either
        assert settings_of(bot) == before
    with pytest.raises(ValueError, match="not a value"):
        configure(bot, {"hold": [1]})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="unknown setting 'feed_taken'"):
        configure(NormalBot(1), {"feed_taken": 1})  # hard's own


def test_a_setting_changes_play() -> None:
    def totals(bot_name: str) -> tuple[int, ...]:
        bots = [make_bot(bot_name if s % 2 == 0 else "hard", s) for s in range(4)]
        state, _ = play_game(QUICK, 3, bots, state=GameState.new(QUICK, seed=3))
        return tuple(state.totals)

    assert totals("hard:hold=0") != totals("hard") == totals("hard:hold=2")


def _one_round(profile: str, name: str, seed: int) -> tuple[tuple[int, ...], int]:
    p = load_profile(profile, overrides={"rounds": 1})
    bots = [make_bot(name if s % 2 == 0 else "hard", s) for s in range(4)]
    summary = play_game(p, seed, bots)[1]
    return tuple(summary.totals), summary.actions


def test_keep_special_keeps_the_special_ranks_and_acts_only_where_there_are_some() -> None:
    # hand-knee-foot's clean books of 5s and 7s score 3,000 and 5,000: a 5 is worth keeping
    # 150 more per 50 of the setting (3 per 1,000 points of bonus), a 7 250 more, an 8 the same
    p = load_profile("hand-knee-foot")
    state = GameState.new(p, seed=4)
    view = state.view(state.to_act)
    counts = [0] * cards.NUM_KINDS
    hard, special = HardBot(1), make_bot("hard:keep_special=50", 1)
    assert isinstance(special, HardBot)
    for kind, more in ((cards.FIVE, 150.0), (cards.SEVEN, 250.0), (cards.EIGHT, 0.0)):
        assert special._keep_score(view, counts, kind) - hard._keep_score(
            view, counts, kind) == pytest.approx(more)
    seeds = range(1, 4)
    assert any(_one_round("hand-knee-foot", "hard:keep_special=50", s)
               != _one_round("hand-knee-foot", "hard", s) for s in seeds)
    # no special books in biegames: the same games as hard's
    assert all(_one_round("biegames", "hard:keep_special=50", s)
               == _one_round("biegames", "hard", s) for s in seeds)


def test_dirty_need_zero_keeps_clean_melds_clean() -> None:
    # hard finishes a clean meld of four naturals or more with up to two wilds (a dirty
    # book now); dirty_need=0 leaves it clean, waiting for naturals
    from handfoot.bots.heuristic import _build, _kind_counts

    p = load_profile("remastered-teams", overrides={"rounds": 1})
    assert _one_round(p.name, "hard:dirty_need=2", 2) == _one_round(p.name, "hard", 2)
    assert any(_one_round(p.name, "hard:dirty_need=0", s) != _one_round(p.name, "hard", s)
               for s in range(1, 4))

    def wilded(groups: list[Any]) -> set[int]:
        return {g.target for g in groups if g.target <= cards.ACE and g.twos + g.jokers}

    differ = 0
    for seed in range(1, 6):
        state = GameState.new(p, seed=seed)
        bots = [HardBot(s) for s in range(4)]
        while not state.is_over:
            view = state.view(state.to_act)
            counts = _kind_counts(view.hand)
            careful, clean = _build(view, counts), _build(view, counts, dirty_need=0)
            if careful != clean:
                differ += 1
                assert wilded(careful) - wilded(clean), (careful, clean)
            state.apply_action(bots[state.to_act].choose(view))
    assert differ, "no position where the two differ"


def test_short_pickup_off_never_takes_fewer_cards_than_the_stock_gives() -> None:
    # remastered-singles takes only the pile's top card (one) where the stock gives two:
    # with short_pickup=false the bot draws instead; hard (true) takes it at times
    p = load_profile("remastered-singles", overrides={"rounds": 1})
    layout = Layout(2, 1)
    picked = {"hard": 0, "hard:short_pickup=false": 0}
    for name in picked:
        for seed in range(1, 6):
            state = GameState.new(p, layout=layout, seed=seed)
            bots = [make_bot(name, seed * 2 + s) for s in range(2)]
            while not state.is_over:
                view = state.view(state.to_act)
                action = bots[state.to_act].choose(view)
                if action == mv.PICKUP:
                    assert view.pickup_size >= p.draw_count or name == "hard"
                    picked[name] += 1
                state.apply_action(action)
    assert picked["hard"] > 0 and picked["hard:short_pickup=false"] == 0


# -- bot specs --------------------------------------------------------------------------


def test_specs_make_configured_bots() -> None:
    assert parse_spec("hard") == ("hard", {})
    assert parse_spec("hard:hold=1: keep_pair = 80") == ("hard", {"hold": "1",
                                                                  "keep_pair": "80"})
    bot = make_bot("hard:hold=1:keep_pair=80", 1)
    assert isinstance(bot, HardBot) and (bot.hold, bot.keep_pair) == (1, 80.0)
    assert make_bot("normal:hold_new_above=5", 1).hold_new_above == 5  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "words"), [
    ("genius:hold=1", "unknown bot 'genius'"),
    ("hard:hold", "write each setting as :name=value"),
    ("hard:", "write each setting as :name=value"),
    ("hard:=1", "write each setting as :name=value"),
    ("hard:hold=1:hold=2", "hold is given twice"),
    ("hard:hold=x", "bot 'hard:hold=x': setting hold: 'x' is not a whole number"),
    ("random:hold=1", "unknown setting 'hold' for this bot; its settings: none"),
    ("normal:safe_unseen=1", "unknown setting 'safe_unseen'"),
])
def test_bad_specs_say_why(name: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        check_bot(name)


def test_tournaments_play_specs(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_tournament(QUICK, ["hard:hold=0", "hard"], games=2, seed=1)
    assert result.bot_stats["hard:hold=0"].games == 4
    assert cli_main(["tournament", "--profile", "biegames", "--set", "rounds=1", "--bots",
                     "hard:hold_new_above=6,hard", "--games", "1", "--seed", "2"]) == 0
    assert "hard:hold_new_above=6" in capsys.readouterr().out
    assert cli_main(["tournament", "--bots", "hard:hold=x,hard", "--games", "1"]) == 2
    assert "setting hold: 'x' is not a whole number" in capsys.readouterr().err
    with pytest.raises(ValueError, match="unknown setting"):
        run_tournament(QUICK, ["hard:nope=1", "hard"], games=1, seed=1)


# -- the search -------------------------------------------------------------------------


def test_spec_names_only_what_differs_in_a_fixed_order() -> None:
    assert spec({}) == "hard" == spec({"hold": 2})
    assert spec({"keep_pair": 125.0, "hold": 1, "hold_new": False}) == (
        "hard:hold=1:hold_new=false:keep_pair=125")
    assert make_bot(spec({"keep_value": 0.75}), 1).keep_value == 0.75  # type: ignore[attr-defined]


def test_neighbours_step_both_ways_and_never_below_zero() -> None:
    assert _neighbours({}, "hold") == [{"hold": 3}, {"hold": 1}]
    assert _neighbours({"hold": 0}, "hold") == [{"hold": 1}]
    assert _neighbours({}, "hold_new") == [{"hold_new": False}]
    assert _neighbours({}, "keep_value") == [{"keep_value": 1.25}, {"keep_value": 0.75}]


def test_z_of_pair_shares() -> None:
    assert _z([0.5, 0.5, 0.5]) == 0.0  # every pair split: no evidence
    assert _z([1.0, 1.0]) == math.inf
    assert _z([1.0, 0.5, 0.5, 0.5]) == pytest.approx(0.125 / (0.25 / 2))


def test_tune_is_reproducible_and_keeps_only_winners() -> None:
    runs = [tune(QUICK, pairs=2, seed=4, steps=5) for _ in range(2)]
    assert runs[0] == runs[1]
    settings, steps = runs[0]
    assert len(steps) == 5
    incumbent = "hard"
    for step in steps:
        assert step.incumbent == incumbent
        assert step.kept == (step.z >= 1.0 and step.win_rate > 0.5)
        if step.kept:
            incumbent = step.challenger
    assert spec(settings) == incumbent
    with pytest.raises(ValueError, match="budget"):
        tune(QUICK, pairs=2, seed=4)


def test_tune_stops_when_a_round_keeps_nothing() -> None:
    # an impossible bar: nothing is kept, so one round over the settings ends the search
    settings, steps = tune(QUICK, pairs=1, seed=4, steps=500, z=math.inf)
    assert settings == {}
    assert len(steps) == sum(len(_neighbours({}, name)) for name in STEPS)


def test_evaluate_of_hard_itself_is_even() -> None:
    assert evaluate(QUICK, {}, 3, 1)["win_rate"] == 0.5
    ev = evaluate(QUICK, {"hold": 0}, 2, 1)
    assert ev["pairs"] == 2 and 0 <= ev["win_rate"] <= 1


def test_the_command_writes_a_style_with_its_card(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert tune_main(["--profile", "biegames", "--pairs", "1", "--steps", "2", "--workers",
                      "1", "--eval-pairs", "1", "--seed", "3", "--out", str(tmp_path)]) == 0
    path = tmp_path / "biegames.style.json"
    data = json.loads(path.read_text())
    assert data["steps"] == 2 and len(data["history"]) == 2
    assert data["budget"] == {"steps": 2} and data["evaluation"]["pairs"] == 1
    assert data["spec"] == spec(data["settings"])
    style = Style.load(path)
    assert style.settings == data["settings"] and style.card["seed"] == 3
    out = capsys.readouterr().out
    assert "step 1:" in out and "wrote" in out
    assert tune_main(["--profile", "nope", "--steps", "1"]) == 2
    assert tune_main(["--steps", "0"]) == 2
    assert "--steps must be at least 1" in capsys.readouterr().err


# -- style files and the learned bot ---------------------------------------------------


def test_style_files_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "x.style.json"
    Style({"hold": 1}, {"seed": 1}).save(path)
    assert Style.load(path) == Style({"hold": 1}, {"seed": 1})
    for text, words in [("{", "not a style file"), ("[]", "needs a 'settings' object"),
                        ('{"settings": {"hold": -1}}', "negative"),
                        ('{"settings": {"what": 1}}', "unknown setting")]:
        path.write_text(text)
        with pytest.raises(ValueError, match=words):
            Style.load(path)
    with pytest.raises(ValueError, match="not a style file"):
        Style.load(tmp_path / "missing.json")


def test_shipped_styles_load_and_are_valid() -> None:
    for name in builtin_profile_names():
        style = load_style(name)
        if style is not None:
            assert style.card["profile"] == name
            assert style.card["spec"] == spec(style.settings)
    assert load_style("no-such-profile") is None


def test_the_learned_bot_plays_its_style(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("numpy")
    from handfoot.bots import styles
    from handfoot.bots.learned import LearnedBot

    assert LearnedBot(1, style=Style({"hold": 1}, {})).hold == 1
    assert LearnedBot(1, shipped=False).hold == 2  # hard's own
    monkeypatch.setitem(styles._CACHE, QUICK.name, Style({"hold_new_above": 5}, {}))
    bot = LearnedBot(1)
    state = GameState.new(QUICK, seed=1)
    bot.choose(state.view(state.to_act))
    assert bot.hold_new_above == 5 and bot.style is not None


def test_the_learned_level_is_hard_with_the_shipped_style() -> None:
    from handfoot.bots.styles import StyledBot

    for name in ("partnership-13", "biegames"):
        style = load_style(name)
        assert style is not None, f"no style ships for {name}"
        p = load_profile(name, overrides={"rounds": 1})
        learned = play_game(p, 5, [make_bot("learned" if s % 2 else "hard", s)
                                   for s in range(4)])[1]
        styled = play_game(p, 5, [make_bot(spec(style.settings) if s % 2 else "hard", s)
                                  for s in range(4)])[1]
        assert (learned.totals, learned.actions) == (styled.totals, styled.actions)
    # a profile related to no built-in one has no style: the level plays hard's settings
    homebrew = load_profile(profile_from_toml_copy("bicycle", "homebrew"),
                            overrides={"rounds": 1})
    assert find_style(homebrew) is None
    bots = [make_bot("learned", s) for s in range(4)]
    a = play_game(homebrew, 3, bots)[1]
    b = play_game(homebrew, 3, [make_bot("hard", s) for s in range(4)])[1]
    assert (a.totals, a.actions) == (b.totals, b.actions)  # no style: hard
    assert all(isinstance(bot, StyledBot) and bot.style is None for bot in bots)
    given = StyledBot(1, style=Style({"hold": 0}, {}))
    assert given.hold == 0 and given.style is not None
