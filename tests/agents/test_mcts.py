"""MCTS / ISMCTS (starlanes.agents.mcts): forced wins, no peeking at hidden information,
reproducibility under a seed."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.agents.mcts import MCTSAgent, score_evaluation
from starlanes.agents.registry import make_agent
from starlanes.engine import AgentSpecError

from .toygames import GuessCard, Nim, Wager


@pytest.mark.parametrize("pile", [4, 5, 7, 8])
def test_finds_the_forced_win_in_nim(pile):
    """From a pile that is not a multiple of 3 the winning move leaves a multiple of 3."""
    state = Nim(players=2, seed=1, pile=pile).new_initial_state()
    agent = MCTSAgent(seed=3, iterations=400, depth=50, widening=0)
    assert agent.act(state).n == pile % 3


def test_plays_a_forced_win_to_the_end():
    state = Nim(players=2, seed=1, pile=10).new_initial_state()
    agent = MCTSAgent(seed=5, iterations=300, depth=50, widening=0)
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply(agent.act(state))
        else:
            state.apply(state.legal_actions()[0])
    assert state.returns() == [1.0, 0.0]


def test_ismcts_never_reads_the_hidden_card():
    """The choice is the same whatever seat 1 really holds: every iteration searches a
    determinisation drawn with the agent's own RNG, never the real hidden card."""
    choices = set()
    for card in ("a", "b"):
        state = GuessCard(players=2, seed=1, card=card).new_initial_state()
        choices.add(str(MCTSAgent(seed=11, iterations=200).act(state)))
    assert len(choices) == 1


def test_search_leaves_the_real_state_unchanged():
    state = Nim(players=2, seed=1, pile=9).new_initial_state()
    before = state.digest()
    MCTSAgent(seed=1, iterations=100).act(state)
    assert state.digest() == before


def test_reproducible_under_a_seed():
    state = Nim(players=2, seed=1, pile=20).new_initial_state()
    a = [str(MCTSAgent(seed=9, iterations=60).act(state)) for _ in range(3)]
    assert len(set(a)) == 1


def test_rift_domination_search_is_reproducible_and_legal():
    import starlanes

    state = starlanes.load("rift-domination", players=2, seed=3).new_initial_state()
    for _ in range(60):
        state.apply(state.legal_actions()[0])
    picks = []
    for _ in range(2):
        agent = make_agent("mcts:iterations=30,depth=2", "rift-domination", 4)
        picks.append(agent.act(state))
    assert picks[0] == picks[1] and state.is_legal(picks[0])


def test_rift_domination_mcts_takes_the_winning_planet(rd):
    """A constructed forced win: seat 1 (last in the round) has 9 VP of 10 and can land on
    an uncontrolled harvester planet that completes a system (+1 VP); the round then ends
    with seat 1 the only one at the target."""
    s = rd.blank(factions=[rd.NEUTRAL, rd.NEUTRAL])
    s.seat = 1
    s.vp = [5, 9]
    rd.tile(s, "B2a", "harvester", 1)
    rd.place(s, 1, "carrier", "B2a", mp=1)
    rd.place(s, 1, "infantry", "B2a")
    rd.touch(s)
    agent = MCTSAgent(seed=2, iterations=300, depth=6)
    assert str(agent.act(s)) == "land B2a"


def test_score_evaluation_ranks_scores():
    state = Nim(players=2, seed=1, pile=3).new_initial_state()
    assert score_evaluation(state) == [0.5, 0.5]


def test_bad_parameters_are_rejected():
    with pytest.raises(AgentSpecError):
        MCTSAgent(iterations=0, seconds=0)
    with pytest.raises(AgentSpecError):
        MCTSAgent(rollout="oracle")


def _play_with_reuse_log(reuse: bool) -> list[tuple[bool, int]]:
    """Seat 0 is MCTS in a 2-player Rift Domination game cut after 150 actions; one entry
    per search: (was the last action the agent's own choice, visits carried over)."""
    import starlanes

    state = starlanes.load("rift-domination", players=2, seed=5).new_initial_state()
    agent = MCTSAgent(seed=3, iterations=20, depth=2, reuse=reuse)
    other = make_agent("random", "rift-domination", 9)
    log: list[tuple[bool, int]] = []
    mine: set[int] = set()  # history indices of the agent's own actions
    for _ in range(150):
        if state.is_terminal():
            break
        if state.current_player() == 0:
            searched = len(state.legal_actions()) > 1
            action = agent.act(state)
            if searched:
                log.append((len(state.history) - 1 in mine, agent.last_reused))
            mine.add(len(state.history))
        else:
            action = other.act(state)
        state.apply(action)
    return log


