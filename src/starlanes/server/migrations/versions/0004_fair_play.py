"""Fair play and the life cycle of games: when a game ended, who caused it (account and
client network, so quotas survive a restart), a standing draw offer; per seat and per
play-now entry the client network it was taken from.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("ended", TS, nullable=True))
        batch.add_column(sa.Column("owner_account", sa.Integer, nullable=True))
        batch.add_column(sa.Column("owner_network", sa.String(64), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("draw_offer", sa.JSON, nullable=True))
        batch.create_index("ix_games_ended", ["ended"])
        batch.create_index("ix_games_owner_network", ["owner_network"])
        batch.create_index("ix_games_owner_account", ["owner_account"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("network", sa.String(64), nullable=True))
    with op.batch_alter_table("queue_entries") as batch:
        batch.add_column(sa.Column("network", sa.String(64), nullable=False,
                                   server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("queue_entries") as batch:
        batch.drop_column("network")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("network")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_owner_account")
        batch.drop_index("ix_games_owner_network")
        batch.drop_index("ix_games_ended")
        batch.drop_column("draw_offer")
        batch.drop_column("owner_network")
        batch.drop_column("owner_account")
        batch.drop_column("ended")
