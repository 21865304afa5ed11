"""Profile files as a new user writes them (issue 27, items 6 and 3): a file without
``extends`` is a complete profile or is refused naming what it leaves out, an empty file is
refused, every file is read with a size limit (an endless one such as /dev/zero too), a
byte-order mark is no problem, and a seating given twice is refused."""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from handfoot.cli import main
from handfoot.game.loading import (
    MAX_PROFILE_BYTES,
    ProfileError,
    load_profile,
    profile_to_toml_values,
)
from handfoot.game.reference import toml_value
from handfoot.game.rules import FIELDS


def complete_text(name: str = "partnership-13") -> str:
    """A built-in profile written out in full, without ``extends``."""
    lines = [f'name = "{name}-copy"']
    for section, values in profile_to_toml_values(load_profile(name)).items():
        lines.append(f"[{section}]")
        lines += [f"{key} = {toml_value(value)}" for key, value in values.items()]
    return "\n".join(lines) + "\n"


def one_line_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


# --- item 6: a profile without `extends` is complete ---------------------------------------

def test_a_complete_profile_without_extends_loads(tmp_path: Path) -> None:
    path = tmp_path / "full.toml"
    path.write_text(complete_text("hand-knee-foot"))
    p = load_profile(path)
    base = load_profile("hand-knee-foot")
    assert p.extends is None
    assert all(getattr(p, key) == getattr(base, key) for key in FIELDS)


def test_a_profile_without_extends_names_the_parameters_it_leaves_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = complete_text().replace("hand_size = 13\n", "").replace("book_size = 7\n", "")
    path = tmp_path / "partial.toml"
    path.write_text(text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    message = str(info.value)
    assert "not a complete profile" in message and "leaves out 2" in message
    assert "[deal] hand_size" in message and "[melds] book_size" in message
    assert 'extends = "partnership-13"' in message
    err = one_line_error(capsys, "rules", "show", str(path))
    assert "leaves out 2" in err


def test_a_few_house_rules_without_extends_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text("[deal]\nhand_size = 11\n")
    with pytest.raises(ProfileError, match=r"leaves out \d+: .* and \d+ more; give `extends"):
        load_profile(path)
    path.write_text('extends = "partnership-13"\n[deal]\nhand_size = 11\n')
    assert load_profile(path).hand_size == 11


@pytest.mark.parametrize(("text", "problem"), [
    ("", "an empty profile"), ("\n# nothing but a comment\n", "an empty profile"),
    ('name = "x"\n', "not a complete profile")])
def test_an_empty_profile_is_refused(tmp_path: Path, text: str, problem: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.toml"
    path.write_text(text)
    with pytest.raises(ProfileError, match=problem):
        load_profile(path)
    assert problem in one_line_error(capsys, "rules", "show", str(path))


# --- item 3: the size limit, a byte-order mark, a seating given twice ----------------------

def test_a_profile_file_larger_than_the_limit_is_refused_quickly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.toml"
    comment = "# " + "x" * 1000 + "\n"
    path.write_text('extends = "partnership-13"\n' + comment * (MAX_PROFILE_BYTES // 1000))
    assert path.stat().st_size > MAX_PROFILE_BYTES
    start = time.process_time()
    err = one_line_error(capsys, "rules", "show", str(path))
    assert "larger than 256 KiB" in err
    # as the base of another file too
    child = tmp_path / "child.toml"
    child.write_text(f'extends = "{path}"\n')
    err = one_line_error(capsys, "rules", "show", str(child))
    assert "extends" in err and "larger than 256 KiB" in err
    assert time.process_time() - start < 5
    # just under the limit is read
    path.write_text('extends = "partnership-13"\n' + comment * (MAX_PROFILE_BYTES // 1100))
    assert load_profile(path).extends == "partnership-13"


def _capped() -> None:
    """In the child: at most 1 GiB of address space (a loader reading /dev/zero whole
    would fail fast instead of taking the machine's memory)."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("how", ["show", "extends"])
def test_dev_zero_is_refused_in_one_line(tmp_path: Path, how: str) -> None:
    if how == "show":
        target = "/dev/zero"
    else:
        house = tmp_path / "house.toml"
        house.write_text('extends = "/dev/zero"\n')
        target = str(house)
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "handfoot", "rules", "show", target],
                         capture_output=True, text=True, timeout=120, preexec_fn=_capped,
                         check=False)
    assert run.returncode == 2, run.stderr[-2000:]
    assert run.stdout == "" and run.stderr.count("\n") == 1, run.stderr[-2000:]
    assert "/dev/zero" in run.stderr and "larger than 256 KiB" in run.stderr
    assert "Traceback" not in run.stderr and "MemoryError" not in run.stderr
    assert time.monotonic() - start < 60


def test_a_profile_starting_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes('\ufeffextends = "biegames"\n[deal]\nhand_size = 12\n'.encode())
    p = load_profile(path)
    assert p.extends == "biegames" and p.hand_size == 12
    full = tmp_path / "bom-full.toml"
    full.write_bytes(("\ufeff" + complete_text()).encode())
    assert load_profile(full).hand_size == load_profile("partnership-13").hand_size


def test_a_seating_given_twice_is_refused(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "seats.toml"
    path.write_text('extends = "biegames"\n[players]\nlayouts = ["2x1", "2x1"]\n')
    with pytest.raises(ProfileError, match=r"layouts: the seating 2x1 is given twice"):
        load_profile(path)
    err = one_line_error(capsys, "rules", "show", str(path))
    assert "given twice" in err
    with pytest.raises(ProfileError, match="given twice"):
        load_profile("biegames", overrides={"layouts": ["2x2", "2x1", "2x2"]})
