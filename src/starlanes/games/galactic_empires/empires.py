"""Fleet and empire rules: one major empire, command points, technology, Indirigans and
the Krebiz cruiser-and-capsule mechanics (USE ONLY ONE MAJOR EMPIRE'S SHIPS, COMMAND POINTS,
THE MAJOR EMPIRES, THE MINOR EMPIRES, MINOR EMPIRE COMMAND RATING BONUS)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Decision

from .content import MAJOR_EMPIRES, MINOR_EMPIRES
from .units import attachment_active, lead, vessels_of

if TYPE_CHECKING:  # pragma: no cover
    from .content import Card
    from .state import GEState

FOREIGN_USERS = ("bolaar", "vektrean")


def restricted(s: GEState, seat: int) -> tuple[str, ...]:
    """Empires subject to the one-empire rule for ``seat``: the four major empires and a
    minor empire the seat's deck is stocked with as its major empire (GE-FLEET-02/03,
    GE-EMP-MIN-01). ``s.major[seat]`` comes from the deck, never from the ships played
    (ruling GE-OPEN-15), so a minor empire ship may always be played otherwise."""
    m = s.major[seat]
    return MAJOR_EMPIRES + ((m,) if m and m not in MAJOR_EMPIRES else ())


def empire_allowed(s: GEState, seat: int, c: Card, present: frozenset[str] | None = None
                   ) -> bool:
    """GE-FLEET-02/03: a ship of a restricted empire may join only a fleet with no ship of
    another restricted empire in play; minor and generic ships always may. ``present``:
    :func:`restricted_present` of ``seat``, where the caller has it."""
    if c.type not in "SD" or c.empire not in restricted(s, seat):
        return True
    if present is None:
        present = restricted_present(s, seat)
    return not (present - {c.empire})


def restricted_present(s: GEState, seat: int, vessels: list[int] | None = None
                       ) -> frozenset[str]:
    """The restricted empires (:func:`restricted`) of ``seat``'s ships and dragons in play;
    ``vessels``: ``vessels_of(s, seat)``, where the caller has it."""
    res = restricted(s, seat)
    out = set()
    for i in vessels_of(s, seat) if vessels is None else vessels:
        c = s.card(i)
        if c.type in "SD" and c.empire in res:
            out.add(c.empire)
    return frozenset(out)


def command_limit(s: GEState, seat: int) -> int:
    """Command points: the number of starting players (unchanged by eliminations,
    GE-FLEET-04/07) plus cards that generate command points (ruling GE-OPEN-07)."""
    extra = 0
    for i, u in s.units.items():
        if u.owner == seat and u.against < 0:
            c = s.cards[u.card]
            if "command" in c.kinds and (u.host < 0 or attachment_active(s, i)):
                extra += c.amount("command")
    return s.n + extra


class CommandTally:
    """What counts against ``seat``'s command limit now, read once (GE-FLEET-05/06/08/09):
    ``count`` ships and bases (a Krebiz combination is one, GE-EMP-KRB-01; those lost in
    the seat's own current turn included), ``minors`` the minor empires among its ships
    and dragons that are not its major empire, ``limit`` (:func:`command_limit`). The
    state must not change while one is in use."""

    __slots__ = ("count", "minors", "major", "per_empire", "_s", "_seat", "_limit")

    def __init__(self, s: GEState, seat: int, vessels: list[int] | None = None) -> None:
        """``vessels``: ``vessels_of(s, seat)``, where the caller has it."""
        cards = [s.card(i) for i in (vessels_of(s, seat) if vessels is None else vessels)]
        if seat == s.seat and s.lost:
            cards += [s.cards[cid] for cid in s.lost]
        self.major = s.major[seat]
        self.count = len(cards)
        self.minors = frozenset(c.empire for c in cards if self._minor(c))
        self.per_empire = s.options["minor_bonus"] == "per_empire"
        self._s, self._seat, self._limit = s, seat, -1

    @property
    def limit(self) -> int:
        """:func:`command_limit` of the seat (read when first asked)."""
        if self._limit < 0:
            self._limit = command_limit(self._s, self._seat)
        return self._limit

    def _minor(self, c: Card) -> bool:
        return c.type in "SD" and c.empire in MINOR_EMPIRES and c.empire != self.major

    def used(self, extra: Card | None = None) -> int:
        """Command points used, with ``extra`` put in play too (None: as things stand),
        less the minor-empire bonus (ruling GE-OPEN-14: one ship in total, or one per
        minor empire with ``minor_bonus``)."""
        minors = self.minors
        count = self.count
        if extra is not None:
            count += 1
            if self._minor(extra):
                minors = minors | {extra.empire}
        bonus = len(minors) if self.per_empire else min(1, len(minors))
        return count - bonus

    def room(self, c: Card | None) -> bool:
        """May one more ship or base (``c``; None = a separated component) come into play?
        (GE-FLEET-05/06, GE-EMP-KRB-10)."""
        if c is None:
            return self.used() + 1 <= self.limit
        return self.used(c) <= self.limit


def command_used(s: GEState, seat: int, extra: Card | None = None) -> int:
    """Ships and bases counted against the limit (GE-FLEET-05; a Krebiz combination is
    one, GE-EMP-KRB-01), less the minor-empire bonus (GE-FLEET-08/09, ruling
    GE-OPEN-14: one ship in total, or one per minor empire with ``minor_bonus``). Ships
    and bases the player lost in his own current turn still count until his next turn
    ("may not play it until the turn after one of his current ships is destroyed",
    GE-FLEET-06)."""
    return CommandTally(s, seat).used(extra)


def command_room(s: GEState, seat: int, c: Card | None) -> bool:
    """May ``seat`` put one more ship or base (``c``; None = a separated component) in
    play? (GE-FLEET-05/06, GE-EMP-KRB-10)."""
    return CommandTally(s, seat).room(c)


def tech_allowed(s: GEState, host: int, c: Card) -> bool:
    """Technology cards (ruling GE-OPEN-08): an empire's technology fits its own ships;
    Bolaar and Vektrean ships use foreign technology freely (GE-EMP-MIN-02); a ship with a
    foreign-technology card uses foreign technology, and a Bolaar or Vektrean ship with one
    also exclusive technology (GE-EMP-MIN-03)."""
    if not c.tech:
        return True
    hc = s.card(host)
    if hc.empire == c.tech:
        return True
    enabler = any(
        u.host == host and s.cards[u.card].has("foreign_tech") for u in s.units.values()
    )
    if hc.empire in FOREIGN_USERS:
        return enabler or not c.exclusive
    return enabler and not c.exclusive


def indirigan_blocks(s: GEState, source: int, target: int) -> bool:
    """GE-EMP-MIN-05/06: an Indirigan ship with the tribal rule may not fire at bases or
    non-Indirigan ships while any opponent has an Indirigan ship in play, unless its owner
    uses the Indirigans as his major empire."""
    u = s.units[source]
    host = u.host if u.host >= 0 else source
    hc = s.card(host)
    if not hc.has("indirigan") or s.major[u.owner] == "indirigan":
        return False
    tc = s.card(target)
    if tc.type not in "SBD" or (tc.type in "SD" and tc.empire == "indirigan"):
        return False
    for v in s.units.values():
        if v.owner != u.owner and v.host < 0 and v.against < 0 and s.alive[v.owner]:
            c = s.cards[v.card]
            if c.type in "SD" and c.empire == "indirigan":
                return True
    return False


# ---------------------------------------------------------------------- Krebiz
def can_join(s: GEState, a: int, b: int) -> bool:
    """A cruiser and a capsule, each alone (GE-EMP-KRB-16), may combine."""
    ua, ub = s.units.get(a), s.units.get(b)
    if ua is None or ub is None or ua.owner != ub.owner or ua.host >= 0 or ub.host >= 0:
        return False
    ka, kb = s.card(a).krebiz, s.card(b).krebiz
    return bool(ka and kb and ka != kb and ua.partner < 0 and ub.partner < 0)


def join(s: GEState, a: int, b: int, fresh: int = -1) -> None:
    """Combine ``a`` and ``b`` into one ship (GE-EMP-KRB-04): damage moves to the lead.
    ``fresh`` is a component played onto an Engaged one this card-play phase: the whole
    combination is Engaged but ``fresh`` may not fire (GE-EMP-KRB-11)."""
    ua, ub = s.units[a], s.units[b]
    lo, hi = (a, b) if a < b else (b, a)
    engaged = ua.engaged or ub.engaged
    nofire_a = ua.nofire or (engaged and not ua.engaged) or a == fresh
    nofire_b = ub.nofire or (engaged and not ub.engaged) or b == fresh
    s.units[a] = ua._replace(partner=b, engaged=engaged, nofire=nofire_a, sdmg=0, dmg=0,
                             perm=0, half=-1)
    s.units[b] = ub._replace(partner=a, engaged=engaged, nofire=nofire_b, sdmg=0, dmg=0,
                             perm=0, half=-1)
    s.units[lo] = s.units[lo]._replace(sdmg=ua.sdmg + ub.sdmg, dmg=ua.dmg + ub.dmg,
                                       perm=ua.perm + ub.perm)
    s.log(f"{s.title(a)} and {s.title(b)} combine")


def split_options(s: GEState, inst: int) -> list[tuple[int, int]]:
    """Ways to divide a combination's damage on separation: (shield, structure) damage left
    on the cruiser; shield damage stays shield damage (GE-EMP-KRB-08) and neither
    component may be destroyed by the split (GE-EMP-KRB-09)."""
    lo = lead(s, inst)
    u = s.units[lo]
    cru, cap = (lo, u.partner) if s.card(lo).krebiz == "cruiser" else (u.partner, lo)
    cc, pc = s.card(cru), s.card(cap)
    out = []
    for sd in range(u.sdmg + 1):
        if sd > cc.shields or u.sdmg - sd > pc.shields:
            continue
        for d in range(u.dmg + 1):
            if d < cc.strength and u.dmg - d < pc.strength:
                out.append((sd, d))
    return out


def separate(s: GEState, inst: int) -> None:
    """Start separating a combination (GE-EMP-KRB-05/06): the Krebiz player then divides
    the damage and places the accompanying cards (GE-EMP-KRB-07/08)."""
    lo = lead(s, inst)
    s.push(Decision(s.units[lo].owner, "split", (lo, s.units[lo].partner)))


def finish_split(s: GEState, lo: int, other: int, sd: int, d: int) -> None:
    ul, uo = s.units[lo], s.units[other]
    cru = lo if s.card(lo).krebiz == "cruiser" else other
    cap = other if cru == lo else lo
    uc, up = s.units[cru], s.units[cap]
    perm_c = min(ul.perm, d)
    turn = s.turns[ul.owner]
    half = ul.half
    vals = {cru: (sd, d, perm_c), cap: (ul.sdmg - sd, ul.dmg - d, ul.perm - perm_c)}
    for i, v in ((cru, uc), (cap, up)):
        engaged = v.engaged if half < 0 else i == half
        sdm, dm, pm = vals[i]
        s.units[i] = v._replace(partner=-1, split=turn, sdmg=sdm, dmg=dm, perm=pm,
                                engaged=engaged, half=-1)
    del uo
    s.log(f"{s.title(cru)} and {s.title(cap)} separate")
    att = sorted(a for a, u in s.units.items() if u.host in (cru, cap))
    if att:
        s.push(Decision(ul.owner, "place", (tuple(att), cru, cap)))
