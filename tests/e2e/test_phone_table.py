"""The table on a phone, played by taps (a touch context: ``has_touch``, ``is_mobile``): on
390 x 844 and 844 x 390 a whole round in which, after every redraw, each card of the hand
shows its index (its rank and suit: the top-left corner, looked for with
``document.elementFromPoint``), no key labels show, the whole hint shows, the moves list
opens as a sheet and the other side's melds are a tab away with the hand still in sight.
Cards travel (the Web Animations API) unless the browser asks for reduced motion; the tab's
title says "Your turn"; a muted table makes no sound (no AudioContext at all); the settings
are remembered; the bots' pace goes to the server; the page weighs under 250 KB, all of it
from the server itself."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

import pytest
from e2e_helpers import QUICK, Seat, new_game
from playwright.sync_api import Page, expect

# counts every Element.animate() (the cards' motion), every AudioContext made and every
# sound started, before the page's own scripts run
INSTRUMENT = """
window.__anims = 0; window.__contexts = 0; window.__sounds = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...a) { window.__anims++; return animate.apply(this, a); };
const Ctx = window.AudioContext;
window.AudioContext = class extends Ctx { constructor(...a) { super(...a); window.__contexts++; } };
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...a) {
  window.__sounds++; return start.apply(this, a); };
"""

# every card of the hand in turn scrolled into view; its index box's corners and centre
# must hit the card itself (or what is inside it), never another card
HIDDEN_INDICES = """() => {
  const hidden = [];
  const cards = [...document.querySelectorAll('#hand .hand-card')];
  for (const card of cards) {
    card.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const idx = card.querySelector('svg .idx').getBoundingClientRect();
    const inset = 1.5;
    const points = [[idx.left + inset, idx.top + inset], [idx.right - inset, idx.top + inset],
      [idx.left + inset, idx.bottom - inset], [idx.right - inset, idx.bottom - inset],
      [(idx.left + idx.right) / 2, (idx.top + idx.bottom) / 2]];
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      const owner = hit && hit.closest('.hand-card');
      if (owner !== card) {
        hidden.push(`${card.dataset.key} at ${Math.round(x)},${Math.round(y)}: ` +
          (owner ? owner.dataset.key : hit ? hit.tagName + '.' + hit.className : 'nothing'));
        break;
      }
    }
  }
  return {count: cards.length, hidden};
}"""


def phone(browser: Any, live_server: str, width: int, height: int, **kw: Any) -> Any:
    ctx = browser.new_context(base_url=live_server, viewport={"width": width, "height": height},
                              has_touch=True, is_mobile=True, **kw)
    ctx.set_default_timeout(30_000)
    ctx.add_init_script(INSTRUMENT)
    return ctx


def quick_game(live_server: str, name: str) -> dict[str, Any]:
    return new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "human", "name": name}]
                    + [{"kind": "bot", "level": "hard", "name": n}
                       for n in ("West", "North", "East")])


def check_hand(page: Page, where: str) -> int:
    found = page.evaluate(HIDDEN_INDICES)
    assert not found["hidden"], f"{where}: indices hidden: {found['hidden']}"
    return int(found["count"])


@pytest.mark.parametrize("size", [(390, 844), (844, 390)], ids=["portrait", "landscape"])
def test_a_round_by_taps_on_a_phone_shows_every_index(browser: Any, live_server: str,
                                                      size: tuple[int, int]) -> None:
    ctx = phone(browser, live_server, *size)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # the name makes the deal (tests/e2e/e2e_server.py): 14 and 13 decisions to the
        # round's end (as of 2026-12; "Tapper 390", the portrait's name before, took 32)
        game = quick_game(live_server, "Tapper" if size[0] == 390 else "Tapper 844")
        page.goto(game["seats"][0]["link"])
        seat = Seat(page)
        seat.wait_ready()
        checked = turns = 0
        looked = False
        for _ in range(200):
            point = seat.wait_point()
            if point == "over":
                break
            checked += check_hand(page, f"decision {turns}")
            assert page.title() == "● Your turn — handfoot"
            assert page.locator('link[rel="icon"]').get_attribute("href") == \
                "/static/favicon-turn.svg"
            # no key labels on a touch screen
            assert page.locator("#actions kbd").evaluate_all(
                "(ks) => ks.filter((k) => k.offsetParent !== null).length") == 0
            if point == "turn" and not looked and turns >= 2 and seat.view()["phase"] == "play":
                looked = True
                look_around(page, seat)
            seat.take_turn()
            turns += 1
            # the whole hint: wrapped, nothing cut
            if page.locator("#message .msg-text").is_visible():
                assert page.locator("#message .msg-text").evaluate(
                    "(e) => e.scrollWidth <= e.clientWidth + 1 && "
                    "getComputedStyle(e).whiteSpace !== 'nowrap'")
        else:
            raise AssertionError("the round did not end")
        assert looked and turns >= 3 and checked >= 3 * turns
        assert not [f for f in seat.fallbacks if f.startswith("refused")], seat.fallbacks
        # the cards moved (drawn into the hand, laid down, discarded), and the sounds played
        assert page.evaluate("window.__anims") > turns
        assert page.evaluate("window.__sounds") > 0
        # the round's summary, then the breakdown; not your turn any more
        expect(page.locator("#overlay .summary")).to_be_visible()
        expect(page.locator("#overlay .sum-side")).to_have_count(2)
        assert page.title() != "● Your turn — handfoot"
        page.locator("#btn-summary-next").tap()
        expect(page.locator("#overlay table.breakdown")).to_be_visible()
        assert not errors, errors
    finally:
        ctx.close()


def look_around(page: Page, seat: Seat) -> None:
    """The moves sheet and the other side's melds, by taps; the hand stays in sight."""
    page.locator("#btn-moves").tap()
    sheet = page.locator("#log-panel")
    expect(sheet).to_be_visible()
    # the full list (the ticker shows two lines at most)
    lines = page.locator("#log li").count()
    assert lines >= 2 and lines == seat.app("Math.min(a.log.length, 60)")
    page.locator("#btn-moves-close").tap()
    expect(sheet).to_be_hidden()
    page.locator('#board-tabs [data-board="opp"]').tap()
    expect(page.locator("#opp-sides")).to_be_visible()
    expect(page.locator("#my-side")).to_be_hidden()
    hand = page.locator("#hand").bounding_box()
    view = page.viewport_size
    assert hand is not None and view is not None
    assert hand["y"] >= 0 and hand["y"] + hand["height"] <= view["height"] + 1, hand
    page.locator('#board-tabs [data-board="mine"]').tap()
    expect(page.locator("#my-side")).to_be_visible()
    # the check itself sees a covered index: the second card moved onto the first one
    page.evaluate("""() => { const [a, b] = document.querySelectorAll('#hand .hand-card');
        b.dataset.was = b.style.left; b.style.left = a.style.left; }""")
    assert page.evaluate(HIDDEN_INDICES)["hidden"]
    page.evaluate("""() => { const b = document.querySelectorAll('#hand .hand-card')[1];
        b.style.left = b.dataset.was; }""")
    check_hand(page, "put back")
    # sorted by the meld a card joins, and back by rank
    page.locator("#btn-sort").tap()
    expect(page.locator("#btn-sort")).to_have_attribute("aria-pressed", "true")
    check_hand(page, "sorted by meld")
    page.locator("#btn-sort").tap()
    expect(page.locator("#btn-sort")).to_have_attribute("aria-pressed", "false")


