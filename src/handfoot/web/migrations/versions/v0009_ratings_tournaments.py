"""Players' ratings (handfoot.web.ratings): each player's OpenSkill rating per rule set,
and the games already rated (each game once); club duplicate tournaments
(handfoot.web.tournaments) and each of their tables' games."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
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

    op.create_table(
        "club_tournaments",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("club", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rules", sa.String(64), nullable=False),
        sa.Column("profile", sa.String(64), nullable=False),
        sa.Column("overrides", sa.JSON, nullable=False),
        sa.Column("layout", sa.String(8), nullable=False),
        sa.Column("tables", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("bot_level", sa.String(16), nullable=False),
        sa.Column("seed", sa.String(48), nullable=False),
        sa.Column("starts", sa.DateTime, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("current_round", sa.Integer, nullable=False),
        sa.Column("entrants", sa.JSON, nullable=False),
        sa.Column("seating", sa.JSON),
        sa.Column("by", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("club_tournaments_club", "club_tournaments", ["club"])
    op.create_table(
        "club_tournament_games",
        sa.Column("tournament", sa.String(32), sa.ForeignKey("club_tournaments.id"),
                  nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table", sa.Integer, nullable=False),
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("totals", sa.JSON),
        sa.PrimaryKeyConstraint("tournament", "round", "table"),
    )


def downgrade() -> None:
    op.drop_table("club_tournament_games")
    op.drop_index("club_tournaments_club", "club_tournaments")
    op.drop_table("club_tournaments")
    op.drop_table("rated_games")
    op.drop_table("player_ratings")
