"""The Rift Domination battle as a grid of hit counts: exact stepping and a fast Monte Carlo
of the same model (rulebook BATTLE, RD-BAT-02..12, RD-HIT-01..15).

Each hit takes one point of shields or LP from the unit the shooter's policy picks, and the
policy looks only at the fleet as it stands, so a side's fleet after ``k`` hits is a
function of ``k`` alone: the *chain* ``fleet_0, fleet_1, ..., ()`` of that side. A battle
state is therefore a cell ``(i, j)`` of hits taken by the attacker and the defender, and one
phase moves the probability of every cell at once:

- simultaneous fire: ``P'[k, l] = sum P[i, j] * D_j[k - i] * A_i[l - j]`` where ``A_i`` is
  the hit distribution of the attacker's fleet ``i`` and ``D_j`` the defender's (one matrix
  product over the flattened grid, hits past a fleet's last point absorbed in its last cell);
- sequential fire and first strike: the first side's volley (a batched matrix-vector
  product), then the other side's volley from what is left.

The last row and column are the destroyed fleets; retreats are masks over the grid.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from starlanes.games.rift_domination.battle_model import ATTACKER, CLOSE, DEFENDER, MAX_CLOSE_ROUNDS

from .policies import wants_retreat

WINNER = {"attacker_wins": ATTACKER, "defender_retreats": ATTACKER,
          "defender_wins": DEFENDER, "attacker_retreats": DEFENDER, "mutual_destruction": -1}

if TYPE_CHECKING:
    from .rd_exact import Fleet, RiftExact
    from .tally import Tally


_BLAS: Any = None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the grid's small matrix products on one BLAS thread: on a busy machine a
    threaded BLAS spends more time waking and waiting for threads than multiplying
    (measured 0.24 ms against 2-22 ms for one 20 v 20 phase)."""
    global _BLAS
    from threadpoolctl import ThreadpoolController

    if _BLAS is None:
        _BLAS = ThreadpoolController()
    with _BLAS.limit(limits=1, user_api="blas"):
        yield


