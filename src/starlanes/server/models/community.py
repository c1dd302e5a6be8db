"""Tables of the community features: accounts and their sessions, ratings, chat, reports,
mutes, the play-now queue and invitations. They live on the same declarative base as the
games (:mod:`.games`) and are created by the migration ``0003_community``.

Identities in ratings are *player keys*: ``a:<account id>`` for an account, ``bot:<name>``
for a catalogue bot, so bots and players share one rating scale per game.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, UTCDateTime, now

ROW_ID_MAX = 2**31 - 1
"""The largest row id (a 32-bit integer on every database): ids in requests above it are
refused (422) before any query."""


class AccountRow(Base):
    """A registered player. ``name`` is shown as typed; ``name_key`` (case-folded) is what
    must be unique. A deleted account keeps its row (its games keep their seats) with the
    name ``deleted player``, no password and ``deleted`` set."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(48), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255), default="")
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    suspended: Mapped[bool] = mapped_column(Boolean, default=False)
    """Set by the operator (``starlanes admin suspend``): no log-in, no chat, no queue."""
    email: Mapped[str] = mapped_column(String(254), default="")
    """Where notification mails go (empty: none); only its syntax is checked."""
    email_turns: Mapped[bool] = mapped_column(Boolean, default=False)
    """Opt-in: a mail when it becomes the account's turn in a correspondence game."""
    email_challenges: Mapped[bool] = mapped_column(Boolean, default=False)
    """Opt-in: a mail when someone challenges the account."""


class SessionRow(Base):
    """A logged-in browser: the hash of its session cookie's value (never the value), its
    CSRF token (useless without the cookie, shown to the session's own pages), when it was
    made, last used and ends."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    last_seen: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    expires: Mapped[dt.datetime] = mapped_column(UTCDateTime)


class RatingRow(Base):
    """One player's (or bot's) rating in one game: openskill's ``mu`` and ``sigma``, the
    number of rated games it counts."""

    __tablename__ = "ratings"

    player: Mapped[str] = mapped_column(String(80), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class RatedGameRow(Base):
    """A game whose result has been rated: its primary key makes the update happen once.
    ``changes`` lists per seat the player key and the rating before and after."""

    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    rated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    changes: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)


class ChatRow(Base):
    """A chat message of a game: its channel (``players`` or ``spectators``), who wrote it
    (an account, a seat, both or neither), the name shown, the plain text."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         index=True)
    channel: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The number of moves made when it was written (the replay shows it at that move)."""


class ReportRow(Base):
    """A chat message reported to the operator, with who reported it and why."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id", ondelete="CASCADE"),
                                            index=True)
    reporter: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(String(500), default="")
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    handled: Mapped[bool] = mapped_column(Boolean, default=False)


class MuteRow(Base):
    """An account that does not want to read another account's chat."""

    __tablename__ = "mutes"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True)
    muted_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                          primary_key=True)


class QueueRow(Base):
    """An account waiting in the play-now queue of a game, player count and clock mode;
    ``game_id`` and ``seat`` are set once, when it is seated (one entry, one game)."""

    __tablename__ = "queue_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(16))
    rating: Mapped[float] = mapped_column(Float)
    joined: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    network: Mapped[str] = mapped_column(String(64), default="")
    """The client network the entry was queued from: never paired with its own network."""


class InvitationRow(Base):
    """An invitation of an account to a human seat of a game, by another account."""

    __tablename__ = "invitations"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         index=True)
    seat: Mapped[int] = mapped_column(Integer)
    from_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    to_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                       index=True)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    status: Mapped[str] = mapped_column(String(16), default="open")
    """``open``, ``accepted``, ``declined`` or ``withdrawn``."""


class BlockRow(Base):
    """An account that blocked another: the blocked account's chat is hidden from it, the
    blocked account cannot challenge it, offer it a rematch or follow it, and play now
    never seats the two together (``docs/community/social.md``)."""

    __tablename__ = "blocks"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True, index=True)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class FollowRow(Base):
    """An account that follows another: it sees whether that player is online or playing,
    and where to watch."""

    __tablename__ = "follows"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True)
    followed_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                             primary_key=True, index=True)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class PresenceRow(Base):
    """When an account was last seen (a request of its session, or one of its tables open
    on a socket) and whether it hides that: one row per account, never more."""

    __tablename__ = "presence"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True)
    seen: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)


class OfferRow(Base):
    """A game offered to named players: a challenge by name (``kind`` ``challenge``) or a
    rematch of a finished game (``rematch``, ``source_game``). It holds the new game's
    settings (``seats``: per seat ``human`` or a bot's name); each human seat's holder
    answers in :class:`OfferSeatRow`. ``status``: ``open``, ``starting`` (every seat
    accepted, the game is being made), ``started`` (``game_id``), ``declined``,
    ``withdrawn``, ``expired`` or ``failed`` (``reason`` says why). ``open_key`` is set
    while the offer is open or starting and is unique: one open rematch offer per game,
    one open challenge per challenger and set of challenged players."""

    __tablename__ = "game_offers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    from_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True)
    """The challenger, or the account that offered a rematch (None: a guest's seat)."""
    from_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat of the new game the offer came from."""
    source_game: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[str]] = mapped_column(JSON, default=list)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    setups: Mapped[list[str]] = mapped_column(JSON, default=list)
    clock_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    clock_kind: Mapped[str] = mapped_column(String(16), default="move")
    clock_increment: Mapped[float] = mapped_column(Float, default=0.0)
    timeout: Mapped[str] = mapped_column(String(16), default="bot")
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    expires: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    open_key: Mapped[str | None] = mapped_column(String(200), nullable=True, unique=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    reason: Mapped[str] = mapped_column(String(400), default="")
    network: Mapped[str] = mapped_column(String(64), default="")
    """The client network the offer was made from (the new game's quota counts it)."""
    changed: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class OfferSeatRow(Base):
    """A human seat of an offered game and its holder's answer (``open``, ``accepted``,
    ``declined``): an account, or for a rematch a guest who held ``old_seat`` of the
    finished game. ``first_hash`` is the hash of the token the new seat was made with
    (nobody holds it): the old seat's holder exchanges it once for the new seat's link."""

    __tablename__ = "game_offer_seats"
    __table_args__ = (UniqueConstraint("offer_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    offer_id: Mapped[int] = mapped_column(ForeignKey("game_offers.id", ondelete="CASCADE"),
                                          index=True)
    seat: Mapped[int] = mapped_column(Integer)
    old_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(80), default="")
    answer: Mapped[str] = mapped_column(String(16), default="open")
    network: Mapped[str | None] = mapped_column(String(64), nullable=True)
    first_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
