"""The JSON API and the WebSocket protocol, message by message (Starlette's TestClient)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.moves import parse_move
from handfoot.game.values import Event
from handfoot.web import daily
from handfoot.web.app import create_app
from handfoot.web.protocol import (
    MessageError,
    event_json,
    hand_kinds_json,
    hint_json,
    read_message,
)
from web_client import Person, client, new_game, token_of


@pytest.fixture
def c(tmp_path: Path) -> TestClient:
    with client(tmp_path / "p.db") as test_client:
        yield test_client  # type: ignore[misc]


def one_person(c: TestClient, **body: object) -> tuple[dict[str, object], Person]:
    body.setdefault("profile", "biegames")
    body.setdefault("rounds", 1)
    game = new_game(c, **body)
    seats = game["seats"]
    assert isinstance(seats, list)
    p = Person(c, str(game["game_id"]), token_of(seats[0]["link"]), seat=0)
    p.connect()
    p.until("state")
    return game, p


def to_my_turn(p: Person) -> None:
    while not p.my_turn():
        p.receive()


# --- the API ---------------------------------------------------------------------------------


def test_profiles_lists_every_profile_bot_option_and_parameter(c: TestClient) -> None:
    data = c.get("/api/profiles").json()
    assert [p["name"] for p in data["profiles"]] == builtin_profile_names()
    assert data["default"] == "partnership-13"
    assert "expert" in data["bots"] and "hard" in data["bots"]
    first = data["profiles"][0]
    assert {"name", "title", "source", "layouts", "default_layout", "rounds", "summary"} <= \
        set(first)
    assert any(o["key"] == "sevens_from_hell" for o in data["options"])
    assert any(p["key"] == "rounds" for p in data["parameters"])


@pytest.mark.parametrize("profile", builtin_profile_names())
def test_a_game_of_every_profile_and_seating_can_be_created(c: TestClient, profile: str) -> None:
    for layout in load_profile(profile).layouts:
        n = layout.players
        seats = [{"kind": "human", "name": f"P{i}"} if i % 2 == 0
                 else {"kind": "bot", "level": "easy"} for i in range(n)]
        game = new_game(c, profile=profile, layout=str(layout), seats=seats, absent="bot")
        assert len(game["seats"]) == n
        for i, seat in enumerate(game["seats"]):
            assert seat["seat"] == i
            if i % 2 == 0:
                assert seat["link"].startswith(f"/game/{game['game_id']}#t=")
                assert len(token_of(seat["link"])) >= 43  # 256 bits
            else:
                assert "link" not in seat and seat["level"] == "easy"
        assert len(game["game_id"]) >= 22  # 128 bits
        status = c.post(f"/api/games/{game['game_id']}/status",
                        json={"token": token_of(game["spectator_link"])}).json()
        assert status["layout"] == str(layout) and status["over"] is False
        assert status["profile"] == profile


@pytest.mark.parametrize(("body", "words"), [
    ({"profile": "nope"}, "not a built-in profile"),
    ({"profile": "biegames", "layout": "3x3"}, "not 3x3"),
    ({"profile": "biegames", "overrides": {"roundz": 2}}, "unknown parameter"),
    ({"profile": "biegames", "seats": [{"kind": "human"}]}, "one entry for each"),
    ({"profile": "biegames", "seats": [{"kind": "bot", "level": "genius"}] * 4}, "level"),
    ({"profile": "biegames", "absent": "maybe"}, "absent"),
    ({"toml": "extends = \"/etc/passwd\""}, "must name a built-in profile"),
    ({"toml": "this is not toml"}, "not valid TOML"),
    ({"toml": "x = " + "[" * 1000 + "]" * 1000}, "nested far too deeply"),
    ({"toml": "[game]\nrounds = " + "9" * 5000}, "far too long"),
])
def test_bad_game_requests_say_why(c: TestClient, body: dict[str, object], words: str) -> None:
    r = c.post("/api/games", json=body)
    assert r.status_code == 400
    assert words in r.json()["error"]


def test_house_rules_are_checked_and_told_in_words(c: TestClient) -> None:
    ok = c.post("/api/rules/check", json={"base": "biegames", "profile": "biegames",
                                          "overrides": {"rounds": 1},
                                          "options": {"sevens_from_hell": True}}).json()
    assert ok["ok"] and ok["differences"]
    toml = 'extends = "biegames"\n[game]\nrounds = 2\n'
    ok = c.post("/api/rules/check", json={"toml": toml}).json()
    assert ok["ok"] and "2x2" in ok["layouts"]
    bad = c.post("/api/rules/check", json={"toml": "[game]\nroundz = 2\n"}).json()
    assert not bad["ok"] and "roundz" in bad["error"]
    game = new_game(c, toml=toml)
    assert c.post(f"/api/games/{game['game_id']}/status",
                  json={"token": token_of(game["spectator_link"])}).json()["rounds"] == 2


def test_record_and_replay_wait_for_the_end(c: TestClient) -> None:
    game = new_game(c, profile="biegames")
    gid = game["game_id"]
    assert c.get(f"/api/games/{gid}/record").status_code == 403
    assert c.get(f"/api/games/{gid}/replay").json() == {"error": "the game is not over"}
    assert c.get("/api/games/nope/record").status_code == 404
    assert c.post(f"/api/games/{gid}/status", json={"token": "wrong"}).status_code == 404


# --- the WebSocket -------------------------------------------------------------------------


def test_welcome_and_first_state(c: TestClient) -> None:
    _, p = one_person(c, absent="bot")
    assert p.last is not None
    view = p.last["view"]
    assert view["seat"] == 0 and view["phase"] in ("draw", "play")
    assert len(view["hand"]) == view["packets"][0]["hand"]
    assert p.last["presence"] == [True, True, True, True]
    assert p.last["waiting"] is None
    p.close()


def test_illegal_moves_give_the_engine_reason_and_change_nothing(c: TestClient) -> None:
    _, p = one_person(c)
    to_my_turn(p)
    seq = p.seq
    assert p.last is not None
    before = p.last["view"]
    for move, words in [("discard JK", ""), ("meld K", ""), ("flap", "")]:
        p.send({"type": "move", "id": f"x{move}", "seq": seq, "move": move})
        reply = p.until("error")
        assert reply["code"] == "illegal" and reply["id"] == f"x{move}"
        assert reply["message"] and words in reply["message"]
    p.send({"type": "check", "id": "k", "move": "meld K"})
    checked = p.until("checked")
    assert checked["ok"] is False and checked["message"]
    p.send({"type": "ping"})
    assert p.until("pong") == {"type": "pong"}
    p.send({"type": "move", "id": "again", "seq": seq, "move": "flap"})
    p.until("error")
    # nothing changed: a fresh connection sees the same table
    p.close()
    p.connect()
    state = p.until("state")
    assert state["seq"] == seq and state["view"] == before
    p.close()


def test_only_the_seat_to_act_moves(c: TestClient) -> None:
    game = new_game(c, profile="biegames", seats=[{"kind": "human"}] * 4)
    links = [token_of(s["link"]) for s in game["seats"]]
    first = Person(c, game["game_id"], links[0], seat=0)
    first.connect()
    to_act = first.until("state")["view"]["to_act"]
    first.close()
    other = (to_act + 1) % 4
    p = Person(c, game["game_id"], links[other], seat=other)
    p.connect()
    p.until("state")
    p.send({"type": "move", "id": "n", "seq": 0, "move": "draw"})
    error = p.until("error")
    assert error["code"] == "not_your_turn" and "turn" in error["message"]
    p.send({"type": "hint", "id": "h"})
    assert p.until("hint")["move"] is None
    p.close()


def test_duplicate_and_stale_messages(c: TestClient) -> None:
    _, p = one_person(c)
    to_my_turn(p)
    seq = p.seq
    move = p.choose()
    ack = p.play(move, "dup")
    assert ack["seq"] == seq + 1
    # the same request id again: the same ack, nothing played twice
    p.send({"type": "move", "id": "dup", "seq": seq, "move": move})
    again = p.until("ack")
    assert again == {"type": "ack", "id": "dup", "seq": seq + 1}
    # a new request with an old sequence number: an error, then the table as it is now
    p.send({"type": "move", "id": "old", "seq": seq, "move": "draw"})
    error = p.until("error")
    assert error["code"] == "stale" and error["id"] == "old"
    state = p.until("state")
    assert state["seq"] == p.seq >= seq + 1
    p.close()


def test_a_client_that_asks_gets_its_ack_within_the_state_that_shows_its_move(
        c: TestClient) -> None:
    """``"acks": "state"`` in the hello: the mover's state carries its move's id (one frame
    where there were two); nobody else's does, and a repeated id still gets an ``ack``."""
    game, watcher = one_person(c)
    p = Person(c, str(game["game_id"]), token_of(game["seats"][0]["link"]), seat=0)  # type: ignore[index]
    p.connect(acks="state")
    p.until("state")
    watcher.close()
    s = Person(c, str(game["game_id"]), token_of(str(game["spectator_link"])), seat=None)
    s.connect(acks="state")
    s.until("state")
    to_my_turn(p)
    while s.seq < p.seq:
        s.receive()
    seq = p.seq
    p.send({"type": "move", "id": "m1", "seq": seq, "move": p.choose()})
    frames = [p.receive()]
    while frames[-1]["type"] != "state":
        frames.append(p.receive())
    assert "ack" not in [f["type"] for f in frames], frames  # no ack frame before it
    assert frames[-1]["id"] == "m1" and frames[-1]["seq"] == seq + 1
    watched = s.until("state")
    assert watched["seq"] == seq + 1 and "id" not in watched
    p.send({"type": "move", "id": "m1", "seq": seq, "move": "draw"})
    assert p.until("ack") == {"type": "ack", "id": "m1", "seq": seq + 1}
    for acks in ("state", "frame"):
        assert read_message({"type": "hello", "token": "t", "acks": acks}).type == "hello"
    with pytest.raises(MessageError):
        read_message({"type": "hello", "token": "t", "acks": "never"})
    p.close()
    s.close()


