"""Phase 4: Weapons Fire (4 - WEAPONS FIRE PHASE, ALLOCATING WEAPONS DAMAGE TO TARGETS,
DAMAGE FROM WEAPONS FIRE, DAMAGING THE SECTOR HQ, Mechad distortion cannon).

4a: ``aim`` names one target, then ``shoot`` (one weapon) and ``volley`` (all of a unit's
usable weapons) add weapons from any number of units, and ``commit`` allocates the damage
(GE-FIRE-01/02). 4b/4c: the reaction windows of ``windows``. 4d: the damage is scored.
4e: repeat with new targets; each target once per phase (GE-FIRE-07); ``cease`` ends the
phase. A distortion cannon fires with ``distort`` at a whole fleet (ruling GE-OPEN-16).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .actions import NONE, GEAction, code_seat, hq_code, is_hq, made, one_card
from .content import HEAVY
from .empires import indirigan_blocks
from .units import attachment_active, damage, lead, ships_of, slots, vessels_of
from .windows import open_fire_window

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState

CEASE = GEAction("cease", label="cease")
COMMIT = GEAction("commit", label="commit")


def _ship_host(s: GEState, inst: int) -> bool:
    """Is ``inst`` a ship or dragon, or a card on one (GE-DMG-06)?"""
    u = s.units[inst]
    return s.card(u.host if u.host >= 0 else inst).type in "SD"


def weapon_sources(s: GEState, seat: int) -> list[tuple[int, int, str]]:
    """(unit, slot, symbol) of every weapon ``seat`` can still fire this phase: the unit is
    Engaged (GE-PTS-11), heavy weapons have ammunition (GE-FIRE-11), a variplaz also energy
    (GE-EMP-CORP-01/02); a component joined this turn may not fire (GE-EMP-KRB-11)."""
    out = []
    picked: dict[int, int] = {}
    for i, j in s.picks:
        if slots(s, i)[j] in HEAVY:
            picked[i] = picked.get(i, 0) + 1
    chosen = set(s.picks)
    for i, u in s.units.items():
        if u.owner != seat or u.against >= 0:
            continue
        c = s.cards[u.card]
        w = slots(s, i)
        if not w:
            continue
        if u.host >= 0:
            h = s.units[u.host]
            if s.cards[h.card].type not in "SBD" or not h.engaged or not attachment_active(s, i):
                continue
        elif c.type not in "SBD" or not u.engaged or u.nofire:
            continue
        ammo = u.ammo - picked.get(i, 0)
        for j, sym in enumerate(w):
            if u.fired >> j & 1 or (i, j) in chosen:
                continue
            if sym in HEAVY and ammo < 1:
                continue
            if sym == "V" and u.charge < 1:
                continue
            out.append((i, j, sym))
    return out


def can_hit(s: GEState, src: int, sym: str, target: int) -> bool:
    """May weapon ``sym`` of ``src`` score on ``target``?"""
    if sym == "X":
        return False
    if is_hq(target):
        return _ship_host(s, src)  # GE-DMG-06/07
    tc = s.card(target)
    if tc.type == "T" and sym not in HEAVY:
        return False  # GE-DMG-03
    return not indirigan_blocks(s, src, target)


def fire_targets(s: GEState) -> list[int]:
    """Targets not yet allocated to this phase (GE-FIRE-07): opponents' ships, bases,
    dragons, terrain and free-flying cards, any hostile monster (GE-FIRE-09), and the Sector
    HQ of an opponent with no ships in play (GE-DMG-05, GE-EMP-DRG-04)."""
    seat = s.seat
    out = []
    for i, u in s.units.items():
        c = s.cards[u.card]
        if c.type == "M":
            if u.owner != seat:
                out.append(i)
            continue
        if u.owner == seat or u.against >= 0 or not s.alive[u.owner]:
            continue
        if u.host >= 0:
            if c.has("free_flying"):
                out.append(i)
        elif c.type in "SBDT" and lead(s, i) == i:
            out.append(i)
    for o in range(s.n):
        if o != seat and s.alive[o] and not ships_of(s, o):
            out.append(hq_code(o))
    return [t for t in out if t not in s.fired_at]


def _aim_label(s: GEState, _kind: str, t: int, _b: int, _c: int) -> str:
    return f"aim HQ{code_seat(t)}" if is_hq(t) else f"aim {s.name(t)}"


def _distort_label(s: GEState, _kind: str, i: int, j: int, o: int) -> str:
    return f"distort {s.name(i)}.{j} P{o}"


def _shoot_label(s: GEState, _kind: str, i: int, j: int, _c: int) -> str:
    return f"shoot {s.name(i)}.{j}"


def _aimable(s: GEState, src: list[tuple[int, int, str]]) -> Iterator[int]:
    """The fire targets one of the weapons ``src`` can score on, in target order."""
    for t in fire_targets(s):
        if any(can_hit(s, i, sym, t) for i, _, sym in src):
            yield t


def fire_actions(s: GEState) -> list[GEAction]:
    seat = s.seat
    src = weapon_sources(s, seat)
    out = []
    if src:
        for t in _aimable(s, src):
            out.append(made(s, "aim", t, NONE, NONE, _aim_label))
        for i, j, sym in src:
            if sym == "X":
                for o in range(s.n):
                    if s.alive[o]:
                        out.append(made(s, "distort", i, j, o, _distort_label))
    out.append(CEASE)
    return out


def aim_actions(s: GEState) -> list[GEAction]:
    t = s.aim
    out = []
    seen_units = set()
    for i, j, sym in weapon_sources(s, s.seat):
        if can_hit(s, i, sym, t):
            out.append(made(s, "shoot", i, j, NONE, _shoot_label))
            seen_units.add(i)
    for i in sorted(seen_units):
        out.append(one_card(s, "volley", i))
    if s.picks:
        out.append(COMMIT)
    return out


def fire_possible(s: GEState) -> bool:
    """Has the player to act anything to do in the Weapons Fire Phase but cease: a
    distortion cannon to fire, or a target one of his weapons can score on? (The
    actions of :func:`fire_actions` but ``cease``, without listing them.)"""
    src = weapon_sources(s, s.seat)
    if not src:
        return False
    if any(sym == "X" for _, _, sym in src):
        return True  # his own fleet is always a distortion target
    return next(_aimable(s, src), None) is not None


def apply_fire(s: GEState, a: GEAction) -> None:
    if a.kind == "aim":
        s.aim = a.a
        s.picks = []
        s.phase = "aim"
    elif a.kind == "distort":
        distort(s, a.a, a.b, a.c)
    else:
        s.phase = "playB"


def apply_aim(s: GEState, a: GEAction) -> None:
    if a.kind == "shoot":
        s.picks.append((a.a, a.b))
    elif a.kind == "volley":
        for i, j, sym in weapon_sources(s, s.seat):
            if i == a.a and can_hit(s, i, sym, s.aim):
                if sym in HEAVY:
                    used = sum(1 for p, q in s.picks if p == i and slots(s, p)[q] in HEAVY)
                    if s.units[i].ammo - used < 1:
                        continue
                s.picks.append((i, j))
    else:
        commit(s)


def commit(s: GEState) -> None:
    """Allocate the picked weapons' damage to the aimed target (GE-FIRE-01/02/10): 1 point a
    weapon, a variplaz its energy (all on this one target, GE-EMP-CORP-03)."""
    dmg = 0
    heavy = False
    for i, j in s.picks:
        u = s.units[i]
        sym = slots(s, i)[j]
        dmg += u.charge if sym == "V" else 1
        heavy = heavy or sym in HEAVY
        s.units[i] = u._replace(fired=u.fired | (1 << j),
                                ammo=u.ammo - (1 if sym in HEAVY else 0))
    target = s.aim
    s.fired_at.append(target)
    firers = tuple(sorted({s.units[i].host if s.units[i].host >= 0 else i for i, _ in s.picks}))
    s.pending = ("fire", target, dmg, firers)
    s.log(f"P{s.seat} allocates {dmg} damage on "
          + (f"P{code_seat(target)}'s Sector HQ" if is_hq(target) else s.title(target)))
    s.picks = []
    s.aim = -1
    s.phase = "fire"
    open_fire_window(s)


def distort(s: GEState, inst: int, slot: int, seat: int) -> None:
    """A distortion cannon (GE-EMP-MCH-09..11): 1 damage to every ship, base, dragon and
    free-flying card in ``seat``'s fleet and to every monster ``seat`` controls; fired at
    one's own fleet it hits the hostile monsters against it. Never terrain, hazards or the
    Sector HQ."""
    u = s.units[inst]
    s.units[inst] = u._replace(fired=u.fired | (1 << slot), ammo=u.ammo - 1)
    s.log(f"P{s.seat} fires the distortion cannon of {s.title(inst)} at P{seat}")
    hits = []
    if seat != s.seat:
        hits += vessels_of(s, seat)
        hits += [i for i, v in s.units.items()
                 if v.owner == seat and v.host >= 0 and s.cards[v.card].has("free_flying")]
        hits += [i for i, v in s.units.items() if v.owner == seat and s.cards[v.card].type == "M"]
    else:
        hits += [i for i, v in s.units.items()
                 if v.against == seat and v.owner != seat and s.cards[v.card].type == "M"]
    for i in hits:
        if i in s.units:
            damage(s, i, 1, s.seat)
