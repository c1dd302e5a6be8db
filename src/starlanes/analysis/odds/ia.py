"""Exact Interstellar Ambitions combat odds: FLEET RAID and INVADE (IA-RAID-*, IA-INV-*,
IA-SHIP-*), and Shadow Check odds (IA-SHD-08..11).

Every ship's volley comes from the game's own
:func:`~starlanes.games.interstellar_ambitions.combat.volley` (dice, roll to hit, natural
6, armour). Matched ships fire simultaneously, so every damage they deal is independent of
every other; only the unmatched ships of the larger fleet choose their targets from what
the duels left, so the smaller fleet's damage is enumerated jointly and pushed through
those shots (targets chosen as the heuristic bot does). The emergency draw of an
outnumbered defender (over the full emergency deck, HEAVY ones redrawn in a raid) and
"before any battle" effects (a ship destroyed, a ship leaving on a low roll) are exact
mixtures. Orders: ``listed`` (as given), ``strongest`` (the heuristic bot's: highest
combat value first) or ``best`` (the order with the highest chance of winning against
the other side's order).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

import starlanes
from starlanes.games.interstellar_ambitions import combat as ia_combat
from starlanes.games.interstellar_ambitions.actions import LEVELS
from starlanes.games.interstellar_ambitions.common import MAX_SHIPS, has_hook

from .rd_position import OddsError, entry_problem
from .tally import Tally

ORDERS = ("listed", "strongest", "best")
MAX_BEST_ORDERS = 5040
Entry = tuple[int, int, int, int]
Squashed = tuple[dict[tuple[int, tuple[str, ...], int, int], float], list[float]]
"""A fleet's outcome: P((total without bonus, standing ship ids sorted, ships lost, their
cost)), and per ship (by entry index) the chance it is destroyed."""


@dataclass
class IACombatSpec:
    """An Interstellar Ambitions combat. Fleets are lists of ship labels (``cruiser``,
    ``cruiser/1`` with one damage marker); ``kind`` raid or invade at planning ``level``;
    ``attacker_bonus`` the attacker's raid or invade bonus from TECHs and planets,
    ``defender_bonus`` the defender's defence bonus; ``orders`` per side (see ORDERS);
    ``emergency`` ``draw`` (the rule), ``none``, or a ship id drawn for certain;
    ``defender_resources`` caps what a won raid steals; ``prebattle`` False when the
    "before any battle" effects were already resolved."""

    attacker: list[str]
    defender: list[str]
    kind: str = "raid"
    level: int = 1
    attacker_bonus: int = 0
    defender_bonus: int = 0
    orders: tuple[str, str] = ("listed", "listed")
    emergency: str = "draw"
    defender_resources: int = 99
    prebattle: bool = True


def parse_ships(text: str, side: str = "") -> list[str]:
    """``"2 destroyer, cruiser/1"`` -> ``["destroyer", "destroyer", "cruiser/1"]``; ``side``
    (``attacker``, ``defender``) names the field in the errors. Raises OddsError on an
    entry it cannot read or with a negative or zero count or a damage that is not a whole
    number (:func:`~.rd_position.entry_problem`)."""
    out: list[str] = []
    for part in [p for p in text.split(",") if p.strip()]:
        problem = entry_problem(part, side)
        if problem:
            raise OddsError(problem)
        bits = part.strip().split()
        n = 1
        if len(bits) == 2 and bits[0].isdigit():
            n, bits = int(bits[0]), bits[1:]
        if len(bits) != 1 or n < 1:
            where = f"the {side}'s ship entry" if side else "ship entry"
            raise OddsError(f"cannot read {where} {part.strip()!r} (use e.g. '2 cruiser')")
        out.extend([bits[0].lower()] * n)
    return out


def _content() -> Any:
    return starlanes.load("interstellar-ambitions", players=3, seed=0).new_initial_state().content


def _entries(c: Any, labels: list[str], side: str, raid: bool, attacking: bool) -> list[Entry]:
    out = []
    for i, lab in enumerate(labels):
        sid, _, dmg = lab.partition("/")
        if sid not in c.ship_index:
            raise OddsError(f"unknown {side} ship {sid!r}; known: " + ", ".join(c.ship_ids))
        card = c.ship_index[sid]
        if not dmg.isdigit() and dmg:
            raise OddsError(f"bad damage in the {side}'s {lab!r} (use e.g. cruiser/1)")
        d = int(dmg or 0)
        if d > c.ship_combat[card]:
            raise OddsError(f"{lab!r} has more damage than its combat value")
        if raid and c.ship_heavy[card]:
            raise OddsError(f"{side} ship {sid!r} is HEAVY and cannot take part in a raid")
        if attacking and has_hook(c.ship_fx[card], "defence_only"):
            raise OddsError(f"{side} ship {sid!r} only defends")
        out.append((card, d, i, 0))
    return out


def hits_dist(n: int, need: int, six: int, armour: int) -> list[float]:
    """P(h hits) of ``n`` dice hitting on ``need``+, a natural 6 scoring ``1 + six``, less
    ``armour`` (IA-RAID-08, IA-SHIP-06..12)."""
    miss = (need - 1) / 6
    plain = max(0, 6 - need) / 6
    six_p = 1 / 6
    out = [1.0]
    for _ in range(n):
        nxt = [0.0] * (len(out) + 1 + six)
        for h, q in enumerate(out):
            nxt[h] += q * miss
            nxt[h + 1] += q * plain
            nxt[h + 1 + six] += q * six_p
        out = nxt
    if armour:
        out = [sum(out[: armour + 1])] + out[armour + 1:]
    return out


class _Eval:
    """Outcome distributions of one scenario (entries after the pre-battle effects)."""

    def __init__(self, c: Any, spec: IACombatSpec, ents: list[list[Entry]]) -> None:
        self.c = c
        self.spec = spec
        self.ents = ents

    def cap(self, e: Entry, d: int) -> int:
        return min(d, self.c.ship_combat[e[0]] + 1)

    def shot(self, side: int, e: Entry, target: Entry) -> list[float]:
        return hits_dist(*ia_combat.volley(self.c, self.ents[side], e, target))

    def run(self, ao: list[int], do: list[int]) -> tuple[dict, dict]:
        """Joint damage distributions (tuple per fleet, by entry index) of both sides."""
        orders = (ao, do)
        m = min(len(ao), len(do))
        per: list[list[dict[int, float]]] = [
            [{self.cap(e, e[1]): 1.0} for e in self.ents[s]] for s in (0, 1)]
        for i in range(m):
            a, d = self.ents[0][ao[i]], self.ents[1][do[i]]
            for side, me, foe, fi in ((0, a, d, do[i]), (1, d, a, ao[i])):
                dist = self.shot(side, me, foe)
                base = foe[1]
                per[1 - side][fi] = {self.cap(foe, base + h): 0.0 for h in range(len(dist))}
                for h, q in enumerate(dist):
                    per[1 - side][fi][self.cap(foe, base + h)] += q
        big = 0 if len(ao) > len(do) else 1 if len(do) > len(ao) else -1
        out: list[Squashed] = []
        for side in (0, 1):
            if side == 1 - big:  # the smaller fleet: unmatched ships pick their targets
                joint = self._joint(per[side])
                for ei in orders[big][m:]:
                    joint = self._fire(big, self.ents[big][ei], joint)
                out.append(self._squash_joint(side, joint))
            else:
                out.append(self._squash_per(side, per[side]))
        return out[0], out[1]

    def _part(self, side: int, i: int, d: int) -> tuple[int, str, int, int]:
        """Ship ``i`` of ``side`` with ``d`` damage: (total it adds, its id if it stands
        else "", 1 if it is lost, its cost if lost)."""
        c = self.c
        e = self.ents[side][i]
        cv = c.ship_combat[e[0]]
        if e[3] == 0 and d <= cv:
            tb = has_hook(c.ship_fx[e[0]], "total_bonus")
            return cv - d + (tb[1] if tb else 0), c.ship_ids[e[0]], 0, 0  # IA-RAID-10
        if e[3] == 2:  # left before the battle: neither fights nor is lost
            return 0, "", 0, 0
        return 0, "", 1, c.ship_cost[e[0]]  # IA-SHIP-09

    def _squash_per(self, side: int, per: list[dict[int, float]]) -> Squashed:
        """The outcome of a fleet whose ships' damage is independent (no unmatched enemy
        ship fires at it), without enumerating every damage combination: the distribution
        of (total, standing ship ids, ships lost, their cost) built ship by ship, and
        each ship's chance to be destroyed."""
        dist: dict[tuple, float] = {(0, (), 0, 0): 1.0}
        dead = []
        for i, di in enumerate(per):
            nxt: dict[tuple, float] = defaultdict(float)
            parts = [(self._part(side, i, d), q) for d, q in di.items() if q]
            dead.append(sum(q for (_, sid, lost, _), q in parts if lost))
            for (t, alive, lost_n, cost), p in dist.items():
                for (pt, sid, pl, pc), q in parts:
                    key = (t + pt, tuple(sorted(alive + (sid,))) if sid else alive,
                           lost_n + pl, cost + pc)
                    nxt[key] += p * q
            dist = nxt
        return dist, dead

    def _squash_joint(self, side: int, joint: dict[tuple[int, ...], float]) -> Squashed:
        """:meth:`_squash_per` for a fleet given by its joint damage distribution."""
        dist: dict[tuple, float] = defaultdict(float)
        dead = [0.0] * len(self.ents[side])
        for dmg, p in joint.items():
            t = lost_n = cost = 0
            alive = []
            for i, d in enumerate(dmg):
                pt, sid, pl, pc = self._part(side, i, d)
                t += pt
                lost_n += pl
                cost += pc
                if sid:
                    alive.append(sid)
                if pl:
                    dead[i] += p
            dist[(t, tuple(sorted(alive)), lost_n, cost)] += p
        return dist, dead

    @staticmethod
    def _joint(per: list[dict[int, float]]) -> dict[tuple[int, ...], float]:
        out: dict[tuple[int, ...], float] = {(): 1.0}
        for dist in per:
            nxt: dict[tuple[int, ...], float] = defaultdict(float)
            for k, p in out.items():
                for d, q in dist.items():
                    if q:
                        nxt[k + (d,)] += p * q
            out = nxt
        return out

    def _fire(self, side: int, shooter: Entry, joint: dict) -> dict:
        """An unmatched ship fires at the enemy ship the heuristic bot picks (IA-RAID-09)."""
        c = self.c
        enemy = self.ents[1 - side]
        out: dict[tuple[int, ...], float] = defaultdict(float)
        for dmg, p in joint.items():
            labels: dict[str, int] = {}
            for i, e in enumerate(enemy):
                if e[3] == 0:
                    sid = c.ship_ids[e[0]]
                    labels.setdefault(f"{sid}/{dmg[i]}" if dmg[i] else sid, i)
            if not labels:
                out[dmg] += p
                continue
            items = sorted(labels.items())

            def val(item: tuple[str, int], dmg: tuple[int, ...] = dmg) -> float:
                e = enemy[item[1]]
                cv = c.ship_combat[e[0]]
                left = cv - dmg[item[1]]
                return (10 if left <= 1 else 0) + cv if left >= 0 else -10

            ti = max(items, key=val)[1]
            dist = self.shot(side, shooter, (enemy[ti][0], dmg[ti], ti, 0))
            for h, q in enumerate(dist):
                new = list(dmg)
                new[ti] = self.cap(enemy[ti], dmg[ti] + h)
                out[tuple(new)] += p * q
        return out

    def win(self, ja: Squashed, jd: Squashed) -> float:
        ta, td = self.totals(ja, 0), self.totals(jd, 1)
        return sum(p * q for a, p in ta.items() for d, q in td.items()
                   if (a > d if self.spec.kind == "raid" else a >= d))

    def totals(self, sq: Squashed, side: int) -> dict[int, float]:
        out: dict[int, float] = defaultdict(float)
        bonus = self.bonus(side)
        for key, p in sq[0].items():
            out[key[0] + bonus] += p
        return out

    def bonus(self, side: int) -> int:
        sp = self.spec
        if side == 1:
            return sp.defender_bonus
        lvl = 2 * sp.level if sp.kind == "raid" else 2 * (sp.level - 1)  # IA-RAID-17, INV-12
        return lvl + sp.attacker_bonus


