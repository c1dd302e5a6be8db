"""Battle odds speed: exact Rift Domination space battles of mixed fleets (5v5, 10v10,
20v20; median and fastest of --repeat runs, set-up included and the dynamic programme
alone, and the median CPU time of this process, which a busy machine inflates less), the estimate of battles over the exact bounds (400 v 400, 1,000 v 1,000), engine
Monte Carlo battles per second, exact Interstellar Ambitions 6v6 combats (given orders,
and the attacker's best order), and the start of ``starlanes odds --help``; the skills and battle cards (support ships and
cards exact, kamikaze drones and repair ships estimated) at 20 v 20; Interstellar
Ambitions 8 v 8 (the game's fleet limit) and 8 v 7 with the emergency draw.

Run: python benchmarks/odds.py [--mc-trials N] [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from starlanes.analysis.odds import (
    IACombatSpec,
    RiftBattleSpec,
    ia_odds,
    odds_of_battle,
    parse_fleet,
    parse_ships,
    rift_odds,
)
from starlanes.analysis.odds.rd_position import position
from starlanes.analysis.odds.rd_sim import start

SKILLS_20V20 = {
    "support ships, exact": ("8 fighter, 4 carrier, 4 destroyer, 2 corvette, 2 support", "",
                             (), ()),
    "battle cards, exact": ("8 fighter, 4 carrier, 4 destroyer, 2 corvette, 2 cruiser", "",
                            ("shield_surge", "targeting_uplink", "emergency_recruitment"),
                            ("jamming_field", "ambush")),
    "engineers carried, exact": ("8 fighter, 4 carrier, 4 destroyer, 2 engineer, 2 cruiser",
                                 "", (), ()),
    "kamikaze drones, estimate": ("8 fighter, 4 carrier, 4 destroyer, 2 kamikaze_drone, "
                                  "2 cruiser", "", (), ()),
    "repair ships, estimate": ("8 fighter, 4 carrier, 4 destroyer, 2 repair_ship, 2 cruiser",
                               "", (), ()),
    "weapon industry, estimate": ("8 fighter, 4 carrier, 4 destroyer, 2 corvette, 2 cruiser",
                                  "", ("weapon_industry",), ()),
}
IA_8V8 = ("3 destroyer, 2 corvette, 2 strike_craft, squadron_leader",
          "2 cruiser, battleship, 2 destroyer, 3 corvette")
IA_6V6 = ("destroyer, corvette, 2 strike_craft, squadron_leader, void_corsair",
          "2 cruiser, battleship, destroyer, 2 corvette")

FLEETS = {
    "5v5": ("2 fighter, carrier, destroyer, cruiser",
            "2 fighter, corvette, bomber, cruiser"),
    "10v10": ("4 fighter, 2 carrier, 2 destroyer, corvette, cruiser",
              "4 fighter, 2 corvette, 2 bomber, destroyer, cruiser"),
    "20v20": ("8 fighter, 4 carrier, 4 destroyer, 2 corvette, 2 cruiser",
              "8 fighter, 4 corvette, 4 bomber, 2 destroyer, 2 cruiser"),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mc-trials", type=int, default=2000)
    ap.add_argument("--max-states", type=int, default=2_000_000)
    ap.add_argument("--repeat", type=int, default=11)
    args = ap.parse_args()
    rift_odds(RiftBattleSpec(parse_fleet("fighter"), parse_fleet("fighter")))  # warm up
    for name, (a, d) in FLEETS.items():
        spec = RiftBattleSpec(parse_fleet(a), parse_fleet(d))
        full, dp, cpu = [], [], []
        for _ in range(args.repeat):
            t, c = time.perf_counter(), time.process_time()
            r = rift_odds(spec, method="exact", max_states=args.max_states)
            full.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            pos, planet = position(spec)
            s = start(pos, planet, 0)
            t = time.perf_counter()
            odds_of_battle(s, method="exact", max_states=args.max_states)
            dp.append(time.perf_counter() - t)
        print(f"exact {name:>6}: {1000 * statistics.median(full):7.1f} ms with set-up "
              f"(fastest {1000 * min(full):5.1f}), {1000 * statistics.median(dp):7.1f} ms the "
              f"dynamic programme (fastest {1000 * min(dp):5.1f}), CPU time with set-up "
              f"{1000 * statistics.median(cpu):6.1f} ms  {r.states:>8} states  "
              f"attacker wins {100 * r.attacker_wins:6.2f}%")
    for a, d in (("400 fighter", "400 fighter"), ("1000 fighter", "600 destroyer, 400 cruiser")):
        t = time.perf_counter()
        r = rift_odds(RiftBattleSpec(parse_fleet(a), parse_fleet(d)), trials=args.mc_trials)
        dt = time.perf_counter() - t
        print(f"{a} v {d}: {r.method}, {dt:6.2f} s, attacker wins {100 * r.attacker_wins:6.2f}% "
              f"+- {100 * r.stderr['attacker_wins']:.2f}%")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "starlanes.cli", "odds", "--help"], check=True,
                   capture_output=True)
    print(f"starlanes odds --help: {time.perf_counter() - t:6.2f} s")
    for name, (a, d) in FLEETS.items():
        spec = RiftBattleSpec(parse_fleet(a), parse_fleet(d))
        t = time.perf_counter()
        rift_odds(spec, method="monte-carlo", trials=args.mc_trials)
        dt = time.perf_counter() - t
        print(f"engine Monte Carlo {name:>6}: {args.mc_trials / dt:9.0f} battles/s "
              f"({args.mc_trials} battles)")
    defender = FLEETS["20v20"][1]
    for name, (a, _d, ca, cd) in SKILLS_20V20.items():
        spec = RiftBattleSpec(parse_fleet(a), parse_fleet(defender), cards=(ca, cd))
        times = []
        for _ in range(3):
            t = time.perf_counter()
            r = rift_odds(spec)
            times.append(time.perf_counter() - t)
        se = f" +- {100 * r.stderr['attacker_wins']:.2f}% ({r.trials} battles)" \
            if r.method != "exact" else f" ({r.states} states)"
        print(f"20v20 {name:>26}: {r.method:11} {statistics.median(times):6.2f} s (median "
              f"of 3)  attacker wins {100 * r.attacker_wins:6.2f}%{se}")
    for label, (a, d) in (("8v8", IA_8V8), ("8v7 + emergency draw", (IA_8V8[0], "2 cruiser, "
                                                                   "battleship, 2 destroyer, "
                                                                   "2 corvette"))):
        times = []
        for _ in range(3):
            t = time.perf_counter()
            r = ia_odds(IACombatSpec(parse_ships(a), parse_ships(d), kind="invade", level=2,
                                     orders=("strongest", "strongest")))
            times.append(time.perf_counter() - t)
        print(f"exact IA {label} invade: {1000 * statistics.median(times):9.1f} ms (median of "
              f"3)  attacker wins {100 * r.attacker_wins:6.2f}%")
    for orders in (("strongest", "strongest"), ("best", "strongest")):
        spec = IACombatSpec(parse_ships(IA_6V6[0]), parse_ships(IA_6V6[1]), kind="invade",
                            level=2, orders=orders)
        t = time.perf_counter()
        r = ia_odds(spec)
        dt = time.perf_counter() - t
        print(f"exact IA 6v6 invade, orders {orders[0]}/{orders[1]}: {1000 * dt:9.1f} ms  "
              f"attacker wins {100 * r.attacker_wins:6.2f}%")


if __name__ == "__main__":
    main()
