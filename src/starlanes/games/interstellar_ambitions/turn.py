"""Player turns (Player Turns; IA-TURN-*, IA-TRK-*, IA-AMB-*, IA-END-01..03).

``s.step`` walks the four steps of the seat's turn: 1 Shadow Activities (not in round 1),
2 PRODUCE or ADVANCE up to 3 different tokens, 3 TAKE one ACTION or PLAN ACTIONS, 4 claim
one Ambition; then the turn passes clockwise. Claiming a 3rd Ambition triggers the game
end: every player, the trigger player included, takes one more turn (ruling IA-OPEN-22).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision, decision

from . import economy, fleetworks
from .actions import (
    ACTIONS,
    ADVANCE,
    DONE,
    PASS,
    PLAN,
    PRODUCE,
    RES,
    TAKE,
    Act,
    act,
    parse_token,
)
from .common import HOME, can_advance, fleet_value, set_token
from .texts import token_words

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState


def run(s: IAState) -> None:
    """Advance the step machine by one step."""
    seat = s.seat
    step = s.step
    if step == 0:
        s.step = 1
        s.log(f"-- round {s.round}: P{seat}'s turn")
    elif step == 1:
        s.step = 2
        if s.round > 1 and s.hands[seat]:  # IA-TURN-02
            s.push(decision(seat, "shadow"))
    elif step == 2:
        s.step = 3
        s.push(decision(seat, "step2"))
    elif step == 3:
        s.step = 4
        s.push(decision(seat, "step3"))
    elif step == 4:
        s.step = 5
        if claimable(s, seat):
            s.push(decision(seat, "claim"))
    else:
        end_turn(s)


def end_turn(s: IAState) -> None:
    s.turn_count += 1
    if s.end_trigger >= 0:
        s.final_left -= 1
        if s.final_left <= 0:
            finish(s, "ambitions")
            return
    s.seat = (s.seat + 1) % s.n
    s.step = 0
    if s.seat == s.start:
        s.round += 1
        if s.round > s.options["round_limit"]:
            finish(s, "round_limit")


def finish(s: IAState, reason: str) -> None:
    """Game over: VP totals, ties by total ship combat value, then shared (IA-END-04/11/12)."""
    from .scoring import score_all

    s.phase = "over"
    s.end_reason = reason
    s.stack.clear()
    vp = score_all(s)
    best = max(vp)
    tied = [i for i in range(s.n) if vp[i] == best]
    if len(tied) > 1:
        power = {i: fleet_value(s, i) for i in tied}
        top = max(power.values())
        tied = [i for i in tied if power[i] == top]
    s.winners = tied
    who = ", ".join(f"P{i}" for i in tied)
    s.log(f"game over ({reason.replace('_', ' ')}): VP {vp}, winners {who}")


def exchange(s: IAState, seat: int, a: Action) -> None:
    """3 of one resource for 1 of another, in one's own turn only (IA-RES-02, IA-OPEN-18)."""
    g, t = RES.index(a.a), RES.index(a.b)  # type: ignore[attr-defined]
    r = list(s.res[seat])
    r[g] -= 3
    r[t] += 1
    s.res[seat] = (r[0], r[1], r[2], r[3])


# ---------------------------------------------------------------------- step 2
def _advance_options(s: IAState, seat: int, done: tuple[int, ...]) -> list[Action]:
    codes = {c for i, c in enumerate(s.tokens[seat]) if c >= 0 and i not in done}
    return [ADVANCE[c] for c in sorted(codes) if can_advance(s, c)]


def step2_legal(s: IAState, d: Decision) -> list[Action]:
    return [PRODUCE, *_advance_options(s, d.seat, ()), PASS]


def step2_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb == "produce":
        economy.produce(s, d.seat)
    elif a.verb == "advance":
        advance_token(s, d, a, ())


def advance_token(s: IAState, d: Decision, a: Act, done: tuple[int, ...]) -> None:
    """Move one token one slot right; up to 3 different tokens a turn (IA-TRK-02/03)."""
    code = parse_token(a.a)
    toks = s.tokens[d.seat]
    i = next(i for i, c in enumerate(toks) if c == code and i not in done)
    set_token(s, d.seat, i, code + 1)
    done = done + (i,)
    if len(done) < 3 and _advance_options(s, d.seat, done):
        s.push(decision(d.seat, "advance_more", done))


def more_legal(s: IAState, d: Decision) -> list[Action]:
    return [*_advance_options(s, d.seat, d.data), DONE]


def more_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb == "advance":
        advance_token(s, d, a, d.data)


# ---------------------------------------------------------------------- step 3
def step3_legal(s: IAState, d: Decision) -> list[Action]:
    codes = sorted({c for c in s.tokens[d.seat] if c >= 0})
    out: list[Action] = [
        TAKE[c] for c in codes if not (s.round == 1 and c >> 2 == 5)
    ]
    out.append(PLAN)
    return out


