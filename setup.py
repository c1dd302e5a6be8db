"""Builds starlanes, compiling the rules modules to C extensions when it can.

The modules listed in ``src/starlanes/build_kind.py`` (``COMPILED_MODULES``: the engine
core's and each game's rules modules that random play spends its time in) are compiled
with Cython in pure-Python mode: the ``.py`` files stay the one source, and the wheel
carries each ``.py`` beside its extension (Python imports the extension first). The build
installs the pure-Python modules instead, with the same behaviour, when:

- ``STARLANES_PURE=1`` is set;
- Cython cannot be imported (a ``--no-build-isolation`` install in an environment without
  it);
- Cython or the C compiler fails on any module (no compiler, say): a warning is printed and
  the modules that did compile are left out too, so an install is all compiled or pure;
- the install is editable (``pip install -e .``): extensions beside the sources would
  shadow every later edit of a rules module.

``python setup.py build_ext --inplace`` still compiles into ``src/`` (for measuring); delete
the ``*.so`` files there to run the sources again.

Knobs, all optional: ``STARLANES_COMPILE=a,b`` compiles only the listed modules whose
dotted name is one of these or starts with one of these and a dot (``starlanes.engine``
takes the engine's); ``STARLANES_BUILD_JOBS=N`` compiles N modules at once (default: the
CPU count); ``STARLANES_CFLAGS`` replaces the optimisation flags (:data:`DEFAULT_CFLAGS`).
"""

from __future__ import annotations

import os
import runpy
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent

DEFAULT_CFLAGS = "-O1 -g0"
"""Appended to Python's own flags (``-O3 -g`` for this interpreter; the last ``-O``
wins). Cython's C for untyped code is calls into the interpreter's C API, which higher
optimisation barely speeds up: ``-O1`` without debug information compiles in about a
quarter of the time of ``-O3 -g`` and in half that of ``-O2``, and the games ran as fast
(docs/engine.md, "Compiled build")."""

DIRECTIVES = {
    "language_level": 3,
    # Annotations are not C types: no argument is checked or converted otherwise than in
    # the pure modules (an ``x: int`` would refuse a numpy integer, ``x: float`` would
    # round through a C double).
    "annotation_typing": False,
    "binding": True,  # functions keep their Python attributes (__name__, __doc__, ...)
}
"""Cython's compiler directives: plain Python semantics, only the interpreter removed."""


def listed_modules() -> list[str]:
    """``COMPILED_MODULES`` of build_kind.py, run on its own (it imports only the
    standard library), so that building never imports starlanes."""
    return list(runpy.run_path(str(HERE / "src" / "starlanes" / "build_kind.py"))
                ["COMPILED_MODULES"])


def chosen_modules() -> list[str]:
    """The listed modules, narrowed by ``STARLANES_COMPILE`` when it is set."""
    modules = listed_modules()
    only = [w.strip() for w in os.environ.get("STARLANES_COMPILE", "").split(",") if w.strip()]
    if not only:
        return modules
    return [m for m in modules if any(m == w or m.startswith(w + ".") for w in only)]


def _pure(reason: str) -> None:
    print(f"starlanes: {reason}; installing the pure-Python modules", file=sys.stderr)


_SUBSCRIPT_TEST = "if (seq_or_mapping != Py_TPFLAGS_SEQUENCE) {"
_SUBSCRIPT_FIRST = "if (1) {  /* starlanes: mp_subscript first, as PyObject_GetItem */"


def _subscript_through_mapping(c_file: str) -> None:
    """Makes ``x[2]`` on a tuple subclass (a ``NamedTuple``) go through the type's
    ``mp_subscript``, as the interpreter's ``PyObject_GetItem`` does, not ``sq_item``.

    Cython reads an item at a literal index of a sequence that is not an exact list or
    tuple through ``sq_item`` first; a tuple subclass's ``sq_item`` is CPython's generic
    slot, which looks ``__getitem__`` up and calls it with a new argument tuple: such reads
    (Rift Domination's units) ran several times slower than in the interpreter. Both give
    the same item. C from a Cython without that test is left as it is."""
    path = Path(c_file)
    text = path.read_text()
    if _SUBSCRIPT_TEST in text:
        path.write_text(text.replace(_SUBSCRIPT_TEST, _SUBSCRIPT_FIRST))


def extensions() -> list[Extension]:
    """The listed modules as extensions to build, or none for a pure-Python install."""
    if os.environ.get("STARLANES_PURE", "").strip() not in ("", "0"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        _pure("Cython is not available")
        return []
    exts = [Extension(name, [str(Path("src", *name.split(".")).with_suffix(".py"))])
            for name in chosen_modules()]
    try:
        compiled = cythonize(exts, build_dir="build/cython", quiet=True,
                             nthreads=_jobs(), compiler_directives=DIRECTIVES)
    except Exception as error:  # noqa: BLE001 - whatever Cython refuses, install pure
        _pure(f"Cython failed ({error})")
        return []
    for ext in compiled:
        for source in ext.sources:
            if source.endswith(".c"):
                _subscript_through_mapping(source)
    return compiled


def _jobs() -> int:
    return int(os.environ.get("STARLANES_BUILD_JOBS") or os.cpu_count() or 1)


def _module_files(build_lib: str, name: str) -> list[Path]:
    """Every extension file that would stand for module ``name`` under ``build_lib``."""
    stem = Path(build_lib, *name.split("."))
    return [stem.with_name(stem.name + suffix) for suffix in EXTENSION_SUFFIXES]


class OptionalBuildExt(build_ext):
    """Compiles the extensions in parallel with :data:`DEFAULT_CFLAGS`; any failure
    removes what was built and leaves the pure-Python modules."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.parallel = _jobs()

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            flags = os.environ.get("STARLANES_CFLAGS", DEFAULT_CFLAGS).split()
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, *flags]
        super().build_extensions()

    def run(self) -> None:
        if getattr(self, "editable_mode", False):
            # An editable install would put the extensions beside the sources, where they
            # would shadow every later edit of a rules module.
            _pure("an editable install runs the sources as they are edited")
            self.extensions = []
            self.distribution.ext_modules = []
            return
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any compiler failure means pure
            _pure(f"compiling failed ({error})")
            for ext in self.extensions:
                for built in (Path(self.get_ext_fullpath(ext.name)),
                              *_module_files(self.build_lib, ext.name)):
                    built.unlink(missing_ok=True)
            self.extensions = []
            self.distribution.ext_modules = []

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


class BuildPy(build_py):
    """Copies the modules, then removes extensions of listed modules that this build does
    not compile, left in the build folder by an earlier compiled build (an in-tree
    ``build/`` is reused), so a pure build never ships a stale extension."""

    def run(self) -> None:
        super().run()
        building = {ext.name for ext in self.distribution.ext_modules or []}
        for name in listed_modules():
            if name not in building:
                for stale in _module_files(self.build_lib, name):
                    stale.unlink(missing_ok=True)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPy})