def _order(c: Any, ents: list[Entry], how: str) -> list[int]:
    alive = [i for i, e in enumerate(ents) if e[3] == 0]
    if how != "strongest":
        return alive

    def lab(i: int) -> str:
        sid = c.ship_ids[ents[i][0]]
        return f"{sid}/{ents[i][1]}" if ents[i][1] else sid

    rest = sorted(alive, key=lab)
    out = []
    while rest:
        pick = max(rest, key=lambda i: c.ship_combat[ents[i][0]])
        out.append(pick)
        rest.remove(pick)
    return out


def _scenarios(c: Any, spec: IACombatSpec, ents: list[list[Entry]]) -> list[tuple[float, list]]:
    """The emergency draw (IA-RAID-03, IA-INV-02) and the pre-battle effects as a
    mixture of (probability, entries)."""
    raid = spec.kind == "raid"
    out: list[tuple[float, list[list[Entry]]]] = []
    draws: list[tuple[float, int | None]] = [(1.0, None)]
    if len(ents[1]) < len(ents[0]) and len(ents[1]) < MAX_SHIPS and spec.emergency != "none":
        if spec.emergency == "draw":
            deck = [x for x in c.emergency_cards if not (raid and c.ship_heavy[x])]
            cnt = Counter(deck)
            draws = [(n / len(deck), card) for card, n in sorted(cnt.items())]
        else:
            if spec.emergency not in c.ship_index or \
                    c.ship_index[spec.emergency] not in c.emergency_cards:
                raise OddsError(f"{spec.emergency!r} is not an emergency ship")
            card = c.ship_index[spec.emergency]
            if raid and c.ship_heavy[card]:
                raise OddsError(f"{spec.emergency!r} is HEAVY: a raid redraws it")
            draws = [(1.0, card)]
    for p, card in draws:
        base = [list(ents[0]), list(ents[1])]
        if card is not None:
            base[1].append((card, 0, len(base[1]), 0))
        branches = [(p, base)]
        for side in (0, 1) if spec.prebattle else ():
            for i in range(len(base[side])):
                nxt = []
                for q, es in branches:
                    e = es[side][i]
                    if e[3]:
                        nxt.append((q, es))
                        continue
                    done = False
                    for kind, n, arg in c.ship_fx[e[0]]:
                        if kind == "pre_battle_destroy":  # IA-SHIP-11
                            for j, f in enumerate(es[1 - side]):
                                if f[3] == 0 and c.ship_ids[f[0]] == arg:
                                    es = [list(es[0]), list(es[1])]
                                    es[1 - side][j] = (f[0], f[1], f[2], 1)
                                    break
                        elif kind == "pre_battle_leave":  # IA-SHIP-12
                            stay = [list(es[0]), list(es[1])]
                            go = [list(es[0]), list(es[1])]
                            go[side][i] = (e[0], e[1], e[2], 2)
                            nxt.append((q * (1 - n / 6), stay))
                            nxt.append((q * n / 6, go))
                            done = True
                    if not done:
                        nxt.append((q, es))
                branches = nxt
        out.extend(branches)
    return out


