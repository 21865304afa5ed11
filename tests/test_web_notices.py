""""Your turn" notices of correspondence games (handfoot.web.notices): e-mail through a
local SMTP server (aiosmtpd) and Web Push through a local stand-in push service that checks
the VAPID signature and decrypts the payload; the link opens the right seat, unsubscribing
works with one POST, the hourly limit holds, a muted game gets nothing, and a notice says
only what the seat may see."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.rules import Layout
from handfoot.runs.sim import bot_turn
from handfoot.web.app import create_app
from handfoot.web.notices import turn_words
from notice_services import PushService, smtp_server
from positions import reshuffle_hidden
from test_web_correspondence import (
    HOUR,
    TestClock,
    human_turn,
    moves,
    new_correspondence,
    run_timers,
)
from web_client import Person, settings_for, token_of


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@pytest.fixture
def mail() -> Iterator[tuple[str, Any]]:
    with smtp_server() as (url, box):
        yield url, box


def make_client(tmp_path: Path, clock: TestClock, **kw: Any) -> TestClient:
    app = create_app(settings_for(tmp_path / "g.db", timer_every=3600.0,
                                  mail_from="handfoot <cards@example.org>", **kw),
                     clock=clock)
    return TestClient(app)


def notices(c: TestClient, gid: str, token: str, **changes: Any) -> Any:
    r = c.post(f"/api/games/{gid}/notices", json={"token": token, **changes})
    assert r.status_code == 200, r.text
    return r.json()


def confirm_link(box: Any, address: str) -> str:
    """The path of the confirmation link in the last mail to ``address``, that mail taken
    out of the box (so that the box then counts the notices only)."""
    for i in range(len(box.mails) - 1, -1, -1):
        _, rcpt, message = box.mails[i]
        if rcpt == [address] and message["Subject"].startswith("Confirm"):
            del box.mails[i]
            found = re.search(r"http://testserver(/notices/confirm\?c=[0-9a-f]{64})\s",
                              message.get_content())
            assert found is not None, message.get_content()
            return found.group(1)
    raise AssertionError(f"no mail to confirm {address}")


def mail_to(c: TestClient, gid: str, token: str, box: Any, email: str, **changes: Any,
            ) -> Any:
    """Give a seat's notice address and confirm it from the mail, as its owner does."""
    settings = notices(c, gid, token, email=email, **changes)
    assert settings["email"] == email and settings["email_confirmed"] is False
    r = c.post(confirm_link(box, email))
    assert r.status_code == 200 and r.json() == {"confirmed": True}, r.text
    settings = notices(c, gid, token)
    assert settings["email_confirmed"] is True
    return settings


def next_human_turn(c: TestClient, gid: str, clock: TestClock, after: int) -> Any:
    """Let the person's time run out (the stand-in plays), then the bot moves: the
    person's next turn."""
    clock.advance(HOUR + 1)
    run_timers(c)
    return human_turn_after(c, gid, after)


def human_turn_after(c: TestClient, gid: str, after: int) -> Any:
    from test_web_correspondence import turn, wait_for

    return wait_for(lambda: (t := turn(c, gid)) is not None and t.seat == 0 and t.seq > after
                    and t)


