"""OCC-cards outside battle (OCC-CARDS, RD-OCC-01..08).

Cards are drawn at the start of a turn (RD-TURN-02); an ``instant`` card is revealed and
resolved on drawing (RD-OCC-03), also at set-up, except at set-up and in round one with the
``first_round_no_instants`` option, where it is put back and another drawn (RD-OCC-08). ``own_turn`` cards are played in
steps 4-7 of their owner's turn; a card played against another player opens a reaction
window in which the target may answer with a ``counter`` card, or (Vespians) sacrifice a
diplomat (RD-FAC-05), or let it resolve. Battle cards are handled by ``battle``. There is no
hand limit (RD-OCC-02). Effects are listed in docs/content/rift-domination.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlanes.engine import Action, Decision

from .actions import Pass, PlayCard, Resolve, Sacrifice, action
from .survey import enemy_fleet_points

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState

def effect_of(card: Any) -> tuple[str, dict[str, Any]]:
    """(kind, params) of a card's effect, whatever model shape the content uses; the
    params dict is the caller's own."""
    eff = card.effect
    data = eff.model_dump() if hasattr(eff, "model_dump") else dict(eff)
    kind = data.pop("kind")
    return kind, data


_EFFECT_CACHE: dict[int, tuple[Any, tuple[str, dict[str, Any]]]] = {}


def cached_effect(card: Any) -> tuple[str, dict[str, Any]]:
    """:func:`effect_of` cached per card object, for the rules' hot paths: content is not
    changed once loaded, and the params dict returned here is shared, so read it only."""
    hit = _EFFECT_CACHE.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    got = effect_of(card)
    if len(_EFFECT_CACHE) > 4096:
        _EFFECT_CACHE.clear()
    _EFFECT_CACHE[id(card)] = (card, got)
    return got


def draw_cards(s: RiftState, seat: int, n: int) -> None:
    """Draw ``n`` OCC-cards, resolving instant cards as they come (RD-OCC-03/08)."""
    cards = s.content.cards
    skip_instants = s.options["first_round_no_instants"] and s.round <= 1
    drawn = 0
    guard = 0
    while drawn < n:
        card = s.draw_card(seat)
        if card is None:
            s.log("the OCC deck is empty")
            return
        if cards[card].timing == "instant":
            if skip_instants and guard < 50:
                guard += 1
                s.hands[seat].remove(card)
                s.deck.insert(s.rng.randrange(len(s.deck) + 1), card)
                continue
            drawn += 1
            s.discard_card(seat, card)
            s.log(f"{s.seat_name(seat)} draws instant card {cards[card].name}")
            fx = s.fx[seat]
            if fx is not None and fx.diplomat_shield and _diplomats(s, seat):
                s.push(Decision(seat, "instant", (card,)))
            else:
                resolve_effect(s, seat, card, "", seat)
        else:
            drawn += 1


def _diplomats(s: RiftState, seat: int) -> list[int]:
    """The seat's diplomats that may be sacrificed (not one fighting in a battle)."""
    busy = s.battle.fighters if s.battle is not None else {}
    return [
        u for u, x in s.units.of[seat].items()
        if x.kind == "diplomat" and u not in busy
    ]


_TABLES: dict[int, tuple[Any, dict[str, tuple[str, str, dict[str, Any]]]]] = {}


def card_table(content: Any) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """card id -> (timing, effect kind, effect params) for ``content``'s OCC-cards, cached
    per content object (read the params, never change them)."""
    hit = _TABLES.get(id(content))
    if hit is not None and hit[0] is content:
        return hit[1]
    table = {cid: (card.timing, *cached_effect(card)) for cid, card in content.cards.items()}
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[id(content)] = (content, table)
    return table


# ------------------------------------------------------------------ own-turn play
#: The effect kinds whose plays name a target (``_targets`` lists them for these, and
#: answers None for every other kind).
TARGETED = frozenset({"steal_resources", "discard_cards", "drain_income", "sabotage",
                      "free_upgrade", "recruit", "free_units", "teleport"})


def _targets(s: RiftState, seat: int, kind: str, p: dict[str, Any]) -> list[str] | None:
    """Targets of an own-turn effect; None when the card needs no target; [] when it has
    no legal target now (then it cannot be played)."""
    if kind not in TARGETED:
        return None
    b = s.board
    ids = b.planet_ids
    if kind in ("steal_resources", "discard_cards", "drain_income"):
        return [f"@{o}" for o in range(s.n) if o != seat]
    if kind == "sabotage":
        ups = s.content.upgrades
        return [
            f"{ids[q]}:{u}" for q in b.in_play_planets
            if s.planet_owner[q] not in (-1, seat)
            for u in sorted(set(s.planet_upgrades[q])) if u != "military_base" and ups[u]
        ]
    if kind == "free_upgrade":
        from .turn import buildable

        return [f"{ids[q]}:{u}" for q in b.in_play_planets for u in buildable(s, seat, q)]
    if kind in ("recruit", "free_units"):
        return [ids[q] for q in free_bases(s, seat)]
    if kind == "teleport":
        bases = s.military_bases(seat)
        fleets = sorted(s.units.afloat[seat])
        return [
            f"{b.names[f]}>{ids[q]}" for f in fleets for q in bases
            if b.planet_point[q] != f
        ]
    raise AssertionError(f"no targets listed for {kind!r}")  # pragma: no cover


