"""A club's duplicate tournament in the browser (issue 30, item 4): a member schedules one
from the club page (two tables, two rounds of a one-hand game), it starts, bots play every
seat (a stand-in plays for the member, who stays on the tournament page), the page follows
it to its end, and its standings are the comparison computed here from the tables' records.
A non-member's browser is told nothing."""

from __future__ import annotations

import base64
import json
import os
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from handfoot.game.record import record_from_data, replay


def key() -> str:
    return base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()


def call(base: str, path: str, player_key: str, body: Any = None) -> tuple[int, Any]:
    req = urllib.request.Request(
        base + path, data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json", "X-Handfoot-Player": player_key},
        method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def sign_in(ctx: Any, live_server: str, name: str) -> tuple[Any, str, dict[str, Any]]:
    """A browser context whose player is ``name`` (made through the API; the browser keeps
    the key as the site's own script does)."""
    k = key()
    status, made = call(live_server, "/api/players", k, {"name": name, "key": k})
    assert status == 200, made
    page = ctx.new_page()
    page.goto("/")
    page.evaluate("([k, p]) => localStorage.setItem('handfoot.player', "
                  "JSON.stringify({key: k, id: p.id, name: p.name}))", [k, made["player"]])
    return page, k, made["player"]


def score_text(n: float) -> str:
    """As tournament.js writes a score."""
    text = f"{abs(n):,.1f}".rstrip("0").rstrip(".")
    return f"+{text}" if n > 0 else (f"\u2212{text}" if n < 0 else "0")


def test_a_tournament_of_two_tables_plays_to_its_end(new_context: Any, live_server: str,
                                                     shots_dir: Path) -> None:
    page, ann_key, _ann = sign_in(new_context(1280, 900), live_server, "Ann")
    status, club = call(live_server, "/api/clubs", ann_key, {"name": "The Smiths"})
    assert status == 200, club
    club_id = club["club"]["id"]
    page.goto(f"/club#{club_id}")
    section = page.locator("#club-tournaments")
    expect(section).to_be_visible()
    expect(section.get_by_text("No tournament yet.")).to_be_visible()
    form = page.locator("#new-tournament")
    form.locator("#tournament-name").fill("Sunday duplicate")
    form.locator("#tournament-rules").select_option("profile:biegames")
    form.locator("#tournament-tables").fill("2")
    form.locator("#tournament-rounds").fill("2")
    form.locator("#tournament-game-rounds").fill("1")
    form.locator("#tournament-bots").select_option("easy")
    form.locator("#tournament-starts").fill("2020-01-01T10:00")  # already due: starts now
    section.screenshot(path=str(shots_dir / "club-tournaments.png"))
    form.get_by_role("button", name="Schedule it").click()
    page.wait_for_url(re.compile(r"/club/tournament#"))
    expect(page.locator("#tournament-name")).to_have_text("Sunday duplicate")
    expect(page.get_by_text("The tournament is over")).to_be_visible(timeout=240_000)
    page.screenshot(path=str(shots_dir / "club-tournament.png"), full_page=True)
    tid = page.evaluate("window.location.hash").split("/")[1]
    status, data = call(live_server, f"/api/clubs/{club_id}/tournaments/{tid}", ann_key)
    assert status == 200 and data["status"] == "over"
    # the comparison by hand, from the tables' records
    totals: dict[tuple[int, int], list[int]] = {}
    names: dict[tuple[int, int], list[str]] = {}
    for r, tables in enumerate(data["rounds_played"]):
        assert len(tables) == 2
        deals = []
        for t in tables:
            status, raw = call(live_server, t["record"], ann_key)
            assert status == 200
            record = record_from_data(raw)
            result = replay(record)
            assert result.ok and result.game_over
            totals[(r, t["table"])] = list(result.totals)
            names[(r, t["table"])] = [s.name for s in record.seats]
            deals.append([x.deal for x in record.rounds])
        assert deals[0] == deals[1]  # both tables held the same cards
    expected = 0.0
    per_round = []
    for (r, t), seated in sorted(names.items()):
        if "Ann" in seated:
            side = seated.index("Ann") % 2
            mean = (totals[(r, 1)][side] + totals[(r, 2)][side]) / 2
            per_round.append(totals[(r, t)][side] - mean)
            expected += per_round[-1]
    row = page.locator("#standings-table tbody tr").first
    expect(row.locator("th")).to_have_text("Ann")
    expect(row.locator("td").nth(0)).to_have_text(score_text(expected))
    expect(row.locator("td").nth(1)).to_have_text(score_text(per_round[0]))
    expect(row.locator("td").nth(2)).to_have_text(score_text(per_round[1]))
    # a table's record downloads from the page
    with page.expect_download() as got:
        page.locator("[data-table='1-1']").get_by_role("button", name="Record").click()
    saved = json.loads(Path(got.value.path()).read_text())
    assert saved["rounds"][0]["deal"] == raw["rounds"][0]["deal"] or \
        replay(record_from_data(saved)).game_over
    # the club page lists it
    page.goto(f"/club#{club_id}")
    expect(page.locator("#tournament-list")).to_contain_text("Sunday duplicate")
    expect(page.locator("#tournament-list")).to_contain_text("over")
    # a stranger's browser: nothing
    stranger, eve_key, _ = sign_in(new_context(), live_server, "Eve")
    stranger.goto(f"/club/tournament#{club_id}/{tid}")
    expect(stranger.get_by_text("No such tournament")).to_be_visible()
    for path in (f"/api/clubs/{club_id}/tournaments", f"/api/clubs/{club_id}/tournaments/{tid}",
                 data["rounds_played"][0][0]["record"]):
        assert call(live_server, path, eve_key)[0] == 404
