"""The score keeper's JSON API: making a sheet, entering and correcting rounds, the
read-only share link, the history of changes, live polling and the exports."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from handfoot.game.loading import load_profile
from web_client import client, token_of

TEAMS = load_profile("remastered-teams")
GOES_OUT = {"books": {"clean": 3, "dirty": 3, "wild": 1}, "went_out": True, "melded": 1200,
            "red_threes": 1}
STAYS = {"books": {"dirty": 1}, "melded": {"K": 5, "Q": 4}, "left": {"A": 1, "black 3": 1}}


def new_sheet(c: TestClient, **body: Any) -> dict[str, Any]:
    body = {"profile": "remastered-teams", "sides": ["Us", "Them"],
            "players": [["Ann", "Bo"], ["Cy", "Di"]], **body}
    r = c.post("/api/scores", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def enter(c: TestClient, sheet: dict[str, Any], number: int, entries: list[Any],
          who: str = "Ann", token: str | None = None) -> Any:
    token = token if token is not None else token_of(sheet["edit_link"])
    return c.post(f"/api/scores/{sheet['sheet_id']}/rounds/{number}",
                  json={"token": token, "who": who, "entries": entries})


def test_a_sheet_is_made_with_the_new_game_rules_and_validation(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        sheet = new_sheet(c, options={"minimums_by_score": True}, title="Friday")
        assert sheet["share_link"] == f"/score/{sheet['sheet_id']}"
        assert sheet["edit_link"].startswith(sheet["share_link"] + "#k=")
        data = c.get(f"/api/scores/{sheet['sheet_id']}").json()
        assert data["profile"] == "remastered-teams" and data["title"] == "Friday"
        assert data["overrides"] == {"minimums_by_score": True}
        assert [s["players"] for s in data["sides"]] == [["Ann", "Bo"], ["Cy", "Di"]]
        assert data["next_round"] == 1 and data["next_minimums"] == [60, 60]
        for body, message in (
                ({"profile": "poker"}, "profile: 'poker' is not a built-in profile"),
                ({"toml": "extends = 'remastered-teams'\nbook_size = 99\n"}, "book_size"),
                ({"layout": "3x1"}, "remastered-teams is played as"),
                ({"sides": ["Only one"]}, "sides: 2 names")):
            r = c.post("/api/scores", json={"profile": "remastered-teams", **body})
            assert r.status_code == 400 and message in r.json()["error"], r.text


def test_rounds_are_scored_and_impossible_ones_refused_without_losing_anything(
        tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        sheet = new_sheet(c)
        url = f"/api/scores/{sheet['sheet_id']}"
        r = enter(c, sheet, 1, [GOES_OUT, GOES_OUT])
        assert r.status_code == 400
        assert r.json()["error"] == "only one side goes out in a round, not Us and Them"
        r = enter(c, sheet, 1, [GOES_OUT, {"red_threes": -1}])
        assert r.json()["error"] == "Them: red 3s laid: a count cannot be negative (-1)"
        assert c.get(url).json()["rounds"] == []  # nothing stored by a refusal
        r = enter(c, sheet, 2, [GOES_OUT, STAYS])
        assert r.json()["error"].startswith("round: 1 is the next round to enter")
        assert enter(c, sheet, 1, [GOES_OUT, STAYS]).json() == {"version": 1}
        data = c.get(url).json()
        ours, theirs = data["rounds_view"][0]["scores"]
        t = TEAMS
        assert ours["total"] == 1200 + 3 * t.clean_book_bonus + 3 * t.dirty_book_bonus + \
            t.wild_book_bonus + t.red_three_bonus + t.going_out_bonus
        assert {x["key"]: x["count"] for x in ours["lines"]}["melded"] is None  # a total
        lines = {x["key"]: (x["count"], x["points"]) for x in theirs["lines"]}
        assert lines["melded"] == (9, 90) and lines["cards_left"] == (1, -20)
        assert lines["black_threes_caught"] == (1, -TEAMS.black_three_penalty)
        assert data["totals"] == [ours["total"], theirs["total"]]
        assert data["next_round"] == 2 and data["next_minimums"] == [
            TEAMS.opening_minimum(2)] * 2


def test_a_refused_round_names_every_problem_at_once(tmp_path: Path) -> None:
    # two things wrong with one round: both sides went out, and more red 3s than the decks
    # hold; the answer names both and the answers each concerns, and stores nothing
    with client(tmp_path / "s.db") as c:
        sheet = new_sheet(c)
        r = enter(c, sheet, 1, [GOES_OUT, {**GOES_OUT, "red_threes": 30}])
        assert r.status_code == 400
        data = r.json()
        assert data["error"] == ("only one side goes out in a round, not Us and Them; "
                                 "31 red 3s in one round: the 5 decks in play allow at most 10")
        assert data["problems"] == [
            {"message": "only one side goes out in a round, not Us and Them",
             "parts": [[0, "went_out"], [1, "went_out"]]},
            {"message": "31 red 3s in one round: the 5 decks in play allow at most 10",
             "parts": [[0, "red_threes"], [1, "red_threes"]]}]
        assert c.get(f"/api/scores/{sheet['sheet_id']}").json()["rounds"] == []


def test_corrections_keep_who_when_before_and_after(database_url: str) -> None:
    """On SQLite and on PostgreSQL (the ``database_url`` fixture)."""
    with client(database_url) as c:
        sheet = new_sheet(c)
        url = f"/api/scores/{sheet['sheet_id']}"
        enter(c, sheet, 1, [GOES_OUT, STAYS], who="Ann")
        enter(c, sheet, 2, [STAYS, GOES_OUT], who="Ann")
        before = c.get(url).json()["totals"]
        fixed = {**STAYS, "left": {"A": 3}}
        assert enter(c, sheet, 1, [GOES_OUT, fixed], who="Cy").json() == {"version": 3}
        assert enter(c, sheet, 1, [GOES_OUT, fixed], who="Cy").json()["unchanged"]
        data = c.get(url).json()
        assert data["totals"] == [before[0], before[1] - 60 + TEAMS.black_three_penalty + 20]
        assert data["corrections"] == 1 and len(data["rounds"]) == 2
        changes = c.get(url + "/changes").json()["changes"]
        assert [(ch["seq"], ch["round"], ch["who"]) for ch in changes] == [
            (1, 1, "Ann"), (2, 2, "Ann"), (3, 1, "Cy")]
        assert changes[0]["before"] is None
        assert changes[2]["before"][1]["left"] == {"A": 1, "black 3": 1}
        assert changes[2]["after"][1]["left"] == {"A": 3}
        assert changes[2]["sides"] == [1] and changes[2]["at"].endswith("Z")


def test_the_share_link_only_shows_the_sheet(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        sheet = new_sheet(c)
        other = new_sheet(c)
        for token in ("", "x" * 43, token_of(other["edit_link"])):
            r = enter(c, sheet, 1, [GOES_OUT, STAYS], token=token)
            assert r.status_code == 403
            assert "only shows the sheet" in r.json()["error"]
        assert c.get(f"/api/scores/{sheet['sheet_id']}").json()["rounds"] == []
        page = c.get(sheet["share_link"])
        assert page.status_code == 200 and 'data-sheet="' in page.text
        assert token_of(sheet["edit_link"]) not in c.get(
            f"/api/scores/{sheet['sheet_id']}").text  # the token is never shown again
        assert c.get("/api/scores/nothing").status_code == 404


def test_the_share_page_polls_for_changes(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        sheet = new_sheet(c)
        url = f"/api/scores/{sheet['sheet_id']}"
        enter(c, sheet, 1, [GOES_OUT, STAYS])
        assert c.get(url + "?since=1").status_code == 204  # nothing new
        enter(c, sheet, 2, [STAYS, GOES_OUT])
        fresh = c.get(url + "?since=1")
        assert fresh.status_code == 200 and fresh.json()["version"] == 2


def test_a_finished_sheet_exports_to_csv_and_json(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        sheet = new_sheet(c)
        for number in range(1, TEAMS.rounds + 1):
            assert enter(c, sheet, number, [GOES_OUT, STAYS]).status_code == 200
        url = f"/api/scores/{sheet['sheet_id']}"
        data = c.get(url).json()
        assert data["over"] and data["winners"] == [0] and data["next_round"] is None
        r = enter(c, sheet, TEAMS.rounds + 1, [GOES_OUT, STAYS])
        assert r.status_code == 400 and "the game is over" in r.json()["error"]
        exported = c.get(url + "/export.json")
        assert "attachment" in exported.headers["content-disposition"]
        body = exported.json()
        assert body["format"] == "handfoot-score-sheet" and body["totals"] == data["totals"]
        assert len(body["changes"]) == TEAMS.rounds
        rows = list(csv.reader(io.StringIO(c.get(url + "/export.csv").text)))
        assert rows[0] == ["round", "side", "line", "count", "points"]
        game_totals = [r for r in rows if r[0] == str(TEAMS.rounds) and r[2] == "Game total"]
        assert [int(r[4]) for r in game_totals] == data["totals"]
        assert c.get(url + "/export.xml").status_code == 404


def test_hostile_bodies_are_refused_with_a_reason(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        for raw, words in ((b"[" * 5000 + b"]" * 5000, "must be JSON"),
                           (b'{"profile": "\\ud800"}', "Unicode"),
                           (b"[1, 2]", "JSON object")):
            r = c.post("/api/scores", content=raw, headers={"content-type": "application/json"})
            assert r.status_code == 400 and words in r.json()["error"], r.text
        sheet = new_sheet(c)
        r = c.post(f"/api/scores/{sheet['sheet_id']}/rounds/1",
                   content=b'{"token": "x", "who": "\\udfff", "entries": []}',
                   headers={"content-type": "application/json"})
        assert r.status_code == 400 and "Unicode" in r.json()["error"], r.text


def test_a_poll_with_a_strange_version_is_answered_not_a_server_error(tmp_path: Path) -> None:
    """``?since=²`` passed ``str.isdigit`` but not ``int()``: a 500 until it was checked."""
    with client(tmp_path / "s.db") as c:
        sheet = new_sheet(c, sides=["\u202eUs", "Them"])
        url = f"/api/scores/{sheet['sheet_id']}"
        for since in ("\u00b2", "\u0661", "-1", "x", "9" * 40):
            r = c.get(url, params={"since": since})
            assert r.status_code == 200, (since, r.status_code)
            assert r.json()["sides"][0]["name"] == "Us"
        r = c.post("/api/scores", json={"profile": "remastered-teams", "sides": ["Us", "Us"]})
        assert r.status_code == 400
        assert r.json()["error"] == "sides: two are called 'Us'; give each its own name"
