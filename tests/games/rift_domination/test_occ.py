"""OCC-CARDS (RD-OCC-*), counter cards and the Vespian diplomat sacrifice (RD-FAC-05)."""

from __future__ import annotations

from starlanes.games.rift_domination.occ import draw_cards
from starlanes.games.rift_domination.rules import advance


def _turn_start(rd, *top, faction=None, **options):
    s = rd.blank(phase="turn_start", factions=[faction or rd.NEUTRAL, rd.NEUTRAL], **options)
    s.step = 1
    rd.stack_deck(s, *top)
    return s


def test_instant_cards_resolve_when_drawn(rd):
    """RD-OCC-03: an instant card is revealed and resolved at once when drawn: it does not
    stay in the hand, its effect applies (windfall: +3 resources) and it counts as one of
    the two cards drawn."""
    s = _turn_start(rd, "windfall", "triumph", "supply_convoy")
    advance(s)
    assert s.hands[0] == ["triumph"]
    assert "windfall" in s.discard
    assert s.resources[0] == 3 + s.content.rules.income_start


def test_cards_can_gain_or_lose_vp(rd):
    """RD-OCC-05: an OCC-card makes its player gain or lose the VP shown on it."""
    s = rd.blank()
    s.vp[0] = 4
    rd.stack_deck(s, "rift_hero")
    draw_cards(s, 0, 1)
    assert s.vp[0] == 5
    rd.stack_deck(s, "public_scandal")
    draw_cards(s, 0, 1)
    assert s.vp[0] == 4


def test_some_cards_worsen_the_situation(rd):
    """RD-OCC-04: some OCC-cards worsen their player's situation (reactor leak: -2
    resources; mutiny: lose 2 fighters)."""
    s = rd.blank()
    s.resources[0] = 5
    rd.place(s, 0, "fighter", "B1", n=3)
    rd.stack_deck(s, "reactor_leak", "mutiny")
    draw_cards(s, 0, 2)
    assert s.resources[0] == 3
    assert len(rd.units_of(s, 0, "fighter")) == 1


def test_no_hand_limit(rd):
    """RD-OCC-02: there is no hand limit: a hand of 40 grows to 42 with no discard."""
    s = _turn_start(rd, "supply_convoy", "triumph")
    s.hands[0] = ["investment"] * 40
    advance(s)
    assert len(s.hands[0]) == 42 and not s.stack


def test_first_round_without_instants_option(rd):
    """RD-OCC-08: with first_round_no_instants an instant drawn in round one is put back in
    the deck and another card drawn; from round two instants resolve again."""
    s = _turn_start(rd, "windfall", "triumph", "supply_convoy",
                    first_round_no_instants=True)
    advance(s)
    assert sorted(s.hands[0]) == ["supply_convoy", "triumph"]
    assert "windfall" in s.deck and "windfall" not in s.discard
    assert s.resources[0] == s.content.rules.income_start
    t = _turn_start(rd, "windfall", "triumph", first_round_no_instants=True)
    t.round = 2
    advance(t)
    assert t.hands[0] == ["triumph"] and "windfall" in t.discard


def test_instants_resolve_in_round_one_by_default(rd):
    """RD-OCC-08: the first-round variant is an option; by default round one instants
    resolve (RD-OCC-03)."""
    s = _turn_start(rd, "windfall", "triumph")
    assert s.round == 1
    advance(s)
    assert "windfall" in s.discard


def _piracy(rd, target_faction=None):
    s = rd.blank(phase="build", factions=[rd.NEUTRAL, target_faction or rd.NEUTRAL])
    s.resources = [0, 5]
    rd.give(s, 0, "piracy")
    return s


