"""Invitations: a player seated in a game invites an account by name to one of its open
human seats; the invited account sees its open invitations and accepts (it takes the
seat, with a fresh seat link) or declines. One open invitation per seat; an invitation
whose seat was taken meanwhile is withdrawn. Kept in the database
(:class:`.models.InvitationRow`). A mixin of :class:`.matchmaking.Matchmaking`, whose
routes serve it (``/api/games/{id}/invite``, ``/api/invitations...``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update

from ..errors import Forbidden, NotFound, Stale, Unprocessable
from ..store import now
from .identity import Account, find_account
from .models import AccountRow, InvitationRow

if TYPE_CHECKING:
    from ..service import GameService
    from ..store import Store


class Invitations:
    """The invitations of one server process (see the module)."""

    store: Store
    service: GameService

    async def invite(self, acc: Account, game_id: str, seat: int, name: str) -> dict[str, Any]:
        """Invite the account called ``name`` to the open human seat ``seat`` of a game in
        which ``acc`` holds a seat. Raises NotFound (404: no such game, seat or account),
        Forbidden (403: ``acc`` holds no seat there, the seat is taken or a bot's, the game
        is over), Unprocessable (422: oneself), Stale (409: the seat has an open
        invitation)."""
        live = self.service.live(game_id)
        if not any(s.account_id == acc.id for s in live.seats):
            raise Forbidden("only a player seated in this game may invite to it")
        if live.over:
            raise Forbidden("this game is over")
        live.open_seat(seat)
        return await asyncio.to_thread(self._invite, acc, game_id, seat, name)

    def _invite(self, acc: Account, game_id: str, seat: int, name: str) -> dict[str, Any]:
        wanted = " ".join(str(name).split())
        with self.store.session() as s:
            to = find_account(s, wanted)
            if to is None:
                raise NotFound(f"no player is called {wanted[:40]!r}")
            if to.id == acc.id:
                raise Unprocessable("you cannot invite yourself")
            row = s.scalars(select(InvitationRow).where(InvitationRow.game_id == game_id,
                                                        InvitationRow.seat == seat)).first()
            if row is not None and row.status == "open":
                raise Stale(f"seat {seat} already has an open invitation")
            if row is None:
                row = InvitationRow(game_id=game_id, seat=seat)
                s.add(row)
            row.from_id, row.to_id, row.status, row.created = acc.id, to.id, "open", now()
            s.flush()
            return {"id": row.id, "game_id": game_id, "seat": seat, "to": to.name,
                    "status": "open"}

    async def invitations(self, acc: Account) -> dict[str, Any]:
        """The account's open invitations: ``{"invitations": [{id, game_id, game, seat,
        from, created}]}`` (ones whose seat was taken meanwhile are withdrawn)."""
        rows = await asyncio.to_thread(self._mine, acc.id)
        out, gone = [], []
        for row, sender in rows:
            live = self.service.games.get(row.game_id)
            if (live is None or live.over or row.seat >= len(live.seats)
                    or not live.seats[row.seat].is_open):
                gone.append(row.id)
                continue
            out.append({"id": row.id, "game_id": row.game_id, "game": live.row.game,
                        "seat": row.seat, "from": sender, "created": row.created.isoformat()})
        if gone:
            await asyncio.to_thread(self._set_status, gone, "withdrawn")
        return {"invitations": out}

    def _mine(self, account_id: int) -> list[tuple[InvitationRow, str]]:
        with self.store.session() as s:
            return [(row, name) for row, name in s.execute(
                select(InvitationRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == InvitationRow.from_id)
                .where(InvitationRow.to_id == account_id, InvitationRow.status == "open")
                .order_by(InvitationRow.id))]

    def _set_status(self, ids: list[int], status: str, to_id: int | None = None,
                    only_open: bool = True) -> int:
        """Set ``status`` on the invitations ``ids`` (open ones, of ``to_id`` when given);
        returns how many changed."""
        with self.store.session() as s:
            query = update(InvitationRow).where(InvitationRow.id.in_(ids))
            if only_open:
                query = query.where(InvitationRow.status == "open")
            if to_id is not None:
                query = query.where(InvitationRow.to_id == to_id)
            return s.execute(query.values(status=status)).rowcount

    def _invitation(self, acc: Account, iid: int) -> InvitationRow:
        with self.store.session() as s:
            row = s.get(InvitationRow, iid)
            if row is None or row.to_id != acc.id:
                raise NotFound(f"you have no invitation {iid}")
            return row

    async def answer(self, acc: Account, iid: int, accept: bool) -> dict[str, Any]:
        """Accept (take the seat: ``{game_id, seat, token, link}``) or decline (``{status:
        "declined"}``) an open invitation of ``acc``. Raises NotFound (404: not the account's),
        Stale (409: answered already), Forbidden (403: the seat was taken meanwhile)."""
        row = await asyncio.to_thread(self._invitation, acc, iid)
        status = "accepted" if accept else "declined"
        if not await asyncio.to_thread(self._set_status, [iid], status, acc.id):
            raise Stale(f"this invitation is {row.status} already")
        if not accept:
            return {"id": iid, "status": status}
        try:
            seat, token = await self.service.join(row.game_id, acc.name, row.seat,
                                                  account_id=acc.id)
        except (Forbidden, NotFound):
            await asyncio.to_thread(self._set_status, [iid], "withdrawn", None, False)
            raise
        link = f"/games/{row.game_id}?token={token}"
        return {"id": iid, "status": status, "game_id": row.game_id, "seat": seat,
                "token": token, "link": link}
