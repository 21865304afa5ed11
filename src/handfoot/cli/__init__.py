"""The ``handfoot`` command line: one command for every front end (the top layer).

Each command is one ``cmd_*`` function taking the parsed arguments and returning an exit
code, in the module of what it runs: :mod:`.rules` (the rule profiles), :mod:`.runs` (games
between bots), :mod:`.ratings` (players' ratings from records), :mod:`.terminal` (the
terminal game and score keeper), :mod:`.serve` (the web game); :mod:`.options` holds what
they share. :func:`build_parser` wires them to subcommands. Errors in a rule profile or a
file print ``handfoot: error: <message>`` and give exit code 2.
"""

from __future__ import annotations

import argparse
import codecs
import io
import os
import sys
from collections.abc import Callable
from typing import NoReturn

from handfoot import build
from handfoot._version import __version__
from handfoot.cli.options import PROG, UsageError
from handfoot.cli.ratings import add_ratings_command
from handfoot.cli.review import add_review_command
from handfoot.cli.rules import add_rules_commands
from handfoot.cli.runs import add_run_commands, add_tournament_command
from handfoot.cli.serve import add_db_command, add_serve_command
from handfoot.cli.terminal import add_play_command, add_score_command
from handfoot.game.loading import ProfileError
from handfoot.game.record import RecordError

__all__ = ["build_parser", "main"]

Command = Callable[[argparse.Namespace], int]


class CommandLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line: the problem and where help is
    (``handfoot simulate: error: argument --games: invalid int value: 'abc' (handfoot
    simulate --help shows the options)``), exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} ({self.prog} --help shows the "
                     "options)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand; each sets ``func`` to its command."""
    parser: argparse.ArgumentParser = CommandLineParser(
        prog=PROG, description="Hand and Foot: rules as data, bots, simulation and records.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__} ({build})")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_rules_commands(commands)
    add_run_commands(commands)
    add_tournament_command(commands)
    add_ratings_command(commands)
    add_review_command(commands)
    add_play_command(commands)
    add_serve_command(commands)
    add_db_command(commands)
    add_score_command(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``handfoot`` command line and return its exit code."""
    for stream in (sys.stdout, sys.stderr):
        plain_text_where_unicode_cannot_go(stream)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    func: Command = args.func
    try:
        return func(args)
    except BrokenPipeError:  # the reader went away, as with `| head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except (ProfileError, RecordError, UsageError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file that cannot be read or written: its name and why
        print(f"{PROG}: error: {os_error_text(exc)}", file=sys.stderr)
        return 2


ASCII_FALLBACK = "handfoot-ascii"
"""The codec error handler that writes ``×`` as ``x``, ``µ`` as ``u``, a suit as its
letter, and any other character the output cannot show as ``?``."""


def _ascii_fallback(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    from handfoot.terminal.play import _TO_ASCII

    out = []
    for char in exc.object[exc.start:exc.end].translate(_TO_ASCII):
        try:
            char.encode(exc.encoding)
        except (UnicodeEncodeError, LookupError):
            char = "?"
        out.append(char)
    return "".join(out), exc.end


codecs.register_error(ASCII_FALLBACK, _ascii_fallback)


def plain_text_where_unicode_cannot_go(stream: object) -> None:
    """Make ``stream`` (standard output or error) write what its encoding cannot show in
    plain letters (:data:`ASCII_FALLBACK`) instead of raising ``UnicodeEncodeError``, as
    under ``PYTHONIOENCODING=ascii`` or a cp1252 console. Streams that raise nothing are
    left as they are."""
    if not isinstance(stream, io.TextIOWrapper) or stream.errors != "strict":
        return
    try:
        "×µ♠".encode(stream.encoding)
    except (UnicodeEncodeError, LookupError):
        stream.reconfigure(errors=ASCII_FALLBACK)


def os_error_text(exc: OSError) -> str:
    """An operating-system error as a person reads it: the file and the reason, without
    the ``[Errno 2]``.

    >>> os_error_text(FileNotFoundError(2, "No such file or directory", "game.json"))
    'game.json: No such file or directory'
    """
    if exc.strerror is None:
        return str(exc)
    where = f"{exc.filename}: " if exc.filename is not None else ""
    return f"{where}{exc.strerror}"