def _best(c: Any, ev: _Eval, side: int, other: list[int]) -> tuple[list[int], float]:
    ents = ev.ents[side]
    alive = [i for i, e in enumerate(ents) if e[3] == 0]
    seen: set[tuple] = set()
    best, best_p = alive, -1.0
    count = 0
    for perm in itertools.permutations(alive):
        key = tuple((ents[i][0], ents[i][1]) for i in perm)
        if key in seen:
            continue
        seen.add(key)
        count += 1
        if count > MAX_BEST_ORDERS:
            raise OddsError(f"more than {MAX_BEST_ORDERS} distinct orders to search; give "
                            "the order (listed or strongest)")
        ja, jd = ev.run(list(perm), other) if side == 0 else ev.run(other, list(perm))
        w = ev.win(ja, jd)
        p = w if side == 0 else 1 - w
        if p > best_p + 1e-15:
            best, best_p = list(perm), p
    return best, best_p


def ia_odds(spec: IACombatSpec) -> Any:
    """Exact odds of the Interstellar Ambitions combat ``spec`` as an OddsReport.

    Raises OddsError for unknown or ineligible ships, a bad order or kind, or a ``best``
    order search that is too large."""
    if spec.kind not in ("raid", "invade"):
        raise OddsError(f"combat kind must be raid or invade, not {spec.kind!r}")
    if not 1 <= spec.level <= len(LEVELS):
        raise OddsError(f"the planning level is 1 to {len(LEVELS)} ("
                        + ", ".join(f"{i} {name}" for i, name in enumerate(LEVELS, 1))
                        + f"), not {spec.level}")
    for o in spec.orders:
        if o not in ORDERS:
            raise OddsError(f"unknown order {o!r}; choose one of {', '.join(ORDERS)}")
    if spec.orders == ("best", "best"):
        raise OddsError("only one side's order can be searched (best) at a time")
    c = _content()
    raid = spec.kind == "raid"
    if spec.emergency not in ("draw", "none") and (
            spec.emergency not in c.ship_index
            or c.ship_index[spec.emergency] not in c.emergency_cards):
        raise OddsError(f"{spec.emergency!r} is not an emergency ship")
    ents = [_entries(c, spec.attacker, "attacker", raid, True),
            _entries(c, spec.defender, "defender", raid, False)]
    if not ents[0]:
        raise OddsError("the attacker has no ships")
    if len(ents[0]) > MAX_SHIPS or len(ents[1]) > MAX_SHIPS:
        raise OddsError(f"a fleet holds at most {MAX_SHIPS} ships: a player never has more "
                        "(the game's fleet limit)")  # IA-SHIP-07
    tally = Tally()
    fights: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    margins: dict[int, float] = defaultdict(float)
    chosen: list[str] = []
    for p, es in _scenarios(c, spec, ents):
        ev = _Eval(c, spec, es)
        orders = [_order(c, es[s], spec.orders[s]) for s in (0, 1)]
        if "best" in spec.orders:
            s = spec.orders.index("best")
            orders[s], _ = _best(c, ev, s, orders[1 - s])
        ja, jd = ev.run(orders[0], orders[1])
        chosen.append(f"{100 * p:.1f}%: " + " | ".join(
            ", ".join(c.ship_ids[es[s][i][0]] for i in orders[s]) for s in (0, 1)))
        _fights(ev, orders, ja, jd, p, fights)
        ta, td = ev.totals(ja, 0), ev.totals(jd, 1)
        for a, pa in ta.items():
            for d, pd in td.items():
                margins[a - d] += p * pa * pd
        _add(tally, ev, spec, ja, jd, p)
    tables = {
        "orders (attacker | defender) per scenario": chosen,
        "fights (P destroyed: attacker ship, defender ship)": [
            f"{k}: {100 * v[0] / v[2]:.1f}%, {100 * v[1] / v[2]:.1f}%  (in {100 * v[2]:.1f}%)"
            for k, v in fights.items()],
        "total margin (attacker - defender)": [
            f"{m:+d}: {100 * q:.2f}%" for m, q in sorted(margins.items()) if q > 5e-5],
    }
    pol = {"orders": f"attacker {spec.orders[0]}, defender {spec.orders[1]}"
           + (" (default)" if spec.orders == ("listed", "listed") else ""),
           "unmatched fire": "as the heuristic bot (ships about to fall, then the strongest)",
           "emergency": spec.emergency}
    return tally.report(game="interstellar-ambitions", kind=spec.kind,
                        attacker=", ".join(spec.attacker),
                        defender=", ".join(spec.defender) or "(none)", method="exact",
                        policies=pol, extra={"tables": tables,
                                             "margins": {str(k): v for k, v in
                                                         sorted(margins.items())}})