def test_tree_reuse_resumes_only_after_the_agents_own_action():
    """Tree reuse (issue 6): a decision right after the agent's own action starts from the
    subtree it already searched; after any other seat's action it starts afresh."""
    log = _play_with_reuse_log(reuse=True)
    assert any(own and carried > 0 for own, carried in log)
    assert all(carried == 0 for own, carried in log if not own)
    assert all(carried == 0 for _own, carried in _play_with_reuse_log(reuse=False))


def test_tree_reuse_never_crosses_into_another_game():
    """Equal history in another game object (a new game, a reload, an undo) is not
    resumed: the kept subtree belongs to the game it was searched in."""
    import starlanes

    first = starlanes.load("rift-domination", players=2, seed=5).new_initial_state()
    agent = MCTSAgent(seed=1, iterations=30, depth=2)
    other = make_agent("random", "rift-domination", 9)
    while True:
        if first.current_player() != 0:
            first.apply(other.act(first))
            continue
        searched = len(first.legal_actions()) > 1
        first.apply(agent.act(first))
        if searched and first.current_player() == 0 and len(first.legal_actions()) > 1:
            break
    assert agent._kept is not None
    second = starlanes.load("rift-domination", players=2, seed=5).new_initial_state()
    for action in first.history:
        second.apply_notation(str(action))
    agent.act(second)
    assert agent.last_reused == 0
    agent.reset(2)
    assert agent._kept is None


def test_reuse_flag_in_specs():
    assert make_agent("mcts:reuse=off", "rift-domination", 0).reuse is False
    with pytest.raises(AgentSpecError, match="not on or off"):
        make_agent("mcts:reuse=maybe", "rift-domination", 0)


def test_focus_leaves_routine_decisions_to_the_heuristic():
    """focus=on: where the game calls a decision routine (Galactic Empires: all but card
    plays and fire targets) the agent plays the heuristic without searching; elsewhere it
    searches within its budget."""
    import starlanes
    from starlanes.games.galactic_empires.heuristic import routine_decision

    state = starlanes.load("galactic-empires", players=2, seed=3).new_initial_state()
    agent = make_agent("mcts:focus=on,iterations=12,depth=2", "galactic-empires", 1)
    seen = {True: 0, False: 0}
    for _ in range(400):
        if state.is_terminal():
            break
        searched = len(state.legal_actions()) > 1
        routine = routine_decision(state)
        action = agent.act(state)
        if searched:  # halving tries each root action at least once
            expected = max(12, len(state.legal_actions()))
            if routine:
                assert agent.last_iterations == 0
            else:
                assert 0 < agent.last_iterations <= expected
            seen[routine] += 1
        state.apply(action)
    assert seen[True] > 0 and seen[False] > 0


def test_focus_needs_the_heuristic_and_a_game_that_names_routine_decisions():
    import starlanes

    with pytest.raises(AgentSpecError, match="needs prior=heuristic"):
        MCTSAgent(focus=True)
    agent = make_agent("mcts:focus=on", "rift-domination", 0)
    state = starlanes.load("rift-domination", players=2, seed=1).new_initial_state()
    with pytest.raises(AgentSpecError, match="names no routine decisions"):
        agent.act(state)


@pytest.mark.parametrize("pile", [4, 5, 7])
def test_halving_finds_the_forced_win_in_nim(pile):
    state = Nim(players=2, seed=1, pile=pile).new_initial_state()
    agent = MCTSAgent(seed=3, iterations=200, depth=50, widening=0, root="halving")
    assert agent.act(state).n == pile % 3


