"""``starlanes deck`` (new, set, show, check, code, import), ``play --deck`` and ``balance
--decks`` (issue 30), run in-process."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from starlanes.cli import app
from starlanes.engine import GameRecord
from starlanes.games.galactic_empires import deck_code, decks
from starlanes.games.galactic_empires.content import load_content

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    """Exit status and output; an error ``main`` would print (exit 2) is the exception's
    text with status 2 here."""
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return 2, str(result.exception)
    return result.exit_code, result.output


def test_deck_commands_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    code, text = _run("deck", "new", str(path), "--name", "Mist Lancers", "--major",
                      "argonian", "--from", "argonian", "--card", "eq_shuttle=0")
    assert code == 0 and "legal: 59 cards" in text
    code, text = _run("deck", "set", str(path), "arg_scout=4", "mch_drone")
    assert code == 0
    code, text = _run("deck", "check", str(path))
    assert code == 1
    assert "GE-OPEN-01 copies" in text and "arg_scout" in text
    assert "GE-OPEN-01 empire" in text and "mch_drone" in text
    _run("deck", "set", str(path), "arg_scout=2", "mch_drone=0")
    assert _run("deck", "check", str(path))[0] == 0
    code, printed = _run("deck", "code", str(path))
    deck_text = printed.strip()
    assert code == 0 and deck_text.startswith("GE1-")
    back = tmp_path / "back.toml"
    assert _run("deck", "import", deck_text, str(back))[0] == 0
    assert decks.load_file(back) == decks.load_file(path)
    assert _run("deck", "import", deck_text, str(back))[0] != 0  # no silent overwrite
    code, text = _run("deck", "show", deck_text, "--pool", "--empire", "argonian",
                      "--type", "B", "--json")
    assert code == 0 and json.loads(text)["cards"] == ["base_arg"]
    code, text = _run("deck", "check", deck_text[:-1] + "A")
    assert code == 2 and "damaged" in text


def test_play_with_a_deck_and_balance_decks(tmp_path: Path) -> None:
    content = load_content()
    mine = decks.from_content(content, "dragon").model_copy(update={"name": "Wyrms"})
    path = tmp_path / "wyrms.toml"
    path.write_text(decks.to_toml(mine), encoding="utf-8")
    save = tmp_path / "game.json"
    code, text = _run("play", "galactic-empires", "-o", "structure=standard", "-o",
                      "turn_cap=3", "--seats", "random,random", "--deck", f"1={path}",
                      "--seed", "4", "--delay", "0", "--no-autosave", "--save", str(save))
    assert code == 0, text
    record = GameRecord.load(save)
    assert record.options["seat_setup"] == ["", deck_code.encode(content, mine)]
    code, text = _run("play", "galactic-empires", "--seats", "random,random", "--deck",
                      f"0={path}", "--no-autosave")
    assert code == 2 and "structure=standard" in text
    code, text = _run("balance", "galactic-empires", "--decks", f"krebiz,{path}",
                      "--games", "2", "--json", "-o", "turn_cap=4")
    assert code == 0, text
    report = json.loads(text.splitlines()[-1])
    assert report["games"] == 2 and set(report["decks"]) == {"Krebiz starter deck", "Wyrms"}
    assert {e["games"] for e in report["decks"].values()} == {2}
    assert report["decks"]["Wyrms"]["first_seat"]["games"] == 1
    code, text = _run("balance", "galactic-empires", "--decks", "krebiz", "--games", "2")
    assert code == 2 and "at least two decks" in text
