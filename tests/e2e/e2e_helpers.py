"""Driving the table page as a person does: ask for a hint, then carry it out by selecting
cards and pressing the buttons (``mode="click"``) or the keys (``mode="keys"``).

The hint is the hard bot's move in the engine's notation (``meld K K K | 9 9 2``); the
:class:`Seat` turns it into what a person does at the table: tap the cards of each group
and press Meld (before the side has opened the groups are staged and laid down together),
tap wild cards and then the meld they join, select the discard and press Discard, and so on.
What the page offers no way to do is counted in ``Seat.fallbacks`` and played another way
(a draw instead of a pickup with extra melds, a legal discard after a refused meld).
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

QUICK = {"hand_size": 5, "foot_size": 3, "clean_books_to_go_out": 0,
         "dirty_books_to_go_out": 0, "wild_books_to_go_out": 0, "partner_condition": "none"}
"""House rules for a short round: small packets, no books needed to go out."""

WILD_KINDS = ("2", "JK")
ACTION_KEYS = {"draw": "d", "pickup": "p", "meld": "m", "add": "a", "discard": "x",
               "goout": "g", "undo": "u", "hint": "h"}


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def get(base: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def new_game(base: str, **body: Any) -> dict[str, Any]:
    return post(base, "/api/games", body)


def kind_of(code: str) -> str:
    """The kind of a card code as the notation writes it: "KS" -> "K", "TD" -> "T",
    "3S" -> "B3", "3H" -> "R3", "JK" -> "JK"."""
    if code == "JK":
        return "JK"
    rank, suit = code[:-1], code[-1]
    if rank == "10":
        return "T"
    if rank == "3":
        return "R3" if suit in "HD" else "B3"
    return rank


def norm_kind(word: str) -> str:
    w = word.upper()
    return {"10": "T", "3": "B3"}.get(w, w)


@dataclass
class Group:
    """One meld group of a hint: ``target`` when it names its meld ("K: 2"), the kinds."""

    kinds: list[str]
    target: str | None = None

    @property
    def wilds_only(self) -> bool:
        return all(k in WILD_KINDS for k in self.kinds)


def parse_groups(text: str) -> list[Group]:
    groups = []
    for part in text.split("|"):
        words = part.replace(":", ": ").split()
        target = None
        kinds = []
        for w in words:
            if w.lower() == "new":
                continue
            if w.endswith(":"):
                target = norm_kind(w[:-1])
            else:
                kinds.append(norm_kind(w))
        groups.append(Group(kinds, target))
    return groups


def split_hint(move: str) -> tuple[str, list[Group], str | None]:
    """(kind, groups, discard kind) of a move in the notation."""
    words = move.split(None, 1)
    kind = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    discard = None
    if kind == "goout" and " discard " in f" {rest} ":
        rest, _, d = f" {rest} ".rpartition(" discard ")
        discard = norm_kind(d.strip())
    if kind == "discard":
        return kind, [], norm_kind(rest.strip())
    groups = parse_groups(rest) if rest.strip() else []
    return kind, groups, discard


JS_POINT = """() => {
  const a = window.handfoot && window.handfoot.app, v = a && a.view;
  if (!v || a.busy) return null;
  if (v.phase === 'game_over' || a.waiting) return 'over';
  if (a.seat === null || a.seat === undefined) return null;
  if (v.legal && v.legal.answer) return 'answer';
  if (v.to_act === a.seat && (v.phase === 'draw' || v.phase === 'play')) return 'turn';
  return null;
}"""


@dataclass
class Seat:
    """One person's table page."""

    page: Page
    mode: str = "click"  # or "keys"
    fallbacks: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    moves_sent: int = 0

    # -- reading the page ---------------------------------------------------------------

    def app(self, expr: str) -> Any:
        return self.page.evaluate(f"() => {{ const a = window.handfoot.app; return {expr}; }}")

    def view(self) -> dict[str, Any]:
        return self.app("a.view")  # type: ignore[no-any-return]

    def seq(self) -> int:
        return int(self.app("a.seq"))

    def hand(self) -> list[str]:
        return list(self.app("a.view.hand"))

    def wait_ready(self) -> None:
        """Until the page has its first state."""
        self.page.wait_for_function("() => window.handfoot && window.handfoot.app.view")

    def wait_point(self, timeout: float = 60_000) -> str:
        """Until this seat has something to do: 'turn', 'answer', or 'over'."""
        handle = self.page.wait_for_function(JS_POINT, timeout=timeout)
        return str(handle.json_value())

    # -- doing things ---------------------------------------------------------------------

    def press(self, action: str) -> None:
        """A move button, clicked or by its key."""
        if self.mode == "keys":
            self.page.keyboard.press(ACTION_KEYS[action])
        else:
            self.page.locator(f'#actions button[data-action="{action}"]').click()

    def _mark(self) -> None:
        self.page.evaluate("() => { window.__e2eMessage = window.handfoot.app.message; }")

    def state(self) -> str:
        """What the page is at, for failure messages."""
        return str(self.app("JSON.stringify({seq: a.seq, busy: a.busy, phase: a.view.phase,"
                            " to_act: a.view.to_act, message: a.message, hand: a.view.hand,"
                            " tray: a.tray, selection: [...a.selection], hints: null})")) \
            + f" hints: {self.hints[-5:]}"

    def _settle(self, before: int) -> bool:
        """After a move was sent: True once the table moved on, False on a refusal."""
        try:
            return self._wait_settled(before)
        except Exception as exc:
            raise AssertionError(f"no answer to a move: {self.state()}") from exc

    def _wait_settled(self, before: int) -> bool:
        handle = self.page.wait_for_function(
            """(before) => { const a = window.handfoot.app;
              if (a.busy) return null;
              if (a.seq > before) return 'ok';
              if (a.message && a.message !== window.__e2eMessage) return 'message';
              return null; }""", arg=before)
        ok = handle.json_value() == "ok"
        if ok:
            self.moves_sent += 1
        return ok

    def act(self, action: str) -> bool:
        """Press a move button and wait for the answer."""
        before = self.seq()
        self._mark()
        self.press(action)
        return self._settle(before)

    def selected(self) -> list[str]:
        return list(self.page.evaluate(
            "() => [...document.querySelectorAll('#hand .hand-card.selected')]"
            ".map(b => b.dataset.key)"))

    def clear_selection(self) -> None:
        if not self.selected():
            return
        if self.mode == "keys":
            self.page.keyboard.press("Escape")
        else:
            self.page.locator('#actions [data-action="clear"]').click()
        expect(self.page.locator("#hand .hand-card.selected")).to_have_count(0)

    def select(self, kinds: list[str]) -> bool:
        """Select one card of the hand for each kind (with repeats); False if the hand
        lacks them."""
        self.clear_selection()
        keys = self.page.evaluate(
            "() => [...document.querySelectorAll('#hand .hand-card')].map(b => b.dataset.key)")
        want: list[str] = []
        free = list(keys)
        for k in kinds:
            match = next((key for key in free if kind_of(key.split("#")[0]) == k), None)
            if match is None:
                return False
            free.remove(match)
            want.append(match)
        for key in want:
            self._toggle(key)
        try:
            expect(self.page.locator("#hand .hand-card.selected")).to_have_count(len(want))
        except AssertionError as exc:
            raise AssertionError(f"{want} not selected: {self.state()}") from exc
        return True

    def _toggle(self, key: str) -> None:
        card = self.page.locator(f'#hand .hand-card[data-key="{key}"]')
        if self.mode != "keys":
            # cards overlap: tap the visible top-left corner, as a person does
            card.click(position={"x": 8, "y": 10})
        else:
            page = self.page
            focused = lambda: page.evaluate(  # noqa: E731
                "() => document.activeElement && document.activeElement.dataset"
                " && document.activeElement.dataset.key || null")
            for _ in range(80):
                if focused():
                    break
                page.keyboard.press("Tab")
            else:
                raise AssertionError("Tab never reached the hand")
            for _ in range(80):
                keys = page.evaluate(
                    "() => [...document.querySelectorAll('#hand .hand-card')]"
                    ".map(b => b.dataset.key)")
                here = keys.index(focused())
                there = keys.index(key)
                if here == there:
                    break
                page.keyboard.press("ArrowRight" if there > here else "ArrowLeft")
            page.keyboard.press("Enter")
        expect(card).to_have_attribute("aria-pressed", "true")

    def drag_discard(self, kind: str) -> bool:
        """Discard by dragging the card onto the pile, as on a touch screen."""
        key = self.page.evaluate(
            "(kind) => [...document.querySelectorAll('#hand .hand-card')].map(b => b.dataset.key)",
            kind)
        key = next(k for k in key if kind_of(k.split("#")[0]) == kind)
        card = self.page.locator(f'#hand .hand-card[data-key="{key}"]').bounding_box()
        pile = self.page.locator("#pile-btn").bounding_box()
        assert card is not None and pile is not None
        before = self.seq()
        self._mark()
        mouse = self.page.mouse
        mouse.move(card["x"] + 10, card["y"] + 12)
        mouse.down()
        mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=8)
        mouse.up()
        return self._settle(before)

    def hint(self) -> str:
        """Ask for a hint (button or H) and read the move it shows: the hint is in words,
        its notation on the element (``data-move``); while the partner's question is open
        the hint shows in its dialog, which has its own Hint button."""
        asking = self.page.locator("#dlg-ask").is_visible()
        box = self.page.locator("#ask-hint" if asking else "#message.hint")
        self.page.evaluate("() => { window.__e2eHint = window.handfoot.app.hint; }")
        if self.mode == "keys":
            self.page.keyboard.press("h")
        elif asking:
            self.page.locator("#ask-hint-btn").click()
        else:
            self.page.locator('#actions button[data-action="hint"]').click()
        self.page.wait_for_function(
            "() => window.handfoot.app.hint && window.handfoot.app.hint !== window.__e2eHint")
        expect(box).to_be_visible()
        text = box.locator(".hint-move").get_attribute("data-move") or ""
        self.hints.append(text)
        return text

    def answer(self, yes: bool) -> bool:
        dialog = self.page.locator("#dlg-ask")
        expect(dialog).to_be_visible()
        before = self.seq()
        self._mark()
        if self.mode == "keys":
            self.page.keyboard.press("y" if yes else "n")
        else:
            self.page.locator("#ask-yes" if yes else "#ask-no").click()
        return self._settle(before)

    def opened(self) -> bool:
        return bool(self.app("a.view.opened[a.view.side]"))

    def stage(self, group: Group) -> bool:
        """Before opening: the group's cards to the staged melds (Meld)."""
        n = len(self.page.locator("#tray .tray-group").all())
        if not self.select(group.kinds):
            return False
        self.press("meld")
        try:
            expect(self.page.locator("#tray .tray-group")).to_have_count(n + 1)
        except AssertionError as exc:
            raise AssertionError(f"{group.kinds} not staged: {self.state()}") from exc
        return True

    def lay_down(self) -> bool:
        """The staged melds laid down together (M with nothing selected, or the button)."""
        before = self.seq()
        self._mark()
        if self.mode == "keys":
            self.clear_selection()
            self.page.keyboard.press("m")
        else:
            self.page.locator("#btn-laydown").click()
        return self._settle(before)

    def meld_group(self, group: Group) -> bool:
        """One group onto the table after the side has opened."""
        if not self.select(group.kinds):
            return False
        if group.target is not None and group.wilds_only:
            target = "10" if group.target == "T" else group.target
            meld = self.page.locator(
                f'#my-side button.tb-meld:not(.book)[data-target="{target}"]')
            before = self.seq()
            self._mark()
            if self.mode == "keys":
                # the meld the selection can join glows; A adds to it, or Enter on the meld
                expect(self.page.locator("#my-side .tb-meld.glow").first).to_be_visible()
                if self.page.locator("#my-side .tb-meld.glow").count() == 1:
                    self.page.keyboard.press("a")
                else:
                    meld.focus()
                    self.page.keyboard.press("Enter")
            else:
                meld.click()
            return self._settle(before)
        return self.act("meld")

    def do(self, move: str) -> bool:
        """Carry out a hinted move through the page; False if the page refused it."""
        kind, groups, discard = split_hint(move)
        if kind == "draw":
            return self.act("draw")
        if kind in ("yes", "no"):
            return self.answer(kind == "yes")
        if kind == "discard":
            assert discard is not None
            return self.select([discard]) and self.act("discard")
        if kind == "pickup":
            # the melds that go down with the pickup are staged first (M), then the cards
            # that go with the top card are selected and the pile taken (P)
            first = groups[0] if groups else Group([])
            for g in groups[1:]:
                if not self.stage(g):
                    self.fallbacks.append(f"{move}: {g.kinds} not all in the hand")
                    break
            if not self.select(first.kinds):
                return False
            return self.act("pickup")
        if kind == "meld":
            if not self.opened():
                return all(self.stage(g) for g in groups) and self.lay_down()
            return all(self.meld_group(g) for g in groups)
        if kind == "goout":
            if not self.opened():
                if not all(self.stage(g) for g in groups):
                    return False
                last: list[str] = [discard] if discard else []
            else:
                # meld group by group; one that would leave fewer than two cards is staged
                # (M does that then), and Go out lays the staged groups down
                left = len(self.hand())
                for g in sorted(groups, key=lambda g: g.target is None):
                    left -= len(g.kinds)
                    if not (self.meld_group(g) if left >= 2 else self.stage(g)):
                        return False
                last = [discard] if discard else []
            if last and not self.select(last):
                return False
            return self.act("goout")
        raise AssertionError(f"no way to play {move!r}")

    def fallback(self, move: str) -> None:
        """A hinted move the page refused: draw, or a legal discard."""
        message = self.page.locator("#message").inner_text() \
            if self.page.locator("#message").is_visible() else ""
        self.fallbacks.append(f"refused: {move}: {message.strip()}")
        self.clear_selection()
        view = self.view()
        if view["legal"].get("draw"):
            assert self.act("draw"), "the page refused a draw"
            return
        allowed = {norm_kind(k) for k in view["legal"].get("discard") or []}
        for code in sorted(self.hand()):
            if kind_of(code) in allowed and self.select([kind_of(code)]) \
                    and self.act("discard"):
                return
        raise AssertionError(f"stuck after the refused move {move!r}")

    def take_turn(self) -> str:
        """One decision of this seat, by hint. Returns the point it was at."""
        point = self.wait_point()
        if point == "over":
            return point
        move = self.hint()
        if not self.do(move):
            self.fallback(move)
        return point

    def play_until_over(self, limit: int = 400) -> None:
        for _ in range(limit):
            if self.take_turn() == "over":
                return
        raise AssertionError("the round did not end")


