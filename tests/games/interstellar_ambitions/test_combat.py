"""RAID and INVADE, ships and victory spoils (IA-RAID-*, IA-INV-*, IA-SHIP-*, IA-SPOIL-*)."""

from __future__ import annotations

from starlanes.games.interstellar_ambitions.actions import parse_token

LEVEL = {0: "basic", 1: "moderate", 2: "strong", 3: "ultimate"}


def fight(ia, kind: str, level: int, att: list[str], dfn: list[str], rolls: list[int],
          emergency: list[str] | None = None, players: int = 3,
          res1: tuple[int, int, int, int] = (0, 0, 0, 0)):
    s = ia.turn(players, 0, 3, round_=2)
    s.res[1] = res1
    c = s.content
    for x in att:
        sid, _, d = x.partition("/")
        ia.ship(s, 0, sid, int(d or 0))
    for x in dfn:
        sid, _, d = x.partition("/")
        ia.ship(s, 1, sid, int(d or 0))
    if emergency is not None:
        s.emerg_deck = [c.ship_index[e] for e in emergency]
        s.emerg_discard = []
    ia.tokens(s, 0, f"fleet:{LEVEL[level]}")
    ia.dice(s, rolls)
    ia.run(s)
    ia.act(s, f"take fleet:{LEVEL[level]}")
    ia.act(s, f"{kind} P1")
    return s


def totals(s) -> tuple[int, int]:
    """The last combat's totals, read from the game log."""
    line = [x for x in s.log_lines if x.startswith("combat totals")][-1]
    parts = line.split()
    return int(parts[3]), int(parts[6])


def names(s, seat):
    return [s.content.ship_ids[x] + (f"/{d}" if d else "") for x, d in s.ships[seat]]


def test_raid_worked_example(ia) -> None:
    """FLEET-RAID worked example (Carl P0 vs Ade P1): IA-RAID-21, IA-RAID-22, IA-RAID-23,
    IA-RAID-24, IA-RAID-25, IA-RAID-26, IA-RAID-19, IA-SHIP-13, IA-SHIP-14, IA-RAID-05."""
    rolls = [4, 6, 5,  4, 1, 6, 6,  4, 5, 2,  1, 2, 3]
    s = fight(ia, "raid", 2,
              ["strike_craft", "strike_craft", "destroyer", "squadron_leader"],
              ["battleship", "battleship", "strike_craft", "destroyer"], rolls,
              emergency=["converted_freighter"])
    s.res[1] = (3, 4, 2, 1)
    # Ade had 2 LIGHT ships to Carl's 4: exactly one emergency ship, a Converted Freighter
    assert names(s, 1)[-1] == "converted_freighter"
    cb = s.combat
    assert len(cb.entries[1]) == 3  # the battleships stay out (IA-RAID-04)
    assert s.current_player() == 0 and s.stack[-1].kind == "order"
    for x in ("strike_craft", "destroyer", "strike_craft"):
        ia.act(s, f"order {x}")  # the squadron leader goes last by itself
    assert s.current_player() == 1
    obs = s.observation(1)
    assert obs["combat"]["orders"]["0"] == ["face-down"] * 4  # secret until revealed
    ia.act(s, "order converted_freighter")
    ia.act(s, "order destroyer")
    # matched fights are done: SC1 rolled 4, 6 (2 dice thanks to the merc) -> 2 markers on
    # the freighter, which rolled 5 -> 1 marker on SC1; Carl's 4th ship is unmatched
    e = s.combat.entries
    assert e[1][2][1] == 2 and e[0][0][1] == 1
    assert s.stack[-1].kind == "fire" and s.current_player() == 0
    assert {"fire converted_freighter/2", "fire destroyer/1", "fire strike_craft/2"} == set(
        ia.notes(s))
    ia.act(s, "fire destroyer/1")  # rolls 1, 2, 3: no hit, and no return fire
    assert totals(s) == (8, 1)  # 4 + STRONG 4 vs Ade's damaged destroyer 1
    assert names(s, 0) == ["strike_craft/1", "strike_craft", "squadron_leader"]  # lost 1
    assert names(s, 1) == ["battleship", "battleship", "destroyer/1"]  # lost 2
    assert s.stack[-1].kind == "steal"
    for _ in range(4):
        ia.act(s, "steal ore")
    for _ in range(3):
        ia.act(s, "steal food")
    assert s.res[0] == (3, 4, 0, 0) and s.res[1] == (0, 0, 2, 1)
    # Ade cannot pay to repair; Carl, the attacker, may not repair
    assert s.combat is None and s.stack[-1].kind == "claim" or s.seat == 1
    assert names(s, 1)[-1] == "destroyer/1" and names(s, 0)[0] == "strike_craft/1"
    assert s.stats[0][0] == 1 and s.medals == [(0, 0)] * 3  # no medal for a raid (IA-OPEN-27)


