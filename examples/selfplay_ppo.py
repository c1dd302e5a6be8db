"""Self-play PPO in plain PyTorch, one file, for Interstellar Ambitions (or any game).

A single-file PPO in the style of CleanRL: ``--num-envs`` games stepped together by
``StarlanesVectorEnv`` (batched observation tensors and legal-action masks, same-step
autoreset), a shared MLP trunk with a policy head (illegal logits masked to -1e8) and a
value head, generalised advantage estimation and the clipped surrogate loss. Self-play:
the other seats are drawn from a pool that starts with the ``random`` bot and gets a
frozen copy of the learner every ``--snapshot-every`` updates; the learner's seat cycles
so it plays every seat. The reward is ``dense`` (result plus the change of a VP-margin
potential). Each update prints the mean return of the episodes it finished (the learning
curve); at the end the policy plays ``--eval-games`` games against ``random``.

Needs the ``train`` extra: ``pip install "starlanes[train]"``.

Run: ``python examples/selfplay_ppo.py --game interstellar-ambitions --players 3
--updates 200 --seed 0`` (the CI smoke run: ``--updates 2 --num-envs 2 --num-steps 16
--eval-games 1 --round-limit 1``).
"""

from __future__ import annotations

import argparse
import copy
import time

import numpy as np
import torch
from torch import nn

from starlanes.envs.gymnasium import OpponentPool, StarlanesEnv, StarlanesVectorEnv

LENGTH_OPTION = {"galactic-domination": "turn_limit", "rift-domination": "round_limit",
                 "interstellar-ambitions": "round_limit", "galactic-empires": "turn_cap"}


class Agent(nn.Module):
    """Shared trunk, policy logits over the fixed action space, value."""

    def __init__(self, obs_size: int, actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(),
                                   nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def dist(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.distributions.Categorical,
                                                                  torch.Tensor]:
        h = self.trunk(obs)
        logits = self.policy(h).masked_fill(~mask, -1e8)
        return torch.distributions.Categorical(logits=logits), self.value(h).squeeze(-1)


def frozen(agent: Agent, scale: np.ndarray):
    """A copy of ``agent`` as a pool opponent ``(observation, mask) -> index``."""
    copy_ = copy.deepcopy(agent).eval()

    def past_self(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            obs = torch.as_tensor(observation / scale).unsqueeze(0)
            legal = torch.as_tensor(mask.view(bool)).unsqueeze(0)
            return int(copy_.dist(obs, legal)[0].sample()[0])

    return past_self


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="interstellar-ambitions")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=128)
    p.add_argument("--updates", type=int, default=200)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.999)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent", type=float, default=0.01)
    p.add_argument("--snapshot-every", type=int, default=10)
    p.add_argument("--eval-games", type=int, default=20)
    p.add_argument("--round-limit", type=int, default=0,
                   help="the game's round/turn cap option (0: the game's default)")
    a = p.parse_args()
    torch.manual_seed(a.seed)
    options = {LENGTH_OPTION[a.game]: a.round_limit} if a.round_limit else {}
    pool = OpponentPool(["random"], game_id=a.game)
    envs = StarlanesVectorEnv(a.num_envs, a.game, players=a.players, seat="cycle",
                              opponents=pool, reward="dense", observation="array", **options)
    obs_np, _ = envs.reset(seed=a.seed)
    scale = np.maximum(1.0, envs.single_observation_space.high).astype(np.float32)
    scale = np.minimum(scale, 100.0)  # counts reach tens; flags and fractions stay as they are
    n_obs = int(np.prod(envs.single_observation_space.shape))
    n_act = int(envs.single_action_space.n)
    agent = Agent(n_obs, n_act)
    opt = torch.optim.Adam(agent.parameters(), lr=a.lr, eps=1e-5)
    T, N = a.num_steps, a.num_envs
    obs_b = torch.zeros((T, N, n_obs))
    mask_b = torch.zeros((T, N, n_act), dtype=torch.bool)
    act_b, logp_b, rew_b, done_b, val_b = (torch.zeros((T, N)) for _ in range(5))
    obs = torch.as_tensor(obs_np / scale)
    mask = torch.as_tensor(envs.action_masks())
    done = torch.zeros(N)
    returns_now = np.zeros(N)
    start = time.time()
    for update in range(1, a.updates + 1):
        finished: list[float] = []
        for t in range(T):
            obs_b[t], mask_b[t], done_b[t] = obs, mask, done
            with torch.no_grad():
                dist, value = agent.dist(obs, mask)
                action = dist.sample()
            act_b[t], logp_b[t], val_b[t] = action, dist.log_prob(action), value
            obs_np, reward, term, trunc, _ = envs.step(action.numpy())
            rew_b[t] = torch.as_tensor(reward, dtype=torch.float32)
            returns_now += reward
            ended = term | trunc
            finished += returns_now[ended].tolist()
            returns_now[ended] = 0.0
            obs = torch.as_tensor(obs_np / scale)
            mask = torch.as_tensor(envs.action_masks())
            done = torch.as_tensor(ended, dtype=torch.float32)
        with torch.no_grad():  # generalised advantage estimation
            next_value = agent.dist(obs, mask)[1]
            adv = torch.zeros((T, N))
            last = torch.zeros(N)
            for t in reversed(range(T)):
                nonterminal = 1.0 - (done if t == T - 1 else done_b[t + 1])
                nxt = next_value if t == T - 1 else val_b[t + 1]
                delta = rew_b[t] + a.gamma * nxt * nonterminal - val_b[t]
                last = delta + a.gamma * a.lam * nonterminal * last
                adv[t] = last
            ret = adv + val_b
        b_obs, b_mask = obs_b.reshape(T * N, n_obs), mask_b.reshape(T * N, n_act)
        b_act, b_logp = act_b.reshape(-1), logp_b.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        size = T * N
        mb = max(1, size // a.minibatches)
        for _ in range(a.epochs):
            for idx in torch.randperm(size).split(mb):
                dist, value = agent.dist(b_obs[idx], b_mask[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                adv_mb = b_adv[idx]
                adv_mb = (adv_mb - adv_mb.mean()) / (adv_mb.std() + 1e-8) if len(idx) > 1 \
                    else adv_mb
                pg = torch.max(-adv_mb * ratio,
                               -adv_mb * ratio.clamp(1 - a.clip, 1 + a.clip)).mean()
                loss = pg + 0.5 * ((value - b_ret[idx]) ** 2).mean() \
                    - a.ent * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                opt.step()
        if update % a.snapshot_every == 0:
            pool.add(frozen(agent, scale))
        mean = f"{np.mean(finished):+.3f} over {len(finished)} episodes" if finished else "-"
        print(f"update {update}: {update * T * N} steps, {time.time() - start:.0f} s, "
              f"mean return {mean}, pool {len(pool.snapshots)} snapshots", flush=True)
    player = frozen(agent, scale)
    env = StarlanesEnv(a.game, players=a.players, seat="cycle", opponents="random",
                       observation="array", **options)
    won = 0.0
    for g in range(a.eval_games):
        o, info = env.reset(seed=50_000 + g)
        over = False
        while not over:
            o, _, term, trunc, info = env.step(player(o, info["action_mask"]))
            over = term or trunc
        won += env.state.returns()[env.seat] if env.state.is_terminal() else 0.0
    print(f"win share against random: {won / max(1, a.eval_games):.2f} over "
          f"{a.eval_games} games ({a.players} players: {1 / a.players:.2f} is even)")


if __name__ == "__main__":
    main()