def test_reconnect_with_the_last_seq(c: TestClient) -> None:
    _, p = one_person(c)
    to_my_turn(p)
    p.play(p.choose())
    seq = p.seq
    p.close()
    p.connect(seq)
    state = p.until("state")
    assert state["seq"] >= seq
    assert all(e["n"] <= state["seq"] for e in state["events"])
    if state["events"]:
        assert state["events"][-1]["n"] == state["seq"]
    p.close()


def test_a_joined_connection_uses_the_sockets_own_receive_and_send(c: TestClient) -> None:
    """The WebSocket endpoint hands a connection its socket's ASGI receive and send
    (web/app.py's SocketEndpoint): a table's connections read and write their frames
    through them, and a move over them is answered as ever."""
    game, p = one_person(c)
    tables = c.app.state.tables  # type: ignore[attr-defined]
    table = next(t for t in tables.live() if t.id == game["game_id"])
    assert table.connections and all(conn.channel is not None for conn in table.connections)
    to_my_turn(p)
    seq = p.seq
    assert p.play(p.choose(), "m1")["seq"] == seq + 1
    p.close()


def test_spectators_see_the_public_view_and_cannot_move(c: TestClient) -> None:
    game, p = one_person(c)
    s = Person(c, str(game["game_id"]), token_of(str(game["spectator_link"])), seat=None)
    s.connect()
    state = s.until("state")
    assert "hand" not in state["view"] and "legal" not in state["view"]
    assert state["view"]["seat"] is None
    s.send({"type": "move", "id": "s1", "seq": s.seq, "move": "draw"})
    reply = s.until("error")
    assert reply["code"] == "not_your_turn"
    s.send({"type": "hint", "id": "h"})
    assert s.until("hint")["move"] is None
    s.close()
    p.close()


