"""The mechanism report (``starlanes balance GAME --usage``): how often each unit, card,
tech and special is used, each option of each decision kind taken, and where each seat's
score came from, by agent.

What counts as "a unit recruited" or "a card played" is each game's own knowledge: its
companion module ``starlanes.games.<game>.usage`` declares

- ``action_uses(state, seat, action) -> [(category, entry), ...]``, seen before the action
  is applied (``("unit recruited", "flagship")``);
- ``catalogue(state) -> {category: [entry, ...]}``: every entry that exists, so that an
  entry nobody used shows with zero uses;
- ``score_sources(state) -> [{source: points} per seat]`` from the final state (its log),
  with ``SCORE_LABEL`` naming what is counted and ``SOURCES_SUM_TO_SCORE`` saying whether
  the sources add up to ``state.scores()`` (checked: a difference is reported as
  ``unattributed``);
- optionally ``log_uses(state) -> [[(category, entry), ...] per seat]`` from the final
  state (its log): what came into play without being chosen (cards drawn), which no action
  names;
- optionally ``decision_kind(state) -> str``; by default a decision's kind is the game's
  phase and the kind of the pending decision on top of its stack (``"move/counter"``) and
  the option taken is the first word of the action's notation.

Rows are counted either while a lab game is played (:func:`usage_game`, a worker entry like
:func:`starlanes.analysis.lab.lab_game`) or from a saved record replayed through the
registry (:func:`record_usage`); both give the same counts for the same game.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from starlanes.engine import GameRecord, GameState, RecordError, StarlanesError, game_class, replay
from starlanes.engine.record import record_differences

from .stats import wilson_interval

#: Bootstrap resamples for the score-share intervals (seeded: the report is reproducible).
BOOTSTRAP = 1000


def usage_module(game_id: str) -> ModuleType | None:
    """The game's ``usage`` companion module, or None when it declares none."""
    package = game_class(game_id).__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.usage")
    except ModuleNotFoundError:
        return None


def decision_kind(hooks: ModuleType | None, state: GameState) -> str:
    """The kind of decision ``state`` asks for: the game's ``decision_kind`` when declared,
    else ``phase`` and the pending decision's kind (``"move/counter"``), else ``"turn"``."""
    if hooks is not None and hasattr(hooks, "decision_kind"):
        return str(hooks.decision_kind(state))
    phase = getattr(state, "phase", None)
    stack = getattr(state, "stack", None)
    top = getattr(stack[-1], "kind", None) if stack else None
    parts = [str(p) for p in (phase, top) if p not in (None, "")]
    return "/".join(parts) or "turn"


class UsageTally:
    """Counts of one game, per seat: ``uses[seat][category][entry]`` and
    ``decisions[seat][kind][option]``. Call :meth:`observe` with every action before it is
    applied, then :meth:`row` with the final state."""

    def __init__(self, hooks: ModuleType | None, players: int) -> None:
        self.hooks = hooks
        self.uses: list[Counter[tuple[str, str]]] = [Counter() for _ in range(players)]
        self.decisions: list[Counter[tuple[str, str]]] = [Counter() for _ in range(players)]

    def observe(self, state: GameState, seat: int, action: object) -> None:
        """Note what ``seat`` did with ``action`` in ``state`` (before it is applied)."""
        if seat < 0:
            return
        words = str(action).split()
        self.decisions[seat][(decision_kind(self.hooks, state), words[0] if words else "")] += 1
        if self.hooks is not None:
            self.uses[seat].update(self.hooks.action_uses(state, seat, action))

    def row(self, state: GameState) -> dict[str, Any]:
        """The ``usage`` entry of a result row: ``uses`` and ``decisions`` (per seat,
        nested ``{category: {entry: count}}``), ``sources`` (per seat ``{source: points}``)
        and ``catalogue`` (``{category: [entry, ...]}``)."""
        sources: list[dict[str, float]] = [{} for _ in self.uses]
        catalogue: dict[str, list[str]] = {}
        uses = [Counter(c) for c in self.uses]
        if self.hooks is not None and hasattr(self.hooks, "log_uses"):
            for seat, pairs in enumerate(self.hooks.log_uses(state)):
                uses[seat].update(pairs)
        if self.hooks is not None:
            sources = [dict(d) for d in self.hooks.score_sources(state)]
            catalogue = {k: list(v) for k, v in self.hooks.catalogue(state).items()}
            if getattr(self.hooks, "SOURCES_SUM_TO_SCORE", False):
                for seat, score in enumerate(state.scores()):
                    rest = score - sum(sources[seat].values())
                    if rest:
                        sources[seat]["unattributed"] = rest
        return {"uses": [_nest(c) for c in uses],
                "decisions": [_nest(c) for c in self.decisions],
                "sources": sources, "catalogue": catalogue}


