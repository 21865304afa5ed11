"""The training example runs (in its short smoke mode) and saves its plot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("matplotlib")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_policy.py"


def test_train_policy_smoke_mode_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "win-rate.png"
    result = subprocess.run([sys.executable, str(EXAMPLE), "--smoke", "--out", str(out),
                             "--json", str(tmp_path / "h.json")],
                            capture_output=True, text=True, timeout=60, check=True)
    assert "win rate vs random" in result.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert '"win_rates"' in (tmp_path / "h.json").read_text()
