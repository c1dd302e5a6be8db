"""The Rift Domination board as a graph of points.

Rulebook, MOVEMENT: "Every bright point on the gameboard is a place you can move to
(Systems, borders and planets)" and "From point to point: costs 1 movement point". The
designed graph (docs/rulings/rift-domination.md, RD-OPEN-06) makes the printed distances
hold with every edge costing 1:

* a system point connects to its planets' orbits, to the system points of the orthogonally
  adjacent systems (RD-MOV-04/05: "one movement point to travel to a different system") and
  to the border points of its system;
* the orbits of one system connect to each other (RD-MOV-02: planet to planet, 1);
* a border point between systems X and Y connects to both system points and to every orbit
  of X and Y, so a planet in another system is 2 away: orbit, border, orbit (RD-MOV-03);
* with the Timewarper in play, each wormhole end connects to its system point and to the
  other end (reach 1, pass 1, RD-MOV-15); for the Timewarper the system point also connects
  straight to the far end (reach and pass for 1, RD-MOV-16).

Boards are static and shared by every state; build them with :func:`board_for`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlanes.engine.game import per_content

from .content import RiftContent

if TYPE_CHECKING:
    from .game import RiftDomination

SYSTEM, ORBIT, BORDER, WORMHOLE = 0, 1, 2, 3
KIND_NAMES = ("system", "orbit", "border", "wormhole")


@dataclass(frozen=True, eq=False)
class Board:
    """Points, edges and lookups of one board variant (play area x wormholes).

    Point indices are ints; ``names[p]`` is the point's notation ("C3" system point, "C3a"
    planet orbit, "C3|C4" border, "W1a" wormhole end). Planet indices follow the content's
    planet order (0..43); ``planet_point[i]`` is the orbit of planet i or -1 when the planet is
    outside the play area.
    """

    names: tuple[str, ...]
    kind: tuple[int, ...]
    system_of: tuple[int, ...]  # system index of a point; -1 for borders
    planet_of: tuple[int, ...]  # planet index of an orbit point, else -1
    neighbors: tuple[tuple[int, ...], ...]
    warp_neighbors: tuple[tuple[int, ...], ...]  # Timewarper's extra wormhole shortcuts
    index: dict[str, int]
    system_ids: tuple[str, ...]
    system_point: tuple[int, ...]  # system index -> point (-1 if out of play)
    system_planets: tuple[tuple[int, ...], ...]  # system index -> planet indices in play
    planet_ids: tuple[str, ...]
    planet_point: tuple[int, ...]
    planet_system: tuple[int, ...]
    planet_huge: tuple[bool, ...]
    start_systems: tuple[int, ...]
    adjacent_systems: tuple[tuple[int, ...], ...]
    small: bool
    wormholes: bool
    in_play_planets: tuple[int, ...] = ()
    planet_garrison: tuple[int, ...] = ()  # neutral defenders per planet (RD-OPEN-25)
    # derived lookups the rules build once per board (e.g. the move actions of a stack)
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def distance(self, a: int, b: int) -> int:
        """Shortest number of movement points between points ``a`` and ``b`` (BFS)."""
        if a == b:
            return 0
        seen = {a}
        frontier = [a]
        d = 0
        while frontier:
            d += 1
            nxt = []
            for p in frontier:
                for q in self.neighbors[p]:
                    if q == b:
                        return d
                    if q not in seen:
                        seen.add(q)
                        nxt.append(q)
            frontier = nxt
        return 10**6



def _build(content: RiftContent, small: bool, wormholes: bool) -> Board:
    systems = list(content.systems.values())
    sys_ids = tuple(s.id for s in systems)
    sys_index = {s.id: i for i, s in enumerate(systems)}
    pos = {(s.x, s.y): i for i, s in enumerate(systems)}
    active = [(not small) or s.small_area for s in systems]
    planets = list(content.planets.values())

    names: list[str] = []
    kind: list[int] = []
    system_of: list[int] = []
    planet_of: list[int] = []
    index: dict[str, int] = {}

    def add(name: str, k: int, s: int, pl: int) -> int:
        index[name] = len(names)
        names.append(name)
        kind.append(k)
        system_of.append(s)
        planet_of.append(pl)
        return index[name]

    system_point = [-1] * len(systems)
    for i, s in enumerate(systems):
        if active[i]:
            system_point[i] = add(s.id, SYSTEM, i, -1)
    planet_point = [-1] * len(planets)
    planet_system = [sys_index[p.system] for p in planets]
    sys_planets: list[list[int]] = [[] for _ in systems]
    for j, p in enumerate(planets):
        si = planet_system[j]
        if active[si]:
            planet_point[j] = add(p.id, ORBIT, si, j)
            sys_planets[si].append(j)
    adjacent: list[list[int]] = [[] for _ in systems]
    for i, s in enumerate(systems):
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            k = pos.get((s.x + dx, s.y + dy))
            if k is not None and active[i] and active[k]:
                adjacent[i].append(k)
    edges: set[tuple[int, int]] = set()

    def link(a: int, b: int) -> None:
        edges.add((a, b) if a < b else (b, a))

    for i in range(len(systems)):
        if not active[i]:
            continue
        sp = system_point[i]
        orbits = [planet_point[j] for j in sys_planets[i]]
        for o in orbits:
            link(sp, o)
        for a in range(len(orbits)):
            for b in range(a + 1, len(orbits)):
                link(orbits[a], orbits[b])
        for k in adjacent[i]:
            link(sp, system_point[k])
            if i < k:
                bp = add(f"{sys_ids[i]}|{sys_ids[k]}", BORDER, -1, -1)
                for side in (i, k):
                    link(bp, system_point[side])
                    for j in sys_planets[side]:
                        link(bp, planet_point[j])
    shortcuts: list[tuple[int, int]] = []
    if wormholes:
        for w in content.wormholes.values():
            ia, ib = sys_index[w.a], sys_index[w.b]
            if not (active[ia] and active[ib]):
                continue
            pa = add(f"{w.id}a", WORMHOLE, ia, -1)
            pb = add(f"{w.id}b", WORMHOLE, ib, -1)
            link(pa, system_point[ia])
            link(pb, system_point[ib])
            link(pa, pb)
            shortcuts.append((system_point[ia], pb))
            shortcuts.append((system_point[ib], pa))
    n = len(names)
    nb: list[list[int]] = [[] for _ in range(n)]
    for a, b in sorted(edges):
        nb[a].append(b)
        nb[b].append(a)
    warp: list[list[int]] = [list(x) for x in nb]
    for a, b in shortcuts:
        warp[a].append(b)
    starts = tuple(
        i for i, s in enumerate(systems)
        if active[i] and s.start == ("yellow" if small else "white")
    )
    return Board(
        names=tuple(names), kind=tuple(kind), system_of=tuple(system_of),
        planet_of=tuple(planet_of), neighbors=tuple(tuple(x) for x in nb),
        warp_neighbors=tuple(tuple(x) for x in warp), index=index, system_ids=sys_ids,
        system_point=tuple(system_point),
        system_planets=tuple(tuple(x) for x in sys_planets),
        planet_ids=tuple(p.id for p in planets), planet_point=tuple(planet_point),
        planet_system=tuple(planet_system), planet_huge=tuple(p.huge for p in planets),
        start_systems=starts, adjacent_systems=tuple(tuple(x) for x in adjacent),
        small=small, wormholes=wormholes,
        in_play_planets=tuple(i for i, p in enumerate(planet_point) if p >= 0),
        planet_garrison=tuple(p.garrison for p in planets),
    )


def _without_wormholes(game: RiftDomination) -> Board:
    return _build(game.content, game.players <= 4, False)


def _with_wormholes(game: RiftDomination) -> Board:
    return _build(game.content, game.players <= 4, True)


def board_for(game: RiftDomination, wormholes: bool) -> Board:
    """The board of ``game``'s content for its player count (RD-SET-07: 4 or fewer use the
    small area), with or without wormholes (RD-MOV-14: only when the Timewarper plays);
    built once per content and player count through :func:`~starlanes.engine.game.per_content`."""
    return per_content(game, _with_wormholes if wormholes else _without_wormholes)
