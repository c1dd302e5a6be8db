"""Golden playthroughs: short heuristic games whose every step is checked in.

Each case plays a game between heuristic bots with fixed seeds and compares, step by step,
the number of legal actions and the action taken, then the final digest, with
``golden/<case>.json`` (the shared mechanism is :mod:`tests.golden`). A rule change that
alters play shows up as the first differing step.

Regenerate after an intended rule change with either::

    STARLANES_REGEN_GOLDEN=1 pytest tests/games/rift_domination/test_golden.py
    python -m tests.games.rift_domination.test_golden --regen
"""

from __future__ import annotations

from pathlib import Path

from tests.golden import GoldenCase, golden_test, main

GAME = "rift-domination"
GOLDEN_DIR = Path(__file__).with_name("golden")
CASES = {
    "heuristic_2p": GoldenCase(GAME, players=2, seed=20240, options={"round_limit": 4}),
    "heuristic_4p": GoldenCase(GAME, players=4, seed=777, options={"round_limit": 3}),
    "heuristic_4p_classic": GoldenCase(GAME, players=4, seed=777,
                                       options={"round_limit": 3, "board": "classic"}),
}

test_golden_playthrough = golden_test(
    CASES, GOLDEN_DIR,
    "RD-TURN-01 / RD-WIN-06: a whole short game follows the checked-in playthrough.")


if __name__ == "__main__":  # pragma: no cover
    main(CASES, GOLDEN_DIR, __doc__)
