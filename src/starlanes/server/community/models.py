"""The community's tables (accounts and sessions, ratings, chat and reports, mutes, the
play-now queue and invitations, friends, presence, game offers), under the names the
community and its tools use. They are defined with the server's other tables in
:mod:`starlanes.server.models.community`, so that the store registers every table without
importing the community.
"""

from __future__ import annotations

from ..models.community import (
    ROW_ID_MAX,
    AccountRow,
    BlockRow,
    ChatRow,
    FollowRow,
    InvitationRow,
    MuteRow,
    OfferRow,
    OfferSeatRow,
    PresenceRow,
    QueueRow,
    RatedGameRow,
    RatingRow,
    ReportRow,
    SessionRow,
)

__all__ = ["ROW_ID_MAX", "AccountRow", "BlockRow", "ChatRow", "FollowRow", "InvitationRow",
           "MuteRow", "OfferRow", "OfferSeatRow", "PresenceRow", "QueueRow", "RatedGameRow",
           "RatingRow", "ReportRow", "SessionRow"]
