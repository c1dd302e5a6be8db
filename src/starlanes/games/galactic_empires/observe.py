"""Observations: the state as one seat may see it, JSON-ready. Hidden from ``seat``: the
other players' hands and reserve fleets (only their sizes show) and the order of every
deck. Everything in play and the discard piles are public."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import code_seat, is_hq
from .state import POOL_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState


PHASE_WORDS = {
    "setup": "set-up",
    "alloc": "Point Allocation Phase",
    "engage": "Engagement Phase",
    "playA": "Play Cards Phase A",
    "aim": "Weapons Fire Phase, choosing targets",
    "fire": "Weapons Fire Phase",
    "playB": "Play Cards Phase B",
    "discard": "Discard Cards Phase",
    "draw": "Draw Cards Phase",
    "end": "End Turn Phase",
    "over": "game over",
}
"""The player turn's phases in the rulebook's words (the observation's ``phase_words``;
``phase`` is the id)."""


def phase_words(phase: str) -> str:
    """``phase`` (an id) in words: :data:`PHASE_WORDS`, else the id itself."""
    return PHASE_WORDS.get(phase, phase)


def observation(s: GEState, seat: int) -> dict[str, Any]:
    players = []
    for i in range(s.n):
        players.append({
            "seat": i,
            "alive": s.alive[i],
            "hq_damage": s.hq[i],
            "major": s.major[i] or None,
            "turns": s.turns[i],
            "hand_size": len(s.hands[i]),
            "hand": [s.name(c) for c in s.hands[i]] if i == seat else None,
            "reserve_size": len(s.reserve[i]),
            "reserve": [s.name(c) for c in s.reserve[i]] if i == seat else None,
        })
    units = [
        {"id": i, "card": u.card, "owner": u.owner, "host": u.host, "against": u.against,
         "engaged": u.engaged, "shield_damage": u.sdmg, "damage": u.dmg,
         "permanent": u.perm, "research": u.rdmg, "ammo": u.ammo, "charge": u.charge,
         "partner": u.partner, "left": u.left}
        for i, u in sorted(s.units.items())
    ]
    pending = None
    if s.pending:
        p = s.pending
        tgt = p[2] if p[0] == "card" else p[1]
        pending = {"kind": p[0],
                   "target": (f"HQ{code_seat(tgt)}" if is_hq(tgt) else tgt)}
        if p[0] == "fire":
            pending["damage"] = p[2]
        else:
            pending["card"] = s.name(p[1])
    return {
        "game": "galactic-empires",
        "seat": seat,
        "round": s.round,
        "turn": s.seat,
        "phase": s.phase,
        "phase_words": phase_words(s.phase),
        "current_player": s.current_player(),
        "plays": s.plays,
        "pool": dict(zip(POOL_NAMES, s.pool, strict=True)),
        "players": players,
        "units": units,
        "deck_sizes": [len(d) for d in s.decks],
        "discards": [[s.name(c) for c in d] for d in s.discards],
        "fired_at": list(s.fired_at),
        "aim": s.aim,
        "picks": [list(p) for p in s.picks],
        "pending": pending,
        "decisions": [d.kind for d in s.stack],
        "terminal": s.is_terminal(),
        "winners": list(s.winners),
        "end_reason": s.end_reason or None,
    }
