"""PRODUCE, COLONISE, colony events, DEVELOP and planets (IA-PROD-*, IA-COLN-*, IA-COL-*,
IA-DEV-*, IA-PLN-*)."""

from __future__ import annotations

from starlanes.engine import Decision
from starlanes.games.interstellar_ambitions.economy import colonise_finish, start_colonise


def at_produce(ia, players=3):
    s = ia.turn(players, 0, 2)
    ia.run(s)
    return s


def test_produce_level_times_type(ia) -> None:
    """IA-PROD-02, IA-PROD-05, IA-PLN-01: each planet yields type x level; all planets."""
    s = at_produce(ia)
    s.planets[0] = ()
    ia.planet(s, 0, "nebula_lab", 4)  # science
    ia.planet(s, 0, "grainhold", 2)  # food
    ia.act(s, "produce")
    assert s.res[0] == (2, 0, 4, 0)


def test_home_world_any_mix(ia) -> None:
    """IA-PROD-03: a level-5 home world gives any 5 resources, chosen one by one."""
    s = at_produce(ia)
    s.planets[0] = ((s.content.homes[0], 5, ()),)
    ia.act(s, "produce")
    for r in ("science", "science", "food", "ore", "coin"):
        assert s.stack[-1].kind == "home_pick"
        ia.act(s, f"home {r}")
    assert s.res[0] == (1, 1, 2, 1)


def test_produce_bonuses(ia) -> None:
    """IA-PROD-04, IA-COL-04: TECH and colony-marker bonuses are added."""
    s = at_produce(ia)
    c = s.content
    s.planets[0] = ()
    ia.planet(s, 0, "grainhold", 2, (c.event_index["fertile_valleys"],))
    ia.tech(s, 0, "hydroponics")
    ia.act(s, "produce")
    assert s.res[0] == (2 + 1 + 1, 0, 0, 0)


def test_merc_upkeep(ia) -> None:
    """IA-PROD-06, IA-PROD-07, IA-SHIP-03: upkeep paid at the end of PRODUCE or discarded."""
    s = at_produce(ia)
    s.planets[0] = ()
    ia.planet(s, 0, "bazaar", 2)  # 2 coin
    ia.ship(s, 0, "captain_rogers")  # upkeep 2
    ia.ship(s, 0, "squadron_leader")  # upkeep 1
    ia.act(s, "produce")
    assert s.stack[-1].kind == "upkeep"
    ia.act(s, "upkeep squadron_leader pay")
    assert ia.notes(s) == ["upkeep captain_rogers discard"]  # 1 coin left: cannot pay 2
    ia.act(s, "upkeep captain_rogers discard")
    assert [s.content.ship_ids[x] for x, _ in s.ships[0]] == ["squadron_leader"]
    assert s.content.ship_index["captain_rogers"] in s.merc_discard


def colonise_at(ia, level: str, res=(9, 9, 9, 9), players=3):
    s = ia.turn(players, 0, 3)
    ia.tokens(s, 0, f"colonise:{level}")
    s.res[0] = res
    ia.run(s)
    ia.act(s, f"take colonise:{level}")
    return s


def test_colonise_vp_caps(ia) -> None:
    """IA-COLN-01, IA-COLN-10, IA-COLN-11, IA-COLN-12: VP caps 3 / 5 / any by level."""
    for level, pid, ok in (("basic", "paddy_reach", True), ("basic", "tidewater", False),
                           ("moderate", "savanna_ix", True), ("moderate", "bountiful", False),
                           ("strong", "bountiful", True)):
        s = ia.turn(3, 0, 3)
        ia.slot_planet(s, pid)
        ia.tokens(s, 0, f"colonise:{level}")
        s.res[0] = (9, 9, 9, 9)
        ia.run(s)
        ia.act(s, f"take colonise:{level}")
        assert (f"colonise {pid}" in ia.notes(s)) is ok, (level, pid)


