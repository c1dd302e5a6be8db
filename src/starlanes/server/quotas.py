"""Quotas of unfinished games: per account, per client network, and the share of the
server's games that clients without an account may hold.

Every game a client causes counts: a game created in the lobby, a rematch, a game play
now seats an account in. Each game stores who caused it (``GameRow.owner_account``, the
account, or None; ``GameRow.owner_network``, :func:`.limits.network_key` of the client's
address), and the counts are read from the database when a game is to be made, so they
hold for every process of a cluster and across restarts: a restart never brings back a
cap that was full.

The rules, in the order they are checked (``limits`` in the server configuration):

- a client without an account may have at most ``anonymous_games_per_network`` unfinished
  games per network (an IPv4 /24, an IPv6 /48: a single address is in one network, so it
  has no more); an account at most ``games_per_account``;
- the server holds at most ``open_games`` unfinished games in all;
- all clients without an account together hold at most ``anonymous_share`` of
  ``open_games``: the rest of the server is kept for players who log in.

Refusals are :class:`.errors.TooMany` (429) naming the quota and what to do.
"""

from __future__ import annotations

import math

from .config import Limits
from .errors import TooMany
from .store import OpenCounts


class QuotaFull(TooMany):
    """A quota of unfinished games is full; the answer waits until a game ends."""

    retry_after = 300


def anonymous_cap(limits: Limits) -> int:
    """The most unfinished games clients without an account may hold together."""
    return math.floor(limits.open_games * limits.anonymous_share)


def check(limits: Limits, counts: OpenCounts, account: int | None) -> None:
    """Raise QuotaFull (429) when one more game caused by ``account`` (None: a client
    without an account, from the network ``counts.network`` was counted for) would pass
    a quota; nothing otherwise."""
    if account is None:
        if counts.network >= limits.anonymous_games_per_network:
            raise QuotaFull(
                f"your network already has {counts.network} unfinished games created "
                f"without an account (at most {limits.anonymous_games_per_network}); finish "
                "one, or log in to create more")
    elif counts.account >= limits.games_per_account:
        raise QuotaFull(
            f"your account already has {counts.account} unfinished games (at most "
            f"{limits.games_per_account}); finish or resign one to start another")
    if counts.total >= limits.open_games:
        raise TooMany(f"the server holds its most unfinished games ({limits.open_games}); "
                      "try again when some have ended")
    cap = anonymous_cap(limits)
    if account is None and counts.anonymous >= cap:
        raise QuotaFull(
            f"the games created without an account fill their part of this server "
            f"({cap} unfinished games); log in to create a game, or try again when some "
            "have ended")