def test_raid_emergency_redraws_heavy(ia) -> None:
    """IA-RAID-03: a HEAVY emergency ship is discarded and another drawn."""
    s = fight(ia, "raid", 0, ["strike_craft", "strike_craft"], ["strike_craft"],
              [1, 1, 1, 1], emergency=["armed_ore_hauler", "armed_ore_hauler", "militia_gunboat"])
    assert names(s, 1)[-1] == "militia_gunboat"
    assert all(s.content.ship_ids[x] == "armed_ore_hauler" for x in s.emerg_discard)
    assert len(s.emerg_discard) == 2 or s.combat is not None


def test_raid_levels_and_outcomes(ia) -> None:
    """IA-RAID-01, IA-RAID-02, IA-RAID-10, IA-RAID-11, IA-RAID-12, IA-RAID-14, IA-RAID-17,
    IA-RAID-18, IA-RAID-20: level bonus 0/+2/+6; win only on MORE; steal up to margin."""
    for level, bonus_ in ((0, 0), (1, 2), (3, 6)):
        s = fight(ia, "raid", level, ["destroyer"], ["destroyer"], [1, 1, 1, 1])
        assert totals(s) == (2 + bonus_, 2)
        won = bonus_ > 0
        assert s.stats[0][0] == int(won)
    s2 = fight(ia, "raid", 0, ["destroyer"], ["destroyer"], [1, 1, 1, 1])
    assert s2.stats[0][0] == 0  # equal: the raid fails (IA-RAID-14)


def test_raid_steal_up_to_margin(ia) -> None:
    """IA-RAID-13, ruling IA-OPEN-06: the attacker picks types, may stop early."""
    s = ia.turn(3, 0, 3, round_=2)
    s.res[1] = (5, 5, 0, 0)
    ia.ship(s, 0, "destroyer")
    ia.ship(s, 1, "strike_craft")
    ia.tokens(s, 0, "fleet:moderate")
    ia.dice(s, [1, 1, 1])
    ia.run(s)
    ia.act(s, "take fleet:moderate")
    ia.act(s, "raid P1")
    # 2 + 2 vs 1 -> margin 3
    assert s.stack[-1].kind == "steal" and s.stack[-1].data == (3,)
    ia.act(s, "steal ore")
    ia.act(s, "done")
    assert s.res[0] == (0, 1, 0, 0)


