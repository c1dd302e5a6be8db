"""Observation tensors and legal-action masks keep every value: fingerprints along seeded
random games for every game and player count, compared with the ones saved in
``tests/interop/data/tensor_fingerprints.json``.

Each configuration plays one full random game (``random.Random(seed)`` over
``legal_actions()``, as ``conftest.random_states``). At every step the running SHA-256
takes the legal mask (``legal_mask(state, np.int8)``, the AEC environment's) and the acting
seat's tensor, as the AEC loop reads them; every ``ALL_SEATS_EVERY`` steps it also takes
every seat's tensor. A snapshot of the digest is kept every ``SNAPSHOT`` steps, so a change
is found to within that many steps. A second pass re-encodes clones of states met along the
game in a shuffled order (what a replay buffer does) and checks they give the same arrays as
in play order: the encoders' caches must not leak between states.

Regenerate (only when a tensor or the action space is meant to change, never for a speed
change): ``python tests/interop/test_tensor_fingerprints.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from starlanes.engine import load

try:  # as a test module
    from .conftest import research_games
except ImportError:  # as a script (--write)
    from conftest import research_games  # type: ignore[no-redef]

DATA = Path(__file__).parent / "data" / "tensor_fingerprints.json"
SEED = 7
SNAPSHOT = 50
ALL_SEATS_EVERY = 9
KEEP_EVERY = 37
STEP_CAP = 8000


def _feed(h: Any, step: int, seat: int, tensor: Any) -> None:
    assert tensor.dtype == np.float32
    h.update(f"{step}:{seat}:{tensor.shape}".encode())
    h.update(np.ascontiguousarray(tensor).tobytes())


def play(game_id: str, players: int) -> tuple[list[str], list[tuple[Any, list[Any]]]]:
    """Digest snapshots along the game, and (clone, every seat's tensor) kept every
    ``KEEP_EVERY`` steps."""
    game = load(game_id, players=players, seed=SEED)
    space = game.action_space()
    state = game.new_initial_state()
    rng = random.Random(SEED)
    h = hashlib.sha256()
    snaps: list[str] = []
    kept: list[tuple[Any, list[Any]]] = []
    step = 0
    while True:
        terminal = state.is_terminal()
        mask = space.legal_mask(state, np.int8)
        h.update(f"m{step}:{mask.shape}".encode())
        h.update(np.flatnonzero(mask).astype(np.int64).tobytes())
        if not terminal:
            seat = state.current_player()
            _feed(h, step, seat, state.observation_tensor(seat))
        if terminal or step % ALL_SEATS_EVERY == 0:
            for s in range(players):
                _feed(h, step, s, state.observation_tensor(s))
        if step % KEEP_EVERY == 0 or terminal:
            kept.append((state.clone(),
                         [state.observation_tensor(s).copy() for s in range(players)]))
        if step % SNAPSHOT == 0:
            snaps.append(h.hexdigest()[:16])
        if terminal or step >= STEP_CAP:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        step += 1
    snaps.append(f"end:{step}:{h.hexdigest()}")
    return snaps, kept


def _saved() -> dict[str, list[str]]:
    return json.loads(DATA.read_text())


@pytest.mark.parametrize(("game_id", "players"), research_games())
def test_tensors_and_masks_unchanged(game_id: str, players: int) -> None:
    """Every tensor and mask along a seeded random game matches the saved fingerprints,
    and out-of-order re-encoding of earlier states gives the same arrays."""
    saved = _saved().get(f"{game_id}/{players}")
    assert saved is not None, f"no fingerprint saved for {game_id}/{players}"
    snaps, kept = play(game_id, players)
    for k, (got, want) in enumerate(zip(snaps, saved, strict=False)):
        assert got == want, f"{game_id}/{players}: first difference before step {k * SNAPSHOT}"
    assert snaps == saved
    order = list(range(len(kept)))
    random.Random(1).shuffle(order)
    for i in order:
        clone, tensors = kept[i]
        for s in random.Random(i).sample(range(players), players):
            assert np.array_equal(clone.observation_tensor(s), tensors[s]), (i, s)


def main() -> None:
    if "--write" not in sys.argv:
        print(__doc__)
        return
    out = {f"{gid}/{n}": play(gid, n)[0] for gid, n in research_games()}
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(out, indent=0) + "\n")
    print(f"wrote {DATA} ({len(out)} configurations)")


if __name__ == "__main__":
    main()
