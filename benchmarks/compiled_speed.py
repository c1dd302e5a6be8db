"""Random-playout speed of each game, pure Python against the compiled build, beside
OpenSpiel's C++ backgammon driven by the same loop.

Run: ``python benchmarks/compiled_speed.py [--seconds 2] [--repeat 3] [--clock cpu|wall]
[--games rift-domination,...] [--builds pure,installed]``. Needs ``open_spiel`` for the
backgammon row (``-`` without it).

One single-threaded loop for everything (so each figure is per core): a random legal
action (``random.Random`` indexing) applied until the game ends, then a new game with the
next seed; backgammon's chance nodes take a random outcome the same way and count as
steps. Each build runs in its own child process, the builds interleaved ``--repeat``
times, each figure the best of its repeats:

- ``installed``: starlanes as this interpreter imports it (a compiled install, or a
  source tree with extensions built in place);
- ``pure``: the same package with every module in ``starlanes.build_kind.COMPILED_MODULES``
  loaded from its ``.py`` file (a finder put before the standard ones), so the two builds
  differ only in being compiled.

Columns: actions/s and playouts/s per build, the compiled/pure speed-up, and each build's
actions/s over backgammon's (the "per core" ratio of ``docs/engine.md``'s Compiled build
section). ``--clock cpu`` (the default) times the child's CPU time, steadier on a shared
machine.

Two more modes, for a machine whose speed drifts between processes:

- ``--paired N``: in this process alone (the build it imports, or ``--builds pure``), N
  pairs of a quarter second of backgammon then a quarter second of each game, and per game
  the median of the N ratios with their quartiles: the two measures of a pair run moments
  apart, so a drift of the machine's speed cancels out;
- ``--steps N --games G``: exactly N random steps of G (or ``backgammon``) from seed 0,
  and nothing printed, to run under an instruction counter: ``valgrind --tool=callgrind``
  of ``--steps 2N`` less that of ``--steps N`` is the instructions of steps N..2N, a
  deterministic figure that compares two versions of the same code.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

GAMES = {"galactic-domination": 2, "galactic-empires": 4,
         "interstellar-ambitions": 4, "rift-domination": 4}
"""The games measured and their player count (each game's usual table)."""


def _force_pure() -> None:
    """Loads the listed modules from their ``.py`` files even where an extension sits
    beside them: a meta-path finder ahead of the standard ones."""
    import importlib.abc
    import importlib.machinery
    import importlib.util
    import runpy

    # The list is read by running build_kind.py on its own, as setup.py does: importing
    # starlanes would import the engine before the finder is in place.
    package = importlib.util.find_spec("starlanes").submodule_search_locations[0]
    listed = set(runpy.run_path(os.path.join(package, "build_kind.py"))["COMPILED_MODULES"])

    class PureFinder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):  # noqa: ANN001
            if name not in listed or not path:
                return None
            leaf = name.rpartition(".")[2]
            for folder in path:
                source = os.path.join(folder, leaf + ".py")
                if os.path.isfile(source):
                    loader = importlib.machinery.SourceFileLoader(name, source)
                    return importlib.util.spec_from_file_location(name, source, loader=loader)
            return None

    sys.meta_path.insert(0, PureFinder())


def _loaded_build() -> str:
    """What this process ran: the listed modules it imported from an extension."""
    from starlanes.build_kind import imported

    compiled, loaded = imported()
    return f"compiled ({compiled} of {loaded} imported modules)" if compiled else "pure Python"


def _game_stepper(game_id: str, players: int):
    from starlanes.engine import load

    rng = random.Random(0)
    box = {"seed": 0, "state": load(game_id, players=players, seed=0).new_initial_state()}

    def run(steps: int) -> tuple[int, int]:
        state, ended = box["state"], 0
        for _ in range(steps):
            if state.is_terminal():
                ended += 1
                box["seed"] += 1
                state = load(game_id, players=players, seed=box["seed"]).new_initial_state()
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        box["state"] = state
        return steps, ended

    return run


def _backgammon_stepper():
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(0)
    box = {"state": game.new_initial_state()}

    def run(steps: int) -> tuple[int, int]:
        state, ended = box["state"], 0
        for _ in range(steps):
            if state.is_terminal():
                ended += 1
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        box["state"] = state
        return steps, ended

    return run


def _measure(run, seconds: float, clock) -> tuple[float, float]:
    """(actions/s, playouts/s) of ``run`` for ``seconds`` of ``clock``."""
    run(50)  # warm: first game's tables
    steps = ended = 0
    start = clock()
    while clock() - start < seconds:
        s, e = run(200)
        steps, ended = steps + s, ended + e
    took = clock() - start
    return steps / took, ended / took


