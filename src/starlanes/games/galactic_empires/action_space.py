"""Galactic Empires' fixed action space (see :mod:`starlanes.engine.action_space`).

The notation names card instances (``blue_giant#15``); instance numbers come from how the
decks were dealt, so the space never uses them. A card is written by **copy rank** instead:

- a card in a hand, a reserve fleet or the pending reactions is ``card:k``, the ``k``-th
  copy of that card id there by increasing instance number (``re_deflector:0`` is the
  acting seat's first Deflector in hand);
- a card in play is ``card:k@r``: the ``k``-th copy of that card id its owner has in play,
  owned by the seat ``r`` places after the acting seat in seat order (``@0`` is the actor
  himself, ``@1`` the next seat...);
- a weapon of a card in play is ``card:k@0.j`` (slot ``j`` of its weapon symbols);
- a card of the acting seat's reserve fleet offered in a swap is its reserve slot ``Rj``:
  the reserve (as many cards as there are players, ruling GE-OPEN-04) sorted by card id
  in the content's order, copies by instance number (the observation tensor lists the
  reserve slot by slot, so the slot's card is in view);
- a fleet or a Sector HQ is the relative seat ``@r``.

Ranks run to the most copies of a card one seat can hold: its copies summed over every
Basic Game deck of the content (one shared deck) or its copies in one Standard Game deck
(a seat only ever holds cards of his own deck), whichever is more. Card ids are those of
the content's decks (a card in no deck never comes into a game). The numbering therefore
depends only on the content and the player count, not on the deck options or the deal.

Each argument's domain keeps only the card ids that can be there (engaging a card needs a
ship, base, dragon, crew or equipment; ``shoot`` a weapon slot; ``play`` a card on a fleet
one of the fleet-targeting kinds...); the predicates below follow the rules modules and
take a superset where in doubt. Card plays are split by target form into the verbs
``play`` (no target, or one of the player's own cards in play for crew, equipment and
Krebiz components), ``play@card`` (damage, repair and the like on any card in play),
``play+`` (a Krebiz component with its partner from hand, GE-EMP-KRB-03), ``play@fleet``
and ``play@hq``.

No action is a subset choice: weapons are added to an attack one ``shoot`` or ``volley``
at a time before ``commit`` (GE-FIRE-01/02), points are allocated one at a time and a
Krebiz separation places its accompanying cards one ``place`` at a time (GE-EMP-KRB-07).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import ActionIndexError
from starlanes.engine.action_space import Family
from starlanes.engine.game import per_content

from .actions import NONE, code_seat, is_fleet, is_hq
from .content import HEAVY, OP_KINDS

if TYPE_CHECKING:  # pragma: no cover
    from starlanes.engine import Action

    from .content import Card, Content
    from .game import GalacticEmpires
    from .state import GEState

UNIT_TARGET_KINDS = frozenset({"damage", "permanent", "disengage", "repair",
                               "emergency_repair"})
FLEET_KINDS = frozenset({"time_warp", "economic_crisis", "damage_fleet", "discard_random"})
HQ_KINDS = frozenset({"hq_damage", "hq_repair"})


def weapon_slots(card: Card) -> str:
    """The weapon symbols of a card in play: printed ones, then its weapon effects (as
    :func:`.units.slots`)."""
    return card.weapons + "".join(e.symbol * e.n for e in card.effects if e.kind == "weapon")


def copy_caps(content: Content) -> dict[str, int]:
    """Card id -> the most copies one seat can hold, in the order of the content's pool
    (see the module docstring)."""
    basic: dict[str, int] = {}
    standard: dict[str, int] = {}
    for d in content.decks.values():
        for cid, k in d.cards.items():
            if d.structure == "basic":
                basic[cid] = basic.get(cid, 0) + k
            else:
                standard[cid] = max(standard.get(cid, 0), k)
    return {cid: max(basic.get(cid, 0), standard.get(cid, 0)) for cid in content.cards
            if cid in basic or cid in standard}


class Tokens:
    """The token tables of one content and player count: ``hand[cid][k]`` and
    ``unit[cid][k][r]`` (see the module docstring)."""

    def __init__(self, content: Content, players: int) -> None:
        self.caps = copy_caps(content)
        self.cards = content.cards
        self.players = players
        self.hand = {c: [f"{c}:{k}" for k in range(n)] for c, n in self.caps.items()}
        self.unit = {c: [[f"{c}:{k}@{r}" for r in range(players)] for k in range(n)]
                     for c, n in self.caps.items()}
        self.seat = tuple(f"@{r}" for r in range(players))
        self.reserve = tuple(f"R{j}" for j in range(players))
        self.order = {c: k for k, c in enumerate(self.caps)}
        self.hq = tuple(f"HQ@{r}" for r in range(players))

    def held(self, ok) -> tuple[str, ...]:  # noqa: ANN001 - predicate on Card
        """Hand tokens of the card ids ``ok`` accepts."""
        return tuple(t for c, ts in self.hand.items() if ok(self.cards[c]) for t in ts)

    def units(self, ok, seats: range | None = None) -> tuple[str, ...]:  # noqa: ANN001
        """Unit tokens of the card ids ``ok`` accepts, owned by the relative ``seats``
        (every seat by default)."""
        rs = seats if seats is not None else range(self.players)
        return tuple(ts[r] for r in rs for c, per in self.unit.items()
                     if ok(self.cards[c]) for ts in per)

    def weapons(self, ok) -> tuple[str, ...]:  # noqa: ANN001 - predicate on a symbol
        """Weapon tokens of the actor's cards: ``card:k@0.j`` for every slot ``ok`` takes."""
        return tuple(f"{per[0]}.{j}" for c, ts in self.unit.items() for per in ts
                     for j, sym in enumerate(weapon_slots(self.cards[c])) if ok(sym))


