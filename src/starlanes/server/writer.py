"""The store's single writer: every write of the server runs in one thread, in the order it
was asked for, and the actions of all games waiting at the same moment are committed in one
transaction (group commit).

Why: a commit that survives ``kill -9`` waits for the disk (an fsync of SQLite's write-ahead
log, or PostgreSQL's WAL flush), a few milliseconds each. Done in the event loop, every
request of every game would queue behind every commit; done one commit per action in a
thread, the disk would still cap the server at one action per fsync. Here an action is
acknowledged only once the transaction holding it is committed, so durability is the same
as one commit per action, but one fsync acknowledges every action that arrived meanwhile.

A batch the database refuses (a sequence number already taken, which only a second server
on the same database can cause) is retried one action per transaction, so only the refused
action fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .store import NewAction, Store, StoreConflict, StoreError, StoreUnavailable

log = logging.getLogger("starlanes.server")

T = TypeVar("T")

MAX_BATCH = 500
"""The most actions committed in one transaction."""


@dataclass
class _Job:
    """One write: an action to append (grouped with its neighbours) or any store call."""

    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    action: NewAction | None = None
    call: Callable[[], Any] | None = None


class StoreWriter:
    """Runs the store's writes in one thread. ``append`` and ``run`` return when the write is
    committed (or raise what the store raised); ``close`` finishes every queued write."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: list[_Job] = []
        self._wake = threading.Condition()
        self._closing = False
        self._thread = threading.Thread(target=self._loop, name="starlanes-store-writer",
                                        daemon=True)
        self._thread.start()
        self.commits = 0
        self.actions = 0

    # ------------------------------------------------------------------ asking
    async def append(self, action: NewAction) -> None:
        """Commit one action; returns once it is durable. Raises StoreError if the
        database refused it (nothing is stored then)."""
        await self._submit(_Job(asyncio.get_running_loop(), _new_future(), action=action))

    async def run(self, call: Callable[[], T]) -> T:
        """Run ``call`` (a store method that writes) in the writer thread, after every
        write asked for before it; returns its result or raises its exception."""
        return await self._submit(_Job(asyncio.get_running_loop(), _new_future(), call=call))

    async def _submit(self, job: _Job) -> Any:
        with self._wake:
            if self._closing:
                raise StoreUnavailable("the server is stopping; nothing more is stored")
            self._queue.append(job)
            self._wake.notify()
        # The write goes on even if the asking task is cancelled: wait for its end and
        # report it, so that the caller (holding its game's lock) applies the outcome in
        # memory too; the cancellation then takes effect at the caller's next await.
        cancelled = False
        while not job.future.done():
            try:
                await asyncio.shield(job.future)
            except asyncio.CancelledError:
                if job.future.cancelled():
                    raise
                cancelled = True
            except BaseException:  # noqa: BLE001 - the write's own error, raised below
                break
        if cancelled:
            # cancel again at the caller's next await, after it has applied the outcome
            task = asyncio.current_task()
            if task is not None:
                task.cancel()
        return job.future.result()

    def close(self, timeout: float = 10.0) -> None:
        """Refuse new writes, finish the queued ones and stop the thread."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join(timeout)

    # ------------------------------------------------------------------ the thread
    def _loop(self) -> None:
        while True:
            with self._wake:
                while not self._queue and not self._closing:
                    self._wake.wait()
                if not self._queue:
                    return
                jobs, self._queue = self._queue, []
            self._work(jobs)

    def _work(self, jobs: list[_Job]) -> None:
        i = 0
        while i < len(jobs):
            if jobs[i].call is not None:
                self._finish(jobs[i], jobs[i].call)
                i += 1
                continue
            j = i
            while j < len(jobs) and jobs[j].call is None and j - i < MAX_BATCH:
                j += 1
            self._append_batch(jobs[i:j])
            i = j

    def _append_batch(self, batch: list[_Job]) -> None:
        actions = [job.action for job in batch if job.action is not None]
        try:
            self.store.append_actions(actions)
        except StoreConflict:
            if len(batch) == 1:
                self._finish(batch[0], lambda: self.store.append_actions(actions))
                return
            log.warning("a batch of %d actions was refused; storing them one by one",
                        len(batch))
            for job in batch:
                one = [job.action]
                self._finish(job, lambda one=one: self.store.append_actions(one))
            return
        except StoreError as e:  # unavailable: every waiting writer is told, nothing stored
            for job in batch:
                _resolve(job, None, e)
            return
        except Exception as e:  # noqa: BLE001 - answer every waiting writer, keep running
            log.error("a write failed: %s", e)
            for job in batch:
                _resolve(job, None, StoreUnavailable(f"the database refused a write: "
                                                     f"{type(e).__name__}"))
            return
        self.commits += 1
        self.actions += len(actions)
        for job in batch:
            _resolve(job, None, None)

    def _finish(self, job: _Job, call: Callable[[], Any]) -> None:
        try:
            result = call()
        except Exception as e:  # noqa: BLE001 - handed to the asking task
            _resolve(job, None, e)
            return
        self.commits += 1
        _resolve(job, result, None)


def _new_future() -> asyncio.Future[Any]:
    return asyncio.get_running_loop().create_future()


def _resolve(job: _Job, result: Any, error: BaseException | None) -> None:
    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        job.loop.call_soon_threadsafe(settle, job.future, result, error)


def settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """Give ``future`` its result or exception unless it is already done (cancelled).
    Runs in the future's event loop (through ``call_soon_threadsafe``)."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
