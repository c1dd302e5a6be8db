"""Plain, read-only copies of content models for the rules to read during play.

Content is validated as pydantic models, and pydantic's ``BaseModel`` defines
``__getattr__``: CPython then answers every attribute read on a model through a slower
hook (about 65 ns a read on the development machine, against 10 ns on an object with
``__slots__``). A game whose rules read card fields thousands of times a playout keeps a
:func:`plain_copy` of its content entries for that: the same field names and values, the
model's public methods and ``cached_property`` values (computed once, at the copy), on an
object with ``__slots__`` that refuses to be changed. Nested models and tuples of models
are copied the same way; other values (str, int, dicts) are shared with the model.

Usage, once per model class at module level (so that copies pickle by reference)::

    PlainCard = plain_class(Card, "PlainCard")
    cards = {k: plain_copy(c) for k, c in content.cards.items()}
"""

from __future__ import annotations

import inspect
from functools import cached_property
from typing import Any

from pydantic import BaseModel

_CLASSES: dict[type[BaseModel], type[PlainEntry]] = {}


class PlainEntry:
    """Base of the classes :func:`plain_class` makes. ``model_dump()`` gives the fields
    as the model's would (nested copies as dicts)."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _props: dict[str, cached_property] = {}

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only (content never changes)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only (content never changes)")

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), tuple(getattr(self, n) for n in self.__slots__))

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields)
        return f"{type(self).__name__}({shown})"

    def model_dump(self) -> dict[str, Any]:
        """The fields as a dict, nested copies (alone or in tuples) as dicts too."""
        return {n: _dump(getattr(self, n)) for n in self._fields}


def _dump(value: Any) -> Any:
    if isinstance(value, PlainEntry):
        return value.model_dump()
    if isinstance(value, tuple):
        return tuple(_dump(v) for v in value)
    return value


def _rebuild(klass: type[PlainEntry], values: tuple[Any, ...]) -> PlainEntry:
    obj = object.__new__(klass)
    for name, value in zip(klass.__slots__, values, strict=True):
        object.__setattr__(obj, name, value)
    return obj


def plain_class(model: type[BaseModel], name: str) -> type[PlainEntry]:
    """The plain class of ``model`` (made once per model class), named ``name`` in the
    model's module: slots for its fields and its ``cached_property`` values, and its
    public functions (``def has(self, kind)``...), which must read only fields and those
    values. Raises ValueError when asked again under another name."""
    got = _CLASSES.get(model)
    if got is not None:
        if got.__qualname__ != name:
            raise ValueError(f"{model.__name__} already has the plain class {got.__qualname__}")
        return got
    fields = tuple(model.model_fields)
    props: dict[str, cached_property] = {}
    methods: dict[str, Any] = {}
    for klass in reversed(model.__mro__):
        if not issubclass(klass, BaseModel) or klass is BaseModel:
            continue
        for key, value in vars(klass).items():
            if isinstance(value, cached_property):
                props[key] = value
            elif inspect.isfunction(value) and not key.startswith("_"):
                methods[key] = value
    namespace = {
        "__slots__": fields + tuple(props),
        "__module__": model.__module__,
        "__qualname__": name,
        "__doc__": f"A plain, read-only copy of a {model.__name__} (starlanes.engine.plain).",
        "_fields": fields,
        "_props": props,
        **methods,
    }
    got = _CLASSES[model] = type(name, (PlainEntry,), namespace)
    return got


def plain_copy(value: Any) -> Any:
    """``value`` with every model in it (itself, a field, an item of a tuple) replaced by
    a copy of its :func:`plain_class`, which must exist. Raises KeyError for a model whose
    class has none."""
    if isinstance(value, BaseModel):
        klass = _CLASSES[type(value)]
        obj = object.__new__(klass)
        for name in klass._fields:
            object.__setattr__(obj, name, plain_copy(getattr(value, name)))
        for name, prop in klass._props.items():
            object.__setattr__(obj, name, prop.func(obj))
        return obj
    if isinstance(value, tuple):
        return tuple(plain_copy(v) for v in value)
    return value
