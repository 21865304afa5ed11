"""What several commands share: the rule, table and run options, their checks, the
progress bar, and :class:`UsageError` (a command-line option that makes no sense: printed as
``handfoot: error: ...``, exit code 2)."""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handfoot.bots.registry import BOTS, check_bot, parse_spec
from handfoot.bots.styles import find_style
from handfoot.game.loading import DEFAULT_PROFILE, load_profile
from handfoot.game.rules import Layout, Profile
from handfoot.runs.cluster import ClusterError, PartialMismatch, add_runner_options, runner_options

__all__ = [
    "LEARNED_HELP",
    "MAX_GAMES",
    "PROG",
    "RunOptions",
    "UsageError",
    "add_rule_options",
    "add_run_options",
    "add_table_options",
    "check_bots",
    "check_games",
    "check_record_file",
    "check_records_folder",
    "parse_overrides",
    "profile_and_layout",
    "progress_bar",
    "run_games",
    "run_options",
    "table_of",
    "untuned_note",
    "warn_untuned",
]

LEARNED_HELP = ("learned is hard tuned by self-play for the rules: a style ships for every "
                "built-in profile, and house rules play the one of the profile they extend; "
                "on rules that extend none it plays untuned, as hard")
"""What ``--help`` says of the learned level's styles (docs/bots.md)."""

PROG = "handfoot"

MAX_GAMES = 1_000_000
"""The most games one ``simulate`` or ``tournament`` run plays (days of computing; more is
a typing slip)."""


class UsageError(ValueError):
    """A command-line option that makes no sense."""


def parse_overrides(items: list[str]) -> dict[str, object]:
    """``["rounds=1", "pickup_count=all"]`` as parameters with TOML values."""
    out: dict[str, object] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--set {item!r}: write PARAM=VALUE, like rounds=1")
        try:
            value = tomllib.loads(f"v = {text.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            value = text.strip()  # a bare word such as all or none
        except (RecursionError, ValueError):  # nested far too deeply, or a huge integer
            raise UsageError(f"--set {key.strip()[:40]}: the value cannot be read: it is "
                             "nested far too deeply or holds an integer far too long") from None
        out[key.strip()] = value
    return out


def add_rule_options(cmd: argparse.ArgumentParser, *,
                      layout_help: str = "seating, e.g. 2x2 or 2x1") -> None:
    """``--profile``, ``--set`` and ``--layout``: the rules and the seating of a game."""
    cmd.add_argument("--profile", default=DEFAULT_PROFILE, metavar="NAME|FILE",
                     help=f"rule profile or house-rule TOML file (default {DEFAULT_PROFILE})")
    cmd.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                     help="change one rule parameter, as in a house-rule file "
                          "(repeatable), e.g. --set rounds=1 --set pickup_count=all")
    cmd.add_argument("--layout", metavar="SIDESxSEATS",
                     help=f"{layout_help} (default: the profile's first)")


def profile_and_layout(args: argparse.Namespace) -> tuple[Profile, Layout]:
    """The profile (with ``--set`` changes) and the seating of ``--profile``/``--layout``."""
    profile = load_profile(args.profile, overrides=parse_overrides(args.set),
                           overrides_origin="--set")
    try:
        layout = Layout.parse(args.layout) if args.layout else profile.layout
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        profile.check_layout(layout)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return profile, layout


def add_table_options(cmd: argparse.ArgumentParser, *, bots_default: str) -> None:
    add_rule_options(cmd)
    cmd.add_argument("--bots", default=bots_default, metavar="BOT[,BOT...]",
                     help=f"one bot for every seat or one per seat, from: {', '.join(BOTS)} "
                          f"(default {bots_default}); a level may carry settings, e.g. "
                          f"hard:hold=1. {LEARNED_HELP}")
    cmd.add_argument("--seed", type=int, default=1, help="the seed (default 1)")


def table_of(args: argparse.Namespace) -> tuple[Profile, Layout, list[str]]:
    profile, layout = profile_and_layout(args)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    check_bots(bots)
    if len(bots) not in (1, layout.players):
        raise UsageError(f"give one bot for every seat or {layout.players} bots, "
                         f"not {len(bots)}")
    warn_untuned(profile, layout, bots)
    return profile, layout, bots


def untuned_note(profile: Profile, layout: Layout, bots: list[str]) -> str | None:
    """The line that says ``learned`` (and ``expert``, which searches over its play) plays
    untuned here: no style for the profile, nor for a built-in profile it extends; ``None``
    when no such bot plays or a style is found."""
    levels = sorted({parse_spec(b)[0] for b in bots} & {"learned", "expert"})
    if not levels or find_style(profile, layout) is not None:
        return None
    return (f"note: {' and '.join(levels)} play{'s' if len(levels) == 1 else ''} untuned on "
            f"{profile.name} (no style for it, and it extends no built-in profile): hard's "
            "own settings")


def warn_untuned(profile: Profile, layout: Layout, bots: list[str]) -> None:
    """Print :func:`untuned_note` to stderr, if there is one."""
    note = untuned_note(profile, layout, bots)
    if note is not None:
        print(note, file=sys.stderr)


def check_games(games: int, per_task: int = 1, what: str = "games") -> None:
    """``--games`` at least 1 and, counting ``per_task`` games for each, at most
    :data:`MAX_GAMES` in all; a :class:`UsageError` otherwise."""
    most = MAX_GAMES // per_task
    if games < 1:
        raise UsageError("--games must be at least 1")
    if games > most:
        shown = str(games) if len(str(games)) <= 30 else f"{str(games)[:27]}..."
        raise UsageError(f"--games {shown}: a run plays at most {MAX_GAMES:,} games"
                         + (f", so at most {most:,} {what} here" if per_task > 1 else "")
                         + "; split a larger run into several with other seeds")