def test_the_turn_mail_arrives_after_the_bots_move_and_its_link_opens_the_seat(
        tmp_path: Path, mail: tuple[str, Any]) -> None:
    url, box = mail
    clock = TestClock()
    with make_client(tmp_path, clock, smtp_url=url) as c:
        game = new_correspondence(c)
        gid = game["game_id"]
        token = token_of(game["seats"][0]["link"])
        first = human_turn(c, gid)
        mail_to(c, gid, token, box, "ann@example.org", mail_every="turn")
        run_timers(c)
        assert len(box.mails) == 1
        second = next_human_turn(c, gid, clock, first.seq)
        bot_moved = [m for m in moves(c, gid) if m.seq > first.seq and m.seat == 1]
        assert bot_moved  # the bot moved before this turn
        run_timers(c)
        assert len(box.mails) == 2
        sender, rcpt, message = box.mails[-1]
        assert rcpt == ["ann@example.org"] and sender == "cards@example.org"
        assert message["From"] == "handfoot <cards@example.org>"
        assert message["Subject"].startswith("Your turn, Ann")
        text = message.get_content()
        assert "Bot " in text and "Since your last turn" in text and "Time left: 1 hour" in text
        link = re.search(r"http://testserver/game/([\w-]+)#t=(\S+)", text)
        assert link is not None and link.group(1) == gid
        assert "?" not in link.group(0)  # the token in the fragment, never the query
        with c.websocket_connect(f"/ws/{gid}") as ws:  # the link opens Ann's seat
            ws.send_json({"type": "hello", "token": link.group(2)})
            assert ws.receive_json()["seat"] == 0
        # one-click unsubscribe (RFC 8058): the headers, then a POST to the URL
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        unsubscribe = message["List-Unsubscribe"].strip("<>")
        assert unsubscribe in text
        path = unsubscribe.removeprefix("http://testserver")
        assert c.get(path).status_code == 200  # opening the page alone changes nothing
        assert notices(c, gid, token)["email"] == "ann@example.org"
        r = c.post(path, content=b"List-Unsubscribe=One-Click",
                   headers={"content-type": "application/x-www-form-urlencoded"})
        assert r.status_code == 200 and r.json() == {"unsubscribed": True}
        assert notices(c, gid, token)["email"] is None
        assert c.post("/notices/unsubscribe?u=" + "0" * 64).status_code == 404
        next_human_turn(c, gid, clock, second.seq)
        run_timers(c)
        assert len(box.mails) == 2  # none after unsubscribing


def test_at_most_one_mail_an_hour_per_game_and_none_when_muted(
        tmp_path: Path, mail: tuple[str, Any]) -> None:
    url, box = mail
    clock = TestClock()
    with make_client(tmp_path, clock, smtp_url=url) as c:
        game = new_correspondence(c)
        gid = game["game_id"]
        token = token_of(game["seats"][0]["link"])
        first = human_turn(c, gid)
        mail_to(c, gid, token, box, "ann@example.org")  # the default: once an hour
        run_timers(c)
        assert len(box.mails) == 1
        person = Person(c, gid, token, seat=0)
        person.connect()
        person.until("state")
        while person.seq < first.seq:
            person.receive()
        clock.advance(600)  # ten minutes later Ann plays her turn
        while person.my_turn():
            person.play(person.choose())
        person.close()
        second = human_turn_after(c, gid, first.seq)
        run_timers(c)
        assert len(box.mails) == 1  # within the hour: no second mail
        notices(c, gid, token, muted=True)
        third = next_human_turn(c, gid, clock, second.seq)
        run_timers(c)
        assert len(box.mails) == 1  # muted
        notices(c, gid, token, muted=False)
        next_human_turn(c, gid, clock, third.seq)
        run_timers(c)
        assert len(box.mails) == 2


def test_the_daily_digest_lists_the_games_waiting(tmp_path: Path,
                                                  mail: tuple[str, Any]) -> None:
    url, box = mail
    clock = TestClock()
    with make_client(tmp_path, clock, smtp_url=url) as c:
        ids = []
        for _ in range(2):
            game = new_correspondence(c)
            gid = game["game_id"]
            human_turn(c, gid)
            mail_to(c, gid, token_of(game["seats"][0]["link"]), box, "ann@example.org",
                    mail_every="digest")
            ids.append(gid)
        run_timers(c)
        assert box.mails == []  # a digest, not a mail a turn
        sent = c.portal.call(lambda: c.app.state.notices.digest(force=True))  # type: ignore
        assert sent == 1 and len(box.mails) == 1
        text = box.mails[0][2].get_content()
        assert all(f"/game/{gid}#t=" in text for gid in ids)
        assert c.portal.call(lambda: c.app.state.notices.digest(force=True)) == 0  # type: ignore


