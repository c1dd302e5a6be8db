"""The ``starlanes`` command through its real entry point."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from starlanes.cli import seat_agents, split_list
from starlanes.engine import AgentSpecError, GameRecord

GAME = "rift-domination"
REPORT_KEYS = {"game", "players", "games", "seed", "agents", "results", "wall_s",
               "actions_per_s", "options", "content_fingerprint", "starlanes_version"}
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


COMMAND = _command()


def run(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    return subprocess.run([*COMMAND, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=env)


def simulate_json(*extra: str) -> dict:
    proc = run("simulate", GAME, "--players", "3", "--games", "3", "--seed", "5",
               "--json", *extra)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# ---------------------------------------------------------------------- games
def test_games_lists_rift_domination() -> None:
    proc = run("games")
    assert proc.returncode == 0, proc.stderr
    assert "rift-domination" in proc.stdout
    assert "2-6" in proc.stdout
    assert "Rift Domination" in proc.stdout


def test_help_on_every_command() -> None:
    for cmd in ("games", "play", "simulate", "replay"):
        proc = run(cmd, "--help")
        assert proc.returncode == 0, proc.stderr
        assert "Usage" in proc.stdout


# ---------------------------------------------------------------------- simulate
def test_simulate_json_is_one_object_with_every_key() -> None:
    report = simulate_json("-o", "round_limit=4")
    assert set(report) == REPORT_KEYS
    assert report["game"] == GAME and report["players"] == 3 and report["games"] == 3
    assert report["agents"] == ["random"]
    assert len(report["results"]) == 3
    for r in report["results"]:
        assert set(r) == RESULT_KEYS
        assert r["agents"] == ["random"] * 3
        assert len(r["scores"]) == 3
        assert all(0 <= w < 3 for w in r["winners"])
        assert r["actions"] > 0 and isinstance(r["digest"], str)
        assert isinstance(r["end_reason"], str) and r["end_reason"] != "action_cap"
        assert isinstance(r["rounds"], int)
    assert report["actions_per_s"] > 0


def test_simulate_is_deterministic() -> None:
    a = simulate_json("-o", "round_limit=4")
    b = simulate_json("-o", "round_limit=4")
    assert [r["digest"] for r in a["results"]] == [r["digest"] for r in b["results"]]
    assert [r["seed"] for r in a["results"]] == [r["seed"] for r in b["results"]]
    c = simulate_json("-o", "round_limit=4", "--agents", "random,random")
    assert c["agents"] == ["random", "random"]


def test_simulate_action_cap() -> None:
    proc = run("simulate", GAME, "--games", "1", "--json", "--action-cap", "5")
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)["results"][0]
    assert r["end_reason"] == "action_cap" and r["actions"] == 5 and r["winners"] == []


def test_simulate_summary_table() -> None:
    proc = run("simulate", GAME, "--players", "2", "--games", "2", "-o", "round_limit=3")
    assert proc.returncode == 0, proc.stderr
    assert "win rate" in proc.stdout and "random" in proc.stdout
    assert "actions/s" in proc.stdout


def test_save_records_then_verify(tmp_path: Path) -> None:
    records = tmp_path / "records"
    report = simulate_json("-o", "round_limit=3", "--save-records", str(records))
    files = sorted(records.glob("*.json"))
    assert len(files) == 3
    rec = GameRecord.load(files[0])
    assert rec.digest == report["results"][0]["digest"]
    assert rec.seats == report["results"][0]["agents"]
    ok = run("replay", str(files[0]), "--verify")
    assert ok.returncode == 0, ok.stderr
    assert "ok" in ok.stdout

    tampered = tmp_path / "tampered.json"
    data = json.loads(files[1].read_text())
    data["digest"] = "0" * 16
    tampered.write_text(json.dumps(data))
    bad = run("replay", str(tampered), "--verify")
    assert bad.returncode == 1
    assert "error:" in bad.stderr and "digest" in bad.stderr

    data = json.loads(files[1].read_text())
    data["actions"][3] = "fly to the moon"
    tampered.write_text(json.dumps(data))
    bad = run("replay", str(tampered), "--verify")
    assert bad.returncode == 1
    assert "does not replay" in bad.stderr

    log = run("replay", str(files[2]))
    assert log.returncode == 0, log.stderr
    assert "Game over" in log.stdout


def test_replay_step_stops_on_q(tmp_path: Path) -> None:
    records = tmp_path / "r"
    simulate_json("-o", "round_limit=2", "--save-records", str(records))
    first = sorted(records.glob("*.json"))[0]
    proc = run("replay", str(first), "--step", stdin="\n\nq\n")
    assert proc.returncode == 0, proc.stderr
    assert "action 3/" in proc.stdout and "action 4/" not in proc.stdout


# ---------------------------------------------------------------------- user errors
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("simulate", "no-such-game"), "unknown game 'no-such-game'"),
        (("play", "no-such-game"), "unknown game"),
        (("simulate", GAME, "-o", "warp_speed=9"), "unknown option 'warp_speed'"),
        (("simulate", GAME, "-o", "round_limit=many"), "wants an integer"),
        (("simulate", GAME, "-o", "round_limit"), "key=value"),
        (("simulate", GAME, "--players", "9"), "2-6 players"),
        (("simulate", GAME, "--agents", "alphazero"), "unknown agent 'alphazero'"),
        (("simulate", GAME, "--agents", "random:depth=2"), "no parameter 'depth'"),
        (("simulate", GAME, "--agents", "mcts:iterations=lots"), "not a valid number"),
        (("simulate", GAME, "--agents", "mcts:rollout=psychic"), "rollout must be"),
        (("simulate", GAME, "--players", "2", "--agents", "random,random,random"),
         "3 agents named for 2 seats"),
        (("simulate", GAME, "--content", "/no/such/dir"), "does not exist"),
        (("play", GAME, "--seats", "human,wizard"), "unknown agent 'wizard'"),
        (("replay", "/no/such/record.json"), "cannot read record"),
    ],
)
def test_user_errors_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert lines[-1].startswith("error: ")
    assert message in proc.stderr


def test_bad_content_file_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / "units.toml").write_text("this is = = not toml")
    proc = run("simulate", GAME, "--games", "1", "--content", str(tmp_path))
    assert proc.returncode == 2
    assert "error:" in proc.stderr and "units.toml" in proc.stderr
    assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------------- play
def test_play_bots_only_runs_to_the_end(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    proc = run("play", GAME, "--seats", "random,random", "--seed", "4",
               "-o", "round_limit=3", "--save", str(save))
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout and "Winner" in proc.stdout
    assert "P1 (" in proc.stdout and "[random]" in proc.stdout
    assert "P0>" not in proc.stdout  # no prompts
    rec = GameRecord.load(save)
    assert rec.finished and rec.seats == ["random", "random"]
    assert run("replay", str(save), "--verify").returncode == 0


def test_play_human_through_stdin(tmp_path: Path) -> None:
    save = tmp_path / "mid.json"
    script = "\n".join([
        "1",            # home planet
        "nonsense",     # neither an action nor a command
        "999",          # out of range
        "1",            # place a tile
        "undo",         # back to before the tile
        "help",
        f"save {save}",
        "quit",
    ]) + "\n"
    proc = run("play", GAME, "--seats", "human,random,random", "--seed", "8",
               "-o", "round_limit=3", stdin=script)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Legal actions" in out and "Players" in out
    assert "'nonsense' is not a Rift Domination action" in out
    assert "no action 999" in out
    assert "took back your last decision" in out
    assert "Commands:" in out
    rec = GameRecord.load(save)
    assert rec.players == 3 and rec.seats == ["human", "random", "random"]
    assert len(rec.actions) == 3  # three home planets; the undone tile is gone
    assert rec.actions[0].startswith("home ")
    assert run("replay", str(save), "--verify").returncode == 0

    # Resume the saved game with bots in every seat and play it out.
    done = tmp_path / "done.json"
    resumed = run("play", GAME, "--load", str(save), "--seats", "random,random,random",
                  "--save", str(done))
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed" in resumed.stdout and "Game over" in resumed.stdout
    final = GameRecord.load(done)
    assert final.finished and final.actions[:3] == rec.actions


def test_play_accepts_notation_and_ends_on_eof() -> None:
    proc = run("play", GAME, "--players", "2", "--seed", "1", "-o", "round_limit=2",
               "--seats", "human,random", stdin="home A1a\n")
    assert proc.returncode == 0, proc.stderr
    assert "P0 (you): home A1a" in proc.stdout
    assert "input ended" in proc.stdout


def test_play_default_seats_fill_with_bots() -> None:
    proc = run("play", GAME, "--seats", "human", "--seed", "3", stdin="quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "P0 human" in proc.stdout and "P1 " in proc.stdout
    assert "Legal actions" in proc.stdout


def test_load_refuses_other_game_settings(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("play", GAME, "--seats", "random,random", "--seed", "2", "-o", "round_limit=1",
        "--save", str(save))
    proc = run("play", GAME, "--load", str(save), "--seed", "3")
    assert proc.returncode == 2 and "--load takes" in proc.stderr


# ---------------------------------------------------------------------- seat rotation
def test_seat_rotation_single_agent_fills_every_seat() -> None:
    for g in range(5):
        assert seat_agents(["random"], 4, g) == ["random"] * 4


def test_seat_rotation_full_list_rotates() -> None:
    agents = ["a", "b", "c"]
    assert seat_agents(agents, 3, 0) == ["a", "b", "c"]
    assert seat_agents(agents, 3, 1) == ["b", "c", "a"]
    assert seat_agents(agents, 3, 2) == ["c", "a", "b"]
    assert seat_agents(agents, 3, 3) == ["a", "b", "c"]


def test_seat_rotation_every_agent_in_every_seat_equally() -> None:
    agents = ["a", "b"]
    players = 4
    per_seat = [Counter() for _ in range(players)]
    for g in range(players * 3):
        for seat, spec in enumerate(seat_agents(agents, players, g)):
            per_seat[seat][spec] += 1
    assert all(c == Counter({"a": 6, "b": 6}) for c in per_seat)


def test_seat_rotation_shorter_list_is_cycled() -> None:
    assert seat_agents(["x", "y"], 3, 0) == ["x", "y", "x"]
    assert seat_agents(["x", "y"], 3, 1) == ["y", "x", "x"]
    with pytest.raises(AgentSpecError):
        seat_agents(["x", "y", "z"], 2, 0)
    with pytest.raises(AgentSpecError):
        seat_agents([], 2, 0)


def test_split_list_keeps_agent_parameters_together() -> None:
    assert split_list("random, mcts:iterations=400,c=1.4,heuristic") == [
        "random", "mcts:iterations=400,c=1.4", "heuristic"]
    with pytest.raises(AgentSpecError):
        split_list("random,,heuristic")


def test_hotseat_hands_the_terminal_over_between_humans(tmp_path: Path) -> None:
    """Two humans at one terminal: before the second decides, the screen is cleared and the
    program waits until that player has the terminal; undo only takes back one's own move."""
    save = tmp_path / "hot.json"
    script = "\n".join([
        "",       # P0 takes the terminal (a hot-seat game opens with a hand-over)
        "1",      # P0 home planet
        "",       # P1 takes the terminal
        "undo",   # P1 has nothing of its own to take back
        "1",      # P1 home planet
        "",       # P0 takes the terminal back (tile placement)
        f"save {save}",
        "quit",
    ]) + "\n"
    proc = run("play", GAME, "--seats", "human,human", "--seed", "3", stdin=script)
    assert proc.returncode == 0, proc.stderr
    assert "hand the terminal to P0" in proc.stdout
    assert "hand the terminal to P1" in proc.stdout
    assert "nothing of yours to undo" in proc.stdout
    assert len(GameRecord.load(save).actions) == 2
