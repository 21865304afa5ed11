"""Security headers on every answer of the site (:mod:`handfoot.web.headers`), no inline
script in any template (the policy would block it), and ``--allowed-host``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.testclient import TestClient

from handfoot.cli import build_parser
from handfoot.web.app import create_app
from web_client import new_game, settings_for

TEMPLATES = Path(__file__).parent.parent / "src" / "handfoot" / "web" / "templates"
STATIC = TEMPLATES.parent / "static"

EXPECTED = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}
POLICY = ("default-src 'self'", "script-src 'self'", "style-src 'self'",
          "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'")


def _check(response: object, what: str) -> None:
    headers = response.headers  # type: ignore[attr-defined]
    for name, value in EXPECTED.items():
        assert headers.get(name) == value, (what, name, headers.get(name))
    policy = [d.strip() for d in headers.get("content-security-policy", "").split(";")]
    for directive in POLICY:
        assert directive in policy, (what, directive, policy)
    assert not any("unsafe-eval" in d for d in policy)
    assert not any(d.startswith("script-src") and "unsafe-inline" in d for d in policy)


def test_every_route_answers_with_the_security_headers(tmp_path: Path) -> None:
    app = create_app(settings_for(tmp_path / "h.db", open_limits=True, games_burst=1))
    with TestClient(app) as c:
        game = new_game(c)
        params = {"game_id": game["game_id"], "date": "2026-01-01", "sheet_id": "nosuch",
                  "profile": "standard", "club_id": "nosuch", "tid": "nosuch",
                  "round": "1"}
        seen = 0
        for route in app.routes:
            if isinstance(route, WebSocketRoute):
                continue
            if isinstance(route, Mount):
                for name in sorted(p.name for p in STATIC.iterdir()):
                    r = c.get(f"/static/{name}")
                    assert r.status_code == 200, name
                    _check(r, name)
                    seen += 1
                continue
            assert isinstance(route, Route)
            path = re.sub(r"\{(\w+)(:\w+)?\}", lambda m: params[m.group(1)], route.path)
            for method in sorted(route.methods or {"GET"}):
                if method == "HEAD":
                    continue
                r = c.request(method, path, json={})
                assert r.status_code < 500, (method, path, r.text)
                _check(r, f"{method} {path}")
                seen += 1
        assert seen > 40
        # refusals too: not found, a bad body, the address's limit on new games
        _check(c.get("/no/such/page"), "404")
        _check(c.post("/api/games", content=b"not json"), "400")
        refused = c.post("/api/games", json={})
        assert refused.status_code == 429
        _check(refused, "429")


def test_the_pages_load_only_the_sites_own_scripts_and_no_inline_one() -> None:
    for template in sorted(TEMPLATES.glob("*.html")):
        text = template.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text, flags=re.I):
            assert re.search(r'\bsrc="/static/[\w.-]+\.js"', tag), (template.name, tag)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", text, flags=re.I), template.name
        # no inline event handlers (onclick="...") nor javascript: links either
        assert not re.search(r"\son[a-z]+\s*=", text, flags=re.I), template.name
        assert "javascript:" not in text.lower(), template.name
    assert (STATIC / "site.js").is_file()


def test_allowed_host_refuses_other_hosts(tmp_path: Path) -> None:
    args = build_parser().parse_args(["serve", "--allowed-host", "cards.example.org",
                                      "--allowed-host", "*.example.net"])
    assert args.allowed_host == ["cards.example.org", "*.example.net"]
    app = create_app(settings_for(tmp_path / "a.db",
                                  allowed_hosts=tuple(args.allowed_host)))
    with TestClient(app, base_url="http://cards.example.org") as c:
        assert c.get("/").status_code == 200
        assert c.get("/", headers={"host": "www.example.net"}).status_code == 200
        r = c.get("/", headers={"host": "evil.example"})
        assert r.status_code == 400
        _check(r, "bad host")


@pytest.mark.parametrize("host", ["cards.example.org:8443", "[::1]:8000"])
def test_the_policy_lets_the_page_open_its_own_websocket(tmp_path: Path, host: str) -> None:
    with TestClient(create_app(settings_for(tmp_path / "w.db"))) as c:
        policy = c.get("/", headers={"host": host}).headers["content-security-policy"]
    assert f"ws://{host}" in policy and f"wss://{host}" in policy
