"""Observations: the state as one seat may see it, JSON-ready.

Hidden from ``seat``: other players' Shadow hands (sizes only, plus ``seen_cards``: the
cards ``seat`` saw go into that hand, e.g. taken from it by a Double Agent), every face-down deck
(sizes only: Shadow, Tech, Merc, Emergency, Colony Event and the planet stacks below their
face-up slots), another player's Buy offer, and combat orders not yet revealed (damaged
ships' places excepted). Everything else is public, including the face-up discards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import token_name

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState


def observation(s: IAState, seat: int) -> dict[str, Any]:
    c = s.content
    players = []
    for i in range(s.n):
        players.append({
            "seat": i,
            "resources": dict(zip(("food", "ore", "science", "coin"), s.res[i], strict=True)),
            "planets": [{"id": c.planet_ids[p], "level": lvl, "max": c.planet_max[p],
                         "markers": [c.event_ids[e] for e in m]} for p, lvl, m in s.planets[i]],
            "ships": [{"id": c.ship_ids[card], "damage": d} for card, d in s.ships[i]],
            "hand_size": len(s.hands[i]),
            "hand": sorted(c.shadow_ids[x] for x in s.hands[i]) if i == seat else None,
            "seen_cards": sorted(c.shadow_ids[x] for v, h, x in s.seen_cards
                                 if v == seat and h == i and i != seat),
            "tokens": sorted(token_name(t) for t in s.tokens[i] if t >= 0),
            "pool": s.tokens[i].count(-1),
            "techs": [c.tech_ids[t] for t in s.known[i]],
            "owned_techs": [c.tech_ids[t] for t in s.known[i] if s.tech_owner[t] == i],
            "medals": {"fleet": s.medals[i][0], "shadow": s.medals[i][1]},
            "stats": {"raids_won": s.stats[i][0], "captures": s.stats[i][1],
                      "techs_taken": s.stats[i][2]},
        })
    top = s.stack[-1] if s.stack else None
    obs: dict[str, Any] = {
        "game": "interstellar-ambitions",
        "seat": seat,
        "round": s.round,
        "turn": s.seat,
        "start_player": s.start,
        "phase": s.phase,
        "step": s.step,
        "current_player": s.current_player(),
        "pending": None if top is None else {"seat": top.seat, "kind": top.kind},
        "players": players,
        "ambitions": [{"id": c.ambition_ids[a], "claims": list(s.claims[i])}
                      for i, a in enumerate(s.ambitions)],
        "tech_slots": [c.tech_ids[t] if t >= 0 else None for t in s.tech_slots],
        "merc_slots": [c.ship_ids[m] if m >= 0 else None for m in s.merc_slots],
        "planet_slots": [[c.planet_ids[p] if p >= 0 else None for p in slots]
                         for slots in s.planet_slots],
        "deck_sizes": {
            "shadow": len(s.shadow_deck), "tech": len(s.tech_deck), "merc": len(s.merc_deck),
            "emergency": len(s.emerg_deck), "colony": len(s.colony_deck),
            "planets": [len(d) for d in s.planet_decks],
        },
        "discards": {
            "shadow": [c.shadow_ids[x] for x in s.shadow_discard],
            "tech": [c.tech_ids[x] for x in s.tech_discard],
            "merc": [c.ship_ids[x] for x in s.merc_discard],
            "emergency": [c.ship_ids[x] for x in s.emerg_discard],
            "colony": [c.event_ids[x] for x in s.colony_discard],
            "planets": [c.planet_ids[x] for x in s.planet_discard],
        },
        "offer": ([c.shadow_ids[x] for x in s.offer]
                  if s.offer and top is not None and top.seat == seat else None),
        "offer_size": len(s.offer),
        "combat": None if s.combat is None else s.combat.view(s, seat),
        "end_trigger": s.end_trigger,
        "terminal": s.is_terminal(),
        "end_reason": s.end_reason or None,
        "winners": list(s.winners),
    }
    return obs
