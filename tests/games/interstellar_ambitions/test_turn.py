"""Turn structure, Action Track, exchange, ambitions and game end (IA-TURN-*, IA-TRK-*,
IA-RES-02, IA-AMB-*, IA-END-*)."""

from __future__ import annotations

import pytest

from starlanes.engine import IllegalActionError
from starlanes.games.interstellar_ambitions.actions import parse_token
from starlanes.games.interstellar_ambitions.scoring import breakdown, score
from starlanes.games.interstellar_ambitions.turn import finish


def kinds_of_turn(ia, s, choose) -> list[str]:
    seen = []
    seat = s.seat
    while s.seat == seat and not s.is_terminal():
        k = s.stack[-1].kind
        if not seen or seen[-1] != k:
            seen.append(k)
        s.apply(choose(s))
    return seen


def test_four_steps_in_order(ia) -> None:
    """IA-TURN-01: shadow, produce/advance, action/plan, claim - in this order."""
    s = ia.turn(3, 0, 0, round_=2)
    ia.hand(s, 0, "black_market")
    ia.tokens(s, 0, "build:basic")
    s.res[0] = (9, 9, 9, 9)
    s.ambitions = (s.content.ambition_index["treasury"],) + s.ambitions[1:]
    ia.run(s)
    assert s.stack[-1].kind == "shadow"
    ia.act(s, "pass")
    assert s.stack[-1].kind == "step2"
    ia.act(s, "pass")
    assert s.stack[-1].kind == "step3"
    ia.act(s, "plan")
    assert s.stack[-1].kind == "place"
    for _ in range(5):
        ia.act(s, "place colonise")
    assert s.stack[-1].kind == "claim"  # 36 resources meet Treasury


def test_first_round_no_shadow_no_fleet(ia) -> None:
    """IA-TURN-02: in round 1 no Shadow card and no FLEET action."""
    s = ia.turn(3, 0, 0, round_=1)
    ia.hand(s, 0, "black_market")
    ia.tokens(s, 0, "fleet:strong", "build:basic")
    ia.run(s)
    assert s.stack[-1].kind == "step2"
    ia.act(s, "produce")
    while s.stack[-1].kind == "home_pick":
        ia.act(s, "home food")
    assert "take fleet:strong" not in ia.notes(s)
    assert "take build:basic" in ia.notes(s)
    s2 = ia.turn(3, 0, 0, round_=2)
    ia.hand(s2, 0, "black_market")
    ia.tokens(s2, 0, "fleet:strong")
    ia.run(s2)
    assert "play black_market self" in ia.notes(s2)


def test_step2_exactly_one(ia) -> None:
    """IA-TURN-03, IA-PROD-01: PRODUCE (no token used) or ADVANCE, not both."""
    s = ia.turn(3, 0, 2)
    ia.tokens(s, 0, "build:basic", "develop:basic")
    ia.run(s)
    assert {"produce", "advance build:basic", "advance develop:basic"} <= set(ia.notes(s))
    ia.act(s, "produce")
    for _ in range(4):
        ia.act(s, "home ore")
    assert s.stack[-1].kind == "step3"
    assert s.tokens[0].count(-1) == 4  # produce removed no token


def test_advance_up_to_three_different(ia) -> None:
    """IA-TRK-02, IA-TRK-03, IA-TRK-04: one slot right, up to 3 different track tokens."""
    s = ia.turn(4, 0, 2)
    ia.tokens(s, 0, "build:basic", "build:basic", "develop:basic", "research:basic")
    ia.run(s)
    ia.act(s, "advance build:basic")
    assert s.stack[-1].kind == "advance_more"
    assert "advance build:moderate" not in ia.notes(s)  # the same token cannot move twice
    ia.act(s, "advance build:basic")
    ia.act(s, "advance develop:basic")
    assert s.stack[-1].kind == "step3"  # three done
    assert sorted(s.tokens[0]) == sorted([parse_token(x) for x in (
        "build:moderate", "build:moderate", "develop:moderate", "research:basic")] + [-1, -1])
    s2 = ia.turn(4, 0, 2)
    ia.tokens(s2, 0, "build:basic")
    ia.run(s2)
    ia.act(s2, "advance build:basic")
    assert s2.stack[-1].kind == "step3"  # pool tokens cannot be advanced


def test_ultimate_slots_limited(ia) -> None:
    """IA-TRK-05, IA-TRK-06, IA-TRK-07, IA-TRK-08: ULTIMATE is last; only it is limited: 1 (3p) / 2 (4-6p)."""
    s = ia.turn(3, 0, 2)
    ia.tokens(s, 0, "build:ultimate", "develop:strong")
    ia.tokens(s, 1, "develop:ultimate", "develop:strong", "develop:strong")
    ia.run(s)
    n = ia.notes(s)
    assert "advance build:ultimate" not in n  # IA-TRK-05
    assert "advance develop:strong" not in n  # slot full with 3 players (IA-TRK-07/08)
    s4 = ia.turn(4, 0, 2)
    ia.tokens(s4, 0, "develop:strong", "develop:strong")
    ia.tokens(s4, 1, "develop:ultimate", "colonise:moderate", "colonise:moderate")
    ia.tokens(s4, 2, "colonise:moderate")
    ia.run(s4)
    ia.act(s4, "advance develop:strong")
    assert "advance develop:strong" not in ia.notes(s4)  # 2 of 2 now used
    assert "advance colonise:moderate" not in ia.notes(s4)  # not own tokens
    assert s4.ult_cap == 2
    assert sum(s4.tokens[i].count(parse_token("colonise:moderate")) for i in range(4)) == 3  # IA-TRK-06


