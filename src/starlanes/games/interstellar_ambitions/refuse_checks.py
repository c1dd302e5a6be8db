"""Checks of an Interstellar Ambitions notation whose verb belongs to the pending
decision: costs, limits, levels, targets and ownership (used by :mod:`.refuse`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine.explain import Refusal

from .actions import ACTIONS, LEVELS, RES
from .common import HAND_LIMIT, HOME, can_advance, ship_label
from .texts import cost_text

if TYPE_CHECKING:  # pragma: no cover
    from starlanes.engine import Decision

    from .state import IAState


def refused(text: str, kind: str, reason: str) -> Refusal:
    """A :class:`Refusal` of ``text`` (its nearest notations are added by the caller)."""
    return Refusal(text, kind, reason)


def is_token(arg: str) -> bool:
    """Is ``arg`` a track token written ``<action>:<level>``?"""
    act, _, lvl = arg.partition(":")
    return act in ACTIONS and lvl in LEVELS


def _code(arg: str) -> int:
    act, _, lvl = arg.partition(":")
    return ACTIONS.index(act) * 4 + LEVELS.index(lvl)


# ---------------------------------------------------------------------- per decision
def _hand_card(s: IAState, text: str, seat: int, card: str) -> Refusal | None:
    c = s.content
    if c.shadow_index[card] not in s.hands[seat]:
        return refused(text, "forbidden", f"You hold no {c.shadow[card].name} ({card}) in your "
                  f"Shadow hand.")
    return None


def _c_keep(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    return _hand_card(s, text, d.seat, args[0]) if args else None


def _c_start_tech(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    c = s.content
    if not args:
        return None
    t = c.tech_index[args[0]]
    if t not in c.start_techs:
        return refused(text, "forbidden", f"{c.techs[args[0]].name} is not one of the 6 starting "
                  f"techs (IA-SET-15).")
    if s.tech_owner[t] >= 0:
        return refused(text, "forbidden", f"{c.techs[args[0]].name} is already owned by "
                  f"P{s.tech_owner[t]}.")
    return None


def _token_checks(s: IAState, text: str, d: Decision, args: list[str],
                  done: tuple[int, ...] = ()) -> Refusal | None:
    if not args or not is_token(args[0]):
        return None
    code = _code(args[0])
    toks = s.tokens[d.seat]
    if code not in toks:
        return refused(text, "forbidden", f"You have no token at {args[0]}; yours: "
                  f"{', '.join(sorted(_tok(t) for t in toks if t >= 0)) or 'none'}.")
    if code & 3 == 3:
        return refused(text, "capacity", "ULTIMATE is the last slot; that token cannot advance "
                  "(IA-TRK-05).")
    if not can_advance(s, code):
        return refused(text, "capacity", f"The ULTIMATE slot of {ACTIONS[code >> 2].upper()} is "
                  f"full ({s.ult_cap} token(s)) (IA-TRK-07, IA-TRK-08).")
    if all(i in done for i, t in enumerate(toks) if t == code):
        return refused(text, "capacity", "Each token advances at most once per step; that one "
                  "already moved (IA-TRK-03).")
    return None


def _tok(code: int) -> str:
    return f"{ACTIONS[code >> 2]}:{LEVELS[code & 3]}"


def _c_comp(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if verb == "advance":
        if not d.data[0]:
            return refused(text, "capacity", "Your seat compensation has no token advances "
                           "left; take resources with 'take <resource>' (IA-SET-19).")
        return _token_checks(s, text, d, args, d.data[2])
    if d.data[0] and args and not is_token(args[0]):
        return refused(text, "wrong_phase", "Your seat compensation advances tokens first; "
                       "resources are taken once no advance is left (IA-SET-19).")
    if args and is_token(args[0]):
        return refused(text, "wrong_phase", "Seat compensation takes resources with 'take <resource>' "
                  "(e.g. take food); tokens are advanced with 'advance <token>' (IA-SET-19).")
    return None


def _c_step2(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if verb == "advance":
        return _token_checks(s, text, d, args, d.data if d.kind == "advance_more" else ())
    return None


def _c_step3(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if verb == "take" and args and args[0] in RES:
        return refused(text, "wrong_phase", "Resources are taken only as seat compensation; "
                       "in step 3 'take' names one of your tokens, e.g. take build:basic "
                       "(IA-SET-19).")
    if verb != "take" or not args or not is_token(args[0]):
        return None
    code = _code(args[0])
    if code not in s.tokens[d.seat]:
        return refused(text, "forbidden", f"You have no token at {args[0]} to take.")
    if s.round == 1 and code >> 2 == 5:
        return refused(text, "wrong_phase", "No FLEET action may be taken in the first round "
                  "(IA-TURN-02).")
    return None


def _c_claim(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    from .turn import meets

    c = s.content
    k = c.ambition_index[args[0]] if args else -1
    if k < 0:
        return None
    name = c.ambitions[args[0]].name
    if k not in s.ambitions:
        return refused(text, "forbidden", f"{name} is not one of this game's ambitions.")
    i = s.ambitions.index(k)
    if d.seat in s.claims[i]:
        return refused(text, "forbidden", f"You already claimed {name}; an ambition is claimed "
                  f"once (IA-AMB-08).")
    if not meets(s, d.seat, k):
        return refused(text, "forbidden", f"You do not meet {name}: {c.ambitions[args[0]].text} "
                  f"(IA-AMB-02).")
    return None


def _c_colonise(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    from .economy import COLONISE_VP_CAP, colonise_cost, face_up_planets

    if verb != "colonise" or not args:
        return None
    c = s.content
    p = c.planet_index[args[0]]
    name = c.planets[args[0]].name
    if p not in face_up_planets(s):
        return refused(text, "range", f"{name} is not face up in a planet slot (IA-COLN-01).")
    cap = COLONISE_VP_CAP[d.data[0]]
    if c.planet_vp[p] > cap:
        return refused(text, "range", f"{name} is worth {c.planet_vp[p]} VP; COLONISE at "
                  f"{LEVELS[d.data[0]].upper()} reaches planets of at most {cap} VP.")
    cost = colonise_cost(s, d.seat, p)
    return refused(text, "cost", f"{name} costs {cost_text(cost)}; you have "
              f"{cost_text(s.res[d.seat])}.")


def _c_develop(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    from .economy import DEVELOP_CAP

    if verb != "develop" or not args:
        return None
    c = s.content
    p = c.planet_index[args[0]]
    name = c.planets[args[0]].name
    mine = {q: lv for q, lv, _m in s.planets[d.seat]}
    if p not in mine:
        return refused(text, "forbidden", f"You do not own {name}.")
    if p in d.data[2]:
        return refused(text, "capacity", f"{name} was already developed in this action.")
    to = int(args[1]) if len(args) > 1 and args[1].isdigit() else 0
    if to <= mine[p]:
        return refused(text, "range", f"Name a level above {name}'s current level {mine[p]}, "
                  f"e.g. develop {args[0]} {mine[p] + 1}.")
    if to > c.planet_max[p]:
        return refused(text, "capacity", f"{name} goes up to level {c.planet_max[p]} (IA-PLN-05).")
    cap = DEVELOP_CAP[d.data[0]]
    if to > cap:
        return refused(text, "range", f"DEVELOP at {LEVELS[d.data[0]].upper()} reaches level "
                  f"{cap} at most (IA-DEV-04).")
    t = c.planet_type[p]
    r = s.res[d.seat]
    have = sum(r) if t == HOME else r[t]
    what = "resources" if t == HOME else RES[t]
    return refused(text, "cost", f"Level {mine[p]} to {to} costs {2 * (to - mine[p])} {what}; you "
              f"have {have} (IA-DEV-01).")


def _c_build(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    from .fleetworks import build_cost, repair_cost

    if not args:
        return None
    c = s.content
    ore = s.res[d.seat][1]
    if verb == "repair":
        labels = {ship_label(s, sh) for sh in s.ships[d.seat] if sh[1]}
        if args[0] not in labels:
            return refused(text, "forbidden", f"You have no damaged ship '{args[0]}'; damaged: "
                      f"{', '.join(sorted(labels)) or 'none'}.")
        need = repair_cost(d.data[2] if d.kind == "build" else d.data[0],
                           int(args[0].partition("/")[2] or 0))
        return refused(text, "cost", f"That repair costs {need} ore; you have {ore} (IA-BLD-01).")
    level, left, _repaired = d.data
    k = c.ship_index[args[0].split("/", 1)[0]]
    name = c.ships[c.ship_ids[k]].name
    if c.ship_deck[k] != "standard":
        return refused(text, "forbidden", f"{name} is a {c.ship_deck[k]} ship; only standard ships "
                  f"are built (IA-SHIP-02).")
    if not left:
        return refused(text, "capacity", "This BUILD action has no builds left.")
    if level == 0 and c.ship_heavy[k]:
        return refused(text, "range", f"BUILD at BASIC builds LIGHT ships only; {name} is HEAVY "
                  f"(IA-BLD-03).")
    need = build_cost(s, d.seat, k, level)
    return refused(text, "cost", f"{name} costs {need} ore; you have {ore} (IA-BLD-02).")


def _c_research(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    from .fleetworks import RESEARCH_VP_CAP, research_cost

    if verb != "research" or not args:
        return None
    c = s.content
    t = c.tech_index[args[0]]
    name = c.techs[args[0]].name
    if t not in s.tech_slots:
        return refused(text, "range", f"{name} is not face up in a tech slot (IA-RSCH-01).")
    cap = RESEARCH_VP_CAP[d.data[0]]
    if c.tech_vp[t] > cap:
        return refused(text, "range", f"{name} is worth {c.tech_vp[t]} VP; RESEARCH at "
                  f"{LEVELS[d.data[0]].upper()} reaches techs of at most {cap} VP.")
    need = research_cost(s, d.seat, t, d.data[0])
    return refused(text, "cost", f"{name} costs {need} science; you have {s.res[d.seat][2]} "
              f"(IA-RSCH-02).")


def _c_buy(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if not args:
        return None
    c = s.content
    if verb == "discard":
        if len(s.hands[d.seat]) < HAND_LIMIT:
            return refused(text, "forbidden", f"Discarding is needed only at {HAND_LIMIT} cards; "
                      f"buy instead (IA-SHA-04).")
        return _hand_card(s, text, d.seat, args[0])
    k = c.shadow_index[args[0]]
    if k not in s.offer:
        return refused(text, "forbidden", f"{c.shadow[args[0]].name} is not among the cards "
                  f"offered to you.")
    if s.res[d.seat][3] < 1:
        return refused(text, "cost", "A Shadow card costs 1 coin; you have none (IA-SHA-03).")
    return refused(text, "capacity", f"You hold {HAND_LIMIT} Shadow cards: discard one first "
              f"(IA-SHA-04).")


def _c_hire(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if verb != "hire" or not args:
        return None
    c = s.content
    k = c.ship_index[args[0].split("/", 1)[0]]
    name = c.ships[c.ship_ids[k]].name
    if d.data[0] <= 0:
        return refused(text, "capacity", "This SHADOW action has no hires left.")
    if k not in s.merc_slots:
        return refused(text, "range", f"{name} is not face up in a merc slot (IA-SHIP-03).")
    return refused(text, "cost", f"{name} costs {c.ship_cost[k]} coin; you have "
              f"{s.res[d.seat][3]} (IA-SHA-05).")


def _c_fleet(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if not args or verb == "pass":
        return None
    if args[0] == f"P{d.seat}":
        return refused(text, "forbidden", "You cannot attack yourself; name an opponent.")
    if verb == "invade" and d.data[0] == 0:
        return refused(text, "forbidden", "INVADE needs FLEET at MODERATE or better (IA-INV-11).")
    return refused(text, "forbidden", f"None of your ships can take part in a {verb} "
              f"(IA-RAID-04, IA-INV-03).")


def _c_play(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    from .shadow import _targets

    if verb != "play" or not args:
        return None
    held = _hand_card(s, text, d.seat, args[0])
    if held:
        return held
    targets = _targets(s, d.seat, s.content.shadow_index[args[0]])
    if not targets:
        return refused(text, "range", f"{s.content.shadow[args[0]].name} has no target now.")
    return refused(text, "range", f"Not a target of {s.content.shadow[args[0]].name}; targets: "
              f"{', '.join(targets[:6])}{' ...' if len(targets) > 6 else ''}.")


def _c_boost(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if verb in ("done", "pass") or not args:
        return None
    return _hand_card(s, text, d.seat, args[0])


def _c_ships(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if not args:
        return None
    if verb == "repair":
        return _c_build(s, text, d, verb, args)
    labels = {ship_label(s, sh) for sh in s.ships[d.seat]}
    if verb == "scrap" and args[0] not in labels:
        return refused(text, "forbidden", f"You have no ship '{args[0]}'; yours: "
                  f"{', '.join(sorted(labels))}.")
    if verb in ("order", "fire"):
        return refused(text, "range", f"'{args[0]}' is not one of the ships to choose from in "
                  f"this combat.")
    if verb == "upkeep" and len(args) > 1 and args[1] == "pay":
        return refused(text, "cost", f"The upkeep is more coin than your "
                  f"{s.res[d.seat][3]} (IA-PROD-06).")
    return None


def _c_res(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if not args or args[0] not in RES:
        return None
    i = RES.index(args[0])
    if verb == "pay" and s.res[d.seat][i] == 0:
        return refused(text, "cost", f"You have no {args[0]} to pay with (IA-DEV-03).")
    if verb == "steal" and s.combat is not None and s.res[s.combat.seats[1]][i] == 0:
        return refused(text, "forbidden", f"P{s.combat.seats[1]} has no {args[0]} left.")
    return None


def _c_spoil(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if verb != "spoil" or not args or s.combat is None:
        return None
    att, dfn = s.combat.seats
    c = s.content
    if args[0] == "tech" and len(args) > 1 and args[1] in c.tech_index:
        t = c.tech_index[args[1]]
        if t in s.known[att]:
            return refused(text, "forbidden", "You already know that tech (IA-OPEN-25).")
        return refused(text, "forbidden", f"P{dfn} does not know that tech.")
    if args[0] == "bombard" and len(args) > 1:
        return refused(text, "forbidden", f"P{dfn} does not own that planet.")
    if args[0] == "disrupt":
        return refused(text, "forbidden", f"Every token of P{dfn} is already at BASIC.")
    return refused(text, "malformed", "Spoils: spoil disrupt, spoil tech <tech>, spoil bombard "
              "<planet>, or pass.")


def _c_clear(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    from .economy import face_up_planets

    if verb != "clear" or not args:
        return None
    c = s.content
    if c.planet_index[args[0]] in face_up_planets(s):
        return None
    return refused(text, "range", f"{c.planets[args[0]].name} is not face up in a planet slot; "
                   f"only face-up planets are discarded (IA-COLN-01).")


def _c_place(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if verb == "done":
        return refused(text, "forbidden", f"Planning places every token of your pool; "
                       f"{d.data[0]} left to place (IA-TRK-10; option plan_tokens, IA-OPEN-04).")
    return None


def _c_replace(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if verb != "replace" or not args:
        return None
    c = s.content
    if d.kind == "replace_tech":
        if args[0] not in c.tech_index:
            return refused(text, "forbidden", f"'{args[0]}' is a merc; ULTIMATE RESEARCH "
                           f"replaces face-up techs (IA-RSCH-09).")
        return refused(text, "range", f"{c.techs[args[0]].name} is not face up in a tech "
                       f"slot (IA-RSCH-09).")
    if args[0] not in c.ship_index:
        return refused(text, "forbidden", f"'{args[0]}' is a tech; ULTIMATE SHADOW replaces "
                       f"face-up mercs (IA-SHA-11).")
    return refused(text, "range", f"{c.ships[args[0]].name} is not face up in a merc slot "
                   f"(IA-SHA-11).")


def _c_mode(s: IAState, text: str, d: Decision, verb: str, args: list[str]) -> Refusal | None:
    if verb == "hire-mercs":
        return refused(text, "range", "SHADOW at BASIC only buys cards; hiring mercs needs "
                  "MODERATE or better (IA-SHA-08, IA-SHA-09).")
    return None


CHECKS = {
    "shadow_mode": _c_mode, "place": _c_place, "clear_planets": _c_clear, "replace_tech": _c_replace,
    "replace_merc": _c_replace,
    "keep": _c_keep, "start_tech": _c_start_tech, "comp": _c_comp, "step2": _c_step2,
    "advance_more": _c_step2, "step3": _c_step3, "claim": _c_claim, "colonise": _c_colonise,
    "develop": _c_develop, "build": _c_build, "def_repair": _c_build,
    "research": _c_research, "buy": _c_buy, "hire": _c_hire, "fleet": _c_fleet,
    "shadow": _c_play, "boost": _c_boost, "oppose": _c_boost, "scrap": _c_ships,
    "order": _c_ships, "fire": _c_ships, "upkeep": _c_ships, "dev_pay": _c_res,
    "steal": _c_res, "spoil": _c_spoil,
}
"""Checks of a notation whose verb belongs to the pending decision."""

