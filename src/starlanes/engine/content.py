"""Content files: TOML validated by a pydantic schema, merged with the user's overrides.

Every entry says where its numbers come from: ``source = "rulebook"`` (printed in the
rulebook) or ``source = "designed"`` with a one-line ``rationale`` (the rulebook is silent
and starlanes chose).

Overrides forgive: :class:`ContentFiles` starts from the packaged files and merges over them

- the files of an override directory (``--content DIR``), which may hold only what they
  change: an ``[[unit]]`` table with just ``id = "destroyer"`` and ``cost = 2`` changes that
  one value. Entries are matched by ``id``; each key given replaces the packaged value whole
  (arrays and inline tables included); an unknown ``id`` adds a new entry (which then needs
  every key); ``remove = true`` next to an ``id`` drops the packaged entry. Single tables
  (``[outpost]``) merge key by key. A file name the game does not use is an error naming the
  files it expects;
- dotted overrides ``FILE.ID.KEY=VALUE`` (``units.destroyer.cost=2``; on the command line
  ``-o content.units.destroyer.cost=2``), applied after the directory. ``FILE`` is the file
  name without ``.toml``; ``ID`` an entry id (or ``TABLE.ID`` when several tables of the file
  share the id, or the name of a single table such as ``outpost``); ``KEY`` may continue
  into a table (``factions.vespians.start_units.fighter=3``). ``VALUE`` is read as a TOML
  value (``2``, ``true``, ``"text"``, ``["a", "b"]``); anything else is taken as text.

Validation errors name the file (and the override that changed the entry), the entry, the
key and the expected type. :attr:`ContentFiles.fingerprint` is the SHA-256 of the merged
documents; game records store it so a replay can tell when the content differs.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import tomllib
import types
import typing
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from .errors import ContentError

M = TypeVar("M", bound=BaseModel)


CONTENT_NUMBER_LIMIT = 1_000_000
"""No number in a content file may exceed this in size (counts, weights, strengths, slots):
the largest printed value is far below it, and it keeps loading and set-up from hanging or
running out of memory on a typo."""
IDENTIFIER = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}")
"""An entry id or a table key: letters, digits and ``_ . + -``, at most 64 characters (no
spaces, escape sequences or markup, which would reach the terminal as they are)."""


def _check_plain(value: Any, path: str) -> None:
    """Raise ValueError for a number beyond :data:`CONTENT_NUMBER_LIMIT`, a non-finite
    float, an id or table key that is not an :data:`IDENTIFIER`, or text with control
    characters, naming the key ``path``."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        if value != value or abs(value) > CONTENT_NUMBER_LIMIT:
            raise ValueError(f"key {path!r}: {value!r} is out of range (at most "
                             f"{CONTENT_NUMBER_LIMIT:,} either side of 0)")
    elif isinstance(value, str):
        if any(ord(c) < 32 and c not in "\n\t" or ord(c) == 127 for c in value):
            raise ValueError(f"key {path!r}: text contains control characters")
        if path.rpartition(".")[2] == "id" and not IDENTIFIER.fullmatch(value):
            raise ValueError(f"key {path!r}: {value!r} is not a plain identifier "
                             "(letters, digits, _ . + -)")
    elif isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str) or not IDENTIFIER.fullmatch(k):
                raise ValueError(f"key {path + '.' if path else ''}{k!r} is not a plain "
                                 "identifier (letters, digits, _ . + -)")
            _check_plain(v, f"{path}.{k}" if path else k)
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            _check_plain(v, f"{path}[{i}]")


