"""Units on the board: the :class:`Unit` tile and the :class:`UnitTable` that holds them.

The rules ask two questions of the units over and over: "which units does this seat have"
(its stacks, its landings, its movement points) and "is there an enemy fleet at this point"
(RD-MOV-10, ruling RD-OPEN-24). Scanning every unit of every seat for each answer was most
of the cost of a move, so the table keeps, next to the units by id, each seat's units (in
unit-id order, the order of the whole table), how many of each seat's units are not
landed at each point, and each seat's units point by point, updated as units are added,
changed and removed: a listing of a seat's moves then re-reads only the points a move
touched (``survey.survey_units``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple


class Unit(NamedTuple):
    """One unit tile: ``wounds`` are LP lost (damage tiles); ``mp`` movement points left this
    turn; ``landed`` means on the planet surface at orbit point ``loc`` (ground units)."""

    owner: int
    kind: str
    loc: int
    landed: bool
    mp: int
    wounds: int


new_unit = tuple.__new__
"""``new_unit(Unit, (owner, kind, loc, landed, mp, wounds))``: a Unit built without the
keyword handling of ``Unit(...)`` or ``_replace`` (hot paths of the rules)."""


class UnitTable(dict):  # type: ignore[type-arg]
    """unit id -> :class:`Unit` for a game of ``players`` seats, a dict whose writes also
    keep per-seat views (read them, never write them):

    * ``of[seat]``: unit id -> Unit of that seat's units, in the table's order;
    * ``afloat[seat]``: point -> number of that seat's units there that are not landed
      (points with none are absent);
    * ``afloat_all``: point -> number of units of all seats there that are not landed;
    * ``at[seat]``: point -> the ``(unit id, Unit)`` pairs of that seat's units there,
      landed or not, in unit-id order: a tuple, replaced (never changed) at every write of
      a unit there, so that whoever keeps an answer per point can tell by identity that
      the point is unchanged (points with none are absent);
    * ``memo[seat]``: a dict for the rules to keep such answers in (point -> what they
      keep, each checked against the ``at`` tuple it was made from); shared by copies.

    Raises ValueError for a unit whose owner is not a seat 0..players-1. ``copy()`` gives an
    independent table; the views are shared with the copy until either table is written
    (copy on write: a clone that is only looked at never copies them).
    """

    __slots__ = ("of", "afloat", "afloat_all", "at", "memo", "_shared", "_holes")

    def __init__(self, players: int, units: Mapping[int, Unit] | Iterable[tuple[int, Unit]] = ()
                 ) -> None:
        super().__init__()
        self.of: list[dict[int, Unit]] = [{} for _ in range(players)]
        self.afloat: list[dict[int, int]] = [{} for _ in range(players)]
        self.afloat_all: dict[int, int] = {}
        self.at: list[dict[int, tuple[tuple[int, Unit], ...]]] = [{} for _ in range(players)]
        self.memo: list[dict[int, Any]] = [{} for _ in range(players)]
        self._shared = False
        self._holes = False  # a unit removed since the table was last compacted
        for uid, u in (units.items() if isinstance(units, Mapping) else units):
            self[uid] = u

    def _unshare(self) -> None:
        self.of = [d.copy() for d in self.of]
        self.afloat = [d.copy() for d in self.afloat]
        self.afloat_all = self.afloat_all.copy()
        self.at = [d.copy() for d in self.at]
        self._shared = False

    def _put_at(self, owner: int, point: int, uid: int, u: Unit) -> None:
        """Put (or replace) unit ``uid`` in ``at[owner][point]``, in unit-id order."""
        here = self.at[owner]
        entry = here.get(point)
        if entry is None:
            here[point] = ((uid, u),)
        elif uid > entry[-1][0]:  # the usual case: a new unit, or the highest id there
            here[point] = (*entry, (uid, u))
        else:
            pairs = [x for x in entry if x[0] != uid]
            pairs.append((uid, u))
            pairs.sort()  # by unit id: ids are unique, so the units are never compared
            here[point] = tuple(pairs)

    def _drop_at(self, owner: int, point: int, uid: int) -> None:
        """Take unit ``uid`` out of ``at[owner][point]``."""
        here = self.at[owner]
        pairs = tuple([x for x in here[point] if x[0] != uid])
        if pairs:
            here[point] = pairs
        else:
            del here[point]

    def __setitem__(self, uid: int, u: Unit) -> None:
        if self._shared:
            self._unshare()
        owner = u[0]
        of = self.of
        if not 0 <= owner < len(of):
            raise ValueError(f"unit {uid}: owner must be a seat 0-{len(of) - 1}, got {owner!r}")
        old = dict.get(self, uid)
        dict.__setitem__(self, uid, u)
        if old is not None:
            if old[2] == u[2] and old[0] == owner:
                self._put_at(owner, u[2], uid, u)
                if old[3] == u[3]:
                    of[owner][uid] = u  # same place: the counts stay as they are
                    return
            else:
                self._drop_at(old[0], old[2], uid)
                self._put_at(owner, u[2], uid, u)
            if not old[3]:
                self._leave(old[0], old[2])
            if old[0] != owner:  # keep the seat's view in the table's order
                del of[old[0]][uid]
                of[owner] = {k: v for k, v in self.items() if v[0] == owner}
        else:
            self._put_at(owner, u[2], uid, u)
        of[owner][uid] = u
        if not u[3]:
            point = u[2]
            fl = self.afloat[owner]
            fl[point] = fl.get(point, 0) + 1
            total = self.afloat_all
            total[point] = total.get(point, 0) + 1

    def _leave(self, owner: int, point: int, count: int = 1) -> None:
        fl = self.afloat[owner]
        left = fl[point] - count
        if left:
            fl[point] = left
        else:
            del fl[point]
        fl = self.afloat_all
        left = fl[point] - count
        if left:
            fl[point] = left
        else:
            del fl[point]

    def _write(self, owner: int, units: Iterable[tuple[int, Unit]]) -> None:
        """Write each (uid, unit) of ``units`` (of ``owner``) into the table and the seat's
        view; the callers bring ``at`` and the counts up to date."""
        if self._shared:
            self._unshare()
        of = self.of[owner]
        put = dict.__setitem__
        for uid, u in units:
            put(self, uid, u)
            of[uid] = u

    def restate(self, owner: int, units: Iterable[tuple[int, Unit]]) -> None:
        """Write each (uid, unit) of ``units``: units of ``owner`` that stay where they are
        (same owner, point and landed flag; e.g. new movement points). The same as
        assigning them one by one, in one call."""
        self._write(owner, units)
        points: dict[int, dict[int, Unit]] = {}  # point -> the units written there
        for uid, u in units:
            got = points.get(u[2])
            if got is None:
                points[u[2]] = {uid: u}
            else:
                got[uid] = u
        here = self.at[owner]
        for point, new in points.items():
            here[point] = tuple([(k, new.get(k, v)) for k, v in here[point]])

    def move_fleet(self, owner: int, src: int, dst: int,
                   units: list[tuple[int, Unit]]) -> None:
        """Write each (uid, unit) of ``units``: units of ``owner``, not landed, that were at
        ``src`` and are now (still not landed) at ``dst``. The same as assigning them one
        by one, in one call."""
        k = len(units)
        if not k or src == dst:
            self.restate(owner, units)
            return
        self._write(owner, units)
        here = self.at[owner]
        gone = {uid for uid, _u in units}
        left = tuple([x for x in here[src] if x[0] not in gone])
        if left:
            here[src] = left
        else:
            del here[src]
        entry = here.get(dst)
        if entry is None:
            here[dst] = tuple(sorted(units))  # by unit id (unique: units never compared)
        else:
            here[dst] = tuple(sorted((*entry, *units)))
        self._leave(owner, src, k)
        fl = self.afloat[owner]
        fl[dst] = fl.get(dst, 0) + k
        fl = self.afloat_all
        fl[dst] = fl.get(dst, 0) + k

    def __delitem__(self, uid: int) -> None:
        if self._shared:
            self._unshare()
        u = dict.pop(self, uid)
        # A dict keeps a hole where an entry was removed, and copying a dict with holes
        # takes the slow path (entry by entry): copy() compacts it first (once for all the
        # removals since, e.g. a battle's casualties).
        self._holes = True
        del self.of[u[0]][uid]
        self._drop_at(u[0], u[2], uid)
        if not u[3]:
            self._leave(u[0], u[2])

    def pop(self, uid: int, *default: Any) -> Any:  # type: ignore[override]
        if uid not in self:
            if default:
                return default[0]
            raise KeyError(uid)
        u = self[uid]
        del self[uid]
        return u

    def popitem(self) -> tuple[int, Unit]:
        uid = next(reversed(self))
        return uid, self.pop(uid)

    def setdefault(self, uid: int, default: Unit) -> Unit:  # type: ignore[override]
        if uid not in self:
            self[uid] = default
        return self[uid]

    def update(self, *args: Any, **kwargs: Any) -> None:
        for uid, u in dict(*args, **kwargs).items():
            self[uid] = u

    def clear(self) -> None:
        dict.clear(self)
        self.of = [{} for _ in self.of]
        self.afloat = [{} for _ in self.afloat]
        self.afloat_all = {}
        self.at = [{} for _ in self.at]
        self._shared = False
        self._holes = False

    def copy(self) -> UnitTable:  # type: ignore[override]
        if self._holes:  # rebuild without holes, in the same order
            rest = dict(self)
            dict.clear(self)
            dict.update(self, rest)
            self._holes = False
        c = UnitTable.__new__(UnitTable)
        c._holes = False
        dict.update(c, self)
        c.of = self.of
        c.afloat = self.afloat
        c.afloat_all = self.afloat_all
        c.at = self.at
        c.memo = self.memo
        c._shared = self._shared = True
        return c

    def __reduce__(self) -> tuple[Any, ...]:
        return (UnitTable, (len(self.of), list(self.items())))

    def fleet_at(self, point: int, not_of: int) -> bool:
        """True if a seat other than ``not_of`` has units at ``point`` that are not landed."""
        return self.afloat_all.get(point, 0) > self.afloat[not_of].get(point, 0)

    def fleet_points(self, not_of: int) -> set[int]:
        """Points where a seat other than ``not_of`` has units that are not landed."""
        own = self.afloat[not_of]
        return {p for p, n in self.afloat_all.items() if n > own.get(p, 0)}
