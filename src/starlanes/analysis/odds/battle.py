"""Rift Domination odds entry points: a battle given as fleets, the battle running in a
state, the battle an action would start (see the package docstring)."""

from __future__ import annotations

import time
from typing import Any

from starlanes.engine import BadOptionError

from .ia import ia_odds, spec_from_state
from .policies import DEFAULT_CASUALTIES, DEFAULT_RETREAT, METHODS, check_retreat, targeting
from .rd_exact import RiftExact, TooLarge, unmodelled
from .rd_position import OddsError, RiftBattleSpec, fleet_text, position
from .rd_sim import add_ending, choose, prologue, start, waiting
from .report import OddsReport
from .tally import Tally

MIN_TRIALS = 50
"""Fewest battles an engine simulation with a time limit plays."""

ESTIMATE_SECONDS = 0.6
"""Time an ``auto`` estimate on the game engine (a battle the exact model leaves out)
plays battles for, when the caller gives no time limit: the answer comes within about a
second, with its standard errors."""

ESTIMATE_MIN_TRIALS = 20
"""Fewest battles such an estimate plays (20 v 20 fleets: about 0.3 s)."""


def _policies(casualties: str, retreat: str, fire: str) -> dict[str, str]:
    return {
        "casualties": casualties + (" (default)" if casualties == DEFAULT_CASUALTIES else ""),
        "retreat": retreat + (" (default)" if retreat == DEFAULT_RETREAT else ""),
        "battle_fire": fire,
    }


def odds_of_battle(state: Any, *, casualties: str = DEFAULT_CASUALTIES,
                   retreat: str = DEFAULT_RETREAT, method: str = "auto",
                   trials: int = 2_000, seed: int = 0, max_states: int = 200_000,
                   attacker: str = "", defender: str = "",
                   play_cards: bool = False, seconds: float = 0.0) -> OddsReport:
    """Odds of the Rift Domination battle running in ``state`` (``state.battle``), from
    where it stands. ``method``: ``auto`` (exact where the model covers the battle and the
    state space stays under ``max_states`` cells of hit counts, else a Monte Carlo estimate
    of the same model from ``trials`` battles; battles the model does not cover are
    simulated on the engine), ``exact`` or ``monte-carlo`` (the engine). With ``play_cards``
    the seats play the battle cards they hold at the first chance (simulated: the exact
    model plays none). With ``seconds`` > 0 an engine simulation stops once that time has
    passed (after at least :data:`MIN_TRIALS` battles) and reports the battles played.

    Raises OddsError when there is no battle or ``exact`` is impossible, BadOptionError for
    an unknown policy or method or trials < 1."""
    b = state.battle
    if b is None:
        raise OddsError("no battle is running in this state")
    if b.pending is None:
        raise OddsError("the battle is waiting for another decision (a card reaction)")
    if method not in METHODS:
        raise BadOptionError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if trials < 1:
        raise BadOptionError("trials must be at least 1")
    keys = (targeting(casualties), targeting(casualties))
    check_retreat(retreat)
    rets = (retreat, retreat)
    fire = "simultaneous" if b.simultaneous else "sequential"
    pol = _policies(casualties, retreat, fire)
    if not attacker or not defender:
        texts = []
        for side in (0, 1):
            c: dict[str, int] = {}
            for f in b.living(side):
                c[f.label()] = c.get(f.label(), 0) + 1
            texts.append(fleet_text(c))
        attacker = attacker or texts[0]
        defender = defender or texts[1]
    kind = "ground" if b.ground else "space"
    note = ""
    if method != "monte-carlo":
        pre = prologue(state, keys, rets, play_cards)
        bp = pre.battle
        if bp is None:  # decided before any die (an Ambush destroyed the last ship)
            pre, bp = state, b
        hands = tuple(pre.hands[seat] for seat in bp.seats) if play_cards else ([], [])
        why = unmodelled(bp, (hands[0], hands[1]))
        if why and method == "exact":
            raise OddsError(f"no exact odds for this battle: {why}; method auto gives a "
                            "labelled estimate within about a second")
        if not why:
            tally = Tally()
            model = RiftExact(pre, bp, keys, rets, max_states=max_states)
            try:
                model.run(tally)
            except TooLarge as e:
                if method == "exact":
                    raise OddsError(f"no exact odds for this battle: {e}; method auto "
                                    "gives a Monte Carlo estimate of the same model "
                                    "within about a second") from None
                tally = Tally()
                model.simulate(tally, trials, seed)
                return tally.report(
                    game="rift-domination", kind=kind, attacker=attacker, defender=defender,
                    method="monte-carlo", policies=pol, trials=trials,
                    note=f"exact state space too large ({e}): a Monte Carlo estimate from "
                         f"{trials:,} battles of the same model, with standard errors")
            else:
                return tally.report(game="rift-domination", kind=kind, attacker=attacker,
                                    defender=defender, method="exact", policies=pol,
                                    states=model.states)
        note = f"no exact odds: {why}; an estimate from battles played on the game engine"
        seconds = min(seconds, ESTIMATE_SECONDS) if seconds > 0 else ESTIMATE_SECONDS
    least = MIN_TRIALS if method == "monte-carlo" else ESTIMATE_MIN_TRIALS
    tally = Tally()
    deadline = time.monotonic() + seconds if seconds > 0 else None
    done = 0
    for i in range(trials):
        s = state.clone()
        s.reseed(seed + i)
        bb = s.battle
        while waiting(s, bb):
            s.apply(choose(s, keys, rets, play_cards))
        add_ending(s, bb, tally, 1.0, base=(state.vp, state.resources))
        done += 1
        if deadline is not None and done >= least and time.monotonic() > deadline:
            note = (note + "; " if note else "") + (
                f"stopped after {done} of {trials} battles ({seconds:g} s)")
            break
    return tally.report(game="rift-domination", kind=kind, attacker=attacker,
                        defender=defender, method="monte-carlo", policies=pol,
                        trials=done, note=note)


