"""The web game's commands: ``serve`` (one process, or ``--workers N`` sharing a port) and
``db upgrade``. The web extra is imported only when one of them runs."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from typing import TYPE_CHECKING, Any

from handfoot._version import __version__
from handfoot.cli.options import PROG, UsageError

if TYPE_CHECKING:
    from handfoot.web.store import Store

__all__ = ["WORKER_SETTINGS", "WS_PING_INTERVAL", "add_db_command", "add_serve_command",
           "cmd_db_upgrade", "cmd_serve", "worker_app"]


WS_PING_INTERVAL = 20.0
"""``serve --ws-ping-interval``'s default: uvicorn's, the seconds between two WebSocket
keep-alive pings of a connection."""


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
    serve.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
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
                            "(default 0.9); an expert's move never shows before its search "
                            "budget and a margin, so its timing does not tell when it searched")
    serve.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                       help="another site whose pages may use this server, like "
                            "https://cards.example.org (repeatable; the server's own pages "
                            "always may)")
    serve.add_argument("--allowed-host", action="append", default=[], metavar="HOST",
                       help="a host name the server answers to, like cards.example.org or "
                            "*.example.org (repeatable; default: any); other Host headers "
                            "get 400")
    serve.add_argument("--no-open-limits", dest="open_limits", action="store_false",
                       help="do not limit new games, table connections and score sheets "
                            "per client address (for tests and load benchmarks on one "
                            "computer; see docs/server.md)")
    serve.add_argument("--ws-ping-interval", type=float, default=WS_PING_INTERVAL,
                       metavar="S",
                       help="seconds between two keep-alive pings of each WebSocket "
                            f"(default {WS_PING_INTERVAL:g}; 0: none): a connection that "
                            "does not answer one within 20 s is closed. Longer costs less "
                            "CPU with thousands of connections but finds a vanished "
                            "player later (see docs/server.md)")
    serve.add_argument("--smtp-url", metavar="URL",
                       help="send sign-in mails and correspondence games' \"your turn\" "
                            "mails through this server: smtp://HOST:PORT "
                            "(STARTTLS when offered) or smtps://HOST:PORT, with USER:PASSWORD@ "
                            "before the host if it asks (default: no mail; see docs/club.md "
                            "and docs/server.md)")
    serve.add_argument("--mail-from", default="handfoot@localhost", metavar="ADDRESS",
                       help="the sender of those mails (default handfoot@localhost)")
    serve.add_argument("--public-url", metavar="URL",
                       help="the site's address as players reach it, like "
                            "https://cards.example.org: mailed links start with it "
                            "(needed with --smtp-url)")
    serve.set_defaults(func=cmd_serve)


def _port(text: str) -> int:
    """``--port``: a whole number from 1 to 65535 (argparse's one-line error otherwise)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: give one from 1 to 65535")
    return port


def _check_listen(host: str, port: int) -> None:
    """A :class:`UsageError` unless the server could listen on ``host``:``port`` now (bound
    as asyncio's server binds, then let go): a port in use or an address that is not this
    machine's is said in one line before the database is opened, not as uvicorn's error
    after the "playing at" line."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise UsageError(f"--host {host[:80]!r}: not an address of this computer "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    raise UsageError(f"--port {port}: another program is listening on "
                                     f"{host}:{port} (another handfoot serve? choose "
                                     "another port with --port)") from None
                raise UsageError(f"--host {host[:80]} --port {port}: cannot listen there "
                                 f"({exc.strerror or exc})") from None


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
    store = _open_store(Store, args.database_url or default_database_url())

    applied = _migrate(store)
    where = store.engine.url.render_as_string(hide_password=True)
    if applied:
        print(f"{where}: applied {', '.join(applied)}; now at revision {applied[-1]}")
    else:
        print(f"{where}: already at revision {migrations.head()}")
    return 0


DATABASE_URLS = "sqlite:///FILE or postgresql://USER:PASSWORD@HOST/NAME"


def _open_store(store_class: type[Store], url: str) -> Store:
    """``store_class(url)`` (the web extra's Store, imported lazily), or a
    :class:`UsageError` naming what is wrong with the URL (without its password)."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    scheme = url.partition("://")[0] if "://" in url else ""
    try:
        return store_class(url)
    except NoSuchModuleError:
        raise UsageError(f"--database-url: handfoot cannot use a {scheme[:40]!r} database; "
                         f"give {DATABASE_URLS}") from None
    except (ArgumentError, ValueError):
        raise UsageError(f"--database-url: not a database URL; give {DATABASE_URLS}") from None
    except ImportError as exc:
        raise UsageError(f"--database-url: the driver for {scheme[:40]!r} is not installed "
                         f"({exc.name}); give {DATABASE_URLS}") from None


def _migrate(store: Store) -> list[str]:  # Store: imported lazily (the web extra)
    """Open ``store``, bring its schema to the code's revision and close it: the revisions
    applied, or a :class:`UsageError` saying why the database could not be migrated."""
    import asyncio

    async def migrate() -> list[str]:
        try:
            return await store.start()
        finally:
            await store.close()
    from handfoot.web import migrations

    try:
        applied: list[str] = asyncio.run(migrate())
    except migrations.UnknownRevision as exc:
        raise UsageError(
            f"the database is at revision {exc.revision[:40]}, which this handfoot "
            f"({__version__}, newest revision {migrations.head()}) does not know: it "
            "was made or migrated by a newer handfoot; run that version (the database "
            "is left as it was)") from None
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UsageError(f"the database could not be opened and migrated: {first}") from None
    return applied


WORKER_SETTINGS = "HANDFOOT_WORKER_SETTINGS"
"""The environment variable that hands ``serve --workers``'s settings to each worker."""

PACED_HTTP = "handfoot.web.handshakes:PacedHttpToolsProtocol"
"""uvicorn's HTTP protocol for ``serve``: new connections read a few a turn of the event
loop (:mod:`handfoot.web.handshakes`), where httptools is installed."""


def http_protocol() -> str:
    """uvicorn's ``http`` option: :data:`PACED_HTTP` where httptools is installed (the web
    extra's uvicorn[standard] brings it), else uvicorn's own choice."""
    import importlib.util

    return PACED_HTTP if importlib.util.find_spec("httptools") is not None else "auto"


def _serve_database(url: str | None, workers: int) -> None:
    """Check the database suits the processes, and migrate its schema once, before any
    worker starts. One SQLite file takes one server process (a lock file next to it):
    several would each keep their own copy of every game."""

    from handfoot.web.store import Store, default_database_url

    if workers < 1:
        raise UsageError("--workers: at least 1")
    store = _open_store(Store, url or default_database_url())
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
    uvicorn.run("handfoot.cli.serve:worker_app", factory=True, host=args.host, port=args.port,
                workers=args.workers, log_level="warning", **options)
    return 0


def worker_app() -> Any:
    """One ``serve --workers`` process's app (uvicorn calls it in each worker)."""
    from handfoot.web.app import Settings, create_app

    data = json.loads(os.environ[WORKER_SETTINGS])
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                              for k, v in data.items()}
    app = create_app(Settings(**values))
    from handfoot.web.collector import tune_for_serving

    tune_for_serving()
    return app


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
    if not args.ws_ping_interval >= 0:
        raise UsageError("--ws-ping-interval: seconds, at least 0 (0: no pings)")
    ping = args.ws_ping_interval or None
    from handfoot.web.guard import normalize_origin
    from handfoot.web.protocol import MAX_FRAME_BYTES

    for origin in args.allowed_origin:
        if normalize_origin(origin) is None:
            raise UsageError(f"--allowed-origin: {origin!r} is not an origin like "
                             "https://cards.example.org")
    settings = Settings(database_url=args.database_url, bot_delay=args.bot_delay,
                        allowed_origins=tuple(args.allowed_origin),
                        allowed_hosts=tuple(args.allowed_host),
                        open_limits=args.open_limits, smtp_url=args.smtp_url,
                        mail_from=args.mail_from, public_url=args.public_url)
    if args.smtp_url:
        from handfoot.web.mail import MailError, check_smtp_url

        try:
            check_smtp_url(args.smtp_url)
        except MailError as exc:
            raise UsageError(f"--smtp-url: {exc}") from None
        if not args.public_url or normalize_origin(args.public_url) is None:
            raise UsageError("--smtp-url needs --public-url, the site's address like "
                             "https://cards.example.org (mailed links start with it)")
    _check_listen(args.host, args.port)
    _serve_database(settings.database_url, args.workers)
    # no permessage-deflate: a state frame is a few KB, and compressing every frame for
    # every connection cost about 0.5 ms of CPU a move and 0.2 MiB a table (zlib state per
    # socket) in benchmarks/server_load.py (docs/server.md, Measured figures)
    if args.workers > 1:
        return _serve_workers(settings, args, ws_max_size=MAX_FRAME_BYTES,
                              ws_per_message_deflate=False, ws_ping_interval=ping,
                              http=http_protocol())
    app = create_app(settings)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{args.port}/"
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port,
                                           log_level="warning", workers=1,
                                           ws_max_size=MAX_FRAME_BYTES,
                                           ws_per_message_deflate=False,
                                           ws_ping_interval=ping,
                                           http=http_protocol()))
    print(f"{PROG}: playing at {url}", flush=True)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, [url]).start()
    from handfoot.web.collector import tune_for_serving

    tune_for_serving()
    # Ctrl-C is how the server is stopped (README): uvicorn shuts down cleanly, then raises
    # the SIGINT it caught again, which asyncio's runner turns into a KeyboardInterrupt (a
    # traceback). uvicorn.run (and so ``--workers N``) swallows it and ends with 0 too: a
    # server stopped as asked has done what it should
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0
