"""Space combat: FLEET RAID and INVADE (FLEET Action; IA-RAID-*, IA-INV-*, IA-SHIP-*).

Stages (``Combat.stage``): ``emergency`` (an outnumbered DEFENDER draws one EMERGENCY
ship; a raid redraws HEAVY ones), ``prebattle`` (ship effects "before any battle"),
``order`` (secret combat orders collected with :class:`SecretChoices`, attacker first,
one place per decision, every place but the last asked even when forced, so the number
of decisions never shows what was chosen; damaged ships stay face up), ``fight`` (matched pairs roll simultaneously, 4+ hits),
``unmatched`` (the larger side's extra ships each fire at any enemy ship, no return fire),
``result`` (over-damaged ships destroyed, totals with planning-level and TECH modifiers,
the raid's steal or the invasion's medal and spoil), ``repair`` (DEFENDER only), ``done``.

Ship effects use one hook vocabulary: ``extra_die_vs`` (class), ``ally_extra_die`` (ship
id), ``pre_battle_destroy`` (ship id), ``pre_battle_leave`` (die <= n), ``defence_only``,
``natural6_extra_hit``, ``hit_on`` (n+), ``armour`` (n hits ignored per attack),
``total_bonus`` (+n to the side's total while it survives).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from starlanes.engine import Action, Decision, SecretChoices, decision

from .actions import DONE, RES, Act, act
from .common import (
    MAX_SHIPS,
    add_medal,
    add_ship,
    add_stat,
    bonus,
    find_ship,
    gain,
    has_hook,
    remove_ship,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState

Entry = tuple[int, int, int, int]
"""(ship card, damage, position in the owner's fleet, status: 0 in the fight, 1 destroyed
before the battle, 2 left the battle, 3 destroyed by damage)."""


class Combat:
    """One combat in progress; ``side`` 0 is the ATTACKER, 1 the DEFENDER."""

    __slots__ = ("kind", "seats", "level", "entries", "partial", "secret", "stage",
                 "cursor", "open", "rolls", "totals")

    def __init__(self, kind: str, att: int, dfn: int, level: int) -> None:
        self.kind = kind
        self.seats = (att, dfn)
        self.level = level
        self.entries: list[list[Entry]] = [[], []]
        self.partial: list[tuple[int, ...]] = [(), ()]
        self.secret = SecretChoices((att, dfn))
        self.stage = "emergency"
        self.cursor = 0
        self.open = False
        self.rolls: list[tuple[int, ...]] = []
        self.totals: tuple[int, int] = (0, 0)

    def copy(self) -> Combat:
        c = Combat.__new__(Combat)
        c.kind = self.kind
        c.seats = self.seats
        c.level = self.level
        c.entries = [self.entries[0][:], self.entries[1][:]]
        c.partial = self.partial[:]
        c.secret = self.secret.copy()
        c.stage = self.stage
        c.cursor = self.cursor
        c.open = self.open
        c.rolls = self.rolls[:]
        c.totals = self.totals
        return c

    def order(self, side: int) -> tuple[int, ...]:
        return self.secret.choices.get(self.seats[side], ())

    def digest_data(self) -> Any:
        return [self.kind, self.seats, self.level, self.entries, self.partial,
                sorted(self.secret.choices.items()), self.stage, self.cursor, self.open,
                self.rolls, self.totals]

    def resample(self, viewer: int, rng: random.Random) -> None:
        """Reshuffle the orders ``viewer`` cannot see (face-down ships only)."""
        if self.secret.revealed:
            return
        for side in (0, 1):
            seat = self.seats[side]
            if seat == viewer:
                continue
            committed = seat in self.secret.choices
            seq = list(self.secret.choices[seat] if committed else self.partial[side])
            ents = self.entries[side]
            pos = [i for i, e in enumerate(seq) if not (self.open and ents[e][1])]
            vals = [seq[i] for i in pos]
            rng.shuffle(vals)
            for i, v in zip(pos, vals, strict=True):
                seq[i] = v
            if committed:
                self.secret.choices[seat] = tuple(seq)
            else:
                self.partial[side] = tuple(seq)

    def view(self, s: IAState, viewer: int) -> dict[str, Any]:
        """What ``viewer`` sees: all ships in the fight, its own order, others' orders only
        once revealed (damaged ships' places show at once: they stay face up)."""
        ids = s.content.ship_ids
        orders: dict[str, Any] = {}
        for side in (0, 1):
            seat = self.seats[side]
            seq = self.secret.choices.get(seat, self.partial[side])
            if self.secret.revealed or seat == viewer:
                orders[str(seat)] = [ids[self.entries[side][e][0]] for e in seq]
            else:
                orders[str(seat)] = [
                    ids[self.entries[side][e][0]] if self.open and self.entries[side][e][1]
                    else "face-down" for e in seq]
        return {
            "kind": self.kind, "attacker": self.seats[0], "defender": self.seats[1],
            "level": self.level, "stage": self.stage,
            "ships": [[{"ship": ids[e[0]], "damage": e[1], "status": e[3]} for e in side]
                      for side in self.entries],
            "orders": orders,
            "committed": {str(k): k in self.secret.choices for k in self.seats},
            "rolls": [list(r) for r in self.rolls], "totals": list(self.totals),
        }


def begin(s: IAState, att: int, dfn: int, kind: str, level: int) -> None:
    """Start a RAID (IA-RAID-02) or an INVADE (IA-INV-01) at planning level ``level``."""
    s.combat = Combat(kind, att, dfn, level)
    s.log(f"P{att} {kind}s P{dfn} at level {level}")


def _eligible(s: IAState, seat: int, raid: bool, attacking: bool) -> list[int]:
    c = s.content
    return [
        i for i, (card, _d) in enumerate(s.ships[seat])
        if not (raid and c.ship_heavy[card])  # IA-RAID-04 / IA-INV-03
        and not (attacking and has_hook(c.ship_fx[card], "defence_only"))
    ]


def label(s: IAState, e: Entry) -> str:
    sid = s.content.ship_ids[e[0]]
    return f"{sid}/{e[1]}" if e[1] else sid


def run(s: IAState) -> None:
    """Advance the combat by one stage (or push the decision it waits for)."""
    cb = s.combat
    assert cb is not None
    att, dfn = cb.seats
    raid = cb.kind == "raid"
    st = cb.stage
    if st == "emergency":
        a = _eligible(s, att, raid, True)
        d = _eligible(s, dfn, raid, False)
        cb.stage = "emergency_draw"
        if len(d) < len(a) and len(s.ships[dfn]) >= MAX_SHIPS:
            s.push(decision(dfn, "scrap", ("emergency",)))
    elif st == "emergency_draw":
        a = _eligible(s, att, raid, True)
        d = _eligible(s, dfn, raid, False)
        if len(d) < len(a) and len(s.ships[dfn]) < MAX_SHIPS:  # IA-RAID-03, IA-INV-02
            c = s.content
            for _ in range(len(c.emergency_cards) + 1):
                card = s.draw(s.emerg_deck, s.emerg_discard)
                if card < 0:
                    break
                if raid and c.ship_heavy[card]:
                    s.emerg_discard.append(card)
                    s.log(f"P{dfn} draws the emergency ship {c.ships[c.ship_ids[card]].name} (HEAVY: "
                          "redraw)")
                    continue
                add_ship(s, dfn, card)
                s.log(f"P{dfn} draws the emergency ship {c.ships[c.ship_ids[card]].name}")
                break
            d = _eligible(s, dfn, raid, False)
        ships = s.ships
        cb.entries = [[(ships[att][i][0], ships[att][i][1], i, 0) for i in a],
                      [(ships[dfn][i][0], ships[dfn][i][1], i, 0) for i in d]]
        cb.stage = "prebattle"
    elif st == "prebattle":
        _prebattle(s, cb)
        cb.open = any(e[1] for side in cb.entries for e in side if e[3] == 0)
        cb.stage = "order"
    elif st == "order":
        for side in (0, 1):  # the attacker arranges first (IA-RAID-05/06)
            seat = cb.seats[side]
            if seat in cb.secret.choices:
                continue
            alive = [i for i, e in enumerate(cb.entries[side]) if e[3] == 0]
            if len({label(s, cb.entries[side][i]) for i in alive}) <= 1:
                # ships all alike (public: every ship in the fight shows): nothing to choose
                cb.secret.commit(seat, tuple(alive))
                continue
            s.push(decision(seat, "order", (side,)))
            return
        s._reveal_secrets("order")  # all orders are turned face up together
        cb.stage = "fight"
    elif st == "fight":
        ao, do = cb.order(0), cb.order(1)
        for i in range(min(len(ao), len(do))):
            _duel(s, cb, ao[i], do[i])
        cb.cursor = min(len(ao), len(do))
        cb.stage = "unmatched"
    elif st == "unmatched":
        ao, do = cb.order(0), cb.order(1)
        side = 0 if len(ao) > len(do) else 1 if len(do) > len(ao) else -1
        if side >= 0:
            seq = ao if side == 0 else do
            while cb.cursor < len(seq):
                targets = _targets(s, cb, 1 - side)
                if not targets:
                    break
                if len(targets) > 1:  # the owner chooses the target (IA-RAID-09)
                    s.push(decision(cb.seats[side], "fire", (side,)))
                    return
                _fire(s, cb, side, seq[cb.cursor], targets[0][1])
                cb.cursor += 1
        cb.stage = "result"
    elif st == "result":
        _result(s, cb)
        cb.stage = "repair"
    elif st == "repair":
        cb.stage = "done"
        if any(d for _c, d in s.ships[dfn]) and s.res[dfn][1] > 0:
            s.push(decision(dfn, "def_repair", (0,)))  # IA-RAID-16, IA-INV-10
    else:
        s.combat = None


def _prebattle(s: IAState, cb: Combat) -> None:
    c = s.content
    for side in (0, 1):
        for i, e in enumerate(cb.entries[side]):
            if e[3]:
                continue
            for kind, n, arg in c.ship_fx[e[0]]:
                if kind == "pre_battle_destroy":  # e.g. Captain Rogers (IA-SHIP-11)
                    enemy = cb.entries[1 - side]
                    for j, f in enumerate(enemy):
                        if f[3] == 0 and c.ship_ids[f[0]] == arg:
                            enemy[j] = (f[0], f[1], f[2], 1)
                            s.log(f"{c.ships[c.ship_ids[e[0]]].name} destroys {c.ships[arg].name} before "
                                  "the battle")
                            break
                elif kind == "pre_battle_leave":  # e.g. Unstable Cruiser (IA-SHIP-12)
                    roll = s.rng.d6()
                    cb.rolls.append((side, i, roll))
                    if roll <= n:
                        cb.entries[side][i] = (e[0], e[1], e[2], 2)
                        s.log(f"{c.ships[c.ship_ids[e[0]]].name} rolls {roll} and leaves the battle")


def volley(c: Any, allies: list[Entry], e: Entry, target: Entry) -> tuple[int, int, int, int]:
    """How ship entry ``e`` fires at ``target`` (IA-RAID-08, IA-SHIP-05..13): the number of
    dice (combat value minus damage, plus ``ally_extra_die`` of ships in the fight among
    ``allies`` and ``extra_die_vs`` the target's class), the roll that hits, the extra hits
    of a natural 6, and the hits the target's ``armour`` ignores. Pure: the battle odds use
    it too."""
    n = max(0, c.ship_combat[e[0]] - e[1])  # IA-SHIP-05, IA-SHIP-08
    sid = c.ship_ids[e[0]]
    for f in allies:
        if f[3] == 0:
            for kind, k, arg in c.ship_fx[f[0]]:
                if kind == "ally_extra_die" and arg == sid:  # IA-SHIP-13
                    n += k
    heavy = c.ship_heavy[target[0]]
    fx = c.ship_fx[e[0]]
    for kind, k, arg in fx:
        if kind == "extra_die_vs" and (arg == "heavy") == heavy:  # IA-SHIP-10
            n += k
    hook = has_hook(fx, "hit_on")
    six = has_hook(fx, "natural6_extra_hit")
    armour = has_hook(c.ship_fx[target[0]], "armour")
    return n, (hook[1] if hook else 4), (six[1] if six else 0), (armour[1] if armour else 0)


def _dice(s: IAState, cb: Combat, side: int, e: Entry, target: Entry) -> int:
    return volley(s.content, cb.entries[side], e, target)[0]


def _hits(s: IAState, cb: Combat, side: int, e: Entry, target: Entry) -> int:
    n, need, six, armour = volley(s.content, cb.entries[side], e, target)
    hits = 0
    rolls = []
    for _ in range(n):
        r = s.rng.d6()
        rolls.append(r)
        if r >= need:
            hits += 1
            if r == 6:
                hits += six
    cb.rolls.append((side, *rolls))
    return max(0, hits - armour)


def _damage(cb: Combat, side: int, i: int, hits: int) -> None:
    e = cb.entries[side][i]
    cb.entries[side][i] = (e[0], e[1] + hits, e[2], e[3])


def _duel(s: IAState, cb: Combat, ai: int, di: int) -> None:
    """Matched ships fire simultaneously (IA-RAID-07): both roll before damage lands."""
    a, d = cb.entries[0][ai], cb.entries[1][di]
    ha = _hits(s, cb, 0, a, d)
    hd = _hits(s, cb, 1, d, a)
    _damage(cb, 1, di, ha)
    _damage(cb, 0, ai, hd)


def _targets(s: IAState, cb: Combat, side: int) -> list[tuple[str, int]]:
    seen: dict[str, int] = {}
    for i, e in enumerate(cb.entries[side]):
        if e[3] == 0:
            seen.setdefault(label(s, e), i)
    return sorted(seen.items())


def _fire(s: IAState, cb: Combat, side: int, ei: int, ti: int) -> None:
    """An unmatched ship fires at a chosen enemy ship, which does not fire back."""
    hits = _hits(s, cb, side, cb.entries[side][ei], cb.entries[1 - side][ti])
    _damage(cb, 1 - side, ti, hits)


def _result(s: IAState, cb: Combat) -> None:
    c = s.content
    att, dfn = cb.seats
    totals = [0, 0]
    for side in (0, 1):
        ents = cb.entries[side]
        for i, e in enumerate(ents):
            if e[3] == 0 and e[1] > c.ship_combat[e[0]]:  # IA-SHIP-09 (ruling IA-OPEN-07)
                ents[i] = (e[0], e[1], e[2], 3)
            elif e[3] == 0:
                totals[side] += c.ship_combat[e[0]] - e[1]  # IA-RAID-10
                tb = has_hook(c.ship_fx[e[0]], "total_bonus")
                if tb:
                    totals[side] += tb[1]
        # write back: damage stays, destroyed ships leave the fleet
        seat = cb.seats[side]
        fleet = list(s.ships[seat])
        gone = []
        for e in ents:
            if e[3]:
                gone.append(e[2])
            else:
                fleet[e[2]] = (e[0], e[1])
        s.ships[seat] = tuple(fleet)
        for pos in sorted(gone, reverse=True):
            remove_ship(s, seat, pos)
    if cb.kind == "raid":
        totals[0] += 2 * cb.level + bonus(s, att, "raid_bonus")  # IA-RAID-17..20
    else:
        totals[0] += 2 * (cb.level - 1) + bonus(s, att, "invade_bonus")  # IA-INV-12..14
    totals[1] += bonus(s, dfn, "defence_bonus")
    cb.totals = (totals[0], totals[1])
    s.log(f"combat totals: P{att} {totals[0]} vs P{dfn} {totals[1]}")
    if cb.kind == "raid":
        if totals[0] > totals[1]:  # MORE wins (IA-RAID-12/14)
            add_stat(s, att, 0)
            margin = min(totals[0] - totals[1], sum(s.res[dfn]))
            if margin:
                s.push(decision(att, "steal", (margin,)))
    elif totals[0] >= totals[1]:  # EQUAL OR MORE wins an invasion (IA-INV-07)
        add_medal(s, att, fleet=1)
        s.push(decision(att, "spoil"))
    else:
        add_medal(s, dfn, fleet=1)  # IA-INV-08


_STEAL = tuple(act("steal", r) for r in RES)


def steal_legal(s: IAState, d: Decision) -> list[Action]:
    assert s.combat is not None
    dfn = s.combat.seats[1]
    out: list[Action] = [_STEAL[i] for i in range(4) if s.res[dfn][i] > 0]
    if s.options["raid_take"] == "up_to" or not out:  # ruling IA-OPEN-06
        out.append(DONE)
    return out


def steal_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb == "done":
        return
    assert s.combat is not None
    dfn = s.combat.seats[1]
    r = RES.index(a.a)
    gain(s, dfn, r, -1)
    gain(s, d.seat, r, 1)  # the attacker chooses the types (IA-RAID-13)
    if d.data[0] > 1 and sum(s.res[dfn]):
        s.push(decision(d.seat, "steal", (d.data[0] - 1,)))


def order_legal(s: IAState, d: Decision) -> list[Action]:
    """The ships that may take the next place of the combat order (IA-RAID-05/06,
    IA-INV-04): one action per label still to place, a single one when every ship left
    is alike (the place is still asked: ruling "Secret choices" in
    docs/rulings/interstellar-ambitions.md)."""
    assert s.combat is not None
    cb = s.combat
    side = d.data[0]
    placed = set(cb.partial[side])
    labels = sorted({label(s, e) for i, e in enumerate(cb.entries[side])
                     if e[3] == 0 and i not in placed})
    return [act("order", lb) for lb in labels]


def order_apply(s: IAState, d: Decision, a: Act) -> None:
    """Put the chosen ship in the next place, face down unless it is damaged in an open
    fight (IA-RAID-06). Every place but the last is asked, even when the ships left are
    alike, so a side of N ships (of two or more kinds) always takes N - 1 decisions and the
    others cannot tell a forced place from a chosen one; the last ship takes the last
    place by itself."""
    assert s.combat is not None
    cb = s.combat
    side = d.data[0]
    placed = list(cb.partial[side])
    rest = [i for i, e in enumerate(cb.entries[side]) if e[3] == 0 and i not in placed]
    placed.append(next(i for i in rest if label(s, cb.entries[side][i]) == a.a))
    if not (cb.open and cb.entries[side][placed[-1]][1]):  # damaged ships stay face up
        s._keep_secret((d.seat,), "order ?", "order")
    rest = [i for i in rest if i not in placed]
    if len(rest) <= 1:  # only the last place is filled without asking (ruling above)
        placed.extend(rest)
        cb.partial[side] = ()
        cb.secret.commit(d.seat, tuple(placed))
    else:
        cb.partial[side] = tuple(placed)
        s.push(decision(d.seat, "order", (side,)))


def fire_legal(s: IAState, d: Decision) -> list[Action]:
    assert s.combat is not None
    return [act("fire", lb) for lb, _i in _targets(s, s.combat, 1 - d.data[0])]


def fire_apply(s: IAState, d: Decision, a: Act) -> None:
    assert s.combat is not None
    cb = s.combat
    side = d.data[0]
    ti = dict(_targets(s, cb, 1 - side))[a.a]
    _fire(s, cb, side, cb.order(side)[cb.cursor], ti)
    cb.cursor += 1


def repair_legal(s: IAState, d: Decision) -> list[Action]:
    from .fleetworks import repair_cost

    ore = s.res[d.seat][1]
    out: list[Action] = []
    seen = set()
    for sh in s.ships[d.seat]:
        if sh[1] and sh not in seen:
            seen.add(sh)
            if ore >= repair_cost(d.data[0], sh[1]):
                lb = s.content.ship_ids[sh[0]] + f"/{sh[1]}"
                out.append(act("repair", lb))
    out.append(DONE)
    return out


def repair_apply(s: IAState, d: Decision, a: Act) -> None:
    """DEFENDER-only repair after combat, 1 ORE per 2 markers rounded up (IA-OPEN-28)."""
    if a.verb == "done":
        return
    from .fleetworks import repair_cost

    i = find_ship(s, d.seat, a.a)
    card, dmg = s.ships[d.seat][i]
    gain(s, d.seat, 1, -repair_cost(d.data[0], dmg))
    ships = list(s.ships[d.seat])
    ships[i] = (card, 0)
    s.ships[d.seat] = tuple(ships)
    s.push(decision(d.seat, "def_repair", (d.data[0] + dmg,)))


DECISIONS = {
    "order": (order_legal, order_apply),
    "fire": (fire_legal, fire_apply),
    "steal": (steal_legal, steal_apply),
    "def_repair": (repair_legal, repair_apply),
}
