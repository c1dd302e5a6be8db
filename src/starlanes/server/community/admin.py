"""The running server's side of ``starlanes admin`` (which writes the database only):

- **suspensions**: every ``notifications.admin_poll_seconds`` the server reads the
  suspended accounts; a seat link of a suspended account is refused (403) for every
  action on a game (moves, undo, resign, abort, draw, rematch, claim) by
  :class:`SuspendedSeats`, and the account's event streams end;
- **requests** (``admin_requests``): ``end`` a game with an outcome (the operator's
  adjudication or a no-result end, with the reason shown to the players), ``delete`` (the
  seats of a deleted account show ``deleted player`` at once). Each request is claimed by
  one server process (``done`` set where it was not), which carries it out and writes what
  happened in ``result``; a request made while no server runs is carried out when one
  starts.

What the process holds: the ids of the suspended accounts (a few; never the history).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update

from ..store import StoreError, now
from ..tokens import token_matches
from .identity import DELETED_NAME
from .models import AccountRow
from .notify_models import AdminRequestRow

if TYPE_CHECKING:
    from . import Community

log = logging.getLogger("starlanes.server")

SEAT_WRITES = frozenset({"actions", "undo", "resign", "abort", "draw", "rematch", "claim"})
"""What a seat link does on ``/api/games/{id}/...`` that a suspended account may not."""
SUSPENDED = ("this seat belongs to a suspended account: its seat link may not play "
             "(write to the server's operator)")


def suspended_ids(store: Any) -> set[int]:
    """The ids of the suspended accounts. Blocking."""
    with store.session() as s:
        return set(s.scalars(select(AccountRow.id).where(AccountRow.suspended.is_(True))))


def claim_requests(store: Any) -> list[tuple[int, str, str, dict[str, Any]]]:
    """The operator's requests no process has taken yet, each taken now by this one
    (``done`` stamped where it was not): ``(id, kind, game id, outcome)``. Blocking."""
    with store.session() as s:
        rows = [(r.id, r.kind, r.game_id, dict(r.outcome or {})) for r in s.scalars(
            select(AdminRequestRow).where(AdminRequestRow.done.is_(None))
            .order_by(AdminRequestRow.id).limit(50))]
    mine = []
    for row in rows:
        with store.session() as s:
            done = s.execute(update(AdminRequestRow).where(
                AdminRequestRow.id == row[0], AdminRequestRow.done.is_(None))
                .values(done=now(), result="being carried out"))
            if getattr(done, "rowcount", 0):
                mine.append(row)
    return mine


def finish_request(store: Any, request_id: int, result: str) -> None:
    with store.session() as s:
        s.execute(update(AdminRequestRow).where(AdminRequestRow.id == request_id)
                  .values(result=result[:500], done=now()))


class Admin:
    """The suspended accounts and the operator's requests, read every
    ``notifications.admin_poll_seconds``."""

    def __init__(self, community: Community) -> None:
        self.community = community
        self.service = community.service
        self.suspended: set[int] = set()
        self._task: asyncio.Task[None] | None = None
        self.service.on_start.append(self.start)
        self.service.on_stop.append(self.stop)

    async def start(self) -> None:
        await self.poll()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        while not self.service.stopping:
            await asyncio.sleep(self.community.config.notifications.admin_poll_seconds)
            try:
                await self.poll()
            except Exception:  # noqa: BLE001 - the next poll tries again
                log.exception("reading the operator's requests failed")

    async def poll(self) -> None:
        """Read the suspended accounts (ending the streams of newly suspended ones) and
        carry out the operator's requests."""
        store = self.community.store
        try:
            fresh = await asyncio.to_thread(suspended_ids, store)
            requests = await asyncio.to_thread(claim_requests, store)
        except StoreError as e:
            log.warning("could not read the operator's requests: %s", e)
            return
        events = getattr(self.community, "events", None)
        if events is not None:
            for account_id in fresh - self.suspended:
                events.end_account(account_id)
        self.suspended = fresh
        for request_id, kind, game_id, outcome in requests:
            try:
                result = await self._carry_out(kind, game_id, outcome)
            except Exception as e:  # noqa: BLE001 - written down for the operator
                result = f"failed: {e}"
                log.warning("operator request %s (%s) failed: %s", request_id, kind, e)
            log.info("operator request %s (%s %s): %s", request_id, kind, game_id, result)
            with contextlib.suppress(StoreError):
                await asyncio.to_thread(finish_request, store, request_id, result)

    async def _carry_out(self, kind: str, game_id: str, outcome: dict[str, Any]) -> str:
        service = self.service
        if kind == "delete":
            account_id = int(outcome.get("account", -1))
            for live in list(service.games.values()):
                changed = False
                for info in live.seats:
                    if info.account_id == account_id:
                        info.name, changed = DELETED_NAME, True
                if changed:
                    live.version += 1
                    service._push(live)
            return "done"
        if kind != "end":
            return f"unknown request {kind!r}"
        await service.refresh(game_id)
        live = service.games.get(game_id)
        if live is None:
            row = await asyncio.to_thread(service.store.game, game_id)
            return "no such game" if row is None else "the game was over already"
        if live.over:
            return "the game was over already"
        if not await service.end_game(live, outcome):
            return "the game was over already"
        return "ended: " + json.dumps(outcome)

    # ------------------------------------------------------------------ seat links
    def refuses(self, game_id: str, token: str) -> bool:
        """Whether ``token`` is a seat link of ``game_id`` held by a suspended account."""
        if not self.suspended:
            return False
        live = self.service.games.get(game_id) or self.service.finished.get(game_id)
        if live is None:
            return False
        return any(info.account_id in self.suspended and token_matches(token, info.token_hash)
                   for info in live.seats)


class SuspendedSeats:
    """ASGI middleware: a seat link (``Authorization: Bearer``) of a suspended account is
    refused with 403 ``{"error": ...}`` on every ``POST /api/games/{id}/<write>``
    (:data:`SEAT_WRITES`), before the route runs."""

    def __init__(self, app: Any, community: Community) -> None:
        self.app = app
        self.community = community

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("method") == "POST":
            parts = scope.get("path", "").strip("/").split("/")
            if len(parts) == 4 and parts[:2] == ["api", "games"] and parts[3] in SEAT_WRITES:
                token = _bearer(scope)
                admin: Admin | None = getattr(self.community, "admin", None)
                if token and admin is not None and admin.refuses(parts[2], token):
                    body = json.dumps({"error": SUSPENDED}).encode()
                    await send({"type": "http.response.start", "status": 403,
                                "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(body)).encode())]})
                    await send({"type": "http.response.body", "body": body})
                    return
        await self.app(scope, receive, send)


def _bearer(scope: Any) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            return token.strip() or None if scheme.lower() == "bearer" else None
    return None
