"""The server's tables, on one declarative base (:mod:`.base`): the games (:mod:`.games`),
the community's (:mod:`.community`: accounts, sessions, ratings, chat, the queue, offers)
and the notifications' and operator's (:mod:`.notify`).

Importing this package registers every table on the shared metadata, so a foreign key from
one part to another (a seat's account, a rated game's game) always resolves. The storage
layer owns the tables; the community reads and writes its own through them.
"""

from __future__ import annotations

from . import community, notify
from .base import Base, UTCDateTime, now
from .games import ActionRow, GameRow, SeatRow

__all__ = ["ActionRow", "Base", "GameRow", "SeatRow", "UTCDateTime", "community", "notify",
           "now"]
