"""The installable web app and "My games" in Chromium: the manifest is valid and its icons
load, the service worker registers (scope: the whole site), "My games" lists the game
waiting for this person first with the time left, and the table of a correspondence game
shows its clock and the Notices menu, which asks for nothing until it is clicked."""

from __future__ import annotations

import json
import struct
import urllib.request
from pathlib import Path
from typing import Any

from e2e_helpers import new_game
from playwright.sync_api import expect


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def test_the_manifest_is_valid_and_its_icons_load(live_server: str) -> None:
    with urllib.request.urlopen(live_server + "/manifest.webmanifest", timeout=10) as r:
        assert r.headers["content-type"].startswith("application/manifest+json")
        manifest = json.load(r)
    for key in ("name", "short_name", "start_url", "display", "icons"):
        assert manifest[key], key
    assert manifest["start_url"] == "/games" and manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        with urllib.request.urlopen(live_server + icon["src"], timeout=10) as r:
            data = r.read()
            assert r.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            w, h = _png_size(data)
            assert f"{w}x{h}" == icon["sizes"]
            sizes.add(w)
        else:
            assert b"<svg" in data
    assert {192, 512} <= sizes  # what a phone's home screen and splash screen need


def _correspondence(base: str, names: tuple[str, str]) -> dict[str, Any]:
    return new_game(base, profile="biegames", layout="2x1",
                    seats=[{"kind": "human", "name": names[0]},
                           {"kind": "human", "name": names[1]}],
                    correspondence={"per_move": 86400, "on_timeout": "wait"})


def _status_turn(base: str, game: dict[str, Any]) -> int:
    """Whose turn it is (the seat), asked with the first seat's token."""
    token = game["seats"][0]["link"].split("#t=")[1]
    req = urllib.request.Request(base + "/api/my-games", data=json.dumps(
        {"seats": [{"game_id": game["game_id"], "token": token}]}).encode(),
        headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        entry = json.load(r)["games"][0]
    return 0 if entry["your_turn"] else 1


def test_the_service_worker_registers_and_my_games_lists_the_waiting_game_first(
        new_context: Any, live_server: str, shots_dir: Path) -> None:
    # one game waiting for Mo (seat 0), one waiting for the other person
    waiting = other = None
    for i in range(12):
        game = _correspondence(live_server, ("Mo", f"Pat{i}"))
        if _status_turn(live_server, game) == 0 and waiting is None:
            waiting = game
        elif other is None:
            other = game
        if waiting is not None and other is not None:
            break
    assert waiting is not None and other is not None
    ctx = new_context(390, 844)  # a phone
    page = ctx.new_page()
    page.goto("/games")
    # the browser holds Mo's seats, the game not waiting for Mo the newest
    entries = [{"game_id": g["game_id"], "link": g["seats"][0]["link"], "role": "player",
                "seat": 0, "name": "Mo", "created": f"2026-12-0{n}T10:00:00Z"}
               for n, g in ((2, other), (1, waiting))]
    page.evaluate("(e) => localStorage.setItem('handfoot.games', JSON.stringify(e))", entries)
    scope = page.evaluate("""async () => {
        const r = await navigator.serviceWorker.ready;
        return [r.scope, r.active.scriptURL];
    }""")
    assert scope == [live_server + "/", live_server + "/sw.js"]
    assert page.evaluate("Notification.permission") == "default"  # nothing asked on load
    page.reload()
    items = page.locator("#my-games-list .game-item")
    expect(items).to_have_count(2)
    first = items.nth(0)
    expect(first).to_have_attribute("data-game", waiting["game_id"])
    expect(first.locator(".badge")).to_have_text("your turn")
    expect(first.locator(".turn-clock")).to_contain_text("left")
    expect(items.nth(1)).to_have_attribute("data-game", other["game_id"])
    expect(items.nth(1).locator(".badge")).to_contain_text("to play")
    page.screenshot(path=str(shots_dir / "my-games-phone.png"), full_page=True)
    # the table: the clock, and the Notices menu (permission asked only on its button)
    first.get_by_role("link", name="Play your turn").click()
    expect(page.locator("#turn-clock")).to_contain_text("Your turn")
    expect(page.locator("#notices")).to_be_visible()
    page.locator("#notices summary").click()
    expect(page.locator("#notices-push")).to_be_visible()
    assert page.evaluate("Notification.permission") == "default"
    page.screenshot(path=str(shots_dir / "correspondence-table-phone.png"))


def test_the_lobby_makes_a_correspondence_game(new_context: Any) -> None:
    page = new_context(1366, 900).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/")
    expect(page.locator("#profiles input").first).to_be_attached()
    expect(page.locator("#per-move")).to_be_hidden()  # live games by default
    page.locator("#pace-correspondence").check(force=True)
    expect(page.locator("#per-move")).to_be_visible()
    page.locator("#per-move").select_option("3600")
    page.locator("#on-timeout").select_option("wait")
    page.click("#play-setup")
    page.wait_for_url("**/game/**")
    expect(page.locator("#turn-clock")).to_be_visible()
    game = page.evaluate("window.handfoot.app.welcome.game")
    assert game["correspondence"] == {"per_move": 3600, "on_timeout": "wait"}
    assert errors == []
