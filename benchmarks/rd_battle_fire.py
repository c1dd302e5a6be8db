"""Rift Domination: the attacker's battle win rate under each ``battle_fire`` reading.

Two measurements, one line each per reading (nothing asserts, it only reports):

* ``fleets``: space battles between random fleets of equal cost (``--budget`` resources of
  the designed units each), heuristic bots deciding, ``--battles`` per reading; every
  battle is fought from the same position and dice seed under both readings.
* ``games``: every battle of ``--games`` heuristic self-play games (``--players`` seats),
  space and ground battles counted apart.

Run: ``python benchmarks/rd_battle_fire.py [--battles N] [--games N] [--players P]``.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

import starlanes
from starlanes.games.rift_domination import battle
from starlanes.games.rift_domination.battle_model import ATTACKER, DEFENDER
from starlanes.games.rift_domination.heuristic import HeuristicAgent

READINGS = ("simultaneous", "sequential")
SHIPS = ("fighter", "carrier", "corvette", "destroyer", "support", "bomber", "repair_ship",
         "missile_frigate", "sentinel", "cruiser", "goliath", "kamikaze_drone")


def _outcome(b) -> str:
    """'attacker', 'defender', 'none' (both gone) or 'cancelled' for a finished battle."""
    if b.stage == "cancelled":
        return "cancelled"
    standing = [s for s in (ATTACKER, DEFENDER) if b.has_living(s) and b.retreated != s]
    if len(standing) != 1:
        return "none"
    return "attacker" if standing[0] == ATTACKER else "defender"


def _fleet(state, rng: random.Random, budget: int) -> list[str]:
    out: list[str] = []
    left = budget
    while True:
        kinds = [k for k in SHIPS if state.content.units[k].cost <= left]
        if not kinds:
            return out
        k = rng.choice(kinds)
        out.append(k)
        left -= state.content.units[k].cost


def fleets(reading: str, battles: int, budget: int, seed: int = 0) -> Counter[str]:
    """Outcomes of ``battles`` equal-cost space battles under ``reading``."""
    base = starlanes.load("rift-domination", players=2, seed=seed,
                          battle_fire=reading).new_initial_state()
    while base.phase.startswith("setup"):
        base.apply(base.legal_actions()[0])
    base.stack.clear()
    base.units.clear()
    base.hands = [[], []]
    base.phase, base.seat = "move", 0
    point = base.board.index["C1"]
    home = base.board.index["B1"]
    out: Counter[str] = Counter()
    for i in range(battles):
        rng = random.Random(seed * 100003 + i)
        s = base.clone()
        s.reseed(rng.getrandbits(63))
        att = [s.add_unit(0, k, point) for k in _fleet(s, rng, budget)]
        for k in _fleet(s, rng, budget):
            s.add_unit(1, k, point)
        bots = [HeuristicAgent(i * 2), HeuristicAgent(i * 2 + 1)]
        battle.start_space_battle(s, 0, point, {u: home for u in att})
        last = s.battle
        while s.battle is not None:
            last = s.battle
            s.apply(bots[s.current_player()].act(s))
        out[_outcome(last)] += 1
    return out


def games(reading: str, n: int, players: int, seed: int = 0) -> dict[str, Counter[str]]:
    """Outcomes of every battle in ``n`` heuristic games under ``reading``, by kind."""
    found: dict[str, Counter[str]] = {"space": Counter(), "ground": Counter()}
    real_finish = battle.finish

    def spy(state, b):
        found["ground" if b.ground else "space"][_outcome(b)] += 1
        real_finish(state, b)

    battle.finish = spy
    try:
        for g in range(n):
            s = starlanes.load("rift-domination", players=players, seed=seed + g,
                               battle_fire=reading).new_initial_state()
            bots = [HeuristicAgent(g * 10 + i) for i in range(players)]
            while not s.is_terminal():
                s.apply(bots[s.current_player()].act(s))
    finally:
        battle.finish = real_finish
    return found


def _line(label: str, c: Counter[str]) -> str:
    fought = sum(v for k, v in c.items() if k != "cancelled")
    rate = c["attacker"] / fought if fought else 0.0
    return (f"{label}: {fought} battles, attacker wins {c['attacker']} ({rate:.1%}), "
            f"defender {c['defender']}, nobody {c['none']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--battles", type=int, default=1000)
    ap.add_argument("--budget", type=int, default=12)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    for reading in READINGS:
        if args.battles:
            print(_line(f"fleets {reading} (cost {args.budget} each)",
                        fleets(reading, args.battles, args.budget)))
        if args.games:
            res = games(reading, args.games, args.players)
            for kind in ("space", "ground"):
                print(_line(f"games {reading} {args.players}p {kind}", res[kind]))


if __name__ == "__main__":
    main()
