"""A spectator sees the table, and no card of anybody's hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from e2e_helpers import QUICK, Seat, new_game, play_table
from playwright.sync_api import WebSocket, expect

RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine",
         "8": "eight", "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three",
         "2": "two"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SECRET_KEYS = {"hand", "private", "staged", "legal", "hands", "feet", "knees", "seed", "drew"}


def label(code: str) -> str:
    """How the page names a card (cards.js cardLabel, without the extras)."""
    return "joker" if code == "JK" else f"{RANKS[code[0]]} of {SUITS[code[1]]}"


def keys_of(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from keys_of(v)
    elif isinstance(data, list):
        for v in data:
            yield from keys_of(v)


def public_cards(view: dict[str, Any], events: list[dict[str, Any]]) -> set[str]:
    """Cards everybody has seen: on the table, on the pile, and in the pile's history."""
    out = {c for side in view["melds"] for m in side for c in m["cards"]}
    out |= {c for side in view["red_threes"] for c in side}
    if view["discard"]["top"]:
        out.add(view["discard"]["top"])
    for e in events:
        for key in ("card", "top"):
            if isinstance(e.get(key), str):
                out.add(e[key])
        for key in ("cards", "taken", "red_threes"):
            out |= set(e.get(key) or [])
    return out


def test_spectator_sees_no_hidden_card(new_context: Any, live_server: str) -> None:
    names = ["Wyn", "Xav", "Yul", "Zia"]
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "human", "name": n} for n in names])
    seats = {}
    seat_events: list[dict[str, Any]] = []
    for i in range(4):
        page = new_context().new_page()  # a window each: a background tab's timers crawl
        if i == 0:
            page.on("websocket", lambda ws: ws.on("framereceived", lambda f: seat_events.extend(
                e for e in json.loads(f).get("events", []))))
        page.goto(game["seats"][i]["link"])
        seats[i] = Seat(page)
        seats[i].wait_ready()

    watcher = new_context(390, 844).new_page()
    frames: list[dict[str, Any]] = []

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda f: frames.append(json.loads(f)))

    watcher.on("websocket", on_socket)
    watcher.goto(game["spectator_link"])
    watcher.wait_for_function("() => window.handfoot && window.handfoot.app.view")

    def check() -> None:
        seq = seats[0].seq()
        watcher.wait_for_function(f"() => window.handfoot.app.seq === {seq}")
        view = seats[0].view()
        # the spectator sees the game: every player, the stock, the pile, the moves
        for name in names:
            expect(watcher.locator("#table")).to_contain_text(name)
        expect(watcher.locator("#center")).to_contain_text(f"Stock {view['stock']}")
        expect(watcher.locator("#actions")).to_contain_text("You are watching")
        # ... and no face of any card in a hand: the hand area shows backs only
        expect(watcher.locator("#hand svg.card:not(.back)")).to_have_count(0)
        html = watcher.content().lower()
        public = public_cards(view, seat_events)
        hidden = {c for s in seats.values() for c in s.hand()} - public
        hidden_labels = {label(c) for c in hidden} - {label(c) for c in public}
        assert len(hidden_labels) > 10  # the check below has cards to look for
        shown = sorted(x for x in hidden_labels if x in html)
        assert not shown, f"hidden cards on the spectator's page: {shown}"
        # nothing secret in any frame the spectator was sent
        for f in frames:
            assert not set(f.get("view") or {}) & SECRET_KEYS, f["view"].keys()
            assert not set(keys_of(f.get("events") or [])) & SECRET_KEYS, f["events"]
        assert all(f.get("seat") is None for f in frames if f.get("type") == "welcome")

    check()  # the deal: nothing is face up but the pile's top
    assert play_table(seats, decisions=16) == 16
    check()  # a few turns later: melds on the table, the pile passed around
    assert seats[0].view()["melds"] != [[], []]