def _fights(ev: _Eval, orders: list, ja: dict, jd: dict, p: float, fights: dict) -> None:
    c = ev.c
    for i in range(min(len(orders[0]), len(orders[1]))):
        ai, di = orders[0][i], orders[1][i]
        ea, ed = ev.ents[0][ai], ev.ents[1][di]
        key = f"fight {i + 1} {c.ship_ids[ea[0]]} v {c.ship_ids[ed[0]]}"
        da, dd = ja[1][ai], jd[1][di]
        row = fights[key]
        row[0] += p * da
        row[1] += p * dd
        row[2] += p


def _add(tally: Tally, ev: _Eval, spec: IACombatSpec, ja: dict, jd: dict, p: float) -> None:
    """One scenario into ``tally``: the two fleets' damage is independent, so outcomes come
    from the two totals' distributions and survivors side by side. Survivors are named by
    ship (damage markers left out); medals (as ``vp``) go to an invasion's winner, a won
    raid steals its margin (as ``resources``, capped by the defender's resources)."""
    raid = spec.kind == "raid"
    for side, sq in ((0, ja), (1, jd)):
        rows: dict[tuple, float] = defaultdict(float)
        for (_t, alive, lost_n, cost), q in sq[0].items():
            text = ", ".join(f"{n} {k}" if n > 1 else k
                             for k, n in sorted(Counter(alive).items()))
            rows[(text, len(alive), lost_n, cost)] += q
        for (text, n, lost_n, cost), q in rows.items():
            tally.add_side(side, p * q, text, n, lost_n, cost)
    ta, td = ev.totals(ja, 0), ev.totals(jd, 1)
    won = lost = steal = 0.0
    for a, pa in ta.items():
        for d, pd in td.items():
            if a > d if raid else a >= d:
                won += pa * pd
                if raid:
                    steal += pa * pd * min(a - d, spec.defender_resources)
            else:
                lost += pa * pd
    tally.add_outcome(p * won, "attacker_wins", "combat")
    tally.add_outcome(p * lost, "defender_wins", "combat")
    if not raid:
        tally.expected["vp"][0] += p * won
        tally.expected["vp"][1] += p * lost
    tally.expected["resources"][0] += p * steal


