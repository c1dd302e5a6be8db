"""Galactic Domination explanations: what each legal action does and why a notation is refused.

:func:`describe` answers ``game.describe(state, action)`` (see
:mod:`starlanes.engine.explain`): text naming ships by type and the number on their badge
(``Raider Ship 5``, typed ``5``) and sectors as "sector P1", costs in AP, minerals and dark matter, the outcome of an attack
(no dice: damage is fixed), and the rule IDs (``GD-...``). Unit numbers are read from the
loaded content. Seats are called by their colour: red is player 1, purple player 2.
:func:`refusal` lives in :mod:`.refusals`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from starlanes.engine import Action
from starlanes.engine.explain import ActionDescription, article

from . import actions as A
from .content import UNIT_IDS
from .refusals import refusal
from .state import AP, HULL, KIND, OWNER, SEC, SH

if TYPE_CHECKING:  # pragma: no cover
    from .state import GDState

__all__ = ["describe", "label", "refusal", "unit_line", "ship_label", "colour"]

RANGE_RULES = {"sector_or_adjacent": "GD-RNG-07", "zone": "GD-RNG-05", "none": "GD-RNG-02",
               "adjacent_zones": "GD-RNG-03", "sector": "GD-RNG-06"}
RANGE_WORDS = {"sector_or_adjacent": "its own sector or an adjacent one",
               "zone": "anything in its own zone", "none": "nothing (unarmed)",
               "adjacent_zones": "sectors of the zones next to its own, not its own zone",
               "sector": "only its own sector"}


def colour(s: GDState, seat: int) -> str:
    """``red`` for player 1 (moves first), ``purple`` for player 2 (GD-MAP-03)."""
    return "red" if seat == s.first else "purple"


def unit_line(s: GDState, kind: int) -> str:
    """A unit type's numbers from the content: cost, AP, damage, range, shields, hull."""
    u = s.content.units[kind]
    return (f"{u.name}: cost {u.cost} minerals, {u.ap} AP, damage {u.damage}, range "
            f"{RANGE_WORDS.get(u.range, u.range)}, shields {u.shields}, hull {u.hull}")


def ship_label(s: GDState, uid: int) -> str:
    """``red Raider Ship 5`` - owner colour, type name and the number on its badge (typed in
    notation)."""
    return f"{colour(s, s.ships[uid][OWNER])} {s.ship_word(uid)}"


def _where(s: GDState, sec: int) -> str:
    return "deep space" if sec < 0 else f"sector {s.board.names[sec]}"


def _d(action: Action, kind: str, text: str, cost: str = "", changes: str = "",
       rules: tuple[str, ...] = ()) -> ActionDescription:
    return ActionDescription(str(action), kind, text, cost, changes, rules)


def _switch_note(s: GDState, uid: int) -> tuple[str, tuple[str, ...]]:
    """Acting with another ship ends the current one's actions (GD-AP-08)."""
    prev = s.active
    if prev >= 0 and prev != uid and prev in s.ships and s.ships[prev][AP] > 0:
        return f"{s.ship_word(prev)} can no longer act this turn", ("GD-AP-08",)
    return "", ()


def _ap_cost(s: GDState, uid: int) -> str:
    return f"1 of the {s.ships[uid][AP]} AP of {s.ship_word(uid)}"


# ---------------------------------------------------------------------- set-up and building
def _place(s: GDState, a: A.Place) -> ActionDescription:
    k = UNIT_IDS.index(a.kind)
    left = s.to_place[s.seat][k] - 1
    return _d(a, "setup", f"Place a starting {unit_line(s, k)} - in sector {a.sector} of "
              "your starting zone.", changes=f"{left} more {s.content.units[k].name} to place",
              rules=("GD-SET-03", "GD-SET-04", "GD-MAP-03"))


def _build(s: GDState, a: A.Build) -> ActionDescription:
    k = UNIT_IDS.index(a.kind)
    seat = s.seat
    cost = s.cost[k]
    return _d(a, "build", f"Build a {unit_line(s, k)} - in sector {a.sector}; it may act this "
              "turn.", f"{cost} minerals", f"minerals {s.minerals[seat]} -> "
              f"{s.minerals[seat] - cost}", ("GD-BLD-01", "GD-BLD-02", "GD-BLD-04",
                                            "GD-BLD-05", "GD-LIM-01", "GD-LIM-02"))


