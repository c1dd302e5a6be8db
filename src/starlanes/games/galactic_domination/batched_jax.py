"""Galactic Domination in JAX: the rules of :mod:`.batched` written for one game as pure
functions of arrays, ``vmap``-ed over games and compiled with ``jit`` (``jax`` and
``jaxlib`` needed; the ``jax`` extra). On a machine with an accelerator, JAX runs them
there; elsewhere on the CPU.

The layout is :class:`~.batched.GDBatch`'s, one game per row (:class:`GDState`, a pytree
of arrays with a leading games axis), so the numpy batch and this one hold the same
values after the same actions (``tests/interop/test_batched_jax.py`` checks them field by
field, with the masks and the tensors, in 1,152 random games, more on request). The chance
is each game's :class:`~starlanes.engine.GameRng`, one uint64 per game drawn as the
reference draws it: the same seed and the same action indices give the same game as
``load("galactic-domination", seed=...)``.

64-bit types: the generator's state is a uint64 and ``GameRng.random()`` a float64, so
every function here runs under ``jax.enable_x64(True)`` (:class:`JaxGD`'s methods enter
it themselves; a caller who composes the pure functions in its own ``jit`` or ``scan``
enters it around that code).

:class:`Rules` holds one option set's tables and the rules of one game (``init``,
``step``, ``current_player``; the mask and the tensor are in ``batched_jax_view``).
:class:`starlanes.envs.jax_batched.JaxGD` gives them compiled over many games (pgx's
style) and :class:`starlanes.envs.jax_batched.JaxBatchedEnv` the environment with
autoreset.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from starlanes.engine import StarlanesError
from starlanes.engine.rng import _INC, _MUL, _TO_FLOAT

from . import batched as nb
from .batched import (
    ACT,
    ACTING,
    AIM,
    AP,
    ARRIVE,
    ATT,
    CAPACITY,
    CHG,
    COLLIDE,
    EXPLORER,
    HULL,
    JSEC,
    NO_DECISION,
    OVER,
    PEND,
    RETURNS,
    SEC,
    SETUP,
    SH,
    SLOTS,
    TERMINAL,
    P,
)
from .batched_actions import effects

N70 = 2 * SLOTS


class GDState(NamedTuple):
    """The games as arrays, a leading axis of ``n`` games on each (one game: no axis).
    The fields and their meaning are :class:`~.batched.GDBatch`'s: ``ships`` int8
    [n, NF, 70] (``GDBatch.ships`` is [NF, n, 70]), ``rng`` uint64, ``seat``, ``first``,
    ``round``, ``phase``, ``act``, ``dec``, ``dec_seat``, ``dec_ship``, ``dec_zone``,
    ``dec_sector`` int32, ``minerals`` and ``dark`` int32 [n, 2], ``holes`` bool [n, 15],
    ``to_place`` int32 [n, 2, 5], ``start`` int32 [n, 2], ``ret`` float32 [n, 2]."""

    ships: Any
    rng: Any
    seat: Any
    first: Any
    round: Any
    phase: Any
    minerals: Any
    dark: Any
    holes: Any
    to_place: Any
    start: Any
    act: Any
    dec: Any
    dec_seat: Any
    dec_ship: Any
    dec_zone: Any
    dec_sector: Any
    ret: Any


INT_FIELDS = ("seat", "first", "round", "phase", "act", "dec", "dec_seat", "dec_ship",
              "dec_zone", "dec_sector")


def from_batch(b: nb.GDBatch) -> GDState:
    """The numpy batch ``b`` as a :class:`GDState` (numpy arrays, JAX's dtypes)."""
    fields = {name: getattr(b, name).astype(np.int32) for name in INT_FIELDS}
    return GDState(ships=np.ascontiguousarray(b.ships.transpose(1, 0, 2)), rng=b.rng.copy(),
                   minerals=b.minerals.astype(np.int32), dark=b.dark.astype(np.int32),
                   holes=b.holes.copy(), to_place=b.to_place.astype(np.int32),
                   start=b.start.astype(np.int32), ret=b.ret.astype(np.float32), **fields)


def need_x64() -> None:
    """Raises StarlanesError unless 64-bit types are on where this runs (tracing: the
    rules' uint64 generator and float64 chance would be cut to 32 bits, silently)."""
    if not jax.config.jax_enable_x64:
        raise StarlanesError("the JAX build of Galactic Domination needs 64-bit types: run "
                             "it under jax.enable_x64(True) (or set JAX_ENABLE_X64=1)")


def _where(pred: Any, a: GDState, b: GDState) -> GDState:
    """``a`` where ``pred`` (a scalar of one game) else ``b``, field by field."""
    return jax.tree.map(lambda x, y: jnp.where(pred, x, y), a, b)


class Rules:
    """One option set's tables as JAX constants, and the rules of one game over them
    (every method takes and returns one game's :class:`GDState`). Built from the numpy
    batch's :class:`~.batched.Tables` under ``jax.enable_x64(True)``."""

    def __init__(self, t: nb.Tables) -> None:
        self.t = t
        eff = effects(t)
        self.turn_limit = t.turn_limit
        self.roll_off = t.roll_off
        self.arrive_full = t.arrive_full
        self.size = t.size
        self.off = dict(t.off)
        names = t.family_names
        self.fam = {name: names.index(name) for name in names}
        self.family_of = jnp.asarray(t.family_of, jnp.int32)
        self.family_start = jnp.asarray(t.family_start, jnp.int32)
        self.eff_slot = jnp.asarray(eff.slot, jnp.int32)
        self.eff_keep = jnp.asarray(eff.keep)
        self.eff_values = jnp.asarray(eff.values)
        self.eff_ap_zero = jnp.asarray(eff.ap_zero)
        self.eff_minerals = jnp.asarray(eff.minerals, jnp.int32)
        self.eff_dark = jnp.asarray(eff.dark, jnp.int32)
        self.max_ap70 = jnp.asarray(t.max_ap70)
        self.max_sh70 = jnp.asarray(t.max_sh70)
        self.damage70 = jnp.asarray(t.damage70, jnp.int32)
        self.cost = jnp.asarray(t.cost, jnp.int32)
        self.new_ship = jnp.asarray(t.new_ship)
        self.per_miner = jnp.asarray(t.per_miner, jnp.int32)
        self.spin_minerals = jnp.asarray(t.spin_minerals, jnp.int32)
        self.spin_dark = jnp.asarray(t.spin_dark, jnp.int32)
        self.spin_size = int(t.spin_minerals.size)
        self.zone_of = jnp.asarray(t.zone_of, jnp.int32)
        self.start_zone = tuple(int(z) for z in t.start_zone)
        self.empty = jnp.asarray(nb.EMPTY)
        self.kind70 = jnp.asarray(nb.KIND70, jnp.int32)
        self.owner70 = jnp.asarray(nb.OWNER70, jnp.int32)
        self.group70 = jnp.asarray(nb.GROUP70, jnp.int32)
        first70 = np.searchsorted(nb.GROUP70, nb.GROUP70)  # each slot's type's first slot
        self.group_first70 = jnp.asarray(first70, jnp.int32)
        self.nonminer70 = jnp.asarray(nb.NONMINER70)
        self.first_slot = jnp.asarray(nb.FIRST, jnp.int32)
        self.mul = jnp.uint64(_MUL)
        self.inc = jnp.uint64(_INC)

    # ------------------------------------------------------------------ chance
    def draw(self, rng: Any) -> Any:
        """One step of the game's generator: its new state (uint64)."""
        return rng * self.mul + self.inc

    def random(self, rng: Any) -> tuple[Any, Any]:
        """``(new state, GameRng.random())``: a float64 in [0, 1)."""
        x = self.draw(rng)
        return x, (x >> jnp.uint64(11)).astype(jnp.float64) * _TO_FLOAT

    def d6(self, rng: Any) -> tuple[Any, Any]:
        """``(new state, GameRng.d6())``: an int32 1..6."""
        x = self.draw(rng)
        v = ((x >> jnp.uint64(11)) * jnp.uint64(6)) >> jnp.uint64(53)
        return x, v.astype(jnp.int32) + 1

    # ------------------------------------------------------------------ set-up
    def init(self, seed: Any) -> GDState:
        """A new game from ``seed`` (int64, as ``load(..., seed=)``): ``GDBatch.reset``.
        StarlanesError outside ``jax.enable_x64(True)`` (as :meth:`step`)."""
        need_x64()
        x = seed.astype(jnp.uint64) + jnp.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> jnp.uint64(30))) * jnp.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> jnp.uint64(27))) * jnp.uint64(0x94D049BB133111EB)
        rng = x ^ (x >> jnp.uint64(31))
        first = jnp.int32(0)
        if self.roll_off:  # GD-SET-06, ruling GD-OPEN-04: a tie is rolled again
            def roll(c: Any) -> Any:
                rng, _, _ = c
                rng, a = self.random(rng)
                rng, b = self.random(rng)
                return rng, (a * 10).astype(jnp.int32) + 1, (b * 10).astype(jnp.int32) + 1

            rng, r0, r1 = jax.lax.while_loop(lambda c: c[1] == c[2], roll,
                                             (rng, jnp.int32(0), jnp.int32(0)))
            first = jnp.where(r0 > r1, 0, 1).astype(jnp.int32)
        start = jnp.where(jnp.arange(2) == first, self.start_zone[0], self.start_zone[1])
        zero = jnp.int32(0)
        return GDState(
            ships=jnp.broadcast_to(self.empty[:, None], (nb.NF, N70)), rng=rng, seat=first,
            first=first, round=zero, phase=jnp.int32(SETUP),
            minerals=jnp.zeros(2, jnp.int32), dark=jnp.zeros(2, jnp.int32),
            holes=jnp.zeros(15, jnp.bool_), to_place=jnp.full((2, 5), 2, jnp.int32),
            start=start.astype(jnp.int32), act=jnp.int32(-1), dec=jnp.int32(NO_DECISION),
            dec_seat=zero, dec_ship=zero, dec_zone=zero, dec_sector=zero,
            ret=jnp.zeros(2, jnp.float32))

    # ------------------------------------------------------------------ queries
    def current_player(self, st: GDState) -> Any:
        """``GDBatch.current_player`` of one game: int32."""
        cp = jnp.where(st.dec != NO_DECISION, st.dec_seat, st.seat)
        return jnp.where(st.phase == OVER, TERMINAL, cp)

    def load(self, st: GDState) -> Any:
        """int32 [15]: the ships counting towards each sector's capacity (GD-MAP-04/06)."""
        sec = st.ships[SEC].astype(jnp.int32)
        counted = self.nonminer70 & (sec >= 0)
        return (counted[:, None] & (sec[:, None] == jnp.arange(15))).sum(0, dtype=jnp.int32)

    def arrival_sectors(self, st: GDState, zone: Any) -> Any:
        """bool [3]: ``GDBatch.arrival_sectors`` (GD-DS-05, ruling GD-OPEN-11)."""
        secs = zone * 3 + jnp.arange(3)
        ok = ~st.holes[secs]
        if not self.arrive_full:
            ok &= self.load(st)[secs] < CAPACITY
        return ok

    def jump_group(self, st: GDState, g: Any) -> Any:
        """bool [70]: ``GDBatch.jump_group`` (GD-SPC-09)."""
        s = st.ships
        jsec, here = s[JSEC, g], s[SEC, g]
        return ((s[P] != 0) & (s[JSEC] == jsec) & (s[SEC] == here)
                & (jnp.arange(N70) != g) & (g // SLOTS == self.owner70) & (jsec >= 0))

    # ------------------------------------------------------------------ ships
    def add_ship(self, st: GDState, owner: Any, kind: Any, sector: Any) -> GDState:
        """``GDBatch._add_ship`` (GD-BLD-05)."""
        s = st.ships
        count = ((s[P] != 0) & (self.group70 == owner * 5 + kind)).sum(dtype=jnp.int32)
        g = owner * SLOTS + self.first_slot[kind] + count
        s = s.at[:, g].set(self.new_ship[kind]).at[SEC, g].set(sector.astype(jnp.int8))
        return st._replace(ships=s)

    def compact(self, st: GDState) -> GDState:
        """``GDBatch._compact`` (GD-UNIT-08: ranks shift down): each ship in play goes to
        its type's first slot plus the number of its owner's ships of that type in play
        before it (no sort: the slots of a type are contiguous). The acting ship and a
        pending decision's explorer follow their ships."""
        s = st.ships
        keep = s[P] != 0
        before = jnp.cumsum(keep, dtype=jnp.int32) - keep  # ships in play before each slot
        rank = before - before[self.group_first70]
        dest = jnp.where(keep, self.group_first70 + rank, N70)  # N70: dropped
        src = jnp.full(N70, N70, jnp.int32).at[dest].set(jnp.arange(N70, dtype=jnp.int32),
                                                         mode="drop")  # a slot's ship
        sub = jnp.where(src < N70, s[:, jnp.minimum(src, N70 - 1)], self.empty[:, None])
        acting = sub[ACT] != 0
        dec_ship = jnp.where(st.dec != NO_DECISION, dest[st.dec_ship], st.dec_ship)
        return st._replace(ships=sub, act=jnp.where(acting.any(), jnp.argmax(acting),
                                                    -1).astype(jnp.int32),
                           dec_ship=dec_ship.astype(jnp.int32))

    def _destroy(self, st: GDState, lost: Any) -> GDState:
        """Ships ``lost`` (bool [70]) leave play (GD-UNIT-08) and the end is checked. The
        fleets are compacted later (:meth:`_settle`), once after the action and once after
        the explorers' returns: a check of the end reads the same ships either way."""
        after = st._replace(ships=st.ships.at[P].set(
            jnp.where(lost, 0, st.ships[P]).astype(jnp.int8)))
        return self.check_end(after)

    def _settle(self, st: GDState, alive: Any) -> GDState:
        """Compacts the fleets where a ship of ``alive`` (bool [70], the ships in play
        before) has left play; the state stays as it is otherwise (as the numpy batch's,
        which compacts only after a loss)."""
        return _where((alive & (st.ships[P] == 0)).any(), self.compact(st), st)

    def activate(self, st: GDState, g: Any) -> GDState:
        """``GDBatch._activate`` (GD-AP-08)."""
        s = st.ships
        prev = st.act
        m = (prev >= 0) & (prev != g)
        pi = jnp.maximum(prev, 0)
        s = s.at[AP, pi].set(jnp.where(m, 0, s[AP, pi]).astype(jnp.int8))
        s = s.at[ACT, pi].set(jnp.where(m, 0, s[ACT, pi]).astype(jnp.int8))
        return st._replace(ships=s.at[ACT, g].set(1), act=g.astype(jnp.int32))

    def end(self, st: GDState, ret: Any) -> GDState:
        return st._replace(phase=jnp.int32(OVER), dec=jnp.int32(NO_DECISION),
                           ret=ret.astype(jnp.float32))

    def check_end(self, st: GDState) -> GDState:
        """``GDBatch._check_end`` (GD-WIN-02/03, ruling GD-OPEN-12)."""
        s = st.ships
        on = ((s[P] != 0) & (s[SEC] >= 0)).reshape(2, SLOTS).any(1)
        live = (st.phase == RETURNS) | (st.phase == ACTING)
        over = live & ~(on[0] & on[1])
        ret = jnp.where(~(on[0] | on[1]), 0.5, on.astype(jnp.float32))
        return _where(over, self.end(st, ret), st)

    # ------------------------------------------------------------------ turns
    def start_turn(self, st: GDState, seat: Any) -> GDState:
        """``GDBatch._start_turn`` (GD-TURN-02..05, GD-SPC-02/03/09, ruling GD-OPEN-14)."""
        s = st.ships.at[ACT].set(0)
        new_round = seat == st.first
        rnd = st.round + new_round
        st = st._replace(seat=seat, act=jnp.int32(-1), dec=jnp.int32(NO_DECISION), ships=s,
                         round=rnd)
        limit = new_round & (rnd > self.turn_limit)
        ended = self.end(st, jnp.full(2, 0.5))
        own = seat == self.owner70
        sh = s[SH]
        sh = jnp.where(own & (sh < self.max_sh70), sh + 1, sh)
        chg = jnp.where(own & (s[CHG] == 1), 2, s[CHG])
        ap = jnp.where(own, self.max_ap70, s[AP])
        sec = s[SEC].astype(jnp.int32)
        present = s[P] != 0
        attached = present & (s[ATT] != 0) & (sec >= 0)
        at = jnp.where(attached, sec, 15)
        per = (at[:, None] == jnp.arange(16)).sum(0, dtype=jnp.int32)  # [16]
        yields = self.per_miner[per[at]]
        gain = jnp.where(attached & own, yields, 0).sum(dtype=jnp.int32)
        jsec = jnp.where(own & present, s[SEC], -1)
        pend = own & present & (self.kind70 == EXPLORER) & (sec < 0)
        s = (s.at[SH].set(sh.astype(jnp.int8)).at[CHG].set(chg.astype(jnp.int8))
             .at[AP].set(ap.astype(jnp.int8)).at[JSEC].set(jsec.astype(jnp.int8))
             .at[PEND].set(pend.astype(jnp.int8)))
        turned = st._replace(ships=s, minerals=st.minerals.at[seat].add(gain),
                             phase=jnp.int32(RETURNS))
        return _where(limit, ended, turned)

    def end_turn(self, st: GDState) -> GDState:
        """``GDBatch._end_turn`` (ruling GD-OPEN-14; rulings GD-OPEN-06/08)."""
        s = st.ships
        own = st.seat == self.owner70
        charged = own & (s[CHG] == 2)
        s = (s.at[AP].set(jnp.where(own, 0, s[AP]).astype(jnp.int8))
             .at[CHG].set(jnp.where(charged, 0, s[CHG]).astype(jnp.int8))
             .at[AIM].set(jnp.where(charged, -1, s[AIM]).astype(jnp.int8)))
        return self.start_turn(st._replace(ships=s), 1 - st.seat)

    def land(self, st: GDState, g: Any, sector: Any) -> GDState:
        """``GDBatch._land``: a black hole (GD-BH-03), a collision (GD-DS-06, ruling
        GD-OPEN-10) or the arrival."""
        s = st.ships
        lost = self._destroy(st, jnp.arange(N70) == g)
        here = (s[SEC] == sector) & (s[P] != 0)
        full = (here & self.nonminer70).sum() >= CAPACITY
        owner = g // SLOTS
        enemy = (here & self.nonminer70 & (owner != self.owner70)).any()
        collide = st._replace(dec=jnp.int32(COLLIDE),
                              dec_seat=jnp.where(enemy, 1 - owner, owner).astype(jnp.int32),
                              dec_ship=g.astype(jnp.int32),
                              dec_sector=sector.astype(jnp.int32))
        s = (s.at[SEC, g].set(sector.astype(jnp.int8)).at[ATT, g].set(0).at[CHG, g].set(0)
             .at[AIM, g].set(-1))
        arrived = st._replace(ships=s)
        return _where(st.holes[sector], lost, _where(full, collide, arrived))

    def _return_one(self, st: GDState) -> GDState:
        """One turn of ``GDBatch._returns``' loop for a game in RETURNS with no decision:
        the next explorer returns (GD-TURN-05, GD-DS-03..08, ruling GD-OPEN-05), or the
        game goes on to spend AP (GD-TURN-06)."""
        s = st.ships
        seat = st.seat
        own = seat * SLOTS
        pend = jax.lax.dynamic_slice(s[PEND], (own + nb.FIRST[EXPLORER],), (5,)) != 0
        g = own + nb.FIRST[EXPLORER] + jnp.argmax(pend).astype(jnp.int32)
        rng, d10 = self.random(st.rng)
        zone = ((d10 * 10).astype(jnp.int32) + 2) // 2 - 1
        rng, spin = self.random(rng)
        seg = (spin * self.spin_size).astype(jnp.int32)
        st1 = st._replace(ships=s.at[PEND, g].set(0), rng=rng,
                          minerals=st.minerals.at[seat].add(self.spin_minerals[seg]),
                          dark=st.dark.at[seat].add(self.spin_dark[seg]))
        cg = own + jnp.arange(5)
        cmd = ((s[P, cg] != 0) & (self.zone_of[s[SEC, cg] & 15] == zone)).any()
        pick = cmd & self.arrival_sectors(st1, zone).any()
        picked = st1._replace(dec=jnp.int32(ARRIVE), dec_seat=seat, dec_ship=g,
                              dec_zone=zone)
        rng2, d6 = self.d6(rng)
        rolled = self.land(st1._replace(rng=rng2), g, zone * 3 + (d6 + 1) // 2 - 1)
        returned = _where(pick, picked, rolled)
        return _where(pend.any(), returned, st._replace(phase=jnp.int32(ACTING)))

    def returns(self, st: GDState) -> GDState:
        """``GDBatch._returns``: explorers come back until a decision is needed or none is
        left. An explorer lost in a black hole leaves a gap until the loop ends, then the
        fleets are compacted once (the numpy batch compacts at each loss: the same ships
        end in the same slots, and the pending explorer's slot is carried along)."""
        alive = st.ships[P] != 0
        out = jax.lax.while_loop(
            lambda x: (x.phase == RETURNS) & (x.dec == NO_DECISION), self._return_one, st)
        return self._settle(out, alive)

    # ------------------------------------------------------------------ step
    def _ship_action(self, st: GDState, a: Any, fam: Any) -> GDState:
        """``batched_actions._ship_actions`` for one game."""
        seat = st.seat
        g = seat * SLOTS + self.eff_slot[a]
        aim = st.ships[AIM, g].astype(jnp.int32)
        group = self.jump_group(st, g)
        st = self.activate(st, g)
        old = st.ships[:, g]
        new = jnp.where(self.eff_keep[a], old, self.eff_values[a])
        new = new.at[AP].set(jnp.where(self.eff_ap_zero[a], 0, old[AP] - 1).astype(jnp.int8))
        st = st._replace(ships=st.ships.at[:, g].set(new),
                         minerals=st.minerals.at[seat].add(-self.eff_minerals[a]),
                         dark=st.dark.at[seat].add(-self.eff_dark[a]))
        f = self.fam
        # attack (GD-AP-05): shields first, the rest on the hull (GD-UNIT-04/05, ruling
        # GD-OPEN-09); hull 0 destroys the ship (GD-UNIT-08)
        target = (1 - seat) * SLOTS + (a - self.off["attack"]) % SLOTS
        dmg = self.damage70[g]
        s = st.ships
        sh = s[SH, target].astype(jnp.int32)
        hull = s[HULL, target].astype(jnp.int32)
        over = dmg > sh
        hull = jnp.where(over, hull - (dmg - sh), hull)
        s = (s.at[SH, target].set(jnp.where(over, 0, sh - dmg).astype(jnp.int8))
             .at[HULL, target].set(jnp.maximum(hull, 0).astype(jnp.int8)))
        hit = self._destroy(st._replace(ships=s), (jnp.arange(N70) == target) & (hull <= 0))
        st = _where(fam == f["attack"], hit, st)
        # warp: the player may be left with no ship on the board (GD-WIN-02)
        st = _where(fam == f["warp"], self.check_end(st), st)
        # fire: a black hole at the aim destroys everything there (GD-BH-01/02)
        holed = st._replace(holes=st.holes.at[aim & 15].set(True))
        lost = (holed.ships[SEC] == aim) & (holed.ships[P] != 0)
        holed = self._destroy(holed, lost)
        st = _where(fam == f["fire"], holed, st)
        # jump: the group goes along and detaches (GD-SPC-08, ruling GD-OPEN-08)
        s = st.ships
        jumped = s.at[SEC].set(jnp.where(group, new[SEC], s[SEC])) \
            .at[ATT].set(jnp.where(group, 0, s[ATT]).astype(jnp.int8))
        return _where(fam == f["jump"], st._replace(ships=jumped), st)

    def _place(self, st: GDState, arg: Any) -> GDState:
        """``batched_actions._place`` (GD-SET-04)."""
        seat = st.seat
        kind, sector = arg // 15, arg % 15
        tp = st.to_place.at[seat, kind].add(-1)
        st = self.add_ship(st._replace(to_place=tp), seat, kind, sector)
        other_left = tp[1 - seat].any()
        st = st._replace(seat=jnp.where(other_left, 1 - seat, seat).astype(jnp.int32))
        done = ~other_left & ~tp[seat].any()
        started = self.start_turn(st._replace(phase=jnp.int32(RETURNS)), st.first)
        return _where(done, started, st)

    def _build(self, st: GDState, arg: Any) -> GDState:
        """``batched_actions._build`` (GD-BLD-01..05)."""
        seat = st.seat
        kind, sector = arg // 15, arg % 15
        st = st._replace(minerals=st.minerals.at[seat].add(-self.cost[kind]))
        return self.add_ship(st, seat, kind, sector)

    def _arrive(self, st: GDState, arg: Any) -> GDState:
        """``batched_actions._arrive`` (GD-DS-05)."""
        st = st._replace(dec=jnp.int32(NO_DECISION))
        return self.land(st, st.dec_ship, arg % 15)

    def _sacrifice(self, st: GDState, arg: Any) -> GDState:
        """``batched_actions._sacrifice`` (GD-DS-06)."""
        st = st._replace(dec=jnp.int32(NO_DECISION))
        lost = (jnp.arange(N70) == st.dec_ship) | (jnp.arange(N70) == st.dec_seat * SLOTS + arg)
        return self._destroy(st, lost)

    def step(self, st: GDState, action: Any) -> GDState:
        """One legal action index (int) applied to one game (``GDBatch.step``); a finished
        game stays as it is. Nothing is checked: an illegal index gives a game no rule
        allows. StarlanesError outside ``jax.enable_x64(True)``."""
        need_x64()
        live = st.phase != OVER
        a = jnp.where(live, action, 0).astype(jnp.int32)
        fam = self.family_of[a]
        arg = a - self.family_start[fam]
        f = self.fam
        out = self._ship_action(st, a, fam)
        for name, handler in (("end", lambda x, _: self.end_turn(x)), ("place", self._place),
                              ("build", self._build), ("arrive", self._arrive),
                              ("sacrifice", self._sacrifice)):
            out = _where(fam == f[name], handler(st, arg), out)
        out = _where(live, self._settle(out, st.ships[P] != 0), st)
        return self.returns(out)
