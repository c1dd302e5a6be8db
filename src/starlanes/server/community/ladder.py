"""The bot ladder: ratings of the catalogue bots, measured offline in seat-balanced
tournaments (:mod:`starlanes.analysis.tournament`) and shipped in ``ladder.json`` beside the
server package, so that bots and players share one rating scale from the first game.

``ladder.json`` holds, per game::

    {"games": {GAME: {"players": 2, "games": 20, "seed": 0, "command": "starlanes ladder ...",
                      "date": "2026-11-26T06:10:00+00:00", "machine": "...", "wall_s": 812.3,
                      "bots": {NAME: {"spec": "...", "resolved": "...", "mu": 27.1,
                                      "sigma": 2.9, "games": 8}}}}}

``mu`` and ``sigma`` are openskill Plackett-Luce values (the model of
:mod:`starlanes.analysis.ratings`); ``games`` counts the seats the bot played;
``resolved`` is the agent the spec built in that game
(:func:`starlanes.agents.registry.resolved_spec`: an ``mcts`` spec with the game's search
defaults and ``scale`` filled in). The server copies them into the ``ratings`` table as
``bot:<name>`` at start (:meth:`.ratings.Ratings.load_ladder`), for the bots whose spec
still resolves to the agent measured.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlanes.agents.registry import resolved_spec
from starlanes.engine import AgentSpecError, game_class

from ..config import BotEntry

LADDER_FILE = Path(__file__).resolve().parent.parent / "ladder.json"
"""The measured bot ratings the server ships with."""


def machine_note() -> str:
    """One line about the machine a ladder ran on: platform, Python, cores, load."""
    try:
        load = f"load {os.getloadavg()[0]:.1f}"
    except OSError:  # not on every platform
        load = "load unknown"
    return (f"{platform.system()} {platform.machine()}, Python {platform.python_version()}, "
            f"{os.cpu_count()} cores, {load} at start")


def run_ladder(game: str, bots: Sequence[BotEntry], games: int, players: int | None = None,
               seed: int = 0, workers: int = 1, progress: bool = True,
               command: str = "") -> dict[str, Any]:
    """Play a seat-balanced tournament of ``bots`` (catalogue entries, by their specs) in
    ``game`` and return its ladder entry (see the module docstring). ``players`` defaults
    to the game's minimum. Raises AgentSpecError for two bots with one spec (a tournament
    tells agents apart by spec) or fewer than two bots; BadOptionError for an unknown game.
    Ctrl-C stops the run: the entry then rates the games that had finished and says so
    (``interrupted``); with none finished, RunInterrupted propagates."""
    from starlanes.analysis.ratings import rate_games
    from starlanes.analysis.tournament import RunInterrupted, run_tournament

    if len(bots) < 2:
        raise AgentSpecError("a ladder needs at least two bots")
    specs = [b.spec for b in bots]
    if len(set(specs)) != len(specs):
        raise AgentSpecError("two catalogue bots share one agent spec; the ladder tells "
                             "them apart by spec")
    n = players if players is not None else game_class(game).min_players
    note = machine_note()
    start = time.perf_counter()
    interrupted = False
    try:
        rows = run_tournament(game, specs, n, games, seed=seed, workers=workers,
                              progress=progress)
    except RunInterrupted as stop:  # Ctrl-C: rate the games that finished
        rows, interrupted = stop.rows, True
        if not rows:
            raise
    wall = time.perf_counter() - start
    rated = rate_games(rows, specs)
    seats: dict[str, int] = dict.fromkeys(specs, 0)
    for row in rows:
        for spec in row["agents"]:
            seats[spec] += 1
    entry: dict[str, Any] = {
        "players": n,
        "games": len(rows),
        "seed": seed,
        "command": command,
        "date": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat(),
        "machine": note,
        "wall_s": round(wall, 1),
        "bots": {b.name: {"spec": b.spec, "resolved": resolved_spec(b.spec, game),
                          "mu": rated[b.spec]["mu"],
                          "sigma": rated[b.spec]["sigma"], "games": seats[b.spec]}
                 for b in bots},
    }
    if interrupted:
        entry["interrupted"] = f"stopped by Ctrl-C after {len(rows)} of {games} games"
    return entry


def load_ladder(path: Path | None = None) -> dict[str, Any]:
    """The ladder file's content (``{"games": {...}}``); an empty ladder when the file is
    missing. Raises ValueError for a file that is not a ladder."""
    path = path or LADDER_FILE
    if not path.is_file():
        return {"games": {}}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("games"), dict):
        raise ValueError(f"{path} is not a ladder file (no 'games' object)")
    return data


def write_ladder(path: Path, entries: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Write ``entries`` (game -> ladder entry) into the ladder file at ``path``, keeping
    the entries of other games already there; returns the whole ladder written."""
    data = load_ladder(path)
    data["games"].update(entries)
    data["games"] = dict(sorted(data["games"].items()))
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return data
