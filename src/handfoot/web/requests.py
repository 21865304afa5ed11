"""Reading what a request sends: its JSON body (with a size limit) and the rules it asks
for; :class:`RequestError` says what the API refuses (400) and why. Shared by the game API
(:mod:`handfoot.web.app`) and the score keeper's (:mod:`handfoot.web.scoresheets`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from handfoot.game.loading import (
    DEFAULT_PROFILE,
    ProfileError,
    apply_overrides,
    builtin_profile_names,
    load_profile,
    parse_toml,
    profile_from_mapping,
)
from handfoot.game.rules import Profile
from handfoot.web.protocol import is_unicode

__all__ = ["MAX_BODY", "RequestError", "error_response", "profile_from_request", "read_body"]

MAX_BODY = 1 << 20
"""The largest request body read (a house-rule file is far smaller)."""



class RequestError(ValueError):
    """A request the API refuses (400); the message says why."""


def error_response(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def read_body(request: Request, max_bytes: int = MAX_BODY) -> dict[str, Any]:
    """A request's JSON object (at most ``max_bytes``, read no further); anything else is a
    :class:`RequestError` saying why."""
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise RequestError(f"the body is at most {max_bytes // 1024} KiB")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except (ValueError, RecursionError):
        raise RequestError("the body must be JSON") from None
    if not isinstance(data, dict):
        raise RequestError("the body must be a JSON object")
    if not is_unicode(data):
        raise RequestError("the body's strings must be Unicode text (no lone surrogates)")
    return data


def profile_from_request(body: Mapping[str, Any]) -> Profile:
    """The rules a request asks for: a built-in profile with overrides and options, or an
    uploaded house-rule TOML (which may only extend a built-in profile); then ``rounds``."""
    toml = body.get("toml")
    if toml:
        if not isinstance(toml, str):
            raise RequestError("toml: the text of a house-rule file")
        try:
            data = parse_toml(toml, "house rules")
        except ProfileError as exc:  # hostile text (deep nesting, huge integers) included
            raise RequestError(str(exc)) from None
        extends = data.get("extends")
        if extends is not None and extends not in builtin_profile_names():
            raise RequestError("house rules: extends: must name a built-in profile ("
                               + ", ".join(builtin_profile_names()) + ")")
        profile = profile_from_mapping(data, origin="house rules", default_name="house-rules")
    else:
        name = body.get("profile") or DEFAULT_PROFILE
        if name not in builtin_profile_names():
            raise RequestError(f"profile: {name!r} is not a built-in profile ("
                               + ", ".join(builtin_profile_names()) + ")")
        flat: dict[str, Any] = {}
        for key in ("overrides", "options"):
            part = body.get(key) or {}
            if not isinstance(part, dict):
                raise RequestError(f"{key}: an object of parameters")
            flat.update(part)
        profile = load_profile(name, overrides=flat or None)
    rounds = body.get("rounds")
    if rounds is not None and rounds != profile.rounds:
        profile = apply_overrides(profile, {"rounds": rounds}, origin="rounds")
    return profile
