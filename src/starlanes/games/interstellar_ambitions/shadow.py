"""Shadow Activities: playing one Shadow card in step 1, Shadow Checks and card effects
(Shadow Activities and Shadow Cards; Performing a Shadow Check; IA-SHD-*).

A card is played as ``play <card> <target>`` (the target written ``P2.mossfall``,
``P1.colonise:strong``, ``tech``...). STANDARD cards resolve at once, never for a medal.
SABOTAGE / INFILTRATE cards open a check: the modifier (TECH, planets, the card's own
circumstances) is fixed, the player may discard up to 3 cards for +1 each, then the target
may discard up to 3 for -1 each (a reaction out of turn), then one die: 4+ succeeds, earns
a Shadow Medal and enacts the card. Played and discarded cards go face up to the Shadow
discard (ruling IA-OPEN-15).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision, decision

from .actions import ACTIONS, DONE, PASS, RES, Act, act, parse_token, token_name
from .common import (
    HAND_LIMIT,
    MAX_SHIPS,
    add_medal,
    add_ship,
    add_stat,
    bonus,
    can_advance,
    discard_card,
    find_ship,
    forget_seen,
    gain,
    planet_index,
    refill_mercs,
    refill_planets,
    refill_techs,
    remove_ship,
    set_level,
    set_token,
    ship_label,
)
from .texts import shadow_target_words

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState

MAX_BOOST = 3


def _targets(s: IAState, seat: int, card: int) -> list[str]:
    """Every legal target string of ``card`` for ``seat``."""
    c = s.content
    eff, _n, arg = c.shadow_effect[card]
    opp = [o for o in range(s.n) if o != seat]
    mine = sorted({t for t in s.tokens[seat] if t >= 0})
    out: list[str] = []
    if eff == "exchange_plans":
        for o in opp:
            theirs = sorted({t for t in s.tokens[o] if t >= 0})
            for m in mine:
                for t in theirs:
                    if t >> 2 == m >> 2 and t != m:
                        out.append(f"P{o}.{token_name(m)}.{token_name(t)}")
    elif eff == "new_opportunities":
        out = ["tech", "planet", "merc"]
    elif eff == "fast_track":
        out = [token_name(m) for m in mine if can_advance(s, m)]
    elif eff in ("delay", "scuttle"):
        for o in opp:
            out.extend(f"P{o}.{token_name(t)}" for t in sorted({t for t in s.tokens[o] if t >= 0})
                       if t & 3)
    elif eff == "bump_ultimate":
        for o in opp:
            out.extend(f"P{o}.{token_name(t)}" for t in sorted(set(s.tokens[o]))
                       if t >= 0 and t & 3 == 3)
    elif eff in ("gain", "intel"):
        out = ["self"]
    elif eff in ("plague", "riot"):
        for o in opp:
            out.extend(f"P{o}.{c.planet_ids[p]}" for p, lvl, _m in s.planets[o] if lvl > 1)
    elif eff in ("boom", "damage_ship"):
        for o in opp:
            out.extend(f"P{o}.{lb}" for lb in sorted({ship_label(s, sh) for sh in s.ships[o]}))
    elif eff == "defect":
        for o in opp:
            out.extend(f"P{o}.{lb}" for lb in sorted({
                ship_label(s, sh) for sh in s.ships[o] if c.ship_deck[sh[0]] == "merc"}))
    elif eff in ("lose", "steal", "pilfer"):
        out = [f"P{o}" for o in opp]
    elif eff == "steal_tech":
        for o in opp:
            out.extend(f"P{o}.{c.tech_ids[t]}" for t in sorted(set(s.known[o]))
                       if t not in s.known[seat])
    return out


def shadow_legal(s: IAState, d: Decision) -> list[Action]:
    """Step 1: play one card (IA-SHD-01/02) or none."""
    ids = s.content.shadow_ids
    out: list[Action] = []
    for card in sorted(set(s.hands[d.seat])):
        out.extend(act("play", ids[card], t) for t in _targets(s, d.seat, card))
    out.append(PASS)
    return out


def shadow_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb != "play":
        return
    seat = d.seat
    c = s.content
    card = c.shadow_index[a.a]
    discard_card(s, seat, card)
    target = shadow_target_words(c, card, a.b, f"P{seat}'s")
    s.log(f"P{seat} plays {c.shadow[a.a].name} on {target}")
    kind = c.shadow_kind[card]
    if kind == "standard":  # always succeeds, no medal (IA-SHD-03)
        enact(s, seat, card, a.b)
        return
    target = int(a.b.split(".")[0][1:])
    mod = check_modifier(s, seat, target, card, a.b)
    if s.hands[seat]:
        s.push(decision(seat, "boost", (card, a.b, target, mod, 0, 0)))
    else:
        _to_opponent(s, (card, a.b, target, mod, 0, 0, seat))


def check_modifier(s: IAState, seat: int, target: int, card: int, arg: str) -> int:
    """Step 2 of a check: TECH / planet bonuses and the card's circumstances (IA-SHD-07)."""
    c = s.content
    kind = c.shadow_kind[card]
    mod = bonus(s, seat, f"{kind}_bonus") + bonus(s, seat, "shadow_bonus")
    mod -= bonus(s, target, "shadow_shield")
    if c.shadow_effect[card][0] == "boom":  # Ship go BOOM BOOM! (IA-SHD-15)
        label = arg.split(".", 1)[1]
        i = find_ship(s, target, label)
        card_i, dmg = s.ships[target][i]
        power = c.ship_combat[card_i] - dmg
        mod -= 2 if power >= 4 else 1 if power == 3 else 0
    return mod


