"""Longer-range plans of the Rift Domination heuristic bot (used by :mod:`.heuristic`).

The greedy bot knew only the nearest planet and the cheapest strength per resource, so it
never unlocked or saved for a flagship, rarely reached the huge central planets and built
nothing but mines. This module holds what it now weighs:

- **the centre** (SPECIAL PLANETS, RD-SPC-*): a huge planet is worth ``huge_planet_vp`` (4)
  plus the central system's VP, so troop fleets treat it as :data:`CENTRE_PULL` steps nearer
  than it is (:func:`weighted_field`), and the planet, once held, gets a military base,
  artillery and a shield generator in its four slots (:func:`build_score`);
- **the flagship** (unit card, cost 13): unlocked first when a system is gained
  (:func:`unlock_score`), then saved for (:func:`saving_for_flagship`): the bot keeps its
  resources until it can pay for one;
- **a mixed fleet**: warships are valued by strength per resource plus what their skills do
  (:data:`SKILL_VALUE`), with a bonus for a kind the seat does not field yet;
- **upgrades that pay**: one trading outpost early, a warp on the centre, military bases
  where troops are needed.

Every function reads only what the seat may see (the public board, its own resources).
Weights are the bot's own tuning, not game content.
"""

from __future__ import annotations

import random
from collections import deque

import numpy as np

from starlanes.engine import Action

from .actions import PlayCard
from .occ import effect_of
from .state import RiftState

#: Troop fleets treat a huge planet this many movement points nearer than it is (its 4 VP
#: and the system VP are worth several ordinary planets).
CENTRE_PULL = 5
#: Strength points a unit skill adds to :func:`ship_value` (LP, shields and 1.5 per die).
SKILL_VALUE = {
    "overload": 4.0, "repair_rush": 3.0, "rocket_barrage": 2.5, "taunt": 2.0,
    "defensive_ring": 2.0, "bombardment": 1.5, "bombardment_2": 2.5, "kamikaze": 1.5,
    "negotiate": 0.0, "repair_bldg": 1.0,
}
#: Bonus factor on the value of a warship kind the seat has none of.
NEW_KIND_BONUS = 1.3
#: Random spread of the warship and unlock choices (a fraction of the value), so that
#: fleets and unlocks differ from game to game among kinds of similar worth.
RECRUIT_SPREAD = 0.35
UNLOCK_SPREAD = 0.6
FLAGSHIP = "flagship"


def huge_planets(s: RiftState) -> list[int]:
    """Indices of the in-play huge central planets (two on the printed board)."""
    b = s.board
    return [p for p in b.in_play_planets if b.planet_huge[p]]


#: The steps a point that reaches no goal reads as inside a :class:`Field`.
UNREACHED = 1 << 20


class Field:
    """Movement steps from the nearest goal, per point index (:func:`weighted_field`);
    ``get(point, default)`` gives ``default`` for a point that reaches no goal and
    ``field[point]`` raises KeyError there, as a mapping that leaves such points out."""

    __slots__ = ("_row",)

    def __init__(self, row: list[int]) -> None:
        self._row = row

    def get(self, point: int, default: int) -> int:
        v = self._row[point]
        return default if v >= UNREACHED // 2 else v

    def __getitem__(self, point: int) -> int:
        """The steps at ``point``; KeyError where no goal is reached."""
        v = self._row[point]
        if v >= UNREACHED // 2:
            raise KeyError(point)
        return v


def point_distances(s: RiftState) -> np.ndarray:
    """Steps from every point to every point along the board's lanes, ``[a, b]`` from
    ``a`` to ``b`` (:data:`UNREACHED` where none leads); worked out once per board (a
    breadth-first search from each point) and kept in the board's memo, since the lanes
    never change during a game. Shape ``(points, points)``, int64."""
    b = s.board
    d = b.memo.get("heuristic_distances")
    if d is None:
        nb = b.neighbors
        n = len(nb)
        d = np.full((n, n), UNREACHED, dtype=np.int64)
        for g in range(n):
            row = [UNREACHED] * n
            row[g] = 0
            q = deque((g,))
            while q:
                p = q.popleft()
                step = row[p] + 1
                for m in nb[p]:
                    if row[m] == UNREACHED:
                        row[m] = step
                        q.append(m)
            d[g] = row
        b.memo["heuristic_distances"] = d
    return d


