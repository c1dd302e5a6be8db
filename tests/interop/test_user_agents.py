"""User agents named by import path or entry point, in specs and tournaments."""

from __future__ import annotations

import pytest

from starlanes.agents import make_agent, parse_spec
from starlanes.analysis.tournament import run_tournament
from starlanes.engine import AgentSpecError, load

SPEC = "tests.interop.user_agent:FirstLegal"


def test_import_spec_parses_with_parameters():
    assert parse_spec(f"{SPEC}:pick=last") == (SPEC, {"pick": "last"})
    assert parse_spec("mcts:iterations=5") == ("mcts", {"iterations": "5"})


def test_user_agent_is_built_with_seed_and_parameters():
    agent = make_agent(f"{SPEC}:pick=last", "galactic-domination", 3)
    state = load("galactic-domination", players=2, seed=1).new_initial_state()
    assert agent.act(state) == state.legal_actions()[-1]
    assert agent.name == f"{SPEC}:pick=last"


@pytest.mark.parametrize("spec, words", [
    ("tests.interop.user_agent:NotAnAgent", "not a subclass"),
    ("tests.interop.user_agent:Missing", "has no 'Missing'"),
    ("tests.interop.no_such_module:Agent", "cannot import"),
    (f"{SPEC}:colour=red", "does not take"),
    ("nosuchagent", "entry-point group"),
])
def test_bad_user_specs_are_refused_by_name(spec, words):
    with pytest.raises(AgentSpecError, match=words):
        make_agent(spec, "galactic-domination", 0)


def test_user_agent_plays_a_tournament_in_spawned_workers():
    rows = run_tournament("galactic-domination", [SPEC, "random"], players=2, games=2,
                          seed=5, workers=2, progress=False, start_method="spawn",
                          action_cap=400)
    assert len(rows) == 2
    assert sorted(tuple(r["agents"]) for r in rows) == sorted([(SPEC, "random"), ("random", SPEC)])
    serial = run_tournament("galactic-domination", [SPEC, "random"], players=2, games=2,
                            seed=5, workers=1, progress=False, action_cap=400)
    assert [r["digest"] for r in rows] == [r["digest"] for r in serial]


def test_cli_tournament_takes_the_documented_example_agent(tmp_path):
    """Runs in a temporary directory: the tournament writes its ratings chart there."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1",
               PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run(
        [sys.executable, "-m", "starlanes.cli", "tournament", "galactic-domination",
         "--agents", "tests.interop.user_agent:Greedy:tries=5,random", "--games", "2",
         "--workers", "2", "--seed", "3", "--option", "turn_limit=3"],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "tests.interop.user_agent:Greedy:tries=5" in proc.stdout
