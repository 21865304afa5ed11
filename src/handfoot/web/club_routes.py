"""The club's pages and JSON API (see docs/club.md and docs/web.md, "Clubs").

The pages (``/club``, ``/club/join``) are the same for everybody: the club's id, or the
invite's token, is in the URL's fragment, and the page's script asks the API with the
player's key. Every API route under ``/api/clubs/{club_id}`` answers 404 "no such club"
to anybody who is not a member (nobody signed in, a stranger, a former member), exactly as
for a club that does not exist: nothing about a club (its name, members, counts) reaches
a non-member. Only an invite's holder learns the club's name, from the invite.

The club's page data (``GET /api/clubs/{club_id}``) has a key for every section of
:attr:`handfoot.web.clubs.Clubs.sections` (``"ratings"``, ``"tournaments"``: null until a
module fills it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from handfoot.web.clubs import CLUB_SECRET, Club, Clubs, club_tables
from handfoot.web.player_routes import qr_svg
from handfoot.web.players import Player, Players, current_player, is_key
from handfoot.web.requests import RequestError, error_response, read_body, rules_from_request
from handfoot.web.tokens import REMATCH_SECRET, rematch_token

__all__ = ["EXTENSIONS", "NO_CLUB", "ClubHandler", "club_routes", "member_only"]

NO_CLUB: Final = "no such club"
"""The one answer (404) to a non-member, whatever the club route."""

EXTENSIONS: Final = ("ratings", "tournaments")
"""Sections of the club page other modules fill (see :attr:`Clubs.sections`)."""

ClubHandler = Callable[[Request, Club, Player], Awaitable[Response]]
"""A club route's handler: the request, the club, the member asking."""


def member_only(clubs: Clubs, handler: ClubHandler, *, owner: bool = False) -> Any:
    """A club route: 404 :data:`NO_CLUB` unless the request's player is a member (an owner,
    with ``owner``: a member who is not gets 403); a :class:`RequestError` or
    :class:`ValueError` from the handler is a 400 with its message."""
    async def run(request: Request) -> Response:
        me = await current_player(request)
        club = await clubs.club_for(request.path_params["club_id"],
                                    None if me is None else me.id)
        if club is None or me is None:
            return error_response(NO_CLUB, 404)
        if owner and club.role != "owner":
            return error_response("only the club's owner may do this", 403)
        try:
            return await handler(request, club, me)
        except (RequestError, ValueError) as exc:
            return error_response(str(exc))
    return run


NewGame = Callable[[Request, dict[str, Any], Club, Player], Awaitable[Response]]
"""Makes a club's game (``app.py``'s game API): the request, its body, the club, the maker."""


