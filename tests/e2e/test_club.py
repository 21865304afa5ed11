"""A family club in two browsers: Ann makes her player and a club, saves short house rules,
invites Bob (a second browser context), deals a club game from the club page; Bob joins it
from his club page; they play it to its end and the club's standings count it, and its Ratings
section, which showed only the bots' anchors, shows both moved from a new player's 25.0 ± 16.7
(the winner above the loser, both surer). Then Ann
adds her phone by the one-time link (its QR code on her page), and the used link is refused
on a third browser. Screenshots at 390x844 and 1366x768 of the club page, the invite, the
player's page and the device link."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from e2e_helpers import Seat, new_game, play_table, shoot
from playwright.sync_api import expect

QUICK_RULES = """extends = "biegames"
[game]
rounds = 1
[deal]
hand_size = 5
foot_size = 3
[going_out]
clean_books_to_go_out = 0
dirty_books_to_go_out = 0
wild_books_to_go_out = 0
"""

SIZES = {"phone": (390, 844), "laptop": (1366, 768)}

NEW_PLAYER = (25.0, 16.7)
"""A new player's rating as the page shows it: mu ± 2 sigma (OpenSkill's 25 ± 2 × 25/3)."""


def table_rows(page: Any, box: str) -> list[list[str]]:
    """The cells' text of each body row of the table in ``box``, as the player reads them."""
    rows: list[list[str]] = page.locator(f"{box} table tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))")
    return rows


def shown_ratings(page: Any) -> dict[str, tuple[float, float, str]]:
    """The Ratings section's players (not the bots): name → (mu, 2 sigma, games)."""
    found = {}
    for name, _rules, text, _least, played in table_rows(page, "#club-ratings"):
        if name.endswith("(bot)"):
            continue
        m = re.fullmatch(r"(-?\d+\.\d)\s±\s(\d+\.\d)", text)
        assert m, f"{name}'s rating reads {text!r}"
        found[name] = (float(m[1]), float(m[2]), played)
    return found


def drawn_qr(page: Any, box: str) -> bool:
    """Whether the box's QR code is drawn as SVG (its modules have a size on the page)."""
    return bool(page.evaluate(f"""() => {{
        const svg = document.querySelector('{box} svg'), line = svg.querySelector('.qrline');
        return svg.getBoundingClientRect().width > 80 && line.getBBox().width > 10; }}"""))


def make_player(page: Any, name: str) -> None:
    page.goto("/me")
    page.fill("#new-name", name)
    page.click("#new-player button[type=submit]")
    expect(page.locator("#me-title")).to_have_text(f"Hello, {name}")


