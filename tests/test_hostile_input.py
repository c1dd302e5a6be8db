"""Hostile input: every command, given junk arguments or files, either works or prints one
line naming the problem and exits non-zero - never a Python traceback; the Python API
refuses junk seats and notations with a StarlanesError."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from starlanes.engine import SPECTATOR, BadOptionError, BadSeatError, NotationError, load
from tests.test_cli import run

RD = "rift-domination"
HUGE = "99999999999999999999999"


def _clean_failure(proc) -> None:
    """Non-zero exit, no traceback, and a message on stderr."""
    text = proc.stdout + proc.stderr
    assert "Traceback" not in text, text[-2000:]
    assert proc.returncode != 0, text[-500:]
    assert proc.stderr.strip(), "no message"


@pytest.fixture(scope="module")
def junk_files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("junk")
    files = {
        "binary": b"\x00\xff\xfe\x80" * 50,
        "utf16": '{"game": "rift-domination"}'.encode("utf-16"),
        "nested": b"[" * 100_000 + b"]" * 100_000,
        "empty": b"",
        "wrong": b'{"game": 5, "players": "x", "actions": {}}',
        "markup": b'{"game": "[red]x\\u001b[2J", "players": 2}',
    }
    out = {}
    for name, data in files.items():
        (d / name).write_bytes(data)
        out[name] = d / name
    return out


ARGUMENT_CASES = [
    ("play", RD, "--players", HUGE),
    ("play", RD, "--players", "50000000"),
    ("play", RD, "--players", "-3"),
    ("play", RD, "--seed", HUGE, "--seats", "random,random"),
    ("play", "no-such-game"),
    ("simulate", RD, "--games", HUGE),
    ("simulate", RD, "--players", HUGE),
    ("simulate", RD, "--agents", "mcts:c=nan"),
    ("simulate", RD, "--agents", "mcts:iterations=" + "1" + "0" * 24),
    ("simulate", RD, "-o", "round_limit=" + HUGE),
    ("tournament", RD, "--games", HUGE),
    ("tournament", RD, "--agents", "random,frob"),
    ("balance", RD, "--games", "-1"),
    ("compare", RD, "--games", HUGE),
    ("odds", RD, "--attacker", "\x1b[2J"),
    ("cards", RD, "--content", "/nonexistent"),
    ("rules", RD, "NO-SUCH-RULE-\u2462"),
    ("rules", "no-such-game"),
    ("games", "--frob"),
    ("serve", "--port", HUGE),
    ("serve", "--port", "-1"),
    ("export", "no-such-game"),
    ("db", "frob"),
]


@pytest.mark.parametrize("args", ARGUMENT_CASES, ids=lambda a: " ".join(a)[:40])
def test_junk_arguments_fail_in_one_line(args: tuple[str, ...]) -> None:
    _clean_failure(run(*args, timeout=60))


@pytest.mark.parametrize("name", ["binary", "utf16", "nested", "empty", "wrong", "markup"])
@pytest.mark.parametrize("command", [("replay",), ("replay", "--verify"), ("play", "--load")])
def test_corrupt_records_fail_in_one_line(junk_files, name: str, command) -> None:
    if command[0] == "play":
        proc = run("play", "--load", str(junk_files[name]), timeout=60)
    else:
        proc = run(*command, str(junk_files[name]), timeout=60)
    _clean_failure(proc)


@pytest.mark.parametrize("text", ["\u00b2", "\u2462", "\u2460", "\uff11", "9" * 40, "-1", "0"])
def test_odd_numbers_at_the_prompt(text: str) -> None:
    """Superscripts, circled digits, full-width digits, huge and negative numbers at the
    prompt get a message and the prompt again."""
    proc = run("play", RD, "--seats", "human,random", "--seed", "3",
               stdin=f"{text}\n? {text}\nquit\n", timeout=60)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr[-2000:]
    assert proc.returncode == 0


@pytest.fixture(scope="module")
def states():
    return [load(g, players=2 if g != "interstellar-ambitions" else 3).new_initial_state()
            for g in ("rift-domination", "galactic-domination", "interstellar-ambitions",
                      "galactic-empires")]


JUNK = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                 st.text(max_size=30), st.lists(st.integers(), max_size=3),
                 st.binary(max_size=10))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=JUNK)
def test_api_refuses_junk_seats(states, junk) -> None:
    """observation and history_seen_by accept a seat 0..n-1 or the spectator only;
    determinize a seat only; anything else is a BadSeatError (the public observation keeps
    working)."""
    import random

    for state in states:
        n = state.game.players
        valid = (isinstance(junk, int) and not isinstance(junk, bool)
                 and (0 <= junk < n or junk == SPECTATOR))
        if valid:
            state.observation(junk)
            state.history_seen_by(junk)
        else:
            with pytest.raises(BadSeatError):
                state.observation(junk)
            with pytest.raises(BadSeatError):
                state.history_seen_by(junk)
        if not valid or junk == SPECTATOR:
            with pytest.raises(BadSeatError):
                state.determinize(junk, random.Random(0))
        state.public_observation()


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=JUNK)
def test_api_refuses_junk_notations(states, junk) -> None:
    """parse_action and read_action refuse anything that is not a legal notation with a
    NotationError and leave the state as it was."""
    for state in states:
        before = state.digest()
        legal = {str(a) for a in state.legal_actions()}
        if isinstance(junk, str) and " ".join(junk.split()) in legal:
            continue
        with pytest.raises(NotationError):
            state.game.parse_action(state, junk)
        assert state.digest() == before


@pytest.mark.parametrize("seed", [2**64, -(2**63) - 1, 10**30])
def test_seeds_outside_64_bits_are_refused(seed: int) -> None:
    with pytest.raises(BadOptionError, match="64 bits"):
        load(RD, players=2, seed=seed)
    load(RD, players=2, seed=2**64 - 1)
    load(RD, players=2, seed=-(2**63))