#: Timings of the cards a seat may play in its own turn (steps 4-7).
OWN_TURN = frozenset({"own_turn", "any_time"})

_PLANS: dict[tuple[int, frozenset[str], tuple[str, ...]], tuple[Any, tuple]] = {}
"""(id of the content, timings, hand) -> (the content, the hand's playable cards in card
order: ``(card, effect kind, params, its play when it names no target else None)``);
started again past ``_PLANS_CAP`` entries."""
_PLANS_CAP = 4096


def _plan(s: RiftState, hand: list[str], timings: frozenset[str]) -> tuple:
    """The playable cards of ``hand`` (see ``_PLANS``), worked out once per hand."""
    content = s.content
    key = (id(content), timings, tuple(hand))
    got = _PLANS.get(key)
    if got is not None and got[0] is content:
        return got[1]
    table = card_table(content)
    entries = []
    for cid in sorted(set(hand)):
        timing, kind, p = table[cid]
        if timing in timings:
            entries.append((cid, kind, p, None if kind in TARGETED else action(PlayCard, cid)))
    if len(_PLANS) >= _PLANS_CAP:
        _PLANS.clear()
    plan = tuple(entries)
    _PLANS[key] = (content, plan)
    return plan


def own_turn_actions(s: RiftState, seat: int, timings: frozenset[str] = OWN_TURN) -> list[Action]:
    """Card plays open to ``seat`` outside battle: cards of the given timings with each of
    their legal targets."""
    hand = s.hands[seat]
    if not hand:
        return []
    out: list[Action] = []
    found: dict[str, list[str]] = {}  # effect kind -> its targets, found once
    for cid, kind, p, play in _plan(s, hand, timings):
        if play is not None:
            out.append(play)
            continue
        targets = found.get(kind)
        if targets is None:
            targets = found[kind] = _targets(s, seat, kind, p)  # type: ignore[assignment]
        out.extend([action(PlayCard, cid, t) for t in targets])  # a list: no generator
    return out


def play_own_turn(s: RiftState, seat: int, a: Action) -> None:
    assert isinstance(a, PlayCard)
    card = s.content.cards[a.card]
    s.discard_card(seat, a.card)
    s.log(f"{s.seat_name(seat)} plays {card.name}{target_words(s, a.target)}")
    if card.targets_opponent:
        target = _target_seat(s, a.target)
        s.push(Decision(target, "counter", (a.card, seat, a.target)))
        return
    resolve_effect(s, seat, a.card, a.target, seat)


def target_words(s: RiftState, target: str) -> str:
    """A card's ``target`` in words, to follow the card's name: ``" against P1 (Verdant
    Bloom)"``, ``" on the Artillery of Ossa (E1b)"``, ``": jump from B1 to C1"``, ``" on
    Wren (E5a)"``; ``""`` for none."""
    if not target:
        return ""
    if target.startswith("@"):
        return f" against {s.seat_name(int(target[1:]))}"
    if ">" in target:
        src, dst = target.split(">")
        return f": jump from {s.point_name(src)} to {s.point_name(dst)}"
    if ":" in target:
        planet, up = target.split(":")
        return f" on the {s.kind_name(up)} of {s.point_name(planet)}"
    return f" on {s.point_name(target)}"


def _target_seat(s: RiftState, target: str) -> int:
    if target.startswith("@"):
        return int(target[1:])
    planet = s.board.planet_ids.index(target.split(":")[0])
    return s.planet_owner[planet]


# ------------------------------------------------------------------ reaction windows
def _counter_legal(s: RiftState, d: Decision) -> list[Action]:
    seat = d.seat
    cards = s.content.cards
    out: list[Action] = [
        action(PlayCard, c) for c in sorted(set(s.hands[seat]))
        if cards[c].timing == "counter" and cached_effect(cards[c])[0] == "counter"
    ]
    fx = s.fx[seat]
    if fx is not None and fx.diplomat_shield and _diplomats(s, seat):
        out.append(action(Sacrifice))
    out.append(action(Pass))
    return out