def test_colonise_pays_and_starts_at_two(ia) -> None:
    """IA-COLN-02, IA-COLN-03, IA-COLN-08, IA-COL-01: pay, event, level 2, slot refilled."""
    s = ia.turn(3, 0, 3)
    c = s.content
    ia.slot_planet(s, "grainhold")
    ia.tokens(s, 0, "colonise:basic")
    s.res[0] = (5, 5, 0, 0)
    s.colony_deck = [c.event_index["rich_harvest"]]
    ia.run(s)
    ia.act(s, "take colonise:basic")
    ia.act(s, "colonise grainhold")
    p = c.planet_index["grainhold"]
    assert (p, 2, ()) in s.planets[0]
    assert s.res[0] == (5 - 2 + 2, 4, 0, 0)  # cost 2F 1O, event +2 food
    assert s.colony_discard == [c.event_index["rich_harvest"]]  # IA-COL-03
    assert all(x >= 0 for x in s.planet_slots[0]) and p not in s.planet_slots[0]


def test_colonise_ultimate(ia) -> None:
    """IA-COLN-13, IA-PLN-05: discard face-up planets first, start at 4 if possible."""
    s = colonise_at(ia, "ultimate")
    c = s.content
    assert s.stack[-1].kind == "clear_planets"
    first = s.planet_slots[0][0]
    ia.act(s, f"clear {c.planet_ids[first]}")
    assert first in s.planet_discard and s.planet_slots[0][0] != first
    ia.act(s, "done")
    ia.slot_planet(s, "verdant_moon")  # max level 2: starts at 2 (ruling IA-OPEN-12)
    ia.slot_planet(s, "bountiful")
    s.colony_deck = [c.event_index["rich_harvest"]] * 2
    ia.act(s, "colonise bountiful")
    assert s.planets[0][-1][1] == 4


def test_colonise_start_level_within_max(ia) -> None:
    """IA-PLN-05, IA-PLN-04: never above the printed maximum."""
    s = ia.turn(3, 0, 0)
    c = s.content
    s.colony_deck = [c.event_index["boom_town"]]
    colonise_finish(s, 0, c.planet_index["verdant_moon"], 2)
    assert s.planets[0][-1][1] == 2  # boom town +1 capped at max 2
    assert c.planet_max[c.planet_index["verdant_moon"]] == 2


def test_event_only_first_time(ia) -> None:
    """IA-COL-02: a planet colonised again draws no event."""
    s = ia.turn(3, 0, 0)
    c = s.content
    p = c.planet_index["grainhold"]
    s.colonised[p] = True
    before = len(s.colony_deck)
    colonise_finish(s, 0, p, 2)
    assert len(s.colony_deck) == before


def test_kept_event_moves_and_is_discarded_with_planet(ia) -> None:
    """IA-COL-04, IA-COL-05: a kept marker travels with the planet; discarded together."""
    s = ia.turn(3, 0, 0)
    c = s.content
    fort = c.event_index["natural_fortress"]
    s.colony_deck = [fort]
    colonise_finish(s, 0, c.planet_index["grainhold"], 2)
    assert s.planets[0][-1][2] == (fort,)
    # give-away keeps the marker and level
    from starlanes.games.interstellar_ambitions.common import discard_planet, remove_planet

    rec = remove_planet(s, 0, len(s.planets[0]) - 1)
    s.planets[1] = s.planets[1] + (rec,)
    assert s.planets[1][-1][2] == (fort,)
    discard_planet(s, rec)
    assert fort in s.colony_discard and c.planet_index["grainhold"] in s.planet_discard


def test_event_fail(ia) -> None:
    """IA-COLN-03 with ruling IA-OPEN-13: a failing event discards the planet."""
    s = ia.turn(3, 0, 0)
    c = s.content
    s.colony_deck = [c.event_index["hostile_natives"]]
    n = len(s.planets[0])
    colonise_finish(s, 0, c.planet_index["grainhold"], 2)
    assert len(s.planets[0]) == n and c.planet_index["grainhold"] in s.planet_discard