def test_forced_places_are_still_asked(ia) -> None:
    """IA-RAID-05, IA-INV-04 (ruling "Secret choices"): a side of N ships of two or more
    kinds is asked N - 1 places whatever it puts first, a forced place included, so the
    defender cannot read the attacker's first ship from whether the attacker is asked
    again; ships all alike are not asked at all, and the last ship places itself."""
    seen = set()
    for first in ("destroyer", "strike_craft"):
        s = fight(ia, "invade", 1, ["destroyer", "strike_craft", "strike_craft"],
                  ["cruiser", "cruiser"], [1] * 40, emergency=[])
        assert s.current_player() == 0 and s.stack[-1].kind == "order"
        ia.act(s, f"order {first}")
        assert s.current_player() == 0 and s.stack[-1].kind == "order"
        legal = [str(a) for a in s.legal_actions()]
        assert legal == (["order strike_craft"] if first == "destroyer" else
                         ["order destroyer", "order strike_craft"])
        desc = s.game.describe(s, s.legal_actions()[0])
        assert ("forced" in desc.text) == (first == "destroyer")
        ia.act(s, legal[0])
        # the attacker's order is set; the defender's two cruisers are alike: not asked,
        # and the orders are revealed together
        assert s.combat is None or s.combat.secret.revealed
        seen.add(len([a for a in s.history if str(a).startswith("order")]))
    assert seen == {2}


def test_defender_view_does_not_depend_on_the_first_ship(ia) -> None:
    """IA-RAID-05 (ruling "Secret choices"): when the defender starts its own order, its
    observation and the spectator's are the same whichever ship the attacker put first."""
    views = []
    for first in ("destroyer", "strike_craft"):
        s = fight(ia, "raid", 1, ["destroyer", "strike_craft", "strike_craft"],
                  ["corvette", "strike_craft"], [1] * 40, emergency=[])
        ia.act(s, f"order {first}")
        ia.act(s, [str(a) for a in s.legal_actions()][0])
        assert s.current_player() == 1 and s.stack[-1].kind == "order"
        views.append((s.observation(1), s.public_observation(), s.observation(2),
                      [str(a) for a in s.history_seen_by(1)], s.action_log()))
    assert views[0] == views[1]


def test_damaged_ships_face_up_attacker_first(ia) -> None:
    """IA-RAID-06, IA-INV-04: damaged ships stay face up and the attacker arranges first."""
    s = fight(ia, "invade", 1, ["cruiser/1", "destroyer"], ["cruiser", "destroyer"],
              [1] * 20)
    assert s.combat.open and s.current_player() == 0
    ia.act(s, "order destroyer")
    obs = s.observation(1)
    assert obs["combat"]["orders"]["0"] == ["face-down", "cruiser"]


def test_invade_all_ships_emergency_no_redraw(ia) -> None:
    """IA-INV-01, IA-INV-02, IA-INV-03: all ships fight; a HEAVY emergency ship is kept."""
    s = fight(ia, "invade", 1, ["battleship", "strike_craft"], ["cruiser"], [1] * 30,
              emergency=["armed_ore_hauler"])
    assert names(s, 1) == ["cruiser", "armed_ore_hauler"]
    assert len(s.combat.entries[0]) == 2 and len(s.combat.entries[1]) == 2


def test_invade_levels_and_results(ia) -> None:
    """IA-INV-05, IA-INV-06, IA-INV-07, IA-INV-08, IA-INV-11, IA-INV-12, IA-INV-13, IA-INV-14, IA-RAID-07, IA-RAID-08, IA-RAID-09: EQUAL OR MORE wins
    a medal and a spoil; DEFENDER MORE wins a medal; modifiers 0/+2/+4; BASIC cannot."""
    s = ia.turn(3, 0, 3, round_=2)
    ia.ship(s, 0, "cruiser")
    ia.tokens(s, 0, "fleet:basic")
    ia.run(s)
    ia.act(s, "take fleet:basic")
    assert "invade P1" not in ia.notes(s) and "raid P1" not in ia.notes(s)
    for level, bonus_ in ((1, 0), (2, 2), (3, 4)):
        s = fight(ia, "invade", level, ["cruiser"], ["cruiser"], [1] * 6)
        assert totals(s) == (3 + bonus_, 3)
        assert s.medals[0] == (1, 0) and s.stack[-1].kind == "spoil"  # equal wins
    s = fight(ia, "invade", 1, ["destroyer"], ["cruiser"], [6, 1, 4, 4, 4])
    # destroyer: 6 (+1 natural-6 hit) = 2 hits on the cruiser; cruiser 3 hits on destroyer
    assert s.combat is None and names(s, 0) == [] and s.medals[1] == (1, 0)
    assert names(s, 1) == ["cruiser/2"]


