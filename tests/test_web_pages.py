"""The site's pages other than the table (handfoot.web.pages): they render, hold the forms
and headings their scripts need, and the rules pages say what the rulebook says."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.testclient import TestClient

from handfoot.game.loading import DEFAULT_PROFILE, builtin_profile_names, load_profile
from handfoot.game.rulebook import describe_profile
from handfoot.web import pages
from handfoot.web.pages import first_game_steps, page_routes, seatings_text

WEB = Path(pages.__file__).parent


@pytest.fixture(scope="module")
def client() -> TestClient:
    templates = Jinja2Templates(directory=str(WEB / "templates"))
    app = Starlette(routes=[
        *page_routes(templates),
        Mount("/static", StaticFiles(directory=str(WEB / "static")), name="static"),
    ])
    return TestClient(app)


def text_of(body: str) -> str:
    return html.unescape(body)


@pytest.mark.parametrize("path, heading", [
    ("/", "Play Hand and Foot"),
    ("/rules", "Rules"),
    ("/daily", "Daily deal"),
    ("/history", "Your games"),
    ("/replay/abc123", "Replay"),
])
def test_pages_render_with_the_site_layout(client: TestClient, path: str, heading: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    body = text_of(r.text)
    assert heading in body
    for link in ('href="/"', 'href="/daily"', 'href="/rules"', 'href="/history"'):
        assert link in body  # the header nav
    assert "/static/site.css" in body
    assert 'class="site-footer"' in body
    assert body.count('aria-current="page"') >= 1


def test_lobby_has_its_forms(client: TestClient) -> None:
    body = client.get("/").text
    for needle in ('id="quick-form"', 'id="play"', 'id="setup"', 'id="profiles"',
                   'id="layouts"', 'id="seats"', 'id="rounds"', 'name="absent"',
                   'id="house-rules"', 'id="toml-text"', 'id="toml-file"', 'id="check-rules"',
                   'id="learn"', "/static/lobby.js"):
        assert needle in body, needle


def test_lobby_reads_learn_and_profile_from_the_query(client: TestClient) -> None:
    body = client.get("/?learn=1&profile=biegames").text
    assert 'data-learn="1"' in body
    assert 'data-profile="biegames"' in body
    body = client.get("/?profile=../../etc/passwd").text
    assert f'data-profile="{DEFAULT_PROFILE}"' in body


@pytest.mark.parametrize("name", builtin_profile_names())
def test_rules_page_says_the_rulebook(client: TestClient, name: str) -> None:
    r = client.get(f"/rules/{name}")
    assert r.status_code == 200
    body = text_of(r.text)
    profile = load_profile(name)
    assert profile.title in body
    for title, lines in describe_profile(profile):
        assert f">{title}</h2>" in body
        for line in lines:
            assert line in body
    assert "Your first game" in body
    assert f"/?learn=1&amp;profile={name}" in r.text
    assert f'href="/?profile={name}"' in r.text


def test_rules_page_of_a_profile_tells_the_differences_from_the_default(
        client: TestClient) -> None:
    body = text_of(client.get("/rules/biegames").text)
    assert f"How it differs from {DEFAULT_PROFILE}" in body
    assert "How it differs" not in text_of(client.get(f"/rules/{DEFAULT_PROFILE}").text)


def test_rules_index_lists_every_profile(client: TestClient) -> None:
    body = text_of(client.get("/rules").text)
    for name in builtin_profile_names():
        assert f'href="/rules/{name}"' in body
        assert load_profile(name).title in body
    assert 'href="/?learn=1"' in body
    for heading, _ in first_game_steps(load_profile(DEFAULT_PROFILE)):
        assert heading in body


@pytest.mark.parametrize("name", ["no-such-rules", "partnership-13.toml", "Partnership-13"])
def test_unknown_profile_is_a_clear_404(client: TestClient, name: str) -> None:
    r = client.get(f"/rules/{name}")
    assert r.status_code == 404
    body = text_of(r.text)
    assert "No rule set called" in body
    assert "The built-in ones are" in body
    for known in builtin_profile_names():
        assert f'href="/rules/{known}"' in body


def test_first_game_steps_use_the_profiles_numbers() -> None:
    steps = dict(first_game_steps(load_profile("partnership-13")))
    assert "drawing 2 cards" in steps["1. Draw"]
    assert "at least 50 points" in steps["2. Meld"]
    assert "(2 clean books, 2 dirty books and 1 all-wild book)" in steps["Going out"]
    assert "May I go out?" in steps["Going out"]
    knee = dict(first_game_steps(load_profile("hand-knee-foot")))
    assert "Knee" in knee["The goal"]
    assert "a clean book of 5s" in knee["Going out"]
    singles = dict(first_game_steps(load_profile("remastered-singles")))
    assert "partner" not in singles["The goal"] + singles["Going out"]


def test_seatings_text() -> None:
    assert seatings_text(load_profile("partnership-13").layouts) == (
        "2 sides of 2 partners (4 players)")
    assert seatings_text(load_profile("remastered-singles").layouts) == (
        "2 to 8 players, each on their own")
    assert "or 2 players, each on their own" in seatings_text(load_profile("biegames").layouts)


def test_replay_page_names_its_game(client: TestClient) -> None:
    body = client.get("/replay/g42").text
    assert 'data-game="g42"' in body
    assert "/static/replay.js" in body


def test_daily_page_knows_today(client: TestClient) -> None:
    import datetime as dt
    body = client.get("/daily").text
    assert f'data-today="{dt.datetime.now(dt.UTC).date().isoformat()}"' in body
    assert 'id="daily-form"' in body
    assert "/static/daily.js" in body


@pytest.mark.parametrize("name", ["site.css", "lobby.js", "links.js", "chart.js", "replay.js",
                                  "daily.js", "history.js", "logo.svg", "favicon.svg"])
def test_static_files_exist(client: TestClient, name: str) -> None:
    assert client.get(f"/static/{name}").status_code == 200


def test_the_server_mounts_the_pages(tmp_path: Path) -> None:
    """With the whole app: every page renders, the table's page keeps the site's layout, and
    the API answers what the lobby's script reads."""
    app_module = pytest.importorskip("handfoot.web.app")
    from handfoot.web.settings import Settings

    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'web.db'}", bot_delay=0.0)
    with TestClient(app_module.create_app(settings)) as c:
        for path in ("/", "/rules", f"/rules/{DEFAULT_PROFILE}", "/daily", "/history",
                     "/replay/x", "/static/site.css", "/static/lobby.js"):
            assert c.get(path).status_code == 200, path
        assert c.get("/rules/nope").status_code == 404
        data = c.get("/api/profiles").json()
        assert [p["name"] for p in data["profiles"]] == builtin_profile_names()
        for p in data["profiles"]:
            assert p["default_layout"] in p["layouts"]
        assert data["default"] == DEFAULT_PROFILE
        check = c.post("/api/rules/check", json={
            "profile": "biegames", "base": "biegames", "overrides": {"foot_size": 9},
            "options": {}}).json()
        assert check["ok"], check
        assert any("biegames" in line and "9" in line for line in check["differences"])
        game = c.post("/api/games", json={
            "profile": DEFAULT_PROFILE, "overrides": {}, "options": {}, "toml": None,
            "layout": "2x2", "rounds": 1, "absent": "wait",
            "seats": [{"kind": "human", "name": "Ann"},
                      *({"kind": "bot", "level": "easy", "name": n}
                        for n in ("West", "North", "East"))]}).json()
        link = game["seats"][0]["link"]
        assert link.startswith(f"/game/{game['game_id']}#t=")
        table = c.get(link.split("#")[0]).text
        assert "/static/site.css" in table and "/static/site.js" in table
