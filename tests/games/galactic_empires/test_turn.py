"""Set-up, the eight phases, drawing and discarding, winning (GE-DECK, GE-TURN, GE-WIN,
GE-MISC)."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.engine import BadOptionError
from starlanes.games.galactic_empires.endturn import draw_allowance, end_turn
from starlanes.games.galactic_empires.setup import begin_turn, roll_off


def test_basic_game_shares_one_deck_and_deals_nine(ge):
    """GE-DECK-01, GE-DECK-02, GE-DECK-06: the Basic Game (the default structure) uses one
    shared deck; each player starts with 9 cards from its top."""
    s = ge.fresh(3)
    assert s.structure == "basic"
    assert len(s.decks) == 1
    assert [len(h) for h in s.hands] == [9, 9, 9]
    every = [c for d in s.decks for c in d] + [c for h in s.hands for c in h] \
        + [c for r in s.reserve for c in r] + [c for d in s.discards for c in d]
    assert sorted(every) == list(range(len(s.defs)))


def test_deck_may_be_any_cards(ge):
    """GE-DECK-03, GE-DECK-04: the deck may be either 55-card Basic Set or both (110 cards);
    at least 25 cards per player is only recommended: 3 players on 55 cards still play
    (a deck too small to deal at all is refused)."""
    assert len(ge.fresh(2, deck="krebiz-argonian").defs) == 55
    assert len(ge.fresh(2, deck="both").defs) == 110
    with pytest.raises(BadOptionError):
        ge.fresh(5, deck="corporate-mechad")
    s = ge.fresh(3, deck="corporate-mechad")
    assert len(s.defs) == 55 and not s.is_terminal()


def test_two_or_more_players(ge):
    """GE-DECK-05: two or more players (2-6 here)."""
    for n in (2, 3, 6):
        assert ge.fresh(n).n == n
    with pytest.raises(BadOptionError):
        starlanes.load("galactic-empires", players=1)


def test_first_player_and_clockwise(ge):
    """GE-DECK-07, GE-TURN-12, GE-DECK-08: the ante winner goes first; play passes
    clockwise; a complete turn is once around the table."""
    s = ge.fresh(3, seed=4)
    first = s.first
    strengths = [s.card(i).strength for i in s.antes]
    assert s.card(s.antes[first]).strength == max(strengths)
    assert s.seat == first and s.round == 1
    for k in range(1, 4):
        end_turn(s)
        assert s.seat == (first + k) % 3
    assert s.round == 2


def test_ante_tie_settled_by_die_roll(ge):
    """GE-MISC-02: an unresolved tie is settled by a die roll (ties roll again)."""
    s = ge.fresh()
    ge.dice(s, 4, 4, 2, 5)
    assert roll_off(s, [0, 1]) == 1


def test_eight_phases_in_order(ge):
    """GE-TURN-01: allocation, engagement, play A, fire, play B, discard, draw, end."""
    s = ge.blank(phase="alloc")
    ge.put(s, "blue_giant", 0)
    ship = ge.put(s, "arg_frigate", 0)
    ge.put(s, "arg_scout", 1)
    s.pool = [3, 3, 0, 0, 0, 0, 0]
    seen = [s.phase]
    ge.do(s, f"engage arg_frigate#{ship}")
    for text in ("done", "done"):
        ge.do(s, text)
        seen.append(s.phase)
    ge.first(s, "aim")
    ge.first(s, "volley")
    ge.do(s, "commit", "cease")
    seen.append(s.phase)
    ge.do(s, "done")
    seen.append(s.phase)
    ge.do(s, "done")
    seen.append(s.phase)
    ge.do(s, "draw 0")
    seen.append(s.seat)
    assert seen == ["alloc", "playA", "fire", "playB", "discard", "draw", 1]


def test_shields_regenerate_in_engagement(ge):
    """GE-TURN-02: each ship with damaged shields regenerates one point."""
    s = ge.blank(phase="alloc")
    a = ge.put(s, "arg_cruiser", 0, sdmg=2)
    b = ge.put(s, "arg_frigate", 0)
    ge.do(s, "done")
    assert s.units[a].sdmg == 1 and s.units[b].sdmg == 0


def test_freighter_moves_in_engagement(ge):
    """GE-TURN-03: a freighter played on terrain may change location."""
    s = ge.blank(phase="alloc")
    t1 = ge.put(s, "ocean_world", 0)
    t2 = ge.put(s, "ice_moon", 0)
    f = ge.put(s, "eq_freighter", 0, host=t1)
    ge.do(s, "done")
    assert s.phase == "engage"
    ge.do(s, f"relocate eq_freighter#{f} ice_moon#{t2}")
    assert s.units[f].host == t2
    ge.do(s, "done")
    assert s.phase == "playA"


def test_functions_operate_in_a_or_b_once(ge):
    """GE-TURN-04, GE-TURN-05, ruling GE-OPEN-18: a function (equipment, hazard, monster)
    may be operated in phase A or in phase B, but not again in B once operated in A; a
    monster only if it was played on an earlier turn, in neither phase the turn it came."""
    s = ge.blank()
    ship = ge.put(s, "arg_frigate", 0, engaged=True)
    drones = ge.put(s, "eq_repair_drones", 0, host=ship)
    hurt = ge.put(s, "arg_scout", 0, dmg=1)
    mon = ge.put(s, "mon_swarm", 0, against=1, turn_in=s.turns[0] - 1)  # played earlier
    fresh = ge.put(s, "mon_swarm", 0, against=1, turn_in=s.turns[0])  # played this turn
    enemy = ge.put(s, "arg_cruiser", 1)
    assert f"operate eq_repair_drones#{drones} on arg_scout#{hurt}" in ge.legal(s)
    assert f"operate mon_swarm#{mon} on arg_cruiser#{enemy}" in ge.legal(s)
    assert not any(x.startswith(f"operate mon_swarm#{fresh}") for x in ge.legal(s))
    ge.do(s, f"operate eq_repair_drones#{drones} on arg_scout#{hurt}")
    assert s.units[hurt].dmg == 0
    ge.do(s, "done")  # no targets to fire at with: the frigate aims
    while s.phase != "playB":
        ge.first(s, "cease") if "cease" in ge.legal(s) else ge.first(s, "")
    assert not any(x.startswith("operate eq_repair") for x in ge.legal(s))
    assert any(x.startswith(f"operate mon_swarm#{mon}") for x in ge.legal(s))
    assert not any(x.startswith(f"operate mon_swarm#{fresh}") for x in ge.legal(s))


def test_discard_phase(ge):
    """GE-TURN-06, GE-TURN-07: unused plays may discard hand cards (never required); any
    number of own cards in play may self-destruct to the discard pile."""
    s = ge.blank(phase="discard")
    cards = ge.give(s, 0, "ice_moon", "red_dwarf", "arg_scout", "pulsar")
    ship = ge.put(s, "arg_frigate", 0)
    crew = ge.put(s, "crew_gunner", 0, host=ship)
    t = ge.put(s, "ocean_world", 0)
    s.plays = 1
    for c in cards[:2]:
        ge.do(s, f"discard {s.name(c)}")
    assert s.plays == 3
    assert not any(x.startswith("discard") for x in ge.legal(s))
    ge.do(s, f"scuttle arg_frigate#{ship}", f"scuttle ocean_world#{t}")
    assert not s.units
    assert s.discards[0][-3:] == [ship, crew, t] or set(s.discards[0][-3:]) == {ship, crew, t}
    assert "done" in ge.legal(s)


@pytest.mark.parametrize("hand,allowed", [(0, 2), (9, 2), (10, 1), (11, 1), (12, 0), (15, 0)])
def test_draw_allowance(hand, allowed):
    """GE-TURN-08, GE-TURN-09, GE-TURN-10: 9 or fewer draw 2, 10-11 draw 1, 12+ none."""
    assert draw_allowance(hand) == allowed


def test_draw_is_optional(ge):
    """GE-TURN-11: drawing is never required (draw 0 is legal)."""
    s = ge.blank(phase="discard")
    ge.give(s, 0, *["ice_moon"] * 10)
    ge.do(s, "done")
    assert ge.legal(s) == ["draw 0", "draw 1"]
    ge.do(s, "draw 0")
    assert s.seat == 1


def test_reshuffle_only_in_basic_game(ge):
    """GE-MISC-04, GE-MISC-05: an exhausted Basic deck is rebuilt from the shuffled
    discards; the Standard Game does not reshuffle."""
    s = ge.blank()
    s.discards[0].extend(s.decks[0])
    s.decks[0].clear()
    n = len(s.discards[0])
    assert s.draw(0) is not None
    assert len(s.decks[0]) == n - 1 and not s.discards[0]
    t = ge.blank(structure="standard")
    t.discards[0].extend(t.decks[0])
    t.decks[0].clear()
    assert t.draw(0) is None and t.discards[0]


def test_discard_pile_keeps_order(ge):
    """GE-MISC-03: discards stay in the order discarded (salvage takes the most recent
    ship)."""
    s = ge.blank()
    s.discards[0].clear()
    a, b, c = (ge.new_inst(s, x) for x in ("arg_scout", "ice_moon", "arg_frigate"))
    for i in (a, b, c):
        s.to_discard(i)
    assert s.discards[0] == [a, b, c]
    (card,) = ge.give(s, 0, "occ_salvage")
    ge.do(s, f"play occ_salvage#{card}")
    assert c in s.hands[0] and s.discards[0] == [a, b, card]


def test_hq_destroyed_eliminates_and_last_wins(ge):
    """GE-WIN-01, GE-WIN-02, GE-WIN-04, GE-DMG-08: the 25th HQ point eliminates; the last
    player left wins."""
    s = ge.blank(players=3)
    s.hq[1] = 24
    ge.put(s, "arg_frigate", 1, against=-1)
    from starlanes.games.galactic_empires.effects import hq_damage

    hq_damage(s, 2, 24, 0)
    assert s.alive[2]
    hq_damage(s, 2, 1, 0)
    assert not s.alive[2] and not s.is_terminal()
    assert s.score_breakdown()[2] == {"Sector HQ": 25, "damage from P0": -25}
    s.stack.clear()
    hq_damage(s, 1, 1, 0)
    assert s.is_terminal() and s.winners == [0] and s.end_reason == "conquest"
    assert s.returns() == [1.0, 0.0, 0.0]


def test_withdrawal(ge):
    """GE-WIN-03, GE-FLEET-07: with the withdrawal option a player may withdraw; the
    command limit stays at the starting number of players."""
    s = ge.blank(players=3, phase="discard", withdrawal=True)
    ge.do(s, "withdraw")
    assert not s.alive[0] and s.seat == 1
    from starlanes.games.galactic_empires.empires import command_limit

    assert command_limit(s, 1) == 3


def test_victory_celebration(ge):
    """GE-WIN-05: the destroyer of an HQ may draw 0-2 cards even with 12+ in hand."""
    s = ge.blank(players=3)
    ge.give(s, 0, *["ice_moon"] * 12)
    s.hq[2] = 24
    (strike,) = ge.give(s, 0, "hq_orbital_strike")
    ge.do(s, f"play hq_orbital_strike#{strike} on HQ2")
    assert not s.alive[2]
    assert ge.legal(s) == ["celebrate 0", "celebrate 1", "celebrate 2"]
    ge.do(s, "celebrate 2")
    assert len(s.hands[0]) == 14


def test_eliminated_cards_leave_play(ge):
    """GE-OPEN-11 ruling: an eliminated player's cards in play, hand and reserve and the
    cards against his fleet go to the discard pile."""
    s = ge.blank(players=3)
    ge.put(s, "base_outpost", 2)
    ge.put(s, "mon_swarm", 0, against=2)
    ge.give(s, 2, "ice_moon")
    from starlanes.games.galactic_empires.endturn import eliminate

    eliminate(s, 2, 0)
    assert not s.units and not s.hands[2] and not s.reserve[2]


def test_turn_cap_ends_game(ge):
    """Turn cap (a limit of the software, documented in the rulings; GE-WIN-04 knows only
    the last player left as winner): the game is abandoned as a draw between the players
    still in, whatever their Sector HQ damage; eliminated players share nothing."""
    s = ge.blank(players=3, turn_cap=5)
    s.hq = [20, 3, 0]
    from starlanes.games.galactic_empires.endturn import eliminate

    eliminate(s, 2, 0)
    s.stack.clear()
    s.round = 5
    s.seat = 2
    end_turn(s)
    assert s.is_terminal() and s.end_reason == "turn_cap"
    assert s.winners == [0, 1] and s.returns() == [0.5, 0.5, 0.0]


def test_standard_exhaustion_attrition(ge):
    """Ruling GE-OPEN-01 (Standard Game, GE-MISC-05: no reshuffle): a player who reaches
    his Draw Phase with an empty deck takes 1 damage on his Sector HQ (option
    ``exhaustion``, default ``attrition``), even while his ships guard it; at 25 he is
    eliminated (GE-DMG-08). With ``exhaustion=none`` nothing happens. The Basic Game
    reshuffles instead (GE-MISC-04)."""
    s = ge.blank(phase="discard", structure="standard")
    ge.put(s, "arg_frigate", 0)
    s.decks[0].clear()
    ge.do(s, "done")
    assert s.hq[0] == 1 and s.phase == "draw"
    s2 = ge.blank(phase="discard", structure="standard")
    s2.hq[0] = 24
    s2.decks[0].clear()
    ge.do(s2, "done")
    assert not s2.alive[0] and s2.is_terminal() and s2.winners == [1]
    s3 = ge.blank(phase="discard", structure="standard", exhaustion="none")
    s3.decks[0].clear()
    ge.do(s3, "done")
    assert s3.hq[0] == 0
    s4 = ge.blank(phase="discard")
    s4.decks[0].clear()
    ge.do(s4, "done")
    assert s4.hq[0] == 0


def test_begin_turn_resets_counts(ge):
    """GE-PLAY-01: the three-play count restarts each player turn."""
    s = ge.blank()
    s.plays = 3
    begin_turn(s)
    assert s.plays == 0 and s.phase == "alloc"