def test_bad_tokens_and_bad_messages(c: TestClient) -> None:
    game = new_game(c, profile="biegames")
    gid = game["game_id"]
    with c.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token", "seq": 0})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "auth"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    other = new_game(c, profile="biegames")
    with c.websocket_connect(f"/ws/{gid}") as ws:  # a token of another game
        ws.send_json({"type": "hello", "token": token_of(other["seats"][0]["link"])})
        assert ws.receive_json()["code"] == "auth"
    with c.websocket_connect("/ws/no-such-game") as ws:
        ws.send_json({"type": "hello", "token": token_of(game["seats"][0]["link"])})
        assert ws.receive_json()["code"] == "auth"
    with c.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "move", "seq": 0, "move": "draw"})
        assert ws.receive_json()["code"] == "auth"
    with c.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_text("not json")
        assert ws.receive_json()["code"] == "bad_message"
    p = Person(c, gid, token_of(game["seats"][0]["link"]), seat=0)
    p.connect()
    p.until("state")
    for bad in ['{"type": "fly"}', "[]", '{"type": "move", "move": "draw"}',
                '{"type": "continue"}', '{"type": "move", "seq": -1, "move": "draw"}']:
        p.ws.send_text(bad)
        assert p.until("error")["code"] == "bad_message"
    p.close()


