"""Hostile files: a record (JSON) or house-rule file (TOML) built to break the readers.

The contract (docs/records.md, docs/profiles.md, ``handfoot --help``): a file that cannot be
read is a message and exit code 2, never a traceback. The readers raise only
:class:`RecordError` / :class:`ProfileError` (issue 13, item 3), whatever the file holds:
nesting a thousand deep, integers of thousands of digits, wrong types anywhere, random
mutations of a real record. Fuzzed with Hypothesis.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot.bots.registry import make_bot
from handfoot.cli import main
from handfoot.game.engine import GameState
from handfoot.game.loading import MAX_EXTENDS, OPTIONS, ProfileError, load_profile
from handfoot.game.record import GameRecord, GameRecorder, RecordError, from_json, replay, to_json
from handfoot.game.rules import FIELDS, SECTIONS

SCALE = int(os.environ.get("HANDFOOT_PROPERTY_SCALE", "1"))
FUZZ = settings(max_examples=60 * SCALE, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

DEEP_JSON = "[" * 1000 + "]" * 1000
HUGE = "9" * 4301


def short_game_record() -> str:
    """A real record: a one-round biegames game for two, played to its end by easy bots."""
    p = load_profile("biegames", overrides={"rounds": 1})
    recorder = GameRecorder(GameState.new(p, layout=p.layouts[1], seed=4))
    state = recorder.state
    bots = [make_bot("easy", s) for s in range(state.players)]
    while not state.is_over:
        recorder.apply_action(bots[state.to_act].choose(state.view(state.to_act)))
    return to_json(recorder.record())


RECORD = short_game_record()
RECORD_DATA: dict[str, Any] = json.loads(RECORD)


# --- records: the named cases ------------------------------------------------------------

def deep_in_metadata(depth: int) -> str:
    data = copy.deepcopy(RECORD_DATA)
    text = json.dumps(data)
    return text.replace('"metadata": {', '"metadata": {"x": ' + "[" * depth + "]" * depth + ", ",
                        1)


@pytest.mark.parametrize(("text", "words"), [
    (DEEP_JSON, "nested 1000 deep; a record nests at most 64 deep"),
    ('{"a": ' + "{\"a\": " * 999 + "1" + "}" * 1000, "nested 1000 deep"),
    (deep_in_metadata(1000), "nested 1002 deep"),
    ('{"format": "handfoot-record", "version": ' + HUGE + "}", "an integer of 4301 digits"),
    (RECORD.replace('"version": 1', '"version": -' + HUGE, 1), "an integer of 4301 digits"),
    (re.sub(r'"dealer": \d+', '"dealer": ' + "1" * 200, RECORD, count=1),
     "an integer of 200 digits"),
    (re.sub(r'"dealer": \d+', '"dealer": NaN', RECORD, count=1), "NaN is not a JSON number"),
    (re.sub(r'"dealer": \d+', '"dealer": 1e999', RECORD, count=1),
     "rounds[0].deal.dealer: must be an integer, not a number"),
    (re.sub(r'"dealer": \d+', '"dealer": 1e300', RECORD, count=1), "rounds[0].deal.dealer"),
])
def test_hostile_records_are_record_errors(text: str, words: str) -> None:
    with pytest.raises(RecordError) as info:
        from_json(text)
    assert words in str(info.value)


def test_brackets_inside_strings_are_not_nesting() -> None:
    data = copy.deepcopy(RECORD_DATA)
    data["metadata"]["notes"] = "[" * 5000 + "{" * 5000 + '\\"'
    assert from_json(json.dumps(data)).metadata["notes"] == data["metadata"]["notes"]


def test_a_seed_of_128_bits_still_reads() -> None:
    data = copy.deepcopy(RECORD_DATA)
    data["metadata"]["seed"] = 2**128 - 1
    assert from_json(json.dumps(data)).metadata["seed"] == 2**128 - 1


# --- records: fuzzed ------------------------------------------------------------------------

JSON_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-10, 10), st.floats(),
    st.text(max_size=8), st.sampled_from(["JK", "KS", "2x2", "draw", "went out", "joker",
                                          "", "3H", "99x1", "1000000x1"]),
    st.integers(10**90, 10**120))
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            out += paths(v, (*prefix, i))
    return out


RECORD_PATHS = paths(RECORD_DATA)[1:]


def read_and_replay(text: str) -> None:
    """Either a record that replays to a result, or a RecordError with a message."""
    try:
        record = from_json(text)
    except RecordError as exc:
        assert str(exc)
        return
    assert isinstance(record, GameRecord)
    try:
        result = replay(record)
    except RecordError as exc:
        assert str(exc)
        return
    assert result.ok or result.problems


@FUZZ
@given(data=st.data())
def test_mutated_records_give_a_record_error_or_replay(data: st.DataObject) -> None:
    record = copy.deepcopy(RECORD_DATA)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(RECORD_PATHS))
        parent: Any = record
        try:
            for key in path[:-1]:
                parent = parent[key]
            action = data.draw(st.sampled_from(["replace", "delete", "deepen"]))
            if action == "delete" and isinstance(parent, dict):
                del parent[path[-1]]
            elif action == "deepen":
                depth = data.draw(st.integers(50, 1200))
                parent[path[-1]] = json.loads("[" * depth + "]" * depth) if depth < 900 else []
            else:
                parent[path[-1]] = data.draw(JSON_VALUES)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        text = json.dumps(record)
    except (RecursionError, ValueError):
        return  # json itself cannot write it: nothing to read
    read_and_replay(text)


@FUZZ
@given(data=st.data())
def test_damaged_record_text_gives_a_record_error_or_replays(data: st.DataObject) -> None:
    text = RECORD
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["cut", "insert", "bracket"]))
        if kind == "cut":
            text = text[:at] + text[at + data.draw(st.integers(1, 40)):]
        elif kind == "insert":
            text = text[:at] + data.draw(st.text(max_size=6)) + text[at:]
        else:
            n = data.draw(st.integers(1, 2000))
            text = text[:at] + "[" * n + "]" * data.draw(st.integers(0, n)) + text[at:]
    read_and_replay(text)


@FUZZ
@given(value=JSON_VALUES)
def test_any_json_value_gives_a_record_error(value: Any) -> None:
    try:
        text = json.dumps(value)
    except ValueError:
        return
    with pytest.raises(RecordError):
        from_json(text)


# --- house-rule files: the named cases --------------------------------------------------------

def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("text", "words"), [
    ('extends = "biegames"\n[game]\nrounds = ' + "[" * 1000 + "]" * 1000 + "\n",
     "nested far too deeply"),
    ('extends = "biegames"\nx = ' + "{a = " * 1000 + "1" + "}" * 1000 + "\n",
     "nested far too deeply"),
    ('extends = "biegames"\n[game]\nrounds = ' + HUGE + "\n",
     "an integer of 4301 digits is far too long"),
    ('extends = "biegames"\n[game]\nrounds = 0x' + "f" * 5000 + "\n",
     "rounds: an integer of about 6000 digits is out of range (1 to 100)"),
    ('extends = "biegames"\n[game]\nopening_minimums = [0x' + "f" * 5000 + "]\n",
     "each entry an integer of about 6000 digits is out of range"),
    ('extends = "biegames"\n[deal]\nstarter_rejected = ["' + "x" * 100_000 + '"]\n',
     "is not a card kind"),
    ('extends = "biegames"\n[players]\nlayouts = ["' + "9" * 5000 + 'x1"]\n',
     "is not a layout"),
])
def test_hostile_house_rule_files_are_profile_errors(tmp_path: Path, text: str,
                                                     words: str) -> None:
    path = write(tmp_path, "bad.toml", text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and words in message
    assert len(message) < 400


def test_a_hostile_file_named_by_extends_names_both_files(tmp_path: Path) -> None:
    write(tmp_path, "deep.toml", "x = " + "[" * 1000 + "]" * 1000 + "\n")
    top = write(tmp_path, "top.toml", 'extends = "deep.toml"\n')
    with pytest.raises(ProfileError) as info:
        load_profile(top)
    assert str(info.value) == (f"{top}: extends: {tmp_path / 'deep.toml'}: not valid TOML "
                               "for a profile: its lists or tables are nested far too deeply")


def chain(folder: Path, length: int, last: str = 'extends = "biegames"\n') -> Path:
    for i in range(1, length):
        write(folder, f"f{i}.toml", f'extends = "f{i + 1}.toml"\n[game]\nrounds = {i}\n')
    write(folder, f"f{length}.toml", last)
    return folder / "f1.toml"


def test_a_chain_of_nine_files_is_no_loop(tmp_path: Path) -> None:
    """It was called a loop (a depth limit of 8), naming the wrong file."""
    p = load_profile(chain(tmp_path, 9))
    assert p.extends == "biegames" and p.rounds == 1
    assert dict(p.overrides)["rounds"] == 1


def test_a_long_chain_loads_up_to_the_limit(tmp_path: Path) -> None:
    assert load_profile(chain(tmp_path, MAX_EXTENDS)).rounds == 1
    other = tmp_path / "longer"
    other.mkdir()
    with pytest.raises(ProfileError) as info:
        load_profile(chain(other, MAX_EXTENDS + 1))
    assert (f"extends: a chain of more than {MAX_EXTENDS} files extending each other is too "
            f"long (it begins with {other / 'f1.toml'})") in str(info.value)


def test_a_real_loop_names_the_files_in_it(tmp_path: Path) -> None:
    first = chain(tmp_path, 9, 'extends = "f4.toml"\n')
    with pytest.raises(ProfileError) as info:
        load_profile(first)
    d = tmp_path
    files = [str(d / f"f{i}.toml") for i in (4, 5, 6, 7, 8, 9)]
    assert str(info.value) == (f"{d / 'f9.toml'}: extends: profiles extend each other in a "
                               "loop: " + " extends ".join([*files, str(d / "f4.toml")]))


def test_a_file_extending_itself(tmp_path: Path) -> None:
    path = write(tmp_path, "me.toml", 'extends = "me.toml"\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert str(info.value) == (f"{path}: extends: profiles extend each other in a loop: "
                               f"{path} extends {path}")


# --- house-rule files: fuzzed ----------------------------------------------------------------

def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else "nan"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


TOML_LEAVES = st.one_of(
    st.booleans(), st.integers(-5, 60), st.integers(), st.floats(allow_nan=False),
    st.text(max_size=8), st.sampled_from(
        ["none", "all", "2x2", "3x1", "99x1", "red 3", "joker", "K", "forbidden", "merge",
         "random", "like_pair", "required", "played_from"]))
TOML_VALUES = st.recursive(TOML_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=5), inner,
                    max_size=3)), max_leaves=8)
KEYS = st.one_of(st.sampled_from(list(FIELDS)), st.sampled_from(list(OPTIONS)),
                 st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12))


def load_or_profile_error(path: Path) -> None:
    try:
        load_profile(path)
    except ProfileError as exc:
        assert str(exc)


@FUZZ
@given(extends=st.sampled_from(["biegames", "partnership-13", "remastered-singles",
                                "hand-knee-foot", "nowhere", ""]),
       sections=st.dictionaries(st.sampled_from([*SECTIONS, "options", "extra"]),
                                st.dictionaries(KEYS, TOML_VALUES, max_size=4), max_size=4),
       top=st.dictionaries(st.sampled_from(["name", "title", "source", "rounds"]),
                           TOML_VALUES, max_size=2))
def test_generated_house_rule_files_give_a_profile_or_a_profile_error(
        tmp_path_factory: pytest.TempPathFactory, extends: str,
        sections: dict[str, dict[str, Any]], top: dict[str, Any]) -> None:
    lines = [f'extends = "{extends}"'] if extends else []
    lines += [f"{key} = {toml_value(value)}" for key, value in top.items()]
    for section, values in sections.items():
        lines.append(f"[{section}]")
        lines += [f"{json.dumps(key)} = {toml_value(value)}" for key, value in values.items()]
    path = write(tmp_path_factory.mktemp("fuzz"), "house.toml", "\n".join(lines) + "\n")
    load_or_profile_error(path)


HOUSE = 'extends = "remastered-teams"\n[game]\nrounds = 2\n[options]\nsevens_from_hell = true\n'


@FUZZ
@given(data=st.data())
def test_damaged_house_rule_text_gives_a_profile_or_a_profile_error(
        tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    text = HOUSE
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["cut", "insert", "nest", "digits"]))
        if kind == "cut":
            text = text[:at] + text[at + data.draw(st.integers(1, 20)):]
        elif kind == "insert":
            text = text[:at] + data.draw(st.text(max_size=6)) + text[at:]
        elif kind == "nest":
            n = data.draw(st.integers(1, 1500))
            text = text[:at] + "[" * n + "]" * data.draw(st.integers(0, n)) + text[at:]
        else:
            text = text[:at] + "9" * data.draw(st.integers(1, 6000)) + text[at:]
    path = write(tmp_path_factory.mktemp("fuzz"), "house.toml", text)
    load_or_profile_error(path)


# --- the command line: a message and exit code 2 -----------------------------------------------

HOSTILE_RECORDS = {"deep.json": DEEP_JSON,
                   "huge.json": '{"format": "handfoot-record", "version": ' + HUGE + "}"}
HOSTILE_RULES = {"deep.toml": 'extends = "biegames"\n[game]\nrounds = ' + "[" * 1000
                 + "]" * 1000 + "\n",
                 "huge.toml": 'extends = "biegames"\n[game]\nrounds = ' + HUGE + "\n"}


@pytest.mark.parametrize("name", list(HOSTILE_RECORDS))
def test_replay_of_a_hostile_record_exits_2_with_a_message(
        tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, name, HOSTILE_RECORDS[name])
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"{path}: not a handfoot game record: ") and not out
    assert main(["replay", str(path), "--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out or err)["ok"] is False


@pytest.mark.parametrize("command", [["rules", "show"], ["rules", "show", "--json"],
                                     ["rules", "diff", "biegames"],
                                     ["simulate", "--games", "1", "--profile"]])
@pytest.mark.parametrize("name", list(HOSTILE_RULES))
def test_rules_commands_on_a_hostile_file_exit_2_with_a_message(
        tmp_path: Path, name: str, command: list[str],
        capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, name, HOSTILE_RULES[name])
    assert main([*command, str(path)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"handfoot: error: {path}: not valid TOML for a profile: ")
    assert "Traceback" not in out + err


def test_the_installed_command_gives_no_traceback(tmp_path: Path) -> None:
    """The same through a real process: exit code 2, one line of message."""
    for name, text in {**HOSTILE_RECORDS, **HOSTILE_RULES}.items():
        path = write(tmp_path, name, text)
        args = ["replay", str(path)] if name.endswith(".json") else ["rules", "show", str(path)]
        command = Path(sys.executable).parent / "handfoot"
        done = subprocess.run([str(command), *args], capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and str(path) in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("value", [HUGE, "[" * 1000 + "]" * 1000])
def test_a_hostile_set_value_exits_2_with_a_message(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--set", f"rounds={value}"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("handfoot: error: --set rounds: the value cannot be read: it is nested far "
                   "too deeply or holds an integer far too long\n")


# --- records too big to read -----------------------------------------------------------------

def test_a_record_over_the_size_or_move_limit_is_refused_before_parsing(tmp_path: Path) -> None:
    from handfoot.game.record import MAX_RECORD_BYTES, MAX_RECORD_MOVES, read_record

    moves = '{"format": "handfoot-record", "rounds": [{"moves": [' + ",".join(
        ['{"seat":0,"move":"draw"}'] * (MAX_RECORD_MOVES + 1)) + "]}]}"
    assert len(moves) < MAX_RECORD_BYTES
    with pytest.raises(RecordError, match=r"about 50,001 moves; a record holds at most 50,000"):
        from_json(moves)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)
    with pytest.raises(RecordError, match=r"at most 4 MiB"):
        read_record(big)
    with pytest.raises(RecordError, match=r"at most 4 MiB"):
        from_json(" " * (MAX_RECORD_BYTES + 1))
