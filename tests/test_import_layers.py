"""Imports run one way (engine < games < agents < analysis < server, terminal, cli), the
server imports no game package, no game imports another, and inside the server imports run
down its layers (routes < community < services < live game < storage and models) with no
cycle (docs/server.md, "Layers of the code"): import-linter's contracts in pyproject.toml,
checked on every test run."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["importlinter"]["contracts"])


def test_the_import_contracts_hold() -> None:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(exe).exists():
        pytest.skip("import-linter is not installed (pip install '.[test]')")
    done = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout
    for contract in _contracts():  # each one was checked, none skipped
        assert f"{contract['name']} KEPT" in done.stdout, contract["name"]


def test_the_server_contracts_cover_every_module_and_every_cycle() -> None:
    """The server's layers are exhaustive (a new module must be given a layer) and the
    acyclic contract reaches into its subpackages: neither can be loosened unnoticed."""
    by_name = {c["name"]: c for c in _contracts()}
    layers = by_name["Server layers"]
    assert layers["type"] == "layers" and layers["containers"] == ["starlanes.server"]
    assert layers["exhaustive"] is True and not layers.get("ignore_imports")
    names = [part.strip() for layer in layers["layers"] for part in str(layer).split(":")]
    assert names.index("app") < names.index("community") < names.index("service")
    assert names.index("service") < names.index("tables") < names.index("store")
    acyclic = by_name["Server modules acyclic"]
    assert acyclic["type"] == "acyclic_siblings"
    assert acyclic["ancestors"] == ["starlanes.server"] and "depth" not in acyclic
    assert not acyclic.get("ignore_imports") and not acyclic.get("skip_descendants")