def _nest(counts: Counter[tuple[str, str]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for (outer, inner), n in sorted(counts.items()):
        out.setdefault(outer, {})[inner] = n
    return out


def usage_game(job: tuple[Any, ...]) -> tuple[int, dict[str, Any]]:
    """Worker entry: a lab job (:func:`starlanes.analysis.lab.lab_jobs`) played with the
    lab's facts and the usage tally; the row gains ``usage`` (:meth:`UsageTally.row`)."""
    from .lab import lab_game

    hooks = usage_module(job[1])
    tally = UsageTally(hooks, job[2])
    index, row, state = lab_game(job, tally.observe, keep_state=True)
    row["usage"] = tally.row(state)
    return index, row


def record_usage(record: GameRecord, verify: bool = True) -> dict[str, Any]:
    """The ``usage`` entry of a saved game, counted by replaying ``record`` through the
    registry (RecordError when it does not replay, see :func:`starlanes.engine.replay`)."""
    hooks = usage_module(record.game)
    tally = UsageTally(hooks, record.players)
    state = replay(record, verify=verify, upto=0)
    for i, text in enumerate(record.actions):
        try:
            action = state.game.parse_action(state, text)
            tally.observe(state, state.current_player(), action)
            state.apply(action)
        except StarlanesError as e:
            raise RecordError(f"action {i + 1} ({text!r}) does not replay: {e}") from None
    if verify:
        differences = record_differences(record, state)
        if differences:
            raise RecordError("the record differs from its replay: " + "; ".join(differences))
    return tally.row(state)


# ---------------------------------------------------------------------- the report
def _seat_games(rows: Sequence[Mapping[str, Any]]) -> Counter[str]:
    return Counter(agent for row in rows for agent in row["agents"])


def _count_family(rows: Sequence[Mapping[str, Any]], key: str,
                  catalogue: Mapping[str, Sequence[str]]) -> dict[str, dict[str, Any]]:
    """Per category and entry: ``total`` uses, ``per_game`` (mean uses per game),
    ``games`` (games where any seat used it), ``game_share`` with a Wilson ``ci95``, and
    ``by_agent``: per agent ``per_seat_game``, ``seat_share`` (share of the agent's
    seat-games where it used the entry at least once) and its Wilson ``ci95``."""
    n = len(rows)
    seat_games = _seat_games(rows)
    totals: Counter[tuple[str, str]] = Counter()
    games: Counter[tuple[str, str]] = Counter()
    agent_totals: Counter[tuple[str, str, str]] = Counter()
    agent_games: Counter[tuple[str, str, str]] = Counter()
    for row in rows:
        seen: set[tuple[str, str]] = set()
        for seat, per in enumerate(row["usage"][key]):
            agent = row["agents"][seat]
            for outer, inner_counts in per.items():
                for inner, k in inner_counts.items():
                    totals[(outer, inner)] += k
                    agent_totals[(agent, outer, inner)] += k
                    if k:
                        agent_games[(agent, outer, inner)] += 1
                        seen.add((outer, inner))
        games.update(seen)
    keys = set(totals) | {(c, e) for c, entries in catalogue.items() for e in entries}
    out: dict[str, dict[str, Any]] = {}
    for outer, inner in sorted(keys):
        lo, hi = wilson_interval(games[(outer, inner)], n)
        by_agent = {}
        for agent, sg in sorted(seat_games.items()):
            used = agent_games[(agent, outer, inner)]
            alo, ahi = wilson_interval(used, sg)
            by_agent[agent] = {"seat_games": sg, "uses": agent_totals[(agent, outer, inner)],
                               "per_seat_game": round(agent_totals[(agent, outer, inner)] / sg, 4),
                               "seat_share": round(used / sg, 4),
                               "ci95": [round(alo, 4), round(ahi, 4)]}
        out.setdefault(outer, {})[inner] = {
            "total": totals[(outer, inner)], "per_game": round(totals[(outer, inner)] / n, 4)
            if n else 0.0, "games": games[(outer, inner)],
            "game_share": round(games[(outer, inner)] / n, 4) if n else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)], "by_agent": by_agent}
    return out


