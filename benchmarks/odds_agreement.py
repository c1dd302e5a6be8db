"""Exact odds against Monte Carlo on the game engines over many random fleets.

For each game, N random fleets: the attacker-win probability from the exact model and
from T engine battles; prints how many differ by more than 3 and 4 standard errors and the
largest |z|. Run: python benchmarks/odds_agreement.py [--fleets N] [--trials T]
"""

from __future__ import annotations

import argparse
import math
import random

from starlanes.analysis.odds import (
    IACombatSpec,
    RiftBattleSpec,
    ia_odds,
    parse_fleet,
    parse_ships,
    rift_odds,
)
from starlanes.analysis.odds.ia_sim import ia_simulate

RD_KINDS = ["fighter", "carrier", "corvette", "destroyer", "bomber", "cruiser",
            "missile_frigate", "goliath", "flagship", "sentinel"]
IA_LIGHT = ["strike_craft", "destroyer", "corvette", "void_corsair", "gunrunner",
            "sniper_frigate", "ace_pilot", "ghost_runner", "squadron_leader",
            "black_fang_raiders", "bounty_hunter"]
IA_HEAVY = ["cruiser", "battleship", "armoured_barge", "shield_tender", "captain_rogers",
            "hammer_of_kor"]


def z_of(p_exact: float, p_mc: float, trials: int) -> float:
    se = math.sqrt(max(p_exact * (1 - p_exact), 1e-9) / trials)
    return abs(p_exact - p_mc) / se


def report(name: str, zs: list[float]) -> None:
    print(f"{name}: {len(zs)} fleets, beyond 3 SE: {sum(z > 3 for z in zs)}, beyond 4 SE: "
          f"{sum(z > 4 for z in zs)}, largest |z| {max(zs):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fleets", type=int, default=200)
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--game", choices=["rift-domination", "interstellar-ambitions", "both"],
                    default="both")
    args = ap.parse_args()
    rng = random.Random(2026)
    if args.game in ("rift-domination", "both"):
        zs = []
        for _ in range(args.fleets):
            a = ", ".join(rng.choice(RD_KINDS) for _ in range(rng.randint(1, 4)))
            d = ", ".join(rng.choice(RD_KINDS) for _ in range(rng.randint(1, 4)))
            spec = RiftBattleSpec(parse_fleet(a), parse_fleet(d))
            ex = rift_odds(spec, method="exact")
            mc = rift_odds(spec, method="monte-carlo", trials=args.trials,
                           seed=rng.randrange(10**6))
            zs.append(z_of(ex.attacker_wins, mc.attacker_wins, args.trials))
        report("rift-domination", zs)
    if args.game in ("interstellar-ambitions", "both"):
        zs = []
        for _ in range(args.fleets):
            kind = rng.choice(["raid", "invade"])
            pool = IA_LIGHT + (IA_HEAVY if kind == "invade" else [])
            a = ", ".join(rng.choice(pool) for _ in range(rng.randint(1, 5)))
            d = ", ".join(rng.choice(pool) for _ in range(rng.randint(1, 5)))
            spec = IACombatSpec(parse_ships(a), parse_ships(d), kind=kind,
                                level=rng.randint(1, 3), orders=("strongest", "strongest"))
            ex = ia_odds(spec)
            mc = ia_simulate(spec, args.trials, seed=rng.randrange(10**6))
            zs.append(z_of(ex.attacker_wins, mc["p"], args.trials))
        report("interstellar-ambitions", zs)


if __name__ == "__main__":
    main()
