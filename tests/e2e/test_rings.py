"""Only the seat to act is ringed: a seat that has just moved shows where its move landed
without a ring like the turn marker's (two or three seats were ringed at once)."""

from __future__ import annotations

from typing import Any

from e2e_helpers import QUICK, Seat, new_game

RINGED = """() => [...document.querySelectorAll('.seat-panel, .me-name')]
  .filter((el) => getComputedStyle(el).boxShadow !== 'none'
                  || getComputedStyle(el).animationName !== 'none')
  .map((el) => (el.classList.contains('turn') ? 'turn ' : 'other ') + el.className)"""


def test_only_the_seat_to_act_is_ringed(new_context: Any, live_server: str) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "human", "name": "Ria"}]
                    + [{"kind": "bot", "level": "easy"}] * 3)
    page = new_context().new_page()
    page.goto(game["seats"][0]["link"])
    seat = Seat(page)
    seat.wait_ready()
    seen: list[list[str]] = []
    for _ in range(12):
        if seat.take_turn() == "over" or len(seen) == 3:
            break
        if seat.wait_point() != "turn" or seat.view()["phase"] != "draw":
            continue  # still this seat's turn
        # the bots moved in between; their panels flash where the moves landed
        page.wait_for_function("() => document.querySelector('.seat-panel.flash')")
        seen.append(page.evaluate(RINGED))
    assert seen
    assert all(all(r.startswith("turn ") for r in rings) for rings in seen), seen
