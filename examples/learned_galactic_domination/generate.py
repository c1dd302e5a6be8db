"""Record teacher decisions for the ``learned`` Galactic Domination bot.

Plays games of a player (default: the teacher itself) against ``heuristic``, seats
alternating, and saves for every decision of the player's seat the observation tensor
(float16), the legal action indices and the index the *teacher* would choose there,
plus the game's result for that seat. The file is a numpy ``.npz`` read by ``train.py``.
With ``--player learned --weights W.npz`` the learned policy plays and the teacher only
labels the states it reaches (DAgger: the policy learns to recover from its own
mistakes).

Run: ``python examples/learned_galactic_domination/generate.py --games 40 --seed 0
--out gd_teacher.npz`` (about 30 s a game on one core with the default teacher).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from starlanes.agents import make_agent
from starlanes.engine import derive_seed, load

GAME = "galactic-domination"


def play(seed: int, teacher: str, teacher_seat: int, player: str = "") -> tuple[list, float]:
    """One game; returns the recorded seat's decisions (tensor, legal indices, the
    teacher's index) and its result (1 win, 0.5 draw, 0 loss)."""
    game = load(GAME, players=2, seed=seed)
    state = game.new_initial_state()
    space = game.action_space()
    agents = [None, None]
    labeller = make_agent(teacher, GAME, derive_seed(seed, "teacher"))
    agents[teacher_seat] = make_agent(player, GAME, derive_seed(seed, "player")) \
        if player else labeller
    agents[1 - teacher_seat] = make_agent("heuristic", GAME, derive_seed(seed, "heuristic"))
    rows = []
    while not state.is_terminal():
        seat = state.current_player()
        action = agents[seat].act(state)
        if seat == teacher_seat:
            label = action if agents[seat] is labeller else labeller.act(state)
            legal = np.flatnonzero(space.legal_mask(state, np.int8).view(bool))
            rows.append((state.observation_tensor(seat).astype(np.float16),
                         legal.astype(np.int16), game.action_to_index(label, state)))
        state.apply(action)
    ret = state.returns()[teacher_seat]
    return rows, float(ret)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--teacher", default="mcts")
    parser.add_argument("--player", default="", help="the agent that plays the recorded "
                        "seat (default: the teacher)")
    parser.add_argument("--weights", default="", help="weights of the learned player")
    parser.add_argument("--out", default="gd_teacher.npz")
    args = parser.parse_args()
    if args.weights:
        from pathlib import Path

        from starlanes.agents import learned

        learned.WEIGHTS = Path(args.weights)
    obs, legal, chosen, result, game_of = [], [], [], [], []
    start = time.time()
    for g in range(args.games):
        seed = args.seed + g
        rows, ret = play(seed, args.teacher, g % 2, args.player)
        for x, lg, a in rows:
            obs.append(x)
            legal.append(lg)
            chosen.append(a)
            result.append(ret)
            game_of.append(seed)
        print(f"game {seed}: teacher seat {g % 2}, result {ret}, {len(rows)} decisions, "
              f"{time.time() - start:.0f} s", flush=True)
        if g + 1 == args.games:
            offsets = np.cumsum([0] + [len(lg) for lg in legal])
            np.savez_compressed(args.out, obs=np.stack(obs), chosen=np.array(chosen),
                                legal=np.concatenate(legal), legal_offsets=offsets,
                                result=np.array(result, np.float32),
                                game=np.array(game_of))


if __name__ == "__main__":
    main()
