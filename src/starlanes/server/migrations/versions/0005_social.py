"""Rematch offers, challenges, follows, presence and blocks (``docs/community/social.md``):

- ``blocks`` and ``follows``: one row per pair of accounts;
- ``presence``: per account when it was last seen and whether it hides that;
- ``game_offers`` and ``game_offer_seats``: challenges by name and rematch offers, with
  each human seat's holder and answer.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def _account(name: str, **kw: object) -> sa.Column:
    return sa.Column(name, sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), **kw)


def upgrade() -> None:
    op.create_table(
        "blocks",
        _account("account_id", primary_key=True),
        _account("blocked_id", primary_key=True),
        sa.Column("created", TS, nullable=False))
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "follows",
        _account("account_id", primary_key=True),
        _account("followed_id", primary_key=True),
        sa.Column("created", TS, nullable=False))
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.create_table(
        "presence",
        _account("account_id", primary_key=True),
        sa.Column("seen", TS, nullable=True),
        sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "game_offers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        _account("from_id", nullable=True),
        sa.Column("from_seat", sa.Integer, nullable=True),
        sa.Column("source_game", sa.String(32), nullable=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("setups", sa.JSON, nullable=False),
        sa.Column("clock_seconds", sa.Float, nullable=False, server_default="0"),
        sa.Column("clock_kind", sa.String(16), nullable=False, server_default="move"),
        sa.Column("clock_increment", sa.Float, nullable=False, server_default="0"),
        sa.Column("timeout", sa.String(16), nullable=False, server_default="bot"),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created", TS, nullable=False),
        sa.Column("expires", TS, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="open"),
        sa.Column("open_key", sa.String(200), nullable=True, unique=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(400), nullable=False, server_default=""),
        sa.Column("network", sa.String(64), nullable=False, server_default=""),
        sa.Column("changed", TS, nullable=False))
    op.create_index("ix_game_offers_from_id", "game_offers", ["from_id"])
    op.create_index("ix_game_offers_source_game", "game_offers", ["source_game"])
    op.create_index("ix_game_offers_expires", "game_offers", ["expires"])
    op.create_index("ix_game_offers_status", "game_offers", ["status"])
    op.create_table(
        "game_offer_seats",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("offer_id", sa.Integer,
                  sa.ForeignKey("game_offers.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("old_seat", sa.Integer, nullable=True),
        _account("account_id", nullable=True),
        sa.Column("name", sa.String(80), nullable=False, server_default=""),
        sa.Column("answer", sa.String(16), nullable=False, server_default="open"),
        sa.Column("network", sa.String(64), nullable=True),
        sa.Column("first_hash", sa.String(64), nullable=True),
        sa.UniqueConstraint("offer_id", "seat"))
    op.create_index("ix_game_offer_seats_offer_id", "game_offer_seats", ["offer_id"])
    op.create_index("ix_game_offer_seats_account_id", "game_offer_seats", ["account_id"])


def downgrade() -> None:
    op.drop_table("game_offer_seats")
    op.drop_table("game_offers")
    op.drop_table("presence")
    op.drop_table("follows")
    op.drop_table("blocks")
