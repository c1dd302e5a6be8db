"""Golden playthroughs shared by every game's ``test_golden.py``.

A golden case is a short game between bots with fixed seeds. :func:`play` plays it and
returns, per step, the number of legal actions and the action taken, the state digest every
``checkpoint`` steps, and the final digest, scores and terminal flag. :func:`check` replays
the case and compares it with the checked-in ``golden/<case>.json``, so a change of the rules
that alters play shows up as the first differing step (like perft in chess engines).

Use from a game's test module::

    from tests.golden import GoldenCase, golden_test, main

    CASES = {"heuristic_3p": GoldenCase("interstellar-ambitions", players=3, seed=11,
                                        options={"round_limit": 4}, checkpoint=25)}
    GOLDEN_DIR = Path(__file__).with_name("golden")
    test_golden_playthrough = golden_test(CASES, GOLDEN_DIR, "IA-TURN-01 ...")

    if __name__ == "__main__":
        main(CASES, GOLDEN_DIR)

Regenerate after an intended rule change with either::

    STARLANES_REGEN_GOLDEN=1 pytest tests/games/<game>/test_golden.py
    python -m tests.games.<game>.test_golden --regen

The file format is a JSON object with ``players``, ``seed``, the case's options as top-level
keys, ``legal_counts``, ``actions``, ``digest``, ``scores``, ``terminal`` and (when the case
has a checkpoint interval) ``checkpoints``: a list of ``[step, digest]`` pairs, the digest
taken before the action of that step.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import starlanes
from starlanes.agents.registry import make_agent

MAX_STEPS = 20000
"""A golden game longer than this many actions is a fault of the case, not a result."""


@dataclass(frozen=True)
class GoldenCase:
    """One recorded game: ``game_id``, ``players``, ``seed`` and game ``options``; each seat
    plays agent ``agent`` (an agent spec) seeded ``seed * 10 + seat``; a state digest is
    stored every ``checkpoint`` steps (0: only the final digest)."""

    game_id: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    agent: str = "heuristic"
    checkpoint: int = 0


def play(case: GoldenCase) -> dict[str, Any]:
    """Play ``case`` and return its golden data (the JSON object described above).

    Raises AssertionError if the game is not over after MAX_STEPS actions.
    """
    state = starlanes.load(case.game_id, players=case.players, seed=case.seed,
                           **case.options).new_initial_state()
    bots = [make_agent(case.agent, case.game_id, case.seed * 10 + i)
            for i in range(case.players)]
    counts: list[int] = []
    actions: list[str] = []
    checkpoints: list[list[Any]] = []
    for step in range(MAX_STEPS):
        if state.is_terminal():
            break
        if case.checkpoint and step % case.checkpoint == 0:
            checkpoints.append([step, state.digest()])
        legal = state.legal_actions()
        action = bots[state.current_player()].act(state)
        counts.append(len(legal))
        actions.append(str(action))
        state.apply(action)
    assert state.is_terminal(), f"golden case did not finish in {MAX_STEPS} steps"
    data: dict[str, Any] = {"players": case.players, "seed": case.seed, **case.options,
                            "legal_counts": counts, "actions": actions}
    if case.checkpoint:
        data["checkpoints"] = checkpoints
    data.update(digest=state.digest(), scores=state.scores(), terminal=state.is_terminal())
    return data


def regenerate(cases: dict[str, GoldenCase], directory: Path) -> None:
    """Play every case and write ``directory/<name>.json``."""
    directory.mkdir(exist_ok=True)
    for name, case in cases.items():
        data = play(case)
        (directory / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {name}: {len(data['actions'])} steps, digest {data['digest']}")


def check(case: GoldenCase, path: Path) -> None:
    """Replay ``case`` and assert it matches the golden file at ``path`` step by step:
    legal-action count and action per step, checkpoint digests, final scores and digest."""
    if not path.exists():
        pytest.fail(f"{path} is missing: run with STARLANES_REGEN_GOLDEN=1 to create it")
    want = json.loads(path.read_text())
    got = play(case)
    for i, (a, b) in enumerate(zip(want["actions"], got["actions"], strict=False)):
        assert (want["legal_counts"][i], a) == (got["legal_counts"][i], b), f"step {i}"
    assert len(got["actions"]) == len(want["actions"])
    for (step, digest), (gstep, gdigest) in zip(want.get("checkpoints", []),
                                                got.get("checkpoints", []), strict=False):
        assert (step, digest) == (gstep, gdigest), f"digest at step {step}"
    assert got.get("checkpoints", []) == want.get("checkpoints", [])
    assert got["scores"] == want["scores"]
    assert got["terminal"] and want["terminal"]
    assert got["digest"] == want["digest"]


def golden_test(cases: dict[str, GoldenCase], directory: Path,
                doc: str) -> Callable[[str], None]:
    """A pytest test function, parametrised over ``cases``, that checks each against
    ``directory/<name>.json`` (regenerating first when STARLANES_REGEN_GOLDEN=1). ``doc``
    becomes its docstring (cite the rule IDs a whole game exercises)."""

    @pytest.mark.parametrize("name", sorted(cases))
    def test_golden_playthrough(name: str) -> None:
        if os.environ.get("STARLANES_REGEN_GOLDEN") == "1":
            regenerate({name: cases[name]}, directory)
        check(cases[name], directory / f"{name}.json")

    test_golden_playthrough.__doc__ = doc
    return test_golden_playthrough


def main(cases: dict[str, GoldenCase], directory: Path, doc: str | None = None) -> None:
    """Command-line entry of a game's golden module: ``--regen`` rewrites the files."""
    if "--regen" in sys.argv:
        regenerate(cases, directory)
    else:
        print(doc or __doc__)
