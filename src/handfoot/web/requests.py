"""Reading what a request sends: its JSON body (with a size limit) and the rules it asks
for; :class:`RequestError` says what the API refuses (400) and why. Shared by the game API
(:mod:`handfoot.web.app`) and the score keeper's (:mod:`handfoot.web.scoresheets`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

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

__all__ = ["MAX_BODY", "BodyTimeout", "RequestError", "body_timeout_response",
           "check_toml_bounds", "client_gone_response", "error_response",
           "profile_from_request", "read_body", "rules_from_request"]

T = TypeVar("T")

MAX_BODY = 64 * 1024
"""The largest request body read (a house-rule file is a few KiB)."""

MAX_TOML = 32 * 1024
"""The longest house-rule text read (characters)."""

MAX_TOML_LINES = 1000
"""The most lines a house-rule text may have."""

MAX_TOML_LINE = 8000
"""The longest line of a house-rule text (characters)."""

MAX_TOML_DOTS = 16
"""The most dots on one line of a house-rule text: a dotted key (``a.b.c = 1``, or a
``[a.b.c]`` header) costs the TOML reader time growing with the square of its parts (a
40 KB key of ``a.a.a...`` took seconds), and no rule file needs more than two."""

MAX_TOML_DEPTH = 16
"""The deepest nesting of brackets and braces in a house-rule text."""

RULES_TIMEOUT = 2.0
"""Seconds a request's rules may take to be read and checked (in a thread) before the
request is answered with an error."""


BODY_TIMEOUT = 10.0
"""Seconds a request's body may take to arrive (a ``Content-Length`` that promises more
than is sent would otherwise be waited on for ever): then ``408``."""


class RequestError(ValueError):
    """A request the API refuses (400); the message says why."""


class BodyTimeout(Exception):
    """A request's body did not arrive in :data:`BODY_TIMEOUT` seconds (answered 408 by
    :func:`body_timeout_response`)."""


async def body_timeout_response(_request: Request, _exc: Exception) -> Response:
    """The answer to :class:`BodyTimeout` (an exception handler of the app)."""
    return JSONResponse({"error": f"the request's body did not arrive within "
                                  f"{BODY_TIMEOUT:g} s"}, status_code=408,
                        headers={"connection": "close"})


async def client_gone_response(_request: Request, _exc: Exception) -> Response:
    """The answer to a client that disconnected while sending its body (nobody reads it:
    it only keeps the traceback out of the log)."""
    return Response(status_code=400)


def error_response(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def read_body(request: Request, max_bytes: int = MAX_BODY) -> dict[str, Any]:
    """A request's JSON object (at most ``max_bytes``, read no further); anything else is a
    :class:`RequestError` saying why."""
    chunks = []
    size = 0
    try:
        async with asyncio.timeout(BODY_TIMEOUT):
            async for chunk in request.stream():
                size += len(chunk)
                if size > max_bytes:
                    raise RequestError(f"the body is at most {max_bytes // 1024} KiB")
                chunks.append(chunk)
    except TimeoutError:
        raise BodyTimeout from None
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except (ValueError, RecursionError):
        raise RequestError("the body must be JSON") from None
    if not isinstance(data, dict):
        raise RequestError("the body must be a JSON object")
    if not is_unicode(data):
        raise RequestError("the body's strings must be Unicode text (no lone surrogates)")
    return data


def check_toml_bounds(text: str) -> None:
    r"""Refuse, before any parsing, a house-rule text too big or shaped to be slow to read
    (:data:`MAX_TOML`, :data:`MAX_TOML_LINES`, :data:`MAX_TOML_LINE`,
    :data:`MAX_TOML_DOTS`, :data:`MAX_TOML_DEPTH`): a :class:`RequestError` saying which.

    >>> check_toml_bounds('extends = "standard"\n[scoring]\ngo_out_bonus = 150\n')
    >>> check_toml_bounds("a" + ".a" * 40 + " = 1")
    Traceback (most recent call last):
    ...
    handfoot.web.requests.RequestError: house rules: line 1 has 40 dots (at most 16)
    """
    if len(text) > MAX_TOML:
        raise RequestError(f"house rules: at most {MAX_TOML // 1024} KiB of text")
    lines = text.splitlines()
    if len(lines) > MAX_TOML_LINES:
        raise RequestError(f"house rules: at most {MAX_TOML_LINES} lines")
    depth = 0
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_TOML_LINE:
            raise RequestError(f"house rules: line {number} is longer than "
                               f"{MAX_TOML_LINE} characters")
        dots = line.count(".")
        if dots > MAX_TOML_DOTS:
            raise RequestError(f"house rules: line {number} has {dots} dots "
                               f"(at most {MAX_TOML_DOTS})")
        for char in line:  # strings' brackets counted too: the bound is generous
            if char in "[{":
                depth += 1
                if depth > MAX_TOML_DEPTH:
                    raise RequestError(f"house rules: line {number}: lists and tables "
                                       f"nested far too deeply (at most {MAX_TOML_DEPTH})")
            elif char in "]}":
                depth = max(0, depth - 1)


async def rules_from_request(body: Mapping[str, Any], then: Callable[[Profile], T],
                             ) -> tuple[Profile, T]:
    """:func:`profile_from_request` and ``then(profile)`` in a thread, off the event loop
    (other tables play on meanwhile), within :data:`RULES_TIMEOUT` seconds (else a
    :class:`RequestError`)."""
    def work() -> tuple[Profile, T]:
        profile = profile_from_request(body)
        return profile, then(profile)

    try:
        return await asyncio.wait_for(asyncio.to_thread(work), RULES_TIMEOUT)
    except TimeoutError:
        raise RequestError("the rules took too long to read: make the file simpler") from None


def profile_from_request(body: Mapping[str, Any]) -> Profile:
    """The rules a request asks for: a built-in profile with overrides and options, or an
    uploaded house-rule TOML (which may only extend a built-in profile); then ``rounds``."""
    toml = body.get("toml")
    if toml:
        if not isinstance(toml, str):
            raise RequestError("toml: the text of a house-rule file")
        check_toml_bounds(toml)
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
