""""My games", turn notices and the installable app: the routes of correspondence play.

- ``/games``: "My games", every game where this browser holds a seat, the ones waiting for
  it first, with the time left (the web app's start page); its data from
  ``POST /api/my-games`` (the seats' tokens, as the History page sends them: nothing
  about a game is given without one of its tokens).
- ``POST /api/games/{id}/notices``: a seat's notices (``{"token"}`` alone reads them;
  ``email``, ``mail_every``, ``muted``, ``push`` change them); ``GET /api/push/key``:
  the server's VAPID public key for ``pushManager.subscribe``.
- ``POST /api/games/{id}/give-to-bot``: a seat of a correspondence game whose time ran out
  (``"on_timeout": "wait"``) given to its stand-in bot by another person at the table.
- ``/notices/unsubscribe?u=...``: one-click unsubscribe (``POST``, RFC 8058; the ``GET``
  page posts itself from its script, so a mail scanner's fetch changes nothing).
- ``/notices/confirm?c=...``: the link mailed to a new notice address; its ``POST`` (sent
  the same way) confirms it, and e-mail notices to it start.
- ``/manifest.webmanifest`` and ``/sw.js`` (the service worker that shows a push notice and
  opens the seat; served from the root so its scope is the whole site).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from handfoot.web.clubs import CLUB_SECRET
from handfoot.web.notices import CONFIRM_TTL
from handfoot.web.players import current_player
from handfoot.web.protocol import is_token
from handfoot.web.requests import RequestError, error_response, read_body
from handfoot.web.store import notice_seats
from handfoot.web.tokens import rematch_token
from handfoot.web.turns import Clock, read_turns

if TYPE_CHECKING:
    from handfoot.web.notices import Notices
    from handfoot.web.table import Table
    from handfoot.web.tables import Tables

__all__ = ["MANIFEST", "MAX_SEATS", "mygames_routes"]

MAX_SEATS: Final = 200
"""Seats one "My games" request may ask about."""

STATIC: Final = __import__("pathlib").Path(__file__).parent / "static"

MANIFEST: Final = {
    "name": "handfoot: Hand and Foot",
    "short_name": "handfoot",
    "description": "Hand and Foot with your family's own rules, live or a move a day.",
    "start_url": "/games",
    "scope": "/",
    "display": "standalone",
    "background_color": "#f6f3ea",
    "theme_color": "#1f5f3f",
    "icons": [
        {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png",
         "purpose": "maskable"},
    ],
}
"""The web app manifest: opens full-screen at "My games"."""


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat() + "Z"


def game_entry(table: Table, seat: int, due: datetime | None, overdue: bool,
               at: datetime) -> dict[str, Any]:
    """One line of "My games" for a seat: only what that seat may know."""
    state = table.state
    to_act = None if state.is_over else state.to_act
    yours = to_act == seat and table.waiting() is None
    entry: dict[str, Any] = {
        "game_id": table.id, "seat": seat, "name": table.seats[seat].name,
        "players": [s.name for s in table.seats], "profile_title": table.profile.title,
        "round": state.round_number, "rounds": table.profile.rounds,
        "over": state.is_over, "your_turn": yours,
        "to_act": None if to_act is None else table.seats[to_act].name,
        "correspondence": None if table.turns.rules is None else table.turns.rules.json(),
        "due": None, "seconds_left": None, "overdue": False,
        "updated": _iso(table.updated)}
    if table.turns.rules is not None and due is not None and not state.is_over:
        entry["due"] = _iso(due)
        entry["seconds_left"] = max(0, int((due - at).total_seconds()))
        entry["overdue"] = overdue
    if state.is_over:
        entry["winners"] = list(state.winners())
        entry["totals"] = list(state.totals)
    return entry


def sort_games(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Waiting for the player first (the least time left first), then the games going on
    (the latest first), then the finished ones."""
    def key(e: Mapping[str, Any]) -> tuple[int, float, str]:
        if e["your_turn"]:
            left = e["seconds_left"]
            return 0, float(left) if left is not None else float("inf"), ""
        return (2 if e["over"] else 1), 0.0, _neg(e.get("updated") or "")
    return sorted(entries, key=key)


