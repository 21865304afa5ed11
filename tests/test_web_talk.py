"""Reactions and chat at a table (handfoot.web.talk): they reach every seat and the watchers,
are refused (with the reason the sender sees) when the table's settings forbid them, past
the rate and for bad chat text; they are kept with the game and shown in its replay, never
in its record; and they cross server processes on PostgreSQL."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from handfoot.web import talk as talk_module
from web_client import Person, client, new_game, token_of

ITEM_KEYS = {"id", "seq", "seat", "name", "preset", "text", "at"}


def people_game(c: TestClient, *, talk: dict[str, bool] | None = None,
                players: int = 2) -> tuple[dict[str, Any], list[Person], Person]:
    """A game of people only (nobody moves unless the test says), everybody connected,
    and a watcher."""
    body: dict[str, Any] = {
        "profile": "biegames", "rounds": 1,
        "seats": [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy", "Di")]}
    if talk is not None:
        body["talk"] = talk
    game = new_game(c, **body)
    gid = game["game_id"]
    people = [Person(c, gid, token_of(s["link"]), seat=s["seat"]) for s in game["seats"]]
    watcher = Person(c, gid, token_of(game["spectator_link"]), seat=None)
    for p in [*people, watcher]:
        p.welcome = p.connect()  # type: ignore[attr-defined]
        p.until("state")
    return game, people, watcher


def reply(person: Person, rid: str) -> dict[str, Any]:
    """The message answering request ``rid`` (a talk, talk_settings or error)."""
    while True:
        m = person.receive()
        if m.get("id") == rid and m["type"] in ("talk", "talk_settings", "error"):
            return m


def heard(person: Person) -> dict[str, Any]:
    """The next talk message."""
    return person.until("talk")


def close_all(*people: Person) -> None:
    for p in people:
        p.close()


def test_a_reaction_reaches_every_seat_and_a_watcher(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, people, watcher = people_game(c, talk={"watchers": True})
        welcome = people[1].welcome  # type: ignore[attr-defined]
        assert welcome["talk"]["settings"] == {"reactions": True, "watchers": True,
                                               "chat": False}
        assert welcome["talk"]["host"] == 0 and welcome["talk"]["recent"] == []
        presets = {p["id"]: p["text"] for p in welcome["talk"]["presets"]}
        assert presets["gg"] == "Good game!" and presets["thumbs"] == "\N{THUMBS UP SIGN}"

        people[1].send({"type": "react", "id": "r1", "preset": "thumbs"})
        mine = reply(people[1], "r1")
        assert mine["type"] == "talk"
        (item,) = mine["items"]
        assert set(item) == ITEM_KEYS
        assert item["seat"] == 1 and item["name"] == "Bob" and item["preset"] == "thumbs"
        assert item["text"] == "\N{THUMBS UP SIGN}" and item["seq"] == 0
        assert item["at"].endswith("Z")
        for other in (people[0], people[2], people[3], watcher):
            got = heard(other)
            assert got == {"type": "talk", "id": None, "items": [item]}
        # the watcher may react here: everybody hears it, named as a watcher
        watcher.send({"type": "react", "id": "w1", "preset": "party"})
        (w,) = reply(watcher, "w1")["items"]
        assert w["seat"] is None and w["name"] == "A watcher" and w["preset"] == "party"
        for p in people:
            assert heard(p)["items"] == [w]
        # nothing about anybody's cards: only who, what and when
        assert set(w) == ITEM_KEYS
        close_all(*people, watcher)


def test_watchers_are_refused_unless_the_host_allows_it(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        _, people, watcher = people_game(c)
        watcher.send({"type": "react", "id": "w1", "preset": "gg"})
        refused = reply(watcher, "w1")
        assert refused["type"] == "error" and refused["code"] == "talk_off"
        assert "watchers may not talk" in refused["message"]
        # only the host changes the settings: not another seat, not the watcher
        for who, rid in ((people[1], "s1"), (watcher, "s2")):
            who.send({"type": "talk_settings", "id": rid, "watchers": True})
            answer = reply(who, rid)
            assert answer["type"] == "error" and answer["code"] == "not_host"
        people[0].send({"type": "talk_settings", "id": "s3", "watchers": True})
        changed = reply(people[0], "s3")
        assert changed == {"type": "talk_settings", "id": "s3",
                           "settings": {"reactions": True, "watchers": True, "chat": False}}
        for p in (people[1], watcher):
            assert p.until("talk_settings")["settings"]["watchers"] is True
        watcher.send({"type": "react", "id": "w2", "preset": "gg"})
        assert reply(watcher, "w2")["type"] == "talk"
        assert heard(people[0])["items"][0]["name"] == "A watcher"
        # a bad setting is refused and changes nothing
        people[0].send({"type": "talk_settings", "id": "s4", "chat": "yes"})
        bad = reply(people[0], "s4")
        assert bad["code"] == "bad_message" and "true or false" in bad["message"]
        close_all(*people, watcher)


def test_the_sixth_reaction_in_ten_seconds_is_refused_and_the_socket_stays(
        tmp_path: Path) -> None:
    with client(tmp_path / "t.db", talk_gap=0.0) as c:
        _, people, watcher = people_game(c)
        ann = people[0]
        for i in range(5):
            ann.send({"type": "react", "id": f"r{i}", "preset": "gg"})
            assert reply(ann, f"r{i}")["type"] == "talk"
        ann.send({"type": "react", "id": "r5", "preset": "gg"})
        refused = reply(ann, "r5")
        assert refused["code"] == "talk_rate"
        assert "at most 5 messages in 10 seconds" in refused["message"]
        assert 0 < refused["retry_after"] <= 10
        ann.send({"type": "chat", "id": "r6", "text": "hello"})  # chat counts too (and is off)
        assert reply(ann, "r6")["code"] == "talk_off"
        ann.send({"type": "ping"})
        assert ann.until("pong") == {"type": "pong"}  # still connected
        # another seat has its own allowance; a second socket of Ann's shares hers
        people[1].send({"type": "react", "id": "b1", "preset": "oops"})
        assert reply(people[1], "b1")["type"] == "talk"
        again = Person(c, ann.game_id, ann.token, seat=0)
        again.connect()
        again.send({"type": "react", "id": "a2", "preset": "gg"})
        assert reply(again, "a2")["code"] == "talk_rate"
        rows = c.portal.call(c.app.state.store.talk, ann.game_id)  # type: ignore[attr-defined]
        assert [r.seat for r in rows] == [0, 0, 0, 0, 0, 1]
        close_all(again, *people, watcher)


def test_two_reactions_need_a_gap_between_them(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:  # the default gap, 0.5 s
        _, people, watcher = people_game(c)
        ann = people[0]
        ann.send({"type": "react", "id": "r1", "preset": "gg"})
        ann.send({"type": "react", "id": "r2", "preset": "gg"})
        assert reply(ann, "r1")["type"] == "talk"
        refused = reply(ann, "r2")
        assert refused["code"] == "talk_rate" and "between two messages" in refused["message"]
        time.sleep(0.55)
        ann.send({"type": "react", "id": "r3", "preset": "gg"})
        assert reply(ann, "r3")["type"] == "talk"
        close_all(*people, watcher)


def test_reactions_and_chat_are_refused_when_turned_off(tmp_path: Path) -> None:
    with client(tmp_path / "t.db", talk_gap=0.0) as c:
        _, people, watcher = people_game(c, talk={"reactions": False})
        ann, bob = people[:2]
        bob.send({"type": "react", "id": "r1", "preset": "gg"})
        refused = reply(bob, "r1")
        assert refused["code"] == "talk_off" and "reactions are off" in refused["message"]
        bob.send({"type": "chat", "id": "c1", "text": "hi"})
        refused = reply(bob, "c1")
        assert refused["code"] == "talk_off" and "chat is off" in refused["message"]
        bob.send({"type": "chat", "id": "c1b", "text": "x" * 300})  # the settings come first
        assert reply(bob, "c1b")["code"] == "talk_off"
        ann.send({"type": "talk_settings", "id": "s1", "reactions": True, "chat": True})
        assert reply(ann, "s1")["settings"] == {"reactions": True, "watchers": False,
                                                "chat": True}
        bob.until("talk_settings")
        bob.send({"type": "chat", "id": "c2", "text": "hi"})
        assert reply(bob, "c2")["items"][0]["text"] == "hi"
        ann.send({"type": "talk_settings", "id": "s2", "reactions": False, "chat": False})
        reply(ann, "s2")
        bob.until("talk_settings")
        bob.send({"type": "react", "id": "r2", "preset": "gg"})
        assert reply(bob, "r2")["code"] == "talk_off"
        # the settings are the game's: a restart keeps them
        rows = c.portal.call(c.app.state.store.talk, ann.game_id)  # type: ignore[attr-defined]
        assert len(rows) == 1
        close_all(*people, watcher)
    with client(tmp_path / "t.db") as c:
        bob = Person(c, people[1].game_id, people[1].token, seat=1)
        welcome = bob.connect()
        assert welcome["talk"]["settings"] == {"reactions": False, "watchers": False,
                                               "chat": False}
        assert [i["text"] for i in welcome["talk"]["recent"]] == ["hi"]
        bob.close()


def test_chat_text_is_capped_one_line_and_kept_as_text(tmp_path: Path) -> None:
    with client(tmp_path / "t.db", talk_gap=0.0, talk_limit=50) as c:
        _, people, watcher = people_game(c, talk={"chat": True})
        ann, bob = people[:2]
        refusals = {
            "x" * 201: "at most 200 characters (this one has 201)",
            "two\nlines": "without control characters",
            "bell\x07": "without control characters",
            "evil\u202etxt.exe": "without control characters",
            "   ": "needs some text",
        }
        for i, (text, why) in enumerate(refusals.items()):
            ann.send({"type": "chat", "id": f"c{i}", "text": text})
            answer = reply(ann, f"c{i}")
            assert answer["type"] == "error" and answer["code"] == "talk_text", answer
            assert why in answer["message"]
        # 200 characters after NFC normalisation: 200 letters with combining accents pass
        ann.send({"type": "chat", "id": "n1", "text": "e\u0301" * 200})
        (item,) = reply(ann, "n1")["items"]
        assert item["text"] == "\u00e9" * 200 and item["preset"] is None
        html = '<img src=x onerror="alert(1)"> <b>hi</b> https://example.org &amp;'
        ann.send({"type": "chat", "id": "h1", "text": html})
        assert reply(ann, "h1")["items"][0]["text"] == html  # the page shows it as text
        assert [i["text"] for i in heard(bob)["items"]] == ["\u00e9" * 200]
        assert heard(bob)["items"][0]["text"] == html
        # a preset that is not in the list, a chat without text: not the protocol
        ann.send({"type": "react", "id": "p1", "preset": "<script>"})
        assert reply(ann, "p1")["code"] == "bad_message"
        ann.send({"type": "chat", "id": "p2"})  # (not read as a message: no id in the answer)
        answer = ann.until("error")
        assert answer["code"] == "bad_message" and "chat: text" in answer["message"]
        close_all(*people, watcher)


def test_a_game_made_with_bad_talk_settings_is_refused(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        for talk, why in (({"chat": "yes"}, "chat: true or false"),
                          ({"emoji": True}, "'emoji' is not a setting"),
                          ([True], "talk: an object")):
            r = c.post("/api/games", json={"profile": "biegames", "talk": talk})
            assert r.status_code == 400 and why in r.json()["error"]


def _play_with_talk(c: TestClient, react: bool) -> tuple[str, list[dict[str, Any]]]:
    """A one-round game, a person and three bots; the person reacts at the deal, after
    their first move and after their last if ``react``. The game's id and the talk said."""
    game = new_game(c, profile="biegames", rounds=1, talk={"chat": True},
                    seats=[{"kind": "human", "name": "Ann"}]
                    + [{"kind": "bot", "level": "easy"}] * 3)
    gid = game["game_id"]
    ann = Person(c, gid, token_of(game["seats"][0]["link"]), seat=0, seed=3)
    ann.connect()
    ann.until("state")
    said: list[dict[str, Any]] = []

    def say(message: dict[str, Any]) -> None:
        if react:
            time.sleep(0.5)  # the gap between two messages
            ann.send(message)
            said.extend(reply(ann, message["id"])["items"])

    say({"type": "react", "id": "r0", "preset": "hi"})
    while not ann.my_turn():
        ann.receive()
    ann.play(ann.choose())
    say({"type": "chat", "id": "r1", "text": "<b>my</b> first move"})
    ann.play_to_end()
    say({"type": "react", "id": "r2", "preset": "gg"})
    ann.close()
    return gid, said


