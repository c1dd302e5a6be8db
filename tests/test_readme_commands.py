"""Every ``starlanes`` command in the README's code blocks runs, with small sizes.

The commands run from a fresh virtual environment made by the README's first install line
(``python3 -m venv .venv && . .venv/bin/activate && python -m pip install .``) in a copy
of this tree, once per test run (the test processes share it), with ``STARLANES_PURE=1``
so that the install takes about a minute instead of compiling (the suite tests the compiled
build itself, docs/engine.md). So a command that needs more than the core install (a
database driver, matplotlib) fails here as it would for a newcomer. Each runs in a temporary
folder holding what they read (a game
record, a deck file, a server configuration), each with the sizes cut down: ``--games 2``,
``--workers 1``, two rounds of Rift Domination, no watch-mode delay. Placeholders are
filled in: ``URL`` with an SQLite file, the ``dbhost`` database with a fresh PostgreSQL
database (an SQLite file when none is reachable), ``cachehost`` with the local Redis (the
several-servers lines are skipped without both), ``GAME_ID`` with a game made on the
server, ``GE1-...`` with a real deck code; ``deck new`` writes its file afresh. ``serve`` must answer ``/readyz``; ``bots``
must still run after a few seconds. A command must exit 0 without an error line. The
first two lines are the install lines, checked for their venv step; ``.ci/run`` installs
the same way.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from starlanes.engine import load
from tests.server.conftest import drop_postgres, postgres_url

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
VENV_LOCK_TIMEOUT = 900
"""Seconds a test process waits for another one to finish making the fresh environment."""


def code_blocks() -> list[list[str]]:
    """The lines of every ``sh`` code block of the README."""
    return [block.strip("\n").splitlines() for block in
            re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)]


def readme_commands() -> list[str]:
    """Every ``starlanes ...`` line of the README's code blocks, its comment cut off."""
    lines = [line for block in code_blocks() for line in block]
    return [re.sub(r"\s+#\s.*$", "", line).strip() for line in lines
            if line.startswith("starlanes ")]


def test_the_install_lines_make_a_virtual_environment_first() -> None:
    first, second = code_blocks()[0][:2]
    venv = "python3 -m venv .venv && . .venv/bin/activate && python -m pip install "
    assert first == venv + ". && starlanes serve"
    assert second == venv + '".[test]" && python -m pytest -n auto'
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m venv" in ci and 'pip install --quiet ".[test]"' in ci
    assert "python -m pytest -n auto" in ci


def test_the_readme_names_every_command_it_shows() -> None:
    """The list below is the README's: a new command line gets its runner here too."""
    commands = readme_commands()
    assert len(commands) >= 30
    words = {shlex.split(c)[1] for c in commands}
    assert words <= {"serve", "db", "export", "bots", "games", "rules", "cards", "play",
                     "simulate", "tournament", "balance", "compare", "replay", "odds",
                     "deck"}, words


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:  # noqa: S310 - a local server
            return r.status
    except OSError:
        return 0


