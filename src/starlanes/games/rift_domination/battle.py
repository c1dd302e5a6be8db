"""Battles (rulebook BATTLE, WEAPONS AND RANGE, UNIT-SKILLS; RD-BAT-*, RD-HIT-*, RD-SKL-*).

A battle runs in ``state.battle`` (:class:`~.battle_model.Battle`). The state dispatches to
:func:`current_player`, :func:`legal_actions` and :func:`apply` while it is set; automatic
steps (dice, skills) run inside :func:`start_space_battle`, :func:`start_ground_battle` and
:func:`apply` until a player must decide or the battle is over, which calls
``state.after_battle()``.

Flow (RD-BAT-02..12, ruling RD-OPEN-07): a space battle fights the phases far -> mid ->
close, a ground battle mid -> close. Each phase opens with an OCC window (attacker, then
defender: play battle cards one at a time or ``pass``); then the attacker fires every weapon
of its surviving units, assigns every hit, removes casualties; then the defender fires with
its survivors (a faction with first strike fires first when defending). After close combat
comes the retreat window (attacker, then defender): if both stay and both sides stand,
another close round follows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlanes.engine import Action, IllegalActionError

from . import battle_skills as sk
from .actions import Pass, PlayCard
from .battle_model import (
    ATTACKER,
    CLOSE,
    DEFENDER,
    MAX_CLOSE_ROUNDS,
    PHASES,
    WEAPONS,
    Battle,
    needed_roll,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState

__all__ = [
    "AmbushTarget", "Battle", "Hit", "KamikazeTarget", "Overload", "Retreat", "Stay",
    "apply", "current_player", "legal_actions", "start_ground_battle", "start_space_battle",
]


# ---------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class Hit(Action):
    """Assign one hit to a target group (RD-HIT-13): ``hit carrier``, ``hit carrier[1/0]``."""

    target: str

    def notation(self) -> str:
        return f"hit {self.target}"


@dataclass(frozen=True, slots=True)
class KamikazeTarget(Action):
    """Choose the enemy ship a destroyed kamikaze unit strikes (RD-SKL-03)."""

    target: str

    def notation(self) -> str:
        return f"kamikaze {self.target}"


@dataclass(frozen=True, slots=True)
class AmbushTarget(Action):
    """Choose the enemy unit an ambush card damages."""

    target: str

    def notation(self) -> str:
        return f"ambush {self.target}"


@dataclass(frozen=True, slots=True)
class Overload(Action):
    """Overload (RD-SKL-09): 4 shields on one combatant of group ``target``, or
    ``overload spread`` (1 each on up to 4). ``pass`` skips the skill."""

    target: str

    def notation(self) -> str:
        return f"overload {self.target}"


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """Retreat after close combat (RD-BAT-08/12)."""

    def notation(self) -> str:
        return "retreat"


@dataclass(frozen=True, slots=True)
class Stay(Action):
    """Stay in close combat: another close round follows (RD-BAT-07)."""

    def notation(self) -> str:
        return "stay"


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
    fx_a, fx_d = state.fx[b.attacker], state.fx[b.defender]
    if fx_d is not None and fx_d.first_strike and not (fx_a is not None and fx_a.first_strike):
        b.order = [DEFENDER, ATTACKER]
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
        return [Pass(), *(PlayCard(c) for c in cards)]
    if kind == "cards":
        cards = [c for c in dict.fromkeys(state.hands[seat])
                 if sk.card_playable(state, b, side, c)]
        return [Pass(), *(PlayCard(c) for c in cards)]
    if kind == "hit":
        return [Hit(t) for t in b.targets(1 - side)]
    if kind == "kamikaze":
        return [KamikazeTarget(t) for t in b.targets(1 - side, units_only=True)]
    if kind == "ambush":
        return [AmbushTarget(t) for t in b.targets(1 - side, units_only=True)]
    if kind == "overload":
        groups = sk.own_groups(b, side)
        return [Pass(), Overload("spread"), *(Overload(t) for t in groups)]
    if kind == "retreat":
        return [Stay(), Retreat()]
    raise AssertionError(kind)  # pragma: no cover


def apply(state: RiftState, action: Action) -> None:
    """Answer the pending battle decision, then run automatic steps."""
    b: Battle = state.battle
    if b.pending is None or action not in legal_actions(state):
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
        f = b.fighters[b.targets(1 - side)[action.target]]
        b.damage(f, b.hit_dmg)
        b.hits_left -= 1
    elif kind in ("kamikaze", "ambush"):
        f = b.fighters[b.targets(1 - side, units_only=True)[action.target]]
        b.damage(f, arg)
        if kind == "ambush":
            state.log(f"ambush deals {arg} damage to a {f.kind}")
            b.stage, b.resume = "casualties", b.stage
    elif kind == "overload":
        if isinstance(action, Overload):
            sk.overload(b, side, action.target, sk.rule(state, "overload_shields"))
            state.log(f"{state.seat_name(seat)} overloads: {action.target}")
    elif kind == "retreat":
        if isinstance(action, Retreat):
            _retreat(state, b, side)
        else:
            b.idx += 1
    _run(state)


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
            b.pdmg = {}
            b.idx = 0
            b.stage = "cards"
            state.log(f"{PHASES[b.phase]} range phase")
        elif st == "cards":
            if b.idx < 2:
                b.pending = ("cards", b.seats[b.idx], 0)
            else:
                b.stage = "barrage"
        elif st == "barrage":
            b.idx = 0
            b.stage = "volley"
            if not b.ground and not b.barrage_done:
                b.barrage_done = True
                sk.barrages(state, b)
                b.stage, b.resume = "casualties", "volley"
        elif st == "volley":
            if b.idx >= 2:
                b.stage = "phase_end"
                continue
            side = b.order[b.idx]
            if not b.has_living(side):
                b.idx += 1
            elif not b.overload_done[side]:
                b.stage = "overload"
            else:
                _roll(state, b, side)
                b.stage = "assign"
        elif st == "overload":
            side = b.order[b.idx]
            src = next((f for f in b.living(side) if b.can_use(f, "overload")), None)
            if src is None:
                b.overload_done[side] = True
                b.stage = "volley"
            else:
                src.used = src.used | {"overload"}
                b.pending = ("overload", b.seats[side], src.fid)
        elif st == "assign":
            side = b.hit_side
            groups = b.targets(1 - side) if b.hits_left > 0 else {}
            if not groups:
                b.hits_left = 0
                sk.after_volley_repairs(state, b, 1 - side)
                b.stage, b.resume = "casualties", "next_volley"
            elif len(groups) == 1:
                b.damage(b.fighters[next(iter(groups.values()))], b.hit_dmg)
                b.hits_left -= 1
            else:
                b.pending = ("hit", b.seats[side], 0)
        elif st == "next_volley":
            b.idx += 1
            b.stage = "volley"
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
            _retreat_step(state, b)
        elif st in ("end", "cancelled"):
            _finish(state, b)
            return
        else:  # pragma: no cover
            raise AssertionError(st)


def _roll(state: RiftState, b: Battle, side: int) -> None:
    """One volley (RD-HIT-01..12): one d6 per weapon of every surviving unit of ``side``;
    the target range is the current phase's section (RD-BAT-11)."""
    fx = state.fx[b.seats[side]]
    hits = 0
    rolls: list[int] = []
    for f in b.living(side):
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
    b.vdmg = {}
    b.hit_side = side
    b.hits_left = hits
    b.hit_dmg = 2 if b.weapon_industry[side] else 1
    if rolls:
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
            state.log(f"{state.seat_name(b.seats[f.side])}'s {f.kind} is destroyed")
            continue
        b.killed[f.side] += 1
        state.log(f"{state.seat_name(b.seats[f.side])}'s {f.kind} is destroyed")
        state.remove_unit(f.fid)
        if b.can_use(f, "kamikaze"):
            r = state.rng.d6()
            dmg = sk.rule(state, "kamikaze_damage")
            if r >= sk.rule(state, "kamikaze_min_roll"):
                groups = b.targets(1 - f.side, units_only=True)
                if len(groups) == 1:
                    b.damage(b.fighters[next(iter(groups.values()))], dmg)
                elif groups:
                    b.pending = ("kamikaze", b.seats[f.side], dmg)
                    return
    if not (b.has_living(ATTACKER) and b.has_living(DEFENDER)):
        b.stage = "end"
    else:
        b.stage = b.resume


