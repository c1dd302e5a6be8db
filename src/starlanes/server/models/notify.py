"""Tables of notifications and of the operator (migration ``0006_chat_seq_admin``):
password-reset links, the notification mails of the last days, the server's signing key,
the operator's log and the operator's requests to the running server.

Nothing here grows with the games played: reset links and mail stamps are deleted once
expired (:data:`MAIL_KEEP_DAYS`), the operator's log grows only with operator commands.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, UTCDateTime, now

MAIL_KEEP_DAYS = 2
"""Days a sent mail's stamp is kept (the daily cap and the once-per-move rule need one)."""


class PasswordResetRow(Base):
    """A one-time link to set a new password: the SHA-256 of its token (never the token),
    the account, when it was made and when it stops working, and who made it (``mail``:
    the account's own request; ``admin``: ``starlanes admin reset-password``)."""

    __tablename__ = "password_resets"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    expires: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)
    by: Mapped[str] = mapped_column(String(16))


class MailSentRow(Base):
    """A notification mail sent: to which account and for what (``key``: ``turn:<game>:<move>``
    or ``challenge:<id>``, unique per account, so a move or a challenge mails once)."""

    __tablename__ = "mails_sent"
    __table_args__ = (UniqueConstraint("account_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(120))
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now, index=True)


class ServerKeyRow(Base):
    """A secret of the server shared by its processes (``unsubscribe``: the key that signs
    unsubscribe links), made at first use."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class AdminLogRow(Base):
    """One operator command: when, who (the operating-system user that ran it), what
    (``suspend``, ``delete``, ``end`` ...), on what (an account's name, a game's id) and
    the details in words."""

    __tablename__ = "admin_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now, index=True)
    who: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(80))
    detail: Mapped[str] = mapped_column(String(500), default="")


class AdminRequestRow(Base):
    """Something the operator asked the running server to do (``kind``: ``end``, the game
    ``game_id`` ended with ``outcome``); ``done`` is stamped by the server process that
    did it, with ``result`` in words."""

    __tablename__ = "admin_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str] = mapped_column(String(32))
    outcome: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    done: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    result: Mapped[str] = mapped_column(String(500), default="")
