"""``handfoot rules``: the built-in profiles, a profile in words, how two differ, and the
optional house rules."""

from __future__ import annotations

import argparse
import json
import re
import textwrap

from handfoot.game.differences import diff_profiles
from handfoot.game.loading import DEFAULT_PROFILE, OPTIONS, builtin_profile_names, load_profile
from handfoot.game.reference import option_json, option_sets_text, profile_json
from handfoot.game.rulebook import describe_profile
from handfoot.game.rules import Layout

__all__ = ["add_rules_commands", "cmd_rules_diff", "cmd_rules_list", "cmd_rules_options",
           "cmd_rules_show", "for_people", "seatings_text"]


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
        print(json.dumps([option_json(o) for o in OPTIONS.values()], indent=2,
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
        print(f"    sets: {option_sets_text(option)}")
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
        print(json.dumps(profile_json(profile), indent=2, ensure_ascii=False))
        return 0
    print(f"{profile.title} ({profile.name})")
    if profile.source:
        print(f"In short: {for_people(profile.source)}")
    if profile.extends:
        changed = ", ".join(f"{key} = {json.dumps(value, ensure_ascii=False)}"
                            for key, value in profile.overrides) or "no changes"
        print(f"House rules on {profile.extends}: {changed}")
    for title, sentences in describe_profile(profile):
        print()
        print(title)
        for sentence in sentences:
            print(f"  - {sentence}")
    return 0


def cmd_rules_diff(args: argparse.Namespace) -> int:
    """Print every rule in which two profiles differ."""
    a, b = load_profile(args.a), load_profile(args.b)
    names = (a.name, b.name) if a.name != b.name else (args.a, args.b)
    differences = diff_profiles(a, b, names=names)
    if not differences:
        print(f"{names[0]} and {names[1]}: no differences")
        return 0
    print(f"{names[0]} and {names[1]} differ in {len(differences)} "
          f"rule{'s' if len(differences) > 1 else ''}:")
    for sentence in differences:
        print(f"  - {sentence}")
    return 0
