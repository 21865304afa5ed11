"""The web server: pages, the JSON API and the game WebSocket (see docs/web.md).

``create_app(settings)`` builds the Starlette app: Jinja2 pages (the table here, the others
from :mod:`handfoot.web.pages`), static files from the package, the JSON API under
``/api`` and the WebSocket ``/ws/{game_id}``. One process serves everything; the state of
each live game is in its :class:`~handfoot.web.table.Table`, the truth in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from handfoot.bots.registry import BOTS
from handfoot.bots.styles import find_style
from handfoot.game.differences import diff_profiles
from handfoot.game.loading import (
    DEFAULT_PROFILE,
    OPTIONS,
    ProfileError,
    builtin_profile_names,
    load_profile,
    value_to_toml,
)
from handfoot.game.record import GameRecord, profile_spec
from handfoot.game.rulebook import describe_profile
from handfoot.game.rules import FIELDS, Layout, Profile
from handfoot.runs.ratings import BOT_ANCHORS
from handfoot.web import collector, daily, messages
from handfoot.web.club_routes import NO_CLUB, club_routes
from handfoot.web.clubs import CLUB_SECRET, Club, Clubs
from handfoot.web.connection import Connection
from handfoot.web.guard import (
    FloodWatch,
    OpenLimiter,
    OriginGuard,
    OutageGuard,
    TokenBucket,
    quiet_frame_logs,
)
from handfoot.web.headers import SecurityHeaders
from handfoot.web.mail import Mailer
from handfoot.web.metrics import Metrics, health_routes
from handfoot.web.mygames import mygames_routes
from handfoot.web.notices import Notices
from handfoot.web.pages import page_routes
from handfoot.web.player_routes import player_routes
from handfoot.web.players import Player, Players, current_player
from handfoot.web.protocol import MAX_MESSAGE, MessageError, is_token, read_frame
from handfoot.web.ratings import ClubRatings
from handfoot.web.requests import (
    BodyTimeout,
    RequestError,
    body_timeout_response,
    client_gone_response,
    error_response,
    profile_from_request,
    read_body,
    rules_from_request,
)
from handfoot.web.reviews import Busy as ReviewsBusy
from handfoot.web.reviews import Reviews
from handfoot.web.scoresheets import score_routes
from handfoot.web.settings import Settings
from handfoot.web.store import (
    GameRow,
    SeatRow,
    Store,
    default_database_url,
    is_outage,
    now,
    token_hash,
)
from handfoot.web.table import Table, begin_join
from handfoot.web.tables import Tables
from handfoot.web.talk import read_settings as read_talk_settings
from handfoot.web.talk import replay_talk
from handfoot.web.tokens import REMATCH_SECRET, new_game_id, new_seed, new_token, rematch_token
from handfoot.web.tournament_routes import club_rules_reader, tournament_routes
from handfoot.web.tournaments import TOURNAMENT_RECORD_WAITS, Tournaments
from handfoot.web.turns import (
    SYSTEM_CLOCK,
    Clock,
    Correspondence,
    RequestProblem,
    Timers,
    correspondence_from_request,
)

__all__ = ["Settings", "create_app"]

log = logging.getLogger("handfoot.web")

HELLO_TIMEOUT = 30.0
"""Seconds a new WebSocket has to say hello."""

MAX_NAME = 40

AUTH_CLOSE = 4401
"""The close code of a WebSocket whose first frame is not a hello with a token of the game."""

FLOOD_CLOSE = 4429
"""The close code of a WebSocket that kept sending past its rate (see :class:`Settings`)."""

FORM_KINDS = ("int", "opt_int", "bool", "str")
"""The kinds of parameter the house-rules form offers (lists and maps only in a TOML file)."""


def create_app(settings: Settings | None = None, clock: Clock = SYSTEM_CLOCK) -> Starlette:
    """The whole site as one Starlette app; ``clock``: the time of correspondence games'
    timers (a test's own)."""
    settings = settings or Settings()
    store = Store(settings.database_url or default_database_url())
    metrics = Metrics()
    store.on_commit = metrics.committed
    tables = Tables(store, settings, metrics, clock)
    metrics.tables = tables
    players = Players(store, tables)
    clubs = Clubs(store)
    tournaments = Tournaments(store, tables, players, clubs,
                              rules_of=club_rules_reader(clubs))

    async def game_finished(table: Table) -> None:
        await players.game_finished(table)
        await tournaments.table_finished(table)
    tables.on_finished = game_finished
    ratings = ClubRatings(store)
    players.on_game_finished(ratings.game_finished)

    async def ratings_section(club_id: str) -> Any:
        return await ratings.club_section(club_id, await clubs.members(club_id))
    clubs.sections["ratings"] = ratings_section

    async def tournaments_section(club_id: str) -> Any:
        return {"tournaments": await tournaments.of_club(club_id),
                "rules": [r["name"] for r in await clubs.rules(club_id)]}
    clubs.sections["tournaments"] = tournaments_section
    env = jinja2.Environment(loader=jinja2.PackageLoader("handfoot.web", "templates"),
                             autoescape=True)
    templates = Jinja2Templates(env=env)
    mailer = Mailer(settings.smtp_url, settings.mail_from or "handfoot@localhost") \
        if settings.smtp_url else None
    notices = Notices(store, clock, mailer=mailer, push_contact=settings.vapid_contact(),
                      push_hosts=settings.push_hosts, public_url=settings.public_url)
    timers = Timers(store, tables.get, notices.your_turn, clock, settings.timer_every,
                    digest=notices.digest, overdue=notices.overdue)

    async def finished(table: Table) -> None:
        await players.game_finished(table)
        if table.turns.rules is not None:  # its notice rows hold its seats' tokens
            await notices.forget_game(table.id)
    tables.on_finished = finished

    async def finished_record(game_id: str) -> GameRecord | None:
        table = await tables.get(game_id)
        return table.record() if table is not None and table.state.is_over else None

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.start()
        await tables.start()  # on PostgreSQL: hear what the other processes store
        metrics.start()
        await notices.keys()  # the VAPID keys, made at the first start
        await timers.start()
        refresh = asyncio.create_task(tournaments.run())
        collecting = asyncio.create_task(collector.collect_by_the_clock())
        await api.reviews.resume(finished_record)  # SQLite: what a dead process left
        yield
        await api.reviews.close()
        for task in (refresh, collecting):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await timers.close()
        await metrics.stop()
        await tables.close()
        await store.close()

    api = _Api(store, tables, players, clubs)
    api.tournaments = tournaments
    routes: list[BaseRoute] = [
        Route("/game/{game_id}", _table_page(templates), name="game"),
        Route("/api/profiles", api.profiles),
        Route("/api/rules/check", api.check_rules, methods=["POST"]),
        Route("/api/games", api.create_game, methods=["POST"]),
        Route("/api/games/{game_id}/status", api.status, methods=["POST"]),
        Route("/api/games/{game_id}/record", api.record),
        Route("/api/games/{game_id}/replay", api.replay),
        Route("/api/games/{game_id}/review", api.review, methods=["GET", "POST"]),
        Route("/api/games/{game_id}/rematch", api.rematch, methods=["POST"]),
        Route("/api/daily", api.start_daily, methods=["POST"]),
        Route("/api/daily/{date}", api.daily_board),
        WebSocketRoute("/ws/{game_id}", SocketEndpoint(api.websocket)),
        Mount("/static", StaticFiles(packages=[("handfoot.web", "static")]), name="static"),
    ]
    routes += health_routes(metrics, store, tables)
    routes += page_routes(templates)
    routes += player_routes(players, settings, templates)
    routes += club_routes(clubs, players, templates, api.club_game)
    routes += tournament_routes(tournaments, clubs, templates)
    routes += score_routes(store, templates)
    routes += mygames_routes(tables, notices, templates, clock)
    quiet_frame_logs()
    middleware = [Middleware(OriginGuard, allowed=settings.allowed_origins)]
    limits = settings.open_limit_list()
    if limits:  # outermost but for the two below: a refused request costs the least
        middleware.insert(0, Middleware(OpenLimiter, limits=limits))
    if settings.allowed_hosts:
        middleware.insert(0, Middleware(TrustedHostMiddleware,
                                        allowed_hosts=list(settings.allowed_hosts)))
    middleware.insert(0, Middleware(OutageGuard))
    middleware.insert(0, Middleware(SecurityHeaders))  # on every answer, refusals too
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers={BodyTimeout: body_timeout_response,
                                        ClientDisconnect: client_gone_response})
    app.state.store = store
    app.state.tables = tables
    app.state.players = players
    app.state.clubs = clubs
    app.state.ratings = ratings
    app.state.tournaments = tournaments
    app.state.metrics = metrics
    app.state.settings = settings
    app.state.notices = notices
    app.state.timers = timers
    return app


