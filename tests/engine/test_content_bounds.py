"""Content files: every number is bounded, ids and table keys are plain identifiers, and
text holds no control characters; the error names the file, the entry and the key."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import starlanes
from starlanes.engine import ContentError

GE_CONTENT = Path(starlanes.__file__).parent / "games" / "galactic_empires" / "content"


def _load_with(tmp_path: Path, old: str, new: str) -> None:
    d = tmp_path / "content"
    shutil.copytree(GE_CONTENT, d)
    text = (d / "cards.toml").read_text()
    assert old in text
    (d / "cards.toml").write_text(text.replace(old, new, 1))
    starlanes.load("galactic-empires", players=2, content=str(d)).new_initial_state()


@pytest.mark.parametrize("new, message", [
    ('id = "crew\\u001b[2J"', "control characters"),
    ('id = "[red]crew[/red]"', "is not a plain identifier"),
    ('id = "crew gunner"', "is not a plain identifier"),
])
def test_ids_must_be_plain_identifiers(tmp_path: Path, new: str, message: str) -> None:
    with pytest.raises(ContentError) as e:
        _load_with(tmp_path, 'id = "crew_gunner"', new)
    assert "cards.toml" in str(e.value) and message in str(e.value)
    assert "key 'id'" in str(e.value)


def test_huge_numbers_are_refused_at_once(tmp_path: Path) -> None:
    """A count of 10^18 would hang set-up or exhaust memory: it is refused on loading."""
    old = 'effects = [{kind = "weapon", symbol = "P", n = 1}]'
    with pytest.raises(ContentError) as e:
        _load_with(tmp_path, old, old.replace("n = 1", f"n = {10**18}"))
    msg = str(e.value)
    assert "cards.toml" in msg and "'crew_gunner'" in msg and "effects[0].n" in msg
    assert "out of range" in msg
