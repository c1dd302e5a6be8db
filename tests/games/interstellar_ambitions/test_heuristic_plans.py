"""The heuristic bot's longer-range rules (heuristic_plans): each in a position where it
pays off and the bot takes it, and where cheap one where it does not."""

from __future__ import annotations

from starlanes.games.interstellar_ambitions.heuristic import HeuristicAgent
from starlanes.games.interstellar_ambitions.heuristic_plans import (
    attack_margins,
    disrupt_pays,
    start_tech_order,
)

from .test_combat import spoil_state

PASSIVE = ("expansionist", "terraformer", "technocrat")


def bot_move(s) -> str:
    return str(HeuristicAgent(0).act(s))


def on_table(s, *ids: str) -> None:
    """Put exactly these ambitions (padded with passive ones) on the table, unclaimed."""
    c = s.content
    chosen = list(ids) + [x for x in PASSIVE + ("inventor", "armada", "treasury")
                          if x not in ids][: 6 - len(ids)]
    s.ambitions = tuple(c.ambition_index[x] for x in chosen)
    s.claims = [()] * len(chosen)


def at_start_tech(ia, *taken: str):
    s = ia.load(4, seed=3)
    while s.stack[-1].kind != "start_tech":
        s.apply(s.legal_actions()[0])
    for i, tid in enumerate(taken):
        s.tech_owner[s.content.tech_index[tid]] = (s.stack[-1].seat + 1 + i) % 4
    ia.touch(s)
    return s


def test_start_tech_targeting_computers_with_fleet_ambitions(ia) -> None:
    """IA-SET-15: Targeting Computers is the pick once the coin and ore techs are gone and
    two fleet ambitions are on the table; otherwise another PRODUCE bonus."""
    s = at_start_tech(ia, "trade_guilds", "deep_core_mining")
    on_table(s, "warlord", "raider")
    assert bot_move(s) == "start-tech targeting_computers"
    on_table(s, "spymaster")
    assert bot_move(s) == "start-tech hydroponics"


def test_start_tech_counter_intelligence_with_shadow_ambitions(ia) -> None:
    """Counter-Intelligence comes fourth when Spymaster and Decorated are both in play."""
    s = at_start_tech(ia, "trade_guilds", "deep_core_mining", "hydroponics")
    on_table(s, "spymaster", "decorated")
    assert bot_move(s) == "start-tech counter_intelligence"
    assert start_tech_order(s)[:4][-1] == "counter_intelligence"
    on_table(s, "spymaster")
    assert bot_move(s) == "start-tech data_archives"


def colonise_position(ia, ultimate_full: bool = False):
    s = ia.turn(4, 0, 3)
    ia.slot_planet(s, "titan_forge")  # VP 5, maximum level 4
    s.res[0] = (6, 6, 2, 2)
    ia.tokens(s, 0, "colonise:strong", "build:basic", "research:basic", "develop:basic")
    if ultimate_full:
        ia.tokens(s, 1, "colonise:ultimate")
        ia.tokens(s, 2, "colonise:ultimate")
    ia.run(s)
    return s


def test_strong_colonise_waits_for_the_ultimate_slot(ia) -> None:
    """IA-COLN-13: with a level-4 planet affordable and room in the ULTIMATE slot, the bot
    does not spend its STRONG COLONISE token (it would start the planet at 2) ..."""
    s = colonise_position(ia)
    assert s.stack[-1].kind == "step3"
    assert bot_move(s) != "take colonise:strong"
    # ... it advances the token in step 2 of the next turn ...
    s.stack.clear()
    s.step = 2
    ia.run(s)
    assert s.stack[-1].kind == "step2"
    assert bot_move(s) == "advance colonise:strong"
    # ... and at ULTIMATE it colonises the planet that then scores at once
    s = ia.turn(4, 0, 3)
    s.planet_slots = [[-1] * len(x) for x in s.planet_slots]
    ia.slot_planet(s, "titan_forge")
    ia.slot_planet(s, "gilded_moon")  # VP 3, maximum level 3, a type the seat lacks
    s.res[0] = (6, 6, 2, 2)
    ia.tokens(s, 0, "colonise:ultimate")
    ia.run(s)
    assert bot_move(s) == "take colonise:ultimate"
    ia.act(s, "take colonise:ultimate")
    while s.stack[-1].kind == "clear_planets":
        ia.act(s, bot_move(s))
    assert bot_move(s) == "colonise titan_forge"


