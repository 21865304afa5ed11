"""The score keeper in a browser on a phone-sized screen: a three-round sheet made from the
lobby's "Keep score" link, rounds entered by total and by card, an impossible round
refused with its reason and nothing typed lost, a correction kept in the history, the
read-only link on a second phone following live, and the winner with the totals chart.

Screenshots (score-*.png) go to $HANDFOOT_SCREENSHOTS or a temporary folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e_helpers import get, post, shoot
from playwright.sync_api import Page, expect

PHONE = (390, 844)


def fill_side(page: Page, side: int, values: dict[str, str]) -> None:
    for key, value in values.items():
        page.fill(f"#s{side}-{key}", value)


def by_card(page: Page, side: int, part: str) -> None:
    page.locator(f"#side-entry-{side} input[name='s{side}-{part}-mode'][value='cards']") \
        .check(force=True)


def test_a_three_round_score_sheet_on_a_phone(new_context: Any, live_server: str,
                                              shots_dir: Path) -> None:
    keeper = new_context(*PHONE).new_page()
    errors: list[str] = []
    keeper.on("pageerror", lambda exc: errors.append(str(exc)))
    keeper.goto("/")
    keeper.click("#keep-score")
    expect(keeper.locator("#sheet-profile option").first).to_be_attached()
    keeper.select_option("#sheet-profile", "remastered-teams")
    keeper.fill("#sheet-title", "Friday cards")
    keeper.fill("#sheet-rounds", "3")
    for field, name in (("side-0", "Us"), ("player-0-0", "Ann"), ("player-0-1", "Bo"),
                        ("side-1", "Them"), ("player-1-0", "Cy"), ("player-1-1", "Di")):
        keeper.fill(f"#{field}", name)
    shoot(keeper, shots_dir, "score-new-phone")
    keeper.click("#make-sheet")
    expect(keeper.locator("#entry-title")).to_have_text("Round 1")
    assert "#k=" in keeper.url
    keeper.fill("#who", "Ann")

    # round 1: "Us" go out (books, melded as a total); "Them" count their cards by card
    keeper.locator("#went-out input[value='0']").check(force=True)
    fill_side(keeper, 0, {"books-clean": "3", "books-dirty": "3", "books-wild": "1",
                          "red-threes": "1", "melded-total": "1450"})
    fill_side(keeper, 1, {"books-dirty": "1"})
    by_card(keeper, 1, "melded")
    fill_side(keeper, 1, {"melded-K": "5", "melded-Q": "4", "melded-2": "1"})
    by_card(keeper, 1, "left")
    fill_side(keeper, 1, {"left-A": "2", "left-black3": "1"})
    keeper.evaluate("() => document.getElementById('entry').scrollIntoView()")
    shoot(keeper, shots_dir, "score-round-phone")
    keeper.evaluate("() => document.getElementById('side-entry-1').scrollIntoView()")
    shoot(keeper, shots_dir, "score-entry-phone")
    keeper.click("#save-round")
    expect(keeper.locator("#entry-title")).to_have_text("Round 2")
    expect(keeper.locator("#round-1 caption")).to_have_text("Round 1: Us went out")

    # a second phone opens the read-only link
    share_link = keeper.input_value("#share-link")
    table = new_context(*PHONE).new_page()
    table.on("pageerror", lambda exc: errors.append(str(exc)))
    table.goto(share_link)
    expect(table.locator("#round-1")).to_be_visible()
    expect(table.locator("#entry")).to_be_hidden()
    expect(table.locator("text=Correct round 1")).to_have_count(0)

    # round 2: two sides going out is refused; what was typed stays
    keeper.locator("#went-out input[value='1']").check(force=True)
    fill_side(keeper, 0, {"books-clean": "1", "melded-total": "600", "left-total": "-5"})
    fill_side(keeper, 1, {"books-clean": "1", "books-dirty": "1"})
    keeper.click("#save-round")
    error = keeper.locator("#round-error")
    expect(error).to_contain_text("Them cannot have gone out: it still lacks")
    shoot(keeper, shots_dir, "score-error-phone")
    assert keeper.input_value("#s0-melded-total") == "600"  # nothing typed is lost
    fill_side(keeper, 0, {"left-total": "45"})
    fill_side(keeper, 1, {"books-clean": "3", "books-dirty": "3", "books-wild": "1",
                          "melded-total": "1800"})
    keeper.click("#save-round")
    expect(keeper.locator("#entry-title")).to_have_text("Round 3")
    expect(table.locator("#round-2")).to_be_visible()  # the table's phone follows live

    # round 3 ends the game
    keeper.locator("#went-out input[value='1']").check(force=True)
    fill_side(keeper, 0, {"books-dirty": "2", "melded-total": "700", "left-total": "120"})
    fill_side(keeper, 1, {"books-clean": "4", "books-dirty": "3", "books-wild": "1",
                          "melded-total": "2100", "red-threes": "2"})
    keeper.click("#save-round")
    expect(keeper.locator("#winner")).to_contain_text("The game is over: Them wins")
    expect(keeper.locator("#entry")).to_be_hidden()
    expect(keeper.locator("#chart svg")).to_be_visible()

    # a correction to round 1, kept in the history
    keeper.click("text=Correct round 1")
    expect(keeper.locator("#entry-title")).to_have_text("Correct round 1")
    assert keeper.input_value("#s1-melded-K") == "5"  # the entry as it was
    fill_side(keeper, 1, {"left-A": "1"})
    keeper.click("#save-round")
    expect(keeper.locator("#change-count")).to_have_text("4")
    keeper.locator("#history summary").click()
    expect(keeper.locator("#history-list")).to_contain_text("Correction to 1 by Ann")
    expect(keeper.locator("#change-count")).to_have_text("4")

    expect(table.locator("#winner")).to_contain_text("The game is over: Them wins")
    expect(table.locator("#change-count")).to_have_text("4")
    totals = [table.locator("#totals tbody tr").nth(i).locator("td.total").inner_text()
              for i in range(2)]
    assert totals == [keeper.locator("#totals tbody tr").nth(i).locator("td.total")
                      .inner_text() for i in range(2)]
    table.evaluate("() => window.scrollTo(0, 0)")
    shoot(table, shots_dir, "score-share-phone")
    keeper.evaluate("() => document.getElementById('round-3').scrollIntoView()")
    shoot(keeper, shots_dir, "score-breakdown-phone")
    assert errors == []


def test_many_players_on_a_phone_and_a_laptop(new_context: Any, live_server: str,
                                              shots_dir: Path) -> None:
    """Four players with long names: on a phone the round tables keep their labels readable
    and in view while the players' columns scroll sideways (the last player's column was
    cut off and the labels squeezed to a word a line); "Player" heads the totals; the
    history's summary reads "Every change (2)"."""
    names = ["Grandma Josephine", "Uncle Bartholomew", "Cousin Maximiliana", "Ed"]
    sheet = post(live_server, "/api/scores", {"profile": "remastered-singles",
                                              "layout": "4x1", "sides": names,
                                              "title": "Thanksgiving at the lake house"})
    token = sheet["edit_link"].split("#k=")[1]
    for number, out in ((1, 0), (2, 3)):
        entries: list[dict[str, Any]] = [{"melded": 300, "left": 45} for _ in names]
        entries[out] = {"books": {"clean": 1, "dirty": 1}, "went_out": True, "melded": 1230}
        post(live_server, f"/api/scores/{sheet['sheet_id']}/rounds/{number}",
             {"token": token, "who": "Ann", "entries": entries})
    errors: list[str] = []
    for label, size in (("phone", PHONE), ("laptop", (1366, 800))):
        page = new_context(*size).new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(sheet["edit_link"])
        expect(page.locator("#round-2")).to_be_visible()
        expect(page.locator("#totals thead th").first).to_have_text("Player")
        expect(page.locator("#history summary")).to_have_text("Every change (2)")
        table = page.locator("#round-2 table.breakdown")
        label_width = table.locator("tbody th").first.evaluate(
            "e => e.getBoundingClientRect().width")
        assert label_width >= 8 * 16, label_width  # "Cards on the table" on one line
        scroller = page.locator("#round-2 .table-scroll")
        hint = page.locator(".scroll-hint")
        if label == "phone":
            expect(hint).to_be_visible()
            assert scroller.evaluate("e => e.scrollWidth > e.clientWidth")
            scroller.evaluate("e => e.scrollLeft = e.scrollWidth")
            ed = table.locator("thead tr").first.locator("th").last
            expect(ed).to_have_text("Ed")
            box = ed.bounding_box()
            assert box is not None and box["x"] + box["width"] <= size[0]
            first = table.locator("tbody th").first.bounding_box()
            assert first is not None and first["x"] >= 0  # the labels stayed in view
            expect(page.locator("#round-2 .round-title")).to_have_text("Round 2: Ed went out")
            title = page.locator("#round-2 .round-title").bounding_box()
            assert title is not None and title["x"] >= 0  # not scrolled away with the table
            page.locator("#round-2").scroll_into_view_if_needed()
            shoot(page, shots_dir, "score-many-phone")
            # what is typed into a number field but is no number is refused, not taken as 0
            page.locator("#s0-red-threes").click()
            page.keyboard.type("1e")
            page.click("#save-round")
            expect(page.locator("#round-error")).to_have_text(
                "Grandma Josephine: red 3s laid: a whole number, not '?'")
        else:
            expect(hint).to_be_hidden()
            assert not scroller.evaluate("e => e.scrollWidth > e.clientWidth")
            page.locator("#round-2").scroll_into_view_if_needed()
            shoot(page, shots_dir, "score-many-laptop")
        assert errors == []


