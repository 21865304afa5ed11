"""Players' ratings (handfoot.web.ratings): each player's OpenSkill rating per rule set,
and the games already rated (each game once)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_ratings",
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("profile_hash", sa.String(64), nullable=False),
        sa.Column("profile", sa.Text, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("player", "profile_hash"),
    )
    op.create_table(
        "rated_games",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("profile", sa.Text, nullable=False),
        sa.Column("rated", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("game"),
    )


def downgrade() -> None:
    op.drop_table("rated_games")
    op.drop_table("player_ratings")
