"""A turn notice's e-mail address is confirmed before any notice goes to it.

``notice_seats`` gains ``email_confirmed`` (the address's owner opened the link mailed to it,
or it is the signed-in player's own verified address), ``confirm_hash`` (the SHA-256 of the
link's token, while one is out) and ``confirm_sent``. ``confirm_mails`` counts the
confirmation mails sent to an address (by its SHA-256, not the address) so that nobody can
use the server to flood an inbox with them. Addresses given before this revision are kept
but must be confirmed (given again at the table) before mail goes to them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision: str | None = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("notice_seats") as batch:
        batch.add_column(sa.Column("email_confirmed", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("confirm_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("confirm_sent", sa.DateTime, nullable=True))
        batch.create_index("notice_seats_confirm", ["confirm_hash"])
    op.create_table(
        "confirm_mails",
        sa.Column("address_hash", sa.String(64), nullable=False),
        sa.Column("sent", sa.DateTime, nullable=False),
    )
    op.create_index("confirm_mails_address", "confirm_mails", ["address_hash", "sent"])


def downgrade() -> None:
    op.drop_index("confirm_mails_address", table_name="confirm_mails")
    op.drop_table("confirm_mails")
    with op.batch_alter_table("notice_seats") as batch:
        batch.drop_index("notice_seats_confirm")
        batch.drop_column("confirm_sent")
        batch.drop_column("confirm_hash")
        batch.drop_column("email_confirmed")
