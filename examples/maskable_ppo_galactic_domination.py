"""MaskablePPO (sb3-contrib) on Galactic Domination against a pool of opponents.

The learner plays both seats in turn (``seat="cycle"``) against a pool of the ``random``
and ``heuristic`` bots and, every ``--snapshot-every`` steps, a frozen copy of itself;
the reward is ``dense`` (the result plus the change of a fleet-value potential, so the
heuristic's wins still leave a signal). Observations are the tensor alone
(``observation="array"``) and MaskablePPO reads the legal actions from the
environment's ``action_masks()``. At the end the policy plays ``--eval-games`` games
against each bot and the win rates are printed with the learning curve (mean episode
return per rollout).

Needs the ``train`` extra: ``pip install "starlanes[train]"``.

Run: ``python examples/maskable_ppo_galactic_domination.py --timesteps 200000 --seed 0``
(the CI smoke run: ``--timesteps 128 --eval-games 1 --turn-limit 3``).
"""

from __future__ import annotations

import argparse
import copy
import time

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from starlanes.envs.gymnasium import OpponentPool, StarlanesEnv


def snapshot_policy(model: MaskablePPO):
    """A frozen copy of ``model``'s policy as an opponent ``(observation, mask) -> index``."""
    policy = copy.deepcopy(model.policy)
    policy.set_training_mode(False)

    def past_self(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = policy.predict(observation, deterministic=False,
                                   action_masks=mask.view(bool))
        return int(action)

    return past_self


class Snapshots(BaseCallback):
    """Adds a snapshot of the learner to the pool every ``every`` steps and records the
    mean return of the episodes finished in each rollout."""

    def __init__(self, pool: OpponentPool, every: int) -> None:
        super().__init__()
        self.pool, self.every = pool, every
        self.curve: list[tuple[int, float]] = []
        self.returns: list[float] = []
        self.current = 0.0

    def _on_step(self) -> bool:
        self.current += float(self.locals["rewards"][0])
        if self.locals["dones"][0]:
            self.returns.append(self.current)
            self.current = 0.0
        if self.num_timesteps % self.every == 0:
            self.pool.add(snapshot_policy(self.model))
        return True

    def _on_rollout_end(self) -> None:
        if self.returns:
            self.curve.append((self.num_timesteps, float(np.mean(self.returns))))
            self.returns = []


def evaluate(model: MaskablePPO, opponent: str, games: int, turn_limit: int) -> float:
    """The learner's share of wins (draws half) over ``games`` games, seats alternating."""
    env = StarlanesEnv("galactic-domination", seat="cycle", opponents=opponent,
                       observation="array", turn_limit=turn_limit)
    won = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=10_000 + g)
        done = False
        while not done:
            action, _ = model.predict(obs, deterministic=True, action_masks=env.action_masks())
            obs, _, term, trunc, _ = env.step(int(action))
            done = term or trunc
        won += env.state.returns()[env.seat] if env.state.is_terminal() else 0.0
    return won / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--snapshot-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=50)
    parser.add_argument("--turn-limit", type=int, default=150,
                        help="Galactic Domination's turn_limit option (short for smoke runs)")
    args = parser.parse_args()
    pool = OpponentPool(["random", "heuristic"], weights=[1, 3], snapshot_weight=1.0,
                        game_id="galactic-domination")
    env = StarlanesEnv("galactic-domination", seat="cycle", opponents=pool, reward="dense",
                       observation="array", turn_limit=args.turn_limit)
    n_steps = max(64, min(2048, args.timesteps))
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=64, seed=args.seed,
                        policy_kwargs={"net_arch": [128, 128]}, verbose=0, device="cpu")
    callback = Snapshots(pool, max(1, args.snapshot_every))
    start = time.time()
    model.learn(total_timesteps=args.timesteps, callback=callback)
    print(f"trained {args.timesteps} steps in {time.time() - start:.0f} s; "
          f"{len(pool.snapshots)} snapshots in the pool")
    for steps, mean in callback.curve:
        print(f"  after {steps:>7} steps: mean episode return {mean:+.3f}")
    for opponent in ("random", "heuristic"):
        rate = evaluate(model, opponent, args.eval_games, args.turn_limit)
        print(f"win rate against {opponent}: {rate:.2f} over {args.eval_games} games")


if __name__ == "__main__":
    main()
