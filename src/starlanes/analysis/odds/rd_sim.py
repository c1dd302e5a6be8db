"""Monte Carlo Rift Domination battles on the real engine: each trial clones the prepared
position, starts the battle with the game's own code and answers every battle decision
by the chosen policies, so whatever the rules code does (every skill) is simulated."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from starlanes.games.rift_domination import battle as battle_mod
from starlanes.games.rift_domination.actions import Pass, PlayCard
from starlanes.games.rift_domination.battle_model import ATTACKER, DEFENDER, Battle

from .policies import TargetView, wants_retreat
from .rd_exact import phase_label
from .tally import Tally


def start(pos: Any, planet: int, seed: int) -> Any:
    """A clone of position ``pos`` reseeded with ``seed``, its battle started."""
    s = pos.clone()
    s.reseed(seed)
    if planet < 0:
        pt = s.board.index["C1"]
        came = {uid: s.board.index["B1"] for uid, u in s.units.items() if u.owner == 0}
        battle_mod.start_space_battle(s, 0, pt, came)
    else:
        landing = sorted(uid for uid, u in s.units.items() if u.owner == 0)
        battle_mod.start_ground_battle(s, 0, planet, landing, bombard=False)
    return s


def _view(s: Any, b: Battle, fid: int) -> TargetView:
    f = b.fighters[fid]
    c = s.content
    cost = float(c.units[f.kind].cost if f.kind in c.units else
                 c.upgrades[f.kind].cost if f.kind in c.upgrades else 1)
    return TargetView(f.kind, f.lp, f.sh, f.lp_max, f.sh_max, cost, f.dice)


def choose(s: Any, keys: tuple[Callable, Callable], retreat: tuple[str, str],
           play_cards: bool = False) -> Any:
    """The policies' answer to the pending battle decision of ``s``; with ``play_cards``
    a side plays its battle cards at the first chance (one per decision), else never."""
    b: Battle = s.battle
    legal = s.legal_actions()
    if b.pending is None:  # the reaction window a card opened (counter cards): pass
        return next(a for a in legal if isinstance(a, Pass))
    kind, seat, _arg = b.pending
    side = b.side_of_seat(seat)
    if kind == "cards" and play_cards:
        plays = [a for a in legal if isinstance(a, PlayCard)]
        if plays:
            return plays[0]
    if kind in ("hit", "kamikaze", "ambush"):
        groups = b.targets(1 - side, units_only=kind != "hit")
        key = keys[side]
        return max(legal, key=lambda a: key(_view(s, b, groups[a.target])))
    if kind == "retreat":
        def strength(sd: int) -> float:
            return sum(f.lp + f.sh + 1.5 * f.dice for f in b.living(sd))

        go = wants_retreat(retreat[side], strength(side), strength(1 - side))
        want = battle_mod.Retreat if go else battle_mod.Stay
        return next(a for a in legal if isinstance(a, want))
    if kind in ("overload", "overload_more"):
        ov = [a for a in legal if isinstance(a, battle_mod.Overload)]
        if not ov:
            return next(a for a in legal if isinstance(a, Pass))
        own = _own_groups(b, side)
        return max(ov, key=lambda a: (_view(s, b, own[a.target]).cost, a.target))
    if kind == "rush":
        rushes = [a for a in legal if isinstance(a, battle_mod.RepairRush)]
        dying = any(f.side == side and not f.gone and not f.building and f.lp <= 0
                    for f in b.fighters.values())
        if rushes and dying:  # as the heuristic bot: save units about to be destroyed
            return rushes[-1]
    return next(a for a in legal if isinstance(a, Pass))


def waiting(s: Any, b: Battle) -> bool:
    """Whether battle ``b`` of ``s`` still runs and waits for a decision: a battle decision,
    or the reaction window of a card played in it (the decision stack)."""
    return s.battle is b and (b.pending is not None or bool(s.stack))


PRE_FIRE = frozenset({"cancel", "cards", "overload", "overload_more", "ambush"})
"""Battle decisions that come before the first die of a phase: card windows, Overload
and an Ambush card's target."""


