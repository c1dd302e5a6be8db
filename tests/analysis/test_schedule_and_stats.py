"""Seat rotation, Wilson intervals, first-seat advantage and ratings maths."""

from __future__ import annotations

from collections import Counter

import pytest

from starlanes.analysis import (
    first_seat_advantage,
    rate_games,
    seat_schedule,
    seat_win_rates,
    wilson_interval,
    win_rates,
)
from starlanes.analysis.ratings import ranks_of
from starlanes.analysis.stats import mean_length
from starlanes.engine import AgentSpecError


def row(agents: list[str], winners: list[int], scores: list[int] | None = None,
        rounds: int | None = 3, actions: int = 10) -> dict:
    return {"agents": agents, "winners": winners,
            "scores": scores if scores is not None else [0] * len(agents),
            "rounds": rounds, "actions": actions, "end_reason": "finished"}


# ---------------------------------------------------------------------- seating
@pytest.mark.parametrize(("k", "players", "games"),
                         [(2, 2, 2), (2, 2, 10), (3, 2, 6), (3, 2, 12), (3, 3, 6), (3, 3, 9),
                          (2, 4, 2), (2, 4, 6), (2, 3, 4), (4, 2, 12), (3, 6, 9)])
def test_every_agent_sits_in_every_seat_equally(k: int, players: int, games: int) -> None:
    agents = [f"agent{i}" for i in range(k)]
    schedule = seat_schedule(agents, players, games)
    assert len(schedule) == games
    assert all(len(seats) == players for seats in schedule)
    counts = Counter((a, s) for seats in schedule for s, a in enumerate(seats))
    expected = games * players // k // players
    assert {counts[(a, s)] for a in agents for s in range(players)} == {expected}


def test_seatings_are_fair_and_cover_every_line_up() -> None:
    # 3 agents, 2 seats: all six ordered pairs, each agent at most once per game
    schedule = seat_schedule(["a", "b", "c"], 2, 6)
    assert sorted(map(tuple, schedule)) == sorted(
        [("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")])
    # 2 agents, 4 seats: two seats each in every game
    for seats in seat_schedule(["a", "b"], 4, 6):
        assert Counter(seats) == {"a": 2, "b": 2}
    assert len({tuple(s) for s in seat_schedule(["a", "b"], 4, 6)}) == 6


def test_schedule_needs_agents() -> None:
    with pytest.raises(AgentSpecError):
        seat_schedule([], 2, 4)
    assert seat_schedule(["solo"], 3, 2) == [["solo"] * 3] * 2


# ---------------------------------------------------------------------- Wilson
@pytest.mark.parametrize(("wins", "n", "lo", "hi"), [
    (0, 10, 0.0, 0.27754),
    (5, 10, 0.23659, 0.76341),
    (8, 10, 0.49016, 0.94331),
    (10, 10, 0.72246, 1.0),
    (50, 100, 0.40383, 0.59617),
    (1, 2, 0.09453, 0.90547),
])
def test_wilson_interval_known_values(wins: float, n: int, lo: float, hi: float) -> None:
    got = wilson_interval(wins, n)
    assert got == pytest.approx((lo, hi), abs=1e-4)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(2.5, 5)  # fractional wins from shared victories
    assert lo == pytest.approx(1 - hi)
    with pytest.raises(ValueError):
        wilson_interval(6, 5)


# ---------------------------------------------------------------------- win rates
def test_win_rates_share_ties_and_count_seats() -> None:
    rows = [row(["a", "b"], [0]), row(["b", "a"], [0]), row(["a", "b"], [0, 1]),
            row(["b", "a"], [])]
    rates = win_rates(rows, ["a", "b"])
    assert rates["a"]["games"] == 4 and rates["a"]["wins"] == pytest.approx(1.5)
    assert rates["b"]["wins"] == pytest.approx(1.5)
    assert rates["a"]["rate"] == pytest.approx(0.375)
    lo, hi = rates["a"]["ci95"]
    assert lo < 0.375 < hi
    per_seat = seat_win_rates(rows, ["a", "b"])
    assert per_seat["a"]["0"]["wins"] == pytest.approx(1.5)
    assert per_seat["a"]["0"]["games"] == 2
    assert per_seat["a"]["1"]["wins"] == 0.0


