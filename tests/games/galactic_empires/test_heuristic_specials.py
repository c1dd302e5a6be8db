"""The heuristic bot's use of Galactic Empires' specials: reserve swaps (ruling GE-OPEN-04),
volleys (GE-FIRE-01/02), Krebiz separation (GE-EMP-KRB-05..15) and moving freighters and
tugs (GE-TURN-03), each where it pays off, and not where it does not."""

from __future__ import annotations

from starlanes.games.galactic_empires.actions import hq_code
from starlanes.games.galactic_empires.empires import join
from starlanes.games.galactic_empires.heuristic import HeuristicAgent


def _reserve(ge, s, seat: int, card_id: str) -> int:
    inst = ge.new_inst(s, card_id)
    s.reserve[seat].append(inst)
    ge.touch(s)
    return inst


def test_swaps_a_ship_of_the_other_empire_for_a_reserve_card(ge):
    """GE-FLEET-02 with ruling GE-OPEN-04: with Argonians in play a Krebiz cruiser in hand
    cannot be played; a spare card play trades it for the reserve's reaction card."""
    s = ge.blank()
    ge.put(s, "arg_frigate", 0, engaged=True)
    (dead,) = ge.give(s, 0, "krb_cruiser_heavy")
    evasive = _reserve(ge, s, 0, "re_evasive")
    a = HeuristicAgent(0).act(s)
    assert a.kind == "swap" and (a.a, a.b) == (dead, evasive)
    s.apply(a)
    assert evasive in s.hands[0] and dead in s.reserve[0]


def test_swaps_terrain_it_has_enough_of(ge):
    """With 8 terrain in play more terrain is worth little: a Blue Giant (strength 4) in
    hand goes into the reserve for the Orbital Strike there (strength 0)."""
    s = ge.blank()
    for cid in ("red_dwarf", "blue_giant", "core_world", "gas_giant", "ocean_world",
                "agri_colony", "trade_hub", "garden_world"):
        ge.put(s, cid, 0)
    (giant,) = ge.give(s, 0, "blue_giant")
    strike = _reserve(ge, s, 0, "hq_orbital_strike")
    a = HeuristicAgent(0).act(s)
    assert a.kind == "swap" and (a.a, a.b) == (giant, strike)


def test_keeps_a_ship_it_can_play(ge):
    """A ship of the fleet's own empire stays in hand: the bot plays it, never swaps it."""
    s = ge.blank()
    ge.put(s, "arg_frigate", 0, engaged=True)
    ge.put(s, "core_world", 0)
    ge.put(s, "red_dwarf", 0)
    (ship,) = ge.give(s, 0, "arg_destroyer")
    _reserve(ge, s, 0, "re_evasive")
    a = HeuristicAgent(0).act(s)
    assert a.kind != "swap"


def test_volleys_into_an_open_sector_hq(ge):
    """GE-DMG-05: every weapon goes into an unguarded Sector HQ, so whole units volley;
    the HQ takes the same 6 points as shot by shot."""
    s = ge.blank(phase="fire")
    cru = ge.put(s, "arg_cruiser", 0, engaged=True, ammo=1)
    ge.put(s, "arg_frigate", 0, engaged=True)
    ge.put(s, "blue_giant", 1)
    bot = HeuristicAgent(0)
    a = bot.act(s)
    assert a.kind == "aim" and a.a == hq_code(1)
    s.apply(a)
    a = bot.act(s)
    assert a.kind == "volley" and a.a == cru  # the unit with the most weapons first
    s.apply(a)
    kinds = []
    while s.phase == "aim":
        a = bot.act(s)
        kinds.append(a.kind)
        s.apply(a)
    assert kinds == ["volley", "commit"] and s.hq[1] == 6