def step3_apply(s: IAState, d: Decision, a: Act) -> None:
    seat = d.seat
    if a.verb == "plan":
        left = s.tokens[seat].count(-1)
        if left:
            s.push(decision(seat, "place", (left,)))
        return
    code = parse_token(a.a)
    toks = s.tokens[seat]
    set_token(s, seat, toks.index(code), -1)  # IA-TRK-09
    s.log(f"P{seat} takes {token_words(code)}")
    act, level = code >> 2, code & 3
    if act == 0:
        economy.start_colonise(s, seat, level)
    elif act == 1:
        economy.start_develop(s, seat, level)
    elif act == 2:
        fleetworks.start_build(s, seat, level)
    elif act == 3:
        fleetworks.start_research(s, seat, level)
    elif act == 4:
        fleetworks.start_shadow(s, seat, level)
    else:
        fleetworks.start_fleet(s, seat, level)


_PLACE = tuple(act("place", name) for name in ACTIONS)


def place_legal(s: IAState, d: Decision) -> list[Action]:
    out: list[Action] = list(_PLACE)
    if s.options["plan_tokens"] == "any":  # ruling IA-OPEN-04
        out.append(DONE)
    return out


def place_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb == "done":
        return
    i = s.tokens[d.seat].index(-1)
    set_token(s, d.seat, i, ACTIONS.index(a.a) * 4)  # BASIC slot (IA-TRK-10)
    if d.data[0] > 1:
        s.push(decision(d.seat, "place", (d.data[0] - 1,)))


# ---------------------------------------------------------------------- step 4
def meets(s: IAState, seat: int, amb: int) -> bool:
    """Does ``seat`` meet ambition ``amb``'s condition now (ruling IA-OPEN-21)?"""
    c = s.content
    cond, n = c.ambition_cond[amb]
    if cond == "planets":
        return len(s.planets[seat]) >= n
    if cond == "max_planets":
        return sum(1 for p, lv, _ in s.planets[seat]
                   if c.planet_type[p] != HOME and lv == c.planet_max[p]) >= n
    if cond == "techs":
        return len(s.known[seat]) >= n
    if cond == "owned_techs":
        return sum(1 for t in s.known[seat] if s.tech_owner[t] == seat) >= n
    if cond == "ships":
        return len(s.ships[seat]) >= n
    if cond == "resources":
        return sum(s.res[seat]) >= n
    if cond == "all_types":
        return {c.planet_type[p] for p, _, _ in s.planets[seat]} >= {0, 1, 2, 3}
    if cond == "fleet_power":
        return fleet_value(s, seat) >= n
    if cond == "fleet_medals":
        return s.medals[seat][0] >= n
    if cond == "shadow_medals":
        return s.medals[seat][1] >= n
    if cond == "medals":
        return sum(s.medals[seat]) >= n
    if cond == "raids_won":
        return s.stats[seat][0] >= n
    if cond == "captures":
        return s.stats[seat][1] >= n
    if cond == "techs_taken":
        return s.stats[seat][2] >= n
    if cond == "home_level":
        return any(c.planet_type[p] == HOME and lv >= n for p, lv, _ in s.planets[seat])
    return False  # pragma: no cover - content validation rejects unknown conditions


def claimable(s: IAState, seat: int) -> list[int]:
    """Ambition slots ``seat`` may claim now: not already claimed by it (IA-AMB-08) and
    whose condition it meets (IA-AMB-02) now, or (option ``ambition_timing=turn``, ruling
    IA-OPEN-21) met at some moment of this turn."""
    earlier = (s.met[1] if s.options["ambition_timing"] == "turn" and seat == s.seat
               and s.met[0] == s.turn_count else ())
    return [i for i, amb in enumerate(s.ambitions)
            if seat not in s.claims[i] and (i in earlier or meets(s, seat, amb))]


def claim_legal(s: IAState, d: Decision) -> list[Action]:
    ids = s.content.ambition_ids
    return [*(act("claim", ids[s.ambitions[i]]) for i in claimable(s, d.seat)), PASS]


def claim_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb != "claim":
        return  # claiming is optional (IA-AMB-04)
    seat = d.seat
    i = s.ambitions.index(s.content.ambition_index[a.a])
    s.claims[i] = s.claims[i] + (seat,)  # next position 1st/2nd/others (IA-AMB-05)
    s.log(f"P{seat} claims {s.content.ambitions[a.a].name} (position {len(s.claims[i])})")
    count = sum(1 for cl in s.claims if seat in cl)
    if count >= 3 and s.end_trigger < 0:  # IA-END-01
        s.end_trigger = seat
        s.final_left = s.n + 1  # this turn, then one more turn each (IA-END-02)
        s.log(f"P{seat} claimed a 3rd ambition: every player takes one more turn")


DECISIONS = {
    "step2": (step2_legal, step2_apply),
    "advance_more": (more_legal, more_apply),
    "step3": (step3_legal, step3_apply),
    "place": (place_legal, place_apply),
    "claim": (claim_legal, claim_apply),
}
