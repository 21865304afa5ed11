"""The score keeper's pages and JSON API: score sheets for tables that play with real cards.

A sheet is made with the rules of the new-game form (a built-in profile with options and
overrides, or house rules: :func:`handfoot.web.app.profile_from_request`), and gets two
links: the keeper's (``/score/ID#k=TOKEN``: the token, kept in the fragment, lets it enter
and correct rounds) and the table's read-only one (``/score/ID``), whose page polls
``GET /api/scores/ID?since=VERSION`` and shows every change within seconds, on every phone,
whichever server process stored it. Every round entered and every correction is a new row
of ``score_rounds`` (see :mod:`handfoot.web.store`): nothing is overwritten, and the history
says who changed what, when, from what. Scoring is :mod:`handfoot.game.scoresheet`'s.
"""

from __future__ import annotations

import secrets
from typing import Any, Final

from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from handfoot.game.loading import ProfileError, load_profile
from handfoot.game.record import profile_spec
from handfoot.game.rules import Layout
from handfoot.game.scoresheet import (
    MAX_NAME,
    ScoreSheet,
    ScoreSheetError,
    clean_name,
    entry_form,
    score_json,
)
from handfoot.web.protocol import is_token
from handfoot.web.requests import RequestError, error_response, read_body, rules_from_request
from handfoot.web.store import Store, now, score_rounds, score_sheets, token_hash
from handfoot.web.tokens import new_token

__all__ = ["SheetStore", "score_routes"]

MAX_BODY: Final = 64 * 1024
"""The largest request body the score keeper reads."""


