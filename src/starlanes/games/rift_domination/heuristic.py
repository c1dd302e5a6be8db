"""A heuristic bot for Rift Domination that plays with purpose.

It expands (carries troops to the nearest planet it does not hold, the huge central planets
counted several steps nearer, and lands, on a neutral planet only with more ground units than
its garrison), builds mines for income and fortifies the centre it holds, unlocks and saves
for a flagship, recruits carriers with infantry and then a mix of warships, plays helpful
OCC-cards at once (also in the windows between other seats' turns), attacks fleets it outguns
(each battle won is 1 VP) and avoids fleets that outgun it, and in battle focuses fire on
damaged and valuable targets and retreats when outmatched. The longer-range weights are in
:mod:`.heuristic_plans`.
It reads only what its seat may see (public board and its own hand).
"""

from __future__ import annotations

import random

from starlanes.engine import Action, margin_values

from . import battle as battle_mod
from .actions import (
    Attack,
    Build,
    ChooseHome,
    Consume,
    Done,
    EndTurn,
    FreeUpgrade,
    JoinAttack,
    KeepFaction,
    Land,
    Lift,
    Move,
    Negotiate,
    Pass,
    PlaceFighters,
    PlayCard,
    Recruit,
    Resolve,
    Sacrifice,
    Unlock,
)
from .heuristic_plans import (
    FLAGSHIP,
    build_score,
    centre_offsets,
    distance_field,
    flagship_count,
    jump_to_troops,
    owned_kinds,
    pick_warship,
    saving_for_flagship,
    unlock_score,
    weighted_field,
)
from .occ import effect_of
from .state import RiftState

#: The MCTS agent's defaults for this game (explicit spec parameters win): sequential
#: halving compares the legal actions in the same sampled worlds (30 rollouts a decision),
#: each rolled out by this bot for 60 actions (most of a round: VP races are decided over
#: rounds); this bot's own action stands unless another beats it in the same worlds by two
#: standard errors (docs/agents.md: how these were chosen).
MCTS_DEFAULTS = {
    "iterations": 30, "depth": 60, "rollout": "heuristic", "prior": "heuristic",
    "root": "halving", "tree": 1, "confidence": 2.0,
}

GOOD_NOW = {
    "gain_resources", "gain_vp", "draw", "income_up", "free_units", "recruit", "free_upgrade",
    "steal_resources", "drain_income", "discard_cards", "sabotage",
}
BATTLE_GOOD = {
    "weapon_industry", "hit_boost", "shield_boost", "repair", "ambush", "skill", "recruit",
    "skill_block",
}


def unit_power(s: RiftState, seat: int, kind: str) -> float:
    st = s.stats[seat][kind]
    return st.lp + st.shields + 1.5 * (st.close + st.mid + st.long)


def fleet_power(s: RiftState, seat: int, point: int) -> float:
    return sum(
        unit_power(s, seat, u.kind) for u in s.units.values()
        if u.loc == point and u.owner == seat and not u.landed
    )


ODDS_ATTACK = 0.6
"""With odds: attack when the exact chance of winning the battle is at least this."""
ODDS_MAX_STATES = 20_000


