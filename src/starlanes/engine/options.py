"""Game options: named, typed, with defaults and help, validated when a game is loaded."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import BadOptionError


@dataclass(frozen=True)
class OptionSpec:
    """One game option.

    ``kind`` is ``bool``, ``int``, ``str`` or ``tuple`` (a list of texts); ``choices`` limits
    str options; ``minimum`` and ``maximum`` bound int options. ``help`` says what the option
    settles; ``ruling`` names the rulings entry (or rule ID) it toggles.
    """

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    ruling: str = ""

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted to this option's type; raise BadOptionError otherwise.

        Strings from the command line are accepted: ``"true"``/``"false"`` for bools and
        decimal digits for ints.
        """
        v = value
        if self.kind is tuple:
            if isinstance(v, str):
                v = (v,) if v else ()
            if not isinstance(v, list | tuple) or not all(isinstance(x, str) for x in v):
                raise BadOptionError(f"option {self.name!r} wants a list of texts, got {value!r}")
            return tuple(v)
        if self.kind is bool:
            if isinstance(v, str):
                low = v.strip().lower()
                if low in ("1", "true", "yes", "on"):
                    v = True
                elif low in ("0", "false", "no", "off"):
                    v = False
            if not isinstance(v, bool):
                raise BadOptionError(f"option {self.name!r} wants true or false, got {value!r}")
            return v
        if self.kind is int:
            if isinstance(v, str):
                try:
                    v = int(v.strip())
                except ValueError:
                    raise BadOptionError(
                        f"option {self.name!r} wants an integer, got {value!r}"
                    ) from None
            if isinstance(v, bool) or not isinstance(v, int):
                raise BadOptionError(f"option {self.name!r} wants an integer, got {value!r}")
            if self.minimum is not None and v < self.minimum:
                raise BadOptionError(f"option {self.name!r} must be >= {self.minimum}, got {v}")
            if self.maximum is not None and v > self.maximum:
                raise BadOptionError(f"option {self.name!r} must be <= {self.maximum}, got {v}")
            return v
        if not isinstance(v, str):
            raise BadOptionError(f"option {self.name!r} wants text, got {value!r}")
        if self.choices and v not in self.choices:
            raise BadOptionError(
                f"option {self.name!r} must be one of {', '.join(self.choices)}; got {v!r}"
            )
        return v


@dataclass(frozen=True)
class OptionSet:
    """The options a game accepts."""

    specs: tuple[OptionSpec, ...] = field(default_factory=tuple)

    def resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``given``, each value validated.

        Raises BadOptionError naming an unknown option and the known ones.
        """
        by_name = {s.name: s for s in self.specs}
        out = {s.name: s.default for s in self.specs}
        dotted: list[str] = []
        for key, value in given.items():
            if key.startswith("content.") and "content_set" in by_name:
                dotted.append(f"{key.removeprefix('content.')}={value}")
                continue
            name = key.replace("-", "_")
            if name not in by_name:
                known = ", ".join(sorted(by_name)) or "none"
                raise BadOptionError(f"unknown option {key!r}; this game knows: {known}")
            out[name] = by_name[name].coerce(value)
        if dotted:
            out["content_set"] = tuple(out["content_set"]) + tuple(dotted)
        return out

    def describe(self) -> list[dict[str, Any]]:
        """Every option as ``{name, type, default, allowed, settles, ruling}`` (what
        ``starlanes games GAME`` prints)."""
        rows = []
        for s in self.specs:
            if s.choices:
                allowed = ", ".join(s.choices)
            elif s.kind is bool:
                allowed = "true, false"
            elif s.kind is int:
                lo = "" if s.minimum is None else str(s.minimum)
                hi = "" if s.maximum is None else str(s.maximum)
                allowed = f"{lo}..{hi}" if lo or hi else "any integer"
            elif s.kind is tuple:
                allowed = ("one text per seat, in seat order" if s.name == "seat_setup"
                           else "FILE.ID.KEY=VALUE, repeatable")
            else:
                allowed = "any text"
            default = s.default
            if s.kind is bool:
                default = str(default).lower()
            elif s.kind is tuple:
                default = ", ".join(default) or "(none)"
            elif s.kind is str and default == "":
                default = "(none)"
            kind = {bool: "bool", int: "integer", str: "text", tuple: "list"}[s.kind]
            rows.append({"name": s.name, "type": kind, "default": str(default),
                         "allowed": allowed, "settles": s.help, "ruling": s.ruling})
        return rows


CONTENT_OPTION = OptionSpec(
    "content", str, "",
    "directory of TOML files merged over the packaged content (--content DIR); it may hold "
    "only the entries and keys it changes; stored as an absolute path"
)
"""The ``content`` option every game with content files offers (``--content DIR``)."""

CONTENT_SET_OPTION = OptionSpec(
    "content_set", tuple, (),
    "dotted content overrides FILE.ID.KEY=VALUE applied after the content directory; on the "
    "command line write -o content.FILE.ID.KEY=VALUE (e.g. -o content.units.destroyer.cost=2)"
)
"""The ``content_set`` option: dotted content overrides (see engine.content.ContentFiles)."""

SEAT_SETUP = "seat_setup"
SEAT_SETUP_OPTION = OptionSpec(
    SEAT_SETUP, tuple, (),
    "what each seat brings to the game, in seat order ('' for the game's default), e.g. a "
    "deck code; the game checks it; a server keeps it hidden from the other seats until "
    "the game is over (on the command line give it with --deck)"
)
"""The per-seat setup option (``seat_setup``) of a game whose seats may bring something of
their own (a deck): one text per seat, read and checked by the game. A server takes it per
seat on create and join (never in ``options``), hides it from the other seats, the lobby and
spectators, and the game record holds it once the game is over."""
