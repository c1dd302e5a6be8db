"""Cards in play, removal, effects and the content files (GE-REM, GE-MISC, content)."""

from __future__ import annotations

import pytest

from starlanes.engine import ContentError
from starlanes.games.galactic_empires.content import (
    EFFECT_KINDS,
    card_listing,
    deck_problems,
    load_content,
)
from starlanes.games.galactic_empires.units import damage, repair


def test_cards_stay_until_removed(ge):
    """GE-REM-01, GE-REM-04, GE-REM-06: cards stay in play until removed (terrain, ships
    and bases only by enough damage); instants are discarded after use."""
    s = ge.blank()
    t = ge.put(s, "ocean_world", 1)
    (sab,) = ge.give(s, 0, "occ_meteor")
    ge.do(s, f"play occ_meteor#{sab} on ocean_world#{t}")
    assert s.units[t].dmg == 2 and sab in s.discards[0]
    damage(s, t, 2, 0)
    assert t not in s.units


def test_crew_stays_with_its_ship(ge):
    """GE-REM-02: equipment and crew are part of their ship until it leaves play."""
    s = ge.blank()
    ship = ge.put(s, "arg_frigate", 0)
    crew = ge.put(s, "crew_gunner", 0, host=ship)
    damage(s, ship, 3, 1)
    assert crew in s.units
    damage(s, ship, 10, 1)
    assert crew not in s.units


def test_losing_all_terrain_keeps_other_cards(ge):
    """GE-REM-03: without terrain a player's other cards stay in play."""
    s = ge.blank()
    t = ge.put(s, "ice_moon", 1)
    ship = ge.put(s, "arg_frigate", 1)
    damage(s, t, 5, 0)
    assert t not in s.units and ship in s.units


def test_durations_expire_in_owner_engagement(ge):
    """GE-REM-05: a card lasting N turns is discarded in its owner's (the player who
    played it, ruling GE-OPEN-10) Engagement Phase after N turns; a time warp keeps the
    target's units from being Engaged meanwhile."""
    s = ge.blank()
    ge.put(s, "arg_frigate", 1)
    (tw,) = ge.give(s, 0, "occ_time_warp")
    ge.do(s, f"play occ_time_warp#{tw} on P1")
    assert s.units[tw].left == 1 and s.units[tw].against == 1
    ge.do(s, "done", "done", "done", "draw 0")
    assert s.seat == 1
    s.pool = [9, 9, 0, 0, 0, 0, 0]
    ge.touch(s)
    assert ge.legal(s) == ["done"]
    ge.do(s, "done", "done", "done", "done", "draw 0")
    assert tw in s.units
    ge.do(s, "done")
    assert tw not in s.units and tw in s.discards[0]


def test_monsters_fall_to_damage_and_research(ge):
    """GE-REM-07, GE-MISC-06: a monster is discarded when damage plus research points
    reach its strength; the two are tracked apart."""
    s = ge.blank()
    mon = ge.put(s, "mon_swarm", 1, against=0)
    damage(s, mon, 1, 0)
    damage(s, mon, 1, 0, research=True)
    assert (s.units[mon].dmg, s.units[mon].rdmg) == (1, 1)
    damage(s, mon, 1, 0, research=True)
    assert mon not in s.units


def test_permanent_damage_is_not_repaired(ge):
    """GE-MISC-06 (ruling GE-OPEN-17): permanent damage is tracked apart and never
    repaired."""
    s = ge.blank()
    ship = ge.put(s, "arg_cruiser", 1)
    (hb,) = ge.give(s, 0, "occ_hull_breach")
    damage(s, ship, 3, 0)
    ge.do(s, f"play occ_hull_breach#{hb} on arg_cruiser#{ship}")
    assert s.units[ship].dmg == 1 and s.units[ship].perm == 1
    repair(s, ship, 5)
    assert s.units[ship].dmg == 1 and s.units[ship].sdmg == 0


def test_economic_crisis_halves_and_drops_fractions(ge):
    """GE-MISC-01: economic crisis halves supply and economy, fractions dropped (3 -> 1)."""
    from starlanes.games.galactic_empires.setup import begin_turn

    s = ge.blank()
    ge.put(s, "ocean_world", 1)
    ge.put(s, "ice_moon", 1)
    ge.put(s, "trade_hub", 1)
    ge.put(s, "occ_econ_crisis", 0, against=1, left=2)
    s.seat = 1
    begin_turn(s)
    assert s.pool[1] == 1 and s.pool[6] == 1


def test_hazard_operates_against_fleet(ge):
    """GE-TURN-04 (hazards, ruling GE-OPEN-18): a hazard played against a fleet damages
    one of its units when its controller operates it, from his turn after the one it
    was played in ("hazard cards and monster cards played on previous turns")."""
    from starlanes.games.galactic_empires.setup import begin_turn

    s = ge.blank()
    ship = ge.put(s, "arg_scout", 1)
    (hz,) = ge.give(s, 0, "hz_ion_storm")
    ge.do(s, f"play hz_ion_storm#{hz} on P1")
    assert hz in s.units
    assert not any(t.startswith(f"operate hz_ion_storm#{hz}") for t in ge.legal(s))
    ge.do(s, "done")  # phase B of the same turn: still not
    assert s.phase == "playB"
    assert not any(t.startswith(f"operate hz_ion_storm#{hz}") for t in ge.legal(s))
    s.seat = 0
    begin_turn(s)  # the controller's next turn
    s.phase = "playA"
    ge.touch(s)
    ge.do(s, f"operate hz_ion_storm#{hz} on arg_scout#{ship}")
    assert s.units[ship].sdmg == 1 and s.units[ship].dmg == 1


