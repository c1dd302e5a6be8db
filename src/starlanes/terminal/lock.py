"""One table per autosave: a lock so two ``starlanes play`` of the same game cannot both
write its autosave (the last writer would silently win).

:func:`hold_autosave` takes an exclusive, non-blocking ``flock`` on ``<autosave>.lock``
for as long as the session runs; the operating system releases it when the process ends,
however it ends, so a crash leaves no stale lock. Where ``fcntl`` does not exist (Windows)
no lock is taken.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from starlanes.engine import BadOptionError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]


def lock_path(autosave: Path) -> Path:
    """The lock file of an autosave: ``<autosave>.lock`` next to it."""
    return autosave.with_name(autosave.name + ".lock")


@contextlib.contextmanager
def hold_autosave(autosave: Path | None) -> Iterator[None]:
    """Hold the autosave's lock while the block runs.

    Raises BadOptionError naming the autosave and the process holding it when another
    ``starlanes play`` has the same game open, with what to do instead (finish that game,
    or play this one with ``--no-autosave``).
    """
    if autosave is None or fcntl is None:
        yield
        return
    path = lock_path(autosave)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise BadOptionError(f"cannot lock the autosave {autosave}: {e.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            who = f" (process {holder})" if holder.isdigit() else ""
            raise BadOptionError(
                f"this game is already open in another 'starlanes play'{who}, which writes "
                f"its autosave {autosave}; finish or quit that one first, or play this one "
                "without saving over it: --no-autosave") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock
