"""The terminal table through the real ``starlanes`` entry point (piped input): legends
under the boards, forced single options taken automatically, ``why``, ``? N`` and
``info``, watch mode, Ctrl-C leaving a loadable save, ``play --load FILE`` without a game
id, and ``replay --step`` as a spectator."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from starlanes.engine import GameRecord
from tests.test_cli import COMMAND, run

RD = "rift-domination"
GD = "galactic-domination"


def _ones(n: int) -> str:
    return "1\n" * n


def test_legend_and_forced_option_in_rift_domination() -> None:
    """The board has a legend; the free fighters of the first turn have one legal place
    (RD-TURN-05: one fleet, one base), so they are placed without asking."""
    proc = run("play", RD, "--seats", "human,random", "--seed", "5", "-o", "round_limit=1",
               stdin=_ones(20) + "quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "Legend:" in proc.stdout and "(l) landed on it" in proc.stdout
    assert "(you): fighters" in proc.stdout
    assert "(the only legal action)" in proc.stdout


def test_confirm_forced_asks_even_for_one_option() -> None:
    proc = run("play", RD, "--seats", "human,random", "--seed", "5", "-o", "round_limit=1",
               "--confirm-forced", stdin=_ones(20) + "quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "(the only legal action)" not in proc.stdout
    assert "(you): fighters" in proc.stdout


def test_why_explain_and_info() -> None:
    """A refused word gets its reason at once and in full with why; ? N explains an action
    with its rule IDs; info shows a planet on the table."""
    script = "\n".join(["frob", "why", "? 1", "info A1a", "quit"]) + "\n"
    proc = run("play", RD, "--seats", "human,random", "--seed", "5", stdin=script)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "'frob' is not a Rift Domination action" in out
    assert "was refused (unknown_token)" in out and "nearest legal actions" in out
    assert "rules: RD-SET-01" in out and "starlanes rules rift-domination RD-SET" in out
    assert "planet A1a on the table" in out


def test_galactic_domination_board_and_ship_info() -> None:
    """Galactic Domination: legend, players by colour, a ship found by its number."""
    script = "\n".join(["info 1", "? 1", "quit"]) + "\n"
    proc = run("play", GD, "--seats", "human,random", "--seed", "2", stdin=script)
    assert proc.returncode == 0, proc.stderr
    assert "Legend:" in proc.stdout and "red (P0)" in proc.stdout
    assert "rules: GD-SET-03" in proc.stdout


def test_grouped_actions_with_costs_and_typed_prefix() -> None:
    """Actions are grouped under a header per kind with their costs; a typed unambiguous
    prefix in any case is taken (18 decisions of the standard board's set-up and first turn
    lead to the build step)."""
    proc = run("play", RD, "--seats", "human,random", "--seed", "5", "-o", "round_limit=1",
               stdin=_ones(18) + "DON\n" + "quit\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert " build (" in out and " turn (1)" in out and "resources)" in out
    assert "(you): done" in out


def test_wrong_player_count_message() -> None:
    proc = run("play", GD, "--players", "3", "--seats", "human")
    assert proc.returncode == 2 and "played by exactly 2 players" in proc.stderr


def test_watch_mode_draws_each_move(tmp_path: Path) -> None:
    """Bots only: with a delay each move is drawn with the board; with --delay 0 only the
    moves are printed and the board once at the end."""
    paced = run("play", RD, "--seats", "random,random", "--seed", "3", "-o", "round_limit=1",
                "--delay", "0.001")
    assert paced.returncode == 0, paced.stderr
    assert paced.stdout.count("Legend:") > 20 and "Game over" in paced.stdout
    quick = run("play", RD, "--seats", "random,random", "--seed", "3", "-o", "round_limit=1",
                "--delay", "0")
    assert quick.returncode == 0 and quick.stdout.count("Legend:") == 1
    assert run("play", RD, "--seats", "random,random", "--delay", "soon").returncode == 2


def test_ctrl_c_saves_and_load_needs_no_game_id(tmp_path: Path) -> None:
    """SIGINT at the prompt writes the autosave, says where, and exits 130; the save
    verifies and resumes with play --load FILE alone."""
    data = tmp_path / "data"
    env = dict(os.environ, COLUMNS="120", NO_COLOR="1", STARLANES_DATA_DIR=str(data))
    proc = subprocess.Popen(
        [*COMMAND, "play", RD, "--seats", "human,random", "--seed", "9", "-o",
         "round_limit=1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdin is not None
    proc.stdin.write("1\n1\n")
    proc.stdin.flush()
    save = data / "autosave" / f"{RD}-seed9.json"
    deadline = time.time() + 30
    while time.time() < deadline and not (save.exists() and
                                          len(GameRecord.load(save).actions) >= 3):
        time.sleep(0.2)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    _out, errs = proc.communicate(timeout=30)
    assert proc.returncode == 130, errs
    assert f"game saved to {save}" in errs
    record = GameRecord.load(save)
    assert record.seats == ["human", "random"] and len(record.actions) >= 3
    assert run("replay", str(save), "--verify").returncode == 0
    resumed = run("play", "--load", str(save), "--seats", "random,random", "--delay", "0")
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed rift-domination" in resumed.stdout and "Game over" in resumed.stdout


def test_replay_step_labels_nobody_you(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("play", RD, "--seats", "random,random", "--seed", "2", "-o", "round_limit=1",
        "--save", str(save))
    proc = run("replay", str(save), "--step", stdin="\n\nq\n")
    assert proc.returncode == 0, proc.stderr
    assert "(you)" not in proc.stdout and "Legend:" in proc.stdout


def test_replay_step_labels_nobody_you_in_every_game(tmp_path: Path) -> None:
    """Interstellar Ambitions and Galactic Empires draw a replay for an onlooker too: no
    "(you)" and no "your hand", while a seated player's board names its own seat."""
    for game, players in (("interstellar-ambitions", "3"), ("galactic-empires", "2")):
        save = tmp_path / f"{game}.json"
        seats = ",".join(["random"] * int(players))
        saved = run("play", game, "--players", players, "--seats", seats, "--seed", "2",
                    "--delay", "0", "--save", str(save))
        assert saved.returncode == 0, saved.stderr
        proc = run("replay", str(save), "--step", stdin="\n\nq\n")
        assert proc.returncode == 0, proc.stderr
        assert "Legend:" in proc.stdout
        assert "(you)" not in proc.stdout and "your" not in proc.stdout.lower(), game
        seated = run("play", game, "--players", players, "--seats", "human," +
                     ",".join(["random"] * (int(players) - 1)), "--seed", "2",
                     stdin="quit\n")
        assert "(you)" in seated.stdout, game
