"""Two ``play`` of the same game cannot both write its autosave (issue 28): the second
gets a clear error while the first holds the lock, and the lock goes with the first
process."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

import starlanes
from starlanes.terminal.lock import hold_autosave
from tests.test_cli import COMMAND
from tests.test_cli_content_errors import cli

pytest.importorskip("fcntl")


def test_second_load_of_the_same_autosave_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = starlanes.load("rift-domination", players=2, seed=8).new_initial_state()
    autosave = tmp_path / "autosave" / "rift-domination-seed8.json"
    autosave.parent.mkdir()
    autosave.write_text(state.record(["human", "random"]).to_json())
    screen = tmp_path / "screen.txt"
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1", STARLANES_DATA_DIR=str(tmp_path))
    with screen.open("w") as shown:
        first = subprocess.Popen([*COMMAND, "play", "--load", str(autosave)], env=env,
                                 text=True, stdin=subprocess.PIPE, stdout=shown,
                                 stderr=subprocess.STDOUT)
    try:
        end = time.monotonic() + 60
        while "P0> " not in screen.read_text() and time.monotonic() < end:
            time.sleep(0.05)
        monkeypatch.setenv("STARLANES_DATA_DIR", str(tmp_path))
        code, _, err = cli(capsys, "play", "--load", str(autosave))
        assert code == 2
        said = " ".join(err.split())
        assert f"already open in another 'starlanes play' (process {first.pid})" in said
        assert "--no-autosave" in said
    finally:
        first.communicate("quit\n", timeout=60)
    assert first.returncode == 0, screen.read_text()
    with hold_autosave(autosave):  # released when the first process ended
        pass
