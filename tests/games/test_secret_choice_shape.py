"""Secret choices reveal nothing by their shape (every game).

A secret choice is an action the other seats see only as a hidden entry of the history
(``order ?``, ``buy ?``, ``swap``). Over seeded random games, at every decision where the
deciding seat has two or more legal options that the others would see as the same hidden
entry, each option is played in its own branch and the rest of that secret choice (the
seat's further decisions of the same kind) by one deterministic policy; then everything
another viewer receives is compared, step by step: each other seat's observation (and its
observation tensor), the public observation, the public action log, the history as each
other seat and a spectator know it, whose decision it is, and how many decisions the seat
takes until the secret choice is over. Only a step that turns the secret face up by rule
(combat orders revealed together, the unbought Shadow cards discarded face up) is left out
of the comparison, and only from then on (it still counts as a decision).

The rules behind each secret choice are cited in each test's docstring; how the software
asks them is ruled in docs/rulings/interstellar-ambitions.md ("Secret choices") and
docs/rulings/galactic-empires.md (GE-OPEN-04).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

import starlanes
from starlanes.engine import SPECTATOR, HiddenAction

try:  # the tensors are part of what a viewer receives where numpy is installed
    import numpy  # noqa: F401

    TENSORS = True
except ImportError:  # pragma: no cover - numpy comes with the rl extra
    TENSORS = False


@dataclass(frozen=True)
class Spec:
    """How one game's secret choices are found and followed.

    ``candidate(action)``: a cheap filter of the notations that may be secret (a guard test
    checks that every hidden entry of a random game passes it). ``kind(state)``: the kind
    of the pending decision, so the rest of a secret choice is the seat's decisions of the
    same kind (None: each secret choice is one decision). ``reveals(before, after)``:
    whether the step from ``before`` to ``after`` turns the secret face up by rule."""

    game_id: str
    candidate: Callable[[Any], bool]
    kind: Callable[[Any], Any]
    reveals: Callable[[Any, Any], bool]


def _ia_kind(s: Any) -> Any:
    return s.stack[-1].kind if s.stack else None


def _ia_reveals(before: Any, after: Any) -> bool:
    orders = (before.combat is not None and not before.combat.secret.revealed
              and (after.combat is None or after.combat.secret.revealed))
    offer = bool(before.offer) and not after.offer and len(after.history) > len(before.history) \
        and str(after.history[-1]) == "done"
    return orders or offer


IA = Spec("interstellar-ambitions", lambda a: str(a).startswith(("order ", "buy ")),
          _ia_kind, _ia_reveals)
GE = Spec("galactic-empires", lambda a: a.kind == "swap", lambda s: None,
          lambda before, after: False)


def hidden_entry(state: Any, action: Any, seat: int) -> str | None:
    """How the other seats would see ``action`` of ``seat`` in the history: the hidden
    entry's text, or None when they would see the action itself."""
    c = state.clone()
    c.apply(action)
    other = next(v for v in range(state.game.players) if v != seat)
    seen = c.history_seen_by(other)[-1]
    return str(seen) if isinstance(seen, HiddenAction) else None


def secret_options(state: Any, spec: Spec) -> dict[str, list[Any]]:
    """The seat's legal actions that others see only as a hidden entry, by that entry."""
    seat = state.current_player()
    groups: dict[str, list[Any]] = {}
    for a in state.legal_actions():
        if spec.candidate(a):
            shown = hidden_entry(state, a, seat)
            if shown is not None:
                groups.setdefault(shown, []).append(a)
    return groups


def policy(state: Any, seat: int, shown: str, spec: Spec) -> Any:
    """The one rule both branches follow for the rest of a secret choice: the first option
    seen as the same hidden entry, else ``done``/``pass`` where legal, else the first."""
    legal = state.legal_actions()
    for a in legal:
        if spec.candidate(a) and hidden_entry(state, a, seat) == shown:
            return a
    return next((a for a in legal if str(a) in ("done", "pass")), legal[0])