def boost_legal(s: IAState, d: Decision) -> list[Action]:
    ids = s.content.shadow_ids
    out: list[Action] = []
    if d.data[4] < MAX_BOOST:
        out.extend(act("boost", ids[c]) for c in sorted(set(s.hands[d.seat])))
    out.append(DONE)
    return out


def boost_apply(s: IAState, d: Decision, a: Act) -> None:
    card, arg, target, mod, boosts, opposes = d.data
    if a.verb == "boost":  # +1 each, up to 3 (IA-SHD-08)
        discard_card(s, d.seat, s.content.shadow_index[a.a])
        boosts += 1
        if boosts < MAX_BOOST and s.hands[d.seat]:
            s.push(decision(d.seat, "boost", (card, arg, target, mod, boosts, opposes)))
            return
    _to_opponent(s, (card, arg, target, mod, boosts, 0, d.seat))


def _to_opponent(s: IAState, data: tuple) -> None:
    """The target may oppose if it holds Shadow cards; else the die is rolled."""
    if s.hands[data[2]]:
        s.push(decision(data[2], "oppose", data))
    else:
        resolve_check(s, data)


def oppose_legal(s: IAState, d: Decision) -> list[Action]:
    ids = s.content.shadow_ids
    out: list[Action] = []
    if d.data[5] < MAX_BOOST:
        out.extend(act("oppose", ids[c]) for c in sorted(set(s.hands[d.seat])))
    out.append(PASS)
    return out


def oppose_apply(s: IAState, d: Decision, a: Act) -> None:
    card, arg, target, mod, boosts, opposes, player = d.data
    if a.verb == "oppose":  # -1 each, up to 3 (IA-SHD-09)
        discard_card(s, d.seat, s.content.shadow_index[a.a])
        opposes += 1
        data = (card, arg, target, mod, boosts, opposes, player)
        if opposes < MAX_BOOST and s.hands[d.seat]:
            s.push(decision(d.seat, "oppose", data))
            return
    resolve_check(s, (card, arg, target, mod, boosts, opposes, player))


def resolve_check(s: IAState, data: tuple) -> bool:
    """One die + modifier + boosts - opposes; 4 or more succeeds (IA-SHD-10/11)."""
    card, arg, target, mod, boosts, opposes, player = data
    roll = s.rng.d6()
    total = roll + mod + boosts - opposes
    ok = total >= 4
    s.log(f"shadow check: rolled {roll}{mod + boosts - opposes:+d} = {total}: "
          f"{'success' if ok else 'failure'}")
    if ok:
        add_medal(s, player, shadow=1)
        enact(s, player, card, arg)
    return ok


