"""Commands that play games between bots: ``simulate``, ``demo``, ``replay`` (a record
checked move by move) and ``tournament``."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys

from handfoot.bots.registry import BOTS, make_bot
from handfoot.cli.options import (
    LEARNED_HELP,
    PROG,
    UsageError,
    add_rule_options,
    add_run_options,
    add_table_options,
    check_bots,
    check_games,
    check_record_file,
    check_records_folder,
    profile_and_layout,
    progress_bar,
    run_games,
    run_options,
    table_of,
    warn_untuned,
)
from handfoot.game.engine import GameState
from handfoot.game.record import GameRecord, GameRecorder, format_breakdown, replay_command, to_json
from handfoot.runs.sim import GameSummary, SafetyCapReached, derive_seed, play_game, simulate
from handfoot.terminal.saves import write_atomically

__all__ = ["add_run_commands", "add_tournament_command", "cmd_demo", "cmd_replay",
           "cmd_simulate", "cmd_tournament"]


def add_run_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``simulate``, ``demo`` and ``replay``."""
    sim = commands.add_parser(
        "simulate", help="play many games between bots and print statistics",
        description="Play complete games between bots and print statistics. The same seed "
                    "gives the same games and the same output.")
    add_table_options(sim, bots_default="hard")
    sim.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    sim.add_argument("--json", action="store_true", help="print the statistics as JSON")
    sim.add_argument("--records", metavar="DIR",
                     help="write every game's record to DIR as game-NNNN.json (DIR is created "
                          "if missing; a folder holding an earlier run's records is refused "
                          "unless --force)")
    sim.add_argument("--force", action="store_true",
                     help="with --records: replace the records of an earlier run in DIR")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    add_run_options(sim)
    sim.set_defaults(func=cmd_simulate)

    demo = commands.add_parser(
        "demo", help="watch one game between bots, round by round",
        description="Play one seeded game between bots and print how each round ended and "
                    "each side's score breakdown.")
    add_table_options(demo, bots_default="hard")
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


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play ``--games`` games and print statistics (or JSON); optionally write records."""
    profile, layout, bots = table_of(args)
    check_games(args.games)
    run = run_options(args)
    if args.records and run.resume:
        raise UsageError("--records and --resume: a resumed run cannot write the records of "
                         "the games played before; give --records to a new run")
    records = (check_records_folder(args.records, force=args.force) if args.records
               else None)
    bar = progress_bar("games", args.quiet)
    task = bar.add_task("games", total=args.games) if bar is not None else None

    def on_game(index: int, state: GameState, summary: GameSummary,
                record: GameRecord | None) -> None:
        if records is not None and record is not None:
            path = records / f"game-{index + 1:04d}.json"
            write_atomically(path, to_json(record))

    def progress(done: int, total: int) -> None:
        if bar is not None and task is not None:
            bar.update(task, completed=done, total=total)

    try:
        with bar if bar is not None else contextlib.nullcontext():
            stats = run_games("simulate", run, lambda: simulate(
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
    profile, layout, bots = table_of(args)
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
        write_atomically(args.record, to_json(recorder.record()))
        print(f"record written to {args.record}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record; print its breakdowns or the first illegal move."""
    code, text = replay_command(args.file, json_output=args.json)
    print(text, file=sys.stdout if code != 2 else sys.stderr)
    return code


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
    add_rule_options(cmd, layout_help="seating with two sides, e.g. 2x2 or 2x1")
    cmd.add_argument("--bots", required=True, metavar="BOT,BOT[,...]",
                     help=f"two or more bots, from: {', '.join(BOTS)}; a level may carry "
                          "settings, e.g. hard:hold=1:keep_pair=80 (docs/bots.md). "
                          f"{LEARNED_HELP}")
    cmd.add_argument("--games", type=int, default=50,
                     help="duplicate pairs (two games each) per pairing (default 50)")
    cmd.add_argument("--seed", type=int, default=1, help="the seed (default 1)")
    cmd.add_argument("--json", action="store_true",
                     help="print the results as JSON (timing under \"timing\")")
    cmd.add_argument("--quiet", action="store_true", help="no progress bar")
    add_run_options(cmd)
    cmd.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    """Play a duplicate tournament between bots and print its table (or JSON)."""
    from handfoot.runs.tournament import run_tournament

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) < 2:
        raise UsageError("--bots: give at least two bots, e.g. --bots easy,random")
    check_bots(bots)
    if len(set(bots)) != len(bots):
        raise UsageError("--bots: name each bot once")
    pairings = len(bots) * (len(bots) - 1) // 2
    check_games(args.games, 2 * pairings, "duplicate pairs per pairing")
    run = run_options(args)
    profile, layout = profile_and_layout(args)
    if layout.sides != 2:
        raise UsageError(f"tournaments are played with two sides, not {layout}")
    warn_untuned(profile, layout, bots)

    bar = progress_bar("games", args.quiet)
    with bar if bar is not None else contextlib.nullcontext():
        task = bar.add_task("games", total=None) if bar is not None else None

        def progress(done: int, total: int) -> None:
            if bar is not None and task is not None:
                bar.update(task, completed=done, total=total)

        result = run_games("tournament", run, lambda: run_tournament(
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