def test_strong_colonise_taken_when_ultimate_is_full(ia) -> None:
    """IA-TRK-07/08: with both ULTIMATE places taken the token cannot advance: take it."""
    s = colonise_position(ia, ultimate_full=True)
    assert bot_move(s) == "take colonise:strong"


def build_position(ia, token: str, *ships: str, ore: int = 10):
    s = ia.turn(4, 0, 3)
    for sid in ships:
        ia.ship(s, 0, sid)
    s.res[0] = (0, ore, 0, 0)
    on_table(s)
    ia.tokens(s, 0, token)
    ia.run(s)
    ia.act(s, f"take {token}")
    return s


def test_corvette_for_an_open_raider_ambition(ia) -> None:
    """A raider builds Corvettes (an extra die against light ships) for its light fleet."""
    s = build_position(ia, "build:basic")
    on_table(s, "raider")
    assert bot_move(s) == "build corvette"
    on_table(s, "warlord")
    assert bot_move(s) == "build destroyer"


def test_one_siege_barge_for_a_conqueror(ia) -> None:
    """IA-SPOIL-05/06: a fleet with two HEAVY ships adds one Siege Barge (bombard 4) while
    Conqueror is open; then it builds battleships again."""
    s = build_position(ia, "build:moderate", "battleship", "battleship")
    on_table(s, "conqueror")
    assert bot_move(s) == "build siege_barge"
    ia.act(s, "build siege_barge")
    assert bot_move(s) == "build battleship"
    s = build_position(ia, "build:moderate")
    on_table(s, "conqueror")
    assert bot_move(s) == "build battleship"


def test_scrap_the_weakest_ship_at_eight(ia) -> None:
    """IA-SHIP-07: at 8 ships the bot still builds a battleship and scraps a strike craft
    when the new ship is much better; with 8 cruisers it does not build."""
    s = build_position(ia, "build:moderate", *(["destroyer"] * 7 + ["strike_craft"]))
    assert bot_move(s) == "build battleship"
    ia.act(s, "build battleship")
    assert s.stack[-1].kind == "scrap"
    assert bot_move(s) == "scrap strike_craft"
    s = build_position(ia, "build:moderate", *(["cruiser"] * 8))
    assert bot_move(s) == "done"


def test_disrupt_plans_against_advanced_tokens(ia) -> None:
    """IA-SPOIL-02: the bot resets a defender whose plans stand high, and takes a TECH when
    they do not."""
    s = spoil_state(ia)
    ia.tech(s, 1, "shipyards")
    on_table(s)
    ia.tokens(s, 1, "build:strong", "develop:ultimate", "research:basic")
    assert bot_move(s) == "spoil disrupt"
    assert bot_move_after(ia, s, "spoil disrupt") == "disrupt develop:ultimate"
    s = spoil_state(ia)
    ia.tech(s, 1, "shipyards")
    on_table(s)
    ia.tokens(s, 1, "build:moderate", "develop:moderate", "research:basic")
    s.res[0] = (20, 20, 20, 20)  # the attacker leads on VP (Treasury) ...
    ia.planet(s, 0, "titan_forge", 4)
    assert bot_move(s) == "spoil tech shipyards"
    assert disrupt_pays(s, 0, 1, has_tech=False)
    ia.tokens(s, 1, "build:moderate", "develop:strong", "research:basic")
    assert bot_move(s) == "spoil tech shipyards"
    ia.planet(s, 1, "savanna_ix", 4)
    ia.planet(s, 1, "magma_deep", 4)  # ... until the defender does: 3 levels are enough
    assert bot_move(s) == "spoil disrupt"


def bot_move_after(ia, s, move: str) -> str:
    ia.act(s, move)
    return bot_move(s)


def at_shadow(ia, *cards: str):
    s = ia.turn(4, 0, 0, round_=2)
    ia.hand(s, 0, *cards)
    ia.run(s)
    assert s.stack[-1].kind == "shadow"
    return s