def eight_planets(ia, s, seat):
    pids = ["verdant_moon", "mossfall", "slag_rock", "cinder", "observatory", "crystal_spire",
            "bazaar"]
    for pid in pids[: 8 - len(s.planets[seat])]:
        ia.planet(s, seat, pid, 1)


def test_eight_planet_give_away(ia) -> None:
    """IA-PLN-03, IA-COLN-04, IA-COLN-06, IA-COLN-07: at 8, give one to the fewest (tie:
    choice) after paying and before the event; it keeps its level."""
    s = ia.turn(3, 0, 3)
    c = s.content
    eight_planets(ia, s, 0)
    ia.slot_planet(s, "grainhold")
    ia.tokens(s, 0, "colonise:basic")
    s.res[0] = (5, 5, 0, 0)
    ia.run(s)
    ia.act(s, "take colonise:basic")
    deck = len(s.colony_deck)
    ia.act(s, "colonise grainhold")
    assert s.res[0] == (3, 4, 0, 0)  # paid first
    assert s.stack[-1].kind == "give_away" and len(s.colony_deck) == deck  # before event
    assert "give mossfall P1" in ia.notes(s) and "give mossfall P2" in ia.notes(s)
    assert not any("home_" in n for n in ia.notes(s))  # ruling IA-OPEN-29
    ia.act(s, "give mossfall P2")
    assert (c.planet_index["mossfall"], 1, ()) in s.planets[2]
    assert len(s.planets[0]) == 8 and len(s.colony_deck) == deck - 1


def test_eight_planet_discard_when_all_full(ia) -> None:
    """IA-COLN-05: if all others have 8, the planet is discarded instead."""
    s = ia.turn(3, 0, 0)
    c = s.content
    for seat in range(3):
        s.planets[seat] = tuple((p, 1, ()) for p in range(seat * 8, seat * 8 + 8))
    s.push(Decision(0, "give_away", ("colonise", c.planet_index["midas"], 2)))
    ia.touch(s)
    assert all(n.startswith("discard-planet") for n in ia.notes(s))
    victim = ia.notes(s)[0].split()[1]
    ia.act(s, ia.notes(s)[0])
    assert c.planet_index[victim] in s.planet_discard


def test_planet_deck_reshuffle(ia) -> None:
    """IA-COLN-09, IA-COLN-08: after a COLONISE the empty slot is refilled; an exhausted
    stack first takes back the discarded planets of its type."""
    s = ia.turn(3, 0, 3)
    c = s.content
    ia.slot_planet(s, "grainhold")
    back = [c.planet_index[x] for x in ("savanna_ix", "edens_gate")]
    for t in range(4):
        s.planet_decks[t] = [p for p in s.planet_decks[t] if p not in back]
    s.planet_discard = [*back, c.planet_index["cinder"]]
    s.planet_decks[0] = []
    ia.tokens(s, 0, "colonise:basic")
    s.res[0] = (9, 9, 0, 0)
    s.colony_deck = [c.event_index["boom_town"]]
    ia.run(s)
    ia.act(s, "take colonise:basic")
    ia.act(s, "colonise grainhold")
    assert s.planet_slots[0][0] in back  # refilled from the food discards
    assert c.planet_index["cinder"] in s.planet_discard  # other types stay discarded
    assert not any(c.planet_type[p] == 0 for p in s.planet_discard)


