"""Running a run's independent game tasks, and keeping their results on disk as they come.

A *task* is a module-level function and its picklable arguments, keyed by an integer: the
task's place in the run's schedule (a game's index, a duplicate pair's). A :class:`Runner`
plays tasks and yields ``(key, result)`` as they finish, in any order:

* :class:`InlineRunner` in this process, one after the other;
* :class:`ProcessRunner` in ``K`` worker processes of this machine;
* :class:`DaskRunner` on the workers of a Dask distributed cluster (``pip install
  'handfoot[cluster]'``; imported only when used, so handfoot runs without Dask).

:func:`make_runner` picks one; :func:`add_runner_options` and :func:`runner_options` give
every command the same ``--workers``/``--scheduler`` options, checked alike. A runner used
as a context manager (``with make_runner(...) as runner:``) keeps its processes or its
connection for every run inside (a trainer runs a batch of games per iteration); else each
run starts and ends its own. :func:`run_tasks` drives a runner for a whole run: it keeps
results by key (a task run twice, on a worker that died and on another, is counted once),
skips the tasks a :class:`PartialFile` already holds and adds each new result to it, so an
interrupted run resumes without replaying finished games. What is counted depends only on
the keys and the seeds, never on which machine played a task or when. A run's tasks may be a
:class:`TaskList`, made one by one as the runners take them (a runner keeps only a few
chunks in flight), so a run of millions of games starts at once, in little memory.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import itertools
import json
import os
import re
import subprocess
import uuid
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence, Sized
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar

from handfoot.runs.collector import playing_games

__all__ = [
    "PARTIAL_FORMAT",
    "SCHEDULER_ENV",
    "ClusterError",
    "DaskRunner",
    "InlineRunner",
    "PartialFile",
    "PartialMismatch",
    "ProcessRunner",
    "Runner",
    "TaskList",
    "add_runner_options",
    "fingerprint",
    "handfoot_version",
    "make_runner",
    "run_tasks",
    "runner_options",
]

SCHEDULER_ENV = "HANDFOOT_SCHEDULER"
"""The environment variable naming a Dask scheduler (``tcp://host:8786``) when a command is
given no ``--scheduler``."""

PARTIAL_FORMAT = "handfoot-partial/1"
"""The first line's ``"format"`` of a partial-results file (see :class:`PartialFile`)."""

MAX_CHUNK = 8
"""Tasks sent to a worker at once, at most: fewer round trips, yet a balanced load and
frequent progress (a chunk holds at most a quarter of a worker's share)."""

IN_FLIGHT = 4
"""Chunks per worker sent ahead of the results: enough to keep every worker busy; the
rest of a run's tasks are made only as these finish."""

R = TypeVar("R")
Task = tuple[int, tuple[Any, ...]]
"""A task's key and the arguments of the run's function."""
Results = Generator[tuple[int, R], None, None]
"""``(key, result)`` of each task as it finishes."""


class ClusterError(RuntimeError):
    """The tasks could not be run where asked: Dask missing, no scheduler at the address, a
    worker without handfoot (or another version of it), tasks that kill every worker."""


class Runner(Protocol):
    """Plays independent tasks somewhere and yields ``(key, result)`` as each finishes."""

    def run(self, fn: Callable[..., R], tasks: Iterable[Task]) -> Results[R]:
        """``fn(*args)`` for every ``(key, args)`` of ``tasks``, in any order."""
        ...


class TaskList(Sequence[Task]):
    """``count`` tasks made only when asked for: task ``i`` is ``(i, args_of(i))``. A run's
    schedule without a list of every task (a million games take no memory before they are
    played)."""

    def __init__(self, count: int, args_of: Callable[[int], tuple[Any, ...]]) -> None:
        self.size = count
        self.args_of = args_of

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: Any) -> Any:  # an int gives a task, a slice a list
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.size))]
        if not -self.size <= index < self.size:
            raise IndexError(index)
        index %= self.size
        return index, self.args_of(index)

    def __iter__(self) -> Iterator[Task]:
        return (self[i] for i in range(self.size))


class _Todo:
    """The tasks of ``tasks`` whose key is not in ``held``, taken one by one."""

    def __init__(self, tasks: Sequence[Task], held: set[int]) -> None:
        self.tasks = tasks
        self.left = len(tasks) - len(held)
        self.held = held

    def __len__(self) -> int:
        return self.left

    def __iter__(self) -> Iterator[Task]:
        return (task for task in self.tasks if task[0] not in self.held)