def _neg(text: str) -> str:
    """A string that sorts the other way (ISO times: the latest first)."""
    return "".join(chr(0x10FFFF - ord(c)) for c in text)


def mygames_routes(tables: Tables, notices: Notices, templates: Jinja2Templates,
                   clock: Clock) -> list[Route]:
    """The routes (see the module's docstring)."""

    async def _seat_link(game_id: str, seat: int, club: str | None) -> str | None:
        """A seat's link for its own player: derived from the club secret for a club
        game; else the token the seat left when it asked for notices; else unknown."""
        if club is not None:
            secret = await tables.store.secret(CLUB_SECRET)
            return f"/game/{game_id}#t={rematch_token(secret, game_id, seat)}"
        async with tables.store.engine.connect() as conn:
            row = (await conn.execute(select(notice_seats.c.token).where(
                notice_seats.c.game == game_id, notice_seats.c.seat == seat))).first()
        return None if row is None else f"/game/{game_id}#t={row.token}"

    async def seat_of(request: Request, body: Mapping[str, Any],
                      ) -> tuple[Table, int] | Response:
        table = await tables.get(request.path_params["game_id"])
        token = body.get("token")
        if table is None or not is_token(token):
            return error_response("no game for this link", 404)
        ok, seat = table.authenticate(token)
        if not ok:
            return error_response("no game for this link", 404)
        if seat is None or table.seats[seat].kind != "human":
            return error_response("only a person at the table has notices", 403)
        return table, seat

    async def seat_request(request: Request,
                           ) -> tuple[Table, int, dict[str, Any]] | Response:
        """A seat's request: its table, the seat and the body (or the answer refusing it)."""
        try:
            body = await read_body(request)
        except RequestError as exc:
            return error_response(str(exc))
        found = await seat_of(request, body)
        return found if isinstance(found, Response) else (*found, body)

    async def page(request: Request) -> Response:
        return templates.TemplateResponse(request, "mygames.html", {})

    async def my_games(request: Request) -> Response:
        try:
            body = await read_body(request)
        except RequestError as exc:
            return error_response(str(exc))
        seats = body.get("seats")
        if not isinstance(seats, list) or len(seats) > MAX_SEATS:
            return error_response(f"seats: a list of at most {MAX_SEATS} "
                                  "{game_id, token}")
        found: list[tuple[Table, int]] = []
        seen = set()
        for item in seats:
            if not isinstance(item, Mapping) or not isinstance(item.get("game_id"), str) \
                    or not is_token(item.get("token")) or len(item["game_id"]) > 64:
                continue
            table = await tables.get(item["game_id"])
            if table is None:
                continue
            ok, seat = table.authenticate(item["token"])
            if ok and seat is not None and (table.id, seat) not in seen:
                seen.add((table.id, seat))
                found.append((table, seat))
        links: dict[tuple[str, int], str] = {}
        player = await current_player(request)
        if player is not None:  # and every seat of the signed-in player, on any device
            for game in await request.app.state.players.games_of_player(player.id):
                table = await tables.get(game.game_id)
                if table is None or (table.id, game.seat) in seen:
                    continue
                seen.add((table.id, game.seat))
                found.append((table, game.seat))
                link = await _seat_link(table.id, game.seat, game.club)
                if link is not None:
                    links[(table.id, game.seat)] = link
        turns = await read_turns(tables.store, sorted({t.id for t, _ in found}))
        at = clock.now()
        entries = []
        for table, seat in found:
            turn = turns.get(table.id)
            current = turn is not None and (turn.seq, turn.seat) == table.turns.current
            entries.append(game_entry(table, seat, turn.due if current and turn else None,
                                      bool(current and turn and turn.fired), at))
        muted = {(e["game_id"], e["seat"]) for e in entries
                 if (await notices.settings(e["game_id"], e["seat"]))["muted"]}
        for e in entries:
            e["muted"] = (e["game_id"], e["seat"]) in muted
            link = links.get((e["game_id"], e["seat"]))
            if link is not None:  # a seat of the signed-in player this browser may not hold
                e["link"] = link
        return JSONResponse({"games": sort_games(entries), "now": _iso(at)})

    async def seat_notices(request: Request) -> Response:
        found = await seat_request(request)
        if isinstance(found, Response):
            return found
        table, seat, body = found
        changes: dict[str, Any] = {k: body[k] for k in ("email", "mail_every", "muted", "push")
                                   if k in body}
        if not changes:
            return JSONResponse(await notices.settings(table.id, seat))
        if table.turns.rules is None:
            return error_response("turn notices are for correspondence games", 403)
        player = await current_player(request)
        linked = None
        if player is not None and "push" in changes:  # the player's own seat: all seats
            seated = await request.app.state.players.seat_players(table.id)
            linked = player.id if seated.get(seat) == player.id else None
        verified = player.email if player is not None and player.email_verified else None
        try:
            out = await notices.update(table.id, seat, body["token"],
                                       str(request.base_url), changes, player_id=linked,
                                       verified_email=verified)
        except ValueError as exc:
            return error_response(str(exc))
        return JSONResponse(out)

    async def push_key(request: Request) -> Response:
        return JSONResponse({"key": (await notices.keys()).application_server_key()})

    async def give_to_bot(request: Request) -> Response:
        found = await seat_request(request)
        if isinstance(found, Response):
            return found
        table, mine, body = found
        seat = body.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) \
                or not 0 <= seat < len(table.seats) or seat == mine:
            return error_response("seat: another person's seat at this table")
        rules = table.turns.rules
        if rules is None or rules.on_timeout != "wait":
            return error_response("only a correspondence game that waits on a time-out "
                                  "lets the others give a seat to a bot", 403)
        turn = (await read_turns(tables.store, [table.id])).get(table.id)
        if turn is None or turn.seat != seat or not turn.fired \
                or (turn.seq, turn.seat) != table.turns.current:
            return error_response("that seat's time has not run out", 409)
        await table.turns.give_to_bot(seat)
        table.broadcast()
        return JSONResponse({"given_to_bot": sorted(table.given_to_bot)})

    async def unsubscribe(request: Request) -> Response:
        token = request.query_params.get("u", "")
        valid = len(token) == 64 and all(c in "0123456789abcdef" for c in token)
        if request.method == "GET":
            return templates.TemplateResponse(request, "unsubscribe.html",
                                              {"token": token, "done": None,
                                               "valid": valid})
        done = valid and await notices.unsubscribe(token)
        if "text/html" not in request.headers.get("accept", ""):  # RFC 8058's POST
            return JSONResponse({"unsubscribed": done}, status_code=200 if done else 404)
        return templates.TemplateResponse(request, "unsubscribe.html",
                                          {"token": token, "done": done, "valid": valid},
                                          status_code=200 if done else 404)

    async def confirm(request: Request) -> Response:
        token = request.query_params.get("c", "")
        valid = len(token) == 64 and all(c in "0123456789abcdef" for c in token)
        days = CONFIRM_TTL.days
        if request.method == "GET":
            return templates.TemplateResponse(request, "confirm.html", {
                "token": token, "done": None, "valid": valid, "days": days})
        done = valid and await notices.confirm(token)
        if "text/html" not in request.headers.get("accept", ""):
            return JSONResponse({"confirmed": done}, status_code=200 if done else 404)
        return templates.TemplateResponse(request, "confirm.html", {
            "token": token, "done": done, "valid": valid, "days": days},
            status_code=200 if done else 404)

    async def manifest(request: Request) -> Response:
        return JSONResponse(MANIFEST, media_type="application/manifest+json")

    async def service_worker(request: Request) -> Response:
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={
            "cache-control": "no-cache", "service-worker-allowed": "/"})

    return [
        Route("/games", page, name="my_games"),
        Route("/api/my-games", my_games, methods=["POST"]),
        Route("/api/games/{game_id}/notices", seat_notices, methods=["POST"]),
        Route("/api/games/{game_id}/give-to-bot", give_to_bot, methods=["POST"]),
        Route("/api/push/key", push_key),
        Route("/notices/unsubscribe", unsubscribe, methods=["GET", "POST"]),
        Route("/notices/confirm", confirm, methods=["GET", "POST"]),
        Route("/manifest.webmanifest", manifest),
        Route("/sw.js", service_worker),
    ]