def shadow_check_odds(modifier: int = 0) -> dict[tuple[int, int], float]:
    """P(success) of a Shadow Check (IA-SHD-08..11: d6 + modifier + boosts - opposes >= 4)
    for each number of cards discarded by the player (boosts) and the target (opposes),
    0..3 each."""
    return {(b, o): sum(1 for r in range(1, 7) if r + modifier + b - o >= 4) / 6
            for b in range(4) for o in range(4)}


def spec_from_state(s: Any, **kw: Any) -> IACombatSpec | None:
    """The combat running in IA state ``s`` as a spec, while its orders are still to be
    given (stages emergency, emergency_draw, prebattle, order); None otherwise. TECH and
    planet bonuses and the defender's resources are read from the state; ``kw`` sets
    ``orders``."""
    from starlanes.games.interstellar_ambitions.common import bonus

    cb = getattr(s, "combat", None)
    if cb is None or cb.stage not in ("emergency", "emergency_draw", "prebattle", "order"):
        return None
    c = s.content
    att, dfn = cb.seats
    raid = cb.kind == "raid"

    def lab(card: int, d: int) -> str:
        return f"{c.ship_ids[card]}/{d}" if d else c.ship_ids[card]

    if cb.stage in ("emergency", "emergency_draw"):
        fleets = [[lab(*sh) for sh in s.ships[seat]
                   if not (raid and c.ship_heavy[sh[0]])
                   and not (seat == att and has_hook(c.ship_fx[sh[0]], "defence_only"))]
                  for seat in (att, dfn)]
        pre, emergency = True, "draw"
    else:
        fleets = [[lab(e[0], e[1]) for e in cb.entries[side] if e[3] == 0] for side in (0, 1)]
        pre, emergency = cb.stage == "prebattle", "none"
    bonus_a = bonus(s, att, "raid_bonus" if raid else "invade_bonus")
    return IACombatSpec(fleets[0], fleets[1], kind=cb.kind, level=cb.level,
                        attacker_bonus=bonus_a, defender_bonus=bonus(s, dfn, "defence_bonus"),
                        emergency=emergency, defender_resources=sum(s.res[dfn]),
                        prebattle=pre, **kw)
