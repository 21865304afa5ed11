"""The examples in docs/ and the doctests in the package run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import handfoot
import handfoot.bots.registry
import handfoot.game.cards
import handfoot.game.differences
import handfoot.game.events
import handfoot.game.loading
import handfoot.game.notation
import handfoot.game.reference
import handfoot.game.rules
import handfoot.game.scoresheet
import handfoot.game.table
import handfoot.game.wording
from handfoot.game.reference import profiles_markdown

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("name", ["engine.md", "tournaments.md", "bots.md"])
def test_doc_examples_run(name: str) -> None:
    blocks = _python_blocks(DOCS / name)
    assert blocks, f"{name} has no python examples"
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, f"{name}", "exec"), namespace)


@pytest.mark.parametrize("module", [handfoot, handfoot.game.cards, handfoot.game.rules,
                                    handfoot.game.loading, handfoot.game.wording,
                                    handfoot.game.table, handfoot.bots.registry,
                                    handfoot.game.notation, handfoot.game.scoresheet,
                                    handfoot.game.differences, handfoot.game.reference,
                                    handfoot.game.events])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0
    assert result.attempted > 0


def test_every_profile_parameter_is_documented() -> None:
    text = (DOCS / "profiles.md").read_text(encoding="utf-8")
    missing = [name for name in handfoot.game.rules.FIELDS if f"`{name}`" not in text]
    assert not missing


def test_profiles_md_is_generated() -> None:
    text = (DOCS / "profiles.md").read_text(encoding="utf-8")
    assert text == profiles_markdown(), (
        "docs/profiles.md is out of date: regenerate it with "
        "`python -m handfoot.game.reference > docs/profiles.md`")


def test_profiles_md_gives_every_value_of_every_profile() -> None:
    text = (DOCS / "profiles.md").read_text(encoding="utf-8")
    names = handfoot.game.loading.builtin_profile_names()
    header = "| parameter | meaning | " + " | ".join(f"`{n}`" for n in names) + " |"
    assert text.count(header) == len(handfoot.game.rules.SECTIONS)
    rows = [line for line in text.splitlines() if line.startswith("| `")
            and line.split(" | ")[0].strip("| `") in handfoot.game.rules.FIELDS]
    assert len(rows) == len(handfoot.game.rules.FIELDS)
    assert all(line.count(" | ") == 1 + len(names) for line in rows)
    hkf = next(line for line in rows if line.startswith("| `special_book_bonus` |"))
    assert '`{ "5" = 3000, "7" = 5000 }`' in hkf


def test_every_option_is_documented() -> None:
    text = (DOCS / "profiles.md").read_text(encoding="utf-8")
    for key, option in handfoot.game.loading.OPTIONS.items():
        assert f"### {option.id} `{key}`: {option.title}\n" in text
    assert "[options]\nsevens_from_hell = true" in text
    assert "explicitly are applied after the options, so they win" in text
    assert "- pile pickup: `take_whole_pile` (OPT-14), `take_top_5` (OPT-15), `pile_of_8` " \
        "(OPT-17), `singles_pair_pickup` (OPT-18), `no_pickups` (OPT-20)" in text


def test_house_rule_example_in_profiles_md_loads(tmp_path: Path) -> None:
    text = (DOCS / "profiles.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    assert blocks
    for i, block in enumerate(blocks):
        path = tmp_path / f"example-{i}.toml"
        path.write_text(block, encoding="utf-8")
        p = handfoot.game.loading.load_profile(path)
        assert p.options
    p = handfoot.game.loading.load_profile(tmp_path / "example-0.toml")
    assert p.rounds == 20 and p.target_score == 10000  # the explicit parameter won


# --- issue 27, item 8 --------------------------------------------------------------------------

_NO_NUMPY = """
import sys
sys.modules["numpy"] = None  # as if NumPy were not installed
try:
    exec(compile(IMPORTS, "block", "exec"), {})
except ImportError as exc:
    print("needs:", exc)
"""


@pytest.mark.parametrize("path", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_a_python_example_that_needs_numpy_says_so_in_its_block(path: Path) -> None:
    """Each ``python`` block's imports run without NumPy; a block they fail in must say
    in the block itself that it needs NumPy (docs/bots.md's learned-bot example did not)."""
    import subprocess
    import sys

    for block in _python_blocks(path):
        imports = "\n".join(line for line in block.splitlines()
                            if line.startswith(("import ", "from ")))
        if not imports:
            continue
        done = subprocess.run([sys.executable, "-c",
                               _NO_NUMPY.replace("IMPORTS", repr(imports))],
                              capture_output=True, text=True, timeout=120, check=True)
        if done.stdout.startswith("needs:"):
            assert "needs NumPy" in block, (path.name, block[:200])


def _option_ids() -> list[str]:
    return sorted({o.id for o in handfoot.game.loading.OPTIONS.values()})


def test_the_number_of_optional_rules_is_counted_from_the_options_data() -> None:
    """"OPT-01 to OPT-24" were 25 options with OPT-07a: where the README and the docs name
    the range they give the count and the extra ids, from the options data."""
    ids = _option_ids()
    numbered = [i for i in ids if re.fullmatch(r"OPT-\d\d", i)]
    extra = [i for i in ids if i not in numbered]
    phrase = (f"{len(ids)} options: {numbered[0]} to {numbered[-1]}"
              + "".join(f" and {i}" for i in extra))
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert phrase in readme
    for path in [DOCS.parent / "README.md", *DOCS.glob("*.md")]:
        text = path.read_text(encoding="utf-8")
        for found in re.finditer(rf"{numbered[0]} to {numbered[-1]}", text):
            around = text[max(0, found.start() - 40):found.end() + 40]
            assert str(len(ids)) in around, (path.name, around)
