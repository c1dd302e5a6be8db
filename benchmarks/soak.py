"""Soak test: many random-agent and heuristic games with the engine's invariants checked
after every action.

Run: ``python benchmarks/soak.py --games 100 [--game GAME] [--agents random,heuristic]
[--deep-every 1] [--seed 0]``. For each game, player count and agent kind it plays
``--games`` games and checks, after every action:

- legal actions are non-empty until the game is terminal (and empty after);
- clone independence: a legal action applied to a clone leaves the original's digest as it
  was;
- every seat's observation and the spectator's are JSON-serialisable;
- no hidden information across seats: a determinisation for a seat (everything it cannot
  see resampled) gives that seat exactly the same observation, and its history shows no
  other seat's secret action in full;

and, at the end of each game, the record round trip: the record written as JSON, read
back and replayed with verification gives the same digest, scores and end, and a
determinisation for every seat compared entry by entry with the whole history. The clone and
determinisation checks run every ``--deep-every`` actions (1, the default: every action; 0:
never, leaving the light checks above and the end-of-game ones). History is append-only, so
each per-action check compares the entries added since the previous one and the entries
still secret; the end-of-game check compares them all.

It prints, per game, player count and agent kind: games played, invariant issues, and how
the games ended (end reasons, including the safety caps), with a progress bar on a terminal
while it plays. ``--workers N`` plays the games on N processes (each game is seeded on its
own, so the results are the same for any N). Exit status 1 if any issue was found. Nothing is
written to disk.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import starlanes
from starlanes.agents import make_agent
from starlanes.analysis.tournament import play_in_pool
from starlanes.engine import SPECTATOR, GameRecord, HiddenAction, game_class, game_ids, replay


def _check_step(state, rng: random.Random, deep: bool, checked: int = 0) -> list[str]:
    """The invariants after one action; a list of readable issues (empty when all hold).

    ``checked``: the history entries before this index were compared with the
    determinisations' already (history is append-only), so only the newer entries and the
    still-secret ones are compared again; :func:`_check_history` compares all of them."""
    issues: list[str] = []
    legal = state.legal_actions()
    if state.is_terminal():
        if legal:
            issues.append("terminal state has legal actions")
        return issues
    if not legal:
        issues.append("no legal action before the end")
        return issues
    n = state.game.players
    for seat in [*range(n), SPECTATOR]:
        try:
            json.dumps(state.observation(seat))
        except (TypeError, ValueError) as e:
            issues.append(f"observation({seat}) is not JSON: {e}")
    if not deep:
        return issues
    before = state.digest()
    c = state.clone()
    c.apply(rng.choice(legal))
    if state.digest() != before:
        issues.append("applying an action to a clone changed the original")
    for seat in range(n):
        d = state.determinize(seat, random.Random(rng.getrandbits(32)))
        if d.observation(seat) != state.observation(seat):
            issues.append(f"determinisation for seat {seat} changed its observation")
        indices = [*range(checked, len(state.history)),
                   *(e[0] for e in state._secrets if e[0] < checked)]
        issues.extend(_compare_history(state, d, seat, indices))
    return issues


def _compare_history(state, d, seat: int, indices) -> list[str]:
    """Issues in the history entries ``indices`` of determinisation ``d`` for ``seat``:
    every entry the same as the state's except secrets ``seat`` did not see, which must
    be hidden, and the same as :meth:`history_seen_by`."""
    seen = d.history
    full = state.history
    by_seat = state.history_seen_by(seat)
    if len(seen) != len(full):
        return [f"determinisation for seat {seat} has a history of another length"]
    hidden = {index for index, seen_by, _shown, _topic in state._secrets
              if seat not in seen_by}
    for index in indices:
        if index in hidden:
            if not isinstance(seen[index], HiddenAction):
                return [f"seat {seat} sees another seat's secret action {index}"]
        elif isinstance(seen[index], HiddenAction) or str(seen[index]) != str(full[index]):
            return [f"determinisation for seat {seat} rewrote history entry {index}"]
        if str(by_seat[index]) != str(seen[index]):
            return [f"history_seen_by({seat}) differs from the determinisation's at {index}"]
    return []


def _check_history(state, rng: random.Random) -> list[str]:
    """At the end of a game: every history entry of a determinisation for every seat
    compared with the state's (the per-action checks compare only the newer entries)."""
    issues: list[str] = []
    for seat in range(state.game.players):
        d = state.determinize(seat, random.Random(rng.getrandbits(32)))
        issues.extend(_compare_history(state, d, seat, range(len(state.history))))
    return issues


def _check_record(state) -> list[str]:
    text = state.record([f"soak{i}" for i in range(state.game.players)]).to_json()
    again = replay(GameRecord.from_json(text), verify=True)
    if again.digest() != state.digest() or list(again.scores()) != list(state.scores()):
        return ["record round trip gives another state"]
    return []


