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
    t.add_row("Decks", f"shadow {ds['shadow']}, tech {ds['tech']}, merc {ds['merc']}, "
                       f"emergency {ds['emergency']}, colony {ds['colony']}, "
                       f"planets {ds['planets']}")
    return t


def _players(obs: dict[str, Any]) -> Table:
    t = Table(title=f"Round {obs['round']} - P{obs['turn']} to play", expand=True)
    for col in ("seat", "F/O/S/C", "planets", "fleet", "tokens", "techs", "medals", "hand"):
        t.add_column(col)
    for p in obs["players"]:
        r = p["resources"]
        t.add_row(
            Text(f"P{p['seat']}", style=SEAT_STYLES[p["seat"] % 6]),
            f"{r['food']}/{r['ore']}/{r['science']}/{r['coin']}",
            ", ".join(f"{x['id']}:{x['level']}/{x['max']}" for x in p["planets"]),
            ", ".join(x["id"] + (f"({x['damage']})" if x["damage"] else "") for x in p["ships"]),
            ", ".join(p["tokens"]) + f" pool {p['pool']}",
            ", ".join(p["techs"]),
            f"F{p['medals']['fleet']} S{p['medals']['shadow']}",
            str(p["hand_size"]),
        )
    return t


def render(state: IAState, seat: int) -> RenderableType:
    """The table as ``seat`` may see it."""
    obs = state.observation(seat)
    parts: list[RenderableType] = [_central(obs), _players(obs)]
    me = obs["players"][seat]
    parts.append(Panel(", ".join(me["hand"] or []) or "(empty)", title=f"P{seat}'s hand"))
    if obs["offer"]:
        parts.append(Panel(", ".join(obs["offer"]), title="Shadow cards offered"))
    cb = obs["combat"]
    if cb:
        lines = [f"{cb['kind']}: P{cb['attacker']} vs P{cb['defender']} ({cb['stage']})"]
        for k, v in cb["orders"].items():
            lines.append(f"P{k} order: {', '.join(v) or '-'}")
        if cb["totals"] != [0, 0]:
            lines.append(f"totals {cb['totals'][0]} vs {cb['totals'][1]}")
        parts.append(Panel("\n".join(lines), title="Combat"))
    if obs["pending"]:
        parts.append(Text(f"waiting for P{obs['pending']['seat']}: {obs['pending']['kind']}"))
    if obs["terminal"]:
        parts.append(Text(f"game over ({obs['end_reason']}), winners {obs['winners']}",
                          style="bold"))
    return Group(*parts)
