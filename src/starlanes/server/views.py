"""What each viewer is sent: a seat's view is built from ``observation(seat)``, a spectator's
from ``public_observation()``; never by filtering a full state. Lobby entries carry no
hidden information at all.
"""

from __future__ import annotations

from typing import Any

from starlanes.engine import SEAT_SETUP

from .clocks import clock_view
from .tables import LiveGame

LOG_LINES = 200
"""The newest log lines sent with a view (the full log is in the game record)."""


def seats_view(live: LiveGame) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "label": live.seat_label(s.seat), "name": s.name,
             "bot": s.kind if s.is_bot else None, "open": s.is_open,
             "account": s.account_id is not None}
            for s in live.seats]


def result_view(live: LiveGame) -> dict[str, Any] | None:
    """The result once the game is over, None before: ``winners`` (seats), ``scores``,
    ``end_reason``, the score ``breakdown`` and the key ``moments`` (lead changes, the
    largest swing: :mod:`.moments`); a result the server decided (a seat ran
    out of time) also carries ``outcome`` (``GameRow.outcome``)."""
    state = live.state
    outcome = live.row.outcome
    if outcome is not None:
        loser = int(outcome.get("loser", -1))
        reason = (f"timeout: {live.seat_label(loser)} ran out of time"
                  if outcome.get("reason") == "timeout" and 0 <= loser < len(live.seats)
                  else str(outcome.get("reason", "ended by the server")))
        return {"winners": [i for i, r in enumerate(outcome.get("ranks") or []) if int(r) == 0],
                "scores": list(state.scores()), "end_reason": reason, "breakdown": None,
                "moments": live.key_moments(), "outcome": outcome}
    if not state.is_terminal():
        return None
    returns = state.returns()
    reason = getattr(state, "end_reason", "") or "finished"
    # a game that can say where each seat's points came from gives its breakdown
    breakdown = getattr(state, "score_breakdown", None)
    return {"winners": [i for i, r in enumerate(returns) if r > 0],
            "scores": list(state.scores()), "end_reason": str(reason),
            "breakdown": breakdown() if callable(breakdown) else None,
            "moments": live.key_moments()}


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
