"""Shadow Activities over an :class:`~.batched.IABatch` (the reference's ``shadow``): the
step 1 play of one Shadow card (IA-SHD-01/02), Shadow Checks with boosts and opposes
(IA-SHD-04..11) and the cards' effects (IA-SHD-12..15 and the content's others).

Double Agent's pilfer takes the card at a random place of the victim's ordered hand; the
victim then knows that card is in the thief's hand, and a third seat's knowledge of the
victim's hand lapses (``seen``).
"""

from __future__ import annotations

import numpy as np

from starlanes.engine import rng_arrays as ra

from . import batched_economy as eco
from .action_space import FORMS, WORD_EFFECTS, ship_labels
from .batched import BOOST, MAX_SHIPS, NONE, OPPOSE, PLAYERS, SHADOW, IABatch

MAX_BOOST = 3
"""Cards a side may discard into a check (IA-SHD-08/09)."""
WORDS = tuple(dict.fromkeys(w for ws in WORD_EFFECTS.values() for w in ws))


class ShadowTables:
    """Per Shadow card: effect, number, resource, check kind, the ``play`` family of its
    target form (``offset``, ``dims``) and its place in that family's cards; ship labels
    as ``label_base[card] + damage``."""

    def __init__(self, b: IABatch) -> None:
        c = b.content
        space = b.game.action_space()
        nc = len(c.shadow_ids)
        self.eff = [c.shadow_effect[i][0] for i in range(nc)]
        self.n = np.array([c.shadow_effect[i][1] for i in range(nc)], np.int64)
        self.res = [c.shadow_effect[i][2] for i in range(nc)]
        self.kind = list(c.shadow_kind)
        self.form = [FORMS[e] for e in self.eff]
        self.offset = np.zeros(nc, np.int64)
        self.dims: list[tuple[int, ...]] = []
        self.ci = np.zeros(nc, np.int64)
        self.cards_of: dict[str, list[int]] = {}
        for i in range(nc):
            self.cards_of.setdefault(self.form[i], []).append(i)
        self.family: dict[str, tuple[int, tuple[int, ...]]] = {}
        for form, cards in self.cards_of.items():
            arity = {"play": 2, "play-token": 2, "play-seat": 2, "play-seat-swap": 4}.get(form, 3)
            found = space.family(form, arity)
            if found is None:  # pragma: no cover - the families are fixed
                raise ValueError(f"no {form!r} family")
            dims = tuple(len(d) for d in found[1].domains)
            self.family[form] = (found[0], dims)
            for j, card in enumerate(cards):
                self.ci[card] = j
        for i in range(nc):
            self.offset[i], dims = self.family[self.form[i]]
            self.dims.append(dims)
        base, at = [], 0
        for i in range(len(c.ship_ids)):
            base.append(at)
            at += c.ship_combat[i] + 1
        self.label_base = np.array(base, np.int64)
        self.n_labels = len(ship_labels(c))
        self.label_card = np.repeat(np.arange(len(c.ship_ids)), np.diff(base + [at]))
        self.label_dmg = np.arange(at) - self.label_base[self.label_card]
        self.merc = np.array([d == "merc" for d in c.ship_deck] + [False], np.bool_)
        self.deck_of = np.array([{"merc": 1, "emergency": 2}.get(d, 0) for d in c.ship_deck],
                                np.int64)
        self.movable_arg = np.full(24, -1, np.int64)
        mv = [x for x in range(24) if x & 3 != 3]
        self.movable_arg[mv] = np.arange(len(mv))
        self.raised_arg = np.full(24, -1, np.int64)
        rs = [x for x in range(24) if x & 3]
        self.raised_arg[rs] = np.arange(len(rs))
        self.movable_code = np.array(mv, np.int64)
        self.raised_code = np.array(rs, np.int64)


def tables(b: IABatch) -> ShadowTables:
    """The :class:`ShadowTables` of ``b`` (made once, kept on it)."""
    got = getattr(b, "shadow_tables", None)
    if got is None:
        got = b.shadow_tables = ShadowTables(b)  # type: ignore[attr-defined]
    return got


def _has_code(tokens: np.ndarray) -> np.ndarray:
    """bool [..., 24] from tokens [..., 6]: which track codes are held."""
    return (tokens[..., None] == np.arange(24)).any(-2)


