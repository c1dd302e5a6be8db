"""Interstellar Ambitions labels: the few words on each legal action's button
(:func:`label`, the engine's ``game.label``: ``Colonise Ferrum - 1 food + 2 ore``), read
from the pending decision (the top of the decision stack) and the action, with cards,
ships, planets and techs by their printed names. The descriptions are :mod:`.explain`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Act, parse_token
from .texts import cost_text, token_words

if TYPE_CHECKING:  # pragma: no cover
    from starlanes.engine import Decision

    from .state import IAState


def _damage_of(label: str) -> int:
    _, _, d = label.partition("/")
    return int(d) if d else 0


def _ship_words(s: IAState, label: str) -> str:
    """``destroyer/1`` -> ``Destroyer (1 damage)``: a ship's printed name and damage."""
    base, _, dmg = label.partition("/")
    name = s.content.ships[base].name
    return f"{name} ({dmg} damage)" if dmg and dmg != "0" else name


def _label_step(s: IAState, d: Decision, a: Act) -> str:
    c = s.content
    kind, verb = d.kind, a.verb
    if verb == "pass":
        return {
            "step2": "Neither produce nor advance", "claim": "Claim no ambition",
            "colonise": "Colonise nothing", "shadow_mode": "Do nothing with Shadow",
            "fleet": "Attack nobody", "shadow": "Play no Shadow card",
            "oppose": "Let the check be rolled", "spoil": "Claim no victory spoil",
            "capture": "Leave the planet with its owner", "rescue": "Take no planet",
        }.get(kind, "Pass")
    if verb == "done":
        return {
            "advance_more": "Stop advancing tokens", "place": "Leave the rest in the pool",
            "clear_planets": "Stop discarding planets", "develop": "Develop no more planets",
            "build": "Finish building", "replace_tech": "Keep the face-up techs",
            "research": "Research nothing more", "buy": "Stop buying",
            "replace_merc": "Keep the face-up mercs", "hire": "Hire no more mercs",
            "boost": "Add no more cards to the check", "disrupt": "Reset no more tokens",
            "steal": "Take nothing more", "def_repair": "Repair no more ships",
        }.get(kind, "Done")
    if verb == "advance":
        return f"Advance your {token_words(parse_token(a.a))} token"
    if kind in ("keep", "buy") and verb == "discard":
        return f"Discard {c.shadow[a.a].name} from your hand"
    if kind == "start_tech":
        return f"Take the starting tech {c.techs[a.a].name}"
    if verb == "place":
        return f"Put a token on the {a.a.upper()} track"
    if kind == "comp" or kind == "home_pick":
        return f"Take 1 {a.a}" + (" from your Home World" if kind == "home_pick" else "")
    if verb == "produce":
        return "Produce resources"
    if verb == "plan":
        return "Plan: put pool tokens on the tracks"
    if kind == "step3":
        return f"Take the {token_words(parse_token(a.a))} action"
    if kind == "claim":
        return f"Claim the ambition {c.ambitions[a.a].name}"
    if kind == "upkeep":
        k = c.ship_index[a.a]
        if a.b == "pay":
            return f"Pay the upkeep of {c.ships[a.a].name} - {c.ship_upkeep[k]} coin"
        return f"Let {c.ships[a.a].name} go unpaid"
    if kind == "clear_planets":
        return f"Discard the face-up planet {c.planets[a.a].name}"
    if kind == "colonise":
        from .economy import colonise_cost

        cost = cost_text(colonise_cost(s, d.seat, c.planet_index[a.a]))
        return f"Colonise {c.planets[a.a].name} - {cost}"
    if kind == "give_away":
        if verb == "give":
            return f"Give {c.planets[a.a].name} to {a.b}"
        return f"Discard your planet {c.planets[a.a].name}"
    if kind == "develop":
        return f"Develop {c.planets[a.a].name} to level {a.b}"
    if kind == "dev_pay":
        return f"Pay 1 {a.a} for your Home World"
    if verb == "repair":
        from .fleetworks import repair_cost

        done = d.data[2] if kind == "build" else d.data[0]
        ore = repair_cost(done, _damage_of(a.a))
        return f"Repair {_ship_words(s, a.a)} - {ore} ore"
    if kind == "build":
        from .fleetworks import build_cost

        k = c.ship_index[a.a]
        return f"Build {c.ships[a.a].name} - {build_cost(s, d.seat, k, d.data[0])} ore"
    if kind == "scrap":
        return f"Discard {_ship_words(s, a.a)} to make room"
    if kind == "replace_tech":
        return f"Replace the face-up tech {c.techs[a.a].name}"
    if kind == "research":
        from .fleetworks import research_cost

        t = c.tech_index[a.a]
        return f"Research {c.techs[a.a].name} - {research_cost(s, d.seat, t, d.data[0])} science"
    if verb == "buy-cards":
        return "Buy Shadow cards"
    if verb == "hire-mercs":
        return "Hire mercs"
    if kind == "buy":
        return f"Buy {c.shadow[a.a].name} - 1 coin"
    if kind == "replace_merc":
        return f"Replace the face-up merc {c.ships[a.a].name}"
    if kind == "hire":
        return f"Hire {c.ships[a.a].name} - {c.ship_cost[c.ship_index[a.a]]} coin"
    if kind == "fleet":
        return f"Raid {a.a} with your light ships" if verb == "raid" else \
            f"Invade {a.a} with your whole fleet"
    return _label_fight(s, d, a)