def test_unmatched_no_return_fire(ia) -> None:
    """IA-RAID-09, IA-INV-05: an unmatched ship's target does not fire back."""
    s = fight(ia, "invade", 1, ["cruiser", "strike_craft"], ["cruiser"],
              [1, 1, 1, 1, 1, 1, 6], emergency=[])
    ia.act(s, "order cruiser")
    # cruisers miss each other; the strike craft (unmatched, only target) hits once
    assert names(s, 0) == ["cruiser", "strike_craft"]
    assert totals(s) == (3 + 1, 2)


def test_destroyed_only_when_more_damage(ia) -> None:
    """IA-SHIP-05, IA-SHIP-08, IA-SHIP-09, IA-RAID-15, IA-INV-09."""
    s = fight(ia, "invade", 1, ["cruiser"], ["cruiser"], [4, 4, 4, 4, 4, 1])
    # 3 markers on a combat-3 cruiser: not MORE, it survives with value 0
    assert names(s, 1) == ["cruiser/3"] and names(s, 0) == ["cruiser/2"]
    assert totals(s) == (1, 0)
    s = fight(ia, "invade", 1, ["battleship"], ["cruiser"], [4, 4, 4, 4, 1, 1, 1, 1])
    assert names(s, 1) == [] and totals(s) == (4, 0)


def test_defender_repair_only(ia) -> None:
    """IA-RAID-16, IA-INV-10, ruling IA-OPEN-28: defender repairs, 1 ORE / 2, rounded up."""
    s = fight(ia, "invade", 1, ["cruiser"], ["battleship"], [4, 1, 1, 4, 1, 1, 1, 1],
              res1=(0, 1, 0, 0))
    assert s.medals[1] == (1, 0)
    assert s.stack[-1].kind == "def_repair" and s.current_player() == 1
    ia.act(s, "repair battleship/1")
    assert names(s, 1) == ["battleship"] and s.res[1][1] == 0
    assert names(s, 0) == ["cruiser/1"]  # the attacker may not repair


def test_battleship_extra_die_vs_heavy(ia) -> None:
    """IA-SHIP-10: the Battleship rolls 5 dice against a HEAVY ship, 4 against LIGHT."""
    s = fight(ia, "invade", 1, ["battleship"], ["cruiser"], [1] * 8)
    assert "battleship" in names(s, 0)
    s = ia.turn(3, 0, 3)
    c = s.content
    assert c.ship_cost[c.ship_index["battleship"]] == 4
    assert c.ship_combat[c.ship_index["battleship"]] == 4
    assert c.ship_bombard[c.ship_index["battleship"]] == 2
    assert c.ship_vp[c.ship_index["battleship"]] == 2
    assert c.ship_heavy[c.ship_index["battleship"]]


def test_battleship_dice_counts(ia) -> None:
    """IA-SHIP-10, IA-RAID-07: the rolls log shows 5 dice vs HEAVY."""
    from starlanes.games.interstellar_ambitions.combat import Combat, _dice

    s = ia.turn(3, 0, 0)
    c = s.content
    cb = Combat("invade", 0, 1, 1)
    bs, cr, de = (c.ship_index[x] for x in ("battleship", "cruiser", "destroyer"))
    cb.entries = [[(bs, 0, 0, 0)], [(cr, 0, 0, 0), (de, 0, 1, 0)]]
    assert _dice(s, cb, 0, cb.entries[0][0], cb.entries[1][0]) == 5
    assert _dice(s, cb, 0, cb.entries[0][0], cb.entries[1][1]) == 4
    cb.entries[0][0] = (bs, 2, 0, 0)
    assert _dice(s, cb, 0, cb.entries[0][0], cb.entries[1][1]) == 2


