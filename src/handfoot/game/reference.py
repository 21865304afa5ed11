"""Profiles and optional rules for reference: as JSON data for programs, and as the page
docs/profiles.md for people.

:func:`profile_json` gives a profile as data (``handfoot rules show --json``),
:func:`option_json` an optional rule (``handfoot rules options --json``), and
:func:`profiles_markdown` the reference page: every parameter with its value in every
built-in profile, what loading refuses, and every optional rule. All of it is written from
the parameters' TOML values (:func:`handfoot.game.loading.value_to_toml`).

>>> from handfoot.game.loading import OPTIONS
>>> option_sets_text(OPTIONS["sevens_from_hell"])
'discard_locked_until_clean_book = ["7"]'

Regenerate the reference page with ``python -m handfoot.game.reference > docs/profiles.md``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from handfoot.game.loading import (
    LOAD_REFUSALS,
    MAX_PROFILE_BYTES,
    OPTIONS,
    builtin_profile_names,
    load_profile,
    profile_to_toml_values,
    value_to_toml,
)
from handfoot.game.rulebook import TABLETOP_FIELDS
from handfoot.game.rules import FIELDS, SECTIONS, OptionInfo, Profile

__all__ = ["option_json", "profile_json", "profiles_markdown", "toml_value"]


def profile_json(p: Profile) -> dict[str, Any]:
    """A profile as JSON-ready data: its identity, its house-rule overrides, the options it
    switches on (as an ``[options]`` table), and every parameter by TOML section."""
    return {
        "name": p.name,
        "title": p.title,
        "source": p.source,
        "extends": p.extends,
        "overrides": {key: _json_value(value) for key, value in p.overrides},
        "options": {key: True for key in p.options},
        **profile_to_toml_values(p),
    }


def option_json(option: OptionInfo) -> dict[str, Any]:
    """An optional rule as JSON-ready data, with the parameters it sets as TOML values."""
    return {
        "id": option.id,
        "key": option.key,
        "title": option.title,
        "groups": list(option.groups),
        "meant_for": list(option.meant_for),
        "tabletop": option.tabletop,
        "description": option.description,
        "source": option.source,
        "sets": {param: _json_value(value) for param, value in option.sets},
    }


def toml_value(value: Any) -> str:
    """A value written as TOML: ``true``, ``"all"``, ``[50, 90]``, ``{ "5" = 3000 }``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)} = {toml_value(v)}"
                                for k, v in value.items()) + " }"
    return json.dumps(str(value), ensure_ascii=False)


def option_sets_text(option: OptionInfo) -> str:
    """The parameters an option sets, as TOML: ``rounds = 5, clean_book_opening_rounds = [5]``."""
    return ", ".join(f"{param} = {toml_value(value)}" for param, value in option.sets)


def profiles_markdown() -> str:
    """``docs/profiles.md``: every parameter with its value in every built-in profile, and
    every optional rule, generated from the profiles and ``options.toml``."""
    names = builtin_profile_names()
    profiles = [load_profile(name) for name in names]
    lines = [
        "# Rule profiles",
        "",
        "<!-- Generated from the profiles and options.toml by "
        "`python -m handfoot.game.reference > docs/profiles.md`; do not edit by hand. -->",
        "",
        "A profile is a TOML file with the sections below. A house-rule file names the "
        "profile it changes with `extends = \"<profile or file>\"` and gives only the "
        "parameters it changes, and the optional rules it switches on in an `[options]` "
        "table; `name`, `title` and `source` are optional text. A file without `extends` is "
        "a complete profile: it gives every parameter below, and loading names the ones it "
        "leaves out (an empty file is refused). A profile file is UTF-8 text (a byte-order "
        "mark first is allowed) of at most "
        f"{MAX_PROFILE_BYTES // 1024} KiB; a larger file (or an endless one, such as "
        "`/dev/zero`) is refused after reading that much. Card kinds are written "
        "`\"4\"` … `\"10\"`, `\"J\"`, `\"Q\"`, `\"K\"`, `\"A\"`, `\"2\"`, `\"joker\"`, "
        "`\"black 3\"`, `\"red 3\"`. Seatings are `\"SIDESxSEATS\"`: `\"2x2\"` is two sides "
        "of two partners (partners never sit side by side), `\"2x1\"` two players on their "
        "own; each seating is listed once, and the first listed is the default.",
        "",
        "`handfoot rules show NAME` tells a profile's rules in words, `handfoot rules diff A B` "
        "how two differ, and `handfoot rules options` lists the optional rules.",
        "",
        "## The built-in profiles",
        "",
        "| profile | title | source |",
        "|---|---|---|",
    ]
    for p in profiles:
        lines.append(f"| `{p.name}` | {_cell(p.title)} | {_cell(p.source)} |")
    lines += [
        "",
        "Every built-in profile lists every parameter explicitly. The tables below give "
        "each parameter's meaning and its value in every built-in profile.",
    ]
    header = "| parameter | meaning | " + " | ".join(f"`{n}`" for n in names) + " |"
    rule = "|---|---|" + "---|" * len(names)
    for section in SECTIONS:
        lines += ["", f"## [{section}]", "", _SECTION_INTROS[section], "", header, rule]
        for name, info in FIELDS.items():
            if info.section != section:
                continue
            meaning = info.doc
            if info.choices:
                meaning += " One of: " + ", ".join(f"`{c}`" for c in info.choices) + "."
            if name in TABLETOP_FIELDS:
                meaning = f"*Tabletop only.* {meaning}"
            values = " | ".join(
                f"`{toml_value(value_to_toml(info, getattr(p, name)))}`" for p in profiles)
            lines.append(f"| `{name}` | {_cell(meaning)} | {values} |")
    lines += _every_round_ends_markdown(profiles)
    lines += _load_refusals_markdown()
    lines += _options_markdown()
    return "\n".join(lines) + "\n"