class SheetStore:
    """Score sheets in the server's database; every method is one transaction."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    async def create(self, sheet: ScoreSheet, token: str) -> str:
        base, overrides = profile_spec(sheet.profile)
        sheet_id = secrets.token_hex(8)
        async with self.engine.begin() as conn:
            await conn.execute(insert(score_sheets).values(
                id=sheet_id, profile=base, overrides=overrides, layout=str(sheet.layout),
                names={"title": sheet.title, "sides": sheet.sides, "players": sheet.players},
                edit_hash=token_hash(token), created=now()))
        return sheet_id

    async def load(self, sheet_id: str) -> tuple[ScoreSheet, str, list[Any]] | None:
        """The sheet with each round's last entries, its edit token's hash and every row
        (oldest first), or None."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(score_sheets)
                                      .where(score_sheets.c.id == sheet_id))).first()
            if row is None:
                return None
            rows = (await conn.execute(select(score_rounds)
                                       .where(score_rounds.c.sheet == sheet_id)
                                       .order_by(score_rounds.c.seq))).all()
        profile = load_profile(row.profile, overrides=row.overrides or None)
        names = row.names
        sheet = ScoreSheet.new(profile, Layout.parse(row.layout), names["sides"],
                               names["players"], names.get("title") or "", unique=False)
        latest: dict[int, Any] = {}
        for r in rows:
            latest[r.round] = r.entries
        for number in sorted(latest):
            sheet.set_round(number, sheet.read_round(latest[number], number))
        return sheet, row.edit_hash, list(rows)

    async def add_round(self, sheet_id: str, seq: int, round_number: int,
                        entries: list[Any], who: str) -> bool:
        """Store a round's entries as the sheet's change ``seq``; False if another change
        took that number first (read the sheet again, then decide)."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(score_rounds).values(
                    sheet=sheet_id, seq=seq, round=round_number, entries=entries, who=who,
                    created=now()))
        except IntegrityError:
            return False
        return True

    async def version(self, sheet_id: str) -> int:
        async with self.engine.connect() as conn:
            value = (await conn.execute(select(func.max(score_rounds.c.seq))
                                        .where(score_rounds.c.sheet == sheet_id))).scalar()
        return int(value or 0)


def score_routes(store: Store, templates: Jinja2Templates) -> list[Route]:
    """The score keeper's page and API routes; ``app.py`` mounts them."""

    sheets = SheetStore(store)

    async def body_of(request: Request) -> dict[str, Any]:
        return await read_body(request, MAX_BODY)

    async def page(request: Request) -> Response:
        return templates.TemplateResponse(request, "score.html", {
            "sheet_id": request.path_params.get("sheet_id")})

    async def create(request: Request) -> Response:
        try:
            body = await body_of(request)
            profile, _ = await rules_from_request(body, lambda _p: None)
            text = body.get("layout")
            if text is not None and not isinstance(text, str):
                raise RequestError("layout: like \"2x2\"")
            layout = Layout.parse(text) if text else profile.layout
            if layout not in profile.layouts:
                raise RequestError(profile.seating_error(layout))
            sheet = ScoreSheet.new(profile, layout, body.get("sides"), body.get("players"),
                                   body.get("title") or "")
        except (RequestError, ProfileError, ScoreSheetError, ValueError) as exc:
            return error_response(str(exc))
        token = new_token()
        sheet_id = await sheets.create(sheet, token)
        return JSONResponse({"sheet_id": sheet_id, "edit_link": f"/score/{sheet_id}#k={token}",
                             "share_link": f"/score/{sheet_id}"})

    async def show(request: Request) -> Response:
        sheet_id = request.path_params["sheet_id"]
        since = request.query_params.get("since")
        if since is not None and since.isascii() and since.isdigit() and int(since) > 0 and \
                await sheets.version(sheet_id) == int(since):
            return Response(status_code=204)  # nothing new: the page polls again
        loaded = await sheets.load(sheet_id)
        if loaded is None:
            return error_response("no score sheet here", 404)
        sheet, _, rows = loaded
        data = sheet.json()
        view = sheet.view()
        data["rounds_view"] = [
            {"round": r.round, "minimums": r.minimums, "went_out": r.went_out,
             "scores": [score_json(sc, e) for sc, e in zip(r.scores, r.entries, strict=True)],
             "totals": r.totals} for r in view.rounds]
        data["version"] = rows[-1].seq if rows else 0
        data["form"] = entry_form(sheet.profile)
        data["profile_title"] = sheet.profile.title
        data["rounds_planned"] = sheet.profile.rounds
        data["target_score"] = sheet.profile.target_score
        data["corrections"] = sum(1 for r in _history(rows) if r["before"] is not None)
        return JSONResponse(data)

    async def enter_round(request: Request) -> Response:
        sheet_id = request.path_params["sheet_id"]
        try:
            body = await body_of(request)
            number = int(request.path_params["round"])
        except RequestError as exc:
            return error_response(str(exc))
        except ValueError:
            return error_response("round: a round's number", 404)
        token = body.get("token")
        who = body.get("who")
        who = clean_name(who)[:MAX_NAME] if isinstance(who, str) else ""
        for _ in range(5):  # another keeper's change meanwhile: check again against it
            loaded = await sheets.load(sheet_id)
            if loaded is None:
                return error_response("no score sheet here", 404)
            sheet, edit_hash, rows = loaded
            if not is_token(token) or not secrets.compare_digest(token_hash(token),
                                                                 edit_hash):
                return error_response("this link only shows the sheet: the keeper's link enters "
                             "rounds", 403)
            try:
                entries, problems = sheet.round_problems(body.get("entries"), number)
            except ScoreSheetError as exc:
                return error_response(str(exc))
            if problems:  # every reason at once, each with the answers it concerns
                return JSONResponse({
                    "error": "; ".join(p.message for p in problems),
                    "problems": [{"message": p.message, "parts": [list(x) for x in p.parts]}
                                 for p in problems]}, status_code=400)
            stored = [e.json() for e in entries]
            if number <= len(sheet.rounds) and \
                    [e.json() for e in sheet.rounds[number - 1]] == stored:
                return JSONResponse({"version": rows[-1].seq if rows else 0,
                                     "unchanged": True})
            seq = (rows[-1].seq if rows else 0) + 1
            if await sheets.add_round(sheet_id, seq, number, stored, who or "the keeper"):
                return JSONResponse({"version": seq})
        return error_response("the sheet is changing too fast: try again", 409)

    async def history(request: Request) -> Response:
        loaded = await sheets.load(request.path_params["sheet_id"])
        if loaded is None:
            return error_response("no score sheet here", 404)
        sheet, _, rows = loaded
        return JSONResponse({"sides": sheet.sides, "changes": _history(rows)})

    async def export(request: Request) -> Response:
        sheet_id = request.path_params["sheet_id"]
        loaded = await sheets.load(sheet_id)
        if loaded is None:
            return error_response("no score sheet here", 404)
        sheet, _, rows = loaded
        if request.url.path.endswith(".csv"):
            return Response(sheet.csv(), media_type="text/csv; charset=utf-8", headers={
                "content-disposition": f'attachment; filename="score-{sheet_id}.csv"'})
        data = sheet.json()
        data["changes"] = _history(rows)
        return JSONResponse(data, headers={
            "content-disposition": f'attachment; filename="score-{sheet_id}.json"'})

    return [
        Route("/score", page, name="score_new"),
        Route("/score/{sheet_id}", page, name="score_sheet"),
        Route("/api/scores", create, methods=["POST"]),
        Route("/api/scores/{sheet_id}", show),
        Route("/api/scores/{sheet_id}/rounds/{round}", enter_round, methods=["POST"]),
        Route("/api/scores/{sheet_id}/changes", history),
        Route("/api/scores/{sheet_id}/export.csv", export),
        Route("/api/scores/{sheet_id}/export.json", export),
    ]


def _history(rows: list[Any]) -> list[dict[str, Any]]:
    """Every round entered and every correction, oldest first: who, when, the round, and
    its entries before (None the first time) and after."""
    last: dict[int, Any] = {}
    out = []
    for r in rows:
        before = last.get(r.round)
        out.append({"seq": r.seq, "round": r.round, "who": r.who,
                    "at": r.created.isoformat(timespec="seconds") + "Z",
                    "before": before, "after": r.entries,
                    "sides": [i for i, e in enumerate(r.entries)
                              if before is None or before[i] != e]})
        last[r.round] = r.entries
    return out