def targets(b: IABatch, rows: np.ndarray, seat: np.ndarray, card: int) -> np.ndarray:
    """bool [len(rows), family size / cards]: the targets of ``card`` for ``seat``
    (``shadow._targets``), as the argument part of its family's indices."""
    st = tables(b)
    eff = st.eff[card]
    dims = st.dims[card][1:]
    m = rows.size
    out = np.zeros((m, *dims), np.bool_)
    opp = np.arange(PLAYERS)[None, :] != seat[:, None]  # [m, 3]
    # the track codes held (_has_code) are read in the branches that need them only
    if eff == "exchange_plans":  # same Action, a different token (IA-SHD-12)
        mine, theirs = _has_code(b.tokens[rows, seat]), _has_code(b.tokens[rows])
        for lv in range(4):
            code = (np.arange(24) & ~3) | lv
            ok = mine[:, None, :] & theirs[:, :, code] & ((np.arange(24) & 3) != lv)
            out[:, :, :, lv] = ok & opp[:, :, None]
    elif eff == "new_opportunities":
        out[:, :3] = True
    elif eff in ("gain", "intel"):
        out[:, WORDS.index("self")] = True
    elif eff == "fast_track":
        can = _can_advance_codes(b, rows)
        r, code = np.nonzero(_has_code(b.tokens[rows, seat]) & can)
        out[r, st.movable_arg[code]] = True
    elif eff in ("delay", "scuttle", "bump_ultimate"):
        lvl = np.arange(24) & 3
        want = (lvl == 3) if eff == "bump_ultimate" else (lvl > 0)
        ok = _has_code(b.tokens[rows]) & want & opp[:, :, None]
        r, o, code = np.nonzero(ok)
        out[r, o, st.raised_arg[code]] = True
    elif eff in ("plague", "riot"):
        cards = b.pl_card[rows]
        ok = (cards >= 0) & (b.pl_level[rows] > 1) & opp[:, :, None]
        r, o, k = np.nonzero(ok)
        out[r, o, cards[r, o, k]] = True
    elif eff in ("boom", "damage_ship", "defect"):
        ships = b.ship_card[rows]
        ok = (ships >= 0) & opp[:, :, None]
        if eff == "defect":
            ok &= st.merc[ships]
        r, o, k = np.nonzero(ok)
        out[r, o, st.label_base[ships[r, o, k]] + b.ship_dmg[rows][r, o, k]] = True
    elif eff in ("lose", "steal", "pilfer"):
        out[:] = opp
    elif eff == "steal_tech":
        known = b.known[rows]
        ok = known & ~known[np.arange(m), seat][:, None, :] & opp[:, :, None]
        out[:] = ok
    return out.reshape(m, -1)


def _can_advance_codes(b: IABatch, rows: np.ndarray) -> np.ndarray:
    """bool [len(rows), 24]: a token of each code could move right (``can_advance``:
    not ULTIMATE, room in a full ULTIMATE slot for one token with three players)."""
    codes = np.arange(24)
    ult = (b.tokens[rows][..., None] == ((codes >> 2) * 4 + 3)).sum((1, 2))
    return ((codes & 3) < 2) | (((codes & 3) == 2) & (ult < 1))


def shadow_mask(b: IABatch, mask: np.ndarray, rows: np.ndarray, k: np.ndarray,
                seat: np.ndarray, off: dict[str, int]) -> None:
    """The legal answers to the Shadow decisions (``shadow_legal``, ``boost_legal``,
    ``oppose_legal``)."""
    st = tables(b)
    nc = b.n_cards
    m = k == SHADOW
    if m.any():
        r, s = rows[m], seat[m]
        mask[r, off["pass"]] = True
        hand = b.hands[r, s] > 0
        for card in range(nc):
            h = hand[:, card]
            if h.any():
                ok = targets(b, r[h], s[h], card)
                width = ok.shape[1]
                at = st.offset[card] + st.ci[card] * width
                mask[r[h], at:at + width] |= ok
    for kind, verb, end, count in ((BOOST, "boost", "done", b.sh_boosts),
                                   (OPPOSE, "oppose", "pass", b.sh_opposes)):
        m = k == kind
        if m.any():
            r, s = rows[m], seat[m]
            mask[r, off[verb]:off[verb] + nc] = (b.hands[r, s] > 0) \
                & (count[r] < MAX_BOOST)[:, None]
            mask[r, off[end]] = True


