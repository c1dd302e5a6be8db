"""Setting up a game and starting a player turn (THE BASIC GAME, Deal Starting Hands;
the ante and the reserve fleet, rulings GE-OPEN-04 and GE-OPEN-20)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .content import BASIC_SETS, STANDARD_DEFAULT, stocked_minor
from .state import POOL_NAMES, H, P, S, X

if TYPE_CHECKING:  # pragma: no cover
    from .content import Content, Deck
    from .state import GEState

HAND_SIZE = 9


def deck_lists(content: Content, structure: str, deck: str, decks: str,
               players: int, own: Sequence[Deck | None] = ()) -> list[list[str]]:
    """The card ids of each deck: one shared deck in the Basic Game (GE-DECK-01), one per
    player in the Standard Game: the seat's own deck (``own[seat]``, option seat_setup)
    or else the ready-made deck option ``decks`` gives it."""
    if structure == "basic":
        if deck == "auto":
            deck = BASIC_SETS[0] if players == 2 else "both"
        names = list(BASIC_SETS) if deck == "both" else [deck]
        out: list[str] = []
        for nm in names:
            for cid, k in sorted(content.decks[nm].cards.items()):
                out.extend([cid] * k)
        return [out]
    return [[cid for cid, k in sorted(d.cards.items()) for _ in range(k)]
            for d in standard_decks(content, decks, players, own)]


def begin(s: GEState) -> None:
    """Shuffle, ante, set aside the reserve fleets, deal 9-card hands (GE-DECK-06) and
    start the first player turn.

    Ante (ruling GE-OPEN-20): every player turns up the top card of his deck; the highest
    strength goes first, a tie is settled by a die roll (:func:`roll_off`); all antes
    start the discard pile. Reserve
    (ruling GE-OPEN-04): each player then sets aside as many cards as there are players,
    face down, seen only by him. Then each is dealt 9 cards."""
    deck_ids = sorted({s.deck_of[i] for i in range(len(s.defs))})
    s.decks = [[] for _ in deck_ids]
    s.discards = [[] for _ in deck_ids]
    for inst in range(len(s.defs)):
        s.decks[s.deck_of[inst]].append(inst)
    for d in s.decks:
        s.rng.shuffle(d)
    if s.structure == "standard":
        major = [d.major for d in standard_decks(s.content, s.options["decks"], s.n,
                                                 s.game.seat_decks)]
        s.major = [m if m != "generic" else "" for m in major]
    else:  # ruling GE-OPEN-15: the shared deck's stocking decides, not the first ship
        s.major = [stocked_minor(s.cards, list(s.defs))] * s.n
    antes: list[int] = []
    best, top = -1, []
    for seat in range(s.n):
        inst = s.deck_for(seat).pop()
        antes.append(inst)
        st = s.card(inst).strength
        if st > best:
            best, top = st, [seat]
        elif st == best:
            top.append(seat)
    contenders = [roll_off(s, top)]
    for inst in antes:
        s.to_discard(inst)
    s.antes = antes
    s.first = contenders[0]
    s.log(f"antes: {', '.join(s.title(i) for i in antes)}; P{s.first} goes first")
    for seat in range(s.n):
        for _ in range(s.n):
            s.reserve[seat].append(s.deck_for(seat).pop())
    for _ in range(HAND_SIZE):
        for seat in range(s.n):
            s.hands[seat].append(s.deck_for(seat).pop())
    s.seat = s.first
    s.round = 1
    begin_turn(s)


def roll_off(s: GEState, seats: list[int]) -> int:
    """Settle a tie the rules leave open with a die roll (GE-MISC-02, ruling GE-OPEN-13):
    each tied seat rolls a d6, the highest wins, ties roll again."""
    while len(seats) > 1:
        rolls = [s.rng.d6() for _ in seats]
        top = max(rolls)
        seats = [x for x, r in zip(seats, rolls, strict=True) if r == top]
    return seats[0]


def standard_decks(content: Content, decks: str, players: int,
                   own: Sequence[Deck | None] = ()) -> list[Deck]:
    """The Standard Game deck of each seat: its own (``own[seat]``) or the ready-made one
    of option ``decks`` (comma-separated, cycled; default krebiz,argonian,corporate,mechad)."""
    chosen = [d for d in decks.split(",") if d] or list(STANDARD_DEFAULT)
    return [own[i] if i < len(own) and own[i] is not None else
            content.decks[chosen[i % len(chosen)]] for i in range(players)]


def begin_turn(s: GEState) -> None:
    """Start ``s.seat``'s player turn at the Point Allocation Phase: reset the turn's
    counters, clear last turn's allocations (the EMF is rebuilt from scratch,
    GE-EMP-MCH-04) and produce this turn's points (GE-PTS-01, GE-PTS-08)."""
    seat = s.seat
    s.turns[seat] += 1
    s.plays = 0
    s.ship_plays = 0
    s.lost = []
    s.fired_at = []
    s.aim = -1
    s.picks = []
    s.pending = ()
    pool = [0] * 7
    turn = s.turns[seat]
    crisis = False
    for i, u in list(s.units.items()):
        c = s.cards[u.card]
        if u.against == seat and c.has("economic_crisis"):
            crisis = True
        if u.owner != seat:
            continue
        if u.against >= 0:
            if u.used:
                s.units[i] = u._replace(used=False)
            continue
        if u.engaged or u.fired or u.used or u.nofire or u.ammo or u.charge \
                or u.half != -1 or (c.nodes and u.sdmg):
            s.units[i] = u._replace(fired=0, used=False, nofire=False, ammo=0, charge=0,
                                    engaged=False, half=-1,
                                    sdmg=0 if c.nodes else u.sdmg)
        if c.type == "T" and u.turn_in >= turn:
            continue
        g = c.generates
        if g.energy or g.supply or g.ammo or g.research or g.repair or g.economy:
            pool[0] += g.energy
            pool[1] += g.supply
            pool[2] += g.ammo
            pool[3] += g.research
            pool[H if c.healing else P] += g.repair
            pool[X] += g.economy
        if c.type == "E" and c.located and u.host >= 0:
            for e in c.effects:
                if e.kind == "terrain_bonus":
                    pool[("energy", "supply", "ammo", "research", "repair", "economy")
                         .index(e.point) if e.point != "economy" else X] += e.n
    if crisis:
        pool[S] //= 2
        pool[X] //= 2
    s.pool = pool
    s.phase = "alloc"
    points = ", ".join(f"{v} {k}" for k, v in zip(POOL_NAMES, pool, strict=True) if v)
    s.log(f"turn {s.round}.{seat}: P{seat} has {points or 'no points'} to allocate")
