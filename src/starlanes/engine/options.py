"""Game options: named, typed, with defaults and help, validated when a game is loaded."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import BadOptionError


@dataclass(frozen=True)
class OptionSpec:
    """One game option.

    ``kind`` is ``bool``, ``int`` or ``str``; ``choices`` limits str options; ``minimum`` and
    ``maximum`` bound int options. ``ruling`` names the rulings entry the option toggles.
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
        for key, value in given.items():
            name = key.replace("-", "_")
            if name not in by_name:
                known = ", ".join(sorted(by_name)) or "none"
                raise BadOptionError(f"unknown option {key!r}; this game knows: {known}")
            out[name] = by_name[name].coerce(value)
        return out


CONTENT_OPTION = OptionSpec(
    "content", str, "", "directory of TOML files overriding the packaged content"
)
"""The ``content`` option every game with content files offers (``--content DIR``)."""