def _label_fight(s: IAState, d: Decision, a: Act) -> str:
    from .texts import shadow_target_words

    c = s.content
    kind = d.kind
    if kind == "shadow":
        target = shadow_target_words(c, c.shadow_index[a.a], a.b)
        return f"Play {c.shadow[a.a].name} on {target}"
    if kind == "boost":
        return f"Discard {c.shadow[a.a].name} for +1 to your check"
    if kind == "oppose":
        return f"Discard {c.shadow[a.a].name} for -1 to the check"
    if kind == "spoil":
        assert s.combat is not None
        dfn = s.combat.seats[1]
        if a.a == "disrupt":
            return f"Disrupt the plans of P{dfn}"
        if a.a == "tech":
            return f"Acquire the tech {c.techs[a.b].name} of P{dfn}"
        return f"Bombard {c.planets[a.b].name} of P{dfn}"
    if kind == "capture":
        p = d.data[0]
        return f"Capture {c.planets[c.planet_ids[p]].name} - {cost_text(c.planet_cost[p])}"
    if kind == "rescue":
        return f"Take the face-up planet {c.planets[a.a].name}"
    if kind == "disrupt":
        assert s.combat is not None
        return (f"Move P{s.combat.seats[1]}'s {token_words(parse_token(a.a))} token back to "
                "BASIC")
    if kind == "order":
        cb = s.combat
        pos = len(cb.partial[d.data[0]]) + 1 if cb is not None else 1
        return f"Put {_ship_words(s, a.a)} at position {pos} of your order"
    if kind == "fire":
        return f"Fire at the enemy {_ship_words(s, a.a)}"
    if kind == "steal":
        assert s.combat is not None
        return f"Take 1 {a.a} from P{s.combat.seats[1]}"
    raise KeyError(f"no label for {a} in a {kind!r} decision")


def label(state: IAState, action: Act) -> str:
    """The few words on the legal ``action``'s button (see :mod:`starlanes.engine.explain`):
    ``Colonise Ferrum - 1 food + 2 ore``, ``Take the COLONISE at STRONG action``, ``Trade 3
    food for 1 ore``; cards, ships, planets and techs by their printed names. Raises
    KeyError for a decision this game does not have."""
    if action.verb == "exchange":
        return f"Trade 3 {action.a} for 1 {action.b}"
    return _label_step(state, state.stack[-1], action)
