"""Terminal rendering of a Rift Domination state with rich.

:func:`render` draws what one seat may see: the 6 x 5 grid of systems with their planets
and units, the players, that seat's own OCC hand and, while one runs, the battle. It reads
the state but never changes it, and shows nothing the seat's observation would hide
(other hands, unrevealed tile values, the deck order). Unit and upgrade ids are shortened
on the board to their shortest unique prefix (``3fig``, ``[mil]``), which the notation
accepts too, so cells fit 80 columns; :func:`legend` spells out every symbol and short name
the board shows.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .observe import phase_words

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")
GRID_W, GRID_H = 6, 5


def seat_style(seat: int) -> str:
    """The colour of ``seat`` on the board (no colour for unowned, -1)."""
    return SEAT_STYLES[seat % len(SEAT_STYLES)] if seat >= 0 else "dim"


TILE_CODES = {"civilized": "civ", "dangerous": "dan", "anomaly": "ano", "harvester": "har"}
"""Short board names of the condition tile kinds (RD-PLC-03)."""


def unit_codes(ids: list[str]) -> dict[str, str]:
    """Short board names of unit (or upgrade) ids: the shortest prefix of 3+ letters no
    other id shares (``fig`` fighter, ``car`` carrier, ``cor`` corvette); typed notation
    accepts them as prefixes (``recruit inf C3a``)."""
    out = {}
    for uid in ids:
        n = 3
        while n < len(uid) and any(o != uid and o.startswith(uid[:n]) for o in ids):
            n += 1
        out[uid] = uid[:n]
    return out


def _unit_counts(s: RiftState, points: set[int]) -> dict[int, Counter[str]]:
    codes = unit_codes(list(s.content.units))
    out: dict[int, Counter[str]] = {}
    for u in s.units.values():
        if u.loc in points:
            key = codes.get(u.kind, u.kind) + ("(l)" if u.landed else "")
            out.setdefault(u.owner, Counter())[key] += 1
    return out


def _units_text(counts: dict[int, Counter[str]]) -> Text:
    t = Text()
    for owner in sorted(counts):
        if t:
            t.append(" ")
        parts = " ".join(
            f"{n}{kind}" for kind, n in sorted(counts[owner].items())
        )
        t.append(f"P{owner}: ", style=seat_style(owner))
        t.append(parts)
    return t


def _planet_lines(s: RiftState, p: int) -> list[Text]:
    b = s.board
    owner = s.planet_owner[p]
    t = Text()
    t.append(b.planet_ids[p], style=seat_style(owner) if owner >= 0 else "bold")
    if b.planet_huge[p]:
        t.append("*", style="bold")
    if owner >= 0:
        t.append(f" P{owner}", style=seat_style(owner))
    if p in s.home:
        t.append(" home", style="italic")
    kind = s.tile_kind[p]
    if kind:
        t.append(f" {TILE_CODES.get(kind, kind)}" + (f"={s.tile_value[p]}" if s.tile_revealed[p] else "?"),
                 style="cyan" if s.tile_revealed[p] else "dim cyan")
    ups = s.planet_upgrades[p]
    if ups:
        codes = unit_codes(list(s.content.upgrades))
        t.append(" [" + ",".join(codes.get(u, u) for u in ups) + "]", style="magenta")
    orbit = b.planet_point[p]
    counts = _unit_counts(s, {orbit})
    if counts:
        return [t, Text(" ").append_text(_units_text(counts))]
    return [t]


def _system_cell(s: RiftState, si: int) -> RenderableType:
    b = s.board
    sid = b.system_ids[si]
    point = b.system_point[si]
    if point < 0:
        return Text(f"{sid}\n(out of play)", style="dim")
    owner = s.system_owner[si]
    head = Text(sid, style="bold underline")
    if owner >= 0:
        head.append(f" P{owner}", style=seat_style(owner))
    lines: list[RenderableType] = [head]
    for p in b.system_planets[si]:
        lines.extend(_planet_lines(s, p))
    others = {
        q for q in range(len(b.names))
        if b.system_of[q] == si and b.planet_of[q] < 0
    }
    counts = _unit_counts(s, others)
    if counts:
        lines.append(Text("at ").append_text(_units_text(counts)))
    return Group(*lines)


def board_table(s: RiftState) -> Table:
    """The systems on their grid (columns A-F, rows 1-5)."""
    b = s.board
    table = Table(show_header=True, show_lines=True, expand=True, pad_edge=False)
    by_pos: dict[tuple[int, int], int] = {}
    for si, sys_id in enumerate(b.system_ids):
        sysdef = s.content.systems[sys_id]
        by_pos[(sysdef.x, sysdef.y)] = si
    # Columns and rows wholly outside the play area (the small board) are left out.
    cols = [x for x in range(GRID_W)
            if any(b.system_point[by_pos[(x, y)]] >= 0 for y in range(GRID_H)
                   if (x, y) in by_pos)]
    rows = [y for y in range(GRID_H)
            if any(b.system_point[by_pos[(x, y)]] >= 0 for x in cols if (x, y) in by_pos)]
    for x in cols:
        table.add_column("ABCDEF"[x], justify="left", vertical="top", overflow="fold",
                         ratio=1)
    for y in rows:
        row: list[RenderableType] = []
        for x in cols:
            si = by_pos.get((x, y))
            row.append(Text("") if si is None else _system_cell(s, si))
        table.add_row(*row)
    border_units = {q for q in range(len(b.names)) if b.system_of[q] < 0}
    counts_by_point = [
        (b.names[q], _unit_counts(s, {q})) for q in sorted(border_units)
    ]
    moving = [(name, c) for name, c in counts_by_point if c]
    if moving:
        caption = Text("borders: ")
        for name, c in moving:
            caption.append(f"{name} ").append_text(_units_text(c)).append("  ")
        table.caption = caption
    return table


def legend(s: RiftState) -> Text:
    """What the board's symbols and short names mean (only those on the board now)."""
    ucodes = unit_codes(list(s.content.units))
    gcodes = unit_codes(list(s.content.upgrades))
    kinds = sorted({u.kind for u in s.units.values()})
    built = sorted({u for ups in s.planet_upgrades for u in ups})
    text = ("Legend: C3 system (column C, row 3), C3a and C3b its planets; * huge central "
            "planet (4 upgrade slots); P1 after a planet or system: its holder; home: a home "
            "planet; tiles civ civilized, dan dangerous, ano anomaly, har harvester (ano? "
            "hidden until taken, dan=4 once shown); P0: 3fig under a planet: P0's 3 "
            "fighters in its orbit, (l) landed on it; at: units at the system point; "
            "borders: units between two systems (C3|C4). Short names may be typed: recruit "
            "inf C3a.")
    if kinds:
        text += " Units: " + ", ".join(f"{ucodes[k]} {k}" for k in kinds) + "."
    if built:
        text += " Upgrades: " + ", ".join(f"{gcodes[u]} {u}" for u in built) + "."
    return Text(text, style="dim")


