"""Train the ``learned`` Galactic Domination policy from recorded decisions (numpy only).

Reads one or more ``.npz`` files written by ``generate.py`` and fits a one-hidden-layer
MLP: the observation tensor's features that vary in the data, each divided by its
largest value, then ``hidden`` ReLU units, then one logit per action index; the loss is
the cross-entropy of the recorded choice among the legal actions (illegal logits
masked). Each decision is weighted by its game's result for the recorded seat
(``weight_loss`` for a lost game, 1 for a won one, halfway for a draw): the winner's
choices count more, a cheap step beyond plain imitation. 10% of the games are held out
to report how often the policy picks the recorded action.

Run: ``python examples/learned_galactic_domination/train.py /tmp/gd_heur.npz --hidden 256
--epochs 8 --seed 0 --out v1.npz``; a DAgger round fine-tunes from it on all the data so
far: ``train.py /tmp/gd_heur.npz /tmp/gd_dagger1.npz --init v1.npz --epochs 3 --seed 1
--out v2.npz``. ``pipeline.py`` runs the whole recipe of the packaged weights.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def load(paths: list[str]) -> dict[str, np.ndarray]:
    """The recorded decisions of ``paths`` concatenated."""
    parts = [dict(np.load(p)) for p in paths]
    out = {k: np.concatenate([p[k] for p in parts]) for k in ("obs", "chosen", "result", "game")}
    legal, offsets, base = [], [0], 0
    for p in parts:
        legal.append(p["legal"])
        offsets.extend((p["legal_offsets"][1:] + base).tolist())
        base += len(p["legal"])
    out["legal"] = np.concatenate(legal)
    out["legal_offsets"] = np.asarray(offsets)
    return out


def masks(data: dict[str, np.ndarray], rows: np.ndarray, n: int) -> np.ndarray:
    """Bool legal masks of ``rows``, shape (len(rows), n)."""
    m = np.zeros((len(rows), n), bool)
    off = data["legal_offsets"]
    for k, r in enumerate(rows):
        m[k, data["legal"][off[r]:off[r + 1]]] = True
    return m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--weight-loss", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--init", default="", help="start from these weights (their "
                        "features and scales are kept)")
    parser.add_argument("--out", default="learned_galactic_domination.npz")
    args = parser.parse_args()
    from starlanes.engine import load as load_game

    n = load_game("galactic-domination").num_distinct_actions()
    data = load(args.data)
    obs = data["obs"].astype(np.float32)
    init = dict(np.load(args.init)) if args.init else None
    if init is not None:
        features, scale = init["features"], init["scale"]
    else:
        top = obs.max(axis=0)
        features = np.flatnonzero(top > 0)
        scale = top[features]
    x_all = obs[:, features] / scale
    y_all = data["chosen"]
    w_all = args.weight_loss + (1 - args.weight_loss) * data["result"]
    rng = np.random.default_rng(args.seed)
    games = np.unique(data["game"])
    held = set(rng.choice(games, size=max(1, len(games) // 10), replace=False).tolist())
    test = np.flatnonzero(np.isin(data["game"], list(held)))
    train = np.flatnonzero(~np.isin(data["game"], list(held)))
    d, h = len(features), args.hidden
    params = {"w1": rng.normal(0, np.sqrt(2 / d), (d, h)).astype(np.float32),
              "b1": np.zeros(h, np.float32),
              "w2": rng.normal(0, np.sqrt(1 / h), (h, n)).astype(np.float32),
              "b2": np.zeros(n, np.float32)}
    if init is not None:
        params = {k: init[k].astype(np.float32) for k in params}
        h = params["b1"].size
    moment = {k: np.zeros_like(v) for k, v in params.items()}
    second = {k: np.zeros_like(v) for k, v in params.items()}
    step = 0

    def forward(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        x = x_all[rows]
        a = np.maximum(x @ params["w1"] + params["b1"], 0)
        logits = a @ params["w2"] + params["b2"]
        logits[~masks(data, rows, n)] = -1e9
        return x, a, logits

    def accuracy(rows: np.ndarray) -> float:
        hits = 0
        for i in range(0, len(rows), 2048):
            _, _, logits = forward(rows[i:i + 2048])
            hits += int((logits.argmax(1) == y_all[rows[i:i + 2048]]).sum())
        return hits / max(1, len(rows))

    start = time.time()
    for epoch in range(args.epochs):
        order = rng.permutation(train)
        total = 0.0
        for i in range(0, len(order), args.batch):
            rows = order[i:i + args.batch]
            x, a, logits = forward(rows)
            logits -= logits.max(1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(1, keepdims=True)
            w = w_all[rows] / w_all[rows].sum()
            total += float(-(w * np.log(p[np.arange(len(rows)), y_all[rows]] + 1e-12)).sum())
            g = p
            g[np.arange(len(rows)), y_all[rows]] -= 1
            g *= w[:, None]
            grads = {"w2": a.T @ g, "b2": g.sum(0)}
            da = (g @ params["w2"].T) * (a > 0)
            grads["w1"] = x.T @ da
            grads["b1"] = da.sum(0)
            step += 1
            for k in params:  # Adam
                moment[k] = 0.9 * moment[k] + 0.1 * grads[k]
                second[k] = 0.999 * second[k] + 0.001 * grads[k] ** 2
                mh = moment[k] / (1 - 0.9 ** step)
                vh = second[k] / (1 - 0.999 ** step)
                params[k] -= args.lr * mh / (np.sqrt(vh) + 1e-8)
        print(f"epoch {epoch + 1}: loss {total / (len(order) / args.batch):.3f}, "
              f"held-out agreement {accuracy(test):.3f}, {time.time() - start:.0f} s",
              flush=True)
    np.savez_compressed(args.out, features=features.astype(np.int32),
                        scale=scale.astype(np.float32),
                        **{k: v.astype(np.float16) for k, v in params.items()})
    print(f"saved {args.out}: {len(features)} features, {h} hidden, {n} actions; "
          f"{len(train)} training decisions from {len(games) - len(held)} games")


if __name__ == "__main__":
    main()
