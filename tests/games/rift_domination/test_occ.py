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


def _setup_instants(s) -> list[str]:
    """Log lines of instant cards drawn before round 1 began."""
    lines = s.action_log()
    start = next(i for i, line in enumerate(lines) if line.startswith("round 1 begins"))
    return [line for line in lines[:start] if "draws instant card" in line]


def test_instants_drawn_at_set_up_resolve_by_default(rd):
    """RD-OCC-03 / RD-OCC-08: an instant card drawn with the set-up hand is revealed and
    resolved like any other draw; putting it back is the first-session variant, played only
    with first_round_no_instants (then set-up hands hold no instant card)."""
    seeds = [seed for seed in range(1, 40) if _setup_instants(rd.fresh(4, seed))]
    assert seeds, "no set-up in 40 seeds drew an instant card"
    seed = seeds[0]
    s = rd.fresh(4, seed)
    assert s.discard and all(s.content.cards[c].timing == "instant" for c in s.discard)
    t = rd.fresh(4, seed, first_round_no_instants=True)
    assert not _setup_instants(t) and not t.discard
    assert not any(t.content.cards[c].timing == "instant" for h in t.hands for c in h)


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


def test_market_crash_does_what_its_text_says(rd):
    """RD-OCC-04 (designed card Market Crash): the counter drops by 1; at the start of its
    printed track (3), where it cannot drop, the card costs 2 resources instead, so it
    never does nothing (as it did in round one)."""
    s = rd.blank()
    card = s.content.cards["market_crash"]
    assert "drops by 1" in card.text and "lose 2 resources" in card.text
    s.resources[0] = 5
    assert s.income[0] == s.content.rules.income_start == 3
    rd.stack_deck(s, "market_crash")
    draw_cards(s, 0, 1)
    assert (s.income[0], s.resources[0]) == (3, 3)
    s.income[0] = 6
    rd.stack_deck(s, "market_crash")
    draw_cards(s, 0, 1)
    assert (s.income[0], s.resources[0]) == (5, 3)


# ---------------------------------------------------------------------------- any-time cards
def _end_of_round(rd, **options):
    """Two players, seat 1 (the last seat) recruiting at the target: its turn ends the round."""
    s = rd.blank(players=2, phase="recruit", seat=1, **options)
    s.vp = [s.target_vp - 1, s.target_vp]
    return s


def test_any_time_card_after_another_seats_turn(rd):
    """RD-OCC-01: the cards can always be used, even in other players' turns: after seat 1
    reaches the target in the round's last turn, seat 0 still plays its +1 VP card before
    the round ends and draws level."""
    s = _end_of_round(rd)
    rd.give(s, 0, "triumph", "weapon_industry")
    rd.do(s, "end")
    assert not s.is_terminal() and s.current_player() == 0
    assert rd.legal(s) == ["play triumph", "pass"]
    rd.do(s, "play triumph")
    assert s.is_terminal() and s.winners == [0, 1]


def test_no_window_without_any_time_cards(rd):
    """RD-OCC-01 (ruling RD-OPEN-14): a seat holding no any-time card is not asked, so a
    window no one can use costs no decision."""
    s = _end_of_round(rd)
    rd.give(s, 0, "weapon_industry", "counter_intelligence")
    rd.do(s, "end")
    assert s.is_terminal() and s.winners == [1]
    t = rd.blank(players=3, phase="recruit", seat=0)
    rd.give(t, 2, "supply_convoy")
    rd.do(t, "end")
    assert t.current_player() == 2 and t.stack[-1].kind == "window"
    rd.do(t, "play supply_convoy")  # its last any-time card: the window closes by itself
    assert not t.stack and t.seat == 1 and t.resources[2] == 4


def test_own_turn_only_option(rd):
    """RD-OCC-01 / option occ_timing=own_turn (ruling RD-OPEN-14): the narrow reading plays
    every card of the owner's turn only in that turn: no window between turns."""
    s = _end_of_round(rd, occ_timing="own_turn")
    rd.give(s, 0, "triumph")
    rd.do(s, "end")
    assert s.is_terminal() and s.winners == [1]


def test_determinisation_keeps_what_the_windows_told(rd):
    """RD-OCC-01 (ruling RD-OPEN-14): being skipped shows that a hand holds no any-time
    card and being asked that it holds one; determinize keeps both facts for the other
    seats (and still resamples the rest)."""
    import random

    s = rd.blank(players=3, phase="recruit", seat=0)
    rd.give(s, 1, "weapon_industry", "ambush", "counter_intelligence")
    rd.give(s, 2, "triumph", "weapon_industry")
    rd.do(s, "end")
    assert s.current_player() == 2  # seat 1 skipped: none of its 3 cards is any-time
    timing = {c: card.timing for c, card in s.content.cards.items()}
    hands1, hands2 = set(), set()
    for i in range(60):
        t = s.determinize(0, random.Random(i))
        assert len(t.hands[1]) == 3 and len(t.hands[2]) == 2
        assert all(timing[c] != "any_time" for c in t.hands[1])
        assert any(timing[c] == "any_time" for c in t.hands[2])
        hands1.add(tuple(sorted(t.hands[1])))
        hands2.add(tuple(sorted(t.hands[2])))
    assert len(hands1) > 10 and len(hands2) > 10
