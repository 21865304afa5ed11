"""axe-core on every page, at a phone's and a laptop's size: no serious or critical
violation. axe-core comes from npm (pinned in scripts/test, which installs it into
.cache/npm); the test is skipped, with the reason, when it is missing.

Pages: the lobby, the table during play (the person's turn, a card selected; the settings
open; a phone's moves sheet and the other side's melds; the React menu open and a reaction's
bubble), the round's summary and its
breakdown at the end of a game, the score keeper, the daily page, the history page and the
replay viewer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import QUICK, new_game, shoot
from playwright.sync_api import Page, expect

AXE = Path(__file__).parents[2] / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
BAD = ("serious", "critical")

if not AXE.exists():
    pytest.skip("axe-core is not installed: scripts/test installs it into .cache/npm",
                allow_module_level=True)


def violations(page: Page) -> list[str]:
    """axe's serious and critical violations of the page as it is, one line each."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text())
    # every rule, the experimental ones too (label-content-name-mismatch is one)
    found = page.evaluate("""async () => (await window.axe.run(document, {rules:
        Object.fromEntries(window.axe.getRules(['experimental']).map(
            (r) => [r.ruleId, {enabled: true}]))})).violations""")
    out = []
    for v in found:
        if v["impact"] not in BAD and v["id"] != "page-has-heading-one":
            continue
        for node in v["nodes"][:6]:
            out.append(f"{v['id']} ({v['impact']}): {node['target']} {node['html'][:120]}")
    return out


def audit(page: Page, name: str, shots: Path, render: bool = False) -> list[str]:
    """The page at both sizes: what axe finds, named by page and size."""
    out = []
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        if render:
            page.evaluate("() => window.handfoot.render()")
        page.wait_for_timeout(150)  # the resize's own redraw
        out += [f"{name} {size}: {line}" for line in violations(page)]
        shoot(page, shots, f"a11y-{name}-{size}")
    return out


def hovered(page: Page, name: str) -> list[str]:
    """Each visible button of the table hovered in turn: its words stay readable."""
    out = []
    buttons = page.locator("#table button:visible")
    for i in range(buttons.count()):
        button = buttons.nth(i)
        if not button.is_enabled():
            continue
        button.hover()
        found = button.evaluate("""async (el) => (await window.axe.run(el,
            {runOnly: ['color-contrast']})).violations""")
        out += [f"{name} hovered: {v['id']}: {n['html'][:100]}" for v in found
                for n in v["nodes"]]
    return out


def test_no_serious_accessibility_violations(browser: Any, live_server: str,
                                             shots_dir: Path) -> None:
    # axe is injected as a script: the context lets it past the Content-Security-Policy
    ctx = browser.new_context(base_url=live_server, bypass_csp=True,
                              viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        found: list[str] = []
        page.goto("/")
        expect(page.locator("#profiles input").first).to_be_attached()
        found += audit(page, "lobby", shots_dir)

        # the table: the person's turn, one card selected
        game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                        overrides=QUICK, talk={"chat": True},
                        seats=[{"kind": "human", "name": "Ada"}]
                        + [{"kind": "bot", "level": "easy"}] * 3)
        page.goto(game["seats"][0]["link"])
        page.wait_for_function("() => window.handfoot && window.handfoot.app.view"
                               " && window.handfoot.app.view.to_act === 0")
        page.locator("#hand .hand-card").first.click(position={"x": 8, "y": 10})
        found += audit(page, "table", shots_dir, render=True)
        # the settings open, then the moves sheet and the other side's melds (a phone's)
        page.evaluate("() => { document.getElementById('settings').open = true; }")
        found += audit(page, "table-settings", shots_dir, render=True)
        page.evaluate("() => { document.getElementById('settings').open = false; }")
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator("#btn-moves").click()
        page.locator('#board-tabs [data-board="opp"]').evaluate("(b) => b.click()")
        found += [f"table-moves phone: {line}" for line in violations(page)]
        page.locator("#btn-moves-close").click()
        page.locator('#board-tabs [data-board="mine"]').evaluate("(b) => b.click()")
        # a hint shown, and (once drawn) the card staged as a new meld with the check's answer
        page.keyboard.press("h")
        expect(page.locator("#message .hint-move")).to_be_visible()
        page.keyboard.press("d")
        page.wait_for_function("() => window.handfoot.app.view.phase === 'play'")
        page.keyboard.press("Escape")
        natural = page.evaluate("""() => [...document.querySelectorAll('#hand .hand-card')]
            .map((b) => b.dataset.key).find((k) => !/^(3|2|JK)/.test(k))""")
        page.locator(f'#hand .hand-card[data-key="{natural}"]').click(position={"x": 8, "y": 10})
        page.keyboard.press("m")
        expect(page.locator("#tray .tray-group")).to_have_count(1)
        found += audit(page, "table-staged", shots_dir, render=True)
        found += hovered(page, "table-staged")
        # the React menu open (emoji, phrases, chat, the host's settings) and a bubble
        page.locator("#talk-menu > summary").click()
        page.locator('#talk-pop button[data-preset="gg"]').click()
        expect(page.locator(".talk-bubble")).to_be_visible()
        page.locator("#talk-menu > summary").click()
        expect(page.locator("#talk-pop .talk-chat input")).to_be_visible()
        found += audit(page, "table-talk", shots_dir, render=True)

        # the breakdown at the end of a game (bots only, watched) and its replay
        bots = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                        overrides=QUICK, seats=[{"kind": "bot", "level": "easy"}] * 4)
        page.goto(bots["spectator_link"])
        expect(page.locator("#overlay .summary")).to_be_visible(timeout=60_000)
        found += [f"summary: {line}" for line in violations(page)]
        expect(page.locator("#overlay table.breakdown")).to_be_visible(timeout=60_000)
        found += audit(page, "breakdown", shots_dir, render=True)
        page.goto(f"/replay/{bots['game_id']}")
        expect(page.locator("#replay-player")).to_be_visible()
        found += audit(page, "replay", shots_dir)

        page.goto("/score")
        page.wait_for_load_state("networkidle")
        found += audit(page, "score", shots_dir)
        page.goto("/daily")
        expect(page.locator("#board")).to_be_visible()
        found += audit(page, "daily", shots_dir)
        page.goto("/history")
        page.wait_for_load_state("networkidle")
        found += audit(page, "history", shots_dir)
        assert not found, "\n".join(found)
    finally:
        ctx.close()
