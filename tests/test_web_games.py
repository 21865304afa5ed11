"""Whole games over the WebSocket: every profile and seating, hidden cards, restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from handfoot.game.loading import builtin_profile_names, load_profile
from web_client import Person, client, new_game, token_of

SEATINGS = [(name, str(layout)) for name in builtin_profile_names()
            for layout in load_profile(name).layouts]


@pytest.mark.parametrize(("profile", "layout"), SEATINGS)
def test_every_frame_shows_a_seat_only_what_it_may_see(tmp_path: Path, profile: str,
                                                       layout: str) -> None:
    """A one-round game: a person (played by a hard bot through its view) with bots in
    the other seats, and a spectator. Every frame each of them is sent is exactly its view
    of the game, and stays the same when every card hidden from it is dealt again; events
    name only cards on the table, or the mover's own cards on the mover's connection."""
    with client(tmp_path / "h.db") as c:
        players = int(layout.split("x")[0]) * int(layout.split("x")[1])
        human = len(profile + layout) % players
        seats = [{"kind": "bot", "level": "hard"} for _ in range(players)]
        seats[human] = {"kind": "human", "name": "Ann"}
        game = new_game(c, profile=profile, layout=layout, rounds=1, seats=seats)
        gid = game["game_id"]
        watcher = Person(c, gid, token_of(game["spectator_link"]), seat=None,
                         check_frames=True)
        watcher.connect()
        watcher.until("state")
        person = Person(c, gid, token_of(game["seats"][human]["link"]), seat=human, seed=7,
                        check_frames=True)
        person.connect()
        person.until("state")
        final = person.play_to_end()
        assert final["view"]["phase"] == "game_over"
        assert final["view"]["stats"] and final["view"]["winners"]
        while watcher.last is None or watcher.last["view"]["phase"] != "game_over":
            watcher.receive()
        assert watcher.seq == person.seq
        assert all("hand" not in f["view"] for f in watcher.frames)
        assert len(person.frames) > 1
        person.close()
        watcher.close()
        record = c.get(f"/api/games/{gid}/record").json()
        assert record["metadata"]["seed"]
        assert sum(len(r["moves"]) for r in record["rounds"]) == person.seq


def test_restart_resumes_the_game(tmp_path: Path) -> None:
    """A new app on the same database file brings back the game where it was, bots and
    all, and it plays on to the end; the restarted game matches one played without a
    restart move for move when the person plays the same."""
    db = tmp_path / "r.db"
    with client(db) as c:
        game = new_game(c, profile="biegames", layout="2x2", rounds=2,
                        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "hard"}] * 3)
        gid = game["game_id"]
        token = token_of(game["seats"][0]["link"])
        p = Person(c, gid, token, seat=0)
        p.connect()
        p.until("state")
        for _ in range(6):  # a few of the person's turns
            while not p.my_turn():
                p.receive()
            p.play(p.choose())
        seq = p.seq
        p.close()
    with client(db) as c:
        q = Person(c, gid, token, seat=0)
        q.bot, q.shadow, q.seq, q.snapshots = p.bot, p.shadow, p.seq, p.snapshots
        q.connect(seq)
        first = q.until("state")
        assert first["seq"] >= seq
        final = q.play_to_end()
        assert final["view"]["phase"] == "game_over"
        assert final["view"]["round"] == 2
        q.close()
        assert len(final["view"]["results"]) == 2


def test_expert_bots_think_in_a_process_pool_and_come_back_after_a_restart(
        tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    seats = [{"kind": "human"}, {"kind": "bot", "level": "expert"},
             {"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "hard"}]
    with client(db, expert_budget=0.02) as c:
        game = new_game(c, profile="biegames", rounds=1, seats=seats)
        p = Person(c, game["game_id"], token_of(game["seats"][0]["link"]), seat=0)
        p.connect()
        p.until("state")
        assert p.play_to_end()["view"]["phase"] == "game_over"
        p.close()
    with client(db, expert_budget=0.02) as c:
        status = c.post(f"/api/games/{game['game_id']}/status",
                        json={"token": token_of(game["spectator_link"])}).json()
        assert status["over"] and status["winners"]
