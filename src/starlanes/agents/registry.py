"""Agent specs: ``random``, ``heuristic``, ``mcts:iterations=400,c=1.4``.

A spec is an agent name, optionally followed by ``:`` and comma-separated ``key=value``
parameters. :func:`make_agent` reads one and builds the agent for a game and a seed.

Your own agents: ``package.module:ClassName`` (optionally ``:k=v,...``) imports
``ClassName`` from an importable module, and a name registered by an installed package in
the entry-point group ``starlanes.agents`` (``greedy = mypkg.bots:Greedy``) is a spec name
like the built-in ones. The class must subclass :class:`~starlanes.agents.base.Agent`; it
is built as ``ClassName(seed, **params)`` with the parameter values as strings. Because
the spec names the class by import path, it loads the same way in worker processes
started with ``spawn`` as in the parent.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from importlib.metadata import entry_points
from typing import Any

from starlanes.engine import AgentSpecError, game_module

from .base import Agent
from .random_agent import RandomAgent

#: Agent names a spec may use, with their parameters (name -> parameter names).
AGENT_NAMES: dict[str, tuple[str, ...]] = {
    "random": (),
    "heuristic": ("odds",),
    "learned": (),
    "mcts": ("iterations", "seconds", "c", "depth", "rollout", "widening", "prior",
             "prior_weight", "reuse", "focus", "tree", "horizon", "root", "confidence",
             "leaf", "scale"),
}


ENTRY_POINT_GROUP = "starlanes.agents"
"""Entry-point group in which installed packages name their agent classes."""

_IMPORT_SPEC = re.compile(r"^\s*([A-Za-z_][\w.]*):([A-Za-z_]\w*)\s*(?::(.*))?$", re.S)


def _entry_point_names() -> dict[str, Any]:
    return {ep.name.lower(): ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _is_import_spec(text: str) -> re.Match[str] | None:
    """The match of ``module:Class[:params]`` when the second part is a class name (has
    no ``=``) and the first is not a built-in agent name."""
    m = _IMPORT_SPEC.match(text)
    if m is None or m.group(1).lower() in AGENT_NAMES:
        return None
    return m


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:k=v,k2=v2"`` into ``("name", {"k": "v", "k2": "v2"})``; for an import
    spec ``"pkg.mod:Class:k=v"`` the name is ``"pkg.mod:Class"``.

    Raises AgentSpecError for an empty or unknown name, a parameter without ``=``, an empty
    key, a repeated key, or a parameter a built-in agent does not take (a user's class
    receives its parameters unchecked).
    """
    text = spec.strip()
    m = _is_import_spec(text)
    if m is not None:
        return f"{m.group(1)}:{m.group(2)}", _parse_params(spec, m.group(3), m.group(3) is not None)
    name, sep, rest = text.partition(":")
    name = name.strip().lower()
    if not name:
        raise AgentSpecError(f"empty agent spec {spec!r}; agents: {', '.join(AGENT_NAMES)}")
    if name not in AGENT_NAMES:
        if name in _entry_point_names():
            return name, _parse_params(spec, rest, bool(sep))
        raise AgentSpecError(
            f"unknown agent {name!r} in spec {spec!r}; agents: {', '.join(AGENT_NAMES)}, "
            "an import path module:Class, or a name in the entry-point group "
            f"{ENTRY_POINT_GROUP}"
        )
    params = _parse_params(spec, rest, bool(sep))
    allowed = AGENT_NAMES[name]
    for key in params:
        if key not in allowed:
            takes = ", ".join(allowed) if allowed else "no parameters"
            raise AgentSpecError(
                f"agent {name!r} has no parameter {key!r} (it takes {takes})"
            )
    return name, params


def _parse_params(spec: str, rest: str | None, sep: bool) -> dict[str, str]:
    rest = rest or ""
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
    return params


def load_agent_class(name: str) -> type[Agent]:
    """The Agent subclass named by an import path ``pkg.mod:Class`` or an entry-point name.

    Raises AgentSpecError if the module or class cannot be found or is not an Agent.
    """
    if ":" in name:
        module_name, _, cls_name = name.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as e:
            raise AgentSpecError(f"cannot import agent module {module_name!r}: {e}") from None
        cls = getattr(module, cls_name, None)
        if cls is None:
            raise AgentSpecError(f"module {module_name!r} has no {cls_name!r}")
    else:
        ep = _entry_point_names().get(name)
        if ep is None:
            raise AgentSpecError(f"no agent {name!r} in entry-point group {ENTRY_POINT_GROUP}")
        try:
            cls = ep.load()
        except (ImportError, AttributeError) as e:
            raise AgentSpecError(f"entry point {name!r} does not load: {e}") from None
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise AgentSpecError(f"{name!r} is not a subclass of starlanes.agents.Agent")
    return cls


