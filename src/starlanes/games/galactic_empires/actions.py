"""Galactic Empires actions: one small frozen dataclass with a kind and up to three ints.

``kind`` names the move, ``a``/``b``/``c`` are card instance numbers, seats or amounts, and
``label`` is the notation (``str(action)``), which names cards as ``card_id#instance``,
fleets as ``P<seat>`` and Sector HQs as ``HQ<seat>``. Kinds:

Allocation (GE-PTS-03..05): ``engage`` (a unit, or with ``b`` one Krebiz component,
GE-EMP-KRB-15), ``arm`` (1 ammo), ``charge`` (1 energy to a variplaz or an EMF), ``repair``,
``heal``, ``done``. Engagement: ``relocate`` a freighter or tug (GE-TURN-03). Card plays
(GE-PLAY-*): ``play`` (card ``a`` on target ``b``, with Krebiz partner ``c``), ``operate``
(function ``a`` on ``b``), ``study`` (1 research point on a monster), ``separate`` and
``combine`` (Krebiz), ``swap`` (hand ``a`` into the reserve for reserve card ``b``, by
seat ``c``; other seats see a swap as a bare ``swap`` in their history: it is kept secret).
Windows: ``counter`` card ``a`` on reaction number ``b`` of the allocation.
Weapons fire (GE-FIRE-*): ``aim``, ``shoot`` (one weapon: unit ``a`` slot ``b``),
``volley`` (every usable weapon of ``a``), ``commit``, ``distort`` (``a`` at fleet ``b``),
``cease``; windows: ``react``/``counter`` (card ``a`` on ``b``), ``pass``; Krebiz split:
``split`` (shield damage ``a`` and structure ``b`` kept on the cruiser), ``place``.
End of turn: ``discard``, ``scuttle``, ``withdraw``, ``draw`` (``a`` cards), ``celebrate``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlanes.engine import Action

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState

NONE = -1
FLEET0 = -10
HQ0 = -100


def fleet_code(seat: int) -> int:
    """Target code of ``seat``'s fleet."""
    return FLEET0 - seat


def hq_code(seat: int) -> int:
    """Target code of ``seat``'s Sector HQ."""
    return HQ0 - seat


def is_fleet(code: int) -> bool:
    return HQ0 < code <= FLEET0


def is_hq(code: int) -> bool:
    return code <= HQ0


def code_seat(code: int) -> int:
    """The seat of a fleet or HQ target code."""
    return FLEET0 - code if is_fleet(code) else HQ0 - code


@dataclass(frozen=True, slots=True)
class GEAction(Action):
    """A Galactic Empires action (see the module docstring for the kinds)."""

    kind: str
    a: int = NONE
    b: int = NONE
    c: int = NONE
    label: str = ""

    def notation(self) -> str:
        return self.label or self.kind


DONE = GEAction("done", label="done")
"""Ending a phase or window: one shared action."""

MADE_CAP = 4096
"""Actions kept per game (``GalacticEmpires.made_actions``) before its table starts again
(a game meets a few hundred)."""


def made(s: GEState, kind: str, a: int, b: int, c: int,
         label: Callable[[GEState, str, int, int, int], str]) -> GEAction:
    """The action ``(kind, a, b, c)`` of ``s``'s game, labelled ``label(s, kind, a, b, c)`` the
    first time: one shared, immutable object per game, so that listing legal actions does
    not build the same action and its notation again at every step. The table is the game's
    (``made_actions``), which all its states share and which goes with it. ``label`` must
    depend only on its arguments and the game's card list (``defs``), as notation does."""
    table = s.game.made_actions  # type: ignore[attr-defined]
    key = (kind, a, b, c)
    act = table.get(key)
    if act is None:
        if len(table) >= MADE_CAP:
            table.clear()
        act = table[key] = GEAction(kind, a, b, c, label(s, kind, a, b, c))
    return act


def card_label(s: GEState, kind: str, a: int, _b: int, _c: int) -> str:
    """``<kind> <card a>``: the label of an action on one card instance."""
    return f"{kind} {s.name(a)}"


def one_card(s: GEState, kind: str, inst: int) -> GEAction:
    """The action ``kind`` on card instance ``inst`` alone, labelled ``<kind> <card>``."""
    return made(s, kind, inst, NONE, NONE, card_label)