# --- helpers ----------------------------------------------------------------------------

_SECTION_INTROS = {
    "players": "Who plays and with how many cards.",
    "deal": "The packets each player gets and how the discard pile starts.",
    "game": "Rounds, opening minimums and the turn.",
    "melds": "Melds, books and wild cards.",
    "pickup": "Taking the discard pile.",
    "going_out": "What a side needs to go out, and how.",
    "scoring": "Card values and bonuses. The parameters marked *tabletop only* score things "
               "that cannot happen when the software deals and checks every move: the "
               "software never applies them; they are for a score keeper at a real table.",
}


def _json_value(value: Any) -> Any:
    """A TOML value as JSON data (TOML dates and times become strings)."""
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _every_round_ends_markdown(profiles: list[Profile]) -> list[str]:
    """The resolution that makes every round finite (``stalled_turns_each``), with why."""
    lines = [
        "",
        "## Every round ends",
        "",
        "A resolution in the style of RULES-MATRIX §3 (issue 13).",
        "",
        "- Problem: in `remastered-singles` a pickup takes the pile's top card into the hand "
        "(A-08) and a player may hold no cards (001:84). Players who cannot go out yet may "
        "take the top card and discard it again, turn after turn: nothing is drawn, nothing "
        "is laid and the round never ends (hard bots did so in 16 of 53 two-player games). "
        "The seeds give no rule for it: 001:14 expects the stock never to run out, and the "
        "stock rules (A-13, A-36, A-46) need a draw. Forbidding the discard of the card just "
        "taken is not enough: three cards can go round between two players.",
        "- Resolution: `stalled_turns_each`. A turn is *stalled* unless its player drew from "
        "the stock or laid cards on the table for good (a meld still on the table at the "
        "turn's end, the top card melded with a pickup, a red 3); melds taken back with "
        "Undo lay nothing. When a turn ends and the stalled turns in a row reach "
        "`stalled_turns_each` × players, the round ends and is scored as when the stock "
        "runs out: no going-out bonus, the cards left in the packets count against. Records "
        "store the round's end as `\"stalled\"`.",
        "- Why every round ends: every turn starts with a draw or a pickup. A draw takes at "
        "least one card from the stock, and nothing puts cards back into it during a round "
        "(no profile reshuffles the pile, E3; a rejected starter goes back only while "
        "dealing). Cards on the table stay there for the round (Undo takes back only the "
        "current turn's melds). Where every pickup melds the top card (`pickup_melds_top = "
        "true`) each pickup lays a card, so with S cards in the stock after the deal and C in "
        "the shoe a round has at most S + C + 1 turns (the last may find the stock too "
        "short), and `\"none\"` is safe. Where the top "
        "card joins the hand, loading refuses `\"none\"` (unless `pickup_allowed` is false); "
        "with N = `stalled_turns_each` × players, fewer than N stalled turns come between "
        "two turns that draw or lay and at most N follow the last, so a round has at most "
        "(S + C + 1) × N turns. "
        "`tests/test_liveness.py` plays every profile and seating under random, easy, "
        "normal and hard bots and a pile-cycling adversary and checks this bound.",
        "- Why 3: counted in turns of every player the limit means the same at every "
        "seating: three times round the table with nobody drawing or laying. Bots in "
        "ordinary play never reach it (they do not take a card they would have to throw "
        "back; measured: no stalled round in 896 rounds of random, easy, normal and hard "
        "bots at every seating of `remastered-singles`); only a table that passes the "
        "pile's top card round does.",
        "",
        "| profile | `stalled_turns_each` | why |",
        "|---|---|---|",
    ]
    for p in profiles:
        if p.stalled_turns_each is not None:
            why = "the top card of a pickup joins the hand"
        elif not p.pickup_allowed:
            why = "the pile is never taken: every turn draws"
        else:
            why = "every pickup melds the top card"
        value = toml_value(value_to_toml(FIELDS["stalled_turns_each"], p.stalled_turns_each))
        lines.append(f"| `{p.name}` | `{value}` | {why} |")
    return lines