def _table_page(templates: Jinja2Templates) -> Any:
    async def table_page(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        return templates.TemplateResponse(request, "table.html", {
            "game_id": game_id, "learn": request.query_params.get("learn") == "1"})
    return table_page


# --- the JSON API --------------------------------------------------------------------------


def _layout(body: Mapping[str, Any], profile: Profile) -> Layout:
    text = body.get("layout")
    if text is None:
        return profile.layout
    if not isinstance(text, str):
        raise RequestError("layout: like \"2x2\"")
    layout = Layout.parse(text)
    if layout not in profile.layouts:
        allowed = ", ".join(str(x) for x in profile.layouts)
        raise RequestError(f"{profile.name} is played as {allowed}, not {layout}")
    return layout


def _seat_rows(body: Mapping[str, Any], players: int) -> list[dict[str, Any]]:
    seats = body.get("seats")
    if seats is None:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "hard"}] * (players - 1)
    if not isinstance(seats, list) or len(seats) != players:
        raise RequestError(f"seats: one entry for each of the {players} seats")
    out = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or seat.get("kind") not in ("human", "bot"):
            raise RequestError(f"seats[{i}]: kind is \"human\" or \"bot\"")
        level = seat.get("level") if seat["kind"] == "bot" else None
        if seat["kind"] == "bot" and level not in BOTS:
            raise RequestError(f"seats[{i}]: level: one of {', '.join(BOTS)}")
        name = seat.get("name")
        if name is not None and not isinstance(name, str):
            raise RequestError(f"seats[{i}]: name: a string")
        name = " ".join((name or "").split())[:MAX_NAME]
        if not name:
            name = f"{level.capitalize()} bot" if level else f"Player {i + 1}"
        out.append({"kind": seat["kind"], "level": level, "name": name})
    return out