def test_read_message_checks_every_field() -> None:
    assert read_message({"type": "hello", "token": "t", "seq": 3}).seq == 3
    assert read_message({"type": "move", "id": 7, "seq": 0, "move": "draw"}).id == "7"
    for bad in [{"type": "hello"}, {"type": "move", "seq": True, "move": "draw"},
                {"type": "check"}, {"type": "ping", "id": "x" * 65}]:
        with pytest.raises(MessageError):
            read_message(bad)


def test_hint_gives_a_move_and_a_reason(c: TestClient) -> None:
    _, p = one_person(c)
    to_my_turn(p)
    p.send({"type": "hint", "id": "h1"})
    hint = p.until("hint")
    assert hint["id"] == "h1" and hint["move"] and hint["reason"]
    assert hint["move"] == p.choose()  # what the hard bot would do
    p.close()


def test_a_hint_names_the_kinds_of_the_cards_it_plays_from_the_hand() -> None:
    advice = hint_json("h2", parse_move("pickup T T 2 | K: JK | new 9 9 9"), "why")
    assert advice == {"type": "hint", "id": "h2", "move": "pickup T T 2 | K: JK | new 9 9 9",
                      "words": "take the pile: 10 10 2 with the top card; meld joker onto "
                               "the kings and 9 9 9 (a new meld)",
                      "kinds": ["10", "10", "2", "JK", "9", "9", "9"], "reason": "why"}
    assert hand_kinds_json(parse_move("goout 2 JK discard 3")) == ["2", "JK", "B3"]
    assert hand_kinds_json(parse_move("discard T")) == ["10"]
    assert hand_kinds_json(parse_move("pickup")) == hand_kinds_json(parse_move("yes")) == []
    assert hint_json(None, None, "not your turn")["kinds"] == []


def test_events_name_melds_as_the_view_does() -> None:
    melds = [{"target": "T", "cards": ["TD", "TS", "2C"], "new": True},
             {"target": "wild", "cards": ["2S", "JK", "2D"], "new": False}]
    event = Event(4, 1, 2, {"type": "meld", "melds": melds, "words": "melded ..."}, None)
    data = event_json(event, None)
    assert [m["target"] for m in data["melds"]] == ["10", "wild"]
    assert data["melds"][0]["cards"] == ["TD", "TS", "2C"] and data["n"] == 5
    assert melds[0]["target"] == "T"  # the engine's event is left as it was


