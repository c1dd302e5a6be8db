"""Card statistics in play and damage (DAMAGE FROM WEAPONS FIRE, KEEPING TRACK OF DAMAGE,
REMOVAL OF CARDS FROM PLAY).

A ship or base absorbs damage equal to its defence (shields, or a Mechad EMF) plus its
strength (GE-DMG-01): damage fills the shields first, then the structure, tracked apart
(GE-DMG-04, ruling GE-OPEN-09); it is destroyed when the structural damage reaches its
strength. Dragons have no shields (GE-EMP-DRG-05); monsters fall to damage plus research
points (GE-REM-07). A combined Krebiz ship is one target whose damage is kept on its lead
component (the lower instance number) and whose totals are the sums of both cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .content import HEAVY

if TYPE_CHECKING:  # pragma: no cover
    from .content import Card
    from .state import GEState

SHIPLIKE = frozenset("SD")
VESSEL = frozenset("SBD")


def lead(s: GEState, inst: int) -> int:
    """The instance that carries a Krebiz combination (itself for other cards)."""
    p = s.units[inst].partner
    return inst if p < 0 or inst < p else p


def attachments(s: GEState, inst: int) -> list[int]:
    """Crew, equipment and located cards on ``inst`` (and on its Krebiz partner)."""
    p = s.units[inst].partner
    return [i for i, u in s.units.items() if u.host == inst or (p >= 0 and u.host == p)]


def slots(s: GEState, inst: int) -> str:
    """Weapon symbols of one card in play: printed symbols plus its weapon effects."""
    c = s.card(inst)
    w = c.weapons
    for e in c.effects:
        if e.kind == "weapon":
            w += e.symbol * e.n
    return w


def needs_points(c: Card) -> bool:
    r = c.requires
    return bool(r.energy or r.supply)


def attachment_active(s: GEState, inst: int) -> bool:
    """A crew or equipment card works unless it needs points and is not Engaged
    (GE-PTS-09/10/13)."""
    return s.units[inst].engaged or not needs_points(s.card(inst))


def strength(s: GEState, inst: int) -> int:
    """Current strength: printed strength, both Krebiz components, strength modifiers."""
    u = s.units[inst]
    c = s.card(inst)
    total = c.strength
    if u.partner >= 0:
        total += s.card(u.partner).strength
    if c.type in VESSEL:
        for a in attachments(s, inst):
            ac = s.card(a)
            if ac.effects and attachment_active(s, a):
                total += ac.amount("strength")
    return total


def shield_cap(s: GEState, inst: int) -> int:
    """Defence factor: shields (with modifiers), or a Mechad EMF (GE-EMP-MCH-01..03)."""
    u = s.units[inst]
    c = s.card(inst)
    if c.type not in "SB":
        return 0
    if c.nodes:
        if not u.engaged:
            return c.strength
        return min(c.nodes * u.charge, 2 * c.strength)
    total = c.shields
    if u.partner >= 0:
        total += s.card(u.partner).shields
    for a in attachments(s, inst):
        ac = s.card(a)
        if ac.effects and attachment_active(s, a):
            total += ac.amount("shields") + ac.amount("shield_refit")
    return total


def hp_left(s: GEState, inst: int) -> int:
    """Damage the card can still absorb before it is destroyed."""
    u = s.units[inst]
    c = s.card(inst)
    if c.type == "M":
        return c.strength - u.dmg - u.rdmg
    return max(0, shield_cap(s, inst) - u.sdmg) + strength(s, inst) - u.dmg


def is_ship(s: GEState, inst: int) -> bool:
    """Ships and D dragons (treated exactly as ships, GE-EMP-DRG-02)."""
    return s.card(inst).type in SHIPLIKE


def ships_of(s: GEState, seat: int) -> list[int]:
    """``seat``'s ships and dragons in play, one entry per Krebiz combination."""
    cards = s.cards
    return [
        i for i, u in s.units.items()
        if u.owner == seat and u.host < 0 and u.against < 0
        and cards[u.card].type in SHIPLIKE and (u.partner < 0 or i < u.partner)
    ]


def vessels_of(s: GEState, seat: int) -> list[int]:
    """``seat``'s ships, dragons and bases in play (one entry per Krebiz combination)."""
    cards = s.cards
    return [
        i for i, u in s.units.items()
        if u.owner == seat and u.host < 0 and u.against < 0
        and cards[u.card].type in VESSEL and (u.partner < 0 or i < u.partner)
    ]


def heavy_count(s: GEState, inst: int) -> int:
    return sum(1 for w in slots(s, inst) if w in HEAVY)


def damage(s: GEState, inst: int, n: int, by: int, permanent: bool = False,
           ignore_shields: bool = False, research: bool = False) -> bool:
    """Score ``n`` damage on ``inst``: shields first, then structure (GE-DMG-04). Returns
    True if it was destroyed (and removes it with its crew and equipment, GE-DMG-02)."""
    if n <= 0 or inst not in s.units:
        return False
    inst = lead(s, inst)
    u = s.units[inst]
    c = s.card(inst)
    if research:
        u = u._replace(rdmg=u.rdmg + n)
    else:
        absorb = 0
        if not ignore_shields:
            absorb = min(n, max(0, shield_cap(s, inst) - u.sdmg))
        hit = n - absorb
        u = u._replace(sdmg=u.sdmg + absorb, dmg=u.dmg + hit,
                       perm=u.perm + (hit if permanent else 0))
    s.units[inst] = u
    dead = (u.dmg + u.rdmg >= c.strength) if c.type == "M" else u.dmg >= strength(s, inst)
    s.log(f"{s.title(inst)} takes {n} {'research' if research else 'damage'}"
          + (" and is destroyed" if dead else ""))
    if dead:
        if u.owner == s.seat and u.host < 0 and u.against < 0 and c.type in VESSEL:
            s.lost.append(c.id)  # GE-FLEET-06: its command point frees up next turn
        destroy(s, inst)
    return dead


def repair(s: GEState, inst: int, n: int) -> int:
    """Remove up to ``n`` damage: structure first (never permanent damage, GE-OPEN-17),
    then shields (never a Mechad EMF, GE-EMP-MCH-04). Returns the points used."""
    inst = lead(s, inst)
    u = s.units[inst]
    fix = min(n, u.dmg - u.perm)
    u = u._replace(dmg=u.dmg - fix)
    rest = n - fix
    if rest and not s.card(inst).nodes:
        f2 = min(rest, u.sdmg)
        u = u._replace(sdmg=u.sdmg - f2)
        fix += f2
    s.units[inst] = u
    return fix


def repairable(s: GEState, inst: int) -> bool:
    u = s.units[inst]
    return u.dmg > u.perm or (u.sdmg > 0 and not s.card(inst).nodes)


def destroy(s: GEState, inst: int) -> None:
    """Remove ``inst`` (and a Krebiz partner) with its crew and equipment to the discard
    pile (GE-DMG-02, GE-REM-08); a transporter saves them to the owner's hand."""
    if inst not in s.units:
        return
    u = s.units[inst]
    group = [inst] + ([u.partner] if u.partner >= 0 else [])
    att = sorted(attachments(s, inst))
    saved = any(s.card(a).has("transporter") for a in att) and s.card(inst).type != "T"
    for i in group:
        del s.units[i]
        s.to_discard(i)
    for a in att:
        del s.units[a]
        if saved and s.card(a).type in "CE" and not s.card(a).has("transporter"):
            s.hands[u.owner].append(a)
            s.known.append(a)
            s.log(f"{s.title(a)} is beamed back to hand")
        else:
            s.to_discard(a)
