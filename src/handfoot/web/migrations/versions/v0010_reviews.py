"""Game reviews (docs/review.md): one row per finished game and reviewed seat.

A row is made when a review is asked for (``status`` ``running``, with the decisions done
out of ``total``), and holds the review's JSON once it is computed (``done``), or
``failed``. A ``running`` row whose ``updated`` is old (its process died) may be started
again by any process.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("data", sa.JSON, nullable=True),
        sa.Column("updated", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("game", "seat"),
    )


def downgrade() -> None:
    op.drop_table("reviews")