# --- absent players, rounds, the end -------------------------------------------------------


def test_a_bot_stands_in_for_an_absent_person_where_the_table_chose_it(tmp_path: Path) -> None:
    with client(tmp_path / "a.db", absent_grace=0.0) as c:
        game = new_game(c, profile="biegames", rounds=1, absent="bot",
                        seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"},
                               {"kind": "human", "name": "Bo"}, {"kind": "bot", "level": "easy"}])
        gid = game["game_id"]
        watcher = Person(c, gid, token_of(game["spectator_link"]), seat=None)
        watcher.connect()
        watcher.until("state")
        while watcher.last is None or watcher.last["view"]["phase"] != "game_over":
            watcher.receive()
        assert watcher.last["presence"] == [False, True, False, True]
        watcher.close()
        store = c.app.state.store  # type: ignore[attr-defined]
        moves = c.portal.call(store.moves, gid)  # type: ignore[union-attr]
        assert {m.by for m in moves if m.seat in (0, 2)} == {"stand-in"}


def test_between_rounds_everybody_presses_continue(tmp_path: Path) -> None:
    with client(tmp_path / "w.db") as c:
        game = new_game(c, profile="biegames", rounds=2,
                        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3)
        p = Person(c, game["game_id"], token_of(game["seats"][0]["link"]), seat=0)
        p.connect()
        p.until("state")
        while p.last is not None and p.last["waiting"] is None:
            if p.my_turn():
                p.play(p.choose())
            else:
                p.receive()
        assert p.last is not None
        assert p.last["waiting"] == {"continue": [0], "round": 1}
        assert p.last["view"]["results"][0]["round"] == 1
        p.send({"type": "move", "id": "w", "seq": p.seq, "move": "draw"})
        error = p.until("error")
        assert error["code"] == "waiting" and "Continue" in error["message"]
        final = p.play_to_end()
        assert len(final["view"]["results"]) == 2
        gid = game["game_id"]
        replay = c.get(f"/api/games/{gid}/replay").json()
        frames = replay["frames"]
        assert frames[0]["move"] is None and "hands" in frames[0]["state"]
        assert [f["state"]["phase"] for f in frames].count("round_end") == 1
        assert frames[-1]["state"]["phase"] == "game_over"
        assert sum(1 for f in frames if f["move"]) == p.seq
        record = c.get(f"/api/games/{gid}/record")
        assert record.status_code == 200 and record.json()["metadata"]["seed"]
        rematch = c.post(f"/api/games/{gid}/rematch",
                         json={"token": token_of(game["seats"][0]["link"])}).json()
        assert rematch["game_id"] != gid and rematch["seats"][0]["link"]
        assert c.post(f"/api/games/{gid}/rematch",
                      json={"token": token_of(game["spectator_link"])}).status_code == 403
        p.close()


# --- the daily deal ------------------------------------------------------------------------


def test_the_daily_seed_comes_from_a_secret(tmp_path: Path) -> None:
    date = dt.date(2026, 1, 1)
    seeds = set()
    for name in ("a", "b"):
        with client(tmp_path / f"{name}.db") as c:
            store = c.app.state.store  # type: ignore[attr-defined]
            secret = c.portal.call(store.secret, daily.SECRET_NAME)  # type: ignore[union-attr]
            assert len(secret) == 32
            assert c.portal.call(store.secret, daily.SECRET_NAME) == secret  # type: ignore[union-attr]
            seeds.add(daily.daily_seed(secret, date))
            past = c.get(f"/api/daily/{date.isoformat()}").json()
            assert past["seed"] == str(daily.daily_seed(secret, date))
            today = c.get(f"/api/daily/{daily.today().isoformat()}").json()
            assert today["seed"] is None
    assert len(seeds) == 2  # two servers, two secrets: the date alone does not give the deal


