"""The lab against a Ray cluster started apart from it (issue 28): ``ray start --head`` with
token authentication, joined by ``--ray-address 127.0.0.1:PORT``.

Starting a Ray head takes 20-40 s on a small shared machine, so the cluster test is marked
slow (``pytest -m slow``); the refusal message is checked in the default suite.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from starlanes.analysis.backends import ray_connect_error
from tests.test_cli import COMMAND

RAY = Path(sys.executable).with_name("ray")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _lab(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, "simulate", "galactic-domination", "--games", "4",
                           "--agents", "random", "--seed", "2", "--json", *args],
                          capture_output=True, text=True, timeout=240, env=env)


def test_refusal_names_the_token_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    cause = RuntimeError("Unauthenticated: InvalidAuthToken")
    error = ConnectionError("Failed to connect to Ray cluster at 10.0.0.1:6379")
    error.__cause__ = cause
    text = ray_connect_error("127.0.0.1:6379", error)
    assert "127.0.0.1:6379" in text and "authentication token" in text
    assert "RAY_AUTH_MODE=token" in text and "~/.ray/auth_token" in text
    client = ray_connect_error("ray://head:10001", ConnectionError("timeout"))
    assert "ray[client]" in client


@pytest.mark.slow
def test_ray_address_joins_a_token_authenticated_head(tmp_path: Path) -> None:
    """A head started by ``ray start --head`` under ``RAY_AUTH_MODE=token`` (its token in
    the default file ~/.ray/auth_token): a driver with ``RAY_AUTH_MODE=token`` plays the
    same games as the local backend; one without is refused with a clear message and no
    traceback, and its stdout stays empty."""
    if not RAY.exists():
        pytest.skip("Ray is not installed (pip install 'starlanes[ray]')")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=str(home), NO_COLOR="1", RAY_USAGE_STATS_ENABLED="0")
    token_env = dict(env, RAY_AUTH_MODE="token")
    made = subprocess.run([str(RAY), "get-auth-token", "--generate"], env=token_env,
                          capture_output=True, text=True, timeout=60)
    if made.returncode != 0 or not (home / ".ray" / "auth_token").exists():
        pytest.skip(f"this Ray cannot make an authentication token: {made.stderr[-300:]}")
    port = _free_port()
    # its own temp dir (short: Ray's socket paths must fit 107 characters), so the head
    # leaves no "current cluster" behind for other Ray users of this machine
    temp = tempfile.mkdtemp(prefix="slray", dir="/tmp")
    head = subprocess.Popen([str(RAY), "start", "--head", "--block", f"--port={port}",
                             f"--temp-dir={temp}",
                             "--num-cpus=1", "--include-dashboard=false",
                             f"--ray-client-server-port={_free_port()}",
                             "--disable-usage-stats"], env=token_env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and head.poll() is None:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.5)
        else:
            pytest.skip("Ray could not start a head node here within 120 s")
        local = _lab(env)
        assert local.returncode == 0, local.stderr
        joined = _lab(token_env, "--backend", "ray", "--ray-address", f"127.0.0.1:{port}")
        assert joined.returncode == 0, joined.stderr[-2000:]
        digests = [r["digest"] for r in json.loads(joined.stdout)["results"]]
        assert digests == [r["digest"] for r in json.loads(local.stdout)["results"]]
        refused = _lab(env, "--backend", "ray", "--ray-address", f"127.0.0.1:{port}")
        assert refused.returncode == 2 and refused.stdout == ""
        assert "RAY_AUTH_MODE=token" in refused.stderr
        assert "Traceback" not in refused.stderr
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait(timeout=30)
        shutil.rmtree(temp, ignore_errors=True)