def add_runner_options(parser: argparse.ArgumentParser, *, default_workers: int = 1) -> None:
    """``--workers K`` and ``--scheduler ADDRESS``: where a command plays its games (read
    them with :func:`runner_options`)."""
    parser.add_argument("--workers", type=int, metavar="K",
                        help=f"processes of this machine to play in (default {default_workers}"
                             "); results do not depend on it")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="play on the workers of the Dask cluster whose scheduler is at "
                             f"ADDRESS, e.g. tcp://host:8786 (default: ${SCHEDULER_ENV}; "
                             "'none' for this machine); results do not depend on it")


SCHEDULER_ADDRESS = re.compile(
    r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):\d{1,5}")
"""A Dask scheduler's address: ``[tcp://]HOST:PORT`` (tls, ws, wss and ucx too)."""


def runner_options(workers: int | None, scheduler: str | None, *, default_workers: int = 1,
                   environ: Mapping[str, str] | None = None) -> tuple[int, str | None]:
    """``(workers, scheduler)`` for a command's ``--workers``/``--scheduler`` (``None``: not
    given): the scheduler of :data:`SCHEDULER_ENV` when no ``--scheduler`` is given, none for
    ``none``. Raises :class:`ValueError` saying what is wrong, for a usage error."""
    if workers is not None and workers < 1:
        raise ValueError("--workers must be at least 1")
    origin = "--scheduler"
    if scheduler is None:
        env = os.environ if environ is None else environ
        scheduler, origin = env.get(SCHEDULER_ENV) or None, f"${SCHEDULER_ENV}"
    if scheduler is not None and scheduler.strip().lower() in ("", "none"):
        scheduler = None
    if scheduler is not None and workers not in (None, 1):
        raise ValueError(f"--workers {workers} and {origin} {scheduler}: the cluster's "
                         "workers play the games; give one or the other"
                         + (" (or --scheduler none)" if origin != "--scheduler" else ""))
    if scheduler is not None:
        if not SCHEDULER_ADDRESS.fullmatch(scheduler.strip()):
            raise ValueError(f"{origin} {scheduler[:80]!r}: not a Dask scheduler address; "
                             "write tcp://HOST:PORT, like tcp://10.0.0.5:8786 (or none for "
                             "this machine)")
        return 1, scheduler.strip()
    return (default_workers if workers is None else workers), None


def make_runner(workers: int = 1, scheduler: str | None = None,
                ) -> InlineRunner | ProcessRunner | DaskRunner:
    """The runner for ``--workers``/``--scheduler``: a Dask cluster if ``scheduler`` names
    one, else ``workers`` local processes (this process alone for 1)."""
    if scheduler:
        if workers != 1:
            raise ValueError("give a number of workers or a scheduler, not both (the "
                             "cluster's workers play the games)")
        return DaskRunner(scheduler)
    if workers < 1:
        raise ValueError("workers must be at least 1")
    return InlineRunner() if workers == 1 else ProcessRunner(workers)


def run_tasks(fn: Callable[..., R], tasks: Sequence[Task], runner: Runner, *,
              partial: PartialFile | None = None,
              encode: Callable[[R], object] | None = None,
              decode: Callable[[Any], R] | None = None,
              on_result: Callable[[int, R, int], None] | None = None,
              keep: bool = True) -> dict[int, R]:
    """Every task's result by key, playing only those ``partial`` does not hold yet.

    Each new result is added to ``partial`` (as ``encode(result)``, JSON-ready; ``decode``
    turns it back) and ``on_result(key, result, finished)`` is called in this process with
    the number of tasks finished so far (those read from ``partial`` included). A result
    for a key already held (a task run again after its worker died) is ignored. With
    ``keep`` false, new results go to ``on_result`` only (the dict holds those read from
    ``partial``), so a long run's memory does not grow with its results. ``tasks`` may be a
    :class:`TaskList` (keys ``0`` to ``len - 1``), taken one by one as the runner plays.
    """
    holds: Callable[[int], bool]
    if isinstance(tasks, TaskList):
        holds = range(len(tasks)).__contains__
    else:
        keys = {key for key, _ in tasks}
        if len(keys) != len(tasks):
            raise ValueError("every task needs its own key")
        holds = keys.__contains__
    results: dict[int, R] = {}
    held: set[int] = set()
    if partial is not None:
        if decode is None or encode is None:
            raise ValueError("a partial file needs encode and decode")
        results = {key: decode(data) for key, data in partial.done.items() if holds(key)}
        held.update(results)
    with contextlib.closing(runner.run(fn, _Todo(tasks, set(held)))) as finished:
        for key, result in finished:
            if key in held or not holds(key):
                continue
            held.add(key)
            if keep:
                results[key] = result
            if partial is not None and encode is not None:
                partial.add(key, encode(result))
            if on_result is not None:
                on_result(key, result, len(held))
    if len(held) != len(tasks):
        first = next(key for key, _ in tasks if key not in held)
        raise ClusterError(f"{len(tasks) - len(held)} task(s) never finished, e.g. {first}")
    return results


# --- runners ----------------------------------------------------------------------------


