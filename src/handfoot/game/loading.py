"""Profile files: the built-in profiles, house-rule files and the optional rules, read and
checked.

A profile ships as a TOML file in ``handfoot/profiles``; a house-rule file is a TOML file
with ``extends = "<profile>"`` and the parameters it changes, and may switch on optional
rules (``handfoot/options.toml``). Loading checks every key, type, range and combination,
and names the file, key and problem when one is wrong; whatever loads plays to its end. The
same module writes a profile's values back as TOML values.

>>> p = load_profile("partnership-13", overrides={"rounds": 1})
>>> p.rounds, p.extends
(1, 'partnership-13')
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Final

from handfoot.game import cards
from handfoot.game.cards import KIND_NAMES
from handfoot.game.rules import (
    FIELDS,
    MAX_PLAYERS,
    SECTIONS,
    FieldInfo,
    Layout,
    OptionInfo,
    PickupWildTop,
    Profile,
)
from handfoot.game.rules import shown as _shown
from handfoot.game.rules import type_name as _type_name

__all__ = [
    "LOAD_REFUSALS",
    "MAX_EXTENDS",
    "MAX_PROFILE_BYTES",
    "OPTIONS",
    "ProfileError",
    "builtin_profile_names",
    "load_profile",
    "profile_from_mapping",
]


class ProfileError(ValueError):
    """A rule profile or house-rule file is invalid; the message names file, key and problem."""


DEFAULT_PROFILE = "partnership-13"
"""The profile played when none is named."""

MAX_PROFILE_BYTES: Final = 256 * 1024
"""The largest profile file read (a full profile with every comment is under 10 KiB); a
larger file, or an endless one such as /dev/zero, is refused after reading this much."""
MAX_EXTENDS: Final = 64
"""The longest chain of house-rule files extending each other."""

LOAD_REFUSALS: Final[tuple[tuple[str, str], ...]] = (
    ("layouts", f"a seating of more than {MAX_PLAYERS} players (the rulebooks seat at most "
                "8, RULES-MATRIX P1), or one whose shoe cannot deal every packet, the starter "
                "and a draw"),
    ("starter_rejected", "a list that rejects every kind, or leaves fewer cards that may be "
                         "turned than the packets and starters take: the deal could never "
                         "turn its starter"),
    ("foot_size", "a Foot no larger than `min_cards_kept`: the player who picks it up could "
                  "neither discard, meld nor go out"),
    ("knee_size", "a Knee no larger than `min_cards_kept` (0 is no Knee): it may be the last "
                  "packet, picked up into an empty hand"),
    ("book_size", "a book larger than the cards of one rank in the shoe where clean books "
                  "are needed (to go out, or to open)"),
    ("wild_books_to_go_out", "more all-wild books than the shoe's wild cards can make"),
    ("dirty_books_to_go_out", "dirty books where the wild-card rules let no book hold a wild"),
    ("clean_books_to_go_out", "books to go out that need more natural cards than the shoe "
                              "holds"),
    ("opening_minimums", "an opening minimum (or `score_band_minimums` minimum) larger than "
                         "the value of every card of the shoe"),
    ("stalled_turns_each", "`\"none\"` where a pickup's top card joins the hand"),
    ("extends", f"a loop of files extending each other, or a chain of more than "
                f"{MAX_EXTENDS} files"),
)
"""What loading refuses beyond types and ranges, as (key named, the rule): every one is a
combination that cannot make a finite, playable game (docs/profiles.md)."""


def _load_options() -> dict[str, OptionInfo]:
    text = resources.files("handfoot.game").joinpath("options.toml").read_text(encoding="utf-8")
    out: dict[str, OptionInfo] = {}
    for item in tomllib.loads(text)["option"]:
        out[item["key"]] = OptionInfo(
            id=item["id"], key=item["key"], title=item["title"],
            groups=tuple(item["groups"]), meant_for=tuple(item["meant_for"]),
            source=item["source"], description=item["description"],
            tabletop=item.get("tabletop", False), sets=tuple(item["set"].items()))
    for key, option in out.items():
        # One flat namespace holds parameters and options (overrides, --set): never both.
        if key in FIELDS:
            raise ProfileError(f"options.toml: {option.id} {key}: is also a parameter's name")
        unknown = [param for param, _ in option.sets if param not in FIELDS]
        if unknown:
            raise ProfileError(f"options.toml: {option.id} {key}: sets unknown parameters "
                               + ", ".join(unknown))
    return out


OPTIONS: dict[str, OptionInfo] = _load_options()
"""The optional house rules by key, in the rulebook's order (``handfoot/options.toml``)."""


