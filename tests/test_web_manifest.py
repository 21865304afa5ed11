"""The installable app: the manifest names what a phone needs, its icons are served (the PNGs
exactly what scripts/make_icons.py draws), and the service worker is served from the root
with a scope over the whole site, under the site's Content Security Policy."""

from __future__ import annotations

import importlib.util
import struct
from pathlib import Path

from web_client import client

ROOT = Path(__file__).resolve().parent.parent


def _make_icons() -> object:
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "scripts" / "make_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_manifest_and_its_icons(tmp_path: Path) -> None:
    with client(tmp_path / "m.db") as c:
        r = c.get("/manifest.webmanifest")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("application/manifest+json")
        manifest = r.json()
        assert manifest["start_url"] == "/games" and manifest["display"] == "standalone"
        assert manifest["name"] and manifest["short_name"]
        assert c.get(manifest["start_url"]).status_code == 200
        sizes = set()
        for icon in manifest["icons"]:
            r = c.get(icon["src"])
            assert r.status_code == 200 and r.headers["content-type"].startswith(icon["type"])
            if icon["type"] == "image/png":
                assert r.content[:8] == b"\x89PNG\r\n\x1a\n"
                w, h = struct.unpack(">II", r.content[16:24])
                assert icon["sizes"] == f"{w}x{h}"
                sizes.add(w)
        assert {192, 512} <= sizes
        page = c.get("/games").text
        assert 'rel="manifest" href="/manifest.webmanifest"' in page


def test_the_service_worker_is_served_from_the_root(tmp_path: Path) -> None:
    with client(tmp_path / "m.db") as c:
        r = c.get("/sw.js")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/javascript")
        assert r.headers["service-worker-allowed"] == "/"
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert "showNotification" in r.text and "notificationclick" in r.text


def test_the_png_icons_are_what_the_script_draws() -> None:
    icons = _make_icons()
    drawn = icons.render(192)  # type: ignore[attr-defined]
    assert drawn == (ROOT / "src/handfoot/web/static/icon-192.png").read_bytes()
