"""Output files are written whole or not at all, and their folders are never made behind
the user's back (issue 28): ``odds --chart /dev/full`` fails with a clear error, a full disk
leaves neither an empty file nor a temporary one, ``save PATH`` and ``--save`` refuse a
missing folder."""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path

import pytest

import starlanes
from starlanes.engine import BadOptionError
from starlanes.engine.files import write_file
from starlanes.terminal import PlaySession
from tests.test_cli_content_errors import cli

FULL = Path("/dev/full")


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
def test_odds_chart_on_a_full_device_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    code, out, err = cli(capsys, "odds", "rift-domination", "--attacker", "fighter",
                         "--defender", "fighter", "--chart", str(FULL))
    assert code == 2, out
    assert err.startswith("error: cannot write chart /dev/full: No space left on device")
    assert "chart written" not in out


@pytest.mark.parametrize("existing", [None, b"the old record\n"])
def test_a_full_disk_leaves_the_old_file_and_no_temporary_one(
        existing: bytes | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.json"
    if existing is not None:
        target.write_bytes(existing)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(BadOptionError, match="cannot write record .*game.json: No space left"):
        write_file(target, "{}" * 1000, "record")
    assert [p.name for p in tmp_path.iterdir()] == ([] if existing is None else ["game.json"])
    if existing is not None:
        assert target.read_bytes() == existing


def test_save_at_the_table_does_not_create_folders(tmp_path: Path) -> None:
    state = starlanes.load("rift-domination", players=2, seed=5).new_initial_state()
    missing = tmp_path / "no" / "such" / "folder" / "game.json"
    from starlanes.terminal import out

    # capture() leaves the console as it was (following sys.stdout): pinning its file to a
    # buffer and back would pin it to this test's stdout for every later test
    with out.capture() as shown:
        session = PlaySession(state, ["human", "random"], 5, None,
                              stdin=io.StringIO(f"save {missing}\nquit\n"))
        session.run()
    def squeezed(text: str) -> str:  # the console wraps long paths anywhere
        return "".join(text.split())

    assert squeezed(f"folder '{missing.parent}' does not exist") in squeezed(shown.get())
    assert not (tmp_path / "no").exists()


def test_play_save_into_a_missing_folder_is_refused_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere" / "game.json"
    code, _, err = cli(capsys, "play", "rift-domination", "--seats", "random,random",
                       "--seed", "1", "--no-autosave", "--save", str(missing))
    assert code == 2
    assert "does not exist" in err and str(missing) in err
    assert not missing.parent.exists()