def test_the_daily_deal_is_the_same_for_everyone_and_has_a_leaderboard(c: TestClient) -> None:
    first = c.post("/api/daily", json={"name": "Ann"}).json()
    second = c.post("/api/daily", json={"name": "Bo"}).json()
    hands = []
    for game in (first, second):
        p = Person(c, game["game_id"], token_of(game["link"]), seat=0)
        p.connect()
        state = p.until("state")
        hands.append(state["view"]["hand"])
        if game is first:
            final = p.play_to_end()
            assert final["view"]["phase"] == "game_over"
            for what in ("record", "replay"):  # not before the day is over: others play it
                r = c.get(f"/api/games/{game['game_id']}/{what}")
                assert r.status_code == 403 and "daily deal" in r.json()["error"]
        p.close()
    assert hands[0] == hands[1]
    board = c.get(f"/api/daily/{daily.today().isoformat()}").json()
    assert board["seed"] is None and board["settings"]["profile"] == "partnership-13"
    rows = {r["name"]: r for r in board["leaderboard"]}
    assert rows["Ann"]["finished"] and isinstance(rows["Ann"]["score"], int)
    assert not rows["Bo"]["finished"]
    assert c.get("/api/daily/yesterday").status_code == 400


# --- hello's seq, who asks, the profiles' values -------------------------------------------


def hello_events(c: TestClient, game_id: str, token: str, seq: int) -> tuple[int, list[int]]:
    """The seq and the events' numbers of the state after a hello with ``seq``."""
    with c.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "seq": seq})
        assert ws.receive_json()["type"] == "welcome"
        state = ws.receive_json()
    assert state["type"] == "state"
    return state["seq"], [e["n"] for e in state["events"]]


def test_hello_gets_the_events_after_its_seq_within_the_round(tmp_path: Path) -> None:
    with client(tmp_path / "h.db") as c:
        game = new_game(c, profile="biegames", rounds=2,
                        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3)
        gid, token = game["game_id"], token_of(game["seats"][0]["link"])
        p = Person(c, gid, token, seat=0)
        p.connect()
        p.until("state")
        while p.seq < 40:  # well over the 30 sent when the seq is of no use
            assert p.last is not None and p.last["waiting"] is None
            p.play(p.choose()) if p.my_turn() else p.receive()
        to_my_turn(p)
        p.close()  # nobody is connected on the seat's turn: the table stands still
        seq = p.seq
        assert hello_events(c, gid, token, 5) == (seq, list(range(6, seq + 1)))
        assert hello_events(c, gid, token, seq - 2) == (seq, [seq - 1, seq])
        assert hello_events(c, gid, token, seq) == (seq, [])
        # a seq the game never reached: the last 30 of the round
        assert hello_events(c, gid, token, seq + 7) == (seq, list(range(seq - 29, seq + 1)))

        p.connect()
        p.until("state")
        while p.last is not None and p.last["waiting"] is None:
            p.play(p.choose()) if p.my_turn() else p.receive()
        end = p.seq  # the move that ended round 1
        p.send({"type": "continue", "round": 1})
        while p.seq < end + 3:
            p.play(p.choose()) if p.my_turn() else p.receive()
        to_my_turn(p)
        p.close()
        seq = p.seq
        assert hello_events(c, gid, token, end) == (seq, list(range(end + 1, seq + 1)))
        # a seq of an earlier round: the last 30 or fewer of this round only
        got = hello_events(c, gid, token, 5)[1]
        assert got == list(range(max(end + 1, seq - 29), seq + 1))


