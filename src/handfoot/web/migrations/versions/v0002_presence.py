"""Presence across server processes: which seats each process has a connection for.

A row per (game, seat, process), refreshed by its process every few seconds; a row not
refreshed for :data:`handfoot.web.store.PRESENCE_STALE` seconds (its process died) no
longer counts. Only servers on a shared database (PostgreSQL) write it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("worker", sa.String(32), nullable=False),
        sa.Column("seen", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("game", "seat", "worker"),
    )
    op.create_index("presence_worker", "presence", ["worker"])


def downgrade() -> None:
    op.drop_index("presence_worker", "presence")
    op.drop_table("presence")
