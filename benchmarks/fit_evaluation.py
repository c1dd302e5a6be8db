"""Fit and score a game's leaf evaluation from heuristic self-play.

Run: ``python benchmarks/fit_evaluation.py [--game galactic-empires] [--games 500]``.

For a game whose heuristic module defines ``position_features(state, seat) -> dict`` and
``EVAL_WEIGHTS`` (the weights ``evaluate`` uses), it plays heuristic self-play games
(``--players``, default 2), samples the first position of every turn (for a game whose
heuristic module defines ``turn_number``, where search rollouts with a horizon stop, whatever decision is pending
there; ``--every N`` samples every N actions instead, never inside a pending decision), and fits a conditional logit: seat ``i`` wins with probability
``softmax_i(features_i . w)`` over the seats, ties sharing the win (with 2 players, the
logistic regression of "seat 0 wins" on the seat-0-minus-seat-1 differences), by Newton's
method with a small L2 penalty, on standardised features.
Games are split 75/25 into fitting and held-out sets; it prints the fitted weights (logits
per unit, ready for ``EVAL_WEIGHTS``) and, on the held-out positions, the log loss and
accuracy of the fitted model, of the game's current ``evaluate`` (its values normalised to
sum to 1) and of the seats' base rates.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import starlanes
from starlanes.agents.registry import make_agent
from starlanes.engine import derive_seed, game_module


def sample_game(job: tuple[str, int, int, int, int]
                ) -> tuple[list[list[list[float]]], list[list[float]], list[float]]:
    """One self-play game: for every sampled position the features of every seat (seats x
    features) and the current evaluation of every seat; and the game's returns."""
    game_id, seed, g, every, players = job
    module = game_module(game_id, "heuristic")
    turn_number = getattr(module, "turn_number", None) if every == 0 else None
    if every == 0 and turn_number is None:
        raise SystemExit(f"{game_id} does not number its turns; give --every N")
    turn = -1
    names = list(module.EVAL_WEIGHTS)
    state = starlanes.load(game_id, players=players,
                           seed=derive_seed(seed, g)).new_initial_state()
    bots = [make_agent("heuristic", game_id, derive_seed(seed, g, s)) for s in range(players)]
    rows, current = [], []
    n = 0
    while not state.is_terminal():
        state.apply(bots[state.current_player()].act(state))
        n += 1
        if turn_number is not None:  # the first position of every turn
            now = turn_number(state)
            due, turn = now != turn, now
        else:
            due = n % every == 0 and not getattr(state, "stack", None)
        if due and not state.is_terminal():
            f = [module.position_features(state, s) for s in range(players)]
            rows.append([[fs[k] for k in names] for fs in f])
            current.append(list(module.evaluate(state)))
    return rows, current, list(state.returns())


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_conditional_logit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Weights ``w`` maximising the penalised log-likelihood of "seat i wins" with
    probability ``softmax(x[:, i] @ w)`` over the seats (``x``: positions x seats x
    features; ``y``: each seat's share of the win). With two seats this is the logistic
    regression of seat 0's result on the seat-0-minus-seat-1 differences."""
    m, _seats, k = x.shape
    w = np.zeros(k)
    for _ in range(50):
        p = softmax(x @ w)
        mean_x = np.einsum("ms,msk->mk", p, x)
        grad = np.einsum("ms,msk->k", p - y, x) / m + l2 * w
        second = np.einsum("ms,msk,msl->kl", p, x, x) - mean_x.T @ mean_x
        step = np.linalg.solve(second / m + l2 * np.eye(k), grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy per position of the seats' results under ``p`` (each row sums to
    1); with two seats the binary log loss of seat 0's result."""
    p = np.clip(p, 1e-6, 1.0)
    return float(-np.mean((y * np.log(p)).sum(axis=1)))


def accuracy(p: np.ndarray, y: np.ndarray) -> float:
    """Share of positions whose most likely seat under ``p`` won (or shared the win)."""
    return float(np.mean(y[np.arange(len(y)), p.argmax(axis=1)] > 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="galactic-empires")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--every", type=int, default=0,
                        help="actions between samples (0: the first position of every "
                             "turn, where MCTS rollouts with a horizon stop)")
    parser.add_argument("--seed", type=int, default=901)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    names = list(game_module(args.game, "heuristic").EVAL_WEIGHTS)
    jobs = [(args.game, args.seed, g, args.every, args.players) for g in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(sample_game, jobs, chunksize=8))
    cut = int(len(games) * 0.75)

    def stack(part):
        x = np.array([r for rows, _, _ in part for r in rows], dtype=float)
        e = np.array([v for _, cur, _ in part for v in cur], dtype=float)
        y = np.array([res for rows, _, res in part for _ in rows], dtype=float)
        return x, e, y

    x_fit, _, y_fit = stack(games[:cut])
    x_out, e_out, y_out = stack(games[cut:])
    scale = x_fit.reshape(-1, len(names)).std(axis=0) + 1e-9
    w = fit_conditional_logit(x_fit / scale, y_fit) / scale
    p_out = softmax(x_out @ w)
    base = np.broadcast_to(y_fit.mean(axis=0), y_out.shape)
    current = e_out / np.maximum(e_out.sum(axis=1, keepdims=True), 1e-9)
    print(f"{args.game}: {len(x_fit)} positions to fit, {len(x_out)} held out "
          f"({args.games} {args.players}-player games, seed {args.seed})")
    print("fitted weights (logits per unit): "
          + ", ".join(f'"{k}": {v:.4f}' for k, v in zip(names, w, strict=True)))
    for label, p in (("fitted", p_out), ("current evaluate", current), ("base rate", base)):
        print(f"  {label:>16}: log loss {log_loss(p, y_out):.4f}, "
              f"accuracy {accuracy(p, y_out):.3f}")


if __name__ == "__main__":
    main()
