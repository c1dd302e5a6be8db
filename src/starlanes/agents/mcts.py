"""Monte Carlo tree search for every game, written against the engine contract alone.

One algorithm covers both cases:

* **Information set MCTS** (single observer): every iteration starts from
  ``state.determinize(seat, rng)``, a copy in which everything the deciding seat cannot see
  (other hands, deck order, face-down tiles) is resampled with the agent's own RNG and whose
  chance stream is reseeded, so the real game's future never leaks into the search. In a
  perfect-information game the same call only reseeds chance, which makes this plain MCTS
  with chance handled by sampling.
* Nodes are keyed by action notation, so one tree is shared across determinisations;
  selection counts how often each child was *available* (UCB with availability counts).
* **Multi-player**: each node keeps the reward of the seat that chose the action leading to
  it; selection at a node maximises the mover's own reward.
* **Progressive widening**: a node with ``n`` visits considers at most
  ``ceil(widening * n ** 0.5)`` children, tried in an order fixed by the agent's RNG; this
  keeps the search focused where the action space is huge (Rift Domination movement).
* **Rollouts** by the game's heuristic agent or at random, cut off after ``depth`` actions;
  the leaf is scored by the game's ``evaluate(state)`` (from its heuristic module: one value
  in [0, 1] per seat) or by a generic score-based evaluation.
* **Tree reuse**: when the agent decides again and the only action since its last decision
  is the one it chose (a multi-step turn: Rift Domination movement, Galactic Domination
  action points, Galactic Empires allocation), the subtree under that action becomes the
  new root, so its statistics carry over. Reuse stops at any other seat's action, whose
  notation might reveal what the agent cannot see, and at anything that does not continue
  the game the tree was built for (a new game, an undo).
* **Focus** (optional): a game may name its routine decisions (the micro-steps the
  heuristic already gets right); with ``focus=on`` the agent plays the heuristic there and
  spends its search on the rest, which keeps search noise out of those steps.
* **Sequential halving at the root** (optional, ``root=halving``): the budget is spent in
  rounds; in each, every surviving root action is tried in the same freshly determinised
  worlds, and the better half goes on. Paired samples keep hidden cards and chance from
  drowning small differences between the actions.
* **Horizon** (optional): rollouts stop once a number of turns have begun (a game's
  ``turn_number(state)``), so leaves are evaluated at a like point of the turn cycle.
* Budget by ``iterations`` or ``seconds`` (whichever ends first when both are given) of
  new iterations per decision. With a fixed iteration budget the agent is reproducible
  under its seed.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from starlanes.engine import Action, AgentSpecError, GameState, game_module

from .base import Agent

Evaluator = Callable[[GameState], list[float]]


class Node:
    """A search node: the edge that leads to it and the statistics of that edge."""

    __slots__ = ("children", "visits", "avail", "reward", "player", "order", "prior")

    def __init__(self, player: int) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.player = player
        self.order: dict[str, float] = {}
        self.prior = ""  # notation of the child the prior named, if any


def score_evaluation(state: GameState) -> list[float]:
    """Generic leaf value: returns() when terminal, else scores scaled to [0, 1] with the
    leader(s) at 1 and the last at 0 (equal scores: 0.5 each)."""
    if state.is_terminal():
        return state.returns()
    s = state.scores()
    lo, hi = min(s), max(s)
    if hi == lo:
        return [0.5] * len(s)
    return [(v - lo) / (hi - lo) for v in s]


DEFAULT_ITERATIONS = 200
"""Iterations per decision of an ``mcts`` spec that names none and whose game sets none."""


PARAMETER_RANGES: dict[str, tuple[float, float]] = {
    "iterations": (0, 10_000_000),
    "seconds": (0.0, 86_400.0),
    "c": (0.0, 100.0),
    "depth": (0, 1_000_000),
    "widening": (0.0, 100.0),
    "prior_weight": (0.0, 1_000.0),
    "tree": (0, 1_000_000),
    "horizon": (0, 10_000),
    "confidence": (0.0, 10.0),
}
"""Inclusive bounds of the numeric MCTS parameters (iterations per decision, seconds per
decision, ...): wide enough for any real search, narrow enough that a typo such as
``iterations=10**24`` or ``c=nan`` is refused instead of running until killed."""


class MCTSAgent(Agent):
    """MCTS / ISMCTS agent (see module docstring).

    Parameters: ``iterations`` (int, default 200), ``seconds`` (float, 0 = none),
    ``c`` (UCT exploration constant, default 0.7 on rewards in [0, 1]), ``depth`` (rollout
    cut-off in actions, default 4), ``rollout`` ("random" or "heuristic"), ``widening``
    (progressive widening factor, default 2.0; 0 disables it), ``prior`` ("none" or
    "heuristic": the game's heuristic agent names the first child to try at each new node,
    so widening keeps its choice in view, and its value gets a progressive bias of
    ``prior_weight / (visits + 1)`` that fades as the search learns), ``reuse`` (keep the
    subtree of the chosen action for the agent's next decision when nothing else happened
    in between; default on; ``root=uct`` only), ``focus`` (with ``prior=heuristic``, leave
    the decisions the game's heuristic module calls routine,
    ``routine_decision(state) -> bool``, to the heuristic and search only the rest;
    default off), ``tree`` (at most this many tree nodes per iteration, 0 = unbounded; 1
    searches the root actions only), ``horizon``
    (stop rollouts once this many more turns have begun, by the game's
    ``turn_number(state)``; 0 = off), ``root`` ("uct" or "halving": sequential halving over
    the root actions on shared determinisations, see :meth:`_halving`), ``confidence``
    (with ``root=halving`` and ``prior=heuristic``: the heuristic's action is never halved
    out, and the best survivor replaces it only when its mean paired gain over the
    heuristic's action in the same sampled worlds exceeds ``confidence`` standard errors;
    0 = off, the default), ``leaf`` ("game": score a rollout's last position by the game
    heuristic module's ``evaluate(state)`` where it has one, the default; "scores": by the
    scaled scores of :func:`score_evaluation` in every game).

    Raises :class:`AgentSpecError` for a value out of range, and on the first decision for
    an option the game cannot serve (no heuristic, no routine decisions, no turn numbers).
    """

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = DEFAULT_ITERATIONS, seconds: float = 0.0,
                 c: float = 0.7, depth: int = 4, rollout: str = "random",
                 widening: float = 2.0, prior: str = "none",
                 prior_weight: float = 1.0, reuse: bool = True, focus: bool = False,
                 tree: int = 0, horizon: int = 0, root: str = "uct",
                 confidence: float = 0.0, leaf: str = "game") -> None:
        if iterations < 1 and seconds <= 0:
            raise AgentSpecError("mcts needs iterations >= 1 or seconds > 0")
        if rollout not in ("random", "heuristic"):
            raise AgentSpecError(f"mcts rollout must be random or heuristic, not {rollout!r}")
        if root not in ("uct", "halving"):
            raise AgentSpecError(f"mcts root must be uct or halving, not {root!r}")
        if leaf not in ("game", "scores"):
            raise AgentSpecError(f"mcts leaf must be game or scores, not {leaf!r}")
        if prior not in ("none", "heuristic"):
            raise AgentSpecError(f"mcts prior must be none or heuristic, not {prior!r}")
        if confidence and (root != "halving" or prior != "heuristic"):
            raise AgentSpecError("mcts confidence needs root=halving and prior=heuristic "
                                 "(the action a survivor must beat)")
        if focus and prior != "heuristic":
            raise AgentSpecError("mcts focus=on needs prior=heuristic (the bot that plays "
                                 "the routine decisions)")
        for key, value in (("iterations", iterations), ("seconds", seconds), ("c", c),
                           ("depth", depth), ("widening", widening),
                           ("prior_weight", prior_weight), ("tree", tree),
                           ("horizon", horizon), ("confidence", confidence)):
            low, high = PARAMETER_RANGES[key]
            if not low <= value <= high:  # also false for NaN
                raise AgentSpecError(
                    f"mcts parameter {key}={value!r} is out of range: it must lie between "
                    f"{low} and {high}"
                )
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.depth = depth
        self.rollout = rollout
        self.widening = widening
        self.prior = prior
        self.prior_weight = prior_weight
        self.reuse = reuse
        self.tree = tree if tree > 0 else 1 << 30
        self.horizon = horizon
        self.root = root
        self.confidence = confidence
        self.leaf = leaf
        self._turn: Callable[[GameState], int] | None = None  # turn_number with horizon
        self._stop = 1 << 60  # rollouts end when the turn number reaches this
        self._prior_agent: Any = None
        self.rng = random.Random(seed)
        self._policy: Any = None
        self._evaluate: Evaluator | None = None
        self._skip: Callable[[GameState], bool] | None = None  # routine_decision with focus
        self.focus = focus
        self.last_iterations = 0
        self.last_determinisations = 0  # sampled worlds the last decision searched
        self.last_reused = 0  # visits the root carried over from the previous decision
        self._samples: dict[str, dict[int, float]] | None = None  # halving with confidence
        # The subtree to resume from: (game, history length, action taken, node).
        self._kept: tuple[Any, int, Action, Node] | None = None

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._kept = None

    # ------------------------------------------------------------------ setup per game
    def _prepare(self, state: GameState) -> None:
        if self._evaluate is not None:
            return
        module = game_module(type(state.game), "heuristic")
        evaluate = getattr(module, "evaluate", None) if module and self.leaf == "game" else None
        self._evaluate = evaluate or score_evaluation
        if self.focus:
            self._skip = getattr(module, "routine_decision", None) if module else None
            if self._skip is None:
                raise AgentSpecError(f"{state.game.game_id} names no routine decisions, so "
                                     "mcts focus=on has nothing to leave to its heuristic")
        if self.horizon:
            self._turn = getattr(module, "turn_number", None) if module else None
            if self._turn is None:
                raise AgentSpecError(f"{state.game.game_id} does not number its turns, so "
                                     "mcts horizon cannot stop rollouts at a turn")
        if self.rollout == "heuristic" or self.prior == "heuristic":
            factory = getattr(module, "HeuristicAgent", None) if module else None
            if factory is None:
                raise AgentSpecError(f"{state.game.game_id} has no heuristic agent")
            if self.rollout == "heuristic":
                self._policy = factory(self.rng.getrandbits(32))
            if self.prior == "heuristic":
                self._prior_agent = factory(self.rng.getrandbits(32))

    # ------------------------------------------------------------------ search
    def _resume(self, state: GameState) -> Node | None:
        """The kept subtree if ``state`` continues the game right after the agent's own last
        action (nothing else applied since), else None."""
        kept, self._kept = self._kept, None
        if kept is None or not self.reuse:
            return None
        game, length, action, node = kept
        history = state.history
        if state.game is not game or len(history) != length or history[-1] != action:
            return None
        return node

    def _keep(self, state: GameState, root: Node | None, action: Action) -> None:
        child = root.children.get(str(action)) if root is not None else None
        if child is not None and self.reuse:
            self._kept = (state.game, len(state.history) + 1, action, child)

    def act(self, state: GameState) -> Action:
        legal = state.legal_actions()
        resumed = self._resume(state)
        self.last_iterations = self.last_determinisations = self.last_reused = 0
        if len(legal) == 1:
            self._keep(state, resumed, legal[0])
            return legal[0]
        self._prepare(state)
        if self._skip is not None and self._skip(state):
            action = self._prior_agent.act(state)
            self._keep(state, resumed, action)
            return action
        seat = state.current_player()
        if self._turn is not None:
            self._stop = self._turn(state) + self.horizon
        # Halving compares the root actions on samples of its own, so it starts afresh.
        root = resumed if resumed is not None and self.root == "uct" else Node(-1)
        self.last_reused = root.visits
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else math.inf
        by_key = {str(a): a for a in legal}
        if self.root == "halving":
            best = self._halving(state, seat, root, by_key, deadline)
        else:
            limit = self.iterations if self.iterations > 0 else 1 << 60
            done = 0
            while done < limit:
                self._iterate(state, seat, root)
                done += 1
                if deadline != math.inf and time.perf_counter() >= deadline:
                    break
            self.last_iterations = self.last_determinisations = done
            best = max(
                (k for k in root.children if k in by_key),
                key=lambda k: (root.children[k].visits, root.children[k].reward),
                default=None,
            )
        action = by_key[best] if best is not None else self.rng.choice(legal)
        self._keep(state, root, action)
        return action

    def _halving(self, state: GameState, seat: int, root: Node,
                 by_key: dict[str, Action], deadline: float) -> str:
        """Sequential halving over the root actions with paired determinisations.

        The budget (``iterations``, or with ``seconds`` alone as many as the first world's
        cost says fit; ``seconds`` also stops it) is split over
        ``ceil(log2(k))`` rounds for ``k`` legal actions, what is left divided evenly over
        the rounds to come. In each round every surviving action is tried once in each of
        the same freshly determinised worlds (hidden cards and chance alike), so the
        survivors are compared on identical samples; the better half by mean value goes
        on. The first round tries every action at least once, so a decision with more
        actions than the budget takes ``k`` iterations; later rounds stop when the budget
        is spent. Below each root action the search is ordinary UCT.
        Returns the notation of the best survivor (ties: the prior's choice, then the
        order of the legal actions). With ``confidence`` the prior's action survives every
        round, and the best survivor is returned only where its paired gain over it
        (:meth:`_confident`) is significant; otherwise the prior's action.
        """
        keys = list(by_key)
        prior = str(self._prior_agent.act(state)) if self._prior_agent is not None else ""
        rank = {k: (0 if k == prior else 1, i) for i, k in enumerate(keys)}
        rounds = max(1, math.ceil(math.log2(len(keys))))
        alive, done = keys, 0
        self.last_determinisations = 0
        keep = prior if self.confidence > 0 and prior in by_key else ""
        self._samples = {} if keep else None
        timed = deadline != math.inf
        budget = self.iterations
        if budget <= 0:  # a time budget: the first world's cost sets the iterations
            start = time.perf_counter()
            done = self._paired(state, seat, root, alive, by_key)
            each = (time.perf_counter() - start) / done
            budget = max(done, int(self.seconds / max(each, 1e-9)))

        def mean(k: str) -> float:
            ch = root.children.get(k)
            return ch.reward / ch.visits if ch is not None and ch.visits else -1.0

        for r in range(rounds):
            if r and done + len(alive) > budget:
                break  # the budget is spent: the best mean so far wins
            per = max(1, (budget - done) // ((rounds - r) * len(alive)))
            out_of_time = False
            for _w in range(per):
                done += self._paired(state, seat, root, alive, by_key)
                if timed and time.perf_counter() >= deadline:
                    out_of_time = True
                    break
            alive = sorted(alive, key=lambda k: (-mean(k), rank[k]))
            if out_of_time:
                break
            alive = alive[:max(1, (len(alive) + 1) // 2)]
            if keep and keep not in alive:
                alive.append(keep)
            if len(alive) == 1:
                break
        self.last_iterations = done
        best = min(alive, key=lambda k: (-mean(k), rank[k]))
        if keep and best != keep and not self._confident(best, keep):
            return keep
        return best

    def _confident(self, best: str, prior: str) -> bool:
        """Whether ``best`` beats ``prior`` by more than ``confidence`` standard errors of
        the mean paired difference of their values (for the deciding seat, in [0, 1])
        over the sampled worlds in which both were tried; False with fewer than two."""
        samples = self._samples or {}
        a, b = samples.get(best, {}), samples.get(prior, {})
        diffs = [a[w] - b[w] for w in a if w in b]
        if len(diffs) < 2:
            return False
        return statistics.fmean(diffs) > (
            self.confidence * statistics.stdev(diffs) / math.sqrt(len(diffs)))

    def _paired(self, state: GameState, seat: int, root: Node, alive: list[str],
                by_key: dict[str, Action]) -> int:
        """Try each root action in ``alive`` once in one fresh determinisation of
        ``state``; returns the number of iterations (``len(alive)``)."""
        world = state.determinize(seat, self.rng)
        self.last_determinisations += 1
        samples = self._samples
        for k in alive:
            before = root.children[k].reward if k in root.children else 0.0
            self._visit(world, root, k, by_key[k])
            if samples is not None:
                samples.setdefault(k, {})[self.last_determinisations] = (
                    root.children[k].reward - before)
        return len(alive)

    def _widen_limit(self, node: Node) -> int:
        if self.widening <= 0:
            return 1 << 30
        return max(1, math.ceil(self.widening * math.sqrt(node.visits + 1)))

    def _iterate(self, root_state: GameState, seat: int, root: Node) -> None:
        """One UCT iteration from the root on a fresh determinisation."""
        self._descend(root_state.determinize(seat, self.rng), root, [])
        root.visits += 1

    def _visit(self, world: GameState, root: Node, key: str, action: Action) -> None:
        """One iteration that starts with root action ``action`` (notation ``key``) in a
        copy of the determinised ``world``, then continues by UCT below that child."""
        state = world.clone()
        child = root.children.get(key)
        if child is None:
            child = root.children[key] = Node(state.current_player())
        child.avail += 1
        state.apply(action)
        self._descend(state, child, [child])
        root.visits += 1

    def _descend(self, state: GameState, node: Node, path: list[Node]) -> None:
        """Select down the tree from ``node`` (``path``: the nodes entered so far), expand
        one child, roll out, and back the leaf values up ``path``."""
        rng = self.rng
        while not state.is_terminal() and len(path) < self.tree:
            legal = state.legal_actions()
            player = state.current_player()
            keys = [str(a) for a in legal]
            order = node.order
            if not order and self._prior_agent is not None:
                node.prior = str(self._prior_agent.act(state))
                order[node.prior] = -1.0
            for k in keys:
                if k not in order:
                    order[k] = rng.random()
            children = node.children
            available = [(k, a) for k, a in zip(keys, legal, strict=True)]
            for k, _a in available:
                ch = children.get(k)
                if ch is not None:
                    ch.avail += 1
            untried = [(order[k], k, a) for k, a in available if k not in children]
            if untried and len(children) < self._widen_limit(node):
                _o, key, action = min(untried)
                child = Node(player)
                children[key] = child
                state.apply(action)
                path.append(child)
                break
            tried = [(children[k], a) for k, a in available if k in children]
            if not tried:  # widening reached but nothing tried is legal here
                _o, key, action = min(untried)
                child = children[key] = Node(player)
                state.apply(action)
                path.append(child)
                break
            c = self.c
            best_child, best_action, best_value = None, None, -1.0
            biased = children.get(node.prior) if node.prior else None
            for ch, a in tried:
                if ch.visits == 0:
                    value = math.inf
                else:
                    value = ch.reward / ch.visits + c * math.sqrt(
                        math.log(max(ch.avail, 1)) / ch.visits)
                    if ch is biased:
                        value += self.prior_weight / (ch.visits + 1)
                if value > best_value:
                    best_child, best_action, best_value = ch, a, value
            assert best_child is not None and best_action is not None
            state.apply(best_action)
            path.append(best_child)
            node = best_child
        values = self._rollout(state)
        for n in path:
            n.visits += 1
            n.reward += values[n.player]

    def _rollout(self, state: GameState) -> list[float]:
        steps = 0
        rng = self.rng
        policy = self._policy
        turn, stop = self._turn, self._stop
        while steps < self.depth and not state.is_terminal():
            if turn is not None and turn(state) >= stop:
                break
            if policy is not None:
                action = policy.act(state)
            else:
                action = rng.choice(state.legal_actions())
            state.apply(action)
            steps += 1
        if state.is_terminal():
            return state.returns()
        assert self._evaluate is not None
        return self._evaluate(state)


def _flag(text: str) -> bool:
    """Parse a spec flag: on/true/yes/1 or off/false/no/0 (ValueError otherwise)."""
    word = text.strip().lower()
    if word in ("on", "true", "yes", "1"):
        return True
    if word in ("off", "false", "no", "0"):
        return False
    raise ValueError(text)


def make_mcts(seed: int, params: dict[str, str]) -> MCTSAgent:
    """Build an MCTSAgent from spec parameters (strings); AgentSpecError on bad values."""
    kinds: dict[str, Callable[[str], Any]] = {
        "iterations": int, "seconds": float, "c": float, "depth": int, "rollout": str,
        "widening": float, "prior": str, "prior_weight": float, "reuse": _flag, "focus": _flag,
        "tree": int, "horizon": int, "root": str, "confidence": float, "leaf": str,
    }
    kw: dict[str, Any] = {}
    for key, value in params.items():
        try:
            kw[key] = kinds[key](value)
        except ValueError:
            what = "on or off" if kinds[key] is _flag else "a valid number"
            raise AgentSpecError(f"mcts parameter {key}={value!r} is not {what}") from None
    if "seconds" in kw and "iterations" not in kw:
        kw["iterations"] = 0
    return MCTSAgent(seed=seed, **kw)
