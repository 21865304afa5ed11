"""Reactions at an online table: two people in their own browsers (a laptop and a phone) and
a watcher. A reaction one sends shows as a bubble by the sender's seat at the others' tables
and in their moves lists; a second one at once is refused with the reason; the host turns
reactions off and the other person is told. Screenshots of the React menu and of a bubble at
390 x 844 and 1366 x 768."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e_helpers import QUICK, Seat, get, new_game, shoot
from playwright.sync_api import Page, expect


def open_menu(page: Page) -> None:
    page.locator("#talk-menu > summary").click()
    expect(page.locator("#talk-pop")).to_be_visible()


def react(page: Page, preset: str) -> None:
    if not page.locator("#talk-pop").is_visible():
        open_menu(page)
    page.locator(f'#talk-pop button[data-preset="{preset}"]').click()


def test_a_reaction_shows_by_the_seat_and_in_the_moves_list(new_context: Any, live_server: str,
                                                            shots_dir: Path) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, talk={"watchers": True}, seats=[
                        {"kind": "human", "name": "Ann"},
                        {"kind": "bot", "level": "random"},
                        {"kind": "human", "name": "Bob"},
                        {"kind": "bot", "level": "random"}])
    ann = new_context(1366, 768).new_page()
    bob = new_context(390, 844).new_page()
    watcher = new_context(1366, 768).new_page()
    for page, link in ((ann, game["seats"][0]["link"]), (bob, game["seats"][2]["link"]),
                       (watcher, game["spectator_link"])):
        page.goto(link)
        Seat(page).wait_ready()
        expect(page.locator("#talk-menu")).to_be_visible()

    # Ann, on a laptop, opens the menu and sends "Nice meld!"
    open_menu(ann)
    expect(ann.locator('#talk-pop button[data-preset="gg"]')).to_have_text("Good game!")
    expect(ann.locator(".talk-host")).to_be_visible()  # she made the table: its host
    shoot(ann, shots_dir, "talk-picker-laptop")
    react(ann, "nice")
    expect(ann.locator("#talk-pop")).to_be_hidden()  # sent: the menu closes
    for page in (bob, watcher):
        bubble = page.locator('.talk-bubble[data-talk-seat="seat-0"]')
        expect(bubble).to_be_visible()
        expect(bubble).to_contain_text("Ann")
        expect(bubble).to_contain_text("Nice meld!")
        expect(page.locator("#log li.talk")).to_have_text(["★Ann: Nice meld!"])
    # the bubble is by Ann's seat panel at Bob's table (above or below it, not across)
    panel = bob.locator('#seats [data-flash="seat-0"]').bounding_box()
    box = bob.locator(".talk-bubble").bounding_box()
    assert panel is not None and box is not None
    assert abs((box["y"]) - (panel["y"] + panel["height"])) < 40, (box, panel)
    shoot(bob, shots_dir, "talk-bubble-phone")
    expect(ann.locator("#log li.talk")).to_have_text(["★You: Nice meld!"])
    expect(ann.locator('.talk-bubble[data-talk-seat="seat-0"]')).to_be_visible()

    # Bob, on a phone, opens the menu and sends an emoji; a second one at once is refused
    open_menu(bob)
    shoot(bob, shots_dir, "talk-picker-phone")
    expect(bob.locator(".talk-host")).to_have_count(0)  # not the host
    bob.locator('#talk-pop button[data-preset="thumbs"]').click()
    expect(bob.locator("#talk-pop")).to_be_hidden()
    react(bob, "party")
    expect(bob.locator("#talk-note")).to_contain_text("too many messages")
    expect(bob.locator("#talk-pop")).to_be_visible()  # refused: the menu stays, with why
    bubble = ann.locator('.talk-bubble[data-talk-seat="seat-2"]')
    expect(bubble).to_contain_text("\N{THUMBS UP SIGN}")
    expect(watcher.locator('.talk-bubble[data-talk-seat="seat-2"]')).to_be_visible()
    shoot(ann, shots_dir, "talk-bubble-laptop")
    expect(watcher.locator("#log li.talk")).to_have_count(2)

    # the host turns reactions off: Bob is told, and his menu says so
    open_menu(ann)
    ann.locator('.talk-host input[data-setting="reactions"]').uncheck()
    expect(ann.locator('.talk-host input[data-setting="reactions"]')).not_to_be_checked()
    bob.keyboard.press("Escape")
    open_menu(bob)
    expect(bob.locator("#talk-pop .talk-off")).to_have_text("Reactions are off at this table.")
    expect(bob.locator('#talk-pop button[data-preset="gg"]')).to_have_count(0)
    # the watcher's message list holds text only: nothing anybody wrote became markup
    assert watcher.locator("#log li.talk *").evaluate_all(
        "(els) => els.every((e) => ['SPAN', 'B'].includes(e.tagName))")


def test_the_replay_shows_what_was_said_after_each_move(new_context: Any, live_server: str,
                                                        shots_dir: Path) -> None:
    """Ann reacts during a round against three bots; the replay shows the reaction at the
    move it followed, as text, and not at the next."""
    # the bots' names make the deal (tests/e2e/e2e_server.py): Ann goes out at her 15th
    # decision (as of 2026-12), where the unnamed bots' deal took her 59 (half a minute)
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "human", "name": "Ann"}]
                    + [{"kind": "bot", "level": "random", "name": name} for name in "PQR"])
    ann = Seat(new_context(1366, 768).new_page())
    ann.page.goto(game["seats"][0]["link"])
    ann.wait_ready()
    ann.take_turn()
    react(ann.page, "wow")
    expect(ann.page.locator("#log li.talk")).to_have_count(1)
    ann.play_until_over()
    replay = get(live_server, f"/api/games/{game['game_id']}/replay")
    (at,) = [i for i, f in enumerate(replay["frames"]) if f["talk"]]
    assert replay["frames"][at]["seat"] == 0  # after Ann's first move
    # that move, not her next (she moves again after a draw): the first frame of hers
    assert at == min(i for i, f in enumerate(replay["frames"]) if f["seat"] == 0)
    page = new_context(390, 844).new_page()
    page.goto(f"/replay/{game['game_id']}#m={at}")
    expect(page.locator("#replay-talk")).to_have_text("Ann: \N{FACE WITH OPEN MOUTH}")
    shoot(page, shots_dir, "talk-replay-phone")
    page.locator("#next").click()
    expect(page.locator("#replay-talk")).to_be_hidden()