def _numeric(text: str) -> bool:
    """Whether pydantic would read ``text`` as a number (``"7"``, ``" 2.5 "``)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def _check_numbers(annotation: Any, value: Any, path: str) -> None:
    """Raise ValueError where ``value`` gives ``true``/``false`` or text for an integer or a
    number of ``annotation`` (pydantic would read ``true`` as 1 and ``"7"`` as 7), following
    arrays and tables; naming the key ``path``."""
    annotation, _ = _strip(annotation)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation in (int, float):
        want = "an integer" if annotation is int else "a number"
        if isinstance(value, bool):
            raise ValueError(f"key {path!r}: {str(value).lower()} is not {want}")
        if isinstance(value, str) and _numeric(value):
            raise ValueError(f"key {path!r}: {value!r} is text, not {want}; write the "
                             "number without quotes")
    elif origin in (tuple, list) and args and isinstance(value, list | tuple):
        for i, v in enumerate(value):
            _check_numbers(args[0] if origin is list or args[-1] is Ellipsis
                           or len(args) <= i else args[i], v, f"{path}[{i}]")
    elif origin is dict and len(args) == 2 and isinstance(value, dict):
        for k, v in value.items():
            _check_numbers(args[1], v, f"{path}.{k}")
    elif (isinstance(annotation, type) and issubclass(annotation, BaseModel)
          and not issubclass(annotation, ContentEntry) and isinstance(value, dict)):
        for k, v in value.items():
            sub = annotation.model_fields.get(k) if isinstance(k, str) else None
            if sub is not None:
                _check_numbers(sub.annotation, v, f"{path}.{k}")


class ContentEntry(BaseModel):
    """Base of every content entry: provenance is required. Every number is bounded by
    :data:`CONTENT_NUMBER_LIMIT`, ids and table keys are plain identifiers and no text
    holds control characters (a game's models bound their own fields more tightly)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: Literal["rulebook", "designed"]
    rationale: str = ""

    @model_validator(mode="before")
    @classmethod
    def _plain_values(cls, data: Any) -> Any:
        _check_plain(data, "")
        if isinstance(data, dict):
            for key, value in data.items():
                info = cls.model_fields.get(key) if isinstance(key, str) else None
                if info is not None:
                    _check_numbers(info.annotation, value, key)
        return data

    @model_validator(mode="after")
    def _designed_needs_rationale(self) -> ContentEntry:
        if self.source == "designed" and not self.rationale.strip():
            raise ValueError("a designed entry needs a one-line rationale")
        return self


MAX_CONTENT_BYTES = 4 * 1024 * 1024
"""The largest content file read (bytes); the packaged files are a few tens of KB."""


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file. Raises ContentError naming the file and what is wrong: missing,
    not a regular file (a folder, a symlink loop), unreadable, larger than
    :data:`MAX_CONTENT_BYTES`, not UTF-8, not valid TOML, or nested too deeply."""
    try:
        if not path.is_file():
            what = "is a folder" if path.is_dir() else (
                "is a broken or looping symbolic link" if path.is_symlink()
                else "does not exist" if not path.exists() else "is not a regular file")
            raise ContentError(f"content file {path} {what}, not a TOML file")
        with path.open("rb") as f:
            data = f.read(MAX_CONTENT_BYTES + 1)
    except OSError as e:
        raise ContentError(f"content file {path} cannot be read: "
                           f"{e.strerror or type(e).__name__}") from None
    if len(data) > MAX_CONTENT_BYTES:
        raise ContentError(f"content file {path} is larger than {MAX_CONTENT_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ContentError(f"content file {path} is not UTF-8 text (byte {e.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ContentError(f"content file {path} is not valid TOML: {e}") from None
    except RecursionError:
        raise ContentError(f"content file {path} is nested too deeply to be content") from None


# ------------------------------------------------------------------ validation messages
def _bounds(items: Iterable[Any]) -> str:
    out = ""
    for m in items:
        for b in (m, *getattr(m, "metadata", ())):
            for attr, sign in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
                if getattr(b, attr, None) is not None:
                    out += f" {sign} {getattr(b, attr)}"
    return out


def type_name(annotation: Any) -> str:
    """A reader's name for a field type: ``an integer >= 1``, ``text``, ``one of 'a', 'b'``."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return type_name(args[0]) + _bounds(args[1:])
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(type_name(a) for a in args if a is not type(None))
    if origin in (tuple, list):
        return f"an array of {type_name(args[0]) if args else 'values'}"
    if origin is dict:
        return f"a table of {type_name(args[1])}" if len(args) == 2 else "a table"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "a table (" + ", ".join(annotation.model_fields) + ")"
    return {bool: "true or false", int: "an integer", str: "text", float: "a number"}.get(
        annotation, getattr(annotation, "__name__", str(annotation)))


def _strip(annotation: Any) -> tuple[Any, tuple[Any, ...]]:
    """``annotation`` without ``Annotated`` and ``Optional`` wrappers, and its metadata."""
    meta: tuple[Any, ...] = ()
    while True:
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if origin is typing.Annotated:
            annotation, meta = args[0], meta + tuple(args[1:])
        elif origin in (typing.Union, types.UnionType):
            rest = [a for a in args if a is not type(None)]
            if len(rest) != 1:
                return annotation, meta
            annotation = rest[0]
        else:
            return annotation, meta


def _field_type(model: type[BaseModel], loc: tuple[Any, ...]) -> str:
    """The expected type of the field at ``loc``, following nested tables, arrays and
    models ('' if unknown)."""
    if not loc or not isinstance(loc[0], str) or loc[0] not in model.model_fields:
        return ""
    info = model.model_fields[loc[0]]
    annotation, meta = info.annotation, tuple(info.metadata)
    for step in loc[1:]:
        annotation, more = _strip(annotation)
        meta += more
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if origin in (tuple, list) and isinstance(step, int) and args:
            annotation, meta = args[0], ()
        elif origin is dict and len(args) == 2:
            annotation, meta = args[1], ()
        elif (isinstance(annotation, type) and issubclass(annotation, BaseModel)
              and isinstance(step, str) and step in annotation.model_fields):
            sub = annotation.model_fields[step]
            annotation, meta = sub.annotation, tuple(sub.metadata)
        else:
            return ""
    return type_name(annotation) + _bounds(meta)


def key_path(loc: Iterable[Any]) -> str:
    """A validation location as a key path: ``('effects', 0, 'n')`` -> ``effects[0].n``."""
    out = ""
    for p in loc:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def describe_error(model: type[BaseModel], e: ValidationError) -> str:
    """One line for the first error of ``e``: the key, what is wrong, the expected type and
    the value given."""
    err = e.errors()[0]
    loc = tuple(err["loc"])
    key = key_path(loc)
    kind = err["type"]
    if kind == "extra_forbidden":
        known = ", ".join(model.model_fields) if len(loc) == 1 else ""
        return (f"unknown key {key!r} (extra keys are not permitted)"
                + (f"; known keys: {known}" if known else ""))
    if kind == "missing":
        missing = [key_path(x["loc"]) for x in e.errors() if x["type"] == "missing"]
        types_ = ", ".join(f"{m}: {_field_type(model, (m,))}" for m in missing
                           if m in model.model_fields)
        return (f"missing key(s) {', '.join(repr(m) for m in missing)}; a new entry needs "
                f"every required key ({types_})")
    if kind == "value_error":
        # a model's own check: its message names the key inside the table at ``loc``
        msg = str(err["msg"]).removeprefix("Value error, ")
        inner = re.match(r"key '([^']*)': ", msg)
        if inner and key:
            return f"key '{key}.{inner.group(1)}': {msg[inner.end():]}"
        return f"key {key!r}: {msg}" if key else msg
    if not loc:
        return err["msg"]
    expected = _field_type(model, loc)
    got = repr(err.get("input"))
    got = got if len(got) <= 80 else got[:77] + "..."
    tail = f"; expected {expected}" if expected else ""
    return f"key {key!r}: {err['msg']}{tail}, got {got}"


def _validate_rows(rows: Any, label: str, key: str, model: type[M],
                   origin_of: dict[str, str] | None = None) -> dict[str, M]:
    if not isinstance(rows, list) or not rows:
        raise ContentError(f"content file {label} has no [[{key}]] entries")
    out: dict[str, M] = {}
    for i, row in enumerate(rows):
        name = row.get("id", f"#{i + 1}") if isinstance(row, dict) else f"#{i + 1}"
        try:
            entry = model.model_validate(row)
        except ValidationError as e:
            where = label
            if origin_of and name in origin_of:
                where = f"{label} (entry changed by {origin_of[name]})"
            raise ContentError(
                f"{where}: entry {name!r}: {describe_error(model, e)}") from None
        ident = getattr(entry, "id", name)
        if ident in out:
            raise ContentError(f"{label}: entry id {ident!r} appears twice")
        out[ident] = entry
    return out


def load_table(path: Path, key: str, model: type[M]) -> dict[str, M]:
    """Load the array of tables ``[[key]]`` of one file ``path`` as ``{entry.id: entry}``
    (no merging). Raises ContentError naming the file, the entry and the key at fault."""
    return _validate_rows(read_toml(path).get(key), path.name, key, model)


# ------------------------------------------------------------------ merging
@lru_cache(maxsize=32)
def _packaged(path: Path) -> dict[str, Any]:
    return read_toml(path)


def parse_value(text: str) -> Any:
    """A dotted override's value read as TOML (``2``, ``true``, ``"x"``, ``[1, 2]``), or the
    text itself when it is not a TOML value."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


class ContentFiles:
    """The content documents of one game: packaged files merged with an override directory
    and dotted overrides (see the module docstring).

    ``default_dir``: the packaged directory; ``names``: the file names the game reads;
    ``override_dir``: a directory holding some of them; ``overrides``: ``FILE.ID.KEY=VALUE``
    strings. Raises ContentError naming the file, entry, key and expected type of a bad
    override, and the expected file names for an unknown file.
    """

    def __init__(self, default_dir: Path, names: Iterable[str],
                 override_dir: Path | None = None, overrides: Iterable[str] = ()) -> None:
        self.names = tuple(names)
        self.docs: dict[str, dict[str, Any]] = {
            n: copy.deepcopy(_packaged(Path(default_dir) / n)) for n in self.names}
        self._origin: dict[tuple[str, str], dict[str, str]] = {}
        if override_dir is not None:
            self._merge_dir(Path(override_dir))
        for item in overrides:
            self._apply_dotted(item)
        data = json.dumps(self.docs, sort_keys=True, separators=(",", ":"), default=str)
        self.fingerprint = hashlib.sha256(data.encode()).hexdigest()

    # .......................................................... reading
    def data(self, name: str) -> dict[str, Any]:
        """The merged document of file ``name`` (do not modify)."""
        return self.docs[name]

    def table(self, name: str, key: str, model: type[M]) -> dict[str, M]:
        """The ``[[key]]`` entries of file ``name`` validated as ``model``, by id."""
        return _validate_rows(self.docs[name].get(key), name, key, model,
                              self._origin.get((name, key)))

    def single(self, name: str, key: str, model: type[M]) -> M:
        """The single table ``[key]`` of file ``name`` validated as ``model``."""
        row = self.docs[name].get(key)
        if not isinstance(row, dict):
            raise ContentError(f"{name}: has no [{key}] table")
        try:
            return model.model_validate(row)
        except ValidationError as e:
            origin = self._origin.get((name, key), {}).get("")
            where = f"{name} (changed by {origin})" if origin else name
            raise ContentError(f"{where}: [{key}]: {describe_error(model, e)}") from None

    # .......................................................... merging
    def _mark(self, name: str, key: str, ident: str, origin: str) -> None:
        self._origin.setdefault((name, key), {})[ident] = origin

    def _merge_dir(self, d: Path) -> None:
        if not d.is_dir():
            raise ContentError(f"content directory {str(d)!r} does not exist")
        files = sorted(p.name for p in d.iterdir() if not p.name.startswith("."))
        unknown = [f for f in files if f not in self.names]
        if unknown:
            raise ContentError(
                f"content directory {d}: unknown file(s) {', '.join(unknown)}; "
                f"this game reads only {', '.join(self.names)}")
        for name in files:
            self._merge_doc(name, read_toml(d / name), str(d / name))

    def _merge_doc(self, name: str, over: dict[str, Any], origin: str) -> None:
        base = self.docs[name]
        for key, value in over.items():
            if key not in base:
                tables = ", ".join(
                    f"[[{k}]]" if isinstance(v, list) else f"[{k}]" for k, v in base.items())
                raise ContentError(f"{origin}: unknown table {key!r}; {name} holds {tables}")
            current = base[key]
            if isinstance(current, list):
                if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
                    raise ContentError(f"{origin}: {key!r} must be written [[{key}]]")
                for row in value:
                    self._merge_row(name, key, current, row, origin)
            elif isinstance(current, dict):
                if not isinstance(value, dict):
                    raise ContentError(f"{origin}: {key!r} must be written [{key}]")
                current.update(copy.deepcopy(value))
                self._mark(name, key, "", origin)
            else:
                raise ContentError(f"{origin}: {key!r} cannot be overridden")

    def _merge_row(self, name: str, key: str, rows: list[dict[str, Any]],
                   row: dict[str, Any], origin: str) -> None:
        ident = row.get("id")
        if not isinstance(ident, str) or not ident:
            raise ContentError(f"{origin}: every [[{key}]] entry needs an id = \"...\" "
                               f"naming the entry it changes or adds")
        found = [r for r in rows if r.get("id") == ident]
        if row.get("remove") is True:
            if set(row) != {"id", "remove"}:
                raise ContentError(f"{origin}: entry {ident!r}: remove = true takes no "
                                   f"other keys")
            if not found:
                raise ContentError(f"{origin}: entry {ident!r}: no such [[{key}]] entry "
                                   f"to remove")
            rows.remove(found[0])
            return
        if found:
            found[0].update(copy.deepcopy(row))
        else:
            rows.append(copy.deepcopy(row))
        self._mark(name, key, ident, origin)

    def _apply_dotted(self, item: str) -> None:
        text, eq, raw = item.partition("=")
        parts = [p.strip() for p in text.strip().split(".")]
        where = f"override {item!r}"
        if not eq or len(parts) < 3 or not all(parts):
            raise ContentError(f"{where} is not of the form FILE.ID.KEY=VALUE "
                               f"(e.g. units.destroyer.cost=2)")
        name = parts[0] + ".toml"
        if name not in self.names:
            files = ", ".join(n.removesuffix(".toml") for n in self.names)
            raise ContentError(f"{where}: unknown content file {parts[0]!r}; one of {files}")
        doc = self.docs[name]
        rest = parts[1:]
        if rest[0] in doc and isinstance(doc[rest[0]], dict):
            key, target, ident, path = rest[0], doc[rest[0]], "", rest[1:]
        else:
            if rest[0] in doc and isinstance(doc[rest[0]], list) and len(rest) >= 3:
                key, ident, path = rest[0], rest[1], rest[2:]
                hits = [(key, r) for r in doc[key] if r.get("id") == ident]
            else:
                ident, path = rest[0], rest[1:]
                hits = [(k, r) for k, v in doc.items() if isinstance(v, list)
                        for r in v if isinstance(r, dict) and r.get("id") == ident]
            if not hits:
                raise ContentError(f"{where}: {name} has no entry {ident!r}")
            if len(hits) > 1:
                keys = ", ".join(k for k, _ in hits)
                raise ContentError(f"{where}: {ident!r} is an entry of several tables of "
                                   f"{name} ({keys}); write {parts[0]}.TABLE.{ident}.KEY")
            key, target = hits[0]
        if not path:
            raise ContentError(f"{where}: name the key to change after {ident or key!r}")
        for step in path[:-1]:
            nxt = target.get(step)
            if nxt is None:
                nxt = target[step] = {}
            if not isinstance(nxt, dict):
                raise ContentError(f"{where}: {step!r} is not a table")
            target = nxt
        target[path[-1]] = parse_value(raw.strip())
        self._mark(name, key, ident, where)


# ------------------------------------------------------------------ entries as players read them
def stat_value(value: Any) -> Any:
    """A statistic as shown to players: arrays joined with commas, tables as ``key n`` pairs,
    pydantic models as their non-empty fields; numbers and text unchanged."""
    if isinstance(value, BaseModel):
        value = {k: v for k, v in value.model_dump().items()
                 if k not in ("source", "rationale") and v not in (0, "", (), None, False)}
    if isinstance(value, dict):
        return ", ".join(f"{k} {stat_value(v)}" if v is not True else str(k)
                         for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(str(stat_value(v)) for v in value)
    return value


def entry_text(kind: str, entry: BaseModel, fields: Iterable[str], *, text: str | None = None,
               name: str | None = None, ident: str | None = None,
               extra: dict[str, Any] | None = None, keep_zero: bool = True) -> Any:
    """The :class:`~starlanes.engine.explain.EntryText` of a content entry: its ``id``,
    ``name`` and ``text`` fields (or the given ones), the listed ``fields`` as statistics
    (empty values left out, and zeros and false too unless ``keep_zero``) plus ``extra``,
    and its ``source``."""
    from .explain import EntryText

    stats: dict[str, Any] = {}
    for f in fields:
        v = stat_value(getattr(entry, f))
        if v in ("", None) or (not keep_zero and v in (0, False)):
            continue
        stats[f] = v
    stats.update(extra or {})
    ident = ident if ident is not None else str(getattr(entry, "id", kind))
    return EntryText(
        kind=kind, id=ident,
        name=name if name is not None else str(getattr(entry, "name", ident)),
        text=text if text is not None else str(getattr(entry, "text", "")),
        stats=stats, source=str(getattr(entry, "source", "rulebook")))