def test_tracks_and_levels(ia) -> None:
    """IA-TRK-01: six tracks with four planning levels; PRODUCE has none."""
    from starlanes.games.interstellar_ambitions.actions import ACTIONS, LEVELS

    assert ACTIONS == ("colonise", "develop", "build", "research", "shadow", "fleet")
    assert LEVELS == ("basic", "moderate", "strong", "ultimate")


def test_take_action_returns_token(ia) -> None:
    """IA-TRK-09, IA-TURN-04: one token back to the pool, action at its level."""
    s = ia.turn(3, 0, 3)
    ia.tokens(s, 0, "develop:moderate", "build:basic")
    s.res[0] = (0, 0, 0, 8)
    ia.run(s)
    ia.act(s, "take develop:moderate")
    assert s.tokens[0].count(-1) == 5
    assert s.stack[-1].kind == "develop" and s.stack[-1].data[0] == 1
    assert "develop home_blue 5" not in ia.notes(s)  # MODERATE caps at 4
    ia.act(s, "done")
    assert s.stack[-1].kind != "step3"  # only one action per turn


def test_plan_places_all(ia) -> None:
    """IA-TRK-10: Plan Actions places all pool tokens on BASIC (option 'all')."""
    s = ia.turn(3, 0, 3)
    ia.tokens(s, 0, "develop:moderate")
    ia.run(s)
    ia.act(s, "plan")
    for _ in range(5):
        assert "done" not in ia.notes(s)
        ia.act(s, "place research")
    assert s.tokens[0].count(parse_token("research:basic")) == 5
    s2 = ia.turn(3, 0, 3, plan_tokens="any")
    ia.run(s2)
    ia.act(s2, "plan")
    ia.act(s2, "place fleet")
    ia.act(s2, "done")
    assert s2.tokens[0].count(-1) == 5


def test_exchange_three_for_one(ia) -> None:
    """IA-RES-02: 3 of one type for 1 of another, only in one's own turn."""
    s = ia.turn(3, 0, 2)
    s.res[0] = (3, 0, 0, 0)
    s.res[1] = (5, 5, 5, 5)
    ia.run(s)
    assert "exchange food ore" in ia.notes(s)
    assert not any(n.startswith("exchange ore") for n in ia.notes(s))
    ia.act(s, "exchange food science")
    assert s.res[0] == (0, 0, 1, 0)
    assert s.stack[-1].kind == "step2"  # the step is still pending
    # another seat's reaction (oppose) offers no exchange
    ia.decide(s, 1, "oppose", (s.content.shadow_index["planetary_plague"], "P1.x", 1, 0, 0, 0, 0))
    ia.hand(s, 1, "black_market")
    assert not any(n.startswith("exchange") for n in ia.notes(s))


def _claim_ready(ia, players=3, trigger_seat=0):
    s = ia.turn(players, trigger_seat, 4)
    c = s.content
    s.ambitions = tuple(c.ambition_index[x] for x in (
        "expansionist", "treasury", "armada", "warlord", "spymaster", "decorated"))
    s.claims = [()] * 6
    ia.touch(s)
    return s


def test_claim_only_met_and_one_per_turn(ia) -> None:
    """IA-AMB-02, IA-AMB-03, IA-AMB-04: only met ambitions, one per turn, optional."""
    s = _claim_ready(ia)
    s.res[0] = (4, 4, 4, 4)
    s.medals[0] = (2, 2)
    ia.run(s)
    n = ia.notes(s)
    assert "claim treasury" in n and "claim warlord" in n and "claim spymaster" in n
    assert "claim armada" not in n and "claim expansionist" not in n
    assert "pass" in n  # optional
    ia.act(s, "claim warlord")
    assert s.seat == 1  # the turn ended after one claim


def test_claim_positions_and_vp(ia) -> None:
    """IA-AMB-05, IA-AMB-06: 1st 12 VP, 2nd 6 VP, later 3 VP."""
    s = _claim_ready(ia, 4)
    s.claims[3] = (1, 2)
    s.medals[0] = (2, 0)
    ia.run(s)
    ia.act(s, "claim warlord")
    assert s.claims[3] == (1, 2, 0)
    assert breakdown(s, 1)["ambitions"] == 12
    assert breakdown(s, 2)["ambitions"] == 6
    assert breakdown(s, 0)["ambitions"] == 3