def _option_shares(decisions: dict[str, dict[str, Any]]) -> None:
    """Add ``share`` (of the decisions of that kind) to every option of every kind."""
    for options in decisions.values():
        total = sum(o["total"] for o in options.values())
        for o in options.values():
            o["share"] = round(o["total"] / total, 4) if total else 0.0


def _bootstrap_shares(per_game: Sequence[Mapping[str, float]], rng: random.Random,
                      ) -> dict[str, dict[str, Any]]:
    """Each source's share of all points over the games, with a 95% percentile bootstrap
    interval resampling whole games (a resample without points draws nothing).
    ``per_game`` holds one ``{source: points}`` per game."""
    sources = sorted({s for g in per_game for s in g})
    grand = sum(sum(g.values()) for g in per_game)
    out: dict[str, dict[str, Any]] = {}
    if not per_game:
        return out
    draws: dict[str, list[float]] = {s: [] for s in sources}
    n = len(per_game)
    for _ in range(BOOTSTRAP):
        sample = [per_game[rng.randrange(n)] for _ in range(n)]
        total = sum(sum(g.values()) for g in sample)
        if not total:
            continue  # no points in this resample: no share to draw
        for s in sources:
            draws[s].append(sum(g.get(s, 0) for g in sample) / total)
    for s in sources:
        points = sum(g.get(s, 0) for g in per_game)
        xs = sorted(draws[s]) or [0.0]
        out[s] = {"points": points, "share": round(points / grand, 4) if grand else 0.0,
                  "per_game": round(points / n, 4),
                  "ci95": [round(xs[int(0.025 * (len(xs) - 1))], 4),
                           round(xs[int(round(0.975 * (len(xs) - 1)))], 4)]}
    return out


def _sources(rows: Sequence[Mapping[str, Any]], seed: int) -> dict[str, Any]:
    """Score shares by source over all seats, and per agent over its seats."""
    rng = random.Random(seed)
    everyone = []
    per_agent: dict[str, list[dict[str, float]]] = {}
    for row in rows:
        game: Counter[str] = Counter()
        by_agent: dict[str, Counter[str]] = {}
        for seat, src in enumerate(row["usage"]["sources"]):
            game.update(src)
            by_agent.setdefault(row["agents"][seat], Counter()).update(src)
        everyone.append(dict(game))
        for agent, c in by_agent.items():
            per_agent.setdefault(agent, []).append(dict(c))
    return {"all": _bootstrap_shares(everyone, rng),
            "by_agent": {a: _bootstrap_shares(g, rng) for a, g in sorted(per_agent.items())}}


def usage_report(game_id: str, rows: Sequence[Mapping[str, Any]],
                 seed: int = 0) -> dict[str, Any]:
    """The mechanism report of rows played with :func:`usage_game` (or rows whose ``usage``
    came from :func:`record_usage`): ``uses`` and ``decisions`` (see :func:`_count_family`;
    decisions also give each option's ``share`` of its kind), ``sources`` (score shares by
    source with bootstrap 95% intervals, ``all`` and ``by_agent``), ``score_label``,
    ``unused`` (catalogue entries no seat used, per category) and ``games``. ``seed``
    seeds the bootstrap.
    Raises ValueError when a row has no ``usage``."""
    if any("usage" not in r for r in rows):
        raise ValueError("rows without usage counts: play them with usage_game")
    catalogue: dict[str, set[str]] = {}
    for row in rows:
        for category, entries in row["usage"]["catalogue"].items():
            catalogue.setdefault(category, set()).update(entries)
    cats = {c: sorted(e) for c, e in catalogue.items()}
    uses = _count_family(rows, "uses", cats)
    decisions = _count_family(rows, "decisions", {})
    _option_shares(decisions)
    hooks = usage_module(game_id)
    return {
        "games": len(rows),
        "score_label": getattr(hooks, "SCORE_LABEL", "score"),
        "uses": uses,
        "decisions": decisions,
        "sources": _sources(rows, seed),
        "unused": {c: [e for e, v in entries.items() if not v["total"]]
                   for c, entries in uses.items()},
    }
