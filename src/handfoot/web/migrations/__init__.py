"""Schema migrations (Alembic), shipped with the package and run by the server at start.

The revisions live in ``versions/`` (``v0001_schema`` is the schema of the first release);
:func:`upgrade` brings a database to the newest one. A database made before there were
migrations (by ``metadata.create_all``: it has ``games`` but no ``alembic_version``) is
adopted: stamped at revision ``0001``, whose tables it has, then upgraded. On PostgreSQL the
upgrade holds an advisory lock, so server processes starting together migrate once.

No ``env.py``: :func:`upgrade` drives Alembic's migration context itself on the server's
own connection. A new revision is a module ``versions/vNNNN_name.py`` written by hand (see
docs/server.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text

__all__ = ["ADOPTED", "UnknownRevision", "current", "head", "upgrade"]

LOCATION: Final = Path(__file__).resolve().parent

ADOPTED: Final = "0001"
"""The revision a database made by ``create_all`` (before migrations) is stamped at."""

LOCK_KEY: Final = 0x68616E64  # "hand": the advisory lock migrations hold on PostgreSQL


class UnknownRevision(Exception):
    """The database is at a revision these migrations do not have: a newer handfoot made
    or migrated it. Nothing was changed."""

    def __init__(self, revision: str) -> None:
        super().__init__(f"the database is at revision {revision}, which this handfoot "
                         f"does not know (newest revision {head()})")
        self.revision = revision


def scripts() -> ScriptDirectory:
    return ScriptDirectory(str(LOCATION), version_locations=[str(LOCATION / "versions")])


def head() -> str:
    """The newest revision."""
    revision = scripts().get_current_head()
    assert revision is not None
    return revision


def current(connection: Connection) -> str | None:
    """The database's revision (None: not migrated, perhaps empty)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection, target: str = "head") -> list[str]:
    """Bring the database to ``target`` (adopting a ``create_all`` database first) in the
    connection's transaction; the revisions applied, oldest first."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
    directory = scripts()
    now = current(connection)
    if now is None and inspect(connection).has_table("games"):
        MigrationContext.configure(connection).stamp(directory, ADOPTED)
        now = ADOPTED
    if now is not None and now not in {script.revision for script in directory.walk_revisions()}:
        raise UnknownRevision(now)
    if now is not None and now == directory.as_revision_number(target):
        return []
    applied: list[str] = []

    def steps(revision: Any, _context: MigrationContext) -> Any:
        plan = directory._upgrade_revs(target, revision)
        applied.extend(str(step.revision.revision) for step in plan)
        return plan

    config = Config()
    config.set_main_option("script_location", str(LOCATION))
    with EnvironmentContext(config, directory, fn=steps, destination_rev=target) as env:
        env.configure(connection=connection)
        with env.begin_transaction():
            env.run_migrations()
    return applied
