"""User agents named by an installed package's entry point (group ``starlanes.agents``)
and by import path, in every place that takes an agent spec: ``play``, ``simulate``,
``tournament`` (workers started with ``spawn``) and the server's bot seats.

The "installed package" is a module and a ``.dist-info`` directory with an
``entry_points.txt`` in a temporary directory put on ``PYTHONPATH`` of subprocesses, which
is how ``importlib.metadata`` finds an installed distribution; spawned workers and the
server's bot processes inherit it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EP_NAME = "lastlegal"
PATH_SPEC = "tests.interop.user_agent:FirstLegal"

BOTS = '''
from starlanes.agents import Agent


class LastLegal(Agent):
    """Plays the last legal action."""

    def __init__(self, seed: int, note: str = "") -> None:
        self.note = note

    def act(self, state):
        return state.legal_actions()[-1]
'''


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A directory holding an 'installed' package ``slbots`` with one agent entry point."""
    root = tmp_path_factory.mktemp("site")
    (root / "slbots.py").write_text(BOTS)
    info = root / "slbots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: slbots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        f"[starlanes.agents]\n{EP_NAME} = slbots:LastLegal\n")
    return root


def run(site: Path, args: list[str], timeout: int = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1", PYTHONPATH=os.pathsep.join(
        [str(site), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=site)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def test_entry_point_agent_is_a_spec_name_with_parameters(site):
    script = textwrap.dedent(f"""
        from starlanes.agents import make_agent, parse_spec
        from starlanes.engine import load
        assert parse_spec("{EP_NAME}:note=hi") == ("{EP_NAME}", {{"note": "hi"}})
        agent = make_agent("{EP_NAME}:note=hi", "galactic-domination", 1)
        assert type(agent).__name__ == "LastLegal" and agent.note == "hi"
        assert agent.name == "{EP_NAME}:note=hi"
        state = load("galactic-domination", players=2, seed=1).new_initial_state()
        assert agent.act(state) == state.legal_actions()[-1]
        print("ok")
    """)
    assert run(site, ["-c", script]).stdout.strip() == "ok"


def test_entry_point_and_path_agents_play_a_spawned_tournament(site):
    script = textwrap.dedent(f"""
        import json
        from starlanes.analysis.tournament import run_tournament
        rows = run_tournament("galactic-domination", ["{EP_NAME}", "{PATH_SPEC}"],
                              players=2, games=2, seed=5, workers=2, progress=False,
                              start_method="spawn", action_cap=300)
        print(json.dumps([r["agents"] for r in rows]))
    """)
    agents = json.loads(run(site, ["-c", script]).stdout)
    assert sorted(map(tuple, agents)) == sorted([(EP_NAME, PATH_SPEC), (PATH_SPEC, EP_NAME)])


def test_cli_simulate_and_play_take_both_kinds_of_spec(site):
    out = run(site, ["-m", "starlanes.cli", "simulate", "galactic-domination", "--agents",
                     f"{EP_NAME},{PATH_SPEC}", "--games", "2", "--workers", "2",
                     "--option", "turn_limit=2", "--json"]).stdout
    summary = json.loads(out)
    assert summary["agents"] == [EP_NAME, PATH_SPEC]
    assert [r["agents"] for r in summary["results"]] == [[EP_NAME, PATH_SPEC],
                                                         [PATH_SPEC, EP_NAME]]
    assert all(r["end_reason"] for r in summary["results"])
    out = run(site, ["-m", "starlanes.cli", "play", "galactic-domination", "--seats",
                     f"{EP_NAME},{PATH_SPEC}", "--seed", "3", "--delay", "0",
                     "--option", "turn_limit=2", "--no-autosave"]).stdout
    assert f"[{EP_NAME}]" in out and f"[{PATH_SPEC}]" in out
    assert "Winner" in out.splitlines()[-1], out[-1000:]


def test_server_bot_catalogue_takes_both_kinds_of_spec(site, tmp_path):
    """The server's owner may put either kind of spec in the bot catalogue; a request names
    the catalogue entry, never the spec. Bots think in a worker process of the server's pool
    (``bot_workers=1``)."""
    script = textwrap.dedent(f"""
        import time
        from fastapi.testclient import TestClient
        from starlanes.server.app import create_app
        from starlanes.server.config import load_config
        config = load_config(bots=[{{"name": "ep-bot", "spec": "{EP_NAME}"}},
                                   {{"name": "path-bot", "spec": "{PATH_SPEC}"}}])
        app = create_app("sqlite:///{tmp_path / 'server.db'}", bot_workers=1, config=config)
        with TestClient(app) as c:
            r = c.post("/api/games", json={{"game": "galactic-domination", "players": 2,
                       "seats": ["{EP_NAME}", "{PATH_SPEC}"]}})
            assert r.status_code == 422, r.text
            r = c.post("/api/games", json={{"game": "galactic-domination", "players": 2,
                       "seats": ["ep-bot", "path-bot"], "options": {{"turn_limit": 2}}}})
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                r = c.get(f"/api/games/{{gid}}/record")
                if r.status_code == 200:
                    break
                time.sleep(0.2)
            assert r.status_code == 200, r.text
            print(r.json()["seats"])
    """)
    out = run(site, ["-c", script]).stdout
    assert "['ep-bot', 'path-bot']" in out
