"""benchmarks/soak.py's invariant checks find what they are meant to find: a determinisation
that shows another seat's secret action, and a clone that shares state with its original."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import pytest

import starlanes
from starlanes.engine.state import GameState

SOAK = Path(__file__).resolve().parents[2] / "benchmarks" / "soak.py"


@pytest.fixture(scope="module")
def soak():
    spec = importlib.util.spec_from_file_location("soak_benchmark", SOAK)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_sound_game_has_no_issue(soak) -> None:
    ends, issues, actions = soak.soak("interstellar-ambitions", 3, "heuristic", 1, 0, 1)
    assert issues == [] and actions > 0 and sum(ends.values()) == 1


def test_a_leaked_secret_is_found(soak, monkeypatch: pytest.MonkeyPatch) -> None:
    """Interstellar Ambitions' combat orders and Shadow buys are secret: with the
    determinisation no longer hiding them, the per-action check reports the seat and
    the history entry (and so does the end-of-game check, with deep checks off)."""
    monkeypatch.setattr(GameState, "_redact_history", lambda self, history, seat: None)
    _ends, issues, _n = soak.soak("interstellar-ambitions", 3, "heuristic", 1, 0, 1)
    assert issues and all("sees another seat's secret action" in i for i in issues)
    _ends, issues, _n = soak.soak("interstellar-ambitions", 3, "heuristic", 1, 0, 0)
    assert issues and all("sees another seat's secret action" in i for i in issues)


def test_a_clone_sharing_state_is_found(soak, monkeypatch: pytest.MonkeyPatch) -> None:
    state = starlanes.load("galactic-domination", players=2, seed=3).new_initial_state()
    monkeypatch.setattr(type(state), "clone", lambda self: self)
    issues = soak._check_step(state, random.Random(0), deep=True)
    assert "applying an action to a clone changed the original" in issues


def test_workers_give_the_same_results() -> None:
    """``--workers 2`` plays the same seeded games as one process: the same report."""
    def run(*extra: str) -> str:
        out = subprocess.run(
            [sys.executable, str(SOAK), "--game", "galactic-domination", "--games", "12",
             "--agents", "heuristic", "--deep-every", "0", "--seed", "7", *extra],
            capture_output=True, text=True, check=True).stdout
        return out.splitlines()[0].rsplit(" (", 1)[0]  # the timing differs

    one = run()
    assert one.startswith("galactic-domination players=2 agents=heuristic: games 12, actions ")
    assert "issues 0" in one and "fleet_destroyed 12" in one
    assert run("--workers", "2") == one
