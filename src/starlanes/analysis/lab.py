"""The designer's lab: many seeded games with what set-up gave each seat, and the reports
of ``starlanes balance`` (one variant) and ``starlanes compare`` (two variants, same games).

A game is played by :func:`starlanes.analysis.tournament.play_game`; its row gains
``facts`` (``{fact: [value per seat]}`` such as faction or empire), ``openings`` (a label
per seat or None) and ``entries`` (per seat, how often each content entry was used). These
come from the game's own ``facts`` module (``starlanes.games.<game>.facts`` with
``setup_facts(state)``, ``entry_used(state, seat, action)`` and
``opening_move(state, seat, action)``); this module knows no game.

Game ``g`` uses seed ``derive_seed(seed, g)`` and the seat agents of the tournament's
seat-balanced schedule, so the games are the same for every variant and backend.
"""

from __future__ import annotations

import hashlib
import importlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import starlanes
from starlanes.engine import GameState, derive_seed, game_class

from .backends import run_jobs
from .stats import MIN_COUNT, distribution, rate_family, win_shares
from .tournament import DEFAULT_ACTION_CAP, play_game, seat_schedule


def facts_module(game_id: str) -> ModuleType | None:
    """The game's ``facts`` companion module, or None when it has none."""
    package = game_class(game_id).__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.facts")
    except ModuleNotFoundError:
        return None


def lab_game(job: tuple[Any, ...], also: Callable[[GameState, int, Any], None] | None = None,
             keep_state: bool = False) -> Any:
    """Worker entry: ``(index, game_id, players, seed, options, specs, agent_seeds, cap)``
    -> ``(index, row)`` with ``facts``, ``openings``, ``entries`` and ``margin`` added.
    ``also(state, seat, action)`` sees every action too (the usage tally); with
    ``keep_state`` the result is ``(index, row, final state)``."""
    index, game_id, players, seed, options, specs, agent_seeds, cap = job
    hooks = facts_module(game_id)
    openings: list[str | None] = [None] * players
    entries: list[Counter[str]] = [Counter() for _ in range(players)]

    def observe(state: GameState, seat: int, action: object) -> None:
        if also is not None:
            also(state, seat, action)
        if hooks is None or seat < 0:
            return
        entry = hooks.entry_used(state, seat, action)
        if entry is not None:
            entries[seat][entry] += 1
        if openings[seat] is None:
            openings[seat] = hooks.opening_move(state, seat, action)

    state, row = play_game(game_id, players, seed, options, specs, agent_seeds, cap, observe)
    row["facts"] = hooks.setup_facts(state) if hooks is not None else {}
    row["openings"] = openings
    row["entries"] = [dict(sorted(c.items())) for c in entries]
    row["margin"] = _margin(row)
    return (index, row, state) if keep_state else (index, row)


def _margin(row: Mapping[str, Any]) -> float | None:
    """A sole winner's score minus the best other score; None for shared or no wins."""
    winners = row["winners"]
    if len(winners) != 1 or len(row["scores"]) < 2:
        return None
    w = winners[0]
    return row["scores"][w] - max(s for i, s in enumerate(row["scores"]) if i != w)


def lab_jobs(game_id: str, agents: Sequence[str], players: int, games: int, seed: int,
             options: Mapping[str, str], action_cap: int = DEFAULT_ACTION_CAP,
             first: int = 0) -> list[tuple[Any, ...]]:
    """Jobs for games ``first .. first + games - 1`` of the seat-balanced schedule."""
    schedule = seat_schedule(agents, players, first + games)
    return [
        (g, game_id, players, derive_seed(seed, g), dict(options), schedule[g],
         [derive_seed(seed, g, "agent", s) for s in range(players)], action_cap)
        for g in range(first, first + games)
    ]


def run_lab(game_id: str, agents: Sequence[str], players: int, games: int, seed: int = 0,
            options: Mapping[str, str] | None = None, backend: str = "local",
            workers: int = 1, address: str | None = None,
            action_cap: int = DEFAULT_ACTION_CAP, progress: bool = True, first: int = 0,
            label: str | None = None, usage: bool = False) -> list[dict[str, Any]]:
    """Play the lab's games and return their rows in game order (see the module doc);
    with ``usage`` each row also counts the mechanisms used
    (:func:`starlanes.analysis.usage.usage_game`)."""
    from .usage import usage_game

    jobs = lab_jobs(game_id, agents, players, games, seed, dict(options or {}), action_cap,
                    first)
    return run_jobs(jobs, usage_game if usage else lab_game, backend, workers, address,
                    progress, label or f"{game_id} x{games}")