def _differences(profile: Profile) -> list[Any]:
    """How house rules differ from the built-in profile they extend (none for others)."""
    name = profile.extends or profile.name
    if name not in builtin_profile_names():
        return []
    base = load_profile(name)
    return diff_profiles(base, profile, names=(base.name, "your rule set"))


def _nothing(_profile: Profile) -> None:
    return None


async def _game_request(body: Mapping[str, Any]) -> tuple[
        Profile, Layout, list[dict[str, Any]], str, Mapping[str, bool] | None]:
    """What a new game's request asks for: the rules, the seating, the seats, what an
    absent person's turn does and the talk settings (:class:`RequestError` or
    :class:`ProfileError` says what is wrong)."""
    profile, _ = await rules_from_request(body, _nothing)
    layout = _layout(body, profile)
    seats = _seat_rows(body, layout.players)
    absent = body.get("absent", "wait")
    if absent not in ("wait", "bot"):
        raise RequestError("absent: \"wait\" or \"bot\"")
    return profile, layout, seats, absent, read_talk_settings(body.get("talk"))


def level_ratings() -> dict[str, float]:
    """Each level's rating on the club's OpenSkill scale, for the lobby: the mu of its
    anchor (:data:`handfoot.runs.ratings.BOT_ANCHORS`, measured from the ladder's
    tournaments by ``benchmarks/rating_anchors.py``), one decimal."""
    return {name: round(r.mu, 1) for name, r in BOT_ANCHORS.items() if name in BOTS}


