"""A heuristic bot for Galactic Domination that plays with purpose.

It attaches miners to free planets, builds warships with what they gather, and fights one
ship at a time (GD-AP-08): each ship first shoots the enemy it can kill or hurt most, then
closes in on the nearest sector from which it could shoot, and only then does the bot turn to
the next ship. Early in the game (for a number of rounds drawn per game) it does not stop a
warship where the enemy could strike it next turn unless it can shoot from there at once;
ties between equally good ships and moves are broken at random. A charged destroyer fires
at a sector where enemies outweigh friends. As a defender in a collision it gives up its
cheapest ship. It reads only what its seat may see; the game has no hidden information.
"""

from __future__ import annotations

import random

from starlanes.engine import Action, margin_values

from . import actions as A
from .content import COMMAND, DESTROYER, EXPLORER, MINER, RAIDER, UNIT_IDS
from .state import AIM, AP, ATT, HULL, KIND, OWNER, SEC, SH, GDState

#: The MCTS agent's defaults for this game (explicit spec parameters win): a short search
#: guided by this bot, whose move is tried first and rolled out for the rest of the turn.
MCTS_DEFAULTS = {
    "iterations": 160, "depth": 40, "rollout": "heuristic", "prior": "heuristic",
    "prior_weight": 4.0,
}


BUILD_ORDER = (RAIDER, RAIDER, DESTROYER, RAIDER, COMMAND, RAIDER, DESTROYER, EXPLORER)
PLACE_ORDER = (RAIDER, DESTROYER, COMMAND, EXPLORER, MINER)
PATIENCE = (0, 3)
"""The bot draws, per game, the round up to which its warships stay out of sectors the enemy
could strike next turn (unless they can shoot from there at once); after it they close in
regardless."""