def outside_env(**extra: str) -> dict[str, str]:
    """This process's environment as a shell outside the test environment has it: no
    ``VIRTUAL_ENV``, ``PYTHONPATH`` or ``PYTHONHOME``, and this environment's folders left
    off ``PATH``; with ``extra`` added."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(str(Path(sys.prefix))))
    return env | extra


class Table:
    """The temporary folder a command runs in, with what the README's commands read."""

    exe = "starlanes"
    """The ``starlanes`` of the fresh environment (set by the ``fresh_starlanes`` fixture)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.env = outside_env(COLUMNS="120", NO_COLOR="1", PAGER="cat",
                               STARLANES_DATA_DIR=str(folder / "data"))
        self.sqlite = f"sqlite:///{folder / 'starlanes.db'}"
        self.postgres: str | None = None

    def run(self, argv: list[str], stdin: str = "", timeout: float = 240
            ) -> subprocess.CompletedProcess[str]:
        return subprocess.run([self.exe, *argv[1:]], cwd=self.folder, env=self.env,
                              input=stdin, capture_output=True, text=True, timeout=timeout)

    def start(self, argv: list[str]) -> subprocess.Popen[str]:
        return subprocess.Popen([self.exe, *argv[1:]], cwd=self.folder, env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)

    def serve(self, argv: list[str]) -> int:
        """Run a ``serve`` line on a free port until ``/readyz`` answers; the port."""
        port = _free_port()
        if "--port" in argv:
            argv[argv.index("--port") + 1] = str(port)
        else:
            argv += ["--port", str(port)]
        proc = self.start(argv)
        try:
            deadline = time.monotonic() + 90
            while _get(f"http://127.0.0.1:{port}/readyz") != 200:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "serve did not answer /readyz"
                time.sleep(0.5)
            self.after_ready(port)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(30)
        return port

    def after_ready(self, port: int) -> None:
        """Hook: what to do while the server runs."""


def _fixtures(folder: Path) -> str:
    """Write what the commands read into ``folder``; the deck code of ``mist.toml``."""
    state = load("rift-domination", players=2, seed=3, round_limit=2).new_initial_state()
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    state.record().save(folder / "game.json")
    (folder / "records").mkdir()
    shutil.copy(folder / "game.json", folder / "records" / "game-00000.json")
    (folder / "server.toml").write_text("", encoding="utf-8")
    table = Table(folder)
    made = table.run(["starlanes", "deck", "new", "mist.toml", "--name", "Mist Lancers",
                      "--major", "argonian", "--from", "argonian"])
    assert made.returncode == 0, made.stderr
    code = table.run(["starlanes", "deck", "code", "mist.toml"])
    assert code.returncode == 0, code.stderr
    return code.stdout.strip()


def _install_line() -> str:
    """The README's first install line, without the command it then runs."""
    first = code_blocks()[0][0]
    return first.split(" && starlanes ")[0]


def _copy_tree(to: Path) -> None:
    """This checkout's sources, without environments, builds and compiled files."""
    shutil.copytree(ROOT, to, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".ci-venv", "build", "dist", "*.egg-info", "__pycache__", "*.so",
        ".pytest_cache", ".ruff_cache", "node_modules", "docs"))


@pytest.fixture(scope="session")
def fresh_starlanes(tmp_path_factory: pytest.TempPathFactory) -> str:
    """``starlanes`` of a virtual environment made by the README's install line in a copy
    of this tree: made once per run, under a lock shared by the test processes."""
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent  # the same for every xdist worker
    where = shared / "readme-venv"
    exe = where / ".venv" / "bin" / "starlanes"
    failed = shared / "readme-venv.failed"
    with FileLock(shared / "readme-venv.lock", timeout=VENV_LOCK_TIMEOUT):
        assert not failed.exists(), failed.read_text(encoding="utf-8")
        if not exe.exists():
            shutil.rmtree(where, ignore_errors=True)
            _copy_tree(where)
            proc = subprocess.run(["bash", "-c", _install_line()], cwd=where,
                                  env=outside_env(STARLANES_PURE="1"),
                                  capture_output=True, text=True, timeout=VENV_LOCK_TIMEOUT)
            if proc.returncode != 0 or not exe.exists():
                failed.write_text(f"the README's install line failed:\n{proc.stdout[-3000:]}"
                                  f"\n{proc.stderr[-3000:]}", encoding="utf-8")
                raise AssertionError(failed.read_text(encoding="utf-8"))
    return str(exe)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory, fresh_starlanes: str
             ) -> tuple[Path, str]:
    Table.exe = fresh_starlanes
    folder = tmp_path_factory.mktemp("readme")
    return folder, _fixtures(folder)


def test_the_fresh_environment_has_the_core_install_only(fresh_starlanes: str) -> None:
    """The fresh environment is the README's core install: starlanes, no test tools, no
    matplotlib (the plot extra), and the pure modules (STARLANES_PURE=1)."""
    python = Path(fresh_starlanes).with_name("python")
    probe = subprocess.run([str(python), "-c", (
        "import importlib.util as u, starlanes.build_kind as b; "
        "print(bool(u.find_spec('matplotlib')), bool(u.find_spec('pytest')), b.describe())")],
        capture_output=True, text=True, timeout=120, env=outside_env())
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == ["False", "False", "pure", "Python"], probe.stdout


