"""House rules chosen in the lobby's form: the parameter fields show the rule set's own
values, a change is checked by the engine and the game made with it plays those rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e_helpers import shoot
from playwright.sync_api import expect


def test_a_parameter_changed_in_the_lobby_form_is_checked_and_kept(
        new_context: Any, live_server: str, shots_dir: Path) -> None:
    page = new_context(1366, 900).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/")
    expect(page.locator("#profiles input").first).to_be_attached()
    page.locator("#house-rules input[name='house-mode'][value='form']").check(force=True)
    field = page.locator("#param-clean_book_bonus")
    expect(field).to_be_attached()
    expect(field).to_have_attribute("placeholder", "500")  # partnership-13's own value
    result = page.locator("#check-result")
    field.fill("650")
    page.click("#check-rules")
    expect(result.locator(".notice.ok")).to_contain_text(
        "Clean book bonus: partnership-13 pays 500, your rule set pays 650.")
    field.fill("-5")
    field.press("Tab")  # a change clears the last answer; the engine's reason follows
    expect(result).to_be_empty()
    page.click("#check-rules")
    expect(result.locator(".notice.error")).to_contain_text(
        "clean_book_bonus: -5 is out of range (0 to 100000)")
    # the deal described as the house rules make it, not as the rule set's own 13-card packets
    page.locator("#param-hand_size").fill("5")
    page.locator("#param-foot_size").fill("3")
    page.locator("#param-foot_size").press("Tab")
    expect(page.locator("#quick-summary")).to_contain_text("a 5-card hand and a 3-card foot")
    expect(page.locator("#profiles")).not_to_contain_text("13-card packets")
    # the pile-pickup box takes "all" (the whole pile), checked by the engine
    page.locator("#param-clean_book_bonus").fill("")
    page.locator("#param-pickup_count").fill("all")
    page.locator("#param-pickup_count").press("Tab")
    page.click("#check-rules")
    expect(result.locator(".notice.ok")).to_contain_text("the whole pile")
    page.locator("#quick-summary").scroll_into_view_if_needed()
    shoot(page, shots_dir, "lobby-house-deal-laptop")
    page.locator("#check-result").scroll_into_view_if_needed()
    shoot(page, shots_dir, "lobby-pickup-all-laptop")
    assert errors == []