def views(state: Any, seat: int, start: int, lines: int) -> dict[str, Any]:
    """Everything a viewer other than ``seat`` receives from ``state``; of the history and
    the log only what came after the first ``start`` actions and ``lines`` lines (both
    branches share the rest)."""
    others = [v for v in range(state.game.players) if v != seat]
    out: dict[str, Any] = {
        "current_player": state.current_player(),
        "terminal": state.is_terminal(),
        "public": state.public_observation(),
        "log": state.action_log()[lines:],
        "spectator_history": [str(a) for a in state.history_seen_by(SPECTATOR)[start:]],
    }
    for v in others:
        out[f"observation {v}"] = state.observation(v)
        out[f"history {v}"] = [str(a) for a in state.history_seen_by(v)[start:]]
        if TENSORS:
            out[f"tensor {v}"] = state.observation_tensor(v).tobytes()
    return out


def branch(state: Any, first: Any, shown: str, spec: Spec) -> tuple[list[Any], list[str]]:
    """Play ``first`` and the rest of the secret choice on a clone. Returns what other
    viewers received after each step (a step that reveals the secret by rule, and any
    after it, only as ``"revealed"``: what follows may depend on what was chosen) and the
    notations played."""
    seat = state.current_player()
    kind = spec.kind(state)
    s = state.clone()
    start, lines = len(s.history), len(s.action_log())
    trace: list[Any] = []
    played: list[str] = []
    action = first
    revealed = False
    for _ in range(64):
        before = s.clone()
        s.apply(action)
        played.append(str(action))
        revealed = revealed or spec.reveals(before, s)
        trace.append("revealed" if revealed else views(s, seat, start, lines))
        if (kind is None or s.is_terminal() or s.current_player() != seat
                or spec.kind(s) != kind):
            return trace, played
        action = policy(s, seat, shown, spec)
    raise AssertionError("a secret choice longer than 64 decisions")  # pragma: no cover


def first_difference(a: Any, b: Any) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return f"{k}: {a.get(k)!r:.200} != {b.get(k)!r:.200}"
    return f"{a!r:.300} != {b!r:.300}"


