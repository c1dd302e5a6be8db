"""Longer-range rules of the Interstellar Ambitions heuristic bot.

Small, separate rules that :mod:`.heuristic` consults: which starting TECH fits the
ambitions on the table, how much the open fleet ambitions (Warlord, Dominator, Raider,
Conqueror) relax the bot's odds before it attacks, when a COLONISE token is worth holding
back for the ULTIMATE slot (the planet then starts at level 4), which ship to build (a
Corvette for a raider, one Siege Barge for a fleet out to capture, a Scrap of the weakest
ship at the 8-ship limit when the new one is much better), which victory spoil to take and
when New Opportunities and Palace Coup are worth the turn's Shadow play, when to buy
Shadow cards rather than hire and which MERC to hire.

Everything here reads only what the seat may see: public boards, its own resources and
hand, the ambitions and their claims.
"""

from __future__ import annotations

from .actions import Act
from .common import MAX_SHIPS, bonus, ult_count
from .scoring import score_all
from .state import IAState

#: Active ambitions won by fighting: fleet medals, raids won, a captured planet.
FLEET_AMBITIONS = ("warlord", "dominator", "raider", "conqueror")
#: Ambitions raced for with Shadow medals (Counter-Intelligence slows the other racers).
SHADOW_AMBITIONS = ("spymaster", "decorated")
#: The starting TECHs in the bot's usual order of preference (PRODUCE bonuses first).
START_TECH = ("trade_guilds", "deep_core_mining", "hydroponics", "data_archives",
              "targeting_computers", "counter_intelligence")


def open_ambitions(s: IAState, seat: int) -> set[str]:
    """Ids of the ambitions on the table that ``seat`` has not claimed yet."""
    ids = s.content.ambition_ids
    return {ids[a] for i, a in enumerate(s.ambitions) if seat not in s.claims[i]}


def start_tech_order(s: IAState) -> list[str]:
    """The starting TECHs best first. Targeting Computers (+1 to raid and invade totals)
    moves up to third when two or more fleet ambitions are on the table (the seat will
    fight for them); Counter-Intelligence (-1 to Shadow checks against the seat) moves up
    to fourth when both Shadow-medal ambitions are (the others will make many checks)."""
    on = {s.content.ambition_ids[a] for a in s.ambitions}
    order = list(START_TECH)
    if sum(1 for x in FLEET_AMBITIONS if x in on) >= 2:
        order.remove("targeting_computers")
        order.insert(2, "targeting_computers")
    if all(x in on for x in SHADOW_AMBITIONS):
        order.remove("counter_intelligence")
        order.insert(3, "counter_intelligence")
    return order


def attack_margins(s: IAState, seat: int) -> tuple[int, int]:
    """``(raid, invade)``: how much more combat value than the target the bot wants
    before it raids or invades (3 each): 1 less while Raider (raid) or Warlord or
    Dominator (invade) is open to the seat and it has already won one step of it, and
    for Dominator 2 less once it holds 2 FLEET medals (one win from the ambition)."""
    open_ = open_ambitions(s, seat)
    raid = 3
    if "raider" in open_:
        raid = 2 if s.stats[seat][0] == 0 else 1
    invade = 3
    medals = s.medals[seat][0]
    if ("warlord" in open_ or "dominator" in open_) and medals >= 1:
        invade = 2
    if "dominator" in open_ and medals >= 2:
        invade = 1
    return raid, invade


def attack_bonus(s: IAState, seat: int) -> tuple[int, int]:
    """The seat's TECH and planet bonuses to its raid and invade totals."""
    return bonus(s, seat, "raid_bonus"), bonus(s, seat, "invade_bonus")


def big_planet_waiting(s: IAState, seat: int) -> bool:
    """A face-up planet the seat can afford would start at its maximum level (or at 4)
    through ULTIMATE COLONISE and the ULTIMATE slot has room: worth holding a STRONG
    COLONISE token back one turn (it saves two DEVELOP levels: 4 resources and a turn)."""
    from .economy import colonise_cost, face_up_planets

    c = s.content
    if ult_count(s, 0) >= s.ult_cap or len(s.planets[seat]) >= 8:
        return False
    have = sum(s.res[seat])
    return any(c.planet_max[p] >= 4 and c.planet_vp[p] >= 3
               and sum(colonise_cost(s, seat, p)) <= have - 1 for p in face_up_planets(s))


def ultimate_colonise_bonus(s: IAState, planet: int, level: int) -> float:
    """Extra worth of a planet for the COLONISE choice at ``level``: at ULTIMATE it
    starts at level 4 (or its maximum), 3 per level above the usual start of 2."""
    if level != 3:
        return 0.0
    return 3.0 * (min(4, s.content.planet_max[planet]) - 2)


