"""The terminal front ends' commands: ``play`` (a game against bots, or pass-and-play) and
``score`` (the score keeper for a game played with real cards)."""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import sys
from pathlib import Path

from rich.console import Console

from handfoot.bots.registry import BOTS
from handfoot.cli.options import (
    LEARNED_HELP,
    UsageError,
    add_rule_options,
    check_record_file,
    profile_and_layout,
    warn_untuned,
)
from handfoot.game.engine import GameState
from handfoot.game.loading import DEFAULT_PROFILE
from handfoot.game.record import RecordError, read_record, to_json
from handfoot.game.scoresheet import MAX_NAME, ScoreSheet, ScoreSheetError, clean_name
from handfoot.terminal.play import (
    HUMAN,
    SeatError,
    TerminalGame,
    best_bot,
    parse_seats,
    resume_state,
)
from handfoot.terminal.saves import SAVE_PREFIX, SaveFile, saved_games
from handfoot.terminal.score_keeper import ScoreKeeper, new_sheet_names, plain_reader

__all__ = ["MAX_SHEET_BYTES", "add_play_command", "add_score_command", "cmd_play", "cmd_score"]

MAX_SHEET_BYTES = 16 * 2**20
"""The largest score-sheet file opened (a sheet of a hundred rounds takes a few dozen KiB)."""