def test_bad_notice_requests_are_refused(tmp_path: Path, mail: tuple[str, Any]) -> None:
    url, _ = mail
    clock = TestClock()
    with make_client(tmp_path, clock, smtp_url=url) as c:
        game = new_correspondence(c)
        gid = game["game_id"]
        token = token_of(game["seats"][0]["link"])
        for bad in ({"email": "not an address"}, {"email": "a@b.c, d@e.f"},
                    {"mail_every": "minute"}, {"muted": "yes"},
                    {"push": {"endpoint": "https://evil.example/x",
                              "keys": {"p256dh": "A" * 87, "auth": "B" * 22}}},
                    {"push": {"endpoint": "http://fcm.googleapis.com/x",
                              "keys": {"p256dh": "A" * 87, "auth": "B" * 22}}},
                    {"push": {"endpoint": "https://fcm.googleapis.com/x"}}):
            r = c.post(f"/api/games/{gid}/notices", json={"token": token, **bad})
            assert r.status_code == 400, bad
        spectator = token_of(game["spectator_link"])
        r = c.post(f"/api/games/{gid}/notices", json={"token": spectator, "muted": True})
        assert r.status_code == 403
        r = c.post(f"/api/games/{gid}/notices", json={"token": "x" * 43, "muted": True})
        assert r.status_code == 404
        live = c.post("/api/games", json={"profile": "biegames", "layout": "2x1"}).json()
        r = c.post(f"/api/games/{live['game_id']}/notices",
                   json={"token": token_of(live["seats"][0]["link"]), "email": "a@b.org"})
        assert r.status_code == 403


def test_web_push_reaches_the_browser_signed_and_encrypted(tmp_path: Path) -> None:
    clock = TestClock()
    with PushService() as service, \
            make_client(tmp_path, clock, push_hosts=("127.0.0.1",)) as c:
        key = c.get("/api/push/key").json()["key"]
        game = new_correspondence(c)
        gid = game["game_id"]
        token = token_of(game["seats"][0]["link"])
        first = human_turn(c, gid)
        sub = service.subscribe("ann-phone")
        assert notices(c, gid, token, push=sub.json())["push"] == 1
        run_timers(c)
        run_timers(c)  # once per turn
        assert service.refused == []
        assert len(service.received) == 1
        endpoint, vapid_key, payload = service.received[0]
        assert endpoint == sub.endpoint and vapid_key == key  # signed with the server's key
        assert payload["title"].startswith("Your turn, Ann")
        assert payload["url"] == f"http://testserver/game/{gid}#t={token}"
        # the next turn, after the bot's move
        second = next_human_turn(c, gid, clock, first.seq)
        run_timers(c)
        assert len(service.received) == 2
        # a muted game: nothing
        notices(c, gid, token, muted=True)
        third = next_human_turn(c, gid, clock, second.seq)
        run_timers(c)
        assert len(service.received) == 2
        # a subscription the service says is gone is forgotten
        notices(c, gid, token, muted=False)
        service.answer = 410
        next_human_turn(c, gid, clock, third.seq)
        run_timers(c)
        assert notices(c, gid, token)["push"] == 0


def test_the_vapid_keys_are_made_once_and_kept(tmp_path: Path) -> None:
    clock = TestClock()
    with make_client(tmp_path, clock) as c:
        key = c.get("/api/push/key").json()["key"]
    with make_client(tmp_path, clock) as c:
        assert c.get("/api/push/key").json()["key"] == key
    assert len(key) == 87  # an uncompressed P-256 point, base64url


def test_a_notice_says_only_what_the_seat_may_see() -> None:
    """The words are the same whatever the cards hidden from the seat are (re-dealt)."""
    profile = load_profile("biegames")
    rng = random.Random(5)
    for seed in range(6):
        state = GameState.new(profile, layout=Layout.parse("2x1"), seed=seed)
        bots = [make_bot("easy", seed), make_bot("easy", seed + 100)]
        for _ in range(rng.randint(5, 40)):
            if state.is_over:
                break
            state.apply(bot_turn(bots[state.to_act], state, state.to_act))
        seat = state.to_act
        other = reshuffle_hidden(state, seat, rng)
        at = clock_at = TestClock().now()
        words = [turn_words(s.view(seat), ["Ann", "Bob"], ["Ann", "Bob"], "Hand and Foot",
                            [], clock_at, at, "bot") for s in (state, other)]
        assert words[0] == words[1]
        assert state.hand(1 - seat) != other.hand(1 - seat) or state.hand(1 - seat) == []