def make_agent(spec: str, game_id: str, seed: int) -> Agent:
    """Build the agent described by ``spec`` to play ``game_id`` with RNG seed ``seed``.

    Raises AgentSpecError for a malformed spec, an unknown agent or parameter, or an agent
    the game does not offer; UnknownGameError for an unknown game.
    """
    name, params = parse_spec(spec)
    if name not in AGENT_NAMES:
        cls = load_agent_class(name)
        try:
            agent = cls(seed, **params)
        except TypeError as e:
            raise AgentSpecError(f"agent {name!r} does not take these parameters: {e}") from None
        agent.name = spec.strip()
        return agent
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        return _heuristic(game_id, seed, params)
    if name == "learned":  # a numpy MLP policy (starlanes.agents.learned)
        from .learned import LearnedAgent

        return LearnedAgent(seed, game_id)
    from .mcts import make_mcts

    agent = make_mcts(seed, _mcts_parameters(game_id, params))
    agent.name = spec
    return agent


def _mcts_parameters(game_id: str, params: dict[str, str]) -> dict[str, str]:
    """An ``mcts`` spec's parameters with the game's ``MCTS_DEFAULTS`` filled in and
    ``scale`` applied (parameter name -> text). AgentSpecError for a bad ``scale`` or
    ``iterations``."""
    from .mcts import DEFAULT_ITERATIONS

    defaults = dict(getattr(game_module(game_id, "heuristic"), "MCTS_DEFAULTS", {}))
    params = dict(params)
    scale = _scale(params.pop("scale", None))
    if "seconds" in params and "iterations" not in params and scale is None:
        defaults.pop("iterations", None)  # a time budget replaces the default iterations
    merged = {**{k: str(v) for k, v in defaults.items()}, **params}
    if scale is not None:  # a multiple of the game's (or the spec's) iterations
        try:
            base = int(merged.get("iterations", DEFAULT_ITERATIONS))
        except ValueError:
            raise AgentSpecError(f"mcts parameter iterations={merged['iterations']!r} is "
                                 "not a valid number") from None
        merged["iterations"] = str(max(1, round(scale * base)))
    return merged


def resolved_spec(spec: str, game_id: str) -> str:
    """The agent ``spec`` will build in ``game_id``, written out: for ``mcts`` every
    parameter with the game's defaults and ``scale`` applied, sorted by name
    (``"mcts:c=0.7,..."``; a spec relative to the game's tuned search changes meaning when
    those defaults change); ``learned`` with the first 12 hex digits of its weights file's
    SHA-256 (``"learned:weights=0123456789ab"``: new weights are another player); any other
    spec as given, stripped. AgentSpecError as for :func:`make_agent`."""
    name, params = parse_spec(spec)
    if name == "learned":
        from . import learned

        if not learned.WEIGHTS.is_file():
            raise AgentSpecError(f"the learned agent's weights are missing "
                                 f"({learned.WEIGHTS.name})")
        digest = hashlib.sha256(learned.WEIGHTS.read_bytes()).hexdigest()[:12]
        return f"learned:weights={digest}"
    if name != "mcts":
        return spec.strip()
    merged = _mcts_parameters(game_id, params)
    return "mcts:" + ",".join(f"{k}={merged[k]}" for k in sorted(merged))


SCALE_RANGE = (0.01, 100.0)
"""Inclusive bounds of the ``scale`` spec parameter of ``mcts``."""


def _scale(text: str | None) -> float | None:
    """The ``scale`` parameter of an ``mcts`` spec: the iteration budget as a multiple of
    the game's default (``MCTS_DEFAULTS``, or the spec's own ``iterations``), so that one
    spec (``mcts:scale=4``) is four times each game's tuned search. None when absent;
    AgentSpecError for a value that is not a number within :data:`SCALE_RANGE`."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise AgentSpecError(f"mcts parameter scale={text!r} is not a valid number") from None
    lo, hi = SCALE_RANGE
    if not lo <= value <= hi:  # also refuses nan
        raise AgentSpecError(f"mcts parameter scale={text!r} is out of range [{lo:g}, {hi:g}]")
    return value


def _heuristic(game_id: str, seed: int, params: dict[str, str] | None = None) -> Agent:
    module = game_module(game_id, "heuristic")
    if module is None:
        raise AgentSpecError(f"{game_id} has no heuristic agent yet")
    factory = getattr(module, "HeuristicAgent", None)
    if factory is None:
        raise AgentSpecError(f"{module.__name__} defines no HeuristicAgent")
    if params and "odds" in params:  # battle odds in the attack decision (rift-domination)
        if game_id != "rift-domination":
            raise AgentSpecError(f"heuristic:odds is only offered for rift-domination, "
                                 f"not {game_id}")
        if params["odds"] not in ("0", "1"):
            raise AgentSpecError(f"heuristic odds={params['odds']!r}: use 0 or 1")
        return factory(seed, odds=params["odds"] == "1")
    return factory(seed)
