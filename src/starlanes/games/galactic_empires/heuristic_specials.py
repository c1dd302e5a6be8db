"""The heuristic bot's rules for Galactic Empires' specials: reserve swaps, volleys, Krebiz
separation, moving freighters and tugs, and which opponent to finish first.

Each function looks at one decision of :class:`~.heuristic.HeuristicAgent` and says what the
special is worth there (0: not worth a card play) or which option to take:

- **swap** (ruling GE-OPEN-04): a ship or dragon of a major empire the fleet may not field
  (GE-FLEET-02), or terrain once 8 are in play, is dead in hand; a spare card play trades
  it for a reserve card the seat can use, best first (Sector HQ card, reaction, terrain,
  ship ...);
- **volley**: when every weapon left will go into the target anyway (the Sector HQ, or a
  target the whole remaining fire cannot destroy) one volley adds a unit's weapons at once;
  nothing else changes, as the shot-by-shot choice would add the same weapons;
- **separate** (GE-EMP-KRB-15): a combination that got the points to Engage only one
  component is separated in the card play phase, else those points are wasted; the bot pays
  for one component only when the whole combination is beyond its points, a command point is
  free (GE-EMP-KRB-10) and the damage can be split so that each component keeps more than
  any one opponent's whole fire (apart, each can be destroyed alone: GE-EMP-KRB-02 no longer
  shields it). The damage is split so that the weaker component keeps the most left, and
  the crew and equipment go on the Engaged component, where they work;
- **relocate** (GE-TURN-03): a freighter or tug goes down with its terrain, so it moves to
  the player's sturdiest terrain when that holds clearly more than its own;
- **focus**: with several opponents, the one whose elimination needs the least damage
  (his guards' points left plus his Sector HQ's) is the one everybody's fire and harmful
  cards finish first.
"""

from __future__ import annotations

from starlanes.engine import Action

from .actions import GEAction, is_hq
from .content import Card
from .empires import command_room, empire_allowed, split_options
from .state import HQ_LIMIT, GEState
from .units import hp_left, lead, ships_of, slots

#: What a reserve card is worth in hand, by type letter, when a dead card makes room for it.
SWAP_WORTH = {"Q": 24, "O": 22, "T": 20, "S": 18, "D": 18, "E": 16, "C": 16, "B": 14,
              "M": 14, "H": 14}


#: Terrain in play from which the bot hardly wants more (its terrain plays drop to almost
#: nothing there).
TERRAIN_ENOUGH = 8


def dead_in_hand(s: GEState, seat: int, c: Card, terrain: int) -> bool:
    """A ship or dragon of a major empire ``seat`` may not field while its fleet holds
    another major empire's ships (GE-FLEET-02/03), or more terrain when ``terrain`` (the
    seat's terrain in play) is already :data:`TERRAIN_ENOUGH`."""
    if c.type == "T":
        return terrain >= TERRAIN_ENOUGH
    return c.type in "SD" and not empire_allowed(s, seat, c)


def swap_value(s: GEState, a: GEAction, me: int) -> float:
    """Worth of ``swap`` hand ``a.a`` for reserve ``a.b`` (0: keep the hand as it is)."""
    h, r = s.card(a.a), s.card(a.b)
    terrain = sum(1 for u in s.units.values()
                  if u.owner == me and u.host < 0 and u.against < 0
                  and s.cards[u.card].type == "T")
    if not dead_in_hand(s, me, h, terrain) or dead_in_hand(s, me, r, terrain):
        return 0
    return SWAP_WORTH.get(r.type, 14) + r.strength / 10


def volley_choice(s: GEState, shots: list[GEAction], volleys: list[GEAction],
                  need: int, allocated: int) -> GEAction | None:
    """A volley when all the weapons left go into the target anyway: ``need`` is the damage
    that destroys it (huge for a Sector HQ), ``allocated`` what is already picked. The unit
    with the most weapons left goes first. None: pick weapons one by one."""
    if not volleys:
        return None
    power = sum(_shot_power(s, a) for a in shots)
    if allocated + power > need:
        return None
    count: dict[int, int] = {}
    for a in shots:
        count[a.a] = count.get(a.a, 0) + 1
    return max(volleys, key=lambda a: (count.get(a.a, 0), -a.a))


def _shot_power(s: GEState, a: GEAction) -> int:
    return s.units[a.a].charge if slots(s, a.a)[a.b] == "V" else 1


def fire_need(s: GEState, target: int) -> int:
    """Damage that destroys ``target`` (a Sector HQ: more than any fire can do)."""
    return 10 ** 6 if is_hq(target) else hp_left(s, target)


