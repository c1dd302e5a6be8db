"""A heuristic bot for Galactic Domination that plays with purpose.

It attaches miners to free planets, builds warships with what they gather, and fights one
ship at a time (GD-AP-08): each ship first shoots the enemy it can kill or hurt most, then
closes in on the nearest sector from which it could shoot, and only then does the bot turn to
the next ship. Early in the game (for a number of rounds drawn per game) it does not stop a
warship where the enemy could strike it next turn unless it can shoot from there at once;
ties between equally good ships and moves are broken at random.

The specials, each used where it pays off:

* an explorer shoots with all but its last AP and then warps into deep space (GD-DS-01):
  out of reach during the enemy's turn, back next turn somewhere new with a spin of the
  treasure spinner (GD-DS-07/08), the bot's only source of dark matter. It stays on the board
  when it is needed there (too few other ships on the board, GD-WIN-02);
* choosing where an explorer arrives (GD-DS-05) it collides on purpose (GD-DS-06) when the
  ship the enemy would give up is worth more than the explorer, or is their last one;
* a destroyer charges a black hole shot (GD-SPC-04..06) at a sector whose enemy ships,
  attached miners counted in full and others at a discount because they may move, outweigh
  the shot's cost and any own ships there; a charged destroyer fires where enemies
  outweigh friends, or at an empty planet outside its own start zone (the charge is paid
  and the planet is denied);
* a command ship that is far from any fight and safe charges a fleet jump (GD-SPC-07/08);
  ships in its sector without a target wait for it, and on the next turn it acts first and
  jumps with them to the sector nearest a firing position;
* every ship leaves, and no ship or build enters, a sector an enemy destroyer has aimed at.

Distances are counted along the board around black holes (ships cannot move through them).
A black hole shot is never charged at a sector whose black hole would cut the board in two,
and a shot charged before is fired there only to destroy more enemy ships than own ones,
never at an empty planet. Where the board is cut all the same, a command ship on the far
side of every firing sector charges a fleet jump over the cut and the other warships join
it to be jumped along. Without that, two fleets walled apart built up forever and the game
reached the turn limit.

As a defender in a collision it gives up its least valuable ship. It reads only what its
seat may see; the game has no hidden information.
"""

from __future__ import annotations

import random

from starlanes.engine import Action, margin_values

from . import actions as A
from .content import COMMAND, DESTROYER, EXPLORER, MINER, RAIDER, UNIT_IDS
from .state import AIM, AP, ATT, CHG, HULL, KIND, OWNER, SEC, SH, GDState

#: The MCTS agent's defaults for this game (explicit spec parameters win): sequential
#: halving compares the legal actions in the same sampled worlds (160 rollouts a decision),
#: each rolled out by this bot for 40 actions; this bot's own action stands unless another
#: beats it in the same worlds by two standard errors (docs/agents.md: how these were
#: chosen).
MCTS_DEFAULTS = {
    "iterations": 160, "depth": 40, "rollout": "heuristic", "prior": "heuristic",
    "root": "halving", "tree": 1, "confidence": 2.0,
}