def tokens(game: GalacticEmpires) -> Tokens:
    """The token tables of ``game``'s content and player count (built once, then shared)."""
    return per_content(game, _tokens)


def _tokens(game: GalacticEmpires) -> Tokens:
    return Tokens(game.content, game.players)


def _kinds(c: Card) -> set[str]:
    return {e.kind for e in c.effects}


def _any(c: Card) -> bool:
    return True


def _vessel(c: Card) -> bool:
    return c.type in "SBD"


def _krebiz(c: Card) -> bool:
    return bool(c.krebiz)


def _attachment(c: Card) -> bool:
    return c.type in "CE"


def _engageable(c: Card) -> bool:
    return c.type in "SBDCE"


def _heavy(c: Card) -> bool:
    return any(w in HEAVY for w in weapon_slots(c))


def _chargeable(c: Card) -> bool:
    return bool(c.nodes or c.vmax)


def _armed(c: Card) -> bool:
    return bool(weapon_slots(c))


def _located(c: Card) -> bool:
    return c.located


def _terrain(c: Card) -> bool:
    return c.type == "T"


def _attaches(c: Card) -> bool:
    """Cards played onto one of the player's own cards in play: crew and equipment
    (onto a ship, base or terrain), a Krebiz component onto its counterpart."""
    return bool(c.krebiz) or c.type in "CE"


def _on_card(c: Card) -> bool:
    """Other cards ``cardplay.targets`` may play on a card in play (damage, repair)."""
    return not _attaches(c) and bool(_kinds(c) & UNIT_TARGET_KINDS)


def _host(c: Card) -> bool:
    return c.type in "SBDT"


def _hit(c: Card) -> bool:
    return c.type in "SBTM"


def _on_fleet(c: Card) -> bool:
    return c.type in "HM" or bool(_kinds(c) & FLEET_KINDS)


def _on_hq(c: Card) -> bool:
    return bool(_kinds(c) & HQ_KINDS)


def _operated(c: Card) -> bool:
    return c.type in "HM" or bool(_kinds(c) & OP_KINDS)


def _op_target(c: Card) -> bool:
    return c.type in "SBDT"


def _monster(c: Card) -> bool:
    return c.type == "M"


def _reaction(c: Card) -> bool:
    return c.reaction


def _react_target(c: Card) -> bool:
    return c.type in "SBDT"


def _counter(c: Card) -> bool:
    return c.reaction and (c.has("override") or c.has("dampen"))


def _cruisers(content: Content) -> list[Card]:
    return [c for c in content.cards.values() if c.krebiz == "cruiser"]


