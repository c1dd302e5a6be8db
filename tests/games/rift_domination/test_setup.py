"""SET UP and BEFORE YOU START (RD-SET-*), and the Vespian starting sheet (RD-FAC-06..11)."""

from __future__ import annotations

import pytest

import starlanes

YELLOW = {"B1", "E2", "E4", "B5"}
WHITE = {"A1", "E1", "F2", "F4", "A5", "E5"}


def _new(players=2, seed=1, **options):
    options.setdefault("board", "classic")  # the map these tests name
    return starlanes.load("rift-domination", players=players, seed=seed,
                          **options).new_initial_state()


def _to_phase(s, phase):
    while s.phase != phase:
        s.apply(s.legal_actions()[0])
    return s


@pytest.mark.parametrize("players,colour", [(2, YELLOW), (4, YELLOW), (5, WHITE), (6, WHITE)])
def test_homes_are_in_the_starting_systems_of_the_player_count(players, colour):
    """RD-SET-08 (ruling RD-OPEN-28): starting systems marked yellow are used with 4 or fewer
    players, white with 5 or more; a home planet is chosen in one of them."""
    s = _new(players)
    planets = {str(a).split()[1] for a in s.legal_actions()}
    assert {p[:2] for p in planets} == colour


def test_each_player_chooses_a_home_planet_in_turn(rd):
    """RD-SET-01 / RD-SET-02: every player, seat by seat, chooses a starting planet; it is
    theirs (its planet card taken) and its system is no longer offered."""
    s = _new(3)
    assert s.phase == "setup_home" and s.current_player() == 0
    s.apply_notation("home E2b")
    assert s.planet_owner[rd.pid(s, "E2b")] == 0
    assert s.current_player() == 1
    assert not any(str(a).startswith("home E2") for a in s.legal_actions())
    s.apply_notation("home B5a")
    assert s.current_player() == 2 and s.planet_owner[rd.pid(s, "B5a")] == 1
    s.apply(s.legal_actions()[0])
    assert s.phase == "setup_tiles"
    assert sorted(s.home) == sorted({s.home[0], s.home[1], s.home[2]})


def test_condition_tiles_are_placed_clockwise_until_every_planet_has_one(rd):
    """RD-SET-03 (ruling RD-OPEN-05): condition tiles are placed one at a time, seat after
    seat clockwise, until every planet but the homes has one."""
    s = _to_phase(_new(3), "setup_tiles")
    seats = []
    while s.phase == "setup_tiles":
        seats.append(s.current_player())
        s.apply(s.legal_actions()[-1])
    assert seats[:6] == [0, 1, 2, 0, 1, 2]
    assert all(seats[i + 1] == (seats[i] + 1) % 3 for i in range(len(seats) - 1))
    assert len(seats) == len(s.board.in_play_planets) - 3


def test_tiles_may_go_anywhere_even_in_hostile_starting_systems(rd):
    """RD-SET-04: no restrictions: tiles can be placed on any planet, including the other
    planet of an opponent's starting system."""
    s = _to_phase(_new(2), "setup_tiles")
    targets = {str(a).split()[1] for a in s.legal_actions()}
    home_sys = {s.board.planet_ids[h][:2] for h in s.home}
    hostile = {p for p in targets if p[:2] in home_sys}
    assert hostile == {f"{sy}b" for sy in home_sys}
    assert targets == {s.board.planet_ids[p] for p in s.board.in_play_planets} - {
        s.board.planet_ids[h] for h in s.home}


def test_one_tile_per_planet_and_none_on_homes(rd):
    """RD-SET-05 / RD-SET-06: a planet holds one tile: once tiled it is not offered again;
    home planets are never offered."""
    s = _to_phase(_new(2), "setup_tiles")
    first = s.legal_actions()[0]
    s.apply(first)
    assert first not in s.legal_actions()
    homes = {s.board.planet_ids[h] for h in s.home}
    while s.phase == "setup_tiles":
        assert not {str(a).split()[1] for a in s.legal_actions()} & homes
        s.apply(s.legal_actions()[0])
    assert all(not s.tile_kind[h] for h in s.home)


@pytest.mark.parametrize("players,small", [(2, True), (3, True), (4, True), (5, False),
                                           (6, False)])
def test_play_area_by_player_count(players, small):
    """RD-SET-07: 5-6 players use the whole board (30 systems, 44 planets); 4 or fewer only
    the area marked for lower player numbers."""
    s = _new(players)
    assert s.board.small is small
    systems = {s.board.system_ids[i] for i, p in enumerate(s.board.system_point) if p >= 0}
    if small:
        assert systems == {sid for sid, sy in s.content.systems.items() if sy.small_area}
        assert len(systems) < 30
    else:
        assert len(systems) == 30 and len(s.board.in_play_planets) == 44


def test_factions_are_drawn_seat_by_seat_and_may_be_repicked_once(rd):
    """RD-SET-09 / RD-SET-10: from seat 0 (the youngest) clockwise, each player gets a random
    faction sheet and may repick one time."""
    s = _to_phase(_new(3), "setup_faction")
    assert s.current_player() == 0
    first = s.faction_offer
    assert first in s.content.factions
    assert sorted(map(str, s.legal_actions())) == ["keep", "repick"]
    s.apply_notation("repick")
    assert s.faction_offer != first
    assert [str(a) for a in s.legal_actions()] == ["keep"]
    offer = s.faction_offer
    s.apply_notation("keep")
    assert s.faction[0] == offer and s.current_player() == 1
    assert sorted(map(str, s.legal_actions())) == ["keep", "repick"]