def _counter_apply(s: RiftState, d: Decision, a: Action) -> None:
    card, player, target = d.data
    name = s.content.cards[card].name
    resolved = False
    if isinstance(a, PlayCard):
        s.discard_card(d.seat, a.card)
        s.log(f"{s.seat_name(d.seat)} counters {name} with {s.content.cards[a.card].name}")
    elif isinstance(a, Sacrifice):
        _sacrifice(s, d.seat, name)
    elif target != "battle":
        resolve_effect(s, player, card, target, d.seat)
    else:
        resolved = True
    if target == "battle":
        from . import battle

        battle.card_answered(s, player, card, resolved)


def _sacrifice(s: RiftState, seat: int, name: str) -> None:
    s.remove_unit(_diplomats(s, seat)[0])
    s.log(f"{s.seat_name(seat)} sacrifices a diplomat instead of resolving {name}")


def _instant_legal(s: RiftState, d: Decision) -> list[Action]:
    return [Resolve(), Sacrifice()] if _diplomats(s, d.seat) else [Resolve()]


def _instant_apply(s: RiftState, d: Decision, a: Action) -> None:
    if isinstance(a, Sacrifice):
        _sacrifice(s, d.seat, s.content.cards[d.data[0]].name)
    else:
        resolve_effect(s, d.seat, d.data[0], "", d.seat)


# ------------------------------------------------------------------ windows between turns
#: Cards that may be played in a window between turns (RD-OCC-01).
ANY_TIME = frozenset({"any_time"})


def holds_any_time(s: RiftState, seat: int) -> bool:
    hand = s.hands[seat]
    if not hand:
        return False
    table = card_table(s.content)
    return any(table[c][0] == "any_time" for c in hand)


def open_window(s: RiftState) -> None:
    """After a seat's turn, before the next turn or the end of the round: every other seat,
    clockwise from the next one, may play ``any_time`` cards (RD-OCC-01 "the cards can
    always be used, even during other player turns"; ruling RD-OPEN-14). A seat holding no
    such card is skipped without a decision. Option ``occ_timing="own_turn"`` (the narrow
    reading) opens no window."""
    if s.options["occ_timing"] != "always":
        return
    _ask(s, tuple((s.seat + k) % s.n for k in range(1, s.n)))


def _ask(s: RiftState, order: tuple[int, ...]) -> None:
    """Push the window for the first seat of ``order`` that holds an any-time card; the
    seats skipped before it are known (to every seat) to hold none."""
    for i, seat in enumerate(order):
        if holds_any_time(s, seat):
            s.occ_known[seat] = (s.occ_known[seat][0], True)
            s.push(Decision(seat, "window", (order[i + 1:],)))
            return
        s.occ_known[seat] = (len(s.hands[seat]), False)


def skip_spent_window(s: RiftState) -> bool:
    """If the top decision is a window whose seat no longer holds an any-time card (it
    played its last), close it and ask the next seat. Returns True if it did."""
    d = s.stack[-1]
    if d.kind != "window" or holds_any_time(s, d.seat):
        return False
    s.stack.pop()
    s.occ_known[d.seat] = (len(s.hands[d.seat]), False)
    _ask(s, d.data[0])
    return True


def _window_legal(s: RiftState, d: Decision) -> list[Action]:
    return [*own_turn_actions(s, d.seat, ANY_TIME), action(Pass)]


def _window_apply(s: RiftState, d: Decision, a: Action) -> None:
    if isinstance(a, PlayCard):
        s.push(d)  # the seat may play more once this card (and any answer to it) is done
        play_own_turn(s, d.seat, a)
    else:
        _ask(s, d.data[0])


DECISIONS = {
    "counter": (_counter_legal, _counter_apply),
    "instant": (_instant_legal, _instant_apply),
    "window": (_window_legal, _window_apply),
}


