"""Stopping: SIGTERM or SIGINT stops a real server while a bot is in the middle of a long
search and a viewer's websocket is open. The viewer's socket is closed, the bot's worker
process (or thread) is not waited for, and no process of the server is left behind."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import Server

STOP_WITHIN = 15.0
"""Seconds a stopping server may take; the bot's search alone would last 120."""


def _children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize(("sig", "workers"), [(signal.SIGTERM, 1), (signal.SIGINT, 0)],
                         ids=["sigterm-worker-process", "sigint-bot-thread"])
def test_a_signal_stops_the_server_while_a_bot_thinks(tmp_path: Path, sig: int, workers: int):
    config = tmp_path / "server.toml"
    config.write_text('[[bots]]\nname = "slow"\nspec = "mcts:seconds=120"\nseconds = 120\n')
    server = Server(f"sqlite:///{tmp_path / 'stop.db'}", bot_workers=workers,
                    config=str(config))
    server.start()
    assert server.proc is not None
    try:
        gid = httpx.post(server.url("/api/games"), json={
            "game": "rift-domination", "players": 2,
            "seats": ["slow", "slow"], "seed": 3}).json()["id"]
        with connect(f"ws://127.0.0.1:{server.port}/ws/games/{gid}") as ws:
            assert '"seq":0' in ws.recv(timeout=10)
            deadline = time.monotonic() + 30
            children: set[int] = set()
            while workers and not children:  # the worker is started by the first bot move
                assert time.monotonic() < deadline, "no bot worker process started"
                children = {c for c in _children(server.proc.pid)
                            if "spawn_main" in _command(c)}
                time.sleep(0.1)
            time.sleep(1.0)  # well into the search
            assert httpx.get(server.url(f"/api/games/{gid}/view")).json()["seq"] == 0
            everyone = _children(server.proc.pid)
            server.proc.send_signal(sig)
            server.proc.wait(STOP_WITHIN)
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=5)
            deadline = time.monotonic() + 5
            while any(_alive(c) for c in everyone):
                assert time.monotonic() < deadline, "a process of the server outlived it"
                time.sleep(0.1)
    finally:
        if server.proc.poll() is None:
            server.kill()


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.02, 0.05])
def test_a_stop_signal_right_after_start_up_stops_the_server(tmp_path, delay):
    """SIGTERM sent just after the "listening" line (before uvicorn handles signals, or
    during its start-up) is not lost: the server stops with 143 as on any SIGTERM. It once
    left the server running, deaf to the signal, until a second one."""
    import os
    import subprocess

    from .conftest import cli_command

    proc = subprocess.Popen(
        [*cli_command(), "serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 's.db'}",
         "--bot-workers", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={**os.environ, "NO_COLOR": "1"}, text=True)
    try:
        assert proc.stdout is not None and "listening" in proc.stdout.readline()
        time.sleep(delay)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(STOP_WITHIN) == 128 + signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