def test_agent_in_two_seats_counts_two_seat_games() -> None:
    rates = win_rates([row(["a", "a", "b", "b"], [1])], ["a", "b"])
    assert rates["a"] == {**rates["a"], "wins": 1.0, "games": 2, "rate": 0.5}
    assert rates["b"]["rate"] == 0.0


def test_first_seat_advantage() -> None:
    # seat 0 wins 3 of 4 two-player games: 75% against a fair 50%
    rows = [row(["a", "b"], [0]), row(["b", "a"], [0]), row(["a", "b"], [0]),
            row(["b", "a"], [1])]
    first = first_seat_advantage(rows)
    assert first["wins"] == 3 and first["games"] == 4
    assert first["rate"] == 0.75 and first["fair"] == 0.5
    assert first["advantage"] == pytest.approx(0.25)
    assert first["ci95"] == pytest.approx(list(wilson_interval(3, 4)), abs=1e-6)
    assert first["significant"] is False
    assert first["seat_rates"] == [0.75, 0.25]
    # with 3 seats and seat 0 always winning, 60 games is significant
    many = [row(["a", "b", "c"], [0]) for _ in range(60)]
    first = first_seat_advantage(many)
    assert first["fair"] == pytest.approx(1 / 3)
    assert first["advantage"] == pytest.approx(2 / 3, abs=1e-6)
    assert first["significant"] is True


def test_mean_length() -> None:
    rows = [row(["a"], [0], rounds=2, actions=10), row(["a"], [0], rounds=4, actions=30)]
    assert mean_length(rows) == (3.0, 20.0)
    assert mean_length([row(["a"], [0], rounds=None)]) == (None, 10.0)


# ---------------------------------------------------------------------- ratings
def test_ranks_winners_first_then_score() -> None:
    assert ranks_of(row(["a", "b", "c"], [2], scores=[5, 7, 3])) == [3, 2, 1]
    assert ranks_of(row(["a", "b", "c"], [0, 1], scores=[5, 5, 9])) == [1, 1, 2]
    assert ranks_of(row(["a", "b", "c"], [], scores=[4, 4, 9])) == [2, 2, 1]


def test_the_agent_that_always_wins_rates_higher() -> None:
    schedule = seat_schedule(["strong", "weak"], 2, 20)
    rows = [row(seats, [seats.index("strong")]) for seats in schedule]
    ratings = rate_games(rows, ["strong", "weak"])
    assert ratings["strong"]["mu"] > 25 > ratings["weak"]["mu"]
    assert ratings["strong"]["ordinal"] > ratings["weak"]["ordinal"]
    assert ratings["strong"]["sigma"] < 25 / 3
    r = ratings["strong"]
    assert r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"], abs=1e-3)


def test_ratings_in_multi_seat_free_for_all() -> None:
    schedule = seat_schedule(["a", "b", "c"], 3, 30)
    rows = [row(seats, [seats.index("b")], scores=[seats.index(x) for x in seats])
            for seats in schedule]
    ratings = rate_games(rows, ["a", "b", "c"])
    assert max(ratings, key=lambda x: ratings[x]["mu"]) == "b"
    # an agent in two seats of one game is rated once per game
    ratings = rate_games([row(["a", "a", "b", "b"], [0], scores=[9, 5, 4, 1])] * 5, ["a", "b"])
    assert ratings["a"]["mu"] > ratings["b"]["mu"]


def test_head_to_head_counts_only_games_with_both_agents() -> None:
    from starlanes.analysis.stats import head_to_head

    rows = [row(["a", "b"], [0]), row(["b", "a"], [0]), row(["a", "c"], [0]),
            row(["c", "b"], []), row(["b", "c"], [0, 1])]
    h = head_to_head(rows, ["a", "b", "c"])
    assert h["a"]["b"]["games"] == 2 and h["a"]["b"]["wins"] == 1
    assert h["a"]["c"] == {"wins": 1, "games": 1, "rate": 1.0, "ci95": list(h["a"]["c"]["ci95"])}
    assert h["b"]["c"]["wins"] == 0.5 and h["b"]["c"]["games"] == 2  # no winner, then a tie
    assert h["c"]["b"]["wins"] == 0.5
    assert "a" not in h["a"]
