"""Tournaments: reproducibility under a seed with any number of workers, and the
``starlanes tournament`` command through its real entry point."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from starlanes.analysis import run_tournament, timed_tournament

REPORT_KEYS = {"game", "players", "games", "seed", "agents", "ratings", "win_rate",
               "seat_win_rate", "first_seat", "mean_rounds", "mean_actions", "results",
               "wall_s"}
RESULT_KEYS = {"seed", "agents", "winners", "scores", "end_reason", "rounds", "actions",
               "digest"}


def _command() -> list[str]:
    found = shutil.which("starlanes")
    if found:
        return [found]
    sibling = Path(sys.executable).with_name("starlanes")
    if sibling.exists():
        return [str(sibling)]
    return [sys.executable, "-m", "starlanes.cli"]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    return subprocess.run([*_command(), *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=cwd)


# ---------------------------------------------------------------------- reproducibility
@pytest.mark.parametrize(("game", "options"), [
    ("galactic-domination", {}),
    ("rift-domination", {"round_limit": "4"}),
])
def test_same_seed_same_results_with_one_or_two_workers(game: str, options: dict) -> None:
    agents = ["random", "heuristic"]
    one = run_tournament(game, agents, 2, 6, seed=11, options=options, workers=1,
                         progress=False)
    two = run_tournament(game, agents, 2, 6, seed=11, options=options, workers=2,
                         progress=False)
    assert one == two
    assert len(one) == 6
    other = run_tournament(game, agents, 2, 6, seed=12, options=options, progress=False)
    assert [r["digest"] for r in other] != [r["digest"] for r in one]


def test_results_follow_the_schedule_and_seeds() -> None:
    rows = run_tournament("galactic-domination", ["random", "heuristic"], 2, 4, seed=3,
                          progress=False)
    assert [r["agents"] for r in rows] == [["random", "heuristic"], ["heuristic", "random"]] * 2
    assert len({r["seed"] for r in rows}) == 4
    for r in rows:
        assert set(r) == RESULT_KEYS


def test_action_cap_stops_games_without_winners() -> None:
    report = timed_tournament("galactic-domination", ["random"], 2, 2, seed=1,
                              action_cap=5, progress=False)
    assert report["capped"] == 2
    assert all(r["end_reason"] == "action_cap" and r["winners"] == []
               for r in report["results"])
    assert report["win_rate"]["random"] == {**report["win_rate"]["random"], "wins": 0.0,
                                            "games": 4}


# ---------------------------------------------------------------------- CLI
def test_tournament_json_and_plot_end_to_end(tmp_path: Path) -> None:
    proc = run("tournament", "rift-domination", "--agents", "random,heuristic", "--games",
               "4", "--players", "2", "--json", "--plot", "x.png", "-o", "round_limit=6",
               cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert set(report) >= REPORT_KEYS
    assert report["game"] == "rift-domination" and report["players"] == 2
    assert report["games"] == 4 and report["agents"] == ["random", "heuristic"]
    assert len(report["results"]) == 4
    for agent in ("random", "heuristic"):
        assert set(report["ratings"][agent]) == {"mu", "sigma", "ordinal"}
        assert set(report["win_rate"][agent]) == {"wins", "games", "rate", "ci95"}
        assert set(report["seat_win_rate"][agent]) == {"0", "1"}
        lo, hi = report["win_rate"][agent]["ci95"]
        assert 0.0 <= lo <= report["win_rate"][agent]["rate"] <= hi <= 1.0
    seats = Counter(r["agents"][0] for r in report["results"])
    assert seats == {"random": 2, "heuristic": 2}
    assert {"rate", "ci95", "fair", "advantage"} <= set(report["first_seat"])
    duel = report["head_to_head"]
    assert duel["random"]["heuristic"]["games"] == 4
    assert duel["random"]["heuristic"]["wins"] + duel["heuristic"]["random"]["wins"] == 4
    assert report["mean_actions"] > 0
    png = (tmp_path / "x.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and report["plot"] == "x.png"


def test_tournament_tables_with_workers(tmp_path: Path) -> None:
    proc = run("tournament", "galactic-domination", "--agents", "random,heuristic,mcts:"
               "iterations=3,depth=2", "--games", "6", "--seed", "2", "--workers", "2",
               cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    for text in ("ratings", "win rate", "95%", "first-seat advantage", "mean actions",
                 "head to head", "heuristic", "random", "plot written to"):
        assert text in proc.stdout
    assert "6/6" in proc.stderr  # the progress bar
    png = tmp_path / "galactic-domination-ratings.png"  # the default plot
    assert png.read_bytes().startswith(b"\x89PNG")


def test_agent_specs_keep_their_parameters(tmp_path: Path) -> None:
    proc = run("tournament", "galactic-domination", "--agents",
               "mcts:iterations=2,depth=2,mcts:iterations=3,depth=2", "--games", "2",
               "--json", "-o", "turn_limit=2", "--no-plot", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert not list(tmp_path.iterdir())  # --no-plot writes nothing
    report = json.loads(proc.stdout)
    assert "plot" not in report
    assert report["agents"] == ["mcts:iterations=2,depth=2", "mcts:iterations=3,depth=2"]
    assert set(report["ratings"]) == set(report["agents"])


@pytest.mark.parametrize(("args", "message"), [
    (("--agents", "random,bogus"), "unknown agent"),
    (("--agents", "random,random"), "named twice"),
    (("--agents", "mcts:speed=3"), "no parameter"),
    (("--agents", "random", "--players", "9"), ""),
    (("--agents", "random,heuristic", "--plot", "x.png", "--no-plot"), "contradict"),
])
def test_bad_input_exits_2(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    proc = run("tournament", "rift-domination", "--games", "2", *args, cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert message in proc.stderr
    assert proc.stdout == ""


# ---------------------------------------------------------------------- faults
_REAL_JOB = None


def _dies_once(job):
    """A worker job that kills its own process the first time game 1 is played."""
    import starlanes.analysis.tournament as t

    marker = Path(os.environ["STARLANES_TEST_MARKER"])
    if job[0] == 1 and not marker.exists():
        marker.write_text("died")
        os._exit(9)
    return t._REAL_PLAY_JOB(job)


def test_a_dead_worker_is_replaced_and_the_run_gives_the_same_results(tmp_path, monkeypatch):
    import starlanes.analysis.tournament as t

    expected = run_tournament("galactic-domination", ["random", "heuristic"], 2, 4, seed=3,
                              workers=1, progress=False)
    monkeypatch.setenv("STARLANES_TEST_MARKER", str(tmp_path / "marker"))
    monkeypatch.setattr(t, "_REAL_PLAY_JOB", t._play_job, raising=False)
    monkeypatch.setattr(t, "_play_job", _dies_once)
    rows = run_tournament("galactic-domination", ["random", "heuristic"], 2, 4, seed=3,
                          workers=2, progress=False)
    assert (tmp_path / "marker").exists()  # a worker really died
    assert [r["digest"] for r in rows] == [r["digest"] for r in expected]


def test_bad_output_paths_fail_before_any_game(tmp_path):
    r = run("tournament", "galactic-domination", "--agents", "random,heuristic",
            "--games", "2", "--plot", str(tmp_path / "missing" / "r.png"))
    assert r.returncode == 2
    assert "does not exist" in r.stderr and "Traceback" not in r.stderr
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = run("simulate", "galactic-domination", "--games", "1",
            "--save-records", str(blocker / "records"))
    assert r.returncode == 2 and "cannot be created" in r.stderr


def _children(pid: int) -> list[int]:
    """Live child processes of ``pid`` (Linux /proc; [] elsewhere)."""
    from pathlib import Path

    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def test_ctrl_c_stops_a_worker_run_promptly_and_reports_finished_games(tmp_path):
    import signal
    import time

    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    proc = subprocess.Popen(
        [*_command(), "tournament", "rift-domination", "--agents", "heuristic,random",
         "--players", "4", "--games", "20000", "--workers", "2", "--json", "--no-plot"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
        # a test run started in the background inherits an ignored SIGINT: restore Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # wait for the run to start (its worker processes), however slow the machine is today;
    # the progress bar is no sign: without a terminal it is drawn only at the end
    deadline = time.monotonic() + 120
    while not _children(proc.pid) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    time.sleep(3)
    seen = b""
    proc.send_signal(signal.SIGINT)
    stdout, rest = proc.communicate(timeout=60)
    stderr = seen.decode(errors="replace") + rest
    assert proc.returncode == 130
    assert "Traceback" not in stderr and "interrupted" in stderr
    if stdout.strip():
        report = json.loads(stdout)
        assert report["interrupted"] is True and report["games"] == len(report["results"])
