"""The rate counters a flood of requests fills: each hit must not sweep every key the
process holds (``limits``' own in-memory storages do, or start a thread per sweep), and
counters past their window are still dropped, so what the process holds stays bounded."""

from __future__ import annotations

import asyncio

import pytest
from limits import RateLimitItemPerSecond
from limits.aio.strategies import FixedWindowRateLimiter as AsyncFixedWindow
from limits.strategies import MovingWindowRateLimiter

from starlanes.server import rate_storage
from starlanes.server.rate_storage import AsyncSweptMemoryStorage, SweptMemoryStorage


def test_ten_thousand_clients_hitting_cost_one_sweep_not_one_per_hit() -> None:
    """The attack: 10,000 addresses, one hit each, on the event loop's limiter."""
    async def main() -> tuple[int, int]:
        storage = AsyncSweptMemoryStorage()
        limiter = AsyncFixedWindow(storage)
        item = RateLimitItemPerSecond(5)
        for i in range(10_000):
            assert await limiter.hit(item, "requests", f"10.0.{i // 250}.{i % 250}")
        return storage.sweeps, len(storage.storage)

    sweeps, held = asyncio.run(main())
    assert sweeps <= 2, sweeps
    assert held == 10_000


def test_the_threaded_storage_starts_no_timer_thread_per_hit() -> None:
    storage = SweptMemoryStorage()
    limiter = MovingWindowRateLimiter(storage)
    item = RateLimitItemPerSecond(3)
    for i in range(2_000):
        limiter.hit(item, "joins", f"client {i}")
    assert storage.sweeps <= 2, storage.sweeps


def test_answers_are_the_librarys_and_expired_counters_go(monkeypatch) -> None:
    """Limits still hold exactly; once the window passed a key counts from zero again, and
    a sweep (SWEEP seconds later) drops the keys of clients gone quiet."""
    monkeypatch.setattr(rate_storage, "SWEEP", 0.0)

    async def main() -> None:
        storage = AsyncSweptMemoryStorage()
        limiter = AsyncFixedWindow(storage)
        item = RateLimitItemPerSecond(2)
        assert await limiter.hit(item, "r", "a") and await limiter.hit(item, "r", "a")
        assert not await limiter.hit(item, "r", "a")
        for i in range(50):
            await limiter.hit(item, "r", f"quiet {i}")
        await asyncio.sleep(1.1)
        assert await limiter.hit(item, "r", "a")  # a new window
        await asyncio.sleep(0.05)  # the sweep that hit scheduled runs
        assert len(storage.storage) == 1 and "/a/" in next(iter(storage.storage)), storage.storage

    asyncio.run(main())


@pytest.mark.parametrize("cls", [SweptMemoryStorage, AsyncSweptMemoryStorage])
def test_the_librarys_sweep_hook_is_still_there(cls) -> None:
    """The subclasses override ``limits``' private sweep hook; a release that renames it
    would silently bring back the per-hit sweep."""
    assert "_MemoryStorage__schedule_expiry" in vars(cls.__mro__[1])
