"""The club page's ratings and ``handfoot ratings`` over the same games' records agree
(issue 30, item 3's acceptance): club games between members and bots are played through the
server, the page's ratings are read from the club's API, the records downloaded, and the
command run on them."""

from __future__ import annotations

import base64
import io
import json
import os
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")

from handfoot.cli import main
from handfoot.runs.ratings import BOT_ANCHORS
from handfoot.web.clubs import Clubs
from handfoot.web.players import PLAYER_HEADER, Players
from web_client import Person, client, new_game, token_of


def key() -> str:
    return base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()


def test_the_club_page_and_the_command_agree(tmp_path: Path) -> None:
    with client(tmp_path / "db.sqlite") as c:
        app: Any = c.app
        players: Players = app.state.players
        clubs: Clubs = app.state.clubs
        portal: Any = c.portal
        keys = {"Ann": key(), "Bob": key()}
        ann = portal.call(players.create, "Ann", keys["Ann"])
        bob = portal.call(players.create, "Bob", keys["Bob"])
        club = portal.call(clubs.create, "The Smiths", ann.id)
        token, _ = portal.call(clubs.new_invite, club.id, ann.id)
        assert portal.call(clubs.join, token, bob.id) is not None
        games = []
        for i, (who, level) in enumerate([(ann, "easy"), (bob, "normal"), (ann, "hard")]):
            seats = [{"kind": "human", "name": who.name}, {"kind": "bot", "level": level}]
            game = new_game(c, profile="biegames", layout="2x1", rounds=1, seats=seats)
            gid = game["game_id"]
            portal.call(clubs.add_game, gid, club.id, "biegames")
            assert portal.call(players.link_seat, gid, 0, who.id)
            person = Person(c, gid, token_of(game["seats"][0]["link"]), seat=0, seed=i)
            person.connect()
            person.until("state")
            person.play_to_end()
            person.close()
            games.append(gid)
        page = c.get(f"/api/clubs/{club.id}", headers={PLAYER_HEADER: keys["Bob"]})
        assert page.status_code == 200, page.text
        section = page.json()["ratings"]
        web = {(p["name"], p["profile"]): (p["mu"], p["sigma"], p["games"])
               for p in section["players"]}
        assert set(web) == {("Ann", "biegames with rounds = 1"),
                            ("Bob", "biegames with rounds = 1")}
        assert web[("Ann", "biegames with rounds = 1")][2] == 2
        assert [a["level"] for a in section["anchors"]][-1] in BOT_ANCHORS
        assert any(row[0] == "hard (bot)" and row[2].startswith("\u2248")
                   for row in section["rows"])
        # a stranger gets nothing
        eve = key()
        portal.call(players.create, "Eve", eve)
        assert c.get(f"/api/clubs/{club.id}", headers={PLAYER_HEADER: eve}).status_code == 404
        files = []
        for gid in games:
            record = c.get(f"/api/games/{gid}/record")
            assert record.status_code == 200
            assert record.json()["metadata"]["bots"][1] is not None
            path = tmp_path / f"{gid}.json"
            path.write_text(record.text)
            files.append(str(path))
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["ratings", *reversed(files), "--json"]) == 0
    command = {(p["name"], p["profile"]): (p["mu"], p["sigma"], p["games"])
               for p in json.loads(out.getvalue())["players"] if not p["bot"]}
    assert command.keys() == web.keys()
    for who, (mu, sigma, count) in web.items():
        assert command[who] == pytest.approx((mu, sigma, count), abs=1e-9), who
    assert any(abs(mu - 25.0) > 0.01 for mu, _, _ in web.values())