def test_a_signed_in_players_push_serves_all_their_seats_and_my_games_lists_them(
        tmp_path: Path) -> None:
    """A player's browser subscribes at one game's table: the notice of another game where
    the player sits comes to it too (with a link to My games: that seat's token is not
    known), and My games lists that seat for the player without the browser's links."""
    import secrets as _secrets

    clock = TestClock()
    key = _secrets.token_urlsafe(32)[:43]
    header = {"X-Handfoot-Player": key}
    with PushService() as service, \
            make_client(tmp_path, clock, push_hosts=("127.0.0.1",)) as c:
        assert c.post("/api/players", json={"name": "Ann", "key": key}).status_code == 200
        games = [new_correspondence(c) for _ in range(2)]
        for game in games:
            r = c.post(f"/api/games/{game['game_id']}/sit", headers=header,
                       json={"token": token_of(game["seats"][0]["link"])})
            assert r.status_code == 200 and r.json()["linked"], r.text
            human_turn(c, game["game_id"])
        sub = service.subscribe("ann-laptop")
        one, two = games[0]["game_id"], games[1]["game_id"]
        r = c.post(f"/api/games/{one}/notices", headers=header,
                   json={"token": token_of(games[0]["seats"][0]["link"]), "push": sub.json()})
        assert r.status_code == 200
        run_timers(c)
        urls = sorted(p["url"] for _, _, p in service.received)
        assert service.refused == [] and len(urls) == 2  # one notice for each game
        assert f"http://testserver/game/{one}#t=" in urls[1]
        assert urls[0] == "/games"  # the second game's token is not known: My games
        # My games, signed in, from a browser holding no link
        listed = c.post("/api/my-games", headers=header, json={"seats": []}).json()["games"]
        assert {(g["game_id"], g["seat"]) for g in listed} == {(one, 0), (two, 0)}
        assert all(g["your_turn"] for g in listed)
        linked = {g["game_id"]: g.get("link") for g in listed}
        assert linked[one] == games[0]["seats"][0]["link"] and linked[two] is None
        # without the header, nobody's seats but the tokens given
        assert c.post("/api/my-games", json={"seats": []}).json()["games"] == []


def test_a_finished_game_forgets_its_notices(tmp_path: Path, mail: tuple[str, Any]) -> None:
    """The notice rows hold the seats' tokens: they go when the game ends."""
    from sqlalchemy import func, select

    from handfoot.web.store import notice_seats, push_subscriptions
    from test_web_correspondence import turn

    url, _ = mail
    clock = TestClock()
    quick = {"hand_size": 5, "foot_size": 3, "clean_books_to_go_out": 0,
             "dirty_books_to_go_out": 0, "wild_books_to_go_out": 0}
    with PushService() as service, \
            make_client(tmp_path, clock, smtp_url=url, push_hosts=("127.0.0.1",)) as c:
        r = c.post("/api/games", json={
            "profile": "biegames", "layout": "2x1", "rounds": 1, "overrides": quick,
            "seats": [{"kind": "human", "name": "Ann"},
                      {"kind": "bot", "level": "easy", "name": "Bot"}],
            "correspondence": {"per_move": HOUR, "on_timeout": "bot"}})
        game = r.json()
        gid = game["game_id"]
        token = token_of(game["seats"][0]["link"])
        human_turn(c, gid)
        notices(c, gid, token, email="ann@example.org",
                push=service.subscribe("ann").json())
        store = c.app.state.store  # type: ignore[attr-defined]

        async def rows() -> int:
            async with store.engine.connect() as conn:
                a = (await conn.execute(select(func.count()).select_from(notice_seats)
                                        .where(notice_seats.c.game == gid))).scalar_one()
                b = (await conn.execute(select(func.count()).select_from(push_subscriptions)
                                        .where(push_subscriptions.c.game == gid))).scalar_one()
            return int(a) + int(b)

        assert c.portal.call(rows) == 2  # type: ignore[union-attr]
        for _ in range(200):  # Ann never plays: the stand-in plays every turn of hers
            if c.get(f"/api/games/{gid}/record").status_code == 200:
                break
            clock.advance(HOUR + 1)
            run_timers(c)
            from test_web_correspondence import wait_for
            wait_for(lambda: turn(c, gid) is None or turn(c, gid).seat == 0)
        assert c.get(f"/api/games/{gid}/record").status_code == 200  # over
        assert turn(c, gid) is None
        assert c.portal.call(rows) == 0  # type: ignore[union-attr]