def add_play_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``play``: a game against bots in the terminal."""
    play = commands.add_parser(
        "play", help="play a game against bots in the terminal",
        description="Play a full game against bots in the terminal: you see only your own "
                    "seat's cards and type moves such as draw, meld K K K | 9 9 2, "
                    "discard 5 (type help during the game; see docs/terminal.md). A game "
                    "you leave (quit, Ctrl-C) is saved, never over another saved game; "
                    "--resume FILE continues it and --list lists the saved games. "
                    "Exit 0 when the game is played out, 1 when you leave it.")
    add_rule_options(play)
    play.add_argument("--seats", metavar="SEAT,SEAT,...",
                      help=f"one name per seat: {HUMAN!r} once for you, bots from "
                           f"{', '.join(BOTS)} (default: you in seat 1, {best_bot()} "
                           f"bots elsewhere). {LEARNED_HELP}")
    play.add_argument("--seed", type=int, default=None,
                      help="the seed (default: a random one, printed at the start)")
    play.add_argument("--record", metavar="FILE",
                      help="write the game's record to FILE (also where a game you leave is "
                           "saved; default handfoot-game-SEED.json, or -2, -3, ... when "
                           "that file holds another game)")
    play.add_argument("--force", action="store_true",
                      help="with --record: overwrite FILE if it exists")
    play.add_argument("--resume", metavar="FILE",
                      help="continue a game you left (its saved record); the rules, seats "
                           "and seed come from the file")
    play.add_argument("--list", nargs="?", const=".", metavar="DIR",
                      help="list the saved games in DIR (default: this folder) with the "
                           "command that resumes each, and play nothing")
    play.add_argument("--pass-and-play", action="store_true",
                      help=f"several people at one keyboard: {HUMAN!r} in several --seats; "
                           "each hand is hidden until its player presses Enter")
    play.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    """Play one game in the terminal against bots."""
    command = (os.environ.get("HANDFOOT_PLAY_COMMAND")
               or f"{os.environ.get('HANDFOOT_COMMAND') or 'handfoot'} play")
    if args.list is not None:
        return _list_saved(args, command)
    state: GameState | None = None
    save: SaveFile
    if args.resume:
        given = [name for name, value in (("--profile", args.profile != DEFAULT_PROFILE),
                                          ("--set", args.set), ("--layout", args.layout),
                                          ("--seats", args.seats),
                                          ("--seed", args.seed is not None),
                                          ("--pass-and-play", args.pass_and_play)) if value]
        if given:
            raise UsageError(f"--resume takes the rules, seats and seed from the saved game: "
                             f"leave out {', '.join(given)}")
        try:
            record = read_record(args.resume)
            state = resume_state(record)
        except OSError as exc:
            raise UsageError(f"--resume {args.resume}: cannot read the file: "
                             f"{exc.strerror or exc} (handfoot play --list lists the saved "
                             "games here)") from None
        except RecordError as exc:
            raise UsageError(f"--resume {args.resume}: {exc}") from None
        profile, layout = state.profile, state.layout
        seats = _saved_seats(record.metadata.get("seats"), [s.name for s in record.seats])
        seed = state.seed if state.seed is not None else 0
        if args.record and Path(args.record) != Path(args.resume):
            check_record_file(args.record, force=args.force)
            save = SaveFile(args.record, own=args.force)
        else:
            save = SaveFile(args.resume, own=True)  # the same game, further on
    else:
        profile, layout = profile_and_layout(args)
        try:
            seats = parse_seats(args.seats, layout.players,
                                people=0 if args.pass_and_play else 1)
        except SeatError as exc:
            raise UsageError(str(exc)) from None
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        if args.record:
            save = SaveFile(check_record_file(args.record, force=args.force), own=args.force)
        else:
            save = SaveFile.default(seed)
    warn_untuned(profile, layout, [s for s in seats if s != HUMAN])
    console = Console(highlight=False)
    game = TerminalGame(profile, layout, seats, seed, read=plain_reader(console), console=console,
                        state=state, save_to=save, pause=sys.stdin.isatty(),
                        command=command)
    code = game.run()
    if code == 0 and (args.record or args.resume):
        written = save.write(to_json(game.record()))
        console.print(f"record written to {written}", markup=False, soft_wrap=True)
    return code


def _list_saved(args: argparse.Namespace, command: str) -> int:
    """``play --list [DIR]``: the saved games of a folder and how to resume each."""
    given = [name for name, value in (("--resume", args.resume), ("--record", args.record),
                                      ("--seats", args.seats), ("--seed", args.seed is not None),
                                      ("--pass-and-play", args.pass_and_play)) if value]
    if given:
        raise UsageError(f"--list only lists the saved games: leave out {', '.join(given)}")
    folder = Path(args.list)
    if not folder.is_dir():
        raise UsageError(f"--list {folder}: no such folder")
    games = saved_games(folder)
    if not games:
        print(f"No saved games in {folder} (a game you leave is saved as "
              f"{SAVE_PREFIX}SEED.json).")
        return 0
    rows = [("FILE", "RULES", "MOVES", "SAVED", "RESUME WITH")]
    for game in games:
        shown = game.path if args.list != "." else Path(game.path.name)
        how = (f"{command} --resume {shlex.quote(str(shown))}" if game.problem is None
               else f"(cannot be resumed: {game.problem})")
        rows.append((str(shown), game.profile, str(game.moves),
                     game.saved.strftime("%Y-%m-%d %H:%M"), how))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join([row[0].ljust(widths[0]), row[1].ljust(widths[1]),
                         row[2].rjust(widths[2]), row[3].ljust(widths[3]), row[4]]))
    return 0


def _saved_seats(saved: object, names: list[str]) -> list[str]:
    """The seats of a saved game: its metadata's list, or read from the seat names
    (``you``, ``hard 2``)."""
    if isinstance(saved, list) and all(isinstance(x, str) for x in saved):
        seats = [str(x) for x in saved]
    else:
        seats = [HUMAN if n == HUMAN else n.rsplit(" ", 1)[0] for n in names]
    unknown = [s for s in seats if s != HUMAN and s not in BOTS]
    if unknown or HUMAN not in seats or len(seats) != len(names):
        raise UsageError("the saved game does not say who sat where (not a game saved by "
                         "handfoot play)")
    return seats


def add_score_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``score``: keep score of a game played with real cards."""
    cmd = commands.add_parser(
        "score", help="keep score of a game played with real cards",
        description="Keep the score of a game played at a real table: for each round, type "
                    "what each side counted (books, red 3s, who went out, the points or the "
                    "cards melded and left, the tabletop penalties of your rules); the "
                    "sheet scores it as the game does, keeps running totals and the next "
                    "opening minimums, and is saved after every round (see "
                    "docs/score-keeper.md). Exit 0 when the game is over, 1 when you stop "
                    "before.")
    add_rule_options(cmd)
    cmd.add_argument("--sheet", metavar="FILE", default="handfoot-score.json",
                     help="the sheet's JSON file: continued if it exists, made otherwise "
                          "(default handfoot-score.json)")
    cmd.add_argument("--sides", metavar="NAME,NAME,...",
                     help="the sides' names (asked for otherwise)")
    cmd.add_argument("--players", metavar="A,B;C,D",
                     help="the players of each side, sides separated by ';' (with partners)")
    cmd.add_argument("--title", default="", help="the game's name")
    cmd.add_argument("--who", default="", help="your name, kept with each change")
    cmd.set_defaults(func=cmd_score)


