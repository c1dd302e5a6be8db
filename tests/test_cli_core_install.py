"""The commands on the core install (no ``plot`` extra): the lab and tournament reports
work without matplotlib and say in one line how to get the charts; a chart asked for by
name is refused before any game with the install line; every command that takes a game
lists the games in its --help."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from starlanes.cli.app import GAME_IDS, ODDS_GAMES
from starlanes.engine import game_ids

NO_MATPLOTLIB = ("import sys; sys.modules['matplotlib'] = None\n"
                 "from starlanes.cli import main\n"
                 "sys.argv = ['starlanes'] + sys.argv[1:]\n"
                 "main()\n")
INSTALL = 'pip install "starlanes[plot]"'


def core(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``starlanes ARGS`` in a process where matplotlib cannot be imported."""
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    return subprocess.run([sys.executable, "-c", NO_MATPLOTLIB, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_balance_writes_its_report_with_tables_only(tmp_path: Path) -> None:
    proc = core("balance", "galactic-domination", "--games", "2", "-o", "turn_limit=3",
                cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "galactic-domination-balance.html").read_text(encoding="utf-8")
    assert "<table>" in page and "data:image/png" not in page
    assert "plots need matplotlib" in page
    notes = [line for line in proc.stdout.splitlines() if line.startswith("note:")]
    assert notes == [f"note: the report has its tables only; its plots need matplotlib: "
                     f"{INSTALL}"]


def test_compare_writes_its_report_with_tables_only(tmp_path: Path) -> None:
    proc = core("compare", "galactic-domination", "--games", "2", "--b", "turn_limit=3",
                "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("{")
    assert (tmp_path / "galactic-domination-compare.html").exists()
    assert INSTALL in proc.stderr


def test_tournament_reports_without_its_plot(tmp_path: Path) -> None:
    proc = core("tournament", "galactic-domination", "--agents", "random,heuristic",
                "--games", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "win rate" in proc.stdout.lower()
    assert f"note: no ratings plot: it needs matplotlib: {INSTALL}" in proc.stdout
    assert not list(tmp_path.glob("*.png"))


@pytest.mark.parametrize("args, flag", [
    (("tournament", "galactic-domination", "--agents", "random,heuristic", "--games", "2",
      "--plot", "r.png"), "--plot"),
    (("odds", "rift-domination", "--attacker", "fighter", "--defender", "fighter",
      "--chart", "c.png"), "--chart"),
])
def test_a_chart_asked_for_is_refused_at_once(args: tuple[str, ...], flag: str,
                                             tmp_path: Path) -> None:
    proc = core(*args, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"error: {flag} draws a chart, which needs matplotlib: "
                                   f"{INSTALL} (or leave {flag} out)")
    assert "--no-html" not in proc.stderr
    assert not list(tmp_path.iterdir())


def test_the_listed_games_are_the_registered_games() -> None:
    assert sorted(GAME_IDS) == game_ids()
    assert set(ODDS_GAMES) <= set(GAME_IDS)


@pytest.mark.parametrize("command", ["games", "rules", "cards", "play", "simulate",
                                     "tournament", "balance", "compare", "ladder", "odds"])
def test_every_help_lists_the_games_it_takes(command: str) -> None:
    from typer.testing import CliRunner

    from starlanes.cli import app

    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    text = re.sub(r"-\s+", "-", " ".join(result.output.split()))  # ids wrapped at '-'
    takes = ODDS_GAMES if command == "odds" else GAME_IDS
    for game in GAME_IDS:
        assert (game in text) is (game in takes), (command, game)