def _ship_worth(s: IAState, card: int, damage: int = 0) -> int:
    c = s.content
    return max(0, c.ship_combat[card] - damage) + c.ship_vp[card]


def build_choice(s: IAState, seat: int, opts: list[Act]) -> Act | None:
    """The ship to build, or None. Worth is combat plus VP; a Corvette (+2 against light
    ships) is worth 2 more while Raider is open to the seat; one Siege Barge (bombard 4)
    is worth 5 more while Conqueror is open and the fleet already has two HEAVY ships.
    At the 8-ship limit the bot builds (and scraps its weakest ship) only when the new
    ship is worth 3 or more than the weakest."""
    c = s.content
    open_ = open_ambitions(s, seat)
    heavy = sum(1 for x, _d in s.ships[seat] if c.ship_heavy[x])
    has_barge = any(c.ship_ids[x] == "siege_barge" for x, _d in s.ships[seat])

    def worth(a: Act) -> float:
        card = c.ship_index[a.a]
        v = float(_ship_worth(s, card))
        if a.a == "corvette" and "raider" in open_:
            v += 2
        if a.a == "siege_barge" and "conqueror" in open_ and heavy >= 2 and not has_barge:
            v += 5
        return v

    if not opts:
        return None
    best = max(opts, key=worth)
    if len(s.ships[seat]) >= MAX_SHIPS:
        weakest = min(_ship_worth(s, x, d) for x, d in s.ships[seat])
        if worth(best) < weakest + 3:
            return None
    return best


def scrap_choice(s: IAState, seat: int, legal: list[Act]) -> Act:
    """Scrap the ship worth least (combat left plus VP)."""
    c = s.content

    def worth(a: Act) -> int:
        sid, _, dmg = a.a.partition("/")
        return _ship_worth(s, c.ship_index[sid], int(dmg or 0))

    return min(legal, key=worth)


def disrupt_pays(s: IAState, seat: int, dfn: int, has_tech: bool) -> bool:
    """Disrupt Plans over Acquire Technology: when the defender's three most advanced
    tokens stand 4 or more planning levels above BASIC (more than a turn of ADVANCE
    undone; 3 when the defender leads on VP), or when there is no TECH to take; Tech
    Thief, while open to the seat, keeps the TECH."""
    if not has_tech:
        return True
    if "tech_thief" in open_ambitions(s, seat):
        return False
    levels = sorted((t & 3 for t in s.tokens[dfn] if t >= 0), reverse=True)
    vp = score_all(s)
    leads = vp[dfn] >= max(vp)
    return sum(levels[:3]) >= (3 if leads else 4)


def new_opportunities_target(s: IAState, seat: int) -> str | None:
    """The row New Opportunities should refresh, or None: the face-up planets when none
    of them is affordable and the seat has room, else the face-up TECHs when none is
    affordable with its SCIENCE."""
    from .economy import colonise_cost, face_up_planets

    c = s.content
    r = s.res[seat]
    if len(s.planets[seat]) < 8 and not any(
            sum(colonise_cost(s, seat, p)) <= sum(r) for p in face_up_planets(s)):
        return "planet"
    if not any(t >= 0 and c.tech_cost[t] <= r[2] for t in s.tech_slots):
        return "tech"
    return None


def wants_cards(s: IAState, seat: int) -> bool:
    """Buy Shadow cards rather than hire: the hand holds at most one card (nothing to play
    next turn, nothing to boost or oppose with) and 2 COINS or more pay for two."""
    return len(s.hands[seat]) <= 1 and s.res[seat][3] >= 2


def merc_worth(s: IAState, seat: int, card: int) -> float:
    """What a MERC adds to the seat's fleet: combat plus VP plus its effect: +n for a
    combat-total bonus, 1 per die per step its hit number is below 4, 1 for armour, an
    extra die or a pre-battle kill, 1 per own strike craft for Squadron Leader's die."""
    c = s.content
    v = float(c.ship_combat[card] + c.ship_vp[card])
    for kind, n, arg in c.ship_fx[card]:
        if kind == "total_bonus":
            v += n
        elif kind == "hit_on":
            v += (4 - n) * c.ship_combat[card]
        elif kind in ("armour", "extra_die_vs", "pre_battle_destroy"):
            v += 1
        elif kind == "natural6_extra_hit":
            v += 0.5
        elif kind == "ally_extra_die":
            v += sum(1 for x, _d in s.ships[seat] if c.ship_ids[x] == arg)
    return v


def buy_not_hire(s: IAState, seat: int) -> bool:
    """SHADOW taken with an empty hand and a fleet of 5 or more ships: buy Shadow cards
    (something to play, boost and oppose with) rather than hire another MERC."""
    return not s.hands[seat] and len(s.ships[seat]) >= 5
