"""The learned bot: features and scorer shapes, the schema check, training's smoke run,
legal and deterministic full games on every built-in profile (falling back to hard where
no model ships)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from handfoot.bots.heuristic import HardBot
from handfoot.bots.learned import (
    PLAN_FEATURES,
    SCHEMA_HASH,
    LearnedBot,
    Model,
    encode_decision,
    load_model,
    schema_hash,
    state_features,
)
from handfoot.bots.plans import candidate_plans, is_decision
from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout
from handfoot.runs.sim import play_game

SHIPPED = ("partnership-13", "biegames")


def _tiny_model(dim: int, players: int = 4, sides: int = 2, seed: int = 0) -> Model:
    rng = np.random.default_rng(seed)
    w = [rng.standard_normal((dim, 8)).astype(np.float32),
         rng.standard_normal((8, 1)).astype(np.float32)]
    b = [np.zeros(8, np.float32), np.zeros(1, np.float32)]
    return Model(w, b, np.zeros(dim, np.float32), np.ones(dim, np.float32),
                 {"schema_hash": schema_hash(players, sides)})


def _a_decision() -> tuple[LearnedBot, object, list[object]]:
    state = GameState.new(load_profile("partnership-13"), seed=2)
    bot = LearnedBot(1, shipped=False)
    others = [HardBot(s) for s in range(4)]
    while True:
        view = state.view(state.to_act)
        if state.to_act == 0:
            bot._observe(view)
            if is_decision(bot, view):
                plans = candidate_plans(bot, view)
                if len(plans) > 3:
                    return bot, view, list(plans)
            action = bot._decide(view)
            bot._chosen(view, action)
        else:
            action = others[state.to_act].choose(view)
        state.apply_action(action)


def test_rows_have_the_schema_s_shape_and_the_scorer_one_value_per_plan() -> None:
    bot, view, plans = _a_decision()
    rows = encode_decision(bot, view, plans)  # type: ignore[arg-type]
    state_len = len(state_features(bot, view))  # type: ignore[arg-type]
    assert rows.shape == (len(plans), state_len + len(PLAN_FEATURES))
    assert rows.dtype == np.float32 and np.isfinite(rows).all()
    # the state part is the same on every row; the plan part differs between plans
    assert (rows[:, :state_len] == rows[0, :state_len]).all()
    assert len({tuple(r) for r in rows[:, state_len:]}) == len(plans)
    flagged = state_len + PLAN_FEATURES.index("flagged")
    assert rows[:, flagged].tolist() == [1.0] + [0.0] * (len(plans) - 1)
    scores = _tiny_model(rows.shape[1]).scores(rows)
    assert scores.shape == (len(plans),)


def test_a_model_for_other_features_is_not_used() -> None:
    bot, view, plans = _a_decision()
    dim = encode_decision(bot, view, plans).shape[1]  # type: ignore[arg-type]
    good = _tiny_model(dim)
    assert LearnedBot(1, model=good)._usable(view) is good  # type: ignore[arg-type]
    stale = _tiny_model(dim)
    stale.card = {"schema_hash": "0123456789abcdef"}
    bot2 = LearnedBot(1, model=stale)
    assert bot2._usable(view) is None  # type: ignore[arg-type]
    assert bot2.fallback is not None and "schema" in bot2.fallback
    assert schema_hash(4, 2) == SCHEMA_HASH != schema_hash(2, 1)


def test_a_model_ranks_plans_and_the_bot_follows_its_best() -> None:
    # a model that values only "this plan discards" makes the bot discard at once
    dim = 0
    bot, view, plans = _a_decision()
    dim = encode_decision(bot, view, plans).shape[1]  # type: ignore[arg-type]
    state_len = dim - len(PLAN_FEATURES)
    w0 = np.zeros((dim, 1), np.float32)
    w0[state_len + PLAN_FEATURES.index("kind.discard"), 0] = 1.0
    model = Model([w0], [np.zeros(1, np.float32)], np.zeros(dim, np.float32),
                  np.ones(dim, np.float32), {"schema_hash": SCHEMA_HASH})
    chooser = LearnedBot(1, model=model)
    chosen = plans[chooser.pick(view, plans)]  # type: ignore[arg-type]
    assert chosen.kind.name == "DISCARD"  # type: ignore[attr-defined]


@pytest.mark.parametrize("profile", builtin_profile_names())
def test_plays_legal_full_games_on_every_profile(profile: str) -> None:
    p = load_profile(profile)
    for layout in {p.layout, max(p.layouts, key=lambda x: (x.players, x.sides))}:
        bots = [LearnedBot(s) for s in range(layout.players)]
        state, _ = play_game(p, 7, bots, layout=layout)
        assert state.is_over and len(state.results) == p.rounds
        fallbacks = {b.fallback for b in bots}  # type: ignore[attr-defined]
        if profile in SHIPPED and layout == Layout(2, 2):
            assert fallbacks == {None}
        else:  # no model for this profile or seating: hard's plans, and says why
            assert all(f for f in fallbacks)


def test_where_no_model_ships_it_plays_exactly_like_the_learned_level() -> None:
    # hard's plans with the profile's style: the learned level's play, move for move
    p = load_profile("bicycle", overrides={"rounds": 1})
    a = play_game(p, 3, [LearnedBot(s) for s in range(4)])[1]
    b = play_game(p, 3, [make_bot("learned", s) for s in range(4)])[1]
    assert (a.totals, a.actions) == (b.totals, b.actions)
    c = play_game(p, 3, [LearnedBot(s, shipped=False) for s in range(4)])[1]
    d = play_game(p, 3, [make_bot("hard", s) for s in range(4)])[1]
    assert (c.totals, c.actions) == (d.totals, d.actions)


@pytest.mark.parametrize("profile", SHIPPED)
def test_shipped_models_have_cards_and_play_deterministically(profile: str) -> None:
    model = load_model(profile)
    assert model is not None
    card = model.card
    for key in ("schema_hash", "seed", "minutes", "games", "code_version", "evaluation"):
        assert key in card
    assert card["schema_hash"] == SCHEMA_HASH
    p = load_profile(profile, overrides={"rounds": 1})

    def run() -> tuple[tuple[int, ...], int, int]:
        bots = [LearnedBot(20 + s) if s % 2 == 0 else make_bot("hard", 20 + s)
                for s in range(4)]
        _, summary = play_game(p, 11, bots)
        return summary.totals, summary.actions, sum(
            getattr(b, "deviations", 0) for b in bots)

    first = run()
    assert first == run()


def test_train_smoke(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "handfoot.runs.train", "--smoke", "--workers", "1", "--seed", "3",
         "--profile", "biegames", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    card = json.loads((tmp_path / "biegames.json").read_text())
    assert card["schema_hash"] == SCHEMA_HASH and card["seed"] == 3
    assert card["evaluation"]["games"] == 2
    model = Model.load(tmp_path / "biegames.npz")
    p = load_profile("biegames", overrides={"rounds": 1})
    bots = [LearnedBot(s, model=model) for s in range(4)]
    state, _ = play_game(p, 1, bots)
    assert state.is_over and all(b.fallback is None for b in bots)
