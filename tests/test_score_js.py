"""The web score keeper's breakdown table (``breakdownTable`` in static/score.js), run in
Node with a stand-in for the DOM: each line's count and points in cells of their own
(issue 27: ``3 × 1,500`` read as 4,500 when it meant 1,500 in all)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from handfoot.game.loading import load_profile
from handfoot.game.scoresheet import ScoreSheet

SCORE_JS = Path(__file__).parent.parent / "src/handfoot/web/static/score.js"

HARNESS = """
const el = (tag, attrs = {}, ...children) => ({tag, attrs, children: children.flat()
  .filter((c) => c !== null && c !== undefined && c !== false && c !== "")});
const fmt = (n) => (n === null || n === undefined ? "\\u2013" : Number(n).toLocaleString("en-US"));
const sheet = {data: DATA.sheet};
FUNCTION
const rows = [];
const walk = (node) => {
  if (node.tag === "tr") rows.push(node.children.map((c) => c.attrs.text ?? ""));
  else for (const c of node.children || []) if (typeof c === "object") walk(c);
};
walk(breakdownTable(DATA.round));
console.log(JSON.stringify(rows));
"""


def _rows(sheet: ScoreSheet) -> list[list[str]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    source = SCORE_JS.read_text(encoding="utf-8")
    function = re.search(r"^function breakdownTable\(r\) \{.*?^\}$", source, re.S | re.M)
    assert function is not None
    data = sheet.json()
    view = {"sides": data["sides"]}
    round_ = data["rounds"][0]
    script = HARNESS.replace("DATA", json.dumps({"sheet": view, "round": round_})) \
        .replace("FUNCTION", function.group(0))
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True,
                         timeout=60)
    rows: list[list[str]] = json.loads(out.stdout)
    return rows


def test_the_web_breakdown_has_the_count_and_the_points_in_cells_of_their_own() -> None:
    p = load_profile("remastered-teams")
    sheet = ScoreSheet.new(p, p.layout, ["Us", "Them"])
    sheet.set_round(1, sheet.read_round(
        [{"books": {"clean": 3, "dirty": 3, "wild": 1}, "went_out": True, "melded": 1450},
         {"books": {"clean": 1}, "melded": {"K": 5, "Q": 4}, "left": {"A": 1}}], 1))
    rows = _rows(sheet)
    assert rows[0] == ["Score", "Us", "Them"]
    assert rows[1] == ["", "count", "points", "count", "points"]
    by_label = {r[0]: r[1:] for r in rows[2:]}
    clean = f"{3 * p.clean_book_bonus:,}"
    assert by_label["Clean books"] == ["3", clean, "1", f"{p.clean_book_bonus:,}"]
    # a total given as points has no count; cards counted by card have theirs
    assert by_label["Cards on the table"][:2] == ["", "1,450"]
    assert by_label["Cards on the table"][2] == "9"
    assert all("\u00d7" not in cell for row in rows for cell in row)
    assert by_label["This round"][0] == "" and by_label["Game total"][0] == ""
