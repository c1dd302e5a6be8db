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

from .state import HQ_LIMIT, POOL_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")


def _card_line(s: GEState, inst: int) -> Text:
    u = s.units[inst]
    c = s.card(inst)
    t = Text()
    t.append(f"[{c.type}] ", style="dim")
    t.append(c.name, style="bold" if u.engaged else "dim")
    t.append(f" #{inst}")
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


def render(state: GEState, seat: int) -> RenderableType:
    s = state
    head = Table(title=f"Galactic Empires - turn {s.round}, P{s.seat} to play, phase {s.phase}")
    for col in ("seat", "major", "HQ damage", "hand", "reserve", "deck"):
        head.add_column(col)
    for i in range(s.n):
        deck = len(s.deck_for(i))
        head.add_row(f"P{i}", s.major[i] or "-", str(s.hq[i]), str(len(s.hands[i])),
                     str(len(s.reserve[i])), str(deck), style=None if s.alive[i] else "dim")
    parts: list[RenderableType] = [head]
    parts += [_fleet(s, i) for i in range(s.n)]
    pool = ", ".join(f"{v} {k}" for k, v in zip(POOL_NAMES, s.pool, strict=True) if v)
    parts.append(Text(f"points: {pool or 'none'}; card plays used: {s.plays}/3"))
    if 0 <= seat < s.n:
        hand = Text(f"your hand (P{seat}): ")
        hand.append(", ".join(f"{s.card(c).name} #{c}" for c in s.hands[seat]) or "empty")
        parts.append(hand)
        parts.append(Text("your reserve: " + (", ".join(
            f"{s.card(c).name} #{c}" for c in s.reserve[seat]) or "empty")))
    if s.stack:
        parts.append(Text(f"waiting for P{s.stack[-1].seat}: {s.stack[-1].kind}", style="bold"))
    return Group(*parts)
