"""The community around the games: accounts and sessions (:mod:`.accounts`,
:mod:`.identity`), profiles, ratings, leaderboards and the bot ladder (:mod:`.ratings`),
the play-now queue and invitations (:mod:`.matchmaking`), chat and reports (:mod:`.chat`).

It sits beside the game service and knows no game either: it reaches games through the
service (create, join, the live games and their seats) and learns of moves through the
service's listeners.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import APIRouter

from .identity import Sessions

if TYPE_CHECKING:
    from ..config import ServerConfig
    from ..service import GameService


class Community:
    """The community's parts, sharing the game service, its store and the config."""

    def __init__(self, service: GameService, config: ServerConfig) -> None:
        from .chat import Chat
        from .fairplay import FairPlay
        from .matchmaking import Matchmaking
        from .ratings import Ratings

        self.service = service
        self.store = service.store
        self.config = config
        self.sessions = Sessions(self.store)
        self.ratings = Ratings(self)
        self.fair_play = FairPlay(self)
        self.matchmaking = Matchmaking(self)
        self.chat = Chat(self)


def community_router(community: Community, web: Path) -> APIRouter:
    """Every route of the community (``/api/account...``, ``/api/players...``,
    ``/api/ratings...``, ``/api/play...``, ``/api/games/{id}/chat...``) and its pages."""
    from . import accounts, chat, matchmaking, ratings

    router = APIRouter()
    for part in (accounts, ratings, matchmaking, chat):
        router.include_router(part.router(community, web))
    return router
