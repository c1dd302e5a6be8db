"""Monte Carlo Interstellar Ambitions combats on the game's own combat code (the
emergency draw, pre-battle effects, duels, unmatched fire and the result stage of
:mod:`starlanes.games.interstellar_ambitions.combat`), the cross-check of :mod:`.ia`."""

from __future__ import annotations

import math
from typing import Any

import starlanes
from starlanes.games.interstellar_ambitions import combat as ia_combat

from .ia import IACombatSpec, _entries, _order
from .rd_position import OddsError


def ia_simulate(spec: IACombatSpec, trials: int, seed: int = 0) -> dict[str, float]:
    """Play ``trials`` combats of ``spec`` on the engine (orders ``listed`` or
    ``strongest``; unmatched fire as the heuristic bot). Returns the attacker's win rate
    ``p`` and its standard error ``se``, and the mean totals ``att``/``dfn``."""
    if "best" in spec.orders:
        raise OddsError("Monte Carlo takes listed or strongest orders")
    game = starlanes.load("interstellar-ambitions", players=3, seed=seed)
    base = game.new_initial_state()
    c = base.content
    raid = spec.kind == "raid"
    ships = [[(e[0], e[1]) for e in _entries(c, spec.attacker, "attacker", raid, True)],
             [(e[0], e[1]) for e in _entries(c, spec.defender, "defender", raid, False)]]
    wins = 0
    tot = [0.0, 0.0]
    for t in range(trials):
        s = base.clone()
        s.reseed(seed + t)
        s.stack.clear()
        s.ships = [tuple(ships[0]), tuple(ships[1]), ()]
        s.known = [(), (), ()]
        s.planets = [(), (), ()]
        s.emerg_deck = list(c.emergency_cards)
        s.emerg_discard = []
        if spec.emergency == "none":
            s.emerg_deck = []
        ia_combat.begin(s, 0, 1, spec.kind, spec.level)
        cb = s.combat
        while cb.stage != "repair":
            if cb.stage == "order":
                for side in (0, 1):
                    cb.secret.commit(cb.seats[side], tuple(_order(c, cb.entries[side],
                                                                  spec.orders[side])))
            ia_combat.run(s)
            while s.stack and cb.stage != "repair":
                d = s.stack.pop()
                if d.kind != "fire":
                    raise AssertionError(f"unexpected decision {d.kind}")
                legal = ia_combat.fire_legal(s, d)
                ia_combat.fire_apply(s, d, max(legal, key=lambda a: _fire_value(c, a.a)))
        ta = cb.totals[0] + spec.attacker_bonus
        td = cb.totals[1] + spec.defender_bonus
        tot[0] += ta
        tot[1] += td
        wins += (ta > td) if raid else (ta >= td)
    p = wins / trials
    return {"p": p, "se": math.sqrt(p * (1 - p) / trials), "att": tot[0] / trials,
            "dfn": tot[1] / trials}


def _fire_value(c: Any, label: str) -> float:
    """The heuristic bot's target value (ships about to fall, then the strongest)."""
    sid, _, dmg = label.partition("/")
    cv = c.ship_combat[c.ship_index[sid]]
    left = cv - int(dmg or 0)
    return (10 if left <= 1 else 0) + cv if left >= 0 else -10
