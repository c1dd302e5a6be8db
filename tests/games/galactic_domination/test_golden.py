"""Golden playthroughs: whole heuristic games whose every step and round checkpoint are
checked in.

Each case plays a game between heuristic bots with fixed seeds and compares, step by step,
the number of legal actions and the action taken, the state digest at the start of every
round (a checkpoint), then the final digest, with ``golden/<case>.json``. A rule or bot
change that alters play shows up as the first differing step or round. The cases are
chosen so that every special is used: warps, a collision, black hole shots charged and
fired, and a fleet jump (GD-DS-01/06, GD-SPC-04..09).

Regenerate after an intended change of play with either::

    STARLANES_REGEN_GOLDEN=1 pytest tests/games/galactic_domination/test_golden.py
    python -m tests.games.galactic_domination.test_golden --regen
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import starlanes
from starlanes.games.galactic_domination.heuristic import HeuristicAgent

GOLDEN_DIR = Path(__file__).with_name("golden")
CASES = {
    "heuristic_specials": {"seed": 232, "options": {}},
    "heuristic_options": {"seed": 16,
                          "options": {"charge_ends_turn": True, "arrive_full": False}},
}
USES = {
    "heuristic_specials": {"warp", "arrive", "sacrifice", "charge_shot", "fire",
                           "charge_jump", "jump"},
    "heuristic_options": {"warp", "sacrifice", "charge_shot", "charge_jump", "jump"},
}
"""The specials each recorded game must use (``charge_shot``: ``charge <ship> <sector>``)."""
MAX_STEPS = 20000


def play(seed: int, options: dict) -> dict:
    """Play one heuristic game and return its golden data."""
    s = starlanes.load("galactic-domination", seed=seed, **options).new_initial_state()
    bots = [HeuristicAgent(seed * 10 + i) for i in range(2)]
    counts: list[int] = []
    actions: list[str] = []
    checkpoints: list[list] = []
    last_round = s.round
    for _ in range(MAX_STEPS):
        if s.is_terminal():
            break
        if s.round != last_round:
            last_round = s.round
            checkpoints.append([s.round, len(actions), s.digest()])
        legal = s.legal_actions()
        a = bots[s.current_player()].act(s)
        counts.append(len(legal))
        actions.append(str(a))
        s.apply(a)
    return {
        "seed": seed, "options": options, "legal_counts": counts, "actions": actions,
        "checkpoints": checkpoints, "digest": s.digest(), "scores": s.scores(),
        "winners": s.winners, "end_reason": s.end_reason,
    }


def regenerate() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, case in CASES.items():
        data = play(**case)
        (GOLDEN_DIR / f"{name}.json").write_text(json.dumps(data, indent=0) + "\n")
        print(f"wrote {name}: {len(data['actions'])} steps, "
              f"{len(data['checkpoints'])} rounds, digest {data['digest']}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    """GD-TURN-01 / GD-WIN-03: a whole game follows the checked-in playthrough."""
    path = GOLDEN_DIR / f"{name}.json"
    if os.environ.get("STARLANES_REGEN_GOLDEN") == "1":
        regenerate()
    if not path.exists():
        pytest.fail(f"{path} is missing: run with STARLANES_REGEN_GOLDEN=1 to create it")
    want = json.loads(path.read_text())
    got = play(**CASES[name])
    marks = {step: (rnd, digest) for rnd, step, digest in want["checkpoints"]}
    got_marks = {step: (rnd, digest) for rnd, step, digest in got["checkpoints"]}
    for i, (a, b) in enumerate(zip(want["actions"], got["actions"], strict=False)):
        assert marks.get(i) == got_marks.get(i), f"round checkpoint before step {i}"
        assert (want["legal_counts"][i], a) == (got["legal_counts"][i], b), f"step {i}"
    assert len(got["actions"]) == len(want["actions"])
    assert (got["scores"], got["winners"], got["end_reason"]) == (
        want["scores"], want["winners"], want["end_reason"])
    assert got["digest"] == want["digest"]
    assert USES[name] <= {_use(a) for a in got["actions"]}


def _use(notation: str) -> str:
    words = notation.split()
    if words[0] == "charge":
        return "charge_shot" if len(words) == 3 else "charge_jump"
    return words[0]


if __name__ == "__main__":  # pragma: no cover
    if "--regen" in sys.argv:
        regenerate()
    else:
        print(__doc__)
