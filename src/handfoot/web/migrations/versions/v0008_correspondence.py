"""Correspondence games and their notices: the turn each game waits for with its timer
(``turns``: a deadline claimed by one process at a time with a conditional UPDATE), how each
seat wants to hear it is its turn (``notice_seats``: e-mail, mute, unsubscribe) and the
seats' browsers' Web Push subscriptions (``push_subscriptions``; a signed-in player's, for
all their seats: ``player_pushes``)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turns",
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("started", sa.DateTime, nullable=False),
        sa.Column("due", sa.DateTime, nullable=False),
        sa.Column("notified", sa.Boolean, nullable=False),
        sa.Column("fired", sa.Boolean, nullable=False),
        sa.Column("worker", sa.String(32)),
        sa.Column("lease", sa.DateTime),
        sa.PrimaryKeyConstraint("game"),
    )
    op.create_index("turns_due", "turns", ["due"])
    op.create_table(
        "notice_seats",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("base_url", sa.String(200), nullable=False),
        sa.Column("email", sa.String(254)),
        sa.Column("mail_every", sa.String(8), nullable=False),
        sa.Column("muted", sa.Boolean, nullable=False),
        sa.Column("unsubscribe_hash", sa.String(64), nullable=False),
        sa.Column("last_mail", sa.DateTime),
        sa.Column("last_digest", sa.DateTime),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("game", "seat"),
    )
    op.create_index("notice_seats_unsubscribe", "notice_seats", ["unsubscribe_hash"])
    op.create_index("notice_seats_email", "notice_seats", ["email"])
    op.create_table(
        "push_subscriptions",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("endpoint_hash", sa.String(64), nullable=False),
        sa.Column("endpoint", sa.String(1000), nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("game", "seat", "endpoint_hash"),
    )

    op.create_table(
        "player_pushes",
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("endpoint_hash", sa.String(64), nullable=False),
        sa.Column("endpoint", sa.String(1000), nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("player", "endpoint_hash"),
    )


def downgrade() -> None:
    op.drop_table("player_pushes")
    op.drop_table("push_subscriptions")
    op.drop_index("notice_seats_email", "notice_seats")
    op.drop_index("notice_seats_unsubscribe", "notice_seats")
    op.drop_table("notice_seats")
    op.drop_index("turns_due", "turns")
    op.drop_table("turns")
