"""What a battle calculator needs from a game, whatever the game: its *form* (the units one
can click into a fleet, with the damage each can carry, and the settings: techs, cards,
rule options, policies) and the reading of a filled-in form.

A game offers a calculator through a companion module ``odds_calculator`` in its package
(found with :func:`starlanes.engine.game_module`), with

- ``form(game) -> dict``: ``{"units": [Unit...], "settings": [Setting...], "help": str}``
  as JSON (see :class:`Unit`, :class:`Setting`);
- ``compute(game, attacker, defender, settings, limits) -> OddsReport``: the odds of the
  fleets ``attacker``/``defender`` (fleet text such as ``"3 fighter, destroyer/1"``) with
  the read ``settings``, within :class:`Limits`;
- ``position(state, seat) -> dict | None``: the battle ``seat`` is in, as a filled-in form
  ``{"attacker": text, "defender": text, "settings": {...}}`` (None: no battle).

The web server and the command line only call these; they know no game.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from starlanes.engine import game_module

from .rd_position import OddsError

_COUNT = re.compile(r"^\s*(\d+)\s*x?\s+\S")


@dataclass(frozen=True)
class Limits:
    """Bounds on one calculation: units per side, Monte Carlo battles, the exact state
    space, the seconds an engine simulation may run (0: no limit) and the combat orders
    a ``best`` order search may try (the web page's are tighter than the command line's)."""

    units: int = 60
    trials: int = 400
    max_states: int = 200_000
    seconds: float = 0.0
    best_orders: int = 5040


@dataclass(frozen=True)
class Unit:
    """A unit (or ship) the form offers: ``id`` as typed in fleets, ``name``, ``group``
    (e.g. ``ship``, ``ground``), ``max_damage`` (``id/N`` for N = 1..max_damage), a short
    ``stats`` line."""

    id: str
    name: str
    group: str
    max_damage: int
    stats: str


@dataclass(frozen=True)
class Setting:
    """One setting of the form: ``kind`` ``choice`` (one of ``choices``, pairs of value and
    label), ``many`` (a list of values from ``choices``, repeats allowed up to ``most``),
    ``int`` (``minimum``..``maximum``); ``side`` ``attacker``/``defender`` or "" for both;
    ``group``: ``battle``, ``tech``, ``cards``, ``rules`` or ``policy``."""

    name: str
    label: str
    kind: str
    default: Any
    group: str = "battle"
    side: str = ""
    choices: tuple[tuple[Any, str], ...] = ()
    minimum: int = 0
    maximum: int = 0
    most: int = 0
    help: str = ""
    repeats: dict[str, int] = field(default_factory=dict)

    def json(self) -> dict[str, Any]:
        d = asdict(self)
        d["choices"] = [{"value": v, "label": lab} for v, lab in self.choices]
        return d


def read_settings(settings: list[Setting], given: dict[str, Any]) -> dict[str, Any]:
    """``given`` checked against the form's ``settings``, defaults filled in. Raises
    OddsError naming the setting for an unknown name, a wrong type or a value outside its
    choices or range."""
    known = {s.name: s for s in settings}
    for name in given:
        if name not in known:
            raise OddsError(f"unknown setting {name!r}; settings: {', '.join(known)}")
    out: dict[str, Any] = {}
    for s in settings:
        v = given.get(s.name, s.default)
        values = [c[0] for c in s.choices]
        if s.kind == "choice":
            if v not in values:
                raise OddsError(f"setting {s.name!r} is one of "
                                f"{', '.join(map(repr, values))}, not {v!r}")
        elif s.kind == "int":
            if isinstance(v, bool) or not isinstance(v, int) or not (
                    s.minimum <= v <= s.maximum):
                raise OddsError(f"setting {s.name!r} is a whole number from {s.minimum} to "
                                f"{s.maximum}, not {v!r}")
        elif s.kind == "many":
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise OddsError(f"setting {s.name!r} is a list of names")
            if len(v) > s.most:
                raise OddsError(f"setting {s.name!r} takes at most {s.most} entries")
            for x, n in Counter(v).items():
                if x not in values:
                    raise OddsError(f"setting {s.name!r}: {x!r} is not one of "
                                    f"{', '.join(values)}")
                if n > s.repeats.get(x, 1):
                    raise OddsError(f"setting {s.name!r}: at most {s.repeats.get(x, 1)} "
                                    f"{x!r}")
        out[s.name] = v
    return out


def calculator(game_id: str) -> Any:
    """The ``odds_calculator`` companion module of ``game_id``. Raises UnknownGameError for
    an unknown game, OddsError for a game without battle odds."""
    module = game_module(game_id, "odds_calculator")
    if module is None:
        raise OddsError(f"{game_id} has no battles decided by dice, so no battle calculator")
    return module


def calculator_games() -> list[dict[str, str]]:
    """``[{"id": game id, "title": title}]`` of the games with a battle calculator."""
    from starlanes.engine import game_class, game_ids

    return [{"id": g, "title": game_class(g).title} for g in game_ids()
            if game_module(g, "odds_calculator") is not None]


def count_units(text: str, limit: int, side: str) -> None:
    """Raise OddsError when fleet ``text`` holds more than ``limit`` units (read loosely:
    the game's own parser reports malformed entries)."""
    n = 0
    for part in text.split(","):
        m = _COUNT.match(part)
        n += int(m.group(1)) if m else 1
        if n > limit:
            raise OddsError(f"more than {limit} {side} units; the calculator takes up to "
                            f"{limit} a side")
