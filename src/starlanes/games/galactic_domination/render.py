"""Terminal rendering of a Galactic Domination state with rich.

:func:`render` draws the board as 5 zone columns of 3 sectors (planet or black hole, the
ships there with shields/hull and AP left, miners marked attached), then each player's
minerals, dark matter and ships in deep space. The game has no hidden information, so every
seat sees the same board; ``seat`` only marks whose view it is. It never changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .content import UNIT_IDS
from .state import AP, ATT, CHG, HULL, KIND, OWNER, SEC, SH

if TYPE_CHECKING:  # pragma: no cover
    from .state import GDState

SEAT_STYLES = ("bold red", "bold magenta")
ZONE_STYLES = {"red": "red", "orange": "dark_orange", "green": "green", "blue": "blue",
               "purple": "magenta"}


def _ship_text(s: GDState, uid: int) -> Text:
    x = s.ships[uid]
    t = Text()
    letter = s.content.units[x[KIND]].letter
    style = SEAT_STYLES[0 if x[OWNER] == s.first else 1]
    t.append(f"P{x[OWNER]} {letter}{uid}", style=style)
    t.append(f" {x[SH]}/{x[HULL]} ap{x[AP]}")
    if x[ATT]:
        t.append(" att", style="yellow")
    if x[CHG]:
        t.append(" charging" if x[CHG] == 1 else " CHARGED", style="bold cyan")
    if uid == s.active:
        t.append(" *", style="bold")
    return t


def board_table(s: GDState) -> Table:
    """The 5 zones as columns, sectors 1-3 as rows."""
    b = s.board
    table = Table(title=f"Galactic Domination - round {s.round}", show_lines=True)
    for z in range(5):
        color = b.zone_colors[z]
        mark = ""
        if z == s.start[s.first]:
            mark = " (P1 start)"
        elif z == s.start[1 - s.first]:
            mark = " (P2 start)"
        table.add_column(f"{b.zone_ids[z]} {color}{mark}", style=ZONE_STYLES.get(color, ""))
    for row in range(3):
        cells = []
        for z in range(5):
            sec = b.zone_sectors[z][row]
            cell = Text(b.names[sec] + (" BLACK HOLE" if s.holes[sec] else " planet"),
                        style="bold white on black" if s.holes[sec] else "bold")
            for uid in sorted(u for u, x in s.ships.items() if x[SEC] == sec):
                cell.append("\n")
                cell.append_text(_ship_text(s, uid))
            cells.append(cell)
        table.add_row(*cells)
    return table


def players_table(s: GDState, seat: int) -> Table:
    table = Table(title="Players")
    for col in ("seat", "minerals", "dark matter", "fleet", "deep space"):
        table.add_column(col)
    for p in (0, 1):
        n = s.fleet_counts(p)
        fleet = " ".join(f"{n[k]}{s.content.units[k].letter}" for k in range(5))
        deep = ", ".join(f"{UNIT_IDS[x[KIND]]} {u} {x[SH]}/{x[HULL]}"
                         for u, x in sorted(s.ships.items()) if x[OWNER] == p and x[SEC] < 0)
        name = s.seat_name(p) + (" (you)" if p == seat else "") + (" to act" if p == s.seat else "")
        table.add_row(Text(name, style=SEAT_STYLES[0 if p == s.first else 1]),
                      str(s.minerals[p]), str(s.dark[p]), fleet, deep or "-")
    return table


def render(state: GDState, seat: int) -> RenderableType:
    """The board, the players and (when over) the result, as seen by ``seat``."""
    s = state
    parts: list[RenderableType] = [board_table(s), players_table(s, seat)]
    if s.stack:
        d = s.stack[-1]
        parts.append(Text(f"pending: P{d.seat} decides {d.kind}", style="bold yellow"))
    if s.is_terminal():
        parts.append(Text(f"game over ({s.end_reason}); winners: "
                          + (", ".join(f"P{w}" for w in s.winners) or "none"), style="bold"))
    return Group(*parts)
