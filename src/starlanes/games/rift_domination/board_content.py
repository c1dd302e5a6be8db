"""Rift Domination board content: the systems, planets and wormholes of a board file.

A board file (``board.toml``, ``board_classic.toml``; the game option ``board`` picks one,
:data:`BOARDS`) holds ``[[system]]``, ``[[planet]]`` and ``[[wormhole]]`` tables.
:func:`load_board` validates them with the models below and :func:`check_board`
cross-checks them (RD-SET-01..08
and the designed boards, ruling RD-OPEN-06); every problem raises
:class:`~starlanes.engine.errors.ContentError` naming the file, the entry and the key.
Reference: docs/content/rift-domination.md.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from starlanes.engine.content import ContentEntry, ContentFiles
from starlanes.engine.errors import ContentError

SYSTEM_COUNT = 30
PLANET_COUNT = 44
GRID_W, GRID_H = 6, 5
CENTRAL_SYSTEM = "C3"

#: Designed boards (game option ``board``), each a file of systems, planets and wormholes:
#: ``standard`` (board.toml) and ``classic`` (board_classic.toml, the first designed map).
BOARDS = {"standard": "board.toml", "classic": "board_classic.toml"}


class System(ContentEntry):
    """A system of the 6 x 5 grid: ``x`` column 0..5, ``y`` row 0..4 (its id is the column
    letter and row number), whether it is in the small area, its start colour, central."""

    id: str = Field(pattern=r"^[A-F][1-5]$")
    x: Annotated[int, Field(ge=0, lt=GRID_W)]
    y: Annotated[int, Field(ge=0, lt=GRID_H)]
    small_area: bool
    start: Literal["white", "yellow", ""] = ""
    central: bool = False

    @model_validator(mode="after")
    def _id_matches_position(self) -> System:
        if self.id != f"{'ABCDEF'[self.x]}{self.y + 1}":
            raise ValueError(f"id must be column letter + row number of x={self.x}, y={self.y}")
        return self


class Planet(ContentEntry):
    """A planet of a system (id: system id + letter)."""

    id: str = Field(pattern=r"^[A-F][1-5][a-d]$")
    system: str
    name: str = Field(min_length=1)
    huge: bool = False
    #: Neutral defenders: landing units this planet destroys while no player holds it
    #: (ruling RD-OPEN-25); designed per board, 0 on the classic board.
    garrison: Annotated[int, Field(ge=0)] = 0


class Wormhole(ContentEntry):
    """A wormhole joining systems ``a`` and ``b``."""

    id: str = Field(pattern=r"^W[1-9]$")
    a: str
    b: str


def _fail(file: str, msg: str) -> ContentError:
    return ContentError(f"{file}: {msg}")


def check_board(systems: dict[str, System], planets: dict[str, Planet],
                wormholes: dict[str, Wormhole], f: str = "board.toml") -> None:
    """Cross-check one board file ``f``: 30 systems, C3 the only central system and in the
    small area, yellow starts in the small area, 44 planets in known systems (C3's the
    only huge ones), 0-2 planets a system and 2 in every starting system, wormhole ends in
    known systems, at most one per system. Raises ContentError naming file, entry and key."""
    if len(systems) != SYSTEM_COUNT:
        raise _fail(f, f"needs exactly {SYSTEM_COUNT} systems, has {len(systems)}")
    central = [s.id for s in systems.values() if s.central]
    if central != [CENTRAL_SYSTEM]:
        raise _fail(f, f"exactly {CENTRAL_SYSTEM} must be central, found {central}")
    if not systems[CENTRAL_SYSTEM].small_area:
        raise _fail(f, f"the central system {CENTRAL_SYSTEM} must be in the small area")
    for s in systems.values():
        if s.start == "yellow" and not s.small_area:
            raise _fail(f, f"system {s.id!r}: a yellow start must be in the small area")
    if len(planets) != PLANET_COUNT:
        raise _fail(f, f"needs exactly {PLANET_COUNT} planets, has {len(planets)}")
    per_system: dict[str, int] = dict.fromkeys(systems, 0)
    for p in planets.values():
        if p.system not in systems:
            raise _fail(f, f"planet {p.id!r}: key 'system': unknown system {p.system!r}")
        if not p.id.startswith(p.system):
            raise _fail(f, f"planet {p.id!r}: id must start with its system id {p.system!r}")
        if p.huge != (p.system == CENTRAL_SYSTEM):
            raise _fail(f, f"planet {p.id!r}: exactly the planets of {CENTRAL_SYSTEM} are huge")
        per_system[p.system] += 1
    for sid, n in per_system.items():
        if not 0 <= n <= 2:
            raise _fail(f, f"system {sid!r} has {n} planets (needs 0, 1 or 2)")
        if systems[sid].start and n != 2:
            raise _fail(f, f"starting system {sid!r} needs 2 planets, has {n}")
    ends: set[str] = set()
    for w in wormholes.values():
        for key, end in (("a", w.a), ("b", w.b)):
            if end not in systems:
                raise _fail(f, f"wormhole {w.id!r}: key {key!r}: unknown system {end!r}")
            if end in ends:
                raise _fail(f, f"wormhole {w.id!r}: system {end!r} already has a wormhole end")
            ends.add(end)


def load_board(files: ContentFiles, board: str = "board.toml"
               ) -> tuple[dict[str, System], dict[str, Planet], dict[str, Wormhole]]:
    """The systems, planets and wormholes of board file ``board`` of ``files``, by id, each
    entry validated (cross-checked by :func:`check_board`, once the other files are read)."""
    return (files.table(board, "system", System), files.table(board, "planet", Planet),
            files.table(board, "wormhole", Wormhole))