def learned_styles(profile: Profile) -> dict[str, str | None]:
    """Per seating, the style file the learned level plays there (its stem, e.g.
    ``remastered-singles.2x1``), ``None`` where it plays untuned (no style up the chain)."""
    out: dict[str, str | None] = {}
    for layout in profile.layouts:
        found = find_style(profile, layout)
        out[str(layout)] = found[0] if found is not None else None
    return out


class _Api:
    def __init__(self, store: Store, tables: Tables, players: Players, clubs: Clubs) -> None:
        self.store = store
        self.tables = tables
        self.players = players
        self.clubs = clubs
        self.tournaments: Tournaments | None = None
        """The club tournaments: a table's record waits for the end of its round."""
        self.reviews = Reviews(store)

    # -- rules ------------------------------------------------------------------------------

    async def profiles(self, request: Request) -> Response:
        out = []
        for name in builtin_profile_names():
            p = load_profile(name)
            sections = describe_profile(p)
            out.append({"name": name, "title": p.title, "source": p.source,
                        "layouts": [str(x) for x in p.layouts],
                        "default_layout": str(p.layout), "rounds": p.rounds,
                        "learned_styles": learned_styles(p),
                        "summary": sections[0][1][0] if sections and sections[0][1] else "",
                        "values": {key: value_to_toml(info, getattr(p, key))
                                   for key, info in FIELDS.items()
                                   if info.kind in FORM_KINDS}})
        parameters = []
        for key, info in FIELDS.items():
            item: dict[str, Any] = {"key": key, "section": info.section, "type": info.kind,
                                    "label": info.label, "text": info.doc}
            if info.choices:
                item["choices"] = list(info.choices)
            if info.kind in ("int", "opt_int"):
                item["min"] = info.minimum
                if info.maximum is not None:
                    item["max"] = info.maximum
            parameters.append(item)
        return JSONResponse({
            "profiles": out, "default": DEFAULT_PROFILE, "bots": list(BOTS),
            "ratings": level_ratings(),
            "options": [{"key": o.key, "id": o.id, "title": o.title, "text": o.description}
                        for o in OPTIONS.values()],
            "parameters": parameters})

    async def check_rules(self, request: Request) -> Response:
        try:
            body = await read_body(request)
            profile, differences = await rules_from_request(body, _differences)
        except (RequestError, ProfileError, ValueError) as exc:
            return JSONResponse({"ok": False, "error": str(exc)})
        return JSONResponse({"ok": True, "name": profile.name,
                             "layouts": [str(x) for x in profile.layouts],
                             "learned_styles": learned_styles(profile),
                             "differences": differences})

    # -- games ------------------------------------------------------------------------------

    async def create_game(self, request: Request) -> Response:
        try:
            body = await read_body(request)
        except RequestError as exc:
            return error_response(str(exc))
        me = await current_player(request)
        if body.get("club") is not None:  # the lobby with a club chosen
            club = await self.clubs.club_for(str(body["club"]), None if me is None else me.id)
            if club is None or me is None:
                return error_response(NO_CLUB, 404)
            return await self.club_game(request, body, club, me)
        try:
            profile, layout, seats, absent, talk = await _game_request(body)
            correspondence = correspondence_from_request(body)
        except (RequestError, ProfileError, RequestProblem, ValueError) as exc:
            return error_response(str(exc))
        game = await self._new_game(profile, layout, seats, absent, talk=talk,
                                    correspondence=correspondence)
        if correspondence is not None:
            await self.tables.get(game["game_id"])  # stores its first turn and timer
        if me is not None:  # the maker sits in the first person's seat
            first = next((s for s in game["seats"] if s["kind"] == "human"), None)
            if first is not None:
                await self.players.link_seat(game["game_id"], first["seat"], me.id)
        return JSONResponse(game)

    async def club_game(self, request: Request, body: dict[str, Any], club: Club,
                        me: Player) -> Response:
        """A game of a club, made by a member: with the club's house rules named
        ``club_rules`` (or the rules the body gives, as for any game), live or
        correspondence as any game; its seats' links derived from the club secret, so
        members may take a free seat later; the maker linked to the first person's seat."""
        body = {k: v for k, v in body.items() if k != "club"}
        rules_name = body.pop("club_rules", None)
        try:
            if rules_name is not None:
                text = await self.clubs.rule(club.id, str(rules_name))
                if text is None:
                    raise RequestError(f"club_rules: the club has no house rules named "
                                       f"{rules_name!r}")
                body["toml"] = text
            profile, layout, seats, absent, talk = await _game_request(body)
            correspondence = correspondence_from_request(body)
        except (RequestError, ProfileError, RequestProblem, ValueError) as exc:
            return error_response(str(exc))
        secret = await self.store.secret(CLUB_SECRET)
        game_id = new_game_id()
        game = await self._new_game(profile, layout, seats, absent, game_id=game_id,
                                    token_for=lambda s: rematch_token(secret, game_id, s),
                                    talk=talk, correspondence=correspondence)
        if rules_name is None:
            rules_name = profile.name if not (body.get("toml") or body.get("overrides")
                                              or body.get("options")) \
                else f"{profile.name} + house rules"
        await self.clubs.add_game(game_id, club.id, str(rules_name))
        if correspondence is not None:
            await self.tables.get(game_id)  # stores its first turn and timer
        first = next((s for s in game["seats"] if s["kind"] == "human"), None)
        if first is not None:
            await self.players.link_seat(game_id, first["seat"], me.id)
        return JSONResponse({**game, "club": club.id})

    async def _new_game(self, profile: Profile, layout: Layout, seats: list[dict[str, Any]],
                        absent: str, *, seed: int | None = None, daily_date: str | None = None,
                        game_id: str | None = None,
                        token_for: Callable[[int | None], str] | None = None,
                        rematch_of: str | None = None,
                        talk: Mapping[str, bool] | None = None,
                        correspondence: Correspondence | None = None) -> dict[str, Any]:
        """Store a new game; its links (``token_for(seat)``, None for the spectator: new
        random tokens unless given). With ``rematch_of``, the game is made only if that
        game has no rematch yet; else only ``{"game_id": <the rematch made first>}``."""
        base, overrides = profile_spec(profile)
        game_id = game_id or new_game_id()
        token_for = token_for or (lambda _seat: new_token())
        tokens = {i: token_for(i) for i, s in enumerate(seats) if s["kind"] == "human"}
        spectator = token_for(None)
        stamp = now()
        settings: dict[str, Any] = {"absent": absent, "seats": seats}
        if talk is not None:
            settings["talk"] = dict(talk)
        if daily_date is not None:
            settings["daily"] = daily_date
        if rematch_of is not None:
            settings["rematch_of"] = rematch_of
        if correspondence is not None:
            settings["correspondence"] = correspondence.json()
        row = GameRow(
            id=game_id, profile=base, overrides=overrides, layout=str(layout),
            settings=settings, seed=self._seed(base, layout, seats) if seed is None else seed,
            spectator_hash=token_hash(spectator), status="playing", created=stamp,
            updated=stamp,
            seats=tuple(SeatRow(i, s["kind"], s["level"], s["name"],
                                token_hash(tokens[i]) if i in tokens else None)
                        for i, s in enumerate(seats)))
        if rematch_of is None:
            await self.store.create_game(row)
        else:
            made = await self.store.create_rematch(rematch_of, row)
            if made != game_id:  # another process's press made it first
                return {"game_id": made}
        out_seats = []
        for i, s in enumerate(seats):
            item: dict[str, Any] = {"seat": i, "kind": s["kind"], "name": s["name"]}
            if s["kind"] == "human":
                item["link"] = f"/game/{game_id}#t={tokens[i]}"
            else:
                item["level"] = s["level"]
            out_seats.append(item)
        return {"game_id": game_id, "seats": out_seats,
                "spectator_link": f"/game/{game_id}#s={spectator}"}

    def _seed(self, profile: str, layout: Layout, seats: list[dict[str, Any]]) -> int:
        """A new game's seed: from the settings' test hook if set, else :func:`new_seed`."""
        source = self.tables.settings.seed_source
        if source is None:
            return new_seed()
        return int(source(profile, str(layout), seats))

    async def _table(self, request: Request) -> Table | None:
        return await self.tables.get(request.path_params["game_id"])

    async def status(self, request: Request) -> Response:
        try:
            body = await read_body(request)
        except RequestError as exc:
            return error_response(str(exc))
        table = await self._table(request)
        token = body.get("token")
        if table is None or not is_token(token) or not table.authenticate(token)[0]:
            return error_response("no game for this link", 404)
        state = table.state
        return JSONResponse({
            "game_id": table.id, "profile": table.profile.name,
            "profile_title": table.profile.title, "layout": str(table.layout),
            "seats": [s.json() for s in table.seats], "round": state.round_number,
            "rounds": table.profile.rounds, "over": state.is_over,
            "totals": list(state.totals),
            "winners": list(state.winners()) if state.is_over else None,
            "updated": table.updated.isoformat() + "Z"})

    async def _finished(self, request: Request) -> Table | Response:
        """The request's game once it is over, or the error response to send instead."""
        table = await self._table(request)
        if table is None:
            return error_response("no such game", 404)
        if not table.state.is_over:
            return error_response("the game is not over", 403)
        if table.daily is not None and not table.day_over():
            # everybody plays this deal today: its cards stay hidden until the day is over
            return error_response(f"a daily deal's record opens once its day ({table.daily}) "
                                  "is over (UTC)", 403)
        if self.tournaments is not None and await self.tournaments.round_still_played(table):
            # the other tables of its tournament round are playing the same cards
            return error_response(TOURNAMENT_RECORD_WAITS, 403)
        return table

    async def record(self, request: Request) -> Response:
        table = await self._finished(request)
        if isinstance(table, Response):
            return table
        return JSONResponse(table.record_data(), headers={
            "content-disposition": f'attachment; filename="handfoot-{table.id}.json"'})

    async def replay(self, request: Request) -> Response:
        table = await self._finished(request)
        if isinstance(table, Response):
            return table
        talk = replay_talk(await self.store.talk(table.id))
        frames = await asyncio.to_thread(table.replay_frames, talk)
        return JSONResponse({"record": table.record_data(), "frames": frames})

    async def review(self, request: Request) -> Response:
        """A seat's game review: GET tells how far it is (and gives it once done), POST
        ``{"seat": N}`` starts it. The replay's access rule (web/reviews.py)."""
        if request.method == "POST":
            try:
                raw: Any = (await read_body(request)).get("seat")
            except RequestError as exc:
                return error_response(str(exc))
        else:
            raw = request.query_params.get("seat")
            if isinstance(raw, str) and raw.strip().lstrip("-").isdigit() and len(raw) < 6:
                raw = int(raw)
        table = await self._finished(request)
        if isinstance(table, Response):
            return table
        players = len(table.seats)
        if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < players:
            return error_response(f"give the seat to review: a number from 0 to {players - 1}")
        if request.method == "POST":
            try:
                status = await self.reviews.start(table.id, table.record(), raw)
            except ReviewsBusy:
                return error_response("the server is busy reviewing other games: ask again "
                                      "in a few minutes", 503)
            return JSONResponse(status, status_code=202 if status["status"] != "done" else 200)
        return JSONResponse(await self.reviews.status(table.id, raw))

    async def rematch(self, request: Request) -> Response:
        try:
            body = await read_body(request)
        except RequestError as exc:
            return error_response(str(exc))
        table = await self._table(request)
        token = body.get("token")
        if table is None or not is_token(token):
            return error_response("no game for this link", 404)
        ok, seat = table.authenticate(token)
        if not ok or seat is None:
            return error_response("only a player of the game can ask for a rematch", 403)
        if not table.state.is_over:
            return error_response("the game is not over", 403)
        async with table.rematch_lock:
            if table.rematch is None:  # the first press makes the one rematch
                secret = await self.store.secret(REMATCH_SECRET)
                game_id = new_game_id()
                seats = [{"kind": s.kind, "level": s.level, "name": s.name}
                         for s in table.seats]
                # one rematch even when players of the game on two processes press at once:
                # the store makes it only if the game has none yet (else names that one)
                made = await self._new_game(
                    table.profile, table.layout, seats, table.absent, game_id=game_id,
                    token_for=lambda s: rematch_token(secret, game_id, s), rematch_of=table.id,
                    talk=table.talk.settings, correspondence=table.turns.rules)
                if made["game_id"] == game_id:  # made here: the same players, the same club
                    await self._carry_over(table.id, game_id)
                if table.turns.rules is not None:
                    await self.tables.get(game_id)  # stores its first turn and timer
                if table.rematch is None:  # (another process's notice may have come first)
                    table.set_rematch(made["game_id"], secret)
        assert table.rematch is not None
        game_id, secret = table.rematch
        out_seats = []
        for s in table.seats:
            item: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name}
            if s.kind == "bot":
                item["level"] = s.level
            elif s.seat == seat:  # only the asker's own link
                item["link"] = f"/game/{game_id}#t={rematch_token(secret, game_id, seat)}"
            out_seats.append(item)
        return JSONResponse({
            "game_id": game_id, "seats": out_seats,
            "spectator_link": f"/game/{game_id}#s={rematch_token(secret, game_id, None)}"})

    async def _carry_over(self, old: str, new: str) -> None:
        """A rematch keeps the old game's players at their seats and its club."""
        for seat, player in (await self.players.seat_players(old)).items():
            await self.players.link_seat(new, seat, player)
        club = await self.clubs.club_rules_of(old)
        if club is not None:
            await self.clubs.add_game(new, *club)

    # -- the daily deal ---------------------------------------------------------------------

    async def start_daily(self, request: Request) -> Response:
        try:
            body = await read_body(request)
        except RequestError as exc:
            return error_response(str(exc))
        name = body.get("name")
        name = " ".join(name.split())[:MAX_NAME] if isinstance(name, str) else ""
        name = name or "Anonymous"
        date = self.tables.today()
        secret = await self.store.secret(daily.SECRET_NAME)
        fixed = daily.DAILY_SETTINGS
        profile = profile_from_request(fixed)
        layout = Layout.parse(fixed["layout"])
        seats = _seat_rows({"seats": [{**fixed["seats"][0], "name": name},
                                      *fixed["seats"][1:]]}, layout.players)
        game = await self._new_game(profile, layout, seats, fixed["absent"],
                                    seed=daily.daily_seed(secret, date),
                                    daily_date=date.isoformat())
        await self.store.add_daily(date.isoformat(), game["game_id"], name)
        return JSONResponse({"game_id": game["game_id"], "link": game["seats"][0]["link"],
                             "date": date.isoformat()})

    async def daily_board(self, request: Request) -> Response:
        try:
            date = dt.date.fromisoformat(request.path_params["date"])
        except ValueError:
            return error_response("a date is written YYYY-MM-DD")
        seed = None
        if daily.is_over(date, self.tables.today()):  # none of its games can move now
            seed = str(daily.daily_seed(await self.store.secret(daily.SECRET_NAME), date))
        return JSONResponse({"date": date.isoformat(), "settings": daily.DAILY_SETTINGS,
                             "seed": seed,
                             "leaderboard": await self.store.leaderboard(date.isoformat())})

    # -- the WebSocket ----------------------------------------------------------------------

    async def websocket(self, ws: WebSocket, channel: tuple[Receive, Send] | None = None,
                        ) -> None:
        """A table's WebSocket (``channel``: its ASGI ``receive`` and ``send``, which a
        :class:`~handfoot.web.connection.Connection` uses once it has joined)."""
        await begin_join()  # a few a turn: the moves of tables already playing go on
        await ws.accept()
        try:
            first = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
            if first["type"] == "websocket.disconnect":
                return
            hello = read_frame(_frame_text(first))
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            await _close(ws)
            return
        except MessageError as exc:
            await ws.send_text(messages.encode(messages.error(None, "bad_message", str(exc))))
            await _close(ws, 1008, "not a hello")
            return
        try:
            table = await self.tables.get(ws.path_params["game_id"])
        except Exception as exc:
            if not is_outage(exc):
                raise
            log.warning("a table could not be loaded: the database did not answer (%s)",
                        type(exc).__name__)
            await ws.send_text(messages.encode(messages.error(
                hello.id, "busy", "the server is busy (its database does not answer): "
                "connecting again in a moment")))
            await _close(ws, 1013, "try again later")
            return
        ok, seat = (False, None) if table is None or hello.type != "hello" or \
            hello.token is None else table.authenticate(hello.token)
        if table is None or not ok:
            message = "say hello with your token first" if hello.type != "hello" else \
                "this link is not valid for this game"
            await ws.send_text(messages.encode(messages.error(hello.id, "auth", message)))
            await _close(ws, AUTH_CLOSE, message)
            return
        if seat is not None and seat in table.given_to_bot:
            await table.turns.taken_back(seat)  # its person is back
        conn = Connection(ws, seat, acks_in_state=hello.raw.get("acks") == "state",
                          channel=channel)
        table.join(conn, hello.seq)
        settings = self.tables.settings
        bucket = TokenBucket(settings.message_rate, settings.message_burst)
        flood = FloodWatch(settings.flood_limit, settings.flood_window)
        try:
            while True:
                frame = await conn.receive()
                if frame is None:
                    break
                if not bucket.take():
                    flooding = flood.refused()
                    conn.send(messages.error(
                        None, "rate_limited", f"too many messages (at most "
                        f"{settings.message_burst} at once, {settings.message_rate:g} a "
                        "second): this one was not read"
                        + ("; closing the connection" if flooding else "")))
                    if flooding:
                        conn.close(FLOOD_CLOSE, "too many messages")
                        if conn.writer is not None:  # the error and the close go out first
                            with contextlib.suppress(Exception):
                                await asyncio.wait_for(asyncio.shield(conn.writer), 5.0)
                        break
                    continue
                try:
                    msg = read_frame(_frame_text(frame))
                except MessageError as exc:
                    conn.send(messages.error(None, "bad_message", str(exc)))
                    continue
                try:
                    await table.handle(conn, msg)
                except Exception as exc:  # the socket stays: the client may try again
                    if not is_outage(exc):
                        raise
                    log.warning("game %s: a %s met a database outage (%s)", table.id,
                                msg.type, type(exc).__name__)
                    conn.send(messages.error(msg.id, "busy", "the server is busy (its "
                                             "database does not answer): try again in a "
                                             "moment"))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            table.leave(conn)


class SocketEndpoint:
    """The WebSocket route's ASGI app: ``handler(WebSocket(...), (receive, send))``, so that
    a table's connection has the socket's own ``receive`` and ``send`` for its frames
    (web/connection.py). Starlette would call a function endpoint with the WebSocket alone,
    within a wrapper of ``send`` for its exception handlers (none of which is for a
    WebSocket; an error still reaches the app's own middleware)."""

    def __init__(self, handler: Callable[[WebSocket, tuple[Receive, Send]],
                                         Awaitable[None]]) -> None:
        self.handler = handler

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.handler(WebSocket(scope, receive, send), (receive, send))


def _frame_text(frame: Mapping[str, Any]) -> str:
    """A frame's text (a binary frame's bytes read as UTF-8)."""
    text = frame.get("text")
    if isinstance(text, str):
        return text
    data = frame.get("bytes") or b""
    if len(data) > 4 * MAX_MESSAGE:
        raise MessageError(f"a message is at most {MAX_MESSAGE} characters")
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        raise MessageError("a message is JSON text in UTF-8") from None


async def _close(ws: WebSocket, code: int = 1000, reason: str = "") -> None:
    with contextlib.suppress(Exception):
        await ws.close(code, reason)
