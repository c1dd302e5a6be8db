"""Galactic Domination over arrays: B games stepped at once with numpy (no Python loop over
games in the common path).

The same rules as the reference modules (``setup``, ``turn``, ``fleet``, ``specials``),
written over arrays, with the same chance: each game's :class:`~starlanes.engine.GameRng`
is one uint64 of ``rng``, seeded and drawn exactly as the reference does
(``starlanes.engine.rng_arrays``: its seeding, ``random()``, ``d6()``), so the same seed and the same action indices give the same game.
The turn structure is here; the effects of actions are in ``batched_actions``, legal
masks in ``batched_masks``, observation tensors in ``batched_obs``.

Ships are stored by **slot**, as the fixed action space numbers them (``action_space``):
slot ``owner * 35 + s``, where ``s`` is the unit type's first slot (command 0, explorer 5,
miner 10, destroyer 25, raider 30) plus the ship's rank among its owner's ships of that
type by increasing ship number. A new ship always has the highest number, so it takes the
first free slot of its type; a destroyed ship's later ranks shift down (:meth:`_compact`).
Ship numbers themselves are not kept: what the reference finds by number (the acting ship,
the returning explorer, the jump group) is kept by slot or as a per-ship field.

Per-ship fields, ``ships[field, game, slot]`` (int8): ``P`` present, ``SEC`` sector (-1:
deep space), ``SH`` shields, ``HULL``, ``AP``, ``ATT`` attached, ``CHG`` charge (0 none, 1
charging, 2 charged), ``AIM`` black hole aim (-1 none), ``JSEC`` the sector the ship held
at the start of its owner's turn (-1: none; the jump group, GD-SPC-09), ``PEND`` waits to
return from deep space this turn (GD-TURN-05), ``ACT`` is the acting ship (GD-AP-08).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from starlanes.engine import BadOptionError, load
from starlanes.engine import rng_arrays as ra

P, SEC, SH, HULL, AP, ATT, CHG, AIM, JSEC, PEND, ACT = range(11)
NF = 11
SLOTS = 35
"""Slots per fleet: 5 command, 5 explorer, 15 miner, 5 destroyer, 5 raider (GD-LIM-01..03)."""
CAPS = (5, 5, 15, 5, 5)
FIRST = (0, 5, 10, 25, 30)
COMMAND, EXPLORER, MINER, DESTROYER, RAIDER = range(5)
SETUP, RETURNS, ACTING, OVER = range(4)
"""Phases, in the tensor's order of its phase flags (setup, returns, act, over)."""
NO_DECISION, ARRIVE, COLLIDE = range(3)
TERMINAL = -4
"""``current_player`` of a finished game, as the engine's."""
CAPACITY = 3
TEAM_MAX = 25
EMPTY = np.array([0, -1, 0, 0, 0, 0, 0, -1, -1, 0, 0], dtype=np.int8)
"""The fields of an empty slot."""
KIND_OF_SLOT = np.repeat(np.arange(5), CAPS)
KIND70 = np.concatenate([KIND_OF_SLOT, KIND_OF_SLOT])
OWNER70 = np.repeat(np.arange(2), SLOTS)
GROUP70 = OWNER70 * 5 + KIND70
"""Owner and type of each slot: nondecreasing along the slots (what compaction sorts by)."""
NONMINER70 = KIND70 != MINER
_NOT_COUNTED = np.where(NONMINER70, 0, -1).astype(np.int8)
"""OR-ed into a slot's sector, sends a miner to the "not on the board" bin (GD-MAP-06)."""
SUPPORTED_OPTIONS = ("turn_limit", "roll_off", "charge_ends_turn", "arrive_full", "content",
                     "content_set")


def _bits(flags: Any) -> int:
    return int(sum(1 << i for i, f in enumerate(flags) if f))