def test_talk_is_kept_with_the_game_shown_in_its_replay_and_never_in_its_record(
        tmp_path: Path) -> None:
    with client(tmp_path / "t.db", seed_source=lambda *_: 20261206) as c:
        gid, said = _play_with_talk(c, react=True)
        quiet, none = _play_with_talk(c, react=False)
        assert none == [] and len(said) == 3 and said[0]["seq"] == 0 and said[1]["seq"] >= 1
        record = c.get(f"/api/games/{gid}/record").content
        quiet_record = c.get(f"/api/games/{quiet}/record").content
        # the record is the same, byte for byte, as a game with the same moves and no talk
        # (but for its id and the time it finished)
        def same(data: bytes) -> bytes:
            return re.sub(rb'"finished":"[^"]*"', b'"finished":""',
                          data.replace(gid.encode(), quiet.encode()))
        assert b'"finished":"' in record and same(record) == same(quiet_record)
        assert b"first move" not in record and b"talk" not in record
        replay = c.get(f"/api/games/{gid}/replay").json()
        frames = replay["frames"]
        assert all(set(f) == {"move", "words", "seat", "round", "state", "talk"}
                   for f in frames)
        shown = [(i, item) for i, f in enumerate(frames) for item in f["talk"]]
        assert [item for _, item in shown] == said
        # each at the move it followed: the deal, the person's first move, the last frame
        assert shown[0][0] == 0
        first = shown[1][0]
        assert frames[first]["seat"] == 0 and frames[first]["move"] is not None
        assert all(f["seat"] != 0 or f["move"] is None for f in frames[1:first])
        assert shown[2][0] == len(frames) - 1
        assert shown[1][1]["text"] == "<b>my</b> first move"
        assert "first move" not in json.dumps(replay["record"])
    # kept with the game: a restarted server still has it
    with client(tmp_path / "t.db") as c:
        rows = c.portal.call(c.app.state.store.talk, gid)  # type: ignore[attr-defined]
        assert [r.preset for r in rows] == ["hi", None, "gg"]


