"""Club duplicate tournaments on the server (handfoot.web.tournaments), through the API: a
member schedules one, it starts at its time, every table of a round is dealt the same
cards, bots (and a stand-in for the member away from the table) play it to its end, the
standings are the comparison computed here from the tables' records, and nobody but a
member sees any of it."""

from __future__ import annotations

import base64
import os
import time
from typing import Any

from sqlalchemy import update

from handfoot.game.record import record_from_data, replay
from handfoot.web import store as st
from handfoot.web.clubs import Clubs
from handfoot.web.players import PLAYER_HEADER, Players
from web_client import client


async def _set_status(store: Any, game_id: str, status: str) -> None:
    async with store.engine.begin() as conn:
        await conn.execute(update(st.games).where(st.games.c.id == game_id)
                           .values(status=status))


def key() -> str:
    return base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()


def until_over(c: Any, url: str, headers: dict[str, str], limit: float = 240) -> Any:
    deadline = time.monotonic() + limit
    while True:
        got = c.get(url, headers=headers)
        assert got.status_code == 200, got.text
        data = got.json()
        if data["status"] == "over":
            return data
        assert time.monotonic() < deadline, data
        time.sleep(0.2)


def test_a_tournament_plays_to_its_end_and_scores_against_the_other_tables(
        database_url: str) -> None:
    with client(database_url) as c:
        app: Any = c.app
        players: Players = app.state.players
        clubs: Clubs = app.state.clubs
        portal: Any = c.portal
        ann_key, bob_key, eve_key = key(), key(), key()
        ann = portal.call(players.create, "Ann", ann_key)
        bob = portal.call(players.create, "Bob", bob_key)
        portal.call(players.create, "Eve", eve_key)
        club = portal.call(clubs.create, "The Smiths", ann.id)
        token, _ = portal.call(clubs.new_invite, club.id, ann.id)
        portal.call(clubs.join, token, bob.id)
        ann_h, bob_h, eve_h = ({PLAYER_HEADER: k} for k in (ann_key, bob_key, eve_key))
        base = f"/api/clubs/{club.id}/tournaments"
        later = c.post(base, headers=ann_h, json={
            "name": "Next week", "profile": "biegames", "game_rounds": 1, "tables": 2,
            "rounds": 2, "bot_level": "easy", "starts": "2099-01-01T18:00:00Z"})
        assert later.status_code == 200, later.text
        assert later.json()["status"] == "scheduled" and later.json()["entered"]
        for bad, words in [({"tables": 1}, "tables: a whole number from 2"),
                           ({"rounds": 99}, "rounds: a whole number from 1 to 12"),
                           ({"bot_level": "godlike"}, "bot_level: one of"),
                           ({"club_rules": "Nope"}, "no house rules named 'Nope'"),
                           ({"starts": "tomorrow"}, "starts: a time like")]:
            refused = c.post(base, headers=ann_h, json={"profile": "biegames", **bad})
            assert refused.status_code == 400 and words in refused.json()["error"], bad
        made = c.post(base, headers=ann_h, json={
            "name": "Tonight", "profile": "biegames", "game_rounds": 1, "tables": 2,
            "rounds": 2, "bot_level": "easy"})
        assert made.status_code == 200, made.text
        tid = made.json()["id"]
        url = f"{base}/{tid}"
        # strangers get nothing from any tournament route
        for method, path in [("GET", base), ("POST", base), ("GET", url),
                             ("POST", f"{url}/enter"),
                             ("GET", f"{url}/games/x/record")]:
            for headers in (eve_h, {}):
                got = c.request(method, path, headers=headers, json={} if method == "POST"
                                else None)
                assert got.status_code == 404 and got.json()["error"] == "no such club"
        data = until_over(c, url, bob_h)
        assert [s["name"] for s in data["entrants"]] == ["Ann"]  # Bob did not enter
        late = c.post(f"{url}/enter", headers=bob_h, json={"in": True})
        assert late.status_code == 409
        assert c.post(f"{base}/{later.json()['id']}/enter", headers=bob_h,
                      json={"in": True}).json()["entered"]
        rounds = data["rounds_played"]
        assert [len(r) for r in rounds] == [2, 2]
        totals: dict[tuple[int, int], list[int]] = {}
        seats: dict[tuple[int, int], list[str]] = {}
        for r, tables in enumerate(rounds):
            deals = []
            for t in tables:
                got = c.get(t["record"], headers=bob_h)
                assert got.status_code == 200
                assert "attachment" in got.headers["content-disposition"]
                record = record_from_data(got.json())
                result = replay(record)
                assert result.ok and result.game_over
                assert t["totals"] == list(result.totals)
                totals[(r, t["table"])] = list(result.totals)
                seats[(r, t["table"])] = [s.name for s in record.seats]
                deals.append([rnd.deal for rnd in record.rounds])
                assert c.get(t["record"].replace(t["game"], "nope"),
                             headers=bob_h).status_code == 404
            assert deals[0] == deals[1]  # the same cards at every table of the round
        # the comparison by hand: Ann's side total minus the mean of that direction
        expected = 0.0
        for (r, t), names in seats.items():
            if "Ann" in names:
                side = names.index("Ann") % 2
                mean = (totals[(r, 1)][side] + totals[(r, 2)][side]) / 2
                expected += totals[(r, t)][side] - mean
        (ann_row,) = data["standings"]
        assert ann_row["name"] == "Ann" and ann_row["played"] == 2
        assert ann_row["score"] == round(expected, 1)
        assert any(totals[(r, 1)] != totals[(r, 2)] for r in range(2))  # not a trivial 0
        assert data["seed"] is not None  # shown once it is over
        # while another table of its round plays, a table's record (every card of the
        # round's deals) is refused, through the tournament and the game's own routes
        first, second = rounds[0][0]["game"], rounds[0][1]["game"]
        portal.call(_set_status, app.state.store, second, "playing")
        held = c.get(f"{url}/games/{first}/record", headers=bob_h)
        assert held.status_code == 403 and "same cards" in held.json()["error"]
        assert c.get(f"/api/games/{first}/record").status_code == 403
        assert c.get(f"/api/games/{first}/replay").status_code == 403
        portal.call(_set_status, app.state.store, second, "over")
        assert c.get(f"/api/games/{first}/record").status_code == 200
        page = c.get(f"/api/clubs/{club.id}", headers=bob_h).json()
        assert [x["name"] for x in page["tournaments"]["tournaments"]] == ["Tonight", "Next week"]


