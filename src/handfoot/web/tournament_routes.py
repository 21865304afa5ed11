"""The club tournaments' page and JSON API (docs/club.md, "Tournaments"; docs/web.md).

Every API route is under ``/api/clubs/{club_id}/tournaments`` and answers 404 "no such
club" to anybody who is not a member, as every club route does. The page
(``/club/tournament#CLUB_ID/TOURNAMENT_ID``) is the same for everybody; its script asks the
API with the player's key.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from handfoot.game.loading import ProfileError
from handfoot.game.rules import Profile
from handfoot.web.club_routes import member_only
from handfoot.web.clubs import Club, Clubs
from handfoot.web.players import Player
from handfoot.web.requests import RequestError, error_response, read_body, rules_from_request
from handfoot.web.tournaments import Tournaments

__all__ = ["club_rules_reader", "tournament_routes"]


def club_rules_reader(clubs: Clubs) -> Callable[[str, Mapping[str, Any]], Awaitable[Profile]]:
    """A tournament's rules from its schedule: the club's house rules named
    ``club_rules``, or a built-in ``profile`` with ``game_rounds`` rounds a game."""
    async def read(club_id: str, body: Mapping[str, Any]) -> Profile:
        ask: dict[str, Any] = {}
        name = body.get("club_rules")
        if name:
            text = await clubs.rule(club_id, str(name))
            if text is None:
                raise ValueError(f"club_rules: the club has no house rules named {name!r}")
            ask["toml"] = text
        else:
            ask["profile"] = body.get("profile") or "partnership-13"
        if body.get("game_rounds") is not None:
            ask["rounds"] = body["game_rounds"]
        try:
            profile, _ = await rules_from_request(ask, lambda p: None)
        except (RequestError, ProfileError) as exc:
            raise ValueError(str(exc)) from None
        return profile
    return read


def tournament_routes(tournaments: Tournaments, clubs: Clubs,
                      templates: Jinja2Templates) -> list[Route]:
    """The routes; ``app.py`` mounts them."""

    async def page(request: Request) -> Response:
        return templates.TemplateResponse(request, "tournament.html", {})

    async def make(request: Request, club: Club, me: Player) -> Response:
        tid = await tournaments.schedule(club.id, me.id, await read_body(request))
        return JSONResponse(await tournaments.view(club.id, tid, me.id))

    async def listing(request: Request, club: Club, _me: Player) -> Response:
        return JSONResponse({"tournaments": await tournaments.of_club(club.id)})

    async def show(request: Request, club: Club, me: Player) -> Response:
        data = await tournaments.view(club.id, request.path_params["tid"], me.id)
        if data is None:
            return error_response("no such tournament in this club", 404)
        return JSONResponse({**data, "club": club.json()})

    async def enter(request: Request, club: Club, me: Player) -> Response:
        body = await read_body(request)
        tid = request.path_params["tid"]
        if not await tournaments.enter(club.id, tid, me.id, body.get("in", True) is not False):
            return error_response("the tournament has started (or there is no such "
                                  "tournament): entries are closed", 409)
        return JSONResponse(await tournaments.view(club.id, tid, me.id))

    async def record(request: Request, club: Club, _me: Player) -> Response:
        try:
            data = await tournaments.record_of(club.id, request.path_params["tid"],
                                               request.path_params["game_id"])
        except PermissionError as exc:
            return error_response(str(exc), 403)
        if data is None:
            return error_response("no such table in this tournament", 404)
        name = f"tournament-{request.path_params['tid']}-{request.path_params['game_id']}.json"
        return JSONResponse(data, headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    base = "/api/clubs/{club_id}/tournaments"
    return [
        Route("/club/tournament", page, name="club_tournament"),
        Route(base, member_only(clubs, listing)),
        Route(base, member_only(clubs, make), methods=["POST"]),
        Route(f"{base}/{{tid}}", member_only(clubs, show)),
        Route(f"{base}/{{tid}}/enter", member_only(clubs, enter), methods=["POST"]),
        Route(f"{base}/{{tid}}/games/{{game_id}}/record", member_only(clubs, record)),
    ]
