"""SIGTERM and SIGHUP stop a command the way Ctrl-C does (issue 28): the worker processes
of ``simulate`` and ``tournament --workers N`` end with the command, and ``play`` writes
``--save``. Through the real command in a subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from starlanes.engine import GameRecord
from tests.test_cli import COMMAND

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def _alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] not in ("Z", "X")


def _wait_for(check, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def _start(*args: str, **kw) -> subprocess.Popen[str]:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1",
               STARLANES_DATA_DIR=str(kw.pop("data_dir")))
    return subprocess.Popen([*COMMAND, *args], env=env, text=True, **kw)


@pytest.mark.parametrize("command", [
    ("simulate", "rift-domination", "--players", "3", "--games", "400", "--workers", "2",
     "--json"),
    ("tournament", "rift-domination", "--agents", "random,heuristic", "--games", "400",
     "--workers", "2", "--json", "--no-plot"),
])
def test_sigterm_ends_the_workers_with_the_command(command: tuple[str, ...],
                                                   tmp_path: Path) -> None:
    proc = _start(*command, data_dir=tmp_path, stdout=subprocess.PIPE,
                  stderr=subprocess.PIPE)
    try:
        _wait_for(lambda: len(_children(proc.pid)) >= 2)
        workers = _children(proc.pid)
        # the workers are in the command's process group: a signal to the group reaches them
        assert {os.getpgid(w) for w in workers} == {os.getpgid(proc.pid)}
        time.sleep(0.3)  # let them start playing
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM, err
    _wait_for(lambda: not any(_alive(w) for w in workers), timeout=5)
    assert "Traceback" not in err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_play_writes_save_on_sigterm_and_sighup(signum: int, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    screen = tmp_path / "screen.txt"
    with screen.open("w") as shown:
        proc = _start("play", "rift-domination", "--seats", "human,random", "--seed", "3",
                      "--save", str(save), data_dir=tmp_path, stdin=subprocess.PIPE,
                      stdout=shown, stderr=subprocess.STDOUT)
        try:
            _wait_for(lambda: "P0> " in screen.read_text())
            proc.send_signal(signum)
            proc.wait(timeout=60)
        finally:
            proc.kill()
            proc.stdin.close()
    assert proc.returncode == 128 + signum, screen.read_text()
    record = GameRecord.load(save)
    assert record.game == "rift-domination" and record.seed == 3
    autosave = tmp_path / "autosave" / "rift-domination-seed3.json"
    assert GameRecord.load(autosave).actions == record.actions
    assert "Traceback" not in screen.read_text()
