"""Fit and score a game's leaf evaluation from heuristic self-play.

Run: ``python benchmarks/fit_evaluation.py [--game galactic-empires] [--games 500]``.

For a game whose heuristic module defines ``position_features(state, seat) -> dict`` and
``EVAL_WEIGHTS`` (the weights ``evaluate`` uses), it plays 2-player heuristic self-play
games, samples the first position of every turn (for a game whose heuristic module defines
``turn_number``; ``--every N`` samples every N actions instead; never inside a pending
decision), and fits a logistic regression of "seat 0 wins" on the seat-0-minus-seat-1
feature differences (Newton's method with a small L2 penalty, on standardised features).
Games are split 75/25 into fitting and held-out sets; it prints the fitted weights (logits
per unit, ready for ``EVAL_WEIGHTS``) and, on the held-out positions, the log loss and
accuracy of the fitted model, of the game's current ``evaluate`` and of the base rate.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import starlanes
from starlanes.agents.registry import make_agent
from starlanes.engine import derive_seed, game_module


def sample_game(job: tuple[str, int, int, int]) -> tuple[list[list[float]], list[float], float]:
    """One self-play game: (feature differences, current evaluation of seat 0, result)."""
    game_id, seed, g, every = job
    module = game_module(game_id, "heuristic")
    turn_number = getattr(module, "turn_number", None) if every == 0 else None
    if every == 0 and turn_number is None:
        raise SystemExit(f"{game_id} does not number its turns; give --every N")
    turn = -1
    names = list(module.EVAL_WEIGHTS)
    state = starlanes.load(game_id, players=2, seed=derive_seed(seed, g)).new_initial_state()
    bots = [make_agent("heuristic", game_id, derive_seed(seed, g, s)) for s in range(2)]
    rows, current = [], []
    n = 0
    while not state.is_terminal():
        state.apply(bots[state.current_player()].act(state))
        n += 1
        if turn_number is not None:  # the first position of every turn
            now = turn_number(state)
            due, turn = now != turn, now
        else:
            due = n % every == 0
        if due and not state.is_terminal() and not getattr(state, "stack", None):
            f0 = module.position_features(state, 0)
            f1 = module.position_features(state, 1)
            rows.append([f0[k] - f1[k] for k in names])
            current.append(module.evaluate(state)[0])
    winners = [s for s, r in enumerate(state.returns()) if r > 0]
    result = 1.0 / len(winners) if 0 in winners else 0.0
    return rows, current, result


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Weights ``w`` maximising the penalised log-likelihood of ``y ~ sigmoid(x @ w)``."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + l2 * w
        hess = (x.T * (p * (1 - p))) @ x / len(y) + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="galactic-empires")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--every", type=int, default=0,
                        help="actions between samples (0: the first position of every "
                             "turn, where MCTS rollouts with a horizon stop)")
    parser.add_argument("--seed", type=int, default=901)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    names = list(game_module(args.game, "heuristic").EVAL_WEIGHTS)
    jobs = [(args.game, args.seed, g, args.every) for g in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(sample_game, jobs, chunksize=8))
    cut = int(len(games) * 0.75)

    def stack(part):
        x = np.array([r for rows, _, _ in part for r in rows], dtype=float)
        e = np.array([v for _, cur, _ in part for v in cur])
        y = np.array([res for rows, _, res in part for _ in rows])
        return x, e, y

    x_fit, _, y_fit = stack(games[:cut])
    x_out, e_out, y_out = stack(games[cut:])
    scale = x_fit.std(axis=0) + 1e-9
    w = fit_logistic(x_fit / scale, y_fit) / scale
    p_out = 1 / (1 + np.exp(-x_out @ w))
    base = np.full(len(y_out), y_fit.mean())
    print(f"{args.game}: {len(x_fit)} positions to fit, {len(x_out)} held out "
          f"({args.games} games, seed {args.seed})")
    print("fitted weights (logits per unit): "
          + ", ".join(f'"{k}": {v:.4f}' for k, v in zip(names, w, strict=True)))
    for label, p in (("fitted", p_out), ("current evaluate", e_out), ("base rate", base)):
        acc = float(np.mean((p > 0.5) == (y_out > 0.5)))
        print(f"  {label:>16}: log loss {log_loss(p, y_out):.4f}, accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