class Tables:
    """Static tables of one game's options and content (units, board, economy), as numpy
    arrays: unit statistics per slot, sector bit sets (bit ``t`` is sector ``t``; index 15
    of a per-sector table stands for "not on the board" and is empty) for adjacency
    (``adj_bits``), attack reach per type (``reach_bits[kind, sector]``, GD-RNG-*), jump
    distance 1..range (``jump_bits``, ruling GD-OPEN-08), the start zones, and the action
    space's family offsets (``off[verb]``; the charge families are ``charge_shot`` and
    ``charge_jump``)."""

    def __init__(self, game: Any) -> None:
        content = game.content
        board = content.board
        units = content.units
        if len(board.names) != 15 or len(units) != 5:
            raise BadOptionError("the batched engine needs a board of 15 sectors and 5 units")
        for u in units:
            if max(u.ap, u.shields, u.hull, abs(u.damage)) > 100:
                raise BadOptionError(f"unit {u.id}: statistics above 100 are not supported "
                                     "by the batched engine (int8 fields)")
        self.game = game
        opts = game.options
        self.turn_limit = int(opts["turn_limit"])
        self.roll_off = bool(opts["roll_off"])
        self.charge_ends_turn = bool(opts["charge_ends_turn"])
        self.arrive_full = bool(opts["arrive_full"])
        self.max_ap = np.array([u.ap for u in units], np.int8)
        self.damage = np.array([u.damage for u in units], np.int8)
        self.max_sh = np.array([u.shields for u in units], np.int8)
        self.max_hull = np.array([u.hull for u in units], np.int8)
        self.cost = np.array([u.cost for u in units], np.int64)
        self.max_ap70 = self.max_ap[KIND70]
        self.max_sh70 = self.max_sh[KIND70]
        self.damage70 = self.damage[KIND70]
        new = np.zeros((5, NF), np.int8)
        new[:] = EMPTY
        new[:, P] = 1
        new[:, SH] = self.max_sh
        new[:, HULL] = self.max_hull
        new[:, AP] = self.max_ap
        self.new_ship = new
        """The fields of a new ship of each type (GD-BLD-05), sector still to set."""
        self.adj_bits = np.zeros(16, np.int16)
        self.jump_bits = np.zeros(16, np.int16)
        self.reach_bits = np.zeros((5, 16), np.int16)
        jump_range = content.specials.jump_range
        reach = game.new_initial_state().reach  # per type and sector (GD-RNG-01..07)
        for s in range(15):
            self.adj_bits[s] = _bits(t in board.adj[s] for t in range(15))
            self.jump_bits[s] = _bits(1 <= board.dist[s][t] <= jump_range for t in range(15))
            for k in range(5):
                self.reach_bits[k, s] = _bits(t in reach[k][s] for t in range(15))
        self.reach35 = self.reach_bits[KIND_OF_SLOT].ravel()
        """Attack reach by ship slot then sector: index ``16 * slot + sector``."""
        self.zone_bits = np.array([_bits(s // 3 == z for s in range(15)) for z in range(5)],
                                  np.int16)
        self.zone_of = np.array(list(board.zone_of) + [-1], np.int64)
        self.start_zone = board.start_zone
        self.per_miner = np.array([content.per_miner(n) for n in range(71)], np.int64)
        seg = content.spinner
        self.spin_minerals = np.array([seg[i].minerals for i in content.spin_table], np.int64)
        self.spin_dark = np.array([seg[i].dark_matter for i in content.spin_table], np.int64)
        sp = content.specials
        self.bh_minerals = sp.black_hole_minerals
        self.bh_dark = sp.black_hole_dark_matter
        self.jump_minerals = sp.jump_minerals
        self.markers = sp.black_hole_markers
        space = game.action_space()
        self.size = space.size
        self.off: dict[str, int] = {}
        for name, verb, arity in (
                ("end", "end", 0), ("place", "place", 2), ("build", "build", 2),
                ("move", "move", 2), ("attack", "attack", 2), ("attach", "attach", 1),
                ("warp", "warp", 1), ("charge_shot", "charge", 2), ("fire", "fire", 1),
                ("charge_jump", "charge", 1), ("jump", "jump", 2), ("arrive", "arrive", 2),
                ("sacrifice", "sacrifice", 1)):
            found = space.family(verb, arity)
            if found is None:  # pragma: no cover - the families are fixed
                raise BadOptionError(f"no {verb!r} family in the action space")
            self.off[name] = found[0]
        order = sorted(self.off.items(), key=lambda kv: kv[1])
        self.family_names = tuple(name for name, _ in order)
        starts = np.array([o for _, o in order], np.int64)
        self.family_of = np.searchsorted(starts, np.arange(self.size), side="right") - 1
        """Action index -> family number (position in ``family_names``)."""
        self.family_start = starts
        ends = [*starts[1:].tolist(), self.size]
        self.family_span = {name: (int(lo), hi)
                            for name, lo, hi in zip(self.family_names, starts, ends, strict=True)}
        """Family name -> its index range [lo, hi)."""
        bits = np.arange(1 << 15, dtype=np.int64)
        self.bit_rows = ((bits[:, None] >> np.arange(15)) & 1).astype(np.bool_)
        """A 15-bit sector set -> its 15 flags (the mask's per-sector rows)."""
        self.bit_items = self.bit_rows.view(np.dtype((np.void, 15))).reshape(-1)
        """``bit_rows``, each row one item."""


def resolve_game(options: dict[str, Any]) -> Any:
    """The reference Game for ``options`` (validated by its option set: BadOptionError for
    an unknown option or a bad value). Every option of the game is supported."""
    for name in options:
        if name not in SUPPORTED_OPTIONS:
            raise BadOptionError(f"option {name!r} is not supported by the batched "
                                 f"Galactic Domination (supported: {', '.join(SUPPORTED_OPTIONS)})")
    return load("galactic-domination", seed=0, **options)


class GDBatch:
    """``n`` games of Galactic Domination as arrays (see the module docstring).

    Per game: ``rng`` uint64 (the game's GameRng state), ``seat`` (whose turn), ``first``
    (the seat that is player 1), ``round``, ``phase`` (SETUP, RETURNS, ACTING, OVER),
    ``minerals`` and ``dark`` [n, 2], ``holes`` [n, 15] bool, ``to_place`` [n, 2, 5],
    ``start`` [n, 2] start zones, ``act`` the acting ship's slot (-1: none), the pending
    decision ``dec`` (NO_DECISION, ARRIVE, COLLIDE) with its seat ``dec_seat``, explorer
    slot ``dec_ship``, zone ``dec_zone`` and sector ``dec_sector`` (GD-DS-05/06), and
    ``ret`` [n, 2] float64, the reference's ``returns()``. Ships in ``ships`` [NF, n, 70].
    Construct with the game's options (BadOptionError for an unknown one); games start
    unset: call :meth:`reset`."""

    def __init__(self, n: int, **options: Any) -> None:
        self.n = n
        self.t = Tables(resolve_game(options))
        self.ships = np.zeros((NF, n, 2 * SLOTS), np.int8)
        self.ships[:] = EMPTY[:, None, None]
        self._load: tuple[np.ndarray, np.ndarray] | None = None
        """``load()``'s kept sectors [n, 70] and counts [n, 16] (made at its first call)."""
        self.mask_record: Any = None
        """``batched_masks.legal_mask``'s record of its last call with an ``out``
        (``batched_masks.MaskRecord``)."""
        self.rng = np.zeros(n, np.uint64)
        self.seat = np.zeros(n, np.int64)
        self.first = np.zeros(n, np.int64)
        self.round = np.zeros(n, np.int64)
        self.phase = np.full(n, OVER, np.int64)
        self.minerals = np.zeros((n, 2), np.int64)
        self.dark = np.zeros((n, 2), np.int64)
        self.holes = np.zeros((n, 15), np.bool_)
        self.to_place = np.zeros((n, 2, 5), np.int64)
        self.start = np.zeros((n, 2), np.int64)
        self.act = np.full(n, -1, np.int64)
        self.dec = np.zeros(n, np.int64)
        self.dec_seat = np.zeros(n, np.int64)
        self.dec_ship = np.zeros(n, np.int64)
        self.dec_zone = np.zeros(n, np.int64)
        self.dec_sector = np.zeros(n, np.int64)
        self.ret = np.zeros((n, 2), np.float64)

    # ------------------------------------------------------------------ chance
    def _random(self, rows: np.ndarray) -> np.ndarray:
        """``GameRng.random()`` of each game in ``rows``: float64 in [0, 1)."""
        return ra.random(self.rng, rows)

    def _d6(self, rows: np.ndarray) -> np.ndarray:
        """``GameRng.d6()`` of each game in ``rows``: int64 1..6."""
        return ra.d6(self.rng, rows)

    # ------------------------------------------------------------------ set-up
    def reset(self, rows: np.ndarray, seeds: Any) -> None:
        """Start new games in ``rows`` (int array) from ``seeds`` (ints, any 64-bit value,
        as ``load(..., seed=)``): 0 minerals (GD-SET-05), 2 ships of each type to place
        (GD-SET-03), player 1 by seat order or the D10 roll-off (GD-SET-06, ruling
        GD-OPEN-04: a tie is rolled again), player 1 in the red zone (GD-MAP-03)."""
        rows = np.asarray(rows, np.int64)
        ra.seed(self.rng, rows, seeds)
        self.ships[:, rows] = EMPTY[:, None, None]
        self.round[rows] = 0
        self.phase[rows] = SETUP
        self.minerals[rows] = 0
        self.dark[rows] = 0
        self.holes[rows] = False
        self.to_place[rows] = 2
        self.act[rows] = -1
        self.dec[rows] = NO_DECISION
        self.ret[rows] = 0.0
        first = np.zeros(rows.size, np.int64)
        if self.t.roll_off:
            todo = np.arange(rows.size)
            while todo.size:
                r0 = (self._random(rows[todo]) * 10).astype(np.int64) + 1
                r1 = (self._random(rows[todo]) * 10).astype(np.int64) + 1
                done = r0 != r1
                first[todo[done]] = np.where(r0[done] > r1[done], 0, 1)
                todo = todo[~done]
        self.first[rows] = first
        self.seat[rows] = first
        self.start[rows, first] = self.t.start_zone[0]
        self.start[rows, 1 - first] = self.t.start_zone[1]

    # ------------------------------------------------------------------ queries
    def current_player(self) -> np.ndarray:
        """The seat to act in each game, int64 [n]: the pending decision's seat, else the
        seat whose turn it is; TERMINAL (-4) for a finished game."""
        cp = np.where(self.dec != NO_DECISION, self.dec_seat, self.seat)
        return np.where(self.phase == OVER, TERMINAL, cp)

    def terminal(self) -> np.ndarray:
        """bool [n]: the game is over."""
        return self.phase == OVER

    def returns(self) -> np.ndarray:
        """float64 [n, 2], the reference's ``returns()``: 1 to the winner, 0.5 each on a
        draw (ruling GD-OPEN-12, turn limit), 0 while the game goes on."""
        return self.ret.copy()

    def load(self, rows: np.ndarray | None = None) -> np.ndarray:
        """Ships counting towards capacity per sector (GD-MAP-04/06) of the games ``rows``
        (all when None): int64 [games, 15]. An empty slot's sector is -1 and a miner's is
        sent there too: bin 15, off the board. For all games it is kept from call to call
        (read it, do not write it): only the slots whose sector changed since the last
        call, whatever changed them, are taken off their old bin and added to their new
        one."""
        sec = self.ships[SEC] if rows is None else self.ships[SEC, rows]
        if rows is not None or self._load is None:
            n = sec.shape[0]
            idx = ((sec | _NOT_COUNTED) & 15) + (16 * np.arange(n))[:, None]
            bins = np.bincount(idx.ravel(), minlength=16 * n).reshape(n, 16)
            if rows is None:
                self._load = (sec.copy(), bins)
            return bins[:, :15]
        kept, bins = self._load
        ch = np.flatnonzero(sec != kept)
        if ch.size:
            g, j = np.divmod(ch, 2 * SLOTS)
            old = kept.reshape(-1)[ch]
            new = sec.reshape(-1)[ch]
            np.subtract.at(bins, (g, (old | _NOT_COUNTED[j]) & 15), 1)
            np.add.at(bins, (g, (new | _NOT_COUNTED[j]) & 15), 1)
            kept.reshape(-1)[ch] = new
        return bins[:, :15]

    # ------------------------------------------------------------------ ships
    def _add_ship(self, rows: np.ndarray, owner: np.ndarray, kind: np.ndarray,
                  sector: np.ndarray) -> None:
        """A new ship at full shields, hull and AP (GD-BLD-05) in the first free slot of its
        owner's type (it has the highest ship number)."""
        s = self.ships
        group = owner * 5 + kind
        count = ((s[P, rows] != 0) & (group[:, None] == GROUP70)).sum(1)
        g = owner * SLOTS + np.asarray(FIRST)[kind] + count
        s[:, rows, g] = self.t.new_ship[kind].T
        s[SEC, rows, g] = sector

    def _compact(self, rows: np.ndarray) -> None:
        """After ships of ``rows`` lost their ``P`` flag (destroyed, GD-UNIT-08): close the
        gaps, each type's remaining ships keeping their order (ranks shift down), empty
        slots reset; the acting ship's slot follows its ship."""
        s = self.ships
        sub = s[:, rows]
        keep = sub[P] != 0
        key = GROUP70 * 2 + (~keep)
        perm = np.argsort(key, axis=1, kind="stable")
        sub = sub[:, np.arange(rows.size)[:, None], perm]
        kept = sub[P] != 0
        sub = np.where(kept[None], sub, EMPTY[:, None, None])
        s[:, rows] = sub
        acting = sub[ACT] != 0
        self.act[rows] = np.where(acting.any(1), acting.argmax(1), -1)

    def _activate(self, rows: np.ndarray, g: np.ndarray) -> None:
        """Make slot ``g`` the acting ship; the previous one may not act again: its AP go
        to 0 (GD-AP-08)."""
        s = self.ships
        prev = self.act[rows]
        m = (prev >= 0) & (prev != g)
        if m.any():
            s[AP, rows[m], prev[m]] = 0
            s[ACT, rows[m], prev[m]] = 0
        s[ACT, rows, g] = 1
        self.act[rows] = g

    def _check_end(self, rows: np.ndarray) -> None:
        """A player with no ships on the board loses, deep space not counting (GD-WIN-02/03);
        both at once is a draw (ruling GD-OPEN-12). Not during set-up."""
        rows = rows[(self.phase[rows] == RETURNS) | (self.phase[rows] == ACTING)]
        if not rows.size:
            return
        s = self.ships
        on = ((s[P, rows] != 0) & (s[SEC, rows] >= 0)).reshape(-1, 2, SLOTS).any(2)
        over = ~(on[:, 0] & on[:, 1])
        if not over.any():
            return
        rows, on = rows[over], on[over]
        mutual = ~(on[:, 0] | on[:, 1])
        ret = on.astype(np.float64)
        ret[mutual] = 0.5
        self._end(rows, ret)

    def _end(self, rows: np.ndarray, ret: np.ndarray) -> None:
        """Finish the games of ``rows`` with returns ``ret`` [len(rows), 2]."""
        self.phase[rows] = OVER
        self.dec[rows] = NO_DECISION
        self.ret[rows] = ret

    # ------------------------------------------------------------------ turns
    def _start_turn(self, rows: np.ndarray, seat: np.ndarray) -> None:
        """Begin ``seat``'s turn (GD-TURN-02): the turn limit, recharge shields +1 up to the
        maximum (GD-TURN-03), AP refreshed (ruling GD-OPEN-14), charging becomes charged,
        attached miners gather by planet (GD-TURN-04, GD-SPC-02/03), jump groups noted
        (GD-SPC-09); the seat's explorers are then to return (GD-TURN-05: the games left
        in RETURNS at the end of a step go through :meth:`_returns`)."""
        t, s = self.t, self.ships
        self.seat[rows] = seat
        self.act[rows] = -1
        self.dec[rows] = NO_DECISION
        s[ACT, rows] = 0
        new_round = seat == self.first[rows]
        self.round[rows[new_round]] += 1
        limit = new_round & (self.round[rows] > t.turn_limit)
        if limit.any():
            self._end(rows[limit], np.full((int(limit.sum()), 2), 0.5))
            rows, seat = rows[~limit], seat[~limit]
            if not rows.size:
                return
        sub = s[:, rows]
        own = seat[:, None] == OWNER70
        sh = sub[SH]
        sub[SH] = np.where(own & (sh < t.max_sh70), sh + 1, sh)
        sub[CHG] = np.where(own & (sub[CHG] == 1), 2, sub[CHG])
        sub[AP] = np.where(own, t.max_ap70, sub[AP])
        sec = sub[SEC].astype(np.int64)
        present = sub[P] != 0
        attached = present & (sub[ATT] != 0) & (sec >= 0)
        if attached.any():
            idx = np.where(attached, sec, 15) + 16 * np.arange(rows.size)[:, None]
            per = np.bincount(idx.ravel(), minlength=16 * rows.size).reshape(-1, 16)
            yields = t.per_miner[np.take_along_axis(per, np.where(attached, sec, 15), 1)]
            gain = np.where(attached & own, yields, 0).sum(1)
            self.minerals[rows, seat] += gain
        sub[JSEC] = np.where(own & present, sub[SEC], -1)
        sub[PEND] = own & present & (KIND70 == EXPLORER) & (sec < 0)
        s[:, rows] = sub
        self.phase[rows] = RETURNS

    def _end_turn(self, rows: np.ndarray) -> None:
        """End of the spending step: unused AP are lost (ruling GD-OPEN-14), an unused
        charge lapses with its aim (rulings GD-OPEN-06/08); the other seat's turn begins
        (GD-TURN-01)."""
        s = self.ships
        seat = self.seat[rows]
        own = seat[:, None] == OWNER70
        charged = own & (s[CHG, rows] == 2)
        s[AP, rows] = np.where(own, 0, s[AP, rows])
        s[CHG, rows] = np.where(charged, 0, s[CHG, rows])
        s[AIM, rows] = np.where(charged, -1, s[AIM, rows])
        self._start_turn(rows, 1 - seat)

    def _returns(self, rows: np.ndarray) -> None:
        """Bring the turn's explorers back one at a time, lowest ship number first, until a
        decision is needed (GD-TURN-05): arrival zone by D10 (GD-DS-03), the spinner
        (GD-DS-07/08, ruling GD-OPEN-05: spun before landing), then the player picks the
        sector when a friendly command ship is in the zone and a sector may be picked
        (GD-DS-05, option ``arrive_full``), else the D6 (GD-DS-04). Games left without a
        pending explorer go on to spend AP (GD-TURN-06)."""
        t, s = self.t, self.ships
        explorers = np.arange(FIRST[EXPLORER], FIRST[EXPLORER] + CAPS[EXPLORER])
        commands = np.arange(FIRST[COMMAND], FIRST[COMMAND] + CAPS[COMMAND])
        while rows.size:
            rows = rows[(self.phase[rows] == RETURNS) & (self.dec[rows] == NO_DECISION)]
            if not rows.size:
                return
            seat = self.seat[rows]
            r2 = rows[:, None]
            own = (seat * SLOTS)[:, None]
            pend = s[PEND, r2, own + explorers] != 0
            has = pend.any(1)
            if not has.all():
                self.phase[rows[~has]] = ACTING
                rows, seat, pend, own = rows[has], seat[has], pend[has], own[has]
                if not rows.size:
                    return
                r2 = rows[:, None]
            g = own[:, 0] + FIRST[EXPLORER] + pend.argmax(1)
            s[PEND, rows, g] = 0
            d10 = ra.random(self.rng, rows)  # the D10, then the spinner (GameRng)
            zone = ((d10 * 10).astype(np.int64) + 2) // 2 - 1
            seg = (ra.random(self.rng, rows) * t.spin_minerals.size).astype(np.int64)
            self.minerals[rows, seat] += t.spin_minerals[seg]
            self.dark[rows, seat] += t.spin_dark[seg]
            cg = own + commands
            cmd = ((s[P, r2, cg] != 0)
                   & (t.zone_of[s[SEC, r2, cg] & 15] == zone[:, None])).any(1)
            pick = cmd & self.arrival_sectors(rows, zone).any(1)
            if pick.any():
                r = rows[pick]
                self.dec[r] = ARRIVE
                self.dec_seat[r] = seat[pick]
                self.dec_ship[r] = g[pick]
                self.dec_zone[r] = zone[pick]
                roll = ~pick
                rows, g, zone = rows[roll], g[roll], zone[roll]
            if rows.size:
                row = (self._d6(rows) + 1) // 2 - 1
                self._land(rows, g, zone * 3 + row)

    def arrival_sectors(self, rows: np.ndarray, zone: np.ndarray) -> np.ndarray:
        """bool [len(rows), 3]: the sectors of ``zone`` an explorer's player may pick
        (GD-DS-05): never a black hole (ruling GD-OPEN-11); a full one only under the
        ``arrive_full`` option."""
        secs = zone[:, None] * 3 + np.arange(3)
        ok = ~self.holes[rows[:, None], secs]
        if not self.t.arrive_full:
            ok &= np.take_along_axis(self.load(rows), secs, 1) < CAPACITY
        return ok

    def _land(self, rows: np.ndarray, g: np.ndarray, sector: np.ndarray) -> None:
        """A returning explorer reaches ``sector``: lost in a black hole (GD-BH-03), a
        collision decision when the sector is full (GD-DS-06; the defender by ruling
        GD-OPEN-10), else it arrives."""
        s = self.ships
        hole = self.holes[rows, sector]
        if hole.any():
            r = rows[hole]
            s[P, r, g[hole]] = 0
            self._compact(r)
            self._check_end(r)
        rows, g, sector = rows[~hole], g[~hole], sector[~hole]
        if not rows.size:
            return
        here = (s[SEC, rows] == sector[:, None]) & (s[P, rows] != 0)
        full = (here & NONMINER70).sum(1) >= CAPACITY
        if full.any():
            r, gf, sf = rows[full], g[full], sector[full]
            owner = gf // SLOTS
            enemy = (here[full] & NONMINER70 & (owner[:, None] != OWNER70)).any(1)
            self.dec[r] = COLLIDE
            self.dec_seat[r] = np.where(enemy, 1 - owner, owner)
            self.dec_ship[r] = gf
            self.dec_sector[r] = sf
        ok = ~full
        r, go = rows[ok], g[ok]
        s[SEC, r, go] = sector[ok]
        s[ATT, r, go] = 0
        s[CHG, r, go] = 0
        s[AIM, r, go] = -1

    # ------------------------------------------------------------------ step
    def step(self, actions: np.ndarray) -> None:
        """Apply one action index per game (int [n]); each must be legal (see
        ``batched_masks.legal_mask``; nothing is checked here). Finished games are left
        as they are whatever their action. The actions' rules: ``batched_actions``."""
        from .batched_actions import step

        step(self, actions)

    def jump_group(self, rows: np.ndarray, g: np.ndarray) -> np.ndarray:
        """bool [len(rows), 70]: the friendly ships that jump with command ship ``g``: in
        its sector at the start of the turn and still there (GD-SPC-09)."""
        s = self.ships
        jsec = s[JSEC, rows, g]
        here = s[SEC, rows, g]
        return ((s[P, rows] != 0) & (s[JSEC, rows] == jsec[:, None])
                & (s[SEC, rows] == here[:, None]) & (np.arange(2 * SLOTS) != g[:, None])
                & ((g // SLOTS)[:, None] == OWNER70) & (jsec >= 0)[:, None])
