"""``handfoot ratings``: every player's OpenSkill rating from game records (docs/club.md)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from handfoot.cli.options import PROG, UsageError
from handfoot.game.record import RecordError, read_record

if TYPE_CHECKING:
    from handfoot.runs.ratings import GameResult, PlayerRating

__all__ = ["add_ratings_command", "cmd_ratings", "read_results"]

MAX_RECORDS = 100_000
"""The most records one run reads (a club's whole history is a few thousand)."""


def add_ratings_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``ratings``."""
    rat = commands.add_parser(
        "ratings", help="rate the players of finished games from their records (OpenSkill)",
        description="Rate every player of the finished games in the records, in the order "
                    "the games ended (metadata.finished), with OpenSkill's Plackett-Luce "
                    "model: partners are a team, bots are fixed anchors by level, one rating "
                    "per player and rule set. Shown as mu ± 2 sigma (docs/club.md).")
    rat.add_argument("records", metavar="RECORD", nargs="+",
                     help="game records (JSON), or folders of them (their *.json files)")
    rat.add_argument("--profile", metavar="P",
                     help="only games of this rule set (a built-in profile name: its games "
                          "with any house rules; or a rule set as the table shows it)")
    rat.add_argument("--json", action="store_true",
                     help='print {"players": [{"name", "mu", "sigma", ...}, ...]}')
    rat.set_defaults(func=cmd_ratings)


def _files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            out.extend(sorted(path.glob("*.json")))
        else:
            out.append(path)
        if len(out) > MAX_RECORDS:
            raise UsageError(f"more than {MAX_RECORDS:,} records; rate fewer at a time")
    return out


def read_results(paths: list[str]) -> tuple[list[GameResult], list[str]]:
    """The finished games of the records at ``paths`` (folders: their ``*.json``), each
    replayed, and the records of games not yet over. A record that cannot be read or does
    not replay is a :class:`UsageError` naming the file."""
    from handfoot.runs.ratings import result_of_record

    results: list[GameResult] = []
    unfinished: list[str] = []
    for path in _files(paths):
        if not path.is_file():
            raise UsageError(f"{path}: no such file" if not path.exists()
                             else f"{path}: not a file")
        try:
            result = result_of_record(read_record(path))
        except RecordError as exc:
            raise UsageError(f"{path}: {exc}") from None
        if result is None:
            unfinished.append(str(path))
        else:
            results.append(result)
    return results, unfinished


def cmd_ratings(args: argparse.Namespace) -> int:
    """Rate the records' finished games; print a table per rule set (or JSON)."""
    from handfoot.runs.ratings import Ratings

    try:
        import openskill  # noqa: F401  (the ratings extra)
    except ImportError:
        raise UsageError("ratings need openskill: pip install 'handfoot[ratings]'") from None
    results, unfinished = read_results(args.records)
    if args.profile is not None:
        base = args.profile
        results = [r for r in results
                   if r.profile == base or r.profile.split(" with ", 1)[0] == base]
        if not results:
            raise UsageError(f"--profile {base}: no finished game of that rule set in the "
                             "records")
    ratings = Ratings()
    ratings.rate_all(results)
    players = ratings.players()
    if args.json:
        print(json.dumps({"players": [p.as_dict() for p in players], "games": len(results),
                          "not_over": unfinished}, indent=2))
        return 0
    _print_tables(players, len(results), unfinished)
    return 0


def _print_tables(players: list[PlayerRating], games: int, unfinished: list[str]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    # names and rule sets come from the records: printed as written, never read as markup
    console = Console(highlight=False)
    profiles = sorted({p.profile for p in players})
    for profile in profiles:
        table = Table(title=f"{escape(profile)}: ratings (mu ± 2 sigma)", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("player")
        table.add_column("rating", justify="right")
        table.add_column("at least", justify="right")
        table.add_column("games", justify="right")
        rank = 0
        for p in players:
            if p.profile != profile:
                continue
            rank += 1
            name = f"{p.seat.name} (bot, fixed)" if p.seat.bot is not None else p.seat.name
            table.add_row(str(rank), Text(name), p.rating.text(), f"{p.rating.conservative():.1f}",
                          str(p.games))
        console.print(table)
    note = f"{games} finished game{'s' if games != 1 else ''} rated"
    if unfinished:
        note += (f"; {len(unfinished)} record{'s' if len(unfinished) != 1 else ''} of games "
                 "not over left out")
    console.print(note)
    if not players:
        console.print(f"(no finished game: {PROG} ratings rates only games that ended)")
