"""Dispatch of legal actions and actions to the module that owns the current situation.

Order of precedence: a pending decision on the stack, then a running battle, then the
current step of the turn (or of set-up). After every action :func:`advance` runs the
automatic steps (drawing, income, end of turn and round) until someone must decide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision, IllegalActionError

from . import battle, movement, occ, planets, setup, turn

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState

LegalFn = Callable[["RiftState", Decision], list[Action]]
ApplyFn = Callable[["RiftState", Decision, Action], None]

DECISIONS: dict[str, tuple[LegalFn, ApplyFn]] = {}
DECISIONS.update(turn.DECISIONS)
DECISIONS.update(movement.DECISIONS)
DECISIONS.update(planets.DECISIONS)
DECISIONS.update(occ.DECISIONS)

PHASES = {
    "setup_home": (setup.home_actions, setup.apply_home),
    "setup_tiles": (setup.tile_actions, setup.apply_tile),
    "setup_faction": (setup.faction_actions, setup.apply_faction),
    "build": (turn.build_actions, turn.apply_build),
    "move": (movement.move_actions, movement.apply_move),
    "recruit": (turn.recruit_actions, turn.apply_recruit),
}


def legal_actions(s: RiftState) -> list[Action]:
    if s.stack:
        d = s.stack[-1]
        return DECISIONS[d.kind][0](s, d)
    if s.battle is not None:
        return battle.legal_actions(s)
    return PHASES[s.phase][0](s)


def apply(s: RiftState, action: Action) -> None:
    if s.stack:
        d = s.stack.pop()
        DECISIONS[d.kind][1](s, d, action)
    elif s.battle is not None:
        battle.apply(s, action)
    else:
        fn = PHASES.get(s.phase)
        if fn is None:  # pragma: no cover - guarded by legality
            raise IllegalActionError(f"no action is possible in phase {s.phase}")
        fn[1](s, action)
    advance(s)


def advance(s: RiftState) -> None:
    """Run automatic steps until a player must decide or the game is over. A card window
    whose seat has nothing left to play is closed without a decision."""
    while True:
        if s.stack:
            if s.stack[-1].kind == "window" and occ.skip_spent_window(s):
                continue
            return
        if s.battle is not None:
            return
        if s.phase == "turn_start":
            turn.run_turn_start(s)
        elif s.phase == "turn_end":
            turn.run_turn_end(s)
        elif s.phase == "between_turns":
            turn.run_between_turns(s)
        else:
            return
