"""Golden playthroughs: whole heuristic games whose every step is checked in.

Each case plays a game of Interstellar Ambitions between heuristic bots with fixed seeds to
its natural end (a third Ambition and the final turns) and compares, step by step, the
number of legal actions and the action taken, the state digest every 25 steps and the final
digest and scores with ``golden/<case>.json`` (the shared mechanism is
:mod:`tests.golden`). The cases together exercise raids, invasions, spoils, Shadow checks,
mercenaries, repairs and ambition claims, so a rule change that alters play shows up as the
first differing step.

Regenerate after an intended rule change with either::

    STARLANES_REGEN_GOLDEN=1 pytest tests/games/interstellar_ambitions/test_golden.py
    python -m tests.games.interstellar_ambitions.test_golden --regen
"""

from __future__ import annotations

from pathlib import Path

from tests.golden import GoldenCase, golden_test, main

GAME = "interstellar-ambitions"
GOLDEN_DIR = Path(__file__).with_name("golden")
CASES = {
    "heuristic_3p": GoldenCase(GAME, players=3, seed=2, checkpoint=25),
    "heuristic_4p": GoldenCase(GAME, players=4, seed=5, checkpoint=25),
    "heuristic_6p": GoldenCase(GAME, players=6, seed=23, checkpoint=25),
}

test_golden_playthrough = golden_test(
    CASES, GOLDEN_DIR,
    "IA-TURN-01 / IA-END-01 / IA-END-02: a whole game follows the checked-in playthrough.")


if __name__ == "__main__":  # pragma: no cover
    main(CASES, GOLDEN_DIR, __doc__)