def enact(s: IAState, seat: int, card: int, arg: str) -> None:
    """The card's effect (docs/content/interstellar-ambitions.md lists them)."""
    c = s.content
    eff, n, res = c.shadow_effect[card]
    parts = arg.split(".")
    o = int(parts[0][1:]) if parts[0].startswith("P") else -1
    if eff == "exchange_plans":  # IA-SHD-12
        mine, theirs = parse_token(parts[1]), parse_token(parts[2])
        set_token(s, seat, s.tokens[seat].index(mine), theirs)
        set_token(s, o, s.tokens[o].index(theirs), mine)
    elif eff == "new_opportunities":  # IA-SHD-13
        if arg == "tech":
            s.tech_discard.extend(t for t in s.tech_slots if t >= 0)
            s.tech_slots = [-1] * len(s.tech_slots)
            refill_techs(s)
        elif arg == "planet":
            for t in range(4):
                s.planet_discard.extend(p for p in s.planet_slots[t] if p >= 0)
                s.planet_slots[t] = [-1] * len(s.planet_slots[t])
                refill_planets(s, t)
        else:
            s.merc_discard.extend(m for m in s.merc_slots if m >= 0)
            s.merc_slots = [-1] * len(s.merc_slots)
            refill_mercs(s)
    elif eff == "fast_track":
        code = parse_token(arg)
        if can_advance(s, code):
            set_token(s, seat, s.tokens[seat].index(code), code + 1)
    elif eff in ("delay", "bump_ultimate", "scuttle"):
        code = parse_token(parts[1])
        if code in s.tokens[o]:
            to = code & ~3 if eff == "scuttle" else code - 1
            set_token(s, o, s.tokens[o].index(code), to)
    elif eff == "gain":
        gain(s, seat, RES.index(res), n)
    elif eff == "intel":
        for _ in range(n):
            if len(s.hands[seat]) < HAND_LIMIT:
                drawn = s.draw(s.shadow_deck, s.shadow_discard)
                if drawn >= 0:
                    s.hands[seat] = s.hands[seat] + (drawn,)
    elif eff in ("plague", "riot"):  # IA-SHD-14
        i = planet_index(s, o, parts[1])
        set_level(s, o, i, s.planets[o][i][1] - n)
    elif eff == "boom":
        remove_ship(s, o, find_ship(s, o, parts[1]))
    elif eff == "damage_ship":
        i = find_ship(s, o, parts[1])
        shp, dmg = s.ships[o][i]
        if dmg + n > c.ship_combat[shp]:
            remove_ship(s, o, i)
        else:
            ships = list(s.ships[o])
            ships[i] = (shp, dmg + n)
            s.ships[o] = tuple(ships)
    elif eff == "lose":
        gain(s, o, RES.index(res), -n)
    elif eff == "steal":
        r = RES.index(res)
        take = min(n, s.res[o][r])
        gain(s, o, r, -take)
        gain(s, seat, r, take)
    elif eff == "pilfer":  # the victim sees which card goes, the others do not
        hand = list(s.hands[o])
        if hand and len(s.hands[seat]) < HAND_LIMIT:
            j = int(s.rng.random() * len(hand))
            taken = hand.pop(j)
            s.hands[o] = tuple(hand)
            s.hands[seat] = s.hands[seat] + (taken,)
            if s.seen_cards:
                forget_seen(s, o, taken, frozenset((seat, o)))
            s.seen_cards = (*s.seen_cards, (o, seat, taken))
    elif eff == "steal_tech":  # IA-TECH-01
        t = c.tech_index[parts[1]]
        if t not in s.known[seat]:
            s.known[seat] = s.known[seat] + (t,)
            add_stat(s, seat, 2)
    elif eff == "defect":
        i = find_ship(s, o, parts[1])
        shp = s.ships[o][i][0]
        remove_ship(s, o, i, to_discard=False)
        if len(s.ships[seat]) >= MAX_SHIPS:
            s.push(decision(seat, "scrap", ("take", shp, 0)))
        else:
            add_ship(s, seat, shp)


DECISIONS = {
    "shadow": (shadow_legal, shadow_apply),
    "boost": (boost_legal, boost_apply),
    "oppose": (oppose_legal, oppose_apply),
}
_ = ACTIONS
