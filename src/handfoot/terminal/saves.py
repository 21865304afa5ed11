"""Saved terminal games: where ``handfoot play`` saves a game you leave, and the list of
saved games in a folder (``handfoot play --list``).

A save never overwrites another game. The default name is ``handfoot-game-SEED.json``; when
that file already holds a game (the same seed played before), the game is saved as
``handfoot-game-SEED-2.json``, ``-3`` and so on. Every save is written whole to a temporary
file in the same folder and then put in place in one step (:func:`write_atomically`), so a
save file is never left half written, and the name is claimed with a hard link, which
fails rather than replace a file another game saved meanwhile. A game that was already
saved (or resumed from its file) is saved to that same file again: it is the same game,
further on.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from handfoot.game.record import RecordError, read_record, replay

__all__ = ["SAVE_PREFIX", "SaveFile", "SavedGame", "saved_games", "write_atomically"]

SAVE_PREFIX = "handfoot-game-"
"""The start of a default save file's name: ``handfoot-game-SEED.json``."""

PLAYED_IN = "handfoot play"
"""A saved game's ``metadata.played_in``."""

MAX_SUFFIX = 10_000
"""The most games of one seed saved side by side under default names."""


def write_atomically(path: str | Path, text: str, *, replace: bool = True) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all: into a temporary file in the
    same folder, flushed to disk, then moved into place. With ``replace`` false an existing
    ``path`` is never replaced (:class:`FileExistsError`)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails if path exists: another game is never replaced
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


class SaveFile:
    """Where one game is saved.

    ``SaveFile(path, own=True)`` is a file that is this game's to rewrite (``--resume
    FILE``, or ``--record FILE --force``). ``SaveFile(path)`` is a name to claim: if a
    file is there by the time the game is first saved, the game goes to the first free
    ``NAME-2.json``, ``NAME-3.json``, ... instead. :attr:`path` is where the game is (or
    would now be) saved.
    """

    def __init__(self, path: str | Path, *, own: bool = False) -> None:
        self.wanted = Path(path)
        self._own = own
        self._claimed: Path | None = self.wanted if own else None

    @classmethod
    def default(cls, seed: int, folder: str | Path = ".") -> SaveFile:
        """A game of ``seed`` saved under the default name in ``folder``."""
        return cls(Path(folder) / f"{SAVE_PREFIX}{seed}.json")

    @property
    def path(self) -> Path:
        """The file the game is saved in: the file it claimed, else the first free name."""
        if self._claimed is not None:
            return self._claimed
        return next(p for p in self._candidates() if not p.exists())

    def write(self, text: str) -> Path:
        """Save ``text``; the file written."""
        if self._claimed is not None:
            write_atomically(self._claimed, text)
            return self._claimed
        for candidate in self._candidates():
            try:
                write_atomically(candidate, text, replace=False)
            except FileExistsError:
                continue
            self._claimed = candidate
            return candidate
        raise FileExistsError(f"{self.wanted}: {MAX_SUFFIX} games are saved under this "
                              "name already; choose another with --record")

    def _candidates(self) -> Iterator[Path]:
        yield self.wanted
        stem, suffix = self.wanted.stem, self.wanted.suffix
        for n in range(2, MAX_SUFFIX + 1):
            yield self.wanted.with_name(f"{stem}-{n}{suffix}")

    def __str__(self) -> str:
        return str(self.path)


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One saved game of a folder, as ``handfoot play --list`` shows it."""

    path: Path
    profile: str
    moves: int
    saved: dt.datetime
    problem: str | None = None
    """Why the game cannot be resumed (over, or a file that does not replay); None if it can."""


def saved_games(folder: str | Path = ".") -> list[SavedGame]:
    """The games ``handfoot play`` saved in ``folder`` (the game records whose metadata says
    so), newest first. Files that are not such records are left out; records that cannot
    be resumed are listed with the reason."""
    out: list[SavedGame] = []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            with open(path, "rb") as f:  # the metadata comes before the rounds: a folder of
                head = f.read(8192)        # simulated games' records is not read through
            if PLAYED_IN.encode() not in head:
                continue
            record = read_record(path)
        except (OSError, RecordError):
            continue
        if record.metadata.get("played_in") != PLAYED_IN:
            continue
        problem = None
        result = replay(record)
        if result.error is not None:
            problem = f"does not replay: {result.error.message}"
        elif result.game_over:
            problem = "finished"
        saved = dt.datetime.fromtimestamp(path.stat().st_mtime).astimezone()
        out.append(SavedGame(path, record.profile_name, record.moves, saved, problem))
    out.sort(key=lambda g: (g.saved, str(g.path)), reverse=True)
    return out
