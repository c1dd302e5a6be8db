"""Terminal rendering of an Interstellar Ambitions state with rich.

:func:`render` draws what one seat may see: the ambitions and their claims, the face-up
techs, mercs and planets, every player's board (resources, planets, fleet, tokens, techs,
medals, hand size) and that seat's own hand, its Buy offer and the combat in progress.
It reads only :meth:`IAState.observation`, so it can show nothing the seat may not see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState

SEAT_STYLES = ("bold blue", "bold red", "bold green", "bold yellow", "bold magenta", "bold cyan")


def _central(obs: dict[str, Any]) -> Table:
    t = Table(title="Central area", show_header=False, expand=True)
    t.add_column("what", style="bold")
    t.add_column("cards")
    t.add_row("Ambitions", ", ".join(
        f"{a['id']}[{' '.join('P' + str(x) for x in a['claims'])}]" for a in obs["ambitions"]))
    t.add_row("Techs", ", ".join(x or "-" for x in obs["tech_slots"]))
    t.add_row("Mercs", ", ".join(x or "-" for x in obs["merc_slots"]))
    kinds = ("food", "ore", "science", "coin")
    t.add_row("Planets", "; ".join(
        f"{k}: {', '.join(p or '-' for p in slots)}"
        for k, slots in zip(kinds, obs["planet_slots"], strict=True)))
    ds = obs["deck_sizes"]
    planets = ds["planets"]
    if isinstance(planets, list | tuple):
        planets = ", ".join(f"{k} {n}" for k, n in zip(kinds, planets, strict=False))
    t.add_row("Decks", f"shadow {ds['shadow']}, tech {ds['tech']}, merc {ds['merc']}, "
                       f"emergency {ds['emergency']}, colony {ds['colony']}; "
                       f"planets: {planets}")
    return t


def _players(obs: dict[str, Any], seat: int = -1) -> RenderableType:
    """One small two-column table per player, so long lists wrap between items at any
    width instead of being cut."""
    blocks: list[RenderableType] = [
        Text(f"Round {obs['round']} - P{obs['turn']} to play", style="bold")]
    for p in obs["players"]:
        r = p["resources"]
        t = Table(show_header=False, box=None, expand=True, padding=(0, 1))
        t.add_column("what", style="bold", no_wrap=True, width=8)
        t.add_column("value", overflow="fold", ratio=1)
        owned = set(p["owned_techs"])
        t.add_row("F/O/S/C", f"{r['food']}/{r['ore']}/{r['science']}/{r['coin']}   medals "
                  f"F{p['medals']['fleet']} S{p['medals']['shadow']}   hand {p['hand_size']}")
        t.add_row("planets", ", ".join(f"{x['id']}:{x['level']}/{x['max']}"
                                       + ("+" * len(x["markers"])) for x in p["planets"]))
        t.add_row("fleet", ", ".join(
            x["id"] + (f"({x['damage']})" if x["damage"] else "") for x in p["ships"]) or "-")
        t.add_row("tokens", ", ".join(p["tokens"] + [f"pool {p['pool']}"]))
        t.add_row("techs", ", ".join(x + ("*" if x in owned else "") for x in p["techs"])
                  or "-")
        you = " (you)" if p["seat"] == seat else ""
        blocks.append(Panel(t, title=Text(f"P{p['seat']}{you}",
                                          style=SEAT_STYLES[p["seat"] % 6]),
                            title_align="left", padding=(0, 0)))
    return Group(*blocks)


LEGEND = (
    "Legend: F/O/S/C = food/ore/science/coin held. Planets id:level/max (a planet scores "
    "its VP only at its max level; + = a kept colony event marker). Fleet: ship id, (n) = "
    "n damage markers. Tokens action:level on the Action Track (basic, moderate, strong, "
    "ultimate); pool = tokens waiting to be planned. tech* = that "
    "player owns it (its VP are theirs; the others only know it). Medals F fleet, S shadow. Ambitions id[seats in claim order: 1st 12 VP, 2nd "
    "6 VP, later 3 VP]. Ids in the lists are what you type."
)
"""The legend printed under the board."""


def render(state: IAState, seat: int, spectator: bool = False) -> RenderableType:
    """The table as ``seat`` may see it (``spectator``: an onlooker following ``seat``, as
    in ``replay --step``; nobody is "you")."""
    obs = state.observation(seat)
    parts: list[RenderableType] = [_central(obs), _players(obs, -1 if spectator else seat)]
    me = obs["players"][seat]
    parts.append(Panel(_cards(state, me["hand"] or []) or "(empty)", title=f"P{seat}'s hand"))
    if obs["offer"]:
        parts.append(Panel(_cards(state, obs["offer"]), title="Shadow cards offered"))
    cb = obs["combat"]
    if cb:
        lines = [f"{cb['kind']}: P{cb['attacker']} vs P{cb['defender']} ({cb['stage']})"]
        for k, v in cb["orders"].items():
            lines.append(f"P{k} order: {', '.join(v) or '-'}")
        if cb["totals"] != [0, 0]:
            lines.append(f"totals {cb['totals'][0]} vs {cb['totals'][1]}")
        parts.append(Panel("\n".join(lines), title="Combat"))
    if obs["pending"]:
        from .refuse import KIND_WORDS

        kind = obs["pending"]["kind"]
        parts.append(Text(f"waiting for P{obs['pending']['seat']}: "
                          f"{KIND_WORDS.get(kind, kind)}"))
    if obs["terminal"]:
        parts.append(Text(f"game over ({obs['end_reason']}), winners {obs['winners']}",
                          style="bold"))
    parts.append(Text(LEGEND, style="dim"))
    return Group(*parts)


def _cards(state: IAState, ids: list[str]) -> str:
    """Shadow cards as ``Red Tape (red_tape)``: the name and the id a user types."""
    return ", ".join(f"{state.content.shadow[i].name} ({i})" for i in ids)