def test_a_club_plays_a_game_and_a_device_is_added(new_context: Any, live_server: str,
                                                   shots_dir: Path) -> None:
    ann = new_context().new_page()
    make_player(ann, "Ann")
    ann.fill("#club-name", "The Smiths")
    ann.click("#new-club button[type=submit]")
    expect(ann.locator("#club-name")).to_have_text("The Smiths")
    expect(ann.locator("#standings")).to_contain_text("Nothing yet")
    club_url = ann.url
    # house rules, checked by the server as the lobby's
    ann.click("#rule-editor summary")
    ann.fill("#rules-name", "Quick")
    ann.fill("#rules-toml", "extends = 'biegames'\nrounds = 'many'\n")
    ann.click("#save-rules button[type=submit]")
    expect(ann.locator("#club-status")).to_contain_text("rounds")
    ann.fill("#rules-toml", QUICK_RULES)
    ann.click("#save-rules button[type=submit]")
    expect(ann.locator("#rule-list")).to_contain_text("Quick")
    # the invite: a link and its QR code
    ann.click("#invite")
    expect(ann.locator("#invite-link svg")).to_be_visible()
    assert drawn_qr(ann, "#invite-link")
    invite = ann.locator("#invite-link input").input_value()
    assert "/club/join#" in invite
    for label, (w, h) in SIZES.items():
        ann.set_viewport_size({"width": w, "height": h})
        ann.locator("#invite-link").scroll_into_view_if_needed()
        shoot(ann, shots_dir, f"club-invite-{label}")
    ann.set_viewport_size({"width": 1366, "height": 768})

    # Bob, in his own browser, opens the invite, makes his player and joins
    bob = new_context().new_page()
    bob.goto(invite)
    expect(bob.locator("#join-title")).to_have_text("Join “The Smiths”")
    assert "#" not in bob.url  # the token left the address bar
    bob.fill("#join-name", "Bob")
    bob.click("#join-new-player button[type=submit]")
    expect(bob.locator("#club-name")).to_have_text("The Smiths")
    expect(bob.locator("#members")).to_contain_text("Ann")
    expect(bob.locator("#members")).to_contain_text("Bob")

    # Ann deals a club game with the club's rules and an open seat for a member
    ann.goto(club_url)
    ann.reload()
    # before any game, the Ratings section shows the bots' anchors and no member yet
    expect(ann.locator("#club-ratings")).to_be_visible()
    expect(ann.locator("#club-ratings")).to_contain_text("normal (bot)")
    assert shown_ratings(ann) == {}
    expect(ann.locator("#game-rules option", has_text="Quick")).to_have_count(1)
    ann.select_option("#game-rules", "club:Quick")
    ann.select_option("#game-layout", "2x1")
    ann.select_option("#seat-1", "human")
    ann.click("#new-game button[type=submit]")
    ann.wait_for_url("**/game/**")
    bob.reload()
    bob.locator("#live-games button", has_text="Join").click()
    bob.wait_for_url("**/game/**")
    seats = {0: Seat(ann), 1: Seat(bob)}
    for s in seats.values():
        s.wait_ready()
    assert play_table(seats) < 600
    expect(ann.locator("#overlay")).to_be_visible()

    # the standings count the game for both
    ann.goto(club_url)
    ann.reload()
    standings = ann.locator("#standings table")
    expect(standings).to_contain_text("Ann")
    expect(standings).to_contain_text("Bob")
    rows = standings.locator("tbody tr")
    expect(rows).to_have_count(2)
    for i in range(2):
        expect(rows.nth(i).locator("td").nth(1)).to_have_text("1")  # one game each
    expect(ann.locator("#finished-games")).to_contain_text("Quick")
    expect(ann.locator("#finished-games")).to_contain_text("Ann, Bob")  # his seat's name now
    expect(ann.locator("#head-to-head")).to_contain_text(re.compile("Ann v Bob|Bob v Ann"))
    # ...and so do the ratings: each moved from a new player's, the higher total's mu above
    # the other's (equal if they tied), each surer than a new player
    points = {r[0]: int(r[3].replace(",", "")) for r in table_rows(ann, "#standings")}
    rated = shown_ratings(ann)
    assert set(rated) == {"Ann", "Bob"}, rated
    for name, (mu, spread, played) in rated.items():
        assert (mu, spread) != NEW_PLAYER and spread < NEW_PLAYER[1], (name, mu, spread)
        assert played == "1", (name, played)
    (winner, _), (loser, _) = sorted(points.items(), key=lambda kv: -kv[1])
    if points[winner] > points[loser]:
        assert rated[winner][0] > NEW_PLAYER[0] > rated[loser][0], (points, rated)
    else:
        assert rated[winner][0] == rated[loser][0], (points, rated)
    for label, (w, h) in SIZES.items():
        ann.set_viewport_size({"width": w, "height": h})
        shoot(ann, shots_dir, f"club-page-{label}", full=True)
    ann.set_viewport_size({"width": 1366, "height": 768})

    # a club game may be played by correspondence: a time per turn, the clock at the table
    expect(ann.locator("#game-timeout-field")).to_be_hidden()
    ann.select_option("#game-pace", "86400")
    expect(ann.locator("#game-timeout-field")).to_be_visible()
    ann.select_option("#game-timeout", "wait")
    ann.locator("#new-game").scroll_into_view_if_needed()
    shoot(ann, shots_dir, "club-correspondence-laptop")
    ann.click("#new-game button[type=submit]")
    ann.wait_for_url("**/game/**")
    expect(ann.locator("#turn-clock")).to_be_visible()
    game = ann.evaluate("window.handfoot.app.welcome.game")
    assert game["correspondence"] == {"per_move": 86400, "on_timeout": "wait"}

    # a second device for Ann: the link (and its QR code) on her page, used once
    ann.goto("/me")
    expect(ann.locator("#club-list")).to_contain_text("The Smiths")
    for label, (w, h) in SIZES.items():
        ann.set_viewport_size({"width": w, "height": h})
        shoot(ann, shots_dir, f"player-page-{label}")
    ann.set_viewport_size({"width": 1366, "height": 768})
    ann.click("#add-device")
    expect(ann.locator("#device-link svg")).to_be_visible()
    assert drawn_qr(ann, "#device-link")
    link = ann.locator("#device-link input").input_value()
    for label, (w, h) in SIZES.items():
        ann.set_viewport_size({"width": w, "height": h})
        ann.locator("#device-link").scroll_into_view_if_needed()
        shoot(ann, shots_dir, f"device-link-{label}")
    phone = new_context(390, 844).new_page()
    phone.goto(link)
    phone.click("#use-link")
    expect(phone.locator("#device-status")).to_contain_text("This device now plays as Ann")
    phone.goto("/me")
    expect(phone.locator("#me-title")).to_have_text("Hello, Ann")
    expect(phone.locator("#device-list li")).to_have_count(2)
    expect(phone.locator("#club-list")).to_contain_text("The Smiths")
    # the same link again, in another browser: refused
    other = new_context().new_page()
    other.goto(link)
    other.click("#use-link")
    expect(other.locator("#device-status")).to_contain_text("does not work")
    other.goto("/me")
    expect(other.locator("#new-name")).to_be_visible()  # not signed in
    # a stranger gets nothing of the club
    other.goto(club_url)
    expect(other.locator("#club-status")).to_contain_text("no player")
    make_player(other, "Eve")
    other.goto(club_url)
    other.reload()
    expect(other.locator("#club-status")).to_contain_text("No such club")
    expect(other.locator("#club-body")).to_be_hidden()