class InlineRunner:
    """Every task in this process, in the order given."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def run(self, fn: Callable[..., R], tasks: Iterable[Task]) -> Results[R]:
        with playing_games():  # the collector tuned for many games (runs.collector)
            for key, args in tasks:
                yield key, fn(*args)


class ProcessRunner:
    """The tasks in ``workers`` processes of this machine (a process pool, kept between
    runs inside ``with runner:``)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Self:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers)
        return self

    def __exit__(self, *exc: object) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:  # interrupted: drop what has not started, do not wait for it
            pool.shutdown(wait=True, cancel_futures=True)

    def run(self, fn: Callable[..., R], tasks: Iterable[Task]) -> Results[R]:
        if isinstance(tasks, Sized) and not len(tasks):
            return
        if self._pool is not None:
            yield from self._play(self._pool, fn, tasks)
            return
        with self:
            assert self._pool is not None
            yield from self._play(self._pool, fn, tasks)

    def _play(self, pool: ProcessPoolExecutor, fn: Callable[..., R],
              tasks: Iterable[Task]) -> Results[R]:
        chunks = _chunks(tasks, self.workers)
        pending: set[Future[list[tuple[int, R]]]] = set()

        def submit() -> None:  # a few chunks per worker in flight, made as they are sent
            for chunk in itertools.islice(chunks, IN_FLIGHT * self.workers - len(pending)):
                pending.add(pool.submit(_run_chunk, fn, chunk))
        try:
            submit()
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield from fut.result()
                submit()
        finally:  # interrupted: what has not started is not played
            for fut in pending:
                fut.cancel()


class DaskRunner:
    """The tasks on the workers of the Dask distributed cluster at ``address``.

    Connects when :meth:`run` starts and disconnects when it ends, or once for every run
    inside ``with runner:``. Every worker must have the same handfoot version as this
    process (checked when connecting). A task whose worker dies is run again on another by
    the scheduler (up to the cluster's ``distributed.scheduler.allowed-failures`` times, 3
    by default).
    """

    def __init__(self, address: str, *, timeout: float = 10.0) -> None:
        self.address = address
        self.timeout = timeout
        self._client: Any = None

    def __enter__(self) -> Self:
        if self._client is None:
            self._client = self._connect()
        return self

    def __exit__(self, *exc: object) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.close()

    def run(self, fn: Callable[..., R], tasks: Iterable[Task]) -> Results[R]:
        if self._client is not None:
            yield from self._play(self._client, fn, tasks)
            return
        with self:
            yield from self._play(self._client, fn, tasks)

    def _connect(self) -> Any:
        try:
            import distributed
        except ImportError:
            raise ClusterError("a Dask scheduler needs Dask distributed: "
                               "pip install 'handfoot[cluster]'") from None
        try:
            dask: Any = distributed  # its Client is not fully typed
            client = dask.Client(self.address, set_as_default=False, timeout=self.timeout)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"no Dask scheduler answers at {self.address}: {exc}") from None
        try:
            self._check_workers(client)
        except BaseException:
            client.close()
            raise
        return client

    def _play(self, client: Any, fn: Callable[..., R], tasks: Iterable[Task]) -> Results[R]:
        import distributed
        from distributed.client import FutureCancelledError
        from distributed.scheduler import KilledWorker

        futures: list[Any] = []
        try:
            workers = max(1, sum(client.nthreads().values()))
            run_id = uuid.uuid4().hex[:12]
            chunks = enumerate(_chunks(tasks, workers))

            def submit(n: int) -> list[Any]:  # made as they are sent, a few per worker
                new = [client.submit(_run_chunk, fn, chunk, key=f"handfoot-{run_id}-{i}",
                                     pure=False) for i, chunk in itertools.islice(chunks, n)]
                futures.extend(new)
                return new
            dask: Any = distributed
            completed = dask.as_completed(submit(IN_FLIGHT * workers), loop=client.loop)
            for fut in completed:
                try:
                    chunk_results = fut.result()
                except KilledWorker as exc:
                    raise ClusterError(
                        f"a task was running on every worker that died ({exc}); the "
                        "cluster gave up on it") from None
                except FutureCancelledError as exc:
                    raise ClusterError(f"the cluster cancelled a task: {exc}") from None
                fut.release()
                futures.remove(fut)
                for new in submit(1):
                    completed.add(new)
                yield from chunk_results
        finally:
            if futures:
                with contextlib.suppress(Exception):
                    client.cancel([f for f in futures if not f.done()])

    def _check_workers(self, client: Any) -> None:
        """Every worker imports handfoot, in this process's version."""
        mine = handfoot_version()
        try:
            theirs: dict[str, str] = client.run(handfoot_version)
        except Exception as exc:
            raise ClusterError(f"a worker of {self.address} cannot run handfoot ({exc}); "
                               f"install handfoot {mine} on every worker") from None
        other = {w: v for w, v in theirs.items() if v != mine}
        if other:
            listed = ", ".join(f"{w} has {v}" for w, v in sorted(other.items()))
            raise ClusterError(f"every worker needs handfoot {mine}: {listed}")