def test_develop_costs_and_caps(ia) -> None:
    """IA-DEV-01, IA-DEV-02, IA-DEV-04, IA-DEV-05, IA-DEV-06, IA-DEV-07: 2 of the type per level; caps 3/4/5."""
    for level, cap in (("basic", 3), ("moderate", 4), ("strong", 5)):
        s = ia.turn(3, 0, 3)
        s.planets[0] = ()
        ia.planet(s, 0, "singularity", 1)  # science, max 5
        ia.tokens(s, 0, f"develop:{level}")
        s.res[0] = (0, 0, 8, 0)
        ia.run(s)
        ia.act(s, f"take develop:{level}")
        tos = [int(n.split()[2]) for n in ia.notes(s) if n.startswith("develop")]
        assert max(tos) == cap
    ia.act(s, "develop singularity 5")
    assert s.res[0] == (0, 0, 0, 0) and s.planets[0][0][1] == 5  # 1 -> 5 costs 8
    s = ia.turn(3, 0, 3)
    s.planets[0] = ()
    ia.planet(s, 0, "tidewater", 2)
    ia.tokens(s, 0, "develop:moderate")
    s.res[0] = (4, 0, 0, 0)
    ia.run(s)
    ia.act(s, "take develop:moderate")
    ia.act(s, "develop tidewater 4")
    assert s.res[0] == (0, 0, 0, 0)  # 2 -> 4 costs 4 FOOD


def test_develop_home_world_any_two(ia) -> None:
    """IA-DEV-03: home world levels cost any 2 resources each."""
    s = ia.turn(3, 0, 3)
    ia.tokens(s, 0, "develop:strong")
    s.res[0] = (1, 1, 0, 0)
    ia.run(s)
    ia.act(s, "take develop:strong")
    ia.act(s, "develop home_blue 5")
    ia.act(s, "pay food")
    ia.act(s, "pay ore")
    assert s.res[0] == (0, 0, 0, 0) and s.planets[0][0][1] == 5


def test_develop_ultimate_three_planets(ia) -> None:
    """IA-DEV-08, IA-PLN-05: ULTIMATE develops 3 planets up to 5, never beyond max."""
    s = ia.turn(3, 0, 3)
    s.planets[0] = ()
    for pid in ("verdant_moon", "slag_rock", "observatory", "bazaar"):
        ia.planet(s, 0, pid, 1)
    ia.tokens(s, 0, "develop:ultimate")
    s.res[0] = (9, 9, 9, 9)
    ia.run(s)
    ia.act(s, "take develop:ultimate")
    assert "develop verdant_moon 3" not in ia.notes(s)
    for pid in ("verdant_moon", "slag_rock", "observatory"):
        ia.act(s, f"develop {pid} 2")
    assert s.stack[-1].kind != "develop"
    assert [lv for _p, lv, _m in s.planets[0]] == [2, 2, 2, 1]


def test_special_planet_effect(ia) -> None:
    """IA-PLN-02, IA-PLN-06: a special planet's effect applies by owning it."""
    s = ia.turn(3, 0, 0)
    from starlanes.games.interstellar_ambitions.common import bonus

    assert bonus(s, 0, "research_discount") == 0
    ia.planet(s, 0, "precursor_ruins", 1)
    assert bonus(s, 0, "research_discount") == 1


def test_start_colonise_stacks(ia) -> None:
    """IA-COLN-01: only face-up planets are offered."""
    s = ia.turn(3, 0, 0)
    start_colonise(s, 0, 2)
    s.res[0] = (20, 20, 20, 20)
    ia.touch(s)
    offered = {n.split()[1] for n in ia.notes(s) if n.startswith("colonise")}
    face_up = {s.content.planet_ids[p] for sl in s.planet_slots for p in sl if p >= 0}
    assert offered == face_up


def colonise_turn(ia, s, seat: int, pid: str, events: list[str], level: str = "basic"):
    """Put ``seat`` at step 3 of its turn with a COLONISE token and colonise ``pid`` through
    the actions, the Colony Event deck holding ``events``."""
    c = s.content
    s.stack.clear()
    s.seat, s.step = seat, 3
    ia.slot_planet(s, pid)
    ia.tokens(s, seat, f"colonise:{level}")
    s.res[seat] = (9, 9, 0, 0)
    s.colony_deck = [c.event_index[e] for e in events]
    ia.run(s)
    ia.act(s, f"take colonise:{level}")
    ia.act(s, f"colonise {pid}")


