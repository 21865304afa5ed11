"""Score sheets of games played with real cards (see docs/score-keeper.md).

``score_sheets`` holds a sheet's rules and names; ``score_rounds`` every round as entered
and every correction, each a new row (the last row of a round counts), so nothing entered
is ever lost and each change keeps who made it, when, and what it replaced.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "score_sheets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("profile", sa.String(64), nullable=False),
        sa.Column("overrides", sa.JSON, nullable=False),
        sa.Column("layout", sa.String(8), nullable=False),
        sa.Column("names", sa.JSON, nullable=False),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    op.create_table(
        "score_rounds",
        sa.Column("sheet", sa.String(32), sa.ForeignKey("score_sheets.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("entries", sa.JSON, nullable=False),
        sa.Column("who", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("sheet", "seq"),
    )


def downgrade() -> None:
    op.drop_table("score_rounds")
    op.drop_table("score_sheets")
