"""The key moments of a finished game, for the game-over dialog: when the lead changed hands
and the largest swing of the score in one decision.

Worked out through the engine contract alone (a replay of the history, ``scores()`` after
each action), so it holds for every game: the server knows no game. A finished game's record
is public, so naming its actions gives nothing away.
"""

from __future__ import annotations

from typing import Any

from starlanes.engine import GameState

MOST_LEAD_CHANGES = 12
"""Lead changes listed at most (the last ones); the count covers all of them."""


def leader(scores: list[int] | list[float]) -> int | None:
    """The seat alone at the top of ``scores``, or None when the top is shared."""
    top = max(scores)
    ahead = [i for i, s in enumerate(scores) if s == top]
    return ahead[0] if len(ahead) == 1 else None


def key_moments(final: GameState, fresh: GameState) -> dict[str, Any]:
    """Replay ``final``'s history on ``fresh`` (the same game's initial state) and return
    ``{"lead_changes": n, "leads": [{"move": k, "seat": s}, ...], "largest_swing": {"move":
    k, "seat": s, "points": p, "action": notation, "by": seat, "label": words} | None}``.
    ``move`` counts actions from 1;
    a lead is a seat alone at the top of ``scores()`` (points in the game's own units: VP,
    fleet value, Sector HQ points), taken when it differs from the previous sole leader;
    the swing is the heaviest blow (the largest drop of one seat's score in one action: a
    fleet's best ship lost, a Sector HQ hit), or where no score ever drops, the largest
    gain; the first such action wins ties. ``by`` is the seat that chose that action (not
    always ``seat``: a blow is often another seat's move) and ``label`` the action in words
    as its button read (``game.label`` in the position it was chosen in; the notation when
    the game cannot word it)."""
    state = fresh
    before = list(state.scores())
    current = leader(before)
    leads: list[dict[str, int]] = []
    changes = 0
    swing: dict[str, Any] | None = None
    for move, action in enumerate(final.history, start=1):
        by = state.current_player()
        words = _words(state, action)
        state.apply(action)
        after = list(state.scores())
        top = leader(after)
        if top is not None and top != current:
            if current is not None:
                changes += 1
            leads.append({"move": move, "seat": top})
            current = top
        for seat, (a, b) in enumerate(zip(before, after, strict=True)):
            if b != a and (swing is None or _bigger(b - a, swing["points"])):
                swing = {"move": move, "seat": seat, "points": b - a, "action": str(action),
                         "by": by, "label": words}
        before = after
    return {"lead_changes": changes, "leads": leads[-MOST_LEAD_CHANGES:],
            "largest_swing": swing}


def _words(state: GameState, action: Any) -> str:
    """The action's label in words (see :mod:`starlanes.engine.explain`) in ``state``, where
    it is legal; its notation when the game has no label for it."""
    try:
        return state.game.label(state, action) or str(action)
    except (KeyError, ValueError, IndexError, AttributeError, NotImplementedError):
        return str(action)


def _bigger(change: float, best: float) -> bool:
    """Whether a score change beats the swing found so far: any drop beats any gain, then
    the larger in size."""
    if (change < 0) != (best < 0):
        return change < 0
    return abs(change) > abs(best)