def test_everybody_sees_who_asks_may_i_go_out() -> None:
    from handfoot.game.rules import Layout
    from handfoot.game.values import Phase
    from handfoot.web.protocol import public_view_json, view_json
    from positions import play, position

    books = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2"]
    state = position("biegames", layout=Layout(2, 2), melds={0: books}, in_foot=[0, 2],
                     foot_played=[2], hands={0: "K K K 9"}, phase=Phase.PLAY)
    state = play(state, "goout K K K discard 9")
    assert state.phase == Phase.ANSWER
    public = public_view_json(state.view(0))
    assert public["asking"] == 0 and public["to_act"] == 2 and public["seat"] is None
    for seat in range(4):  # the seat asked, the asker and the other side alike
        assert view_json(state.view(seat))["asking"] == 0
    assert public_view_json(play(state, "no").view(0))["asking"] is None


def test_profiles_give_the_values_of_the_parameters_the_form_lists(c: TestClient) -> None:
    data = c.get("/api/profiles").json()
    listed = {p["key"] for p in data["parameters"]
              if p["type"] in ("int", "opt_int", "bool", "str")}
    for item in data["profiles"]:
        profile = load_profile(item["name"])
        values = item["values"]
        assert set(values) == listed
        assert values["rounds"] == profile.rounds
        for key, value in values.items():
            assert value is None or isinstance(value, bool | int | str), (key, value)
    bie = next(p for p in data["profiles"] if p["name"] == "biegames")
    assert bie["values"]["rounds"] == load_profile("biegames").rounds


def test_the_seed_source_hook_gives_repeatable_games_and_is_off_by_default(
        tmp_path: Path) -> None:
    """Settings.seed_source (tests only) is asked for every new game's seed with its
    parameters; without it seeds are random; the API never takes a seed."""
    from handfoot.web.settings import Settings

    asked: list[tuple[str, str, list[str]]] = []

    def source(profile: str, layout: str, seats: Any) -> int:
        asked.append((profile, layout, [s["kind"] for s in seats]))
        return 1234 + len(asked)

    def seeds(path: Path, **kw: Any) -> list[int]:
        with client(path, **kw) as c:
            games = [new_game(c, profile="biegames", rounds=1, seed=5,
                              seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}] * 2)
                     for _ in range(2)]
            store = c.app.state.store  # type: ignore[attr-defined]
            return [c.portal.call(store.game, g["game_id"]).seed  # type: ignore[union-attr]
                    for g in games]

    assert seeds(tmp_path / "a.db", seed_source=source) == [1235, 1236]
    assert asked[0] == ("biegames", "2x2", ["human", "bot", "human", "bot"])
    assert seeds(tmp_path / "b.db") == seeds(tmp_path / "c.db")  # the tests' default hook
    assert Settings().seed_source is None
    random_seeds = set()  # the server's own default
    for name in ("e", "f"):
        app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / name}.db",
                                  bot_delay=0.0))
        with TestClient(app) as c:
            g = new_game(c, profile="biegames", rounds=1,
                         seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3)
            store = c.app.state.store  # type: ignore[attr-defined]
            random_seeds.add(c.portal.call(store.game, g["game_id"]).seed)  # type: ignore[union-attr]
    assert len(random_seeds) == 2 and all(s >= 0 for s in random_seeds)


def test_go_out_is_not_offered_after_the_partner_said_no() -> None:
    """After "May I go out?" was answered No, the seat may not go out this turn: the view's
    ``legal.go_out`` says so (it offered Go out while staged cards might have made it)."""
    from handfoot.game.values import Phase
    from handfoot.web.protocol import seat_view_json
    from test_illegal_moves import TWO_BY_TWO, asking, refused

    before = asking("partnership-13", TWO_BY_TWO)
    state = refused("partnership-13", TWO_BY_TWO)
    assert state.phase == Phase.PLAY and state.to_act == 0
    assert before.to_act == 2
    assert seat_view_json(state, 0)["legal"]["go_out"] is False
    # the seat can still do something else this turn
    legal = seat_view_json(state, 0)["legal"]
    assert legal["discard"] and not legal["go_out"]
