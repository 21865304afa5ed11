"""The ``handfoot`` command line.

Each command is one ``cmd_*`` function taking the parsed arguments and returning an exit
code; :func:`build_parser` wires them to subcommands. Errors in a rule profile or a file
print ``handfoot: error: <message>`` and give exit code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import textwrap
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from handfoot import __version__, build, rulebook
from handfoot.cluster import (
    ClusterError,
    PartialMismatch,
    add_runner_options,
    runner_options,
)
from handfoot.engine import GameState
from handfoot.record import (
    GameRecord,
    GameRecorder,
    RecordError,
    format_breakdown,
    replay_command,
    to_json,
)
from handfoot.registry import BOTS, check_bot, make_bot
from handfoot.rules import (
    DEFAULT_PROFILE,
    OPTIONS,
    Layout,
    Profile,
    ProfileError,
    builtin_profile_names,
    load_profile,
)
from handfoot.sim import GameSummary, SafetyCapReached, derive_seed, play_game, simulate

if TYPE_CHECKING:
    from handfoot.web.store import Store

__all__ = [
    "build_parser",
    "cmd_demo",
    "cmd_play",
    "cmd_replay",
    "cmd_rules_diff",
    "cmd_rules_list",
    "cmd_rules_options",
    "cmd_rules_show",
    "cmd_simulate",
    "cmd_tournament",
    "main",
]

Command = Callable[[argparse.Namespace], int]

PROG = "handfoot"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand; each sets ``func`` to its command."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Hand and Foot: rules as data, bots, simulation and records.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__} ({build})")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_rules_commands(commands)
    add_play_commands(commands)
    add_tournament_command(commands)
    add_play_command(commands)
    add_serve_command(commands)
    add_db_command(commands)
    from handfoot.score_terminal import add_score_command  # issue 17
    add_score_command(commands)
    return parser


def _add_rule_options(cmd: argparse.ArgumentParser, *,
                      layout_help: str = "seating, e.g. 2x2 or 2x1") -> None:
    """``--profile``, ``--set`` and ``--layout``: the rules and the seating of a game."""
    cmd.add_argument("--profile", default=DEFAULT_PROFILE, metavar="NAME|FILE",
                     help=f"rule profile or house-rule TOML file (default {DEFAULT_PROFILE})")
    cmd.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                     help="change one rule parameter, as in a house-rule file "
                          "(repeatable), e.g. --set rounds=1 --set pickup_count=all")
    cmd.add_argument("--layout", metavar="SIDESxSEATS",
                     help=f"{layout_help} (default: the profile's first)")


def _add_table_options(cmd: argparse.ArgumentParser, *, bots_default: str) -> None:
    _add_rule_options(cmd)
    cmd.add_argument("--bots", default=bots_default, metavar="BOT[,BOT...]",
                     help=f"one bot for every seat or one per seat, from: {', '.join(BOTS)} "
                          f"(default {bots_default}); a level may carry settings, e.g. "
                          "hard:hold=1")
    cmd.add_argument("--seed", type=int, default=1, help="the seed (default 1)")


def add_play_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``simulate``, ``demo`` and ``replay``."""
    sim = commands.add_parser(
        "simulate", help="play many games between bots and print statistics",
        description="Play complete games between bots and print statistics. The same seed "
                    "gives the same games and the same output.")
    _add_table_options(sim, bots_default="hard")
    sim.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    sim.add_argument("--json", action="store_true", help="print the statistics as JSON")
    sim.add_argument("--records", metavar="DIR",
                     help="write every game's record to DIR as game-NNNN.json (DIR is created "
                          "if missing; a folder holding an earlier run's records is refused "
                          "unless --force)")
    sim.add_argument("--force", action="store_true",
                     help="with --records: replace the records of an earlier run in DIR")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_run_options(sim)
    sim.set_defaults(func=cmd_simulate)

    demo = commands.add_parser(
        "demo", help="watch one game between bots, round by round",
        description="Play one seeded game between bots and print how each round ended and "
                    "each side's score breakdown.")
    _add_table_options(demo, bots_default="hard")
    demo.add_argument("--record", metavar="FILE", help="also write the game's record to FILE")
    demo.add_argument("--force", action="store_true",
                      help="with --record: overwrite FILE if it exists")
    demo.set_defaults(func=cmd_demo)

    rep = commands.add_parser(
        "replay", help="re-validate a game record and print its scores",
        description="Replay a game record, checking every move; print each round's score "
                    "breakdown. Exit 1 at the first illegal move, 2 for an unreadable file.")
    rep.add_argument("file", metavar="FILE", help="a game record (JSON)")
    rep.add_argument("--json", action="store_true", help="print the result as JSON")
    rep.set_defaults(func=cmd_replay)


