"""The community: accounts, sessions, ratings, chat, reports, mutes, the play-now queue and
invitations; games get rating and clock settings and a server-decided outcome; seats the
account that holds them.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def _fk(table: str, ondelete: str = "CASCADE") -> sa.ForeignKey:
    return sa.ForeignKey(f"{table}.id", ondelete=ondelete)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(48), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", TS, nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("suspended", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, _fk("accounts"), nullable=False, index=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", TS, nullable=False),
        sa.Column("last_seen", TS, nullable=False),
        sa.Column("expires", TS, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(80), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", TS, nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(32), _fk("games"), primary_key=True),
        sa.Column("rated_at", TS, nullable=False),
        sa.Column("changes", sa.JSON, nullable=False),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), _fk("games"), nullable=False, index=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, _fk("accounts", "SET NULL"), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", TS, nullable=False),
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer, _fk("chat_messages"), nullable=False, index=True),
        sa.Column("reporter", sa.String(80), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("at", TS, nullable=False),
        sa.Column("handled", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "mutes",
        sa.Column("account_id", sa.Integer, _fk("accounts"), primary_key=True),
        sa.Column("muted_id", sa.Integer, _fk("accounts"), primary_key=True),
    )
    op.create_table(
        "queue_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, _fk("accounts"), nullable=False, index=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("joined", TS, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), _fk("games"), nullable=False, index=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("from_id", sa.Integer, _fk("accounts"), nullable=False),
        sa.Column("to_id", sa.Integer, _fk("accounts"), nullable=False, index=True),
        sa.Column("created", TS, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.UniqueConstraint("game_id", "seat"),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("clock_kind", sa.String(16), nullable=False,
                                   server_default="move"))
        batch.add_column(sa.Column("clock_increment", sa.Float, nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("timeout", sa.String(16), nullable=False,
                                   server_default="bot"))
        batch.add_column(sa.Column("outcome", sa.JSON, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_index("ix_seats_account_id", ["account_id"])
        batch.create_foreign_key("fk_seats_account", "accounts", ["account_id"], ["id"],
                                 ondelete="SET NULL")


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_account", type_="foreignkey")
        batch.drop_index("ix_seats_account_id")
        batch.drop_column("account_id")
    with op.batch_alter_table("games") as batch:
        for column in ("outcome", "timeout", "clock_increment", "clock_kind", "rated"):
            batch.drop_column(column)
    for table in ("invitations", "queue_entries", "mutes", "chat_reports", "chat_messages",
                  "rated_games", "ratings", "sessions", "accounts"):
        op.drop_table(table)
