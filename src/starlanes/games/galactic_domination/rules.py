"""Dispatch of legal actions and actions: a pending decision first (explorer arrival,
collision), then set-up placement, then the spending step of the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action

from . import fleet, setup, turn

if TYPE_CHECKING:  # pragma: no cover
    from .state import GDState


def legal_actions(s: GDState) -> list[Action]:
    if s.stack:
        d = s.stack[-1]
        return turn.DECISIONS[d.kind][0](s, d)
    if s.phase == "setup":
        return setup.place_actions(s)
    return fleet.turn_actions(s)


def apply(s: GDState, action: Action) -> None:
    if s.stack:
        d = s.stack.pop()
        turn.DECISIONS[d.kind][1](s, d, action)
        if s.phase == "returns" and not s.stack:
            turn.process_returns(s)
    elif s.phase == "setup":
        setup.apply_place(s, action)
    else:
        fleet.apply_turn(s, action)
