"""Terminal rendering of a Galactic Domination state with rich.

:func:`render` draws the board as 5 zone columns of 3 sectors (planet or black hole, the
ships there), a legend of the symbols, then each player's minerals, dark matter and ships
in deep space. Players are called by colour (red is player 1, purple player 2) so that a
seat is never confused with sector P1; ships show their number (``r#5``: red's ship 5,
typed ``5`` in actions such as ``attack 5 8``). The game has no hidden information, so
every seat sees the same board; ``seat`` only marks whose view it is ("you"), which a
spectator view leaves out. It never changes the state.

The drawing is made for the terminal table's compact redraw (only the lines that changed
since a seat's last decision are shown again): the zone columns share the width equally
whatever ships they hold, so a ship that moves changes only the lines it leaves and enters;
a ship's action points are shown only for the player whose turn it is, once some are
spent (every turn refills them, which would otherwise change every line of the board); the players are a plain table of three
lines. A whole board with a full fleet on each side, its legend and the players fit in
about 30 rows of a 120-column terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
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


def colour(s: GDState, seat: int) -> str:
    return "red" if seat == s.first else "purple"


def _style(s: GDState, seat: int) -> str:
    return SEAT_STYLES[0 if seat == s.first else 1]


def _ship_text(s: GDState, uid: int) -> Text:
    """``r#5 R 2/5 a1`` (+ ``att``, ``chg``/``CHG``, ``*``): owner initial and ship number,
    type letter, shields/hull, and (a ship of the player whose turn it is) the AP left
    once some of this turn's are spent."""
    x = s.ships[uid]
    t = Text()
    letter = s.content.units[x[KIND]].letter
    t.append(f"{colour(s, x[OWNER])[0]}#{uid}", style=_style(s, x[OWNER]))
    t.append(f" {letter} {x[SH]}/{x[HULL]}")
    if x[OWNER] == s.seat and x[AP] < s.max_ap[x[KIND]]:
        t.append(f" a{x[AP]}")
    if x[ATT]:
        t.append(" att", style="yellow")
    if x[CHG]:
        t.append(" chg" if x[CHG] == 1 else " CHG", style="bold cyan")
    if uid == s.active:
        t.append(" *", style="bold")
    return t


def board_table(s: GDState) -> Table:
    """The 5 zones as columns of equal width (the whole width of the console, whatever
    ships they hold), sectors 1-3 as rows; the title names the round and the start
    zones."""
    b = s.board
    starts = (f"red starts in {b.zone_ids[s.start[s.first]]}, purple in "
              f"{b.zone_ids[s.start[1 - s.first]]}")
    table = Table(title=f"Galactic Domination - round {s.round} - {starts}",
                  show_lines=True, box=box.SQUARE, padding=(0, 0), pad_edge=False,
                  expand=True)
    for z in range(5):
        color = b.zone_colors[z]
        table.add_column(f"{b.zone_ids[z]} {color}", style=ZONE_STYLES.get(color, ""),
                         overflow="fold", ratio=1)
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


def legend(s: GDState) -> Text:
    """What the board's symbols mean."""
    letters = ", ".join(f"{u.letter} {u.name}" for u in s.content.units)
    return Text(
        "Legend: columns are zones, sectors are zone letter + row (R1 ... P3). "
        "r#5 / p#5: red's / purple's ship 5, typed 5 in actions (attack 5 8). "
        f"{letters}. 2/5: shields/hull left; a1: action points left this turn (shown once "
        "the player to act has spent some); att: miner attached to the planet; chg: charging; CHG: charged, "
        "fires or jumps this turn; *: the ship acting now. At most 3 ships a sector "
        "besides miners.",
        style="dim")


def players_table(s: GDState, seat: int, spectator: bool = False) -> Table:
    """One line per player under a header line: minerals, dark matter, ships by type and
    the ships in deep space (no frame, so the three lines are all it takes)."""
    table = Table(box=None, padding=(0, 2, 0, 0), header_style="bold")
    for col in ("player", "minerals", "dark matter", "fleet", "deep space"):
        table.add_column(col)
    for p in (s.first, 1 - s.first):
        n = s.fleet_counts(p)
        fleet = " ".join(f"{n[k]}{s.content.units[k].letter}" for k in range(5))
        deep = ", ".join(f"#{u} {UNIT_IDS[x[KIND]]} {x[SH]}/{x[HULL]}"
                         for u, x in sorted(s.ships.items()) if x[OWNER] == p and x[SEC] < 0)
        name = (s.seat_name(p) + (" you" if p == seat and not spectator else "")
                + (" to act" if p == s.seat and not s.is_terminal() else ""))
        table.add_row(Text(name, style=_style(s, p)),
                      str(s.minerals[p]), str(s.dark[p]), fleet, deep or "-")
    return table


def render(state: GDState, seat: int, spectator: bool = False) -> RenderableType:
    """The board, its legend, the players and (when over) the result, as seen by ``seat``
    (``spectator``: an onlooker, nobody is "you")."""
    s = state
    parts: list[RenderableType] = [board_table(s), legend(s),
                                   players_table(s, seat, spectator)]
    if s.stack:
        d = s.stack[-1]
        what = {"arrive": "where the returning explorer arrives",
                "collide": "which ship is lost in the collision"}.get(d.kind, d.kind)
        parts.append(Text(f"pending: {s.seat_name(d.seat)} decides {what}",
                          style="bold yellow"))
    if s.is_terminal():
        parts.append(Text(f"game over ({s.end_reason}); winners: "
                          + (", ".join(s.seat_name(w) for w in s.winners) or "none"),
                          style="bold"))
    return Group(*parts)