def test_reduced_motion_moves_nothing(browser: Any, live_server: str) -> None:
    ctx = phone(browser, live_server, 390, 844, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        game = quick_game(live_server, "Still")
        page.goto(game["seats"][0]["link"])
        seat = Seat(page)
        seat.wait_ready()
        for _ in range(4):
            if seat.take_turn() == "over":
                break
            running = page.evaluate("() => document.getAnimations().filter("
                                    "(a) => a.playState === 'running').length")
            assert running == 0
        assert seat.moves_sent >= 3
        assert page.evaluate("window.__anims") == 0
    finally:
        ctx.close()


def test_a_muted_table_makes_no_sound(browser: Any, live_server: str) -> None:
    ctx = phone(browser, live_server, 390, 844)
    ctx.add_init_script("localStorage.setItem('handfoot.sound', '0')")
    try:
        page = ctx.new_page()
        game = quick_game(live_server, "Quiet")
        page.goto(game["seats"][0]["link"])
        seat = Seat(page)
        seat.wait_ready()
        expect(page.locator("#opt-sound")).not_to_be_checked()
        for _ in range(4):
            if seat.take_turn() == "over":
                break
        assert seat.moves_sent >= 3
        assert page.evaluate("[window.__contexts, window.__sounds]") == [0, 0]
        # sound on again (in the settings): the next sound plays
        page.locator("#settings summary").tap()
        page.locator("#opt-sound").tap()
        page.locator("#settings summary").tap()
        assert page.evaluate("localStorage.getItem('handfoot.sound')") == "1"
        seat.take_turn()
        page.wait_for_function("() => window.__sounds > 0")
        assert page.evaluate("window.__contexts") == 1
    finally:
        ctx.close()


def test_settings_are_remembered_and_the_pace_goes_to_the_server(
        new_context: Any, live_server: str) -> None:
    page = new_context(1366, 768).new_page()
    game = quick_game(live_server, "Keeper")
    page.goto(game["seats"][0]["link"])
    seat = Seat(page)
    seat.wait_ready()
    width = page.locator("#hand .hand-card").first.bounding_box()
    page.locator("#settings summary").click()
    page.locator('input[name="opt-size"][value="large"]').check()
    page.locator("#opt-four").check()
    page.locator("#opt-left").check()
    page.locator('input[name="opt-pace"][value="slow"]').check()
    page.wait_for_function("() => window.handfoot.app.tablePace === 'slow'")
    page.reload()
    seat.wait_ready()
    body = page.locator("body")
    for cls in ("cards-large", "four-colour", "left-handed"):
        expect(body).to_have_class(re.compile(cls))
    larger = page.locator("#hand .hand-card").first.bounding_box()
    assert width and larger and larger["width"] > width["width"] * 1.1
    # the log is on the left now, the board on the right
    log = page.locator("#log-panel").bounding_box()
    board = page.locator("#board").bounding_box()
    assert log and board and log["x"] < board["x"]
    # the server keeps the table's pace (the welcome says it)
    assert page.evaluate("window.handfoot.app.welcome.game.pace") == "slow"
    # the four-colour deck: every diamond of the hand drawn blue, every club green
    colours = page.evaluate("""() => [...document.querySelectorAll('#hand .hand-card')].map(
        (b) => [b.dataset.key.split('#')[0].slice(-1),
                b.querySelector('svg .idx text').getAttribute('fill')])""")
    want = {"D": "#1f5fbf", "C": "#17803a", "H": "#c62828", "S": "#1b1b1f"}
    assert colours and all(fill == want[suit] for suit, fill in colours if suit in want), colours
    expect(page.locator("#opt-four")).to_be_checked()


def test_the_table_page_weighs_under_250_kb_all_from_the_server(
        new_context: Any, live_server: str) -> None:
    page = new_context(390, 844).new_page()
    sizes: dict[str, int] = {}

    def got(response: Any) -> None:
        if response.request.resource_type != "websocket":
            sizes[response.url] = len(response.body())

    page.on("response", got)
    game = quick_game(live_server, "Weigher")
    page.goto(game["seats"][0]["link"])
    Seat(page).wait_ready()
    page.wait_for_load_state("networkidle")
    origin = urlparse(live_server).netloc
    assert all(urlparse(u).netloc == origin for u in sizes), sorted(sizes)
    assert any(u.endswith("/static/table.js") for u in sizes)
    assert any(u.endswith("/static/sound.js") for u in sizes)
    total = sum(sizes.values())
    assert total < 250_000, (total, sorted(sizes.items(), key=lambda kv: -kv[1])[:8])