def _run_chunk(fn: Callable[..., R], chunk: list[Task]) -> list[tuple[int, R]]:
    with playing_games():  # in the worker: the collector tuned for many games
        return [(key, fn(*args)) for key, args in chunk]


def _chunks(tasks: Iterable[Task], workers: int) -> Iterator[list[Task]]:
    """The tasks in chunks, made one chunk at a time."""
    count = len(tasks) if isinstance(tasks, Sized) else MAX_CHUNK * workers * 4
    size = max(1, min(MAX_CHUNK, count // (workers * 4)))
    it = iter(tasks)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def handfoot_version() -> str:
    """The installed handfoot's version ("unknown" when run from a source tree)."""
    try:
        return metadata.version("handfoot")
    except metadata.PackageNotFoundError:
        return "unknown"


def code_version() -> str:
    """:func:`handfoot_version` and, run from a git checkout, its commit
    (``0.1.0+a48da58``): what a model's or a style's card records."""
    version = handfoot_version()
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=Path(__file__).parent, timeout=10, check=False)
        commit = out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{version}+{commit}" if commit else version


# --- partial results --------------------------------------------------------------------


class PartialMismatch(ValueError):
    """A partial-results file that belongs to another run (or is not one)."""


@dataclass
class PartialFile:
    """A run's finished tasks on disk, one JSON line each, so the run can resume.

    The format (:data:`PARTIAL_FORMAT`), UTF-8 JSON Lines::

        {"format": "handfoot-partial/1", "run": {...what decides the results...}}
        {"task": 3, "result": ...}
        {"task": 0, "result": ...}

    The first line is written to a temporary file that is then renamed, so the file exists
    whole or not at all. Each result is appended with one ``write`` on a file opened for
    appending, in the order tasks finish; a line cut short (the machine stopped during that
    write) is dropped, and cut off the file, when the run resumes. ``run`` holds what
    decides the results (command, profile fingerprint, seating, bots, games, seed,
    handfoot version); resuming with anything else is refused.
    """

    path: Path
    run: dict[str, Any]
    done: dict[int, Any]
    _fd: int | None = None

    @classmethod
    def create(cls, path: str | Path, run: Mapping[str, Any]) -> PartialFile:
        """A new file for ``run``; an existing file at ``path`` is replaced."""
        path = Path(path)
        head = json.dumps({"format": PARTIAL_FORMAT, "run": dict(run)}, sort_keys=True) + "\n"
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(head)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return cls(path, dict(run), {})

    @classmethod
    def resume(cls, path: str | Path, run: Mapping[str, Any]) -> PartialFile:
        """The file at ``path``, which must be of ``run``: its finished tasks in ``done``."""
        path = Path(path)
        raw = path.read_bytes()
        first, _, rest = raw.partition(b"\n")
        try:
            head = json.loads(first)
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("format") != PARTIAL_FORMAT:
            raise PartialMismatch(f"{path} is not a handfoot partial-results file")
        theirs = head.get("run", {})
        names = [*run, *(k for k in theirs if k not in run)]  # this run's order: command first
        differ = [k for k in names if theirs.get(k) != run.get(k)]
        if differ:
            k = differ[0]
            raise PartialMismatch(
                f"{path} holds another run: its {k} is {theirs.get(k)!r}, this run's is "
                f"{run.get(k)!r} (give the same options as the interrupted run)")
        done: dict[int, Any] = {}
        good = len(first) + 1
        for line in rest.split(b"\n"):
            try:
                entry = json.loads(line)
                key, result = int(entry["task"]), entry["result"]
            except (ValueError, KeyError, TypeError):
                break  # a line cut short: it and anything after are dropped
            done.setdefault(key, result)
            good += len(line) + 1
        if good < len(raw):
            with open(path, "r+b") as f:
                f.truncate(good)
        return cls(path, dict(run), done)

    def add(self, key: int, result: object) -> None:
        """Append one finished task."""
        line = json.dumps({"task": key, "result": result}, separators=(",", ":")) + "\n"
        if self._fd is None:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        os.write(self._fd, line.encode("utf-8"))
        self.done.setdefault(key, result)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def fingerprint(value: object) -> str:
    """A short, stable digest of a value made of dataclasses, containers, enums and
    scalars (a profile): equal values give the same digest in every process."""
    text = json.dumps(_canonical(value), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _canonical(value: object) -> object:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _canonical(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Enum):
        return _canonical(value.value)
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((_canonical(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)
