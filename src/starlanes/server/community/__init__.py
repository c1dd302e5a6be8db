"""The community around the games: accounts and sessions (:mod:`.accounts`,
:mod:`.identity`), profiles, ratings, leaderboards and the bot ladder (:mod:`.ratings`),
the play-now queue and invitations (:mod:`.matchmaking`), chat and reports (:mod:`.chat`),
live notifications and mails (:mod:`.events`, :mod:`.mail`) and the operator's requests
(:mod:`.admin`).

It sits beside the game service and knows no game either: it reaches games through the
service (create, join, the live games and their seats) and learns of moves through the
service's listeners.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter

from .identity import Sessions

if TYPE_CHECKING:
    from ..config import ServerConfig
    from ..service import GameService


class Community:
    """The community's parts, sharing the game service, its store and the config."""

    def __init__(self, service: GameService, config: ServerConfig) -> None:
        from .admin import Admin
        from .chat import Chat
        from .events import Events
        from .fairplay import FairPlay
        from .friends import Friends
        from .mail import Mailer
        from .matchmaking import Matchmaking
        from .ratings import Ratings
        from .social import Offers

        self.service = service
        self.store = service.store
        self.config = config
        self.base_url = (config.public_url or "http://127.0.0.1:8000").rstrip("/")
        """Where links in mails point (the app sets the address it serves at)."""
        self.notifiers: list[Callable[[int, dict[str, Any]], Awaitable[None]]] = []
        """Awaited with (account id, event) for something an account should hear of at
        once (an event: a dict with a ``kind``, e.g. ``challenge``, ``rematch``): the
        live event streams (:mod:`.events`) and the mails (:mod:`.mail`) listen."""
        self.sessions = Sessions(self.store)
        self.ratings = Ratings(self)
        self.fair_play = FairPlay(self)
        self.matchmaking = Matchmaking(self)
        self.chat = Chat(self)
        self.friends = Friends(self)
        self.offers = Offers(self)
        self.events = Events(self)
        self.mail = Mailer(self)
        self.admin = Admin(self)

    async def notify(self, account_id: int, event: dict[str, Any]) -> None:
        """Call every notifier with ``event`` for ``account_id`` (a notifier's fault is
        logged, never raised)."""
        import logging

        for notifier in list(self.notifiers):
            try:
                await notifier(account_id, event)
            except Exception:  # noqa: BLE001
                logging.getLogger("starlanes.server").exception("a notifier failed")


def community_router(community: Community, web: Path) -> APIRouter:
    """Every route of the community (``/api/account...``, ``/api/players...``,
    ``/api/ratings...``, ``/api/play...``, ``/api/games/{id}/chat...``) and its pages."""
    from . import (
        accounts,
        chat,
        events,
        friends,
        mail,
        matchmaking,
        profiles,
        ratings,
        social,
    )

    router = APIRouter()
    for part in (accounts, profiles, ratings, matchmaking, chat, events, mail, friends,
                 social):
        router.include_router(part.router(community, web))
    return router