def test_faction_draw_depends_on_the_seed():
    """RD-SET-09: the faction sheet is picked at random."""
    offers = {_to_phase(_new(2, seed), "setup_faction").faction_offer for seed in range(8)}
    assert len(offers) > 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_starting_materials(rd, seed):
    """RD-SET-11 / RD-SET-12 / RD-SET-13 / RD-SET-14 / RD-SET-15 / RD-FAC-02: every player gets the roster (unit cards) and starting
    materials of their faction sheet: units at home, resources, planet upgrades; the
    faction tile starts at the beginning of the counters; every home gets a military
    base. (Set-up instants are put back here, RD-OCC-08, so no card changes the
    materials.)"""
    s = rd.fresh(4, seed, first_round_no_instants=True)
    r = s.content.rules
    for seat in range(4):
        f = s.content.factions[s.faction[seat]]
        assert s.roster[seat] == tuple(f.roster)
        assert set(s.content.units) - set(s.roster[seat]), "more units can be unlocked"
        assert s.planet_upgrades[s.home[seat]] == ("military_base", *f.start_upgrades)
        assert s.income[seat] in (r.income_start, r.income_start + 1)
        assert s.vp[seat] == s.fx[seat].start_vp
        home = s.board.planet_point[s.home[seat]]
        for kind, count in f.start_units.items():
            here = [u for u in s.units.values() if u.owner == seat and u.kind == kind
                    and u.loc == home]
            assert len(here) >= count
        if seat > 0:
            assert s.resources[seat] == f.start_resources
            assert s.income[seat] == r.income_start


def test_occ_deck_shuffled_and_two_cards_each(rd):
    """RD-SET-16 / RD-SET-17: the 100-card OCC deck is shuffled and every player draws two
    cards (with the first-session variant RD-OCC-08 set-up hands hold no instants: they
    are put back; by default they resolve, see test_occ)."""
    s = rd.fresh(3, 1, first_round_no_instants=True)
    assert len(s.hands[1]) == 2 and len(s.hands[2]) == 2
    for seat in (1, 2):
        assert all(s.content.cards[c].timing != "instant" for c in s.hands[seat])
    total = len(s.deck) + len(s.discard) + sum(len(h) for h in s.hands)
    assert total == 100
    t = rd.fresh(3, 2, first_round_no_instants=True)
    assert s.deck != t.deck


def test_youngest_player_starts(rd):
    """RD-SET-18: after set-up seat 0 (the youngest player) takes the first turn of round 1."""
    s = rd.fresh(4, 9)
    assert s.round == 1 and s.seat == 0
    assert s.phase in ("turn_start", "build") and s.current_player() == 0


def test_vespian_sheet(rd):
    """RD-FAC-06 / RD-FAC-07 / RD-FAC-08 / RD-FAC-09 / RD-FAC-11: the Vespians start with 2 infantry, 2 carriers, 4
    fighters, 2 diplomats and 8 resources; their home has a trading outpost next to the
    military base, filling both slots; they can build infantry, fighter, carrier,
    diplomat."""
    s = rd.fresh(2, 1, factions=["korrath_hegemony", "vespians"])
    home = s.board.planet_point[s.home[1]]
    counts = {}
    for u in s.units.values():
        if u.owner == 1:
            assert u.loc == home
            counts[u.kind] = counts.get(u.kind, 0) + 1
    assert counts == {"infantry": 2, "carrier": 2, "fighter": 4, "diplomat": 2}
    assert s.resources[1] == 8
    ups = s.planet_upgrades[s.home[1]]
    assert sorted(ups) == ["military_base", "trading_outpost"]
    assert len(ups) == s.content.rules.upgrade_slots
    assert set(s.roster[1]) == {"infantry", "fighter", "carrier", "diplomat"}


def test_fixed_factions_option_gives_each_seat_its_faction_without_a_draw():
    """RD-SET-09/10 under the designer's ``factions`` option: no offer, no repick; each seat
    plays the faction named for it (ruling in docs/rulings/rift-domination.md)."""
    import starlanes
    from starlanes.agents import make_agent
    from starlanes.engine import BadOptionError

    g = starlanes.load("rift-domination", players=3, seed=5,
                       factions="the_void,iron_bastion,quell_exchange")
    s = g.new_initial_state()
    bots = [make_agent("heuristic", "rift-domination", i) for i in range(3)]
    while s.phase.startswith("setup"):
        assert not any(str(a) in ("keep", "repick") for a in s.legal_actions())
        s.apply(bots[s.current_player()].act(s))
    assert s.faction == ["the_void", "iron_bastion", "quell_exchange"]
    for bad, why in (("the_void", "1 factions for 3 seats"),
                     ("the_void,the_void,iron_bastion", "twice"),
                     ("the_void,iron_bastion,nope", "unknown faction")):
        with pytest.raises(BadOptionError, match=why):
            starlanes.load("rift-domination", players=3, factions=bad)