def weighted_field(s: RiftState, goals: dict[int, int]) -> Field:
    """Movement distance to the nearest goal, where goal point ``g`` starts at
    ``goals[g]`` (0 for an ordinary goal, ``-CENTRE_PULL`` for the centre): for each
    point the least ``goals[g] + steps(g, point)`` (the board's lanes all cost one step, so
    this is the shortest path with the goals' head starts). Shape: a :class:`Field`,
    point index -> steps (may be negative); points that reach no goal read as the
    default."""
    d = point_distances(s)
    if not goals:
        return Field([UNREACHED] * d.shape[0])
    idx = list(goals)
    if len(idx) == 1:
        row = d[idx[0]] + goals[idx[0]]
    else:
        row = (d[idx] + np.array([goals[g] for g in idx], dtype=np.int64)[:, None]).min(axis=0)
    return Field(row.tolist())


def distance_field(s: RiftState, goals: list[int]) -> Field:
    """Steps to the nearest of ``goals`` (point indices) for every point, as
    :func:`weighted_field` with no head starts."""
    return weighted_field(s, dict.fromkeys(goals, 0))


def centre_offsets(s: RiftState, seat: int, points: list[int]) -> dict[int, int]:
    """``points`` as goals of :func:`weighted_field`, the points of huge planets the seat
    does not hold pulled :data:`CENTRE_PULL` nearer."""
    b = s.board
    centre = {b.planet_point[p] for p in huge_planets(s) if s.planet_owner[p] != seat}
    return {g: (-CENTRE_PULL if g in centre else 0) for g in points}


def ship_value(s: RiftState, seat: int, kind: str) -> float:
    """Battle strength of one unit of ``kind`` for ``seat``: LP + shields + 1.5 a weapon
    die + :data:`SKILL_VALUE` of its skills + 1 a movement point above 2 (strength points,
    not resources)."""
    st = s.stats[seat][kind]
    skills = s.content.units[kind].skills if kind in s.content.units else ()
    return (st.lp + st.shields + 1.5 * (st.close + st.mid + st.long)
            + sum(SKILL_VALUE.get(k, 1.0) for k in skills) + max(0, st.mp - 2))


def owned_kinds(s: RiftState, seat: int) -> set[str]:
    """The unit kinds ``seat`` has at least one of (anywhere, landed or not)."""
    return {u.kind for u in s.units.values() if u.owner == seat}


def pick_warship(s: RiftState, seat: int, kinds: set[str], rng: random.Random) -> str | None:
    """The warship kind to recruit among ``kinds`` (self-propelled, carried by nobody):
    best :func:`ship_value` per resource, a kind the seat does not field yet
    x :data:`NEW_KIND_BONUS`, times a random factor of up to 1 + :data:`RECRUIT_SPREAD`;
    None if there is none."""
    stats = s.stats[seat]
    ships = [k for k in kinds if stats[k].used_capacity == 0 and stats[k].mp > 0
             and k != FLAGSHIP]
    if not ships:
        return None
    have = owned_kinds(s, seat)

    def value(k: str) -> tuple[float, str]:
        v = ship_value(s, seat, k) / max(1, stats[k].cost)
        v *= (NEW_KIND_BONUS if k not in have else 1.0) * (1.0 + RECRUIT_SPREAD * rng.random())
        return (v, k)

    return max(sorted(ships), key=value)


