"""The shared observation: only what a seat's view shows, documented field by field."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from handfoot.game.engine import GameState  # noqa: E402
from handfoot.game.loading import builtin_profile_names, load_profile  # noqa: E402
from handfoot.game.rules import Layout  # noqa: E402
from handfoot.rl.observation import (  # noqa: E402
    FIELDS,
    ObservationEncoder,
    action_mask,
    field_table_markdown,
    resolve_game,
)
from positions import reshuffle_hidden  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def played(profile: str, layout: Layout | None, seed: int, actions: int) -> GameState:
    p = load_profile(profile, overrides={"rounds": 1})
    state = GameState.new(p, layout=layout, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", builtin_profile_names())
def test_observation_is_the_same_when_hidden_cards_are_reshuffled(name: str) -> None:
    p = load_profile(name, overrides={"rounds": 1})
    for layout in p.layouts[:3]:
        enc = ObservationEncoder(p, layout)
        for seed, actions in ((1, 0), (2, 150), (3, 400)):
            state = played(name, layout, seed, actions)
            rng = random.Random(seed)
            changed_any = False
            for seat in range(state.players):
                other = reshuffle_hidden(state, seat, rng)
                mine = enc.encode(state.view(seat))
                assert np.array_equal(mine, enc.encode(other.view(seat)))
                assert np.array_equal(action_mask(state.view(seat)),
                                      action_mask(other.view(seat)))
                # the reshuffle really moved cards another seat can see
                changed_any |= any(not np.array_equal(enc.encode(state.view(s)),
                                                      enc.encode(other.view(s)))
                                   for s in range(state.players) if s != seat)
            assert changed_any


def test_observation_fields_read_the_view() -> None:
    p, layout = resolve_game("partnership-13")
    enc = ObservationEncoder(p, layout)
    state = played("partnership-13", None, 5, 200)
    seat = state.to_act
    view = state.view(seat)
    vec = enc.encode(view)
    assert vec.dtype == np.float32 and vec.shape == (enc.size,)
    assert sum(enc.field(vec, "hand")) == len(view.hand)
    assert list(enc.field(vec, "hand_sizes")) == [
        view.hand_counts[(seat + k) % 4] for k in range(4)]
    assert enc.field(vec, "stock_size")[0] == view.stock_size
    assert list(enc.field(vec, "to_act")) == [1, 0, 0, 0]
    assert (enc.low <= vec).all() and (vec <= enc.high).all()
    assert enc.size == sum(f.length(4, 2) for f in FIELDS)


def test_a_profile_object_takes_overrides() -> None:
    base = load_profile("biegames")
    p, layout = resolve_game(base, 2, {"rounds": 1})
    assert p.rounds == 1 and base.rounds == 4 and layout == Layout(2, 1)
    assert resolve_game(base)[0] is base


def test_players_must_name_a_seating_of_the_profile() -> None:
    assert resolve_game("remastered-teams", 6)[1] == Layout(2, 3)
    assert resolve_game("remastered-teams", "3x2")[1] == Layout(3, 2)
    assert resolve_game("hand-knee-foot", 3)[1] == Layout(3, 1)
    for bad in (3, "5x5", "many", 2.5):
        with pytest.raises(ValueError, match=r"2x2 \(4 players\)"):
            resolve_game("partnership-13", bad)  # type: ignore[arg-type]


def test_docs_field_table_matches_the_encoder() -> None:
    text = (ROOT / "docs" / "rl.md").read_text()
    m = re.search(r"<!-- fields -->\n(.*?)\n<!-- /fields -->", text, re.S)
    assert m, "docs/rl.md has no generated field table"
    assert m.group(1).strip() == field_table_markdown().strip(), (
        "docs/rl.md is stale: paste handfoot.rl.observation.field_table_markdown()")


def test_the_core_imports_no_rl_framework() -> None:
    code = (
        "import sys\n"
        "import handfoot, handfoot.game.engine, handfoot.cli, handfoot.runs.sim, "
        "handfoot.bots.heuristic, "
        "handfoot.game.record, handfoot.rl\n"
        "heavy = {'numpy', 'pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel', 'matplotlib'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


@pytest.mark.parametrize(("adapter", "framework"), [
    ("pettingzoo", "pettingzoo"), ("gymnasium", "gymnasium"), ("openspiel", "pyspiel"),
    ("observation", "numpy")])
def test_a_missing_extra_gives_the_install_hint(adapter: str, framework: str) -> None:
    code = (
        "import sys\n"
        f"sys.modules[{framework!r}] = None\n"
        "try:\n"
        f"    import handfoot.rl.{adapter}\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert f"needs {framework}: install the rl extra: pip install 'handfoot[rl]'" in out


def test_rl_doc_examples_run() -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    pytest.importorskip("gymnasium")
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "docs/rl.md", "exec"), namespace)