def test_members_entering_at_once_are_all_entered(database_url: str) -> None:
    with client(database_url) as c:
        app: Any = c.app
        players: Players = app.state.players
        clubs: Clubs = app.state.clubs
        tournaments = app.state.tournaments
        portal: Any = c.portal
        people = [portal.call(players.create, f"P{i}", key()) for i in range(6)]
        club = portal.call(clubs.create, "Cousins", people[0].id)
        token, _ = portal.call(clubs.new_invite, club.id, people[0].id)
        for p in people[1:]:
            portal.call(clubs.join, token, p.id)
        tid = portal.call(tournaments.schedule, club.id, people[0].id, {
            "profile": "biegames", "tables": 2, "rounds": 1,
            "starts": "2099-01-01T00:00:00Z"})

        async def everyone() -> list[bool]:
            import asyncio
            return list(await asyncio.gather(*(
                tournaments.enter(club.id, tid, p.id, True) for p in people[1:])))
        assert all(portal.call(everyone))
        view = portal.call(tournaments.view, club.id, tid, people[0].id)
        assert sorted(e["name"] for e in view["entrants"]) == [f"P{i}" for i in range(6)]
        assert portal.call(tournaments.enter, club.id, tid, people[3].id, False)
        view = portal.call(tournaments.view, club.id, tid, people[0].id)
        assert "P3" not in [e["name"] for e in view["entrants"]]
