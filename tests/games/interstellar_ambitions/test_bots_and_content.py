"""Content, the heuristic bot, rendering and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

import starlanes
from starlanes.agents import make_agent
from starlanes.engine import ContentError
from starlanes.games.interstellar_ambitions.content import CONTENT_DIR, load_content
from starlanes.games.interstellar_ambitions.render import render


def test_deck_sizes_and_printed_examples() -> None:
    """Deck sizes of the issue; printed examples exact (IA-SHD-12..15, IA-SHIP-10..12)."""
    c = load_content()
    assert len([p for p in c.planet_type if p < 4]) >= 40
    assert len(c.tech_ids) - len(c.start_techs) >= 30
    assert len(c.shadow_cards) >= 30
    assert len(c.merc_cards) >= 15
    assert len(c.emergency_cards) >= 12
    assert len(c.event_cards) >= 20
    assert len(c.ambition_ids) >= 14
    kinds = {c.shadow[k].kind for k in ("exchange_plans", "new_opportunities")}
    assert kinds == {"standard"}
    assert c.shadow["planetary_plague"].kind == c.shadow["ship_go_boom_boom"].kind == "sabotage"
    assert c.shadow["planetary_plague"].source == "rulebook"
    assert c.ships["battleship"].source == "rulebook"
    assert any(e.keep for e in c.events.values()) and any(not e.keep for e in c.events.values())


def test_content_override_and_errors(tmp_path: Path) -> None:
    (tmp_path / "board.toml").write_text(
        (CONTENT_DIR / "board.toml").read_text().replace("value = 4", "value = 5", 1))
    g = starlanes.load("interstellar-ambitions", players=3, content=str(tmp_path))
    assert len(g.new_initial_state().tech_slots) == 5
    (tmp_path / "ambitions.toml").write_text(
        '[[ambition]]\nid="x"\nname="X"\nkind="passive"\ncondition="nope"\nsource="rulebook"\n')
    with pytest.raises(ContentError):
        load_content(tmp_path)


def play(players: int, seed: int, specs: list[str]):
    s = starlanes.load("interstellar-ambitions", players=players, seed=seed).new_initial_state()
    agents = [make_agent(x, "interstellar-ambitions", seed * 10 + i) for i, x in enumerate(specs)]
    while not s.is_terminal():
        s.apply(agents[s.current_player()].act(s))
    return s


def test_heuristic_beats_random() -> None:
    """The heuristic wins at least 70% of 3-player games against two random seats."""
    wins = 0.0
    games = 24
    for g in range(games):
        seat = g % 3
        specs = ["random"] * 3
        specs[seat] = "heuristic"
        wins += play(3, 500 + g, specs).returns()[seat]
    assert wins / games >= 0.7


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_heuristic_games_end_by_ambitions(players: int) -> None:
    """IA-END-01: heuristic games end by the ambition trigger."""
    for seed in range(3):
        s = play(players, seed, ["heuristic"] * players)
        assert s.end_reason == "ambitions" and s.round > 1


def test_render_shows_only_own_hand() -> None:
    s = starlanes.load("interstellar-ambitions", players=3, seed=4).new_initial_state()
    console = Console(width=200, record=True)
    console.print(render(s, 0))
    text = console.export_text()
    c = s.content
    mine = {c.shadow[c.shadow_ids[x]].id for x in s.hands[0]}
    assert all(m in text for m in mine)
    others = {c.shadow_ids[x] for x in s.hands[1] + s.hands[2]} - mine - {
        c.shadow_ids[x] for x in s.shadow_discard}
    assert not any(o in text for o in others)


def test_cli_simulate_json() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from starlanes.cli import main; main()",
         "simulate", "interstellar-ambitions",
         "--players", "4", "--games", "3", "--seed", "1", "--agents", "heuristic", "--json"],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert all(r["end_reason"] == "ambitions" and r["rounds"] for r in report["results"])
