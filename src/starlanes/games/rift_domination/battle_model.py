"""Battle data: the combatants of a running battle, damage, and target groups.

A :class:`Battle` lives in ``state.battle`` while a battle runs. Each combatant is a
:class:`Fighter`: a unit (``fid`` = its unit id, > 0) or a building of the defending planet
(``fid`` < 0: -1 the planet outpost, -2-i the i-th upgrade of the planet). Everything is
plain ints, strings, lists and dicts, so :meth:`Battle.copy` is cheap and independent.
"""

from __future__ import annotations

from typing import Any

PHASES = ("far", "mid", "close")
FAR, MID, CLOSE = 0, 1, 2
WEAPONS = ("close", "mid", "long")

#: RD-HIT-04..12: the roll a weapon needs against a target in a range section.
HIT_TABLE: dict[str, dict[str, int]] = {
    "close": {"close": 2, "mid": 4, "far": 5},
    "mid": {"close": 4, "mid": 2, "far": 3},
    "long": {"close": 5, "mid": 3, "far": 2},
}

OUTPOST_FID = -1
MAX_CLOSE_ROUNDS = 10
ATTACKER, DEFENDER = 0, 1


def needed_roll(weapon: str, phase: int, bonus: int = 0) -> int:
    """The lowest d6 result that hits (RD-HIT-02..12); a 1 always misses (RD-HIT-03)."""
    return max(2, HIT_TABLE[weapon][PHASES[phase]] - bonus)


class Fighter:
    """One combatant. ``lp``/``sh`` are what is left now; ``lp_max``/``sh_max`` the full
    values at the start of the battle (printed stats plus Defensive Ring); ``ring`` the LP
    Defensive Ring added (lost first, so they never become wounds)."""

    __slots__ = (
        "fid", "side", "kind", "building", "lp", "lp_max", "base_lp", "ring", "sh", "sh_max",
        "close", "mid", "long", "skills", "used", "gone",
    )

    def __init__(
        self, fid: int, side: int, kind: str, building: bool, lp: int, lp_max: int,
        base_lp: int, ring: int, sh: int, weapons: tuple[int, int, int],
        skills: frozenset[str],
    ) -> None:
        self.fid = fid
        self.side = side
        self.kind = kind
        self.building = building
        self.lp = lp
        self.lp_max = lp_max
        self.base_lp = base_lp
        self.ring = ring
        self.sh = sh
        self.sh_max = sh
        self.close, self.mid, self.long = weapons
        self.skills = skills
        self.used: frozenset[str] = frozenset()
        self.gone = False

    @property
    def alive(self) -> bool:
        return self.lp > 0 and not self.gone

    @property
    def dice(self) -> int:
        return self.close + self.mid + self.long

    def label(self) -> str:
        """Target-group notation: the kind for an undamaged combatant, else
        ``kind[LP/shields]`` with what is left (e.g. ``carrier[1/0]``)."""
        if self.lp == self.lp_max and self.sh == self.sh_max:
            return self.kind
        return f"{self.kind}[{self.lp}/{self.sh}]"

    def copy(self) -> Fighter:
        f = Fighter.__new__(Fighter)
        for name in Fighter.__slots__:
            setattr(f, name, getattr(self, name))
        return f

    def data(self) -> tuple:
        return tuple(getattr(self, n) if n != "skills" and n != "used" else sorted(getattr(self, n))
                     for n in Fighter.__slots__)