def _cancel(state: RiftState, b: Battle, seat: int, card: str) -> None:
    state.log(f"{state.seat_name(seat)} plays {card}: the attack is cancelled")
    _send_back(state, b, ATTACKER)
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
            b.rush_tokens[side] += 1
        elif p["skill"] == "overload" and b.has_living(side):
            b.pending = ("overload", seat, 0)


# ---------------------------------------------------------------------- retreat
def _has_weapons(b: Battle, side: int) -> bool:
    return any(f.dice for f in b.living(side))


def _retreat_step(state: RiftState, b: Battle) -> None:
    """RD-BAT-08/12: after close combat the attacker, then the defender may retreat. A side
    without weapons must retreat; after 10 close rounds the attacker must (rulings). A
    planet's defenders cannot retreat from a ground battle (ruling)."""
    if b.idx >= 2:
        b.phase = CLOSE
        b.stage = "phase_start"
        return
    side = b.idx
    if b.ground and side == DEFENDER:
        b.idx += 1
        return
    if not _has_weapons(b, side) or (side == ATTACKER and b.close_rounds >= MAX_CLOSE_ROUNDS):
        _retreat(state, b, side)
        return
    b.pending = ("retreat", b.seats[side], 0)


def _retreat(state: RiftState, b: Battle, side: int) -> None:
    state.log(f"{state.seat_name(b.seats[side])} retreats")
    b.retreated = side
    _send_back(state, b, side)
    b.stage = "end"


