"""The lobby's bot levels: each with its rating where one is measured, and the learned
level saying when it plays untuned (rules that extend no built-in rule set) and when it
plays the style of the rule set house rules extend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e_helpers import shoot
from playwright.sync_api import expect

from handfoot.web.app import level_ratings

PROFILES = Path(__file__).resolve().parents[2] / "src" / "handfoot" / "game" / "profiles"
UNTUNED = "learned (untuned here: as hard)"


def _label(base: str, level: str) -> str:
    rating = level_ratings().get(level)
    return f"{base} · rating {rating:.1f}" if rating is not None else base


def test_learned_says_when_it_plays_untuned_and_levels_show_their_ratings(
        new_context: Any, live_server: str, shots_dir: Path) -> None:
    page = new_context(1366, 900).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/")
    expect(page.locator("#profiles input").first).to_be_attached()
    learned = page.locator("#seat-1-kind option[value='bot:learned']")
    hard = page.locator("#seat-1-kind option[value='bot:hard']")
    expect(learned).to_have_text("Bot: " + _label("learned (tuned by self-play)", "learned"))
    expect(hard).to_have_text("Bot: " + _label("hard", "hard"))
    expect(page.locator("#all-bots option[value='learned']")).to_have_text(
        _label("learned (tuned by self-play)", "learned"))
    page.select_option("#seat-1-kind", "bot:learned")
    # a complete rule set of the family's own, related to no built-in one: untuned
    text = (PROFILES / "biegames.toml").read_text(encoding="utf-8")
    homebrew = text.replace('name = "biegames"', 'name = "homebrew"', 1)
    page.locator("#house-rules input[name='house-mode'][value='toml']").check(force=True)
    page.locator("#toml-text").fill(homebrew)
    page.click("#check-rules")
    expect(page.locator("#check-result .notice.ok")).to_be_visible()
    learned = page.locator("#seat-1-kind option[value='bot:learned']")
    expect(learned).to_have_text("Bot: " + _label(UNTUNED, "learned"))
    expect(page.locator("#all-bots option[value='learned']")).to_have_text(
        _label(UNTUNED, "learned"))
    expect(page.locator("#seat-1-kind")).to_have_value("bot:learned")  # the choice is kept
    page.locator("#seats").scroll_into_view_if_needed()
    shoot(page, shots_dir, "lobby-learned-untuned-laptop")
    # house rules extending a built-in rule set play its style: tuned again
    page.locator("#toml-text").fill('extends = "bicycle"\n[game]\nrounds = 2\n')
    expect(page.locator("#seat-1-kind option[value='bot:learned']")).to_have_text(
        "Bot: " + _label("learned (tuned by self-play)", "learned"))
    page.click("#check-rules")
    expect(page.locator("#check-result .notice.ok")).to_be_visible()
    expect(page.locator("#seat-1-kind option[value='bot:learned']")).to_have_text(
        "Bot: " + _label("learned (tuned by self-play)", "learned"))
    assert errors == []
