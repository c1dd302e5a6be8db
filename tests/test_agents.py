"""Agents: the random agent's reproducibility and RNG isolation, and agent spec parsing."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.agents import Agent, RandomAgent, make_agent, parse_spec
from starlanes.engine import AgentSpecError, BadOptionError, UnknownGameError

GAME = "rift-domination"


def play(agent_seed: int, game_seed: int = 3, limit: int = 400) -> tuple[list[str], str]:
    """Play ``limit`` actions (or to the end) with one random agent in every seat."""
    state = starlanes.load(GAME, players=3, seed=game_seed).new_initial_state()
    agent = RandomAgent(agent_seed)
    for _ in range(limit):
        if state.is_terminal():
            break
        state.apply(agent.act(state))
    return [str(a) for a in state.history], state.digest()


def test_random_agent_is_reproducible_under_a_seed() -> None:
    assert play(11) == play(11)


def test_agent_seed_changes_the_choices() -> None:
    assert play(11)[0] != play(12)[0]


def test_random_agent_never_touches_the_game_rng() -> None:
    state = starlanes.load(GAME, players=4, seed=5).new_initial_state()
    agent = RandomAgent(99)
    for _ in range(300):
        if state.is_terminal():
            break
        rng_before = state.rng.getstate()
        digest_before = state.digest()
        action = agent.act(state)
        assert state.rng.getstate() == rng_before
        assert state.digest() == digest_before
        assert action in state.legal_actions()
        state.apply(action)


def test_game_digest_depends_only_on_the_actions() -> None:
    """The same actions replayed without any agent give the same digest: the agent's seed
    reaches the game only through its choices."""
    actions, digest = play(7)
    state = starlanes.load(GAME, players=3, seed=3).new_initial_state()
    for text in actions:
        state.apply_notation(text)
    assert state.digest() == digest


def test_reset_restarts_the_stream() -> None:
    state = starlanes.load(GAME, players=2, seed=1).new_initial_state()
    agent = RandomAgent(4)
    first = [agent.act(state) for _ in range(5)]
    agent.reset(4)
    assert [agent.act(state) for _ in range(5)] == first


def test_make_agent_random() -> None:
    agent = make_agent("random", GAME, seed=3)
    assert isinstance(agent, Agent)
    assert agent.name == "random"


@pytest.mark.parametrize(
    ("spec", "name", "params"),
    [
        ("random", "random", {}),
        (" Random ", "random", {}),
        ("mcts:iterations=400,c=1.4", "mcts", {"iterations": "400", "c": "1.4"}),
        ("mcts: iterations = 5", "mcts", {"iterations": "5"}),
    ],
)
def test_parse_spec(spec: str, name: str, params: dict[str, str]) -> None:
    assert parse_spec(spec) == (name, params)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty agent spec"),
        ("alphazero", "unknown agent 'alphazero'"),
        ("random:depth=3", "has no parameter 'depth'"),
        ("mcts:iterations", "malformed parameter 'iterations'"),
        ("mcts:=4", "malformed parameter"),
        ("mcts:iterations=4,iterations=5", "appears twice"),
        ("mcts:", "no parameters"),
        ("mcts:speed=9", "has no parameter 'speed'"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec, GAME, seed=0)


def test_mcts_spec_builds_a_configured_agent() -> None:
    agent = make_agent("mcts:iterations=40,c=1.4,depth=2", GAME, seed=0)
    assert (agent.iterations, agent.c, agent.depth) == (40, 1.4, 2)
    with pytest.raises(AgentSpecError, match="not a valid number"):
        make_agent("mcts:iterations=x", GAME, seed=0)


@pytest.mark.parametrize("game", ["rift-domination", "galactic-domination",
                                  "interstellar-ambitions", "galactic-empires"])
def test_mcts_scale_multiplies_each_games_own_iterations(game: str) -> None:
    from starlanes.engine import game_module

    base = game_module(game, "heuristic").MCTS_DEFAULTS["iterations"]
    assert make_agent("mcts:scale=4", game, seed=0).iterations == 4 * base
    assert make_agent("mcts:scale=0.25", game, seed=0).iterations == max(1, round(base / 4))
    # a seconds cap keeps the scaled iterations (without scale it replaces them)
    capped = make_agent("mcts:scale=2,seconds=5", game, seed=0)
    assert (capped.iterations, capped.seconds) == (2 * base, 5.0)
    assert make_agent("mcts:seconds=5", game, seed=0).iterations == 0
    # on the spec's own iterations
    assert make_agent("mcts:iterations=10,scale=3", game, seed=0).iterations == 30


@pytest.mark.parametrize("text", ["x", "0", "-1", "nan", "101", "inf"])
def test_mcts_scale_out_of_range_is_refused(text: str) -> None:
    with pytest.raises(AgentSpecError, match="scale"):
        make_agent(f"mcts:scale={text}", GAME, seed=0)


def test_agent_spec_error_is_a_bad_option() -> None:
    assert issubclass(AgentSpecError, BadOptionError)


def test_heuristic_for_unknown_game() -> None:
    with pytest.raises(UnknownGameError):
        make_agent("heuristic", "no-such-game", seed=0)


def test_heuristic_loads_the_games_own_bot() -> None:
    try:
        agent = make_agent("heuristic", GAME, seed=2)
    except AgentSpecError as e:  # the game's bot is not written yet
        assert "heuristic" in str(e)
        return
    state = starlanes.load(GAME, players=2, seed=2).new_initial_state()
    assert agent.act(state) in state.legal_actions()