def add_rules_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``rules`` group: list, show and diff rule profiles; list the optional rules."""
    rules = commands.add_parser(
        "rules", help="list, show and compare rule profiles and optional rules",
        description="List the built-in rule profiles, show one as a rulebook, compare two, "
                    "or list the optional rules a house-rule file can switch on.")
    sub = rules.add_subparsers(dest="rules_command", metavar="ACTION", required=True)

    list_ = sub.add_parser("list", help="the built-in profiles",
                           description="List the built-in profiles with their seatings.")
    list_.set_defaults(func=cmd_rules_list)

    show = sub.add_parser("show", help="a profile as a rulebook",
                          description="Show a profile's rules as plain sentences.")
    show.add_argument("profile", metavar="NAME|FILE",
                      help="a built-in profile name or a profile/house-rule TOML file")
    show.add_argument("--json", action="store_true",
                      help="print every parameter as JSON instead")
    show.set_defaults(func=cmd_rules_show)

    diff = sub.add_parser("diff", help="how two profiles differ",
                          description="Say every rule in which two profiles differ.")
    diff.add_argument("a", metavar="A", help="a built-in profile name or a TOML file")
    diff.add_argument("b", metavar="B", help="a built-in profile name or a TOML file")
    diff.set_defaults(func=cmd_rules_diff)

    options = sub.add_parser(
        "options", help="the optional rules a house-rule file can switch on",
        description="List every optional rule: its id, key, title, exclusive groups, the "
                    "profiles it is meant for, whether it only matters at a real table, "
                    "what it does and the parameters it sets. Switch one on in a house-rule "
                    "file's [options] table (sevens_from_hell = true) or with --set.")
    options.add_argument("--json", action="store_true", help="print the options as JSON")
    options.set_defaults(func=cmd_rules_options)


# --- rules ------------------------------------------------------------------------------


def seatings_text(layouts: tuple[Layout, ...]) -> str:
    """Seatings compactly: ``2x2, 2x1``; three or more single-player seatings become one
    entry, ``2-8 players (singles)`` (the default first, then the rest in order)."""
    singles = sorted(x.players for x in layouts if x.seats_per_side == 1)
    fold = len(singles) >= 3 and singles == list(range(singles[0], singles[-1] + 1))
    parts: list[str] = []
    folded = False
    for layout in layouts:
        if not (fold and layout.seats_per_side == 1):
            parts.append(str(layout))
        elif not folded:
            folded = True
            default = f", {layout.players} by default" if layout == layouts[0] else ""
            parts.append(f"{singles[0]}-{singles[-1]} players (singles{default})")
    return ", ".join(parts)


def cmd_rules_list(args: argparse.Namespace) -> int:
    """Print every built-in profile with its seatings and title; mark the default."""
    rows = []
    for name in builtin_profile_names():
        profile = load_profile(name)
        mark = "*" if name == DEFAULT_PROFILE else ""
        rows.append((name + mark, seatings_text(profile.layouts), profile.title))
    header = ("PROFILE", "SEATINGS", "TITLE")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(2)]
    for row in [header, *rows]:
        print(f"{row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]}")
    print()
    print("* default profile. Seatings are SIDESxSEATS: 2x2 is two sides of two partners, "
          "2x1 two single players; the first is the default.")
    print("Optional rules a house-rule file can switch on: handfoot rules options.")
    return 0


def for_people(text: str) -> str:
    """Text without the specification's internal citations (``(A-25)``, ``seed 003:``),
    which mean nothing to a player.

    >>> for_people("seed 001, Team Play: 2 to 4 teams (A-22, A-54).")
    'Team Play: 2 to 4 teams.'
    """
    text = re.sub(r"\s*\((?:[A-Z]{1,2}-\d+(?:,\s*)?)+\)", "", text)
    return re.sub(r"^seed \d+(?:,\s*|:\s*)", "", text)


def cmd_rules_options(args: argparse.Namespace) -> int:
    """Print every optional rule with what it sets, or all of them as JSON."""
    if args.json:
        print(json.dumps([rulebook.option_json(o) for o in OPTIONS.values()], indent=2,
                         ensure_ascii=False))
        return 0
    shown: set[str] = set()
    for option in OPTIONS.values():
        if option.id in shown:  # a part of an option that can be switched on by itself
            print(f"{option.key}: {option.title} (part of {option.id}, on its own)")
        else:
            print(f"{option.id}  {option.key}: {option.title}")
        shown.add(option.id)
        print(textwrap.fill(for_people(option.description), width=96,
                            initial_indent="    ", subsequent_indent="    "))
        print(f"    sets: {rulebook.option_sets_text(option)}")
        groups = ", ".join(option.groups)
        print(f"    exclusive group: {groups}" if groups else "    exclusive group: none")
        print(f"    meant for: {', '.join(option.meant_for)}")
        if option.tabletop:
            print("    tabletop: yes (the software never applies what it scores; for a "
                  "score keeper at a real table)")
        print()
    print("Switch an option on in a house-rule file's [options] table, e.g.")
    print('    extends = "remastered-teams"')
    print("    [options]")
    print("    sevens_from_hell = true")
    print("or with --set sevens_from_hell=true. Parameters given explicitly win over an "
          "option's values; options sharing an exclusive group cannot both be on.")
    return 0


def cmd_rules_show(args: argparse.Namespace) -> int:
    """Print a profile as a rulebook (sections of sentences), or as JSON."""
    profile = load_profile(args.profile)
    if args.json:
        print(json.dumps(rulebook.profile_json(profile), indent=2, ensure_ascii=False))
        return 0
    print(f"{profile.title} ({profile.name})")
    if profile.source:
        print(f"In short: {for_people(profile.source)}")
    if profile.extends:
        changed = ", ".join(f"{key} = {json.dumps(value, ensure_ascii=False)}"
                            for key, value in profile.overrides) or "no changes"
        print(f"House rules on {profile.extends}: {changed}")
    for title, sentences in rulebook.describe_profile(profile):
        print()
        print(title)
        for sentence in sentences:
            print(f"  - {sentence}")
    return 0


def cmd_rules_diff(args: argparse.Namespace) -> int:
    """Print every rule in which two profiles differ."""
    a, b = load_profile(args.a), load_profile(args.b)
    names = (a.name, b.name) if a.name != b.name else (args.a, args.b)
    differences = rulebook.diff_profiles(a, b, names=names)
    if not differences:
        print(f"{names[0]} and {names[1]}: no differences")
        return 0
    print(f"{names[0]} and {names[1]} differ in {len(differences)} "
          f"rule{'s' if len(differences) > 1 else ''}:")
    for sentence in differences:
        print(f"  - {sentence}")
    return 0


# --- playing ----------------------------------------------------------------------------


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


def _profile_and_layout(args: argparse.Namespace) -> tuple[Profile, Layout]:
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


def _table(args: argparse.Namespace) -> tuple[Profile, Layout, list[str]]:
    profile, layout = _profile_and_layout(args)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    _check_bots(bots)
    if len(bots) not in (1, layout.players):
        raise UsageError(f"give one bot for every seat or {layout.players} bots, "
                         f"not {len(bots)}")
    return profile, layout, bots


class UsageError(ValueError):
    """A command-line option that makes no sense."""


def _check_bots(bots: list[str]) -> None:
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
    folder.mkdir(parents=True, exist_ok=True)
    for old in earlier:
        old.unlink()
    return folder


def _progress(label: str, quiet: bool) -> Any:
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


def _add_run_options(cmd: argparse.ArgumentParser) -> None:
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


def _run_games(command: str, run: RunOptions, play: Callable[[], Any]) -> Any:
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


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play ``--games`` games and print statistics (or JSON); optionally write records."""
    profile, layout, bots = _table(args)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    run = run_options(args)
    if args.records and run.resume:
        raise UsageError("--records and --resume: a resumed run cannot write the records of "
                         "the games played before; give --records to a new run")
    records = (check_records_folder(args.records, force=args.force) if args.records
               else None)
    bar = _progress("games", args.quiet)
    task = bar.add_task("games", total=args.games) if bar is not None else None

    def on_game(index: int, state: GameState, summary: GameSummary,
                record: GameRecord | None) -> None:
        if records is not None and record is not None:
            path = records / f"game-{index + 1:04d}.json"
            path.write_text(to_json(record), encoding="utf-8")

    def progress(done: int, total: int) -> None:
        if bar is not None and task is not None:
            bar.update(task, completed=done, total=total)

    try:
        with bar if bar is not None else contextlib.nullcontext():
            stats = _run_games("simulate", run, lambda: simulate(
                profile, args.games, args.seed, layout=layout, bots=bots,
                record=records is not None, on_game=on_game if records is not None else None,
                workers=run.workers, scheduler=run.scheduler, partial=run.partial,
                resume=run.resume, progress=progress))
        if stats is None:
            return 1
    except SafetyCapReached as exc:  # a game that never ends is a bug: say where, no traceback
        print(f"{PROG} simulate: error: {exc}\n(a game that does not end is a bug in handfoot; "
              "please report this message)", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(stats.as_dict(), indent=2))
    else:
        print(stats.format())
        if records is not None:
            print(f"records: {args.games} games written to {records}/")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Play one game between bots and print each round's ending and breakdown."""
    profile, layout, bots = _table(args)
    if args.record:
        check_record_file(args.record, force=args.force)

    names = bots if len(bots) > 1 else bots * layout.players
    players = [make_bot(name, derive_seed(args.seed, "demo-bot", seat))
               for seat, name in enumerate(names)]
    state = GameState.new(profile, layout=layout, seed=args.seed)
    recorder = GameRecorder(state, seat_names=[f"{n} {i + 1}" for i, n in enumerate(names)],
                            metadata={"seed": args.seed})
    print(f"{profile.title} ({profile.name}), {layout.describe()}, seed {args.seed}")
    for side in range(layout.sides):
        seats = ", ".join(f"seat {s + 1} ({names[s]})" for s in layout.seats_of(side))
        print(f"  side {side + 1}: {seats}")
    shown = 0

    def show_rounds(state: GameState) -> None:
        nonlocal shown
        for result in state.results[shown:]:
            print()
            print(format_breakdown(
                result, seat_names=[f"{names[s]} {s + 1}" for s in range(layout.players)]))
        shown = len(state.results)

    play_game(profile, args.seed, players, recorder=recorder, after=show_rounds)
    winners = state.winners()
    print()
    if len(winners) == 1:
        print(f"Side {winners[0] + 1} wins, {state.totals[winners[0]]} to "
              + " and ".join(str(t) for s, t in enumerate(state.totals) if s != winners[0]))
    else:
        print("Shared victory: sides " + " and ".join(str(s + 1) for s in winners)
              + f" with {state.totals[winners[0]]}")
    if args.record:
        Path(args.record).write_text(to_json(recorder.record()), encoding="utf-8")
        print(f"record written to {args.record}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record; print its breakdowns or the first illegal move."""
    code, text = replay_command(args.file, json_output=args.json)
    print(text, file=sys.stdout if code != 2 else sys.stderr)
    return code


# --- tournaments ------------------------------------------------------------------------


def add_tournament_command(
        commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``tournament``: bot levels against each other in duplicate pairs."""
    cmd = commands.add_parser(
        "tournament", help="measure bot levels against each other (duplicate format)",
        description="Play every pairing of the bots in duplicate: each deal twice, the "
                    "bots' sides swapped, so both play every hand. Prints each bot's win "
                    "rate and score difference with 95% confidence intervals, its pickup "
                    "rate and time per decision, and a head-to-head line per pairing. The "
                    "same seed gives the same results for any number of workers.")
    _add_rule_options(cmd, layout_help="seating with two sides, e.g. 2x2 or 2x1")
    cmd.add_argument("--bots", required=True, metavar="BOT,BOT[,...]",
                     help=f"two or more bots, from: {', '.join(BOTS)}; a level may carry "
                          "settings, e.g. hard:hold=1:keep_pair=80 (docs/bots.md)")
    cmd.add_argument("--games", type=int, default=50,
                     help="duplicate pairs (two games each) per pairing (default 50)")
    cmd.add_argument("--seed", type=int, default=1, help="the seed (default 1)")
    cmd.add_argument("--json", action="store_true",
                     help="print the results as JSON (timing under \"timing\")")
    cmd.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_run_options(cmd)
    cmd.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    """Play a duplicate tournament between bots and print its table (or JSON)."""
    from handfoot.tournament import run_tournament

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) < 2:
        raise UsageError("--bots: give at least two bots, e.g. --bots easy,random")
    _check_bots(bots)
    if len(set(bots)) != len(bots):
        raise UsageError("--bots: name each bot once")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    run = run_options(args)
    profile, layout = _profile_and_layout(args)
    if layout.sides != 2:
        raise UsageError(f"tournaments are played with two sides, not {layout}")

    bar = _progress("games", args.quiet)
    with bar if bar is not None else contextlib.nullcontext():
        task = bar.add_task("games", total=None) if bar is not None else None

        def progress(done: int, total: int) -> None:
            if bar is not None and task is not None:
                bar.update(task, completed=done, total=total)

        result = _run_games("tournament", run, lambda: run_tournament(
            profile, bots, args.games, args.seed, layout=layout, workers=run.workers,
            scheduler=run.scheduler, partial=run.partial, resume=run.resume,
            progress=progress))
    if result is None:
        return 1
    if args.json:
        print(json.dumps(result.as_dict(), indent=2))
    else:
        print(result.format())
    return 0


def add_play_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``play``: a game against bots in the terminal."""
    from handfoot.terminal import HUMAN, best_bot

    play = commands.add_parser(
        "play", help="play a game against bots in the terminal",
        description="Play a full game against bots in the terminal: you see only your own "
                    "seat's cards and type moves such as draw, meld K K K | 9 9 2, "
                    "discard 5 (type help during the game; see docs/terminal.md). A game "
                    "you leave (quit, Ctrl-C) is saved; --resume FILE continues it. "
                    "Exit 0 when the game is played out, 1 when you leave it.")
    _add_rule_options(play)
    play.add_argument("--seats", metavar="SEAT,SEAT,...",
                      help=f"one name per seat: {HUMAN!r} once for you, bots from "
                           f"{', '.join(BOTS)} (default: you in seat 1, {best_bot()} "
                           "bots elsewhere)")
    play.add_argument("--seed", type=int, default=None,
                      help="the seed (default: a random one, printed at the start)")
    play.add_argument("--record", metavar="FILE",
                      help="write the game's record to FILE (also where a game you leave is "
                           "saved; default handfoot-game-SEED.json)")
    play.add_argument("--force", action="store_true",
                      help="with --record: overwrite FILE if it exists")
    play.add_argument("--resume", metavar="FILE",
                      help="continue a game you left (its saved record); the rules, seats "
                           "and seed come from the file")
    play.add_argument("--pass-and-play", action="store_true",
                      help=f"several people at one keyboard: {HUMAN!r} in several --seats; "
                           "each hand is hidden until its player presses Enter")
    play.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    """Play one game in the terminal against bots."""
    import random

    from rich.console import Console

    from handfoot.record import from_json
    from handfoot.terminal import SeatError, TerminalGame, parse_seats, resume_state

    state: GameState | None = None
    if args.resume:
        given = [name for name, value in (("--profile", args.profile != DEFAULT_PROFILE),
                                          ("--set", args.set), ("--layout", args.layout),
                                          ("--seats", args.seats),
                                          ("--seed", args.seed is not None),
                                          ("--pass-and-play", args.pass_and_play)) if value]
        if given:
            raise UsageError(f"--resume takes the rules, seats and seed from the saved game: "
                             f"leave out {', '.join(given)}")
        record = from_json(Path(args.resume).read_text(encoding="utf-8"))
        state = resume_state(record)
        profile, layout = state.profile, state.layout
        seats = _saved_seats(record.metadata.get("seats"), [s.name for s in record.seats])
        seed = state.seed if state.seed is not None else 0
        save = Path(args.record) if args.record else Path(args.resume)
        if args.record and Path(args.record) != Path(args.resume):
            check_record_file(args.record, force=args.force)
    else:
        profile, layout = _profile_and_layout(args)
        try:
            seats = parse_seats(args.seats, layout.players,
                                people=0 if args.pass_and_play else 1)
        except SeatError as exc:
            raise UsageError(str(exc)) from None
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        if args.record:
            save = check_record_file(args.record, force=args.force)
        else:
            save = Path(f"handfoot-game-{seed}.json")
    console = Console(highlight=False)
    game = TerminalGame(profile, layout, seats, seed, read=console.input, console=console,
                        state=state, save_to=save, pause=sys.stdin.isatty(),
                        command=os.environ.get("HANDFOOT_PLAY_COMMAND")
                        or f"{os.environ.get('HANDFOOT_COMMAND') or 'handfoot'} play")
    code = game.run()
    if code == 0 and (args.record or args.resume):
        game.write_record(save)
        console.print(f"record written to {save}", markup=False, soft_wrap=True)
    return code


def _saved_seats(saved: object, names: list[str]) -> list[str]:
    """The seats of a saved game: its metadata's list, or read from the seat names
    (``you``, ``hard 2``)."""
    from handfoot.terminal import HUMAN

    if isinstance(saved, list) and all(isinstance(x, str) for x in saved):
        seats = [str(x) for x in saved]
    else:
        seats = [HUMAN if n == HUMAN else n.rsplit(" ", 1)[0] for n in names]
    unknown = [s for s in seats if s != HUMAN and s not in BOTS]
    if unknown or HUMAN not in seats or len(seats) != len(names):
        raise UsageError("the saved game does not say who sat where (not a game saved by "
                         "handfoot play)")
    return seats


def add_serve_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``serve``: the web game (needs the ``web`` extra)."""
    serve = commands.add_parser(
        "serve", help="play in the browser: start the web game server",
        description="Start the web game: one process serving the pages, the game API and "
                    "the WebSocket, with the games kept in a database (by default SQLite in "
                    "your data folder). Open the printed address in a browser; share a "
                    "game's seat links with family to play together.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this computer only; "
                            "0.0.0.0 for every network)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--database-url", metavar="URL",
                       help="the database: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/"
                            "NAME (default: SQLite in the user data folder); its schema is "
                            "migrated at start")
    serve.add_argument("--workers", type=int, default=1, metavar="N",
                       help="server processes sharing the port (default 1); more than one "
                            "needs PostgreSQL (see docs/server.md)")
    serve.add_argument("--open", action="store_true", help="open the game in a browser")
    serve.add_argument("--bot-delay", type=float, default=0.9, metavar="S",
                       help="seconds before a bot's move shows, whatever it computed "
                            "(default 0.9)")
    serve.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                       help="another site whose pages may use this server, like "
                            "https://cards.example.org (repeatable; the server's own pages "
                            "always may)")
    serve.add_argument("--no-open-limits", dest="open_limits", action="store_false",
                       help="do not limit new games, table connections and score sheets "
                            "per client address (for tests and load benchmarks on one "
                            "computer; see docs/server.md)")
    serve.set_defaults(func=cmd_serve)


def add_db_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``db upgrade``: migrate the web game's database (needs the ``web`` extra)."""
    db = commands.add_parser(
        "db", help="the web game's database: migrate its schema",
        description="The web game's database. The server migrates it at start too; run "
                    "'db upgrade' before starting several processes or to migrate ahead of "
                    "a deploy.")
    actions = db.add_subparsers(dest="action", metavar="ACTION", required=True)
    upgrade = actions.add_parser("upgrade", help="bring the schema to the newest revision",
                                 description="Bring the schema to the newest revision (a "
                                             "database made before migrations is adopted "
                                             "first, without change to its rows).")
    upgrade.add_argument("--database-url", metavar="URL",
                         help="sqlite:///FILE or postgresql://USER:PASSWORD@HOST/NAME "
                              "(default: SQLite in the user data folder)")
    upgrade.set_defaults(func=cmd_db_upgrade)


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    """Migrate the database and say to which revision."""

    try:
        from handfoot.web import migrations
        from handfoot.web.store import Store, default_database_url
    except ImportError as exc:
        raise UsageError(f"the web game needs the web extra ({exc.name} is missing): "
                         "pip install 'handfoot[web]'") from None
    store = Store(args.database_url or default_database_url())

    applied = _migrate(store)
    where = store.engine.url.render_as_string(hide_password=True)
    if applied:
        print(f"{where}: applied {', '.join(applied)}; now at revision {applied[-1]}")
    else:
        print(f"{where}: already at revision {migrations.head()}")
    return 0


def _migrate(store: Store) -> list[str]:  # Store: imported lazily (the web extra)
    """Open ``store``, bring its schema to the code's revision and close it: the revisions
    applied, or a :class:`UsageError` saying why the database could not be migrated."""
    import asyncio

    async def migrate() -> list[str]:
        try:
            return await store.start()
        finally:
            await store.close()
    try:
        applied: list[str] = asyncio.run(migrate())
    except Exception as exc:
        raise UsageError(f"the database could not be opened and migrated: {exc}") from None
    return applied


WORKER_SETTINGS = "HANDFOOT_WORKER_SETTINGS"
"""The environment variable that hands ``serve --workers``'s settings to each worker."""


def _serve_database(url: str | None, workers: int) -> None:
    """Check the database suits the processes, and migrate its schema once, before any
    worker starts. One SQLite file takes one server process (a lock file next to it):
    several would each keep their own copy of every game."""

    from handfoot.web.store import Store, default_database_url

    if workers < 1:
        raise UsageError("--workers: at least 1")
    store = Store(url or default_database_url())
    kind = store.engine.dialect.name
    if workers > 1 and not store.shared:
        raise UsageError(f"--workers {workers} needs a database that processes can share: "
                         f"PostgreSQL (--database-url postgresql://...), not {kind}; several "
                         "processes on one SQLite file would each keep their own copy of "
                         "every game")

    applied = _migrate(store)
    if applied:
        print(f"{PROG}: database migrated to revision {applied[-1]}", flush=True)
    path = store.engine.url.database if kind == "sqlite" else None
    if path and path != ":memory:":
        _lock_sqlite(path)


_SQLITE_LOCKS: list[Any] = []


def _lock_sqlite(path: str) -> None:
    """Hold ``<file>.serve-lock`` while serving: a second server on the same SQLite file is
    refused (the lock goes with the process, even when it is killed)."""
    try:
        import fcntl
    except ImportError:  # not on this system: no check
        return
    lock = open(f"{path}.serve-lock", "a")  # noqa: SIM115  (held for the process's life)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise UsageError(f"another handfoot server is using {path}: one SQLite file takes "
                         "one server process (for several, use PostgreSQL; see "
                         "docs/server.md)") from None
    _SQLITE_LOCKS.append(lock)


def _serve_workers(settings: Any, args: argparse.Namespace, **options: Any) -> int:
    """``--workers N``: uvicorn's N processes on one port, each building its app from the
    settings handed over in :data:`WORKER_SETTINGS` (``options`` go to uvicorn)."""
    import dataclasses

    import uvicorn

    data = {k: v for k, v in dataclasses.asdict(settings).items() if k != "seed_source"}
    os.environ[WORKER_SETTINGS] = json.dumps(data)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"{PROG}: playing at http://{host}:{args.port}/ ({args.workers} processes)",
          flush=True)
    uvicorn.run("handfoot.cli:worker_app", factory=True, host=args.host, port=args.port,
                workers=args.workers, log_level="warning", **options)
    return 0