class Battle:
    """A running battle (see :mod:`.battle` for the flow).

    ``pending`` is the decision waiting for an answer: ``(kind, seat, arg)`` with kind one
    of cancel, cards, overload (window), overload_more (shields left to place), hit,
    kamikaze, ambush, rush, retreat; None while automatic steps run. ``stage`` names the
    next automatic step.

    ``simultaneous`` (option ``battle_fire``, ruling RD-OPEN-07): casualties of a phase are
    removed at its end, after both sides fired; else after each volley. ``first_striker``
    is the side whose casualties-causing volley is resolved before the other fires (first
    strike faction), or -1. ``rush_left`` is Repair Rush damage still to negate per unit,
    ``rush_pool`` per side from cards (RD-SKL-01); ``bonus_hits`` the hits of the current
    volley that deal one more damage (Weapon Industry, one-shot reading); ``rolled`` is
    True once any die was rolled in the battle (a battle decided before that scores no
    battle VP, ruling RD-OPEN-18).
    """

    __slots__ = (
        "ground", "seats", "point", "planet", "fighters", "came_from", "phase", "stage",
        "idx", "order", "resume", "pending", "hits_left", "hit_dmg", "hit_side",
        "weapon_industry", "hit_boost", "blocked", "repair_card", "rush_left", "rush_pool",
        "overload_done", "barrage_done", "vdmg", "pdmg", "killed", "close_rounds",
        "retreated", "destroyed_upgrades", "ridx", "bonus_hits", "rolled", "simultaneous",
        "first_striker", "wi_one_shot",
    )

    def __init__(self, ground: bool, attacker: int, defender: int, point: int,
                 planet: int = -1) -> None:
        self.ground = ground
        self.seats = [attacker, defender]
        self.point = point
        self.planet = planet
        self.fighters: dict[int, Fighter] = {}
        self.came_from: dict[int, int] = {}
        self.phase = MID if ground else FAR
        self.stage = "open"
        self.idx = 0
        self.order = [ATTACKER, DEFENDER]
        self.resume = ""
        self.pending: tuple[str, int, int] | None = None
        self.hits_left = 0
        self.hit_dmg = 1
        self.hit_side = ATTACKER
        self.weapon_industry = [False, False]
        self.hit_boost = [0, 0]
        self.blocked = [False, False]
        self.repair_card = [0, 0]
        self.rush_left: dict[int, int] = {}
        self.rush_pool = [0, 0]
        self.overload_done = [False, False]
        self.barrage_done = False
        self.vdmg: dict[int, list[int]] = {}
        self.pdmg: dict[int, list[int]] = {}
        self.killed = [0, 0]
        self.close_rounds = 0
        self.retreated = -1
        self.destroyed_upgrades: list[int] = []
        self.ridx = 0
        self.bonus_hits = 0
        self.rolled = False
        self.simultaneous = True
        self.first_striker = -1
        self.wi_one_shot = False

    @property
    def attacker(self) -> int:
        return self.seats[ATTACKER]

    @property
    def defender(self) -> int:
        return self.seats[DEFENDER]

    def copy(self) -> Battle:
        b = Battle.__new__(Battle)
        for name in Battle.__slots__:
            setattr(b, name, getattr(self, name))
        b.seats = self.seats[:]
        b.fighters = {k: f.copy() for k, f in self.fighters.items()}
        b.came_from = dict(self.came_from)
        b.order = self.order[:]
        b.weapon_industry = self.weapon_industry[:]
        b.hit_boost = self.hit_boost[:]
        b.blocked = self.blocked[:]
        b.repair_card = self.repair_card[:]
        b.rush_left = dict(self.rush_left)
        b.rush_pool = self.rush_pool[:]
        b.overload_done = self.overload_done[:]
        b.vdmg = {k: v[:] for k, v in self.vdmg.items()}
        b.pdmg = {k: v[:] for k, v in self.pdmg.items()}
        b.killed = self.killed[:]
        b.destroyed_upgrades = self.destroyed_upgrades[:]
        return b

    def digest_data(self) -> Any:
        out = []
        for name in Battle.__slots__:
            v = getattr(self, name)
            if name == "fighters":
                v = [f.data() for f in v.values()]
            elif isinstance(v, dict):
                v = sorted(v.items())
            out.append(v)
        return out

    def observe(self, state: Any, seat: int) -> dict[str, Any]:
        """The public view of the battle (nothing in a battle is hidden), JSON-ready."""
        del seat
        return {
            "kind": "ground" if self.ground else "space",
            "at": state.board.names[self.point],
            "attacker": self.seats[ATTACKER],
            "defender": self.seats[DEFENDER],
            "phase": PHASES[self.phase] if isinstance(self.phase, int) else self.phase,
            "pending": None if self.pending is None else [self.pending[0], self.pending[1]],
            "combatants": [
                {"side": f.side, "kind": f.kind, "building": f.building, "lp": f.lp,
                 "lp_max": f.lp_max, "shields": f.sh, "shields_max": f.sh_max,
                 "weapons": [f.close, f.mid, f.long]}
                for f in self.fighters.values() if f.alive
            ],
        }

    # ------------------------------------------------------------------ queries
    def side_of_seat(self, seat: int) -> int:
        return ATTACKER if seat == self.seats[ATTACKER] else DEFENDER

    def living(self, side: int) -> list[Fighter]:
        return [f for f in self.fighters.values() if f.side == side and f.alive]

    def has_living(self, side: int) -> bool:
        return any(f.side == side and f.alive for f in self.fighters.values())

    def shooters(self, side: int) -> list[Fighter]:
        """The combatants of ``side`` that fire now: the living ones, and with simultaneous
        fire also those destroyed earlier in this phase whose removal waits for its end."""
        if self.simultaneous:
            return [f for f in self.fighters.values() if f.side == side and not f.gone]
        return self.living(side)

    def can_use(self, f: Fighter, skill: str) -> bool:
        """``f`` has ``skill``, has not used it this battle, and its side is not under a
        skill block (OCC skill_block)."""
        return skill in f.skills and skill not in f.used and not self.blocked[f.side]

    def targets(self, side: int, units_only: bool = False) -> dict[str, int]:
        """Target groups on ``side``: label -> first fid of that group. Identical combatants
        (same kind, same LP and shields left) form one group. Taunt (RD-SKL-12): while a
        taunting unit lives, only taunting units may be chosen."""
        pool = [f for f in self.living(side) if not (units_only and f.building)]
        taunts = [f for f in pool if "taunt" in f.skills and not self.blocked[f.side]]
        if taunts:
            pool = taunts
        groups: dict[str, int] = {}
        for f in pool:
            groups.setdefault(f.label(), f.fid)
        return groups

    # ------------------------------------------------------------------ damage
    def damage(self, f: Fighter, amount: int, lp_only: bool = False) -> None:
        """Deal ``amount`` damage: shields first, then LP (RD-HIT-14/15); ``lp_only`` skips
        shields (bombardment, RD-SKL-04/05)."""
        rec_v = self.vdmg.setdefault(f.fid, [0, 0])
        rec_p = self.pdmg.setdefault(f.fid, [0, 0])
        if not lp_only:
            s = min(f.sh, amount)
            f.sh -= s
            amount -= s
            rec_v[0] += s
            rec_p[0] += s
        d = min(f.lp, amount)
        f.lp -= d
        rec_v[1] += d
        rec_p[1] += d

    def restore(self, f: Fighter, lp: int, sh: int) -> None:
        """Undo damage taken (repairs): bookkeeping of this volley and phase shrinks too."""
        f.lp += lp
        f.sh += sh
        for rec in (self.vdmg.get(f.fid), self.pdmg.get(f.fid)):
            if rec is not None:
                rec[0] = max(0, rec[0] - sh)
                rec[1] = max(0, rec[1] - lp)
