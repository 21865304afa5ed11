"""A development harness for the table page: the real engine behind a minimal server.

Not the product server (``handfoot serve``): one process, games in memory, no database, no
tokens worth the name. It serves ``table.html`` and the static files, speaks the WebSocket
protocol of ``docs/web.md`` with views built by ``handfoot.web.protocol``, and lets
hard bots play every seat but the ones named in the URL, so the page can be looked at and
played before (and apart from) the real server.

    .venv/bin/python tests/web_fixtures/mock_server.py --port 8124
    open http://127.0.0.1:8124/game/partnership-13~2x2~7~1~0#t=0
        game id: PROFILE~LAYOUT~SEED~ROUNDS~FASTFORWARD; FASTFORWARD = moves the bots play
        for everyone before the page takes over ("round" = to the end of round 1, "end" =
        to the end of the game); token #t=SEAT (a person's seat) or #s=x (spectator);
        a ?humans=0,2 query makes several seats people (two browser windows).

``--dump DIR`` writes the fixture views (``*.json``: welcome + state messages) instead.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket, WebSocketDisconnect

from handfoot.bots.registry import make_bot
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.rules import Layout
from handfoot.game.values import IllegalMoveError
from handfoot.runs.sim import bot_turn, hint
from handfoot.web.protocol import events_for_move, public_view_json, view_json

WEB = Path(__file__).resolve().parents[2] / "src" / "handfoot" / "web"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


class MockGame:
    def __init__(self, game_id: str, humans: set[int], bot_delay: float) -> None:
        parts = game_id.split("~")
        profile_name, layout_text, seed, rounds, ff = parts + ["", "", "1", "1", "0"][len(parts) :]
        overrides = {"rounds": int(rounds)} if rounds else {}
        self.profile = load_profile(profile_name or "partnership-13", overrides=overrides)
        layout = Layout.parse(layout_text) if layout_text else self.profile.layout
        self.state = GameState.new(self.profile, layout=layout, seed=int(seed or 1))
        self.id = game_id
        self.humans = humans
        self.bot_delay = bot_delay
        self.bots = [make_bot("hard", 100 + s) for s in range(self.state.players)]
        self.seq = 0
        self.events: list[Any] = []
        self.conns: list[tuple[WebSocket, int | None]] = []
        self.waiting: dict[str, Any] | None = None
        self.ready: set[int] = set()
        self.task: asyncio.Task[None] | None = None
        n = self.state.players
        self.names = [("Ann" if s in humans and len(humans) == 1 else NAMES[s]) for s in range(n)]
        self.side_names = [
            " and ".join(self.names[s] for s in range(n) if s % self.state.sides == side)
            for side in range(self.state.sides)
        ]
        self.fast_forward(ff)

    # --- the game ---
    def commit(self, move: mv.PlayerMove) -> None:
        seat = self.state.to_act
        before = self.state.view(seat)
        results_before = len(self.state.results)
        self.state.apply(move)
        self.seq += 1
        after = self.state.view(seat)
        self.events += events_for_move(self.seq, move, before, after, results_before)
        if len(self.state.results) > results_before and not self.state.is_over:
            self.waiting = {"continue": sorted(self.humans), "round": results_before + 1}

    def fast_forward(self, ff: str) -> None:
        target_results = {"round": 1, "end": 10**6}.get(ff)
        limit = int(ff) if ff.isdigit() else 10**6
        n = 0
        while not self.state.is_over and n < limit:
            if target_results is not None and len(self.state.results) >= target_results:
                break
            if ff == "ask" and self.state.to_act in self.humans and self.state.view(
                self.state.to_act
            ).asking is not None:
                break  # a partner asks a person: may I go out?
            seat = self.state.to_act
            self.commit(bot_turn(self.bots[seat], self.state, seat))
            n += 1
        if ff.isdigit():
            self.waiting = None
            # stop where a person decides at the start of a turn
            while not self.state.is_over and self.state.to_act not in self.humans:
                seat = self.state.to_act
                self.commit(bot_turn(self.bots[seat], self.state, seat))
            self.waiting = None

    def welcome(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "welcome",
            "seat": seat,
            "game": {
                "id": self.id,
                "profile": self.profile.name,
                "profile_title": self.profile.name,
                "layout": str(self.state.layout),
                "rounds": self.profile.rounds,
                "absent": "bot",
                "seats": [
                    {
                        "seat": s,
                        "name": self.names[s],
                        "kind": "human" if s in self.humans else "bot",
                        "level": None if s in self.humans else "hard",
                    }
                    for s in range(self.state.players)
                ],
            },
        }

    def state_msg(self, seat: int | None, events: list[Any]) -> dict[str, Any]:
        if seat is None:
            view = public_view_json(self.state.view(0), self.side_names)
        else:
            view = view_json(self.state.view(seat), self.side_names)
        if self.state.is_over:
            view["stats"] = self.stats()
        return {
            "type": "state",
            "seq": self.seq,
            "view": view,
            "events": [e.json_for(seat) for e in events],
            "presence": [True] * self.state.players,
            "waiting": self.waiting,
        }

    def stats(self) -> list[dict[str, Any]]:
        out = []
        for s in range(self.state.players):
            mine = [e for e in self.events if e.seat == s]
            out.append(
                {
                    "seat": s,
                    "pickups": sum(e.public.get("type") == "pickup" for e in mine),
                    "draws": sum(e.public.get("type") == "draw" for e in mine),
                    "melds": sum(e.public.get("type") == "meld" for e in mine),
                }
            )
        return out

    async def broadcast(self, new_events: list[Any]) -> None:
        for ws, seat in list(self.conns):
            try:
                await ws.send_json(self.state_msg(seat, new_events))
            except Exception:
                self.conns.remove((ws, seat))

    async def run_bots(self) -> None:
        while (
            not self.state.is_over and self.waiting is None and self.state.to_act not in self.humans
        ):
            await asyncio.sleep(self.bot_delay)
            seat = self.state.to_act
            n = len(self.events)
            self.commit(bot_turn(self.bots[seat], self.state, seat))
            await self.broadcast(self.events[n:])

    def kick(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run_bots())


GAMES: dict[str, MockGame] = {}


def make_app(bot_delay: float) -> Starlette:
    templates = Jinja2Templates(directory=str(WEB / "templates"))

    async def table(request: Request) -> Response:
        return templates.TemplateResponse(
            request, "table.html", {"game_id": request.path_params["game_id"]}
        )

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        game_id = ws.path_params["game_id"]
        humans_q = ws.query_params.get("humans")
        try:
            hello = await ws.receive_json()
        except WebSocketDisconnect:
            return
        token = str(hello.get("token", ""))
        seat = int(token) if token.isdigit() else None
        if game_id not in GAMES:
            humans = (
                {int(x) for x in humans_q.split(",")}
                if humans_q
                else ({seat} if seat is not None else set())
            )
            GAMES[game_id] = MockGame(game_id, humans, bot_delay)
        game = GAMES[game_id]
        if seat is not None:
            game.humans.add(seat)
        await ws.send_json(game.welcome(seat))
        await ws.send_json(game.state_msg(seat, game.events[-30:]))
        game.conns.append((ws, seat))
        game.kick()
        try:
            while True:
                msg = await ws.receive_json()
                kind = msg.get("type")
                rid = msg.get("id")
                if kind == "ping":
                    await ws.send_json({"type": "pong"})
                elif kind in ("move", "check"):
                    try:
                        move = mv.parse_move(str(msg.get("move", "")))
                    except mv.MoveSyntaxError as exc:
                        reply = {
                            "type": "error",
                            "id": rid,
                            "code": "bad_message",
                            "message": str(exc),
                        }
                        if kind == "check":
                            reply = {"type": "checked", "id": rid, "ok": False, "message": str(exc)}
                        await ws.send_json(reply)
                        continue
                    if seat is None or game.state.to_act != seat:
                        await ws.send_json(
                            {
                                "type": "error" if kind == "move" else "checked",
                                "id": rid,
                                "ok": False,
                                "code": "not_your_turn",
                                "message": "it is not your turn",
                            }
                        )
                        continue
                    if kind == "check":
                        reason = game.state.check(move)
                        await ws.send_json(
                            {
                                "type": "checked",
                                "id": rid,
                                "ok": reason is None,
                                "message": reason or "",
                            }
                        )
                        continue
                    try:
                        n = len(game.events)
                        game.commit(move)
                    except IllegalMoveError as exc:
                        await ws.send_json(
                            {"type": "error", "id": rid, "code": "illegal", "message": str(exc)}
                        )
                        continue
                    await ws.send_json({"type": "ack", "id": rid, "seq": game.seq})
                    await game.broadcast(game.events[n:])
                    game.kick()
                elif kind == "hint":
                    h = hint(game.state, seat, 1) if seat is not None else None
                    if h is None:
                        await ws.send_json(
                            {
                                "type": "error",
                                "id": rid,
                                "code": "illegal",
                                "message": "no hint now",
                            }
                        )
                    else:
                        await ws.send_json(
                            {"type": "hint", "id": rid, "move": h.notation, "reason": h.reason}
                        )
                elif kind == "continue" and game.waiting and seat in game.waiting["continue"]:
                    game.waiting["continue"].remove(seat)
                    if not game.waiting["continue"]:
                        game.waiting = None
                    await game.broadcast([])
                    game.kick()
        except WebSocketDisconnect:
            pass
        finally:
            if (ws, seat) in game.conns:
                game.conns.remove((ws, seat))

    return Starlette(
        routes=[
            Route("/game/{game_id}", table),
            WebSocketRoute("/ws/{game_id}", ws_endpoint),
            Mount("/static", StaticFiles(directory=str(WEB / "static")), name="static"),
        ]
    )


def dump(directory: Path) -> None:
    """Write the fixture views: the state messages a page receives at chosen moments."""
    directory.mkdir(parents=True, exist_ok=True)
    cases = {
        "midgame-2x2": ("partnership-13~2x2~7~4~60", 0),
        "opening-2x2": ("partnership-13~2x2~3~4~1", 0),
        "between-rounds": ("partnership-13~2x2~7~2~round", 0),
        "game-over": ("biegames~2x1~5~2~end", 0),
        "spectator-2x2": ("partnership-13~2x2~7~4~60", None),
        "singles-3": ("remastered-singles~3x1~4~1~40", 0),
        "hkf-2x3": ("hand-knee-foot~2x3~2~1~50", 0),
    }
    for name, (game_id, seat) in cases.items():
        game = MockGame(game_id, {0}, 0)
        data = {"welcome": game.welcome(seat), "state": game.state_msg(seat, game.events[-30:])}
        (directory / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--port", type=int, default=8124)
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--dump", type=Path)
    args = parser.parse_args()
    if args.dump:
        dump(args.dump)
        return
    uvicorn.run(make_app(args.bot_delay), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
