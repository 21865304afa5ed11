"""A move the server could not store (its database down) is answered "busy" on a socket
that stays open: the table page says so and sends the move again after a short wait, so
the move is not lost. The server's answer is played by intercepting the WebSocket."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from e2e_helpers import QUICK, Seat, new_game, shoot
from playwright.sync_api import WebSocketRoute, expect

BUSY = "the server is busy (its database does not answer): your move was not played"


def test_a_busy_answer_is_shown_and_the_move_sent_again(new_context: Any, live_server: str,
                                                        shots_dir: Path) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "human", "name": "Bo"}]
                    + [{"kind": "bot", "level": "easy"}] * 3)
    page = new_context().new_page()
    moves: list[str] = []

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "move":
                moves.append(data["move"])
                if len(moves) <= 2:  # the first two tries: the database is down
                    ws.send(json.dumps({"type": "error", "code": "busy", "message": BUSY,
                                        "id": data["id"]}))
                    return
            server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/"), route)
    page.goto(game["seats"][0]["link"])
    seat = Seat(page)
    seat.wait_ready()
    assert seat.wait_point() == "turn" and seat.view()["phase"] == "draw"
    before = seat.seq()
    page.locator('#actions button[data-action="draw"]').click()
    expect(page.locator("#message")).to_contain_text(
        "The server is busy; your move was not played, retrying")
    shoot(page, shots_dir, "busy-retrying-laptop")
    # sent again after the back-off, played once the server can store it
    page.wait_for_function(f"() => window.handfoot.app.seq > {before}", timeout=30_000)
    assert moves == ["draw", "draw", "draw"], moves
    expect(page.locator("#message")).to_be_hidden()
    assert seat.view()["phase"] == "play"
    expect(page.locator("#conn")).to_have_text("connected")