def worker_app() -> Any:
    """One ``serve --workers`` process's app (uvicorn calls it in each worker)."""
    from handfoot.web.app import Settings, create_app

    data = json.loads(os.environ[WORKER_SETTINGS])
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                              for k, v in data.items()}
    return create_app(Settings(**values))


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web game until interrupted."""
    try:
        import uvicorn

        from handfoot.web.app import Settings, create_app
    except ImportError as exc:
        raise UsageError(f"the web game needs the web extra ({exc.name} is missing): "
                         "pip install 'handfoot[web]' (scripts/serve installs it)") from None
    if args.bot_delay < 0:
        raise UsageError("--bot-delay: seconds, at least 0")
    from handfoot.web.guard import normalize_origin
    from handfoot.web.protocol import MAX_FRAME_BYTES

    for origin in args.allowed_origin:
        if normalize_origin(origin) is None:
            raise UsageError(f"--allowed-origin: {origin!r} is not an origin like "
                             "https://cards.example.org")
    settings = Settings(database_url=args.database_url, bot_delay=args.bot_delay,
                        allowed_origins=tuple(args.allowed_origin),
                        open_limits=args.open_limits)
    _serve_database(settings.database_url, args.workers)
    # no permessage-deflate: a state frame is a few KB, and compressing every frame for
    # every connection cost about 0.5 ms of CPU a move and 0.2 MiB a table (zlib state per
    # socket) in benchmarks/server_load.py (docs/server.md, Measured figures)
    if args.workers > 1:
        return _serve_workers(settings, args, ws_max_size=MAX_FRAME_BYTES,
                              ws_per_message_deflate=False)
    app = create_app(settings)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{args.port}/"
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port,
                                           log_level="warning", workers=1,
                                           ws_max_size=MAX_FRAME_BYTES,
                                           ws_per_message_deflate=False))
    print(f"{PROG}: playing at {url}", flush=True)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, [url]).start()
    server.run()
    return 0


# --- entry point ------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the ``handfoot`` command line and return its exit code."""
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
    except (ProfileError, RecordError, UsageError, OSError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
