"""Screenshots of the table page against the mock server (a development aid, not a test).

    .venv/bin/python tests/web_fixtures/shots.py OUT_DIR [BASE_URL]

BASE_URL defaults to a mock server started here (tests/web_fixtures/mock_server.py).
Prints the browser console's errors.
"""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
PAGES = {
    "midgame": "/game/partnership-13~2x2~7~4~24#t=0",
    "opening": "/game/partnership-13~2x2~3~4~1#t=0",
    "between": "/game/partnership-13~2x2~7~2~round#t=0",
    "gameover": "/game/biegames~2x1~5~2~end#t=0",
    "spectator": "/game/partnership-13~2x2~7~4~24#s=x",
    "singles3": "/game/remastered-singles~3x1~4~1~30#t=0",
    "hkf2x3": "/game/hand-knee-foot~2x3~2~1~40#t=0",
}


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    base = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
    server = None
    if not base:
        base = "http://127.0.0.1:8125"
        server = subprocess.Popen(
            [
                sys.executable,
                str(Path(__file__).with_name("mock_server.py")),
                "--port",
                "8125",
                "--bot-delay",
                "30",
            ]
        )
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/static/table.css")
                break
            except OSError:
                time.sleep(0.1)
    only = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else None
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            for size, (w, h) in SIZES.items():
                ctx = browser.new_context(
                    viewport={"width": w, "height": h},
                    device_scale_factor=1,
                    has_touch=size == "phone",
                )
                for name, path in PAGES.items():
                    if only and name not in only:
                        continue
                    page = ctx.new_page()
                    page.on(
                        "console",
                        lambda m, n=name: (
                            m.type in ("error", "warning") and print(f"[{n}] {m.type}: {m.text}")
                        ),
                    )
                    page.on("pageerror", lambda e, n=name: print(f"[{n}] pageerror: {e}"))
                    page.goto(base + path)
                    page.wait_for_selector("#hand", state="attached")
                    page.wait_for_timeout(800)
                    page.screenshot(path=str(out / f"{name}-{size}.png"))
                    page.close()
                ctx.close()
            browser.close()
    finally:
        if server:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
