"""The ``starlanes`` command: list games, play in the terminal, simulate, rate bots, replay.

``starlanes games`` lists the games; ``starlanes play GAME`` seats you (and bots) at a
terminal table; ``starlanes simulate GAME`` runs many bot games and summarises them (``--json``
for programs); ``starlanes tournament GAME`` rates agents against each other over
seat-balanced games; ``starlanes balance GAME`` and ``starlanes compare GAME`` are the
designer's lab (win rates by seat, faction and opening; A/B tests of variants);
``starlanes replay FILE`` verifies or steps through a saved record.

Each group of commands lives in its own module and registers itself on :data:`app`;
importing this package registers them all.

User errors (unknown game, bad option, bad agent spec, bad record, bad content) print one
line ``error: ...`` on stderr and exit with status 2.
"""

from starlanes.cli import (  # noqa: F401  (register commands)
    admin_cmds,
    bot_runs,
    content_cmds,
    deck_cmds,
    lab_cmds,
    ladder_cmds,
    odds_cmds,
    play_cmds,
    server_cmds,
)
from starlanes.cli.app import app, main, seat_agents, split_list

__all__ = ["app", "main", "seat_agents", "split_list"]