def test_a_flood_of_reactions_stores_five_and_the_moves_go_on(tmp_path: Path) -> None:
    with client(tmp_path / "t.db", talk_gap=0.0) as c:
        game = new_game(c, profile="biegames", rounds=1,
                        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3)
        ann = Person(c, game["game_id"], token_of(game["seats"][0]["link"]), seat=0)
        ann.connect()
        ann.until("state")
        while not ann.my_turn():
            ann.receive()
        start = time.perf_counter()
        for i in range(150):
            ann.send({"type": "react", "id": f"f{i}", "preset": "gg"})
        ann.send({"type": "move", "id": "m1", "seq": ann.seq, "move": ann.choose()})
        answers: dict[str, str] = {}
        while "m1" not in answers:
            m = ann.receive()
            if m.get("id") is not None:
                answers[m["id"]] = m.get("code") or m["type"]
        took = time.perf_counter() - start
        assert answers["m1"] == "ack"
        flood = [answers.get(f"f{i}") for i in range(150)]
        assert flood == ["talk"] * 5 + ["talk_rate"] * 145  # each answered, in order
        rows = c.portal.call(c.app.state.store.talk, ann.game_id)  # type: ignore[attr-defined]
        assert len(rows) == 5  # a refusal touches no database
        assert took < 5.0, took
        ann.close()