def club_routes(clubs: Clubs, players: Players, templates: Jinja2Templates,
                new_game: NewGame) -> list[Route]:
    """The routes of the club's pages and API; ``app.py`` mounts them."""

    def page(name: str) -> Any:
        async def render(request: Request) -> Response:
            return templates.TemplateResponse(request, name, {})
        return render

    async def body_of(request: Request) -> dict[str, Any]:
        return await read_body(request)

    async def create(request: Request) -> Response:
        me = await current_player(request)
        if me is None:
            return error_response("not signed in: make a player on this device first", 401)
        try:
            body = await body_of(request)
            club = await clubs.create(str(body.get("name", "")), me.id)
        except (RequestError, ValueError) as exc:
            return error_response(str(exc))
        return JSONResponse({"club": club.json()})

    async def club_page(request: Request, club: Club, me: Player) -> Response:
        games = await clubs.games(club.id)
        over = [g["id"] for g in games if g["status"] == "over"]
        for game_id in await players.unrecorded(over):  # its process stopped first
            table = await request.app.state.tables.get(game_id)
            if table is not None and table.state.is_over:
                await players.game_finished(table)
        results = await clubs.results(club.id)
        review = _has_route(request, "/api/games/{game_id}/review")
        for g in games:  # a review is asked for on the game's replay page
            g["review"] = f"/replay/{g['id']}#review" if review and g["status"] == "over" \
                else None
            g["mine"] = next((s["seat"] for s in g["seats"] if s["player"] == me.id), None)
        out: dict[str, Any] = {
            "club": club.json(), "me": me.json(),
            "members": await clubs.members(club.id),
            "invites": await clubs.invites(club.id) if club.role == "owner" else [],
            "rules": await clubs.rules(club.id),
            "live": [g for g in games if g["status"] != "over"],
            "finished": [g for g in games if g["status"] == "over"],
            **club_tables(results)}
        for name in (*EXTENSIONS, *clubs.sections):
            section = clubs.sections.get(name)
            out[name] = None if section is None else await section(club.id)
        return JSONResponse(out)

    async def rename(request: Request, club: Club, _me: Player) -> Response:
        body = await body_of(request)
        return JSONResponse({"name": await clubs.rename(club.id, str(body.get("name", "")))})

    async def leave(request: Request, club: Club, me: Player) -> Response:
        await clubs.leave(club.id, me.id)
        return JSONResponse({"left": True})

    async def remove(request: Request, club: Club, me: Player) -> Response:
        body = await body_of(request)
        who = body.get("player")
        if not isinstance(who, str) or who == me.id:
            raise ValueError("player: the id of another member")
        await clubs.leave(club.id, who)
        return JSONResponse({"members": await clubs.members(club.id)})

    async def invite(request: Request, club: Club, me: Player) -> Response:
        token, expires = await clubs.new_invite(club.id, me.id)
        path = f"/club/join#{token}"
        url = str(request.base_url).rstrip("/") + path
        return JSONResponse({"path": path, "url": url, "qr": qr_svg(url),
                             "expires": expires.isoformat() + "Z"})

    async def revoke(request: Request, club: Club, _me: Player) -> Response:
        body = await body_of(request)
        if not await clubs.revoke_invite(club.id, str(body.get("invite", ""))):
            return error_response("no such invite", 404)
        return JSONResponse({"invites": await clubs.invites(club.id)})

    async def save_rules(request: Request, club: Club, me: Player) -> Response:
        body = await body_of(request)
        toml = body.get("toml")
        if not isinstance(toml, str) or not toml.strip():
            raise ValueError("toml: the text of a house-rule file")
        try:  # checked exactly as the lobby's house-rule files are
            profile, _ = await rules_from_request({"toml": toml}, _nothing)
        except Exception as exc:
            if isinstance(exc, (RequestError, ValueError)):
                raise ValueError(str(exc)) from None
            raise
        name = await clubs.save_rule(club.id, str(body.get("name") or profile.name), toml,
                                     me.id)
        return JSONResponse({"name": name, "rules": await clubs.rules(club.id)})

    async def delete_rules(request: Request, club: Club, _me: Player) -> Response:
        body = await body_of(request)
        if not await clubs.delete_rule(club.id, str(body.get("name", ""))):
            return error_response("no such house rules", 404)
        return JSONResponse({"rules": await clubs.rules(club.id)})

    async def make_game(request: Request, club: Club, me: Player) -> Response:
        return await new_game(request, await body_of(request), club, me)

    async def join_game(request: Request, club: Club, me: Player) -> Response:
        game_id = request.path_params["game_id"]
        table = await request.app.state.tables.get(game_id) \
            if await clubs.game_club(game_id) == club.id else None
        if table is None:
            return error_response("no such game in this club", 404)
        linked = await players.seat_players(game_id)
        mine = next((seat for seat, who in linked.items() if who == me.id), None)
        if mine is None:
            if table.state.is_over:
                return error_response("the game is over", 403)
            free = [s.seat for s in table.seats if s.kind == "human" and s.seat not in linked]
            for seat in free:
                if await players.link_seat(game_id, seat, me.id):
                    mine = seat
                    await players.name_seat(game_id, seat, me.name)
                    table.rename_seats({seat: me.name})
                    table.broadcast()
                    break
        if mine is None:
            return error_response("every seat of this game is taken: watch it instead", 409)
        secret = await _secret_of(request, table)
        return JSONResponse({"seat": mine,
                             "link": f"/game/{game_id}#t={rematch_token(secret, game_id, mine)}"})

    async def watch_game(request: Request, club: Club, _me: Player) -> Response:
        game_id = request.path_params["game_id"]
        table = await request.app.state.tables.get(game_id) \
            if await clubs.game_club(game_id) == club.id else None
        if table is None:
            return error_response("no such game in this club", 404)
        secret = await _secret_of(request, table)
        return JSONResponse({"link": f"/game/{game_id}#s={rematch_token(secret, game_id, None)}"})

    async def invite_preview(request: Request) -> Response:
        try:
            body = await body_of(request)
        except RequestError as exc:
            return error_response(str(exc))
        token = body.get("token")
        invited = await clubs.invited_to(str(token)) if is_key(token) else None
        if invited is None:
            return error_response("this invite does not work: it was withdrawn, it expired, "
                                  "or it was never made; ask for a new one", 404)
        return JSONResponse({"club": {"name": invited[1]}})

    async def invite_join(request: Request) -> Response:
        me = await current_player(request)
        if me is None:
            return error_response("not signed in: make a player on this device first", 401)
        try:
            body = await body_of(request)
        except RequestError as exc:
            return error_response(str(exc))
        token = body.get("token")
        club = await clubs.join(str(token), me.id) if is_key(token) else None
        if club is None:
            return error_response("this invite does not work: it was withdrawn, it expired, "
                                  "or it was never made; ask for a new one", 404)
        return JSONResponse({"club": club.json()})

    club = "/api/clubs/{club_id}"
    return [
        Route("/club", page("club.html"), name="club"),
        Route("/club/join", page("club_join.html"), name="club_join"),
        Route("/api/clubs", create, methods=["POST"]),
        Route("/api/invites/preview", invite_preview, methods=["POST"]),
        Route("/api/invites/join", invite_join, methods=["POST"]),
        Route(club, member_only(clubs, club_page)),
        Route(club, member_only(clubs, rename, owner=True), methods=["POST"]),
        Route(f"{club}/leave", member_only(clubs, leave), methods=["POST"]),
        Route(f"{club}/remove", member_only(clubs, remove, owner=True), methods=["POST"]),
        Route(f"{club}/invites", member_only(clubs, invite), methods=["POST"]),
        Route(f"{club}/invites/revoke", member_only(clubs, revoke, owner=True), methods=["POST"]),
        Route(f"{club}/rules", member_only(clubs, save_rules), methods=["POST"]),
        Route(f"{club}/rules/delete", member_only(clubs, delete_rules), methods=["POST"]),
        Route(f"{club}/games", member_only(clubs, make_game), methods=["POST"]),
        Route(f"{club}/games/{{game_id}}/join", member_only(clubs, join_game), methods=["POST"]),
        Route(f"{club}/games/{{game_id}}/watch", member_only(clubs, watch_game), methods=["POST"]),
    ]


async def _secret_of(request: Request, table: Any) -> bytes:
    """The server secret a club game's tokens come from: the club's, or for a rematch the
    rematch secret (see :meth:`handfoot.web.app._Api.rematch`)."""
    name = REMATCH_SECRET if table.row.settings.get("rematch_of") else CLUB_SECRET
    secret: bytes = await request.app.state.store.secret(name)
    return secret


def _nothing(_profile: Any) -> None:
    return None


def _has_route(request: Request, path: str) -> bool:
    return any(getattr(r, "path", None) == path for r in request.app.routes)