def shadow_apply(b: IABatch, rows: np.ndarray, k: np.ndarray, x: np.ndarray,
                 seat: np.ndarray, off: dict[str, int]) -> None:
    """The answers to the Shadow decisions (see the module docstring)."""
    m = (k == SHADOW) & (x == off["pass"])
    b.kind[rows[m]] = NONE
    m = (k == SHADOW) & (x != off["pass"])
    if m.any():
        _play(b, rows[m], seat[m], x[m])
    for kind, verb, count in ((BOOST, "boost", b.sh_boosts), (OPPOSE, "oppose", b.sh_opposes)):
        m = k == kind
        if not m.any():
            continue
        r, s, y = rows[m], seat[m], x[m]
        card = y - off[verb]
        put = (card >= 0) & (card < b.n_cards)
        b.hand_discard(r[put], s[put], card[put])
        count[r[put]] += 1
        again = put & (count[r] < MAX_BOOST) & (b.hands[r, s].sum(1) > 0)
        rest = r[~again]
        if kind == BOOST:  # IA-SHD-08, then the target (IA-SHD-09)
            b.sh_opposes[rest] = 0
            _to_opponent(b, rest)
        else:
            _resolve(b, rest)


def _play(b: IABatch, rows: np.ndarray, seat: np.ndarray, x: np.ndarray) -> None:
    """Play a card on its target (``shadow_apply``): to the discard (ruling IA-OPEN-15);
    STANDARD cards act at once (IA-SHD-03), the others open a check (IA-SHD-06/07)."""
    st = tables(b)
    card = np.zeros(rows.size, np.int64)
    rest = np.zeros(rows.size, np.int64)
    for c in range(b.n_cards):
        width = int(np.prod(st.dims[c][1:]))
        lo = st.offset[c] + st.ci[c] * width
        hit = (x >= lo) & (x < lo + width)
        card[hit] = c
        rest[hit] = x[hit] - lo
    b.hand_discard(rows, seat, card)
    b.kind[rows] = NONE
    o, arg = _decode(b, card, rest)
    b.sh_card[rows] = card
    b.sh_target[rows] = o
    b.sh_arg[rows] = arg
    b.sh_player[rows] = seat
    std = np.array(st.kind, dtype=object)[card] == "standard"
    enact(b, rows[std], seat[std], card[std], o[std], arg[std])
    chk = ~std
    r, s = rows[chk], seat[chk]
    if r.size:
        b.sh_mod[r] = _modifier(b, r, s, card[chk], o[chk], arg[chk])
        b.sh_boosts[r] = 0
        b.sh_opposes[r] = 0
        has = b.hands[r, s].sum(1) > 0
        b.kind[r[has]] = BOOST
        b.dec_seat[r[has]] = s[has]
        _to_opponent(b, r[~has])