def families(game: GalacticEmpires) -> list[Family]:
    """The notation families in index order (phases 1-8, then the decisions)."""
    t = tokens(game)
    own = range(1)
    cruisers = _cruisers(game.content)
    shields = tuple(str(i) for i in range(max((c.shields for c in cruisers), default=0) + 1))
    structure = tuple(str(i) for i in range(max((c.strength for c in cruisers), default=1)))
    counts = tuple(str(i) for i in range(3))
    return [
        Family("done"), Family("pass"), Family("commit"), Family("cease"),
        Family("withdraw"),
        # 1-2 Point Allocation and Engagement
        Family("engage", (t.units(_engageable, own),)),
        Family("engage", (t.units(_krebiz, own), t.units(_krebiz, own))),
        Family("arm", (t.units(_heavy, own),)),
        Family("charge", (t.units(_chargeable, own),)),
        Family("repair", (t.units(_any, own),)),
        Family("heal", (t.units(_any, own),)),
        Family("relocate", (t.units(_located, own), t.units(_terrain, own))),
        # 3 and 5 Play Cards
        Family("play", (t.held(_any),)),
        Family("play+", (t.held(_krebiz), t.held(_krebiz))),
        Family("play", (t.held(_attaches), t.units(_host, own))),
        Family("play@card", (t.held(_on_card), t.units(_hit))),
        Family("play@fleet", (t.held(_on_fleet), t.seat)),
        Family("play@hq", (t.held(_on_hq), t.seat)),
        Family("swap", (t.held(_any), t.reserve)),
        Family("separate", (t.units(_krebiz, own),)),
        Family("combine", (t.units(_krebiz, own), t.units(_krebiz, own))),
        Family("operate", (t.units(_operated, own), t.units(_op_target))),
        Family("study", (t.units(_monster),)),
        # 4 Weapons Fire and its windows
        Family("aim", (t.units(_any) + t.hq,)),
        Family("shoot", (t.weapons(lambda w: w != "X"),)),
        Family("volley", (t.units(_armed, own),)),
        Family("distort", (t.weapons(lambda w: w == "X"), t.seat)),
        Family("react", (t.held(_reaction),)),
        Family("react", (t.held(_reaction), t.units(_react_target))),
        Family("counter", (t.held(_counter), t.held(_reaction))),
        # Krebiz separation (GE-EMP-KRB-07/08)
        Family("split", (shields, structure)),
        Family("place", (t.units(_attachment, own), t.units(_krebiz, own))),
        # 6-8 Discard, Draw, End Turn; victory celebration (GE-WIN-05)
        Family("discard", (t.held(_any),)),
        Family("scuttle", (t.units(_any, own),)),
        Family("draw", (counts,)),
        Family("celebrate", (counts,)),
    ]


class _Ranks:
    """Copy ranks of one state, seen by the seat to act (built once per state)."""

    __slots__ = ("state", "moves", "legal", "actor", "units", "held", "t")

    def __init__(self, s: GEState) -> None:
        self.state = s
        self.moves = len(s.history)
        self.legal = s._legal
        self.actor = s.current_player()
        self.t = tokens(s.game)
        self.held: dict[int, dict[int, str]] = {}
        n = s.n
        actor = self.actor
        seen: dict[tuple[int, str], int] = {}
        unit = self.t.unit
        out: dict[int, str] = {}
        try:
            for i in sorted(s.units):
                u = s.units[i]
                k = (u.owner, u.card)
                rank = seen.get(k, 0)
                seen[k] = rank + 1
                out[i] = unit[u.card][rank][(u.owner - actor) % n]
        except (KeyError, IndexError):
            raise ActionIndexError(
                f"{s.name(i)} is a copy of its card the action space does not number"
            ) from None
        self.units = out

    def unit(self, inst: int) -> str:
        tok = self.units.get(inst)
        if tok is None:
            raise ActionIndexError(f"card instance {inst} is not in play")
        return tok

    def card(self, pile: list[int], inst: int) -> str:
        """The rank token of ``inst`` among the copies of its card id in ``pile``."""
        key = id(pile)
        table = self.held.get(key)
        if table is None:
            table = self.held[key] = _rank_tokens(self.state, pile, self.t)
        tok = table.get(inst)
        if tok is None:
            raise ActionIndexError(f"card instance {inst} is not where the action says")
        return tok

    def seat(self, seat: int) -> int:
        return (seat - self.actor) % self.state.n


