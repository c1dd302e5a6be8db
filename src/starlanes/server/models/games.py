"""The game tables, event-sourced: ``games`` (each game's settings and the result the
server decided), ``seats`` (who sits where: a hash of each seat token, never the token) and
``actions`` (every decision as ``(game, seq, seat, notation, digest after, time)``). A
game's state is rebuilt by replaying its actions (:mod:`..store`, :mod:`..tables`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, UTCDateTime, now


class GameRow(Base):
    """One game's settings: game id, player count, seed, options, bot budget, turn clock."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    bot_seconds: Mapped[float] = mapped_column(default=2.0)
    clock_seconds: Mapped[float] = mapped_column(default=0.0)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    seeded: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the creator chose the seed (then the creator may know the game's future)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """Asked to be rated: it is, when it ends, if every human seat has an account and the
    seed and options are the server's (:mod:`..community.ratings`)."""
    clock_kind: Mapped[str] = mapped_column(String(16), default="move")
    """``move``: ``clock_seconds`` for each decision (correspondence: days' worth);
    ``game``: ``clock_seconds`` for all of a seat's decisions plus ``clock_increment`` per
    decision made."""
    clock_increment: Mapped[float] = mapped_column(default=0.0)
    timeout: Mapped[str] = mapped_column(String(16), default="bot")
    """What a seat's clock running out does: ``bot`` (the fallback bot decides for it) or
    ``lose`` (the seat loses the game: the server ends it, see ``outcome``)."""
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """A result the server decided rather than the rules (a seat lost on time):
    ``{"reason": ..., "loser": seat, "ranks": [...]}``; None while the rules decide."""
    ended: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    """When the game ended (by its rules or by the server); None while it goes on. A game
    with ``ended`` set is archived: no process loads it until someone opens it."""
    owner_account: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account that caused the game (created it, or queued for it in play now), if any."""
    owner_network: Mapped[str] = mapped_column(String(64), default="", index=True)
    """The client network that caused the game (:func:`..limits.network_key`): quotas count
    it, so they hold across restarts."""
    draw_offer: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """A standing draw offer: ``{"seat": seat, "seq": move it was made at}``; None: none."""


class SeatRow(Base):
    """A seat of a game: ``kind`` is ``human`` or an agent spec; a human seat is open until
    someone joins it (``token_hash`` set)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(80), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True)
    """The account that holds this human seat (None: a guest with a seat link, or a bot)."""
    network: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The client network the seat was taken from (:func:`..limits.network_key`): rated
    games never seat two accounts of one network."""


class ActionRow(Base):
    """One decision: sequence number (0-based), seat, notation, state digest after it."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(Text)
    digest: Mapped[str] = mapped_column(String(64))
    by: Mapped[str] = mapped_column(String(32), default="player")
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