def _decode(b: IABatch, card: np.ndarray, rest: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(target seat or -1, argument) of each play: a word, token code, planet, ship label,
    tech, or for Exchange Plans ``mine * 32 + theirs``."""
    st = tables(b)
    o = np.full(card.size, -1, np.int64)
    arg = np.zeros(card.size, np.int64)
    for c in np.unique(card):
        h = card == c
        dims = st.dims[c][1:]
        form = st.form[c]
        y = rest[h]
        if form == "play":
            arg[h] = y
        elif form == "play-token":
            arg[h] = st.movable_code[y]
        elif form == "play-seat":
            o[h] = y
        elif form == "play-seat-swap":
            oo, mine, lv = np.unravel_index(y, dims)
            o[h] = oo
            arg[h] = mine * 32 + ((mine & ~3) | lv)
        else:
            oo, a = np.unravel_index(y, dims)
            o[h] = oo
            arg[h] = st.raised_code[a] if form == "play-seat-token" else a
    return o, arg


def _modifier(b: IABatch, rows: np.ndarray, seat: np.ndarray, card: np.ndarray,
              o: np.ndarray, arg: np.ndarray) -> np.ndarray:
    """``check_modifier`` (IA-SHD-07): TECH and planet bonuses of the check's kind and
    for Shadow, less the target's shields; Ship go BOOM BOOM! -1 or -2 by the ship's
    power (IA-SHD-15)."""
    st = tables(b)
    c = b.content
    mod = np.zeros(rows.size, np.int64)
    kinds = np.array(st.kind, dtype=object)[card]
    for kind in ("sabotage", "infiltrate"):
        h = kinds == kind
        if h.any():
            mod[h] += eco.bonus(b, rows[h], seat[h], f"{kind}_bonus")
    mod += eco.bonus(b, rows, seat, "shadow_bonus")
    mod -= eco.bonus(b, rows, o, "shadow_shield")
    boom = np.array(st.eff, dtype=object)[card] == "boom"
    if boom.any():
        cv = np.array(c.ship_combat, np.int64)[st.label_card[arg[boom]]]
        power = cv - st.label_dmg[arg[boom]]
        mod[boom] -= np.where(power >= 4, 2, np.where(power == 3, 1, 0))
    return mod


def _to_opponent(b: IABatch, rows: np.ndarray) -> None:
    """The target may oppose while it holds Shadow cards; else the die (IA-SHD-09)."""
    t = b.sh_target[rows]
    has = b.hands[rows, t].sum(1) > 0
    b.kind[rows[has]] = OPPOSE
    b.dec_seat[rows[has]] = t[has]
    b.kind[rows[~has]] = NONE
    _resolve(b, rows[~has])


def _resolve(b: IABatch, rows: np.ndarray) -> None:
    """One die + modifier + boosts - opposes: 4 or more earns a Shadow Medal and enacts
    the card (IA-SHD-10/11)."""
    b.kind[rows] = NONE
    if not rows.size:
        return
    roll = ra.d6(b.rng, rows)
    ok = roll + b.sh_mod[rows] + b.sh_boosts[rows] - b.sh_opposes[rows] >= 4
    r = rows[ok]
    p = b.sh_player[r]
    b.medals[r, p, 1] += 1
    enact(b, r, p, b.sh_card[r], b.sh_target[r], b.sh_arg[r])


def enact(b: IABatch, rows: np.ndarray, seat: np.ndarray, card: np.ndarray, o: np.ndarray,
          arg: np.ndarray) -> None:
    """The cards' effects (``shadow.enact``), card by card."""
    st = tables(b)
    for c in np.unique(card):
        h = card == c
        _effect(b, st.eff[c], int(st.n[c]), st.res[c], rows[h], seat[h], o[h], arg[h])


def _first(tokens: np.ndarray, code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(has, index): whether ``code`` is among ``tokens`` [m, 6] and its first place."""
    eq = tokens == code[:, None]
    return eq.any(1), eq.argmax(1)


def _effect(b: IABatch, eff: str, n: int, res: str, rows: np.ndarray, seat: np.ndarray,
            o: np.ndarray, arg: np.ndarray) -> None:
    if not rows.size:
        return
    if eff == "exchange_plans":  # IA-SHD-12
        mine, theirs = arg // 32, arg % 32
        _h, i = _first(b.tokens[rows, seat], mine)
        b.tokens[rows, seat, i] = theirs
        _h, j = _first(b.tokens[rows, o], theirs)
        b.tokens[rows, o, j] = mine
    elif eff == "new_opportunities":  # IA-SHD-13
        _renew(b, rows, arg)
    elif eff == "fast_track":
        can = _can_advance_codes(b, rows)[np.arange(rows.size), arg]
        r, s, a = rows[can], seat[can], arg[can]
        _h, i = _first(b.tokens[r, s], a)
        b.tokens[r, s, i] = a + 1
    elif eff in ("delay", "bump_ultimate", "scuttle"):
        has, i = _first(b.tokens[rows, o], arg)
        to = arg & ~3 if eff == "scuttle" else arg - 1
        b.tokens[rows[has], o[has], i[has]] = to[has]
    elif eff in ("gain", "lose"):
        r = eco.RES.index(res)
        who = seat if eff == "gain" else o
        b.res[rows, who, r] = np.maximum(0, b.res[rows, who, r] + (n if eff == "gain" else -n))
    elif eff == "steal":
        r = eco.RES.index(res)
        take = np.minimum(n, b.res[rows, o, r])
        b.res[rows, o, r] -= take
        b.res[rows, seat, r] += take
    elif eff == "intel":
        for _ in range(n):
            ok = b.hands[rows, seat].sum(1) < eco.HAND_LIMIT
            r, s = rows[ok], seat[ok]
            got = b._draw(r, b.shadow_deck, b.shadow_discard)
            d = got >= 0
            b.hand_add(r[d], s[d], got[d])
    elif eff in ("plague", "riot"):  # IA-SHD-14
        fx = eco.effects(b)
        k = (b.pl_card[rows, o] == arg[:, None]).argmax(1)
        lvl = b.pl_level[rows, o, k] - n
        b.pl_level[rows, o, k] = np.clip(lvl, 1, fx.pmax[arg])
    elif eff in ("boom", "damage_ship"):
        st = tables(b)
        card, dmg = st.label_card[arg], st.label_dmg[arg]
        k = ((b.ship_card[rows, o] == card[:, None])
             & (b.ship_dmg[rows, o] == dmg[:, None])).argmax(1)
        gone = np.ones(rows.size, np.bool_) if eff == "boom" else \
            dmg + n > np.array(b.content.ship_combat, np.int64)[card]
        b.ship_dmg[rows[~gone], o[~gone], k[~gone]] += n
        remove_ship(b, rows[gone], o[gone], k[gone])
    elif eff == "defect":  # a MERC changes sides; at 8 ships one is scrapped first
        st = tables(b)
        card, dmg = st.label_card[arg], st.label_dmg[arg]
        k = ((b.ship_card[rows, o] == card[:, None])
             & (b.ship_dmg[rows, o] == dmg[:, None])).argmax(1)
        remove_ship(b, rows, o, k, to_discard=False)
        from .batched_hire import add_ship, scrap_first

        full = (b.ship_card[rows, seat] >= 0).sum(1) >= MAX_SHIPS
        scrap_first(b, rows[full], card[full], np.zeros(int(full.sum()), np.int64), 3, NONE)
        b.dec_seat[rows[full]] = seat[full]
        add_ship(b, rows[~full], seat[~full], card[~full], np.zeros(int((~full).sum()),
                                                                      np.int64), 3)
    elif eff == "pilfer":  # one card at random from the victim's hand, below the limit
        ok = ((b.hand_seq[rows, o] >= 0).sum(1) > 0) \
            & (b.hands[rows, seat].sum(1) < eco.HAND_LIMIT)
        r, s, oo = rows[ok], seat[ok], o[ok]
        size = (b.hand_seq[r, oo] >= 0).sum(1)
        j = (ra.random(b.rng, r) * size).astype(np.int64)
        taken = b.hand_take(r, oo, j)
        b.hand_add(r, s, taken)
        third = 3 - s - oo  # ``forget_seen`` with the thief and the victim knowing
        b.seen[r, third, oo] = 0
        for v in (s, oo):
            b.seen[r, v, oo, taken] = np.maximum(0, b.seen[r, v, oo, taken] - 1)
        b.seen[r, oo, s, taken] += 1
    elif eff == "steal_tech":  # IA-TECH-01
        new = ~b.known[rows, seat, arg]
        b.known[rows[new], seat[new], arg[new]] = True
        b.stats[rows[new], seat[new], 2] += 1


def remove_ship(b: IABatch, rows: np.ndarray, seat: np.ndarray, k: np.ndarray,
                to_discard: bool = True) -> None:
    """``remove_ship``: the fleet closes up; a MERC or EMERGENCY card goes to its
    discard pile unless ``to_discard`` is False."""
    st = tables(b)
    card = b.ship_card[rows, seat, k]
    after = np.arange(MAX_SHIPS)[None, :] >= k[:, None]
    nxt = np.minimum(np.arange(MAX_SHIPS) + 1, MAX_SHIPS - 1)
    for arr in (b.ship_card, b.ship_dmg):
        cur = arr[rows, seat]
        moved = np.where(after, cur[:, nxt], cur)
        moved[:, -1] = -1 if arr is b.ship_card else 0
        arr[rows, seat] = moved
    if not to_discard:
        return
    merc = st.deck_of[card] == 1
    b.merc_discard.push(rows[merc], card[merc])
    emerg = st.deck_of[card] == 2
    b.emerg_discard.push(rows[emerg], card[emerg])


def _renew(b: IABatch, rows: np.ndarray, word: np.ndarray) -> None:
    """New Opportunities: the face-up techs, planets or Mercs to their discards, slots
    refilled (IA-SHD-13)."""
    r = rows[word == WORDS.index("tech")]
    for i in range(b.tech_slots.shape[1]):
        t = b.tech_slots[r, i]
        b.tech_discard.push(r[t >= 0], t[t >= 0])
    b.tech_slots[r] = -1
    for i in range(b.tech_slots.shape[1]):
        b.tech_slots[r, i] = b._draw(r, b.tech_deck, b.tech_discard)
    r = rows[word == WORDS.index("planet")]
    for t in range(4):
        for i in range(b.planet_slots.shape[2]):
            p = b.planet_slots[r, t, i]
            b.planet_discard.push(r[p >= 0], p[p >= 0])
        b.planet_slots[r, t] = -1
        eco.refill(b, r, t)
    r = rows[word == WORDS.index("merc")]
    for i in range(b.merc_slots.shape[1]):
        m = b.merc_slots[r, i]
        b.merc_discard.push(r[m >= 0], m[m >= 0])
    b.merc_slots[r] = -1
    for i in range(b.merc_slots.shape[1]):
        b.merc_slots[r, i] = b._draw(r, b.merc_deck, b.merc_discard)

