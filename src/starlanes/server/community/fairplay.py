"""Who may meet whom in a rated game (``docs/community/fair-play.md``).

A rated game is a contest between people. Two accounts whose seats are taken from one
client network (:func:`..limits.network_key`: the /24 of an IPv4 address, the /48 of an
IPv6 one) are taken for one person's, and two accounts meet in at most
``fair_play.rated_pair_games_per_day`` rated games in 24 hours: a rating cannot be farmed
from a second account, or by playing one friend over and over. Both rules refuse the seat
(403, with the reason) before it is taken, so nobody finds out at the end that a game did
not count; :func:`..ratings.unrated_reason` checks the network again when the game ends.
The abort rule (a game where a human seat never moved is not rated) is in
:mod:`.ratings` and :mod:`..clocks`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy import select

from ..errors import Forbidden
from ..outcomes import NO_RESULT
from ..store import GameRow, SeatRow, now

if TYPE_CHECKING:
    from ..tables import LiveGame
    from . import Community

DAY = dt.timedelta(days=1)


def rated_wanted(live: LiveGame) -> bool:
    """Whether ``live`` asks to be rated in a way seating can still spoil: asked, and not
    seeded by its creator (a seeded game is never rated anyway)."""
    return bool(live.row.rated) and not live.row.seeded


class FairPlay:
    """The seat checks of rated games, installed in the game service's ``join_checks``."""

    def __init__(self, community: Community) -> None:
        self.community = community
        self.config = community.config.fair_play
        community.service.join_checks.append(self.check_seat)

    async def check_seat(self, live: LiveGame, seat: int, account_id: int | None,
                         network: str | None) -> None:
        """Refuse (Forbidden, 403) ``account_id``'s seat in the rated game ``live`` when
        another account seated there plays from the same client network, or when the two
        have met in ``rated_pair_games_per_day`` rated games in the last 24 hours. Guests
        pass: a game with a guest seat is not rated anyway."""
        if account_id is None or not rated_wanted(live):
            return
        others = [s for s in live.seats
                  if s.seat != seat and not s.is_bot and s.account_id is not None
                  and s.account_id != account_id]
        if not others:
            return
        if not self.config.rated_same_network and network:
            for other in others:
                if other.network and other.network == network:
                    raise Forbidden(
                        f"this rated game already seats {other.name or 'a player'} from "
                        "your network; two accounts playing from one network cannot meet "
                        "in a rated game (play an unrated game together instead)")
        cap = self.config.rated_pair_games_per_day
        counts = await asyncio.to_thread(
            self.games_met, [account_id, *(int(o.account_id or 0) for o in others)], live.id)
        for other in others:
            met = counts.get(frozenset((account_id, int(other.account_id or 0))), 0)
            if met >= cap:
                raise Forbidden(
                    f"you have met {other.name or 'this player'} in {met} rated games in "
                    f"the last 24 hours, the most this server rates; play an unrated game "
                    "together, or meet again tomorrow")

    def pairs_at_cap(self, accounts: list[int]) -> set[frozenset[int]]:
        """The pairs among ``accounts`` that have met in ``rated_pair_games_per_day`` rated
        games (running or ended, not aborted) created in the last 24 hours: one query."""
        cap = self.config.rated_pair_games_per_day
        return {pair for pair, n in self.games_met(accounts).items() if n >= cap}

    def games_together(self, a: int, b: int, besides: str = "") -> int:
        """The rated games (running or ended, not aborted) created in the last 24 hours in
        which accounts ``a`` and ``b`` both hold a seat, other than ``besides``."""
        return self.games_met([a, b], besides).get(frozenset((a, b)), 0)

    def games_met(self, accounts: list[int], besides: str = "") -> dict[frozenset[int], int]:
        """Per pair among ``accounts`` that met, the rated games (running or ended, not
        aborted) created in the last 24 hours, other than ``besides``, in which both hold
        a seat: one query."""
        ids = sorted(set(accounts))
        if len(ids) < 2:
            return {}
        query = (select(SeatRow.game_id, SeatRow.account_id, GameRow.outcome)
                 .join(GameRow, GameRow.id == SeatRow.game_id)
                 .where(GameRow.rated.is_(True), GameRow.created >= now() - DAY,
                        GameRow.id != besides, SeatRow.account_id.in_(ids)))
        seated: dict[str, set[int]] = {}
        with self.community.store.session() as s:
            for game_id, account, outcome in s.execute(query):
                if not (outcome and outcome.get("reason") in NO_RESULT):
                    seated.setdefault(game_id, set()).add(int(account))
        met: dict[frozenset[int], int] = {}
        for group in seated.values():
            for a in group:
                for b in group:
                    if a < b:
                        pair = frozenset((a, b))
                        met[pair] = met.get(pair, 0) + 1
        return met
