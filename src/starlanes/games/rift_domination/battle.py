"""Battles (rulebook BATTLE, WEAPONS AND RANGE, UNIT-SKILLS; RD-BAT-*, RD-HIT-*, RD-SKL-*).

A battle runs in ``state.battle`` (:class:`~.battle_model.Battle`). The state dispatches to
:func:`current_player`, :func:`legal_actions` and :func:`apply` while it is set; automatic
steps (dice, skills) run inside :func:`start_space_battle`, :func:`start_ground_battle` and
:func:`apply` until a player must decide or the battle is over, which calls
``state.after_battle()``.

Flow (RD-BAT-02..12, ruling RD-OPEN-07): a space battle fights the phases far -> mid ->
close, a ground battle mid -> close. Each phase opens with an OCC window (attacker, then
defender: play battle cards one at a time or ``pass``) and an Overload window for each side
with an unused Overload (RD-SKL-09/10); then the attacker fires every weapon of its units
and assigns every hit, then the defender does (a faction with first strike fires first when
defending). With simultaneous fire (option ``battle_fire``, the default) both volleys are
fired by the units that stood at the phase's start and the casualties of both are removed
at the phase's end ("at the end of each phase, damage is dealt", RD-BAT-10); with
sequential fire each volley's casualties are removed before the other side fires. Before
casualties are removed, a side that took damage may use Repair Rush (RD-SKL-01). After
close combat comes the retreat window (attacker, then defender): if both stay and both
sides stand, another close round follows.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from starlanes.engine import Action, IllegalActionError
from starlanes.engine.explain import article

from . import battle_skills as sk
from .actions import Pass, PlayCard
from .actions import action as shared
from .battle_actions import (
    AmbushTarget,
    Hit,
    KamikazeTarget,
    Overload,
    RepairRush,
    Retreat,
    Stay,
)
from .battle_end import finish, retreat, retreat_step, send_back
from .battle_model import (
    ATTACKER,
    CLOSE,
    DEFENDER,
    PHASES,
    WEAPONS,
    Battle,
    Fighter,
    needed_roll,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState

__all__ = [
    "AmbushTarget", "Battle", "Hit", "KamikazeTarget", "Overload", "RepairRush", "Retreat",
    "Stay", "apply", "current_player", "legal_actions", "start_ground_battle",
    "start_space_battle",
]


# ---------------------------------------------------------------------- starting
def start_space_battle(state: RiftState, attacker: int, point: int,
                       came_from: dict[int, int]) -> None:
    """Start a space battle at ``point`` (RD-MOV-10, RD-BAT-02): all of ``attacker``'s
    non-landed units there against the non-landed units of the defender, the other seat
    with the most units there (ruling; ties go to the seat next after the attacker in
    turn order). ``came_from`` maps attacking unit ids to the point each moved from."""
    counts: Counter[int] = Counter(
        u.owner for u in state.units.values()
        if u.loc == point and not u.landed and u.owner != attacker
    )
    if not counts:
        raise IllegalActionError("no enemy units to fight at this point")
    n = state.n
    defender = max(counts, key=lambda s: (counts[s], -((s - attacker) % n)))
    b = Battle(False, attacker, defender, point)
    b.came_from = dict(came_from)
    for uid, u in list(state.units.items()):
        if u.loc == point and not u.landed and u.owner in (attacker, defender):
            sk.add_unit_fighter(state, b, uid, ATTACKER if u.owner == attacker else DEFENDER)
    _begin(state, b)
    state.log(f"space battle at {state.board.names[point]}: {state.seat_name(attacker)} "
              f"attacks {state.seat_name(defender)}")
    _run(state)


def start_ground_battle(state: RiftState, attacker: int, planet: int, landing: list[int],
                        bombard: bool = True) -> None:
    """Start a ground battle for ``planet`` (RD-BAT-03, RD-BAT-14..16): ``landing`` (the
    attacker's landing ground units) against the planet outpost, its combatant upgrades
    and the defender's landed units there. First, with ``bombard``, the attacker's units in
    orbit with Bombardment hit every building (RD-SKL-04..06)."""
    defender = state.planet_owner[planet]
    if defender < 0 or defender == attacker:
        raise IllegalActionError("a ground battle needs a planet held by another player")
    point = state.board.planet_point[planet]
    b = Battle(True, attacker, defender, point, planet)
    sk.add_buildings(state, b)
    for uid, u in list(state.units.items()):
        if u.loc == point and u.landed and u.owner == defender:
            sk.add_unit_fighter(state, b, uid, DEFENDER)
    for uid in landing:
        sk.add_unit_fighter(state, b, uid, ATTACKER)
    _begin(state, b)
    state.log(f"ground battle for {state.board.names[point]}: {state.seat_name(attacker)} "
              f"lands against {state.seat_name(defender)}")
    if bombard:
        bombers = [uid for uid, u in state.units.items()
                   if u.loc == point and not u.landed and u.owner == attacker
                   and uid not in b.fighters
                   and {"bombardment", "bombardment_2"} & state.unit_stats(u.owner, u.kind).skills]
        sk.bombard(state, b, bombers)
    b.stage, b.resume = "casualties", "open"
    _run(state)


def _begin(state: RiftState, b: Battle) -> None:
    """Options and faction order: simultaneous or sequential fire (``battle_fire``), the
    Weapon Industry reading (``weapon_industry``), and first strike (the defender's faction
    fires first, its volley resolved before the attacker fires)."""
    opts = state.options
    b.simultaneous = opts.get("battle_fire", "simultaneous") == "simultaneous"
    b.wi_one_shot = opts.get("weapon_industry", "phase") == "one_shot"
    fx_a, fx_d = state.fx[b.attacker], state.fx[b.defender]
    if fx_d is not None and fx_d.first_strike and not (fx_a is not None and fx_a.first_strike):
        b.order = [DEFENDER, ATTACKER]
        b.first_striker = DEFENDER
    state.battle = b


# ---------------------------------------------------------------------- engine hooks
def current_player(state: RiftState) -> int:
    p = state.battle.pending
    return p[1] if p is not None else state.battle.attacker


def legal_actions(state: RiftState) -> list[Action]:
    b: Battle = state.battle
    if b.pending is None:  # pragma: no cover - _run always leaves a decision
        return []
    kind, seat, arg = b.pending
    side = b.side_of_seat(seat)
    if kind == "cancel":
        cards = [c for c in dict.fromkeys(state.hands[seat])
                 if sk.card_effect(state, c)[0] == "cancel_attack"]
        return [shared(Pass), *(shared(PlayCard, c) for c in cards)]
    if kind == "cards":
        cards = [c for c in dict.fromkeys(state.hands[seat])
                 if sk.card_playable(state, b, side, c)]
        return [shared(Pass), *(shared(PlayCard, c) for c in cards)]
    if kind == "hit":
        return [shared(Hit, t) for t in b.targets(1 - side)]
    if kind == "kamikaze":
        return [KamikazeTarget(t) for t in b.targets(1 - side, units_only=True)]
    if kind == "ambush":
        return [AmbushTarget(t) for t in b.targets(1 - side, units_only=True)]
    if kind == "overload":
        return [Pass(), *(Overload(t) for t in sk.own_groups(b, side))]
    if kind == "overload_more":
        return [Overload(t) for t in sk.own_groups(b, side)]
    if kind == "rush":
        top = min(sk.rush_available(state, b, side), sk.fresh_damage(b, side))
        return [Pass(), *(RepairRush(n) for n in range(1, top + 1))]
    if kind == "retreat":
        return [Stay(), Retreat()]
    raise AssertionError(kind)  # pragma: no cover


def apply(state: RiftState, action: Action) -> None:
    """Answer the pending battle decision, then run automatic steps. ``action`` is one of
    :func:`legal_actions` (``GameState.apply`` checks it before it comes here).

    Raises IllegalActionError (state unchanged) if no battle decision is pending."""
    b: Battle = state.battle
    if b.pending is None:
        raise IllegalActionError(f"{action} is not a legal battle action now")
    kind, seat, arg = b.pending
    b.pending = None
    side = b.side_of_seat(seat)
    if kind == "cancel":
        if isinstance(action, PlayCard):
            state.discard_card(seat, action.card)
            if _countered_window(state, b, seat, action.card):
                return
            _cancel(state, b, seat, action.card)
        else:
            b.stage = "phase_start"
    elif kind == "cards":
        if isinstance(action, PlayCard):
            state.discard_card(seat, action.card)
            if _countered_window(state, b, seat, action.card):
                return
            _play_card(state, b, side, action.card)
        else:
            b.idx += 1
    elif kind == "hit":
        _deal_hit(b, b.fighters[b.targets(1 - side)[action.target]])
        b.hits_left -= 1
    elif kind in ("kamikaze", "ambush"):
        f = b.fighters[b.targets(1 - side, units_only=True)[action.target]]
        b.damage(f, arg)
        if kind == "kamikaze":
            state.log(f"kamikaze deals {arg} damage to {article(state.kind_name(f.kind))}")
        if kind == "ambush":
            state.log(f"ambush deals {arg} damage to {article(state.kind_name(f.kind))}")
            b.stage, b.resume = "casualties", b.stage
    elif kind in ("overload", "overload_more"):
        _overload(state, b, side, seat, kind, arg, action)
    elif kind == "rush":
        if isinstance(action, RepairRush):
            sk.repair_rush(state, b, side, action.amount)
        sk.repair_buildings(state, b, side)
        b.ridx += 1
    elif kind == "retreat":
        if isinstance(action, Retreat):
            retreat(state, b, side)
        else:
            b.idx += 1
    _run(state)


def _overload(state: RiftState, b: Battle, side: int, seat: int, kind: str, left: int,
              action: Action) -> None:
    """RD-SKL-09/10: the window (``overload``) either passes for this phase or places the
    first shield, using up one source's skill; ``overload_more`` places the next one."""
    if not isinstance(action, Overload):
        b.overload_done[side] = True
        return
    if kind == "overload":
        src = sk.overload_source(b, side)
        assert src is not None
        src.used = src.used | {"overload"}
        state.log(f"{state.seat_name(seat)} overloads its {state.kind_name(src.kind)}")
    sk.overload(b, side, action.target)
    if left > 1:
        b.pending = ("overload_more", seat, left - 1)


def _deal_hit(b: Battle, f: Fighter) -> None:
    """One hit of the current volley: its damage, one more for a Weapon Industry hit."""
    extra = 0
    if b.bonus_hits > 0:
        b.bonus_hits -= 1
        extra = 1
    b.damage(f, b.hit_dmg + extra)


# ---------------------------------------------------------------------- the flow
def _run(state: RiftState) -> None:
    """Run automatic steps until a decision is pending or the battle is over."""
    b: Battle = state.battle
    while b.pending is None:
        st = b.stage
        if st == "open":
            b.stage = "phase_start"
            if not b.ground:
                b.pending = ("cancel", b.defender, 0)
        elif st == "phase_start":
            b.weapon_industry = [False, False]
            b.hit_boost = [0, 0]
            b.overload_done = [False, False]
            b.pdmg = {}
            b.idx = 0
            b.stage = "cards"
            state.log(f"{PHASES[b.phase]} range phase")
        elif st == "cards":
            if b.idx < 2:
                b.pending = ("cards", b.seats[b.idx], 0)
            else:
                b.idx = 0
                b.stage = "overload"
        elif st == "overload":
            _overload_window(state, b)
        elif st == "barrage":
            b.idx = 0
            b.stage = "volley"
            if not b.ground and not b.barrage_done:
                b.barrage_done = True
                sk.barrages(state, b)
                b.stage, b.resume = "casualties", "volley"
        elif st == "volley":
            if b.idx >= 2:
                b.ridx = 0
                b.stage, b.resume = "repairs", "phase_end"
                continue
            side = b.order[b.idx]
            if not b.shooters(side):
                b.idx += 1
            else:
                _roll(state, b, side)
                b.stage = "assign"
        elif st == "assign":
            side = b.hit_side
            groups = b.targets(1 - side) if b.hits_left > 0 else {}
            if not groups:
                b.hits_left = 0
                b.bonus_hits = 0
                if not b.simultaneous or side == b.first_striker:
                    b.ridx = 0
                    b.stage, b.resume = "repairs", "next_volley"
                else:
                    b.stage = "next_volley"
            elif len(groups) == 1:
                _deal_hit(b, b.fighters[next(iter(groups.values()))])
                b.hits_left -= 1
            else:
                b.pending = ("hit", b.seats[side], 0)
        elif st == "next_volley":
            b.idx += 1
            b.stage = "volley"
        elif st == "repairs":
            _repairs(state, b)
        elif st == "casualties":
            _casualties(state, b)
        elif st == "phase_end":
            sk.end_of_phase_repair(state, b)
            if b.phase < CLOSE:
                b.phase += 1
                b.stage = "phase_start"
            else:
                b.close_rounds += 1
                b.idx = 0
                b.stage = "retreat"
        elif st == "retreat":
            retreat_step(state, b)
        elif st in ("end", "cancelled"):
            finish(state, b)
            return
        else:  # pragma: no cover
            raise AssertionError(st)


def _overload_window(state: RiftState, b: Battle) -> None:
    """At the start of every phase, before anyone fires, each side (attacker first) with an
    unused Overload may use it (RD-SKL-09/10), also the defender before the first volley."""
    while b.idx < 2:
        side = b.idx
        if (not b.overload_done[side] and b.has_living(side)
                and sk.overload_source(b, side) is not None):
            b.pending = ("overload", b.seats[side], sk.rule(state, "overload_shields"))
            return
        b.idx += 1
    b.stage = "barrage"


def _repairs(state: RiftState, b: Battle) -> None:
    """Before casualties are removed: each side (attacker first) whose units took damage
    may spend Repair Rush on it, its owner's choice (RD-SKL-01); Repair Bldg is automatic
    (RD-SKL-13). Then the casualties step, which goes on to ``b.resume``."""
    while b.ridx < 2:
        side = b.ridx
        if sk.fresh_damage(b, side) and sk.rush_available(state, b, side):
            b.pending = ("rush", b.seats[side], 0)
            return
        sk.repair_buildings(state, b, side)
        b.ridx += 1
    b.vdmg = {}
    b.stage = "casualties"


def _roll(state: RiftState, b: Battle, side: int) -> None:
    """One volley (RD-HIT-01..12): one d6 per weapon of every unit of ``side`` that fires
    (:meth:`Battle.shooters`); the target range is the current phase's section
    (RD-BAT-11). Weapon Industry (RD-OCC-07, option ``weapon_industry``): every hit of the
    phase deals 2 damage, or with ``one_shot`` only the first hit of the card's volley."""
    fx = state.fx[b.seats[side]]
    hits = 0
    rolls: list[int] = []
    for f in b.shooters(side):
        for w in WEAPONS:
            n = getattr(f, w)
            if not n:
                continue
            bonus = b.hit_boost[side] + (fx.hit_bonus.get(w, 0) if fx else 0)
            need = needed_roll(w, b.phase, bonus)
            for _ in range(n):
                r = state.rng.d6()
                rolls.append(r)
                if r >= need:
                    hits += 1
    b.hit_side = side
    b.hits_left = hits
    b.hit_dmg = 1
    b.bonus_hits = 0
    if b.weapon_industry[side]:
        if b.wi_one_shot:
            b.bonus_hits = 1
            b.weapon_industry[side] = False
        else:
            b.hit_dmg = 2
    if rolls:
        b.rolled = True
        state.log(f"{state.seat_name(b.seats[side])} rolls {rolls}: {hits} hit(s)")


def _casualties(state: RiftState, b: Battle) -> None:
    """Remove destroyed combatants (RD-HIT-15); a destroyed unit with Kamikaze rolls, and on
    3+ its owner picks an enemy ship for 3 damage (RD-SKL-03)."""
    while True:
        f = next((f for f in b.fighters.values() if not f.gone and f.lp <= 0), None)
        if f is None:
            break
        f.gone = True
        if f.building:
            if f.fid <= -2:
                b.destroyed_upgrades.append(-2 - f.fid)
            state.log(f"{state.seat_name(b.seats[f.side])}'s {state.kind_name(f.kind)} is destroyed")
            continue
        b.killed[f.side] += 1
        state.log(f"{state.seat_name(b.seats[f.side])}'s {state.kind_name(f.kind)} is destroyed")
        state.remove_unit(f.fid)
        if b.can_use(f, "kamikaze"):
            r = state.rng.d6()
            b.rolled = True
            dmg = sk.rule(state, "kamikaze_damage")
            need = sk.rule(state, "kamikaze_min_roll")
            who = f"{state.seat_name(b.seats[f.side])}'s {state.kind_name(f.kind)}"
            if r < need:
                state.log(f"kamikaze: {who} rolls {r} (needs {need}+): no damage")
            else:
                groups = b.targets(1 - f.side, units_only=True)
                if len(groups) == 1:
                    target = b.fighters[next(iter(groups.values()))]
                    state.log(f"kamikaze: {who} rolls {r} (needs {need}+) and deals {dmg} "
                              f"damage to the enemy {state.kind_name(target.kind)}")
                    b.damage(target, dmg)
                elif not groups:
                    state.log(f"kamikaze: {who} rolls {r} (needs {need}+) but no enemy "
                              "ship is left to strike")
                else:
                    state.log(f"kamikaze: {who} rolls {r} (needs {need}+): {dmg} damage "
                              "to an enemy ship of its player's choice")
                    b.pending = ("kamikaze", b.seats[f.side], dmg)
                    return
    if not (b.has_living(ATTACKER) and b.has_living(DEFENDER)):
        b.stage = "end"
    else:
        b.stage = b.resume


def _cancel(state: RiftState, b: Battle, seat: int, card: str) -> None:
    state.log(f"{state.seat_name(seat)} plays {state.content.cards[card].name}: the attack "
              "is cancelled")
    send_back(state, b, ATTACKER)
    b.stage = "cancelled"


def _countered_window(state: RiftState, b: Battle, seat: int, card: str) -> bool:
    """A card played against the enemy side opens its reaction window (RD-OCC-04: cards
    counter other OCC-cards); the battle waits. Returns True if a window was opened."""
    if not state.content.cards[card].targets_opponent:
        return False
    from starlanes.engine import Decision

    other = b.seats[1 - b.side_of_seat(seat)]
    state.push(Decision(other, "counter", (card, seat, "battle")))
    return True


def card_answered(state: RiftState, seat: int, card: str, resolved: bool) -> None:
    """Go on after the reaction window of a battle card played by ``seat``: apply it if
    it was not countered, then run the battle's automatic steps."""
    b: Battle = state.battle
    kind = sk.card_effect(state, card)[0]
    if kind == "cancel_attack":
        if resolved:
            _cancel(state, b, seat, card)
        else:
            b.stage = "phase_start"
    elif resolved:
        _play_card(state, b, b.side_of_seat(seat), card)
    _run(state)


def _play_card(state: RiftState, b: Battle, side: int, card: str) -> None:
    """Battle OCC-cards (RD-OCC-06/07 and the card effects in content); the card has
    already gone to the discard pile."""
    seat = b.seats[side]
    kind, p = sk.card_effect(state, card)
    state.log(f"{state.seat_name(seat)} plays {state.content.cards[card].name}")
    if kind == "weapon_industry":
        b.weapon_industry[side] = True
    elif kind == "skill_block":
        b.blocked[1 - side] = True
    elif kind == "repair":
        b.repair_card[side] += p["amount"]
    elif kind == "shield_boost":
        sk.shield_boost(b, side, p["amount"])
    elif kind == "hit_boost":
        b.hit_boost[side] += p["amount"]
    elif kind == "ambush":
        b.pending = ("ambush", seat, p["damage"])
    elif kind == "recruit":
        sk.recruit(state, b, side, p["unit"], p["count"])
    elif kind == "skill":
        if p["skill"] == "rocket_barrage":
            sk.rocket_barrage(state, b, side, "card")
            b.stage, b.resume = "casualties", b.stage
        elif p["skill"] == "repair_rush":
            b.rush_pool[side] += sk.rule(state, "repair_rush_amount")
        elif p["skill"] == "overload" and b.has_living(side):
            b.pending = ("overload_more", seat, sk.rule(state, "overload_shields"))
