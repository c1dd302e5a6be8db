"""Dispatch: the pending decision on top of the stack owns the legal actions and the
answer; :func:`advance` runs automatic steps (set-up stages, combat stages, the turn
step machine) until someone must decide or the game is over.

A 3:1 exchange (IA-RES-02) is offered to the player whose turn it is at each of their own
decisions during their turn (never to another seat, never during set-up); it leaves the
decision pending.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision

from . import combat, economy, fleetworks, setup, shadow, spoils, turn
from .actions import EXCHANGES_OF

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState

LegalFn = Callable[["IAState", Decision], list[Action]]
ApplyFn = Callable[["IAState", Decision, Action], None]

DECISIONS: dict[str, tuple[LegalFn, ApplyFn]] = {}
for _m in (setup, turn, economy, fleetworks, shadow, combat, spoils):
    DECISIONS.update(_m.DECISIONS)

NO_EXCHANGE = frozenset({"order", "fire", "dev_pay"})


def legal_actions(s: IAState) -> list[Action]:
    d = s.stack[-1]
    out = DECISIONS[d.kind][0](s, d)
    if d.seat == s.seat and s.phase == "turn" and d.kind not in NO_EXCHANGE:
        r = s.res[d.seat]
        for g in range(4):
            if r[g] >= 3:
                out.extend(EXCHANGES_OF[g])
    return out


def apply(s: IAState, action: Action) -> None:
    if action.verb == "exchange":  # type: ignore[attr-defined]
        turn.exchange(s, s.stack[-1].seat, action)
    else:
        d = s.stack.pop()
        DECISIONS[d.kind][1](s, d, action)
    advance(s)


def advance(s: IAState) -> None:
    """Run automatic steps until a decision is pending or the game is over."""
    while not s.stack and s.phase != "over":
        if s.combat is not None:
            combat.run(s)
        elif s.phase == "setup":
            setup.run(s)
        else:
            turn.run(s)