def players_table(s: RiftState, seat: int, spectator: bool = False) -> Table:
    """Faction, resources, income, VP/target, hand size and roster of every seat."""
    table = Table(title="Players", show_lines=False)
    for col in ("seat", "faction", "res", "income", "VP", "hand", "roster"):
        table.add_column(col)
    turn = s.seat if not s.is_terminal() else -1
    for i in range(s.n):
        fid = s.faction[i]
        fname = s.content.factions[fid].name if fid in s.content.factions else "-"
        marker = ">" if i == turn else " "
        who = Text(f"{marker}P{i}", style=seat_style(i))
        if i == seat and not spectator:
            who.append(" (you)")
        table.add_row(
            who, Text(fname), str(s.resources[i]), str(s.income[i]),
            f"{s.vp[i]}/{s.target_vp or '-'}", str(len(s.hands[i])),
            Text(", ".join(s.roster[i]) or "-"),
        )
    return table


def hand_table(s: RiftState, seat: int, spectator: bool = False) -> RenderableType:
    """``seat``'s own OCC-cards with their names and texts (the id is what ``play``
    takes)."""
    hand = s.hands[seat] if 0 <= seat < s.n else []
    if not hand:
        return Text(f"P{seat} holds no OCC-cards.", style="dim")
    whose = f"P{seat}'s" if spectator else f"Your (P{seat})"
    table = Table(title=f"{whose} OCC-cards (type: play ID)", show_lines=False)
    table.add_column("id", no_wrap=True)
    table.add_column("name")
    table.add_column("timing")
    table.add_column("text")
    for cid, n in sorted(Counter(hand).items()):
        card = s.content.cards.get(cid)
        label = cid + (f" x{n}" if n > 1 else "")
        if card is None:
            table.add_row(label, "?", "", "")
        else:
            table.add_row(Text(label), Text(card.name), Text(str(card.timing)),
                          Text(card.text))
    return table


