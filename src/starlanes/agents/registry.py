"""Agent specs: ``random``, ``heuristic``, ``mcts:iterations=400,c=1.4``.

A spec is an agent name, optionally followed by ``:`` and comma-separated ``key=value``
parameters. :func:`make_agent` reads one and builds the agent for a game and a seed.
"""

from __future__ import annotations

from starlanes.engine import AgentSpecError, game_module

from .base import Agent
from .random_agent import RandomAgent

#: Agent names a spec may use, with their parameters (name -> parameter names).
AGENT_NAMES: dict[str, tuple[str, ...]] = {
    "random": (),
    "heuristic": (),
    "mcts": ("iterations", "seconds", "c", "depth", "rollout", "widening", "prior",
             "prior_weight", "reuse", "focus", "tree", "horizon", "root"),
}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:k=v,k2=v2"`` into ``("name", {"k": "v", "k2": "v2"})``.

    Raises AgentSpecError for an empty or unknown name, a parameter without ``=``, an empty
    key, a repeated key, or a parameter the agent does not take.
    """
    text = spec.strip()
    name, sep, rest = text.partition(":")
    name = name.strip().lower()
    if not name:
        raise AgentSpecError(f"empty agent spec {spec!r}; agents: {', '.join(AGENT_NAMES)}")
    if name not in AGENT_NAMES:
        raise AgentSpecError(
            f"unknown agent {name!r} in spec {spec!r}; agents: {', '.join(AGENT_NAMES)}"
        )
    params: dict[str, str] = {}
    if sep:
        if not rest.strip():
            raise AgentSpecError(f"agent spec {spec!r} has ':' but no parameters")
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not key or not value:
                raise AgentSpecError(
                    f"malformed parameter {part.strip()!r} in agent spec {spec!r}; "
                    "write key=value"
                )
            if key in params:
                raise AgentSpecError(f"parameter {key!r} appears twice in agent spec {spec!r}")
            params[key] = value
    allowed = AGENT_NAMES[name]
    for key in params:
        if key not in allowed:
            takes = ", ".join(allowed) if allowed else "no parameters"
            raise AgentSpecError(
                f"agent {name!r} has no parameter {key!r} (it takes {takes})"
            )
    return name, params


def make_agent(spec: str, game_id: str, seed: int) -> Agent:
    """Build the agent described by ``spec`` to play ``game_id`` with RNG seed ``seed``.

    Raises AgentSpecError for a malformed spec, an unknown agent or parameter, or an agent
    the game does not offer; UnknownGameError for an unknown game.
    """
    name, params = parse_spec(spec)
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        return _heuristic(game_id, seed)
    from .mcts import make_mcts

    defaults = dict(getattr(game_module(game_id, "heuristic"), "MCTS_DEFAULTS", {}))
    if "seconds" in params and "iterations" not in params:
        defaults.pop("iterations", None)  # a time budget replaces the default iterations
    agent = make_mcts(seed, {**{k: str(v) for k, v in defaults.items()}, **params})
    agent.name = spec
    return agent


def _heuristic(game_id: str, seed: int) -> Agent:
    module = game_module(game_id, "heuristic")
    if module is None:
        raise AgentSpecError(f"{game_id} has no heuristic agent yet")
    factory = getattr(module, "HeuristicAgent", None)
    if factory is None:
        raise AgentSpecError(f"{module.__name__} defines no HeuristicAgent")
    return factory(seed)
