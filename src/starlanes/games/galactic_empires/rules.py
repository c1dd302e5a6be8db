"""Dispatch of legal actions and actions to the module owning the current situation:
a pending decision (reaction windows, Krebiz separation, victory celebration) first,
then the phase of the player turn (GE-TURN-01)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision

from . import alloc, cardplay, endturn, fire, windows

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState

DECISIONS: dict[str, tuple[Callable, Callable]] = {
    "react": (windows.window_actions, windows.apply_window),
    "counter": (windows.window_actions, windows.apply_window),
    "split": (endturn.split_actions, endturn.apply_split),
    "place": (endturn.place_actions, endturn.apply_place),
    "celebrate": (endturn.celebrate_actions, endturn.apply_celebrate),
}

PHASES: dict[str, tuple[Callable, Callable]] = {
    "alloc": (alloc.alloc_actions, alloc.apply_alloc),
    "engage": (alloc.engage_actions, alloc.apply_engage),
    "playA": (cardplay.play_actions, cardplay.apply_play),
    "fire": (fire.fire_actions, fire.apply_fire),
    "aim": (fire.aim_actions, fire.apply_aim),
    "playB": (cardplay.play_actions, cardplay.apply_play),
    "discard": (endturn.discard_actions, endturn.apply_discard),
    "draw": (endturn.draw_actions, endturn.apply_draw),
}


def legal_actions(s: GEState) -> list[Action]:
    if s.stack:
        d: Decision = s.stack[-1]
        return DECISIONS[d.kind][0](s, d)
    return PHASES[s.phase][0](s)


def apply(s: GEState, action: Action) -> None:
    if s.stack:
        d = s.stack.pop()
        DECISIONS[d.kind][1](s, d, action)
    else:
        PHASES[s.phase][1](s, action)
    if s.phase == "end" and not s.stack:
        endturn.end_turn(s)