def separate_value(s: GEState, a: GEAction, me: int) -> float:
    """Worth of separating combination ``a.a``: high when only one component was paid for
    (GE-EMP-KRB-15: it is Engaged only once separated), else 0."""
    u = s.units.get(a.a)
    if u is None or u.half < 0 or u.engaged:
        return 0
    return 90


def enemy_fire(s: GEState, me: int) -> int:
    """The most weapons one opponent has in play (a variplaz counted at its maximum): the
    damage his next Weapons Fire Phase could do at most."""
    per: dict[int, int] = {}
    for i, u in s.units.items():
        if u.owner == me or u.against >= 0 or not s.alive[u.owner]:
            continue
        c = s.cards[u.card]
        if c.type in "SBDCE":
            per[u.owner] = per.get(u.owner, 0) + sum(
                c.vmax or 1 if w == "V" else 1 for w in slots(s, i))
    return max(per.values(), default=0)


def _split_left(cc: Card, pc: Card, sdmg: int, dmg: int, sd: int, d: int) -> tuple[int, int]:
    """Points left on the cruiser and on the capsule when the cruiser keeps ``sd`` shield
    and ``d`` structure damage of the combination's ``sdmg``/``dmg``."""
    return (cc.shields - sd + cc.strength - d,
            pc.shields - (sdmg - sd) + pc.strength - (dmg - d))


def safe_to_separate(s: GEState, inst: int, me: int) -> bool:
    """Separated, each component can be destroyed alone (GE-EMP-KRB-02 no longer holds):
    worth it only if the damage can be split so that each keeps more than any one
    opponent's whole fire."""
    lo = lead(s, inst)
    u = s.units[lo]
    if u.partner < 0:
        return False
    cru, cap = (lo, u.partner) if s.card(lo).krebiz == "cruiser" else (u.partner, lo)
    cc, pc = s.card(cru), s.card(cap)
    threat = enemy_fire(s, me)
    return any(min(_split_left(cc, pc, u.sdmg, u.dmg, sd, d)) > threat
               for sd, d in split_options(s, lo))


def half_engage_ok(s: GEState, me: int, inst: int) -> bool:
    """Engaging one component of combination ``inst`` pays only if it can then be
    separated: a free command point (GE-EMP-KRB-10), and no easy kill left behind."""
    return command_room(s, me, None) and safe_to_separate(s, inst, me)


def component_value(c: Card) -> float:
    """What one Krebiz component brings when it alone is Engaged."""
    return c.strength + c.shields + 2.5 * len(c.weapons)


def split_choice(s: GEState, acts: list[GEAction], pair: tuple[int, int]) -> Action:
    """Divide the combination's damage (``split`` a.a shield, a.b structure damage left on
    the cruiser): the weaker component keeps the most left, so neither is an easy kill."""
    lo, other = pair
    cru, cap = (lo, other) if s.card(lo).krebiz == "cruiser" else (other, lo)
    cc, pc = s.card(cru), s.card(cap)
    u = s.units[lo]

    def key(a: GEAction) -> tuple[int, int]:
        left = _split_left(cc, pc, u.sdmg, u.dmg, a.a, a.b)
        return (min(left), sum(left))

    return max(acts, key=key)


def place_choice(s: GEState, acts: list[GEAction]) -> Action:
    """Crew and equipment go on the Engaged component, where they work."""
    for a in acts:
        if s.units[a.b].engaged:
            return a
    return acts[0]


def relocate_choice(s: GEState, legal: list[Action], me: int) -> Action | None:
    """Move a freighter or tug from a terrain with little left to the sturdiest terrain
    (2 or more points more left); None: stay."""
    best: tuple[int, Action] | None = None
    for a in legal:
        if getattr(a, "kind", "") != "relocate":
            continue
        host = s.units[a.a].host
        gain = hp_left(s, a.b) - hp_left(s, host)
        if gain >= 2 and (best is None or gain > best[0]):
            best = (gain, a)
    return best[1] if best else None


def elimination_effort(s: GEState, seat: int) -> int:
    """Damage still needed to eliminate ``seat``: what his ships can absorb (all of them
    must be destroyed before his Sector HQ can be fired at, GE-DMG-05) plus the points his
    Sector HQ has left (GE-WIN-02)."""
    return max(0, HQ_LIMIT - s.hq[seat]) + sum(hp_left(s, i) for i in ships_of(s, seat))


def easiest_victim(s: GEState, me: int) -> int:
    """With two or more opponents still in the game, the one closest to elimination (least
    :func:`elimination_effort`; on a tie, the first in turn order after ``me``, so that no
    seat is everybody's choice); -1 with one opponent or none, where there is no one to
    choose."""
    rivals = [p for p in range(s.n) if p != me and s.alive[p]]
    if len(rivals) < 2:
        return -1
    return min(rivals, key=lambda p: (elimination_effort(s, p), (p - me) % s.n))