def paired(args: argparse.Namespace) -> None:
    """The ``--paired`` mode: median game/backgammon ratios of adjacent quarter seconds."""
    import statistics

    if args.builds == "pure":
        _force_pure()
    clock = time.process_time

    def rate(run) -> float:
        steps, start = 0, clock()
        while clock() - start < 0.25:
            run(200)
            steps += 200
        return steps / (clock() - start)

    bg = _backgammon_stepper()
    if bg is None:
        raise SystemExit("--paired needs open_spiel (pyspiel) for backgammon")
    games = args.games.split(",")
    steppers = {g: _game_stepper(g, GAMES[g]) for g in games}
    ratios: dict[str, list[float]] = {g: [] for g in games}
    for _ in range(args.paired):
        for g in games:
            reference = rate(bg)
            ratios[g].append(rate(steppers[g]) / reference)
    print(f"{_loaded_build()}: {args.paired} pairs of 0.25 s (CPU time)")
    print("| game | median / backgammon | quartiles |")
    print("|---|---|---|")
    for g in games:
        spread = "-"
        if len(ratios[g]) > 1:
            q1, _, q3 = statistics.quantiles(ratios[g], n=4)
            spread = f"{q1:.2f}-{q3:.2f}"
        print(f"| {g} | {statistics.median(ratios[g]):.2f}x | {spread} |")


def fixed_steps(args: argparse.Namespace) -> None:
    """The ``--steps`` mode: exactly ``--steps`` random steps of one game, for a counter."""
    if args.builds == "pure":
        _force_pure()
    name = args.games
    run = _backgammon_stepper() if name == "backgammon" else _game_stepper(name, GAMES[name])
    if run is None:
        raise SystemExit("backgammon needs open_spiel (pyspiel)")
    run(args.steps)


def child(args: argparse.Namespace) -> None:
    """One build's figures, as a JSON line on stdout."""
    if args.child == "pure":
        _force_pure()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    out: dict = {"rates": {}}
    for game_id in args.games.split(","):
        out["rates"][game_id] = _measure(_game_stepper(game_id, GAMES[game_id]),
                                         args.seconds, clock)
    bg = _backgammon_stepper()
    if bg is not None:
        out["rates"]["backgammon"] = _measure(bg, args.seconds, clock)
    out["build"] = _loaded_build()
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--builds", default="pure,installed")
    parser.add_argument("--paired", type=int, default=0, metavar="N",
                        help="N paired quarter-second measures in this process (see above)")
    parser.add_argument("--steps", type=int, default=0, metavar="N",
                        help="run exactly N steps of one game and print nothing")
    parser.add_argument("--child", choices=("pure", "installed"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if args.paired:
        paired(args)
        return
    if args.steps:
        fixed_steps(args)
        return
    builds = args.builds.split(",")
    best: dict[str, dict] = {b: {} for b in builds}
    kinds: dict[str, str] = {}
    for _ in range(args.repeat):
        for build in builds:
            line = subprocess.run(
                [sys.executable, __file__, "--child", build, "--seconds", str(args.seconds),
                 "--clock", args.clock, "--games", args.games],
                check=True, capture_output=True, text=True, env=os.environ).stdout
            result = json.loads(line.strip().splitlines()[-1])
            kinds[build] = result["build"]
            for name, rate in result["rates"].items():
                if rate[0] > best[build].get(name, (0.0, 0.0))[0]:
                    best[build][name] = tuple(rate)
    print(" | ".join(f"{b}: {kinds[b]}" for b in builds))
    head = ["game"] + [f"{b} actions/s" for b in builds] + [f"{b} playouts/s" for b in builds]
    if len(builds) == 2:
        head.append("speed-up")
    head += [f"{b} / backgammon" for b in builds]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name in [g for g in args.games.split(",")] + ["backgammon"]:
        if name not in best[builds[0]]:
            continue
        rates = [best[b][name] for b in builds]
        row = [name] + [f"{r[0] / 1000:.1f}k" for r in rates] + [f"{r[1]:.1f}" for r in rates]
        if len(builds) == 2:
            row.append(f"{rates[1][0] / rates[0][0]:.2f}x")
        for b in builds:
            bg = best[b].get("backgammon")
            row.append(f"{best[b][name][0] / bg[0]:.2f}x" if bg else "-")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