def test_cards_are_answered_in_another_players_turn(rd):
    """RD-OCC-01 / RD-OCC-04: cards can be used even in other players' turns: a card played
    against seat 1 in seat 0's turn gives seat 1 the move, and a counter card cancels it."""
    s = _piracy(rd)
    rd.give(s, 1, "counter_intelligence")
    rd.do(s, "play piracy @1")
    assert s.seat == 0 and s.current_player() == 1
    assert "play counter_intelligence" in rd.legal(s) and "pass" in rd.legal(s)
    rd.do(s, "play counter_intelligence")
    assert s.resources == [0, 5]
    assert s.hands == [[], []]
    assert {"piracy", "counter_intelligence"} <= set(s.discard)
    assert s.current_player() == 0 and s.phase == "build"


def test_an_unanswered_card_resolves(rd):
    """RD-OCC-01: without a counter the targeted player lets the card resolve."""
    s = _piracy(rd)
    rd.do(s, "play piracy @1")
    assert rd.legal(s) == ["pass"]
    rd.do(s, "pass")
    assert s.resources == [3, 2]


def test_recruitment_card_during_a_battle(rd):
    """RD-OCC-06: a "recruitment" OCC-card may be played during a battle to gain units that
    fight at once."""
    s = rd.blank()
    rd.place(s, 0, "carrier", "B1")
    rd.place(s, 1, "carrier", "C1")
    rd.give(s, 0, "emergency_recruitment")
    rd.dice(s)
    rd.do(s, "move B1 C1")
    rd.do(s, "pass")  # the defender's cancel window
    assert s.current_player() == 0
    assert "play emergency_recruitment" in rd.legal(s)
    rd.do(s, "play emergency_recruitment")
    mine = [f for f in s.battle.fighters.values() if f.side == 0]
    assert sorted(f.kind for f in mine) == ["carrier", "fighter", "fighter", "fighter"]
    assert len(rd.units_of(s, 0, "fighter", at="C1")) == 3


def test_vespians_may_sacrifice_a_diplomat_instead_of_an_instant(rd):
    """RD-FAC-05: instead of resolving an instant card the Vespians may sacrifice a diplomat;
    the card then has no effect."""
    s = _turn_start(rd, "reactor_leak", "triumph", faction="vespians")
    s.resources[0] = 4
    (d,) = rd.place(s, 0, "diplomat", "B1a", landed=True)
    advance(s)
    assert s.stack[-1].kind == "instant"
    assert sorted(rd.legal(s)) == ["resolve", "sacrifice diplomat"]
    rd.do(s, "sacrifice diplomat")
    assert d not in s.units
    advance(s)
    assert s.resources[0] >= 4, "the leak did not resolve"


def test_vespians_may_let_the_instant_resolve(rd):
    """RD-FAC-05: the sacrifice is optional: "resolve" applies the card."""
    s = rd.blank(factions=["vespians", rd.NEUTRAL])
    s.resources[0] = 4
    rd.place(s, 0, "diplomat", "B1a", landed=True)
    rd.stack_deck(s, "reactor_leak")
    draw_cards(s, 0, 1)
    rd.do(s, "resolve")
    assert s.resources[0] == 2 and rd.units_of(s, 0, "diplomat")


def test_vespians_may_sacrifice_a_diplomat_against_a_hostile_card(rd):
    """RD-FAC-05: instead of resolving an OCC-card played against them, the Vespians may
    sacrifice a diplomat."""
    s = _piracy(rd, "vespians")
    (d,) = rd.place(s, 1, "diplomat", "E2a", landed=True)
    rd.do(s, "play piracy @1")
    assert "sacrifice diplomat" in rd.legal(s)
    rd.do(s, "sacrifice diplomat")
    assert d not in s.units and s.resources == [0, 5]


def test_no_sacrifice_without_diplomats_or_for_others(rd):
    """RD-FAC-05: the sacrifice is a Vespian ability and needs a diplomat."""
    s = _piracy(rd, "vespians")
    rd.do(s, "play piracy @1")
    assert "sacrifice diplomat" not in rd.legal(s)
    t = _piracy(rd)
    rd.place(t, 1, "diplomat", "E2a", landed=True)
    rd.do(t, "play piracy @1")
    assert "sacrifice diplomat" not in rd.legal(t)
