"""Special Abilities: attach (miner), warp (explorer), black hole shot (destroyer) and
fleet jump (command ship); Black Hole Markers (GD-SPC-*, GD-BH-*, GD-DS-01).

Charging (black hole shot or fleet jump) costs 1 AP and the special's minerals and drops the
ship's shields to 0 (GD-SPC-05/07); the ship may spend its other AP that turn, but not charge
again (ruling GD-OPEN-07; the ``charge_ends_turn`` option ends its actions instead). On its
owner's next turn the ship is charged and may only fire or jump until it does; a shot needs
its aim still in the destroyer's range (GD-RNG-03/04); an unused charge lapses at the end of
that turn. The Raider Ship has no special (GD-UNIT-09).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, shared

from . import actions as A
from .content import COMMAND, DESTROYER, EXPLORER, MINER
from .state import CHG, DEEP, KIND, OWNER, SEC
from .turn import check_end, destroy

if TYPE_CHECKING:  # pragma: no cover
    from .state import GDState, Ship

CAPACITY = 3


def holes_left(s: GDState) -> int:
    """Black hole markers still unused (5 in the box, GD-BH-05, ruling GD-OPEN-11)."""
    return s.content.specials.black_hole_markers - sum(s.holes)


def can_charge_shot(s: GDState, seat: int) -> bool:
    """Dark matter and minerals in hand (GD-SPC-04, GD-AP-09) and a marker left."""
    sp = s.content.specials
    return (s.dark[seat] >= sp.black_hole_dark_matter
            and s.minerals[seat] >= sp.black_hole_minerals and holes_left(s) > 0)


ONE_SPECIAL = {MINER: A.Attach, EXPLORER: A.Warp, COMMAND: A.ChargeJump}
"""The unit kinds whose special is one action naming the ship alone, and its class."""


def one_special(s: GDState, uid: int, kind: int) -> Action:
    """Ship ``uid``'s one special action (``kind`` in :data:`ONE_SPECIAL`), made once per
    game (``game.special_rows``)."""
    rows = s.game.special_rows  # type: ignore[attr-defined]
    a = rows.get(uid)
    if a is None:
        a = rows[uid] = ONE_SPECIAL[kind](uid)
    return a


def special_actions(s: GDState, uid: int, x: Ship, shot: bool | None = None) -> list[Action]:
    """The specials ship ``uid`` may use now (it has at least 1 AP). A ship that charged
    this turn may not charge again (GD-SPC-05/07). ``shot``: whether its owner can pay for
    a black hole shot (:func:`can_charge_shot`), where the caller knows it already."""
    k = x[KIND]
    if k == MINER:
        return [] if x[6] else [one_special(s, uid, k)]
    if k == EXPLORER:
        return [one_special(s, uid, k)]
    if x[CHG]:
        return []
    seat = x[OWNER]
    if k == DESTROYER:
        if not (can_charge_shot(s, seat) if shot is None else shot):
            return []
        row = _row(s.game.shot_rows, uid)  # type: ignore[attr-defined]
        names = s.board.names
        holes = s.holes
        out = []
        for t in s.reach[DESTROYER][x[SEC]]:
            if not holes[t]:
                a = row[t]
                if a is None:
                    a = row[t] = A.ChargeShot(uid, names[t])
                out.append(a)
        return out
    if k == COMMAND and s.minerals[seat] >= s.content.specials.jump_minerals:
        return [one_special(s, uid, k)]
    return []


def jump_group(s: GDState, uid: int) -> list[int]:
    """Friendly units in the command ship's sector at the start of this turn that are still
    there (GD-SPC-09)."""
    sec = s.ships[uid][SEC]
    ships = s.ships
    return [u for u in s.jump_group.get(uid, ()) if u in ships and ships[u][SEC] == sec]


def charged_actions(s: GDState, uid: int, x: Ship, load: list[int]) -> list[Action]:
    """A charged ship may only fire (destroyer) or jump (command ship) until it does. The
    shot needs a marker left and its aim, not yet a black hole, still in the destroyer's
    range (GD-RNG-03/04, ruling GD-OPEN-06): a destroyer that moved or jumped out of range
    after charging cannot fire."""
    names = s.board.names
    if x[KIND] == DESTROYER:
        aim = x[8]
        if (aim >= 0 and not s.holes[aim] and holes_left(s) > 0
                and aim in s.reach[DESTROYER][x[SEC]]):
            return [shared(A.Fire, uid)]
        return []
    group = [uid, *jump_group(s, uid)]
    need = sum(1 for u in group if s.ships[u][KIND] != MINER)
    here = x[SEC]
    dist = s.board.dist[here]
    reach = s.content.specials.jump_range
    holes = s.holes
    row = _row(s.game.jump_rows, uid)  # type: ignore[attr-defined]
    out = []
    for t in range(15):
        if 1 <= dist[t] <= reach and not holes[t] and load[t] + need <= CAPACITY:
            a = row[t]
            if a is None:
                a = row[t] = A.Jump(uid, names[t])
            out.append(a)
    return out


def _row(rows: dict[int, list[Action | None]], uid: int) -> list[Action | None]:
    """Ship ``uid``'s row of one game's per-sector actions (``game.shot_rows`` or
    ``game.jump_rows``: the action aimed at each sector index, made on first use)."""
    row = rows.get(uid)
    if row is None:
        row = rows[uid] = [None] * 15
    return row


_FIELD = {"sec": 2, "sh": 3, "ap": 5, "att": 6, "chg": 7, "aim": 8}


def _spend(s: GDState, uid: int, **fields: int) -> None:
    """Activate ``uid``, take 1 AP, then set the named fields."""
    from .fleet import activate

    activate(s, uid)
    x = list(s.ships[uid])
    x[5] -= 1
    for key, value in fields.items():
        x[_FIELD[key]] = value
    s.ships[uid] = tuple(x)  # type: ignore[assignment]


def _charge_ap(s: GDState) -> dict[str, int]:
    """Extra field changes of charging: AP to 0 only under ``charge_ends_turn``."""
    return {"ap": 0} if s.options["charge_ends_turn"] else {}


def apply(s: GDState, a: Action) -> None:
    cls = type(a)
    seat = s.seat
    sp = s.content.specials
    names = s.board.names
    if cls is A.Attach:
        _spend(s, a.ship, att=1)
        s.log(f"{s.seat_name(seat)}: {s.ship_word(a.ship)} attaches to the planet of sector {names[s.ships[a.ship][SEC]]}")
    elif cls is A.Warp:
        _spend(s, a.ship, sec=DEEP, ap=0, att=0)
        s.log(f"{s.seat_name(seat)}: {s.ship_word(a.ship)} warps into deep space")
        check_end(s)
    elif cls is A.ChargeShot:
        s.minerals[seat] -= sp.black_hole_minerals
        s.dark[seat] -= sp.black_hole_dark_matter
        _spend(s, a.ship, sh=0, chg=1, aim=s.board.index[a.sector], **_charge_ap(s))
        s.log(f"{s.seat_name(seat)}: {s.ship_word(a.ship)} charges a black hole shot at sector {a.sector}")
    elif cls is A.Fire:
        aim = s.ships[a.ship][8]
        _spend(s, a.ship, chg=0, aim=-1)
        black_hole(s, aim)
    elif cls is A.ChargeJump:
        s.minerals[seat] -= sp.jump_minerals
        _spend(s, a.ship, sh=0, chg=1, **_charge_ap(s))
        s.log(f"{s.seat_name(seat)}: {s.ship_word(a.ship)} charges a fleet jump")
    elif cls is A.Jump:
        dest = s.board.index[a.sector]
        group = jump_group(s, a.ship)
        _spend(s, a.ship, chg=0, sec=dest, att=0)
        for u in group:
            y = s.ships[u]
            s.ships[u] = (y[0], y[1], dest, y[3], y[4], y[5], 0, y[7], y[8])
        s.jump_group.pop(a.ship, None)
        s.log(f"{s.seat_name(seat)}: {s.ship_word(a.ship)} jumps to sector {a.sector} with {len(group)} units")
    else:  # pragma: no cover - guarded by legality
        raise AssertionError(f"unexpected action {a}")


def black_hole(s: GDState, sector: int) -> None:
    """A black hole replaces the sector's planet and destroys everything there (GD-BH-01/02)."""
    s.holes[sector] = True
    lost = [u for u, x in s.ships.items() if x[SEC] == sector]
    for u in lost:
        destroy(s, u)
    s.log(f"a black hole opens at sector {s.board.names[sector]}; {len(lost)} ships are lost")
    check_end(s)
