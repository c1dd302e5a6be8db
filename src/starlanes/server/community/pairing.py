"""Pairing for play now, without the database: the queue's clock modes and the rule that
groups waiting players of similar rating into tables (:func:`plan_tables`), which the
server's queue (:mod:`.matchmaking`) and ``benchmarks/matchmaking.py`` both run."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Mode:
    """A clock mode of the queue: the clock's kind (``game``: a time bank per seat with an
    increment per move; ``move``: a limit per decision), its seconds, the increment (seconds)
    and what running out costs (``lose`` or ``bot``: a bot plays that move)."""

    name: str
    clock_kind: str
    clock_seconds: float
    increment: float
    timeout: str
    help: str


MODES: dict[str, Mode] = {
    "realtime": Mode("realtime", "game", 10 * 60, 5.0, "lose",
                     "10 minutes per player plus 5 seconds a move; running out loses"),
    "correspondence": Mode("correspondence", "move", 3 * 86400, 0.0, "bot",
                           "3 days per move; running out lets a bot make that move"),
}
"""The queue's clock modes by name (a new one is one more line)."""

WINDOW_START = 100.0
"""Rating points either side of a player's rating it is paired within at first."""
WINDOW_GROWTH = 5.0
"""Rating points the window grows by per second waited (400 after a minute)."""


# ---------------------------------------------------------------------- pairing
@dataclass(frozen=True)
class Waiting:
    """A queue entry as pairing sees it: its id, account, rating and when it joined
    (``since``, seconds on the matchmaker's clock)."""

    entry_id: int
    account_id: int
    rating: float
    since: float
    network: str = ""
    """The client network it queued from (:func:`..limits.network_key`; empty: unknown):
    a table never seats two entries of one network."""


@dataclass(frozen=True)
class Table:
    """A table to make: the entries seated at it and how many seats go to bots."""

    members: tuple[Waiting, ...]
    bots: int

    def spread(self) -> float:
        """Highest minus lowest rating of the players seated (0 for one)."""
        ratings = [m.rating for m in self.members]
        return max(ratings) - min(ratings)


def window(waited: float) -> float:
    """The rating distance (points) a player who has waited ``waited`` seconds accepts."""
    return WINDOW_START + WINDOW_GROWTH * max(0.0, waited)


def plan_tables(waiting: Sequence[Waiting], players: int, at: float,
                wait_seconds: float,
                apart: Callable[[Waiting, Waiting], bool] | None = None) -> list[Table]:
    """The tables to make now from the entries ``waiting`` in one queue (one game, player
    count and mode) at time ``at`` (seconds, the clock of ``since``).

    Longest waiting first, each entry gathers the nearest in rating whose spread stays within
    the window of every player gathered (:func:`window`); a full group is a table. An entry
    that has waited ``wait_seconds`` or more takes the group it gathered (maybe only itself)
    and bots for the empty seats. Every entry is in one table at most, and a table never
    holds two entries of one client network or of one account (one person's two accounts
    are not paired with each other: ``docs/community/fair-play.md``); ``apart(a, b)`` True
    keeps two more entries apart (accounts that met in too many rated games today)."""
    order = sorted(waiting, key=lambda w: (w.since, w.entry_id))
    by_rating = sorted(order, key=lambda w: w.rating)
    taken: set[int] = set()
    tables: list[Table] = []
    for anchor in order:
        if anchor.entry_id in taken:
            continue
        group = [anchor]
        lo = hi = anchor.rating
        limit = window(at - anchor.since)
        others = sorted((w for w in by_rating
                         if w.entry_id not in taken and w is not anchor
                         and abs(w.rating - anchor.rating) <= limit),
                        key=lambda w: (abs(w.rating - anchor.rating), w.since))
        for w in others:
            if len(group) == players:
                break
            if any(_same_person(w, g) or (apart is not None and apart(w, g))
                   for g in group):
                continue
            lim = min(limit, window(at - w.since))
            new_lo, new_hi = min(lo, w.rating), max(hi, w.rating)
            if new_hi - new_lo <= lim:
                group.append(w)
                lo, hi, limit = new_lo, new_hi, lim
        if len(group) == players or at - anchor.since >= wait_seconds:
            tables.append(Table(tuple(group), players - len(group)))
            taken.update(w.entry_id for w in group)
    return tables


def _same_person(a: Waiting, b: Waiting) -> bool:
    """Whether two entries are taken for one person's: one account, or one network."""
    return a.account_id == b.account_id or bool(a.network and a.network == b.network)
