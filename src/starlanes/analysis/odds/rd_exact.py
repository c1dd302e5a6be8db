"""Exact Rift Domination battle odds by dynamic programming (rulebook BATTLE, WEAPONS AND
RANGE, UNIT-SKILLS; RD-BAT-02..12, RD-HIT-01..15, RD-SKL-02, RD-SKL-12).

The combatants are read from the engine's own :class:`~starlanes.games.rift_domination.
battle_model.Battle` as the game starts it, and hit chances come from its
:func:`~starlanes.games.rift_domination.battle_model.needed_roll`, so the model and the
game share one hit table. A fleet is per side the sorted tuple of ``(type, LP left,
shields left)`` of living combatants; hits are placed one at a time by the targeting
policy, so a fleet after ``k`` hits depends on ``k`` alone and a battle state is a cell of
hit counts (:mod:`.rd_grid` steps the grid). Probability mass is pushed forward phase by
phase (far, mid, close, then further close rounds until a side falls, retreats, or the
attacker must leave after the last round); per phase each side's number of hits has the
exact distribution of its dice (a sum of binomials, one per needed roll, memoised). The
state space, ``(attacker hit points + 1) x (defender hit points + 1)`` cells, is known
before any work (:meth:`RiftExact.check_size`).

Modelled: simultaneous and sequential fire (``battle_fire``), first strike, faction hit
bonuses, Rocket Barrage, Taunt, Defensive Ring (part of the starting LP and shields),
forced and chosen retreats. Not modelled (the caller falls back to Monte Carlo on the
engine): Repair Rush, Overload, Kamikaze, Repair Bldg and battle cards.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any, NamedTuple

from starlanes.games.rift_domination import battle_skills as sk
from starlanes.games.rift_domination.battle_model import (
    ATTACKER,
    CLOSE,
    DEFENDER,
    FAR,
    PHASES,
    WEAPONS,
    Battle,
    needed_roll,
)

from .policies import TargetView
from .tally import Tally

UNMODELLED = frozenset({"repair_rush", "overload", "kamikaze"})
"""Skills the exact model leaves out: a battle with a combatant that can still use one is
estimated (Overload is modelled once used: the policy spends it in the first window,
before any die, see :func:`~.rd_sim.prologue`). Repair Bldg counts only on a side with
buildings (see :func:`unmodelled`)."""

WHY = {
    "repair_rush": "Repair Rush (repair ship, Nanite Swarm) restores damage the dice dealt, "
                   "so a fleet no longer follows from the hits it took",
    "overload": "Overload is kept for a later phase",
    "kamikaze": "a destroyed kamikaze drone strikes one ship for 3 damage, more than one "
                "hit's worth, so a fleet no longer follows from the hits it took",
    "repair_bldg": "Repair Bldg (engineer) restores damage the dice dealt to buildings, so "
                   "a fleet no longer follows from the hits it took",
}
"""Why each skill is outside the exact model, in players' words."""


MAX_STEP_CELLS = 12_000_000
"""Bound on the transition arrays of one phase (attacker hit points x defender hit points x
(their sum + 2) float cells, about 100 MB): past it the exact model refuses (TooLarge)."""

MAX_STEP_WORK = 200_000_000
"""Bound on the multiplications of one phase's matrix product (attacker hit points x
defender hit points x both plus one; 20 v 20 mixed fleets need 3.6 million): it keeps one
exact answer within a few seconds."""


class TooLarge(Exception):
    """The exact state space passed the limit; the caller falls back to Monte Carlo."""


class CType(NamedTuple):
    """A combatant type: what never changes during the battle."""

    kind: str
    lp_max: int
    sh_max: int
    weapons: tuple[int, int, int]
    building: bool
    taunt: bool
    barrage: bool
    cost: float

    @property
    def dice(self) -> int:
        return sum(self.weapons)


Fleet = tuple[tuple[int, int, int], ...]
"""A side's living combatants, sorted: (type index, LP left, shields left)."""


def phase_label(phase: int, rounds: int) -> str:
    """``far``, ``mid``, ``close`` and ``close 2``.. for further close rounds."""
    if phase < CLOSE:
        return PHASES[phase]
    return "close" if rounds == 0 else f"close {rounds + 1}"


