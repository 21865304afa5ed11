"""The flood limit counts a WebSocket's refusals in a sliding window: a client that pauses
now and then (letting a token or two back in) is closed all the same (issue 33, item 4)."""

from __future__ import annotations

import time
from pathlib import Path

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from handfoot.web.app import FLOOD_CLOSE
from web_client import client, new_game, token_of


def test_pausing_every_60_messages_does_not_dodge_the_flood_limit(tmp_path: Path) -> None:
    # the dodge, with the default limits: 60 messages, a 30 ms pause, 3,000 in all
    c: TestClient
    with client(tmp_path / "f.db") as c:
        game = new_game(c, seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3)
        token = token_of(game["seats"][0]["link"])
        with c.websocket_connect(f"/ws/{game['game_id']}") as ws:
            ws.send_json({"type": "hello", "token": token, "seq": 0})
            assert ws.receive_json()["type"] == "welcome"
            sent = 0
            started = time.monotonic()
            while sent < 3000:
                for _ in range(60):
                    ws.send_json({"type": "ping"})
                sent += 60
                time.sleep(0.03)
            rate_limited = answered = 0
            close_code = None
            try:
                while answered < sent:  # each ping gets a pong or a refusal, or the close
                    msg = ws.receive_json()
                    if msg["type"] == "error" and msg["code"] == "rate_limited":
                        rate_limited += 1
                    answered += msg["type"] in ("pong", "error")
            except WebSocketDisconnect as exc:
                close_code = exc.code
            print(f"sent {sent} in {time.monotonic() - started:.2f} s; {rate_limited} "
                  f"refused before the close ({close_code})")
            assert close_code == FLOOD_CLOSE
            assert rate_limited == 100  # closed at the 100th refusal within 10 s