def compare_options(state: Any, spec: Spec, shown: str, options: list[Any],
                    where: str) -> None:
    """Every option of one hidden entry gives every other viewer the same steps (the first
    compared with at most four others, spread over the list, the last included)."""
    ref_trace, ref_played = branch(state, options[0], shown, spec)
    n = len(options)
    for other in [options[i] for i in sorted({1, n // 3, 2 * n // 3, n - 1}) if i > 0]:
        trace, played = branch(state, other, shown, spec)
        assert len(trace) == len(ref_trace), (
            f"{where}: {ref_played} took {len(ref_trace)} decisions, {played} took "
            f"{len(trace)}")
        for step, (x, y) in enumerate(zip(ref_trace, trace, strict=True)):
            assert x == y, (f"{where}: after step {step} of {ref_played} vs {played}: "
                            f"{first_difference(x, y)}")


def play_and_check(spec: Spec, players: int, seed: int, steps: int,
                   kinds: tuple[str, ...] = (), **options: Any) -> int:
    """A seeded random game of at most ``steps`` decisions; every secret decision point
    (of the listed decision ``kinds``, or all) is checked. Returns how many were."""
    s = starlanes.load(spec.game_id, players=players, seed=seed, **options) \
        .new_initial_state()
    rng = random.Random(seed)
    checked = 0
    for step in range(steps):
        if s.is_terminal():
            break
        if not kinds or spec.kind(s) in kinds:
            for shown, opts in secret_options(s, spec).items():
                if len(opts) >= 2:
                    where = f"{spec.game_id} {players}p seed {seed} step {step} ({shown})"
                    compare_options(s, spec, shown, opts, where)
                    checked += 1
        s.apply(rng.choice(s.legal_actions()))
    return checked


def test_ia_combat_order_shape() -> None:
    """IA-RAID-05, IA-RAID-06, IA-INV-04: each side secretly arranges its ships face down
    (damaged ones face up in an open fight, the attacker first). Whatever ship a seat puts
    in a place, the other seats and spectators see the same views and the same number of
    decisions, so the first ship cannot be read from whether the seat is asked again; in
    particular the defender's view when it starts its own order does not depend on the
    attacker's order (ruling "Secret choices", docs/rulings/interstellar-ambitions.md)."""
    checked = 0
    for players in (3, 4, 5, 6):
        for seed in range(5):
            checked += play_and_check(IA, players, seed, 1400, ("order",))
    assert checked >= 40, checked


def test_ia_secret_buy_shape() -> None:
    """IA-SHA-02, IA-SHA-03, IA-SHA-04 (ruling IA-OPEN-15): the buyer alone sees the offer
    and buys any of it at 1 COIN each. Whichever card it buys, the others see the same
    views and decisions until the unbought cards go face up to the discard."""
    checked = 0
    for players in (3, 5):
        for seed in range(8):
            checked += play_and_check(IA, players, seed, 1400, ("buy",))
    assert checked >= 20, checked


def test_ge_reserve_swap_shape() -> None:
    """GE-PLAY-09 with ruling GE-OPEN-04: a hand card swapped for a reserve card (one card
    play, the reserve card no stronger) is seen by the others as a bare ``swap``: their
    views do not depend on which two cards were swapped."""
    checked = 0
    for players, structure in ((2, "basic"), (3, "basic"), (2, "standard")):
        for seed in range(3):
            checked += play_and_check(GE, players, seed, 700, structure=structure)
    assert checked >= 40, checked


def _hidden_notations(game_id: str, players: int, seed: int, steps: int) -> list[Any]:
    """The actions of a random game that a spectator sees only as hidden entries."""
    s = starlanes.load(game_id, players=players, seed=seed).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    seen = s.history_seen_by(SPECTATOR)
    return [a for a, v in zip(s.history, seen, strict=True) if isinstance(v, HiddenAction)]


@pytest.mark.parametrize(("game_id", "players", "spec"), [
    ("rift-domination", 3, None), ("galactic-domination", 2, None),
    ("interstellar-ambitions", 4, IA), ("galactic-empires", 3, GE)])
def test_every_secret_choice_is_covered(game_id: str, players: int, spec: Spec | None) -> None:
    """The tests above cover every secret choice: in random games every action hidden from
    a spectator is one they follow. Rift Domination and Galactic Domination have none: every
    choice is made in the open (RD-MOV-11's joint attacks are announced, not secret; ruling
    GD-OPEN-05: no hidden information)."""
    for seed in range(3):
        hidden = _hidden_notations(game_id, players, seed, 1500)
        if spec is None:
            assert hidden == [], hidden[:5]
        else:
            assert all(spec.candidate(a) for a in hidden), [str(a) for a in hidden][:5]


def test_secret_notations_stay_out_of_the_public_log() -> None:
    """IA-RAID-05, IA-SHA-02, GE-OPEN-04: a secret pick's notation is in no line of the
    public action log and no spectator's history while it is secret."""
    for spec, players in ((IA, 4), (GE, 2)):
        for seed in range(3):
            s = starlanes.load(spec.game_id, players=players, seed=seed).new_initial_state()
            rng = random.Random(seed)
            for _ in range(1200):
                if s.is_terminal():
                    break
                a = rng.choice(s.legal_actions())
                lines = len(s.action_log())
                s.apply(a)
                if spec.candidate(a) and isinstance(s.history_seen_by(SPECTATOR)[-1],
                                                    HiddenAction):
                    text = str(a)
                    assert not any(text in line for line in s.action_log()[lines:]), text