class HeuristicAgent:
    """``act(state) -> Action``: a greedy rule-based player (see module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.reset(seed)

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.patience = self.rng.randint(*PATIENCE)
        self._strike: tuple[tuple[frozenset[int], ...], ...] = ()
        self._strike_key: tuple = ()

    def act(self, state: GDState) -> Action:
        s = state
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, A.Place):
            return self._place(s, legal)
        if isinstance(first, A.Sacrifice):
            return min(legal, key=lambda a: (s.cost[s.ships[a.ship][KIND]],
                                             s.ships[a.ship][HULL], a.ship))
        if isinstance(first, A.Arrive):
            return self._arrive(s, legal)
        return self._turn(s, legal)

    # ------------------------------------------------------------------ set-up, returns
    def _place(self, s: GDState, legal: list[Action]) -> Action:
        b = s.board
        for k in PLACE_ORDER:
            opts = [a for a in legal if a.kind == UNIT_IDS[k]]
            if opts:
                # forward-most sector with room, spread evenly
                return min(opts, key=lambda a: (s.load_at(b.index[a.sector]), a.sector))
        return legal[0]  # pragma: no cover

    def _arrive(self, s: GDState, legal: list[Action]) -> Action:
        me = s.current_player()

        def score(a: Action) -> tuple[int, str]:
            sec = s.board.index[a.sector]
            foes = sum(1 for x in s.ships.values() if x[SEC] == sec and x[OWNER] != me)
            full = s.load_at(sec) >= 3
            return (0 if not full else (1 if foes else 2), a.sector)

        return min(legal, key=score)

    # ------------------------------------------------------------------ spending step
    def _turn(self, s: GDState, legal: list[Action]) -> Action:
        me = s.seat
        by_ship: dict[int, list[Action]] = {}
        builds: list[Action] = []
        for a in legal:
            ship = getattr(a, "ship", None)
            if ship is not None:
                by_ship.setdefault(ship, []).append(a)
            elif isinstance(a, A.Build):
                builds.append(a)
        enemy = {u: x for u, x in s.ships.items() if x[OWNER] != me and x[SEC] >= 0}
        build = self._build(s, builds)
        if build is not None:
            return build
        if s.active in by_ship:
            pick = self._ship_action(s, s.active, by_ship[s.active], enemy)
            if pick is not None:
                return pick
        rng = self.rng
        order = sorted(by_ship, key=lambda u: (
            0 if any(isinstance(a, (A.Attack, A.Fire)) for a in by_ship[u]) else 1,
            s.ships[u][KIND] == MINER, rng.random()))
        for u in order:
            if u == s.active:
                continue
            pick = self._ship_action(s, u, by_ship[u], enemy)
            if pick is not None:
                return pick
        return A.END

    def _build(self, s: GDState, builds: list[Action]) -> Action | None:
        if not builds:
            return None
        me = s.seat
        counts = s.fleet_counts(me)
        want: list[int] = []
        if counts[MINER] < 4:
            want.append(MINER)
        want.extend(BUILD_ORDER)
        for k in want:
            opts = [a for a in builds if a.kind == UNIT_IDS[k]]
            if opts:
                return min(opts, key=lambda a: (s.load_at(s.board.index[a.sector]), a.sector))
            if k != MINER and counts[k] < 5:
                return None  # save up for this one
        return None  # pragma: no cover

    def _ship_action(self, s: GDState, uid: int, acts: list[Action],
                     enemy: dict[int, tuple]) -> Action | None:
        x = s.ships[uid]
        me = x[OWNER]
        for a in acts:
            if isinstance(a, A.Fire):
                aim = x[AIM]
                foe = sum(s.cost[y[KIND]] for y in s.ships.values()
                          if y[SEC] == aim and y[OWNER] != me)
                own = sum(s.cost[y[KIND]] for y in s.ships.values()
                          if y[SEC] == aim and y[OWNER] == me)
                if foe > own:
                    return a
            if isinstance(a, A.Jump):
                continue
        attacks = [a for a in acts if isinstance(a, A.Attack)]
        if attacks:
            dmg = s.damage[x[KIND]]

            def value(a: A.Attack) -> tuple:
                y = s.ships[a.target]
                left = y[SH] + y[HULL]
                kills = dmg >= left
                return (not kills, y[KIND] == MINER, left, a.target)

            return min(attacks, key=value)
        if x[KIND] == MINER:
            return self._miner(s, uid, x, acts)
        charges = [a for a in acts if isinstance(a, A.ChargeShot)]
        if charges:
            best = max(charges, key=lambda a: self._sector_value(s, s.board.index[a.sector], me))
            if self._sector_value(s, s.board.index[best.sector], me) >= 14:
                return best
        moves = [a for a in acts if isinstance(a, A.Move)]
        if not moves or not enemy:
            return None
        return self._advance(s, x, moves, enemy)

    @staticmethod
    def _sector_value(s: GDState, sec: int, me: int) -> int:
        v = 0
        for y in s.ships.values():
            if y[SEC] == sec:
                v += s.cost[y[KIND]] if y[OWNER] != me else -2 * s.cost[y[KIND]]
        return v

    def _advance(self, s: GDState, x: tuple, moves: list[Action],
                 enemy: dict[int, tuple]) -> Action | None:
        """Move towards the nearest sector from which this ship could attack an enemy."""
        b = s.board
        k = x[KIND]
        reach = s.reach[k]
        foe_secs = {y[SEC] for y in enemy.values()}
        firing = [t for t in range(15) if not s.holes[t] and any(r in foe_secs for r in reach[t])]
        if not firing:
            return None

        def gap(sec: int) -> int:
            return min(b.dist[sec][t] for t in firing)

        now = gap(x[SEC])
        if now == 0:
            return None
        if s.round < self.patience:
            danger = self._danger(s, enemy)
            can_shoot = x[AP] >= 2
            moves = [a for a in moves
                     if not danger[b.index[a.sector]]
                     or (can_shoot and any(r in foe_secs for r in reach[b.index[a.sector]]))]
            if not moves:
                return None
        rng = self.rng
        best = min(moves, key=lambda a: (gap(b.index[a.sector]), rng.random()))
        if gap(b.index[best.sector]) < now:
            return best
        return None

    def _danger(self, s: GDState, enemy: dict[int, tuple]) -> list[bool]:
        """Sectors some enemy warship could attack on its next turn (move, then shoot)."""
        key = (s.board, s.max_ap, s.reach)
        if self._strike_key != key:
            self._strike_key = key
            b = s.board
            self._strike = tuple(
                tuple(frozenset(t for u in range(15) if b.dist[sec][u] <= s.max_ap[k] - 1
                                for t in s.reach[k][u]) for sec in range(15))
                for k in range(5))
        out = [False] * 15
        for y in enemy.values():
            if s.damage[y[KIND]]:
                for t in self._strike[y[KIND]][y[SEC]]:
                    out[t] = True
        return out

    def _miner(self, s: GDState, uid: int, x: tuple, acts: list[Action]) -> Action | None:
        me = x[OWNER]
        attached_here = sum(1 for u, y in s.ships.items()
                            if u != uid and y[SEC] == x[SEC] and y[ATT])
        if x[ATT]:
            return None
        if attached_here == 0:
            for a in acts:
                if isinstance(a, A.Attach):
                    return a
        if x[AP] <= 1:
            return None
        taken = {y[SEC] for y in s.ships.values() if y[ATT]}
        danger = {y[SEC] for y in s.ships.values() if y[OWNER] != me and y[SEC] >= 0}
        for a in acts:
            if isinstance(a, A.Move):
                t = s.board.index[a.sector]
                if t not in taken and t not in danger:
                    return a
        for a in acts:
            if isinstance(a, A.Attach):
                return a
        return None


__all__ = ["HeuristicAgent", "COMMAND"]


def evaluate(state: GDState) -> list[float]:
    """Leaf value for search, per seat in [0, 1]: returns() when the game is over, else a
    logistic of the difference in fleet value (each unit's mineral cost, scaled from half
    to full by the shields and hull it has left) plus half the minerals in hand."""
    s = state
    if s.is_terminal():
        return s.returns()
    val = [0.0, 0.0]
    for x in s.ships.values():
        k = x[KIND]
        full = s.max_hull[k] + s.max_sh[k]
        frac = (x[HULL] + x[SH]) / full if full else 1.0
        val[x[OWNER]] += s.cost[k] * (0.5 + 0.5 * frac)
    for i in (0, 1):
        val[i] += 0.5 * s.minerals[i]
    return margin_values(val, 8.0)