def shoot(page: Page, out: Path, name: str, *, full: bool = False) -> Path:
    """A PNG of the viewport; with Pillow at hand, in 256 colours (a fifth of the size)."""
    path = out / f"{name}.png"
    page.screenshot(path=str(path), full_page=full, animations="disabled", caret="hide")
    try:
        from PIL import Image
    except ImportError:
        return path
    with Image.open(path) as im:
        small = im.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)
    small.save(path, optimize=True)
    return path


def to_act(observer: Seat, people: set[int], since: int = 0) -> int | None:
    """Once one of ``people`` is to act (or the round is over, None), as ``observer``'s page
    sees the table once it has seen move ``since`` (the last move made through another page:
    the observer's own copy of the table may still be a move behind, saying the mover is
    still to act)."""
    handle = observer.page.wait_for_function(
        """([people, since]) => { const a = window.handfoot.app, v = a.view;
          if (!v || a.seq < since) return null;
          if (v.phase === 'game_over' || a.waiting) return {over: true};
          return people.includes(v.to_act) ? {seat: v.to_act} : null; }""",
        arg=[sorted(people), since], timeout=60_000)
    value = handle.json_value()
    return None if value.get("over") else int(value["seat"])


def play_table(seats: dict[int, Seat], decisions: int = 600) -> int:
    """Several people at one table, each by hints through their own page, until the round
    is over or ``decisions`` were made; returns the decisions made."""
    observer = next(iter(seats.values()))
    since = 0
    for n in range(decisions):
        seat = to_act(observer, set(seats), since)
        if seat is None:
            return n
        seats[seat].take_turn()
        since = seats[seat].seq()
    return decisions
