"""The first schema: games, seats, moves, Continue presses, daily results, server secrets.

The tables ``metadata.create_all`` made before there were migrations; a database made that
way is adopted (stamped at this revision) without change.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("profile", sa.String(64), nullable=False),
        sa.Column("overrides", sa.JSON, nullable=False),
        sa.Column("layout", sa.String(8), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(48), nullable=False),
        sa.Column("spectator_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("updated", sa.DateTime, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16)),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64)),
        sa.PrimaryKeyConstraint("game", "seat"),
    )
    op.create_table(
        "moves",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("notation", sa.String(200), nullable=False),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("request_id", sa.String(64)),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("game", "seq"),
    )
    op.create_table(
        "continues",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("game", "round", "seat"),
    )
    op.create_table(
        "daily_results",
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("score", sa.Integer),
        sa.Column("won", sa.Boolean),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("date", "game"),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    for name in ("server_secrets", "daily_results", "continues", "moves", "seats", "games"):
        op.drop_table(name)
