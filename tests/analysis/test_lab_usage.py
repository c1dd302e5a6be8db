"""The mechanism report counts exactly what a recorded game contains (issue 29).

Each game has a golden record in ``tests/analysis/data/usage/`` (a seeded heuristic-against-
random game). The expected numbers below were counted by hand from the record and its
replayed log, independently of the lab's code: the action lines with
``grep '^recruit' | awk '{print $2}' | sort | uniq -c`` and the like, the score sources from
the log's ``+N VP (reason)`` lines (Rift Domination), ``Sector HQ of Pn takes N`` lines and
the line before each (Galactic Empires), the observation's ship list times each kind's cost
(Galactic Domination) and the scoring breakdown (Interstellar Ambitions). If a rules or
content change makes a record stop replaying, regenerate it and count again by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from starlanes.analysis.lab import lab_jobs
from starlanes.analysis.tournament import play_game
from starlanes.analysis.usage import record_usage, usage_game, usage_report
from starlanes.engine import GameRecord, RecordError, replay
from tests.test_cli import COMMAND, run

DATA = Path(__file__).parent / "data" / "usage"


def _record(game: str) -> GameRecord:
    return GameRecord.load(DATA / f"{game}.json")


def _totals(usage: dict, key: str = "uses") -> dict[str, dict[str, int]]:
    """Counts summed over the seats."""
    out: dict[str, dict[str, int]] = {}
    for per_seat in usage[key]:
        for category, entries in per_seat.items():
            for entry, n in entries.items():
                out.setdefault(category, {})[entry] = out.get(category, {}).get(entry, 0) + n
    return out


def test_rift_domination_golden_game_counts() -> None:
    u = record_usage(_record("rift-domination"))
    t = _totals(u)
    assert t["unit recruited"] == {"carrier": 6, "corvette": 2, "fighter": 2, "flagship": 3,
                                   "infantry": 20, "kamikaze_drone": 2, "sentinel": 4}
    assert t["unit unlocked"] == {"flagship": 2, "sentinel": 1}
    # 19 build actions (the Prefab Station's upgrade is part of its play action)
    assert t["upgrade built"] == {"artillery": 3, "military_base": 5, "mine": 6,
                                  "shield_generator": 3, "trading_outpost": 1, "warp": 1}
    assert t["upgrade demolished"] == {"artillery": 1, "military_base": 5, "mine": 3,
                                       "shield_generator": 1}
    assert sum(t["card played"].values()) == 21
    assert t["card played"]["hyperdrive_boost"] == 3
    assert t["card played"]["piracy"] == 3
    assert t["card played"]["ambush"] == 1
    assert t["special used"] == {"ambush": 1}
    # VP by source, from the log's "+N VP (reason)" lines: 11 and 2 VP
    assert u["sources"] == [
        {"system control": 2, "huge planet": 8, "OCC-card": 1},
        {"system control": 1, "OCC-card": 1}]
    decisions = _totals(u, "decisions")
    assert sum(sum(d.values()) for d in decisions.values()) == 307  # every action once
    assert decisions["recruit"]["recruit"] == 39
    assert decisions["turn_start/fighters"] == {"fighters": 14}


def test_galactic_domination_golden_game_counts() -> None:
    u = record_usage(_record("galactic-domination"))
    t = _totals(u)
    assert t["ship built"] == {"destroyer": 2, "miner": 2, "raider": 3}
    assert t["ship placed"] == {k: 4 for k in ("command", "destroyer", "explorer", "miner",
                                               "raider")}
    assert t["special used"] == {"arrive": 2, "attach": 4, "black hole charge": 1,
                                 "black hole fire": 1, "warp": 8}
    # P0 keeps 4 raiders (7), 4 destroyers (10), 4 miners (4), 2 command ships (14) and 2
    # explorers (6): 124 minerals; P1 has no ship left
    assert u["sources"] == [{"raider": 28, "destroyer": 40, "command": 28, "explorer": 12,
                             "miner": 16}, {}]


def test_interstellar_ambitions_golden_game_counts() -> None:
    u = record_usage(_record("interstellar-ambitions"))
    t = _totals(u)
    assert t["ship built"] == {"battleship": 4, "cruiser": 1, "destroyer": 1}
    assert t["ambition claimed"] == {"armada": 1, "crown_world": 2, "decorated": 1,
                                     "tech_thief": 1, "terraformer": 1}
    assert t["tech researched"] == {"prefab_habitats": 1, "siege_engines": 1,
                                    "mind_readers": 1}
    assert t["starting tech"] == {"deep_core_mining": 1, "hydroponics": 1, "trade_guilds": 1}
    assert sum(t["planet colonised"].values()) == 7
    assert sum(t["planet developed"].values()) == 8
    assert t["shadow card played"] == {"exchange_plans": 1, "planetary_plague": 1,
                                       "red_tape": 1, "shredded_plans": 1}
    assert t["action taken"]["develop:basic"] == 10
    assert t["action taken"]["colonise:basic"] == 9
    # 28 take and 49 advance lines, two of them resources (take ore, take food)
    assert sum(t["action taken"].values()) == 75
    assert t["special used"] == {"produce": 11, "exchange": 12, "invade": 2, "oppose": 2,
                                 "repair": 2}
    assert [sum(s.values()) for s in u["sources"]] == [29, 14, 80]
    assert u["sources"][2] == {"planets": 21, "set_bonus": 0, "techs": 4, "ships": 4,
                               "medals": 3, "ambitions": 48}


def test_galactic_empires_golden_game_counts() -> None:
    u = record_usage(_record("galactic-empires"))
    t = _totals(u)
    assert sum(t["card played"].values()) == 30
    assert t["card played"]["agri_colony"] == 2
    assert t["card type played"] == {"crew": 2, "dragon": 1, "equipment": 3, "monster": 1,
                                     "occurrence": 3, "sector hq card": 2, "ship": 6,
                                     "terrain": 12}
    assert t["card discarded"] == {"krb_capsule_shield": 1, "re_evasive": 1}
    assert t["special used"] == {"scuttle": 9, "study": 2, "swap": 2}
    # P1's HQ: fire 4 + 6 + 6 + 6 + 7 and hq_saboteurs 2; P0's: hq_orbital_strike 3
    assert u["sources"] == [{"card": 3}, {"fire": 29, "card": 2}]


def test_played_and_recorded_counts_agree() -> None:
    """Counting while the lab plays a game gives what counting its record gives."""
    for game, n in (("galactic-domination", 2), ("interstellar-ambitions", 3)):
        job = lab_jobs(game, ["heuristic", "random"], n, 1, 7, {})[0]
        _, row = usage_game(job)
        state, _ = play_game(*job[1:])
        assert record_usage(state.record()) == row["usage"]


def test_report_by_agent_intervals_and_unused() -> None:
    rows = [usage_game(j)[1] for j in lab_jobs("galactic-domination", ["heuristic", "random"],
                                               2, 4, 3, {})]
    r = usage_report("galactic-domination", rows)
    assert r["games"] == 4 and r["score_label"].startswith("fleet value")
    miner = r["uses"]["ship placed"]["miner"]
    assert miner["games"] == 4 and miner["game_share"] == 1.0
    assert miner["ci95"][0] < 1.0 and miner["ci95"][1] == 1.0  # Wilson at 4 of 4
    assert set(miner["by_agent"]) == {"heuristic", "random"}
    assert miner["by_agent"]["heuristic"]["seat_games"] == 4
    # an entry of the catalogue nobody used is listed with zero uses
    for category, names in r["unused"].items():
        for name in names:
            assert r["uses"][category][name]["total"] == 0
    shares = r["sources"]["all"]
    assert abs(sum(s["share"] for s in shares.values()) - 1) < 1e-3
    for s in shares.values():
        assert s["ci95"][0] <= s["share"] <= s["ci95"][1]
    for options in r["decisions"].values():
        assert abs(sum(o["share"] for o in options.values()) - 1) < 1e-3


def test_report_refuses_rows_without_counts() -> None:
    job = lab_jobs("galactic-domination", ["random"], 2, 1, 0, {})[0]
    state, row = play_game(*job[1:])
    with pytest.raises(ValueError, match="usage"):
        usage_report("galactic-domination", [row])


def test_interstellar_ambitions_rounds_at_the_round_limit() -> None:
    """A game ended by the round limit reports the rounds played, not the counter that
    moved past the limit (issue 28)."""
    state, row = play_game("interstellar-ambitions", 3, 0, {"round_limit": "2"},
                           ["heuristic"] * 3, [1, 2, 3])
    assert row["end_reason"] == "round_limit"
    assert state.round == 3 and row["rounds"] == 2


def test_balance_usage_cli_json(tmp_path: Path) -> None:
    """A real run: its stdout is one JSON object and nothing else."""
    page = tmp_path / "report.html"
    proc = run("balance", "galactic-domination", "--games", "2", "--agents",
               "heuristic,random", "--usage", "--json", "--html", str(page), timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["usage"]["games"] == 2
    assert "ship built" in report["usage"]["uses"]
    text = page.read_text()
    assert "mechanisms used" in text and "fleet value" in text


def test_usage_and_sweep_refused() -> None:
    proc = run("balance", "galactic-domination", "--games", "2", "--usage", "--sweep",
               "turn_limit=5,6", "--no-html", timeout=120)
    assert proc.returncode != 0
    assert "--sweep and --usage" in proc.stderr and not proc.stdout


def test_record_that_does_not_replay_is_refused() -> None:
    record = _record("galactic-domination")
    bad = record.model_copy(update={"actions": [*record.actions[:3], "warp Z9"]})
    with pytest.raises(RecordError, match="action 4"):
        record_usage(bad, verify=False)
    assert replay(record).is_terminal()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_json_stdout_holds_only_the_report(workers: str) -> None:
    """Issue 28: whatever prints to stdout while games run (here an agent, at the Python and
    the file-descriptor level, in this process or in worker processes) goes to stderr; the
    stdout of a real run parses as one JSON object."""
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root), NO_COLOR="1")
    proc = subprocess.run([*COMMAND, "balance", "galactic-domination", "--games", "2",
                           "--agents", "tests.analysis.noisy_agent:NoisyAgent", "--workers",
                           workers, "--json", "--no-html"], capture_output=True, text=True,
                          timeout=120, env=env, cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == 2
    assert "library warning" in proc.stderr and "C-level warning" in proc.stderr


def test_time_budgeted_agents_are_flagged() -> None:
    """Issue 28: an agent that searches against the clock makes a run depend on load and
    worker count; the lab says so (and iteration budgets raise nothing)."""
    from starlanes.analysis.backends import time_budget_warning

    assert time_budget_warning(["heuristic", "mcts:iterations=10"], "galactic-domination") \
        is None
    text = time_budget_warning(["mcts:seconds=0.01", "heuristic"], "galactic-domination")
    assert text is not None and "mcts:seconds=0.01" in text and "iterations=N" in text
    proc = run("simulate", "galactic-domination", "--games", "1", "--agents",
               "mcts:seconds=0.001", "--action-cap", "40", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "against the clock" in proc.stderr


def test_score_share_interval_ignores_games_without_points() -> None:
    """An agent that scored nothing in some games: resamples without points draw no share,
    so the interval still holds the observed share instead of running down to zero."""
    import random

    from starlanes.analysis.usage import _bootstrap_shares

    games = [{}, {}, {"raider": 14, "miner": 4}, {}]
    shares = _bootstrap_shares(games, random.Random(0))
    assert shares["raider"]["share"] == pytest.approx(14 / 18, abs=1e-4)
    assert shares["raider"]["ci95"] == [pytest.approx(14 / 18, abs=1e-4)] * 2