def test_captain_rogers(ia) -> None:
    """IA-SHIP-11: destroys an enemy STRIKE CRAFT before any battle starts."""
    s = fight(ia, "invade", 1, ["captain_rogers"], ["strike_craft", "cruiser"], [1] * 10)
    assert "strike_craft" not in names(s, 1)
    c = s.content
    r = c.ship_index["captain_rogers"]
    assert (c.ship_cost[r], c.ship_upkeep[r], c.ship_combat[r], c.ship_bombard[r]) == (4, 2, 3, 0)


def test_unstable_cruiser(ia) -> None:
    """IA-SHIP-12: defence only; before battle a 1 or 2 sends it back to the discard."""
    s = fight(ia, "raid", 0, ["strike_craft", "strike_craft"], ["strike_craft"], [2, 1, 1, 1],
              emergency=["unstable_cruiser"])
    c = s.content
    assert c.ship_index["unstable_cruiser"] in s.emerg_discard
    assert "unstable_cruiser" not in names(s, 1)
    s = ia.turn(3, 0, 3, round_=2)
    ia.ship(s, 0, "unstable_cruiser")
    ia.tokens(s, 0, "fleet:strong")
    ia.run(s)
    ia.act(s, "take fleet:strong")
    assert ia.notes(s) == ["pass"]  # it never attacks
    u = c.ship_index["unstable_cruiser"]
    assert (c.ship_cost[u], c.ship_combat[u], c.ship_bombard[u]) == (0, 3, 0)


def test_ship_types(ia) -> None:
    """IA-SHIP-01, IA-SHIP-02, IA-SHIP-04, IA-SHIP-14: standard, merc, emergency; classes."""
    s = ia.turn(3, 0, 0)
    c = s.content
    assert set(c.ship_deck) == {"standard", "merc", "emergency"}
    for sid in ("strike_craft", "destroyer", "converted_freighter"):
        assert not c.ship_heavy[c.ship_index[sid]]
    assert all(c.ship_upkeep[i] == 0 for i in c.standard_ships)
    assert all(c.ship_upkeep[i] > 0 for i in set(c.merc_cards))
    assert all(c.ship_cost[i] == 0 for i in set(c.emergency_cards))


def spoil_state(ia, players=3):
    s = fight(ia, "invade", 1, ["siege_barge", "battleship", "battleship"], ["strike_craft"],
              [1] * 30, emergency=["converted_freighter"], players=players)
    while s.stack[-1].kind in ("order", "fire"):
        ia.act(s, ia.notes(s)[0])
    assert s.stack[-1].kind == "spoil"
    return s


def test_spoil_disrupt(ia) -> None:
    """IA-SPOIL-01, IA-SPOIL-02 (ruling IA-OPEN-03: 3, option 2)."""
    s = spoil_state(ia)
    ia.tokens(s, 1, "build:strong", "develop:ultimate", "research:moderate", "shadow:strong")
    ia.act(s, "spoil disrupt")
    for _ in range(3):
        ia.act(s, [n for n in ia.notes(s) if n.startswith("disrupt")][0])
    assert sum(1 for t in s.tokens[1] if t >= 0 and t & 3) == 1
    assert s.stack[-1].kind != "disrupt"  # at most 3
    s = spoil_state(ia)
    s.options = dict(s.options, disrupt_limit=2)
    ia.tokens(s, 1, "build:strong", "develop:ultimate", "research:moderate")
    ia.act(s, "spoil disrupt")
    ia.act(s, "disrupt build:strong")
    ia.act(s, "disrupt develop:ultimate")
    assert s.stack[-1].kind != "disrupt"
    assert s.tokens[1][:3] == (parse_token("build:basic"), parse_token("develop:basic"),
                               parse_token("research:moderate"))


