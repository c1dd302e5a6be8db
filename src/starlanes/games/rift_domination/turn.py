"""The turn (BASIC GAME STRUCTURE, RD-TURN-01..10) and the end of the game (RD-WIN-*).

1 draw two OCC-cards (+1 per trading outpost, RD-UPG-13); 2 gain the resources-per-round
value plus mines (RD-UPG-11/12) and two free fighters (RD-TURN-04/05); 3 the counter rises by
one (RD-TURN-06); 4 build upgrades; 5-6 move and fight (``movement``); 7 recruit and end.
Steps 1-3 run automatically; the free fighters' placement is a decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision
from starlanes.engine.explain import article

try:
    import cython
    if not cython.compiled:  # Cython installed, this module not compiled
        raise ModuleNotFoundError
except ModuleNotFoundError:  # the pure build
    from starlanes.engine import _cython as cython

from . import occ
from .actions import Build, Demolish, Done, EndTurn, PlaceFighters, Recruit, Unlock, action
from .survey import enemy_fleet_points, kind_sets
from .units import Unit, new_unit

_DONE = action(Done)  # listed at every step of the build and recruit: made once
_END_TURN = action(EndTurn)

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState


def slots(s: RiftState, planet: int) -> int:
    """Upgrade slots of a planet: 2, or 4 on the huge central planets (RD-UPG-01/02)."""
    r = s.content.rules
    return r.huge_upgrade_slots if s.board.planet_huge[planet] else r.upgrade_slots


def reset_movement(s: RiftState, seat: int) -> None:
    """Movement points for the turn (RD-MOV-07) with warp (RD-UPG-07..09): +1 for the
    owner's units starting the turn in a system with its warp, -1 (never below 1) for other
    players' units there; infantry is not affected. Ruling RD-OPEN-23: the modifier is set
    by the system a unit starts its turn in; entering an enemy warp's system later costs
    the point again (``movement._warp_toll``)."""
    b = s.board
    warp_sys: dict[int, int] = {}
    for p in b.in_play_planets:
        if "warp" in s.planet_upgrades[p] and s.planet_owner[p] >= 0:
            warp_sys[b.planet_system[p]] = s.planet_owner[p]
    base = kind_sets(s.stats[seat]).base_mp
    changed = []
    for uid, unit in s.units.of[seat].items():
        u = cython.cast(tuple, unit)  # a Unit: read by index, as a tuple
        mp = base[u[1]]
        if mp and warp_sys and u[1] != "infantry":
            sys = b.system_of[u[2]]
            if sys >= 0 and sys in warp_sys:
                w = s.content.rules.warp_mp
                mp = mp + w if warp_sys[sys] == seat else max(1, mp - w)
        if u[4] != mp:
            changed.append((uid, new_unit(Unit, (u[0], u[1], u[2], u[3], mp, u[5]))))
    s.units.restate(seat, changed)


def trading_outposts(s: RiftState, seat: int) -> int:
    return sum(
        up.count("trading_outpost") for p, up in enumerate(s.planet_upgrades)
        if s.planet_owner[p] == seat
    )


def income_of(s: RiftState, seat: int) -> int:
    """Step 2 resources: counter value + 2 per mine + 2 per harvester planet with two
    mines (RD-TURN-03, RD-UPG-11/12) + faction income bonus."""
    total = s.income[seat]
    for p, ups in enumerate(s.planet_upgrades):
        if s.planet_owner[p] != seat or not ups:
            continue
        mines = ups.count("mine")
        r = s.content.rules
        total += r.mine_income * mines
        if mines >= 2 and s.tile_kind[p] == "harvester":
            total += r.harvester_two_mines_bonus
    fx = s.fx[seat]
    return total + (fx.income_bonus if fx else 0)


def run_turn_start(s: RiftState) -> None:
    seat = s.seat
    fx = s.fx[seat]
    assert fx is not None
    if s.step == 1:
        s.step = 2
        s.log(f"-- round {s.round}, {s.seat_name(seat)}'s turn --")
        reset_movement(s, seat)
        s.turn_mp_bonus = 0
        n = s.content.rules.occ_draw_per_turn + fx.extra_draw + fx.trading_outpost_draw * trading_outposts(s, seat)
        occ.draw_cards(s, seat, n)
        return
    if s.step == 2:
        s.step = 3
        s.gain_resources(seat, income_of(s, seat), "income")
        count = s.content.rules.free_fighters_per_turn + fx.extra_free_fighters
        targets = fighter_points(s, seat)
        if targets:
            s.push(Decision(seat, "fighters", (count,)))
        else:
            s.log(f"{s.seat_name(seat)}: {fighters_lost_reason(s, seat)}: free fighters lost")
        return
    s.income[seat] = min(s.content.rules.income_max, s.income[seat] + s.content.rules.income_step + fx.income_growth)
    s.phase = "build"


def fighters_lost_reason(s: RiftState, seat: int) -> str:
    """Why ``seat``'s free fighters have nowhere to go (RD-TURN-05: a fleet, or the orbit of
    a planet with a military base): no fleet and no base, or every base's orbit held by an
    enemy fleet (ruling RD-OPEN-24: new units never enter an enemy-held point)."""
    bases = sorted(s.military_bases(seat))
    if not bases:
        return "no fleet and no military base"
    names = ", ".join(s.board.planet_ids[p] for p in bases)
    if len(bases) == 1:
        where = f"the orbit of the military base at {names} is blockaded by an enemy fleet"
    else:
        where = (f"the orbits of the military bases at {names} are blockaded by enemy "
                 "fleets")
    return f"no fleet, and {where} (no new units enter an enemy-held orbit, RD-OPEN-24)"


def fighter_points(s: RiftState, seat: int) -> list[int]:
    """Where free fighters may go: a point holding one of the seat's fleets, or the orbit of
    one of its planets with a military base (RD-TURN-05), but not an orbit held by an
    enemy fleet (ruling RD-OPEN-24)."""
    pts = set(s.units.afloat[seat])
    pts.update(s.board.planet_point[p] for p in s.military_bases(seat))
    return sorted(pts - s.units.fleet_points(seat))


def _fighters_legal(s: RiftState, d: Decision) -> list[Action]:
    names = s.board.names
    return [action(PlaceFighters, names[p]) for p in fighter_points(s, d.seat)]


def _fighters_apply(s: RiftState, d: Decision, a: Action) -> None:
    assert isinstance(a, PlaceFighters)
    p = s.board.index[a.point]
    for _ in range(d.data[0]):
        s.add_unit(d.seat, "fighter", p)
    s.log(f"{s.seat_name(d.seat)} places {d.data[0]} free fighters at {s.point_name(a.point)}")


# ------------------------------------------------------------------ step 4: build
def warp_blocked(s: RiftState, seat: int, planet: int) -> bool:
    """One warp per system (RD-UPG-10); option ``warp_limit="player"`` reads it per player."""
    b = s.board
    sys = b.planet_system[planet]
    per_player = s.options["warp_limit"] == "player"
    for p in b.system_planets[sys]:
        if "warp" in s.planet_upgrades[p] and (not per_player or s.planet_owner[p] == seat):
            return True
    return False


def buildable(s: RiftState, seat: int, planet: int) -> list[str]:
    """Upgrades ``seat`` may put on ``planet`` now, ignoring cost (RD-UPG-04)."""
    if s.planet_owner[planet] != seat or len(s.planet_upgrades[planet]) >= slots(s, planet):
        return []
    out = []
    for uid in s.content.upgrades:
        if uid == "warp" and warp_blocked(s, seat, planet):
            continue
        out.append(uid)
    return out


def upgrade_cost(s: RiftState, seat: int, upgrade: str) -> int:
    fx = s.fx[seat]
    cost = s.content.upgrades[upgrade].cost
    return fx.upgrade_cost(upgrade, cost) if fx else cost


def build_actions(s: RiftState) -> list[Action]:
    """Step 4 actions of the seat in turn, planet by planet: each upgrade it can afford
    and may build there (:func:`buildable`), then demolishing each upgrade there; then
    card plays and done."""
    seat = s.seat
    b = s.board
    ids, huge, memo = b.planet_ids, b.planet_huge, b.memo
    rules = s.content.rules
    out: list[Action] = []
    res = s.resources[seat]
    owner, upgrades = s.planet_owner, s.planet_upgrades
    affordable: tuple[str, ...] | None = None
    for p in b.in_play_planets:
        if owner[p] != seat:
            continue
        built = upgrades[p]
        if len(built) < (rules.huge_upgrade_slots if huge[p] else rules.upgrade_slots):
            if affordable is None:
                affordable = tuple([up for up in s.content.upgrades  # a list: no generator
                                    if upgrade_cost(s, seat, up) <= res])
            key = ("build", p, affordable, "warp" in affordable and warp_blocked(s, seat, p))
            builds = memo.get(key)
            if builds is None:
                builds = memo[key] = tuple(action(Build, up, ids[p]) for up in affordable
                                           if up != "warp" or not key[3])
            out.extend(builds)
        if built:  # demolishing each upgrade built there, made once per board and list
            dkey = ("demolish", p, built)
            demolish = memo.get(dkey)
            if demolish is None:
                demolish = memo[dkey] = tuple([action(Demolish, up, ids[p])
                                               for up in sorted(set(built))])
            out.extend(demolish)
    out.extend(occ.own_turn_actions(s, seat))
    out.append(_DONE)
    return out


def add_upgrade(s: RiftState, planet: int, upgrade: str) -> None:
    s.planet_upgrades[planet] = (*s.planet_upgrades[planet], upgrade)


def apply_build(s: RiftState, a: Action) -> None:
    seat = s.seat
    if isinstance(a, Build):
        p = s.board.planet_ids.index(a.planet)
        cost = upgrade_cost(s, seat, a.upgrade)
        s.resources[seat] -= cost
        add_upgrade(s, p, a.upgrade)
        s.log(f"{s.seat_name(seat)} builds {article(s.kind_name(a.upgrade))} on "
              f"{s.point_name(a.planet)} for {cost}")
    elif isinstance(a, Demolish):
        p = s.board.planet_ids.index(a.planet)
        ups = list(s.planet_upgrades[p])
        ups.remove(a.upgrade)
        s.planet_upgrades[p] = tuple(ups)
        s.log(f"{s.seat_name(seat)} demolishes its {s.kind_name(a.upgrade)} on "
              f"{s.point_name(a.planet)} (no refund)")
    elif isinstance(a, Done):
        s.phase = "move"
        s.log(f"{s.seat_name(seat)} moves")
    else:
        occ.play_own_turn(s, seat, a)


# ------------------------------------------------------------------ step 7: recruit
def recruit_points(s: RiftState, seat: int) -> dict[int, frozenset[str] | None]:
    """Planets where ``seat`` may recruit: those with a military base (any roster unit,
    RD-REC-03/04) and, for Vespian-like factions, orbits with one of its diplomats (the
    listed units only, RD-FAC-04); never an orbit held by an enemy fleet (new units are
    not placed into a battle, ruling RD-OPEN-24)."""
    out: dict[int, frozenset[str] | None] = {p: None for p in occ.free_bases(s, seat)}
    fx = s.fx[seat]
    if fx and fx.diplomat_recruits:
        b = s.board
        enemy = None
        for u in s.units.of[seat].values():
            if u.kind == "diplomat":
                p = b.planet_of[u.loc]
                if p >= 0 and p not in out:
                    if enemy is None:
                        enemy = enemy_fleet_points(s, seat)
                    if u.loc not in enemy:
                        out[p] = fx.diplomat_recruits
    return out


def recruit_actions(s: RiftState) -> list[Action]:
    seat = s.seat
    fx = s.fx[seat]
    assert fx is not None
    res = s.resources[seat]
    ids = s.board.planet_ids
    stats = s.stats[seat]
    out: list[Action] = []
    affordable = [k for k in s.roster[seat] if fx.unit_cost(stats[k]) <= res]
    if affordable:
        for p, only in recruit_points(s, seat).items():
            for k in affordable:
                if only is None or k in only:
                    out.append(action(Recruit, k, ids[p]))
    out.extend(occ.own_turn_actions(s, seat))
    out.append(_END_TURN)
    return out


def apply_recruit(s: RiftState, a: Action) -> None:
    seat = s.seat
    if isinstance(a, Recruit):
        fx = s.fx[seat]
        assert fx is not None
        cost = fx.unit_cost(s.stats[seat][a.unit])
        s.resources[seat] -= cost
        p = s.board.planet_ids.index(a.planet)
        s.add_unit(seat, a.unit, s.board.planet_point[p])
        s.log(f"{s.seat_name(seat)} recruits {article(s.kind_name(a.unit))} at "
              f"{s.point_name(a.planet)} for {cost}")
    elif isinstance(a, EndTurn):
        s.phase = "turn_end"
    else:
        occ.play_own_turn(s, seat, a)


# ------------------------------------------------------------------ end of turn / round
def run_turn_end(s: RiftState) -> None:
    """The turn is over: the other seats get a window for any-time OCC-cards (RD-OCC-01,
    ``occ.open_window``), then :func:`run_between_turns` moves on."""
    s.units.restate(s.seat, [(uid, new_unit(Unit, (u[0], u[1], u[2], u[3], 0, u[5])))
                             for uid, u in s.units.of[s.seat].items() if u[4]])
    s.turn_mp_bonus = 0
    s.no_landing = frozenset()
    s.phase = "between_turns"
    occ.open_window(s)


def run_between_turns(s: RiftState) -> None:
    """Next seat clockwise; at the end of a round check victory (RD-WIN-01..07)."""
    if s.seat + 1 < s.n:
        s.seat += 1
    else:
        if s.target_reached or max(s.vp) >= s.target_vp:
            _finish(s, "victory_points")
            return
        if s.round >= s.options["round_limit"]:
            _finish(s, "round_limit")
            return
        s.round += 1
        s.seat = 0
    s.phase = "turn_start"
    s.step = 1


def _finish(s: RiftState, reason: str) -> None:
    """Ruling RD-OPEN-19: once anyone has reached the target the round is the last
    (RD-WIN-06), even if that player falls back below it before the round ends; then the
    players with the most VP win (ties share)."""
    best = max(s.vp)
    s.winners = [i for i, v in enumerate(s.vp) if v == best]
    s.end_reason = reason
    s.phase = "over"
    s.log(f"game over ({reason.replace('_', ' ')}): winner(s) "
          + ", ".join(s.seat_name(w) for w in s.winners))


# ------------------------------------------------------------------ unlock decision
def lockable(s: RiftState, seat: int) -> list[str]:
    return [k for k in s.content.units if k not in s.roster[seat]]


def _unlock_legal(s: RiftState, d: Decision) -> list[Action]:
    return [Unlock(k) for k in lockable(s, d.seat)]


def _unlock_apply(s: RiftState, d: Decision, a: Action) -> None:
    assert isinstance(a, Unlock)
    s.roster[d.seat] = (*s.roster[d.seat], a.unit)
    s.unlocks[d.seat] += 1
    s.log(f"{s.seat_name(d.seat)} unlocks the {s.kind_name(a.unit)}")


DECISIONS = {
    "fighters": (_fighters_legal, _fighters_apply),
    "unlock": (_unlock_legal, _unlock_apply),
}
