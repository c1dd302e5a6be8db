"""Analysis: tournaments between agents, win-rate statistics, ratings and plots.

``run_tournament`` plays a seat-balanced schedule of bot games (optionally in worker
processes); ``tournament_report`` turns the results into win rates with 95% confidence
intervals, per-seat and head-to-head figures, the first-seat advantage, mean game length and ratings.

The designer's lab: :mod:`.lab` plays seeded games noting what set-up gave each seat (through
each game's ``facts`` module) and builds the balance report, :mod:`.compare` the paired A/B
report, :mod:`.html` their self-contained HTML pages, and :mod:`.backends` plays games in
this process, a process pool or on Ray with the same results.
"""

from .ratings import rate_games
from .stats import (
    first_seat_advantage,
    head_to_head,
    seat_win_rates,
    wilson_interval,
    win_rates,
)
from .tournament import (
    DEFAULT_ACTION_CAP,
    RunInterrupted,
    WorkerFailure,
    play_game,
    run_tournament,
    seat_schedule,
    timed_tournament,
    tournament_report,
)

__all__ = [
    "DEFAULT_ACTION_CAP", "RunInterrupted", "WorkerFailure", "first_seat_advantage", "head_to_head", "play_game", "rate_games", "run_tournament",
    "seat_schedule", "seat_win_rates", "timed_tournament", "tournament_report",
    "wilson_interval", "win_rates",
]
