"""Text from records, content files and the network reaches the terminal without escape
sequences, control characters or disguising format characters (``starlanes.terminal.
safe_text``), in the function itself, the consoles, and ``starlanes replay`` / ``play``."""

from __future__ import annotations

import io
import json
import random
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

from starlanes.engine import load
from starlanes.terminal import SafeConsole, markup_safe, printable
from tests.test_cli import run

BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]


# ---------------------------------------------------------------------- sequences
@pytest.mark.parametrize(("raw", "shown"), [
    ("\x1b[31mred\x1b[0m", "red"),                       # SGR colour
    ("\x1b[2Jwiped", "wiped"),                           # erase the screen
    ("\x1b[?1049hx\x1b[10;20H", "x"),                    # private mode, cursor position
    ("\x9b2Jeight-bit", "eight-bit"),                    # 8-bit CSI
])
def test_csi_sequences_are_removed(raw: str, shown: str) -> None:
    assert printable(raw) == shown


@pytest.mark.parametrize(("raw", "shown"), [
    ("\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\", "click"),   # OSC 8, ST
    ("\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07", "click"),       # OSC 8, BEL
    ("name\x1b]52;c;cm0gLXJmIH4=\x07", "name"),                           # OSC 52 clipboard
    ("\x1b]0;new window title\x07ok", "ok"),                               # window title
    ("\x9d0;title\x9cok", "ok"),                                           # 8-bit OSC, ST
    ("ok\x1b]0;never terminated", "ok"),                 # unterminated: swallowed to the end
])
def test_osc_sequences_are_removed_with_their_payload(raw: str, shown: str) -> None:
    assert printable(raw) == shown
    assert "evil" not in printable(raw) and "cm0g" not in printable(raw)


@pytest.mark.parametrize(("raw", "shown"), [
    ("\x1bPq#0;2;0;0;0#0~~\x1b\\sixel", "sixel"),       # DCS (sixel)
    ("\x1b_apc payload\x1b\\a", "a"),                   # APC
    ("\x1b^pm\x1b\\b", "b"),                            # PM
    ("\x1bXsos\x1b\\c", "c"),                           # SOS
    ("\x90dcs\x9cd", "d"),                              # 8-bit DCS and ST
])
def test_string_sequences_are_removed(raw: str, shown: str) -> None:
    assert printable(raw) == shown


@pytest.mark.parametrize("raw", ["\x1bcreset", "\x1b(Breset", "\x1b7reset\x1b8",
                                 "\x1b#8reset", "\x1b=reset", "reset\x1b"])
def test_single_escape_sequences_are_removed(raw: str) -> None:
    assert printable(raw) == "reset"


# ---------------------------------------------------------------------- characters
def test_c0_and_c1_controls_are_removed() -> None:
    assert printable("a\x00b\x07c\x08d\re\x7ff\x85g\x9ch\x0bi\x0cj") == "abcdefghij"


def test_tab_and_newline() -> None:
    assert printable("a\tb") == "a b"
    assert printable("a\nb") == "a b"
    assert printable("a\r\nb\n", newlines=True) == "a\nb\n"
    assert printable("plain\nascii", newlines=True) == "plain\nascii"


@pytest.mark.parametrize("mark", BIDI)
def test_bidi_embeddings_overrides_and_isolates_are_removed(mark: str) -> None:
    assert printable(f"{mark}evil.exe{mark}txt") == "evil.exetxt"


@pytest.mark.parametrize("hidden", ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u061c",
                                    "\U000e0041", "\u2028", "\u2029", "\ud800"])
def test_invisible_format_characters_are_removed(hidden: str) -> None:
    assert printable(f"a{hidden}b") == "ab"


@pytest.mark.parametrize("text", [
    "Ærøskøbing", "東京の艦隊", "Привет, флот", "مرحبا بالأسطول", "नमस्ते", "می‌خواهم",
    "👨‍👩‍👧 family", "🇫🇷 🚀 ☄", "e\u0301clair", "Ω ≤ ∞ — “quoted” …",
    "[not markup] {braces} <angle> & 100%",
])
def test_normal_text_of_every_script_is_kept(text: str) -> None:
    assert printable(text) == text


def test_length_bound() -> None:
    assert printable("abcdef", 4) == "abc…"
    assert printable("abcd", 4) == "abcd"
    assert printable("\x1b[31mabc\x1b[0m", 3) == "abc"    # counted after cleaning
    assert printable("abc", 1) == "…"
    assert printable("abc", 0) == ""
    assert len(printable("ж" * 1000, 40)) == 40


PIECES = st.characters() | st.sampled_from(
    ["\x1b", "\x1b[", "\x1b]", "\x1bP", "\x07", "\x9b", "\x9c", "\x1b\\", "\n", *BIDI])


