"""Rematch: one new game per finished game, each person told their own link only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from web_client import Person, client, new_game, token_of


def join(c: TestClient, game_id: str, token: str) -> tuple[int | None, Any]:
    """Connect to a game with a token: the seat it gets."""
    with c.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "seq": 0})
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome", welcome
        return welcome["seat"], welcome["game"]


def test_two_people_pressing_rematch_get_one_new_game_and_each_their_own_link(
        tmp_path: Path) -> None:
    # seat 1's person is away while seat 0 plays: a stand-in plays for them (no grace time)
    with client(tmp_path / "r.db", absent_grace=0.0) as c:
        game = new_game(c, profile="biegames", rounds=1, absent="bot",
                        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
                               {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}])
        gid = game["game_id"]
        tokens = {s["seat"]: token_of(s["link"]) for s in game["seats"] if "link" in s}
        ann = Person(c, gid, tokens[0], seat=0)
        ann.connect()
        ann.until("state")
        early = c.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]})
        assert early.status_code == 403 and "not over" in early.json()["error"]
        ann.play_to_end()
        bob = Person(c, gid, tokens[1], seat=1)
        bob.connect()
        bob.until("state")
        watcher = Person(c, gid, token_of(game["spectator_link"]), seat=None)
        watcher.connect()
        watcher.until("state")

        first = c.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]}).json()
        told = {p.seat: p.until("rematch") for p in (ann, bob, watcher)}
        second = c.post(f"/api/games/{gid}/rematch", json={"token": tokens[1]}).json()
        again = c.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]}).json()

        new = first["game_id"]
        assert new != gid and second["game_id"] == new and again["game_id"] == new
        assert again == first
        links = {0: first["seats"][0]["link"], 1: second["seats"][1]["link"]}
        # each answer carries the asker's link only
        assert [s["seat"] for s in first["seats"] if "link" in s] == [0]
        assert [s["seat"] for s in second["seats"] if "link" in s] == [1]
        assert links[0] != links[1]
        # each connection is told its own link, never another seat's token
        for seat in (0, 1):
            assert told[seat] == {"type": "rematch", "game_id": new, "link": links[seat]}
        assert told[None]["link"] == first["spectator_link"]
        assert "#s=" in told[None]["link"]
        for seat, message in told.items():
            text = str(message)
            others = [s for s in (0, 1) if s != seat]
            assert not any(token_of(links[s]) in text for s in others)
        # each old seat has the same seat (and the same people) in the new game
        for seat in (0, 1):
            got, info = join(c, new, token_of(links[seat]))
            assert got == seat
            assert [s["name"] for s in info["seats"]][:2] == ["Ann", "Bob"]
        assert join(c, new, token_of(told[None]["link"]))[0] is None
        # a spectator cannot ask for one
        assert c.post(f"/api/games/{gid}/rematch",
                      json={"token": token_of(game["spectator_link"])}).status_code == 403
        for p in (ann, bob, watcher):
            p.close()

    # after a restart of the server the old game still knows its rematch
    with client(tmp_path / "r.db") as c:
        third = c.post(f"/api/games/{gid}/rematch", json={"token": tokens[1]}).json()
        assert third["game_id"] == new and third["seats"][1]["link"] == links[1]
        with c.websocket_connect(f"/ws/{gid}") as ws:
            ws.send_json({"type": "hello", "token": tokens[0], "seq": 0})
            frames = [ws.receive_json() for _ in range(3)]
        assert frames[2] == {"type": "rematch", "game_id": new, "link": links[0]}
