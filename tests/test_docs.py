"""The examples in docs/ and the doctests in the package run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import handfoot.cards
import handfoot.rules

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("name", ["engine.md"])
def test_doc_examples_run(name: str) -> None:
    blocks = _python_blocks(DOCS / name)
    assert blocks, f"{name} has no python examples"
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, f"{name}", "exec"), namespace)


@pytest.mark.parametrize("module", [handfoot.cards, handfoot.rules])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0
    assert result.attempted > 0


def test_every_profile_parameter_is_documented() -> None:
    text = (DOCS / "profiles.md").read_text(encoding="utf-8")
    missing = [name for name in handfoot.rules.FIELDS if f"`{name}`" not in text]
    assert not missing
