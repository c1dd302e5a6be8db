"""What an Interstellar Ambitions action does (:func:`describe`) and why a notation is
refused (:func:`refusal`, in :mod:`.refuse`), for the engine's explanation contract
(:mod:`starlanes.engine.explain`).

:func:`describe` reads the pending decision (the top of the decision stack) and the action,
and words it with the figures of the position: costs after discounts, levels reached, card
text read from the loaded content (:mod:`.texts`). Rule IDs are those of the rules
reference (IA-...). :func:`label`, the words on an action's button, lives in
:mod:`.labels`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from starlanes.engine.explain import ActionDescription

from .actions import ACTIONS, LEVELS, RES, Act, parse_token
from .common import HAND_LIMIT, HOME, MAX_PLANETS, MAX_SHIPS, fleet_value
from .labels import _damage_of, label
from .refuse import refusal
from .texts import (
    ambition_text,
    cost_text,
    planet_text,
    shadow_text,
    ship_text,
    tech_text,
    token_words,
)

if TYPE_CHECKING:  # pragma: no cover
    from starlanes.engine import Decision

    from .state import IAState

__all__ = ["describe", "label", "refusal", "LEVEL_TEXT"]

D = ActionDescription
Describer = Callable[["IAState", "Decision", Act], ActionDescription]

LEVEL_TEXT: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "colonise": (
        ("colonise 1 face-up planet worth at most 3 VP; it starts at level 2", ("IA-COLN-10",)),
        ("colonise 1 face-up planet worth at most 5 VP; it starts at level 2", ("IA-COLN-11",)),
        ("colonise 1 face-up planet of any VP; it starts at level 2", ("IA-COLN-12",)),
        ("first discard any face-up planets you like, then colonise 1 planet of any VP "
         "starting at level 4", ("IA-COLN-13",)),
    ),
    "develop": (
        ("develop 1 planet up to level 3", ("IA-DEV-05",)),
        ("develop 1 planet up to level 4", ("IA-DEV-06",)),
        ("develop 1 planet up to level 5", ("IA-DEV-07",)),
        ("develop up to 3 planets up to level 5", ("IA-DEV-08",)),
    ),
    "build": (
        ("repair ships, then build 1 LIGHT ship", ("IA-BLD-03",)),
        ("repair ships, then build up to 2 ships", ("IA-BLD-04",)),
        ("repair ships, then build up to 3 ships", ("IA-BLD-05",)),
        ("repair every ship free, then build up to 4 ships at 1 ore less each",
         ("IA-BLD-06",)),
    ),
    "research": (
        ("research 1 face-up tech worth at most 2 VP", ("IA-RSCH-06",)),
        ("research 1 face-up tech worth at most 4 VP", ("IA-RSCH-07",)),
        ("research 1 face-up tech of any VP", ("IA-RSCH-08",)),
        ("first replace any face-up techs, then research 2 techs at 1 science less each",
         ("IA-RSCH-09",)),
    ),
    "shadow": (
        ("buy up to 2 Shadow cards at 1 coin each", ("IA-SHA-08",)),
        ("buy up to 3 Shadow cards at 1 coin each, or hire 1 merc", ("IA-SHA-09",)),
        ("buy up to 4 Shadow cards at 1 coin each, or hire 2 mercs", ("IA-SHA-10",)),
        ("buy up to 5 Shadow cards, or replace face-up mercs and hire 3", ("IA-SHA-11",)),
    ),
    "fleet": (
        ("raid an opponent with no bonus (no invasion at this level)",
         ("IA-RAID-17", "IA-INV-11")),
        ("raid at +2 or invade with no bonus", ("IA-RAID-18", "IA-INV-12")),
        ("raid at +4 or invade at +2", ("IA-RAID-19", "IA-INV-13")),
        ("raid at +6 or invade at +4", ("IA-RAID-20", "IA-INV-14")),
    ),
}
"""What each action does at each planning level (Planning Levels sections), with rule IDs."""


def _res(r: str) -> str:
    return r.upper()


def _ship_of(s: IAState, label: str) -> int:
    return s.content.ship_index[label.split("/", 1)[0]]


# ---------------------------------------------------------------------- set-up
def _keep(s: IAState, d: Decision, a: Act) -> D:
    k = s.content.shadow_index[a.a]
    left = d.data[0]
    return D(str(a), "setup",
             f"Discard this Shadow card from your opening hand ({left} more to discard; "
             f"you keep 2 of the 4). {shadow_text(s.content, k)}",
             changes="the card goes face up to the Shadow discard",
             rules=("IA-SET-14",))


def _start_tech(s: IAState, d: Decision, a: Act) -> D:
    t = s.content.tech_index[a.a]
    return D(str(a), "setup",
             f"Become the owner of a starting tech. {tech_text(s.content, t)}",
             changes="unclaimed starting techs are shuffled into the tech deck afterwards",
             rules=("IA-SET-15", "IA-TECH-02", "IA-SET-16"))


def _place_start(s: IAState, d: Decision, a: Act) -> D:
    left = s.tokens[d.seat].count(-1)
    return D(str(a), "setup",
             f"Put one of your action tokens on the BASIC slot of the {a.a.upper()} track "
             f"({left} token(s) still to place).",
             rules=("IA-SET-17", "IA-TRK-01"))


def _comp(s: IAState, d: Decision, a: Act) -> D:
    from .setup import order

    pos = order(s).index(d.seat)
    rule = f"IA-SET-{18 + pos}"
    adv, take, _done = d.data
    if a.verb == "advance":
        code = parse_token(a.a)
        return D(str(a), "setup",
                 f"Seat compensation: move your {token_words(code)} token one slot right, "
                 f"to {LEVELS[(code & 3) + 1].upper()} ({adv} advance(s) and {take} "
                 f"resource(s) due).", rules=(rule, "IA-TRK-02"))
    return D(str(a), "setup",
             f"Seat compensation: take 1 {_res(a.a)} ({take} resource(s) due).",
             changes=f"+1 {a.a}", rules=(rule,))


# ---------------------------------------------------------------------- turn steps
def _produce_preview(s: IAState, seat: int) -> tuple[str, int]:
    from .common import bonus

    c = s.content
    got = [0, 0, 0, 0]
    home = 0
    for p, lvl, markers in s.planets[seat]:
        t = c.planet_type[p]
        if t == HOME:
            home += lvl
            continue
        extra = sum(c.event_effect[e][1] for e in markers
                    if c.event_effect[e][0] == "produce_marker")
        got[t] += lvl + extra
    for i in range(4):
        got[i] += bonus(s, seat, "produce_extra", RES[i])
    return cost_text(tuple(got)), home


def _step2(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "produce":
        got, home = _produce_preview(s, d.seat)
        c = s.content
        mercs = [c.ships[c.ship_ids[k]].name for k, _d in s.ships[d.seat] if c.ship_upkeep[k]]
        upkeep = (f"; then pay upkeep in coin for each merc ({', '.join(mercs)}) or discard "
                  f"it") if mercs else ""
        home_txt = f", plus {home} resources of your choice from your Home World" if home \
            else ""
        return D(str(a), "produce",
                 f"PRODUCE instead of advancing: every planet yields its type times its level"
                 f" and techs add their bonuses: {got}{home_txt}{upkeep}.",
                 changes="no action token moves",
                 rules=("IA-PROD-01", "IA-PROD-02", "IA-PROD-03", "IA-PROD-04", "IA-PROD-05",
                        "IA-PROD-06", "IA-PROD-07", "IA-TURN-03"))
    if a.verb == "advance":
        return _advance(s, d, a)
    return D(str(a), "turn", "Neither PRODUCE nor advance a token this turn.",
             rules=("IA-TURN-03",))


def _advance(s: IAState, d: Decision, a: Act) -> D:
    code = parse_token(a.a)
    done = len(d.data) if d.kind == "advance_more" else 0
    nxt = LEVELS[(code & 3) + 1]
    act = ACTIONS[code >> 2]
    what = LEVEL_TEXT[act][(code & 3) + 1][0]
    return D(str(a), "plan",
             f"Advance your {token_words(code)} token one slot to {nxt.upper()}: taken "
             f"later it will {what}. (Token {done + 1} of up to 3 different tokens this "
             f"step.)",
             rules=("IA-TRK-02", "IA-TRK-03", "IA-TRK-05", "IA-TRK-07", "IA-TRK-08"))


def _more(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "advance":
        return _advance(s, d, a)
    return D(str(a), "plan", "Stop advancing tokens for this turn.", rules=("IA-TRK-03",))


def _step3(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "plan":
        left = s.tokens[d.seat].count(-1)
        every = "all" if s.options["plan_tokens"] == "all" else "any number of"
        return D(str(a), "plan",
                 f"Plan actions instead of taking one: place {every} the {left} token(s) of "
                 f"your pool on BASIC slots, one at a time.",
                 rules=("IA-TRK-10", "IA-TURN-04", "IA-OPEN-04"))
    code = parse_token(a.a)
    act, level = ACTIONS[code >> 2], code & 3
    what, rules = LEVEL_TEXT[act][level]
    return D(str(a), act,
             f"Take the {token_words(code)} action: {what}.",
             changes="the token returns to your pool",
             rules=("IA-TRK-09", "IA-TURN-04", *rules))


def _place(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "done":
        return D(str(a), "plan", "Leave your other pool tokens in the pool.",
                 rules=("IA-TRK-10", "IA-OPEN-04"))
    return D(str(a), "plan",
             f"Put a pool token on the BASIC slot of the {a.a.upper()} track "
             f"({d.data[0]} to place).", rules=("IA-TRK-10",))


def _claim(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "pass":
        return D(str(a), "ambition", "Claim no ambition this turn (claiming is optional).",
                 rules=("IA-AMB-04",))
    c = s.content
    k = c.ambition_index[a.a]
    i = s.ambitions.index(k)
    pos = len(s.claims[i])
    vp = (12, 6)[pos] if pos < 2 else 3
    mine = sum(1 for cl in s.claims if d.seat in cl)
    end = " This is your 3rd ambition: every player then takes one more turn and the " \
        "game ends." if mine == 2 and s.end_trigger < 0 else ""
    return D(str(a), "ambition",
             f"Claim the ambition {ambition_text(c, k)}.{end}",
             changes=f"claim position {pos + 1}: worth {vp} VP at game end",
             rules=("IA-AMB-02", "IA-AMB-03", "IA-AMB-05", "IA-AMB-06", "IA-END-01"))


def _exchange(s: IAState, a: Act) -> D:
    text = f"Exchange 3 {_res(a.a)} for 1 {_res(a.b)} (allowed any time in your own turn)."
    rules: tuple[str, ...] = ("IA-RES-02",)
    d = s.stack[-1]
    if d.kind == "capture":
        from .common import can_pay

        p = d.data[0]
        cost = s.content.planet_cost[p]
        after = list(s.res[d.seat])
        after[RES.index(a.a)] -= 3
        after[RES.index(a.b)] += 1
        now = "is enough" if can_pay(tuple(after), cost) else "is not enough yet"
        name = s.content.planets[s.content.planet_ids[p]].name
        text += (f" The capture of {name} is waiting: it costs {cost_text(cost)}, and what "
                 f"you hold after this exchange {now}.")
        rules += ("IA-SPOIL-06",)
    return D(str(a), "exchange", text, cost=f"3 {a.a}", changes=f"+1 {a.b}", rules=rules)


# ---------------------------------------------------------------------- economy
def _home(s: IAState, d: Decision, a: Act) -> D:
    return D(str(a), "produce",
             f"Take 1 {_res(a.a)} of your Home World's production ({d.data[0]} to choose).",
             changes=f"+1 {a.a}", rules=("IA-PROD-03",))


def _upkeep(s: IAState, d: Decision, a: Act) -> D:
    k = s.content.ship_index[a.a]
    if a.b == "pay":
        return D(str(a), "produce", f"Pay this merc's upkeep and keep it. "
                 f"{ship_text(s.content, k)}",
                 cost=f"{s.content.ship_upkeep[k]} coin", rules=("IA-PROD-06",))
    return D(str(a), "produce", f"Do not pay the upkeep: the merc is discarded. "
             f"{ship_text(s.content, k)}",
             changes="the ship leaves your fleet", rules=("IA-PROD-07",))


def _clear(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "done":
        return D(str(a), "colonise", "Stop discarding face-up planets and choose one to "
                 "colonise.", rules=("IA-COLN-13",))
    p = s.content.planet_index[a.a]
    return D(str(a), "colonise",
             f"Discard this face-up planet; its slot is refilled from its stack. "
             f"{planet_text(s.content, p)}", rules=("IA-COLN-13", "IA-COLN-08"))


def _colonise(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "pass":
        return D(str(a), "colonise", "Colonise nothing with this action.",
                 rules=("IA-COLN-01",))
    from .economy import COLONISE_START, colonise_cost

    c = s.content
    p = c.planet_index[a.a]
    level = d.data[0]
    start = min(COLONISE_START[level], c.planet_max[p])
    first = "" if s.colonised[p] else " First colonisation: draw a colony event."
    full = f" You own {MAX_PLANETS} planets: first give one away." \
        if len(s.planets[d.seat]) >= MAX_PLANETS else ""
    rules = ("IA-COLN-01", "IA-COLN-02", LEVEL_TEXT["colonise"][level][1][0], "IA-COL-01",
             "IA-PLN-03")
    return D(str(a), "colonise",
             f"Colonise {planet_text(c, p)}{first}{full}",
             cost=cost_text(colonise_cost(s, d.seat, p)),
             changes=f"the planet joins your board at level {start}", rules=rules)


def _give(s: IAState, d: Decision, a: Act) -> D:
    p = s.content.planet_index[a.a]
    if a.verb == "give":
        return D(str(a), "colonise",
                 f"Give this planet, at its current level, to {a.b} (fewest planets): you "
                 f"are at the limit of {MAX_PLANETS}. {planet_text(s.content, p)}",
                 rules=("IA-COLN-04", "IA-COLN-07", "IA-PLN-03"))
    return D(str(a), "colonise",
             f"Discard this planet (every other player has {MAX_PLANETS}). "
             f"{planet_text(s.content, p)}", rules=("IA-COLN-05", "IA-COL-05"))


def _develop(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "done":
        return D(str(a), "develop", "Develop no more planets with this action.",
                 rules=("IA-DEV-04",))
    c = s.content
    p = c.planet_index[a.a]
    lvl = next(lv for q, lv, _m in s.planets[d.seat] if q == p)
    to = int(a.b)
    units = 2 * (to - lvl)
    t = c.planet_type[p]
    cost = f"{units} resources of any types" if t == HOME else f"{units} {RES[t]}"
    at_max = " It reaches its maximum level, so it scores its VP." if to == c.planet_max[p] \
        else ""
    return D(str(a), "develop",
             f"Develop {c.planets[a.a].name} from level {lvl} to {to}.{at_max}",
             cost=cost, changes=f"level {lvl} -> {to}",
             rules=("IA-DEV-01", "IA-DEV-03" if t == HOME else "IA-DEV-02", "IA-PLN-05",
                    LEVEL_TEXT["develop"][d.data[0]][1][0], "IA-END-05"))


def _dev_pay(s: IAState, d: Decision, a: Act) -> D:
    return D(str(a), "develop",
             f"Pay 1 {_res(a.a)} towards developing your Home World ({d.data[0]} to pay).",
             cost=f"1 {a.a}", rules=("IA-DEV-03",))


# ---------------------------------------------------------------------- fleetworks
def _build(s: IAState, d: Decision, a: Act) -> D:
    from .fleetworks import build_cost, repair_cost

    level, left, repaired = d.data
    if a.verb == "done":
        return D(str(a), "build", "Finish the BUILD action.", rules=("IA-BLD-02",))
    if a.verb == "repair":
        dmg = _damage_of(a.a)
        ore = repair_cost(repaired, dmg)
        return D(str(a), "build",
                 f"Repair {s.content.ships[a.a.split('/')[0]].name}: remove its {dmg} damage "
                 f"marker(s) (1 ore per 2 markers over the whole action, rounded up).",
                 cost=f"{ore} ore", changes=f"combat value back to "
                 f"{s.content.ship_combat[_ship_of(s, a.a)]}",
                 rules=("IA-BLD-01", "IA-SHIP-08", "IA-OPEN-28"))
    k = s.content.ship_index[a.a]
    full = f" Your fleet is at {MAX_SHIPS} ships: discard one first." \
        if len(s.ships[d.seat]) >= MAX_SHIPS else ""
    return D(str(a), "build",
             f"Build {ship_text(s.content, k)}{full} ({left} build(s) left.)",
             cost=f"{build_cost(s, d.seat, k, level)} ore",
             rules=("IA-BLD-02", LEVEL_TEXT["build"][level][1][0], "IA-SHIP-02",
                    "IA-SHIP-07"))


def _scrap(s: IAState, d: Decision, a: Act) -> D:
    k = _ship_of(s, a.a)
    return D(str(a), "build",
             f"Discard this ship to make room (at most {MAX_SHIPS} ships). "
             f"{ship_text(s.content, k)}", changes="the ship leaves your fleet",
             rules=("IA-SHIP-07",))


def _replace_tech(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "done":
        return D(str(a), "research", "Keep the face-up techs and go on to research.",
                 rules=("IA-RSCH-09",))
    t = s.content.tech_index[a.a]
    return D(str(a), "research",
             f"Discard this face-up tech and refill its slot from the deck. "
             f"{tech_text(s.content, t)}", rules=("IA-RSCH-09",))


def _research(s: IAState, d: Decision, a: Act) -> D:
    from .fleetworks import research_cost

    level, left = d.data
    if a.verb == "done":
        return D(str(a), "research", "Research nothing more with this action.",
                 rules=("IA-RSCH-01",))
    t = s.content.tech_index[a.a]
    return D(str(a), "research",
             f"Research {tech_text(s.content, t)} You become its owner and get its effect "
             f"at once.", cost=f"{research_cost(s, d.seat, t, level)} science",
             rules=("IA-RSCH-01", "IA-RSCH-02", "IA-RSCH-03", "IA-TECH-04",
                    LEVEL_TEXT["research"][level][1][0]))


def _shadow_mode(s: IAState, d: Decision, a: Act) -> D:
    from .fleetworks import BUY_LIMIT, HIRE_LIMIT

    level = d.data[0]
    if a.verb == "buy-cards":
        return D(str(a), "shadow",
                 f"Buy Cards: {BUY_LIMIT[level]} Shadow cards are drawn for you to buy at "
                 f"1 coin each; the rest are discarded face up.",
                 rules=("IA-SHA-01", "IA-SHA-02", "IA-SHA-03",
                        LEVEL_TEXT["shadow"][level][1][0], "IA-OPEN-15"))
    if a.verb == "hire-mercs":
        return D(str(a), "shadow",
                 f"Hire Mercs: hire up to {HIRE_LIMIT[level]} face-up merc(s), paying each "
                 f"one's cost in coin.",
                 rules=("IA-SHA-01", "IA-SHA-05", LEVEL_TEXT["shadow"][level][1][0]))
    return D(str(a), "shadow", "Do nothing with this SHADOW action.", rules=("IA-SHA-01",))


def _buy(s: IAState, d: Decision, a: Act) -> D:
    c = s.content
    if a.verb == "done":
        return D(str(a), "shadow", "Stop buying: the cards not bought are discarded face "
                 "up.", rules=("IA-SHA-02",))
    k = c.shadow_index[a.a]
    if a.verb == "discard":
        return D(str(a), "shadow",
                 f"Discard this card from your hand to make room (at most {HAND_LIMIT}). "
                 f"{shadow_text(c, k)}", rules=("IA-SHA-04",))
    return D(str(a), "shadow", f"Buy {shadow_text(c, k)}", cost="1 coin",
             changes="the card joins your hand", rules=("IA-SHA-02", "IA-SHA-03"))


def _replace_merc(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "done":
        return D(str(a), "shadow", "Keep the face-up mercs and go on to hire.",
                 rules=("IA-SHA-11",))
    k = s.content.ship_index[a.a]
    return D(str(a), "shadow", f"Discard this face-up merc and refill its slot. "
             f"{ship_text(s.content, k)}", rules=("IA-SHA-11",))


def _hire(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "done":
        return D(str(a), "shadow", "Hire no more mercs; empty merc slots are refilled.",
                 rules=("IA-SHA-06",))
    k = s.content.ship_index[a.a]
    full = f" Your fleet is at {MAX_SHIPS} ships: discard one first." \
        if len(s.ships[d.seat]) >= MAX_SHIPS else ""
    return D(str(a), "shadow", f"Hire {ship_text(s.content, k)}{full}",
             cost=f"{s.content.ship_cost[k]} coin",
             changes="upkeep is due each time you PRODUCE",
             rules=("IA-SHA-05", "IA-SHIP-03", "IA-SHIP-07", "IA-PROD-06"))


def _fleet(s: IAState, d: Decision, a: Act) -> D:
    level = d.data[0]
    if a.verb == "pass":
        return D(str(a), "fleet", "Attack nobody with this FLEET action.",
                 rules=("IA-RAID-01",))
    o = int(a.a[1:])
    c = s.content
    if a.verb == "raid":
        light = sum(1 for k, _d in s.ships[d.seat] if not c.ship_heavy[k])
        their = sum(1 for k, _d in s.ships[o] if not c.ship_heavy[k])
        return D(str(a), "fleet",
                 f"Raid {a.a} with all your LIGHT ships ({light} against their {their}); "
                 f"your total gets +{2 * level}. If your total is higher you take up to the "
                 f"margin in resources of your choice.",
                 rules=("IA-RAID-02", "IA-RAID-04", "IA-RAID-12", "IA-RAID-14",
                        f"IA-RAID-{17 + level}"))
    return D(str(a), "fleet",
             f"Invade {a.a} with your whole fleet (combat value {fleet_value(s, d.seat)} "
             f"against {fleet_value(s, o)}); your total gets +{2 * (level - 1)}. Equal or "
             f"more wins a FLEET Medal and one victory spoil; less gives them the medal.",
             rules=("IA-INV-01", "IA-INV-03", "IA-INV-07", "IA-INV-08",
                    f"IA-INV-{11 + level}"))


DESCRIBERS: dict[str, Describer] = {
    "keep": _keep, "start_tech": _start_tech, "place_start": _place_start, "comp": _comp,
    "step2": _step2, "advance_more": _more, "step3": _step3, "place": _place,
    "claim": _claim, "home_pick": _home, "upkeep": _upkeep, "clear_planets": _clear,
    "colonise": _colonise, "give_away": _give, "develop": _develop, "dev_pay": _dev_pay,
    "build": _build, "scrap": _scrap, "replace_tech": _replace_tech, "research": _research,
    "shadow_mode": _shadow_mode, "buy": _buy, "replace_merc": _replace_merc, "hire": _hire,
    "fleet": _fleet,
}


def describe(state: IAState, action: Act) -> ActionDescription:
    """What the legal ``action`` does in ``state`` (see the module docstring), with its
    :func:`label`.

    Raises IllegalActionError (via the state) if ``action`` is not legal now.
    """
    from .explain_fight import FIGHT_DESCRIBERS

    if action not in state.legal_actions():
        from starlanes.engine.errors import IllegalActionError

        raise IllegalActionError(f"{action} is not a legal action now")
    if action.verb == "exchange":
        return replace(_exchange(state, action), label=label(state, action))
    d = state.stack[-1]
    fn = DESCRIBERS.get(d.kind) or FIGHT_DESCRIBERS[d.kind]
    return replace(fn(state, d, action), label=label(state, action))