def soak(game_id: str, players: int, kind: str, games: int, seed: int, deep_every: int
         ) -> tuple[collections.Counter, list[str], int]:
    """Play ``games`` games; (end reasons, issues, actions applied)."""
    ends: collections.Counter = collections.Counter()
    issues: list[str] = []
    actions = 0
    for g in range(games):
        game_seed = seed + g
        state = starlanes.load(game_id, players=players, seed=game_seed).new_initial_state()
        agents = [make_agent(kind, game_id, game_seed * 16 + i) for i in range(players)]
        rng = random.Random(game_seed)
        step = checked = 0
        while not state.is_terminal():
            state.apply(agents[state.current_player()].act(state))
            step += 1
            deep = deep_every > 0 and step % deep_every == 0
            found = _check_step(state, rng, deep, checked)
            if deep:
                checked = len(state.history)
            issues.extend(f"{game_id} p{players} {kind} seed {game_seed} step {step}: {i}"
                          for i in found)
        actions += step
        issues.extend(f"{game_id} p{players} {kind} seed {game_seed}: {i}"
                      for i in [*_check_history(state, rng), *_check_record(state)])
        ends[getattr(state, "end_reason", "") or "ended"] += 1
    return ends, issues, actions


CHUNK = 10
"""Games handed to a worker at a time."""


def _soak_job(job: tuple[int, str, int, str, int, int, int]
              ) -> tuple[int, tuple[collections.Counter, list[str], int, int]]:
    index, game_id, players, kind, games, seed, deep_every = job
    return index, (*soak(game_id, players, kind, games, seed, deep_every), games)


def soak_many(game_id: str, players: int, kind: str, games: int, seed: int, deep_every: int,
              workers: int, progress: Progress) -> tuple[collections.Counter, list[str], int]:
    """:func:`soak` split into chunks of :data:`CHUNK` seeds, on ``workers`` processes
    through the tournament's pool (a dead worker's chunks are played again); the same end
    reasons, issues (in seed order) and action count as one :func:`soak` call."""
    jobs = [(i, game_id, players, kind, min(CHUNK, games - i * CHUNK), seed + i * CHUNK,
             deep_every) for i in range(-(-games // CHUNK))]
    task = progress.add_task(f"{game_id} players={players} {kind}", total=games)
    results: dict[int, tuple[collections.Counter, list[str], int, int]] = {}

    def done(index: int, result: tuple[collections.Counter, list[str], int, int]) -> None:
        results[index] = result
        progress.advance(task, result[3])

    if workers > 1:
        play_in_pool(jobs, workers, done, _soak_job)
    else:
        for job in jobs:
            done(*_soak_job(job))
    progress.remove_task(task)
    ends: collections.Counter = collections.Counter()
    issues: list[str] = []
    actions = 0
    for index in sorted(results):
        e, found, n, _played = results[index]
        ends.update(e)
        issues.extend(found)
        actions += n
    return ends, issues, actions


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20, help="games per game, count and agent")
    p.add_argument("--game", action="append", help="game id (repeatable; default all)")
    p.add_argument("--players", type=int, action="append", help="player counts (default all)")
    p.add_argument("--agents", default="random,heuristic")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--deep-every", type=int, default=1,
                   help="clone and determinisation checks every K actions (default 1: "
                        "every action; 0: never, light checks only)")
    p.add_argument("--workers", type=int, default=1, help="processes playing games (default 1)")
    a = p.parse_args(argv)
    if a.games < 1 or a.workers < 1:
        p.error("--games and --workers must be at least 1")
    total_issues = 0
    start = time.perf_counter()
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=Console(stderr=True), transient=True,
                        disable=not sys.stderr.isatty())
    try:
        with progress:
            for game_id in a.game or game_ids():
                cls = game_class(game_id)
                counts = a.players or range(cls.min_players, cls.max_players + 1)
                for players in counts:
                    for kind in a.agents.split(","):
                        t = time.perf_counter()
                        ends, issues, actions = soak_many(
                            game_id, players, kind, a.games, a.seed, max(0, a.deep_every),
                            a.workers, progress)
                        total_issues += len(issues)
                        endings = ", ".join(f"{k} {v}" for k, v in ends.most_common())
                        print(f"{game_id} players={players} agents={kind}: games {a.games}, "
                              f"actions {actions}, issues {len(issues)}, ends: {endings} "
                              f"({time.perf_counter() - t:.1f}s)", flush=True)
                        for line in issues[:5]:
                            print("  " + line, flush=True)
    except KeyboardInterrupt:
        print(f"interrupted: total issues so far {total_issues}", file=sys.stderr)
        return 130
    print(f"total issues: {total_issues} ({time.perf_counter() - start:.0f}s)")
    return 1 if total_issues else 0


if __name__ == "__main__":
    sys.exit(main())