def test_claim_never_removed_never_twice(ia) -> None:
    """IA-AMB-07, IA-AMB-08: a claim stays though the condition is lost; never twice."""
    s = _claim_ready(ia)
    s.res[0] = (4, 4, 4, 4)
    ia.run(s)
    ia.act(s, "claim treasury")
    s.res[0] = (0, 0, 0, 0)
    assert 0 in s.claims[1]
    s.seat, s.step = 0, 4
    s.res[0] = (5, 5, 5, 5)
    s.stack.clear()
    ia.run(s)
    assert "claim treasury" not in ia.notes(s)


def test_game_end_trigger_and_final_round(ia) -> None:
    """IA-END-01, IA-END-02, IA-END-03: the 3rd claim triggers; everyone (trigger player
    too) takes one more turn; a 4th ambition can be claimed in it."""
    s = _claim_ready(ia, 3, trigger_seat=1)
    s.claims[0] = (1,)
    s.claims[2] = (1,)
    s.medals[1] = (2, 2)
    s.seat = 1
    ia.run(s)
    ia.act(s, "claim warlord")
    assert s.end_trigger == 1 and not s.is_terminal()
    turns = []
    while not s.is_terminal():
        if s.stack[-1].kind == "step2" and (not turns or turns[-1] != s.seat):
            turns.append(s.seat)
        k = s.stack[-1].kind
        if k == "claim" and s.seat == 1:
            ia.act(s, "claim spymaster")
            continue
        acts = ia.notes(s)
        pick = "pass" if "pass" in acts else "done" if "done" in acts else acts[0]
        if k == "step3":
            pick = "plan"
        ia.act(s, pick)
    assert turns == [2, 0, 1]
    assert s.end_reason == "ambitions"
    assert sum(1 for cl in s.claims if 1 in cl) == 4


def test_scoring_categories(ia) -> None:
    """IA-END-04, IA-END-05, IA-END-06, IA-END-07, IA-END-08, IA-END-09, IA-END-10: planets only at max, special bonuses, 12 VP set, owned techs only,
    ships, medals."""
    s = ia.turn(3, 0, 0)
    c = s.content
    s.planets[0] = ()
    ia.planet(s, 0, "verdant_moon", 2)  # food, max 2, vp 1
    ia.planet(s, 0, "slag_rock", 2)  # ore, max 2
    ia.planet(s, 0, "observatory", 2)  # science
    ia.planet(s, 0, "bazaar", 1)  # coin, below max: 0 VP
    ia.planet(s, 0, "gaia_reserve", 3)  # special: vp_bonus 2 though not at max
    b = breakdown(s, 0)
    assert b["planets"] == 1 + 1 + 1 + 2  # IA-END-05, IA-END-06
    assert b["set_bonus"] == 0  # bazaar not scored
    s.planets[0] = s.planets[0][:3] + ((c.planet_index["bazaar"], 2, ()),)
    assert breakdown(s, 0)["set_bonus"] == 12  # IA-END-07
    s.planets[0] = ((c.homes[0], 5, ()),) + s.planets[0][:3]
    assert breakdown(s, 0)["set_bonus"] == 0  # the home world is no COIN planet
    ia.tech(s, 0, "monuments")
    ia.tech(s, 0, "grand_academy", owner=False)
    s.tech_owner[c.tech_index["grand_academy"]] = 1
    assert breakdown(s, 0)["techs"] == 6  # IA-END-08: owner only
    ia.ship(s, 0, "battleship")
    ia.ship(s, 0, "strike_craft")
    assert breakdown(s, 0)["ships"] == 2  # IA-END-09
    s.medals[0] = (2, 3)
    assert breakdown(s, 0)["medals"] == 5  # IA-END-10
    assert score(s, 0) == sum(breakdown(s, 0).values())


def test_tie_breaks(ia) -> None:
    """IA-END-11, IA-END-12: ties by total (damage-reduced) combat value, then shared."""
    s = ia.turn(3, 0, 0)
    for i in range(3):
        s.planets[i] = ()
    ia.ship(s, 0, "cruiser", 1)
    ia.ship(s, 1, "destroyer")
    ia.ship(s, 1, "strike_craft")
    ia.ship(s, 2, "siege_barge")
    s.ships[0] = ((s.content.ship_index["cruiser"], 0),)
    s.ships[1] = ((s.content.ship_index["cruiser"], 1),)
    s.ships[2] = ((s.content.ship_index["cruiser"], 0),)
    finish(s, "ambitions")
    assert s.winners == [0, 2]  # P1's damaged cruiser counts 2 (ruling IA-OPEN-23)
    assert s.returns() == [0.5, 0.0, 0.5]


def test_round_limit(ia) -> None:
    """Round cap option: the game ends with end_reason 'round_limit'."""
    s = ia.fresh(3, 1, round_limit=1)
    while not s.is_terminal():
        acts = ia.notes(s)
        ia.act(s, "plan" if "plan" in acts else "pass" if "pass" in acts else
               "done" if "done" in acts else acts[0])
    assert s.end_reason == "round_limit" and s.round == 2
    with pytest.raises(IllegalActionError):
        s.apply(s.legal_actions()[0] if s.legal_actions() else None)
