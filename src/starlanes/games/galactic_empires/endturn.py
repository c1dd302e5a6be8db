"""Phases 6-8 and the end of the game (6 - DISCARD CARDS PHASE, 7 - DRAW CARDS PHASE,
8 - END TURN PHASE, HOW TO WIN, VICTORY CELEBRATION), and the Krebiz separation choices."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Decision

from .actions import DONE, NONE, GEAction, made, one_card
from .effects import discard_unit, hq_damage
from .empires import finish_split, split_options
from .setup import begin_turn

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState

WITHDRAW = GEAction("withdraw", label="withdraw")


def draw_allowance(hand: int) -> int:
    """GE-TURN-08..10: 9 or fewer cards: 2; 10 or 11: 1; 12 or more: none."""
    return 2 if hand <= 9 else 1 if hand <= 11 else 0


def discard_actions(s: GEState) -> list[GEAction]:
    """GE-TURN-06/07: unused card plays may discard hand cards; any number of the player's
    own cards in play may self-destruct; with ``withdrawal`` a player may withdraw."""
    seat = s.seat
    out = []
    if s.plays < 3:
        out += [one_card(s, "discard", i) for i in s.hands[seat]]
    for i, u in s.units.items():
        if u.owner == seat and u.against < 0 and (u.partner < 0 or i < u.partner):
            out.append(one_card(s, "scuttle", i))
    if s.options["withdrawal"]:
        out.append(WITHDRAW)
    out.append(DONE)
    return out


def apply_discard(s: GEState, a: GEAction) -> None:
    seat = s.seat
    if a.kind == "discard":
        s.hands[seat].remove(a.a)
        s.to_discard(a.a)
        s.plays += 1
    elif a.kind == "scuttle":
        s.log(f"P{seat} self-destructs {s.title(a.a)}")
        discard_unit(s, a.a)
    elif a.kind == "withdraw":
        s.log(f"P{seat} withdraws")
        eliminate(s, seat, -1)
        if s.phase != "over":
            end_turn(s)
    else:
        s.phase = "draw"
        if exhausted(s, seat):
            s.log(f"P{seat}'s deck is exhausted")
            hq_damage(s, seat, 1, -1)
            if not s.alive[seat]:
                if s.phase != "over":
                    end_turn(s)
                return
        s.draw_allow = min(draw_allowance(len(s.hands[seat])), s.drawable(seat))


def exhausted(s: GEState, seat: int) -> bool:
    """Ruling GE-OPEN-01 (option ``exhaustion``): in the Standard Game, where a deck is
    never reshuffled (GE-MISC-05), a player who reaches his Draw Phase with nothing left
    to draw takes 1 damage on his Sector HQ, as a destroyed HQ is the only ending the
    rulebook knows (GE-WIN-01/02)."""
    return (s.structure == "standard" and s.options["exhaustion"] == "attrition"
            and not s.decks[seat])


def draw_actions(s: GEState) -> list[GEAction]:
    """GE-TURN-11: drawing is never required: ``draw 0`` is always legal."""
    return [made(s, "draw", k, NONE, NONE, _draw_label) for k in range(s.draw_allow + 1)]


def _draw_label(_s: GEState, _kind: str, k: int, _b: int, _c: int) -> str:
    return f"draw {k}"


def apply_draw(s: GEState, a: GEAction) -> None:
    for _ in range(a.a):
        s.draw(s.seat)
    end_turn(s)


def end_turn(s: GEState) -> None:
    """Phase 8: play passes clockwise to the next player still in the game (GE-TURN-12);
    a complete turn ends when it comes back round to the first player (GE-DECK-08)."""
    s.pending = ()
    nxt = s.seat
    for _ in range(s.n):
        nxt = (nxt + 1) % s.n
        if s.alive[nxt]:
            break
    passed_first = False
    k = s.seat
    while k != nxt:
        k = (k + 1) % s.n
        if k == s.first:
            passed_first = True
    if passed_first or nxt == s.seat:
        s.round += 1
    s.seat = nxt
    if s.round > s.turn_cap:
        finish(s, "turn_cap")
        return
    begin_turn(s)


def eliminate(s: GEState, seat: int, by: int) -> None:
    """A player whose Sector HQ has taken 25 damage, or who withdraws, leaves the game
    (GE-WIN-02/03); his cards in play, in hand and in reserve and the cards played against
    his fleet go to the discard pile (ruling GE-OPEN-11), hand and reserve together in card
    instance order, so the pile does not tell which card a secret reserve swap moved
    (ruling GE-OPEN-04). The destroyer may celebrate
    (GE-WIN-05); the last player left wins (GE-WIN-04)."""
    s.alive[seat] = False
    s.log(f"P{seat} is eliminated")
    for i, u in sorted(s.units.items()):
        if i in s.units and (u.owner == seat or u.against == seat):
            del s.units[i]
            s.to_discard(i)
    for i in sorted(s.hands[seat] + s.reserve[seat]):  # one order, whatever was swapped
        s.to_discard(i)
    s.hands[seat] = []
    s.reserve[seat] = []
    s.stack = [d for d in s.stack if d.seat != seat]
    alive = [i for i in range(s.n) if s.alive[i]]
    if len(alive) == 1:
        finish(s, "conquest", alive)
        return
    if by >= 0 and s.alive[by]:
        s.push(Decision(by, "celebrate"))
    if s.seat == seat and s.phase != "over" and by >= 0:
        s.stack = [d for d in s.stack if d.kind == "celebrate"]
        s.pending = ()
        s.phase = "end"


def finish(s: GEState, reason: str, winners: list[int] | None = None) -> None:
    """End the game: ``conquest`` when one player is left (GE-WIN-04). At the turn cap (a
    limit of the software, not a rulebook ending) the game is abandoned as a draw: the
    players still in share the result, Sector HQ damage decides nothing."""
    s.phase = "over"
    s.stack = []
    s.end_reason = reason
    if winners is None:
        winners = [i for i in range(s.n) if s.alive[i]]
        s.log(f"game over ({reason.replace('_', ' ')}): abandoned as a draw between "
              + ", ".join(f"P{w}" for w in winners))
    else:
        s.log(f"game over ({reason.replace('_', ' ')}): winner "
              + ", ".join(f"P{w}" for w in winners))
    s.winners = winners


def celebrate_actions(s: GEState, d: Decision) -> list[GEAction]:
    """GE-WIN-05: draw 0, 1 or 2 cards, even with 12 or more in hand."""
    k = min(2, s.drawable(d.seat))
    return [GEAction("celebrate", i, label=f"celebrate {i}") for i in range(k + 1)]


def apply_celebrate(s: GEState, d: Decision, a: GEAction) -> None:
    for _ in range(a.a):
        s.draw(d.seat)


def split_actions(s: GEState, d: Decision) -> list[GEAction]:
    lo = d.data[0]
    return [GEAction("split", sd, dm, label=f"split {sd} {dm}") for sd, dm in split_options(s, lo)]


def apply_split(s: GEState, d: Decision, a: GEAction) -> None:
    finish_split(s, d.data[0], d.data[1], a.a, a.b)


def place_actions(s: GEState, d: Decision) -> list[GEAction]:
    """GE-EMP-KRB-07: each accompanying card goes on the cruiser or the capsule."""
    att, cru, cap = d.data
    first = att[0]
    out = []
    for host in (cru, cap):
        hc = s.card(host)
        c = s.card(first)
        if c.has("free_flying") and hc.type != "S":
            continue
        out.append(GEAction("place", first, host, label=f"place {s.name(first)} {s.name(host)}"))
    return out


def apply_place(s: GEState, d: Decision, a: GEAction) -> None:
    att, cru, cap = d.data
    if a.a in s.units:
        s.units[a.a] = s.units[a.a]._replace(host=a.b)
    rest = att[1:]
    if rest:
        s.push(Decision(d.seat, "place", (rest, cru, cap)))
