"""Player profiles: ``GET /api/players/{name}`` and the page ``/players/{name}``.

A profile shows the account's name and when it was made, its games in progress, its
finished games (from the store: every game with a seat of the account) with its place, its
result in words (won, lost, drawn, aborted, resigned, lost on time) and a replay link, its
ratings (:mod:`.ratings`, when it offers ``profile``) and a short run of recent results.
Deleted and unknown accounts are 404.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from sqlalchemy import select

from ..errors import NotFound, ServerError
from ..outcomes import NO_RESULT
from ..store import GameRow, SeatRow, StoreError
from .accounts import MaybeAccount, account_games, game_title, last_moves
from .credentials import name_key
from .identity import NAME
from .models import AccountRow

if TYPE_CHECKING:
    from . import Community

MAX_FINISHED = 50
"""The most finished games a profile lists (newest first)."""
RECENT = 10
"""Finished games summed up under ``recent``."""


def _account(community: Community, name: str) -> tuple[int, str, str] | None:
    if not NAME.fullmatch(name):
        return None
    with community.store.session() as s:
        row = s.scalars(select(AccountRow).where(AccountRow.name_key == name_key(name))).first()
        if row is None or row.deleted:
            return None
        return row.id, row.name, row.created.isoformat()


def _stored_games(community: Community, account_id: int) -> list[tuple[GameRow, list[SeatRow]]]:
    """The account's finished games (the :data:`MAX_FINISHED` that ended last), with all
    their seats: one bounded query, never every game the account played. Blocking."""
    with community.store.session() as s:
        mine = select(SeatRow.game_id).where(SeatRow.account_id == account_id)
        games = list(s.scalars(select(GameRow).where(GameRow.id.in_(mine),
                                                     GameRow.ended.is_not(None))
                               .order_by(GameRow.ended.desc()).limit(MAX_FINISHED)))
        ids = [g.id for g in games]
        seats = list(s.scalars(select(SeatRow).where(SeatRow.game_id.in_(ids))
                               .order_by(SeatRow.seat))) if ids else []
    by_game: dict[str, list[SeatRow]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    return [(g, by_game.get(g.id, [])) for g in games]


def _ending(community: Community, row: GameRow) -> tuple[bool, dict[str, Any] | None,
                                                        list[int] | None]:
    """Whether the game is over, the result the server decided (None: the rules did, or it
    goes on) and per seat its place (0 first; None while it goes on, and for a game that
    counts for nobody: aborted, expired)."""
    service = community.service
    live = service.games.get(row.id) or service.finished.get(row.id)
    if live is not None:
        return live.over, live.row.outcome, live.ranking()
    if row.outcome is not None:
        ranks = row.outcome.get("ranks")
        return True, row.outcome, None if ranks is None else [int(r) for r in ranks]
    if row.ended is not None:  # ended by its rules and archived: its places by replay
        try:
            live = service.live(row.id)  # (kept among the recently opened games)
        except (ServerError, StoreError):
            return True, None, None
        return True, None, live.ranking()
    return False, None, None


def result_word(outcome: dict[str, Any] | None, places: list[int] | None, seat: int) -> str:
    """The result of ``seat`` in a finished game in a word or two: "won", "lost",
    "drawn", "aborted" (it counts for nobody), "resigned" (lost by resigning), "lost on
    time"."""
    reason = (outcome or {}).get("reason")
    if places is None or reason in NO_RESULT:
        return "aborted"
    if reason == "draw" or len(set(places)) == 1:
        return "drawn"
    if outcome is not None and outcome.get("loser") == seat:
        if reason == "resign":
            return "resigned"
        if reason == "timeout":
            return "lost on time"
    if places[seat] == 0:  # first place shared by several is a draw for them
        return "drawn" if places.count(0) > 1 else "won"
    return "lost"


async def finished_games(community: Community, account_id: int) -> list[dict[str, Any]]:
    """The account's finished games, newest first, at most :data:`MAX_FINISHED`:
    ``{id, game, title, players: [names], seat, place (1 = first; None for a game that
    counts for nobody), of (players), result (:func:`result_word`), replay, ended (ISO
    time the game ended, else of its last move)}``."""
    stored = await asyncio.to_thread(_stored_games, community, account_id)
    endings = await asyncio.to_thread(
        lambda: [_ending(community, row) for row, _seats in stored])
    done = []
    for (row, seats), (over, outcome, places) in zip(stored, endings, strict=True):
        if not over:
            continue
        mine = [s.seat for s in seats if s.account_id == account_id]
        if not mine:
            continue
        seat = min(mine, key=lambda k: places[k]) if places is not None else min(mine)
        done.append((row, seats, outcome, places, seat))
    ended = await asyncio.to_thread(last_moves, community, [row.id for row, *_ in done])
    out = []
    for row, seats, outcome, places, seat in done:
        out.append({
            "id": row.id, "game": row.game, "title": game_title(row.game),
            "players": [s.name or s.kind for s in seats], "seat": seat,
            "place": None if places is None else places[seat] + 1, "of": len(seats),
            "result": result_word(outcome, places, seat),
            "replay": f"/replay?game={row.id}",
            "ended": (row.ended or ended.get(row.id) or row.created).isoformat()})
    out.sort(key=lambda g: g["ended"], reverse=True)
    return out[:MAX_FINISHED]


def ratings_of(community: Community, account_id: int) -> list[dict[str, Any]]:
    """The account's ratings per game (``{game, rating, games, provisional}``) from the
    ratings part when it offers them, else none."""
    profile = getattr(community.ratings, "profile", None)
    if profile is None:
        return []
    return list(profile(f"a:{account_id}"))


def router(community: Community, web: Path) -> APIRouter:
    """``GET /api/players/{name}`` and the page ``/players/{name}``."""
    r = APIRouter()

    @r.get("/api/players/{name}")
    async def player(name: str,
                     asker: MaybeAccount) -> dict[str, Any]:
        """A profile: ``{name, created, games_in_progress: [{id, game, title, status, seat,
        url, updated, your_turn (only to the account itself)}], finished: [...]
        (:func:`finished_games`), ratings: [{game, rating, games, provisional}], recent:
        {games, wins, places: [1-based places, newest first]} (of the last games that
        count: aborted ones do not)}``; 404 unknown or deleted."""
        found = await asyncio.to_thread(_account, community, name)
        if found is None:
            raise NotFound(f"no player {name[:64]!r}")
        acc_id, shown, created = found
        mine = asker is not None and asker.id == acc_id
        live = [g for g in await account_games(community, acc_id, mine=mine)
                if g["status"] != "finished"]
        finished = await finished_games(community, acc_id)
        ratings = await asyncio.to_thread(ratings_of, community, acc_id)
        counted = [g for g in finished if g["place"] is not None][:RECENT]  # aborted: none
        recent = [g["place"] for g in counted]
        wins = sum(1 for g in counted if g["result"] == "won")
        return {"name": shown, "created": created, "games_in_progress": live,
                "finished": finished, "ratings": ratings,
                "recent": {"games": len(recent), "wins": wins, "places": recent}}

    if web.is_dir():
        @r.get("/players/{name}", include_in_schema=False)
        def profile_page(name: str) -> FileResponse:
            return FileResponse(web / "profile.html")

    return r