class RiftExact:
    """The exact odds of the battle ``b`` (a Battle as the engine started it, no die rolled
    yet) in ``state``. ``keys`` are the targeting policy key of each shooting side,
    ``retreat`` the retreat policy of each side. :meth:`run` raises TooLarge past
    ``max_states`` live states in one phase."""

    def __init__(self, state: Any, b: Battle, keys: tuple[Callable, Callable],
                 retreat: tuple[str, str], max_states: int = 200_000) -> None:
        content = state.content
        self.ground = b.ground
        self.phase0 = b.phase
        self.rounds0 = b.close_rounds
        self.barrage_done = b.barrage_done
        self.was_rolled = b.rolled
        self.simultaneous = b.simultaneous
        self.first = b.first_striker
        self.order = tuple(b.order)
        self.keys = keys
        self.retreat = retreat
        self.max_states = max_states
        self.types: list[list[CType]] = [[], []]
        index: list[dict[CType, int]] = [{}, {}]
        start: list[list[tuple[int, int, int]]] = [[], []]
        gone = [[0, 0.0], [0, 0.0]]  # destroyed earlier in this battle (an Ambush)
        for f in b.fighters.values():
            if not f.alive:
                if not f.building and b.retreated != f.side:
                    gone[f.side][0] += 1
                    gone[f.side][1] += float(content.units[f.kind].cost
                                             if f.kind in content.units else 1)
                continue
            if f.kind in content.units:
                cost = float(content.units[f.kind].cost)
            elif f.kind in content.upgrades:
                cost = float(content.upgrades[f.kind].cost)
            else:
                cost = 1.0
            skills = frozenset() if b.blocked[f.side] else f.skills  # Jamming Field
            t = CType(f.kind, f.lp_max, f.sh_max, (f.close, f.mid, f.long), f.building,
                      "taunt" in skills,
                      "rocket_barrage" in skills and "rocket_barrage" not in f.used, cost)
            i = index[f.side].setdefault(t, len(self.types[f.side]))
            if i == len(self.types[f.side]):
                self.types[f.side].append(t)
            start[f.side].append((i, f.lp, f.sh))
        self.start = (tuple(sorted(start[0])), tuple(sorted(start[1])))
        self.bonus = []
        for side in (ATTACKER, DEFENDER):
            fx = state.fx[b.seats[side]]
            hb = fx.hit_bonus if fx else {}
            self.bonus.append(tuple(hb.get(w, 0) for w in WEAPONS))
        # Targeting Uplink played in this phase's window: +1 to hit in this phase only
        boost = [[b.hit_boost[s] if ph == b.phase and b.phase < CLOSE else 0
                  for ph in range(3)] for s in (0, 1)]
        self.need = [[[needed_roll(w, ph, self.bonus[s][wi] + boost[s][ph])
                       for wi, w in enumerate(WEAPONS)] for ph in range(3)] for s in (0, 1)]
        self.barrage_n = sk.rule(state, "rocket_barrage_targets")
        self.barrage_p = (7 - sk.rule(state, "rocket_barrage_min_roll")) / 6
        fxs = [state.fx[b.seats[s]] for s in (0, 1)]
        self.win_vp = [sk.rule(state, "battle_win_vp") + (fx.battle_win_vp if fx else 0)
                       for fx in fxs]
        self.win_res = [fx.battle_win_resources if fx else 0 for fx in fxs]
        self.salvage = [fx.salvage if fx else 0 for fx in fxs]
        self.n_units = [gone[s][0] + sum(1 for u in self.start[s]
                                         if not self.types[s][u[0]].building)
                        for s in (0, 1)]
        self.cost0 = [gone[s][1] + sum(self.types[s][u[0]].cost for u in self.start[s])
                      for s in (0, 1)]
        self._dist: dict[tuple, list[float]] = {}
        self.states = 0
        self.dropped = 0.0

    # ------------------------------------------------------------------ pieces
    def weapons(self, side: int, fleet: Fleet) -> tuple[int, int, int]:
        """``side``'s dice per weapon (close, mid, long) in ``fleet``."""
        types = self.types[side]
        w = [0, 0, 0]
        for t, _lp, _sh in fleet:
            for wi, n in enumerate(types[t].weapons):
                w[wi] += n
        return (w[0], w[1], w[2])

    def dice(self, side: int, weapons: tuple[int, int, int],
             phase: int) -> tuple[tuple[int, int], ...]:
        """Dice per weapon as sorted ``(roll needed, number of dice)`` pairs in ``phase``
        (RD-HIT-01..12; a needed roll over 6 never hits)."""
        need = self.need[side][phase]
        by_need: Counter[int] = Counter()
        for wi, n in enumerate(weapons):
            if n:
                by_need[need[wi]] += n
        return tuple(sorted(by_need.items()))

    def hit_dist(self, side: int, weapons: tuple[int, int, int], phase: int) -> list[float]:
        """P(a volley of ``side`` with these dice per weapon scores h hits) for h = 0..dice
        (RD-HIT-01..12): the convolution of one binomial per needed roll, memoised."""
        key = self.dice(side, weapons, phase)
        out = self._dist.get(key)
        if out is not None:
            return out
        dist = [1.0]
        for nd, n in key:
            p = min(1.0, max(0.0, (7 - nd) / 6))
            dist = convolve(dist, binom(n, p))
        self._dist[key] = out = dist
        return out

    def target(self, shooter: int, fleet: Fleet) -> tuple[tuple[int, int, int],
                                                          tuple[int, int, int] | None]:
        """The unit of ``fleet`` (the side opposite ``shooter``) the shooter's targeting
        policy hits next, and what is left of it after 1 damage (None: destroyed). Taunt
        (RD-SKL-12) limits the choice to taunting combatants while one lives; damage goes
        to shields first (RD-HIT-14)."""
        types = self.types[1 - shooter]
        pool = set(fleet)
        taunts = {u for u in pool if types[u[0]].taunt}
        if taunts:
            pool = taunts
        key = self.keys[shooter]

        def view(u: tuple[int, int, int]) -> tuple:
            t = types[u[0]]
            return key(TargetView(t.kind, u[1], u[2], t.lp_max, t.sh_max, t.cost, t.dice))

        target = max(pool, key=view)
        t, lp, sh = target
        if sh > 0:
            return target, (t, lp, sh - 1)
        if lp > 1:
            return target, (t, lp - 1, sh)
        return target, None

    def label(self, side: int, unit: tuple[int, int, int]) -> str:
        """The engine's notation of one unit: ``carrier`` or, damaged, ``carrier[1/0]``."""
        ct = self.types[side][unit[0]]
        return TargetView(ct.kind, unit[1], unit[2], ct.lp_max, ct.sh_max, ct.cost,
                          ct.dice).label

    def strength(self, side: int, fleet: Fleet) -> float:
        types = self.types[side]
        return sum(lp + sh + 1.5 * types[t].dice for t, lp, sh in fleet)

    def can_retreat(self, side: int, fleet: Fleet) -> bool:
        """Whether ``side`` has a unit that can leave (buildings never move)."""
        types = self.types[side]
        return any(not types[t].building for t, _, _ in fleet)

    def has_weapons(self, side: int, fleet: Fleet) -> bool:
        types = self.types[side]
        return any(types[t].dice for t, _, _ in fleet)

    def _barrage(self, fleets: list[Fleet]) -> list[tuple[list[Fleet], float]]:
        """RD-SKL-02 at the start of a space battle: every Rocket Barrage unit (attacker's
        first) fires at up to 3 enemy fighters; each dies on 4+ (ruling RD-OPEN-16)."""
        out = [(list(fleets), 1.0)]
        for side in (ATTACKER, DEFENDER):
            types = self.types[side]
            shooters = sum(1 for t, _, _ in fleets[side] if types[t].barrage)
            for _ in range(shooters):
                nxt = []
                for fl, q in out:
                    enemy = fl[1 - side]
                    et = self.types[1 - side]
                    fighters = [u for u in enemy if et[u[0]].kind == "fighter"]
                    n = min(self.barrage_n, len(fighters))
                    probs = binom(n, self.barrage_p)
                    for k, pk in enumerate(probs):
                        if pk == 0:
                            continue
                        units = list(enemy)
                        for u in fighters[:k]:
                            units.remove(u)
                        new = list(fl)
                        new[1 - side] = tuple(units)
                        nxt.append((new, q * pk))
                out = nxt
        return out

    # ------------------------------------------------------------------ the flow
    def size(self) -> tuple[int, int]:
        """Hit points (LP + shields) of each side's starting combatants: a side's fleet after
        ``k`` hits is a function of ``k`` alone (hits are placed one at a time by a fixed
        policy), so a battle state is a pair of hit counts."""
        return (sum(lp + sh for _, lp, sh in self.start[0]),
                sum(lp + sh for _, lp, sh in self.start[1]))

    def check_size(self) -> None:
        """Raise TooLarge before any work when the battle's states (cells of the hit-count
        grid) pass ``max_states`` or one phase's step would pass the memory bound."""
        ka, kd = self.size()
        cells = (ka + 1) * (kd + 1)
        if cells > self.max_states:
            raise TooLarge(f"{cells:,} battle states (attacker {ka} hit points, defender "
                           f"{kd}) pass the limit of {self.max_states:,} (--max-states)")
        if ka * kd * (ka + kd + 2) > MAX_STEP_CELLS:
            raise TooLarge(f"one phase of {ka} against {kd} hit points needs more than "
                           f"{MAX_STEP_CELLS:,} transition cells (about 100 MB)")
        if ka * kd * (ka + 1) * (kd + 1) > MAX_STEP_WORK:
            raise TooLarge(f"one phase of {ka} against {kd} hit points needs more than "
                           f"{MAX_STEP_WORK:,} multiplications")

    def starts(self) -> list[tuple[Fleet, Fleet, float]]:
        """The fleets the first volley meets, with their probabilities: the starting fleets,
        or after Rocket Barrage (RD-SKL-02) the fleets it may leave."""
        if self.phase0 != FAR or self.barrage_done:
            return [(self.start[0], self.start[1], 1.0)]
        merged: dict[tuple[Fleet, Fleet], float] = defaultdict(float)
        for fl, q in self._barrage([self.start[0], self.start[1]]):
            merged[(fl[0], fl[1])] += q
        return [(a, d, q) for (a, d), q in merged.items()]

    def run(self, tally: Tally) -> None:
        """Push the battle's probability through all phases into ``tally`` (raises TooLarge
        first when the battle is over the bounds, see :meth:`check_size`)."""
        from .rd_grid import Grid, one_blas_thread

        self.check_size()
        label = self._prepare()
        with one_blas_thread():
            for a, d, q in self.starts():
                if not a or not d:
                    self._finish(tally, q, a, d, label, None)
                    continue
                Grid(self, a, d).run(tally, q)

    def simulate(self, tally: Tally, trials: int, seed: int) -> None:
        """``trials`` random battles of this same model (numpy's generator seeded with
        ``seed``), counted into ``tally``: the estimate where the exact grid is too large.
        The fleets' chains take time and memory linear in their hit points."""
        import numpy as np

        from .rd_grid import Grid

        label = self._prepare()
        rng = np.random.default_rng(seed)
        starts = self.starts()
        total = sum(q for *_, q in starts)
        counts = rng.multinomial(trials, [q / total for *_, q in starts])
        for (a, d, _q), n in zip(starts, counts.tolist(), strict=True):
            if not n:
                continue
            if not a or not d:
                self._finish(tally, float(n), a, d, label, None)
                continue
            Grid(self, a, d).simulate(tally, n, rng)

    def _prepare(self) -> str:
        self.rolled = self.was_rolled or any(
            self.has_weapons(s, self.start[s]) for s in (0, 1)) or any(
            t.barrage for s in (0, 1) for t in self.types[s])
        return phase_label(self.phase0, self.rounds0)

    def fleet_text(self, side: int, fleet: Fleet) -> str:
        types = self.types[side]
        c: Counter[str] = Counter()
        for t, lp, sh in fleet:
            ct = types[t]
            c[TargetView(ct.kind, lp, sh, ct.lp_max, ct.sh_max, ct.cost, ct.dice).label] += 1
        return ", ".join(f"{n} {k}" if n > 1 else k for k, n in sorted(c.items()))

    def _finish(self, tally: Tally, p: float, a: Fleet, d: Fleet, label: str,
                retreated: int | None) -> None:
        fleets = (a, d)
        if retreated is not None:
            outcome = ("attacker_retreats", "defender_retreats")[retreated]
            winner = 1 - retreated
        elif a and not d:
            outcome, winner = "attacker_wins", ATTACKER
        elif d and not a:
            outcome, winner = "defender_wins", DEFENDER
        else:
            outcome, winner = "mutual_destruction", -1
        units = [sum(1 for u in fleets[s] if not self.types[s][u[0]].building)
                 for s in (0, 1)]
        lost = (self.n_units[0] - units[0], self.n_units[1] - units[1])
        cost = [self.cost0[s] - sum(self.types[s][u[0]].cost for u in fleets[s])
                for s in (0, 1)]
        vp = [0.0, 0.0]
        res = [0.0, 0.0]
        if winner >= 0 and self.rolled:
            vp[winner] = self.win_vp[winner]
            res[winner] = self.win_res[winner] + self.salvage[winner] * lost[1 - winner]
        tally.add(p, outcome, label, (self.fleet_text(0, a), self.fleet_text(1, d)),
                  (len(a), len(d)), lost, (cost[0], cost[1]), (vp[0], vp[1]),
                  (res[0], res[1]))


