"""Golden playthroughs: short heuristic games whose every step is checked in.

Each case plays a game between heuristic bots with fixed seeds and compares, step by step,
the number of legal actions and the action taken, then the final digest, with
``golden/<case>.json``. A rule change that alters play shows up as the first differing step.

Regenerate after an intended rule change with either::

    STARLANES_REGEN_GOLDEN=1 pytest tests/games/rift_domination/test_golden.py
    python -m tests.games.rift_domination.test_golden --regen
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import starlanes
from starlanes.games.rift_domination.heuristic import HeuristicAgent

GOLDEN_DIR = Path(__file__).with_name("golden")
CASES = {
    "heuristic_2p": {"players": 2, "seed": 20240, "round_limit": 4},
    "heuristic_4p": {"players": 4, "seed": 777, "round_limit": 3},
}
MAX_STEPS = 20000


def play(players: int, seed: int, round_limit: int) -> dict:
    """Play one heuristic game and return its golden data."""
    s = starlanes.load("rift-domination", players=players, seed=seed,
                       round_limit=round_limit).new_initial_state()
    bots = [HeuristicAgent(seed * 10 + i) for i in range(players)]
    counts: list[int] = []
    actions: list[str] = []
    for _ in range(MAX_STEPS):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        a = bots[s.current_player()].act(s)
        counts.append(len(legal))
        actions.append(str(a))
        s.apply(a)
    return {
        "players": players, "seed": seed, "round_limit": round_limit,
        "legal_counts": counts, "actions": actions, "digest": s.digest(),
        "scores": s.scores(), "terminal": s.is_terminal(),
    }


def regenerate() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, case in CASES.items():
        data = play(**case)
        (GOLDEN_DIR / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {name}: {len(data['actions'])} steps, digest {data['digest']}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    """RD-TURN-01 / RD-WIN-06: a whole short game follows the checked-in playthrough."""
    path = GOLDEN_DIR / f"{name}.json"
    if os.environ.get("STARLANES_REGEN_GOLDEN") == "1":
        regenerate()
    if not path.exists():
        pytest.fail(f"{path} is missing: run with STARLANES_REGEN_GOLDEN=1 to create it")
    want = json.loads(path.read_text())
    got = play(**CASES[name])
    for i, (a, b) in enumerate(zip(want["actions"], got["actions"], strict=False)):
        assert (want["legal_counts"][i], a) == (got["legal_counts"][i], b), f"step {i}"
    assert len(got["actions"]) == len(want["actions"])
    assert got["scores"] == want["scores"]
    assert got["terminal"] and want["terminal"]
    assert got["digest"] == want["digest"]


if __name__ == "__main__":  # pragma: no cover
    if "--regen" in sys.argv:
        regenerate()
    else:
        print(__doc__)