@given(st.lists(PIECES, max_size=40), st.booleans())
def test_nothing_dangerous_survives_and_cleaning_is_idempotent(pieces: list[str],
                                                                nl: bool) -> None:
    shown = printable("".join(pieces), newlines=nl)
    for ch in shown:
        category = unicodedata.category(ch)
        assert category not in ("Cc", "Cs", "Zl", "Zp") or (nl and ch == "\n"), repr(ch)
        assert category != "Cf" or ch in "\u200c\u200d", repr(ch)
    assert printable(shown, newlines=nl) == shown


# ---------------------------------------------------------------------- rich
def _console(terminal: bool = False) -> tuple[SafeConsole, io.StringIO]:
    buffer = io.StringIO()
    return SafeConsole(file=buffer, force_terminal=terminal, width=100,
                       highlight=False), buffer


def test_markup_safe_shows_markup_literally() -> None:
    console, buffer = _console()
    console.print(f"name: {markup_safe('[red]Eve[/red] [link=https://x.example]y[/link]')}")
    assert buffer.getvalue() == "name: [red]Eve[/red] [link=https://x.example]y[/link]\n"


def test_safe_console_cleans_rendered_text_but_keeps_its_own_styles() -> None:
    console, buffer = _console(terminal=True)
    console.print(Text("boss\x1b[2J\u202eoki", style="bold"))
    console.print("[red]warning[/red]")
    shown = buffer.getvalue()
    assert "\x1b[2J" not in shown and "\u202e" not in shown
    assert "bossoki" in shown
    assert "\x1b[1m" in shown and "\x1b[31m" in shown      # rich's own styles still work


# ---------------------------------------------------------------------- the CLI
EVIL_SEATS = [
    "\x1b[2JAlice\x1b]52;c;cm0gLXJmIH4=\x07",
    "\x1b]8;;https://evil.example/\x1b\\Bob\x1b]8;;\x1b\\",
    "\u202eevaD [red]Eve[/red]",
]


def _evil_record(path: Path, actions: int = 10**6, **changes: object) -> Path:
    """A 3-seat Rift Domination game (finished, or after ``actions`` actions) whose seat
    names hold escape sequences, an OSC 8 link, an OSC 52 clipboard write, a bidi override
    and rich markup; ``changes`` replace fields of the record."""
    state = load("rift-domination", players=3, seed=4, round_limit=1).new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal() and len(state.history) < actions:
        state.apply(rng.choice(state.legal_actions()))
    data = json.loads(state.record(EVIL_SEATS).to_json())
    data.update(changes)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _assert_clean(text: str, payloads: bool = False) -> None:
    """No raw ESC, BEL, C1 introducer or bidi override in ``text``; unless ``payloads``,
    not even the hidden link target or clipboard text."""
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\x9b" not in text and "\x9d" not in text
    if not payloads:
        assert "evil.example" not in text and "cm0gLXJmIH4" not in text


def test_replay_shows_hostile_seat_names_harmlessly(tmp_path: Path) -> None:
    proc = run("replay", str(_evil_record(tmp_path / "evil.json")))
    assert proc.returncode == 0, proc.stderr
    _assert_clean(proc.stdout + proc.stderr)
    assert "Game over" in proc.stdout
    for name in ("[Alice]", "[Bob]", "[evaD [red]Eve[/red]]"):
        assert name in proc.stdout


def test_replay_step_and_digest_warning_show_record_text_harmlessly(tmp_path: Path) -> None:
    record = _evil_record(tmp_path / "evil.json", digest="\x1b[2J[red]forged\u202e")
    proc = run("replay", str(record))
    _assert_clean(proc.stdout + proc.stderr)
    assert "recorded [red]forged" in proc.stderr

    data = json.loads(record.read_text(encoding="utf-8"))
    data["actions"][0] = "\x1b]0;title\x07\x1b[2Jmarch\u202e [bold]on"
    record.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    stepped = run("replay", str(record), "--step", stdin="\n\n")
    _assert_clean(stepped.stdout + stepped.stderr)
    assert "plays march [bold]on" in stepped.stdout
    assert "does not replay" in stepped.stderr


def test_play_load_refuses_hostile_seats_harmlessly(tmp_path: Path) -> None:
    record = _evil_record(tmp_path / "evil.json", actions=5)
    proc = run("play", "--load", str(record), "--delay", "0")
    assert proc.returncode == 2
    # the error quotes the bad agent spec as Python writes it: backslash escapes, no ESC
    _assert_clean(proc.stdout + proc.stderr, payloads=True)
    assert "error: unknown agent" in proc.stderr and "Alice" in proc.stderr