def test_the_others_hear_when_a_seat_of_a_waiting_game_is_overdue(
        tmp_path: Path, mail: tuple[str, Any]) -> None:
    from test_web_correspondence import turn

    url, box = mail
    clock = TestClock()
    with make_client(tmp_path, clock, smtp_url=url) as c:
        game = new_correspondence(c, "wait", seats=[{"kind": "human", "name": "Ann"},
                                                    {"kind": "human", "name": "Ben"}])
        gid = game["game_id"]
        late = turn(c, gid).seat
        other = 1 - late
        for seat, address in ((late, "late@example.org"), (other, "other@example.org")):
            mail_to(c, gid, token_of(game["seats"][seat]["link"]), box, address)
        run_timers(c)
        assert [m[1] for m in box.mails] == [["late@example.org"]]  # whose turn it is
        clock.advance(HOUR + 1)
        run_timers(c)
        assert [m[1] for m in box.mails][1:] == [["other@example.org"]]
        subject = box.mails[-1][2]["Subject"]
        name = game["seats"][late]["name"]
        assert subject.startswith(f"{name}'s time is up")
        assert f"#t={token_of(game['seats'][other]['link'])}" in box.mails[-1][2].get_content()
        run_timers(c)
        assert len(box.mails) == 2  # once


def test_no_notice_goes_to_an_address_its_owner_has_not_confirmed(
        tmp_path: Path, mail: tuple[str, Any]) -> None:
    """Whoever holds a seat's link may give any address: its owner gets one mail asking
    to confirm, and nothing more until the link in it is opened (a POST, as the page's
    script sends it; a mail scanner's GET changes nothing)."""
    url, box = mail
    clock = TestClock()
    with make_client(tmp_path, clock, smtp_url=url) as c:
        game = new_correspondence(c)
        gid = game["game_id"]
        token = token_of(game["seats"][0]["link"])
        first = human_turn(c, gid)
        settings = notices(c, gid, token, email=" Ann@Example.org ", mail_every="turn")
        assert settings["email"] == "ann@example.org" and not settings["email_confirmed"]
        run_timers(c)
        assert [m[1] for m in box.mails] == [["ann@example.org"]]  # the confirmation only
        message = box.mails[0][2]
        assert message["Subject"] == "Confirm your Hand and Foot turn notices"
        text = message.get_content()
        assert "ignore this e-mail" in text and "#t=" not in text  # no seat link in it
        path = confirm_link(box, "ann@example.org")
        page = c.get(path)
        assert page.status_code == 200 and 'id="confirm-form"' in page.text
        assert not notices(c, gid, token)["email_confirmed"]  # the GET changed nothing
        second = next_human_turn(c, gid, clock, first.seq)
        run_timers(c)
        assert box.mails == []  # not confirmed: no notice
        assert c.post("/notices/confirm?c=" + "0" * 64).status_code == 404
        assert c.post("/notices/confirm?c=nothex").status_code == 404
        done = c.post(path, headers={"accept": "text/html"})
        assert done.status_code == 200 and 'id="confirmed"' in done.text
        assert notices(c, gid, token)["email_confirmed"]
        assert c.post(path).status_code == 404  # a link works once
        third = next_human_turn(c, gid, clock, second.seq)
        run_timers(c)
        assert len(box.mails) == 1 and box.mails[0][2]["Subject"].startswith("Your turn")
        # the same address again (with another frequency) keeps it confirmed, mails nothing
        assert notices(c, gid, token, email="ann@example.org",
                       mail_every="hour")["email_confirmed"]
        assert len(box.mails) == 1
        # another address: confirmed again from its own mail; the old link is void
        settings = notices(c, gid, token, email="ben@example.org")
        assert settings["email"] == "ben@example.org" and not settings["email_confirmed"]
        ben = confirm_link(box, "ben@example.org")
        next_human_turn(c, gid, clock, third.seq)
        run_timers(c)
        assert len(box.mails) == 1  # Ann's address is not the seat's any more; Ben's waits
        notices(c, gid, token, email="carl@example.org")  # before Ben opened his link
        carl = confirm_link(box, "carl@example.org")
        assert c.post(ben).status_code == 404  # replaced: it confirms nothing
        assert not notices(c, gid, token)["email_confirmed"]
        assert c.post(carl).status_code == 200
        assert notices(c, gid, token)["email"] == "carl@example.org"


