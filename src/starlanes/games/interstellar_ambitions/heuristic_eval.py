"""Leaf evaluation for search in Interstellar Ambitions.

VP alone (the generic leaf value) misses most of what a position is worth a few turns
before the end: a planet below its maximum level scores nothing yet (IA-END-05), and the
resources, track levels and fleet that will develop it, research and win fights score
nothing at all. :func:`evaluate` weighs these with :data:`EVAL_WEIGHTS`, logits fitted on
heuristic self-play, and reads the softmax of the seats' weighted positions as each seat's
chance of winning.
"""

from __future__ import annotations

from starlanes.engine import softmax_values, weighted_positions

from .common import fleet_value
from .scoring import score
from .state import POOL, IAState

#: Logits per unit of each feature, fitted as a conditional logit (the seat's chance of
#: winning is the softmax of the seats' weighted features) on the first position of every
#: turn of 3-player heuristic self-play: ``python benchmarks/fit_evaluation.py --game
#: interstellar-ambitions --players 3 --games 2000``: on its held-out positions a log loss
#: of 0.921 against the seats' base rates' 1.101, and the seat it rates likeliest wins 55.1%
#: of the time (the VP leader: 54.6%). Shadow cards in hand are left out, so that search is
#: never paid for holding cards back.
EVAL_WEIGHTS = {
    "vp": 0.1011, "unscored_vp": 0.0297, "resources": 0.0171, "levels": 0.0625, "fleet": 0.0738,
}


def position_features(s: IAState, seat: int) -> dict[str, float]:
    """The quantities :data:`EVAL_WEIGHTS` weighs, for one seat: ``vp`` (the seat's VP
    now), ``unscored_vp`` (printed VP of its planets below their maximum level),
    ``resources`` (food, ore, science and coin together), ``levels`` (the levels of its
    six track tokens, 0-3 each, tokens in the pool 0) and ``fleet`` (combat value of its
    ships less damage, IA-OPEN-23)."""
    c = s.content
    unscored = 0
    for p, lvl, _markers in s.planets[seat]:
        if lvl < c.planet_max[p]:
            unscored += c.planet_vp[p]
    return {
        "vp": float(score(s, seat)),
        "unscored_vp": float(unscored),
        "resources": float(sum(s.res[seat])),
        "levels": float(sum(t & 3 for t in s.tokens[seat] if t != POOL)),
        "fleet": float(fleet_value(s, seat)),
    }


def evaluate(state: IAState) -> list[float]:
    """Leaf value for search, per seat in [0, 1] (summing to 1): returns() when the game is
    over, else the softmax of the seats' weighted positions (:data:`EVAL_WEIGHTS` times
    :func:`position_features`), each seat's fitted chance of winning."""
    if state.is_terminal():
        return state.returns()
    return softmax_values(weighted_positions(state, position_features, EVAL_WEIGHTS))
