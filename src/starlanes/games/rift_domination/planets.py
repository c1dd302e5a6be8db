"""Planets: taking control, planet conditions, systems and the central planets.

PLANET CONDITIONS (RD-PLC-*): landing ground units on an uncontrolled planet resolves its
condition tile, which is then flipped face up. Civilized: pay 2 resources, 1 OCC-card
(RD-PLC-04/06); a diplomat may negotiate instead (RD-PLC-05, RD-SKL-07/08). Dangerous: a die,
3+ takes it with a free upgrade and the tile's resources, 1-2 destroys the landed units
(RD-PLC-07..09). Anomaly: the tile's VP and 2 free infantry (RD-PLC-10/11). Harvester: the
tile's resources (RD-PLC-12). Landing on an enemy planet starts a ground battle.

SYSTEMS (RD-SYS-02..04): controlling every planet of a system gives 1 VP each time and lets
the player unlock a unit type within the faction's limit (RD-FAC-10). SPECIAL PLANETS
(RD-SPC-*): taking a huge central planet scores the system VP and 4 VP for the planet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision
from starlanes.engine.explain import article

from . import battle, occ
from .actions import Consume, FreeUpgrade, Land, Lift, Negotiate, action
from .survey import Survey, landed_infantry_at, survey_units
from .turn import add_upgrade, buildable, lockable

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState



def _ground_in_orbit(s: RiftState, seat: int, point: int) -> list[int]:
    """The seat's ground units in the orbit at ``point`` that may land: not those that
    retreated from a ground battle since they last arrived (ruling RD-OPEN-10)."""
    stats = s.stats[seat]
    barred = s.no_landing
    return [
        uid for uid, u in s.units.of[seat].items()
        if u.loc == point and not u.landed and stats[u.kind].ground
        and uid not in barred
    ]


def planet_actions(s: RiftState, seat: int, survey: Survey | None = None) -> list[Action]:
    """Land / lift / negotiate / consume actions available to ``seat`` in step 5-6, by
    orbit point; ``survey`` is :func:`survey_units` of ``s`` for ``seat`` if the caller
    has it already."""
    if survey is None:
        survey = survey_units(s, seat)
    b = s.board
    fx = s.fx[seat]
    planet_of = b.planet_of
    planet_ids = b.planet_ids
    planet_owner = s.planet_owner
    tile_kind = s.tile_kind
    fleets, own_fleets = s.units.afloat_all, s.units.afloat[seat]
    lifters = survey.lifters
    consumes = fx is not None and bool(fx.consume)
    out: list[Action] = []
    can_pay = (fx is not None and fx.civilized_free) or (
        s.resources[seat] >= s.content.rules.civilized_cost)
    own = survey.own
    for point in sorted(own):
        # flags: ground unit in orbit, troops in orbit, landed unit, diplomat
        ground, troops, landed, diplomat = own[point]
        p = planet_of[point]
        owner = planet_owner[p]
        hostile = fleets.get(point, 0) > own_fleets.get(point, 0)  # an enemy fleet there
        # troops: any ground unit but a diplomat (ruling RD-OPEN-10)
        payable = owner >= 0 or tile_kind[p] != "civilized" or can_pay
        if ground and not hostile and (owner == seat or (troops and payable)):
            out.append(action(Land, planet_ids[p]))
        if landed and point in lifters:
            out.append(action(Lift, planet_ids[p]))
        if (
            owner != seat and tile_kind[p] == "civilized" and not hostile and diplomat
            and (owner < 0 or not landed_infantry_at(s, owner, point))
        ):
            out.append(action(Negotiate, planet_ids[p]))
        if consumes and owner < 0 and not hostile:
            out.append(action(Consume, planet_ids[p]))
    return out


def apply_planet_action(s: RiftState, seat: int, a: Action) -> None:
    b = s.board
    p = b.planet_ids.index(a.planet)  # type: ignore[attr-defined]
    point = b.planet_point[p]
    if isinstance(a, Lift):
        ship = _lifter(s, seat, point)
        assert ship is not None
        x = s.units[ship]
        s.units[ship] = x._replace(mp=x.mp - 1)
        for uid, u in list(s.units.of[seat].items()):
            if u.loc == point and u.landed:
                s.units[uid] = u._replace(landed=False)
        s.log(f"{s.seat_name(seat)} lifts off from {s.point_name(a.planet)} aboard "
              f"{article(s.kind_name(x.kind))}")
    elif isinstance(a, Land):
        landing = _ground_in_orbit(s, seat, point)
        owner = s.planet_owner[p]
        if owner == seat:
            _set_landed(s, landing)
            s.log(f"{s.seat_name(seat)} lands {len(landing)} unit(s) on {s.point_name(a.planet)}")
        elif owner < 0:
            take_uncontrolled(s, seat, p, landing)
        else:
            s.log(f"{s.seat_name(seat)} lands {len(landing)} unit(s) on {s.point_name(a.planet)}: ground battle")
            battle.start_ground_battle(s, seat, p, landing)
    elif isinstance(a, Negotiate):
        negotiate(s, seat, p)
    elif isinstance(a, Consume):
        consume(s, seat, p)


def _lifter(s: RiftState, seat: int, point: int) -> int | None:
    """The ship that picks landed units up: one of the seat's ships in that orbit with
    capacity and a movement point left, which the lift costs (ruling RD-OPEN-12; without
    this cost landing and lifting could repeat forever)."""
    stats = s.stats[seat]
    best = None
    for uid, u in s.units.of[seat].items():
        if (u.loc == point and not u.landed and u.mp > 0
                and stats[u.kind].capacity > 0 and (best is None or u.mp > s.units[best].mp)):
            best = uid
    return best


def _set_landed(s: RiftState, uids: list[int]) -> None:
    for u in uids:
        s.units[u] = s.units[u]._replace(landed=True)


def _reveal(s: RiftState, p: int) -> None:
    if s.tile_kind[p] and not s.tile_revealed[p]:
        s.tile_revealed[p] = True
        s.log(f"{s.point_name(s.board.planet_ids[p])}: {s.tile_kind[p]} tile shows {s.tile_value[p]}")


def _garrison_losses(s: RiftState, seat: int, p: int, landing: list[int]) -> list[int]:
    """Neutral defenders (ruling RD-OPEN-25, designed ``garrison`` of the board's planet): a
    landing on a planet no player holds loses that many ground units, cheapest first, before
    the condition resolves; civilized planets (bought, RD-PLC-04) have none. Returns the
    landing units left."""
    g = s.board.planet_garrison[p] if s.board.planet_garrison else 0
    if not g or s.tile_kind[p] == "civilized":
        return landing
    stats = s.stats[seat]
    order = sorted(landing, key=lambda u: (stats[s.units[u].kind].cost, u))
    lost, left = order[:g], order[g:]
    for u in lost:
        s.remove_unit(u)
    s.log(f"the garrison of {s.point_name(s.board.planet_ids[p])} destroys {len(lost)} landing unit(s)")
    return [u for u in landing if u in left]


def take_uncontrolled(s: RiftState, seat: int, p: int, landing: list[int]) -> None:
    """Resolve the condition of an uncontrolled planet for landing units (RD-PLC-04..12),
    after its garrison has fought the landing (ruling RD-OPEN-25)."""
    fx = s.fx[seat]
    assert fx is not None
    kind = s.tile_kind[p]
    name = s.board.planet_ids[p]
    value = s.tile_value[p]
    landing = _garrison_losses(s, seat, p, landing)
    if not landing:
        s.log(f"{s.seat_name(seat)}'s landing on {name} is beaten off")
        return
    _set_landed(s, landing)
    if kind == "dangerous":
        roll = s.rng.d6()
        total = roll + fx.dangerous_roll_bonus
        s.log(f"{s.seat_name(seat)} lands on dangerous {name}: rolls {roll}"
              + (f" (+{fx.dangerous_roll_bonus})" if fx.dangerous_roll_bonus else ""))
        if total < s.content.rules.dangerous_min_roll or roll <= 0:
            for u in landing:
                s.remove_unit(u)
            s.log(f"the landing party on {name} is lost")
            return
    _reveal(s, p)
    if kind == "civilized":
        if not fx.civilized_free:
            s.resources[seat] -= s.content.rules.civilized_cost
            s.log(f"{s.seat_name(seat)} pays {s.content.rules.civilized_cost} resources for {name}")
        occ.draw_cards(s, seat, s.content.rules.civilized_infantry_cards)
    elif kind == "dangerous":
        s.gain_resources(seat, value, f"dangerous {name}")
    elif kind == "anomaly":
        s.gain_vp(seat, value, f"anomaly {name}")
        for _ in range(s.content.rules.anomaly_free_infantry):
            s.add_unit(seat, "infantry", s.board.planet_point[p], landed=True)
    elif kind == "harvester":
        s.gain_resources(seat, value, f"harvester {name}")
    bonus = fx.condition_bonus.get(kind)
    if bonus:
        s.gain_resources(seat, bonus[0], "faction bonus")
        if bonus[1]:
            s.gain_vp(seat, bonus[1], "faction bonus")
    set_owner(s, p, seat)
    if kind == "dangerous":
        push_free_upgrade(s, seat, p)


def negotiate(s: RiftState, seat: int, p: int) -> None:
    """Negotiate (RD-SKL-07/08, RD-PLC-05; ruling RD-OPEN-03): control of the civilized
    planet, 2 OCC-cards, 2 fighters in its orbit and one free planet upgrade. The diplomat
    lands on the planet. On another player's planet its military base, artillery and shield
    generator are destroyed (RD-BAT-18); the other upgrades change hands."""
    point = s.board.planet_point[p]
    s.log(f"{s.seat_name(seat)} negotiates for {s.point_name(s.board.planet_ids[p])}")
    for uid, u in s.units.of[seat].items():
        if u.loc == point and u.kind == "diplomat":
            s.units[uid] = u._replace(landed=True)
            break
    _reveal(s, p)
    if s.planet_owner[p] >= 0:
        _strip_fortifications(s, p)
    for _ in range(s.content.rules.negotiate_fighters):
        s.add_unit(seat, "fighter", point)
    set_owner(s, p, seat)
    occ.draw_cards(s, seat, s.content.rules.negotiate_cards)
    if s.content.rules.negotiate_free_upgrade:
        push_free_upgrade(s, seat, p)


def consume(s: RiftState, seat: int, p: int) -> None:
    """The Void consumes a planet: the same fixed reward whatever its tile (RD-FAC-12)."""
    fx = s.fx[seat]
    assert fx is not None and fx.consume is not None
    res, vp = fx.consume
    s.log(f"{s.seat_name(seat)} consumes {s.point_name(s.board.planet_ids[p])}")
    _reveal(s, p)
    s.gain_resources(seat, res, "consume")
    if vp:
        s.gain_vp(seat, vp, "consume")
    set_owner(s, p, seat)


def _strip_fortifications(s: RiftState, p: int) -> None:
    ups = s.content.upgrades
    s.planet_upgrades[p] = tuple(u for u in s.planet_upgrades[p] if ups[u].transfers)


def capture_planet(s: RiftState, p: int, seat: int, landing: list[int]) -> None:
    """A won ground battle: the planet and its transferable upgrades change hands
    (RD-BAT-17/18); military base, artillery and shield generator are destroyed."""
    _strip_fortifications(s, p)
    _set_landed(s, [u for u in landing if u in s.units])
    s.log(f"{s.seat_name(seat)} captures {s.point_name(s.board.planet_ids[p])}")
    set_owner(s, p, seat)


def set_owner(s: RiftState, p: int, seat: int) -> None:
    """Change a planet's controller and score systems and huge planets."""
    s.planet_owner[p] = seat
    b = s.board
    sys = b.planet_system[p]
    if b.planet_huge[p]:
        # SPECIAL PLANETS (RD-SPC-02/03, ruling RD-OPEN-21): 4 VP for the planet, at every
        # capture, or with option huge_planet_vp="once" the first time this seat takes it;
        # taking one gives control of the whole central system, which scores only when
        # control is gained (RD-SYS-04), not again for the second huge planet.
        if huge_planet_scores(s, seat, p):
            s.gain_vp(seat, s.content.rules.huge_planet_vp, f"huge planet {b.planet_ids[p]}")
            if s.options["huge_planet_vp"] == "once":
                s.huge_scored = s.huge_scored | {(seat, p)}
        previous = s.system_owner[sys]
        s.system_owner[sys] = seat
        if previous != seat:
            gain_system(s, seat, sys)
        return
    members = b.system_planets[sys]
    controller = seat if all(s.planet_owner[q] == seat for q in members) else -1
    previous = s.system_owner[sys]
    s.system_owner[sys] = controller
    if controller >= 0 and controller != previous:
        gain_system(s, seat, sys)


def huge_planet_scores(s: RiftState, seat: int, p: int) -> bool:
    """Whether taking huge planet ``p`` now gives ``seat`` its VP (RD-SPC-03): always,
    or with option ``huge_planet_vp="once"`` only the first time (ruling RD-OPEN-21)."""
    return s.options["huge_planet_vp"] != "once" or (seat, p) not in s.huge_scored


def gain_system(s: RiftState, seat: int, sys: int) -> None:
    """+1 VP each time a whole system is taken (RD-SYS-04) and a unit unlock (RD-SYS-03)."""
    fx = s.fx[seat]
    assert fx is not None
    s.gain_vp(seat, s.content.rules.system_control_vp + fx.system_control_vp, f"controls system {s.board.system_ids[sys]}")
    if fx.system_control_resources:
        s.gain_resources(seat, fx.system_control_resources, "system bonus")
    limit = s.content.factions[s.faction[seat]].unlock_limit
    if s.unlocks[seat] < limit and lockable(s, seat):
        s.push(Decision(seat, "unlock"))


def push_free_upgrade(s: RiftState, seat: int, p: int) -> None:
    if buildable(s, seat, p):
        s.push(Decision(seat, "free_upgrade", (p,)))


def _free_legal(s: RiftState, d: Decision) -> list[Action]:
    return [FreeUpgrade(u) for u in buildable(s, d.seat, d.data[0])] + [FreeUpgrade("none")]


def _free_apply(s: RiftState, d: Decision, a: Action) -> None:
    assert isinstance(a, FreeUpgrade)
    if a.upgrade != "none":
        add_upgrade(s, d.data[0], a.upgrade)
        s.log(f"{s.seat_name(d.seat)} gets a free {s.kind_name(a.upgrade)} on "
              f"{s.point_name(s.board.planet_ids[d.data[0]])}")


DECISIONS = {"free_upgrade": (_free_legal, _free_apply)}