def test_an_address_gets_at_most_three_confirmations_an_hour(
        tmp_path: Path, mail: tuple[str, Any]) -> None:
    """Nobody can use the server to flood an inbox: three mails to confirm one address an
    hour, from every seat and game together; giving the same address again at once does
    not send another; a link more than a week old does not work."""
    url, box = mail
    clock = TestClock()
    with make_client(tmp_path, clock, smtp_url=url) as c:
        seats = []
        for _ in range(4):
            game = new_correspondence(c)
            seats.append((game["game_id"], token_of(game["seats"][0]["link"])))
        for gid, token in seats[:3]:
            notices(c, gid, token, email="victim@example.org")
            notices(c, gid, token, email="victim@example.org")  # again at once: no mail
        assert len(box.mails) == 3
        gid, token = seats[3]
        r = c.post(f"/api/games/{gid}/notices",
                   json={"token": token, "email": "victim@example.org"})
        assert r.status_code == 400 and "this hour" in r.json()["error"]
        assert notices(c, gid, token)["email"] is None  # refused: nothing kept
        clock.advance(HOUR + 1)
        notices(c, gid, token, email="victim@example.org")
        assert len(box.mails) == 4
        old = confirm_link(box, "victim@example.org")
        clock.advance(8 * 24 * HOUR)
        assert c.post(old).status_code == 404  # too old


def test_a_signed_in_players_verified_address_needs_no_confirmation(
        tmp_path: Path, mail: tuple[str, Any]) -> None:
    from sqlalchemy import update

    from handfoot.web.store import players
    from test_web_clubs import Who

    url, box = mail
    clock = TestClock()
    with make_client(tmp_path, clock, smtp_url=url) as c:
        ann = Who(c, "Ann")
        store = c.app.state.store  # type: ignore[attr-defined]

        async def verify() -> None:
            async with store.engine.begin() as conn:
                await conn.execute(update(players).where(players.c.id == ann.id).values(
                    email="ann@example.org", email_verified=True))

        c.portal.call(verify)  # type: ignore[union-attr]
        game = new_correspondence(c)
        gid = game["game_id"]
        token = token_of(game["seats"][0]["link"])
        r = ann.post(f"/api/games/{gid}/notices", {"token": token, "email": "ann@example.org"})
        assert r.status_code == 200 and r.json()["email_confirmed"] is True
        assert box.mails == []
        # another address, even from Ann's browser, is confirmed from its own mail
        r = ann.post(f"/api/games/{gid}/notices", {"token": token, "email": "a2@example.org"})
        assert r.json()["email_confirmed"] is False and len(box.mails) == 1


def test_the_pages_of_mailed_links_may_post_with_an_opaque_origin(
        tmp_path: Path, mail: tuple[str, Any]) -> None:
    """A page opened from a mail sends its form as a navigation, with ``Origin: null``
    under the site's no-referrer policy: the unsubscribe and confirm links take it (their
    token is the authority); another site's origin, or null elsewhere, is refused."""
    url, box = mail
    clock = TestClock()
    with make_client(tmp_path, clock, smtp_url=url) as c:
        game = new_correspondence(c)
        gid = game["game_id"]
        token = token_of(game["seats"][0]["link"])
        notices(c, gid, token, email="ann@example.org")
        path = confirm_link(box, "ann@example.org")
        evil = c.post(path, headers={"origin": "https://evil.example"})
        assert evil.status_code == 403
        assert not notices(c, gid, token)["email_confirmed"]
        r = c.post(path, headers={"origin": "null", "accept": "text/html"})
        assert r.status_code == 200 and 'id="confirmed"' in r.text
        assert c.post("/notices/unsubscribe?u=" + "0" * 64,
                      headers={"origin": "null"}).status_code == 404  # unknown, not refused
        assert c.post("/api/games", json={"profile": "biegames"},
                      headers={"origin": "null"}).status_code == 403