def builtin_profile_names() -> list[str]:
    """Names of the profiles shipped with handfoot, default first."""
    files = resources.files("handfoot.game").joinpath("profiles")
    names = sorted(p.name.removesuffix(".toml") for p in files.iterdir()
                   if p.name.endswith(".toml"))
    names.remove("partnership-13")
    return ["partnership-13", *names]


def load_profile(name_or_path: str | Path, *, overrides: Mapping[str, Any] | None = None,
                 overrides_origin: str = "overrides") -> Profile:
    """Load a built-in profile by name, or a profile or house-rule TOML file by path.

    ``overrides`` (flat ``{parameter: value}``, values as written in TOML) are applied last,
    as a house-rule file's would be.
    """
    text, origin = _read_source(name_or_path)
    data = parse_toml(text, origin)
    profile = profile_from_mapping(data, origin=origin, default_name=_stem(name_or_path))
    if overrides:
        base_name = profile.extends or profile.name
        profile = dataclasses.replace(
            apply_overrides(profile, overrides, origin=overrides_origin), extends=base_name)
    return profile


def parse_toml(text: str, origin: str) -> dict[str, Any]:
    """Parse the text of a profile or house-rule file; any problem, even a hostile file's
    (nesting a thousand levels deep, an integer of thousands of digits), is a
    :class:`ProfileError` naming ``origin``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{origin}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ProfileError(f"{origin}: not valid TOML for a profile: its lists or tables are "
                           "nested far too deeply") from None
    except ValueError as exc:  # an integer too long for Python to read
        raise ProfileError(f"{origin}: not valid TOML for a profile: "
                           f"{_int_limit_text(exc)}") from None


def profile_from_mapping(data: Mapping[str, Any], *, origin: str = "<profile>",
                         default_name: str = "custom",
                         _chain: tuple[tuple[str, str], ...] = ()) -> Profile:
    """Build a profile from parsed TOML (a full profile, or ``extends`` plus overrides).

    ``_chain`` holds the files that extend this one, nearest last, each as (its identity,
    its name as written), to find a loop.
    """
    for key, value in data.items():
        if key in _TOP_KEYS:
            if not isinstance(value, str):
                raise ProfileError(f"{origin}: {key}: must be a string")
            continue
        if key in SECTIONS or key == "options":
            if not isinstance(value, dict):
                raise ProfileError(f"{origin}: [{key}] must be a table of parameters")
            continue
        if key in FIELDS:
            raise ProfileError(
                f"{origin}: {key}: belongs in the [{FIELDS[key].section}] section")
        if key in OPTIONS:
            raise ProfileError(f"{origin}: {key}: belongs in the [options] section")
        what = f"[{key}]: unknown section" if isinstance(value, dict) else f"{key}: unknown key"
        hint = _suggest(key, [*_TOP_KEYS, *SECTIONS, "options"]) or (
            " (a profile holds the keys " + ", ".join(_TOP_KEYS) + " and the sections "
            + ", ".join(f"[{s}]" for s in (*SECTIONS, "options")) + ")")
        raise ProfileError(f"{origin}: {what}{hint}")

    flat: dict[str, Any] = {}
    for section in SECTIONS:
        for key, value in data.get(section, {}).items():
            info = FIELDS.get(key)
            if info is None and key in OPTIONS:
                raise ProfileError(
                    f"{origin}: [{section}] {key}: is an option ({OPTIONS[key].id}), not a "
                    "parameter: switch it on in the [options] section")
            if info is None:
                names = [n for n, i in FIELDS.items() if i.section == section]
                raise ProfileError(
                    f"{origin}: [{section}] {key}: unknown parameter{_suggest(key, list(FIELDS))}"
                    + ("" if _suggest(key, names) else f" (parameters of [{section}]: "
                       + ", ".join(names) + ")"))
            if info.section != section:
                raise ProfileError(
                    f"{origin}: [{section}] {key}: belongs in the [{info.section}] section")
            flat[key] = value
    for key, value in data.get("options", {}).items():
        if key not in OPTIONS:
            if key in FIELDS:
                raise ProfileError(f"{origin}: [options] {key}: is a parameter of the "
                                   f"[{FIELDS[key].section}] section, not an option")
            raise ProfileError(f"{origin}: [options] {key}: unknown option"
                               f"{_suggest(key, list(OPTIONS))}")
        flat[key] = value

    extends = data.get("extends")
    if extends is not None:
        # A relative path is read from the folder of the file that names it.
        source = extends
        if extends not in builtin_profile_names() and _exists(Path(origin), file=True):
            near = Path(origin).parent / extends
            if near.suffix == ".toml" or _exists(near):
                source = str(near)
        chain = (*_chain, (_identity(origin), origin))
        seen = [identity for identity, _ in chain]
        if _identity(source) in seen:
            loop = [shown for _, shown in chain[seen.index(_identity(source)):]]
            raise ProfileError(
                f"{origin}: extends: profiles extend each other in a loop: "
                + " extends ".join([*loop, source]))
        if len(chain) > MAX_EXTENDS:
            raise ProfileError(
                f"{origin}: extends: a chain of more than {MAX_EXTENDS} files extending each "
                f"other is too long (it begins with {chain[0][1]})")
        try:
            text, base_origin = _read_source(source)
        except ProfileError as exc:
            raise ProfileError(f"{origin}: extends: {exc}") from None
        try:
            base_data = parse_toml(text, base_origin)
        except ProfileError as exc:
            raise ProfileError(f"{origin}: extends: {exc}") from None
        base = profile_from_mapping(base_data, origin=base_origin,
                                    default_name=_stem(extends), _chain=chain)
        profile = apply_overrides(base, flat, origin=origin)
        return dataclasses.replace(
            profile,
            name=data.get("name", default_name),
            title=data.get("title", base.title if base.extends else
                           f"{base.title}, with house rules"),
            source=data.get("source", base.source),
            extends=base.extends or base.name,
            overrides=tuple(sorted({**dict(base.overrides), **flat}.items())),
        )
    missing = [key for key in FIELDS if key not in flat]
    if missing:
        raise ProfileError(_incomplete_text(origin, missing, empty=not data))
    base = Profile()
    profile = apply_overrides(base, flat, origin=origin, record=False)
    return dataclasses.replace(
        profile, name=data.get("name", default_name), title=data.get("title", default_name),
        source=data.get("source", ""), extends=None, overrides=())


def _incomplete_text(origin: str, missing: list[str], *, empty: bool) -> str:
    """A profile without ``extends`` that leaves parameters out: one line naming them."""
    hint = (f"give `extends = \"{DEFAULT_PROFILE}\"` (or another profile) to change only some "
            "parameters")
    if empty:
        return f"{origin}: an empty profile: {hint}, or give every parameter"
    shown = ", ".join(f"[{FIELDS[k].section}] {k}" for k in missing[:6])
    more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
    return (f"{origin}: not a complete profile: without `extends` a profile gives every "
            f"parameter, and this one leaves out {len(missing)}: {shown}{more}; {hint}")


def apply_overrides(base: Profile, flat: Mapping[str, Any], *, origin: str,
                    record: bool = True) -> Profile:
    """A copy of ``base`` with parameters and options changed, validated as a whole.

    Options switched on apply their parameters first; parameters given explicitly win.
    """
    changes: dict[str, Any] = {}
    enabled = list(base.options)
    for key, raw in flat.items():
        if key not in OPTIONS:
            continue
        if not isinstance(raw, bool):
            raise ProfileError(
                f"{origin}: [options] {key}: must be true or false, not {_shown(raw)}")
        if raw and key not in enabled:
            enabled.append(key)
        elif not raw and key in enabled:
            raise ProfileError(
                f"{origin}: [options] {key}: the profile this extends switches it on; extend "
                "the profile below it instead to leave it off")
    _check_option_groups(enabled, origin)
    for key in OPTIONS:
        if key in enabled and key not in base.options:
            option = OPTIONS[key]
            for param, raw in option.sets:
                changes[param] = _convert(FIELDS[param], raw, f"{origin}: {option.id} {key}")
    for key, raw in flat.items():
        if key in OPTIONS:
            continue
        info = FIELDS.get(key)
        if info is None:
            raise ProfileError(
                f"{origin}: {key}: unknown parameter{_suggest(key, [*FIELDS, *OPTIONS])}")
        changes[key] = _convert(info, raw, origin)
    if enabled != list(base.options):
        changes["options"] = tuple(k for k in OPTIONS if k in enabled)
    if record and flat:
        merged = {**dict(base.overrides), **dict(flat)}
        changes["overrides"] = tuple(sorted(merged.items()))
    profile = dataclasses.replace(base, **changes)
    _check_consistency(profile, origin)
    return profile


def profile_to_toml_values(p: Profile) -> dict[str, dict[str, Any]]:
    """Every parameter of a profile as TOML values, by section (for ``--json`` and docs)."""
    out: dict[str, dict[str, Any]] = {s: {} for s in SECTIONS}
    for name, info in FIELDS.items():
        out[info.section][name] = value_to_toml(info, getattr(p, name))
    return out


def value_to_toml(info: FieldInfo, value: Any) -> Any:
    """A parameter value as it is written in TOML."""
    if info.kind == "opt_int":
        return ("all" if info.name == "pickup_count" else "none") if value is None else value
    if info.kind == "ints":
        return list(value)
    if info.kind == "kinds":
        return [kind_to_text(k) for k in value]
    if info.kind == "layouts":
        return [str(x) for x in value]
    if info.kind == "bonus_map":
        return {kind_to_text(k): v for k, v in value}
    if info.kind == "pairs":
        return [list(pair) for pair in value]
    if info.kind == "str":
        return str(value)
    return value


def kind_to_text(kind: int) -> str:
    """The TOML spelling of a kind."""
    return KIND_NAMES[kind]


# --- reading files ----------------------------------------------------------------------


_TOP_KEYS = ("name", "title", "source", "extends")


def _int_limit_text(exc: ValueError) -> str:
    digits = str(exc).partition("value has ")[2].partition(" digits")[0]
    return (f"an integer of {digits} digits is far too long" if digits.isdigit()
            else f"a value cannot be read ({str(exc)[:80]})")


def _stem(name_or_path: str | Path) -> str:
    return Path(str(name_or_path)).name.removesuffix(".toml")


def _read_source(name_or_path: str | Path) -> tuple[str, str]:
    text_name = str(name_or_path)
    if text_name in builtin_profile_names():
        res = resources.files("handfoot.game").joinpath("profiles").joinpath(f"{text_name}.toml")
        return res.read_text(encoding="utf-8"), f"{text_name}.toml"
    path = Path(text_name)
    if path.suffix == ".toml" or _exists(path):
        try:
            with path.open("rb") as f:
                raw = f.read(MAX_PROFILE_BYTES + 1)
            too_large = len(raw) > MAX_PROFILE_BYTES
            # (a byte-order mark that some editors write first is not part of the text)
            text = "" if too_large else raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ProfileError(
                f"{_file_name(path)}: cannot read: not UTF-8 text (byte {exc.start})") from None
        except OSError as exc:
            raise ProfileError(f"{_file_name(path)}: cannot read: {exc.strerror}") from None
        except ValueError:  # a NUL in the name
            raise ProfileError(f"{_file_name(path)}: cannot read: not a file name") from None
        if too_large:
            raise ProfileError(f"{_file_name(path)}: cannot read: larger than "
                               f"{MAX_PROFILE_BYTES // 1024} KiB, far too large for a profile")
        return text, str(path)
    known = builtin_profile_names()
    raise ProfileError(
        f"{_shown(text_name)} is neither a built-in profile ({', '.join(known)}) nor a TOML "
        f"file{_suggest(text_name, known)}")


def _file_name(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 200 else text[:196] + " ..."


def _exists(path: Path, *, file: bool = False) -> bool:
    """Whether a path exists (is a file), False for a name the system cannot look up."""
    try:
        return path.is_file() if file else path.exists()
    except (OSError, ValueError):
        return False


def _identity(source: str) -> str:
    """A profile source as one name: a built-in profile's name or a file's real path."""
    name = source.removesuffix(".toml")
    if name in builtin_profile_names() and not _exists(Path(source), file=True):
        return name
    try:
        return str(Path(source).resolve())
    except (OSError, ValueError, RuntimeError):
        return os.path.abspath(source)


# --- checking values --------------------------------------------------------------------


def _check_option_groups(enabled: list[str], origin: str) -> None:
    seen: dict[str, str] = {}
    for key in enabled:
        for group in OPTIONS[key].groups:
            if group in seen:
                a, b = OPTIONS[seen[group]], OPTIONS[key]
                raise ProfileError(
                    f"{origin}: [options] {a.key} ({a.id}) and {b.key} ({b.id}) cannot both be "
                    f"on: they are alternative rules for the {group}")
            seen[group] = key


def _suggest(key: str, names: list[str]) -> str:
    if len(key) > 100:
        return ""
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _convert(info: FieldInfo, raw: Any, origin: str) -> Any:
    where = f"{origin}: [{info.section}] {info.name}"
    kind = info.kind

    def check_int(v: Any, what: str = "") -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ProfileError(
                f"{where}: {what}must be an integer, not {_type_name(v)} {_shown(v)}")
        if v < info.minimum or (info.maximum is not None and v > info.maximum):
            top = "" if info.maximum is None else f" to {info.maximum}"
            raise ProfileError(
                f"{where}: {what}{_shown(v)} is out of range ({info.minimum}{top})")
        return v

    if kind == "int":
        return check_int(raw)
    if kind == "opt_int":
        if raw in ("none", "all"):
            return None
        if isinstance(raw, str):
            raise ProfileError(f"{where}: must be an integer or \"none\" (or \"all\"), "
                               f"not {_shown(raw)}{_suggest(raw, ['all', 'none'])}")
        return check_int(raw)
    if kind == "bool":
        if not isinstance(raw, bool):
            raise ProfileError(
                f"{where}: must be true or false, not {_type_name(raw)} {_shown(raw)}")
        return raw
    if kind == "str":
        if not isinstance(raw, str):
            raise ProfileError(f"{where}: must be a string, not {_type_name(raw)} {_shown(raw)}")
        if raw not in info.choices:
            raise ProfileError(
                f"{where}: {_shown(raw)} is not one of {', '.join(info.choices)}"
                + _suggest(raw, list(info.choices)))
        assert info.choice_type is not None
        return info.choice_type(raw)
    if kind == "ints":
        if not isinstance(raw, list) or (not raw and not info.empty_ok):
            raise ProfileError(f"{where}: must be a non-empty list of integers")
        return tuple(check_int(v, "each entry ") for v in raw)
    if kind == "pairs":
        if not isinstance(raw, list) or not all(
                isinstance(v, list) and len(v) == 2 for v in raw):
            raise ProfileError(f"{where}: must be a list of [score, minimum] pairs, like "
                               "[[-1, 15], [0, 60], [5000, 90]]")
        pairs = []
        for score, minimum in raw:
            if isinstance(score, bool) or not isinstance(score, int):
                raise ProfileError(f"{where}: the score {_shown(score)} must be an integer")
            if abs(score) > 10_000_000:
                raise ProfileError(f"{where}: the score {_shown(score)} is out of range "
                                   "(-10000000 to 10000000)")
            pairs.append((score, check_int(minimum, "each minimum ")))
        if [a for a, _ in pairs] != sorted({a for a, _ in pairs}):
            raise ProfileError(f"{where}: the scores must increase")
        return tuple(pairs)
    if kind == "kinds":
        if not isinstance(raw, list):
            raise ProfileError(f"{where}: must be a list of card kinds, like [\"red 3\", \"2\"]")
        return tuple(_kind_from_text(v, where) for v in raw)
    if kind == "layouts":
        if not isinstance(raw, list) or not raw:
            raise ProfileError(f"{where}: must be a non-empty list like [\"2x2\", \"2x1\"]")
        out = []
        for v in raw:
            if not isinstance(v, str):
                raise ProfileError(f"{where}: {_shown(v)} must be a string like \"2x2\"")
            try:
                layout = Layout.parse(v)
            except ValueError as exc:
                raise ProfileError(f"{where}: {exc}") from None
            if layout in out:
                raise ProfileError(f"{where}: the seating {layout} is given twice; give each "
                                   "seating once")
            out.append(layout)
        return tuple(out)
    if kind == "bonus_map":
        if not isinstance(raw, dict):
            raise ProfileError(f"{where}: must be a table like {{ 5 = 3000 }}")
        return tuple(sorted((_kind_from_text(k, where), check_int(v, f"{k}: "))
                            for k, v in raw.items()))
    raise AssertionError(kind)


_KIND_WORDS = {"red 3": cards.RED_THREE, "black 3": cards.BLACK_THREE, "joker": cards.JOKER,
               "2": cards.TWO, "10": cards.TEN}


def _kind_from_text(value: Any, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ProfileError(f"{where}: {_shown(value)} is not a card kind")
    v = value.strip().lower()
    if v in _KIND_WORDS:
        return _KIND_WORDS[v]
    for k, name in enumerate(KIND_NAMES):
        if name.lower() == v:
            return k
    raise ProfileError(
        f"{where}: {_shown(value)} is not a card kind (4-10, J, Q, K, A, 2, joker, black 3, red 3)")


# --- checking combinations --------------------------------------------------------------


def _check_consistency(p: Profile, origin: str) -> None:
    def fail(keys: str, problem: str) -> None:
        raise ProfileError(f"{origin}: {keys}: {problem}")

    if p.book_max is not None and p.book_max < p.book_size:
        fail("book_max", f"{p.book_max} is smaller than book_size {p.book_size}")
    if p.min_meld_size > p.book_size:
        fail("min_meld_size", f"{p.min_meld_size} is larger than book_size {p.book_size}")
    if p.wild_books_to_go_out and not p.all_wild_melds:
        fail("wild_books_to_go_out",
             "an all-wild book is required to go out, but all_wild_melds is false")
    if p.pickup_needs_pair and not p.pickup_melds_top:
        fail("pickup_needs_pair",
             "a pair must be melded with the top card, but pickup_melds_top is false")
    if p.stalled_turns_each is None and p.pickup_allowed and not p.pickup_melds_top:
        # Every turn starts with a draw or a pickup. A draw shrinks the stock and a pickup
        # that melds the top card grows the table, so turns are finite; a pickup into the
        # hand does neither, and players could pass the pile's top card round for ever.
        fail("stalled_turns_each",
             "must be a number (not \"none\") where pickup_melds_top is false and "
             "pickup_allowed is true: players could take and discard the same cards for "
             "ever, so the round needs a limit on turns without a draw or a meld")
    if p.pickup_wild_top == PickupWildTop.LIKE_PAIR and not p.all_wild_melds:
        fail("pickup_wild_top",
             "\"like_pair\" melds the wild top card into an all-wild meld, but all_wild_melds "
             "is false")
    for key, ranks in (("wild_free_ranks", p.wild_free_ranks),
                       ("special_books_to_go_out", p.special_books_to_go_out),
                       ("special_book_bonus", tuple(r for r, _ in p.special_book_bonus))):
        for rank in ranks:
            if rank not in cards.RANKS:
                fail(key, f"{KIND_NAMES[rank]} is not a meldable rank (4 to A)")
    if p.min_naturals_with_wild > p.book_size:
        fail("min_naturals_with_wild", "is larger than a book")
    # Every seating must leave a stock to draw from.
    for layout in p.layouts:
        players = layout.players
        shoe = p.decks(players) * (52 + p.jokers_per_deck)
        hand = max(p.hand_size_in(r) for r in range(1, p.rounds + 1))
        dealt = players * (hand + p.knee_size + p.foot_size) + p.starter_cards
        if dealt + p.draw_count > shoe:
            fail("layouts",
                 f"with {players} players the shoe holds {shoe} cards but the deal needs "
                 f"{dealt} and a draw")
    if p.decks(p.layout.players) < 1:
        fail("decks_per_player", "the shoe would hold no deck")
    _check_playable(p, fail)


def _check_playable(p: Profile, fail: Callable[[str, str], None]) -> None:
    """Refuse rules that load but cannot make a finite, playable game at some seating: a
    deal that cannot finish, a player stuck in their Foot, books or openings no shoe can
    make (each problem names the keys to change)."""
    rejected = set(p.starter_rejected)
    if len(rejected) == cards.NUM_KINDS:
        fail("starter_rejected", "lists every kind of card, so no starter could ever be "
             "turned and the deal would never end")
    if p.foot_size <= p.min_cards_kept:
        fail("foot_size", (
            f"{p.foot_size} is not more than min_cards_kept {p.min_cards_kept}: a player who "
            "picks up the Foot could neither discard (they must keep "
            f"{p.min_cards_kept}) nor meld, and the round could not go on"))
    if 0 < p.knee_size <= p.min_cards_kept:
        fail("knee_size", (
            f"{p.knee_size} is not more than min_cards_kept {p.min_cards_kept}: a player whose "
            "Knee comes last, joining an empty hand, could neither discard nor meld"))
    hand = max(p.hand_size_in(r) for r in range(1, p.rounds + 1))
    for layout in p.layouts:
        players, decks = layout.players, p.decks(layout.players)
        counts = [0] * cards.NUM_KINDS
        for face in cards.build_shoe(decks, p.jokers_per_deck):
            counts[cards.FACE_KIND[face]] += 1
        with_players = f"with {players} players ({decks} decks)"
        packets = players * (hand + p.knee_size + p.foot_size)
        turnable = sum(n for k, n in enumerate(counts) if k not in rejected)
        if turnable < packets + p.starter_cards:
            fail("starter_rejected", (
                f"{with_players} the shoe holds only {turnable} cards that may be turned as a "
                f"starter, but the packets take {packets} cards and {p.starter_cards} starter"
                f"{'s' if p.starter_cards != 1 else ''} must be turned: the deal could run "
                "out of cards to turn"))
        per_rank = counts[cards.ACE]  # every rank has as many naturals
        wilds = counts[cards.TWO] + counts[cards.JOKER]
        needs_rank = p.clean_books_to_go_out or p.special_books_to_go_out or any(
            r in p.clean_book_opening_rounds for r in range(1, p.rounds + 1))
        if needs_rank and per_rank < p.book_size:
            fail("book_size", (
                f"{with_players} the shoe holds {per_rank} cards of each rank, fewer than "
                f"the {p.book_size} of a clean book, which clean_books_to_go_out, "
                "special_books_to_go_out or clean_book_opening_rounds require"))
        if p.wild_books_to_go_out and wilds < p.book_size * p.wild_books_to_go_out:
            fail("wild_books_to_go_out", (
                f"{with_players} the shoe holds {wilds} wild cards, fewer than the "
                f"{p.book_size * p.wild_books_to_go_out} of {p.wild_books_to_go_out} all-wild "
                f"book{'s' if p.wild_books_to_go_out != 1 else ''} of {p.book_size}"))
        dirty_naturals = _dirty_book_naturals(p, per_rank, wilds)
        if p.dirty_books_to_go_out and dirty_naturals is None:
            fail("dirty_books_to_go_out", (
                f"{p.dirty_books_to_go_out} dirty book{'s' if p.dirty_books_to_go_out != 1 else ''}"
                " must be made to go out, but the wild-card rules (naturals_per_wild, "
                "natural_margin, max_wilds, min_naturals_with_wild, wild_free_ranks) let no "
                f"meld of {p.book_size} or more hold a wild {with_players}"))
        clean = p.clean_books_to_go_out + len(p.special_books_to_go_out)
        naturals = clean * p.book_size + p.dirty_books_to_go_out * (dirty_naturals or 0)
        meldable = sum(counts[k] for k in cards.RANKS)
        if naturals > meldable:
            fail("clean_books_to_go_out", (
                f"the books needed to go out (clean_books_to_go_out, dirty_books_to_go_out, "
                f"special_books_to_go_out) take at least {naturals} natural cards, more than "
                f"the {meldable} of the shoe {with_players}"))
        value = sum(max(0, p.kind_values[k]) * counts[k] for k in cards.RANKS) + (
            sum(max(0, p.kind_values[k]) * counts[k] for k in cards.WILDS))
        highest = max([*p.opening_minimums, *(m for _, m in p.score_band_minimums)])
        if highest > value:
            key = ("opening_minimums" if highest in p.opening_minimums
                   else "score_band_minimums")
            fail(key, (
                f"an opening minimum of {highest} can never be met: every card of the shoe "
                f"{with_players} is worth {value} points together"))


def _dirty_book_naturals(p: Profile, per_rank: int, wilds: int) -> int | None:
    """The fewest naturals of a book holding at least one wild card (None: no such book)."""
    ranks = [r for r in cards.RANKS if r not in p.wild_free_ranks]
    largest = p.book_size if p.book_max is None else p.book_max
    best: int | None = None
    for size in range(p.book_size, largest + 1):
        for w in range(1, min(wilds, size) + 1):
            n = size - w
            if (n <= per_rank and (best is None or n < best)
                    and any(p.wilds_allowed(n, w, r) for r in ranks)):
                best = n
    return best