def content_fingerprint(game_id: str, content: str | None) -> str:
    """SHA-256 (first 16 hex digits) over the content files a game loads: the packaged
    TOML files, each replaced by the override directory's file of the same name."""
    package = game_class(game_id).__module__.rsplit(".", 1)[0]
    spec = importlib.import_module(package).__file__
    default = Path(str(spec)).parent / "content"
    h = hashlib.sha256()
    for path in sorted(default.glob("*.toml")):
        override = Path(content) / path.name if content else None
        chosen = override if override is not None and override.exists() else path
        h.update(path.name.encode() + b"\0" + chosen.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def run_meta(game_id: str, players: int, agents: Sequence[str], seed: int,
             options: Mapping[str, str]) -> dict[str, Any]:
    """What every lab report carries: game, players, agents, seed, options, content
    fingerprint and starlanes version."""
    return {"game": game_id, "players": players, "agents": list(agents), "seed": seed,
            "options": dict(options),
            "content_fingerprint": content_fingerprint(game_id, options.get("content")),
            "starlanes_version": starlanes.__version__}


# ---------------------------------------------------------------------- tallies
def group_tallies(rows: Sequence[Mapping[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    """Win tallies per seat-group: ``key`` is ``"seat"``, ``"agent"``, ``"opening"`` or
    ``"fact:NAME"``. Returns ``{group value: (wins, seat-games, sole wins, seat-games in a
    shared win)}`` per family name (``wins`` counts a shared win as its share)."""
    families: dict[str, dict[str, list[float]]] = {}
    for row in rows:
        shares = win_shares(row)
        for seat, share in enumerate(shares):
            for family, value in _groups(row, seat, key):
                entry = families.setdefault(family, {}).setdefault(value, [0.0, 0, 0, 0])
                entry[0] += share
                entry[1] += 1
                entry[2] += share == 1.0
                entry[3] += 0.0 < share < 1.0
    return {f: {v: (t[0], int(t[1]), int(t[2]), int(t[3])) for v, t in sorted(vals.items())}
            for f, vals in families.items()}


def _groups(row: Mapping[str, Any], seat: int, key: str) -> list[tuple[str, str]]:
    if key == "seat":
        return [("seat", str(seat))]
    if key == "agent":
        return [("agent", row["agents"][seat])]
    if key == "opening":
        label = row.get("openings", [None] * (seat + 1))[seat]
        return [("opening", label)] if label else []
    return [(name, str(values[seat])) for name, values in row.get("facts", {}).items()
            if values[seat] != ""]


def entry_usage(rows: Sequence[Mapping[str, Any]], top: int = 15) -> list[dict[str, Any]]:
    """Content entries by how much more winners used them than losers: per entry the mean
    uses per winning seat-game and per losing seat-game and their difference, largest
    absolute difference first (``top`` entries). A shared win counts as a win."""
    win_uses: Counter[str] = Counter()
    lose_uses: Counter[str] = Counter()
    n_win = n_lose = 0
    for row in rows:
        for seat, used in enumerate(row.get("entries", [])):
            if seat in row["winners"]:
                n_win += 1
                win_uses.update(used)
            else:
                n_lose += 1
                lose_uses.update(used)
    out = []
    for entry in set(win_uses) | set(lose_uses):
        w = win_uses[entry] / n_win if n_win else 0.0
        lo = lose_uses[entry] / n_lose if n_lose else 0.0
        out.append({"entry": entry, "winners": round(w, 4), "losers": round(lo, 4),
                    "diff": round(w - lo, 4)})
    out.sort(key=lambda e: (-abs(e["diff"]), e["entry"]))
    return out[:top]


def balance_report(meta: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
                   wall_s: float) -> dict[str, Any]:
    """The balance report of one variant's rows: meta (:func:`run_meta`) plus ``seats``,
    ``agents``, ``facts`` (per fact, e.g. faction), ``openings`` - each a
    :func:`starlanes.analysis.stats.rate_family` tested against the fair share 1/players
    with Holm correction inside each family - ``rounds``/``actions``/``margin``
    distributions, ``end_reasons`` counts, ``entries`` (winners against losers),
    ``warnings`` (figures on too few games; nothing under
    :data:`starlanes.analysis.stats.MIN_COUNT` seat-games is marked significant) and
    ``results`` (every row)."""
    players = meta["players"]
    fair = 1 / players
    facts = group_tallies(rows, "fact")
    agents = group_tallies(rows, "agent").get("agent", {})
    warnings = list(meta.get("warnings", []))
    if len(rows) < MIN_COUNT:
        warnings.append(f"only {len(rows)} games: nothing is marked significant below "
                        f"{MIN_COUNT} seat-games")
    for name, tally in facts.items():
        few = sorted(v for v, t in tally.items() if t[1] < MIN_COUNT)
        if few and len(rows) >= MIN_COUNT:
            warnings.append(f"{len(few)} of {len(tally)} {name} values sat in fewer than "
                            f"{MIN_COUNT} seat-games (never marked significant)")
    return {
        **meta,
        "games": len(rows),
        "fair": round(fair, 6),
        "seats": rate_family(group_tallies(rows, "seat").get("seat", {}), fair),
        "agent_rates": rate_family(agents, fair) if len(agents) > 1 else {},
        "facts": {name: rate_family(t, fair) for name, t in facts.items()},
        "openings": rate_family(group_tallies(rows, "opening").get("opening", {}), fair),
        "rounds": distribution([r["rounds"] for r in rows]),
        "actions": distribution([r["actions"] for r in rows]),
        "margin": distribution([r["margin"] for r in rows]),
        "end_reasons": dict(Counter(r["end_reason"] for r in rows).most_common()),
        "entries": entry_usage(rows),
        "warnings": warnings,
        "wall_s": round(wall_s, 4),
        "results": list(rows),
    }


def widest_interval(report: Mapping[str, Any]) -> float:
    """The widest plain 95% interval among the report's seat, fact and opening win rates
    (what ``--until-ci`` compares against)."""
    families = [report["seats"], *report["facts"].values(), report["openings"]]
    widths = [e["ci95"][1] - e["ci95"][0] for fam in families for e in fam.values()]
    return max(widths, default=1.0)
