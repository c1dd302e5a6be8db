"""The build report (``starlanes.build_kind``) and the list of compiled modules.

``STARLANES_EXPECT_BUILD=compiled`` or ``=pure`` makes :func:`test_expected_build` check
that this run really imports the rules that way: CI runs the suite with ``compiled`` on
its compiled install, and the golden and record tests with ``pure`` on the source tree, so
a compile that silently fell back, or a source run that picked up extensions, fails.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
from pathlib import Path

import pytest

from starlanes import build_kind

PACKAGE = Path(build_kind.__file__).resolve().parent


def test_listed_modules_are_real_rules_modules() -> None:
    names = build_kind.COMPILED_MODULES
    assert len(names) == len(set(names)) and list(names) == sorted(names)
    for name in names:
        parts = name.split(".")
        assert parts[0] == "starlanes" and parts[1] in ("engine", "games", "interop"), name
        assert PACKAGE.joinpath(*parts[1:]).with_suffix(".py").is_file(), name


def test_each_declarations_file_types_a_listed_module() -> None:
    """A ``.pxd`` beside a rules module gives the compiled build C types for it (Cython's
    augmenting declarations): it must sit beside a listed module's ``.py``, or it would
    declare nothing."""
    src = Path(__file__).resolve().parents[1] / "src"
    found = sorted(src.rglob("*.pxd"))
    assert found, "no declarations file in src/"
    for pxd in found:
        name = ".".join(pxd.relative_to(src).with_suffix("").parts)
        assert name in build_kind.COMPILED_MODULES, name
        assert pxd.with_suffix(".py").is_file(), name


def _imported_names(src: Path) -> set[tuple[str, str]]:
    """(module, name) of every ``from module import name`` in the package's sources,
    relative imports resolved."""
    import ast

    found = set()
    for path in src.rglob("*.py"):
        package = ".".join(path.relative_to(src).with_suffix("").parts[:-1])
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.update((module, alias.name) for alias in node.names)
    return found


def test_names_other_modules_import_survive_the_declarations() -> None:
    """A name a ``.pxd`` declares ``cdef`` becomes a C variable of the compiled module and
    stops being a Python attribute: every name another module imports from a module with
    declarations must still be there (run on the compiled build, this fails where a
    declaration hid one)."""
    src = Path(__file__).resolve().parents[1] / "src"
    typed = {".".join(p.relative_to(src).with_suffix("").parts) for p in src.rglob("*.pxd")}
    wanted = sorted((m, n) for m, n in _imported_names(src) if m in typed)
    assert wanted, "no module imports a name from a module with declarations"
    for module, name in wanted:
        assert hasattr(importlib.import_module(module), name), f"{module}.{name}"


def test_describe_counts_the_extensions_found() -> None:
    found = build_kind.compiled_modules()
    assert set(found) <= set(build_kind.COMPILED_MODULES)
    expected = f"compiled ({len(found)} modules)" if found else "pure Python"
    assert build_kind.describe() == expected


def test_imported_matches_the_modules_files() -> None:
    module = importlib.import_module("starlanes.engine.state")
    compiled, loaded = build_kind.imported()
    assert loaded >= 1 and 0 <= compiled <= loaded
    from_extension = module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    assert ("starlanes.engine.state" in build_kind.compiled_modules()) == from_extension


@pytest.mark.parametrize("game", ["galactic_domination", "galactic_empires",
                                  "interstellar_ambitions", "rift_domination"])
def test_expected_build(game: str) -> None:
    expected = os.environ.get("STARLANES_EXPECT_BUILD", "")
    if expected not in ("compiled", "pure"):
        pytest.skip("STARLANES_EXPECT_BUILD is not set")
    importlib.import_module(f"starlanes.games.{game}.rules")
    ours = [n for n in build_kind.COMPILED_MODULES
            if n.startswith(f"starlanes.games.{game}.") or n.startswith("starlanes.engine.")]
    for name in ours:
        importlib.import_module(name)
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = [n for n in ours if importlib.import_module(n).__file__.endswith(suffixes)]
    if expected == "compiled":
        assert compiled == ours
        assert build_kind.describe() == f"compiled ({len(build_kind.COMPILED_MODULES)} modules)"
    else:
        assert compiled == []
        assert build_kind.describe() == "pure Python"


def test_the_pure_builds_cast_is_the_value_itself() -> None:
    """Uncompiled, ``cython.cast`` reads as no cast at all: the value comes back as is."""
    from starlanes.engine import _cython

    unit = (0, "fighter", 3, False, 1, 0)
    assert _cython.cast(tuple, unit) is unit
    assert _cython.compiled is False


def test_modules_that_import_cython_fall_back_to_the_shim() -> None:
    """A module reading Cython's pure-Python names must be a listed (compiled) module, and
    must take them from ``starlanes.engine._cython`` wherever it is not compiled, Cython
    installed or not (Cython's own shadow module is far slower at run time)."""
    src = Path(__file__).resolve().parents[1] / "src"
    users = []
    for path in sorted(src.rglob("*.py")):
        text = path.read_text()
        if "\n    import cython\n" not in text:
            continue
        name = ".".join(path.relative_to(src).with_suffix("").parts)
        users.append(name)
        assert name in build_kind.COMPILED_MODULES, name
        assert ("    import cython\n    if not cython.compiled:" in text
                and "from starlanes.engine import _cython as cython" in text), name
        module = importlib.import_module(name)
        suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
        if not module.__file__.endswith(suffixes):
            assert module.cython is importlib.import_module("starlanes.engine._cython"), name
    assert users, "no module reads Cython's pure-Python names"