class HeuristicAgent:
    """``act(state) -> Action``: a greedy rule-based player (see module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int = 0, odds: bool = False) -> None:
        self.rng = random.Random(seed)
        self.odds = odds
        if odds:
            self.name = "heuristic:odds=1"

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # ------------------------------------------------------------------ entry
    def act(self, state: RiftState) -> Action:
        s = state
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = s.current_player()
        if s.stack:
            return self._decision(s, seat, legal)
        if s.battle is not None:
            return self._battle(s, seat, legal)
        phase = s.phase
        if phase == "setup_home":
            return legal[0] if isinstance(legal[0], ChooseHome) else self.rng.choice(legal)
        if phase == "setup_tiles":
            return self._tile(s, seat, legal)
        if phase == "setup_faction":
            return next(a for a in legal if isinstance(a, KeepFaction))
        card = self._good_card(s, seat, legal)
        if card is not None:
            return card
        if phase == "build":
            return self._build(s, seat, legal)
        if phase == "move":
            return self._move(s, seat, legal)
        if phase == "recruit":
            return self._recruit(s, seat, legal)
        return self.rng.choice(legal)

    # ------------------------------------------------------------------ set-up
    def _tile(self, s: RiftState, seat: int, legal: list[Action]) -> Action:
        b = s.board
        home = b.planet_point[s.home[seat]]
        kind = s.tile_in_hand[0] if s.tile_in_hand else ""
        good = kind != "dangerous"

        def score(a: Action) -> float:
            p = b.planet_ids.index(a.planet)  # type: ignore[attr-defined]
            d = b.distance(home, b.planet_point[p])
            return -d if good else d

        scores = [score(a) for a in legal]  # each place scored once; ties drawn at random
        top = max(scores)
        return self.rng.choice([a for a, v in zip(legal, scores, strict=True) if v == top])

    # ------------------------------------------------------------------ cards
    def _good_card(self, s: RiftState, seat: int, legal: list[Action]) -> Action | None:
        cards = s.content.cards
        ids = s.board.planet_ids
        upgrades = [a for a in legal if isinstance(a, PlayCard) and a.target
                    and effect_of(cards[a.card])[0] == "free_upgrade"]
        if upgrades:  # the free upgrade where it is worth most
            def worth(a: PlayCard) -> tuple[float, str]:
                planet, up = a.target.split(":")
                return (build_score(s, seat, up, ids.index(planet)), a.target)

            return max(upgrades, key=worth)
        for a in legal:
            if isinstance(a, PlayCard):
                kind, _ = effect_of(cards[a.card])
                if kind == "extra_mp" and s.phase == "move" and not s.battle:
                    return a  # +1 movement for the whole turn's moves
                if kind in GOOD_NOW:
                    if kind in ("steal_resources", "drain_income", "discard_cards"):
                        target = int(a.target[1:])
                        leader = max(range(s.n), key=lambda i: (s.vp[i], i != seat))
                        if target != leader and leader != seat:
                            continue
                    return a
        return None

    # ------------------------------------------------------------------ build
    def _build(self, s: RiftState, seat: int, legal: list[Action]) -> Action:
        ids = s.board.planet_ids
        builds = [a for a in legal if isinstance(a, Build)]
        reserve = 6 if s.round > 2 else 0
        if saving_for_flagship(s, seat):
            reserve = max(reserve, s.stats[seat][FLAGSHIP].cost)
        best = None
        best_score = 0.0
        for a in builds:
            p = ids.index(a.planet)
            cost = s.content.upgrades[a.upgrade].cost
            score = build_score(s, seat, a.upgrade, p)
            if s.resources[seat] - cost < reserve and score < 10.0:
                continue
            if score > best_score:
                best, best_score = a, score
        return best if best is not None else Done()

    # ------------------------------------------------------------------ recruit
    def _recruit(self, s: RiftState, seat: int, legal: list[Action]) -> Action:
        recruits = [a for a in legal if isinstance(a, Recruit)]
        if not recruits:
            return EndTurn()
        stats = s.stats[seat]
        mine = [u for u in s.units.values() if u.owner == seat]
        capacity = sum(stats[u.kind].capacity for u in mine)
        troops = sum(1 for u in mine if stats[u.kind].ground and not u.landed)
        kinds = {a.unit for a in recruits}
        have = owned_kinds(s, seat)
        want = None
        if FLAGSHIP in kinds and flagship_count(s, seat) < 2:
            want = FLAGSHIP
        elif saving_for_flagship(s, seat) and troops >= 2:
            return EndTurn()  # keep the resources for the flagship
        if want is None and troops < 2 + capacity // 3:
            # one engineer (repairs buildings) among the infantry, else infantry
            order = ("engineer", "infantry") if "engineer" not in have else ("infantry",
                                                                              "engineer")
            for k in order:
                if k in kinds:
                    want = k
                    break
        if (want is None and "diplomat" in kinds and "diplomat" not in have
                and self._civilized_open(s)):
            want = "diplomat"  # negotiates for civilized planets
        if want is None and capacity < troops + 4:
            carriers = [k for k in kinds if stats[k].capacity > 0 and stats[k].used_capacity == 0
                        and k != FLAGSHIP]
            if carriers:
                want = min(carriers, key=lambda k: stats[k].cost)
        if want is None:
            want = pick_warship(s, seat, kinds, self.rng)
        fillers = [k for k in ("fighter", "kamikaze_drone") if k in kinds]
        if want is None and fillers and capacity > troops + 2:
            # spare carrier room when no warship is affordable: the rarer carried craft
            want = min(fillers, key=lambda k: (sum(1 for u in mine if u.kind == k), k))
        if want is None:
            return EndTurn()
        choices = [a for a in recruits if a.unit == want]
        return choices[0]

    # ------------------------------------------------------------------ move
    def _move(self, s: RiftState, seat: int, legal: list[Action]) -> Action:
        b = s.board
        ids = b.planet_ids
        for a in legal:
            if isinstance(a, (Negotiate, Consume)):
                return a
        for a in legal:
            if isinstance(a, Land):
                p = ids.index(a.planet)
                owner = s.planet_owner[p]
                if owner == seat:
                    continue
                if owner < 0 and not self._beats_garrison(s, seat, p):
                    continue
                if owner < 0 or self._ground_odds(s, seat, p) > 1.2:
                    return a
        moves = [a for a in legal if isinstance(a, Move) and not a.unit]
        if not moves:
            return Done()
        troop_goals = self._troop_goals(s, seat)
        dist_troop = weighted_field(s, centre_offsets(s, seat, troop_goals))
        dist_pick = distance_field(s, self._pickup_goals(s, seat))
        dist_war = distance_field(s, self._war_goals(s, seat))
        jump = jump_to_troops(s, seat, legal, dist_pick)
        if jump is not None:
            return jump
        stats = s.stats[seat]
        best: list[Action] = []
        best_score = 0.0
        power_cache: dict[tuple[int, int], float] = {}

        def power(owner: int, pt: int) -> float:
            key = (owner, pt)
            if key not in power_cache:
                power_cache[key] = fleet_power(s, owner, pt)
            return power_cache[key]

        for a in moves:
            src, dst = b.index[a.src], b.index[a.dst]
            here = [u for u in s.units.values() if u.loc == src and u.owner == seat and not u.landed]
            has_troops = any(stats[u.kind].ground and u.kind != "diplomat" for u in here)
            carrier = any(stats[u.kind].capacity > 0 and u.mp > 0 for u in here)
            if has_troops and carrier:
                field = dist_troop
            elif carrier and dist_pick.get(src, 99) < 99 and not has_troops:
                field = dist_pick
            else:
                field = dist_war
            gain = field.get(src, 99) - field.get(dst, 99)
            score = float(gain)
            enemies = [o for o in range(s.n) if o != seat and power(o, dst) > 0]
            if enemies:
                mine = power(seat, src)
                theirs = max(power(o, dst) for o in enemies)
                win = self._attack_odds(s, a) if self.odds else None
                if (win >= ODDS_ATTACK) if win is not None else (mine >= 1.4 * theirs):
                    score += 3.0
                else:
                    score -= 10.0
            if score > best_score:
                best, best_score = [a], score
            elif score == best_score and best:
                best.append(a)
        if best:
            # equal moves drawn at random: a fixed order (the board's point numbering)
            # sent every seat the same way round the map, so the two northern homes met
            # head-on while the southern ones spread unopposed
            return best[0] if len(best) == 1 else self.rng.choice(best)
        for a in legal:
            if isinstance(a, Lift):
                p = ids.index(a.planet)
                pt = b.planet_point[p]
                if any(u.loc == pt and u.owner == seat and not u.landed
                       and stats[u.kind].capacity > 0 for u in s.units.values()):
                    return a
        return Done()

    def _civilized_open(self, s: RiftState) -> bool:
        """True if some in-play civilized planet is still neutral (diplomat work)."""
        return any(s.planet_owner[p] < 0 and s.tile_kind[p] == "civilized"
                   for p in s.board.in_play_planets)

    def _beats_garrison(self, s: RiftState, seat: int, p: int) -> bool:
        """True if landing now leaves units standing after the planet's garrison."""
        g = s.board.planet_garrison[p] if s.board.planet_garrison else 0
        if not g or s.tile_kind[p] == "civilized":
            return True
        pt = s.board.planet_point[p]
        stats = s.stats[seat]
        return sum(1 for u in s.units.values() if u.loc == pt and u.owner == seat
                   and not u.landed and stats[u.kind].ground) > g

    def _attack_odds(self, s: RiftState, a: Action) -> float | None:
        """With ``odds``: the exact chance that the battle move ``a`` starts is won
        (starlanes.analysis.odds, default policies); None where no exact answer exists
        (skills the exact model leaves out, too many states), and the strength ratio
        decides as without odds."""
        from starlanes.analysis.odds import OddsError, action_odds

        try:
            r = action_odds(s, a, method="exact", max_states=ODDS_MAX_STATES)
        except OddsError:
            return None
        return None if r is None else r.attacker_wins

    def _ground_odds(self, s: RiftState, seat: int, p: int) -> float:
        b = s.board
        pt = b.planet_point[p]
        mine = sum(unit_power(s, seat, u.kind) for u in s.units.values()
                   if u.loc == pt and u.owner == seat and s.stats[seat][u.kind].ground)
        owner = s.planet_owner[p]
        theirs = 4.0
        for up in s.planet_upgrades[p]:
            d = s.content.upgrades[up]
            theirs += d.lp + d.shields + 1.5 * (d.close + d.mid + d.long)
        theirs += sum(unit_power(s, owner, u.kind) for u in s.units.values()
                      if u.loc == pt and u.owner == owner and u.landed)
        return mine / theirs

    def _troop_goals(self, s: RiftState, seat: int) -> list[int]:
        b = s.board
        out = []
        for p in b.in_play_planets:
            owner = s.planet_owner[p]
            if owner == seat:
                continue
            if owner >= 0 and ("military_base" in s.planet_upgrades[p]):
                continue
            if owner < 0 and s.tile_kind[p] == "civilized" and s.resources[seat] < 2:
                continue
            out.append(b.planet_point[p])
        return out

    def _pickup_goals(self, s: RiftState, seat: int) -> list[int]:
        stats = s.stats[seat]
        pts = {u.loc for u in s.units.values()
               if u.owner == seat and stats[u.kind].ground and not u.landed
               and u.kind != "diplomat"}
        for p in s.board.in_play_planets:
            if s.planet_owner[p] == seat and any(
                    u.loc == s.board.planet_point[p] and u.owner == seat and u.landed
                    and u.kind == "infantry" for u in s.units.values()):
                pts.add(s.board.planet_point[p])
        return sorted(pts)

    def _war_goals(self, s: RiftState, seat: int) -> list[int]:
        pts = {u.loc for u in s.units.values() if u.owner != seat and not u.landed}
        if not pts:
            pts = {s.board.planet_point[p] for p in s.board.in_play_planets
                   if s.planet_owner[p] not in (-1, seat)}
        return sorted(pts)

    # ------------------------------------------------------------------ decisions
    def _decision(self, s: RiftState, seat: int, legal: list[Action]) -> Action:
        kind = s.stack[-1].kind
        if kind == "fighters":
            b = s.board
            return max(
                (a for a in legal if isinstance(a, PlaceFighters)),
                key=lambda a: (fleet_power(s, seat, b.index[a.point]), a.point),
            )
        if kind == "unlock":
            return max(
                (a for a in legal if isinstance(a, Unlock)),
                key=lambda a: (unlock_score(s, seat, a.unit, self.rng), a.unit),
            )
        if kind == "free_upgrade":
            planet = s.stack[-1].data[0]
            ups = s.content.upgrades
            frees = [a for a in legal if isinstance(a, FreeUpgrade) and a.upgrade in ups]
            if frees:  # the most useful one, else the dearest
                return max(frees, key=lambda a: (
                    build_score(s, seat, a.upgrade, planet), ups[a.upgrade].cost, a.upgrade))
            return legal[0]
        if kind == "join":
            for a in legal:
                if isinstance(a, JoinAttack):
                    return a
            return next(a for a in legal if isinstance(a, Attack))
        if kind == "window":  # between turns: the same cards it would play in its own turn
            card = self._good_card(s, seat, legal)
            return card if card is not None else next(a for a in legal if isinstance(a, Pass))
        if kind in ("counter", "instant"):
            for a in legal:
                if isinstance(a, PlayCard):
                    return a
            card = s.content.cards[s.stack[-1].data[0]]
            k, _ = effect_of(card)
            bad = k.startswith("lose") or k in ("income_down", "steal_resources",
                                                "sabotage", "drain_income", "discard_cards")
            if bad:
                for a in legal:
                    if isinstance(a, Sacrifice):
                        return a
            for a in legal:
                if isinstance(a, (Pass, Resolve)):
                    return a
        return legal[0]

    # ------------------------------------------------------------------ battle
    def _battle(self, s: RiftState, seat: int, legal: list[Action]) -> Action:
        b = s.battle
        side = 0 if b.seats[0] == seat else 1
        mine = sum(f.lp + f.sh + 1.5 * f.dice for f in b.fighters.values()
                   if f.side == side and f.alive)
        theirs = sum(f.lp + f.sh + 1.5 * f.dice for f in b.fighters.values()
                     if f.side != side and f.alive)
        if any(isinstance(a, battle_mod.Retreat) for a in legal):
            want = battle_mod.Retreat if mine < 0.6 * theirs else battle_mod.Stay
            return next(a for a in legal if isinstance(a, want))
        cards = s.content.cards
        for a in legal:
            if isinstance(a, PlayCard):
                k, _ = effect_of(cards[a.card])
                if k in BATTLE_GOOD or (k == "cancel_attack" and mine < theirs):
                    return a
        targets = [a for a in legal if isinstance(
            a, (battle_mod.Hit, battle_mod.KamikazeTarget, battle_mod.AmbushTarget))]
        if targets:
            return max(targets, key=lambda a: self._target_value(s, a.target))
        overloads = [a for a in legal if isinstance(a, battle_mod.Overload)]
        if overloads:  # all shields on the most valuable combatant
            return max(overloads, key=lambda a: self._target_value(s, a.target)[1:])
        rushes = [a for a in legal if isinstance(a, battle_mod.RepairRush)]
        # Repair Rush: save a unit that would be destroyed, else keep the skill for later
        if rushes and any(f.side == side and not f.gone and not f.building and f.lp <= 0
                          for f in b.fighters.values()):
            return rushes[-1]
        for a in legal:
            if isinstance(a, Pass):
                return a
        return legal[0]

    def _target_value(self, s: RiftState, label: str) -> tuple[int, float, str]:
        kind = label.split("[")[0]
        damaged = 1 if "[" in label else 0
        unit = s.content.units.get(kind)
        cost = float(unit.cost) if unit else float(
            s.content.upgrades[kind].cost if kind in s.content.upgrades else 1)
        return (damaged, cost, label)


def evaluate(state: RiftState) -> list[float]:
    """Leaf value for search, one number in [0, 1] per seat: returns() when the game is
    over, else a logistic of the seat's position score minus the best opponent's. The
    position score counts VP (1 each), planets held (0.4), income (0.05 a resource),
    resources in hand (0.02) and fleet strength (0.03 per LP, shield or 2/3 weapon die)."""
    s = state
    if s.is_terminal():
        return s.returns()
    if s.phase.startswith("setup"):
        return [0.5] * s.n
    score = [float(v) for v in s.vp]
    for p in s.board.in_play_planets:
        o = s.planet_owner[p]
        if o >= 0:
            score[o] += 0.4
    for i in range(s.n):
        score[i] += 0.05 * s.income[i] + 0.02 * s.resources[i]
    for u in s.units.values():
        score[u.owner] += 0.03 * unit_power(s, u.owner, u.kind)
    return margin_values(score, 2.0)
