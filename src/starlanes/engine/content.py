"""Content files: TOML validated by a pydantic schema.

Every entry says where its numbers come from: ``source = "rulebook"`` (printed in the
rulebook) or ``source = "designed"`` with a one-line ``rationale`` (the rulebook is silent
and starlanes chose). A directory given with ``--content DIR`` overrides the packaged files
file by file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from .errors import ContentError

M = TypeVar("M", bound=BaseModel)


class ContentEntry(BaseModel):
    """Base of every content entry: provenance is required."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: Literal["rulebook", "designed"]
    rationale: str = ""

    @model_validator(mode="after")
    def _designed_needs_rationale(self) -> ContentEntry:
        if self.source == "designed" and not self.rationale.strip():
            raise ValueError("a designed entry needs a one-line rationale")
        return self


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file; raises ContentError naming the file and the TOML error."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ContentError(f"content file {path} does not exist") from None
    except tomllib.TOMLDecodeError as e:
        raise ContentError(f"content file {path} is not valid TOML: {e}") from None


def load_table(path: Path, key: str, model: type[M]) -> dict[str, M]:
    """Load the array of tables ``[[key]]`` of ``path`` as ``{entry.id: entry}``.

    Every table must have a unique ``id``. Raises ContentError naming the file, the entry
    and the field at fault.
    """
    data = read_toml(path)
    rows = data.get(key)
    if not isinstance(rows, list) or not rows:
        raise ContentError(f"content file {path} has no [[{key}]] entries")
    out: dict[str, M] = {}
    for i, row in enumerate(rows):
        name = row.get("id", f"#{i + 1}") if isinstance(row, dict) else f"#{i + 1}"
        try:
            entry = model.model_validate(row)
        except ValidationError as e:
            err = e.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            raise ContentError(
                f"{path.name}: entry {name!r}: {loc + ': ' if loc else ''}{err['msg']}"
            ) from None
        ident = getattr(entry, "id", name)
        if ident in out:
            raise ContentError(f"{path.name}: entry id {ident!r} appears twice")
        out[ident] = entry
    return out


def content_path(default_dir: Path, override_dir: Path | None, filename: str) -> Path:
    """The override file if ``override_dir`` has it, else the packaged one."""
    if override_dir is not None:
        p = Path(override_dir) / filename
        if p.exists():
            return p
    return default_dir / filename
