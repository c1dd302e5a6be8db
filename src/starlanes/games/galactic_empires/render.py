"""Terminal rendering of a Galactic Empires state with rich.

:func:`render` draws what one seat may see: each player's Sector HQ, hand and reserve
sizes, every fleet with its cards in play (Engaged or Disengaged, damage, attachments),
the cards played against each fleet, the turn's point pool, and that seat's own hand and
reserve. It never shows another seat's hand or reserve or the order of a deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .observe import phase_words
from .state import HQ_LIMIT, POOL_NAMES
from .texts import card_summary, display

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState

LEGEND = (
    "Legend: cards show [type] Name (id#n); type the id#n part. Types: T terrain, S ship, "
    "B base, C crew, E equipment, O occurrence, H hazard, M monster, D space dragon. str = "
    "strength; weapons P phaser, W subspace whip, F physical attack, T trans-warp missile, "
    "B dragon breath, V variplaz, X distortion cannon (T, B, V, X are heavy and need "
    "ammo). dmg s/d = shield damage / structural damage; res = research points on a "
    "monster; ammo and nrg = points given this turn; engaged units fire and use functions, "
    "disengaged ones do not. 'on it' = crew or equipment on the unit above; 'against it' "
    "= hazards, monsters and lasting cards played on that fleet. HQ n/25 = Sector HQ "
    "damage (25 eliminates)."
)
"""The legend printed under the board."""

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")


def _card_line(s: GEState, inst: int) -> Text:
    u = s.units[inst]
    c = s.card(inst)
    t = Text()
    t.append(f"[{c.type}] ", style="dim")
    t.append(c.name, style="bold" if u.engaged else "dim")
    t.append(f" ({s.name(inst)})")
    bits = []
    if c.strength:
        bits.append(f"str {c.strength}")
    if c.weapons:
        bits.append(c.weapons)
    if u.sdmg or u.dmg or u.rdmg:
        bits.append(f"dmg {u.sdmg}/{u.dmg}" + (f" res {u.rdmg}" if u.rdmg else ""))
    if u.ammo or u.charge:
        bits.append(f"ammo {u.ammo} nrg {u.charge}")
    if u.left > 0:
        bits.append(f"{u.left} turns")
    if c.type in "SBD":
        bits.append("engaged" if u.engaged else "disengaged")
    if bits:
        t.append(" (" + ", ".join(bits) + ")", style="italic")
    return t


def _fleet(s: GEState, seat: int) -> RenderableType:
    lines: list[Text] = []
    for i, u in sorted(s.units.items()):
        if u.owner == seat and u.host < 0 and u.against < 0:
            if u.partner >= 0 and i > u.partner:
                continue
            lines.append(_card_line(s, i))
            if u.partner >= 0:
                lines.append(Text("  + ").append(_card_line(s, u.partner)))
            for j, v in sorted(s.units.items()):
                if v.host in (i, u.partner) and v.host >= 0:
                    lines.append(Text("    on it: ").append(_card_line(s, j)))
    against = [i for i, u in sorted(s.units.items()) if u.against == seat]
    for i in against:
        lines.append(Text(f"  against it (P{s.units[i].owner}): ").append(_card_line(s, i)))
    title = f"P{seat} fleet - HQ {s.hq[seat]}/{HQ_LIMIT}" + ("" if s.alive[seat] else " (out)")
    return Panel(Group(*lines) if lines else Text("(empty)", style="dim"), title=title,
                 border_style=SEAT_STYLES[seat % len(SEAT_STYLES)])


def _hand(s: GEState, title: str, cards: list[int]) -> Text:
    """A hand with every card's text: ``[T] Gas Giant (gas_giant#26): terrain, Generic;
    strength 5; generates 2 energy. ...`` one card a line (what it does, before playing)."""
    t = Text(f"{title}:" + ("" if cards else " empty"))
    for inst in cards:
        c = s.card(inst)
        t.append(f"\n  [{c.type}] ", style="dim")
        t.append(c.name, style="bold")
        t.append(f" ({s.name(inst)}): ")
        t.append(card_summary(c, s.content))
    return t


def render(state: GEState, seat: int, spectator: bool = False) -> RenderableType:
    """The table as ``seat`` may see it (``spectator``: an onlooker following ``seat``, as in
    ``replay --step``; nobody is "you")."""
    s = state
    head = Table(title=f"Galactic Empires - turn {s.round}, P{s.seat} to play, "
                       f"{phase_words(s.phase)}")
    for col in ("seat", "major", "HQ damage", "hand", "reserve", "deck"):
        head.add_column(col)
    for i in range(s.n):
        deck = len(s.deck_for(i))
        you = " (you)" if i == seat and not spectator else ""
        head.add_row(f"P{i}{you}", s.major[i] or "-", str(s.hq[i]), str(len(s.hands[i])),
                     str(len(s.reserve[i])), str(deck), style=None if s.alive[i] else "dim")
    parts: list[RenderableType] = [head]
    parts += [_fleet(s, i) for i in range(s.n)]
    pool = ", ".join(f"{v} {k}" for k, v in zip(POOL_NAMES, s.pool, strict=True) if v)
    parts.append(Text(f"points: {pool or 'none'}; card plays used: {s.plays}/3"))
    if 0 <= seat < s.n:
        whose = f"P{seat}'s" if spectator else f"your (P{seat})"
        parts.append(_hand(s, f"{whose} hand", s.hands[seat]))
        parts.append(Text(f"{whose} reserve: " + (", ".join(
            display(s, c) for c in s.reserve[seat]) or "empty")))
    if s.stack:
        parts.append(Text(f"waiting for P{s.stack[-1].seat}: {s.stack[-1].kind}", style="bold"))
    parts.append(Text(LEGEND, style="dim"))
    return Group(*parts)