def battle_panel(s: RiftState) -> RenderableType | None:
    """The running battle, if any: sides, phase, and every combatant's LP and shields."""
    b: Any = s.battle
    if b is None:
        return None
    try:
        seats = list(getattr(b, "seats", []))
        phase = getattr(b, "phase", None)
        from .battle_model import PHASES

        phase_name = PHASES[phase] if isinstance(phase, int) and 0 <= phase < 3 else phase
        kind = "ground" if getattr(b, "ground", False) else "space"
        point = getattr(b, "point", -1)
        where = s.board.names[point] if isinstance(point, int) and 0 <= point < len(
            s.board.names) else "?"
        title = f"{kind} battle at {where}, {phase_name} range"
        table = Table(title=title)
        table.add_column("side")
        table.add_column("combatants (LP/shields)")
        fighters = list(getattr(b, "fighters", {}).values())
        for side, seat in enumerate(seats[:2]):
            role = "attacker" if side == 0 else "defender"
            alive = Counter(f"{f.kind} {f.lp}/{f.sh}" for f in fighters
                            if f.side == side and f.alive)
            cells = [label + (f" x{k}" if k > 1 else "") for label, k in alive.items()]
            table.add_row(Text(f"{role} P{seat}", style=seat_style(seat)),
                          Text(", ".join(cells) or "(none left)"))
        pending = getattr(b, "pending", None)
        extra = []
        if pending is not None:
            extra.append(Text(f"waiting for P{pending[1]}: {pending[0]}", style="italic"))
        hits = getattr(b, "hits_left", 0)
        if hits:
            extra.append(Text(f"hits to assign: {hits} x {getattr(b, 'hit_dmg', 1)} damage"))
        return Panel(Group(table, *extra), border_style="red", expand=False)
    except Exception as e:  # a battle object of another shape: say so, do not crash the UI
        return Panel(Text(f"battle in progress ({type(e).__name__} while drawing it)"))


def status_line(s: RiftState) -> Text:
    """Round, phase, whose turn, pending decisions and set-up details."""
    t = Text(f"round {s.round}  {phase_words(s.phase)}  ", style="bold")
    if not s.is_terminal():
        t.append(f"turn P{s.seat}", style=seat_style(s.seat))
        cp = s.current_player()
        if cp != s.seat:
            t.append("  deciding ")
            t.append(f"P{cp}", style=seat_style(cp))
    if s.stack:
        t.append("  pending: " + ", ".join(d.kind for d in s.stack), style="italic")
    if s.tile_in_hand:
        t.append(f"  tile to place: {s.tile_in_hand[0]}")
    if s.faction_offer:
        offer = s.content.factions.get(s.faction_offer)
        t.append(f"  faction offered: {offer.name if offer else s.faction_offer}")
    if s.is_terminal():
        t.append(f"  game over ({s.end_reason})")
    return t


def render(state: RiftState, seat: int, spectator: bool = False) -> RenderableType:
    """Everything ``seat`` may see, as one rich renderable (``spectator``: an onlooker's
    view of that seat, nobody is "you")."""
    parts: list[RenderableType] = [
        status_line(state),
        board_table(state),
        legend(state),
        players_table(state, seat, spectator),
        hand_table(state, seat, spectator),
    ]
    bp = battle_panel(state)
    if bp is not None:
        parts.append(bp)
    return Group(*parts)
