"""Galactic Domination content: units, board, mining yields, spinner and special costs.

The packaged TOML files live in ``content/`` (``units.toml``, ``board.toml``,
``economy.toml``). :func:`load_content` validates them with the models below and builds the
:class:`Board` tables the rules use (adjacency, zones, ranges, jump distances). Any problem
raises :class:`~starlanes.engine.errors.ContentError`. Reference:
docs/content/galactic-domination.md. Every number is ``source = "designed"`` unless the
rulebook prints it (rulings GD-OPEN-01, -02, -03, -05, -06, -08).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from starlanes.engine.content import ContentEntry, ContentFiles
from starlanes.engine.errors import ContentError

CONTENT_DIR = Path(__file__).with_name("content")
UNIT_IDS = ("command", "explorer", "miner", "destroyer", "raider")
COMMAND, EXPLORER, MINER, DESTROYER, RAIDER = range(5)
NonNeg = Annotated[int, Field(ge=0)]
Pos = Annotated[int, Field(ge=1)]
Range = Literal["sector_or_adjacent", "zone", "none", "adjacent_zones", "sector"]


class UnitType(ContentEntry):
    """One unit type of the unit list (Units; Ship Specifications)."""

    id: str
    letter: str = Field(pattern=r"^[A-Z]$")
    name: str = Field(min_length=1)
    ap: Pos
    text: str = ""
    damage: NonNeg
    range: Range
    shields: NonNeg
    hull: Pos
    cost: Pos
    special: Literal["fleet_jump", "warp", "attach", "black_hole", "none"]


class Zone(ContentEntry):
    id: str = Field(pattern=r"^[A-Z]$")
    number: Annotated[int, Field(ge=1, le=5)]
    color: str
    start: Literal[0, 1, 2] = 0


class Link(ContentEntry):
    id: str
    pairs: list[tuple[str, str]]


class Yield(ContentEntry):
    id: str
    text: str = ""
    miners: Pos
    per_miner: NonNeg


class Segment(ContentEntry):
    id: str
    text: str = ""
    weight: Pos
    minerals: NonNeg = 0
    dark_matter: NonNeg = 0


class Specials(ContentEntry):
    black_hole_minerals: NonNeg
    black_hole_dark_matter: NonNeg
    jump_minerals: NonNeg
    jump_range: Pos
    black_hole_markers: NonNeg


@dataclass(frozen=True, slots=True)
class Board:
    """Static board tables, shared by every state (Zones and Sectors; ruling GD-OPEN-03).

    Sectors are ints 0..14 (zone * 3 + row); ``reach[kind][sector]`` are the sectors a ship of
    that kind may attack from ``sector`` (GD-RNG-*); ``dist`` is the grid distance."""

    names: tuple[str, ...]
    index: dict[str, int]
    zone_of: tuple[int, ...]
    zone_ids: tuple[str, ...]
    zone_colors: tuple[str, ...]
    zone_sectors: tuple[tuple[int, ...], ...]
    adj: tuple[tuple[int, ...], ...]
    dist: tuple[tuple[int, ...], ...]
    reach: tuple[tuple[tuple[int, ...], ...], ...]
    start_zone: tuple[int, int]


@dataclass(frozen=True, slots=True)
class GDContent:
    """Everything loaded from the content files."""

    units: tuple[UnitType, ...]
    board: Board
    yields: tuple[int, ...]
    spinner: tuple[Segment, ...]
    spin_table: tuple[int, ...]
    specials: Specials
    yield_rows: tuple[Yield, ...] = ()
    fingerprint: str = ""

    def per_miner(self, n: int) -> int:
        """Minerals each of ``n`` miners attached to one planet gathers (GD-SPC-03)."""
        y = self.yields
        return y[min(n, len(y)) - 1] if n > 0 else 0


def _fail(path: Path | str, msg: str) -> ContentError:
    return ContentError(f"{Path(path).name}: {msg}")


def _build_board(files: ContentFiles) -> Board:
    path = "board.toml"
    zones = sorted(files.table(path, "zone", Zone).values(), key=lambda z: z.number)
    if [z.number for z in zones] != [1, 2, 3, 4, 5]:
        raise _fail(path, "needs exactly 5 zones numbered 1-5 (GD-MAP-01)")
    names = tuple(f"{z.id}{r}" for z in zones for r in (1, 2, 3))
    index = {n: i for i, n in enumerate(names)}
    zone_of = tuple(i // 3 for i in range(15))
    nbrs: list[set[int]] = [set() for _ in range(15)]
    for link in files.table(path, "link", Link).values():
        for a, b in link.pairs:
            if a not in index or b not in index or a == b:
                raise _fail(path, f"entry {link.id!r}: key 'pairs': bad sector pair "
                                  f"{a!r}-{b!r} (sectors are zone id + 1..3, e.g. A1)")
            nbrs[index[a]].add(index[b])
            nbrs[index[b]].add(index[a])
    adj = tuple(tuple(sorted(s)) for s in nbrs)
    dist = []
    for src in range(15):
        d = [-1] * 15
        d[src] = 0
        q = deque([src])
        while q:
            x = q.popleft()
            for y in adj[x]:
                if d[y] < 0:
                    d[y] = d[x] + 1
                    q.append(y)
        if min(d) < 0:
            raise _fail(path, "the sectors are not all connected")
        dist.append(tuple(d))
    zone_sectors = tuple(tuple(range(z * 3, z * 3 + 3)) for z in range(5))
    reach_by_range: dict[str, list[tuple[int, ...]]] = {}
    for s in range(15):
        z = zone_of[s]
        near_zones = sorted({zone_of[t] for t in adj[s]} - {z})
        reach_by_range.setdefault("sector", []).append((s,))
        reach_by_range.setdefault("sector_or_adjacent", []).append((s, *adj[s]))
        reach_by_range.setdefault("zone", []).append(zone_sectors[z])
        reach_by_range.setdefault("adjacent_zones", []).append(
            tuple(t for nz in near_zones for t in zone_sectors[nz]))
        reach_by_range.setdefault("none", []).append(())
    starts = {z.start: z.number - 1 for z in zones if z.start}
    if set(starts) != {1, 2}:
        raise _fail(path, "needs one start zone for player 1 and one for player 2")
    return Board(
        names=names, index=index, zone_of=zone_of,
        zone_ids=tuple(z.id for z in zones), zone_colors=tuple(z.color for z in zones),
        zone_sectors=zone_sectors, adj=adj, dist=tuple(dist),
        reach=tuple(tuple(v) for v in (reach_by_range[k] for k in (
            "sector_or_adjacent", "zone", "none", "adjacent_zones", "sector"))),
        start_zone=(starts[1], starts[2]),
    )


RANGE_ORDER = ("sector_or_adjacent", "zone", "none", "adjacent_zones", "sector")


FILES = ("units.toml", "board.toml", "economy.toml")
"""The content files, by name (an override directory may hold any of them)."""


def load_content(override_dir: Path | None = None, overrides: tuple[str, ...] = ()
                 ) -> GDContent:
    """Load and cross-check all content: the packaged files merged with ``override_dir``'s
    files and the dotted ``overrides`` (see :class:`~starlanes.engine.content.ContentFiles`).
    The packaged content is cached."""
    if override_dir is None and not overrides:
        return _load_default()
    return _load(ContentFiles(CONTENT_DIR, FILES, override_dir, overrides))


@lru_cache(maxsize=1)
def _load_default() -> GDContent:
    return _load(ContentFiles(CONTENT_DIR, FILES))


def _load(files: ContentFiles) -> GDContent:
    upath = "units.toml"
    units = files.table(upath, "unit", UnitType)
    if tuple(units) != UNIT_IDS:
        raise _fail(upath, f"needs exactly the units {', '.join(UNIT_IDS)} in that order")
    epath = "economy.toml"
    yields = sorted(files.table(epath, "yield", Yield).values(), key=lambda y: y.miners)
    if [y.miners for y in yields] != list(range(1, len(yields) + 1)):
        raise _fail(epath, "yield rows must cover 1, 2, ... miners without gaps")
    spinner = tuple(files.table(epath, "segment", Segment).values())
    specials = files.single(epath, "specials", Specials)
    spin_table = tuple(i for i, seg in enumerate(spinner) for _ in range(seg.weight))
    return GDContent(
        units=tuple(units.values()), board=_build_board(files),
        yields=tuple(y.per_miner for y in yields), spinner=spinner, spin_table=spin_table,
        specials=specials, yield_rows=tuple(yields), fingerprint=files.fingerprint,
    )
