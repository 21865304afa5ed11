"""Reactions and chat at a table (:mod:`handfoot.web.talk`): one row per message, kept with
the game (never in its record) and shown in its replay after the move it followed."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "talk",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(16)),
        sa.Column("text", sa.String(800)),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    op.create_index("talk_game", "talk", ["game", "id"])


def downgrade() -> None:
    op.drop_index("talk_game", table_name="talk")
    op.drop_table("talk")
