"""``starlanes ladder`` (the catalogue bots rated in a tournament, written to the ladder
file), ``starlanes ratings recompute`` and the packaged ladder file."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from starlanes.cli import app
from starlanes.engine import BadOptionError
from starlanes.server.community.ladder import LADDER_FILE, load_ladder
from starlanes.server.config import DEFAULT_BOTS

runner = CliRunner()

TWO_BOTS = """
[[bots]]
name = "random"
spec = "random"

[[bots]]
name = "heuristic"
spec = "heuristic"
"""


def test_ladder_writes_a_valid_file(tmp_path: Path) -> None:
    config = tmp_path / "server.toml"
    config.write_text(TWO_BOTS)
    out = tmp_path / "ladder.json"
    out.write_text(json.dumps({"games": {"rift-domination": {"kept": True}}}))
    result = runner.invoke(app, ["ladder", "interstellar-ambitions", "--games", "2",
                                 "--workers", "1", "--config", str(config), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "ladder written" in result.output
    data = json.loads(out.read_text())
    assert data["games"]["rift-domination"] == {"kept": True}  # other games are kept
    entry = data["games"]["interstellar-ambitions"]
    assert entry["games"] == 2 and entry["players"] == 3
    assert "starlanes ladder" in entry["command"] and entry["date"] and entry["machine"]
    assert set(entry["bots"]) == {"random", "heuristic"}
    for name, bot in entry["bots"].items():
        assert bot["spec"] == name and bot["resolved"] == name
        assert bot["sigma"] > 0 and bot["games"] >= 2
    assert sum(b["games"] for b in entry["bots"].values()) == 2 * 3  # every seat counted


def test_ladder_refuses_an_unknown_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["ladder", "no-such-game", "--out", str(tmp_path / "l.json")])
    # (the console script turns this error into one line and exit status 2)
    assert isinstance(result.exception, BadOptionError)
    assert "known games" in str(result.exception)
    assert not (tmp_path / "l.json").exists()


def test_ratings_recompute_on_a_fresh_database(tmp_path: Path) -> None:
    result = runner.invoke(app, ["ratings", "recompute", "--db",
                                 f"sqlite:///{tmp_path / 'r.db'}"])
    assert result.exit_code == 0, result.output
    assert "recomputed from 0 rated games" in result.output


def test_packaged_ladder_rates_every_default_bot() -> None:
    """Every default catalogue bot of every game is in the ladder with the agent its spec
    resolved to when measured; for the bots whose spec no longer resolves to that agent
    (the game's search defaults changed since) the server leaves the rating out
    (test_ratings), and only search bots may be in that case."""
    from starlanes.agents.registry import resolved_spec

    ladder = load_ladder(LADDER_FILE)
    assert set(ladder["games"]) >= {"galactic-domination", "galactic-empires",
                                    "interstellar-ambitions", "rift-domination"}
    for game, entry in ladder["games"].items():
        assert entry["command"].startswith("starlanes ladder"), game
        assert {name: b["spec"] for name, b in entry["bots"].items()} == {
            b.name: b.spec for b in DEFAULT_BOTS if b.plays(game)}, game
        bots = entry["bots"]
        for name, b in bots.items():
            assert b["resolved"].startswith(b["spec"].partition(":")[0]), (game, name)
            if b["resolved"] != resolved_spec(b["spec"], game):
                assert b["spec"].startswith("mcts:"), (game, name)
        assert all(b["sigma"] > 0 and b["games"] >= 0 for b in bots.values()), game
        if bots["heuristic"]["games"] and bots["random"]["games"]:
            assert bots["heuristic"]["mu"] > bots["random"]["mu"], game