def test_single_rules_are_changed_in_the_new_sheet_form_as_in_a_new_game(
        new_context: Any, live_server: str, shots_dir: Path) -> None:
    """The new-sheet form offers every single parameter the new-game form does (the scoring
    ones first); a value out of range is refused with the reason, a good one is the sheet's."""
    page = new_context(*PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/score")
    expect(page.locator("#sheet-profile option").first).to_be_attached()
    page.select_option("#sheet-profile", "biegames")
    page.locator("#sheet-options > summary").click()
    page.locator("#sheet-params > summary").click()
    expect(page.locator("#params-list h4").first).to_have_text("scoring")
    bonus = page.locator("#param-clean_book_bonus")
    expect(bonus).to_have_attribute("placeholder", "500")  # biegames' own value
    page.fill("#param-book_size", "99")
    page.click("#make-sheet")
    expect(page.locator("#new-error")).to_contain_text("book_size")
    page.fill("#param-book_size", "")
    bonus.fill("600")
    bonus.scroll_into_view_if_needed()
    shoot(page, shots_dir, "score-rules-phone")
    page.click("#make-sheet")
    expect(page.locator("#entry-title")).to_have_text("Round 1")
    sheet_id = page.url.split("/score/")[1].split("#")[0]
    data = get(live_server, f"/api/scores/{sheet_id}")
    assert data["profile"] == "biegames" and data["overrides"] == {"clean_book_bonus": 600}
    assert errors == []
