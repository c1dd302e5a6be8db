"""Galactic Empires speed figures: random-playout actions/s and games/s, clones/s and
determinisations/s of a 2-player mid-game state, seconds per heuristic game.

Run: ``python benchmarks/galactic_empires.py [--games N]``. Prints one line per figure.
Measured on one core; nothing here asserts, it only reports.

``python benchmarks/galactic_empires.py --endings N --players P [--seed S] [--content DIR]``
instead plays N heuristic Standard Games (with the content of DIR merged over the packaged
one, if given) and reports how they end: the share that ends by conquest
before any deck runs out, eliminations by deck attrition (ruling GE-OPEN-01) against
eliminations by fire and cards, and the rounds (docs/balance/galactic-empires-standard-
endings.md).
"""

from __future__ import annotations

import argparse
import random
import time

import starlanes
from starlanes.analysis.stats import wilson_interval
from starlanes.games.galactic_empires.heuristic import HeuristicAgent

GAME = "galactic-empires"


def random_playout(players: int, games: int, seed: int = 0) -> tuple[float, float]:
    """(actions/s, games/s) of uniformly random legal play to the end of the game."""
    actions = 0
    start = time.perf_counter()
    for g in range(games):
        state = starlanes.load(GAME, players=players, seed=seed + g).new_initial_state()
        rng = random.Random(g)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
    wall = time.perf_counter() - start
    return actions / wall, games / wall


def heuristic_game(players: int, games: int, seed: int = 0) -> float:
    """Seconds per full game with heuristic bots in every seat."""
    start = time.perf_counter()
    for g in range(games):
        state = starlanes.load(GAME, players=players, seed=seed + g).new_initial_state()
        bots = [HeuristicAgent(g * 10 + i) for i in range(players)]
        while not state.is_terminal():
            state.apply(bots[state.current_player()].act(state))
    return (time.perf_counter() - start) / games


def mid_game_state(players: int = 2, seed: int = 0):
    """A state some complete turns into a heuristic game, fleets in play."""
    state = starlanes.load(GAME, players=players, seed=seed).new_initial_state()
    bots = [HeuristicAgent(i) for i in range(players)]
    while not state.is_terminal() and state.round < 6:
        state.apply(bots[state.current_player()].act(state))
    return state


def clones_per_s(n: int = 20000) -> float:
    state = mid_game_state()
    start = time.perf_counter()
    for _ in range(n):
        state.clone()
    return n / (time.perf_counter() - start)


def determinizations_per_s(n: int = 20000) -> float:
    state = mid_game_state()
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(n):
        state.determinize(0, rng)
    return n / (time.perf_counter() - start)


def standard_endings(players: int, games: int, seed: int = 1000,
                     content: str = "") -> dict[str, float]:
    """Heuristic Standard Games ``seed .. seed+games-1`` (``content``: a content directory
    merged over the packaged one, "" for none): ``over_before_empty`` and
    ``before_empty`` (the games over before any deck is empty, and their share),
    ``elim_attrition`` and ``elim_fire`` (eliminations whose last point was a spent deck's,
    or fire and cards), ``median_round``, ``max_round``."""
    before = attr = fire = 0
    rounds: list[int] = []
    for g in range(seed, seed + games):
        opts = {"structure": "standard"} | ({"content": content} if content else {})
        s = starlanes.load(GAME, players=players, seed=g, **opts).new_initial_state()
        bots = [HeuristicAgent(g * 10 + i) for i in range(players)]
        emptied = False
        while not s.is_terminal():
            alive, mark = list(s.alive), len(s.log_lines)
            s.apply(bots[s.current_player()].act(s))
            emptied = emptied or any(not d for d in s.decks)
            for p in range(players):
                if alive[p] and not s.alive[p]:
                    spent = any(line.startswith(f"P{p}'s deck is exhausted")
                                for line in s.log_lines[mark:])
                    attr += spent
                    fire += not spent
        before += not emptied
        rounds.append(s.round)
    rounds.sort()
    return {"before_empty": before / games, "over_before_empty": before,
            "elim_attrition": attr, "elim_fire": fire,
            "median_round": rounds[len(rounds) // 2], "max_round": rounds[-1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20, help="games per figure")
    ap.add_argument("--endings", type=int, default=0, help="Standard games for the endings")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--content", default="", help="content directory for the endings")
    args = ap.parse_args()
    if args.endings:
        r = standard_endings(args.players, args.endings, args.seed, args.content)
        over = r["over_before_empty"]
        lo, hi = wilson_interval(over, args.endings)
        print(f"{GAME} {args.players}p standard, {args.endings} heuristic games from seed "
              f"{args.seed}: {over}/{args.endings} = {r['before_empty']:.0%} (95% CI "
              f"{lo:.0%}-{hi:.0%}) over before any deck is empty; "
              f"eliminations {r['elim_fire']} by fire and cards, {r['elim_attrition']} by "
              f"attrition; rounds median {r['median_round']}, max {r['max_round']}")
        return
    for players in (2, 3, 4):
        aps, gps = random_playout(players, args.games)
        print(f"{GAME} {players}p random playout: {aps:,.0f} actions/s, {gps:.1f} games/s")
        hg = heuristic_game(players, max(1, args.games // 4))
        print(f"{GAME} {players}p heuristic game: {hg:.3f} s/game")
    print(f"{GAME} 2p mid-game clones: {clones_per_s():,.0f} clones/s")
    print(f"{GAME} 2p mid-game determinisations: {determinizations_per_s():,.0f} /s")


if __name__ == "__main__":
    main()