def binom(n: int, p: float) -> list[float]:
    """P(k successes in n trials) for k = 0..n (in logs, so large n do not overflow)."""
    if p <= 0.0 or p >= 1.0:
        return [0.0] * n + [1.0] if p >= 1.0 else [1.0] + [0.0] * n
    lp, lq, ln = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    return [math.exp(ln - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * lp + (n - k) * lq)
            for k in range(n + 1)]


def convolve(x: list[float], y: list[float]) -> list[float]:
    """The distribution of the sum of two independent counts with distributions x and y."""
    if len(x) == 1:
        return [x[0] * q for q in y]
    out = [0.0] * (len(x) + len(y) - 1)
    for i, p in enumerate(x):
        if p:
            for j, q in enumerate(y):
                out[i + j] += p * q
    return out


def unmodelled(b: Battle, hands: tuple[list[str], list[str]] = ([], [])) -> str:
    """Why the exact model cannot take battle ``b`` from where it stands ("" if it can), in
    players' words: skills it leaves out (Repair Bldg only where its side has buildings),
    battle cards whose effect lasts past the first volley (Weapon Industry, Field Repairs,
    Nanite Swarm), cards still in ``hands`` (per side) to be played later, or a phase
    already under way. Jamming Field, Targeting Uplink in the current phase, Overload and
    cards that act before the first die (recruits, Shield Surge, Capacitor Overload,
    Ambush) are modelled: call it on the battle after :func:`~.rd_sim.prologue`."""
    reasons = []
    skills: set[str] = set()
    for f in b.fighters.values():
        if not f.alive or b.blocked[f.side]:
            continue
        skills |= {s for s in f.skills & UNMODELLED if s not in f.used or s == "repair_rush"}
        if "repair_bldg" in f.skills and "repair_bldg" not in f.used and any(
                g.building and g.alive and g.side == f.side for g in b.fighters.values()):
            skills.add("repair_bldg")
    if "repair_rush" in skills and not any(
            f.alive and "repair_rush" in f.skills and not b.blocked[f.side]
            and b.rush_left.get(f.fid, 1) > 0 for f in b.fighters.values()):
        skills.discard("repair_rush")
    reasons += [WHY[k] for k in sorted(skills)]
    cards = []
    if any(b.weapon_industry) or b.bonus_hits:
        cards.append("Weapon Industry doubles the damage of hits")
    if any(b.repair_card):
        cards.append("Field Repairs restores damage at the end of the phase")
    if any(b.rush_pool):
        reasons.append(WHY["repair_rush"])
    if any(b.hit_boost) and b.phase >= CLOSE:
        cards.append("Targeting Uplink in a close round")
    held = sorted({c for h in hands for c in h})
    if held:
        cards.append("cards held after the first volley ("
                     + ", ".join(c.replace("_", " ") for c in held) + ")")
    reasons += cards
    if not reasons:
        if b.stage not in ("open", "phase_start", "cards", "overload") or (
                b.pending is not None and b.pending[0] not in ("cancel", "cards", "overload")):
            return "the current phase is under way"
        if any(f.lp <= 0 and not f.gone for f in b.fighters.values()):
            return "casualties are waiting to be removed"
    return "; ".join(dict.fromkeys(reasons))
