"""Chat kept with the game, notifications by e-mail, and the operator's log:

- ``chat_messages.seq``: the move a message was written at (old messages get the number of
  moves stored before them);
- ``accounts``: an e-mail address and the opt-in e-mail notifications (turns, challenges);
- ``password_resets``: one-time links to set a new password (the hash of the link's token);
- ``mails_sent``: the notification mails of the last days (one turn mail per game and move,
  a daily cap per account);
- ``server_keys``: the key unsubscribe links are signed with;
- ``admin_log``: every operator command (who, what, when);
- ``admin_requests``: what an operator asked the running server to do (end a game).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(sa.Column("seq", sa.Integer, nullable=True))
    op.execute("UPDATE chat_messages SET seq = (SELECT count(*) FROM actions WHERE "
               "actions.game_id = chat_messages.game_id AND actions.at <= chat_messages.at)")
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=False, server_default=""))
        batch.add_column(sa.Column("email_turns", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("email_challenges", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "password_resets",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("created", TS, nullable=False),
        sa.Column("expires", TS, nullable=False, index=True),
        sa.Column("by", sa.String(16), nullable=False),
    )
    op.create_table(
        "mails_sent",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("at", TS, nullable=False, index=True),
        sa.UniqueConstraint("account_id", "key"),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "admin_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", TS, nullable=False, index=True),
        sa.Column("who", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(80), nullable=False),
        sa.Column("detail", sa.String(500), nullable=False),
    )
    op.create_table(
        "admin_requests",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("outcome", sa.JSON, nullable=False),
        sa.Column("created", TS, nullable=False),
        sa.Column("done", TS, nullable=True, index=True),
        sa.Column("result", sa.String(500), nullable=False, server_default=""),
    )


def downgrade() -> None:
    op.drop_table("admin_requests")
    op.drop_table("admin_log")
    op.drop_table("server_keys")
    op.drop_table("mails_sent")
    op.drop_table("password_resets")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("email_challenges")
        batch.drop_column("email_turns")
        batch.drop_column("email")
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("seq")
