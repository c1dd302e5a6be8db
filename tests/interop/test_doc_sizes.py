"""docs/research.md's "Sizes" table says what the environments report today: every game
and player count, its action-space size, observation shape, families and OpenSpiel
information-state size, as ``benchmarks/action_spaces.py`` measures them."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from starlanes.envs.gymnasium import StarlanesEnv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "research.md"
SCRIPT = ROOT / "benchmarks" / "action_spaces.py"


@pytest.fixture(scope="module")
def sizes():
    spec = importlib.util.spec_from_file_location("action_spaces_benchmark", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclass looks its module up there
    spec.loader.exec_module(mod)
    return mod


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def _doc_rows(header: str) -> dict[tuple[str, int], list[str]]:
    """The rows of the table under ``header`` in docs/research.md, by (game, players)."""
    text = DOC.read_text(encoding="utf-8")
    assert text.count(header) == 1, "the Sizes table's header is not in docs/research.md once"
    rows = {}
    for line in text.split(header, 1)[1].splitlines()[1:]:
        if not line.startswith("|"):
            break
        cells = _cells(line)
        rows[(cells[0], int(cells[1]))] = cells
    return rows


def test_every_figure_of_the_table_is_what_the_environments_report(sizes):
    doc = _doc_rows(sizes.HEADER)
    measured = {}
    for game_id, players in sizes.research_games():
        s = sizes.measure(game_id, players)
        measured[(s.title, s.players)] = s
    assert sorted(doc) == sorted(measured), "the table's games and player counts"
    stale = []
    for key, s in measured.items():
        want = _cells(s.row())
        got = doc[key]
        if s.information_state is None:  # no open_spiel here: that column is not checked
            want, got = want[:-1], got[:-1]
        if got != want:
            stale.append(f"{key}: doc {got}, measured {want}")
    assert not stale, ("docs/research.md's Sizes table is stale (paste the output of "
                       "python benchmarks/action_spaces.py over it):\n" + "\n".join(stale))


def test_the_measured_figures_are_the_adapters(sizes):
    """The script reads the PettingZoo environment; Gymnasium's states the same spaces,
    and the information-state size is the documented sum."""
    for game_id, players in sizes.research_games():
        s = sizes.measure(game_id, players)
        env = StarlanesEnv(game_id, players=players, opponents="random")
        assert env.action_space.n == s.actions
        assert env.observation_space["observation"].shape == s.observation
        assert s.actions == env.game.num_distinct_actions()
        if s.information_state is not None:
            size = s.observation[0] + players * (s.families + 1) + 1
            assert s.information_state == size


def test_the_vector_example_shapes_are_the_tables(sizes):
    """The vector environment example (Interstellar Ambitions, 3 players, 8 games)
    states its batch shapes."""
    text = DOC.read_text(encoding="utf-8")
    assert 'StarlanesVectorEnv(8, "interstellar-ambitions", players=3' in text
    obs = re.search(r"# obs: \(8, ([\d,]+)\) float32", text)
    masks = re.search(r"# masks: \(8, ([\d,]+)\) bool", text)
    assert obs and masks
    s = sizes.measure("interstellar-ambitions", 3)
    assert (int(obs.group(1).replace(",", "")),) == s.observation
    assert int(masks.group(1).replace(",", "")) == s.actions


def test_a_changed_figure_fails_the_comparison(sizes):
    """The comparison reads the numbers: one digit off in a row is caught."""
    s = sizes.measure("galactic-domination", 2)
    wrong = sizes.Sizes(s.title, s.players, s.actions + 1, s.observation, s.families,
                        s.information_state)
    assert _cells(wrong.row()) != _cells(s.row())
    assert _cells(s.row())[2] == f"{s.actions:,}"
