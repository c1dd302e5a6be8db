"""The play-now queue under load: --players simulated players (ratings drawn from a normal
distribution, mean 1500, deviation --sd) queue across the four games, their player counts
and both clock modes, arriving evenly at random over --arrival simulated seconds (0: all at
once). Rounds run once per simulated second through the server's own pairing function
(:func:`starlanes.server.community.matchmaking.plan_tables`, with its rating window and
bot fill after --wait seconds) on an in-memory queue, as the server's tick does.

Prints the time to a table (p50/p90/max, simulated seconds), how many players got a table
of humans only, the share of seats given to bots, the rating spread within the tables
formed (highest minus lowest human rating) and the wall time of a round (mean and max).

Run: python benchmarks/matchmaking.py [--players 1000] [--arrival 600] [--wait 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from starlanes.engine import game_class, game_ids
from starlanes.server.community.matchmaking import MODES, Waiting, plan_tables

COUNT_WEIGHTS = {2: 50, 3: 20, 4: 20, 5: 5, 6: 5}
"""How often players ask for each player count (where the game allows it)."""


def buckets() -> list[tuple[tuple[str, int, str], float]]:
    """Every queue (game, players, mode) with the weight of players choosing it."""
    out = []
    for game in game_ids():
        cls = game_class(game)
        for n in range(cls.min_players, cls.max_players + 1):
            for mode in MODES:
                out.append(((game, n, mode), COUNT_WEIGHTS.get(n, 1) * (3 if mode == "realtime"
                                                                     else 1)))
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def simulate(players: int, arrival: float, wait: float, sd: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    queues = buckets()
    keys = [k for k, _ in queues]
    weights = [w for _, w in queues]
    arrivals = sorted((rng.uniform(0, arrival) if arrival > 0 else 0.0, i)
                      for i in range(players))
    chosen = rng.choices(keys, weights, k=players)
    ratings = [rng.gauss(1500, sd) for _ in range(players)]
    waiting: dict[tuple[str, int, str], dict[int, Waiting]] = defaultdict(dict)
    seated_at: dict[int, float] = {}
    spreads: list[float] = []
    bot_seats = human_seats = humans_only = 0
    round_walls: list[float] = []
    at, nxt = 0.0, 0
    while len(seated_at) < players:
        while nxt < players and arrivals[nxt][0] <= at:
            since, i = arrivals[nxt]
            waiting[chosen[i]][i] = Waiting(i, i, ratings[i], since)
            nxt += 1
        started = time.perf_counter()
        for key, bucket in waiting.items():
            for table in plan_tables(list(bucket.values()), key[1], at, wait):
                for m in table.members:
                    del bucket[m.entry_id]
                    seated_at[m.entry_id] = at
                spreads.append(table.spread())
                bot_seats += table.bots
                human_seats += len(table.members)
                if table.bots == 0:
                    humans_only += len(table.members)
        round_walls.append(time.perf_counter() - started)
        at += 1.0
    waits = [seated_at[i] - since for since, i in arrivals]
    multi = [s for s in spreads if s > 0]
    return {
        "wait_p50": percentile(waits, 0.5), "wait_p90": percentile(waits, 0.9),
        "wait_max": max(waits), "humans_only": humans_only / players,
        "bot_share": bot_seats / (bot_seats + human_seats), "tables": len(spreads),
        "spread_p50": percentile(multi, 0.5), "spread_p90": percentile(multi, 0.9),
        "spread_max": max(multi, default=0.0),
        "round_ms_mean": 1000 * statistics.fmean(round_walls),
        "round_ms_max": 1000 * max(round_walls), "rounds": len(round_walls),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--arrival", type=float, default=600.0,
                        help="simulated seconds over which players arrive (0: all at once)")
    parser.add_argument("--wait", type=float, default=60.0,
                        help="seconds before bots take the empty seats (queue_wait_seconds)")
    parser.add_argument("--sd", type=float, default=300.0, help="rating deviation")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.players} players, {len(buckets())} queues, arriving over {args.arrival:g} s, "
          f"bots after {args.wait:g} s, ratings 1500 +- {args.sd:g}")
    r = simulate(args.players, args.arrival, args.wait, args.sd, args.seed)
    print(f"time to a table (simulated s): p50 {r['wait_p50']:.0f}  p90 {r['wait_p90']:.0f}  "
          f"max {r['wait_max']:.0f}")
    print(f"tables {r['tables']:.0f}; players at all-human tables {100 * r['humans_only']:.1f}%; "
          f"seats given to bots {100 * r['bot_share']:.1f}%")
    print(f"rating spread in tables of 2+ humans: p50 {r['spread_p50']:.0f}  "
          f"p90 {r['spread_p90']:.0f}  max {r['spread_max']:.0f}")
    print(f"wall time per round: mean {r['round_ms_mean']:.3f} ms  max "
          f"{r['round_ms_max']:.3f} ms over {r['rounds']:.0f} rounds")


if __name__ == "__main__":
    main()
