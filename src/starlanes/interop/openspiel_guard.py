"""Refuse pyspiel's C++ search bots on Python-defined games before they crash.

``pyspiel.MCTSBot.step`` and ``pyspiel.ISMCTSBot.step`` release Python's global
interpreter lock for the whole search (their bindings' ``gil_scoped_release`` call guard)
and then clone the state; a Python-defined state's ``Clone`` imports ``copy`` and calls
``deepcopy`` through the C API without the lock, and the interpreter dereferences a null
thread state: a segmentation fault (seen in open_spiel 2.0.2 with every Python game,
OpenSpiel's own ``python_tic_tac_toe`` included; a backtrace shows
``PyImport_ImportModule`` under ``PyState::Clone`` under ``MCTSBot::ApplyTreePolicy``).

:func:`guard_cpp_bots` replaces the two classes in ``pyspiel`` by subclasses that raise a
``TypeError`` for a Python-defined game or state, naming the Python bots that work
(``open_spiel.python.algorithms.mcts.MCTSBot`` and ``ismcts.ISMCTSBot``). C++ games pass
through unchanged, and ``isinstance`` checks against the originals still hold.
"""

from __future__ import annotations

from typing import Any

import pyspiel

_ADVICE = ("pyspiel's C++ {name} releases the interpreter lock while it searches and "
           "crashes the process on a game written in Python such as {game!r}; use "
           "open_spiel.python.algorithms.{module} instead")


def python_defined(obj: Any) -> bool:
    """Whether ``obj`` (a pyspiel game or state) is implemented in Python."""
    module = type(obj).__module__
    return not (module == "pyspiel" or module.startswith("pyspiel."))


def _name(obj: Any) -> str:
    game = obj.get_game() if isinstance(obj, pyspiel.State) else obj
    try:
        return game.get_type().short_name
    except Exception:  # a half-built object: its class names it well enough
        return type(obj).__name__


def _refuse(obj: Any, name: str, module: str) -> None:
    if python_defined(obj):
        raise TypeError(_ADVICE.format(name=name, game=_name(obj), module=module))


def guard_cpp_bots() -> None:
    """Install the guarded ``pyspiel.MCTSBot`` and ``pyspiel.ISMCTSBot`` (once)."""
    if getattr(pyspiel.MCTSBot, "_starlanes_guard", False):
        return
    cpp_mcts, cpp_ismcts = pyspiel.MCTSBot, pyspiel.ISMCTSBot

    class MCTSBot(cpp_mcts):  # type: ignore[misc, valid-type]
        """pyspiel's C++ MCTS bot, refusing Python-defined games (TypeError)."""

        _starlanes_guard = True

        def __init__(self, game: Any, *args: Any, **kwargs: Any) -> None:
            _refuse(game, "MCTSBot", "mcts.MCTSBot")
            super().__init__(game, *args, **kwargs)

        def step(self, state: Any) -> int:
            _refuse(state, "MCTSBot", "mcts.MCTSBot")
            return super().step(state)

    class ISMCTSBot(cpp_ismcts):  # type: ignore[misc, valid-type]
        """pyspiel's C++ ISMCTS bot, refusing Python-defined states (TypeError)."""

        _starlanes_guard = True

        def step(self, state: Any) -> int:
            _refuse(state, "ISMCTSBot", "ismcts.ISMCTSBot")
            return super().step(state)

        def step_with_policy(self, state: Any) -> Any:
            _refuse(state, "ISMCTSBot", "ismcts.ISMCTSBot")
            return super().step_with_policy(state)

    MCTSBot.__module__ = ISMCTSBot.__module__ = "pyspiel"
    pyspiel.MCTSBot, pyspiel.ISMCTSBot = MCTSBot, ISMCTSBot
