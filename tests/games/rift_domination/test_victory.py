"""HOW TO WIN and ENDING THE GAME (RD-WIN-*)."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.engine import TERMINAL


@pytest.mark.parametrize("players,target", [(2, 10), (3, 11), (4, 12), (5, 13), (6, 14)])
def test_vp_to_win_by_player_count(rd, players, target):
    """RD-WIN-01 / RD-WIN-02 / RD-WIN-03: the VP needed depend on the player count: 10 for 2
    players, 14 for 6 (ruling RD-OPEN-04: 11, 12, 13 for 3, 4, 5)."""
    s = rd.fresh(players, 1)
    assert s.target_vp == target
    assert s.observation(0)["target_vp"] == target


def _end_turn(rd, s):
    seat = s.seat
    while not s.is_terminal() and s.seat == seat:
        acts = rd.legal(s)
        pick = next((a for a in ("end", "done") if a in acts), acts[0])
        rd.do(s, pick)


def test_the_round_is_finished_after_the_target_is_reached(rd):
    """RD-WIN-06: when a player reaches the VP needed, the round is still played to its end:
    seats after them take their turns, then the game ends."""
    s = rd.blank(players=3, phase="recruit", seat=0)
    s.vp[0] = s.target_vp
    _end_turn(rd, s)
    assert not s.is_terminal() and s.seat == 1
    _end_turn(rd, s)
    assert not s.is_terminal() and s.seat == 2
    _end_turn(rd, s)
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.winners == [0] and s.end_reason == "victory_points"
    assert s.returns() == [1.0, 0.0, 0.0]
    assert s.legal_actions() == []


def test_no_extra_round_when_the_last_seat_reaches_the_target(rd):
    """RD-WIN-06: unless the winning player was the last to take a turn in the round: then
    the game ends with that turn."""
    s = rd.blank(players=3, phase="recruit", seat=2)
    s.vp[2] = s.target_vp
    _end_turn(rd, s)
    assert s.is_terminal() and s.winners == [2]
    assert s.round == 1


def test_even_points_in_the_last_round_share_the_win(rd):
    """RD-WIN-07 (ruling RD-OPEN-19): in the last round another player can reach even points;
    tied players share the win."""
    s = rd.blank(players=3, phase="recruit", seat=0)
    s.vp[0] = s.target_vp
    _end_turn(rd, s)
    _end_turn(rd, s)
    s.vp[2] = s.target_vp
    _end_turn(rd, s)
    assert s.winners == [0, 2]
    assert s.returns() == [0.5, 0.0, 0.5]
    assert s.scores() == [s.target_vp, 0, s.target_vp]


def test_more_points_in_the_last_round_win(rd):
    """RD-WIN-07: someone else can gain more VP in the last round and win."""
    s = rd.blank(players=2, phase="recruit", seat=0)
    s.vp[0] = s.target_vp
    _end_turn(rd, s)
    s.vp[1] = s.target_vp + 2
    _end_turn(rd, s)
    assert s.winners == [1]


def test_below_target_the_game_goes_on(rd):
    """RD-WIN-06: without anyone at the target the next round begins."""
    s = rd.blank(players=2, phase="recruit", seat=1)
    s.vp = [s.target_vp - 1, 3]
    _end_turn(rd, s)
    assert not s.is_terminal() and s.round == 2 and s.seat == 0


def test_falling_below_the_target_in_the_last_round_still_ends_the_game(rd):
    """RD-WIN-06 (ruling RD-OPEN-19): once a player has reached the target the round is
    the last, even if that player drops below it again before the round ends; the most VP
    then win."""
    s = rd.blank(players=3, phase="recruit", seat=0)
    s.vp = [s.target_vp - 1, 2, 1]
    rd.give(s, 0, "triumph", "intelligence_report")
    rd.stack_deck(s, "public_scandal", "supply_convoy")
    rd.do(s, "play triumph")
    assert s.vp[0] == s.target_vp
    rd.do(s, "play intelligence_report")  # draws Public Scandal: -1 VP
    assert s.vp[0] == s.target_vp - 1
    for _ in range(3):
        _end_turn(rd, s)
    assert s.is_terminal() and s.end_reason == "victory_points" and s.winners == [0]
    assert s.round == 1


def test_round_limit_ends_the_game_on_vp(rd):
    """Ruling RD-OPEN-19 / option round_limit: after the last allowed round the game ends and
    the most VP win."""
    s = rd.blank(players=2, phase="recruit", seat=1, round_limit=1)
    s.vp = [3, 2]
    _end_turn(rd, s)
    assert s.is_terminal() and s.end_reason == "round_limit" and s.winners == [0]


def test_vp_sources(rd):
    """RD-WIN-04: VP come from anomaly planets, systems, OCC-cards, won battles and faction
    abilities: an anomaly landing that completes a system and a played VP card add up."""
    s = rd.blank(factions=["lumen_synod", rd.NEUTRAL])
    s.unlocks[0] = 2
    rd.own(s, "C1b", 0)
    rd.tile(s, "C1a", "anomaly", 2)
    rd.place(s, 0, "carrier", "C1a")
    rd.place(s, 0, "infantry", "C1a")
    rd.give(s, 0, "triumph")
    rd.do(s, "land C1a")
    assert s.vp[0] == 2 + 1 + 1  # tile, faction bonus, system
    assert s.score_breakdown()[0] == {"anomalies": 2, "faction bonus": 1, "systems": 1}
    rd.do(s, "play triumph")
    assert s.vp[0] == 5
    assert s.score_breakdown()[0] == {"anomalies": 2, "faction bonus": 1, "systems": 1,
                                      "OCC cards": 1}


def test_heuristic_game_ends_with_winners():
    """RD-WIN-01..07: a whole game between bots reaches a terminal state whose winners have
    the most VP."""
    from starlanes.games.rift_domination.heuristic import HeuristicAgent

    s = starlanes.load("rift-domination", players=2, seed=3, round_limit=12).new_initial_state()
    bots = [HeuristicAgent(1), HeuristicAgent(2)]
    for _ in range(20000):
        if s.is_terminal():
            break
        s.apply(bots[s.current_player()].act(s))
    assert s.is_terminal()
    # the game-over table's score by source adds up to each seat's VP
    assert [sum(by.values()) for by in s.score_breakdown()] == s.scores()
    best = max(s.vp)
    assert s.winners == [i for i, v in enumerate(s.vp) if v == best]
    assert sum(s.returns()) == pytest.approx(1.0)
