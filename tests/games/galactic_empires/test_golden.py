"""Golden playthroughs: whole heuristic games whose every step is checked in.

Each case plays a game between heuristic bots with fixed seeds and compares, step by step,
the number of legal actions and the action taken, the state digest every
``CHECKPOINT`` steps, then the final digest and result, with ``golden/<case>.json``. A
rule change that alters play shows up as the first differing step or checkpoint.

Regenerate after an intended rule change with either::

    STARLANES_REGEN_GOLDEN=1 pytest tests/games/galactic_empires/test_golden.py
    python -m tests.games.galactic_empires.test_golden --regen
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import starlanes
from starlanes.games.galactic_empires.heuristic import HeuristicAgent

GOLDEN_DIR = Path(__file__).with_name("golden")
CASES = {
    "heuristic_2p_basic": {"players": 2, "seed": 3, "structure": "basic"},
    "heuristic_3p_standard": {"players": 3, "seed": 5, "structure": "standard"},
}
CHECKPOINT = 100
MAX_STEPS = 20000


def play(players: int, seed: int, structure: str) -> dict:
    """Play one heuristic game to its end and return its golden data."""
    s = starlanes.load("galactic-empires", players=players, seed=seed,
                       structure=structure).new_initial_state()
    bots = [HeuristicAgent(seed * 10 + i) for i in range(players)]
    counts: list[int] = []
    actions: list[str] = []
    digests: list[str] = []
    for step in range(MAX_STEPS):
        if s.is_terminal():
            break
        if step % CHECKPOINT == 0:
            digests.append(s.digest())
        legal = s.legal_actions()
        a = bots[s.current_player()].act(s)
        counts.append(len(legal))
        actions.append(str(a))
        s.apply(a)
    return {
        "players": players, "seed": seed, "structure": structure,
        "legal_counts": counts, "actions": actions, "checkpoints": digests,
        "digest": s.digest(), "scores": s.scores(), "winners": s.winners,
        "end_reason": s.end_reason, "rounds": s.round, "terminal": s.is_terminal(),
    }


def regenerate() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, case in CASES.items():
        data = play(**case)
        (GOLDEN_DIR / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {name}: {len(data['actions'])} steps, digest {data['digest']}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    """GE-TURN-01, GE-WIN-04: a whole game follows the checked-in playthrough to the same
    conquest."""
    path = GOLDEN_DIR / f"{name}.json"
    if os.environ.get("STARLANES_REGEN_GOLDEN") == "1":
        regenerate()
    if not path.exists():
        pytest.fail(f"{path} is missing: run with STARLANES_REGEN_GOLDEN=1 to create it")
    want = json.loads(path.read_text())
    got = play(**CASES[name])
    for i, (a, b) in enumerate(zip(want["actions"], got["actions"], strict=False)):
        assert (want["legal_counts"][i], a) == (got["legal_counts"][i], b), f"step {i}"
    for k, (a, b) in enumerate(zip(want["checkpoints"], got["checkpoints"], strict=False)):
        assert a == b, f"digest at step {k * CHECKPOINT}"
    assert len(got["actions"]) == len(want["actions"])
    assert got["checkpoints"] == want["checkpoints"]
    assert (got["scores"], got["winners"], got["end_reason"]) == \
        (want["scores"], want["winners"], want["end_reason"])
    assert got["terminal"] and want["terminal"] and got["end_reason"] == "conquest"
    assert got["digest"] == want["digest"]


if __name__ == "__main__":  # pragma: no cover
    if "--regen" in sys.argv:
        regenerate()
    else:
        print(__doc__)