# ---------------------------------------------------------------------- ship actions
def _move(s: GDState, a: A.Move) -> ActionDescription:
    x = s.ships[a.ship]
    note, extra = _switch_note(s, a.ship)
    text = f"{ship_label(s, a.ship)} moves from {_where(s, x[SEC])} to sector {a.sector}."
    if x[6]:
        text += " It leaves its planet and stops mining."
    return _d(a, "move", text, _ap_cost(s, a.ship), note,
              ("GD-AP-04", "GD-UNIT-03", "GD-MAP-05", *extra))


def _attack(s: GDState, a: A.Attack) -> ActionDescription:
    x, y = s.ships[a.ship], s.ships[a.target]
    dmg = s.damage[x[KIND]]
    sh, hull = y[SH], y[HULL]
    if dmg <= sh:
        after = f"its shields drop to {sh - dmg}, hull stays {hull}"
    elif hull - (dmg - sh) <= 0:
        after = "it is destroyed"
    else:
        after = f"shields 0, hull {hull} -> {hull - (dmg - sh)}"
    rng = s.content.units[x[KIND]].range
    note, extra = _switch_note(s, a.ship)
    changes = after + (f"; {note}" if note else "")
    return _d(a, "attack", f"{ship_label(s, a.ship)} fires at {ship_label(s, a.target)} in "
              f"{_where(s, y[SEC])} for {dmg} damage (shields {sh}, hull {hull}).",
              _ap_cost(s, a.ship), changes,
              ("GD-AP-05", "GD-UNIT-04", "GD-UNIT-05", RANGE_RULES.get(rng, "GD-RNG-01"),
               *extra))


def _attach(s: GDState, a: A.Attach) -> ActionDescription:
    sec = s.ships[a.ship][SEC]
    here = sum(1 for y in s.ships.values() if y[SEC] == sec and y[KIND] == 2 and y[6]) + 1
    each = s.content.per_miner(here)
    note, extra = _switch_note(s, a.ship)
    return _d(a, "special", f"{ship_label(s, a.ship)} attaches to the planet of "
              f"{_where(s, sec)}; from your next turn it gathers {each} minerals each turn "
              f"({here} miner(s) attached there).", _ap_cost(s, a.ship), note,
              ("GD-SPC-01", "GD-SPC-02", "GD-SPC-03", "GD-TURN-04", *extra))


def _warp(s: GDState, a: A.Warp) -> ActionDescription:
    note, extra = _switch_note(s, a.ship)
    return _d(a, "special", f"{ship_label(s, a.ship)} warps into deep space; at the start of "
              "your next turn it comes back in a random sector and you spin for treasure. "
              "Ships in deep space do not count as on the board.", _ap_cost(s, a.ship), note,
              ("GD-DS-01", "GD-DS-02", "GD-DS-08", "GD-WIN-02", *extra))


def _charge_shot(s: GDState, a: A.ChargeShot) -> ActionDescription:
    sp = s.content.specials
    return _d(a, "special", f"{ship_label(s, a.ship)} charges a black hole shot aimed at "
              f"sector {a.sector}; next turn it may fire it, destroying everything there.",
              f"1 AP, {sp.black_hole_minerals} minerals, {sp.black_hole_dark_matter} dark "
              "matter", "its shields drop to 0 and it acts no more this turn",
              ("GD-SPC-04", "GD-SPC-05", "GD-AP-09"))


def _fire(s: GDState, a: A.Fire) -> ActionDescription:
    aim = s.ships[a.ship][8]
    lost = [u for u, y in s.ships.items() if y[SEC] == aim]
    what = ", ".join(ship_label(s, u) for u in lost) or "no ships"
    return _d(a, "special", f"{ship_label(s, a.ship)} fires its black hole shot: sector "
              f"{s.board.names[aim]} becomes a black hole for the rest of the game.", "1 AP",
              f"destroyed: {what}", ("GD-SPC-06", "GD-BH-01", "GD-BH-02", "GD-BH-04"))


def _charge_jump(s: GDState, a: A.ChargeJump) -> ActionDescription:
    sp = s.content.specials
    return _d(a, "special", f"{ship_label(s, a.ship)} charges a fleet jump; next turn it may "
              f"jump up to {sp.jump_range} sectors with the friendly ships then in its sector.",
              f"1 AP, {sp.jump_minerals} minerals", "its shields drop to 0 and it acts no "
              "more this turn", ("GD-SPC-07", "GD-SPC-08", "GD-AP-09"))


def _jump(s: GDState, a: A.Jump) -> ActionDescription:
    from .specials import jump_group

    group = jump_group(s, a.ship)
    with_ = ", ".join(s.ship_word(u) for u in group) or "no other ships"
    return _d(a, "special", f"{ship_label(s, a.ship)} jumps to sector {a.sector} with "
              f"{with_}.", "1 AP", rules=("GD-SPC-08", "GD-SPC-09"))


