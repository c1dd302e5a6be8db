"""How a game may end other than by its rules: the outcomes the server decides
(``GameRow.outcome``) and when a seat may leave a game (resign, abort, draw offers). Pure
rules over a live game (:mod:`.tables`); the service stores them (:mod:`.endings`), the
views show them (:mod:`.views`) and the community rates them.

Every outcome the server decides is a dict with a ``reason``:

- ``timeout``: ``loser`` ran out of time (:mod:`.clocks`, :mod:`.clock_runner`);
- ``resign``: ``loser`` resigned (last place; the others by the current scores);
- ``abort``: the game was called off before it really began (``by``: the seat that asked,
  or None when the server's life-cycle rule did); no ranks: nobody won or lost;
- ``draw``: the seats agreed a draw (every seat shares first place);
- ``expired``: an open game whose seats were never taken; no ranks;
- ``adjudicated``: an idle game the server decided by its written rule (``detail``: that
  rule in words, shown to players after "adjudicated: "; ``ranks`` None when no human had
  moved).

``ranks`` (per seat, 0 first, equal places shared) is present for every outcome with a
result; ``abort`` and ``expired`` have ``ranks: None`` and count for nobody.

What a seat may do (docs/community/endings.md):

- **resign** at any time while the game runs: the seat is placed last and the game ends,
  also in games of three or more players (the others are placed by their current scores:
  the engines have no way for a seat to leave while the others play on);
- **abort** while the seat has made no decision of its own (a move its turn clock made
  for it is not its own; one taken back with undo is gone): nobody wins or loses;
- **offer a draw** in a two-player game whose other seat is a player; the other seat
  accepts (the game is drawn) or declines; any move made after the offer withdraws it.
  A standing offer is ``GameRow.draw_offer`` = ``{"seat": s, "seq": n}`` (``n``: the
  number of moves made when it was offered); it stands only while the game is at move
  ``n``, so an offer stored before a move is never taken for a standing one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import Forbidden, Stale, Unprocessable
from .tables import places

if TYPE_CHECKING:
    from .tables import LiveGame

NO_RESULT = frozenset({"abort", "expired"})
"""Outcomes that count for nobody: no ranks, never rated."""
DRAW_ANSWERS = ("offer", "accept", "decline")
"""What ``POST /api/games/{id}/draw`` takes as ``answer``."""


# ---------------------------------------------------------------------- outcomes
def timeout_outcome(live: LiveGame, loser: int) -> dict[str, Any]:
    """The result of ``loser`` running out of time: last place for it; the other seats are
    placed by the game's current scores (equal scores share a place)."""
    scores = list(live.state.scores())
    others = [s for s in range(len(scores)) if s != loser]
    ranks = [0] * len(scores)
    for seat, place in zip(others, places([scores[s] for s in others]), strict=True):
        ranks[seat] = place
    ranks[loser] = len(scores) - 1
    return {"reason": "timeout", "loser": loser, "ranks": ranks}


def never_moved_outcome(seat: int) -> dict[str, Any]:
    """The result of a seat whose time ran out before it made any decision of its own: the
    game is aborted (the abort rule of rated play: nobody wins, nobody's rating moves),
    since a game a seat never played is no game (``docs/community/fair-play.md``)."""
    return {"reason": "abort", "by": None, "never_moved": seat, "ranks": None}


# ---------------------------------------------------------------------- questions
def can_abort(live: LiveGame, seat: int) -> bool:
    """Whether ``seat`` may abort the game now: it runs and the seat has made no decision
    of its own (:meth:`.tables.LiveGame.has_moved`: a move its turn clock made for it is
    not its own; a decision taken back is gone)."""
    return not live.over and not live.has_moved(seat)


def standing_offer(live: LiveGame) -> dict[str, int] | None:
    """The draw offer that stands now (``{"seat", "seq"}``), or None: none was made, the
    game is over, or a move was made (or taken back) since it was."""
    offer = live.row.draw_offer
    if live.over or not isinstance(offer, dict):
        return None
    try:
        seat, seq = int(offer["seat"]), int(offer["seq"])
    except (KeyError, TypeError, ValueError):
        return None
    if seq != live.seq or not 0 <= seat < len(live.seats):
        return None
    return {"seat": seat, "seq": seq}


def draw_refusal(live: LiveGame, seat: int) -> tuple[type[Exception], str] | None:
    """Why ``seat`` may not offer a draw now (an error class and its reason in words), or
    None when it may."""
    if live.over:
        return Forbidden, "the game is over"
    if live.row.players != 2:
        return Unprocessable, (f"draw offers are for two-player games; in a game of "
                               f"{live.row.players} players, resign to leave it")
    other = live.seats[1 - seat]
    if other.is_bot:
        return Unprocessable, (f"{live.seat_label(other.seat)} is a bot, and bots do not "
                               "answer draw offers")
    if other.is_open:
        return Forbidden, "the other seat is not taken yet: there is nobody to offer a draw"
    offer = standing_offer(live)
    if offer is not None and offer["seat"] == seat:
        return Stale, ("you have offered a draw already; it stands until "
                       f"{live.seat_label(other.seat)} answers or a move is made")
    if offer is not None:
        return Stale, (f"{live.seat_label(offer['seat'])} has offered you a draw: accept "
                       "or decline it")
    return None


def resign_outcome(live: LiveGame, loser: int) -> dict[str, Any]:
    """``loser`` resigned: last place for it, the other seats placed by the game's current
    scores (equal scores share a place), as when a seat runs out of time:
    ``{"reason": "resign", "loser": loser, "ranks": [...]}``."""
    return {**timeout_outcome(live, loser), "reason": "resign"}
