"""A seat's units surveyed once for the questions the movement step asks many times.

Listing a seat's legal moves needs its stacks, which orbits hold enemy fleets, where it can
land, lift off or negotiate: asked point by point that is a scan of every unit per point.
:func:`survey_units` answers all of them together, as one pass over the seat's own units
in unit-id order would (so the lists built from it keep that order), reading enemy fleets
from the :class:`~.units.UnitTable`'s per-seat counts. It reads the units point by point
from the table's ``at`` view and keeps each point's answer until a unit there is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

try:
    import cython
    if not cython.compiled:  # Cython installed, this module not compiled
        raise ModuleNotFoundError
except ModuleNotFoundError:  # the pure build
    from starlanes.engine import _cython as cython

if TYPE_CHECKING:  # pragma: no cover
    from .factions import UnitStats
    from .state import RiftState


class KindSets(NamedTuple):
    """Unit kinds of one faction's stats by role: ``carried`` (used capacity > 0: moves only
    aboard a ship, RD-UNIT-02), ``ground`` (may land), ``lifters`` (capacity > 0); and
    ``base_mp``, each kind's movement points at the start of a turn before warps: its
    stats' MP, 0 for a carried kind (RD-MOV-07)."""

    carried: frozenset[str]
    ground: frozenset[str]
    lifters: frozenset[str]
    base_mp: dict[str, int]


_KINDS: dict[int, tuple[dict[str, UnitStats], KindSets]] = {}


def kind_sets(stats: dict[str, UnitStats]) -> KindSets:
    """The :class:`KindSets` of a stats table (kind -> UnitStats); cached per table, which
    are shared and never changed once built (``factions.compile_faction``)."""
    hit = _KINDS.get(id(stats))
    if hit is not None and hit[0] is stats:
        return hit[1]
    sets = KindSets(
        frozenset(k for k, st in stats.items() if st.used_capacity > 0),
        frozenset(k for k, st in stats.items() if st.ground),
        frozenset(k for k, st in stats.items() if st.capacity > 0),
        {k: st.mp if st.used_capacity == 0 else 0 for k, st in stats.items()},
    )
    if len(_KINDS) > 512:
        _KINDS.clear()
    _KINDS[id(stats)] = (stats, sets)
    return sets


class Survey:
    """What one pass over ``seat``'s units tells (points are board point indices).

    * ``ships``: point -> kinds of the seat's ships there with movement points left (one
      entry per ship, unit-id order; a list or a tuple: read it), for every point holding
      a not-landed unit of the seat, in the order the points are first met;
    * ``own``: orbit point -> [ground unit in orbit, troops (a ground unit but a diplomat)
      in orbit, landed unit, diplomat] for the seat's units at planets, leaving out
      units in orbit barred from landing (ruling RD-OPEN-10) (a list or a tuple: read it);
    * ``lifters``: points where the seat has a ship with capacity and a movement point.
    """

    __slots__ = ("ships", "own", "lifters")

    def __init__(self) -> None:
        self.ships: dict[int, list[str]] = {}
        self.own: dict[int, list[bool]] = {}
        self.lifters: set[int] = set()


_UNBARRED: frozenset[int] = frozenset()


def survey_units(s: RiftState, seat: int) -> Survey:
    """What ``seat``'s units tell, as one pass over them in unit-id order would find it;
    see :class:`Survey`.

    Read point by point from the unit table's ``at`` view: each point's part of the answer
    is kept in the table's ``memo`` with the tuple of units it was made from (and the
    units barred from landing then, ruling RD-OPEN-10), and made again only where that
    tuple was replaced (a unit there written), so a listing after a move re-reads the two
    points the move touched."""
    out = Survey()
    ships, own, lifters = out.ships, out.own, out.lifters
    sets = kind_sets(s.stats[seat])
    barred = s.no_landing or _UNBARRED  # one object for "none": the memo compares identity
    planet_of = s.board.planet_of
    table = s.units
    memo = table.memo[seat]
    firsts = []  # (lowest unit id not landed, point, kinds): the order a scan meets them
    for point, entry in table.at[seat].items():
        got = memo.get(point)
        if got is None or got[0] is not entry or got[1] is not sets or got[2] is not barred:
            got = memo[point] = _point(entry, sets, barred, planet_of[point] >= 0)
        part = cython.cast(tuple, got)
        if part[3] >= 0:
            firsts.append((part[3], point, part[4]))
        if part[5]:
            lifters.add(point)
        if part[6] is not None:
            own[point] = part[6]
    firsts.sort()  # by unit id: ids are unique, so nothing else is compared
    for first in firsts:
        ships[first[1]] = first[2]
    return out


def _point(entry: tuple, sets: KindSets, barred: frozenset[int], at_planet: bool) -> tuple:
    """One point's part of the survey from the seat's ``(unit id, Unit)`` pairs there:
    ``(entry, sets, barred, lowest unit id not landed or -1, kinds of the ships with
    movement points, a lifter with a movement point there, flags or None)`` (see
    :class:`Survey`; the flags of a point that is no planet's orbit are None, and units in
    orbit barred from landing add nothing to them)."""
    carried, ground, lift = sets.carried, sets.ground, sets.lifters
    first = -1
    kinds: list[str] = []
    lifter = False
    flags: list[bool] | None = None
    for pair in entry:
        uid = pair[0]
        u = cython.cast(tuple, pair[1])  # a Unit: read by index, as a tuple
        kind = u[1]
        if u[3]:  # landed
            if not at_planet:
                continue
            if flags is None:
                flags = [False, False, True, False]
            else:
                flags[2] = True
            if kind == "diplomat":
                flags[3] = True
            continue
        if first < 0:
            first = uid
        if u[4] > 0:
            if kind not in carried:
                kinds.append(kind)
            if kind in lift:
                lifter = True
        if not at_planet or uid in barred:
            continue
        if flags is None:
            flags = [False, False, False, False]
        if kind in ground:
            flags[0] = True
            if kind != "diplomat":
                flags[1] = True
        if kind == "diplomat":
            flags[3] = True
    # kept in the memo and handed to every later survey: tuples, which no caller can change
    return (entry, sets, barred, first, tuple(kinds), lifter,
            tuple(flags) if flags is not None else None)


def landed_infantry_at(s: RiftState, seat: int, point: int) -> bool:
    """True if ``seat`` has infantry landed on the planet at orbit ``point``."""
    return any(u[2] == point and u[3] and u[1] == "infantry" for u in s.units.of[seat].values())


def enemy_fleet_points(s: RiftState, seat: int) -> set[int]:
    """Points holding units of a seat other than ``seat`` that are not landed (an
    enemy-held point, RD-MOV-10, ruling RD-OPEN-24)."""
    return s.units.fleet_points(seat)