def test_failed_colonisation_leaves_the_event_to_the_first_success(ia) -> None:
    """IA-COL-02 (with ruling IA-OPEN-13): an event is triggered the first time a planet is
    colonised; a colonisation that failed did not colonise it, so the first successful one
    later still draws an event."""
    s = ia.turn(3, 0, 3)
    c = s.content
    p = c.planet_index["grainhold"]
    colonise_turn(ia, s, 0, "grainhold", ["hostile_natives"])
    assert all(q != p for q, _l, _m in s.planets[0]) and p in s.planet_discard
    s.planet_discard.remove(p)
    colonise_turn(ia, s, 1, "grainhold", ["rich_harvest"])
    assert any(q == p for q, _l, _m in s.planets[1])
    assert c.event_index["rich_harvest"] in s.colony_discard  # the event was drawn
    assert s.res[1] == (9 - 2 + 2, 9 - 1, 0, 0)
    # once colonised, never again: the next colonisation of the planet draws nothing
    s.planets[1] = s.planets[1][:-1]
    colonise_turn(ia, s, 2, "grainhold", ["ore_seams"])
    assert s.colony_deck == [c.event_index["ore_seams"]] and s.res[2] == (7, 8, 0, 0)


def test_kept_event_marker_travels_and_works_for_the_new_owner(ia) -> None:
    """IA-COL-04, IA-COLN-07, IA-PROD-04: a "Place Marker and Keep" event stays on its planet
    when the planet is given away under the 8-planet rule, and its effect (Fertile Valleys:
    +1 FOOD) then works for the new owner; IA-COL-05: discarding the planet discards it."""
    s = ia.turn(3, 0, 3)
    c = s.content
    fertile = c.event_index["fertile_valleys"]
    for pid in ("verdant_moon", "mossfall", "slag_rock", "cinder", "observatory", "bazaar"):
        ia.planet(s, 0, pid, 1)
    colonise_turn(ia, s, 0, "grainhold", ["fertile_valleys"])
    grain = c.planet_index["grainhold"]
    assert (grain, 2, (fertile,)) in s.planets[0] and fertile not in s.colony_discard
    assert len(s.planets[0]) == 8
    colonise_turn(ia, s, 0, "orchard_prime", ["rich_harvest"])
    assert s.stack[-1].kind == "give_away"
    ia.act(s, "give grainhold P1")
    assert (grain, 2, (fertile,)) in s.planets[1]
    # P1 produces: grainhold level 2 gives 2 FOOD, the marker 1 more
    s.stack.clear()
    s.seat, s.step = 1, 2
    s.res[1] = (0, 0, 0, 0)
    ia.run(s)
    ia.act(s, "produce")
    while s.stack and s.stack[-1].kind == "home_pick":
        ia.act(s, "home ore")
    assert s.res[1][0] == 3


def test_kept_event_marker_discarded_with_its_planet(ia) -> None:
    """IA-COL-05, IA-COLN-05: when every other seat has 8 planets, colonising at 8 discards
    a planet; a kept event on it goes to the Colony Event discard with it."""
    s = ia.turn(3, 0, 3)
    c = s.content
    fertile = c.event_index["fertile_valleys"]
    for pid in ("verdant_moon", "mossfall", "slag_rock", "cinder", "observatory", "bazaar"):
        ia.planet(s, 0, pid, 1)
    colonise_turn(ia, s, 0, "grainhold", ["fertile_valleys"])
    grain = c.planet_index["grainhold"]
    free = [q for q in range(len(c.planet_ids)) if c.planet_type[q] != 4
            and q not in (grain, c.planet_index["orchard_prime"])
            and all(q != x for pl in s.planets for x, _l, _m in pl)]
    for seat in (1, 2):
        while len(s.planets[seat]) < 8:
            ia.planet(s, seat, c.planet_ids[free.pop()], 1)
    colonise_turn(ia, s, 0, "orchard_prime", ["rich_harvest"])
    assert "discard-planet grainhold" in ia.notes(s)
    ia.act(s, "discard-planet grainhold")
    assert grain in s.planet_discard and fertile in s.colony_discard
    assert all(q != grain for pl in s.planets for q, _l, _m in pl)
