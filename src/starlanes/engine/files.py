"""Writing output files so that a failed write leaves nothing half-written.

:func:`write_file` writes the whole text or bytes to a temporary file in the target's
folder, flushes it to disk and renames it over the target: a full disk, a quota or a lost
device leaves the old file (or no file) in place, never an empty or truncated one. A target
that exists and is not a regular file (``/dev/full``, ``/dev/stdout``, a named pipe) is
written in place, and its errors are reported all the same. The target's folder must exist:
nothing creates folders behind the user's back.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from .errors import BadOptionError


def write_file(path: str | Path, data: str | bytes, what: str = "file") -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` atomically and return the path.

    Raises BadOptionError naming ``what``, the path and the reason (``No space left on
    device``, ``folder ... does not exist``, ``is a directory``) when it cannot be written;
    the target is then unchanged and no temporary file is left behind.
    """
    target = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder = target.parent if str(target.parent) else Path(".")
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise BadOptionError(f"cannot write {what} {target}: {e.strerror or e}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise BadOptionError(f"cannot write {what} {target}: it is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        try:  # a device or a pipe: write in place, and let a failed flush be seen
            with target.open("wb") as f:
                f.write(raw)
                f.flush()
        except OSError as e:
            raise BadOptionError(f"cannot write {what} {target}: {e.strerror or e}") from None
        return target
    if not folder.is_dir():
        raise BadOptionError(f"cannot write {what} {target}: folder {str(folder)!r} does "
                             "not exist")
    fd, temp = -1, ""
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
        with os.fdopen(fd, "wb") as f:
            fd = -1
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(temp, stat.S_IMODE(mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp, 0o666 & ~umask)
        os.replace(temp, target)
        temp = ""
    except OSError as e:
        raise BadOptionError(f"cannot write {what} {target}: {e.strerror or e}") from None
    finally:
        if fd >= 0:
            os.close(fd)
        if temp:
            with contextlib.suppress(OSError):
                os.unlink(temp)
    return target


def data_dir() -> Path:
    """The user's data directory for starlanes: ``STARLANES_DATA_DIR`` when set, else the
    platform's (platformdirs: ``~/.local/share/starlanes`` on Linux). The terminal's
    autosaves and the server's default database live there."""
    override = os.environ.get("STARLANES_DATA_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("starlanes", appauthor=False))
