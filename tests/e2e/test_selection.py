"""Selecting cards asks the server nothing: the melds a selection can join glow from the
view's ``kinds`` (where the engine says each kind in the hand can go), and a card the
engine says can go into no meld shows why when it is melded, without a round trip."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from e2e_helpers import Seat, new_game, shoot
from playwright.sync_api import expect

# the name picks the deal (see e2e_server.py): after some 15 decisions the person's side has
# melds on the table, and the hand holds a kind that can join one, a natural that can join
# none, and a black 3
NAME = "Gwen"


def notation_kind(kind: str) -> str:
    """A kind of the view ("10") as the helpers' card codes name it ("T")."""
    return "T" if kind == "10" else kind


def test_selecting_cards_sends_no_check_and_glows_from_the_view(
        new_context: Any, live_server: str, shots_dir: Path) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    seats=[{"kind": "human", "name": NAME}]
                    + [{"kind": "bot", "level": "hard"}] * 3)
    page = new_context().new_page()
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(
        payload if isinstance(payload, str) else payload.decode())))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(game["seats"][0]["link"])
    seat = Seat(page)
    seat.wait_ready()

    def checks() -> int:
        return sum('"type":"check"' in frame for frame in sent)

    joiner = loner = None
    for _ in range(300):
        point = seat.wait_point()
        assert point != "over", "the round ended before the side had melds"
        view = seat.view()
        if point == "turn" and view["phase"] == "play" and view["melds"][view["side"]]:
            kinds = view["kinds"]
            joiner = next((k for k in kinds if k["melds"]), None)
            loner = next((k for k in kinds if not k["melds"] and k["new"]
                          and k["kind"] not in ("2", "JK")), None)
            if joiner and loner and any(k["kind"] == "B3" for k in kinds):
                break
        seat.take_turn()
    else:
        raise AssertionError("never a hand to try the selection with")
    assert joiner is not None and loner is not None
    assert any('"type":"move"' in frame for frame in sent)  # the frames are seen
    melds = page.locator("#my-side button.tb-meld")
    glowing = page.locator("#my-side button.tb-meld.glow")
    before = checks()

    # a kind that can join a meld: that meld glows (and says so), no other does
    assert seat.select([notation_kind(joiner["kind"])])
    expect(glowing).to_have_count(len(joiner["melds"]))
    for index in joiner["melds"]:
        meld = page.locator(f'#my-side button.tb-meld[data-meld="{index}"]')
        expect(meld).to_have_class(_has("glow"))
        expect(meld).to_have_attribute("aria-label", _ends("your selection can be added"))
    shoot(page, shots_dir, "selection-glow-laptop")
    # a natural that can join none: nothing glows, alone or beside the other
    assert seat.select([notation_kind(loner["kind"])])
    expect(glowing).to_have_count(0)
    assert seat.select([notation_kind(joiner["kind"]), notation_kind(loner["kind"])])
    expect(glowing).to_have_count(0)
    for meld in melds.all():
        expect(meld).not_to_have_attribute("aria-label", _ends("your selection can be added"))
    # back to the one that can join, then cleared
    assert seat.select([notation_kind(joiner["kind"])])
    expect(glowing).to_have_count(len(joiner["melds"]))
    seat.clear_selection()
    expect(glowing).to_have_count(0)

    # a black 3 melded: the engine's reason from the view, nothing sent
    frames = len(sent)
    assert seat.select(["B3"])
    seat.press("meld")
    expect(page.locator("#message")).to_contain_text("threes can never be melded")
    expect(page.locator("#tray")).to_be_hidden()
    page.wait_for_timeout(300)  # a check sent late (as a debounced one was) counts too
    assert checks() == before, [f for f in sent if '"type":"check"' in f]
    assert len(sent) == frames or all('"type":"ping"' in f for f in sent[frames:]), sent[frames:]
    assert not errors, errors


def _has(name: str) -> re.Pattern[str]:
    return re.compile(rf"(^|\s){name}(\s|$)")


def _ends(text: str) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(text)}$")