def unlock_score(s: RiftState, seat: int, kind: str, rng: random.Random) -> float:
    """How much ``seat`` wants to unlock ``kind`` after gaining a system (RD-SYS-03): the
    flagship first; then warships by :func:`ship_value` per resource times a random factor
    of up to 1 + :data:`UNLOCK_SPREAD` (so that games differ in their second unlock); ground
    and carried units at half value."""
    stats = s.stats[seat][kind]
    if kind == FLAGSHIP:
        return 100.0
    base = ship_value(s, seat, kind) / max(1, stats.cost)
    if stats.used_capacity > 0 or stats.mp == 0:
        base *= 0.5
    return base * (1.0 + UNLOCK_SPREAD * rng.random())


def flagship_count(s: RiftState, seat: int) -> int:
    """How many flagships ``seat`` has on the board."""
    return sum(1 for u in s.units.values() if u.owner == seat and u.kind == FLAGSHIP)


def saving_for_flagship(s: RiftState, seat: int) -> bool:
    """True while ``seat`` may recruit a flagship, holds fewer than two, has a military base
    and can pay for one within two rounds of income: it then keeps its resources."""
    if FLAGSHIP not in s.roster[seat] or not s.military_bases(seat):
        return False
    if flagship_count(s, seat) >= 2:
        return False
    cost = s.stats[seat][FLAGSHIP].cost
    return s.resources[seat] + 2 * max(0, s.income[seat]) >= cost


def build_score(s: RiftState, seat: int, upgrade: str, p: int) -> float:
    """What building ``upgrade`` on planet ``p`` is worth to ``seat`` this turn (0: not
    worth it). Mines first (income), then on a huge planet one each of a military base,
    artillery, a shield generator and a warp to hold its 4 VP; one trading outpost early.
    A military base is worth 10 to a seat that has none (no base, no recruiting)."""
    ups = s.planet_upgrades[p]
    huge = s.board.planet_huge[p]
    if upgrade == "mine":
        bonus = 2.0 if s.tile_kind[p] == "harvester" and "mine" in ups else 0.0
        return 3.0 + bonus - (1.5 if huge else 0.0)
    if upgrade == "military_base":
        if not s.military_bases(seat):
            return 10.0
        return 4.0 if huge and upgrade not in ups else 0.0
    if upgrade == "trading_outpost":
        held = any(s.planet_owner[q] == seat and "trading_outpost" in s.planet_upgrades[q]
                   for q in s.board.in_play_planets)
        return 3.5 if not held and s.round < 6 else 0.0
    if not huge or upgrade in ups:  # one of each fortification on a huge planet
        return 0.0
    return {"artillery": 3.2, "shield_generator": 2.8, "warp": 2.0}.get(upgrade, 0.0)


#: A fleet at least this far from troops waiting for a lift is worth a Rift Jump home.
JUMP_DISTANCE = 3


def jump_to_troops(s: RiftState, seat: int, legal: list[Action],
                   dist_pick: Field) -> Action | None:
    """A ``teleport`` card play (Rift Jump, target ``"POINT>PLANET"``) that brings an empty
    transport fleet, :data:`JUMP_DISTANCE` or more steps from the nearest troops waiting
    for a lift (``dist_pick``: point -> steps), to a military-base planet where ground units
    of the seat wait; None if there is no such play."""
    b = s.board
    stats = s.stats[seat]
    best: tuple[int, str] | None = None
    chosen: Action | None = None
    for a in legal:
        if not isinstance(a, PlayCard) or not a.target or ">" not in a.target:
            continue
        if effect_of(s.content.cards[a.card])[0] != "teleport":
            continue
        src_name, planet = a.target.split(">")
        src = b.index[src_name]
        dst = b.planet_point[b.planet_ids.index(planet)]
        here = [u for u in s.units.values() if u.owner == seat and u.loc == src and not u.landed]
        if any(stats[u.kind].ground for u in here):
            continue
        if not any(stats[u.kind].capacity > 0 for u in here):
            continue
        waiting = sum(1 for u in s.units.values() if u.owner == seat and u.loc == dst
                      and not u.landed and stats[u.kind].ground)
        far = dist_pick.get(src, 99)
        if waiting and far >= JUMP_DISTANCE and (best is None or (far, a.target) > best):
            best, chosen = (far, a.target), a
    return chosen
