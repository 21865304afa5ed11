"""The player's pages and JSON API (see docs/club.md and docs/web.md, "Players"):
making a player, the player's own page (name, address, devices, clubs, games), a link or
QR code that adds a device, the sign-in by mail, the export of everything stored, and
deleting the account; and ``POST /api/games/{id}/sit``, by which a signed-in person's
table page links their seat to them.

Every request but making a player and using a link names its player by the
``X-Handfoot-Player`` header (:func:`~handfoot.web.players.current_player`); without one
the answer is 401. Links' tokens come in JSON bodies (the pages read them from the URL's
fragment), never in a URL the server sees.
"""

from __future__ import annotations

import asyncio
import io
import logging
from datetime import timedelta
from typing import Any, Final

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from handfoot.web.mail import Mailer
from handfoot.web.players import (
    LINK_TTL,
    MAIL_TTL,
    MAILS_PER_HOUR,
    Player,
    Players,
    clean_email,
    current_player,
    is_key,
)
from handfoot.web.protocol import is_token
from handfoot.web.requests import RequestError, error_response, read_body
from handfoot.web.settings import Settings

__all__ = ["player_routes", "qr_svg"]

log = logging.getLogger("handfoot.web")

NOT_SIGNED_IN: Final = "not signed in: make a player on this device first (see /me)"

SIGNIN_ANSWER: Final = ("If this address belongs to a player here, a sign-in link is on its "
                        "way to it; it works once, for 15 minutes.")
"""The same answer for an address known or not (nobody learns who plays here)."""


