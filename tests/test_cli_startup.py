"""What the ``starlanes`` command loads before it runs a command (issue 28): the analysis
package, numpy and scipy only inside the commands that use them, pydantic only when the
engine's content or records are used; and the values written beside the options agree with
the ones the commands use."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import starlanes.analysis.odds as odds
from starlanes.analysis import DEFAULT_ACTION_CAP
from starlanes.cli import odds_cmds
from starlanes.cli.app import DEFAULT_ACTION_CAP as OPTION_ACTION_CAP


def loaded_after(code: str, modules: list[str]) -> dict[str, bool]:
    """Which of ``modules`` a fresh interpreter has imported after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps({{m: m in sys.modules for m in {modules!r}}}))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=60)
    return json.loads(done.stdout.splitlines()[-1])


HEAVY = ["starlanes.analysis", "starlanes.analysis.odds", "starlanes.server", "scipy",
         "numpy", "matplotlib", "uvicorn", "sqlalchemy", "rich.markdown", "rich.progress",
         "pydantic", "starlanes.terminal", "rich.table"]


def test_the_command_imports_no_analysis_server_or_numerics() -> None:
    loaded = loaded_after("import starlanes.cli", HEAVY)
    assert not any(loaded.values()), [m for m, yes in loaded.items() if yes]


@pytest.mark.parametrize("module", ["starlanes", "starlanes.engine"])
def test_the_engine_loads_pydantic_on_first_use(module: str) -> None:
    before = loaded_after(f"import {module}", ["pydantic", "starlanes.engine.record",
                                               "starlanes.engine.content"])
    assert before == {"pydantic": False, "starlanes.engine.record": False,
                      "starlanes.engine.content": False}
    after = loaded_after(f"import {module}\n{module}.GameRecord", ["pydantic",
                                                                   "starlanes.engine.record"])
    assert after == {"pydantic": True, "starlanes.engine.record": True}


def test_lazy_names_are_the_modules_own() -> None:
    import starlanes
    import starlanes.engine as engine
    from starlanes.engine import content, record

    assert starlanes.GameRecord is engine.GameRecord is record.GameRecord
    assert starlanes.replay is engine.replay is record.replay
    assert engine.ContentEntry is content.ContentEntry
    assert engine.load_table is content.load_table and engine.read_toml is content.read_toml
    for mod in (starlanes, engine):
        with pytest.raises(AttributeError, match="no_such_name"):
            mod.no_such_name  # noqa: B018
    namespace: dict[str, object] = {}
    exec("from starlanes.engine import *", namespace)
    assert set(engine.__all__) <= set(namespace)


def test_option_defaults_agree_with_the_analysis() -> None:
    assert OPTION_ACTION_CAP == DEFAULT_ACTION_CAP
    assert tuple(odds.TARGETING) == odds_cmds.CASUALTY_POLICIES
    assert tuple(odds.RETREATS) == odds_cmds.RETREAT_POLICIES
    assert odds_cmds.DEFAULT_CASUALTIES == odds.DEFAULT_CASUALTIES
    assert odds_cmds.DEFAULT_RETREAT == odds.DEFAULT_RETREAT