def _end(s: GDState, a: Action) -> ActionDescription:
    unused = sum(x[AP] for x in s.ships.values() if x[OWNER] == s.seat and x[SEC] >= 0)
    return _d(a, "turn", "End your turn; the other player's turn begins.",
              changes=f"{unused} unused AP are lost" if unused else "",
              rules=("GD-AP-07", "GD-TURN-01"))


def _arrive(s: GDState, a: A.Arrive) -> ActionDescription:
    return _d(a, "choice", f"Your returning {s.ship_word(a.ship)} arrives in sector {a.sector} "
              "(a friendly command ship in the zone lets you choose).",
              rules=("GD-DS-05", "GD-DS-06"))


def _sacrifice(s: GDState, a: A.Sacrifice) -> ActionDescription:
    uid, sector = s.stack[-1].data if s.stack else (0, -1)
    who = s.ship_word(uid) if uid in s.ships else "Your returning explorer"
    return _d(a, "choice", f"{who} collides in the full {_where(s, sector)}: "
              f"{ship_label(s, a.ship)} is destroyed together with it.",
              rules=("GD-DS-06", "GD-MAP-04"))


DESCRIBERS: dict[type, Any] = {
    A.Place: _place, A.Build: _build, A.Move: _move, A.Attack: _attack, A.Attach: _attach,
    A.Warp: _warp, A.ChargeShot: _charge_shot, A.Fire: _fire, A.ChargeJump: _charge_jump,
    A.Jump: _jump, A.EndTurn: _end, A.Arrive: _arrive, A.Sacrifice: _sacrifice,
}


def describe(state: GDState, action: Action) -> ActionDescription:
    """What the legal ``action`` does in ``state`` (see :mod:`starlanes.engine.explain`),
    with its :func:`label`.

    Raises KeyError for an action type this game does not have.
    """
    return replace(DESCRIBERS[type(action)](state, action), label=label(state, action))


# ---------------------------------------------------------------------- labels
def _unit(s: GDState, kind: str) -> str:
    return s.content.units[UNIT_IDS.index(kind)].name


def _from(s: GDState, uid: int) -> str:
    return _where(s, s.ships[uid][SEC])


def _l_build(s: GDState, a: A.Build) -> str:
    cost = s.cost[UNIT_IDS.index(a.kind)]
    return f"Build {article(_unit(s, a.kind))} in sector {a.sector} - {cost} minerals"


def _l_attack(s: GDState, a: A.Attack) -> str:
    return (f"{s.ship_word(a.ship)} fires at {colour(s, s.ships[a.target][OWNER])} "
            f"{s.ship_word(a.target)}")


def _l_sacrifice(s: GDState, a: A.Sacrifice) -> str:
    return f"Lose {s.ship_word(a.ship)} in the collision"


LABELS: dict[type, Any] = {
    A.Place: lambda s, a: f"Place {article(_unit(s, a.kind))} in sector {a.sector}",
    A.Build: _l_build,
    A.Move: lambda s, a: (f"Move {s.ship_word(a.ship)} from {_from(s, a.ship)} to sector "
                          f"{a.sector}"),
    A.Attack: _l_attack,
    A.Attach: lambda s, a: f"{s.ship_word(a.ship)} mines the planet of {_from(s, a.ship)}",
    A.Warp: lambda s, a: f"Warp {s.ship_word(a.ship)} into deep space",
    A.ChargeShot: lambda s, a: (f"{s.ship_word(a.ship)} charges a black hole shot at "
                                f"sector {a.sector}"),
    A.Fire: lambda s, a: (f"{s.ship_word(a.ship)} fires its black hole shot at sector "
                          f"{s.board.names[s.ships[a.ship][8]]}"),
    A.ChargeJump: lambda s, a: f"{s.ship_word(a.ship)} charges a fleet jump",
    A.Jump: lambda s, a: f"{s.ship_word(a.ship)} jumps to sector {a.sector} with its group",
    A.EndTurn: lambda s, a: "End your turn",
    A.Arrive: lambda s, a: f"Bring {s.ship_word(a.ship)} back in sector {a.sector}",
    A.Sacrifice: _l_sacrifice,
}


def label(state: GDState, action: Action) -> str:
    """The few words on the legal ``action``'s button (see :mod:`starlanes.engine.explain`):
    ``Build a Deep Space Explorer in sector R1 - 6 minerals``, ``Raider Ship 5 fires at
    purple Miner Ship 8``; ships by type and the number on their badge. Raises KeyError for
    an action type this game does not have."""
    return LABELS[type(action)](state, action)