SHORT = {"rift-domination": "round_limit=2", "galactic-domination": "turn_limit=3"}
"""A game option that keeps a game short, per game."""


def _small(argv: list[str], table: Table, code: str) -> tuple[list[str], str]:
    """The command with small sizes and its placeholders filled; and its standard input."""
    out: list[str] = []
    for i, word in enumerate(argv):
        before = argv[i - 1] if i else ""
        if before == "--games":
            word = "2"
        elif before == "--workers":
            word = "1"
        elif before == "--delay":
            word = "0"
        elif before == "--db":
            word = table.postgres if "dbhost" in word and table.postgres else table.sqlite
        elif word == "GE1-...":
            word = code
        out.append(word)
    verb = out[1]
    game = out[2] if len(out) > 2 else ""
    if verb in ("simulate", "tournament", "balance", "compare", "play") and game in SHORT:
        out += ["-o", SHORT[game]]
    stdin = ""
    if verb == "play":
        seats = out[out.index("--seats") + 1].split(",") if "--seats" in out else ["human"]
        humans = seats.count("human")
        stdin = ("\n" if humans > 1 else "") + "quit\n"
    return out, stdin


def _check(proc: subprocess.CompletedProcess[str], command: str, expect: int = 0) -> None:
    assert proc.returncode == expect, (command, proc.stdout[-2000:], proc.stderr[-2000:])
    assert "error:" not in proc.stderr, (command, proc.stderr)
    assert "Traceback" not in proc.stderr, (command, proc.stderr)


@pytest.mark.parametrize("command", readme_commands())
def test_readme_command_runs(command: str, prepared: tuple[Path, str],
                             tmp_path: Path) -> None:
    source, code = prepared
    folder = tmp_path / "here"
    shutil.copytree(source, folder)
    table = Table(folder)
    if "dbhost" in command:
        table.postgres = postgres_url()
    try:
        _run_line(command, table, code, folder)
    finally:
        if table.postgres:
            drop_postgres(table.postgres)


def _run_line(command: str, table: Table, code: str, folder: Path) -> None:
    argv, stdin = _small(shlex.split(command), table, code)
    verb = argv[1]
    if "redis://cachehost:6379/0" in argv:
        if not (_redis_answers() and table.postgres):
            pytest.skip("several servers need PostgreSQL and Redis; one is not reachable")
        argv[argv.index("redis://cachehost:6379/0")] = "redis://127.0.0.1:6379/15"
        upgrade = table.run(["starlanes", "db", "upgrade", "--db", table.postgres])
        _check(upgrade, "db upgrade")
    if verb == "deck" and argv[2] == "new":
        (folder / argv[3]).unlink(missing_ok=True)
    if verb == "serve":
        table.serve(argv)
        return
    if verb == "bots":
        proc = table.start(argv)
        try:
            time.sleep(6)
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(30)
        return
    if verb == "export":
        argv[argv.index("GAME_ID")] = _stored_game(folder)
        proc = table.run(argv)
        _check(proc, command)
        assert json.loads((folder / "game.json").read_text())["game"] == "rift-domination"
        return
    proc = table.run(argv, stdin=stdin)
    _check(proc, command, expect=0)


def _stored_game(folder: Path) -> str:
    """A game created on a server run in ``folder`` (its default database); its id."""
    made: list[str] = []

    class Creating(Table):
        def after_ready(self, port: int) -> None:
            body = json.dumps({"game": "rift-domination", "players": 2,
                               "seats": ["human", "heuristic"], "seed": 7}).encode()
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/games", data=body,
                headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as r:  # noqa: S310
                made.append(json.loads(r.read())["id"])

    Creating(folder).serve(["starlanes", "serve", "--bot-workers", "0"])
    return made[0]
