"""The routes of a setup builder (the deck builder page ``/decks``): the game's builder
data, a draft checked, a code read. They reach the game only through its companion module
``seat_setup`` (``builder``, ``check_draft``, ``read_code``); what a seat brings to a game
is checked by :mod:`.setups`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from starlanes.engine import Game, StarlanesError, game_class, game_module, load

from .errors import NotFound, Unprocessable
from .setups import MAX_SETUP

if TYPE_CHECKING:  # pragma: no cover
    from .service import GameService


class DraftBody(BaseModel):
    """A setup being built (a deck list: name, major, cards), for the content pack named
    ``content`` ('' for the packaged content)."""

    model_config = ConfigDict(extra="forbid")

    deck: dict[str, Any]
    content: str = Field(default="", max_length=200)


class CodeBody(BaseModel):
    """A setup's code to read, for the content pack named ``content``."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=MAX_SETUP)
    content: str = Field(default="", max_length=200)


def setups_router(service: GameService, web: Path) -> APIRouter:
    """The setup builder's routes: ``GET /api/setups/{game}`` (builder data), ``POST
    /api/setups/{game}/check`` (a draft's problems, summary and code), ``POST
    /api/setups/{game}/read`` (a code's deck list or 422 with the reason) and the page
    ``/decks``."""
    router = APIRouter()

    def companion(game: str, content: str) -> tuple[Any, Game]:
        cls = game_class(game)  # 400 naming the known games
        module = game_module(cls, "seat_setup")
        if module is None:
            raise NotFound(f"seats of {cls.title} bring nothing: it has no builder")
        opts = service.catalogue.engine_options(game, {"content": content} if content
                                                else {})
        return module, load(game, players=cls.min_players, **opts)

    @router.get("/api/setups/{game}")
    async def builder(game: str, content: str = "") -> dict[str, Any]:
        module, loaded = await asyncio.to_thread(companion, game, content)
        return dict(module.builder(loaded))

    @router.post("/api/setups/{game}/check")
    async def check(game: str, body: DraftBody) -> dict[str, Any]:
        module, loaded = await asyncio.to_thread(companion, game, body.content)
        try:
            return dict(module.check_draft(loaded, body.deck))
        except StarlanesError as e:
            raise Unprocessable(str(e)) from None

    @router.post("/api/setups/{game}/read")
    async def read(game: str, body: CodeBody) -> dict[str, Any]:
        module, loaded = await asyncio.to_thread(companion, game, body.content)
        try:
            return dict(module.read_code(loaded, body.code))
        except StarlanesError as e:
            raise Unprocessable(str(e)) from None

    if web.is_dir():
        @router.get("/decks", include_in_schema=False)
        def decks_page() -> FileResponse:
            return FileResponse(web / "decks.html")

    return router