def test_new_opportunities_when_no_planet_is_affordable(ia) -> None:
    """IA-SHD-13: with nothing to colonise the bot refreshes the face-up planets; with
    planets and techs in reach it keeps the card."""
    s = at_shadow(ia, "new_opportunities")
    assert bot_move(s) == "play new_opportunities planet"
    s = at_shadow(ia, "new_opportunities")
    s.res[0] = (9, 9, 9, 9)
    assert bot_move(s) == "pass"


def test_palace_coup_on_an_ultimate_token(ia) -> None:
    """Palace Coup goes before an Informant draw when an opponent holds an ULTIMATE token;
    without one it cannot be played and the Informant goes."""
    s = at_shadow(ia, "palace_coup", "informant")
    ia.tokens(s, 1, "build:ultimate")
    assert bot_move(s) == "play palace_coup P1.build:ultimate"
    ia.tokens(s, 1, "build:strong")
    assert bot_move(s) == "play informant self"


def test_attack_margins_relax_for_open_fleet_ambitions(ia) -> None:
    """A raid won or a FLEET medal held lowers the margin the bot wants, while the matching
    ambition is open to it."""
    s = ia.turn(4, 0, 3)
    on_table(s)
    assert attack_margins(s, 0) == (3, 3)
    on_table(s, "raider", "dominator")
    assert attack_margins(s, 0) == (2, 3)
    s.stats[0] = (1, 0, 0)
    s.medals[0] = (1, 0)
    assert attack_margins(s, 0) == (1, 2)
    s.medals[0] = (2, 0)
    assert attack_margins(s, 0) == (1, 1)
    s.claims[0] = (0,)  # raider claimed by seat 0
    assert attack_margins(s, 0)[0] == 3


def test_raids_with_a_smaller_edge_for_raider(ia) -> None:
    """IA-RAID-12: light power 3 + 2 (MODERATE) against 2 + 2 (an emergency ship): no raid
    while Raider is off the table, a raid while it is open to the seat and one is won."""
    s = ia.turn(4, 0, 3)
    for seat, sids in ((0, ("destroyer", "strike_craft")), (1, ("destroyer",)),
                       (2, ("destroyer",) * 3), (3, ("destroyer",) * 3)):
        for sid in sids:
            ia.ship(s, seat, sid)
        s.res[seat] = (2, 2, 2, 2)
    ia.tokens(s, 0, "fleet:moderate")
    ia.run(s)
    on_table(s)
    assert bot_move(s) == "plan"
    on_table(s, "raider")
    s.stats[0] = (1, 0, 0)
    ia.touch(s)
    assert bot_move(s) == "take fleet:moderate"
    ia.act(s, "take fleet:moderate")
    assert bot_move(s) == "raid P1"


def test_buy_cards_with_an_empty_hand_and_a_fleet(ia) -> None:
    """IA-SHA-01: with 5 ships and no Shadow card the bot buys cards; with a card in hand
    it hires the MERC it can afford."""
    s = ia.turn(4, 0, 3)
    for _ in range(5):
        ia.ship(s, 0, "destroyer")
    s.res[0] = (0, 0, 0, 6)
    s.merc_slots = [s.content.ship_index["gunrunner"]] + [-1] * (len(s.merc_slots) - 1)
    ia.tokens(s, 0, "shadow:moderate")
    ia.run(s)
    ia.act(s, "take shadow:moderate")
    assert bot_move(s) == "buy-cards"
    ia.hand(s, 0, "black_market")
    assert bot_move(s) == "hire-mercs"


def test_hire_weighs_merc_effects(ia) -> None:
    """IA-SHA-05: Ace Pilot (combat 1, hits on 2+) is worth more than Gunrunner (combat
    2, no effect)."""
    s = ia.turn(4, 0, 3)
    c = s.content
    s.res[0] = (0, 0, 0, 6)
    s.merc_slots = [c.ship_index["gunrunner"], c.ship_index["ace_pilot"]] + [-1] * (
        len(s.merc_slots) - 2)
    ia.decide(s, 0, "hire", (1,))
    assert bot_move(s) == "hire ace_pilot"
