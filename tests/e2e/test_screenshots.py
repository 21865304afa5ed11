"""Screenshots of the main screens at a phone's and a laptop's size, taken while a person
plays a game: the lobby, the table mid-game, a meld being made, an illegal move's message,
the round's breakdown with its chart, the replay viewer, the review of the person's decisions.

They go to $HANDFOOT_SCREENSHOTS (``HANDFOOT_SCREENSHOTS=docs/screenshots`` refreshes the
committed ones) or a temporary folder; each is checked to be a viewport-sized PNG.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from e2e_helpers import Seat, kind_of, new_game, shoot, split_hint
from playwright.sync_api import Page, expect

SIZES = {"phone": (390, 844), "laptop": (1366, 768)}


def both(page: Page, out: Path, name: str, *, table: bool = True) -> None:
    """The screen at both sizes (the table re-laid out for each), phone first."""
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        if table:
            page.evaluate("() => window.handfoot.render()")
        path = shoot(page, out, f"{name}-{size}")
        with path.open("rb") as f:
            head = f.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", head[16:24]) == (w, h), path


def test_screenshots(new_context: Any, live_server: str, shots_dir: Path) -> None:
    page = new_context(*SIZES["laptop"]).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto("/")
    expect(page.locator("#profiles input").first).to_be_attached()
    both(page, shots_dir, "lobby", table=False)

    # "Robin" deals a round of some 35 decisions: the person opens with two melds, goes out
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    seats=[{"kind": "human", "name": "Robin"}]
                    + [{"kind": "bot", "level": "hard", "name": n}
                       for n in ("West", "North", "East")])
    page.goto(game["seats"][0]["link"])
    seat = Seat(page)
    seat.wait_ready()
    shot = {"illegal": False, "meld": False, "table": False}
    for n in range(300):
        point = seat.wait_point()
        if point == "over":
            break
        view = seat.view()
        if point == "turn" and view["phase"] == "play" and not shot["illegal"]:
            # a single card laid down as an opening: the engine's reason next to the cards
            seat.stage(seat_group(view["hand"]))
            seat._mark()
            page.locator("#btn-laydown").click()
            # the reason shows once, beside the staged melds (not again as a message)
            expect(page.locator("#tray .tray-check[role=alert]")).to_contain_text("Not allowed")
            expect(page.locator("#message")).to_be_hidden()
            both(page, shots_dir, "illegal-move")
            page.locator("#btn-untray-all").click()
            expect(page.locator("#tray")).to_be_hidden()
            shot["illegal"] = True
        move = seat.hint()
        kind, groups, _ = split_hint(move)
        if kind == "meld" and not shot["meld"] and len(groups) > 1 and not seat.opened():
            # a meld being made: one group staged, the next one's cards selected
            seat.stage(groups[0])
            seat.select(groups[1].kinds)
            both(page, shots_dir, "meld")
            page.locator("#btn-untray-all").click()
            shot["meld"] = True
        if point == "turn" and view["phase"] == "play" and not shot["table"] \
                and all(view["melds"]) and n >= 12:
            both(page, shots_dir, "table")
            shot["table"] = True
        if not seat.do(move):
            seat.fallback(move)
    assert all(shot.values()), shot
    expect(page.locator("#overlay table.breakdown")).to_be_visible()
    both(page, shots_dir, "breakdown")

    page.goto(f"/replay/{game['game_id']}")
    expect(page.locator("#replay-player")).to_be_visible()
    page.evaluate("""() => { const s = document.getElementById('slider');
        s.value = String(Math.round(Number(s.max) * 0.6));
        s.dispatchEvent(new Event('input', {bubbles: true})); }""")
    expect(page.locator("#move-caption")).not_to_be_empty()
    both(page, shots_dir, "replay", table=False)

    # the review of Robin's decisions: computed in the background, then its timeline; a
    # decision chosen shows the move played and the better one on the cards
    page.select_option("#review-seat", "0")
    page.locator("#review-start").click()
    expect(page.locator(".review-timeline")).to_be_visible(timeout=300_000)
    marks = page.locator(".review-mark.blunder[data-i], .review-mark.mistake[data-i], "
                         ".review-mark.inaccuracy[data-i]")
    (marks.first if marks.count() else page.locator(".review-mark[data-i]").first).click()
    expect(page.locator(".review-decision")).to_be_visible()
    # the page stays on the decision (it jumped up to the replay, the detail off the screen)
    page.wait_for_timeout(800)
    expect(page.locator(".review-decision .review-moves")).to_be_in_viewport()
    expect(page.locator("#move-caption")).not_to_be_empty()  # the replay shows the position
    page.locator(".review-see").click()  # and goes up to it when asked
    expect(page.locator("#replay-player")).to_be_in_viewport()
    for size, (w, h) in SIZES.items():  # the review section itself at both sizes
        page.set_viewport_size({"width": w, "height": h})
        page.locator("#review-title").evaluate("(e) => e.scrollIntoView({block: 'start'})")
        shoot(page, shots_dir, f"review-{size}")
    assert not errors, errors


def seat_group(hand: list[str]) -> Any:
    """One natural card: never an opening on its own."""
    from e2e_helpers import Group

    code = next(c for c in hand if kind_of(c) not in ("2", "JK", "B3", "R3"))
    return Group([kind_of(code)])


FOUR = {"phone": (390, 844), "phone-side": (844, 390), "tablet": (768, 1024),
        "laptop": (1366, 768)}


def four(page: Page, out: Path, name: str, before: str = "", settle: int = 350) -> None:
    """The table at the four sizes (re-laid out for each); ``before``: a script run after
    each resize (a state to show again), ``settle``: milliseconds to wait before the shot."""
    for size, (w, h) in FOUR.items():
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => window.handfoot.render()")
        if before:
            page.evaluate(before)
        page.wait_for_timeout(settle)  # the resize's own redraw, and the motion's end
        path = shoot(page, out, f"{name}-{size}")
        with path.open("rb") as f:
            head = f.read(24)
        assert struct.unpack(">II", head[16:24]) == (w, h), path
    page.set_viewport_size({"width": FOUR["phone"][0], "height": FOUR["phone"][1]})
    page.evaluate("() => window.handfoot.render()")


SUMMARY_AGAIN = """() => { const a = window.handfoot.app; a.summaryDone = null;
    document.getElementById('overlay').dataset.summary = ''; window.handfoot.render(); }"""


def test_table_screenshots_at_four_sizes(browser: Any, live_server: str,
                                         shots_dir: Path) -> None:
    """The phone-first table's states: the hand, the other side's melds, the moves sheet,
    the settings, the four-colour deck, the round's summary; each at 390x844, 844x390,
    768x1024 and 1366x768, on a touch screen (no key labels)."""
    ctx = browser.new_context(base_url=live_server, viewport={"width": 390, "height": 844},
                              has_touch=True, is_mobile=True)
    ctx.set_default_timeout(30_000)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                        seats=[{"kind": "human", "name": "Robin"}]
                        + [{"kind": "bot", "level": "hard", "name": n}
                           for n in ("West", "North", "East")])
        page.goto(game["seats"][0]["link"])
        seat = Seat(page)
        seat.wait_ready()
        shot = False
        for _ in range(300):
            point = seat.wait_point()
            if point == "over":
                break
            view = seat.view()
            if not shot and point == "turn" and view["phase"] == "play" and all(view["melds"]):
                shot = True
                page.evaluate("() => window.handfoot.app.hint = null")
                four(page, shots_dir, "table-hand")
                page.locator('#board-tabs [data-board="opp"]').tap()
                four(page, shots_dir, "table-melds")
                page.locator('#board-tabs [data-board="mine"]').tap()
                four(page, shots_dir, "table-moves",
                     "() => document.body.classList.add('log-open')")
                page.evaluate("() => document.body.classList.remove('log-open')")
                four(page, shots_dir, "table-settings",
                     "() => document.getElementById('settings').open = true")
                page.evaluate("() => document.getElementById('settings').open = false")
                page.evaluate("() => { window.handfoot.app.fourColour = true; }")
                four(page, shots_dir, "table-four-colour")
                page.evaluate("() => { window.handfoot.app.fourColour = false; }")
            seat.take_turn()
        assert shot
        expect(page.locator("#overlay .summary")).to_be_visible()
        four(page, shots_dir, "round-summary", SUMMARY_AGAIN, settle=1300)  # counted up
        page.wait_for_timeout(700)
        assert not errors, errors
    finally:
        ctx.close()
