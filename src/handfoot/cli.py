"""The ``handfoot`` command line.

Each command is one ``cmd_*`` function taking the parsed arguments and returning an exit
code; :func:`build_parser` wires them to subcommands. Errors in a rule profile or a file
print ``handfoot: error: <message>`` and give exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable

from handfoot import __version__, rulebook
from handfoot.rules import DEFAULT_PROFILE, ProfileError, builtin_profile_names, load_profile

__all__ = ["build_parser", "cmd_rules_diff", "cmd_rules_list", "cmd_rules_show", "main"]

Command = Callable[[argparse.Namespace], int]

PROG = "handfoot"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand; each sets ``func`` to its command."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Hand and Foot: rules as data, bots, simulation and records.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_rules_commands(commands)
    return parser


def add_rules_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``rules`` group: list, show and diff rule profiles."""
    rules = commands.add_parser(
        "rules", help="list, show and compare rule profiles",
        description="List the built-in rule profiles, show one as a rulebook, or compare two.")
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


# --- rules ------------------------------------------------------------------------------


def cmd_rules_list(args: argparse.Namespace) -> int:
    """Print every built-in profile with its seatings and title; mark the default."""
    rows = []
    for name in builtin_profile_names():
        profile = load_profile(name)
        mark = "*" if name == DEFAULT_PROFILE else ""
        seatings = ", ".join(str(layout) for layout in profile.layouts)
        rows.append((name + mark, seatings, profile.title))
    header = ("PROFILE", "SEATINGS", "TITLE")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(2)]
    for row in [header, *rows]:
        print(f"{row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]}")
    print()
    print("* default profile. Seatings are SIDESxSEATS: 2x2 is two sides of two partners, "
          "2x1 two single players.")
    return 0


def cmd_rules_show(args: argparse.Namespace) -> int:
    """Print a profile as a rulebook (sections of sentences), or as JSON."""
    profile = load_profile(args.profile)
    if args.json:
        print(json.dumps(rulebook.profile_json(profile), indent=2, ensure_ascii=False))
        return 0
    print(f"{profile.title} ({profile.name})")
    if profile.source:
        print(f"Source: {profile.source}")
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
    except (ProfileError, OSError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