def check_bots(bots: list[str]) -> None:
    """Every bot a level or a spec with settings (``hard:hold=1``), or a UsageError."""
    for bot in bots:
        try:
            check_bot(bot)
        except ValueError as exc:
            raise UsageError(str(exc)) from None


def check_record_file(path: str, option: str = "--record", *, force: bool = False) -> Path:
    """Check, before a game starts, that a record can be written to ``path``: not a folder,
    in a folder that exists and may be written, and not an existing file unless ``force``.
    Raises :class:`UsageError` saying what is wrong."""
    file = Path(path)
    where = f"{option} {path}"
    if file.is_dir():
        raise UsageError(f"{where}: that is a folder; give a file name, like "
                         f"{file / 'game.json'}")
    folder = file.parent
    if not folder.exists():
        raise UsageError(f"{where}: the folder {folder} does not exist; create it first or "
                         "choose another place")
    if not folder.is_dir():
        raise UsageError(f"{where}: {folder} is a file, not a folder")
    if file.exists() and not force:
        raise UsageError(f"{where}: the file already exists; add --force to overwrite it, "
                         "or choose another name")
    if not os.access(folder, os.W_OK) or (file.exists() and not os.access(file, os.W_OK)):
        raise UsageError(f"{where}: you may not write there")
    return file


def check_records_folder(path: str, *, force: bool = False) -> Path:
    """Check ``--records DIR`` before a run: a folder (made if missing) that does not hold
    an earlier run's records, unless ``force``, which removes them first (so a folder never
    mixes two runs). Raises :class:`UsageError` saying what is wrong."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--records {path}: that is a file, not a folder; give a folder for "
                         "the records (it is made if missing)")
    earlier = sorted(folder.glob("game-*.json")) if folder.is_dir() else []
    if earlier and not force:
        raise UsageError(f"--records {path}: the folder holds {len(earlier)} game record"
                         f"{'s' if len(earlier) != 1 else ''} of an earlier run; choose a new "
                         "folder, or add --force to replace them")
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise UsageError(f"--records {path}: you may not write there")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--records {path}: the folder cannot be made: "
                         f"{exc.strerror or exc}") from None
    for old in earlier:
        old.unlink()
    return folder


def progress_bar(label: str, quiet: bool) -> Any:
    """A Rich progress bar on standard error (games done, games/s, time left), or None when
    ``quiet`` or standard error is not a terminal (the output stays plain)."""
    if quiet or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class _Rate(TextColumn):
        def render(self, task: Any) -> Any:  # games per second
            from rich.text import Text

            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:.1f} games/s")

    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                    TaskProgressColumn(), _Rate(""), TimeElapsedColumn(),
                    TextColumn("elapsed,"), TimeRemainingColumn(), TextColumn("left"),
                    console=Console(stderr=True), transient=True)


def add_run_options(cmd: argparse.ArgumentParser) -> None:
    """Where a run's games are played, and its partial results (docs/cluster.md)."""
    add_runner_options(cmd)
    cmd.add_argument("--partial", metavar="FILE",
                     help="write each finished game to FILE as the run goes (a new file), so "
                          "an interrupted run can be resumed")
    cmd.add_argument("--resume", metavar="FILE",
                     help="continue the interrupted run whose partial results are in FILE "
                          "(same options): finished games are not played again")


@dataclass(frozen=True)
class RunOptions:
    """``--workers``, ``--scheduler`` (or its environment variable), ``--partial`` and
    ``--resume``, checked."""

    workers: int
    scheduler: str | None
    partial: Path | None
    resume: bool


def run_options(args: argparse.Namespace) -> RunOptions:
    """Check the run options; raises :class:`UsageError` saying what is wrong."""
    try:
        workers, scheduler = runner_options(args.workers, args.scheduler)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.partial and args.resume:
        raise UsageError("--partial starts a new file and --resume continues one: give one")
    path = args.partial or args.resume
    if args.partial:
        partial = Path(args.partial)
        if partial.exists():
            raise UsageError(f"--partial {partial}: the file already exists; --resume "
                             f"{partial} continues that run, or choose another name")
        if not partial.parent.is_dir():
            raise UsageError(f"--partial {partial}: the folder {partial.parent} does not "
                             "exist")
    if args.resume and not Path(args.resume).is_file():
        raise UsageError(f"--resume {args.resume}: no such file (--partial FILE writes one)")
    return RunOptions(workers, scheduler, Path(path) if path else None,
                      bool(args.resume))


def run_games(command: str, run: RunOptions, play: Callable[[], Any]) -> Any:
    """``play()``, with a run's errors and interruption told as a person needs them: None
    after a message when the run did not finish."""
    try:
        return play()
    except PartialMismatch as exc:
        raise UsageError(f"--resume: {exc}") from None
    except ClusterError as exc:
        print(f"{PROG} {command}: error: {exc}", file=sys.stderr)
    except KeyboardInterrupt:
        if run.partial is not None:
            print(f"{PROG} {command}: interrupted; the finished games are in {run.partial}: "
                  f"add --resume {run.partial} (instead of --partial) to the same command "
                  "to play the rest", file=sys.stderr)
        else:
            print(f"{PROG} {command}: interrupted", file=sys.stderr)
    return None
