"""Broken ``--content`` directories, typed content overrides and the ``decks`` option give
one clear ``error:`` line naming the file, never a traceback (issue 28), through the
command's real entry point (:func:`starlanes.cli.main`) in this process."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from starlanes.cli import main
from starlanes.cli.app import STOP_SIGNALS

GAMES = ("rift-domination", "galactic-domination", "interstellar-ambitions", "galactic-empires")
#: A file every game's content reads, so the directory's file names are accepted.
FILE_OF = {"rift-domination": "units.toml", "galactic-domination": "units.toml",
           "interstellar-ambitions": "techs.toml", "galactic-empires": "cards.toml"}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``starlanes ARGS`` through :func:`main`; (exit status, stdout, stderr). The
    signal handlers the command installs are put back afterwards."""
    old = sys.argv
    handlers = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    sys.argv = ["starlanes", *args]
    code = 0
    try:
        main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    finally:
        sys.argv = old
        for s, h in handlers.items():
            signal.signal(s, h)
    got = capsys.readouterr()
    return code, got.out, got.err


def _broken(kind: str, folder: Path, name: str) -> Path:
    path = folder / name
    if kind == "not_utf8":
        path.write_bytes(b'x = "\xff\xfe"\n')
    elif kind == "deep":
        path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    elif kind == "folder":
        path.mkdir()
    elif kind == "loop":
        os.symlink(name, path)
    return path


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["not_utf8", "deep", "folder", "loop"])
def test_broken_content_file_is_a_clear_error_in_play_and_cards(
        game: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _broken(kind, tmp_path, FILE_OF[game])
    for args in (("cards", game), ("play", game, "--seats", "random,random", "--seed", "1",
                                   "--no-autosave")):
        code, out, err = cli(capsys, *args, "--content", str(tmp_path))
        assert code == 2, (args, out, err)
        assert err.startswith("error: content file ") and str(path) in err, err
        assert "Traceback" not in err + out
        assert err.count("\n") == 1


@pytest.mark.parametrize("value, says", [("true", "true is not an integer"),
                                         ('"7"', "'7' is text, not an integer")])
def test_content_override_refuses_bool_and_text_for_an_integer(
        value: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "cards", "rift-domination", "-o",
                       f"content.units.destroyer.cost={value}")
    assert code == 2
    assert "entry 'destroyer': key 'cost': " + says in err


def test_galactic_empires_decks_option_refuses_empty_entries(
        capsys: pytest.CaptureFixture[str]) -> None:
    for decks in (",,,", "krebiz,"):
        code, _, err = cli(capsys, "cards", "galactic-empires", "-o", f"decks={decks}")
        assert code == 2
        assert "option 'decks' has an empty entry" in err
