"""Action-space and observation sizes of every game, as the research environments report
them.

Run: ``python benchmarks/action_spaces.py`` (needs the ``rl`` extra; the last column needs
``open_spiel`` and shows ``-`` without it). Prints the markdown table of docs/research.md
("Sizes"), one row per game and player count, with the packaged content:

- ``actions``: ``action_space(agent).n`` of the PettingZoo environment (the game's
  ``num_distinct_actions()``, the same in every adapter);
- ``observation``: the shape of the PettingZoo environment's observation tensor Box;
- ``families``: the action space's notation families (verbs and target forms), which the
  OpenSpiel information-state tensor counts per seat;
- ``information state``: ``information_state_tensor_size()`` of the OpenSpiel game.

``tests/interop/test_doc_sizes.py`` reads the table of docs/research.md and compares
every row with :func:`measure`, so the document fails a test when the code changes: run
this script and paste its output over the table.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from starlanes.engine import game_ids, game_module, load

HEADER = ("| game | players | actions | observation | families | information state |\n"
          "|---|---|---|---|---|---|")


@dataclass(frozen=True)
class Sizes:
    """One row: the game's title, its player count, the action-space size, the
    observation tensor's shape, the action families, and the OpenSpiel information-state
    tensor's size (None without ``open_spiel``)."""

    title: str
    players: int
    actions: int
    observation: tuple[int, ...]
    families: int
    information_state: int | None

    def row(self) -> str:
        """The row as the markdown table writes it (numbers with thousands commas, the
        shape as ``a x b``)."""
        shape = " x ".join(f"{d:,}" for d in self.observation)
        info = "-" if self.information_state is None else f"{self.information_state:,}"
        return (f"| {self.title} | {self.players} | {self.actions:,} | {shape} | "
                f"{self.families} | {info} |")


def research_games() -> list[tuple[str, int]]:
    """(game id, players) for every game with an action space and a tensor, at every
    legal player count."""
    out = []
    for gid in game_ids():
        if game_module(gid, "action_space") and game_module(gid, "tensor"):
            g = load(gid)
            out += [(gid, n) for n in range(g.min_players, g.max_players + 1)]
    return out


def measure(game_id: str, players: int) -> Sizes:
    """The sizes the environments report for ``game_id`` with ``players`` seats."""
    from starlanes.envs.pettingzoo import raw_env

    env = raw_env(game_id, players=players)
    agent = env.possible_agents[0]
    box = env.observation_space(agent)["observation"]
    info = None
    try:
        import pyspiel

        from starlanes.interop import openspiel_game
    except ImportError:
        pass
    else:
        spiel = pyspiel.load_game(openspiel_game.short_name(game_id), {"players": players})
        info = spiel.information_state_tensor_size()
    return Sizes(env.game.title, players, int(env.action_space(agent).n), tuple(box.shape),
                 len(env.game.action_space().families), info)


def table() -> str:
    """The markdown table of every game and player count, sorted by title."""
    rows = sorted((measure(g, n) for g, n in research_games()),
                  key=lambda s: (s.title, s.players))
    return "\n".join([HEADER, *(s.row() for s in rows)])


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    print(table())


if __name__ == "__main__":
    main()