def test_spoil_acquire_tech(ia) -> None:
    """IA-SPOIL-03, IA-TECH-01 (ruling IA-OPEN-25: not one already known)."""
    s = spoil_state(ia)
    ia.tech(s, 1, "shipyards")
    ia.tech(s, 1, "peer_review")
    ia.tech(s, 0, "peer_review", owner=False)
    assert "spoil tech shipyards" in ia.notes(s) and "spoil tech peer_review" not in ia.notes(s)
    ia.act(s, "spoil tech shipyards")
    t = s.content.tech_index["shipyards"]
    assert t in s.known[0] and s.tech_owner[t] == 1


def test_spoil_bombard_and_capture(ia) -> None:
    """IA-SPOIL-04, IA-SPOIL-05, IA-SPOIL-06, IA-COL-06, IA-PLN-07, IA-SHIP-06."""
    s = spoil_state(ia)
    c = s.content
    ia.planet(s, 1, "singularity", 4)
    s.res[0] = (9, 9, 9, 9)
    deck = len(s.colony_deck)
    # barge 4 + battleships 2 + 2 = 8 points: 2 levels (4 -> 2): no capture
    ia.act(s, "spoil bombard singularity")
    assert s.planets[1][-1][1] == 2 and s.stack[-1].kind != "capture"
    s = spoil_state(ia)
    ia.planet(s, 1, "singularity", 3)
    s.res[0] = (9, 9, 9, 9)
    ia.act(s, "spoil bombard singularity")
    assert s.stack[-1].kind == "capture"
    ia.act(s, "capture singularity")
    p = c.planet_index["singularity"]
    assert (p, 1, ()) in s.planets[0] and s.stats[0][1] == 1
    assert s.res[0] == (6, 6, 7, 9) and len(s.colony_deck) == deck


def test_bombard_damage_and_shields(ia) -> None:
    """IA-SPOIL-04, IA-SHIP-08: damage markers reduce BOMBARD; the home world shields 1."""
    from starlanes.games.interstellar_ambitions.spoils import bombard_points

    s = spoil_state(ia)
    e = s.combat.entries[0]
    e[0] = (e[0][0], 2, e[0][2], 0)  # barge: 4 - 2
    assert bombard_points(s, 0, 1, "home_red") == 2 + 2 + 2 - 1


def test_capture_eight_planets_and_rescue(ia) -> None:
    """IA-SPOIL-07, IA-SPOIL-08: the 8-planet rule applies; a last planet is replaced."""
    s = spoil_state(ia)
    c = s.content
    s.planets[1] = ()
    ia.planet(s, 1, "verdant_moon", 1)
    for pid in ("mossfall", "slag_rock", "cinder", "observatory", "crystal_spire", "bazaar",
                "toll_gate"):
        ia.planet(s, 0, pid, 1)
    s.res[0] = (9, 9, 9, 9)
    ia.act(s, "spoil bombard verdant_moon")  # already level 1 (ruling IA-OPEN-24)
    ia.act(s, "capture verdant_moon")
    assert s.stack[-1].kind == "give_away"
    ia.act(s, "give mossfall P2")
    assert c.planet_index["verdant_moon"] in [p for p, _l, _m in s.planets[0]]
    assert s.stack[-1].kind == "rescue" and s.current_player() == 1
    pick = ia.notes(s)[0].split()[1]
    ia.act(s, f"rescue {pick}")
    p = c.planet_index[pick]
    assert s.planets[1] == ((p, min(4, c.planet_max[p]), ()),)


def test_raid_defence_only_and_invade_tokens(ia) -> None:
    """IA-RAID-04: HEAVY ships never raid; a player with none LIGHT cannot raid."""
    s = ia.turn(3, 0, 3, round_=2)
    ia.ship(s, 0, "battleship")
    ia.tokens(s, 0, "fleet:moderate")
    ia.run(s)
    ia.act(s, "take fleet:moderate")
    assert "raid P1" not in ia.notes(s) and "invade P1" in ia.notes(s)
    assert parse_token("fleet:moderate") not in s.tokens[0]


