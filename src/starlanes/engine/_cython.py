"""The names of Cython's pure-Python mode that the rules modules use, for an install
without Cython.

A rules module that wants them imports ``cython`` and falls back to this module wherever
it is not compiled (``tests/test_build_kind.py`` checks that each such module does)::

    try:
        import cython
        if not cython.compiled:  # Cython installed, this module not compiled
            raise ModuleNotFoundError
    except ModuleNotFoundError:  # the pure build
        from starlanes.engine import _cython as cython

The compiled build reads ``cython.cast(tuple, u)`` as an unchecked C cast (the unit is
then read with C tuple access); uncompiled, with or without Cython installed, it returns
``u`` unchanged. Only casts that hold in every build belong here: a value cast to
``tuple`` must be a tuple or a subclass that keeps tuple's layout and item access (a
``NamedTuple``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

compiled = False
"""Always False here: the compiled build never imports this module."""


cast: Callable[[Any, Any], Any] = {}.get
"""``cast(type_, value)`` is ``value`` itself: the pure build's reading of Cython's
``cast``. It is an empty dict's ``get``, which returns its second argument; being a C
method, it costs a hot loop about half what a Python function returning ``value`` would."""
