"""Observations: the state as one seat may see it, JSON-ready.

Hidden from ``seat``: other seats' OCC hands (only their sizes show), the order of the OCC
deck, and the values of condition tiles not yet flipped, including the tile being placed
during set-up (ruling RD-OPEN-05: only its kind shows, to everyone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState


PHASE_WORDS = {
    "setup_faction": "set-up, choosing factions",
    "setup_home": "set-up, choosing home planets",
    "setup_tiles": "set-up, placing condition tiles",
    "turn_start": "start of a turn (steps 1-3)",
    "build": "build (step 4)",
    "move": "move (steps 5-6)",
    "recruit": "recruit (step 7)",
    "turn_end": "end of a turn",
    "between_turns": "between turns",
    "over": "game over",
}
"""The turn's steps in words (the observation's ``phase_words``; ``phase`` is the id)."""


def phase_words(phase: str) -> str:
    """``phase`` (an id) in words: :data:`PHASE_WORDS`, else the id itself."""
    return PHASE_WORDS.get(phase, phase)


def observation(s: RiftState, seat: int) -> dict[str, Any]:
    b = s.board
    planets = []
    for p in b.in_play_planets:
        planets.append({
            "id": b.planet_ids[p],
            "owner": s.planet_owner[p],
            "upgrades": list(s.planet_upgrades[p]),
            "tile": s.tile_kind[p] or None,
            "value": s.tile_value[p] if s.tile_revealed[p] else None,
            "huge": b.planet_huge[p],
        })
    players = []
    for i in range(s.n):
        players.append({
            "seat": i,
            "faction": s.faction[i] or None,
            "resources": s.resources[i],
            "income": s.income[i],
            "vp": s.vp[i],
            "roster": list(s.roster[i]),
            "home": b.planet_ids[s.home[i]] if s.home[i] >= 0 else None,
            "hand_size": len(s.hands[i]),
            "hand": sorted(s.hands[i]) if i == seat else None,
        })
    units = [
        {"id": uid, "owner": u.owner, "kind": u.kind, "at": b.names[u.loc],
         "landed": u.landed, "mp": u.mp, "wounds": u.wounds}
        for uid, u in sorted(s.units.items())
    ]
    obs: dict[str, Any] = {
        "game": "rift-domination",
        "seat": seat,
        "round": s.round,
        "turn": s.seat,
        "phase": s.phase,
        "phase_words": phase_words(s.phase),
        "current_player": s.current_player(),
        "target_vp": s.target_vp,
        "players": players,
        "planets": planets,
        "units": units,
        "deck_size": len(s.deck),
        "discard": list(s.discard),
        "pending": [d.kind for d in s.stack],
        "tile_in_hand": s.tile_in_hand[0] if s.tile_in_hand else None,
        "faction_offer": s.faction_offer or None,
        "battle": None,
        "terminal": s.is_terminal(),
        "winners": list(s.winners),
    }
    if s.battle is not None and hasattr(s.battle, "observe"):
        obs["battle"] = s.battle.observe(s, seat)
    return obs