class Grid:
    """The battle from fleets ``a`` (attacker) and ``d`` (defender) of model ``m``."""

    def __init__(self, m: RiftExact, a: Fleet, d: Fleet) -> None:
        self.m = m
        self.info = (self._chain(ATTACKER, a), self._chain(DEFENDER, d))
        self.n = (len(self.info[0]) - 1, len(self.info[1]) - 1)
        self._trans: dict[tuple[int, int], np.ndarray] = {}
        info = self.info
        self.can_retreat = [np.array([x[4] for x in info[s][:-1]], bool) for s in (0, 1)]
        self.weapons = [np.array([x[5] for x in info[s][:-1]], bool) for s in (0, 1)]
        self.strength = [np.array([x[6] for x in info[s][:-1]], float) for s in (0, 1)]
        self.lost = [np.array([m.n_units[s] - x[2] for x in info[s]], float) for s in (0, 1)]
        self.out: dict[tuple[str, str], float] = {}
        self.surv = [np.zeros(self.n[0] + 1), np.zeros(self.n[1] + 1)]
        self.vp = [0.0, 0.0]
        self.res = [0.0, 0.0]

    def _chain(self, side: int, fleet: Fleet) -> list[tuple]:
        """For the side's fleets after 0, 1, ... hits until none is left, each one's
        ``(text, units, non-building units, cost, can retreat, has weapons, strength,
        dice per weapon)``, kept up to date hit by hit (one unit changes per hit)."""
        m = self.m
        types = m.types[side]
        labels = Counter(m.label(side, u) for u in fleet)
        count = len(fleet)
        movers = sum(1 for u in fleet if not types[u[0]].building)
        cost = sum(types[u[0]].cost for u in fleet)
        points = sum(lp + sh for _, lp, sh in fleet)
        w = list(m.weapons(side, fleet))
        cur = fleet
        infos = []
        while True:
            dice = w[0] + w[1] + w[2]
            text = ", ".join(f"{n} {k}" if n > 1 else k for k, n in sorted(labels.items()))
            infos.append((text, count, movers, cost, movers > 0, dice > 0,
                          points + 1.5 * dice, (w[0], w[1], w[2])))
            if not cur:
                return infos
            old, new = m.target(1 - side, cur)
            units = list(cur)
            units.remove(old)
            labels[m.label(side, old)] -= 1
            if not labels[m.label(side, old)]:
                del labels[m.label(side, old)]
            points -= 1
            if new is not None:
                bisect.insort(units, new)
                labels[m.label(side, new)] += 1
            else:
                t = types[old[0]]
                count -= 1
                movers -= not t.building
                cost -= t.cost
                for wi, n in enumerate(t.weapons):
                    w[wi] -= n
            cur = tuple(units)

    # ------------------------------------------------------------------ transitions
    def trans(self, shooter: int, phase: int) -> np.ndarray:
        """``T[r, j, l]``: P(the target side goes from ``j`` to ``l`` hits taken | the
        shooter's fleet is its chain's ``r``-th), shape (live shooter rows, n, n + 1)."""
        key = (shooter, phase)
        t = self._trans.get(key)
        if t is not None:
            return t
        m = self.m
        n = self.n[1 - shooter]
        dists = [m.hit_dist(shooter, x[7], phase) for x in self.info[shooter][:-1]]
        r = len(dists)
        width = max(len(h) for h in dists)
        g = np.zeros((r, 2 * n + 1))  # g[:, n + y] = P(y hits), y < n kept
        tail = np.zeros((r, max(width, n) + 1))  # tail[:, y] = P(y or more hits)
        for i, dist in enumerate(dists):
            h = np.asarray(dist)
            g[i, n:n + min(len(h), n)] = h[:n]
            tail[i, :len(h)] = np.cumsum(h[::-1])[::-1]
        windows = np.lib.stride_tricks.sliding_window_view(g, n, axis=1)  # (r, n + 2, n)
        j = np.arange(n)
        t = np.empty((r, n, n + 1))
        t[:, :, :n] = windows[:, n - j, :]  # t[:, j, l] = P(l - j hits)
        t[:, :, n] = tail[:, n - j]  # hits that reach the last point destroy the fleet
        self._trans[key] = t
        return t

    def fire(self, p: np.ndarray, phase: int) -> np.ndarray:
        """One phase's volleys from live grid ``p`` (n_a, n_d) to the full grid
        (n_a + 1, n_d + 1)."""
        m = self.m
        na, nd = self.n
        if m.simultaneous and m.first < 0:
            rows, cols = np.flatnonzero(p.any(axis=1)), np.flatnonzero(p.any(axis=0))
            ri, cj = int(rows[-1]) + 1, int(cols[-1]) + 1  # the cells holding probability
            ta = self.trans(ATTACKER, phase)[:ri, :cj]
            td = self.trans(DEFENDER, phase)[:cj, :ri]
            a = p[:ri, :cj, None] * td.transpose(1, 0, 2)
            return a.reshape(ri * cj, na + 1).T @ ta.reshape(ri * cj, nd + 1)
        x, y = m.order
        if x == ATTACKER:
            return self._sequential(p, self.trans(x, phase), self.trans(y, phase))
        return self._sequential(p.T, self.trans(x, phase), self.trans(y, phase)).T

    @staticmethod
    def _sequential(p: np.ndarray, tx: np.ndarray, ty: np.ndarray) -> np.ndarray:
        """Rows: the side firing first; its volley lands, then the other side fires with
        what it has left (a destroyed side fires nothing)."""
        nx, ny = p.shape
        p1 = (p[:, None, :] @ tx)[:, 0, :]
        out = np.zeros((nx + 1, ny + 1))
        out[:nx, ny] = p1[:, ny]
        out[:, :ny] = (p1[:, :ny].T[:, None, :] @ ty)[:, 0, :].T
        return out

    # ------------------------------------------------------------------ endings
    def record(self, outcome: str, label: str, wa: np.ndarray, wd: np.ndarray) -> None:
        """Endings of kind ``outcome`` in phase ``label`` with marginal weights ``wa`` over
        the attacker's chain (length n_a + 1) and ``wd`` over the defender's: both sums are
        the ending's weight. VP and resources go to the winner where a die was rolled
        (faction rewards, salvage per enemy unit lost)."""
        total = float(wa.sum())
        if total <= 0.0:
            return
        key = (label, outcome)
        self.out[key] = self.out.get(key, 0.0) + total
        self.surv[0] += wa
        self.surv[1] += wd
        winner = WINNER[outcome]
        m = self.m
        if winner >= 0 and m.rolled:
            loser_w = (wa, wd)[1 - winner]
            self.vp[winner] += total * m.win_vp[winner]
            self.res[winner] += total * m.win_res[winner] + m.salvage[winner] * float(
                loser_w @ self.lost[1 - winner])

    def finish(self, i: int, j: int, label: str, retreated: int | None, w: float) -> None:
        """One ending in cell (i, j) with weight ``w``."""
        na, nd = self.n
        if retreated is not None:
            outcome = ("attacker_retreats", "defender_retreats")[retreated]
        elif i < na and j == nd:
            outcome = "attacker_wins"
        elif j < nd and i == na:
            outcome = "defender_wins"
        else:
            outcome = "mutual_destruction"
        wa, wd = np.zeros(na + 1), np.zeros(nd + 1)
        wa[i] = wd[j] = w
        self.record(outcome, label, wa, wd)

    def ended(self, full: np.ndarray, label: str) -> np.ndarray:
        """Record the destroyed fleets' cells of ``full``; the live grid."""
        na, nd = self.n
        col, row = full[:na, nd], full[na, :nd]
        wa, wd = np.zeros(na + 1), np.zeros(nd + 1)
        wa[:na], wd[nd] = col, col.sum()
        self.record("attacker_wins", label, wa, wd)
        wa, wd = np.zeros(na + 1), np.zeros(nd + 1)
        wa[na], wd[:nd] = row.sum(), row
        self.record("defender_wins", label, wa, wd)
        wa, wd = np.zeros(na + 1), np.zeros(nd + 1)
        wa[na] = wd[nd] = full[na, nd]
        self.record("mutual_destruction", label, wa, wd)
        return full[:na, :nd]

    def flush(self, tally: Tally) -> None:
        """Add everything recorded to ``tally``."""
        for (label, outcome), p in self.out.items():
            tally.add_outcome(p, outcome, label)
        for side in (0, 1):
            info = self.info[side]
            for k in np.flatnonzero(self.surv[side]).tolist():
                text, count, _units, cost, *_ = info[k]
                tally.add_side(side, float(self.surv[side][k]), text, count,
                               int(self.lost[side][k]), self.m.cost0[side] - cost)
            tally.add_rewards(side, self.vp[side], self.res[side])

    def retreat_masks(self, rounds: int) -> tuple[np.ndarray, np.ndarray]:
        """RD-BAT-08/12 after a close round: who leaves from each live cell. The attacker
        first: it must without weapons or after the last round; then the defender."""
        m = self.m
        sa, sd = self.strength[0][:, None], self.strength[1][None, :]
        att = self.weapons[0][:, None] == False  # noqa: E712 (numpy comparison)
        if rounds >= MAX_CLOSE_ROUNDS:
            att = np.ones_like(att)
        att = att | np.asarray(wants_retreat(m.retreat[0], sa, sd), bool)
        att = att & self.can_retreat[0][:, None]
        dfd = (self.weapons[1][None, :] == False)  # noqa: E712
        dfd = dfd | np.asarray(wants_retreat(m.retreat[1], sd, sa), bool)
        dfd = dfd & self.can_retreat[1][None, :] & ~att
        shape = (self.n[0], self.n[1])
        return np.broadcast_to(att, shape), np.broadcast_to(dfd, shape)

    # ------------------------------------------------------------------ exact
    def run(self, tally: Tally, weight: float) -> None:
        """Push probability ``weight`` from the start cell through every phase."""
        from .rd_exact import phase_label

        m = self.m
        p = np.zeros(self.n)
        p[0, 0] = weight
        phase, rounds = m.phase0, m.rounds0
        while True:
            label = phase_label(phase, rounds)
            m.states += int(np.count_nonzero(p))
            p = self.ended(self.fire(p, phase), label)
            if not p.any():
                break
            if phase < CLOSE:
                phase += 1
                continue
            rounds += 1
            att, dfd = self.retreat_masks(rounds)
            for side, mask in ((0, att), (1, dfd)):
                w = np.where(mask, p, 0.0)
                wa, wd = np.zeros(self.n[0] + 1), np.zeros(self.n[1] + 1)
                wa[:-1], wd[:-1] = w.sum(axis=1), w.sum(axis=0)
                self.record(("attacker_retreats", "defender_retreats")[side], label, wa, wd)
            p = np.where(att | dfd, 0.0, p)
            if not p.any():
                break
        self.flush(tally)

    # ------------------------------------------------------------------ Monte Carlo
    def dice_table(self, side: int, phase: int) -> tuple[np.ndarray, np.ndarray]:
        """Per live chain index the number of dice for each needed roll, and the chances."""
        m = self.m
        rows = [dict(m.dice(side, x[7], phase)) for x in self.info[side][:-1]]
        needs = sorted({nd for r in rows for nd in r}) or [7]
        counts = np.array([[r.get(nd, 0) for nd in needs] for r in rows], np.int64)
        chance = np.clip((7 - np.array(needs, float)) / 6, 0.0, 1.0)
        return counts, chance

    def simulate(self, tally: Tally, trials: int, rng: np.random.Generator) -> None:
        """``trials`` battles of the same model drawn at random (counts into ``tally``)."""
        from .rd_exact import phase_label

        m = self.m
        na, nd = self.n
        ii = np.zeros(trials, np.int64)
        jj = np.zeros(trials, np.int64)
        phase, rounds = m.phase0, m.rounds0
        tables: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

        def hits(side: int, idx: np.ndarray) -> np.ndarray:
            key = (side, phase)
            if key not in tables:
                tables[key] = self.dice_table(side, phase)
            counts, chance = tables[key]
            return rng.binomial(counts[idx], chance).sum(axis=1)

        endings: Counter[tuple[int, int, str, int | None]] = Counter()
        while len(ii):
            label = phase_label(phase, rounds)
            if m.simultaneous and m.first < 0:
                ha, hd = hits(ATTACKER, ii), hits(DEFENDER, jj)
                ii, jj = np.minimum(ii + hd, na), np.minimum(jj + ha, nd)
            else:
                x, _ = m.order
                if x == ATTACKER:
                    jj = np.minimum(jj + hits(ATTACKER, ii), nd)
                    live = jj < nd
                    ii[live] = np.minimum(ii[live] + hits(DEFENDER, jj[live]), na)
                else:
                    ii = np.minimum(ii + hits(DEFENDER, jj), na)
                    live = ii < na
                    jj[live] = np.minimum(jj[live] + hits(ATTACKER, ii[live]), nd)
            done = (ii == na) | (jj == nd)
            endings.update((int(i), int(j), label, None)
                           for i, j in zip(ii[done], jj[done], strict=True))
            ii, jj = ii[~done], jj[~done]
            if phase < CLOSE:
                phase += 1
                continue
            rounds += 1
            att, dfd = self.retreat_masks(rounds)
            ga, gd = att[ii, jj], dfd[ii, jj]
            for side, gone in ((0, ga), (1, gd)):
                endings.update((int(i), int(j), label, side)
                               for i, j in zip(ii[gone], jj[gone], strict=True))
            keep = ~(ga | gd)
            ii, jj = ii[keep], jj[keep]
        for (i, j, label, side), n in endings.items():
            self.finish(i, j, label, side, float(n))
        self.flush(tally)