def _rank_tokens(s: GEState, pile: list[int], t: Tokens) -> dict[int, str]:
    seen: dict[str, int] = {}
    out = {}
    defs = s.defs
    for i in sorted(pile):
        cid = defs[i]
        rank = seen.get(cid, 0)
        seen[cid] = rank + 1
        per = t.hand.get(cid, ())
        if rank >= len(per):
            raise ActionIndexError(f"{s.name(i)} is a copy of its card the action space "
                                   "does not number")
        out[i] = per[rank]
    return out


def reserve_order(s: GEState, seat: int) -> list[int]:
    """``seat``'s reserve fleet in slot order: by card id in the content's order, copies
    by instance number."""
    order = tokens(s.game).order
    defs = s.defs
    return sorted(s.reserve[seat], key=lambda i: (order.get(defs[i], -1), i))


def reserve_slot(s: GEState, seat: int, inst: int) -> str:
    """The reserve slot token ``Rj`` of ``inst`` in ``seat``'s reserve fleet. Raises
    ActionIndexError for a card not there."""
    slots = reserve_order(s, seat)
    if inst not in slots:
        raise ActionIndexError(f"card instance {inst} is not in the reserve fleet")
    return tokens(s.game).reserve[slots.index(inst)]


_LAST: list = [None]


def ranks(s: GEState) -> _Ranks:
    """The copy ranks of state ``s`` (the last state's are kept until it changes: an
    action applied, or its legal actions recomputed)."""
    r = _LAST[0]
    if r is None or r.state is not s or r.moves != len(s.history) or r.legal is not s._legal:
        r = _LAST[0] = _Ranks(s)
    return r


_PLAIN = frozenset({"done", "pass", "commit", "cease", "withdraw"})
_ONE_UNIT = frozenset({"arm", "charge", "repair", "heal", "separate", "study", "volley",
                       "scuttle"})
_TWO_UNITS = frozenset({"relocate", "combine", "operate", "place"})


def key(state: GEState | None, action: Action) -> tuple[str, ...]:
    """The canonical key of ``action`` in ``state`` (card instances rewritten as copy ranks,
    seats made relative to the seat to act). Raises ActionIndexError without a state for
    an action that names a card or a seat, or for a card not where the action says."""
    kind = action.kind  # type: ignore[attr-defined]
    if kind in _PLAIN:
        return (kind,)
    if kind in ("draw", "celebrate", "split"):
        return (kind, *(str(x) for x in (action.a, action.b) if x >= 0))  # type: ignore[attr-defined]
    if state is None:
        raise ActionIndexError(f"{action}: numbering a card action needs the state")
    r = ranks(state)
    a, b, c = action.a, action.b, action.c  # type: ignore[attr-defined]
    if kind in _ONE_UNIT:
        return (kind, r.unit(a))
    if kind in _TWO_UNITS:
        return (kind, r.unit(a), r.unit(b))
    hand = state.hands[r.actor] if r.actor >= 0 else []
    if kind == "play":
        if c != NONE:
            return ("play+", r.card(hand, a), r.card(hand, c))
        if b == NONE:
            return ("play", r.card(hand, a))
        if is_fleet(b):
            return ("play@fleet", r.card(hand, a), f"@{r.seat(code_seat(b))}")
        if is_hq(b):
            return ("play@hq", r.card(hand, a), f"@{r.seat(code_seat(b))}")
        verb = "play" if _attaches(state.card(a)) else "play@card"
        return (verb, r.card(hand, a), r.unit(b))
    if kind == "engage":
        return ("engage", r.unit(a)) if b == NONE else ("engage", r.unit(a), r.unit(b))
    if kind == "aim":
        return ("aim", f"HQ@{r.seat(code_seat(a))}" if is_hq(a) else r.unit(a))
    if kind == "shoot":
        return ("shoot", f"{r.unit(a)}.{b}")
    if kind == "distort":
        return ("distort", f"{r.unit(a)}.{b}", f"@{r.seat(c)}")
    if kind == "swap":
        return ("swap", r.card(hand, a), reserve_slot(state, r.actor, b))
    if kind == "discard":
        return ("discard", r.card(hand, a))
    if kind == "react":
        return ("react", r.card(hand, a)) if b == NONE else \
            ("react", r.card(hand, a), r.unit(b))
    if kind == "counter":
        reacts = [x for x, _ in state.pending[4]]
        return ("counter", r.card(hand, a), _rank_tokens(state, reacts, r.t)[reacts[b]])
    raise ActionIndexError(f"{action}: no action family for {kind!r}")
