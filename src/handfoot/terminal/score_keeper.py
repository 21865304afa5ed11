"""``handfoot score``: the score keeper in the terminal (see docs/score-keeper.md).

The same sheet as the web page's (:mod:`handfoot.game.scoresheet`), kept in a JSON file that is
written after every round and every correction: each side's count is asked for line by line
(Enter keeps the value shown in brackets, so an answer refused never has to be typed again),
the round is checked as a whole, and the breakdown, the running totals and the next round's
opening minimums follow. ``c N`` corrects round N; every change is kept in the file's
``changes`` (who, when, before, after).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from handfoot.game.scoresheet import (
    MAX_NAME,
    ScoreSheet,
    ScoreSheetError,
    clean_name,
    entry_form,
    read_entry,
    score_json,
)
from handfoot.terminal.breakdown import BreakdownRow, breakdown_text

__all__ = ["MAX_DIGITS", "ScoreKeeper", "parse_whole", "plain_reader"]

Read = Callable[[str], str]

MAX_DIGITS: Final = 7
"""The most digits a number typed at the score keeper has (a round's points total is far
below 10 million)."""

_WHOLE = re.compile(r"[+-]?[0-9]+")


def parse_whole(text: str) -> int:
    """A whole number typed by a person: ASCII digits only (``²`` or ``٣`` are not), at most
    :data:`MAX_DIGITS` of them, an optional sign; a :class:`ValueError` says what is wrong
    in a player's words.

    >>> parse_whole("-45"), parse_whole("+3")
    (-45, 3)
    """
    text = text.strip()
    if not _WHOLE.fullmatch(text):
        raise ValueError(f"{text[:20]!r} is not a whole number: type digits, like 3")
    if len(text.lstrip("+-")) > MAX_DIGITS:
        raise ValueError(f"a number of at most {MAX_DIGITS} digits, not "
                         f"{len(text.lstrip('+-'))}")
    return int(text)


def plain_reader(console: Console) -> Read:
    """``console.input`` with its prompt shown as typed: names and answers in a prompt are
    never read as Rich markup (``[red]Gran`` stays ``[red]Gran``)."""
    def read(prompt: str) -> str:
        return console.input(prompt, markup=False, emoji=False)
    return read


class _LeaveRound(Exception):
    """``q`` typed while a round is counted: back to the sheet, the round not stored."""


class ScoreKeeper:
    """One sheet kept at the terminal: ``run()`` asks for rounds until the game is over or
    the keeper quits; the sheet is saved to ``path`` after every change.

    A new round left half counted (``q``, Ctrl-C, the end of input) is kept in the file as
    its ``draft``, and its answers come back in brackets when that round is counted again:
    nothing typed is lost."""

    def __init__(self, sheet: ScoreSheet, path: Path, *, read: Read, console: Console,
                 who: str = "", changes: list[dict[str, Any]] | None = None,
                 draft: dict[str, Any] | None = None, command: str = "handfoot score") -> None:
        self.sheet = sheet
        self.command = command
        """How the keeper started this, for the line that says how to go on."""
        self.path = path
        self.read = read
        self.console = console
        self.who = who
        self.changes = changes or []
        self.draft = draft
        self.form = entry_form(sheet.profile)

    @classmethod
    def open(cls, path: Path, *, read: Read, console: Console) -> ScoreKeeper:
        """A sheet saved before (its rounds and its history of changes)."""
        data = json.loads(path.read_text(encoding="utf-8"))
        sheet = ScoreSheet.from_json(data)
        draft = data.get("draft")
        if not (isinstance(draft, dict) and draft.get("round") == len(sheet.rounds) + 1
                and isinstance(draft.get("entries"), list)
                and len(draft["entries"]) == len(sheet.sides)
                and all(isinstance(e, dict) for e in draft["entries"])):
            draft = None  # none, or no longer the next round's
        changes = list(data.get("changes") or [])
        # the keeper's name, kept in the file (or the last change's): not asked again
        who = data.get("keeper")
        if not isinstance(who, str) or not who:
            last = changes[-1] if changes and isinstance(changes[-1], dict) else {}
            who = last.get("who") if isinstance(last.get("who"), str) else ""
        return cls(sheet, path, read=read, console=console, changes=changes, draft=draft,
                   who=clean_name(who)[:MAX_NAME])

    def save(self) -> None:
        data = self.sheet.json()
        data["changes"] = self.changes
        if self.who:
            data["keeper"] = self.who
        if self.draft is not None:
            data["draft"] = self.draft
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        tmp.replace(self.path)

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def run(self) -> int:
        """Keep score; 0 once the game is over, 1 if the keeper quits first (or the input
        ends: a new round half typed is kept as the file's draft, not stored as a round)."""
        try:
            return self._run()
        except (EOFError, KeyboardInterrupt):
            self.say("")
            kept = "" if self.draft is None else (
                f" (with your answers so far for round {self.draft['round']})")
            self.say(f"Stopped. The sheet is saved in {self.path}{kept}; {self.command} "
                     f"--sheet {self.path} goes on with it.")
            return 1

    def _run(self) -> int:
        self.show_totals()
        ended = False
        while True:
            view = self.sheet.view()
            if view.over and not ended:
                self.show_end()
            ended = view.over
            if ended:
                answer = self.read("c N corrects round N; csv FILE exports; Enter ends > ")
            else:
                answer = self.read(f"Enter to count round {view.next_round}; c N corrects "
                                   "round N; csv FILE exports; q quits > ")
            answer = answer.strip()
            if ended and answer.lower() in ("", "q", "quit"):
                return 0
            if answer.lower() in ("q", "quit"):
                self.say(f"The sheet is saved in {self.path}; {self.command} --sheet "
                         f"{self.path} goes on with it.")
                return 1
            if answer.lower().startswith("csv"):
                target = answer[3:].strip() or str(self.path.with_suffix(".csv"))
                try:
                    Path(target).write_text(self.sheet.csv(), encoding="utf-8")
                except OSError as exc:
                    self.say(f"Not written: {target}: {exc.strerror}")
                    continue
                self.say(f"written to {target}")
                continue
            if answer.lower().startswith("c"):
                try:
                    number = parse_whole(answer[1:])
                except ValueError:
                    number = 0
                if not 1 <= number <= len(self.sheet.rounds):
                    self.say(f"c N: N is a round already entered (1 to "
                             f"{len(self.sheet.rounds)})")
                    continue
                self.enter_round(number)
                continue
            if answer:
                self.say("Type c N to correct round N, csv FILE to export, or press Enter "
                         "to end." if ended else
                         "Press Enter to count the next round, or type c N, csv FILE or q.")
                continue
            assert view.next_round is not None
            self.enter_round(view.next_round)

    def enter_round(self, number: int) -> None:
        """Ask for a round's counts until the round can be right, then store it."""
        sheet = self.sheet
        correcting = number <= len(sheet.rounds)
        before = [e.json() for e in sheet.rounds[number - 1]] if correcting else None
        drafts: list[dict[str, Any]] = [dict(e) for e in before] if before else \
            [{} for _ in sheet.sides]
        if not correcting and self.draft is not None and self.draft.get("round") == number:
            drafts = [dict(e) for e in self.draft["entries"]]
            self.say("Your answers from last time come back in brackets.")
        if not self.who:
            self.who = clean_name(self.read("Your name (kept with each change) > "))[
                :MAX_NAME] or "keeper"
        self.say(f"Round {number}" + (" (correction)" if correcting else "") + ": count "
                 "each side; Enter keeps the value in brackets; q leaves the round unsaved.")
        wrong: set[tuple[int, str]] | None = None  # the answers to ask again (None: all)
        while True:
            try:
                if wrong is None or any(part == "went_out" for _, part in wrong):
                    out = self.ask_went_out(drafts)
                    for side, draft in enumerate(drafts):
                        draft["went_out"] = side == out
                for side, draft in enumerate(drafts):
                    parts = None if wrong is None else {p for s, p in wrong if s == side}
                    if parts is None or parts - {"went_out"}:
                        self.ask_side(side, draft, parts)
            except _LeaveRound:
                if correcting:
                    self.say(f"Round {number} left unsaved; it stays as it was.")
                else:
                    self.keep_draft(number, drafts)
                    self.say(f"Round {number} left unsaved; your answers are kept for when "
                             "you count it.")
                return
            except (EOFError, KeyboardInterrupt):
                if not correcting:
                    self.keep_draft(number, drafts)
                raise
            entries, problems = sheet.round_problems(drafts, number)
            if not problems:
                break
            self.say("Not saved: " + ("this cannot be right:" if len(problems) == 1 else
                                      f"{len(problems)} things cannot be right:"))
            for problem in problems:
                self.say(f"  - {problem.message}")
            self.say("Your answers are kept: give again only the ones these concern.")
            wrong = {x for problem in problems for x in problem.parts}
        after = [e.json() for e in entries]
        if before == after:
            self.say("Nothing changed.")
            return
        sheet.set_round(number, entries)
        if not correcting:
            self.draft = None
        self.changes.append({
            "seq": len(self.changes) + 1, "round": number, "who": self.who,
            "at": dt.datetime.now(dt.UTC).replace(tzinfo=None).isoformat(
                timespec="seconds") + "Z",
            "before": before, "after": after})
        self.save()
        self.show_round(number)
        self.show_totals()

    def _ask(self, prompt: str) -> str:
        """An answer inside a round; ``q`` leaves the round."""
        answer = self.read(prompt).strip()
        if answer.lower() in ("q", "quit"):
            raise _LeaveRound
        return answer

    def keep_draft(self, number: int, drafts: list[dict[str, Any]]) -> None:
        """Keep a new round's answers so far in the file (the ``draft``)."""
        self.draft = {"round": number, "entries": drafts}
        self.save()

    def ask_went_out(self, drafts: list[dict[str, Any]]) -> int | None:
        names = self.sheet.sides
        current = next((i for i, d in enumerate(drafts) if d.get("went_out")), None)
        choices = ", ".join(f"{i + 1} {n}" for i, n in enumerate(names))
        while True:
            shown = "0" if current is None else str(current + 1)
            answer = self._ask(f"Who went out? 0 nobody, {choices} [{shown}] > ")
            if not answer:
                return current
            try:
                n = parse_whole(answer)
            except ValueError:
                n = -1
            if 0 <= n <= len(names):
                return None if n == 0 else n - 1
            self.say(f"  a number from 0 to {len(names)}: 0 if nobody went out")

    def ask_side(self, side: int, draft: dict[str, Any],
                 parts: Collection[str] | None = None) -> None:
        """Ask for a side's counts: every one, or those of ``parts`` (see
        :class:`~handfoot.game.scoresheet.Problem`). Each answer is checked as it is given
        and asked again, with the reason, until it can be right on its own."""
        form = self.form
        name = self.sheet.sides[side]
        self.say(f"-- {name}")

        def wanted(part: str) -> bool:
            return parts is None or part in parts

        def check(part: dict[str, Any]) -> str | None:
            try:
                read_entry(self.sheet.profile, part, who=name, together=False)
            except ScoreSheetError as exc:
                return str(exc)
            return None

        def check_at(*path: str) -> Callable[[Any], str | None]:
            """The check of one answer, at ``path`` in an entry (``books``, ``clean``)."""
            def check_value(value: Any) -> str | None:
                part: Any = value
                for key in reversed(path):
                    part = {key: part}
                return check(part)
            return check_value

        if wanted("books"):
            books = dict(draft.get("books") or {})
            for item in form["books"]:
                key = item["key"]
                books[key] = self.ask_number(
                    item["label"], books.get(key),
                    check=check_at("books", key))
            special = dict(books.get("special") or {})
            for item in form["special"]:
                key = item["key"]
                special[key] = self.ask_number(
                    item["label"], special.get(key),
                    check=check_at("books", "special", key))
            books["special"] = special
            draft["books"] = books
        if wanted("red_threes"):
            draft["red_threes"] = self.ask_number(
                "Red 3s laid", draft.get("red_threes"),
                check=lambda v: check({"red_threes": v}))
        if wanted("melded"):
            draft["melded"] = self.ask_cards("Cards melded", draft.get("melded"),
                                             lambda v: check({"melded": v}))
        if form["unfinished"] and wanted("unfinished"):
            draft["unfinished"] = self.ask_cards("Unfinished second melds",
                                                 draft.get("unfinished"),
                                                 lambda v: check({"unfinished": v}))
        if wanted("left"):
            draft["left"] = self.ask_cards("Cards left in hands and feet", draft.get("left"),
                                           lambda v: check({"left": v}))
            if isinstance(draft["left"], int):
                for key, label in (("black_threes_left", "Black 3s left"),
                                   ("red_threes_left", "Red 3s left")):
                    draft[key] = self.ask_number(label, draft.get(key),
                                                 check=check_at(key))
            else:
                draft.pop("black_threes_left", None)
                draft.pop("red_threes_left", None)
        tabletop = dict(draft.get("tabletop") or {})
        for item in form["tabletop"]:
            key = item["key"]
            if wanted(f"tabletop:{key}"):
                tabletop[key] = self.ask_number(
                    f"{item['label']} ({item['points']})", tabletop.get(key),
                    blank=item["optional"],
                    check=check_at("tabletop", key))
        draft["tabletop"] = tabletop

    def ask_number(self, label: str, current: Any, *, blank: bool = False,
                   check: Callable[[Any], str | None] | None = None) -> Any:
        """A count (``none`` for an optional one): asked again, with the reason, until it is
        a whole number ``check`` finds nothing wrong with (Enter keeps ``current``)."""
        while True:
            shown = "" if current is None else str(current)
            answer = self._ask(f"  {label} [{shown or ('none' if blank else '0')}] > ")
            value: Any
            if not answer:
                value = current if current is not None else (None if blank else 0)
            elif answer.lower() == "none" and blank:
                value = None
            else:
                try:
                    value = parse_whole(answer)
                except ValueError as exc:
                    self.say(f"  {exc}" + (" (or none)" if blank else ""))
                    continue
            reason = check(value) if check is not None and value is not None else None
            if reason is None:
                return value
            self.say(f"  {reason}")

    def ask_cards(self, label: str, current: Any,
                  check: Callable[[Any], str | None] | None = None) -> Any:
        """A points total (``1450``) or counts by card (``K=5 Q=4 2=1 joker=1 b3=1``), asked
        again with the reason until ``check`` finds nothing wrong."""
        while True:
            shown = _cards_text(current)
            answer = self._ask(f"  {label}: points, or cards like K=5 2=1 [{shown}] > ")
            value: Any
            if not answer:
                value = current if current is not None else 0
            else:
                try:
                    value = _read_cards(answer)
                except ValueError as exc:
                    self.say(f"  {exc}")
                    continue
            reason = check(value) if check is not None else None
            if reason is None:
                return value
            self.say(f"  {reason}")

    # -- showing the sheet ------------------------------------------------------------------

    def show_round(self, number: int) -> None:
        """A round's breakdown: each line's count and points in columns of their own, the
        sides side by side where the terminal is wide enough."""
        view = self.sheet.view()
        r = view.rounds[number - 1]
        out = "nobody went out" if r.went_out is None else \
            f"{self.sheet.sides[r.went_out]} went out"
        scores = [score_json(sc, e) for sc, e in zip(r.scores, r.entries, strict=True)]
        keys: list[tuple[str, str]] = []
        for score in scores:
            for line in score["lines"]:
                if (line["key"], line["label"]) not in keys:
                    keys.append((line["key"], line["label"]))
        rows = []
        for key, label in keys:
            cells: list[tuple[str, str] | None] = []
            for score in scores:
                found = [x for x in score["lines"] if (x["key"], x["label"]) == (key, label)]
                if not found:
                    cells.append(None)
                    continue
                count = found[0]["count"]
                cells.append(("" if count is None or key == "adjustment" else f"{count:,}",
                              f"{found[0]['points']:,}"))
            rows.append(BreakdownRow(label, cells))
        self.say(breakdown_text(
            f"Round {number}: {out}", self.sheet.sides, rows,
            [("This round", [f"{s.total:,}" for s in r.scores]),
             ("Game total", [f"{t:,}" for t in r.totals])], self.console.width))

    def show_totals(self) -> None:
        view = self.sheet.view()
        table = Table(title=escape(self.sheet.title) or "Totals", title_justify="left")
        table.add_column("Side" if self.sheet.layout.seats_per_side > 1 else "Player")
        table.add_column("Total", justify="right")
        if view.next_minimums is not None:
            table.add_column(f"Round {view.next_round} opening", justify="right")
        for i, name in enumerate(self.sheet.sides):
            players = [p for p in self.sheet.players[i] if p != name]
            row = [escape(name + (f" ({', '.join(players)})" if players else "")),
                   f"{view.totals[i]:,}"]
            if view.next_minimums is not None:
                m = view.next_minimums[i]
                row.append(f"{m:,}" if m else "a clean book")
            table.add_row(*row)
        self.console.print(table)

    def show_end(self) -> None:
        view = self.sheet.view()
        names = [self.sheet.sides[w] for w in view.winners]
        best = view.totals[view.winners[0]]
        self.say(f"The game is over: {' and '.join(names)} "
                 f"{'tie' if len(names) > 1 else 'wins'} with {best:,}.")
        self.say(chart_text(self.sheet))
        self.say(f"The sheet is saved in {self.path} (JSON); csv FILE exports it.")


def chart_text(sheet: ScoreSheet, width: int = 40) -> str:
    """The totals after each round as bars of ``#`` (negative totals as ``-``)."""
    view = sheet.view()
    peak = max([1] + [abs(t) for r in view.rounds for t in r.totals])
    label_w = max(len(n) for n in sheet.sides)
    lines = ["Totals after each round:"]
    for r in view.rounds:
        for i, name in enumerate(sheet.sides):
            t = r.totals[i]
            bar = ("#" if t >= 0 else "-") * round(abs(t) * width / peak)
            lines.append(f"R{r.round:<3}{name:<{label_w}}  {bar} {t:,}")
    return "\n".join(lines)


def _read_cards(answer: str) -> int | dict[str, int]:
    """``1450`` or ``K=5 Q=4 2=1``; a :class:`ValueError` says what cannot be read (the
    card names are the sheet's to check)."""
    if "=" not in answer:
        return parse_whole(answer)
    counts: dict[str, int] = {}
    for part in answer.replace(",", " ").split():
        card, sign, n = part.partition("=")
        if not sign or not card:
            raise ValueError(f"{part[:20]!r}: give each card as CARD=COUNT, like K=5")
        try:
            counts[card] = counts.get(card, 0) + parse_whole(n)
        except ValueError as exc:
            raise ValueError(f"{card[:10]}: {exc}") from None
    return counts


def _cards_text(value: Any) -> str:
    if value is None or value == "":
        return "0"
    if isinstance(value, dict):
        return " ".join(f"{k}={n}" for k, n in value.items()) or "0"
    return str(value)


def new_sheet_names(read: Read, sides: int, per_side: int, say: Callable[[str], None] = print,
                    ) -> tuple[list[str], list[list[str]]]:
    """Ask for the sides' and players' names (Enter: a made-up one; a name already given
    is asked again)."""
    side_names: list[str] = []
    players: list[list[str]] = []

    def ask(prompt: str, default: str, taken: list[str]) -> str:
        while True:
            name = clean_name(read(prompt))[:MAX_NAME] or default
            if name not in taken:
                return name
            say(f"  {name!r} is taken: give each its own name")

    for s in range(sides):
        if per_side > 1:
            side = ask(f"Name of side {s + 1} [Side {s + 1}] > ", f"Side {s + 1}", side_names)
            names: list[str] = []
            for j in range(per_side):
                names.append(ask(f"  Partner {j + 1} of {side} > ", f"{side} {j + 1}", names))
        else:
            side = ask(f"Player {s + 1} [Player {s + 1}] > ", f"Player {s + 1}", side_names)
            names = [side]
        side_names.append(side)
        players.append(names)
    return side_names, players