def prologue(state: Any, keys: tuple[Callable, Callable], retreat: tuple[str, str],
             play_cards: bool) -> Any:
    """A clone of ``state`` with the decisions before the battle's next die answered by
    the policies (cards played at the first chance with ``play_cards``, every Overload
    used at once on the most expensive units, reaction windows passed), stopped at the
    last decision whose answer rolls a die or ends the phase: the fleets as the first
    volley finds them. The clone's battle is ``state.battle`` when no decision could be
    answered without a die."""
    s = state.clone()
    b = s.battle
    if b is None or b.rolled and b.stage not in ("open", "phase_start", "cards", "overload"):
        return s
    phase, rounds, rolled = b.phase, b.close_rounds, b.rolled
    for _ in range(200):  # bounded: every card and Overload is answered once
        if not waiting(s, s.battle) or (s.battle.pending is not None
                                        and s.battle.pending[0] not in PRE_FIRE):
            return s
        nxt = s.clone()
        nb = nxt.battle
        nxt.apply(choose(nxt, keys, retreat, play_cards))
        if (nxt.battle is not nb or nb.rolled != rolled or nb.phase != phase
                or nb.close_rounds != rounds or not waiting(nxt, nb)):
            return _last_shield(s, keys, retreat, play_cards)
        s = nxt
    return s


def _last_shield(s: Any, keys: tuple[Callable, Callable], retreat: tuple[str, str],
                 play_cards: bool) -> Any:
    """Place the last Overload shield of the window ``s`` stopped at (its answer would go
    on to the dice): the fleets then stand as the first volley finds them."""
    from starlanes.games.rift_domination.battle_skills import overload

    b = s.battle
    if b is not None and b.pending is not None and b.pending[0] == "overload_more":
        a = choose(s, keys, retreat, play_cards)
        overload(b, b.side_of_seat(b.pending[1]), a.target)
        b.pending = ("overload", b.pending[1], 0)
        b.overload_done[b.side_of_seat(b.pending[1])] = True
    return s


def _own_groups(b: Battle, side: int) -> dict[str, int]:
    from starlanes.games.rift_domination.battle_skills import own_groups

    return own_groups(b, side)


def add_ending(s: Any, b: Battle, tally: Tally, p: float,
               base: tuple[list[int], list[int]] = ([0, 0], [0, 0])) -> None:
    """Record the finished battle ``b`` of state ``s`` in ``tally`` with weight ``p``; VP
    and resources won are what the game gave each seat (the position starts at 0)."""
    content = s.content
    sides = (ATTACKER, DEFENDER)
    left = [[f for f in b.fighters.values() if f.side == s and f.lp > 0] for s in sides]
    alive = [[f for f in left[s] if not f.gone or b.retreated == s] for s in sides]
    if b.retreated >= 0:
        outcome = ("attacker_retreats", "defender_retreats")[b.retreated]
        winner = 1 - b.retreated
    elif alive[0] and not alive[1]:
        outcome, winner = "attacker_wins", ATTACKER
    elif alive[1] and not alive[0]:
        outcome, winner = "defender_wins", DEFENDER
    else:
        outcome, winner = "mutual_destruction", -1

    def cost(f: Any) -> float:
        return float(content.units[f.kind].cost if f.kind in content.units else
                     content.upgrades[f.kind].cost if f.kind in content.upgrades else 1)

    total = [[f for f in b.fighters.values() if f.side == s] for s in sides]
    lost = tuple(sum(1 for f in total[s] if not f.building)
                 - sum(1 for f in alive[s] if not f.building) for s in sides)
    cost_lost = tuple(sum(cost(f) for f in total[s]) - sum(cost(f) for f in alive[s])
                      for s in sides)
    texts = []
    for sd in sides:
        c: Counter[str] = Counter(f.label() for f in alive[sd])
        texts.append(", ".join(f"{n} {k}" if n > 1 else k for k, n in sorted(c.items())))
    del winner
    vp = [float(s.vp[b.seats[sd]] - base[0][b.seats[sd]]) for sd in sides]
    res = [float(s.resources[b.seats[sd]] - base[1][b.seats[sd]]) for sd in sides]
    rounds = b.close_rounds - 1 if b.retreated >= 0 else b.close_rounds
    tally.add(p, outcome, phase_label(b.phase, max(0, rounds)),
              (texts[0], texts[1]), (len(alive[0]), len(alive[1])),
              (lost[0], lost[1]), (cost_lost[0], cost_lost[1]), (vp[0], vp[1]),
              (res[0], res[1]))