BUILD_ORDER = (RAIDER, RAIDER, DESTROYER, RAIDER, COMMAND, RAIDER, DESTROYER, EXPLORER)
SHOT_DISCOUNT = 0.6
"""Share of an unattached enemy ship's cost a black hole shot is expected to destroy (it may
move away before the shot)."""
SHOT_MARGIN = 2
"""A shot is charged when its expected gain exceeds its mineral cost by this much."""
WARP_KEEP = 2
"""An explorer warps only if at least this many other own ships stay on the board."""
JUMP_GAP = 3
"""A command ship charges a jump only when the nearest firing sector is this far or more."""
UNREACHABLE = 99
"""Distance standing for "no path around the black holes"."""
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
        self._paths: dict[tuple[bool, ...], tuple[tuple[int, ...], ...]] = {}
        self._paths_board: object = None

    def act(self, state: GDState) -> Action:
        s = state
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, A.Place):
            return self._place(s, legal)
        if isinstance(first, A.Sacrifice):
            return min(legal, key=lambda a: (self._worth(s, s.ships[a.ship]), a.ship))
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
        """Collide on purpose where the enemy's cheapest non-miner there is worth more
        than the explorer, or is their last ship on the board; otherwise a sector with room
        that no enemy destroyer aims at, enemies' sectors last."""
        me = s.current_player()
        aimed = self._aimed(s, me)
        explorer_cost = s.cost[EXPLORER]
        foes_on = sum(1 for y in s.ships.values() if y[OWNER] != me and y[SEC] >= 0)

        def score(a: Action) -> tuple[int, int, str]:
            sec = s.board.index[a.sector]
            here = [y for y in s.ships.values() if y[SEC] == sec]
            foes = [y for y in here if y[OWNER] != me and y[KIND] != MINER]
            if s.load_at(sec) >= 3:
                if foes:
                    give = min(self._worth(s, y) for y in foes)
                    if give > explorer_cost or foes_on == 1:
                        return (0, -int(give), a.sector)
                    return (3, 0, a.sector)
                return (4, 0, a.sector)
            return (1 if sec not in aimed else 2, len(foes), a.sector)

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
            0 if any(isinstance(a, A.Jump) for a in by_ship[u]) else 1,
            0 if any(isinstance(a, (A.Attack, A.Fire)) for a in by_ship[u]) else 1,
            0 if any(isinstance(a, A.ChargeJump) for a in by_ship[u]) else 1,
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
        aimed = self._aimed(s, me)
        for k in want:
            opts = [a for a in builds
                    if a.kind == UNIT_IDS[k] and s.board.index[a.sector] not in aimed]
            if opts:
                return min(opts, key=lambda a: (s.load_at(s.board.index[a.sector]), a.sector))
            if k != MINER and counts[k] < 5:
                return None  # save up for this one
        return None  # pragma: no cover

    def _ship_action(self, s: GDState, uid: int, acts: list[Action],
                     enemy: dict[int, tuple]) -> Action | None:
        x = s.ships[uid]
        me = x[OWNER]
        k = x[KIND]
        for a in acts:
            if isinstance(a, A.Fire):
                aim = x[AIM]
                foe = sum(s.cost[y[KIND]] for y in s.ships.values()
                          if y[SEC] == aim and y[OWNER] != me)
                own = sum(s.cost[y[KIND]] for y in s.ships.values()
                          if y[SEC] == aim and y[OWNER] == me)
                if foe > own or (own == 0 and s.board.zone_of[aim] != s.start[me]
                                 and not self._splits(s, aim)):
                    return a  # the charge is paid: an empty enemy-side planet is still denied
        jumps = [a for a in acts if isinstance(a, A.Jump)]
        if jumps:
            return self._jump(s, uid, x, jumps, enemy)
        aimed = self._aimed(s, me)
        special = self._special(s, uid, x, acts, enemy) if x[AP] == 1 else None
        attacks = [a for a in acts if isinstance(a, A.Attack)]
        if attacks:
            dmg = s.damage[k]

            def value(a: A.Attack) -> tuple:
                y = s.ships[a.target]
                left = y[SH] + y[HULL]
                kills = dmg >= left
                return (not kills, y[KIND] == MINER, left, a.target)

            best = min(attacks, key=value)
            if special is not None and value(best)[0]:
                return special  # the last AP buys more as a special than a non-kill
            return best
        if k == MINER:
            return self._miner(s, uid, x, acts, aimed)
        moves = [a for a in acts if isinstance(a, A.Move)]
        if x[SEC] in aimed:
            flee = [a for a in moves if s.board.index[a.sector] not in aimed]
            if flee:
                return self._advance(s, x, flee, enemy, must=True)
        if special is None:
            special = self._special(s, uid, x, acts, enemy)
        if special is not None:
            return special
        if x[CHG] or self._waits_for_jump(s, uid, x):
            return None  # charging: keep the aim in range / wait to be jumped along
        moves = [a for a in moves if s.board.index[a.sector] not in aimed]
        if not moves or not enemy:
            return None
        if k != COMMAND and self._firing_gap(s, k, x[SEC], enemy) >= UNREACHABLE:
            return self._join_command(s, x, moves)
        return self._advance(s, x, moves, enemy)

    def _special(self, s: GDState, uid: int, x: tuple, acts: list[Action],
                 enemy: dict[int, tuple]) -> Action | None:
        """Warp, charge a shot or charge a jump, if it pays off now (see module docstring)."""
        me = x[OWNER]
        for a in acts:
            if isinstance(a, A.Warp):
                return a if s.on_board(me) - 1 >= WARP_KEEP else None
        charges = [a for a in acts if isinstance(a, A.ChargeShot)]
        if charges:
            sp = s.content.specials
            gain = {a: self._shot_gain(s, s.board.index[a.sector], me) for a in charges
                    if not self._splits(s, s.board.index[a.sector])}
            if not gain:
                return None
            charges = list(gain)
            best = max(charges, key=lambda a: (gain[a], a.sector))
            if gain[best] >= sp.black_hole_minerals + SHOT_MARGIN:
                return best
            return None
        for a in acts:
            if isinstance(a, A.ChargeJump):
                if not enemy or self._danger(s, enemy)[x[SEC]] or s.round < self.patience:
                    return None
                if self._firing_gap(s, x[KIND], x[SEC], enemy) >= JUMP_GAP:
                    return a
        return None

    def _jump(self, s: GDState, uid: int, x: tuple, jumps: list[Action],
              enemy: dict[int, tuple]) -> Action | None:
        """Jump to the sector nearest a firing position, if it is nearer than here."""
        if not enemy:
            return None
        b = s.board
        danger = self._danger(s, enemy)
        aimed = self._aimed(s, x[OWNER])
        now = self._firing_gap(s, COMMAND, x[SEC], enemy)
        rng = self.rng

        def key(a: Action) -> tuple:
            t = b.index[a.sector]
            return (t in aimed, self._firing_gap(s, COMMAND, t, enemy),
                    danger[t] and s.round < self.patience, rng.random())

        best = min(jumps, key=key)
        t = b.index[best.sector]
        if t in aimed or self._firing_gap(s, COMMAND, t, enemy) >= now:
            return None
        return best

    def _waits_for_jump(self, s: GDState, uid: int, x: tuple) -> bool:
        """A ship in the sector of an own command ship charging a jump waits to go along."""
        if x[KIND] == COMMAND:
            return False
        return any(y[OWNER] == x[OWNER] and y[KIND] == COMMAND and y[CHG] and y[SEC] == x[SEC]
                   for u, y in s.ships.items() if u != uid)

    def _firing_gap(self, s: GDState, kind: int, sec: int, enemy: dict[int, tuple]) -> int:
        """Moves from ``sec`` to the nearest sector from which ``kind`` could shoot, around
        black holes (:data:`UNREACHABLE` if none can be reached)."""
        reach = s.reach[kind]
        foe_secs = {y[SEC] for y in enemy.values()}
        dist = self._path(s)[sec]
        return min((dist[t] for t in range(15)
                    if not s.holes[t] and any(r in foe_secs for r in reach[t])),
                   default=UNREACHABLE)

    def _path(self, s: GDState) -> tuple[tuple[int, ...], ...]:
        """Moves between every two sectors going around black holes (GD-BH-03/04);
        :data:`UNREACHABLE` where no path exists."""
        return self._paths_with(s, tuple(s.holes))

    def _paths_with(self, s: GDState, holes: tuple[bool, ...]) -> tuple[tuple[int, ...], ...]:
        """:meth:`_path` for the black holes ``holes`` on ``s``'s board, by breadth-first
        search, cached per board and set of holes."""
        if self._paths_board is not s.board:
            self._paths_board = s.board
            self._paths = {}
        table = self._paths.get(holes)
        if table is None:
            adj = s.board.adj
            rows = []
            for src in range(15):
                d = [UNREACHABLE] * 15
                if not holes[src]:
                    d[src] = 0
                    frontier = [src]
                    while frontier:
                        nxt = []
                        for u in frontier:
                            for v in adj[u]:
                                if not holes[v] and d[v] == UNREACHABLE:
                                    d[v] = d[u] + 1
                                    nxt.append(v)
                        frontier = nxt
                rows.append(tuple(d))
            table = self._paths[holes] = tuple(rows)
        return table

    def _splits(self, s: GDState, sec: int) -> bool:
        """Whether a black hole at ``sec`` would cut the open sectors into two parts."""
        holes = tuple(h or t == sec for t, h in enumerate(s.holes))
        open_secs = [t for t in range(15) if not holes[t]]
        if not open_secs:
            return False
        first = self._paths_with(s, holes)[open_secs[0]]
        return any(first[t] == UNREACHABLE for t in open_secs)

    def _join_command(self, s: GDState, x: tuple, moves: list[Action]) -> Action | None:
        """A warship cut off from every firing sector moves towards the nearest own
        command ship, to be jumped along over the cut."""
        path = self._path(s)
        commands = [y[SEC] for y in s.ships.values()
                    if y[OWNER] == x[OWNER] and y[KIND] == COMMAND and y[SEC] >= 0]
        if not commands:
            return None

        def gap(sec: int) -> int:
            return min(path[sec][t] for t in commands)

        now = gap(x[SEC])
        best = min(moves, key=lambda a: (gap(s.board.index[a.sector]), a.sector))
        return best if gap(s.board.index[best.sector]) < now else None

    def _shot_gain(self, s: GDState, sec: int, me: int) -> float:
        """Expected minerals a black hole at ``sec`` destroys: enemy attached miners in full,
        other enemy ships at a discount (they may move), own ships counted against it."""
        v = 0.0
        for y in s.ships.values():
            if y[SEC] == sec:
                c = s.cost[y[KIND]]
                if y[OWNER] == me:
                    v -= c
                else:
                    v += c if y[ATT] else SHOT_DISCOUNT * c
        return v

    @staticmethod
    def _worth(s: GDState, y: tuple) -> float:
        """A ship's cost scaled from half to full by the shields and hull it has left."""
        k = y[KIND]
        full = s.max_hull[k] + s.max_sh[k]
        return s.cost[k] * (0.5 + 0.5 * (y[HULL] + y[SH]) / full)

    @staticmethod
    def _aimed(s: GDState, me: int) -> set[int]:
        """Sectors an enemy destroyer charging or charged has aimed at."""
        return {y[AIM] for y in s.ships.values()
                if y[OWNER] != me and y[KIND] == DESTROYER and y[CHG] and y[AIM] >= 0}

    def _advance(self, s: GDState, x: tuple, moves: list[Action],
                 enemy: dict[int, tuple], must: bool = False) -> Action | None:
        """Move towards the nearest sector from which this ship could attack an enemy
        (``must``: take the best of ``moves`` even if it does not get nearer)."""
        b = s.board
        k = x[KIND]
        reach = s.reach[k]
        foe_secs = {y[SEC] for y in enemy.values()}
        firing = [t for t in range(15) if not s.holes[t] and any(r in foe_secs for r in reach[t])]
        if not firing:
            return moves[0] if must else None
        path = self._path(s)

        def gap(sec: int) -> int:
            return min(path[sec][t] for t in firing)

        now = gap(x[SEC])
        if now == 0 and not must:
            return None
        if s.round < self.patience and not must:
            danger = self._danger(s, enemy)
            can_shoot = x[AP] >= 2
            moves = [a for a in moves
                     if not danger[b.index[a.sector]]
                     or (can_shoot and any(r in foe_secs for r in reach[b.index[a.sector]]))]
            if not moves:
                return None
        rng = self.rng
        best = min(moves, key=lambda a: (gap(b.index[a.sector]), rng.random()))
        if must or gap(b.index[best.sector]) < now:
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

    def _miner(self, s: GDState, uid: int, x: tuple, acts: list[Action],
               aimed: set[int]) -> Action | None:
        me = x[OWNER]
        if x[SEC] in aimed:
            for a in acts:
                if isinstance(a, A.Move) and s.board.index[a.sector] not in aimed:
                    return a
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
                if t not in taken and t not in danger and t not in aimed:
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