def cmd_score(args: argparse.Namespace) -> int:
    """Keep score at the terminal."""
    console = Console(highlight=False)
    command = f"{os.environ.get('HANDFOOT_COMMAND') or 'handfoot'} score"
    path = Path(args.sheet)
    if path.is_dir():
        raise UsageError(f"--sheet {path}: that is a folder; give a file name, like "
                         f"{path / 'score.json'}")
    if path.exists():
        if not path.is_file():
            raise UsageError(f"--sheet {path}: not a score sheet (not a file)")
        if path.stat().st_size > MAX_SHEET_BYTES:
            raise UsageError(f"--sheet {path}: not a score sheet (a sheet takes at most "
                             f"{MAX_SHEET_BYTES // 2**20} MiB, this file "
                             f"{path.stat().st_size / 2**20:,.0f})")
        try:
            keeper = ScoreKeeper.open(path, read=plain_reader(console), console=console)
        except OSError as exc:
            raise UsageError(f"--sheet {path}: cannot read the file: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise UsageError(f"--sheet {path}: not a score sheet (not UTF-8 text)") from None
        except json.JSONDecodeError as exc:
            raise UsageError(f"--sheet {path}: not a score sheet (not JSON: {exc.msg} at "
                             f"line {exc.lineno}, column {exc.colno})") from None
        except (ValueError, ScoreSheetError) as exc:
            raise UsageError(f"--sheet {path}: {exc}") from None
        keeper.who = clean_name(args.who)[:MAX_NAME] or keeper.who
        keeper.command = command
        done = len(keeper.sheet.rounds)
        console.print(f"Continuing the sheet in {path} ({keeper.sheet.profile.title}, "
                      f"{done} round{'s' * (done != 1)} entered); --sheet NEW.json starts "
                      "another.", markup=False, soft_wrap=True)
        given = [opt for opt, value in (
            ("--profile", args.profile != DEFAULT_PROFILE), ("--set", args.set),
            ("--layout", args.layout), ("--sides", args.sides), ("--players", args.players),
            ("--title", args.title)) if value]
        if given:
            console.print(f"({', '.join(given)} left aside: a sheet keeps the rules and "
                          "names it was made with.)", markup=False, soft_wrap=True)
        return keeper.run()
    check_record_file(str(path), "--sheet", force=True)
    profile, layout = profile_and_layout(args)
    if args.sides:
        sides: list[str] = [x.strip() for x in args.sides.split(",")]
        players: list[list[str]] | None = [
            [x.strip() for x in group.split(",")] for group in args.players.split(";")] \
            if args.players else None
    else:
        try:
            sides, players = new_sheet_names(plain_reader(console), layout.sides,
                                             layout.seats_per_side,
                                             say=lambda t: console.print(t, markup=False))
        except (EOFError, KeyboardInterrupt):
            console.print("\nStopped before the sheet was made; nothing was saved.",
                          markup=False)
            return 1
    try:
        sheet = ScoreSheet.new(profile, layout, sides, players, args.title)
    except ScoreSheetError as exc:
        raise UsageError(str(exc)) from None
    keeper = ScoreKeeper(sheet, path, read=plain_reader(console), console=console,
                         who=clean_name(args.who)[:MAX_NAME], command=command)
    keeper.save()
    console.print(f"Keeping score under {profile.title} in {path}.", markup=False,
                  soft_wrap=True)
    return keeper.run()