def test_no_volley_where_it_would_overkill(ge):
    """A target the fleet can destroy with part of its fire gets single shots, no more
    than it needs (the rest is kept for other targets)."""
    s = ge.blank(phase="fire")
    ge.put(s, "arg_cruiser", 0, engaged=True, ammo=1)
    ge.put(s, "arg_frigate", 0, engaged=True)
    guard = ge.put(s, "arg_frigate", 1, engaged=True, sdmg=2)  # 3 points left
    bot = HeuristicAgent(0)
    s.apply(bot.act(s))
    assert s.aim == guard
    while s.phase == "aim":
        a = bot.act(s)
        assert a.kind != "volley"
        s.apply(a)


def _half_paid_combination(ge, players: int):
    """P0's Krebiz heavy cruiser (3 damage) with a command capsule, 1 energy to allocate:
    enough for the capsule only (GE-EMP-KRB-15); P1 has a frigate with 2 phasers."""
    s = ge.blank(players=players, phase="alloc")
    a = ge.put(s, "krb_cruiser_heavy", 0)
    b = ge.put(s, "krb_capsule_command", 0)
    join(s, a, b)
    s.units[a] = s.units[a]._replace(dmg=3)
    s.pool = [1, 0, 0, 0, 0, 0, 0]
    ge.put(s, "arg_frigate", 1, engaged=True)
    ge.touch(s)
    return s, a, b


def test_separates_a_combination_paid_for_one_component(ge):
    """GE-EMP-KRB-15: with points for the capsule alone the bot Engages it, separates the
    combination in Play Cards Phase A (so the capsule fires this turn) and splits the
    damage so that the weaker part keeps the most left."""
    s, a, b = _half_paid_combination(ge, players=3)
    bot = HeuristicAgent(0)
    while s.phase == "alloc":
        s.apply(bot.act(s))
    assert s.phase == "playA"
    act = bot.act(s)
    assert act.kind == "separate"
    s.apply(act)
    while s.stack:
        s.apply(bot.act(s))
    assert s.units[a].partner == -1 and s.units[b].engaged and not s.units[a].engaged
    assert s.units[a].dmg + s.units[b].dmg == 3
    assert s.units[b].dmg == 0  # the 3-point capsule would be an easy kill with damage


def test_no_half_engagement_without_a_command_point(ge):
    """GE-EMP-KRB-10: with no free command point the combination cannot be separated, so
    the bot does not spend points on one component (they would be lost)."""
    s, a, b = _half_paid_combination(ge, players=2)
    ge.put(s, "base_outpost", 0)
    a_ = HeuristicAgent(0).act(s)
    assert a_.kind == "done"


def test_no_separation_that_leaves_an_easy_kill(ge):
    """GE-EMP-KRB-02: apart, each component can be destroyed alone. Against 2 more weapons
    (4 in all) no split keeps both components above that, so the combination stays whole
    and no point goes to one component."""
    s, a, b = _half_paid_combination(ge, players=3)
    ge.put(s, "arg_frigate", 1, engaged=True)
    a_ = HeuristicAgent(0).act(s)
    assert a_.kind == "done"


def test_moves_a_freighter_off_a_damaged_terrain(ge):
    """GE-TURN-03: a freighter is lost with its terrain, so in the Engagement Phase it moves
    from a Red Dwarf with 1 point left to the undamaged Core World."""
    s = ge.blank(phase="engage")
    dwarf = ge.put(s, "red_dwarf", 0, dmg=2)
    core = ge.put(s, "core_world", 0)
    freighter = ge.put(s, "eq_freighter", 0, host=dwarf)
    a = HeuristicAgent(0).act(s)
    assert a.kind == "relocate" and (a.a, a.b) == (freighter, core)
    s.apply(a)
    assert HeuristicAgent(0).act(s).kind == "done"


def test_freighter_stays_on_a_sturdy_terrain(ge):
    """No move for a point or less: the freighter stays on an undamaged Blue Giant."""
    s = ge.blank(phase="engage")
    giant = ge.put(s, "blue_giant", 0)
    ge.put(s, "core_world", 0)
    ge.put(s, "eq_freighter", 0, host=giant)
    assert HeuristicAgent(0).act(s).kind == "done"