def qr_svg(url: str) -> str:
    """An inline SVG of a QR code for ``url`` (made here: nothing is fetched)."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()  # with its namespace: the page parses it as an SVG document
    code.save(out, kind="svg", xmldecl=False, svgns=True, nl=False, omitsize=True, border=2,
              dark="#10331f", light="#ffffff", title="QR code of the link")
    return out.getvalue().decode()


def player_routes(players: Players, settings: Settings, templates: Jinja2Templates,
                  ) -> list[Route]:
    """The routes of the player's pages and API; ``app.py`` mounts them."""
    mailer = Mailer(settings.smtp_url, settings.mail_from) \
        if settings.smtp_url and settings.public_url else None
    sending: set[asyncio.Task[None]] = set()

    def page(name: str) -> Any:
        async def render(request: Request) -> Response:
            return templates.TemplateResponse(request, name, {"mail": mailer is not None})
        return render

    async def body_of(request: Request) -> dict[str, Any]:
        try:
            return await read_body(request)
        except RequestError as exc:
            raise _Refused(str(exc)) from None

    async def me_or_401(request: Request) -> Player:
        me = await current_player(request)
        if me is None:
            raise _Refused(NOT_SIGNED_IN, 401)
        return me

    def handled(handler: Any) -> Any:
        async def run(request: Request) -> Response:
            try:
                out: Response = await handler(request)
            except _Refused as exc:
                return error_response(exc.message, exc.status)
            except ValueError as exc:
                return error_response(str(exc))
            return out
        return run

    async def create(request: Request) -> Response:
        body = await body_of(request)
        key = body.get("key")
        if not is_key(key):
            raise _Refused("key: 32 random bytes, base64url (43 characters)")
        player = await players.create(str(body.get("name", "")), str(key),
                                      str(body.get("label", "")))
        return JSONResponse({"player": player.json()})

    async def me(request: Request) -> Response:
        player = await me_or_401(request)
        clubs = request.app.state.clubs
        games = await players.games_of_player(player.id)
        return JSONResponse({
            "player": player.json(), "mail": mailer is not None,
            "devices": await players.devices(player.id),
            "clubs": [c.json() for c in await clubs.clubs_of(player.id)],
            "games": [{"game_id": g.game_id, "seat": g.seat, "finished": g.finished,
                       "turn": g.turn, "my_turn": g.my_turn, "club": g.club,
                       "rules": g.rules, "names": list(g.names),
                       "updated": g.updated.isoformat() + "Z"} for g in games]})

    async def update_me(request: Request) -> Response:
        player = await me_or_401(request)
        body = await body_of(request)
        if "name" in body:
            await players.rename(player.id, str(body["name"]))
        if "email" in body:
            email = body["email"]
            if email is not None and not isinstance(email, str):
                raise _Refused("email: an address, or null to remove it")
            await players.set_email(player.id, email)
        updated = await players.player(player.id)
        assert updated is not None
        return JSONResponse({"player": updated.json()})

    async def device_link(request: Request) -> Response:
        player = await me_or_401(request)
        token = await players.new_link(player.id, "device")
        path = f"/me/device#{token}"
        url = str(request.base_url).rstrip("/") + path
        return JSONResponse({"path": path, "url": url, "qr": qr_svg(url),
                             "minutes": int(LINK_TTL.total_seconds() // 60)})

    async def use_device_link(request: Request) -> Response:
        body = await body_of(request)
        token, key = body.get("token"), body.get("key")
        player = await players.use_link(str(token), "device", str(key),
                                        str(body.get("label", ""))) \
            if is_key(token) and is_key(key) else None
        if player is None:
            raise _Refused("this link does not work: it was used already, it is more than "
                           "10 minutes old, or it was never made; ask for a new one on your "
                           "other device", 404)
        return JSONResponse({"player": player.json()})

    async def forget_device(request: Request) -> Response:
        player = await me_or_401(request)
        body = await body_of(request)
        if not await players.forget_device(player.id, str(body.get("device", ""))):
            raise _Refused("no such device", 404)
        return JSONResponse({"devices": await players.devices(player.id)})

    async def export(request: Request) -> Response:
        player = await me_or_401(request)
        return JSONResponse(await players.export(player.id), headers={
            "content-disposition": 'attachment; filename="handfoot-my-data.json"'})

    async def delete(request: Request) -> Response:
        player = await me_or_401(request)
        body = await body_of(request)
        if body.get("confirm") is not True:
            raise _Refused('confirm: true, to delete this player for good')
        renamed = await players.delete(player.id)
        tables = request.app.state.tables
        for game_id in renamed:  # tables held here: their seats' names now
            row = await request.app.state.store.game(game_id)
            table = tables._tables.get(game_id)
            if table is not None and row is not None:
                table.rename_seats({s.seat: s.name for s in row.seats})
        return JSONResponse({"deleted": True, "games": len(renamed)})

    async def mail_link(request: Request) -> Response:
        body = await body_of(request)
        email = clean_email(body.get("email"))
        if email is None:
            raise _Refused("email: an address like name@example.org")
        if mailer is None or settings.public_url is None:
            raise _Refused("this server sends no mail (its host did not set --smtp-url)", 404)
        player = await players.player_by_email(email)
        if player is not None and await players.links_sent(
                player.id, email, timedelta(hours=1)) < MAILS_PER_HOUR:
            token = await players.new_link(player.id, "mail", email)
            link = settings.public_url.rstrip("/") + f"/signin#{token}"
            text = (f"Hello {player.name},\n\nsomeone (we hope you) asked to sign in to "
                    f"Hand and Foot on a new device. Open this link on that device within "
                    f"{int(MAIL_TTL.total_seconds() // 60)} minutes; it works once:\n\n"
                    f"{link}\n\nIf it was not you, ignore this mail: nothing changes.\n")
            task = asyncio.create_task(_send(mailer, email, "Your Hand and Foot sign-in link",
                                             text))
            sending.add(task)  # sent after the answer: its time tells nothing
            task.add_done_callback(sending.discard)
        return JSONResponse({"ok": True, "message": SIGNIN_ANSWER})

    async def use_mail_link(request: Request) -> Response:
        body = await body_of(request)
        token, key = body.get("token"), body.get("key")
        player = await players.use_link(str(token), "mail", str(key),
                                        str(body.get("label", ""))) \
            if is_key(token) and is_key(key) else None
        if player is None:
            raise _Refused("this sign-in link does not work: it was used already, it is "
                           "too old, or it was never sent; ask for a new one", 404)
        return JSONResponse({"player": player.json()})

    async def sit(request: Request) -> Response:
        player = await me_or_401(request)
        body = await body_of(request)
        token = body.get("token")
        table = await request.app.state.tables.get(request.path_params["game_id"])
        ok, seat = (False, None) if table is None or not is_token(token) else \
            table.authenticate(token)
        if table is None or not ok or seat is None:
            raise _Refused("no seat of this game for this link", 404)
        if table.state.is_over:
            raise _Refused("the game is over", 403)
        linked = await players.link_seat(table.id, seat, player.id)
        return JSONResponse({"seat": seat, "linked": linked})

    return [
        Route("/me", page("me.html"), name="me"),
        Route("/me/device", page("device.html"), name="device"),
        Route("/signin", page("signin.html"), name="signin"),
        Route("/api/players", handled(create), methods=["POST"]),
        Route("/api/me", handled(me)),
        Route("/api/me", handled(update_me), methods=["POST"]),
        Route("/api/me/device-link", handled(device_link), methods=["POST"]),
        Route("/api/me/forget-device", handled(forget_device), methods=["POST"]),
        Route("/api/me/export", handled(export)),
        Route("/api/me/delete", handled(delete), methods=["POST"]),
        Route("/api/device", handled(use_device_link), methods=["POST"]),
        Route("/api/signin/mail", handled(mail_link), methods=["POST"]),
        Route("/api/signin", handled(use_mail_link), methods=["POST"]),
        Route("/api/games/{game_id}/sit", handled(sit), methods=["POST"]),
    ]


class _Refused(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


async def _send(mailer: Mailer, to: str, subject: str, text: str) -> None:
    try:
        await mailer.send(to, subject, text)
    except Exception:
        log.exception("a sign-in mail could not be sent")