def test_capture_offered_when_an_exchange_pays(ia) -> None:
    """IA-SPOIL-06, IA-RES-02: resources may be exchanged 3:1 at any time of one's turn, so
    an ATTACKER with 5 FOOD and no ORE may capture a planet costing 1 FOOD + 1 ORE by first
    exchanging 3 FOOD for 1 ORE."""
    s = spoil_state(ia)
    c = s.content
    ia.planet(s, 1, "verdant_moon", 1)  # colonise cost 1 FOOD + 1 ORE
    s.res[0] = (5, 0, 0, 0)
    ia.act(s, "spoil bombard verdant_moon")
    assert s.stack[-1].kind == "capture" and s.current_player() == 0
    assert "capture verdant_moon" not in ia.notes(s)  # not yet: no ORE
    assert "exchange food ore" in ia.notes(s) and "pass" in ia.notes(s)
    ia.act(s, "exchange food ore")
    assert s.res[0] == (2, 1, 0, 0) and s.stack[-1].kind == "capture"
    ia.act(s, "capture verdant_moon")
    assert any(p == c.planet_index["verdant_moon"] for p, _l, _m in s.planets[0])
    assert s.res[0] == (1, 0, 0, 0)


def test_capture_not_offered_when_no_exchange_pays(ia) -> None:
    """IA-SPOIL-06, IA-RES-02: with 3 FOOD and nothing else, 1 FOOD + 1 ORE cannot be paid
    even by exchanging (3 FOOD for 1 ORE leaves no FOOD), so no capture is offered."""
    s = spoil_state(ia)
    ia.planet(s, 1, "verdant_moon", 1)
    s.res[0] = (3, 0, 0, 0)  # exchanging 3 FOOD leaves no FOOD for the FOOD part
    ia.act(s, "spoil bombard verdant_moon")
    assert s.stack[-1].kind != "capture"
    assert all(p != s.content.planet_index["verdant_moon"] for p, _l, _m in s.planets[0])


def test_heuristic_exchanges_to_capture(ia) -> None:
    """IA-SPOIL-06, IA-RES-02: the heuristic bot makes the exchange that lets it capture."""
    from starlanes.games.interstellar_ambitions.heuristic import HeuristicAgent

    s = spoil_state(ia)
    ia.planet(s, 1, "verdant_moon", 1)
    s.res[0] = (5, 0, 0, 0)
    ia.act(s, "spoil bombard verdant_moon")
    bot = HeuristicAgent(1)
    assert str(bot.act(s)) == "exchange food ore"
    ia.act(s, "exchange food ore")
    assert str(bot.act(s)) == "capture verdant_moon"


def test_exchange_before_capture_is_explained(ia) -> None:
    """IA-SPOIL-06, IA-RES-02: while a capture waits for resources, the exchange says
    whether it makes the capture affordable, and passing says an exchange could."""
    s = spoil_state(ia)
    ia.planet(s, 1, "verdant_moon", 1)  # colonise cost 1 FOOD + 1 ORE
    s.res[0] = (5, 0, 0, 0)
    ia.act(s, "spoil bombard verdant_moon")
    g = s.game
    legal = {str(a): a for a in s.legal_actions()}
    swap = g.describe(s, legal["exchange food ore"])
    assert "capture of Verdant Moon" in swap.text and "is enough" in swap.text
    assert "IA-SPOIL-06" in swap.rules and "IA-RES-02" in swap.rules
    other = g.describe(s, legal["exchange food coin"])
    assert "is not enough yet" in other.text
    wait = g.describe(s, legal["pass"])
    assert "cannot pay" in wait.text and "IA-RES-02" in wait.rules