def rift_odds(spec: RiftBattleSpec, **kw: Any) -> OddsReport:
    """Odds of the Rift Domination battle ``spec`` (see :func:`odds_of_battle` for the
    keywords). The battle is set up on a real game state and started by the game's own
    code, so faction stats, the outpost and upgrades are exactly the game's.

    Raises OddsError for bad fleets, factions or upgrades, BadOptionError for bad game
    options or policies."""
    pos, planet = position(spec)
    s = start(pos, planet, kw.get("seed", 0))
    kw.setdefault("play_cards", any(spec.cards))
    return odds_of_battle(s, attacker=fleet_text(spec.attacker),
                          defender=fleet_text(spec.defender) if spec.defender else
                          "planet defences", **kw)


def battle_odds_for_state(state: Any, seat: int, **kw: Any) -> OddsReport | None:
    """Odds of the battle ``seat`` is in, for a table to show; None if it is in none.

    Rift Domination: the battle in ``state.battle`` from where it stands (keywords as
    :func:`odds_of_battle`; by default 500 trials where simulation is needed).
    Interstellar Ambitions: the combat in ``state.combat`` until orders are given (keyword
    ``orders``, default the heuristic bot's ``strongest`` for both)."""
    game_id = getattr(getattr(state, "game", None), "game_id", "")
    if game_id == "interstellar-ambitions":
        cb = getattr(state, "combat", None)
        if cb is None or seat not in cb.seats:
            return None
        spec = spec_from_state(state, orders=kw.get("orders", ("strongest", "strongest")))
        return None if spec is None else ia_odds(spec)
    b = getattr(state, "battle", None)
    if b is None or seat not in b.seats or game_id != "rift-domination" or b.pending is None:
        return None
    kw.setdefault("trials", 500)
    return odds_of_battle(state, **kw)


def battle_after(state: Any, action: Any) -> Any | None:
    """A clone of Rift Domination ``state`` with ``action`` applied and the battle it starts
    running (joining no further stacks), or None if it starts none. Raises
    IllegalActionError if ``action`` is not legal."""
    from starlanes.games.rift_domination.actions import Attack

    if getattr(getattr(state, "game", None), "game_id", "") != "rift-domination":
        return None  # only Rift Domination battles are started by a single action
    s = state.clone()
    s.apply(action)
    if s.battle is None and any(isinstance(a, Attack) for a in s.legal_actions()):
        s.apply(next(a for a in s.legal_actions() if isinstance(a, Attack)))
    return None if s.battle is None else s


def action_odds(state: Any, action: Any, **kw: Any) -> OddsReport | None:
    """Odds of the battle that applying ``action`` (e.g. a Move onto an enemy fleet, or a
    Land) would start, for the player about to commit: the action is applied to a clone
    (joining no further stacks) and the battle it starts is evaluated. None if it starts
    no battle. Raises IllegalActionError if ``action`` is not legal."""
    s = battle_after(state, action)
    if s is None:
        return None
    kw.setdefault("trials", 500)
    return odds_of_battle(s, **kw)
