"""Players without passwords (their devices' keys, one-time links, the seats they took and
their results) and clubs (members, invites, house rules, games): see
:mod:`handfoot.web.players` and :mod:`handfoot.web.clubs`."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("email", sa.String(254)),
        sa.Column("email_verified", sa.Boolean, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("deleted", sa.DateTime),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "player_keys",
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("seen", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("key_hash"),
    )
    op.create_index("player_keys_player", "player_keys", ["player"])
    op.create_table(
        "player_links",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("email", sa.String(254)),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("expires", sa.DateTime, nullable=False),
        sa.Column("used", sa.DateTime),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("player_links_player", "player_links", ["player"])
    op.create_table(
        "seat_players",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("joined", sa.DateTime, nullable=False),
        sa.Column("finished", sa.DateTime),
        sa.Column("side", sa.Integer),
        sa.Column("points", sa.Integer),
        sa.Column("won", sa.Boolean),
        sa.Column("stats", sa.JSON),
        sa.PrimaryKeyConstraint("game", "seat"),
    )
    op.create_index("seat_players_player", "seat_players", ["player"])
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "club_members",
        sa.Column("club", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("joined", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("club", "player"),
    )
    op.create_index("club_members_player", "club_members", ["player"])
    op.create_table(
        "club_invites",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("club", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("by", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("expires", sa.DateTime, nullable=False),
        sa.Column("revoked", sa.Boolean, nullable=False),
        sa.Column("uses", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("club_invites_club", "club_invites", ["club"])
    op.create_table(
        "club_rules",
        sa.Column("club", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("toml", sa.Text, nullable=False),
        sa.Column("by", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("updated", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("club", "name"),
    )
    op.create_table(
        "club_games",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("club", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("rules", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("game"),
    )
    op.create_index("club_games_club", "club_games", ["club"])


def downgrade() -> None:
    op.drop_index("club_games_club", "club_games")
    op.drop_table("club_games")
    op.drop_table("club_rules")
    op.drop_index("club_invites_club", "club_invites")
    op.drop_table("club_invites")
    op.drop_index("club_members_player", "club_members")
    op.drop_table("club_members")
    op.drop_table("clubs")
    op.drop_index("seat_players_player", "seat_players")
    op.drop_table("seat_players")
    op.drop_index("player_links_player", "player_links")
    op.drop_table("player_links")
    op.drop_index("player_keys_player", "player_keys")
    op.drop_table("player_keys")
    op.drop_table("players")
