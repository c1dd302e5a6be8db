"""A heuristic bot for Interstellar Ambitions.

It produces when short of resources and otherwise advances its most useful tokens, takes
the token whose action it can carry out best (weighted by planning level), colonises the
biggest planet it can afford (favouring missing types for the 12 VP set bonus), develops
towards maximum levels, researches the best VP per SCIENCE, builds and hires when its
fleet is weak, raids or invades only players it clearly outguns, plays Shadow cards
against the leader, and claims ambitions (the third only when it leads on public VP).
Longer-range rules (ULTIMATE colonise, starting TECHs, ship and MERC choice, spoils,
when to buy Shadow cards, how the open fleet ambitions relax its odds) are in
:mod:`.heuristic_plans`.

It reads only what its seat may see: public boards, its own hand and the pending
decision; never other hands, deck contents or hidden combat orders.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from starlanes.engine import Action

from .actions import RES, Act, parse_token
from .common import HOME, fleet_value

# Search reads the leaf evaluation from this module (MCTS's leaf=game; fit_evaluation.py).
from .heuristic_eval import EVAL_WEIGHTS as EVAL_WEIGHTS
from .heuristic_eval import evaluate as evaluate
from .heuristic_eval import position_features as position_features
from .heuristic_plans import (
    attack_bonus,
    attack_margins,
    big_planet_waiting,
    build_choice,
    buy_not_hire,
    disrupt_pays,
    merc_worth,
    new_opportunities_target,
    scrap_choice,
    start_tech_order,
    ultimate_colonise_bonus,
    wants_cards,
)
from .scoring import score_all
from .state import IAState

#: The MCTS agent's defaults for this game (explicit spec parameters win): sequential
#: halving compares the legal actions in the same sampled worlds (400 rollouts a decision);
#: each is played on by this bot for six turns (two rounds in a 3-player game) and scored
#: by the fitted evaluation (:func:`evaluate`); this bot's own action stands unless another
#: beats it in the same worlds by two standard errors (docs/agents.md: how these were
#: chosen).
MCTS_DEFAULTS = {
    "iterations": 400, "depth": 600, "rollout": "heuristic", "prior": "heuristic",
    "root": "halving", "horizon": 6, "tree": 1, "confidence": 2.0,
}


KEEP_ORDER = ("steal_tech", "steal", "gain", "plague", "boom", "fast_track", "intel",
              "exchange_plans", "riot", "damage_ship", "lose", "pilfer", "defect", "scuttle",
              "delay", "bump_ultimate", "new_opportunities")
PLACE_ORDER = ("colonise", "develop", "build", "research", "colonise", "develop")


def _card_rank(s: IAState, card_id: str) -> int:
    eff = s.content.shadow_effect[s.content.shadow_index[card_id]][0]
    return KEEP_ORDER.index(eff) if eff in KEEP_ORDER else 99


def _light_power(s: IAState, seat: int) -> int:
    c = s.content
    return sum(max(0, c.ship_combat[x] - d) for x, d in s.ships[seat] if not c.ship_heavy[x])


class HeuristicAgent:
    """Rule-based player; ``act(state)`` returns one of ``state.legal_actions()``."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        self.rng.seed(seed)

    def act(self, state: IAState) -> Action:
        s = state
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        d = s.stack[-1]
        fn: Callable[[IAState, int, list[Act]], Act | None] | None = getattr(
            self, "_" + d.kind, None)
        # the 3:1 exchange is legal in most decisions of one's own turn; the decision
        # helpers only look at the decision's own answers
        answers = [a for a in legal if a.verb != "exchange"] or legal  # type: ignore[attr-defined]
        choice = fn(s, d.seat, answers) if fn else None  # type: ignore[arg-type]
        if choice is not None:
            return choice
        plain = [a for a in legal if a.verb != "exchange"]  # type: ignore[attr-defined]
        for a in plain:
            if a.verb in ("done", "pass"):  # type: ignore[attr-defined]
                return a
        return plain[0] if plain else legal[0]

    # ---------------------------------------------------------------- set-up
    def _keep(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        return max(legal, key=lambda a: _card_rank(s, a.a))

    def _start_tech(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        order = start_tech_order(s)
        return min(legal, key=lambda a: order.index(a.a) if a.a in order else 9)

    def _place_start(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        placed = 6 - s.tokens[seat].count(-1)
        want = PLACE_ORDER[placed % len(PLACE_ORDER)]
        return next(a for a in legal if a.a == want)

    def _comp(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        adv = [a for a in legal if a.verb == "advance"]
        if adv:
            return next((a for a in adv if a.a.startswith("colonise")), adv[0])
        return next(a for a in legal if a.a == "food")

    # ---------------------------------------------------------------- turn
    def _step2(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        adv = [a for a in legal if a.verb == "advance"]
        if sum(s.res[seat]) < 9 or not adv:
            return next(a for a in legal if a.verb == "produce")
        return max(adv, key=lambda a: self._token_value(s, seat, parse_token(a.a)) + 0.1)

    def _advance_more(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        adv = [a for a in legal if a.verb == "advance"]
        if not adv:
            return next(a for a in legal if a.verb == "done")
        return max(adv, key=lambda a: self._token_value(s, seat, parse_token(a.a)))

    def _token_value(self, s: IAState, seat: int, code: int) -> float:
        """How useful taking this token would be now (0 = nothing to do)."""
        act, lvl = code >> 2, code & 3
        c = s.content
        r = s.res[seat]
        if act == 0:
            if len(s.planets[seat]) >= 8:
                return 0
            from .economy import COLONISE_VP_CAP, colonise_cost, face_up_planets

            ok = [p for p in face_up_planets(s) if c.planet_vp[p] <= COLONISE_VP_CAP[lvl]
                  and sum(colonise_cost(s, seat, p)) <= sum(r) - 1]
            if not ok:
                return 0.5
            if lvl == 2 and big_planet_waiting(s, seat):
                return 7.5  # worth advancing to ULTIMATE (see _step3)
            return 3 + lvl * 1.5
        if act == 1:
            from .economy import DEVELOP_CAP

            cap = DEVELOP_CAP[lvl]
            gains = [min(cap, c.planet_max[p]) - lv for p, lv, _m in s.planets[seat]
                     if (r[c.planet_type[p]] if c.planet_type[p] != HOME else sum(r) // 2) >= 2]
            return 2.5 + lvl if gains and max(gains) > 0 else 0.3
        if act == 2:
            return (2 + lvl) if r[1] >= 3 and len(s.ships[seat]) < 7 else 0.4
        if act == 3:
            cheap = [t for t in s.tech_slots if t >= 0 and c.tech_cost[t] <= r[2] + (lvl == 3)]
            return 2 + lvl * 1.2 if cheap else 0.3
        if act == 4:
            if lvl >= 1 and wants_cards(s, seat):
                return 2.5 + lvl
            return 1 + lvl if r[3] >= 3 else 0.2
        if s.round == 1:
            return 0
        target = self._best_target(s, seat, lvl)
        return 4 + lvl if target is not None else 0.2

    def _best_target(self, s: IAState, seat: int, lvl: int) -> tuple[str, int] | None:
        raid_bonus, invade_bonus = attack_bonus(s, seat)
        raid_margin, invade_margin = attack_margins(s, seat)
        mine_l = _light_power(s, seat) + 2 * lvl + raid_bonus
        mine_all = fleet_value(s, seat) + 2 * (lvl - 1) + invade_bonus
        best = None
        vp = score_all(s)
        for o in range(s.n):
            if o == seat:
                continue
            their_l = _light_power(s, o) + 2
            their_all = fleet_value(s, o) + 2
            if lvl >= 1 and mine_all >= their_all + invade_margin:
                cand = ("invade", o)
            elif mine_l >= their_l + raid_margin and sum(s.res[o]) >= 3:
                cand = ("raid", o)
            else:
                continue
            if best is None or vp[o] > vp[best[1]]:
                best = cand
        return best

    def _take_value(self, s: IAState, seat: int, code: int) -> float:
        """:meth:`_token_value` for taking the token now: a STRONG COLONISE token waits
        one turn for the ULTIMATE slot while a big planet is there to colonise at level 4."""
        if code == 2 and big_planet_waiting(s, seat):
            return 1.0
        return self._token_value(s, seat, code)

    def _step3(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        takes = [a for a in legal if a.verb == "take"]
        pool = s.tokens[seat].count(-1)
        best = max(takes, key=lambda a: self._take_value(s, seat, parse_token(a.a)),
                   default=None)
        plan = next(a for a in legal if a.verb == "plan")
        if best is None:
            return plan
        v = self._take_value(s, seat, parse_token(best.a))
        if pool >= 3 and v < 3:
            return plan
        if v < 1 and pool:
            return plan
        return best

    def _place(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        on = [t >> 2 for t in s.tokens[seat] if t >= 0]
        want = min(("colonise", "develop", "build", "research", "fleet", "shadow"),
                   key=lambda name: on.count(("colonise", "develop", "build", "research",
                                              "shadow", "fleet").index(name)))
        return next((a for a in legal if a.a == want), legal[0])

    def _claim(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        claims = [a for a in legal if a.verb == "claim"]
        if not claims:
            return None
        mine = sum(1 for cl in s.claims if seat in cl)
        best = max(claims, key=lambda a: -len(s.claims[s.ambitions.index(
            s.content.ambition_index[a.a])]))
        if mine >= 2 and s.end_trigger < 0:
            vp = score_all(s)
            i = s.ambitions.index(s.content.ambition_index[best.a])
            gain = (12, 6, 3, 3, 3, 3)[len(s.claims[i])]
            if vp[seat] + gain <= max(v for o, v in enumerate(vp) if o != seat):
                return next(a for a in legal if a.verb == "pass")
        return best

    # ---------------------------------------------------------------- economy
    def _home_pick(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        r = s.res[seat]
        need = (r[0], r[1] - 1, r[2] + 1, r[3] + 1)
        i = min(range(4), key=lambda k: need[k])
        return legal[i]

    def _upkeep(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        return legal[0]

    def _colonise(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        c = s.content
        have = {c.planet_type[p] for p, _l, _m in s.planets[seat]}
        opts = [a for a in legal if a.verb == "colonise"]
        if not opts:
            return None
        level = s.stack[-1].data[0]

        def val(a: Act) -> float:
            p = c.planet_index[a.a]
            return (c.planet_vp[p] + c.planet_max[p] + (4 if c.planet_type[p] not in have else 0)
                    + ultimate_colonise_bonus(s, p, level))

        return max(opts, key=val)

    def _give_away(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        c = s.content
        return min(legal, key=lambda a: c.planet_vp[c.planet_index[a.a]])

    def _develop(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        c = s.content
        opts = [a for a in legal if a.verb == "develop"]
        if not opts:
            return None

        def val(a: Act) -> float:
            p = c.planet_index[a.a]
            to = int(a.b)
            return (10 if to == c.planet_max[p] else 0) + to + c.planet_vp[p] * 0.5

        return max(opts, key=val)

    def _dev_pay(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        r = s.res[seat]
        return max(legal, key=lambda a: r[RES.index(a.a)])

    # ---------------------------------------------------------------- build etc.
    def _build(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        rep = [a for a in legal if a.verb == "repair"]
        if rep:
            return rep[0]
        return build_choice(s, seat, [a for a in legal if a.verb == "build"])

    def _scrap(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        return scrap_choice(s, seat, legal)

    def _research(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        c = s.content
        opts = [a for a in legal if a.verb == "research"]
        if not opts:
            return None
        return max(opts, key=lambda a: c.tech_vp[c.tech_index[a.a]] + 0.5)

    def _shadow_mode(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        hire = next((a for a in legal if a.verb == "hire-mercs"), None)
        c = s.content
        if buy_not_hire(s, seat):
            return next(a for a in legal if a.verb == "buy-cards")
        if hire and len(s.ships[seat]) < 8 and any(
                m >= 0 and c.ship_cost[m] <= s.res[seat][3] for m in s.merc_slots):
            return hire
        return next(a for a in legal if a.verb == "buy-cards")

    def _buy(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        opts = [a for a in legal if a.verb == "buy"]
        if opts and len(s.hands[seat]) < 6 and s.res[seat][3] >= 1:
            return min(opts, key=lambda a: _card_rank(s, a.a))
        return None

    def _hire(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        c = s.content
        opts = [a for a in legal if a.verb == "hire"]
        if not opts or len(s.ships[seat]) >= 8:
            return None
        return max(opts, key=lambda a: merc_worth(s, seat, c.ship_index[a.a]))

    def _fleet(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        d = s.stack[-1]
        t = self._best_target(s, seat, d.data[0])
        if t is None:
            return None
        want = Act(t[0], f"P{t[1]}")
        return want if want in legal else None

    # ---------------------------------------------------------------- shadow
    def _shadow(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        plays = [a for a in legal if a.verb == "play"]
        if not plays:
            return None
        vp = score_all(s)
        c = s.content

        def val(a: Act) -> float:
            card = c.shadow_index[a.a]
            eff = c.shadow_effect[card][0]
            v = 20 - _card_rank(s, a.a)
            if a.b.startswith("P"):
                v += vp[int(a.b.split(".")[0][1:])] * 0.1
            if eff == "new_opportunities":  # only when a face-up row is useless to it
                v = 3 if a.b == new_opportunities_target(s, seat) else -5
            elif eff == "bump_ultimate":  # an opponent's ULTIMATE plan is the costliest
                v = 14
            return v

        best = max(plays, key=val)
        return best if val(best) > 0 else None

    def _boost(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        boosts = [a for a in legal if a.verb == "boost"]
        if boosts and len(s.hands[seat]) >= 3:
            return max(boosts, key=lambda a: _card_rank(s, a.a))
        return None

    def _oppose(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        opp = [a for a in legal if a.verb == "oppose"]
        card_eff = s.content.shadow_effect[s.stack[-1].data[0]][0]
        if opp and card_eff in ("boom", "plague", "steal_tech", "defect") and s.stack[-1].data[5] < 2:
            return max(opp, key=lambda a: _card_rank(s, a.a))
        return None

    # ---------------------------------------------------------------- combat
    def _order(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        c = s.content
        return max(legal, key=lambda a: c.ship_combat[c.ship_index[a.a.split("/")[0]]])

    def _fire(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        c = s.content

        def val(a: Act) -> float:
            sid, _, dmg = a.a.partition("/")
            cv = c.ship_combat[c.ship_index[sid]]
            left = cv - int(dmg or 0)
            return (10 if left <= 1 else 0) + cv if left >= 0 else -10

        return max(legal, key=val)

    def _steal(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        opts = [a for a in legal if a.verb == "steal"]
        dfn = s.combat.seats[1] if s.combat else 0
        return max(opts, key=lambda a: s.res[dfn][RES.index(a.a)]) if opts else legal[0]

    def _spoil(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        c = s.content
        for a in legal:
            if a.a == "bombard":
                from .spoils import bombard_points

                assert s.combat is not None
                dfn = s.combat.seats[1]
                p = c.planet_index[a.b]
                lvl = next(lv for q, lv, _m in s.planets[dfn] if q == p)
                pts = bombard_points(s, seat, dfn, a.b)
                if lvl - pts // 3 <= 1 and sum(c.planet_cost[p]) <= sum(s.res[seat]) - 2:
                    return a
        techs = [a for a in legal if a.a == "tech"]
        disrupt = next((a for a in legal if a.a == "disrupt"), None)
        if disrupt is not None:
            assert s.combat is not None
            if disrupt_pays(s, seat, s.combat.seats[1], bool(techs)):
                return disrupt
        return techs[0] if techs else legal[0]

    def _capture(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        """Capture; when the cost is short, exchange 3:1 toward it first (from the type
        with the most to spare into a type still short)."""
        if legal[0].verb == "capture":
            return legal[0]
        cost = s.content.planet_cost[s.stack[-1].data[0]]
        r = s.res[seat]
        for a in s.legal_actions():
            if a.verb != "exchange":  # type: ignore[attr-defined]
                continue
            g, t = RES.index(a.a), RES.index(a.b)  # type: ignore[attr-defined]
            if r[g] - cost[g] >= 3 and r[t] < cost[t]:
                return a  # type: ignore[return-value]
        return legal[0]

    def _rescue(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        c = s.content
        opts = [a for a in legal if a.verb == "rescue"]
        return max(opts, key=lambda a: c.planet_max[c.planet_index[a.a]]) if opts else legal[0]

    def _disrupt(self, s: IAState, seat: int, legal: list[Act]) -> Act:
        opts = [a for a in legal if a.verb == "disrupt"]
        return max(opts, key=lambda a: parse_token(a.a) & 3) if opts else legal[0]

    def _def_repair(self, s: IAState, seat: int, legal: list[Act]) -> Act | None:
        opts = [a for a in legal if a.verb == "repair"]
        return opts[0] if opts and s.res[seat][1] >= 3 else None


def turn_number(s: IAState) -> int:
    """How many player turns have ended so far (MCTS ``horizon`` counts these)."""
    return s.turn_count
