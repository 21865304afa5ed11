"""Players and clubs through the server's API, as a family and as an attacker would use it:
a device added by a link (used or late links refused), a club made, invites used, withdrawn
and expired, a game between members, its standings; every club route 404 to anybody who
is not a member (enumerated from the app's route table); the export holds every row that
names the player; a deleted player's seats keep a neutral name."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from handfoot.web.club_routes import NO_CLUB
from handfoot.web.players import FORMER_PLAYER, PLAYER_HEADER, player_columns
from test_web_players import key
from web_client import Person, client, token_of

BOTS_2X1 = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}]


class Who:
    """A browser with a player: its key, sent as the header."""

    def __init__(self, c: TestClient, name: str) -> None:
        self.c = c
        self.key = key()
        r = c.post("/api/players", json={"name": name, "key": self.key, "label": "test"})
        assert r.status_code == 200, r.text
        self.id = r.json()["player"]["id"]
        self.name = name

    @property
    def headers(self) -> dict[str, str]:
        return {PLAYER_HEADER: self.key}

    def get(self, path: str) -> Any:
        return self.c.get(path, headers=self.headers)

    def post(self, path: str, body: Any = None) -> Any:
        return self.c.post(path, json={} if body is None else body, headers=self.headers)


def make_club(c: TestClient, owner: Who, *members: Who) -> str:
    club = owner.post("/api/clubs", {"name": "The Smiths"}).json()["club"]["id"]
    for m in members:
        token = token_of_fragment(owner.post(f"/api/clubs/{club}/invites").json()["path"])
        assert m.post("/api/invites/join", {"token": token}).status_code == 200
    return str(club)


def token_of_fragment(path: str) -> str:
    assert "#" in path and "?" not in path  # a token travels in the fragment only
    return path.split("#", 1)[1]


def club_paths(c: TestClient) -> list[tuple[str, str]]:
    """Every (method, path pattern) of the app that names a club."""
    out = []
    for route in c.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route) and "{club_id}" in route.path:
            out += [(m, route.path) for m in sorted(route.methods or ()) if m != "HEAD"]
    return out


# -- players and their devices -----------------------------------------------------------


def test_a_device_is_added_by_a_link_once_and_only_in_time(tmp_path: Any) -> None:
    with client(tmp_path / "d.db") as c:
        ann = Who(c, "Ann")
        link = ann.post("/api/me/device-link").json()
        assert link["path"].startswith("/me/device#") and "<svg" in link["qr"]
        token = token_of_fragment(link["path"])
        phone = key()
        used = c.post("/api/device", json={"token": token, "key": phone, "label": "phone"})
        assert used.status_code == 200 and used.json()["player"]["id"] == ann.id
        me = c.get("/api/me", headers={PLAYER_HEADER: phone}).json()
        assert me["player"]["name"] == "Ann" and len(me["devices"]) == 2
        again = c.post("/api/device", json={"token": token, "key": key()})
        assert again.status_code == 404  # used
        late = token_of_fragment(ann.post("/api/me/device-link").json()["path"])
        players: Any = c.app.state.players  # type: ignore[attr-defined]
        start = players.clock
        players.clock = lambda: start() + timedelta(minutes=10, seconds=1)
        try:
            assert c.post("/api/device", json={"token": late, "key": key()}).status_code == 404
        finally:
            players.clock = start
        # nobody and a bad key are not signed in
        assert c.get("/api/me").status_code == 401
        assert c.get("/api/me", headers={PLAYER_HEADER: key()}).status_code == 401
        assert c.get("/api/me", headers={PLAYER_HEADER: "x" * 500}).status_code == 401
        # a device removed no longer signs in
        phone_id = next(d["id"] for d in me["devices"] if d["label"] == "phone")
        assert ann.post("/api/me/forget-device", {"device": phone_id}).status_code == 200
        assert c.get("/api/me", headers={PLAYER_HEADER: phone}).status_code == 401


def test_names_are_capped_and_pages_escape_them(tmp_path: Any) -> None:
    with client(tmp_path / "n.db") as c:
        r = c.post("/api/players", json={"name": "<script>x</script>" + "a" * 80, "key": key()})
        assert len(r.json()["player"]["name"]) == 40
        assert c.post("/api/players", json={"name": "   ", "key": key()}).status_code == 400
        assert c.post("/api/players", json={"name": "Ann", "key": "short"}).status_code == 400
        ann = Who(c, "Ann")
        r = ann.post("/api/clubs", {"name": "<b>Smiths</b>"})
        assert r.json()["club"]["name"] == "<b>Smiths</b>"  # as text: the page sets textContent
        for page in ("/me", "/club", "/club/join", "/me/device", "/signin"):
            html = c.get(page).text
            assert "<b>Smiths</b>" not in html and 'src="/static/' in html


# -- clubs: who sees what ----------------------------------------------------------------


def test_every_club_route_is_404_to_anybody_but_a_member(database_url: str) -> None:
    """Every route of the app naming a club, for a real club and a made-up one, asked by
    nobody, by a stranger, by a former member: 404 with one and the same answer; the club's
    name, members and counts appear in no answer. A member gets something else."""
    with client(database_url) as c:
        ann, bob, eve, gone = (Who(c, n) for n in ("Ann", "Bob", "Eve", "Gone"))
        club = make_club(c, ann, bob, gone)
        game = ann.post(f"/api/clubs/{club}/games", {"profile": "biegames", "layout": "2x1",
                                                    "rounds": 1, "seats": BOTS_2X1}).json()
        assert gone.post(f"/api/clubs/{club}/leave").status_code == 200
        routes = club_paths(c)
        assert len(routes) >= 11  # the page, rename, leave, remove, invites, rules, games...
        answers = set()
        for method, pattern in routes:
            for club_id in (club, "made-up-club-id"):
                path = pattern.replace("{club_id}", club_id).replace(
                    "{game_id}", game["game_id"])
                for who in (None, eve, gone):
                    headers = {} if who is None else who.headers
                    r = c.request(method, path, json={"name": "x", "toml": "x"},
                                  headers=headers)
                    assert r.status_code == 404, (method, path, who and who.name, r.text)
                    answers.add(r.text)
                    assert "Smiths" not in r.text and "Ann" not in r.text
        assert answers == {json.dumps({"error": NO_CLUB}, separators=(",", ":"))}
        # a member is let in (each route then does its own work)
        page = bob.get(f"/api/clubs/{club}").json()
        assert page["club"]["name"] == "The Smiths"
        assert [m["name"] for m in page["members"]] == ["Ann", "Bob"]
        assert page["invites"] == []  # only the owner sees the invites
        assert "ratings" in page and "tournaments" in page  # sections others fill
        # the HTML page is the same for everybody: the club is in the fragment
        assert c.get("/club").text == c.get("/club", headers=bob.headers).text


def test_invites_can_be_withdrawn_and_expire(tmp_path: Any) -> None:
    with client(tmp_path / "i.db") as c:
        ann, bob, eve, zoe = (Who(c, n) for n in ("Ann", "Bob", "Eve", "Zoe"))
        club = make_club(c, ann)
        invite = ann.post(f"/api/clubs/{club}/invites").json()
        token = token_of_fragment(invite["path"])
        assert c.post("/api/invites/preview", json={"token": token}).json() == \
            {"club": {"name": "The Smiths"}}
        assert bob.post("/api/invites/join", {"token": token}).status_code == 200
        assert c.post("/api/invites/join", json={"token": token}).status_code == 401
        # a member who is not the owner may not withdraw invites
        (listed,) = ann.get(f"/api/clubs/{club}").json()["invites"]
        assert bob.post(f"/api/clubs/{club}/invites/revoke",
                        {"invite": listed["id"]}).status_code == 403
        assert ann.post(f"/api/clubs/{club}/invites/revoke",
                        {"invite": listed["id"]}).status_code == 200
        for path in ("/api/invites/preview", "/api/invites/join"):
            r = eve.post(path, {"token": token})
            assert r.status_code == 404 and "Smiths" not in r.text
        late = token_of_fragment(ann.post(f"/api/clubs/{club}/invites").json()["path"])
        clubs: Any = c.app.state.clubs  # type: ignore[attr-defined]
        start = clubs.clock
        clubs.clock = lambda: start() + timedelta(days=7, seconds=1)
        try:
            assert zoe.post("/api/invites/join", {"token": late}).status_code == 404
        finally:
            clubs.clock = start
        assert zoe.get(f"/api/clubs/{club}").status_code == 404
        assert zoe.post("/api/invites/join", {"token": late}).status_code == 200
        assert zoe.post("/api/invites/join", {"token": key()}).status_code == 404


def test_house_rules_are_checked_as_the_lobbys_and_offered_for_club_games(
        tmp_path: Any) -> None:
    with client(tmp_path / "h.db") as c:
        ann, bob, eve = (Who(c, n) for n in ("Ann", "Bob", "Eve"))
        club = make_club(c, ann, bob)
        bad = "extends = 'biegames'\nrounds = 'many'\n"
        lobby = c.post("/api/rules/check", json={"toml": bad}).json()
        r = bob.post(f"/api/clubs/{club}/rules", {"name": "Bad", "toml": bad})
        assert r.status_code == 400 and not lobby["ok"] and r.json()["error"] == lobby["error"]
        good = "extends = 'biegames'\n[game]\nrounds = 1\n"
        r = bob.post(f"/api/clubs/{club}/rules", {"name": "Gran's quick", "toml": good})
        assert r.status_code == 200 and r.json()["name"] == "Gran's quick"
        # the lobby, with the club chosen: a member's game with the club's rules
        body = {"club": club, "club_rules": "Gran's quick", "layout": "2x1",
                "seats": BOTS_2X1}
        game = ann.post("/api/games", body).json()
        assert game["club"] == club
        page = ann.get(f"/api/clubs/{club}").json()
        (live,) = page["live"]
        assert live["id"] == game["game_id"] and live["rules"] == "Gran's quick"
        assert live["seats"][0]["player"] == ann.id
        assert eve.post("/api/games", body).status_code == 404
        assert c.post("/api/games", json=body).status_code == 404
        missing = ann.post("/api/games", {**body, "club_rules": "nope"})
        assert missing.status_code == 400


# -- a game between members --------------------------------------------------------------


def test_a_game_between_members_counts_in_the_standings(database_url: str) -> None:
    """Ann deals a club game with an open seat; Bob takes it from the club page (Eve, not
    a member, cannot); a stand-in plays Bob's seat while he is away; at the end the
    standings, head-to-head and statistics count both, and the finished game is listed
    with its replay."""
    with client(database_url, absent_grace=0.0) as c:
        ann, bob, eve = (Who(c, n) for n in ("Ann", "Bob", "Eve"))
        club = make_club(c, ann, bob)
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        game = ann.post(f"/api/clubs/{club}/games", {
            "profile": "biegames", "layout": "2x1", "rounds": 1, "seats": seats,
            "absent": "bot"}).json()
        gid = game["game_id"]
        assert eve.post(f"/api/clubs/{club}/games/{gid}/join").status_code == 404
        joined = bob.post(f"/api/clubs/{club}/games/{gid}/join").json()
        assert joined["seat"] == 1 and joined["link"] == game["seats"][1]["link"]
        # no third seat for anybody, and Bob gets his own seat again
        assert bob.post(f"/api/clubs/{club}/games/{gid}/join").json()["seat"] == 1
        watch = bob.post(f"/api/clubs/{club}/games/{gid}/watch").json()
        assert watch["link"] == game["spectator_link"]
        person = Person(c, gid, token_of(game["seats"][0]["link"]), seat=0, seed=5)
        person.connect()
        person.until("state")
        final = person.play_to_end()
        person.close()
        totals = final["view"]["scores"]["totals"]
        page = ann.get(f"/api/clubs/{club}").json()
        assert page["live"] == [] and [g["id"] for g in page["finished"]] == [gid]
        # its Review link opens the review on the game's replay page
        assert page["finished"][0]["review"] == f"/replay/{gid}#review"
        standings = {s["name"]: s for s in page["standings"]}
        assert standings["Ann"]["games"] == standings["Bob"]["games"] == 1
        assert standings["Ann"]["points"] == totals[0] and standings["Bob"]["points"] == totals[1]
        assert standings["Ann"]["wins"] + standings["Bob"]["wins"] >= 1
        (h2h,) = page["head_to_head"]
        assert h2h["games"] == 1 and sorted(h2h["players"]) == ["Ann", "Bob"]
        stats = {s["name"]: s for s in page["statistics"]}
        assert stats["Ann"]["rounds"] == 1 and stats["Ann"]["average_round"] == totals[0]
        assert page["by_rules"][0]["rules"] == "biegames"
        assert c.get(f"/api/games/{gid}/replay").status_code == 200
        # Bob's page lists the game as finished
        (mine,) = bob.get("/api/me").json()["games"]
        assert mine == {**mine, "game_id": gid, "seat": 1, "finished": True, "club": club}
        # a rematch belongs to the club too, with the same players at their seats
        again = c.post(f"/api/games/{gid}/rematch",
                       json={"token": token_of(game["seats"][0]["link"])}).json()
        (live,) = ann.get(f"/api/clubs/{club}").json()["live"]
        assert live["id"] == again["game_id"]
        assert [s["player"] for s in live["seats"]] == [ann.id, bob.id]
        link = bob.post(f"/api/clubs/{club}/games/{again['game_id']}/join").json()["link"]
        status = c.post(f"/api/games/{again['game_id']}/status", json={"token": token_of(link)})
        assert status.status_code == 200  # his seat's own link
        watch = bob.post(f"/api/clubs/{club}/games/{again['game_id']}/watch").json()["link"]
        assert watch == again["spectator_link"]


def test_a_signed_in_seat_is_linked_by_the_table_page(tmp_path: Any) -> None:
    with client(tmp_path / "t.db") as c:
        ann = Who(c, "Ann")
        game = c.post("/api/games", json={"profile": "biegames", "layout": "2x1",
                                          "seats": [{"kind": "human"}, {"kind": "human"}]}
                      ).json()
        gid = game["game_id"]
        seat1 = token_of(game["seats"][1]["link"])
        assert c.post(f"/api/games/{gid}/sit", json={"token": seat1}).status_code == 401
        assert ann.post(f"/api/games/{gid}/sit", {"token": "nope"}).status_code == 404
        assert ann.post(f"/api/games/{gid}/sit", {"token": seat1}).json() == \
            {"seat": 1, "linked": True}
        bob = Who(c, "Bob")
        assert bob.post(f"/api/games/{gid}/sit", {"token": seat1}).json()["linked"] is False
        assert [g["seat"] for g in ann.get("/api/me").json()["games"]] == [1]


# -- the player's own data ---------------------------------------------------------------


def test_the_export_holds_every_row_naming_the_player_and_delete_anonymises(
        tmp_path: Any) -> None:
    with client(tmp_path / "x.db") as c:
        ann, bob = Who(c, "Ann"), Who(c, "Bob")
        club = make_club(c, ann, bob)
        ann.post(f"/api/clubs/{club}/rules", {"name": "Ours", "toml": "extends = 'biegames'\n"})
        ann.post("/api/me/device-link")
        ann.post("/api/me", {"email": "ann@example.org"})
        game = ann.post(f"/api/clubs/{club}/games", {"profile": "biegames", "layout": "2x1",
                                                    "rounds": 1, "seats": BOTS_2X1}).json()
        gid = game["game_id"]
        person = Person(c, gid, token_of(game["seats"][0]["link"]), seat=0, seed=2)
        person.connect()
        person.until("state")
        person.play_to_end()
        person.close()
        r = ann.get("/api/me/export")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        data = r.json()
        assert data["player"]["email"] == "ann@example.org"
        # every table with a column naming a player is in the export, with each row
        store: Any = c.app.state.store  # type: ignore[attr-defined]
        tables = {t.name for t, _ in player_columns()}
        assert {"player_keys", "player_links", "seat_players", "club_members",
                "club_invites", "club_rules"} <= tables == set(data["tables"])

        async def count(table: Any, column: Any) -> int:
            from sqlalchemy import func, select
            async with store.engine.connect() as conn:
                return int((await conn.execute(select(func.count()).select_from(table)
                                               .where(column == ann.id))).scalar_one())
        made_here = {"player_keys", "player_links", "seat_players", "club_members",
                     "club_invites", "club_rules"}  # rows this test made (others may be empty)
        for table, column in player_columns():
            n = c.portal.call(count, table, column)  # type: ignore[union-attr]
            assert len(data["tables"][table.name]) == n, table.name
            assert n > 0 or table.name not in made_here, table.name
        assert ann.key not in r.text  # the key itself is never stored
        (seat,) = data["tables"]["seat_players"]
        assert seat["game"] == gid and seat["stats"]["round_scores"]
        # delete: the record's seat is "Former player"; the key no longer signs in
        assert ann.post("/api/me/delete", {}).status_code == 400  # not confirmed
        assert ann.post("/api/me/delete", {"confirm": True}).json()["deleted"]
        assert ann.get("/api/me").status_code == 401
        record = c.get(f"/api/games/{gid}/record").json()
        assert FORMER_PLAYER in re.sub(r"\s+", " ", str(record))
        assert "Ann" not in str(record)
        page = bob.get(f"/api/clubs/{club}").json()
        assert [m["name"] for m in page["members"]] == ["Bob"]
        assert page["standings"][0]["name"] == FORMER_PLAYER
        assert page["finished"][0]["seats"][0]["name"] == FORMER_PLAYER


@pytest.mark.parametrize("path", ["/me", "/club", "/club/join", "/me/device", "/signin"])
def test_pages_say_nothing_without_a_key(tmp_path: Any, path: str) -> None:
    with client(tmp_path / "p.db") as c:
        r = c.get(path)
        assert r.status_code == 200 and "<main" in r.text
        assert "content-security-policy" in r.headers


def test_a_result_the_ending_process_did_not_store_is_stored_once_by_the_club_page(
        tmp_path: Any) -> None:
    """The process that stored a game's last move stopped before it stored the players'
    results (here: it had no hook): the club page stores them, and the hooks run once."""
    with client(tmp_path / "c.db") as c:
        app: Any = c.app
        heard: list[str] = []

        async def hook(game: Any) -> None:
            heard.append(game.game_id)

        app.state.players.on_game_finished(hook)
        app.state.tables.on_finished = None  # as if the process died after the last move
        ann = Who(c, "Ann")
        club = make_club(c, ann)
        game = ann.post(f"/api/clubs/{club}/games", {"profile": "biegames", "layout": "2x1",
                                                    "rounds": 1, "seats": BOTS_2X1}).json()
        gid = game["game_id"]
        person = Person(c, gid, token_of(game["seats"][0]["link"]), seat=0, seed=4)
        person.connect()
        person.until("state")
        person.play_to_end()
        person.close()
        assert heard == []
        page = ann.get(f"/api/clubs/{club}").json()
        assert page["standings"][0]["games"] == 1 and heard == [gid]
        ann.get(f"/api/clubs/{club}")
        assert heard == [gid]
        table = c.portal.call(app.state.tables.get, gid)  # type: ignore[union-attr]
        c.portal.call(app.state.players.game_finished, table)  # type: ignore[union-attr]
        assert heard == [gid]  # a second call stores nothing and calls no hook
