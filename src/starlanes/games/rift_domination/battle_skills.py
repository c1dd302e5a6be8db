"""Unit skills and battle OCC-card effects (UNIT-SKILLS, RD-SKL-*, RD-OCC-06/07).

Automatic skills are resolved here; skills that need a choice (Overload, Kamikaze's target,
an ambush target) are set up as decisions by :mod:`.battle` and finished here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .battle_model import ATTACKER, Battle, Fighter

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState

_DEFAULTS = {
    "repair_rush_amount": 4, "repair_bldg_amount": 1, "rocket_barrage_targets": 3,
    "rocket_barrage_min_roll": 4, "kamikaze_min_roll": 3, "kamikaze_damage": 3,
    "bombardment_damage": 1, "bombardment_2_damage": 2, "overload_shields": 4,
    "defensive_ring_lp": 2, "defensive_ring_shields": 2, "battle_win_vp": 1,
}


def rule(state: RiftState, name: str) -> int:
    """A numeric rule constant from content (rules.toml), with the printed default."""
    return int(getattr(state.content.rules, name, _DEFAULTS[name]))


# ---------------------------------------------------------------------- bombardment
def bombard(state: RiftState, b: Battle, bombers: list[int]) -> int:
    """RD-BAT-16, RD-SKL-04..06: before a ground battle, every attacking unit in orbit with
    Bombardment (1) / Bombardment II (2) damages the LP of every defending building,
    including the outpost (ruling RD-OPEN-18), skipping building shields. Useless when the
    planet has a shield generator (RD-UPG-18). Returns the damage dealt per building."""
    if "shield_generator" in state.planet_upgrades[b.planet]:
        if bombers:
            state.log("bombardment is blocked by the shield generator")
        return 0
    total = 0
    for uid in bombers:
        u = state.units[uid]
        skills = state.unit_stats(u.owner, u.kind).skills
        if "bombardment_2" in skills:
            total += rule(state, "bombardment_2_damage")
        elif "bombardment" in skills:
            total += rule(state, "bombardment_damage")
    if total:
        for f in b.fighters.values():
            if f.building and f.alive:
                b.damage(f, total, lp_only=True)
        state.log(f"bombardment deals {total} damage to every building")
    return total


# ---------------------------------------------------------------------- rocket barrage
def rocket_barrage(state: RiftState, b: Battle, side: int, log_src: str) -> int:
    """RD-SKL-02: target up to 3 enemy fighters, roll a die for each, 4+ destroys it.
    Returns the number destroyed. Ruling: "fighter units" are units of type fighter, and
    Taunt does not redirect a barrage (it names its targets)."""
    targets = [f for f in b.living(1 - side) if f.kind == "fighter"]
    targets = targets[: rule(state, "rocket_barrage_targets")]
    need = rule(state, "rocket_barrage_min_roll")
    rolls = []
    killed = 0
    for f in targets:
        r = state.rng.d6()
        rolls.append(r)
        if r >= need:
            b.damage(f, f.lp + f.sh)
            killed += 1
    if targets:
        b.rolled = True
        state.log(f"{log_src} rocket barrage at {len(targets)} fighter(s): rolls {rolls}, "
                  f"{killed} destroyed")
    return killed


def barrages(state: RiftState, b: Battle) -> None:
    """At the start of the first phase of a space battle every unit with Rocket Barrage
    fires it once (attacker's first), automatically (ruling RD-OPEN-16)."""
    for side in (ATTACKER, 1 - ATTACKER):
        for f in b.living(side):
            if b.can_use(f, "rocket_barrage"):
                f.used = f.used | {"rocket_barrage"}
                rocket_barrage(state, b, side,
                               f"{state.seat_name(b.seats[side])}'s {state.kind_name(f.kind)}")


# ---------------------------------------------------------------------- repairs
def _restore_units(b: Battle, units: list[Fighter], budget: int, book: dict[int, list[int]]
                   ) -> int:
    """Negate up to ``budget`` of the damage in ``book`` taken by ``units``: first 1 LP of
    every destroyed one (saving units first), then further LP, then shields. Returns the
    amount negated."""
    spent = 0
    for f in units:
        rec = book.get(f.fid)
        if budget > spent and f.lp == 0 and rec and rec[1] > 0:
            b.restore(f, 1, 0)
            spent += 1
    for f in units:
        rec = book.get(f.fid)
        if rec and rec[1] > 0 and budget > spent:
            n = min(rec[1], budget - spent)
            b.restore(f, n, 0)
            spent += n
    for f in units:
        rec = book.get(f.fid)
        if rec and rec[0] > 0 and budget > spent:
            n = min(rec[0], budget - spent)
            b.restore(f, 0, n)
            spent += n
    return spent


def _rush_units(b: Battle, side: int) -> list[Fighter]:
    return [f for f in b.fighters.values() if f.side == side and not f.building and not f.gone]


def fresh_damage(b: Battle, side: int) -> int:
    """Damage ``side``'s units took since casualties were last removed (what Repair Rush
    can still negate)."""
    return sum(sum(b.vdmg.get(f.fid, (0, 0))) for f in _rush_units(b, side))


def rush_available(state: RiftState, b: Battle, side: int) -> int:
    """Repair Rush damage ``side`` can still negate in this battle (RD-SKL-01): 4 per unit
    with the skill (ruling RD-OPEN-16: each such unit once per battle, spread over as many
    uses as its owner likes) plus what Repair Rush cards gave; none under a skill block."""
    if b.blocked[side]:
        return 0
    full = rule(state, "repair_rush_amount")
    own = sum(b.rush_left.get(f.fid, full) for f in _rush_units(b, side)
              if "repair_rush" in f.skills)
    return own + b.rush_pool[side]


def repair_rush(state: RiftState, b: Battle, side: int, amount: int) -> int:
    """Negate up to ``amount`` of the damage ``side``'s units took since casualties were
    last removed (RD-SKL-01): first 1 LP of each unit that would be destroyed, then further
    LP, then shields. The budget of the skill's units is spent first, then card pools.
    With option ``repair_rush=once`` (ruling RD-OPEN-16) a unit's use spends its whole
    budget, what it did not negate included. Returns the damage negated."""
    n = _restore_units(b, _rush_units(b, side), amount, b.vdmg)
    left = n
    full = rule(state, "repair_rush_amount")
    once = state.options.get("repair_rush", "split") == "once"  # ruling RD-OPEN-16
    for f in _rush_units(b, side):
        if left and "repair_rush" in f.skills:
            have = b.rush_left.get(f.fid, full)
            use = min(have, left)
            b.rush_left[f.fid] = 0 if once and use else have - use
            left -= use
            if use:
                f.used = f.used | {"repair_rush"}
    b.rush_pool[side] -= min(left, b.rush_pool[side])
    state.log(f"{state.seat_name(b.seats[side])}'s repair rush negates {n} damage")
    return n


def repair_buildings(state: RiftState, b: Battle, side: int) -> None:
    """RD-SKL-13 Repair Bldg: after the enemy damaged buildings of ``side`` each unit with
    the skill negates 1 damage a building took, once per battle (automatic)."""
    units = _rush_units(b, side)
    bldgs = [f for f in b.fighters.values() if f.side == side and f.building and not f.gone]
    for src in units:
        hurt = [f for f in bldgs if sum(b.vdmg.get(f.fid, (0, 0))) > 0]
        if not hurt or not b.can_use(src, "repair_bldg"):
            continue
        src.used = src.used | {"repair_bldg"}
        hurt.sort(key=lambda f: (f.lp > 0, f.lp))
        before = {f.fid: (f.lp, f.sh) for f in hurt}
        n = _restore_units(b, hurt, rule(state, "repair_bldg_amount"), b.vdmg)
        mended = " and ".join(f"the {_building_name(state, f.kind)}" for f in hurt
                              if (f.lp, f.sh) != before[f.fid])
        state.log(f"{state.seat_name(b.seats[side])}'s {_unit_name(state, src.kind)} "
                  f"repairs {n} damage to {mended} (Repair Bldg)")


def _building_name(state: RiftState, kind: str) -> str:
    """A combat building's name as players read it: the upgrade's name, or "planet outpost"
    for the outpost every controlled planet has."""
    upgrade = state.content.upgrades.get(kind)
    if upgrade is not None:
        return upgrade.name
    return "planet outpost" if kind == "outpost" else kind.replace("_", " ")


def _unit_name(state: RiftState, kind: str) -> str:
    """A unit kind's name as players read it (the content's name; the kind otherwise)."""
    unit = state.content.units.get(kind)
    return unit.name if unit is not None else kind.replace("_", " ")


def end_of_phase_repair(state: RiftState, b: Battle) -> None:
    """OCC repair {amount}: negate up to amount damage the player's surviving units took
    this phase (played in the window at the phase start, resolved at its end)."""
    for side in (0, 1):
        amount = b.repair_card[side]
        b.repair_card[side] = 0
        if amount:
            units = [f for f in b.living(side) if not f.building]
            n = _restore_units(b, units, amount, b.pdmg)
            state.log(f"repair card negates {n} damage")


# ---------------------------------------------------------------------- overload
def overload(b: Battle, side: int, target: str) -> None:
    """RD-SKL-09: one Overload shield, for this battle, on a combatant of the own group
    ``target``; the skill's 4 shields are placed one at a time, so any split is possible
    ("split it as you please")."""
    b.fighters[own_groups(b, side)[target]].sh += 1


def overload_source(b: Battle, side: int) -> Fighter | None:
    """The first living combatant of ``side`` that can still use Overload (RD-SKL-10: every
    support unit once per battle; a shield generator in ground battles, RD-UPG-17)."""
    return next((f for f in b.living(side) if b.can_use(f, "overload")), None)


def shield_boost(b: Battle, side: int, amount: int) -> None:
    """OCC shield_boost: ``amount`` extra shields for this battle, spread one at a time
    over the side's combatants in battle order."""
    pool = b.living(side)
    for i in range(amount if pool else 0):
        pool[i % len(pool)].sh += 1


def own_groups(b: Battle, side: int) -> dict[str, int]:
    groups: dict[str, int] = {}
    for f in b.living(side):
        groups.setdefault(f.label(), f.fid)
    return groups



# ---------------------------------------------------------------------- cards
def card_effect(state: RiftState, card_id: str) -> tuple[str, dict[str, Any]]:
    """(kind, params) of an OCC-card's effect (``occ.effect_of``, cached: read the params,
    never change them)."""
    from .occ import cached_effect

    return cached_effect(state.content.cards[card_id])


def card_playable(state: RiftState, b: Battle, side: int, card_id: str) -> bool:
    """Whether a card can be played in this battle and take effect now: a battle card, or
    a recruitment card of any timing (FAQ: recruitment cards can be played in a battle).
    A card that could not take effect is not offered, so playing one never wastes it."""
    card = state.content.cards[card_id]
    kind, p = card_effect(state, card_id)
    if card.timing != "battle" and not (card.timing == "own_turn" and kind == "recruit"):
        return False
    if kind == "ambush":
        return bool(b.targets(1 - side, units_only=True))
    if kind == "skill_block":
        return not b.blocked[1 - side]
    if kind == "weapon_industry":
        return not b.weapon_industry[side]
    if kind == "recruit":  # own-turn recruitment cards too (FAQ, RD-OCC-06)
        try:
            stats = state.unit_stats(b.seats[side], p["unit"])
        except (KeyError, IndexError):
            return False
        return stats.ground or not b.ground
    if kind == "skill" and p["skill"] == "rocket_barrage":
        return any(f.kind == "fighter" for f in b.living(1 - side))
    return kind in ("repair", "shield_boost", "hit_boost", "skill")


def recruit(state: RiftState, b: Battle, side: int, unit: str, count: int) -> list[int]:
    """RD-OCC-06: recruited units join the player's side of this battle at its point (in a
    ground battle the defender's join the garrison, the attacker's the landing)."""
    seat = b.seats[side]
    landed = b.ground and side != ATTACKER
    out = []
    for _ in range(count):
        uid = state.add_unit(seat, unit, b.point, landed=landed)
        add_unit_fighter(state, b, uid, side)
        out.append(uid)
    return out


def add_unit_fighter(state: RiftState, b: Battle, uid: int, side: int) -> Fighter:
    """Enter unit ``uid`` in the battle. Defensive Ring (RD-SKL-11, ruling RD-OPEN-17):
    +2 LP and +2 shields when the battle is in a system where its owner controls a planet."""
    u = state.units[uid]
    st = state.unit_stats(u.owner, u.kind)
    ring_lp = ring_sh = 0
    if "defensive_ring" in st.skills:
        system = state.board.system_of[b.point]
        if system >= 0 and any(state.planet_owner[p] == u.owner
                               for p in state.board.system_planets[system]):
            ring_lp = rule(state, "defensive_ring_lp")
            ring_sh = rule(state, "defensive_ring_shields")
    lp_max = st.lp + ring_lp
    lp = max(1, lp_max - u.wounds)
    f = Fighter(uid, side, u.kind, False, lp, lp_max, st.lp, ring_lp, st.shields + ring_sh,
                (st.close, st.mid, st.long), st.skills)
    b.fighters[uid] = f
    return f


def add_buildings(state: RiftState, b: Battle) -> None:
    """RD-BAT-14/15: the planet outpost (1 close weapon, 2 LP, plus the faction's outpost
    bonus) and the combatant upgrades (military base, artillery, shield generator) with
    their printed stats defend the planet."""
    o = state.content.outpost
    fx = state.fx[b.defender]
    lp = o.lp + (fx.outpost_lp if fx else 0)
    close = o.close + (fx.outpost_close if fx else 0)
    b.fighters[-1] = Fighter(-1, 1, "outpost", True, lp, lp, lp, 0, o.shields,
                             (close, o.mid, o.long), frozenset())
    for i, up in enumerate(state.planet_upgrades[b.planet]):
        spec = state.content.upgrades[up]
        if not spec.combatant:
            continue
        fid = -2 - i
        b.fighters[fid] = Fighter(fid, 1, up, True, spec.lp, spec.lp, spec.lp, 0, spec.shields,
                                  (spec.close, spec.mid, spec.long), frozenset(spec.skills))