# ------------------------------------------------------------------ effects
def resolve_effect(s: RiftState, seat: int, card_id: str, target: str, victim: int) -> None:
    """Apply a non-battle card effect for ``seat``; ``victim`` is the targeted seat."""
    kind, p = cached_effect(s.content.cards[card_id])
    b = s.board
    ids = b.planet_ids
    floor = s.content.rules.income_start
    if kind == "gain_resources":
        s.gain_resources(seat, p["amount"], "OCC-card")
    elif kind == "lose_resources":
        s.gain_resources(seat, -p["amount"], "OCC-card")
    elif kind == "gain_vp":
        s.gain_vp(seat, p["amount"], "OCC-card")
    elif kind == "lose_vp":
        s.gain_vp(seat, -p["amount"], "OCC-card")
    elif kind == "draw":
        draw_cards(s, seat, p["amount"])
    elif kind == "income_up":
        s.income[seat] = min(s.content.rules.income_max, s.income[seat] + p["amount"])
    elif kind == "income_down":
        # the counter cannot leave its printed track (3-23); each step it cannot drop
        # costs ``else_lose`` resources instead, so the card never does nothing
        drop = min(p["amount"], max(0, s.income[seat] - floor))
        s.income[seat] -= drop
        if drop:
            s.log(f"{s.seat_name(seat)}'s resource-per-round counter drops to {s.income[seat]}")
        if drop < p["amount"] and p["else_lose"]:
            s.gain_resources(seat, -(p["amount"] - drop) * p["else_lose"], "OCC-card")
    elif kind == "drain_income":
        s.income[victim] = max(floor, s.income[victim] - p["amount"])
    elif kind == "steal_resources":
        got = min(p["amount"], s.resources[victim])
        s.resources[victim] -= got
        s.resources[seat] += got
        s.log(f"{s.seat_name(seat)} steals {got} resources from {s.seat_name(victim)}")
    elif kind == "discard_cards":
        for _ in range(min(p["amount"], len(s.hands[victim]))):
            c = s.hands[victim][s.rng.randrange(len(s.hands[victim]))]
            s.discard_card(victim, c)
        s.log(f"{s.seat_name(victim)} discards {p['amount']} OCC-card(s)")
    elif kind == "sabotage":
        name, up = target.split(":")
        q = ids.index(name)
        ups = list(s.planet_upgrades[q])
        if up in ups:
            ups.remove(up)
            s.planet_upgrades[q] = tuple(ups)
            s.log(f"{s.kind_name(up)} on {s.point_name(name)} is destroyed")
    elif kind == "free_upgrade":
        name, up = target.split(":")
        from .turn import add_upgrade, buildable

        q = ids.index(name)
        if up in buildable(s, seat, q):
            add_upgrade(s, q, up)
    elif kind in ("recruit", "free_units"):
        _place_units(s, seat, p["unit"], p["count"], target)
    elif kind == "lose_units":
        mine = [u for u, x in s.units.of[seat].items() if x.kind == p["unit"]]
        for u in mine[: p["count"]]:
            s.remove_unit(u)
        s.log(f"{s.seat_name(seat)} loses {s.kind_name(p['unit'], min(len(mine), p['count']))}")
    elif kind == "extra_mp":
        s.turn_mp_bonus += p["amount"]
        stats = s.stats[seat]
        for u, x in s.units.of[seat].items():
            if stats[x.kind].self_propelled:
                s.units[u] = x._replace(mp=x.mp + p["amount"])
    elif kind == "teleport":
        src, dst = target.split(">")
        a, q = b.index[src], b.planet_point[ids.index(dst)]
        moved = {}
        for u, x in list(s.units.of[seat].items()):
            if x.loc == a and not x.landed:
                s.units[u] = x._replace(loc=q)
                moved[u] = a
        s.log(f"{s.seat_name(seat)}'s fleet at {s.point_name(src)} jumps to {s.point_name(dst)}")
        if s.enemy_fleet_at(seat, q):
            # entering an enemy-held point starts a battle however the fleet got there
            # (RD-MOV-10, ruling RD-OPEN-24); a retreat goes back to where it jumped from
            from . import battle

            battle.start_space_battle(s, seat, q, moved)
    else:
        s.log(f"{s.content.cards[card_id].name} has no effect outside battle")


def free_bases(s: RiftState, seat: int) -> list[int]:
    """The seat's planets with a military base whose orbit holds no enemy fleet: new units
    are never placed into an enemy-held orbit (RD-REC-03, ruling RD-OPEN-24)."""
    bases = s.military_bases(seat)
    if not bases:
        return bases
    pp = s.board.planet_point
    held = s.units.fleet_at  # an enemy fleet at that point
    return [q for q in bases if not held(pp[q], seat)]


def _place_units(s: RiftState, seat: int, unit: str, count: int, target: str) -> None:
    """Units from a card go to the named base planet, else the first military base whose
    orbit holds no enemy fleet, else the largest fleet; with none of these they are lost."""
    b = s.board
    point = -1
    if target:
        point = b.planet_point[b.planet_ids.index(target)]
    else:
        bases = free_bases(s, seat)
        if bases:
            point = b.planet_point[bases[0]]
        else:
            locs: dict[int, int] = {}
            enemy = enemy_fleet_points(s, seat)
            for x in s.units.of[seat].values():
                if not x.landed and x.loc not in enemy:
                    locs[x.loc] = locs.get(x.loc, 0) + 1
            if locs:
                point = max(sorted(locs), key=lambda q: locs[q])
    if point < 0:
        s.log(f"{s.seat_name(seat)} has nowhere to place {s.kind_name(unit, count)}")
        return
    for _ in range(count):
        s.add_unit(seat, unit, point)
    s.log(f"{s.seat_name(seat)} gets {s.kind_name(unit, count)} at "
          f"{s.point_name(b.names[point])}")
