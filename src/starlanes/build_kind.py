"""Which build of starlanes is running: the compiled rules modules or pure Python.

``COMPILED_MODULES`` lists the modules that ``setup.py`` compiles to C extensions (Cython
in pure-Python mode) when a C compiler is present: the engine core's and, per game, the
rules modules that random playouts spend their time in (measured with cProfile), and what
the research adapters' loop runs at every step (the action spaces' index maps, the
observation tensors, the PettingZoo environment and its rewards); the presentation,
explanation and bot modules stay interpreted. The ``.py`` files stay the one source; see
docs/engine.md, "Compiled build".

:func:`describe` (what ``starlanes --version`` prints) finds the extensions beside the
installed package's files without importing them; :func:`imported` says how the listed
modules that this process has imported were loaded.
"""

from __future__ import annotations

import importlib.machinery
import sys
from pathlib import Path

COMPILED_MODULES: tuple[str, ...] = (
    "starlanes.engine.action",
    "starlanes.engine.action_space",
    "starlanes.engine.decision",
    "starlanes.engine.rng",
    "starlanes.engine.state",
    "starlanes.engine.tensor_rows",
    "starlanes.games.galactic_domination.action_space",
    "starlanes.games.galactic_domination.actions",
    "starlanes.games.galactic_domination.fleet",
    "starlanes.games.galactic_domination.rules",
    "starlanes.games.galactic_domination.setup",
    "starlanes.games.galactic_domination.specials",
    "starlanes.games.galactic_domination.state",
    "starlanes.games.galactic_domination.tensor",
    "starlanes.games.galactic_domination.turn",
    "starlanes.games.galactic_empires.action_space",
    "starlanes.games.galactic_empires.actions",
    "starlanes.games.galactic_empires.alloc",
    "starlanes.games.galactic_empires.cardplay",
    "starlanes.games.galactic_empires.effects",
    "starlanes.games.galactic_empires.empires",
    "starlanes.games.galactic_empires.endturn",
    "starlanes.games.galactic_empires.fire",
    "starlanes.games.galactic_empires.rules",
    "starlanes.games.galactic_empires.setup",
    "starlanes.games.galactic_empires.state",
    "starlanes.games.galactic_empires.tensor",
    "starlanes.games.galactic_empires.units",
    "starlanes.games.galactic_empires.windows",
    "starlanes.games.interstellar_ambitions.action_space",
    "starlanes.games.interstellar_ambitions.actions",
    "starlanes.games.interstellar_ambitions.combat",
    "starlanes.games.interstellar_ambitions.common",
    "starlanes.games.interstellar_ambitions.economy",
    "starlanes.games.interstellar_ambitions.fleetworks",
    "starlanes.games.interstellar_ambitions.rng",
    "starlanes.games.interstellar_ambitions.rules",
    "starlanes.games.interstellar_ambitions.setup",
    "starlanes.games.interstellar_ambitions.shadow",
    "starlanes.games.interstellar_ambitions.state",
    "starlanes.games.interstellar_ambitions.tensor",
    "starlanes.games.interstellar_ambitions.turn",
    "starlanes.games.rift_domination.action_space",
    "starlanes.games.rift_domination.actions",
    "starlanes.games.rift_domination.battle",
    "starlanes.games.rift_domination.battle_end",
    "starlanes.games.rift_domination.battle_model",
    "starlanes.games.rift_domination.battle_skills",
    "starlanes.games.rift_domination.factions",
    "starlanes.games.rift_domination.movement",
    "starlanes.games.rift_domination.occ",
    "starlanes.games.rift_domination.planets",
    "starlanes.games.rift_domination.rules",
    "starlanes.games.rift_domination.setup",
    "starlanes.games.rift_domination.state",
    "starlanes.games.rift_domination.survey",
    "starlanes.games.rift_domination.tensor",
    "starlanes.games.rift_domination.tensor_tables",
    "starlanes.games.rift_domination.turn",
    "starlanes.games.rift_domination.units",
    "starlanes.interop.pettingzoo_env",
    "starlanes.interop.rewards",
)
"""The modules compiled in a compiled build (dotted names), read by ``setup.py``; this
file imports only the standard library, so that the build can run it on its own."""


def compiled_modules() -> list[str]:
    """The listed modules that Python would import from a C extension here: those whose
    directory in the installed package holds ``<name><suffix>`` for one of
    ``importlib.machinery.EXTENSION_SUFFIXES`` (the import system tries extensions before
    ``.py`` files). Nothing is imported but ``starlanes`` itself."""
    root = Path(__file__).resolve().parent
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    found = []
    for name in COMPILED_MODULES:
        *packages, leaf = name.split(".")[1:]
        folder = root.joinpath(*packages)
        if any((folder / f"{leaf}{suffix}").is_file() for suffix in suffixes):
            found.append(name)
    return found


def describe() -> str:
    """``"compiled (N modules)"`` or ``"pure Python"``."""
    n = len(compiled_modules())
    return f"compiled ({n} modules)" if n else "pure Python"


def imported() -> tuple[int, int]:
    """``(compiled, imported)``: how many of the listed modules this process has imported,
    and how many of those came from a C extension."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    loaded = [sys.modules[name] for name in COMPILED_MODULES if name in sys.modules]
    compiled = sum(1 for m in loaded if (getattr(m, "__file__", None) or "").endswith(suffixes))
    return compiled, len(loaded)
