"""The declarative base every table of the server shares (the games', the community's,
the notifications'), and the UTC timestamp type its columns use.

One base, one metadata: a seat refers to an account, a rated game to a game; the Alembic
migrations (``migrations/``) create the schema, and the store (:mod:`..store`) reads and
writes it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator


def now() -> dt.datetime:
    """The current time, timezone-aware (UTC)."""
    return dt.datetime.now(dt.UTC)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A timestamp stored and read back as an aware UTC datetime on every database (SQLite
    keeps no time zone: what it returns is read as UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Any) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=dt.UTC)
        return value.astimezone(dt.UTC)

    def process_result_value(self, value: dt.datetime | None,
                             dialect: Any) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=dt.UTC)
        return value.astimezone(dt.UTC)


class Base(DeclarativeBase):
    pass
