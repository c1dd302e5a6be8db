"""Fine-tune the ``learned`` Galactic Domination bot by policy gradient against an opponent.

Starting from ``--init`` weights, each iteration plays ``--games`` games against
``--opponent`` (default ``heuristic``), seats alternating (game ``g`` of iteration ``i``
has seed ``--seed + i * --games + g`` and the learner in seat ``g % 2``; ``--seat 1``
puts it in seat 1 in every game, to work on that seat alone). The learner
samples its actions from the softmax of its legal logits divided by ``--temperature``.
Each decision is then pushed towards (or away from) the action it took by its game's
result less the mean result of its seat in that iteration (REINFORCE with a per-seat
baseline, advantages scaled to unit spread): one pass of Adam over the iteration's
decisions, in minibatches of ``--batch``. Every ``--eval-every`` iterations the greedy
policy (how the agent plays) is measured against the opponent on ``--eval-games`` fixed
games (seeds ``--eval-seed``...), seat by seat: that is the learning curve it prints. It
keeps the weights of the iteration with the best worse seat (``--out``), and the last
ones (``--out`` with ``.last`` before the suffix).

numpy only, one core. Run: ``python examples/learned_galactic_domination/reinforce.py
--init src/starlanes/agents/learned_galactic_domination.npz --iterations 30 --out v6.npz``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core, and the same sums every run

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from starlanes.agents import make_agent  # noqa: E402
from starlanes.engine import derive_seed, load  # noqa: E402

GAME = "galactic-domination"
KEYS = ("w1", "b1", "w2", "b2")


class Policy:
    """The MLP of ``learned.py`` with float32 parameters, a forward pass and its gradient."""

    def __init__(self, path: str) -> None:
        with np.load(path) as data:
            self.features = data["features"].astype(np.int64)
            self.scale = data["scale"].astype(np.float32)
            self.p = {k: data[k].astype(np.float32) for k in KEYS}

    def x(self, tensor: np.ndarray) -> np.ndarray:
        """The network's input (float32 [F]) of one observation tensor."""
        return tensor[self.features] / self.scale

    def logits(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(hidden [n, H], logits [n, A]) of inputs ``x`` [n, F]."""
        h = np.maximum(x @ self.p["w1"] + self.p["b1"], 0.0)
        return h, h @ self.p["w2"] + self.p["b2"]

    def save(self, path: Path) -> None:
        np.savez_compressed(path, features=self.features.astype(np.int32), scale=self.scale,
                            **{k: v.astype(np.float16) for k, v in self.p.items()})


def play(policy: Policy, seed: int, seat: int, opponent: str,
         rng: np.random.Generator | None, temperature: float) -> tuple[list, float]:
    """One game; with ``rng`` the learner samples (and its decisions are returned as
    (input, legal indices, chosen index) rows), without it the learner plays its best
    legal action. Returns (rows, the learner's result)."""
    game = load(GAME, players=2, seed=seed)
    state = game.new_initial_state()
    space = game.action_space()
    other = make_agent(opponent, GAME, derive_seed(seed, "opponent"))
    rows = []
    while not state.is_terminal():
        if state.current_player() != seat:
            state.apply(other.act(state))
            continue
        legal = space.legal_indices(state)
        idx = np.fromiter(legal, np.int64, len(legal))
        if idx.size == 1:
            state.apply(legal[int(idx[0])])
            continue
        x = policy.x(state.observation_tensor(seat))
        _, z = policy.logits(x[None])
        z = z[0, idx]
        if rng is None:
            pick = int(idx[int(np.argmax(z))])
        else:
            z = (z - z.max()) / temperature
            prob = np.exp(z)
            prob /= prob.sum()
            k = int(rng.choice(idx.size, p=prob))
            pick = int(idx[k])
            rows.append((x, idx, k))
        state.apply(legal[pick])
    return rows, float(state.returns()[seat])


def evaluate(policy: Policy, games: int, seed: int, opponent: str) -> list[float]:
    """The greedy policy's rate in seat 0 and in seat 1 over ``games`` games."""
    won = [0.0, 0.0]
    for g in range(games):
        won[g % 2] += play(policy, seed + g, g % 2, opponent, None, 1.0)[1]
    return [won[0] / len(range(0, games, 2)), won[1] / len(range(1, games, 2))]


def update(policy: Policy, batch: list, adv: np.ndarray, opt: dict, args: argparse.Namespace,
           rng: np.random.Generator) -> None:
    """One pass of Adam over the decisions (REINFORCE, see the module docstring)."""
    x_all = np.stack([r[0] for r in batch])
    order = rng.permutation(len(batch))
    p = policy.p
    for i in range(0, len(order), args.batch):
        part = order[i:i + args.batch]
        h, z = policy.logits(x_all[part])
        g = np.zeros_like(z)
        for row, j in enumerate(part):
            _, idx, k = batch[j]
            zl = z[row, idx] / args.temperature
            zl -= zl.max()
            prob = np.exp(zl)
            prob /= prob.sum()
            prob[k] -= 1.0  # d(-log pi)/d logits, times the advantage below
            g[row, idx] = prob * adv[j] / args.temperature
        g /= len(part)
        grads = {"w2": h.T @ g, "b2": g.sum(0)}
        dh = (g @ p["w2"].T) * (h > 0)
        grads["w1"] = x_all[part].T @ dh
        grads["b1"] = dh.sum(0)
        opt["step"] += 1
        t = opt["step"]
        for key in KEYS:
            opt["m"][key] = 0.9 * opt["m"][key] + 0.1 * grads[key]
            opt["v"][key] = 0.999 * opt["v"][key] + 0.001 * grads[key] ** 2
            mh = opt["m"][key] / (1 - 0.9 ** t)
            vh = opt["v"][key] / (1 - 0.999 ** t)
            p[key] -= args.lr * mh / (np.sqrt(vh) + 1e-8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--init", required=True, help="the weights to start from")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--seat", type=int, choices=(0, 1), default=None,
                        help="the learner's seat in every training game (default: both, "
                        "alternating)")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--games", type=int, default=400, help="games an iteration")
    parser.add_argument("--seed", type=int, default=500_000)
    parser.add_argument("--temperature", type=float, default=0.5)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--eval-every", type=int, default=2)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--eval-seed", type=int, default=950_000)
    parser.add_argument("--out", default="reinforced.npz")
    args = parser.parse_args()
    policy = Policy(args.init)
    out = Path(args.out)
    opt = {"step": 0, "m": {k: np.zeros_like(v) for k, v in policy.p.items()},
           "v": {k: np.zeros_like(v) for k, v in policy.p.items()}}
    rng = np.random.default_rng(args.seed)
    start = time.time()
    rates = evaluate(policy, args.eval_games, args.eval_seed, args.opponent)
    best = min(rates)
    print(f"iteration 0: greedy {rates[0]:.3f} in seat 0, {rates[1]:.3f} in seat 1, "
          f"{time.time() - start:.0f} s", flush=True)
    policy.save(out)
    for it in range(1, args.iterations + 1):
        batch, seat_of, result = [], [], []
        won = [0.0, 0.0]
        base = args.seed + it * args.games
        played = [0, 0]
        for g in range(args.games):
            seat = g % 2 if args.seat is None else args.seat
            rows, ret = play(policy, base + g, seat, args.opponent, rng, args.temperature)
            won[seat] += ret
            played[seat] += 1
            batch += rows
            seat_of += [seat] * len(rows)
            result += [ret] * len(rows)
        seat_arr, res = np.array(seat_of), np.array(result)
        means = [res[seat_arr == s].mean() if (seat_arr == s).any() else 0.0 for s in (0, 1)]
        adv = res - np.where(seat_arr == 0, means[0], means[1])
        adv /= adv.std() + 1e-6
        update(policy, batch, adv, opt, args, rng)
        line = f"iteration {it}: sampled " + ", ".join(
            f"{won[s] / played[s]:.3f} in seat {s}" for s in (0, 1) if played[s])
        line += f", {len(batch)} decisions"
        if it % args.eval_every == 0 or it == args.iterations:
            rates = evaluate(policy, args.eval_games, args.eval_seed, args.opponent)
            line += f"; greedy {rates[0]:.3f} in seat 0, {rates[1]:.3f} in seat 1"
            if min(rates) > best:
                best = min(rates)
                policy.save(out)
                line += " (kept)"
        print(f"{line}, {time.time() - start:.0f} s", flush=True)
    policy.save(out.with_name(out.stem + ".last" + out.suffix))


if __name__ == "__main__":
    main()