def test_the_lobby_offers_a_players_clubs_and_their_house_rules(new_context: Any,
                                                               live_server: str) -> None:
    page = new_context().new_page()
    page.goto("/")
    expect(page.locator("#club-choice")).to_be_hidden()  # nobody signed in: no club box
    make_player(page, "Nan")
    page.fill("#club-name", "Nan's table")
    page.click("#new-club button[type=submit]")
    expect(page.locator("#club-name")).to_have_text("Nan's table")
    club_url = page.url
    page.click("#rule-editor summary")
    page.fill("#rules-name", "Quick")
    page.fill("#rules-toml", QUICK_RULES)
    page.click("#save-rules button[type=submit]")
    expect(page.locator("#rule-list")).to_contain_text("Quick")
    page.goto("/")
    expect(page.locator("#club-choice")).to_be_visible()
    page.select_option("#lobby-club", label="Nan's table")
    expect(page.locator("#lobby-club-rules-field")).to_be_visible()
    page.select_option("#lobby-club-rules", "Quick")
    expect(page.locator("#toml-text")).to_have_value(QUICK_RULES)  # checked as any file
    page.select_option("#lobby-club-rules", "Quick")
    page.click("#play-setup")
    page.wait_for_url("**/game/**")
    page.goto(club_url)
    page.reload()
    expect(page.locator("#live-games")).to_contain_text("Quick")
    expect(page.locator("#live-games button", has_text="Go to your seat")).to_have_count(1)
    # a seat's link (made by someone else) opened while signed in: the seat becomes Nan's
    other = new_game(live_server, profile="biegames", layout="2x1", seats=[
        {"kind": "human", "name": "Pat"}, {"kind": "human", "name": "Nan"}])
    with page.expect_response(lambda r: r.url.endswith("/sit")) as sat:
        page.goto(other["seats"][1]["link"])
    assert sat.value.json() == {"seat": 1, "linked": True}
    page.goto("/me")
    expect(page.locator("#game-list")).to_contain_text("Pat, Nan")


def test_the_club_pages_have_no_serious_accessibility_violations(
        browser: Any, live_server: str, shots_dir: Path) -> None:
    from test_accessibility import AXE, audit

    if not AXE.exists():
        import pytest

        pytest.skip("axe-core is not installed: scripts/test installs it into .cache/npm")
    ctx = browser.new_context(base_url=live_server, bypass_csp=True,
                              viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        found: list[str] = []
        page.goto("/me")
        expect(page.locator("#new-name")).to_be_visible()
        found += audit(page, "me-new", shots_dir)
        make_player(page, "Ida")
        page.fill("#club-name", "Ida's club")
        page.click("#new-club button[type=submit]")
        expect(page.locator("#club-name")).to_have_text("Ida's club")
        page.click("#invite")
        expect(page.locator("#invite-link svg")).to_be_visible()
        invite = page.locator("#invite-link input").input_value()
        found += audit(page, "club", shots_dir)
        page.goto("/me")
        page.click("#add-device")
        expect(page.locator("#device-link svg")).to_be_visible()
        link = page.locator("#device-link input").input_value()
        found += audit(page, "me", shots_dir)
        other = ctx.new_page()  # (same context: Ida's own browser)
        other.goto(invite)
        expect(other.locator("#join-title")).to_contain_text("Ida's club")
        found += audit(other, "club-join", shots_dir)
        other.goto(link)
        found += audit(other, "device", shots_dir)
        other.goto("/signin")
        found += audit(other, "signin", shots_dir)
        assert found == []
    finally:
        ctx.close()
