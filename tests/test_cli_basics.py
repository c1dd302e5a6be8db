"""``--version``, ``-h``, typer's shell completion and the pager for ``rules`` (issue 28),
through the real command."""

from __future__ import annotations

import os
import pty
import time
from pathlib import Path

import pytest

import starlanes
from starlanes import build_kind
from tests.test_cli import COMMAND, run
from tests.test_cli_content_errors import cli


def test_version_and_short_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--version")
    build = build_kind.describe()
    assert code == 0 and out.strip() == f"starlanes {starlanes.__version__}, {build}"
    for args in ((), ("play",), ("rules",)):
        short, long = cli(capsys, *args, "-h"), cli(capsys, *args, "--help")
        assert short[0] == 0 and short[1] == long[1]
        assert "-h, --help" in short[1]


def test_shell_completion_is_typers(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # typer otherwise detects the shell from the process's ancestors (a plain ``sh`` there
    # is refused); with detection off, --show-completion takes the shell by name
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    proc = run("--show-completion", "bash")
    assert proc.returncode == 0
    assert "complete" in proc.stdout and "_STARLANES_COMPLETE" in proc.stdout
    assert "--install-completion" in cli(capsys, "--help")[1]


def _on_a_terminal(args: list[str], env: dict[str, str], timeout: float = 30) -> str:
    """Run the command with a pseudo-terminal as stdin and stdout; what it wrote."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command on the terminal
        os.execvpe(COMMAND[0], [*COMMAND, *args], env)
    shown = b""
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(fd)
        os.waitpid(pid, 0)
    return shown.decode("utf-8", "replace")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo-terminal")
def test_rules_go_through_the_pager_on_a_terminal(tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    env = dict(os.environ, PAGER=f"cat > {paged}", COLUMNS="100", TERM="dumb")
    env.pop("MANPAGER", None)
    _on_a_terminal(["rules", "rift-domination", "battle"], env)
    assert "RD-BAT" in paged.read_text()
    piped = run("rules", "rift-domination", "battle")  # not a terminal: no pager
    assert piped.returncode == 0 and "RD-BAT" in piped.stdout