def _send_back(state: RiftState, b: Battle, side: int) -> None:
    """Move ``side``'s surviving units out of the battle (ruling RD-OPEN-09, no movement
    points used). Attackers go back to the point they came from (units without one, e.g.
    recruited in battle, go where most of the fleet came from); a ground attacker's
    landing lifts back into orbit; a space defender goes to the first adjacent point with
    no enemy units, and is destroyed if there is none."""
    seat = b.seats[side]
    dest = -1
    if side == ATTACKER and not b.ground and b.came_from:
        dest = Counter(b.came_from.values()).most_common(1)[0][0]
    if side == DEFENDER or dest < 0:
        dest = next((p for p in state.board.neighbors[b.point]
                     if not any(u.loc == p and u.owner != seat for u in state.units.values())),
                    -1)
    for f in b.fighters.values():
        if f.side != side or not f.alive or f.building:
            continue
        f.gone = True
        u = state.units[f.fid]
        if b.ground:
            state.units[f.fid] = u._replace(landed=False)
        else:
            to = b.came_from.get(f.fid, dest) if side == ATTACKER else dest
            if to < 0:
                state.remove_unit(f.fid)
                b.killed[side] += 1
                continue
            state.units[f.fid] = u._replace(loc=to)
        _write_wounds(state, f)


def _write_wounds(state: RiftState, f) -> None:
    """Lost LP persist as wounds (Defensive Ring's LP are lost first); shields and extra
    shields come back after the battle (ruling RD-OPEN-01)."""
    u = state.units.get(f.fid)
    if u is None:
        return
    wounds = min(f.base_lp - 1, max(0, f.base_lp - max(0, f.lp - f.ring)))
    if wounds != u.wounds:
        state.units[f.fid] = u._replace(wounds=wounds)


# ---------------------------------------------------------------------- result
def _finish(state: RiftState, b: Battle) -> None:
    """End of battle (ruling RD-OPEN-08, RD-WIN-05): the side that still stands when the
    other is destroyed or retreats wins 1 VP (+ faction battle rewards) and its faction's
    salvage per enemy unit destroyed. A won ground battle captures the planet (RD-BAT-17/18);
    destroyed buildings are removed, damaged ones restored."""
    winner = -1
    if b.stage != "cancelled":
        standing = [s for s in (ATTACKER, DEFENDER) if b.has_living(s) and b.retreated != s]
        if len(standing) == 1:
            winner = standing[0]
    for f in b.fighters.values():
        if not f.building and f.alive:
            _write_wounds(state, f)
    if b.destroyed_upgrades:
        ups = state.planet_upgrades[b.planet]
        state.planet_upgrades[b.planet] = tuple(
            u for i, u in enumerate(ups) if i not in b.destroyed_upgrades)
    if winner >= 0:
        seat = b.seats[winner]
        fx = state.fx[seat]
        vp = sk.rule(state, "battle_win_vp") + (fx.battle_win_vp if fx else 0)
        state.gain_vp(seat, vp, "battle won")
        res = (fx.battle_win_resources if fx else 0) + (fx.salvage if fx else 0) * b.killed[
            1 - winner]
        if res:
            state.gain_resources(seat, res, "battle rewards")
        if b.ground and winner == ATTACKER:
            landing = [f.fid for f in b.fighters.values()
                       if f.side == ATTACKER and f.alive and not f.building]
            state.capture_planet(b.planet, seat, landing)
    elif b.stage != "cancelled":
        state.log("the battle has no winner")
    state.after_battle()
    if state.battle is b:
        state.battle = None