def test_halving_compares_root_actions_on_the_same_determinisations():
    """root=halving: every root action is tried in the same sampled worlds, so a small edge
    that the hidden card swamps in unpaired samples decides every time; plain UCT on the
    same tiny budget does not see it reliably."""
    state = Wager(players=2, seed=1).new_initial_state()
    halving = {str(MCTSAgent(seed=s, iterations=4, root="halving").act(state))
               for s in range(20)}
    assert halving == {"say high"}
    uct = [str(MCTSAgent(seed=s, iterations=4).act(state)) for s in range(20)]
    assert "say low" in uct


def test_halving_spends_its_budget_in_rounds_and_never_reads_the_hidden_card():
    state = Nim(players=2, seed=1, pile=30).new_initial_state()
    agent = MCTSAgent(seed=2, iterations=40, root="halving")
    agent.act(state)
    assert 0 < agent.last_iterations <= 40
    agent = MCTSAgent(seed=2, iterations=1, root="halving")  # every action once at least
    agent.act(state)
    assert agent.last_iterations == 2
    choices = set()
    for card in ("a", "b"):
        guess = GuessCard(players=2, seed=1, card=card).new_initial_state()
        choices.add(str(MCTSAgent(seed=11, iterations=50, root="halving").act(guess)))
    assert len(choices) == 1


def test_halving_and_horizon_in_specs():
    agent = make_agent("mcts:root=halving,horizon=2,tree=1", "galactic-empires", 0)
    assert (agent.root, agent.horizon, agent.tree) == ("halving", 2, 1)
    with pytest.raises(AgentSpecError, match="root must be uct or halving"):
        make_agent("mcts:root=best", "galactic-empires", 0)
    with pytest.raises(AgentSpecError, match="not a valid number"):
        make_agent("mcts:horizon=soon", "galactic-empires", 0)
    import starlanes

    agent = make_agent("mcts:horizon=1", "galactic-domination", 0)
    state = starlanes.load("galactic-domination", players=2, seed=1).new_initial_state()
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    with pytest.raises(AgentSpecError, match="does not number its turns"):
        agent.act(state)


@pytest.mark.parametrize(("game_id", "players"), [("galactic-empires", 2),
                                                  ("interstellar-ambitions", 3)])
def test_horizon_stops_rollouts_when_the_turn_has_passed(game_id, players):
    """horizon=1: a rollout ends as soon as the game's turn number has moved one past the
    decision's, not after ``depth`` actions, so every leaf is scored between two turns."""
    import starlanes
    from starlanes.engine import game_module

    turn_number = game_module(game_id, "heuristic").turn_number
    state = starlanes.load(game_id, players=players, seed=2).new_initial_state()
    bots = [make_agent("heuristic", game_id, s) for s in range(players)]
    for _ in range(60):
        state.apply(bots[state.current_player()].act(state))
    agent = make_agent("mcts:horizon=1,depth=10000,iterations=4", game_id, 1)
    agent._prepare(state)
    agent._stop = turn_number(state) + 1
    leaf = state.clone()
    values = agent._rollout(leaf)
    assert len(values) == players
    assert leaf.is_terminal() or turn_number(leaf) == turn_number(state) + 1
    # the turn had more to it than one action: the rollout played it out
    assert len(leaf.history) > len(state.history) + 1


def test_halving_on_a_time_budget_runs_its_rounds():
    """With seconds alone, halving sizes its rounds from the first world's cost: it does
    more than one round's work and still finds the winning move."""
    state = Nim(players=2, seed=1, pile=8).new_initial_state()
    agent = MCTSAgent(seed=4, iterations=0, seconds=0.05, depth=50, widening=0,
                      root="halving")
    assert agent.act(state).n == 2
    assert agent.last_iterations > 2


@pytest.mark.parametrize("spec", [
    "mcts:c=nan", "mcts:c=inf", "mcts:iterations=1000000000000000000000000",
    "mcts:seconds=1e12", "mcts:seconds=nan", "mcts:widening=-1", "mcts:prior_weight=nan",
    "mcts:horizon=99999999", "mcts:depth=-3",
])
def test_absurd_mcts_parameters_are_refused_with_the_range(spec):
    with pytest.raises(AgentSpecError, match="out of range"):
        make_agent(spec, "galactic-domination", 0)



