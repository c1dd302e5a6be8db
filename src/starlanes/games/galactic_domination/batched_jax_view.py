"""What a seat sees of a Galactic Domination game in JAX: the legal action mask and the
observation tensor of one game of :mod:`.batched_jax` (``vmap`` them over games).

The same values as the numpy batch's :func:`.batched_masks.legal_mask` (the reference's
legal indices) and :func:`.batched_obs.observation` (``tensor.encode`` clipped as the
research adapters clip it), made whole from the state: JAX has no in-place writes to keep
a tensor up to date between steps, and on an accelerator making it whole is cheap.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np

from . import batched as nb
from .batched import (
    ACTING,
    AIM,
    AP,
    ARRIVE,
    ATT,
    CAPACITY,
    CHG,
    COLLIDE,
    DESTROYER,
    HULL,
    MINER,
    SEC,
    SETUP,
    SH,
    SLOTS,
    TEAM_MAX,
    P,
)
from .batched_jax import N70, GDState, Rules, need_x64
from .batched_obs import HEAD, HIGH, PER_SHIP


class View:
    """The mask and tensor of one game under one option set's :class:`~.batched_jax.Rules`
    (tables as JAX constants)."""

    def __init__(self, rules: Rules) -> None:
        t = rules.t
        self.rules = rules
        self.size = t.size
        self.span = t.family_span
        self.order = t.family_names
        rows = t.bit_rows  # a sector set -> its 15 flags
        self.adj = jnp.asarray(rows[t.adj_bits])  # [16, 15]; row 15 (off the board) empty
        self.reach = jnp.asarray(rows[t.reach_bits])  # [5, 16, 15]
        self.jump = jnp.asarray(rows[t.jump_bits])  # [16, 15]
        self.zone = jnp.asarray(rows[t.zone_bits])  # [5, 15]
        kind = nb.KIND_OF_SLOT
        self.kind35 = jnp.asarray(kind, jnp.int32)
        self.nonminer35 = jnp.asarray(kind != MINER)
        self.miner35 = jnp.asarray(kind == MINER)
        self.explorer35 = jnp.asarray(kind == nb.EXPLORER)
        self.destroyer35 = jnp.asarray(kind == DESTROYER)
        self.command35 = jnp.asarray(kind == nb.COMMAND)
        self.caps = jnp.asarray(nb.CAPS, jnp.int32)
        self.min_cost = int(t.cost.min())
        self.markers = int(t.markers)
        self.bh_dark, self.bh_minerals = int(t.bh_dark), int(t.bh_minerals)
        self.jump_minerals = int(t.jump_minerals)
        # a type's maxima per slot, as float64 (0 shields: the fraction is 0, not 0/0)
        self.max_sh = jnp.asarray(np.maximum(t.max_sh70, 1), jnp.float64)
        self.max_hull = jnp.asarray(t.max_hull[nb.KIND70], jnp.float64)
        self.max_ap = jnp.asarray(t.max_ap70, jnp.float64)
        self.turn_limit = int(t.turn_limit)

    # ------------------------------------------------------------------ mask
    def legal_mask(self, st: GDState) -> Any:
        """bool [A]: the legal actions of the seat to act (all False in a finished game):
        set-up placement (GD-SET-04), an arrival (GD-DS-05) or collision (GD-DS-06)
        decision, else the spending step (GD-AP-*, GD-BLD-*, GD-SPC-*). StarlanesError
        outside ``jax.enable_x64(True)``."""
        need_x64()
        r = self.rules
        s = st.ships
        seat = st.seat
        mine = seat * SLOTS + jnp.arange(SLOTS)
        theirs = (1 - seat) * SLOTS + jnp.arange(SLOTS)
        sec = s[SEC, mine].astype(jnp.int32)
        ap, chg, att = s[AP, mine], s[CHG, mine], s[ATT, mine]
        aim = s[AIM, mine].astype(jnp.int32)
        present = s[P, mine] != 0
        opp_sec = s[SEC, theirs].astype(jnp.int32)
        acting = st.phase == ACTING
        load = r.load(st)
        full = load >= CAPACITY
        holes = st.holes
        sec16 = sec & 15
        can = (ap > 0) & (sec >= 0) & acting
        free = can & (chg != 2)
        out: dict[str, Any] = {"end": acting[None]}
        # moves: adjacent, no black hole, room unless a miner (GD-AP-04, GD-MAP-05/06)
        out["move"] = (free[:, None] & self.adj[sec16] & ~holes
                       & ~(full & self.nonminer35[:, None]))
        # attacks: an armed ship's reach holds the target's sector (GD-AP-05, GD-RNG-*)
        reach = self.reach[self.kind35, sec16]  # [35, 15]
        on = opp_sec >= 0
        hits = jnp.take_along_axis(reach, jnp.broadcast_to(opp_sec & 15, (SLOTS, SLOTS)), 1)
        out["attack"] = (free & self.nonminer35)[:, None] & on[None] & hits
        # attach (GD-SPC-01) and warp (GD-DS-01)
        out["attach"] = free & self.miner35 & (att == 0)
        out["warp"] = free & self.explorer35
        # black hole shot (GD-SPC-04..06, ruling GD-OPEN-06)
        money, dark = st.minerals[seat], st.dark[seat]
        left = self.markers - holes.sum()
        shot_ok = (dark >= self.bh_dark) & (money >= self.bh_minerals) & (left > 0)
        reach_d = self.reach[DESTROYER, sec16]  # [35, 15]
        out["charge_shot"] = ((free & self.destroyer35 & (chg == 0) & shot_ok)[:, None]
                              & reach_d & ~holes)
        aimed = jnp.take_along_axis(reach_d & ~holes, (aim & 15)[:, None], 1)[:, 0]
        out["fire"] = can & self.destroyer35 & (chg == 2) & (left > 0) & (aim >= 0) & aimed
        # fleet jump (GD-SPC-07..09, ruling GD-OPEN-08)
        out["charge_jump"] = free & self.command35 & (chg == 0) & (money >= self.jump_minerals)
        charged = can & self.command35 & (chg == 2)
        need = 1 + jnp.stack([(r.jump_group(st, seat * SLOTS + c) & r.nonminer70).sum()
                              for c in range(5)])  # the five command slots
        need = jnp.concatenate([need, jnp.zeros(SLOTS - 5, need.dtype)])
        room = load[None] + need[:, None] <= CAPACITY
        out["jump"] = charged[:, None] & self.jump[sec16] & ~holes & room
        # build (GD-BLD-01..05, GD-LIM-01..03, ruling GD-OPEN-15)
        counts = jnp.stack([(present & (self.kind35 == k)).sum() for k in range(5)])
        zone = self.zone[st.start[seat]]
        ok = (acting & (money >= self.min_cost) & (counts.sum() < TEAM_MAX)
              & (r.cost <= money) & (counts < self.caps))
        room = jnp.where((jnp.arange(5) == MINER)[:, None], False, full[None])
        out["build"] = ok[:, None] & (zone & ~holes)[None] & ~room
        # set-up (GD-SET-04)
        left_to_place = st.to_place[seat] > 0
        out["place"] = (st.phase == SETUP) & left_to_place[:, None] & zone[None] & ~room
        # an arrival (GD-DS-05) or a collision (GD-DS-06, ruling GD-OPEN-10)
        slot = st.dec_ship - st.dec_seat * SLOTS
        cols = st.dec_zone * 3 + jnp.arange(3)
        secs = jnp.zeros(15, jnp.bool_).at[cols].set(r.arrival_sectors(st, st.dec_zone))
        out["arrive"] = ((st.dec == ARRIVE) & (jnp.arange(SLOTS) == slot))[:, None] & secs
        defender = st.dec_seat * SLOTS + jnp.arange(SLOTS)
        out["sacrifice"] = ((st.dec == COLLIDE) & (s[P, defender] != 0)
                            & (s[SEC, defender] == st.dec_sector) & self.nonminer35)
        parts = []
        for name in self.order:
            lo, hi = self.span[name]
            parts.append(out[name].reshape(-1))
            assert parts[-1].shape == (hi - lo,), name
        return jnp.concatenate(parts)

    # ------------------------------------------------------------------ tensor
    def observe(self, st: GDState, seat: Any) -> Any:
        """float32 [N]: the game seen from ``seat`` (0 or 1), as
        :func:`.batched_obs.observation` makes it: the head, then 41 values per ship slot,
        the observing seat's fleet first. StarlanesError outside
        ``jax.enable_x64(True)`` (the fractions are float64 divisions, as the
        reference's)."""
        need_x64()
        r = self.rules
        other = 1 - seat
        cur = r.current_player(st)
        head = jnp.concatenate([
            (jnp.arange(4) == st.phase).astype(jnp.float32),
            jnp.stack([st.seat == seat, st.first == seat, cur == seat]).astype(jnp.float32),
            (st.round.astype(jnp.float64) / self.turn_limit).astype(jnp.float32)[None],
            jnp.minimum(jnp.stack([st.minerals[seat], st.minerals[other], st.dark[seat],
                                   st.dark[other]]), HIGH).astype(jnp.float32),
            st.holes.astype(jnp.float32),
            st.to_place[seat].astype(jnp.float32), st.to_place[other].astype(jnp.float32)])
        assert head.shape == (HEAD,)
        own = seat * SLOTS + jnp.arange(SLOTS)
        g = jnp.concatenate([own, (own + SLOTS) % N70])
        s = st.ships[:, g].astype(jnp.int32)
        sec, sh, hull, ap, att, chg, aim = (s[f] for f in (SEC, SH, HULL, AP, ATT, CHG, AIM))
        col = jnp.arange(PER_SHIP)
        one = ((col == 0)[None] | (col == 1 + (sec & 15)[:, None])
               | (col == 21 + jnp.minimum(chg, 2)[:, None])
               | (col == 24 + jnp.where(chg > 0, aim & 15, 15)[:, None]))
        frac = jnp.stack([sh / self.max_sh[g], hull / self.max_hull[g], ap / self.max_ap[g]],
                         1).astype(jnp.float32)  # float64 division, as the reference's
        vals = jnp.where(one, 1.0, 0.0).astype(jnp.float32)
        vals = vals.at[:, 17:20].set(frac).at[:, 20].set(att.astype(jnp.float32))
        vals = vals.at[:, PER_SHIP - 1].set((st.act == g).astype(jnp.float32))
        vals = jnp.where((hull > 0)[:, None], vals, 0.0)  # an empty slot: all zeros
        return jnp.concatenate([head, vals.reshape(-1)])
