"""What each viewer is sent: a seat's view is built from ``observation(seat)``, a spectator's
from ``public_observation()``; never by filtering a full state. Lobby entries carry no
hidden information at all. A connected viewer (:class:`Subscriber`) reads its views from a
queue the game service fills.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from starlanes.engine import SEAT_SETUP

from .clocks import clock_view
from .outcomes import NO_RESULT, can_abort, draw_refusal, standing_offer
from .tables import LiveGame

LOG_LINES = 200
"""The newest log lines sent with a view (the full log is in the game record)."""


@dataclass(eq=False)
class Subscriber:
    """A connected viewer: its seat (None: spectator) and the queue its socket reads: views
    as JSON text, then None when the server stops."""

    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(64))
    version: int = -1
    """The game's version in the last view queued (with a cluster: each version once)."""


def seats_view(live: LiveGame) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "label": live.seat_label(s.seat), "name": s.name,
             "bot": s.kind if s.is_bot else None, "open": s.is_open,
             "account": s.account_id is not None}
            for s in live.seats]


def outcome_label(live: LiveGame, outcome: dict[str, Any]) -> str:
    """A result the server decided (``GameRow.outcome``) in words: "P1 (Ann) resigned",
    "aborted by P1 (Ann) before they moved", "drawn by agreement", "P2 (Bob) ran out of
    time", "aborted: nobody took the seats", "adjudicated: <the rule's words>"."""
    def who(key: str) -> str | None:
        seat = outcome.get(key)
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(live.seats):
            return live.seat_label(seat)
        return None

    reason = outcome.get("reason")
    if reason == "timeout":
        return f"{who('loser') or 'a player'} ran out of time"
    if reason == "resign":
        return f"{who('loser') or 'a player'} resigned"
    if reason == "draw":
        return "drawn by agreement"
    if reason == "expired":
        return "aborted: nobody took the seats"
    if reason == "abort":
        if who("by"):
            return f"aborted by {who('by')} before they moved"
        if who("never_moved"):
            return f"aborted: {who('never_moved')} ran out of time before their first move"
        return "aborted before the game began"
    if reason == "adjudicated":
        detail = outcome.get("detail")
        return "adjudicated: " + (str(detail) if detail else
                                  "the game stood idle and the server decided it by its rule")
    return str(reason or "ended by the server")


def seat_results(live: LiveGame, outcome: dict[str, Any] | None,
                 winners: list[int]) -> list[str]:
    """Per seat, its result in a word or two: "won", "lost", "draw" (first place shared:
    agreed, or by the rules, as a Galactic Empires game abandoned at its turn cap),
    "resigned", "lost on time"; "" for every seat of a game that counts for nobody
    (aborted, expired)."""
    n = len(live.seats)
    if outcome is None:  # the rules decided: first place shared by several is a draw
        first = "draw" if len(winners) > 1 else "won"
        return [first if s in winners else "lost" for s in range(n)]
    reason = outcome.get("reason")
    if outcome.get("ranks") is None or reason in NO_RESULT:
        return [""] * n
    if reason == "draw" or len(set(outcome["ranks"])) == 1:
        return ["draw"] * n
    loser = outcome.get("loser")
    words = {"resign": "resigned", "timeout": "lost on time"}
    return [words[reason] if s == loser and reason in words
            else "won" if s in winners else "lost" for s in range(n)]


def result_view(live: LiveGame) -> dict[str, Any] | None:
    """The result once the game is over, None before: ``winners`` (seats; none for a draw,
    an abort or an expired game), ``results`` (per seat, :func:`seat_results`),
    ``scores``, ``end_reason`` (in words for a result the server decided:
    :func:`outcome_label`), the score ``breakdown`` and the key ``moments`` (lead
    changes, the largest swing: :mod:`.moments`); a result the server decided also carries
    ``outcome`` (``GameRow.outcome``)."""
    state = live.state
    outcome = live.row.outcome
    if outcome is not None:
        ranks = outcome.get("ranks") or []
        winners = ([] if outcome.get("reason") == "draw" or len(set(ranks)) <= 1
                   else [i for i, r in enumerate(ranks) if int(r) == 0])
        return {"winners": winners, "results": seat_results(live, outcome, winners),
                "scores": list(state.scores()), "end_reason": outcome_label(live, outcome),
                "breakdown": None, "moments": live.key_moments(), "outcome": outcome}
    if not state.is_terminal():
        return None
    returns = state.returns()
    reason = getattr(state, "end_reason", "") or "finished"
    # a game that can say where each seat's points came from gives its breakdown
    breakdown = getattr(state, "score_breakdown", None)
    winners = [i for i, r in enumerate(returns) if r > 0]
    return {"winners": winners, "results": seat_results(live, None, winners),
            "scores": list(state.scores()), "end_reason": str(reason),
            "breakdown": breakdown() if callable(breakdown) else None,
            "moments": live.key_moments()}


def endings_view(live: LiveGame, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may do to end the game now, and any draw offer standing:
    ``can_resign``, ``can_abort``, ``can_offer_draw`` (False for spectators),
    ``draw_offer`` (``{"seat", "label"}`` of the seat that offered, or None) and ``ended``
    (ISO time the game ended, None while it goes on)."""
    seated = seat is not None and not live.over
    offer = standing_offer(live)
    return {
        "can_resign": seated,
        "can_abort": seat is not None and can_abort(live, seat),
        "can_offer_draw": seat is not None and draw_refusal(live, seat) is None,
        "draw_offer": None if offer is None else {
            "seat": offer["seat"], "label": live.seat_label(offer["seat"])},
        "ended": live.row.ended.isoformat() if live.row.ended is not None else None,
    }


def game_view(live: LiveGame, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator): observation, whose decision it is, the
    legal actions with explanations when it is this seat's decision, the log, scores."""
    state = live.state
    waiting = live.waiting_for()
    observation = state.observation(seat) if seat is not None else state.public_observation()
    yours = seat is not None and waiting == seat
    log = live.log_lines()
    return {
        "id": live.id,
        "game": live.row.game,
        "title": getattr(live.game, "title", live.row.game),
        "players": live.row.players,
        "seq": live.seq,
        "you": seat,
        "seats": seats_view(live),
        "waiting_for": waiting,
        "waiting_label": (live.seat_label(waiting) if waiting is not None
                          else "every seat to be taken" if live.gathering else None),
        "your_turn": yours,
        "legal": live.describe_legal() if yours else [],
        "can_undo": seat is not None and live.can_undo(seat),
        "scores": list(state.scores()),
        "result": result_view(live),
        "observation": observation,
        "log": log[-LOG_LINES:],
        "log_total": len(log),
        "clock_seconds": live.row.clock_seconds,
        "clocks": clock_view(live),
        "seeded": bool(live.row.seeded),
        **endings_view(live, seat),
    }


def lobby_entry(live: LiveGame) -> dict[str, Any]:
    """A game as the lobby lists it: settings, seats and status, nothing hidden."""
    status = ("finished" if live.over
              else "open" if any(s.is_open for s in live.seats) else "in progress")
    return {"id": live.id, "game": live.row.game, "players": live.row.players,
            "options": {k: v for k, v in live.row.options.items() if k != SEAT_SETUP},
            "setup": live.game.seat_setup_kind(), "status": status, "moves": live.seq,
            "seats": seats_view(live), "created": live.row.created.isoformat(),
            "rematch_of": live.row.rematch_of, "seeded": bool(live.row.seeded)}
