"""Which server process plays each game's bots: a lease per game.

A process with connections to a game takes the lease and renews it every few seconds; only
the holder plays the game's bots and stand-ins. A lease not renewed for
:data:`handfoot.web.store.BOT_LEASE` seconds (its process died) may be taken over. Only
servers on a shared database (PostgreSQL) write it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_leases",
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("worker", sa.String(32), nullable=False),
        sa.Column("expires", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("game"),
    )


def downgrade() -> None:
    op.drop_table("bot_leases")
