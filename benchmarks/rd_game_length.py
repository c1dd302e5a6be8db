"""Rift Domination game length: rounds per game and where the VP come from.

Run: ``python benchmarks/rd_game_length.py --players 4 --games 100 [--option board=classic]``.
Plays heuristic self-play games and prints the distribution of rounds (min, quartiles,
median, max, histogram), how games ended and the share of VP by source (systems, huge
planets, anomaly tiles, battles, OCC-cards, faction abilities), read from each game's log.

It also asks whether a centre rush dominates: the first seat to take one of the huge central
planets (RD-SPC-*: the centre, worth its VP each scoring) is "the first to the centre"; the
report gives in how many games someone took the centre, the share of those games that
seat won (ties shared) with its Wilson 95% interval against the fair share 1/players, and
in how many games one seat held both huge planets at some point. Nothing here asserts; it
only reports.
"""

from __future__ import annotations

import argparse
import collections
import re
import statistics

import starlanes
from starlanes.analysis.stats import wilson_interval
from starlanes.games.rift_domination.heuristic import HeuristicAgent
from starlanes.games.rift_domination.heuristic_plans import huge_planets

_VP = re.compile(r" ([+-]\d+) VP \(([^)]*)\)")


def source_of(reason: str) -> str:
    """The VP source named by a log reason such as 'controls system C2'."""
    for key, name in (("controls system", "system"), ("huge planet", "huge planet"),
                      ("anomaly", "anomaly"), ("battle", "battle"), ("OCC", "OCC-card")):
        if reason.startswith(key):
            return name
    return "faction"


def play(players: int, seed: int, options: dict[str, str]
         ) -> tuple[int, str, collections.Counter, int, float, bool]:
    """One heuristic game: (rounds, end reason, VP gained by source, the first seat to take
    a huge central planet or -1, that seat's share of the win (ties shared; 0 if none),
    whether one seat held every huge planet at once)."""
    game = starlanes.load("rift-domination", players=players, seed=seed, **options)
    state = game.new_initial_state()
    bots = [HeuristicAgent(seed * 10 + i) for i in range(players)]
    first, both = -1, False
    huge = huge_planets(state)
    while not state.is_terminal():
        state.apply(bots[state.current_player()].act(state))
        owners = [state.planet_owner[p] for p in huge]
        if first < 0:
            first = next((o for o in owners if o >= 0), -1)
        both = both or (len(set(owners)) == 1 and owners[0] >= 0)
    sources: collections.Counter = collections.Counter()
    for line in state.action_log():
        m = _VP.search(line)
        if m and int(m.group(1)) > 0:
            sources[source_of(m.group(2))] += int(m.group(1))
    returns = state.returns()
    best = max(returns)
    winners = [s for s, r in enumerate(returns) if r == best]
    share = 1 / len(winners) if first in winners else 0.0  # first is -1 if none
    return state.round, state.end_reason, sources, first, share, both


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--option", action="append", default=[], help="key=value game option")
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    rounds: list[int] = []
    ends: collections.Counter = collections.Counter()
    vp: collections.Counter = collections.Counter()
    reached, won_by_first, both = 0, 0.0, 0
    for g in range(args.games):
        r, end, src, first, share, held_both = play(args.players, args.seed + g, options)
        rounds.append(r)
        ends[end] += 1
        vp.update(src)
        reached += first >= 0
        won_by_first += share
        both += held_both
    q = statistics.quantiles(rounds, n=4) if len(rounds) > 1 else [rounds[0]] * 3
    print(f"players={args.players} games={args.games} options={options or 'default'}")
    print(f"rounds: min {min(rounds)} q1 {q[0]:g} median {statistics.median(rounds):g} "
          f"q3 {q[2]:g} max {max(rounds)} mean {statistics.mean(rounds):.1f}")
    hist = collections.Counter(rounds)
    print("histogram: " + " ".join(f"{k}:{hist[k]}" for k in sorted(hist)))
    print("end: " + ", ".join(f"{k} {v}" for k, v in ends.most_common()))
    total = sum(vp.values()) or 1
    print("VP by source: " + ", ".join(
        f"{k} {100 * v / total:.0f}%" for k, v in vp.most_common()))
    if reached:
        low, high = wilson_interval(won_by_first, reached)
        print(f"centre: taken in {reached} of {args.games} games; the first seat to take it "
              f"won {won_by_first:g} of them, {100 * won_by_first / reached:.0f}% "
              f"({100 * low:.0f}-{100 * high:.0f}%) against a fair share of "
              f"{100 / args.players:.0f}%; one seat held both huge planets in {both}")
    else:
        print(f"centre: no seat took a huge planet in {args.games} games")


if __name__ == "__main__":
    main()