def _load_refusals_markdown() -> list[str]:
    """What loading refuses, beyond each value's type and range (``LOAD_REFUSALS``)."""
    lines = [
        "",
        "## What loading refuses",
        "",
        "Loading checks every key, type and range, and every combination that could not "
        "make a finite, playable game, naming the file and the key to change; whatever loads "
        "plays to its end (`tests/test_generated_profiles.py` plays generated rules). Beyond "
        "types and ranges it refuses:",
        "",
    ]
    lines += [f"- `{key}`: {rule}." for key, rule in LOAD_REFUSALS]
    return lines


def _options_markdown() -> list[str]:
    groups: dict[str, list[OptionInfo]] = {}
    for option in OPTIONS.values():
        for group in option.groups:
            groups.setdefault(group, []).append(option)
    lines = [
        "",
        "## Optional rules",
        "",
        "The Optional Alternate Rules of the Hand & Foot Remastered rulebook (seed 001, "
        "lines 220-287; RULES-MATRIX §5) are options. None is on in a built-in profile. A "
        "house-rule file switches options on in its `[options]` table:",
        "",
        "```toml",
        "extends = \"remastered-teams\"",
        "",
        "[options]",
        "sevens_from_hell = true",
        "first_to_10000 = true",
        "",
        "[game]",
        "rounds = 20            # an explicit parameter wins over an option's value",
        "```",
        "",
        "- An option sets the parameters listed under it. Parameters the file gives "
        "explicitly are applied after the options, so they win (above, the game to 10,000 "
        "stops after 20 rounds at most).",
        "- Options that share an exclusive group are alternatives: switching two of them on "
        "is an error naming both.",
        "- An option's value must be `true` or `false`; `false` leaves it off. An option "
        "switched on by the profile a file extends cannot be switched off again: extend the "
        "profile below it instead.",
        "- `--set KEY=true` on the command line switches an option on as a house-rule file "
        "would.",
        "- *Meant for* names the profiles the rulebook offers an option for; the loader does "
        "not enforce it.",
        "- A *tabletop* option changes nothing the software can see happen (it deals and "
        "checks every move); it gives a score keeper at a real table its values.",
        "",
        "Exclusive groups:",
        "",
    ]
    for group, members in groups.items():
        lines.append(f"- {group}: " + ", ".join(f"`{o.key}` ({o.id})" for o in members))
    lines += ["", "| id | key | title | group | sets | meant for | tabletop |",
              "|---|---|---|---|---|---|---|"]
    for option in OPTIONS.values():
        group = ", ".join(option.groups) or "–"
        meant = ", ".join(f"`{n}`" for n in option.meant_for)
        tabletop = "yes" if option.tabletop else "no"
        lines.append(f"| {option.id} | `{option.key}` | {_cell(option.title)} | {group} | "
                     f"`{_cell(option_sets_text(option))}` | {meant} | {tabletop} |")
    for option in OPTIONS.values():
        lines += [
            "",
            f"### {option.id} `{option.key}`: {option.title}",
            "",
            option.description,
            "",
            f"- Sets: `{option_sets_text(option)}`",
            "- Exclusive group: " + (", ".join(option.groups) or "none"),
            "- Meant for: " + ", ".join(f"`{n}`" for n in option.meant_for),
            f"- Source: {option.source}",
        ]
        if option.tabletop:
            lines.append("- Tabletop: yes; the software deals and checks every move, so it "
                         "never applies what this option scores.")
    return lines


if __name__ == "__main__":
    sys.stdout.write(profiles_markdown())
