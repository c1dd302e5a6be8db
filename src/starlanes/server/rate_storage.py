"""In-process counters for the ``limits`` rate limiters, swept at a bounded rate.

``limits``' own in-memory storages sweep out expired counters after every count: the
asynchronous one walks every key it holds on each hit, and the threaded one starts a new
timer thread whenever the last one has ended (every 10 ms under load). A flood of
requests from many addresses makes each refusal cost a walk over all their keys, which is
the server's event loop spending its time on the attacker. These subclasses keep the
library's counting, windows and strategies and only space the sweeps out: at most one per
:data:`SWEEP` seconds. A counter past its window is still dropped when it is next read
(the library checks its expiry on every read), so answers do not change; what an idle
key holds stays bounded by the sweep.

Both classes rely on the storages' private sweep hook (``__schedule_expiry``); the tests
in ``tests/server/test_rate_storage.py`` fail if a release of ``limits`` renames it.
"""

from __future__ import annotations

import time

from limits.aio.storage import MemoryStorage as _AsyncMemory
from limits.storage import MemoryStorage as _Memory

SWEEP = 5.0
"""Seconds between two sweeps of expired counters in one storage."""


class SweptMemoryStorage(_Memory):
    """``limits.storage.MemoryStorage`` (thread-safe, for the synchronous limiters) that
    sweeps expired counters at most once per :data:`SWEEP` seconds."""

    _last_sweep = float("-inf")
    sweeps = 0
    """Sweeps scheduled so far (for tests and the benchmark)."""

    def _MemoryStorage__schedule_expiry(self) -> None:  # the library's hook, see above
        now = time.monotonic()
        if now - self._last_sweep < SWEEP:
            return
        self._last_sweep = now
        self.sweeps += 1
        super()._MemoryStorage__schedule_expiry()  # type: ignore[misc]


class AsyncSweptMemoryStorage(_AsyncMemory):
    """``limits.aio.storage.MemoryStorage`` (for the asynchronous limiters, on one event
    loop) that sweeps expired counters at most once per :data:`SWEEP` seconds."""

    _last_sweep = float("-inf")
    sweeps = 0
    """Sweeps scheduled so far (for tests and the benchmark)."""

    async def _MemoryStorage__schedule_expiry(self) -> None:  # the library's hook
        now = time.monotonic()
        if now - self._last_sweep < SWEEP:
            return
        self._last_sweep = now
        self.sweeps += 1
        await super()._MemoryStorage__schedule_expiry()  # type: ignore[misc]