def test_monster_acts_only_from_the_next_turn(ge):
    """GE-TURN-04, ruling GE-OPEN-18: a monster played this turn may not be operated
    this turn (phase A or B); one played on an earlier turn may."""
    s = ge.blank()
    ship = ge.put(s, "arg_cruiser", 1)
    old = ge.put(s, "mon_swarm", 0, against=1, turn_in=4)
    (new,) = ge.give(s, 0, "mon_space_worm")
    ge.do(s, f"play mon_space_worm#{new} on P1")
    texts = ge.legal(s)
    assert f"operate mon_swarm#{old} on arg_cruiser#{ship}" in texts
    assert not any(t.startswith(f"operate mon_space_worm#{new}") for t in texts)


def test_solar_flare_spares_dragons(ge):
    """GE-EMP-DRG-02: no occurrence card is played on or to a D dragon, so a fleet-wide
    occurrence (Solar Flare) damages the fleet's ships but not its dragons, and its
    card text says so."""
    s = ge.blank()
    ship = ge.put(s, "arg_scout", 1)
    drg = ge.put(s, "drg_hatchling", 1)
    (flare,) = ge.give(s, 0, "occ_solar_flare")
    ge.do(s, f"play occ_solar_flare#{flare} on P1")
    assert s.units[ship].sdmg + s.units[ship].dmg == 1
    assert s.units[drg].dmg == 0
    assert "dragon" in s.cards["occ_solar_flare"].text


def test_time_warp_spares_dragons(ge):
    """GE-EMP-DRG-02: a time warp lying against a fleet stops its ships being Engaged,
    not its D dragons."""
    s = ge.blank(phase="alloc")
    ship = ge.put(s, "arg_scout", 0)
    drg = ge.put(s, "drg_hatchling", 0)
    ge.put(s, "occ_time_warp", 1, against=0, left=1)
    s.pool = [9, 9, 0, 0, 0, 0, 0]
    ge.touch(s)
    texts = ge.legal(s)
    assert f"engage drg_hatchling#{drg}" in texts
    assert f"engage arg_scout#{ship}" not in texts
    assert "D dragons" in s.cards["occ_time_warp"].text


def test_sector_hq_cards_ignore_guarding_ships(ge):
    """GE-DMG-11 against GE-DMG-05 (ruling): the Sector HQ cards that deal damage may be
    played on an opponent's HQ while his ships guard it (the no-ships condition is for
    weapons fire); their text says so, and the effect follows it."""
    s = ge.blank()
    ge.put(s, "arg_frigate", 1)
    strike, sab = ge.give(s, 0, "hq_orbital_strike", "hq_saboteurs")
    ge.do(s, f"play hq_orbital_strike#{strike} on HQ1", f"play hq_saboteurs#{sab} on HQ1")
    assert s.hq[1] == 5
    for cid in ("hq_orbital_strike", "hq_saboteurs"):
        assert "even while his ships guard it" in s.cards[cid].text


def test_cancel_card_reaction(ge):
    """GE-PLAY-07: a cancel reaction answers a card played on one's fleet."""
    s = ge.blank()
    ship = ge.put(s, "arg_scout", 1)
    (sab,) = ge.give(s, 0, "occ_sabotage")
    (cm,) = ge.give(s, 1, "re_countermand")
    ge.do(s, f"play occ_sabotage#{sab} on arg_scout#{ship}", f"react re_countermand#{cm}")
    assert s.units[ship].dmg == 0 and s.plays == 1 and sab in s.discards[0]


def test_pool_is_large_enough():
    """The designed pool: at least 150 cards, every empire, every card type, effects
    from the vocabulary only, ready-made decks that pass deck construction: 55-card Basic
    Sets and 60-card Standard decks."""
    c = load_content()
    assert len(c.cards) >= 150
    empires = {x.empire for x in c.cards.values()}
    assert {"argonian", "krebiz", "corporate", "mechad", "bolaar", "vektrean",
            "indirigan", "dragon"} <= empires
    assert set("TSBCEOHMDQ") <= {x.type for x in c.cards.values()}
    for card in c.cards.values():
        assert all(e.kind in EFFECT_KINDS for e in card.effects)
    for d in c.decks.values():
        size = 55 if d.structure == "basic" else 60
        assert sum(d.cards.values()) == size and not deck_problems(c, d)
    assert card_listing(c, empire="krebiz", type_letter="S")
    assert all(x.empire == "mechad" for x in card_listing(c, empire="mechad"))


def test_bad_content_is_refused(tmp_path):
    """Content errors name the file and entry."""
    (tmp_path / "cards.toml").write_text(
        '[[card]]\nid = "x"\nname = "X"\ntype = "O"\nsource = "designed"\n'
        'rationale = "r"\neffects = [{kind = "nonsense"}]\n')
    with pytest.raises(ContentError, match="cards.toml"):
        load_content(tmp_path)
