"""'Your turn' when the tab is hidden (static/table-alerts.js, table-prefs.js): the browser's
permission is asked only when the player presses "Notify me when it's my turn", never on
load; then a notification comes when the turn starts while the tab is hidden, and none
while it is in view. The browser's Notification and document.hidden are stand-ins here (a
headless browser shows no notification and is never hidden)."""

from __future__ import annotations

from typing import Any

from e2e_helpers import Seat, new_game
from playwright.sync_api import expect

FAKE = """
window.__asked = 0; window.__notes = []; window.__hidden = false;
Object.defineProperty(Document.prototype, 'hidden', {configurable: true,
  get() { return window.__hidden; }});
class FakeNotification {
  static permission = 'default';
  static async requestPermission() { window.__asked++; FakeNotification.permission = 'granted';
    return 'granted'; }
  constructor(title, options) { window.__notes.push([title, options && options.body]); }
  close() {}
}
window.Notification = FakeNotification;
"""


def test_a_notification_only_when_asked_for_and_the_tab_is_hidden(
        new_context: Any, live_server: str) -> None:
    ctx = new_context(390, 844)
    ctx.add_init_script(FAKE)
    page = ctx.new_page()
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    seats=[{"kind": "human", "name": "Away"}]
                    + [{"kind": "bot", "level": "easy", "name": n}
                       for n in ("West", "North", "East")])
    page.goto(game["seats"][0]["link"])
    seat = Seat(page)
    seat.wait_ready()
    seat.take_turn()
    seat.take_turn()  # a whole turn: the next one starts with the tab in view
    seat.wait_point()
    assert page.evaluate("window.__asked") == 0  # never on load
    assert page.evaluate("window.__notes") == []  # not asked for
    page.locator("#settings summary").click()
    button = page.locator("#btn-notify")
    expect(button).to_have_text("Notify me when it's my turn")
    button.click()
    expect(button).to_have_text("Stop notifying me")
    assert page.evaluate("[window.__asked, localStorage.getItem('handfoot.notify')]") == [1, "1"]
    page.locator("#settings summary").click()
    # in view: the title says it, no notification
    for _ in range(2):
        seat.take_turn()
    seat.wait_point()
    assert page.evaluate("window.__notes") == []
    # hidden: the next turn brings one
    page.evaluate("() => { window.__hidden = true; }")
    for _ in range(6):
        if seat.take_turn() == "over" or page.evaluate("window.__notes.length"):
            break
    notes = page.evaluate("window.__notes")
    assert notes and notes[0][0] == "Your turn — handfoot", notes