def test_the_presets_are_a_fixed_list_with_unique_ids() -> None:
    ids = [p.id for p in talk_module.PRESETS]
    assert len(ids) == len(set(ids)) >= 10
    assert {"Good game!", "Nice meld!", "Your turn!", "Oops", "Thanks, partner",
            "Hurry up, please", "Well played"} <= {p.text for p in talk_module.PRESETS}
    assert all(len(p.id) <= 16 for p in talk_module.PRESETS)  # the stored column


# -- several server processes (PostgreSQL) -------------------------------------------------


def _wait(condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_talk_crosses_processes_on_postgres(postgres_url: str) -> None:
    """Two apps (two Tables, each listening: as two processes) on one PostgreSQL: a reaction
    said on A reaches B's seat and watcher once (and A's people once); a change of the
    settings made on A is told on B and obeyed there."""
    with client(postgres_url, talk_gap=0.0) as ca, client(postgres_url, talk_gap=0.0) as cb:
        game = new_game(ca, profile="biegames", rounds=1, talk={"watchers": True},
                        seats=[{"kind": "human", "name": name}
                               for name in ("Ann", "Bob", "Cy", "Di")])
        gid = game["game_id"]
        tokens = [token_of(s["link"]) for s in game["seats"]]
        ann = Person(ca, gid, tokens[0], seat=0)
        bob = Person(cb, gid, tokens[1], seat=1)
        watcher = Person(cb, gid, token_of(game["spectator_link"]), seat=None)
        for p in (ann, bob, watcher):
            p.connect()
            p.until("state")
        table_b = cb.portal.call(cb.app.state.tables.get, gid)  # type: ignore[attr-defined]
        _wait(lambda: table_b.sharing.remote_known)
        ann.send({"type": "react", "id": "r1", "preset": "nice"})
        (item,) = reply(ann, "r1")["items"]
        for p in (bob, watcher):
            assert heard(p) == {"type": "talk", "id": None, "items": [item]}
        bob.send({"type": "react", "id": "b1", "preset": "thanks"})
        (back,) = reply(bob, "b1")["items"]
        assert heard(ann)["items"] == [back]
        assert heard(watcher)["items"] == [back]
        # Ann's own reaction came back to A from PostgreSQL: it was not sent to her twice
        ann.send({"type": "ping"})
        later = []
        while (m := ann.receive())["type"] != "pong":
            later.append(m)
        assert [m for m in later if m["type"] == "talk"] == []
        ann.send({"type": "talk_settings", "id": "s1", "reactions": False})
        assert reply(ann, "s1")["settings"]["reactions"] is False
        assert bob.until("talk_settings")["settings"]["reactions"] is False
        assert watcher.until("talk_settings")["settings"]["reactions"] is False
        bob.send({"type": "react", "id": "b2", "preset": "gg"})
        assert reply(bob, "b2")["code"] == "talk_off"
        rows = ca.portal.call(ca.app.state.store.talk, gid)  # type: ignore[attr-defined]
        assert [(r.seat, r.preset) for r in rows] == [(0, "nice"), (1, "thanks")]
        close_all(ann, bob, watcher)


def test_talk_crosses_two_server_processes(postgres_url: str) -> None:
    """Two ``handfoot serve`` processes on one PostgreSQL (as ``--workers 2``): Ann on A,
    Bob and a watcher on B. Ann's reaction reaches B's connections, Bob's chat reaches A,
    and each is stored once."""
    from test_web_workers import _Socket, servers

    def next_of(sock: Any, kind: str) -> dict[str, Any]:
        while True:
            m: dict[str, Any] = sock.receive_json()
            if m["type"] == kind:
                return m

    with servers(postgres_url) as (a, b):
        game = a.post("/api/games", {
            "profile": "biegames", "rounds": 1, "talk": {"watchers": True, "chat": True},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
                      {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]})
        gid = game["game_id"]
        links = [token_of(game["seats"][0]["link"]), token_of(game["seats"][1]["link"]),
                 token_of(game["spectator_link"])]
        sockets = [_Socket(a, gid), _Socket(b, gid), _Socket(b, gid)]
        ann, bob, watcher = sockets
        try:
            for sock, token in zip(sockets, links, strict=True):
                sock.send_json({"type": "hello", "token": token, "seq": 0})
                assert next_of(sock, "welcome")["talk"]["settings"]["chat"] is True
            time.sleep(1.0)  # each process listening and holding the table
            ann.send_json({"type": "react", "id": "a1", "preset": "hi"})
            (item,) = next_of(ann, "talk")["items"]
            assert item["name"] == "Ann" and item["text"] == "Hello!"
            for sock in (bob, watcher):
                assert next_of(sock, "talk") == {"type": "talk", "id": None, "items": [item]}
            bob.send_json({"type": "chat", "id": "b1", "text": "hi <Ann> & all"})
            (said,) = next_of(bob, "talk")["items"]
            assert next_of(ann, "talk")["items"] == [said]
            assert said["text"] == "hi <Ann> & all" and said["seat"] == 1
        finally:
            for sock in sockets:
                sock.__exit__()
        replayed = {(i["seat"], i["text"]) for i in stored_talk(postgres_url, gid)}
        assert replayed == {(0, "Hello!"), (1, "hi <Ann> & all")}


def stored_talk(database_url: str, game_id: str) -> list[dict[str, Any]]:
    """The game's talk as stored, read with a store of the test's own."""
    import asyncio

    from handfoot.web.store import Store

    async def read() -> list[dict[str, Any]]:
        store = Store(database_url)
        try:
            return [talk_module.talk_json(r) for r in await store.talk(game_id)]
        finally:
            await store.close()
    return asyncio.run(read())