def test_determinisations_per_decision_are_counted(monkeypatch):
    """last_determinisations (issue 29) is the number of sampled worlds the last decision
    searched: one per iteration with UCT at the root, one per paired round of tries with
    halving (each world serves every surviving root action), none for a forced move."""
    state_type = type(GuessCard(players=2, seed=1, card="a").new_initial_state())
    real = state_type.determinize
    calls = [0]

    def counted(self, seat, rng):
        calls[0] += 1
        return real(self, seat, rng)

    monkeypatch.setattr(state_type, "determinize", counted)
    seen = {}
    for root, iterations in (("uct", 25), ("halving", 40)):
        calls[0] = 0
        agent = MCTSAgent(seed=4, iterations=iterations, root=root)
        agent.act(GuessCard(players=2, seed=1, card="a").new_initial_state())
        assert agent.last_determinisations == calls[0] > 0
        seen[root] = agent
    assert seen["uct"].last_determinisations == seen["uct"].last_iterations == 25
    assert seen["halving"].last_determinisations < seen["halving"].last_iterations
    uct = seen["uct"]
    uct.act(Nim(players=2, seed=1, pile=1).new_initial_state())  # one legal action
    assert uct.last_determinisations == uct.last_iterations == 0


class _Names:
    """A stand-in heuristic that always names the action with notation ``key``."""

    def __init__(self, key: str) -> None:
        self.key = key

    def act(self, state):
        return next(a for a in state.legal_actions() if str(a) == self.key)


def _confident_halving(seed: int, prior: str, confidence: float) -> MCTSAgent:
    agent = MCTSAgent(seed=seed, iterations=24, root="halving", prior="heuristic",
                      confidence=confidence)
    agent._evaluate = score_evaluation  # the toy games have no heuristic module
    agent._prior_agent = _Names(prior)
    return agent


def test_confidence_keeps_the_heuristic_unless_the_paired_gain_is_significant():
    """confidence=z (issue 29): the best survivor of halving replaces the heuristic's
    action only when its mean gain over it in the same sampled worlds exceeds z standard
    errors. In GuessCard both guesses are worth the same and each world favours one by a
    whole point, so with z=2 the heuristic's guess stands for every seed, where plain
    halving follows the noise; in Wager "high" gains exactly 0.05 in every world, which is
    significant however small."""
    guess = GuessCard(players=2, seed=1, card="a").new_initial_state()
    kept = {str(_confident_halving(s, "say b", 2.0).act(guess)) for s in range(20)}
    assert kept == {"say b"}
    noisy = {str(_confident_halving(s, "say b", 0.0).act(guess)) for s in range(20)}
    assert noisy == {"say a", "say b"}
    wager = Wager(players=2, seed=1).new_initial_state()
    assert {str(_confident_halving(s, "say low", 2.0).act(wager))
            for s in range(10)} == {"say high"}


def test_confidence_needs_halving_and_the_heuristic_prior():
    with pytest.raises(AgentSpecError, match="confidence needs root=halving"):
        MCTSAgent(confidence=2.0, prior="heuristic")
    with pytest.raises(AgentSpecError, match="confidence needs root=halving"):
        MCTSAgent(confidence=2.0, root="halving")
    agent = make_agent("mcts:root=halving,prior=heuristic,confidence=1.5",
                       "interstellar-ambitions", 0)
    assert agent.confidence == 1.5
    with pytest.raises(AgentSpecError, match="out of range"):
        make_agent("mcts:root=halving,prior=heuristic,confidence=50", "galactic-empires", 0)


def test_leaf_chooses_the_games_evaluation_or_the_scaled_scores():
    """leaf=game (the default) scores rollouts' last positions by the game heuristic
    module's evaluate; leaf=scores by the scaled scores in every game; anything else is
    refused before a search starts."""
    from starlanes.games.interstellar_ambitions.heuristic import evaluate

    state = starlanes.load("interstellar-ambitions", players=3, seed=3).new_initial_state()
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    default = make_agent("mcts:iterations=6", "interstellar-ambitions", 0)
    scores = make_agent("mcts:iterations=6,leaf=scores", "interstellar-ambitions", 0)
    default.act(state)
    scores.act(state)
    assert default._evaluate is evaluate and scores._evaluate is score_evaluation
    with pytest.raises(AgentSpecError, match="leaf must be game or scores"):
        make_agent("mcts:leaf=neural", "interstellar-ambitions", 0)
